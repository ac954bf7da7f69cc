#!/usr/bin/env bash
# Builds the container image localhost/resolve-bot:test from the Dockerfile with Debian's buildah
# (chroot isolation: no daemon, no privileges beyond root), on the base image that
# scripts/container-base.sh makes (cached in buildah's storage after the first run), from this
# checkout's node_modules (run `npm ci` first). test/container/image.test.ts runs what it builds.
# Prints how long each part took. Usage (as root): bash scripts/container-build.sh [tag]
set -euo pipefail
cd "$(dirname "$0")/.."
TAG="${1:-localhost/resolve-bot:test}"
[ -d node_modules/better-sqlite3/build/Release ] || { echo "node_modules is missing or not built: run npm ci first" >&2; exit 1; }
started=$SECONDS
bash scripts/container-base.sh
based=$SECONDS
# No layer cache (--layers): CI builds a changed tree each run, for which it saved no time here
# (a changed tree: 137 s with it; 72 s without, at a lower load), while it keeps a 1.1 GB build
# stage per run. The image this tag named before goes: storage holds the base and one image.
buildah bud --isolation chroot --format docker --pull-never --tag "$TAG" . >/tmp/resolve-bot-image-build.log 2>&1 || {
  tail -30 /tmp/resolve-bot-image-build.log
  exit 1
}
buildah rmi --prune >/dev/null 2>&1 || true
echo "image $TAG built: base $((based - started)) s, image $((SECONDS - based)) s ($(buildah images --format '{{.Size}}' "$TAG"))"
