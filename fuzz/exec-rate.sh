#!/usr/bin/env bash
# Executions per CPU second of fuzz targets, independent of the machine's load (issue 36):
#   fuzz/exec-rate.sh BIN_DIR [target...]
# BIN_DIR holds built targets (e.g. ~/.cache/onepath-rs/fuzz-target/x86_64-unknown-linux-gnu/release
# after fuzz/ci.sh). Each target runs from its committed seeds twice under /usr/bin/time, with the
# limits of fuzz/<target>.options: -runs=0 (the seed pass) and -runs=N (N from the table below,
# times RUNS_MUL, divided by RUNS_DIV, both default 1). Rate = (executions of the N run - of the
# seed pass) / (user + system CPU seconds of the N run - of the seed pass): the executions per
# second of one dedicated core. Prints "target rate execs cpu load".
#
# Steady state (STEADY=SECONDS): the short run from the seeds finds new features on most inputs
# and spends 25-50% of its time in libFuzzer's feature bookkeeping; a long campaign mostly runs
# inputs that add nothing. With STEADY set, each target first fuzzes for SECONDS (wall clock,
# -max_total_time) from its seeds into STEADY_DIR/<target> (default /tmp/exec-rate-steady; kept,
# and reused by later calls, so two binaries can be measured from the same corpus), then the two
# measured runs start from a copy of that corpus (read-only: new inputs go to a scratch dir)
# instead of the seeds, and the second runs the corpus's files plus N. Prints "target
# steady-rate execs cpu load corpus-files". The corpus run's wall-clock SECONDS give it fewer CPU
# seconds on a loaded machine: say the load when comparing corpora built at different times.
#
# EXTRA="-flag=value ...": libFuzzer flags appended to the two measured runs (after the options
# file's, so they win), e.g. EXTRA=-entropic=0; the steady corpus is grown without them.
set -u
cd "$(dirname "$0")"
BIN="$1"; shift
TARGETS="${*:-$(ls fuzz_targets | sed 's/\.rs$//')}"
# shellcheck source=asan-env.sh
. ./asan-env.sh
flags() { sed -n '/^\[libfuzzer\]/,/^\[/p' "$1.options" | grep -E '^[a-z_]+ *=' | sed -E 's/^([a-z_]+) *= *(.*)$/-\1=\2/'; }
runs_of() {
  case "$1" in
    graph_query|grid_search|replan_script|voxel_search) echo 3000 ;;
    graph_landmarks|graph_points) echo 15000 ;;
    state_restore_grid_search|hex_search) echo 10000 ;;
    flow_script) echo 150 ;;
    state_restore_flow_field) echo 600 ;;
    hpa_search) echo 400 ;;
    state_restore_replanner) echo 4000 ;;
    grid_bidi) echo 5000 ;;
    world_restore) echo 1500 ;;
    state_restore_voxel) echo 25000 ;;
    state_restore_graph_astar) echo 30000 ;;
    *) echo 50000 ;;
  esac
}
STEADY_DIR="${STEADY_DIR:-/tmp/exec-rate-steady}"
case "$BIN" in /*) ;; *) BIN="$OLDPWD/$BIN" ;; esac
one() { # target runs [corpus-dir] -> "executions cpu-seconds"
  local d e c
  d=$(mktemp -d)
  # shellcheck disable=SC2046,SC2086
  /usr/bin/time -f "CPU %U %S" "$BIN/$1" "$d" "${3:-corpus-seeds/$1}" -runs="$2" -seed=1 \
      -print_final_stats=1 -artifact_prefix="$d/" $(flags "$1") ${EXTRA:-} > "$d/log" 2>&1 \
    || { echo "exec-rate: $1 failed:" >&2; tail -20 "$d/log" >&2; }
  e=$(grep -oE 'stat::number_of_executed_units: [0-9]+' "$d/log" | grep -oE '[0-9]+$' | tail -1)
  c=$(awk '/^CPU/ {print $2+$3}' "$d/log" | tail -1)
  echo "${e:-0} ${c:-0}"
  rm -rf "$d"
}
# STEADY: the corpus of a SECONDS-long run from the seeds (built once per target), copied to a
# scratch dir the measured runs read.
steady_corpus() { # target -> path of a fresh copy of its steady corpus
  local c="$STEADY_DIR/$1" d
  if [ ! -d "$c" ]; then
    mkdir -p "$c.tmp"
    # shellcheck disable=SC2046
    "$BIN/$1" "$c.tmp" "corpus-seeds/$1" -max_total_time="$STEADY" -seed=7 \
        -artifact_prefix="$c.tmp/../" $(flags "$1") > "$c.log" 2>&1 \
      || { echo "exec-rate: $1 corpus run failed:" >&2; tail -20 "$c.log" >&2; }
    mv "$c.tmp" "$c"
  fi
  d=$(mktemp -d)
  cp -a "$c/." "$d/"
  echo "$d"
}
for t in $TARGETS; do
  load=$(cut -d' ' -f1 /proc/loadavg)
  src="" n=""
  if [ -n "${STEADY:-}" ]; then src=$(steady_corpus "$t"); n=$(find "$src" -type f | wc -l); fi
  read -r e0 c0 < <(one "$t" 0 "$src")
  # -runs counts the corpus pass too: from a steady corpus, run its files plus N.
  read -r e1 c1 < <(one "$t" "$(( ${n:-0} + $(runs_of "$t") * ${RUNS_MUL:-1} / ${RUNS_DIV:-1} ))" "$src")
  [ -n "$src" ] && rm -rf "$src"
  awk -v t="$t" -v e0="$e0" -v e1="$e1" -v c0="$c0" -v c1="$c1" -v l="$load" -v n="$n" \
    'BEGIN { d = c1 - c0; printf "%s %s %d %.2f %s%s\n", t, (d > 0 ? sprintf("%.0f", (e1 - e0) / d) : "?"), e1 - e0, d, l, (n != "" ? " " n : "") }'
done
