#!/usr/bin/env bash
# CI's build of the container image localhost/resolve-bot:test: the Dockerfile as any self-hoster
# builds it (`npm ci` inside, from the npm registry), with Debian's buildah (chroot isolation: no
# daemon) on the base scripts/container-base.sh makes in place of node:24-trixie-slim, since no
# container registry is reachable here (cached in buildah's storage after the first run).
# test/container/image.test.ts runs what it builds, when its label org.opencontainers.image.revision
# is the test's checkout's commit (as the release workflow labels it). Prints how long each part took.
# Usage (as root): bash scripts/container-build.sh [tag]
set -euo pipefail
cd "$(dirname "$0")/.."
TAG="${1:-localhost/resolve-bot:test}"
BASE="localhost/resolve-bot-base:node24-trixie-slim" # made by scripts/container-base.sh
CACHE="localhost/resolve-bot-build:cache"
log="$(mktemp /var/tmp/resolve-bot-image-build.XXXXXX.log)"
trap 'rm -f "$log"' EXIT
started=$SECONDS
bash scripts/container-base.sh
based=$SECONDS
# Layers are cached (--layers): the Dockerfile installs the build tools and runs `npm ci` before it
# copies src/, so a build whose package*.json did not change reuses them. The build stage is tagged
# (CACHE) so that those layers are kept, and `rmi --prune` then drops what older builds left.
bud=(buildah bud --isolation chroot --format docker --pull-never --layers --build-arg "BASE=$BASE")
{
  "${bud[@]}" --target build --tag "$CACHE" . &&
    "${bud[@]}" --label "org.opencontainers.image.revision=$(git rev-parse HEAD 2>/dev/null || echo unknown)" --tag "$TAG" .
} >"$log" 2>&1 || {
  tail -40 "$log"
  exit 1
}
buildah rmi --prune >/dev/null
echo "image $TAG built: base $((based - started)) s, image $((SECONDS - based)) s ($(buildah images --format '{{.Size}}' "$TAG"))"
