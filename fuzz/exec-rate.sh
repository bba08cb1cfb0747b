#!/usr/bin/env bash
# Executions per CPU second of fuzz targets, independent of the machine's load (issue 36):
#   fuzz/exec-rate.sh BIN_DIR [target...]
# BIN_DIR holds built targets (e.g. ~/.cache/onepath-rs/fuzz-target/x86_64-unknown-linux-gnu/release
# after fuzz/ci.sh). Each target runs from its committed seeds twice under /usr/bin/time, with the
# limits of fuzz/<target>.options: -runs=0 (the seed pass) and -runs=N (N from the table below,
# divided by RUNS_DIV, default 1). Rate = (executions of the N run - of the seed pass) /
# (user + system CPU seconds of the N run - of the seed pass): the executions per second of one
# dedicated core. Prints "target rate execs cpu load".
set -u
cd "$(dirname "$0")"
BIN="$1"; shift
TARGETS="${*:-$(ls fuzz_targets | sed 's/\.rs$//')}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-quarantine_size_mb=32}"
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
one() { # target runs -> "executions cpu-seconds"
  local d e c
  d=$(mktemp -d)
  # shellcheck disable=SC2046
  /usr/bin/time -f "CPU %U %S" "$BIN/$1" "$d" "corpus-seeds/$1" -runs="$2" -seed=1 \
      -print_final_stats=1 -artifact_prefix="$d/" $(flags "$1") > "$d/log" 2>&1 \
    || { echo "exec-rate: $1 failed:" >&2; tail -20 "$d/log" >&2; }
  e=$(grep -oE 'stat::number_of_executed_units: [0-9]+' "$d/log" | grep -oE '[0-9]+$' | tail -1)
  c=$(awk '/^CPU/ {print $2+$3}' "$d/log" | tail -1)
  echo "${e:-0} ${c:-0}"
  rm -rf "$d"
}
for t in $TARGETS; do
  load=$(cut -d' ' -f1 /proc/loadavg)
  read -r e0 c0 < <(one "$t" 0)
  read -r e1 c1 < <(one "$t" "$(( $(runs_of "$t") / ${RUNS_DIV:-1} ))")
  awk -v t="$t" -v e0="$e0" -v e1="$e1" -v c0="$c0" -v c1="$c1" -v l="$load" \
    'BEGIN { d = c1 - c0; printf "%s %s %d %.2f %s\n", t, (d > 0 ? sprintf("%.0f", (e1 - e0) / d) : "?"), e1 - e0, d, l }'
done
