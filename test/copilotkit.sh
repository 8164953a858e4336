#!/usr/bin/env bash
# CopilotKit interop: a minimal CopilotKit v2 page (test/copilotkit),
# pointed straight at the Go example app's /agents/echo with no CopilotKit
# runtime, completes a chat round trip in headless Chromium, and a
# useFrontendTool round trip against the loop's /agents/frontend. CopilotKit's
# client speaks pre-1.0 AG-UI, so this also proves the server's downgrade.
#
# Costly (about 950 npm packages, 500 MB), so AGUI_SHORT=1 skips it; CI
# runs it. Needs Go, Node 20+ with npm, and Debian's chromium, which it
# installs when missing (CI runs as root).
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ "${AGUI_SHORT:-}" == 1 ]]; then
  echo "copilotkit: skipped (AGUI_SHORT=1)"
  exit 0
fi

if ! command -v chromium >/dev/null; then
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y chromium
fi
export CHROMIUM="${CHROMIUM:-$(command -v chromium)}"

cd test/copilotkit
npm ci --no-fund --no-audit
node --test test/interop.test.mjs
