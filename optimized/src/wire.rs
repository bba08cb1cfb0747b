//! State bytes v1: the header of [STATE.HEADER] / [STATE.KINDS], the primitive rules
//! [STATE.LE] .. [STATE.TRAILING] and the check order of [STATE.ORDER], shared by every kind.
//! Reading never panics: every read is bounds-checked and reports `truncated` at the input length.

/// [STATE.HEADER] `"OPGS"` read as a little-endian u32.
pub(crate) const MAGIC: u32 = 0x5347_504F;
/// [STATE.HEADER] The only format version.
pub(crate) const VERSION: u16 = 1;
/// [STATE.KINDS] Kind numbers of the objects this crate saves.
pub(crate) const KIND_GRID: u16 = 1;
/// [STATE.KINDS] HexGrid.
pub(crate) const KIND_HEX: u16 = 2;
/// [STATE.KINDS] VoxelGrid.
pub(crate) const KIND_VOXEL: u16 = 3;
/// [STATE.KINDS] Graph.
pub(crate) const KIND_GRAPH: u16 = 4;
/// [STATE.KINDS] GraphAStar.
pub(crate) const KIND_GRAPH_ASTAR: u16 = 11;
/// [STATE.KINDS] [FLOW.STATE.HEADER] GridFlowField (square and hex flow fields).
pub(crate) const KIND_FLOW: u16 = 7;
/// [STATE.KINDS] AStar (grid).
pub(crate) const KIND_ASTAR: u16 = 8;
/// [STATE.KINDS] JumpSearch.
pub(crate) const KIND_JUMP: u16 = 9;
/// [STATE.KINDS] ThetaSearch.
pub(crate) const KIND_THETA: u16 = 10;
/// [STATE.KINDS] GridSearch.
pub(crate) const KIND_GRID_SEARCH: u16 = 12;

/// [STATE.CLASSES] The stable error classes of state bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Class {
    Truncated,
    BadMagic,
    UnsupportedVersion,
    WrongKind,
    SizeMismatch,
    CountOutOfRange,
    IndexOutOfRange,
    OutOfRange,
    Nan,
    BadFlag,
    NotIncreasing,
    DuplicateNode,
    BadHeapNode,
    HeapOrder,
    MissingOpenNode,
    BadParent,
    ParentCycle,
    TrailingBytes,
    /// [GS.STATE.CLASSES] The saved engine is not the one the restoring search selects.
    EngineMismatch,
    /// [GS.STATE.CLASSES] A mode-1 or mode-3 visited cell is not passable.
    NotWalkable,
    /// [FLOW.STATE.HEADER_CHECKS] [FLOW.STATE.SEARCH_CHECKS] A flow field's saved goals are not
    /// the restoring field's.
    GoalMismatch,
}

impl Class {
    /// [STATE.CLASSES] The class name.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Class::Truncated => "truncated",
            Class::BadMagic => "bad_magic",
            Class::UnsupportedVersion => "unsupported_version",
            Class::WrongKind => "wrong_kind",
            Class::SizeMismatch => "size_mismatch",
            Class::CountOutOfRange => "count_out_of_range",
            Class::IndexOutOfRange => "index_out_of_range",
            Class::OutOfRange => "out_of_range",
            Class::Nan => "nan",
            Class::BadFlag => "bad_flag",
            Class::NotIncreasing => "not_increasing",
            Class::DuplicateNode => "duplicate_node",
            Class::BadHeapNode => "bad_heap_node",
            Class::HeapOrder => "heap_order",
            Class::MissingOpenNode => "missing_open_node",
            Class::BadParent => "bad_parent",
            Class::ParentCycle => "parent_cycle",
            Class::TrailingBytes => "trailing_bytes",
            Class::EngineMismatch => "engine_mismatch",
            Class::NotWalkable => "not_walkable",
            Class::GoalMismatch => "goal_mismatch",
        }
    }
}

/// [STATE.ERRORS] A failed check: its class, the offset it reports and the field it concerns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fault {
    pub class: Class,
    pub offset: usize,
    pub field: &'static str,
}

/// `Err(Fault)` shorthand.
pub(crate) fn fail<T>(class: Class, offset: usize, field: &'static str) -> Result<T, Fault> {
    Err(Fault {
        class,
        offset,
        field,
    })
}

/// A bounds-checked little-endian reader ([STATE.LE]).
pub(crate) struct Reader<'a> {
    b: &'a [u8],
    pub pos: usize,
}

impl<'a> Reader<'a> {
    pub fn new(b: &'a [u8]) -> Self {
        Reader { b, pos: 0 }
    }

    /// Bytes not read yet.
    #[inline]
    pub fn left(&self) -> usize {
        self.b.len() - self.pos
    }

