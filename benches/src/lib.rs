//! The benchmarks of onepath-rs live in `benches/` of this package (criterion, `harness = false`);
//! this library is empty. The package is a workspace member outside `default-members`, so that the
//! test command of the workspace (`cargo test --release`) never builds the bench peers. Run one
//! bench with `cargo bench -p onepath-benches --bench NAME`; BENCHMARKS.md has the results.
#![deny(missing_docs)]
#![forbid(unsafe_code)]
