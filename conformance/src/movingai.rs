//! MovingAI grid benchmarks (Sturtevant 2012, movingai.com): `.map` and `.scen` readers and
//! writers, a seeded generator of the field's standard map kinds, and an exact octile Dijkstra
//! oracle. Nothing here depends on the grid searches of either crate (they are not specified yet);
//! this is the groundwork their conformance checks will stand on.
//!
//! Clauses: `spec/conformance.md`, section 11 ([CONF.MOVINGAI.MAP_FORMAT] and following).

use crate::prng::SplitMix64;
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::fmt;

/// The largest number of cells a map may have (as [GRID.SQUARE.SIZE]).
pub const MAX_CELLS: u64 = 1 << 26;

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

/// What is wrong with a `.map` or `.scen` text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MovingAiErrorKind {
    /// A header line is missing or is not the expected text (the expected form is named).
    Header(&'static str),
    /// A field that must be a decimal integer is not one (or overflows `u32`).
    Integer,
    /// `width` or `height` is 0, or `width * height` exceeds [`MAX_CELLS`].
    Size,
    /// A map row holds a byte outside the map alphabet of [CONF.MOVINGAI.MAP_CHARS].
    MapChar(u8),
    /// A map row's length is not the declared width.
    RowLength {
        /// The declared width.
        expected: usize,
        /// The row's length in bytes.
        found: usize,
    },
    /// The text ends before all declared rows (or the header) were read.
    MissingLines,
    /// Non-empty text follows the last row, or a blank line appears in a scenario file.
    TrailingData,
    /// A scenario line does not have exactly nine tab-separated fields (the count found).
    FieldCount(usize),
    /// A scenario's map name is empty or not UTF-8.
    MapName,
    /// A start or goal coordinate is not inside the line's declared width and height.
    OutOfMap,
    /// The optimal length is not a finite non-negative decimal.
    Length,
}

/// [CONF.MOVINGAI.ERRORS]
/// A reader error: what, and where (1-based line, 1-based byte column within the line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MovingAiError {
    /// 1-based line number.
    pub line: usize,
    /// 1-based byte column within the line (1 for whole-line faults).
    pub column: usize,
    /// What is wrong.
    pub kind: MovingAiErrorKind,
}

impl fmt::Display for MovingAiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: ", self.line, self.column)?;
        match &self.kind {
            MovingAiErrorKind::Header(want) => write!(f, "expected `{want}`"),
            MovingAiErrorKind::Integer => write!(f, "expected a decimal integer"),
            MovingAiErrorKind::Size => write!(f, "map size out of range (1..=2^26 cells)"),
            MovingAiErrorKind::MapChar(b) => write!(f, "byte 0x{b:02x} is not a map character"),
            MovingAiErrorKind::RowLength { expected, found } => {
                write!(f, "row has {found} cells, width is {expected}")
            }
            MovingAiErrorKind::MissingLines => write!(f, "unexpected end of text"),
            MovingAiErrorKind::TrailingData => write!(f, "unexpected extra text"),
            MovingAiErrorKind::FieldCount(n) => write!(f, "{n} tab-separated fields, expected 9"),
            MovingAiErrorKind::MapName => write!(f, "map name is empty or not UTF-8"),
            MovingAiErrorKind::OutOfMap => {
                write!(f, "coordinate outside the declared width/height")
            }
            MovingAiErrorKind::Length => {
                write!(f, "optimal length is not a finite non-negative decimal")
            }
        }
    }
}

impl std::error::Error for MovingAiError {}

fn err(line: usize, column: usize, kind: MovingAiErrorKind) -> MovingAiError {
    MovingAiError { line, column, kind }
}

