//! `vectors [--check] [--out DIR]`: the folder is --out, or the `vectors/` of the checkout that
//! contains the current directory; outside a checkout, without --out, nothing is written and
//! the command exits 2. The folder the binary was built from is never used implicitly.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("onepath-vout-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn vectors(cwd: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_onepath-conformance"))
        .arg("vectors")
        .args(args)
        .current_dir(cwd)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

// pins [CONF.CLI.VECTORS]: a vectors command that falls back to the folder the binary was built
// from (or writes anywhere) outside a checkout, instead of exiting 2 and asking for --out, fails
// here
#[test]
fn outside_a_checkout_out_is_required() {
    let cwd = scratch("outside");
    for args in [&[][..], &["--check"][..]] {
        let (code, out, err) = vectors(&cwd, args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains("--out DIR"), "{err}");
    }
    // Nothing was written into the current directory.
    assert_eq!(std::fs::read_dir(&cwd).unwrap().count(), 0);
    std::fs::remove_dir_all(&cwd).unwrap();
}

#[test]
fn out_writes_there_and_check_reads_there() {
    let cwd = scratch("cwd");
    let target = cwd.join("generated");
    let t = target.to_str().unwrap();
    let (code, out, err) = vectors(&cwd, &["--out", t]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(target.join("MANIFEST.json").is_file());
    let (code, out, err) = vectors(&cwd, &["--check", "--out", t]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains(t), "{out}");
    // The old spelling --dir still names the same folder.
    let (code, _, err) = vectors(&cwd, &["--check", "--dir", t]);
    assert_eq!(code, 0, "{err}");
    // A stale folder fails the check.
    std::fs::remove_file(target.join("MANIFEST.json")).unwrap();
    let (code, out, _) = vectors(&cwd, &["--check", "--out", t]);
    assert_eq!(code, 1, "{out}");
    std::fs::remove_dir_all(&cwd).unwrap();
}

#[test]
fn inside_the_checkout_the_default_is_its_vectors_folder() {
    // From the repo root and from a subfolder, --check verifies the committed vectors/.
    for cwd in [repo(), repo().join("conformance")] {
        let (code, out, err) = vectors(&cwd, &["--check"]);
        assert_eq!(code, 0, "{}: {out}{err}", cwd.display());
        let want = repo().join("vectors");
        assert!(out.contains(want.to_str().unwrap()), "{out}");
    }
}

#[test]
fn help_says_where_it_writes() {
    let out = Command::new(env!("CARGO_BIN_EXE_onepath-conformance"))
        .args(["vectors", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(
        help.contains("--out <DIR>") && help.contains("checkout"),
        "{help}"
    );
}
