//! Checks of `certify --port` flags made before the run starts ([DRIVER.CLI.CHECKS]): the
//! certificate date is a real `YYYY-MM-DD` date, and every report file can be written (its
//! parent is an existing, writable directory), so a long run never ends in an unwritable report.

use std::path::Path;

/// What is wrong with a `--date` value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DateErrorKind {
    /// Not `YYYY-MM-DD` with digits.
    Format,
    /// Month outside 1–12.
    Month,
    /// Day outside the month (leap years counted).
    Day,
}

/// A rejected `--date` value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DateError {
    /// What is wrong.
    pub kind: DateErrorKind,
    /// The value (clipped).
    pub value: String,
}

impl std::fmt::Display for DateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let why = match self.kind {
            DateErrorKind::Format => "is not YYYY-MM-DD",
            DateErrorKind::Month => "has no such month",
            DateErrorKind::Day => "has no such day in its month",
        };
        write!(f, "date {:?} {why}", self.value)
    }
}

impl std::error::Error for DateError {}

/// Parses a `--date` value: `YYYY-MM-DD` naming a real day of the proleptic Gregorian calendar.
pub fn parse_date(s: &str) -> Result<String, DateError> {
    let err = |kind| DateError {
        kind,
        value: s.chars().take(40).collect(),
    };
    let b = s.as_bytes();
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    if b.len() != 10
        || b[4] != b'-'
        || b[7] != b'-'
        || !digits(0..4)
        || !digits(5..7)
        || !digits(8..10)
    {
        return Err(err(DateErrorKind::Format));
    }
    let num = |r: std::ops::Range<usize>| s[r].parse::<u32>().unwrap_or(0);
    let (y, m, d) = (num(0..4), num(5..7), num(8..10));
    if !(1..=12).contains(&m) {
        return Err(err(DateErrorKind::Month));
    }
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match m {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    if !(1..=days).contains(&d) {
        return Err(err(DateErrorKind::Day));
    }
    Ok(s.to_string())
}

/// Checks a `--date` value ([`parse_date`]).
pub fn valid_date(s: &str) -> bool {
    parse_date(s).is_ok()
}

/// Today's date (UTC) from the system clock, `YYYY-MM-DD`: certificate metadata only.
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    civil_date((secs / 86_400) as i64)
}

/// Days since 1970-01-01 to `YYYY-MM-DD` (proleptic Gregorian).
pub fn civil_date(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Why a report file cannot be written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputPathErrorKind {
    /// The parent directory does not exist.
    NoParent,
    /// The parent exists but is not a directory.
    ParentNotADirectory,
    /// The path names a directory.
    IsADirectory,
    /// A file cannot be created in the parent directory.
    NotWritable,
}

/// A report path that cannot be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputPathError {
    /// What is wrong.
    pub kind: OutputPathErrorKind,
    /// The path and the system's reason.
    pub message: String,
}

impl std::fmt::Display for OutputPathError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for OutputPathError {}

