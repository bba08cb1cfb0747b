//! Voxel grids: [GRID.VOXEL.SIZE], [GRID.VOXEL.DEFAULT], [GRID.VOXEL.CHUNKS], [GRID.VOXEL.ALLOC],
//! [GRID.VOXEL.PADDING], and state kind 3 ([STATE.VOXEL], [STATE.GRID.RESTORE], [STATE.ATOMIC]).

use crate::cells::{bump, check_space, read_space, Areas, CellListener, Listeners, VoxelSpace};
use crate::grid_error::{GridError, GridKind, GridStateError};
use crate::voxel_cache::VoxelCache;
use crate::wire::{fail, Class, Fault, Put, Reader, KIND_VOXEL};
use crate::MAX_NODES;
use std::fmt;

/// [GRID.VOXEL.CHUNKS] Voxels per chunk (16 x 16 x 16).
const CHUNK: usize = 4096;

type Chunk = Box<[u8; CHUNK]>;

/// [GRID.VOXEL.SIZE] [GRID.VOXEL.CHUNKS] A 3D grid of area voxels stored in 16^3 chunks that are
/// allocated on the first write that changes one of their voxels.
pub struct VoxelGrid {
    size: [usize; 3],
    chunks_n: [usize; 3],
    default_area: u8,
    chunks: Vec<Option<Chunk>>,
    version: i32,
    restore_count: u64,
    areas: Areas,
    space: VoxelSpace,
    listeners: Listeners,
    /// Chunk buffers no longer in use (a restore unallocated them), reused by the next chunk a
    /// write or a restore allocates, so a save / edit / restore loop allocates nothing in steady
    /// state. At most one per chunk; not part of the state.
    spare: Vec<Chunk>,
    /// The previous chunks of a restore with listeners, kept for the comparison (reused).
    previous: Vec<Option<Chunk>>,
    /// Derived search data and scratch (`voxel_cache`; not part of the state).
    cache: VoxelCache,
}

/// A validated state; chunk data is re-read from the input at `chunks_at`.
struct Parsed {
    size: [usize; 3],
    default_area: u8,
    version: i32,
    space: VoxelSpace,
    areas: Areas,
    chunks_at: usize,
}

fn sizes_ok(s: [usize; 3]) -> bool {
    s.iter().all(|&v| v >= 1)
        && s[0]
            .checked_mul(s[1])
            .and_then(|p| p.checked_mul(s[2]))
            .is_some_and(|n| n <= MAX_NODES)
}

fn chunk_counts(s: [usize; 3]) -> [usize; 3] {
    [s[0].div_ceil(16), s[1].div_ceil(16), s[2].div_ceil(16)]
}

fn filled(v: u8) -> Chunk {
    Box::new([v; CHUNK])
}

fn copied(data: &[u8]) -> Chunk {
    let mut c = Box::new([0u8; CHUNK]);
    c.copy_from_slice(data);
    c
}

/// Walks the validated chunk list: `(chunk index, Some(4096 bytes) | None)`.
fn chunk_list(bytes: &[u8], at: usize, count: usize) -> impl Iterator<Item = Option<&[u8]>> {
    let mut pos = at;
    (0..count).map(move |_| {
        let allocated = bytes[pos] == 1;
        pos += 1;
        if allocated {
            pos += CHUNK;
            Some(&bytes[pos - CHUNK..pos])
        } else {
            None
        }
    })
}

impl VoxelGrid {
    /// [GRID.VOXEL.SIZE] [GRID.VOXEL.DEFAULT] A grid of `size_x x size_y x size_z` voxels, all
    /// `default_area`, no chunk allocated (`invalid_size`).
    pub fn new(
        size_x: usize,
        size_y: usize,
        size_z: usize,
        default_area: u8,
    ) -> Result<VoxelGrid, GridError> {
        let size = [size_x, size_y, size_z];
        if !sizes_ok(size) {
            return Err(GridError::new(GridKind::InvalidSize {
                sizes: size,
                dims: 3,
            }));
        }
        Ok(VoxelGrid::empty(size, default_area))
    }

    fn empty(size: [usize; 3], default_area: u8) -> VoxelGrid {
        let chunks_n = chunk_counts(size);
        let mut chunks = Vec::new();
        chunks.resize_with(chunks_n[0] * chunks_n[1] * chunks_n[2], || None);
        VoxelGrid {
            size,
            chunks_n,
            default_area,
            chunks,
            version: 0,
            restore_count: 0,
            areas: Areas::default(),
            space: VoxelSpace::default(),
            listeners: Listeners::default(),
            spare: Vec::new(),
            previous: Vec::new(),
            cache: VoxelCache::default(),
        }
    }

