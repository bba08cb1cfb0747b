//! [STATE] Snapshot / restore byte format v1 (spec/state.md): reader, writer, header and pieces.

pub(crate) mod graph;
pub(crate) mod grid;

use crate::grid::{AreaTable, AREA_COUNT};

/// [STATE.HEADER] The magic number `0x5347504F` ("OPGS").
pub(crate) const MAGIC: u32 = 0x5347_504F;
/// [STATE.HEADER] The only format version.
pub(crate) const VERSION: u16 = 1;
/// [STATE.KINDS] Kind 1.
pub(crate) const KIND_GRID: u16 = 1;
/// [STATE.KINDS] Kind 2.
pub(crate) const KIND_HEX: u16 = 2;
/// [STATE.KINDS] Kind 3.
pub(crate) const KIND_VOXEL: u16 = 3;
/// [STATE.KINDS] Kind 4.
pub(crate) const KIND_GRAPH: u16 = 4;
/// [STATE.KINDS] Kind 11.
pub(crate) const KIND_GRAPH_ASTAR: u16 = 11;

/// [STATE.ERRORS] A failed check: class, byte offset and a message for people.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Fault {
    pub(crate) class: &'static str,
    pub(crate) offset: usize,
    pub(crate) detail: String,
}

/// Shorthand for a fault.
pub(crate) fn fault<T>(class: &'static str, offset: usize, detail: String) -> Result<T, Fault> {
    Err(Fault {
        class,
        offset,
        detail,
    })
}

/// [STATE.LE] [STATE.ORDER] A bounds-checked little-endian reader; running short is `truncated` at
/// the input length.
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    /// A reader at offset 0.
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, pos: 0 }
    }

    /// The offset of the next field.
    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    /// The bytes not read yet.
    pub(crate) fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    /// [STATE.ORDER] The next `n` bytes, or `truncated` at the input length.
    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8], Fault> {
        if n > self.remaining() {
            let len = self.bytes.len();
            return fault(
                "truncated",
                len,
                format!(
                    "truncated: a field of {n} bytes at {} runs past the {len}-byte input",
                    self.pos
                ),
            );
        }
        let out = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(out)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], Fault> {
        let mut a = [0u8; N];
        a.copy_from_slice(self.take(N)?);
        Ok(a)
    }

    /// A `u8`.
    pub(crate) fn u8(&mut self) -> Result<u8, Fault> {
        Ok(self.array::<1>()?[0])
    }
    /// A `u16`.
    pub(crate) fn u16(&mut self) -> Result<u16, Fault> {
        Ok(u16::from_le_bytes(self.array()?))
    }
    /// A `u32`.
    pub(crate) fn u32(&mut self) -> Result<u32, Fault> {
        Ok(u32::from_le_bytes(self.array()?))
    }
    /// A `u64`.
    pub(crate) fn u64(&mut self) -> Result<u64, Fault> {
        Ok(u64::from_le_bytes(self.array()?))
    }
    /// An `i32`.
    pub(crate) fn i32(&mut self) -> Result<i32, Fault> {
        Ok(i32::from_le_bytes(self.array()?))
    }
    /// An `i64`.
    pub(crate) fn i64(&mut self) -> Result<i64, Fault> {
        Ok(i64::from_le_bytes(self.array()?))
    }
    /// [STATE.NAN] An `f64` that is not NaN (`nan` at its offset).
    pub(crate) fn f64(&mut self, what: &str) -> Result<f64, Fault> {
        let at = self.pos;
        let v = f64::from_bits(u64::from_le_bytes(self.array()?));
        if v.is_nan() {
            return fault("nan", at, format!("nan at byte {at}: {what} is NaN"));
        }
        Ok(v)
    }
    /// [STATE.FLAG] A flag: 0 or 1, else `bad_flag`.
    pub(crate) fn flag(&mut self, what: &str) -> Result<bool, Fault> {
        let at = self.pos;
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            b => fault(
                "bad_flag",
                at,
                format!("bad_flag at byte {at}: {what} is {b}, not 0 or 1"),
            ),
        }
    }
    /// [STATE.TRAILING] Nothing may follow the payload.
    pub(crate) fn finish(&self) -> Result<(), Fault> {
        if self.remaining() > 0 {
            let at = self.pos;
            return fault(
                "trailing_bytes",
                at,
                format!(
                    "trailing_bytes at byte {at}: {} bytes follow the payload",
                    self.remaining()
                ),
            );
        }
        Ok(())
    }
}

/// [STATE.LE] A little-endian writer.
#[derive(Default)]
pub(crate) struct Writer {
    pub(crate) out: Vec<u8>,
}

