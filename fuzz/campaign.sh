#!/usr/bin/env bash
# The measured campaign of README.md ("Measured"): one target at a time, one fuzzing process,
# a fresh corpus per target (corpus/<target>), crashes under artifacts/<target>/.
#   fuzz/campaign.sh graph_query:380 graph_landmarks:200 ...   (target:seconds)
# Build first: cargo +nightly fuzz build   (AddressSanitizer, release + debug assertions).
set -euo pipefail
cd "$(dirname "$0")"
# shellcheck source=asan-env.sh
. ./asan-env.sh
bin="target/$(rustc +nightly -vV | sed -n 's/^host: //p')/release"
for spec in "$@"; do
  t=${spec%%:*}; secs=${spec##*:}
  mkdir -p "corpus/$t" "artifacts/$t"
  flags=$(sed -n '/^\[libfuzzer\]/,/^\[/p' "$t.options" | grep -E '^[a-z_]+ *=' | sed -E 's/^([a-z_]+) *= *(.*)$/-\1=\2/' | tr '\n' ' ')
  mode=""
  # An open bug of known-open.txt stops a plain run within ~100 executions: keep going past crashes.
  if grep -v '^#' known-open.txt | cut -d'|' -f1 | grep -qxF "$t"; then mode="-fork=1 -ignore_crashes=1"; fi
  echo "$(date +%T) start $t $secs s: $flags $mode"
  # shellcheck disable=SC2086
  nice -n 10 "$bin/$t" "corpus/$t" "corpus-seeds/$t" $mode -max_total_time="$secs" -seed=7 -print_final_stats=1 \
    -artifact_prefix="artifacts/$t/" $flags > "artifacts/$t.log" 2>&1 || true
  echo "$(date +%T) end $t: $(grep -E '^#[0-9]+' "artifacts/$t.log" | tail -1)"
done
