#!/usr/bin/env bash
# Browser tests of the example app's chat page (examples/gin-app/web):
# the committed bundle is fresh, and the page works in headless Chromium
# against the real Go app. Needs Go, Node 20+ with npm, and Debian's
# chromium, which it installs when missing (CI runs as root). Screenshots
# land in test/artifacts/.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v chromium >/dev/null; then
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y chromium
fi
export CHROMIUM="${CHROMIUM:-$(command -v chromium)}"

cd examples/gin-app/web
npm ci --no-fund --no-audit
node --test test/bundle.test.mjs
node --test test/page.test.mjs
node --test test/resume.test.mjs