    /// [GRID.VOXEL.CHUNKS] [GRID.VOXEL.DEFAULT] Every voxel's area by node index
    /// `x + size_x * (y + size_y * z)` (padding excluded), written into `out` (resized).
    pub(crate) fn flat_areas_into(&self, out: &mut Vec<u8>) {
        let [sx, sy, sz] = self.size;
        out.clear();
        out.resize(sx * sy * sz, self.default_area);
        let [cx, cy, _] = self.chunks_n;
        for (ci, chunk) in self.chunks.iter().enumerate() {
            let Some(b) = chunk else { continue };
            let (x0, y0, z0) = ((ci % cx) * 16, (ci / cx % cy) * 16, (ci / (cx * cy)) * 16);
            for lz in 0..16.min(sz - z0) {
                for ly in 0..16.min(sy - y0) {
                    let row = x0 + sx * ((y0 + ly) + sy * (z0 + lz));
                    let len = 16.min(sx - x0);
                    let at = (ly << 4) | (lz << 8);
                    out[row..row + len].copy_from_slice(&b[at..at + len]);
                }
            }
        }
    }

    /// The grid's derived search data and scratch pool (`voxel_cache`).
    pub(crate) fn cache(&self) -> &VoxelCache {
        &self.cache
    }

    /// [GRID.VOXEL.SIZE] `(size_x, size_y, size_z)`.
    pub fn size(&self) -> (usize, usize, usize) {
        (self.size[0], self.size[1], self.size[2])
    }

    /// [GRID.VOXEL.DEFAULT] The area of every voxel of an unallocated chunk.
    pub fn default_area(&self) -> u8 {
        self.default_area
    }

    /// [GRID.VOXEL.CHUNKS] [GRID.EDIT.RANGE] `(chunk index, byte in chunk)` of a voxel.
    fn locate(&self, x: usize, y: usize, z: usize) -> Result<(usize, usize), GridError> {
        for (axis, value, size) in [
            ('x', x, self.size[0]),
            ('y', y, self.size[1]),
            ('z', z, self.size[2]),
        ] {
            if value >= size {
                return Err(GridError::new(GridKind::CellOutOfRange {
                    axis,
                    value,
                    size,
                }));
            }
        }
        let [cx, cy, _] = self.chunks_n;
        let chunk = (x >> 4) + cx * ((y >> 4) + cy * (z >> 4));
        Ok((chunk, (x & 15) | (y & 15) << 4 | (z & 15) << 8))
    }

    /// [GRID.VOXEL.DEFAULT] [GRID.EDIT.RANGE] The area of voxel `(x, y, z)`.
    pub fn voxel(&self, x: usize, y: usize, z: usize) -> Result<u8, GridError> {
        let (c, i) = self.locate(x, y, z)?;
        Ok(self.chunks[c].as_ref().map_or(self.default_area, |b| b[i]))
    }

    /// [GRID.VOXEL.ALLOC] [GRID.VERSION.COUNT] [GRID.LISTEN.EDIT] Sets voxel `(x, y, z)`; a change
    /// allocates its chunk if needed (filled with the default area), bumps the version and tells
    /// the listeners (node index `x + size_x * (y + size_y * z)`).
    pub fn set_voxel(&mut self, x: usize, y: usize, z: usize, area: u8) -> Result<(), GridError> {
        let (c, i) = self.locate(x, y, z)?;
        let d = self.default_area;
        let old = self.chunks[c].as_ref().map_or(d, |b| b[i]);
        if old == area {
            return Ok(());
        }
        let spare = &mut self.spare;
        self.chunks[c].get_or_insert_with(|| match spare.pop() {
            Some(mut b) => {
                b.fill(d);
                b
            }
            None => filled(d),
        })[i] = area;
        self.version = bump(self.version);
        let node = x + self.size[0] * (y + self.size[1] * z);
        self.cache.edited(node, area);
        self.listeners.notify(node as u32, old, area);
        Ok(())
    }

    /// [GRID.VOXEL.ALLOC] Whether chunk `chunk` is allocated (`false` out of range).
    pub fn is_chunk_allocated(&self, chunk: usize) -> bool {
        self.chunks.get(chunk).is_some_and(|c| c.is_some())
    }

    /// [GRID.VERSION.COUNT] [GRID.VERSION.RESTORE] The voxel version.
    pub fn version(&self) -> i32 {
        self.version
    }

    /// [GRID.RESTORE_COUNT] Successful restores so far (not saved).
    pub fn restore_count(&self) -> u64 {
        self.restore_count
    }

