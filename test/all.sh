#!/usr/bin/env bash
# The whole test suite, from a fresh clone on a fresh machine: the README's
# test command, and what .ci/run calls. It installs what the tests need
# (Node packages with npm ci from committed lock files; Debian's chromium
# for the browser tests; Debian's redis-server and postgresql for the
# store tests) and
# needs nothing installed by hand beyond Go and Node.js.
#
# AGUI_SHORT=1 skips the CopilotKit interop test (a 475 MB npm install).
set -euo pipefail
cd "$(dirname "$0")/.."

# Each stage prints its name as it starts and its time as it ends, and
# the run ends with the total, so a newcomer sees where the minutes go.
# The CPU a stage's commands used (user and system, of the processes it
# waited for) is printed beside its wall time: on two cores, a stage whose
# CPU is near twice its wall time is compute-bound, one far below it waits.
stage="" stage_start=0 stage_cpu=0
cpu_now=0
read_cpu() {
  # `times` prints the shell's and then its children's user and system
  # times as XmY.YYYs. It must run in this shell, not in a command
  # substitution's subshell, to see the children, so the result is left
  # in cpu_now.
  local f
  f="$(mktemp)"
  times >"$f"
  cpu_now="$(awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%d", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$f")"
  rm -f "$f"
}
end_stage() {
  if [[ -n "$stage" ]]; then
    read_cpu
    printf -- '--- %s: %ds, %ds of CPU (total %dm%02ds)\n' "$stage" $((SECONDS - stage_start)) $((cpu_now - stage_cpu)) $((SECONDS / 60)) $((SECONDS % 60))
  fi
}
step() {
  end_stage
  read_cpu
  stage="$*" stage_start=$SECONDS stage_cpu=$cpu_now
  printf '\n=== [%dm%02ds] %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*"
}
# Lanes: work that runs in the background beside the foreground's stages
# (the installs, which wait on the network; the side lane's checks; the
# framework modules), each with its output kept in a log of its own and
# printed when it is waited for, so lanes' lines never interleave.
declare -A lane_pid=() lane_log=()
# start_lane NAME FUNCTION runs FUNCTION in the background as lane NAME.
start_lane() {
  local log
  log="$(mktemp)"
  (
    set -e
    stage="" lane="$1"
    trap 'rc=$?; if [[ $rc != 0 ]]; then printf "\n=== the %s lane FAILED in stage \"%s\"\n" "$lane" "$stage"; fi' EXIT
    "$2"
  ) >"$log" 2>&1 &
  lane_pid[$1]=$! lane_log[$1]="$log"
}
# wait_lane NAME waits for lane NAME, prints its log and fails as it did.
wait_lane() {
  local rc=0
  wait "${lane_pid[$1]}" || rc=$?
  cat "${lane_log[$1]}"
  rm -f "${lane_log[$1]}"
  unset "lane_pid[$1]" "lane_log[$1]"
  return $rc
}
finish() {
  local rc=$? name
  # A failed stage still waits for every lane, so the script leaves
  # nothing running behind it.
  for name in "${!lane_pid[@]}"; do wait_lane "$name" 2>/dev/null || true; done
  if [[ -n "${tools:-}" ]]; then rm -rf "$tools"; fi
  end_stage
  if [[ $rc == 0 ]]; then
    printf '\n=== all stages passed in %dm%02ds\n' $((SECONDS / 60)) $((SECONDS % 60))
  else
    printf '\n=== FAILED in stage "%s" after %dm%02ds\n' "$stage" $((SECONDS / 60)) $((SECONDS % 60))
  fi
}
trap finish EXIT

# Every go command below but the fuzzing builds with the race detector:
# vet, staticcheck's package loading, the tests, and the builds of the
# example app that the tests and the browser pages start. So a cold run
# compiles the tree once, race-enabled, where a plain build for vet and
# the app would cost a second compile of everything (about two minutes on
# two cores), and the app the browser tests drive runs with the detector.
#
# -ldflags=-w: no DWARF in the linked test binaries and apps. Linking is
# a good part of the run's CPU (about a hundred race-enabled test binaries
# and the apps), DWARF about a quarter of each link, and nothing here reads
# it: panics and race reports symbolize from the binary's own tables.
#
# -tags=nomsgpack: Gin without its MessagePack binding (Gin documents the
# tag). Nothing of ours binds request bodies through Gin, and the codec
# behind that binding (github.com/ugorji/go/codec) was about 50 s of a cold
# run's CPU, compiled for nothing here.
export GOFLAGS="${GOFLAGS:+$GOFLAGS }-race -ldflags=-w -tags=nomsgpack"

# The example apps choose their model from these variables (see
# examples/internal/model); the suite drives them on the scripted model and
# on aimock, so a developer's own model settings must not leak in.
unset OPENAI_BASE_URL OPENAI_API_KEY OPENAI_CHAT_MODEL_ID OPENAI_MODEL ANTHROPIC_API_KEY

