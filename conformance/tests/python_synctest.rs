//! [CONF.SYNC.CLI] [DRIVER.OP.SYNCTEST] [DRIVER.PY.DEFECTS] The Python port passes the sync test
//! through the driver (2,000 frames here; the 10,000-frame default is in the closing note of
//! the issue), and its `sync_perturb` defect (a weight changed after the 20th rollback) is
//! caught at the first frame that rollback resimulates, in the graph member.

use std::process::Command;

fn synctest(port: &str, frames: &str) -> (Option<i32>, String) {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let o = Command::new(env!("CARGO_BIN_EXE_onepath-conformance"))
        .current_dir(root)
        .args([
            "synctest",
            "--frames",
            frames,
            "--timeout",
            "600",
            "--port",
            port,
        ])
        .output()
        .expect("the kit runs");
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr),
    )
}

#[test]
fn the_python_port_passes_two_thousand_frames() {
    let (code, text) = synctest("python3 conformance/ports/python/driver.py", "2000");
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("onepath_py: pass (2000 frames, 9000 resimulated)"),
        "{text}"
    );
}

// pins [DRIVER.OP.SYNCTEST]: a kit that does not judge the session reply the port sends for
// synctest by the sync judge (the perturbed port's resimulated checksum at frame 16, member 1)
// fails
#[test]
fn a_perturbed_python_port_is_caught_at_frame_16_in_the_graph() {
    let (code, text) = synctest(
        "ONEPATH_PY_DEFECT=sync_perturb python3 conformance/ports/python/driver.py",
        "300",
    );
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("onepath-reference: pass"), "{text}");
    assert!(
        text.contains("onepath_py: FAIL: frame 16, member 1: resimulated checksum"),
        "{text}"
    );
}