/// Splits `text` into lines ([CONF.MOVINGAI.LINES]): `\n` ends a line, one `\r` before it is
/// dropped, and a final `\n` does not start another line.
fn lines(text: &[u8]) -> Vec<&[u8]> {
    if text.is_empty() {
        return Vec::new();
    }
    let body = text.strip_suffix(b"\n").unwrap_or(text);
    body.split(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .collect()
}

/// A strict decimal `u32`: one or more ASCII digits, nothing else.
fn parse_u32(field: &[u8]) -> Option<u32> {
    if field.is_empty() || !field.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let mut v: u64 = 0;
    for &b in field {
        v = v * 10 + u64::from(b - b'0');
        if v > u64::from(u32::MAX) {
            return None;
        }
    }
    Some(v as u32)
}

/// A decimal `digits [. digits] [(e|E) [+|-] digits]`, parsed correctly rounded; `None` for any
/// other text and for a result that is not finite.
fn parse_decimal(field: &[u8]) -> Option<f64> {
    let digits = |s: &[u8], i: &mut usize| {
        let start = *i;
        while *i < s.len() && s[*i].is_ascii_digit() {
            *i += 1;
        }
        *i > start
    };
    let mut i = 0;
    if !digits(field, &mut i) {
        return None;
    }
    if i < field.len() && field[i] == b'.' {
        i += 1;
        if !digits(field, &mut i) {
            return None;
        }
    }
    if i < field.len() && (field[i] == b'e' || field[i] == b'E') {
        i += 1;
        if i < field.len() && (field[i] == b'+' || field[i] == b'-') {
            i += 1;
        }
        if !digits(field, &mut i) {
            return None;
        }
    }
    if i != field.len() {
        return None;
    }
    let v: f64 = std::str::from_utf8(field).ok()?.parse().ok()?;
    v.is_finite().then_some(v)
}

// ---------------------------------------------------------------------------------------------
// .map
// ---------------------------------------------------------------------------------------------

/// True for the passable map characters `.`, `G` and `S` ([CONF.MOVINGAI.MAP_CHARS]).
pub fn is_passable_char(c: u8) -> bool {
    matches!(c, b'.' | b'G' | b'S')
}

/// True for every character a map row may hold: `.` `G` `S` (passable), `@` `O` `T` `W`
/// (impassable) ([CONF.MOVINGAI.MAP_CHARS]).
pub fn is_map_char(c: u8) -> bool {
    matches!(c, b'.' | b'G' | b'S' | b'@' | b'O' | b'T' | b'W')
}

/// A MovingAI octile map: its characters, row-major (`y * width + x`), kept as written so that a
/// read map writes back to the same rows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MovingAiMap {
    width: usize,
    height: usize,
    cells: Vec<u8>,
}

impl MovingAiMap {
    /// A `width` × `height` map filled with `fill` (must be a map character; sizes as
    /// [CONF.MOVINGAI.MAP_FORMAT]). Panics on a bad size or character (a harness bug).
    pub fn new(width: usize, height: usize, fill: u8) -> MovingAiMap {
        assert!(
            width >= 1 && height >= 1 && (width as u64) * (height as u64) <= MAX_CELLS,
            "map size"
        );
        assert!(is_map_char(fill), "map character");
        MovingAiMap {
            width,
            height,
            cells: vec![fill; width * height],
        }
    }

    /// The width (columns).
    pub fn width(&self) -> usize {
        self.width
    }

    /// The height (rows).
    pub fn height(&self) -> usize {
        self.height
    }

    /// The characters, row-major.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The character at `(x, y)`.
    pub fn get(&self, x: usize, y: usize) -> u8 {
        self.cells[y * self.width + x]
    }

    /// Sets the character at `(x, y)` (must be a map character).
    pub fn set(&mut self, x: usize, y: usize, c: u8) {
        assert!(is_map_char(c), "map character");
        self.cells[y * self.width + x] = c;
    }

    /// True when `(x, y)` is inside the map and passable.
    pub fn passable(&self, x: i64, y: i64) -> bool {
        x >= 0
            && y >= 0
            && (x as usize) < self.width
            && (y as usize) < self.height
            && is_passable_char(self.cells[y as usize * self.width + x as usize])
    }

    /// The number of passable cells.
    pub fn passable_count(&self) -> usize {
        self.cells.iter().filter(|&&c| is_passable_char(c)).count()
    }

