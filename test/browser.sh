#!/usr/bin/env bash
# Browser tests of the example app's chat page (examples/gin-app/web):
# the committed bundle is fresh, and the page works in headless Chromium
# against the real Go app. Needs Go, Node 20+ with npm, and Debian's
# chromium, which it installs when missing (as root or with passwordless
# sudo; otherwise it says what to run). npm ci runs only when the lock
# file changed since the last install. Screenshots
# land in test/artifacts/.
set -euo pipefail
cd "$(dirname "$0")/.."
source test/lib.sh

ensure_chromium
npm_install examples/gin-app/web
# remote.test.mjs serves test/nodeserver's Node agent to the page.
npm_install test/nodeserver
# One build of the app for every page test (and the CopilotKit test, when
# test/all.sh runs it next), not a race-enabled link per test file.
if [[ -z "${AGUI_APP_BIN:-}" ]]; then
  appdir="$(mktemp -d)"
  trap 'rm -rf "$appdir"' EXIT
  go build -buildvcs=false -o "$appdir/gin-app" ./examples/gin-app
  export AGUI_APP_BIN="$appdir/gin-app"
fi
cd examples/gin-app/web
node --test test/bundle.test.mjs
node --test test/page.test.mjs
node --test test/threads.test.mjs
node --test test/a2ui.test.mjs
node --test test/genui.test.mjs
node --test test/resume.test.mjs
node --test test/remote.test.mjs
