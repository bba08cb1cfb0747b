#!/usr/bin/env bash
# Bounded CI fuzz step: builds every target (cargo-fuzz, nightly; no sanitizer by default, see
# ONEPATH_FUZZ_SANITIZER) and runs each for a fixed number of executions (-runs) from the
# committed seeds and regressions, with the limits of fuzz/<target>.options. Fails on any crash,
# divergence, timeout or out-of-memory (and, with AddressSanitizer, leak or single allocation over
# malloc_limit_mb), except a crash whose panic text matches an open bug
# of fuzz/known-open.txt (printed, then the target is restarted with the next -seed, at most 3 times).
#   ONEPATH_FUZZ_RUNS=N           executions per target (default: the per-target table below)
#   ONEPATH_FUZZ_TARGETS="a b"    a subset of targets
#   ONEPATH_FUZZ_TARGET_DIR=DIR   cargo target dir (default ~/.cache/onepath-rs/fuzz-target, so a
#                                 machine that ran it before only rebuilds what changed)
#   ONEPATH_FUZZ_JOBS=N           targets run at once (default: the number of CPUs); each target's
#                                 lines are printed together when it ends
#   ONEPATH_FUZZ_SANITIZER=S      the build's sanitizer (default none; address for AddressSanitizer).
#                                 Measured 2026-12-07 on 2 cores from an empty target dir: 458 s
#                                 with address, 299 s with none. With address the README's test
#                                 command took about 1,860 s on a fresh machine, past the 30-minute
#                                 CI budget, so CI fuzzes without a sanitizer; long campaigns
#                                 (fuzz/campaign.sh, fuzz/README.md) use AddressSanitizer.
#   ONEPATH_FUZZ_CGU=N            codegen units of the build (default 16; cargo-fuzz's own default
#                                 is 1). Measured 2026-12-07 on 2 cores, rebuilding the four
#                                 workspace crates with ASan: 355 s with 1 unit, 200-260 s with 16;
#                                 the run phase below took 39 s and 40 s. Long campaigns
#                                 (fuzz/README.md) build with cargo-fuzz's default.
set -euo pipefail
cd "$(dirname "$0")"
start=$(date +%s)
TARGETS="${ONEPATH_FUZZ_TARGETS:-$(cargo +nightly fuzz list)}"
TARGET_DIR="${ONEPATH_FUZZ_TARGET_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/onepath-rs/fuzz-target}"
HOST="$(rustc +nightly -vV | sed -n 's/^host: //p')"
# shellcheck source=asan-env.sh
. ./asan-env.sh

# About 1-12 s per target on one core under load (exec/s measured in fuzz/README.md, "Measured";
# the CI run of 2026-12-05 took 1-30 s per target with the earlier, larger budgets). Halved on
# 2026-12-07 (the runs took 207 target-seconds of a 1,482 s test command) to keep CI under 30 min.
default_runs() {
  case "$1" in
    graph_query) echo 1500 ;;
    graph_landmarks|graph_points) echo 7500 ;;
    grid_search) echo 1500 ;;
    state_restore_grid_search) echo 5000 ;;
    flow_script) echo 50 ;;
    state_restore_flow_field) echo 100 ;;
    hex_search) echo 5000 ;;
    hpa_search) echo 200 ;;
    replan_script|voxel_search) echo 1500 ;;
    state_restore_replanner) echo 2000 ;;
    grid_bidi) echo 2500 ;;
    world_restore) echo 500 ;;
    state_restore_voxel) echo 12500 ;;
    state_restore_graph_astar) echo 15000 ;;
    *) echo 25000 ;;
  esac
}

# libFuzzer flags from the [libfuzzer] section of fuzz/<target>.options (OSS-Fuzz format).
flags() {
  sed -n '/^\[libfuzzer\]/,/^\[/p' "$1.options" | grep -E '^[a-z_]+ *=' | sed -E 's/^([a-z_]+) *= *(.*)$/-\1=\2/'
}

# Open-bug lines of fuzz/known-open.txt for a target: "id|ERE".
known() {
  grep -v '^#' known-open.txt 2>/dev/null | awk -F'|' -v t="$1" '$1 == t { print $2 "|" $3 }' || true
}

