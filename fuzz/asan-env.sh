# shellcheck shell=bash
# The AddressSanitizer runtime options of every fuzz run (sourced by ci.sh, campaign.sh and
# exec-rate.sh; an ASAN_OPTIONS already set in the environment wins):
#   quarantine_size_mb=32            freed memory kept poisoned (use-after-free), bounded so a
#                                    target's RSS stays far below its rss_limit_mb;
#   malloc_context_size=0            no call stack recorded at each malloc and free;
#   detect_stack_use_after_return=0  no fake stack frames for stack-use-after-return.
# The code fuzzed is safe Rust (onepath-reference forbids unsafe code, onepath denies it but for
# one cache prefetch hint, the harness paths the targets run have none), so the two last checks
# guard a class of bug that cannot occur there; together they cost more than half of the CPU of
# the two slowest targets (issue 36, seventh round, fuzz/README.md). A report of a leak or of a
# memory error then shows no allocation stack: replay the file with
# ASAN_OPTIONS=malloc_context_size=30 to get it.
export ASAN_OPTIONS="${ASAN_OPTIONS:-quarantine_size_mb=32:malloc_context_size=0:detect_stack_use_after_return=0}"