impl Writer {
    /// [STATE.HEADER] A writer holding the 8-byte header of `kind`.
    pub(crate) fn with_header(kind: u16) -> Self {
        let mut w = Writer::default();
        w.u32(MAGIC);
        w.u16(VERSION);
        w.u16(kind);
        w
    }
    pub(crate) fn u8(&mut self, v: u8) {
        self.out.push(v);
    }
    pub(crate) fn u16(&mut self, v: u16) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }
    pub(crate) fn u32(&mut self, v: u32) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }
    pub(crate) fn u64(&mut self, v: u64) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }
    pub(crate) fn i32(&mut self, v: i32) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }
    pub(crate) fn i64(&mut self, v: i64) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }
    pub(crate) fn f64(&mut self, v: f64) {
        self.out.extend_from_slice(&v.to_bits().to_le_bytes());
    }
    pub(crate) fn bytes(&mut self, b: &[u8]) {
        self.out.extend_from_slice(b);
    }
}

/// [STATE.HEADER] [STATE.KINDS] Reads and checks the header: magic (`bad_magic` at 0), version
/// (`unsupported_version` at 4), kind (`wrong_kind` at 6).
pub(crate) fn read_header(r: &mut Reader<'_>, kind: u16) -> Result<(), Fault> {
    let magic = r.u32()?;
    if magic != MAGIC {
        return fault(
            "bad_magic",
            0,
            format!("bad_magic at byte 0: {magic:#010x} is not \"OPGS\""),
        );
    }
    let version = r.u16()?;
    if version != VERSION {
        return fault(
            "unsupported_version",
            4,
            format!("unsupported_version at byte 4: version {version}, only 1 is supported"),
        );
    }
    let k = r.u16()?;
    if k != kind {
        return fault(
            "wrong_kind",
            6,
            format!("wrong_kind at byte 6: kind {k}, expected {kind}"),
        );
    }
    Ok(())
}

/// [STATE.COUNT] Reads an `i32` field and checks `lo <= v <= hi` with `class`; returns it.
pub(crate) fn read_i32_in(
    r: &mut Reader<'_>,
    what: &str,
    lo: i64,
    hi: i64,
    class: &'static str,
) -> Result<i32, Fault> {
    let at = r.pos();
    let v = r.i32()?;
    if i64::from(v) < lo || i64::from(v) > hi {
        return fault(
            class,
            at,
            format!("{class} at byte {at}: {what} = {v} is outside {lo}..={hi}"),
        );
    }
    Ok(v)
}

/// [GRID.SPACE.RANGE] The bound `2^21` of origins and cell sizes.
pub(crate) const SPACE_BOUND: f64 = 2_097_152.0;

/// [STATE.SPACE] [GRID.SPACE.UNASSIGNED] [GRID.SPACE.RANGE] Reads `n` space values (origins, then
/// the cell size last): each not NaN; each origin finite with `|o| <= 2^21`; the cell size either
/// zero with all origins zero, or `0 < s <= 2^21` (`out_of_range` at the offending field).
pub(crate) fn read_space(r: &mut Reader<'_>, names: &[&str]) -> Result<Vec<f64>, Fault> {
    let mut vals = Vec::with_capacity(names.len());
    for (i, name) in names.iter().enumerate() {
        let at = r.pos();
        let v = r.f64(name)?;
        let last = i + 1 == names.len();
        let ok = if last {
            (v == 0.0 && vals.iter().all(|&o: &f64| o == 0.0)) || (v > 0.0 && v <= SPACE_BOUND)
        } else {
            v.is_finite() && v.abs() <= SPACE_BOUND
        };
        if !ok {
            return fault(
                "out_of_range",
                at,
                format!("out_of_range at byte {at}: space field {name} = {v:?} is out of range"),
            );
        }
        vals.push(v);
    }
    Ok(vals)
}

/// [STATE.SPACE] Writes space values in field order.
pub(crate) fn write_space(w: &mut Writer, vals: &[f64]) {
    for &v in vals {
        w.f64(v);
    }
}

/// [STATE.AREAS] Reads the area table: `i32 version >= 0`, then 255 multipliers, each finite and
/// `> 0` (`nan` / `out_of_range`).
pub(crate) fn read_areas(r: &mut Reader<'_>) -> Result<AreaTable, Fault> {
    let version = read_i32_in(r, "area version", 0, i64::from(i32::MAX), "out_of_range")?;
    let mut table = AreaTable::new();
    table.version = version;
    for area in 0..AREA_COUNT {
        let at = r.pos();
        let m = r.f64("area multiplier")?;
        if !(m.is_finite() && m > 0.0) {
            return fault(
                "out_of_range",
                at,
                format!(
                    "out_of_range at byte {at}: area {area} multiplier {m:?} is not finite and > 0"
                ),
            );
        }
        table.multipliers[area] = m;
    }
    Ok(table)
}

/// [STATE.AREAS] Writes the area table.
pub(crate) fn write_areas(w: &mut Writer, table: &AreaTable) {
    w.i32(table.version);
    for &m in table.multipliers.iter() {
        w.f64(m);
    }
}