    /// [GRID.AREA.TABLE] The multiplier of `area`; `None` for 255 (the wall).
    pub fn area_multiplier(&self, area: u8) -> Option<f64> {
        self.areas.get(area)
    }

    /// [GRID.AREA.SET] Sets the multiplier of `area <= 254` to a finite `m > 0`.
    pub fn set_area_multiplier(&mut self, area: u8, multiplier: f64) -> Result<(), GridError> {
        self.areas.set(area, multiplier)
    }

    /// [GRID.AREA.VERSION] The area table's version.
    pub fn area_version(&self) -> i32 {
        self.areas.version
    }

    /// [GRID.SPACE.FIELDS] The grid's space.
    pub fn space(&self) -> VoxelSpace {
        self.space
    }

    /// [GRID.SPACE.RANGE] Sets the space (`invalid_space` naming the field and value).
    pub fn set_space(&mut self, s: VoxelSpace) -> Result<(), GridError> {
        check_space(&[
            ("origin_x", s.origin_x),
            ("origin_y", s.origin_y),
            ("origin_z", s.origin_z),
            ("cell_size", s.cell_size),
        ])?;
        self.space = s;
        Ok(())
    }

    /// [GRID.LISTEN.EDIT] Adds a listener; returns its id.
    pub fn add_listener(&mut self, listener: CellListener) -> usize {
        self.listeners.add(listener)
    }

    /// [GRID.LISTEN.EDIT] Removes listener `id`; `false` when there is none.
    pub fn remove_listener(&mut self, id: usize) -> bool {
        self.listeners.remove(id)
    }

    /// [STATE.VOXEL] [STATE.STABLE] [GRID.VOXEL.PADDING] The state bytes (kind 3): chunks in
    /// chunk-index order, each a flag and, when allocated, its 4096 bytes (padding included).
    pub fn save_state(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.save_state_into(&mut out);
        out
    }

    /// [STATE.API.INTO] The bytes of [`VoxelGrid::save_state`] written into `out` (cleared
    /// first; its allocation is reused).
    pub fn save_state_into(&self, out: &mut Vec<u8>) {
        let allocated = self.chunks.iter().filter(|c| c.is_some()).count();
        out.clear();
        out.reserve(8 + 13 + 4 + 32 + 2044 + self.chunks.len() + allocated * CHUNK);
        out.put_header(KIND_VOXEL);
        for s in self.size {
            out.put_i32(s as i32);
        }
        out.put_u8(self.default_area);
        out.put_i32(self.version);
        let s = self.space;
        for v in [s.origin_x, s.origin_y, s.origin_z, s.cell_size] {
            out.put_f64(v);
        }
        self.areas.write(out);
        for c in &self.chunks {
            match c {
                Some(b) => {
                    out.put_u8(1);
                    out.extend_from_slice(&b[..]);
                }
                None => out.put_u8(0),
            }
        }
    }

    /// [STATE.ORDER] [STATE.VOXEL] Checks every field in byte order without allocating.
    fn parse(bytes: &[u8], same: Option<&VoxelGrid>) -> Result<Parsed, Fault> {
        let mut r = Reader::new(bytes);
        r.header(KIND_VOXEL)?;
        let mut raw = [0i32; 3];
        const NAMES: [&str; 3] = ["size_x", "size_y", "size_z"];
        for i in 0..3 {
            let at = r.pos;
            raw[i] = r.i32(NAMES[i])?;
            match same {
                Some(g) if raw[i] as i64 != g.size[i] as i64 => {
                    return fail(Class::SizeMismatch, at, NAMES[i])
                }
                None if raw[i] < 1 => return fail(Class::OutOfRange, at, NAMES[i]),
                None if i == 2 && !sizes_ok(raw.map(|v| v as usize)) => {
                    return fail(Class::OutOfRange, at, NAMES[i])
                }
                _ => {}
            }
        }
        let at = r.pos;
        let default_area = r.u8("default_area")?;
        if same.is_some_and(|g| g.default_area != default_area) {
            return fail(Class::SizeMismatch, at, "default_area");
        }
        let at = r.pos;
        let version = r.i32("version")?;
        if version < 0 {
            return fail(Class::OutOfRange, at, "version");
        }
        let [origin_x, origin_y, origin_z, cell_size] = read_space::<4>(&mut r)?;
        let areas = Areas::read(&mut r)?;
        let size = raw.map(|v| v as usize);
        let [cx, cy, cz] = chunk_counts(size);
        let chunks_at = r.pos;
        for _ in 0..cx * cy * cz {
            if r.flag("chunk flag")? {
                r.take(CHUNK, "chunk")?;
            }
        }
        r.finish()?;
        Ok(Parsed {
            size,
            default_area,
            version,
            space: VoxelSpace {
                origin_x,
                origin_y,
                origin_z,
                cell_size,
            },
            areas,
            chunks_at,
        })
    }

