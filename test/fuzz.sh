#!/usr/bin/env bash
# Runs every fuzz target of the module for FUZZTIME each (default 60s):
# the decoders (JSON events, run input, protobuf), the verifier on random
# event sequences, the transformers and the rest. go test runs only the
# seed corpora; this is the long mode. A failing input is saved under the
# package's testdata/fuzz and the script stops with its error. Minimising
# a failing input is bounded by FUZZMINIMIZETIME (default 10s), so a
# failure is reported in seconds rather than after go test's default
# minute per input.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime="${FUZZTIME:-60s}"
minimize="${FUZZMINIMIZETIME:-10s}"
grep -rl --include='*_test.go' '^func Fuzz' . | grep -v node_modules | sort | while read -r file; do
  pkg="./$(dirname "${file#./}")"
  for target in $(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' "$file"); do
    printf '=== %s %s (%s)\n' "$pkg" "$target" "$fuzztime"
    go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" -fuzzminimizetime "$minimize" "$pkg" 2>&1 | tail -3
  done
done
