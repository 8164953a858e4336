#!/usr/bin/env bash
# Runs every fuzz target of the module for FUZZTIME each (default 60s):
# the decoders (JSON events, run input, protobuf), the verifier on random
# event sequences, the transformers and the rest. go test runs only the
# seed corpora; this is the long mode. A failing input is saved under the
# package's testdata/fuzz and the script stops with its error. Minimising
# a failing input is bounded by FUZZMINIMIZETIME (default 10s), so a
# failure is reported in seconds rather than after go test's default
# minute per input.
#
# Fuzzing compiles the package and everything it imports with coverage
# instrumentation, a build of its own. So each package is built once
# (go test -c -fuzz) and its binary runs each of its targets, as go test
# would: from the package's directory, with go test's corpus cache.
#
# FUZZTIME is a duration (60s) or a count of inputs (10000x). With a
# duration, Go's fuzzing coordinator can fail a target at its deadline with
# a bare "context deadline exceeded" and no failing input, a race in the
# toolchain (https://github.com/golang/go/issues/51484), more often on a
# loaded machine; such a run is retried once. A count has no deadline to
# race, so test/all.sh uses one.
#
# FUZZBRIEF=1 (what test/all.sh sets) fuzzes only the packages in `brief`
# below: the wire decoders and the verifier, where a client's bytes are
# parsed first, and the JSON machinery under them. Their instrumented
# build is the module root's and little more; each other package brings an
# instrumented build of its own (core, Gin, the loop, a model SDK) that
# costs a cold run minutes on two cores. Every target's seed corpus still
# runs in every go test, and the long mode fuzzes every target.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime="${FUZZTIME:-60s}"
minimize="${FUZZMINIMIZETIME:-10s}"
brief=" . ./internal/jsonx ./internal/jsonpatch "
bin="$(mktemp -d)"
trap 'rm -rf "$bin"' EXIT
cache="$(go env GOCACHE)/fuzz"

grep -rl --include='*_test.go' '^func Fuzz' . | grep -v node_modules | xargs -n1 dirname | sort -u | while read -r dir; do
  pkg="./${dir#./}"
  [[ "$pkg" == "./." ]] && pkg="."
  if [[ "${FUZZBRIEF:-}" == "1" && "$brief" != *" $pkg "* ]]; then
    printf '=== %s: its seed corpus ran in go test; the long mode (FUZZTIME=60s bash test/fuzz.sh) fuzzes it\n' "$pkg"
    continue
  fi
  importpath="$(go list "$pkg")"
  exe="$bin/$(echo "$importpath" | tr '/' '_').test"
  go test -c -fuzz=. -o "$exe" "$pkg"
  for target in $(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' "$dir"/*_test.go); do
    printf '=== %s %s (%s)\n' "$pkg" "$target" "$fuzztime"
    for attempt in 1 2; do
      if (cd "$dir" && "$exe" -test.run='^$' -test.fuzz="^${target}\$" -test.fuzztime="$fuzztime" \
        -test.fuzzminimizetime="$minimize" -test.fuzzcachedir="$cache/$importpath") >"$bin/out" 2>&1; then
        tail -2 "$bin/out"
        break
      fi
      if [[ $attempt == 1 && "$fuzztime" != *x ]] && grep -q '^    context deadline exceeded$' "$bin/out" &&
        ! grep -q 'Failing input written' "$bin/out"; then
        echo "(the toolchain's deadline race, golang/go#51484: no failing input; running it again)"
        continue
      fi
      cat "$bin/out"
      exit 1
    done
  done
done
