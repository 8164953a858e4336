#!/usr/bin/env bash
# The whole test suite, from a fresh clone on a fresh machine: the README's
# test command, and what .ci/run calls. It installs what the tests need
# (Node packages with npm ci from committed lock files; Debian's chromium
# for the browser tests; Debian's redis-server for the Redis tests) and
# needs nothing installed by hand beyond Go and Node.js.
#
# AGUI_SHORT=1 skips the CopilotKit interop test (a 475 MB npm install).
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n=== %s\n' "$*"; }

step "go vet"
go vet ./...
go vet -tags agui_noverify . ./core/...
go vet -tags agui_debug . ./core/...

step "staticcheck"
go run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...

step "redis-server for the Redis store and replicas tests (installs Debian's redis-server when missing)"
if ! command -v redis-server >/dev/null; then
  if [ "$(id -u)" != "0" ]; then
    echo "redis-server is missing and this is not root: install it (sudo apt-get install -y --no-install-recommends redis-server)," >&2
    echo "or the Redis tests skip (and fail under CI=true)." >&2
    if [ "${CI:-}" = "true" ]; then exit 1; fi
  else
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends redis-server
  fi
fi

step "go test -race (every package: unit, examples, fuzz seeds, official-client conformance, faults, load short mode)"
go test -race -count=1 ./...

step "agui and core with the verifier compiled out, and with the debug dump"
go test -count=1 -tags agui_noverify . ./core/...
go test -count=1 -tags agui_debug . ./core/...

step "fuzzing: every fuzz target for a few seconds (FUZZTIME=60s bash test/fuzz.sh is the long mode)"
FUZZTIME="${FUZZTIME:-3s}" bash test/fuzz.sh

step "bench module: fixture shape, one pass of every benchmark, the end-to-end short mode (every server once at C = 1)"
# -mod=mod: bench/ replaces the main module, whose requirements it must follow.
(cd bench && go vet -mod=mod ./... && go test -mod=mod -count=1 -run . -bench . -benchtime 1x ./...)

step "the example app's chat page in headless Chromium (installs Debian's chromium when missing)"
bash test/browser.sh

if [ "${AGUI_SHORT:-}" = "1" ]; then
  step "CopilotKit interop: skipped (AGUI_SHORT=1)"
else
  step "CopilotKit interop: a CopilotKit v2 page against /agents/echo in Chromium"
  bash test/copilotkit.sh
fi
