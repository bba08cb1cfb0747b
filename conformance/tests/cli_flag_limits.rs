//! [DRIVER.CLI.LIMITS]: every numeric flag of every command that takes it refuses a value past
//! its range with exit 2 naming the flag and the value, before any driver starts or any case is
//! generated (`--timeout 1e300` panicked in `Duration::from_secs_f64`, `--deadline 2^64-1`
//! overflowed an `Instant`, `--port-cases 1000000` allocated 7.9 GB, `--threads 100000` started
//! 1,100 drivers). The parsers' edges (the largest value accepted) are unit tests of
//! `port::flags`.

mod cli;

use cli::run;

/// A driver that must never start: it would leave this file behind.
fn port() -> String {
    let marker = std::env::temp_dir().join(format!("onepath-flag-limits-{}", std::process::id()));
    format!("touch {}; sleep 30", marker.display())
}

fn marker_absent() -> bool {
    !std::env::temp_dir()
        .join(format!("onepath-flag-limits-{}", std::process::id()))
        .exists()
}

// pins [DRIVER.CLI.LIMITS]: a kit that accepts a value past a flag's range starts the port (or
// panics, or runs) instead of exiting 2 naming the flag
#[test]
fn values_past_each_limit_exit_2_naming_flag_and_value() {
    let port = port();
    let map = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/cli/mod.rs");
    let past: [(&str, &str); 14] = [
        ("--timeout", "1e300"),
        ("--timeout", "86400.5"),
        ("--timeout", "NaN"),
        ("--timeout", "0"),
        ("--deadline", "18446744073709551615"),
        ("--deadline", "604801"),
        ("--deadline", "0"),
        ("--threads", "100000"),
        ("--threads", "257"),
        ("--port-cases", "1000000"),
        ("--port-cases", "20001"),
        ("--max-reply-mb", "1025"),
        ("--heartbeat", "86401"),
        ("--memory-limit-mb", "16777217"),
    ];
    let mut bad = Vec::new();
    for (flag, value) in past {
        let mut commands: Vec<Vec<&str>> = vec![vec!["certify", "--port", &port, flag, value]];
        if flag == "--timeout" {
            commands.push(vec!["explain", "GRID-0001", "--port", &port, flag, value]);
            commands.push(vec!["synctest", "--port", &port, flag, value]);
            commands.push(vec![
                "movingai", "--map", map, "--scen", map, "--port", &port, flag, value,
            ]);
        }
        if flag == "--threads" {
            commands.push(vec!["certify", flag, value]);
        }
        for args in commands {
            let (code, out, err) = run(&args);
            let text = out + &err;
            if code != 2
                || !text.contains(flag)
                || !text.contains(value)
                || text.contains("panicked")
            {
                bad.push(format!(
                    "{args:?}: exit {code}: {}",
                    &text[..text.len().min(300)]
                ));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    assert!(marker_absent(), "a driver was started");
}
