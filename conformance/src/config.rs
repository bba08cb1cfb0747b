//! How much a certify run does ([`Config`]) and which part of it ([`Shard`], [CONF.CLI.SHARD]):
//! plain data every layer reads (checks, reports, the family registry, the port runner).

use crate::claims::Family;
use std::path::PathBuf;

/// How much to run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Base seed of every generated case.
    pub seed: u64,
    /// Generated graphs for `oracle` and `differential`.
    pub oracle_graphs: usize,
    /// Integer-weight graphs for `landmarks`.
    pub landmark_graphs: usize,
    /// Graphs for `sliced`.
    pub sliced_graphs: usize,
    /// Point sets for `links`.
    pub link_sets: usize,
    /// Graphs for `hooks`.
    pub hook_graphs: usize,
    /// Graphs for `cancel`.
    pub cancel_graphs: usize,
    /// Generated maps for `grid-search`.
    pub grid_cases: usize,
    /// Generated edit scripts of the `replanning` section (case 0 is the long script).
    pub replan_cases: usize,
    /// Generated edit scripts of the `flow-field` section (case 0 is the long script).
    pub flow_cases: usize,
    /// Side of the `movingai` maps.
    pub movingai_side: usize,
    /// Length buckets of the `movingai` scenarios (two scenarios per bucket).
    pub movingai_buckets: u32,
    /// The vectors folder to verify (`vectors` section), or none to skip it.
    pub vectors_dir: Option<PathBuf>,
    /// Worker threads (1 or more).
    pub threads: usize,
    /// The part of every section's cases this run takes ([CONF.CLI.SHARD]).
    pub shard: Shard,
    /// The claim families whose sections, vectors and requests run ([CONF.CLI.FAMILY]).
    pub families: FamilySet,
    /// When the run stops starting generated cases (a port run's deadline,
    /// [DRIVER.PROC.DEADLINE]); never in process.
    pub stop: crate::case_stop::CaseStop,
}

/// A set of claim families ([DRIVER.LEVEL.FAMILY]): the selection of `certify --family`
/// ([CONF.CLI.FAMILY]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FamilySet {
    bits: u16,
}

/// Why a `--family` value is rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FamilyError {
    /// The name that is not a family (empty for an empty list item).
    pub name: String,
}

impl std::fmt::Display for FamilyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = Family::ALL.iter().map(|f| f.name()).collect();
        write!(
            f,
            "--family {:?}: not a family; expected a comma-separated list of {}",
            self.name,
            names.join(", ")
        )
    }
}

impl std::error::Error for FamilyError {}

impl FamilySet {
    /// Every family (a run without `--family`).
    pub const ALL: FamilySet = FamilySet {
        bits: (1 << Family::ALL.len()) - 1,
    };

    fn bit(f: Family) -> u16 {
        1 << Family::ALL
            .iter()
            .position(|&g| g == f)
            .expect("a family of ALL")
    }

    /// The set holding exactly `families`.
    pub fn of(families: &[Family]) -> FamilySet {
        FamilySet {
            bits: families.iter().fold(0, |b, &f| b | Self::bit(f)),
        }
    }

    /// Parses `F[,G...]`: family names of [DRIVER.LEVEL.FAMILY], at least one, each known;
    /// a name given twice counts once.
    pub fn parse(value: &str) -> Result<FamilySet, FamilyError> {
        let mut set = FamilySet { bits: 0 };
        for name in value.split(',') {
            let f = Family::ALL
                .into_iter()
                .find(|f| f.name() == name)
                .ok_or_else(|| FamilyError {
                    name: name.to_string(),
                })?;
            set.bits |= Self::bit(f);
        }
        Ok(set)
    }

    /// True when `f` is selected.
    pub fn contains(&self, f: Family) -> bool {
        self.bits & Self::bit(f) != 0
    }

    /// True when every family is selected.
    pub fn is_all(&self) -> bool {
        *self == Self::ALL
    }

    /// The selected families, in [`Family::ALL`] order.
    pub fn families(&self) -> Vec<Family> {
        Family::ALL
            .into_iter()
            .filter(|&f| self.contains(f))
            .collect()
    }

    /// The selected family names, in [`Family::ALL`] order.
    pub fn names(&self) -> Vec<String> {
        self.families()
            .iter()
            .map(|f| f.name().to_string())
            .collect()
    }
}

