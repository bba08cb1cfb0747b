//! Every input of the command line at and past its limits: a bad value exits 2 with a message
//! naming the flag or the file, never a panic (exit 101), never a silent run. Values at the
//! limit are accepted (checked without running the whole command where the run is long).

mod cli;

/// Runs the binary with `args`; returns (exit code, stderr).
fn run(args: &[&str]) -> (i32, String) {
    let (code, _, stderr) = cli::run(args);
    (code, stderr)
}

// pins [CONF.CLI.CERTIFY]: certify must check --seed, --threads, --vectors and --shard before
// running and exit 2 naming the flag; accepting a missing --vectors in shard 5/5 or a bad value
// fails the exit-2 assertion
#[test]
fn bad_values_exit_2_naming_what_is_wrong() {
    let tmp = std::env::temp_dir().join(format!("onepath-cli-inputs-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let garbage = tmp.join("garbage.json");
    std::fs::write(&garbage, "{not json").unwrap();
    let garbage = garbage.to_str().unwrap();
    let missing = tmp.join("missing");
    let missing = missing.to_str().unwrap();
    let junit_in_missing_dir = format!("{missing}/dir/j.xml");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["certify", "--seed", "abc"], "--seed"),
        (vec!["certify", "--seed", "18446744073709551616"], "--seed"),
        (vec!["certify", "--threads", "0"], "--threads"),
        (vec!["certify", "--threads", "-3"], "-3"),
        (vec!["certify", "--vectors", missing], "--vectors"),
        (
            vec!["certify", "--vectors", missing, "--shard", "5/5"],
            "--vectors",
        ),
        (vec!["certify", "--shard", "0/3"], "--shard"),
        (vec!["certify", "--shard", "4/3"], "--shard"),
        (vec!["certify", "--shard", "1/0"], "--shard"),
        (vec!["certify", "--shard", "a/b"], "--shard"),
        (vec!["certify", "--full", "--port", "true"], "--full"),
        (vec!["certify", "--heartbeat", "3"], "--port"),
        (
            vec!["certify", "--port", "true", "--port-cases", "0"],
            "--port-cases",
        ),
        (
            vec!["certify", "--port", "true", "--timeout", "nan"],
            "--timeout",
        ),
        (
            vec!["certify", "--port", "true", "--timeout", "inf"],
            "--timeout",
        ),
        (
            vec!["certify", "--port", "true", "--timeout", "0"],
            "--timeout",
        ),
        (
            vec!["certify", "--port", "true", "--max-reply-mb", "0"],
            "--max-reply-mb",
        ),
        (
            vec!["certify", "--port", "true", "--deadline", "0"],
            "--deadline",
        ),
        (
            vec![
                "certify",
                "--port",
                "true",
                "--max-consecutive-failures",
                "0",
            ],
            "--max-consecutive-failures",
        ),
        (
            vec!["certify", "--port", "true", "--max-failures", "0"],
            "--max-failures",
        ),
        (
            vec!["certify", "--port", "true", "--date", "2025-02-30"],
            "--date",
        ),
        (
            vec!["certify", "--port", "true", "--date", "2025-1-01"],
            "--date",
        ),
        (
            vec![
                "certify",
                "--port",
                "true",
                "--junit",
                &junit_in_missing_dir,
            ],
            "--junit",
        ),
        (
            vec![
                "certify",
                "--port",
                "true",
                "--certificate",
                &junit_in_missing_dir,
            ],
            "--certificate",
        ),
        (
            vec!["certify", "--port", "true", "--expect", missing],
            "missing",
        ),
        (
            vec!["certify", "--port", "true", "--expect", garbage],
            "garbage.json",
        ),
        (
            vec![
                "certify",
                "--port",
                "true",
                "--memory-limit-mb",
                "99999999999999999999",
            ],
            "--memory-limit-mb",
        ),
        (vec!["report", "merge"], "REPORTS"),
        (vec!["report", "merge", missing], "missing"),
        (vec!["report", "merge", garbage], "garbage.json"),
        (vec!["road", "--generate", "0"], "--generate"),
        (vec!["road", "--generate", "4194305"], "--generate"),
        (vec!["road", "--queries", "16777217"], "--queries"),
        (vec!["road", "--gr", missing], "missing"),
        (vec!["no-such-command"], "no-such-command"),
    ];
    for (args, names) in &cases {
        let (code, stderr) = run(args);
        assert_eq!(code, 2, "{args:?}: exit {code}, stderr:\n{stderr}");
        assert!(
            stderr.contains(names),
            "{args:?}: stderr should name {names:?}:\n{stderr}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    let _ = std::fs::remove_dir_all(&tmp);
}

#[test]
fn values_at_the_limits_are_accepted() {
    // `road` at its smallest generated graph and one query runs to the end.
    let (code, stderr) = run(&["road", "--generate", "1", "--queries", "1"]);
    assert_eq!(code, 0, "{stderr}");
    // A shard k = n and one thread are valid (the run itself is certify's, tested elsewhere):
    // the values pass the parser, so the error is the next flag's.
    for (args, names) in [
        (
            vec!["certify", "--shard", "3/3", "--threads", "1", "--seed", "x"],
            "--seed",
        ),
        (
            vec![
                "certify",
                "--port",
                "true",
                "--port-cases",
                "1",
                "--timeout",
                "inf",
            ],
            "--timeout",
        ),
    ] {
        let (code, stderr) = run(&args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stderr.contains(names), "{args:?}: {stderr}");
    }
}
