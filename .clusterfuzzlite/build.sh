#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz build: every cargo-fuzz target of fuzz/ with its .options file and
# a seed corpus zip (committed seeds + committed regressions). $SANITIZER, $RUSTFLAGS and $OUT
# come from the base-builder-rust image.
cd "$SRC/onepath-rs/fuzz"
cargo fuzz build -O
out_dir=target/x86_64-unknown-linux-gnu/release
for target in $(cargo fuzz list); do
  cp "$out_dir/$target" "$OUT/"
  cp "$target.options" "$OUT/$target.options"
  rm -f "$OUT/${target}_seed_corpus.zip"
  zip -q -j "$OUT/${target}_seed_corpus.zip" corpus-seeds/"$target"/* $(ls regressions/"$target"/* 2>/dev/null || true)
done