/// One of `count` deterministic parts of a run ([CONF.CLI.SHARD]): the case with ordinal `i`
/// (0-based, within its case list) belongs to shard `i % count + 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shard {
    /// This shard, `1..=count`.
    pub index: u32,
    /// How many shards the run is split into (1: unsharded).
    pub count: u32,
}

/// Why a `--shard` value is rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShardErrorKind {
    /// Not of the form `k/n`.
    Syntax,
    /// `n` is 0, `k` is 0 or `k > n`.
    Range,
}

/// A rejected `--shard` value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardError {
    /// What is wrong.
    pub kind: ShardErrorKind,
    /// The value given.
    pub value: String,
}

impl std::fmt::Display for ShardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.kind {
            ShardErrorKind::Syntax => write!(
                f,
                "--shard {:?}: expected k/n with whole numbers, e.g. 2/5",
                self.value
            ),
            ShardErrorKind::Range => {
                write!(f, "--shard {:?}: need 1 <= k <= n", self.value)
            }
        }
    }
}

impl std::error::Error for ShardError {}

impl Shard {
    /// The whole run (shard 1 of 1).
    pub const ALL: Shard = Shard { index: 1, count: 1 };

    /// Parses `k/n` with `1 <= k <= n`.
    pub fn parse(value: &str) -> Result<Shard, ShardError> {
        let err = |kind| ShardError {
            kind,
            value: value.to_string(),
        };
        let (k, n) = value
            .split_once('/')
            .ok_or_else(|| err(ShardErrorKind::Syntax))?;
        let num = |t: &str| -> Result<u32, ShardError> {
            if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
                return Err(err(ShardErrorKind::Syntax));
            }
            t.parse().map_err(|_| err(ShardErrorKind::Range))
        };
        let (index, count) = (num(k)?, num(n)?);
        if count == 0 || index == 0 || index > count {
            return Err(err(ShardErrorKind::Range));
        }
        Ok(Shard { index, count })
    }

    /// True when the case with this ordinal (0-based, within its case list) is in this shard.
    pub fn contains(&self, ordinal: usize) -> bool {
        ordinal % self.count as usize == (self.index - 1) as usize
    }

    /// True for shard 1, which also runs a section's once-per-run checks (file-level checks,
    /// probes of missing APIs): every shard would otherwise count them again.
    pub fn is_first(&self) -> bool {
        self.index == 1
    }

    /// The ordinals in `0..count` of this shard, in order.
    pub fn ordinals(&self, count: usize) -> Vec<usize> {
        (0..count).filter(|&i| self.contains(i)).collect()
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Config {
    /// The CI-sized run: 2,000 oracle graphs, 200 landmark graphs.
    pub fn ci(seed: u64) -> Self {
        Config {
            seed,
            oracle_graphs: 2_000,
            landmark_graphs: 200,
            sliced_graphs: 300,
            link_sets: 300,
            hook_graphs: 300,
            cancel_graphs: 200,
            grid_cases: 48,
            replan_cases: 40,
            flow_cases: 40,
            movingai_side: 64,
            movingai_buckets: 16,
            vectors_dir: Some(default_vectors_dir()),
            threads: default_threads(),
            shard: Shard::ALL,
            families: FamilySet::ALL,
            stop: crate::case_stop::CaseStop::never(),
        }
    }

    /// The `--full` run: 12,000 oracle graphs.
    pub fn full(seed: u64) -> Self {
        Config {
            oracle_graphs: 12_000,
            landmark_graphs: 1_200,
            sliced_graphs: 1_800,
            link_sets: 1_800,
            hook_graphs: 1_800,
            cancel_graphs: 1_200,
            grid_cases: 400,
            replan_cases: 400,
            flow_cases: 400,
            movingai_side: 256,
            movingai_buckets: 64,
            ..Config::ci(seed)
        }
    }

    /// Total units of work, for a progress bar.
    pub fn work(&self) -> u64 {
        [
            self.oracle_graphs,
            self.landmark_graphs,
            self.sliced_graphs,
            self.link_sets,
            self.hook_graphs,
            self.cancel_graphs,
            self.grid_cases,
            self.replan_cases,
            self.flow_cases,
        ]
        .iter()
        .map(|&n| self.shard.ordinals(n).len() as u64)
        .sum()
    }
}

/// The default seed of certify runs.
pub const DEFAULT_SEED: u64 = 20_261_129;

/// `vectors/` at the workspace root (found from this crate's manifest directory).
pub fn default_vectors_dir() -> PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap_or(std::path::Path::new(".."))
        .join("vectors")
}

/// The machine's parallelism.
pub fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}