    /// Reads a `.map` text strictly ([CONF.MOVINGAI.MAP_FORMAT]).
    pub fn read(text: &[u8]) -> Result<MovingAiMap, MovingAiError> {
        let ls = lines(text);
        let line = |i: usize| {
            ls.get(i)
                .copied()
                .ok_or(err(i + 1, 1, MovingAiErrorKind::MissingLines))
        };
        if line(0)? != b"type octile" {
            return Err(err(1, 1, MovingAiErrorKind::Header("type octile")));
        }
        let mut dims = [0usize; 2];
        for (k, name) in ["height", "width"].into_iter().enumerate() {
            let l = line(1 + k)?;
            let prefix_len = name.len() + 1;
            if l.len() < prefix_len || &l[..name.len()] != name.as_bytes() || l[name.len()] != b' '
            {
                let want = if k == 0 { "height H" } else { "width W" };
                return Err(err(2 + k, 1, MovingAiErrorKind::Header(want)));
            }
            let v = parse_u32(&l[prefix_len..]).ok_or(err(
                2 + k,
                prefix_len + 1,
                MovingAiErrorKind::Integer,
            ))?;
            if v == 0 {
                return Err(err(2 + k, prefix_len + 1, MovingAiErrorKind::Size));
            }
            dims[k] = v as usize;
        }
        let (height, width) = (dims[0], dims[1]);
        if (width as u64) * (height as u64) > MAX_CELLS {
            return Err(err(3, 7, MovingAiErrorKind::Size));
        }
        if line(3)? != b"map" {
            return Err(err(4, 1, MovingAiErrorKind::Header("map")));
        }
        let mut cells = Vec::with_capacity(width * height);
        for y in 0..height {
            let n = 5 + y;
            let row = line(4 + y)?;
            if let Some(col) = row.iter().position(|&c| !is_map_char(c)) {
                return Err(err(n, col + 1, MovingAiErrorKind::MapChar(row[col])));
            }
            if row.len() != width {
                let col = row.len().min(width) + 1;
                return Err(err(
                    n,
                    col,
                    MovingAiErrorKind::RowLength {
                        expected: width,
                        found: row.len(),
                    },
                ));
            }
            cells.extend_from_slice(row);
        }
        if ls.len() > 4 + height {
            return Err(err(5 + height, 1, MovingAiErrorKind::TrailingData));
        }
        Ok(MovingAiMap {
            width,
            height,
            cells,
        })
    }

    /// Writes the map in the canonical form of [CONF.MOVINGAI.MAP_FORMAT] (LF line ends, a final LF).
    pub fn write(&self) -> Vec<u8> {
        let mut out = format!(
            "type octile\nheight {}\nwidth {}\nmap\n",
            self.height, self.width
        )
        .into_bytes();
        for row in self.cells.chunks(self.width) {
            out.extend_from_slice(row);
            out.push(b'\n');
        }
        out
    }
}

// ---------------------------------------------------------------------------------------------
// .scen
// ---------------------------------------------------------------------------------------------

/// One scenario line: `bucket map width height startX startY goalX goalY optimalLength`.
#[derive(Clone, Debug, PartialEq)]
pub struct ScenEntry {
    /// The bucket ([CONF.MOVINGAI.BUCKET] for generated files; any `u32` when read).
    pub bucket: u32,
    /// The map's file name as written (non-empty, no tab, no line break).
    pub map: String,
    /// The map's width.
    pub width: u32,
    /// The map's height.
    pub height: u32,
    /// Start column.
    pub start_x: u32,
    /// Start row.
    pub start_y: u32,
    /// Goal column.
    pub goal_x: u32,
    /// Goal row.
    pub goal_y: u32,
    /// The optimal path length (finite, `>= 0`).
    pub optimal_length: f64,
}

/// A `.scen` file: `version 1` and its entries in file order.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ScenFile {
    /// The entries, in file order.
    pub entries: Vec<ScenEntry>,
}