echo "fuzz/ci.sh: building targets into $TARGET_DIR (sanitizer ${ONEPATH_FUZZ_SANITIZER:-none})"
SANITIZER="${ONEPATH_FUZZ_SANITIZER:-none}"
cargo +nightly fuzz build --sanitizer "$SANITIZER" --codegen-units "${ONEPATH_FUZZ_CGU:-16}" \
  --target-dir "$TARGET_DIR"
echo "fuzz/ci.sh: built in $(( $(date +%s) - start ))s"
# One target: its bounded run, retried past open bugs; its lines go to stdout, 0 when it passed.
run_target() {
  local t="$1" runs work f id t0 attempt seed msg matched cov execs
  runs="${ONEPATH_FUZZ_RUNS:-$(default_runs "$t")}"
  work="$(mktemp -d)" || return 1
  mkdir -p "$work/corpus" "$work/regressions" || return 1
  # Committed regressions join the corpus, except the open bugs (they would stop every run).
  for f in regressions/"$t"/*; do
    [ -f "$f" ] || continue
    id="$(basename "$f")"
    if known "$t" | cut -d'|' -f1 | grep -qxF "$id"; then continue; fi
    cp "$f" "$work/regressions/" || return 1
  done
  t0=$(date +%s)
  attempt=0
  while :; do
    seed=$(( attempt + 1 ))
    # shellcheck disable=SC2046
    if "$TARGET_DIR/$HOST/release/$t" "$work/corpus" "corpus-seeds/$t" "$work/regressions" \
        -runs="$runs" -seed="$seed" -print_final_stats=1 -artifact_prefix="$work/" $(flags "$t") \
        > "$work/log" 2>&1; then
      break
    fi
    msg="$(grep -A1 'panicked at' "$work/log" | sed -n 2p || true)"
    matched=""
    while IFS='|' read -r id ere; do
      [ -n "$ere" ] && [ -n "$msg" ] && echo "$msg" | grep -qE -- "$ere" && matched="$id"
    done < <(known "$t")
    if [ -z "$matched" ]; then
      tail -n 60 "$work/log"
      echo "fuzz/ci.sh: $t FAILED (seed $seed); crashing input: $(ls "$work"/crash-* "$work"/oom-* "$work"/timeout-* "$work"/leak-* 2>/dev/null | head -1)"
      echo "fuzz/ci.sh: to commit it as a regression: fuzz/add-regression.sh $t <that file>"
      return 1
    fi
    echo "fuzz/ci.sh: $t: KNOWN OPEN BUG $matched (fuzz/known-open.txt) hit with -seed=$seed: $msg"
    rm -f "$work"/crash-*
    attempt=$(( attempt + 1 ))
    if [ "$attempt" -ge 3 ]; then
      echo "fuzz/ci.sh: $t: stopped after 3 hits of open bugs"
      break
    fi
  done
  cov=$(grep -oE 'cov: [0-9]+' "$work/log" | tail -1 || true)
  execs=$(grep -oE 'stat::number_of_executed_units: [0-9]+' "$work/log" | grep -oE '[0-9]+$' || echo "?")
  echo "fuzz/ci.sh: $t ok: $execs executions (last attempt), $cov, $(( $(date +%s) - t0 ))s"
  rm -rf "$work"
}

JOBS="${ONEPATH_FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}"
outdir="$(mktemp -d)"
failed=0
# Returns when a running target ends; prints the lines of every finished one at once.
reap() {
  local pid t
  wait -n || true
  for pid in "${!running[@]}"; do
    t="${running[$pid]}"
    [ -f "$outdir/$t.rc" ] || continue
    cat "$outdir/$t.out"
    [ "$(cat "$outdir/$t.rc")" = 0 ] || failed=$(( failed + 1 ))
    unset "running[$pid]"
  done
}
declare -A running=()
for t in $TARGETS; do
  while [ "${#running[@]}" -ge "$JOBS" ]; do reap; done
  # The status file appears only when the target has ended (reap looks for it).
  ( if run_target "$t" > "$outdir/$t.out" 2>&1; then rc=0; else rc=1; fi; echo "$rc" > "$outdir/$t.rc" ) &
  running[$!]="$t"
done
while [ "${#running[@]}" -gt 0 ]; do reap; done
rm -rf "$outdir"
if [ "$failed" -gt 0 ]; then
  echo "fuzz/ci.sh: $failed target(s) FAILED"
  exit 1
fi
echo "fuzz/ci.sh: all targets passed in $(( $(date +%s) - start ))s"
