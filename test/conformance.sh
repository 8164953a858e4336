#!/usr/bin/env bash
# The conformance suite on its own: installs the pinned official client
# (npm ci) when needed, builds examples/gin-app and runs the Node tests in
# test/conformance against it. Needs Go, Node.js 20+ and npm.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/conformance"
# npm ci when node_modules is missing or older than the lock file.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --ignore-scripts --no-audit --no-fund
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$here/.." && go build -o "$tmp/gin-app" ./examples/gin-app)
AGUI_APP_BIN="$tmp/gin-app" node --test --test-reporter=spec ./*.test.mjs
