//! [DRIVER.PROC.CAP]: a reply line under the cap costs memory in proportion to its length, not
//! to the number of JSON values it holds. A 16 MiB line of `[{"":0},...]` cost 3.17 GB as a
//! `serde_json::Value` tree before its typed error. Each payload below goes through the kit's own
//! path (`parse_reply`, then the op's reply type) under an allocator that tracks the peak of live
//! bytes; the bound is four times the line (the line, its `ok` text, one raw copy inside a
//! keyed payload).

use onepath_conformance::debug::model::DescribeEntry;
use onepath_conformance::port::driver::{parse_reply, Reply};
use onepath_conformance::port::replies::{GridRunReply, HookedReply, RunCaseReply};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Peak;
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grow(n: usize) {
    let now = LIVE.fetch_add(n, Ordering::Relaxed) + n;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

unsafe impl GlobalAlloc for Peak {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        grow(l.size());
        System.alloc(l)
    }
    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        grow(l.size());
        System.alloc_zeroed(l)
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        if new > l.size() {
            grow(new - l.size());
        } else {
            LIVE.fetch_sub(l.size() - new, Ordering::Relaxed);
        }
        System.realloc(p, l, new)
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        LIVE.fetch_sub(l.size(), Ordering::Relaxed);
        System.dealloc(p, l)
    }
}

#[global_allocator]
static A: Peak = Peak;

/// `[{"":0},{"":0},...]` of about `bytes` bytes.
fn many_objects(bytes: usize) -> String {
    let n = bytes / 7;
    let mut s = String::with_capacity(n * 7 + 2);
    s.push('[');
    for i in 0..n {
        if i > 0 {
            s.push(',');
        }
        s.push_str(r#"{"":0}"#);
    }
    s.push(']');
    s
}

/// The peak of live bytes above the current level while `f` runs.
fn peak_of(f: impl FnOnce()) -> usize {
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    f();
    PEAK.load(Ordering::Relaxed) - base
}

/// Sends `payload` as the `ok` of reply 1 and decodes it as `T`; the decode must fail (none of
/// these payloads is a valid reply) within four times the line's length.
fn check<T: serde::de::DeserializeOwned>(what: &str, payload: &str) {
    let line = format!("{{\"id\":1,\"ok\":{payload}}}\n");
    let bound = 4 * line.len();
    let peak = peak_of(|| {
        let Reply::Ok(text) = parse_reply(&line, 1) else {
            panic!("{what}: not an ok reply");
        };
        assert!(serde_json::from_str::<T>(&text).is_err(), "{what}: decoded");
    });
    eprintln!("{what}: line {} bytes, peak {peak} bytes", line.len());
    assert!(
        peak <= bound,
        "{what}: a {}-byte line peaked at {peak} live bytes (bound {bound})",
        line.len()
    );
}

// pins [DRIVER.PROC.CAP]: a reply decoded through a generic tree (the envelope, a keyed
// payload, a hook call, a describe entry) costs gigabytes for a line under the cap.
#[test]
fn replies_under_the_cap_cost_memory_in_proportion_to_their_length() {
    let objs = many_objects(16 << 20);
    check::<RunCaseReply>("plain payload", &objs);
    check::<GridRunReply>("keyed payload, plain form", &format!("{{\"x\":{objs}}}"));
    check::<GridRunReply>(
        "keyed payload, failure form",
        &format!("{{\"failure\":{objs}}}"),
    );
    check::<HookedReply>(
        "hook call",
        &format!("{{\"calls\":[[\"edge_cost\",{objs}]]}}"),
    );
    check::<Vec<DescribeEntry>>("describe entry", &format!("[{objs}]"));
}
