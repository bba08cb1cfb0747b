#!/usr/bin/env bash
# Re-exports the committed seed corpus fuzz/corpus-seeds/<target>/ from the crates
# (state targets: golden saves of the reference crate, checked equal to onepath's; graph
# targets: fixed pseudo-random byte strings). The test `seeds_are_current` fails when they are stale.
set -euo pipefail
cd "$(dirname "$0")/.."
ONEPATH_WRITE_SEEDS=1 cargo test --release -p onepath-conformance --test fuzz_regressions seeds_are_current
