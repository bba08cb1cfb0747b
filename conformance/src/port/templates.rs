//! `onepath-conformance port init --lang ts|go|cs DIR` ([CONF.CLI.PORT_INIT]): writes a driver
//! template of `conformance/ports/templates/` (embedded at build time) into an empty folder.

use std::fmt;
use std::path::{Path, PathBuf};

/// A template language of `port init`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Lang {
    /// JavaScript (Node 20 ES module with JSDoc types; no TypeScript compiler needed).
    Ts,
    /// Go (standard library only).
    Go,
    /// C# (one file; Mono's mcs or the .NET SDK).
    Cs,
}

const PROTOCOL_TYPES: &str = include_str!("../../ports/templates/protocol.d.ts");

impl Lang {
    /// The template's files: relative path and contents, `protocol.d.ts` included.
    pub fn files(self) -> Vec<(&'static str, &'static str)> {
        let mut files = match self {
            Lang::Ts => vec![
                (
                    "driver.mjs",
                    include_str!("../../ports/templates/ts/driver.mjs"),
                ),
                (
                    "README.md",
                    include_str!("../../ports/templates/ts/README.md"),
                ),
            ],
            Lang::Go => vec![
                ("main.go", include_str!("../../ports/templates/go/main.go")),
                ("go.mod", include_str!("../../ports/templates/go/go.mod")),
                (
                    "README.md",
                    include_str!("../../ports/templates/go/README.md"),
                ),
            ],
            Lang::Cs => vec![
                (
                    "Driver.cs",
                    include_str!("../../ports/templates/cs/Driver.cs"),
                ),
                (
                    "README.md",
                    include_str!("../../ports/templates/cs/README.md"),
                ),
            ],
        };
        files.push(("protocol.d.ts", PROTOCOL_TYPES));
        files
    }

    /// The quick-start command of the template's README, for a template written at `dir`.
    pub fn quick_start(self, dir: &Path) -> String {
        let d = dir.display();
        match self {
            Lang::Ts => format!(
                "onepath-conformance certify --port 'node {d}/driver.mjs' --family hex-search --port-cases 25"
            ),
            Lang::Go => format!(
                "(cd {d} && go build -o driver .) && onepath-conformance certify --port '{d}/driver' --family hex-search --port-cases 25"
            ),
            Lang::Cs => format!(
                "mcs -out:{d}/driver.exe {d}/Driver.cs && onepath-conformance certify --port 'mono {d}/driver.exe' --family hex-search --port-cases 25"
            ),
        }
    }
}

/// Why `port init` wrote nothing or not everything (exit 2).
#[derive(Debug)]
pub enum InitError {
    /// The folder exists and is not empty (or is not a folder).
    NotEmpty(PathBuf, String),
    /// Creating the folder or writing a file failed.
    Io(PathBuf, std::io::Error),
}

impl fmt::Display for InitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InitError::NotEmpty(p, what) => write!(
                f,
                "port init: {} {what}; give a new or empty folder (nothing was written)",
                p.display()
            ),
            InitError::Io(p, e) => write!(f, "port init: {}: {e}", p.display()),
        }
    }
}

/// Writes the template of `lang` into `dir` (created when missing, refused when not empty),
/// each file atomically ([CONF.CLI.ATOMIC]); returns the paths written.
pub fn init(lang: Lang, dir: &Path) -> Result<Vec<PathBuf>, InitError> {
    match std::fs::metadata(dir) {
        Ok(meta) if !meta.is_dir() => {
            return Err(InitError::NotEmpty(
                dir.into(),
                "exists and is not a folder".into(),
            ))
        }
        Ok(_) => {
            let mut entries = std::fs::read_dir(dir).map_err(|e| InitError::Io(dir.into(), e))?;
            if let Some(entry) = entries.next() {
                let name = entry
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .unwrap_or_else(|_| "?".into());
                return Err(InitError::NotEmpty(
                    dir.into(),
                    format!("is not empty (it holds {name:?})"),
                ));
            }
        }
        Err(_) => std::fs::create_dir_all(dir).map_err(|e| InitError::Io(dir.into(), e))?,
    }
    let mut written = Vec::new();
    for (name, text) in lang.files() {
        let path = dir.join(name);
        crate::atomic::write(&path, text).map_err(|e| InitError::Io(path.clone(), e))?;
        written.push(path);
    }
    Ok(written)
}
