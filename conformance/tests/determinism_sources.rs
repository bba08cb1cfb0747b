//! [SPEC.NUM.IEEE] and [SPEC.NUM.NO_HASH_ORDER] as a source check of both crates: no fused
//! multiply-add, no clock, no randomness from the platform, and a hash container only where a
//! listed file uses it for lookups (its iteration order never reaches a result).

use std::path::{Path, PathBuf};

/// Text that must not appear in either crate's sources.
const FORBIDDEN: [(&str, &str); 6] = [
    (
        "mul_add",
        "fused multiply-add rounds once ([SPEC.NUM.IEEE])",
    ),
    ("fma(", "fused multiply-add rounds once ([SPEC.NUM.IEEE])"),
    ("std::time", "a clock makes results depend on when they run"),
    ("Instant::", "a clock makes results depend on when they run"),
    ("RandomState", "a platform-seeded hash order"),
    ("thread_rng", "platform randomness"),
];

/// Files allowed a `HashMap`/`HashSet`, with the reason it cannot reach a result's order.
const HASH_ALLOWED: [(&str, &str); 1] = [(
    "optimized/src/grid.rs",
    "occupied link-building cells looked up by key; never iterated",
)];

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn violations() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut files = Vec::new();
    sources(&root.join("reference/src"), &mut files);
    sources(&root.join("optimized/src"), &mut files);
    assert!(files.len() > 40, "only {} source files found", files.len());
    let mut found = Vec::new();
    for path in files {
        let rel = path
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let text = std::fs::read_to_string(&path).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for (needle, why) in FORBIDDEN {
                if code.contains(needle) {
                    found.push(format!("{rel}:{}: `{needle}`: {why}", n + 1));
                }
            }
            let hashes = code.contains("HashMap") || code.contains("HashSet");
            if hashes && !HASH_ALLOWED.iter().any(|(f, _)| *f == rel) {
                found.push(format!(
                    "{rel}:{}: a hash container outside the allowed files ([SPEC.NUM.NO_HASH_ORDER])",
                    n + 1
                ));
            }
        }
    }
    found
}

// pins [SPEC.NUM.IEEE] [SPEC.NUM.NO_HASH_ORDER]: every source file of both crates is scanned, and a fused multiply-add (`mul_add`, `fma(`), a clock, platform randomness or a hash container outside the listed file makes it fail with the file and line.
#[test]
fn no_fused_ops_clocks_or_hash_order_in_the_crates() {
    let found = violations();
    assert!(found.is_empty(), "{}", found.join("\n"));
}
