//! [CONF.CLI.ATOMIC] `vectors --out DIR` killed (SIGKILL) at several moments leaves `DIR`
//! exactly the old set of files or exactly the new one, never a mix, a missing file or a
//! partial one; the next run removes what the killed run left beside it.

mod cli;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// Every file under `dir`: relative path to bytes.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// Makes `dir` hold exactly `files`, alone in its parent (what a killed run left beside it is
/// removed, so the next run's first write is seen).
fn put(dir: &Path, files: &BTreeMap<String, Vec<u8>>) {
    let _ = std::fs::remove_dir_all(dir.parent().unwrap());
    for (rel, bytes) in files {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
}

/// Runs `vectors --out dir` (the binary under test; `ONEPATH_ATOMIC_BIN` names another, to show
/// what an earlier build does).
fn vectors_out(dir: &Path) -> std::process::Child {
    let bin = std::env::var_os("ONEPATH_ATOMIC_BIN")
        .unwrap_or_else(|| env!("CARGO_BIN_EXE_onepath-conformance").into());
    Command::new(bin)
        .args(["vectors", "--out", dir.to_str().unwrap()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap()
}

// pins [CONF.CLI.ATOMIC]: a vectors --out run that writes in place, or leaves hidden new/old
// siblings after a kill, shows a mixed folder or leftovers after a SIGKILL and fails the old-or-new
// assertions
#[test]
fn a_killed_vectors_run_leaves_the_old_set_or_the_new_one() {
    let base = cli::scratch("atomic", "kill");
    // The new set: what an uninterrupted run writes.
    let fresh = base.join("fresh");
    let started = std::time::Instant::now();
    assert!(vectors_out(&fresh).wait().unwrap().success());
    let whole = started.elapsed();
    let new = snapshot(&fresh);
    std::fs::remove_dir_all(&fresh).unwrap();
    assert!(new.len() > 400, "{} files", new.len());
    // The old set: the new one with a changed file, a file the new set lacks and one missing.
    let mut old = new.clone();
    old.insert("MANIFEST.json".into(), b"{\"old\": true}\n".to_vec());
    old.insert("graphs/OLD-ONLY.json".into(), b"old\n".to_vec());
    let first = new
        .keys()
        .find(|k| k.starts_with("state/"))
        .unwrap()
        .clone();
    old.remove(&first);
    let out = base.join("sets").join("vectors");
    let check = |now: BTreeMap<String, Vec<u8>>, when: &str, saw: &mut (u32, u32)| {
        if now == old {
            saw.0 += 1;
        } else if now == new {
            saw.1 += 1;
        } else {
            let mixed = now.keys().filter(|k| old.get(*k) != new.get(*k)).count();
            panic!(
                "killed {when}: {} files, neither the old set ({}) nor the new ({}); {mixed} differ",
                now.len(),
                old.len(),
                new.len()
            );
        }
    };
    let mut saw = (0, 0);
    // Kills at fractions of a whole run: before, around and after the writing.
    for percent in [0u32, 50, 90, 300] {
        put(&out, &old);
        let mut child = vectors_out(&out);
        let delay = whole * percent / 100;
        std::thread::sleep(delay);
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
        check(
            snapshot(&out),
            &format!("after {delay:?} ({percent}% of a run)"),
            &mut saw,
        );
    }
    // Kills timed from the first write the run makes (a file of the folder changing, or a
    // new entry beside it), then 0 to 20 ms later: inside the writing, whatever the load.
    let parent = out.parent().unwrap().to_path_buf();
    let manifest = out.join("MANIFEST.json");
    for extra_ms in [0u64, 0, 1, 2, 4, 8, 20] {
        put(&out, &old);
        let mut child = vectors_out(&out);
        let started = std::time::Instant::now();
        loop {
            let beside = std::fs::read_dir(&parent).map(|d| d.count()).unwrap_or(0) > 1;
            let changed = std::fs::read(&manifest).ok().as_ref() != old.get("MANIFEST.json");
            if beside || changed || started.elapsed() > whole * 4 {
                break;
            }
            std::thread::sleep(std::time::Duration::from_micros(200));
        }
        std::thread::sleep(std::time::Duration::from_millis(extra_ms));
        let _ = child.kill();
        let _ = child.wait();
        check(
            snapshot(&out),
            &format!("{extra_ms} ms into the writing"),
            &mut saw,
        );
    }
    let (saw_old, saw_new) = saw;
    eprintln!("a run takes {whole:?}; old set after {saw_old} kills, new set after {saw_new}");
    assert!(
        saw_old > 0 && saw_new > 0,
        "every kill landed on the same side"
    );
    // A complete run afterwards writes the new set and removes the killed runs' siblings.
    assert!(vectors_out(&out).wait().unwrap().success());
    assert_eq!(snapshot(&out), new);
    let left: Vec<String> = std::fs::read_dir(out.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, vec!["vectors".to_string()], "left beside the folder");
    let _ = std::fs::remove_dir_all(&base);
}
