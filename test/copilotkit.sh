#!/usr/bin/env bash
# CopilotKit interop: a minimal CopilotKit v2 page (test/copilotkit),
# pointed straight at the Go example app's /agents/echo with no CopilotKit
# runtime, completes a chat round trip in headless Chromium, and a
# useFrontendTool round trip against the loop's /agents/frontend. CopilotKit's
# client speaks pre-1.0 AG-UI, so this also proves the server's downgrade.
#
# Costly (about 950 npm packages, 500 MB), so AGUI_SHORT=1 skips it; CI
# runs it. Needs Go, Node 20+ with npm, and Debian's chromium, which it
# installs when missing (as root or with passwordless sudo; otherwise it
# says what to run).
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ "${AGUI_SHORT:-}" == 1 ]]; then
  echo "copilotkit: skipped (AGUI_SHORT=1)"
  exit 0
fi

source test/lib.sh
ensure_chromium
# About 950 packages: installed again only when the lock file changed.
npm_install test/copilotkit
cd test/copilotkit
node --test test/interop.test.mjs
