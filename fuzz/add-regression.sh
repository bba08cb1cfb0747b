#!/usr/bin/env bash
# Turns a crash file into a committed regression:
#   fuzz/add-regression.sh <target> <crash-file> [id]
# copies it to fuzz/regressions/<target>/<id> (default id: the crash file's sha1 prefix),
# minimises nothing (keep what libFuzzer wrote; use `cargo +nightly fuzz tmin` first if you like),
# replays it through the same helper the target runs, and prints the git command to commit it.
set -euo pipefail
cd "$(dirname "$0")/.."
target="$1"; crash="$2"
id="${3:-$(sha1sum "$crash" | cut -c1-12)}"
[ -f "fuzz/fuzz_targets/$target.rs" ] || { echo "unknown target $target" >&2; exit 2; }
mkdir -p "fuzz/regressions/$target"
cp "$crash" "fuzz/regressions/$target/$id"
echo "added fuzz/regressions/$target/$id; replaying (it fails until the bug is fixed):"
cargo test --release -p onepath-conformance --test fuzz_regressions regressions_replay || true
echo "commit with: git add fuzz/regressions/$target/$id && git commit -m 'fuzz: regression $target/$id' -- fuzz/regressions/$target/$id"