impl ScenFile {
    /// Reads a `.scen` text strictly ([CONF.MOVINGAI.SCEN_FORMAT]).
    pub fn read(text: &[u8]) -> Result<ScenFile, MovingAiError> {
        let ls = lines(text);
        match ls.first() {
            None => return Err(err(1, 1, MovingAiErrorKind::MissingLines)),
            Some(&l) if l != b"version 1" => {
                return Err(err(1, 1, MovingAiErrorKind::Header("version 1")))
            }
            _ => {}
        }
        let mut entries = Vec::with_capacity(ls.len() - 1);
        for (i, l) in ls.iter().enumerate().skip(1) {
            let n = i + 1;
            if l.is_empty() {
                return Err(err(n, 1, MovingAiErrorKind::TrailingData));
            }
            let fields: Vec<&[u8]> = l.split(|&b| b == b'\t').collect();
            if fields.len() != 9 {
                return Err(err(n, 1, MovingAiErrorKind::FieldCount(fields.len())));
            }
            let mut cols = [0usize; 9];
            let mut c = 1;
            for (k, f) in fields.iter().enumerate() {
                cols[k] = c;
                c += f.len() + 1;
            }
            let int =
                |k: usize| parse_u32(fields[k]).ok_or(err(n, cols[k], MovingAiErrorKind::Integer));
            let bucket = int(0)?;
            let map = match std::str::from_utf8(fields[1]) {
                Ok(s) if !s.is_empty() && !s.contains('\r') => s.to_string(),
                _ => return Err(err(n, cols[1], MovingAiErrorKind::MapName)),
            };
            let (width, height) = (int(2)?, int(3)?);
            if width == 0 || height == 0 || u64::from(width) * u64::from(height) > MAX_CELLS {
                let k = if width == 0 { 2 } else { 3 };
                return Err(err(n, cols[k], MovingAiErrorKind::Size));
            }
            let mut xy = [0u32; 4];
            for k in 0..4 {
                xy[k] = int(4 + k)?;
                let limit = if k % 2 == 0 { width } else { height };
                if xy[k] >= limit {
                    return Err(err(n, cols[4 + k], MovingAiErrorKind::OutOfMap));
                }
            }
            let optimal_length =
                parse_decimal(fields[8]).ok_or(err(n, cols[8], MovingAiErrorKind::Length))?;
            entries.push(ScenEntry {
                bucket,
                map,
                width,
                height,
                start_x: xy[0],
                start_y: xy[1],
                goal_x: xy[2],
                goal_y: xy[3],
                optimal_length,
            });
        }
        Ok(ScenFile { entries })
    }

    /// Writes `version 1` and one tab-separated line per entry, LF-terminated; the optimal length
    /// is Rust's shortest round-trip decimal (`{}` of `f64`, never an exponent)
    /// ([CONF.MOVINGAI.SCEN_FORMAT]). Panics on an entry the reader would reject (a harness bug).
    pub fn write(&self) -> Vec<u8> {
        let mut out = String::from("version 1\n");
        for e in &self.entries {
            assert!(
                e.optimal_length.is_finite() && e.optimal_length >= 0.0,
                "optimal length"
            );
            assert!(
                !e.map.is_empty() && !e.map.contains(['\t', '\n', '\r']),
                "map name"
            );
            let len = if e.optimal_length == 0.0 {
                0.0
            } else {
                e.optimal_length
            }; // -0 writes as 0
            out.push_str(&format!(
                "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
                e.bucket, e.map, e.width, e.height, e.start_x, e.start_y, e.goal_x, e.goal_y, len
            ));
        }
        out.into_bytes()
    }
}

// ---------------------------------------------------------------------------------------------
// Exact octile costs and the oracle
// ---------------------------------------------------------------------------------------------

/// An exact octile cost `straight + diagonal * sqrt(2)` ([CONF.MOVINGAI.COST]). The order is the
/// exact order of the real numbers (no rounding); equal reals have equal pairs since sqrt(2) is
/// irrational.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct OctileCost {
    /// Straight steps (cost 1 each).
    pub straight: u64,
    /// Diagonal steps (cost sqrt(2) each).
    pub diagonal: u64,
}

impl OctileCost {
    /// The pair `(straight, diagonal)`.
    pub const fn new(straight: u64, diagonal: u64) -> OctileCost {
        OctileCost { straight, diagonal }
    }

    /// The f64 value `straight as f64 + (diagonal as f64) * SQRT_2`: the product is rounded first,
    /// then the sum ([CONF.MOVINGAI.COST]).
    pub fn value(self) -> f64 {
        self.straight as f64 + (self.diagonal as f64) * std::f64::consts::SQRT_2
    }

