#!/usr/bin/env bash
# The release commit of version X.Y.Z: a commit on top of HEAD that adds dist/action (the bundle and
# the native ast-grep parts beside it, which a runner needs since it installs no dependencies), tagged
# vX.Y.Z, with the moving major tag vX on it (what workflows use: `uses: <owner>/resolve-bot@v1`).
# Both tags are (re)made here: on a published release or a pushed tag, vX.Y.Z already names the
# source commit, and is moved onto the release commit (whose parent it is). The branch is left as it
# is (dist/ stays ignored there). .github/workflows/release.yml runs it with --push; CI rehearses it
# (test/release.test.ts) with --no-build on a clone.
# Usage: bash scripts/release-action.sh [--no-build] [--push] vX.Y.Z
set -euo pipefail
build=true push=false
while [ $# -gt 1 ]; do
  case "$1" in
    --no-build) build=false ;;
    --push) push=true ;;
    *) break ;;
  esac
  shift
done
tag=${1:?usage: scripts/release-action.sh [--no-build] [--push] vX.Y.Z}
cd "$(dirname "$0")/.."
[[ "$tag" =~ ^v([0-9]+)\.[0-9]+\.[0-9]+$ ]] || { echo "not a release tag (vX.Y.Z): $tag" >&2; exit 1; }
major="v${BASH_REMATCH[1]}"
version=$(node -p 'require("./package.json").version')
[ "v$version" = "$tag" ] || { echo "package.json says $version, the tag $tag: bump the version first" >&2; exit 1; }
if [ "$build" = true ]; then npm run build; fi
[ -f dist/action/index.js ] || { echo "dist/action/index.js missing: npm run build" >&2; exit 1; }
index=$(mktemp)
trap 'rm -f "$index"' EXIT
export GIT_INDEX_FILE=$index
git read-tree HEAD
git add -f dist/action
tree=$(git write-tree)
unset GIT_INDEX_FILE
commit=$(git commit-tree "$tree" -p HEAD -m "resolve-bot $tag: the Action's bundle (dist/action)")
git tag -f -a "$tag" "$commit" -m "resolve-bot $tag" >/dev/null
git tag -f -a "$major" "$commit" -m "resolve-bot $tag (moving major tag)" >/dev/null
echo "tagged $tag and $major at $commit (dist/action: $(du -sh dist/action | cut -f1))"
# A push with the workflow's GITHUB_TOKEN starts no workflow: moving the tags does not run the release again.
if [ "$push" = true ]; then git push --force origin "refs/tags/$tag" "refs/tags/$major"; fi