    /// [STATE.ORDER] The next `n` bytes, or `truncated` at the input length.
    #[inline]
    pub fn take(&mut self, n: usize, field: &'static str) -> Result<&'a [u8], Fault> {
        if self.left() < n {
            return fail(Class::Truncated, self.b.len(), field);
        }
        let s = &self.b[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    #[inline]
    fn arr<const N: usize>(&mut self, field: &'static str) -> Result<[u8; N], Fault> {
        let s = self.take(N, field)?;
        let mut a = [0u8; N];
        a.copy_from_slice(s);
        Ok(a)
    }

    #[inline]
    pub fn u8(&mut self, field: &'static str) -> Result<u8, Fault> {
        Ok(self.arr::<1>(field)?[0])
    }

    #[inline]
    pub fn u16(&mut self, field: &'static str) -> Result<u16, Fault> {
        Ok(u16::from_le_bytes(self.arr(field)?))
    }

    #[inline]
    pub fn u32(&mut self, field: &'static str) -> Result<u32, Fault> {
        Ok(u32::from_le_bytes(self.arr(field)?))
    }

    #[inline]
    pub fn u64(&mut self, field: &'static str) -> Result<u64, Fault> {
        Ok(u64::from_le_bytes(self.arr(field)?))
    }

    #[inline]
    pub fn i32(&mut self, field: &'static str) -> Result<i32, Fault> {
        Ok(i32::from_le_bytes(self.arr(field)?))
    }

    /// [STATE.NAN] An f64 that is not NaN (`nan` at its offset).
    #[inline]
    pub fn f64(&mut self, field: &'static str) -> Result<f64, Fault> {
        let at = self.pos;
        let v = f64::from_le_bytes(self.arr(field)?);
        if v.is_nan() {
            return fail(Class::Nan, at, field);
        }
        Ok(v)
    }

    /// [STATE.FLAG] A u8 flag, 0 or 1 (`bad_flag`).
    #[inline]
    pub fn flag(&mut self, field: &'static str) -> Result<bool, Fault> {
        let at = self.pos;
        match self.u8(field)? {
            0 => Ok(false),
            1 => Ok(true),
            _ => fail(Class::BadFlag, at, field),
        }
    }

    /// [STATE.COUNT] [STATE.ORDER] An i32 count in `0..=max` that also fits the bytes left at
    /// `elem` bytes per item (`count_out_of_range` at the count).
    pub fn count(&mut self, max: usize, elem: usize, field: &'static str) -> Result<usize, Fault> {
        let at = self.pos;
        let c = self.i32(field)?;
        if c < 0 || c as usize > max || c as usize > self.left() / elem {
            return fail(Class::CountOutOfRange, at, field);
        }
        Ok(c as usize)
    }

    /// [STATE.HEADER] [STATE.KINDS] Magic, version and kind, in that order.
    pub fn header(&mut self, kind: u16) -> Result<(), Fault> {
        if self.u32("magic")? != MAGIC {
            return fail(Class::BadMagic, 0, "magic");
        }
        if self.u16("version")? != VERSION {
            return fail(Class::UnsupportedVersion, 4, "version");
        }
        if self.u16("kind")? != kind {
            return fail(Class::WrongKind, 6, "kind");
        }
        Ok(())
    }

    /// [STATE.TRAILING] Nothing may follow the payload (`trailing_bytes` at the first extra).
    pub fn finish(&self) -> Result<(), Fault> {
        if self.left() != 0 {
            return fail(Class::TrailingBytes, self.pos, "end");
        }
        Ok(())
    }
}

/// [STATE.LE] Little-endian writers.
pub(crate) trait Put {
    fn put_u8(&mut self, v: u8);
    fn put_u16(&mut self, v: u16);
    fn put_u32(&mut self, v: u32);
    fn put_i32(&mut self, v: i32);
    fn put_f64(&mut self, v: f64);
    fn put_u64(&mut self, v: u64);
    fn put_header(&mut self, kind: u16);
}

impl Put for Vec<u8> {
    #[inline]
    fn put_u8(&mut self, v: u8) {
        self.push(v);
    }
    #[inline]
    fn put_u16(&mut self, v: u16) {
        self.extend_from_slice(&v.to_le_bytes());
    }
    #[inline]
    fn put_u32(&mut self, v: u32) {
        self.extend_from_slice(&v.to_le_bytes());
    }
    #[inline]
    fn put_i32(&mut self, v: i32) {
        self.extend_from_slice(&v.to_le_bytes());
    }
    #[inline]
    fn put_f64(&mut self, v: f64) {
        self.extend_from_slice(&v.to_bits().to_le_bytes());
    }
    #[inline]
    fn put_u64(&mut self, v: u64) {
        self.extend_from_slice(&v.to_le_bytes());
    }
    fn put_header(&mut self, kind: u16) {
        self.put_u32(MAGIC);
        self.put_u16(VERSION);
        self.put_u16(kind);
    }
}