    /// The cost plus one step (`diagonal` true for a diagonal step).
    pub fn step(self, diagonal: bool) -> OctileCost {
        if diagonal {
            OctileCost::new(self.straight, self.diagonal + 1)
        } else {
            OctileCost::new(self.straight + 1, self.diagonal)
        }
    }
}

impl Ord for OctileCost {
    /// The sign of `(a1 - a2) + (b1 - b2) * sqrt(2)` by signs and squares in integers.
    fn cmp(&self, other: &Self) -> Ordering {
        let da = i128::from(self.straight) - i128::from(other.straight);
        let db = i128::from(self.diagonal) - i128::from(other.diagonal);
        match (da.cmp(&0), db.cmp(&0)) {
            (Ordering::Equal, s) | (s, Ordering::Equal) => s,
            (Ordering::Greater, Ordering::Greater) => Ordering::Greater,
            (Ordering::Less, Ordering::Less) => Ordering::Less,
            // da > 0 > db: positive iff da^2 > 2 db^2 (never equal: sqrt(2) is irrational).
            (Ordering::Greater, Ordering::Less) => (da * da).cmp(&(2 * db * db)),
            // da < 0 < db: positive iff 2 db^2 > da^2.
            (Ordering::Less, Ordering::Greater) => (2 * db * db).cmp(&(da * da)),
        }
    }
}