/// Checks that `path` can be written: its parent (`.` for a bare name) is an existing
/// directory in which a file can be created (tried with a probe file, removed at once), and
/// `path` is not itself a directory. Nothing at `path` is created or changed.
pub fn check_output_path(path: &Path) -> Result<(), OutputPathError> {
    let err = |kind, why: String| OutputPathError {
        kind,
        message: format!("{}: {why}", path.display()),
    };
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    match std::fs::metadata(parent) {
        Err(e) => {
            return Err(err(
                OutputPathErrorKind::NoParent,
                format!("directory {} does not exist ({e})", parent.display()),
            ))
        }
        Ok(m) if !m.is_dir() => {
            return Err(err(
                OutputPathErrorKind::ParentNotADirectory,
                format!("{} is not a directory", parent.display()),
            ))
        }
        Ok(_) => {}
    }
    if path.is_dir() {
        return Err(err(
            OutputPathErrorKind::IsADirectory,
            "is a directory".into(),
        ));
    }
    let probe = parent.join(format!(".onepath-write-probe-{}", std::process::id()));
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
    {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            Ok(())
        }
        Err(e) => Err(err(
            OutputPathErrorKind::NotWritable,
            format!("directory {} is not writable ({e})", parent.display()),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_must_be_real_days() {
        assert!(parse_date("2026-12-01").is_ok());
        assert!(parse_date("2024-02-29").is_ok() && parse_date("2000-02-29").is_ok());
        assert_eq!(
            parse_date("1900-02-29").unwrap_err().kind,
            DateErrorKind::Day
        );
        assert_eq!(
            parse_date("2025-04-31").unwrap_err().kind,
            DateErrorKind::Day
        );
        assert_eq!(
            parse_date("2025-04-00").unwrap_err().kind,
            DateErrorKind::Day
        );
        assert_eq!(
            parse_date("2025-00-10").unwrap_err().kind,
            DateErrorKind::Month
        );
        assert_eq!(
            parse_date("2025-13-10").unwrap_err().kind,
            DateErrorKind::Month
        );
        for bad in [
            "2025-1-29",
            "2025/01/29",
            "20250129xx",
            "２０２５-01-01",
            "",
            "2025-01-2x",
        ] {
            assert_eq!(
                parse_date(bad).unwrap_err().kind,
                DateErrorKind::Format,
                "{bad}"
            );
        }
    }

    #[test]
    fn output_paths_need_a_writable_parent_directory() {
        let dir = std::env::temp_dir().join(format!("onepath-flags-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert_eq!(check_output_path(&dir.join("r.xml")), Ok(()));
        assert!(!dir.join("r.xml").exists(), "nothing is created");
        let kind = |p: &Path| check_output_path(p).unwrap_err().kind;
        assert_eq!(
            kind(&dir.join("missing/r.xml")),
            OutputPathErrorKind::NoParent
        );
        std::fs::write(dir.join("file"), "x").unwrap();
        assert_eq!(
            kind(&dir.join("file/r.xml")),
            OutputPathErrorKind::ParentNotADirectory
        );
        assert_eq!(kind(&dir), OutputPathErrorKind::IsADirectory);
        // /proc refuses new files even to root.
        assert_eq!(
            kind(Path::new("/proc/onepath-r.xml")),
            OutputPathErrorKind::NotWritable
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A numeric flag value outside its documented range ([DRIVER.CLI.LIMITS]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RangeError {
    /// The value as given (clipped to 40 characters).
    pub value: String,
    /// What the flag takes.
    pub expected: &'static str,
}

impl std::fmt::Display for RangeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?} is not {}", self.value, self.expected)
    }
}

impl std::error::Error for RangeError {}

/// The largest `--timeout` in seconds (one day).
pub const MAX_TIMEOUT_SECS: f64 = 86_400.0;
/// The largest `--deadline` in seconds (one week).
pub const MAX_DEADLINE_SECS: u64 = 604_800;
/// The largest `--threads`.
pub const MAX_THREADS: usize = 256;
/// The largest `--port-cases` (100 times the default).
pub const MAX_PORT_CASES: usize = 20_000;
/// The largest `--max-reply-mb` (1 GiB).
pub const MAX_REPLY_MB: u64 = 1024;
/// The largest `--heartbeat` in seconds (one day).
pub const MAX_HEARTBEAT_SECS: u64 = 86_400;
/// The largest `--memory-limit-mb` (16 TiB).
pub const MAX_MEMORY_LIMIT_MB: u64 = 16 * 1024 * 1024;

fn range_error(s: &str, expected: &'static str) -> RangeError {
    RangeError {
        value: s.chars().take(40).collect(),
        expected,
    }
}

fn integer_in<T>(s: &str, lo: T, hi: T, expected: &'static str) -> Result<T, RangeError>
where
    T: std::str::FromStr + PartialOrd,
{
    match s.parse::<T>() {
        Ok(n) if n >= lo && n <= hi => Ok(n),
        _ => Err(range_error(s, expected)),
    }
}

/// `--timeout`: a finite number of seconds `> 0` and `<= 86400`.
pub fn parse_timeout(s: &str) -> Result<f64, RangeError> {
    match s.parse::<f64>() {
        Ok(t) if timeout_in_range(t) => Ok(t),
        _ => Err(range_error(s, TIMEOUT_RANGE)),
    }
}

const TIMEOUT_RANGE: &str = "a number of seconds above 0 and at most 86400";

fn timeout_in_range(t: f64) -> bool {
    t > 0.0 && t <= MAX_TIMEOUT_SECS
}

/// The `--timeout` range for a value that did not come through [`parse_timeout`] (the library
/// entry points of `explain` and `synctest` take their arguments as values).
pub fn check_timeout(t: f64) -> Result<f64, RangeError> {
    if timeout_in_range(t) {
        Ok(t)
    } else {
        Err(range_error(&t.to_string(), TIMEOUT_RANGE))
    }
}

/// `--deadline`: whole seconds `1..=604800`.
pub fn parse_deadline(s: &str) -> Result<u64, RangeError> {
    integer_in(
        s,
        1,
        MAX_DEADLINE_SECS,
        "a whole number of seconds from 1 to 604800",
    )
}

/// `--threads`: `1..=256`.
pub fn parse_threads(s: &str) -> Result<usize, RangeError> {
    integer_in(s, 1, MAX_THREADS, "a whole number from 1 to 256")
}

/// `--port-cases`: `1..=20000`.
pub fn parse_port_cases(s: &str) -> Result<usize, RangeError> {
    integer_in(s, 1, MAX_PORT_CASES, "a whole number from 1 to 20000")
}

/// `--max-reply-mb`: `1..=1024`.
pub fn parse_max_reply_mb(s: &str) -> Result<u64, RangeError> {
    integer_in(s, 1, MAX_REPLY_MB, "a whole number of MiB from 1 to 1024")
}

/// `--heartbeat`: whole seconds `0..=86400` (0: off).
pub fn parse_heartbeat(s: &str) -> Result<u64, RangeError> {
    integer_in(
        s,
        0,
        MAX_HEARTBEAT_SECS,
        "a whole number of seconds from 0 to 86400",
    )
}

/// `--memory-limit-mb`: `0..=16777216` (0: no limit).
pub fn parse_memory_limit_mb(s: &str) -> Result<u64, RangeError> {
    integer_in(
        s,
        0,
        MAX_MEMORY_LIMIT_MB,
        "a whole number of MiB from 0 (no limit) to 16777216",
    )
}

#[cfg(test)]
mod range_tests {
    use super::*;

    #[test]
    fn every_limit_is_accepted_at_its_edge_and_refused_past_it() {
        assert_eq!(parse_timeout("86400"), Ok(86_400.0));
        assert_eq!(parse_timeout("0.001"), Ok(0.001));
        for bad in ["86400.001", "0", "-1", "1e300", "inf", "NaN", "x", ""] {
            assert!(parse_timeout(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_deadline("604800"), Ok(604_800));
        assert_eq!(parse_deadline("1"), Ok(1));
        for bad in [
            "604801",
            "0",
            "18446744073709551615",
            "18446744073709551616",
            "-1",
        ] {
            assert!(parse_deadline(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_threads("256"), Ok(256));
        assert!(parse_threads("257").is_err() && parse_threads("0").is_err());
        assert_eq!(parse_port_cases("20000"), Ok(20_000));
        assert!(parse_port_cases("20001").is_err() && parse_port_cases("0").is_err());
        assert_eq!(parse_max_reply_mb("1024"), Ok(1024));
        assert!(parse_max_reply_mb("1025").is_err() && parse_max_reply_mb("0").is_err());
        assert_eq!(parse_heartbeat("0"), Ok(0));
        assert_eq!(parse_heartbeat("86400"), Ok(86_400));
        assert!(parse_heartbeat("86401").is_err());
        assert_eq!(parse_memory_limit_mb("16777216"), Ok(16_777_216));
        assert!(parse_memory_limit_mb("16777217").is_err());
        let e = parse_timeout(&"9".repeat(100)).unwrap_err().to_string();
        assert!(e.len() < 120, "the value is clipped: {e}");
    }
}
