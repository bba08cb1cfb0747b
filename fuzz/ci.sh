#!/usr/bin/env bash
# Bounded CI fuzz step: builds every target (cargo-fuzz, nightly, AddressSanitizer) and runs each
# for a fixed number of executions from the committed seeds and regressions, with the limits of
# fuzz/<target>.options. Exits non-zero on the first crash, leak, timeout or out-of-memory.
#   ONEPATH_FUZZ_RUNS=N   executions per target (default 4000)
#   ONEPATH_FUZZ_TARGETS="a b"  a subset of targets
set -euo pipefail
cd "$(dirname "$0")"
RUNS="${ONEPATH_FUZZ_RUNS:-4000}"
TARGETS="${ONEPATH_FUZZ_TARGETS:-$(cargo +nightly fuzz list)}"
start=$(date +%s)

# libFuzzer flags from the [libfuzzer] section of fuzz/<target>.options (OSS-Fuzz format).
flags() {
  sed -n '/^\[libfuzzer\]/,/^\[/p' "$1.options" | grep -E '^[a-z_]+ *=' | sed -E 's/^([a-z_]+) *= *(.*)$/-\1=\2/'
}

echo "fuzz/ci.sh: building targets"
cargo +nightly fuzz build
for t in $TARGETS; do
  work="$(mktemp -d)"
  dirs=("$work" "corpus-seeds/$t")
  [ -d "regressions/$t" ] && dirs+=("regressions/$t")
  t0=$(date +%s)
  # shellcheck disable=SC2046
  if ! cargo +nightly fuzz run "$t" "${dirs[@]}" -- -runs="$RUNS" -seed=1 -print_final_stats=1 \
        -artifact_prefix="$work/" $(flags "$t") > "$work/log" 2>&1; then
    cat "$work/log"
    echo "fuzz/ci.sh: $t FAILED; the crashing input is in $work (see fuzz/README.md, add-regression.sh)"
    exit 1
  fi
  cov=$(grep -oE 'cov: [0-9]+' "$work/log" | tail -1)
  echo "fuzz/ci.sh: $t ok: $RUNS runs, $cov, $(( $(date +%s) - t0 ))s"
  rm -rf "$work"
done
echo "fuzz/ci.sh: all targets passed in $(( $(date +%s) - start ))s"