impl PartialOrd for OctileCost {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// The octile distance between two cells as an exact pair ([CONF.MOVINGAI.OCTILE]):
/// `min(dx, dy)` diagonal steps and `max(dx, dy) - min(dx, dy)` straight steps.
pub fn octile_heuristic(ax: u32, ay: u32, bx: u32, by: u32) -> OctileCost {
    let dx = u64::from(ax.abs_diff(bx));
    let dy = u64::from(ay.abs_diff(by));
    OctileCost::new(dx.max(dy) - dx.min(dy), dx.min(dy))
}

/// The eight moves `(dx, dy)`: four straight, then four diagonal.
pub const MOVES: [(i64, i64); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// True when the move `(dx, dy)` from `(x, y)` is allowed ([CONF.MOVINGAI.MOVES]): the target is
/// passable and, for a diagonal, both orthogonally adjacent cells are passable (no corner cutting).
pub fn move_allowed(map: &MovingAiMap, x: i64, y: i64, dx: i64, dy: i64) -> bool {
    map.passable(x + dx, y + dy)
        && (dx == 0 || dy == 0 || (map.passable(x + dx, y) && map.passable(x, y + dy)))
}

/// Exact single-source Dijkstra ([CONF.MOVINGAI.ORACLE]): the least cost pair of every cell from
/// `(sx, sy)`, row-major, `None` where unreachable (and everywhere when the start is not passable).
pub fn oracle_distances(map: &MovingAiMap, sx: u32, sy: u32) -> Vec<Option<OctileCost>> {
    let (w, h) = (map.width(), map.height());
    let mut dist: Vec<Option<OctileCost>> = vec![None; w * h];
    if !map.passable(i64::from(sx), i64::from(sy)) {
        return dist;
    }
    let mut done = vec![false; w * h];
    let mut heap = BinaryHeap::new();
    let s = sy as usize * w + sx as usize;
    dist[s] = Some(OctileCost::default());
    heap.push(std::cmp::Reverse((OctileCost::default(), s)));
    while let Some(std::cmp::Reverse((d, u))) = heap.pop() {
        if done[u] {
            continue;
        }
        done[u] = true;
        let (x, y) = ((u % w) as i64, (u / w) as i64);
        for &(dx, dy) in &MOVES {
            if !move_allowed(map, x, y, dx, dy) {
                continue;
            }
            let v = (y + dy) as usize * w + (x + dx) as usize;
            let nd = d.step(dx != 0 && dy != 0);
            let better = match dist[v] {
                None => true,
                Some(old) => nd < old,
            };
            if !done[v] && better {
                dist[v] = Some(nd);
                heap.push(std::cmp::Reverse((nd, v)));
            }
        }
    }
    dist
}

/// The exact optimal cost from `(sx, sy)` to `(gx, gy)`, `None` when there is no path.
pub fn oracle_path_cost(
    map: &MovingAiMap,
    sx: u32,
    sy: u32,
    gx: u32,
    gy: u32,
) -> Option<OctileCost> {
    if gx as usize >= map.width() || gy as usize >= map.height() {
        return None;
    }
    oracle_distances(map, sx, sy)[gy as usize * map.width() + gx as usize]
}

// ---------------------------------------------------------------------------------------------
// Generator
// ---------------------------------------------------------------------------------------------

/// The standard map kinds of the MovingAI benchmark sets ([CONF.MOVINGAI.GEN_KINDS]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MapKind {
    /// Each cell is `@` with probability `density`, else `.`.
    Random {
        /// Obstacle probability per cell, in `[0, 1]`.
        density: f64,
    },
    /// Rooms of `room_size` × `room_size` cells between one-cell `@` walls; each wall segment
    /// between two rooms gets a one-cell door with probability 3/4.
    Rooms {
        /// Interior side of a room (`>= 1`).
        room_size: usize,
    },
    /// A perfect maze (randomized depth-first search) with corridors `corridor_width` cells wide
    /// and one-cell `@` walls.
    Maze {
        /// Corridor width (`>= 1`).
        corridor_width: usize,
    },
    /// An open `.` map with `count` scattered rectangular `T` obstacles of sides `1..=max_side`.
    Scattered {
        /// The number of obstacles.
        count: usize,
        /// The largest obstacle side (`>= 1`).
        max_side: usize,
    },
}

/// Generates a `width` × `height` map of `kind` from `seed` (deterministic: the same arguments give
/// the same map) ([CONF.MOVINGAI.GEN_KINDS]).
pub fn generate_map(kind: MapKind, width: usize, height: usize, seed: u64) -> MovingAiMap {
    let mut rng = SplitMix64::new(seed);
    match kind {
        MapKind::Random { density } => {
            let mut m = MovingAiMap::new(width, height, b'.');
            for y in 0..height {
                for x in 0..width {
                    if rng.chance(density) {
                        m.set(x, y, b'@');
                    }
                }
            }
            m
        }
        MapKind::Rooms { room_size } => {
            assert!(room_size >= 1, "room size");
            let p = room_size + 1;
            let mut m = MovingAiMap::new(width, height, b'.');
            for y in 0..height {
                for x in 0..width {
                    if x % p == 0 || y % p == 0 {
                        m.set(x, y, b'@');
                    }
                }
            }
            // Vertical wall segments (x = k p, between rooms left and right), then horizontal ones.
            for wx in (p..width).step_by(p) {
                for ry in (0..height).step_by(p) {
                    let (lo, hi) = (ry + 1, (ry + p).min(height));
                    if lo < hi && rng.chance(0.75) {
                        let y = rng.range(lo as u64, hi as u64 - 1) as usize;
                        m.set(wx, y, b'.');
                    }
                }
            }
            for wy in (p..height).step_by(p) {
                for rx in (0..width).step_by(p) {
                    let (lo, hi) = (rx + 1, (rx + p).min(width));
                    if lo < hi && rng.chance(0.75) {
                        let x = rng.range(lo as u64, hi as u64 - 1) as usize;
                        m.set(x, wy, b'.');
                    }
                }
            }
            m
        }
        MapKind::Maze { corridor_width: c } => {
            assert!(c >= 1, "corridor width");
            let p = c + 1;
            let mut m = MovingAiMap::new(width, height, b'@');
            let (nx, ny) = (
                (width.saturating_sub(1)) / p,
                (height.saturating_sub(1)) / p,
            );
            if nx == 0 || ny == 0 {
                return m;
            }
            let open = |m: &mut MovingAiMap, x0: usize, y0: usize, w: usize, h: usize| {
                for y in y0..y0 + h {
                    for x in x0..x0 + w {
                        m.set(x, y, b'.');
                    }
                }
            };
            let mut seen = vec![false; nx * ny];
            let first = rng.below((nx * ny) as u64) as usize;
            seen[first] = true;
            open(&mut m, (first % nx) * p + 1, (first / nx) * p + 1, c, c);
            let mut stack = vec![first];
            while let Some(&cur) = stack.last() {
                let (cx, cy) = (cur % nx, cur / nx);
                let mut next = Vec::with_capacity(4);
                if cx + 1 < nx && !seen[cur + 1] {
                    next.push(cur + 1);
                }
                if cx > 0 && !seen[cur - 1] {
                    next.push(cur - 1);
                }
                if cy + 1 < ny && !seen[cur + nx] {
                    next.push(cur + nx);
                }
                if cy > 0 && !seen[cur - nx] {
                    next.push(cur - nx);
                }
                if next.is_empty() {
                    stack.pop();
                    continue;
                }
                let n = next[rng.below(next.len() as u64) as usize];
                seen[n] = true;
                let (ux, uy) = (n % nx, n / nx);
                open(&mut m, ux * p + 1, uy * p + 1, c, c);
                // The wall strip between cur and n.
                if uy == cy {
                    open(&mut m, cx.max(ux) * p, cy * p + 1, 1, c);
                } else {
                    open(&mut m, cx * p + 1, cy.max(uy) * p, c, 1);
                }
                stack.push(n);
            }
            m
        }
        MapKind::Scattered { count, max_side } => {
            assert!(max_side >= 1, "obstacle side");
            let mut m = MovingAiMap::new(width, height, b'.');
            for _ in 0..count {
                let w = rng.range(1, max_side as u64) as usize;
                let h = rng.range(1, max_side as u64) as usize;
                let x0 = rng.below(width as u64) as usize;
                let y0 = rng.below(height as u64) as usize;
                for y in y0..(y0 + h).min(height) {
                    for x in x0..(x0 + w).min(width) {
                        m.set(x, y, b'T');
                    }
                }
            }
            m
        }
    }
}

/// The bucket of an optimal length: `floor(length / 4)` ([CONF.MOVINGAI.BUCKET]).
pub fn bucket_of(length: f64) -> u32 {
    (length / 4.0).floor() as u32
}

/// Generates solvable scenarios on `map` named `map_name` ([CONF.MOVINGAI.GEN_SCEN]): up to
/// `per_bucket` entries in each of buckets `0..buckets`, the optimal lengths from the oracle.
/// Entries are sorted by bucket, in draw order within a bucket.
pub fn generate_scen(
    map: &MovingAiMap,
    map_name: &str,
    per_bucket: usize,
    buckets: u32,
    seed: u64,
) -> ScenFile {
    let mut rng = SplitMix64::new(seed);
    let passable: Vec<usize> = (0..map.cells().len())
        .filter(|&i| is_passable_char(map.cells()[i]))
        .collect();
    let mut filled: Vec<Vec<ScenEntry>> = vec![Vec::new(); buckets as usize];
    let w = map.width();
    if passable.is_empty() || per_bucket == 0 {
        return ScenFile::default();
    }
    let attempts = 8 * per_bucket * buckets as usize + 16;
    for _ in 0..attempts {
        if filled.iter().all(|b| b.len() >= per_bucket) {
            break;
        }
        let s = passable[rng.below(passable.len() as u64) as usize];
        let (sx, sy) = ((s % w) as u32, (s / w) as u32);
        let dist = oracle_distances(map, sx, sy);
        // Candidate goals per bucket (goal != start), ascending cell index.
        let mut by_bucket: Vec<Vec<(usize, OctileCost)>> = vec![Vec::new(); buckets as usize];
        for (g, d) in dist.iter().enumerate() {
            if let Some(d) = *d {
                let b = bucket_of(d.value());
                if g != s && (b as usize) < by_bucket.len() {
                    by_bucket[b as usize].push((g, d));
                }
            }
        }
        for (b, cands) in by_bucket.iter().enumerate() {
            if cands.is_empty() || filled[b].len() >= per_bucket {
                continue;
            }
            let (g, d) = cands[rng.below(cands.len() as u64) as usize];
            filled[b].push(ScenEntry {
                bucket: b as u32,
                map: map_name.to_string(),
                width: map.width() as u32,
                height: map.height() as u32,
                start_x: sx,
                start_y: sy,
                goal_x: (g % w) as u32,
                goal_y: (g / w) as u32,
                optimal_length: d.value(),
            });
        }
    }
    ScenFile {
        entries: filled.into_iter().flatten().collect(),
    }
}
