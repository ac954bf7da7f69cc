#!/usr/bin/env bash
# Tags a release of the GitHub Action: a commit on top of HEAD that adds dist/action (the bundle and
# the native ast-grep parts beside it), which a runner needs since it installs no dependencies.
# The branch is left as it is (dist/ stays ignored there); push the tag: `git push origin <tag>`.
# Usage: bash scripts/release-action.sh v1.2.0
set -euo pipefail
tag=${1:?usage: scripts/release-action.sh <tag>}
cd "$(dirname "$0")/.."
npm run build
index=$(mktemp)
trap 'rm -f "$index"' EXIT
export GIT_INDEX_FILE=$index
git read-tree HEAD
git add -f dist/action
tree=$(git write-tree)
commit=$(git commit-tree "$tree" -p HEAD -m "resolve-bot $tag: the Action's bundle (dist/action)")
git tag -a "$tag" "$commit" -m "resolve-bot $tag"
echo "tagged $tag at $commit (dist/action: $(du -sh dist/action | cut -f1)); push it with: git push origin $tag"