# The installs wait on the network and the disk, the Go stages below on
# the CPU, so they overlap: every Node package directory's npm ci (each
# skipped when its lock file is unchanged since its last install), Debian's
# redis-server and chromium install in the background while go vet and
# staticcheck compile, and the tests wait for them. The installs' output
# is printed when they are waited for.
source test/lib.sh
install_everything() {
  local lock dir
  for lock in test/*/package-lock.json examples/gin-app/web/package-lock.json internal/officialclient/package-lock.json; do
    dir="$(dirname "$lock")"
    if [[ "$dir" == test/copilotkit && "${AGUI_SHORT:-}" == 1 ]]; then continue; fi
    npm_install "$dir"
  done
  # Debian's packages the tests need and this machine lacks, in one apt
  # run: redis-server and postgres for the store tests (internal/redistest,
  # internal/pgtest start them on loopback), chromium for the pages.
  local missing=()
  command -v redis-server >/dev/null || missing+=(redis-server)
  compgen -G '/usr/lib/postgresql/*/bin/postgres' >/dev/null || missing+=(postgresql)
  [[ -n "${CHROMIUM:-}" ]] || command -v chromium >/dev/null || missing+=(chromium)
  if ((${#missing[@]})); then
    if [ "$(id -u)" != "0" ]; then
      echo "missing: ${missing[*]}, and installing needs root:" >&2
      echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
      echo "Without them the store and browser tests skip (and fail under CI=true)." >&2
      if [ "${CI:-}" = "true" ]; then return 1; fi
    else
      apt-get update
      DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
    fi
  fi
  # Without root the browser stage says what to run; the other stages
  # need no browser.
  ensure_chromium || true
}
start_lane installs install_everything

step "gofmt, go vet"
# gofmt first: it reads the sources only, so a misformatted file fails in
# a second, before any compile.
unformatted="$( (git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path '*/node_modules/*') | xargs gofmt -l)"
if [[ -n "$unformatted" ]]; then
  printf 'not gofmt-formatted (run gofmt -w on them):\n%s\n' "$unformatted" >&2
  exit 1
fi
go vet ./...
go vet -tags agui_noverify . ./core/...
go vet -tags agui_debug . ./core/...

# The checks that need neither the installs nor the foreground's results
# run in a side lane beside the tests: most test packages wait on
# processes, servers and Node for much of their time, and the lane's
# analysis and builds use the cores they leave. Its log is printed, with
# its own stage times, when the foreground has finished.
side_lane() {
  step "staticcheck"
  # Built without the detector (the analysis would run several times
  # slower); it loads the packages with GOFLAGS, sharing the race build.
  GOFLAGS= GOBIN="$tools" go install honnef.co/go/tools/cmd/staticcheck@v0.8.2
  "$tools/staticcheck" ./...

  step "agui and core with the verifier compiled out, and with the debug dump"
  go test -vet=off -count=1 -tags agui_noverify . ./core/...
  go test -vet=off -count=1 -tags agui_debug . ./core/...

  step "fuzzing: the wire decoders, the verifier and the JSON machinery under them for 10,000 inputs each (FUZZTIME=60s bash test/fuzz.sh fuzzes every target)"
  # Fuzzing instruments every package for coverage, a build of its own,
  # which the race detector would only slow down.
  GOFLAGS= FUZZBRIEF=1 FUZZTIME="${FUZZTIME:-10000x}" bash test/fuzz.sh

  step "bench module: fixture shape, one pass of every benchmark, the end-to-end short mode (every server once at C = 1)"
  # -mod=mod: bench/ replaces the main module, whose requirements it must follow.
  (cd bench && go vet -mod=mod ./... && go test -mod=mod -count=1 -run . -bench . -benchtime 1x ./...)
  end_stage
}
tools="$(mktemp -d)"
start_lane side side_lane

step "waiting for the background installs (Node packages, redis-server, postgresql, chromium)"
wait_lane installs || exit

# The example apps, built once (race-enabled) for every test that runs
# them as processes: the conformance, replica, Dojo and page tests would
# each link their own, several seconds of CPU apiece.
go build -buildvcs=false -o "$tools/" ./examples/gin-app ./examples/dojo
export AGUI_APP_BIN="$tools/gin-app" AGUI_DOJO_BIN="$tools/dojo"

step "go test -race (every package: unit, examples, fuzz seeds, official-client conformance, the Go client against the official encoder, faults, load short mode)"
# -vet=off: go vet ran every analyzer over these packages (tests
# included) above; go test's own pass would repeat a subset of it.
go test -race -vet=off -count=1 ./...

# Each framework integration is a Go module of its own, so that a user who
# skips a framework never has it in go.sum; each is vetted and tested from
# its own directory, as a user of it would build it. They compile their
# frameworks (CPU) while the page tests below wait on Chromium, so they
# run in a lane of their own beside them, whose log is printed at the end.
integration_modules() {
  local mod dir
  for mod in integrations/*/go.mod; do
    [[ -e "$mod" ]] || continue
    dir="$(dirname "$mod")"
    step "module $dir: go vet, go test -race"
    (cd "$dir" && go vet ./... && go test -race -vet=off -count=1 ./...)
  done
  end_stage
}
start_lane integrations integration_modules

step "the example app's chat page in headless Chromium (installs Debian's chromium when missing)"
# The page tests and the CopilotKit test run the app built above
# (AGUI_APP_BIN).
bash test/browser.sh

if [ "${AGUI_SHORT:-}" = "1" ]; then
  step "CopilotKit interop: skipped (AGUI_SHORT=1)"
else
  step "CopilotKit interop: a CopilotKit v2 page against /agents/echo in Chromium"
  bash test/copilotkit.sh
fi

step "waiting for the integrations lane (every module under integrations/)"
wait_lane integrations || exit

step "waiting for the side lane (staticcheck, the build tags, fuzzing, the bench module)"
wait_lane side || exit