    /// [STATE.VOXEL] [STATE.ATOMIC] [STATE.GRID.RESTORE] [GRID.LISTEN.RESTORE] Validates
    /// everything (sizes and default area must equal this grid's), installs the saved chunks
    /// exactly (unallocated ones become unallocated), then tells the listeners about every voxel
    /// that differs, in ascending node index. On error nothing changed.
    pub fn restore_state(&mut self, bytes: &[u8]) -> Result<(), GridStateError> {
        let p = VoxelGrid::parse(bytes, Some(self)).map_err(GridStateError::from_fault)?;
        self.version = p.version;
        self.space = p.space;
        self.areas = p.areas;
        self.restore_count += 1;
        self.cache.restored();
        let list = chunk_list(bytes, p.chunks_at, self.chunks.len());
        let spare = &mut self.spare;
        let reuse = |spare: &mut Vec<Chunk>, d: &[u8]| match spare.pop() {
            Some(mut b) => {
                b.copy_from_slice(d);
                b
            }
            None => copied(d),
        };
        if self.listeners.is_empty() {
            for (slot, data) in self.chunks.iter_mut().zip(list) {
                match (data, slot.as_mut()) {
                    (Some(d), Some(c)) => c.copy_from_slice(d),
                    (Some(d), None) => *slot = Some(reuse(spare, d)),
                    (None, _) => {
                        if let Some(b) = slot.take() {
                            spare.push(b);
                        }
                    }
                }
            }
        } else {
            let mut old = std::mem::take(&mut self.previous);
            old.clear();
            for (slot, data) in self.chunks.iter_mut().zip(list) {
                let prev = slot.take();
                *slot = data.map(|d| reuse(spare, d));
                old.push(prev);
            }
            self.notify_restore(&old);
            self.spare.extend(old.iter_mut().filter_map(Option::take));
            self.previous = old;
        }
        Ok(())
    }

    /// [GRID.LISTEN.RESTORE] Ascending node index: rows of `x` within each `(y, z)`, compared
    /// 16 voxels (one chunk row) at a time.
    fn notify_restore(&mut self, old: &[Option<Chunk>]) {
        let [sx, sy, sz] = self.size;
        let [cx, cy, _] = self.chunks_n;
        let d = [self.default_area; 16];
        for z in 0..sz {
            for y in 0..sy {
                let local = (y & 15) << 4 | (z & 15) << 8;
                for k in 0..cx {
                    let c = k + cx * ((y >> 4) + cy * (z >> 4));
                    let len = (sx - k * 16).min(16);
                    let row = |ch: &Option<Chunk>| -> [u8; 16] {
                        let mut r = d;
                        if let Some(b) = ch {
                            r.copy_from_slice(&b[local..local + 16]);
                        }
                        r
                    };
                    let (a, b) = (row(&old[c]), row(&self.chunks[c]));
                    if a[..len] == b[..len] {
                        continue;
                    }
                    let base = (k * 16 + sx * (y + sy * z)) as u32;
                    self.listeners.notify_diff(base, &a[..len], &b[..len]);
                }
            }
        }
    }

    /// [STATE.API] [STATE.VOXEL] A new voxel grid from state bytes ([GRID.VOXEL.SIZE] required,
    /// `out_of_range` at the offending size field; the product is checked at `size_z`).
    pub fn from_state(bytes: &[u8]) -> Result<VoxelGrid, GridStateError> {
        let p = VoxelGrid::parse(bytes, None).map_err(GridStateError::from_fault)?;
        let mut g = VoxelGrid::empty(p.size, p.default_area);
        g.version = p.version;
        g.space = p.space;
        g.areas = p.areas;
        let count = g.chunks.len();
        for (slot, data) in g
            .chunks
            .iter_mut()
            .zip(chunk_list(bytes, p.chunks_at, count))
        {
            *slot = data.map(copied);
        }
        Ok(g)
    }
}

impl fmt::Debug for VoxelGrid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VoxelGrid")
            .field("size", &self.size)
            .field("default_area", &self.default_area)
            .field(
                "allocated_chunks",
                &self.chunks.iter().filter(|c| c.is_some()).count(),
            )
            .field("version", &self.version)
            .field("restore_count", &self.restore_count)
            .field("area_version", &self.areas.version)
            .field("space", &self.space)
            .field("listeners", &self.listeners.len())
            .finish_non_exhaustive()
    }
}
