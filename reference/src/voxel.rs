//! [GRID.VOXEL] The voxel grid of spec/grids.md section 7: 16^3 chunks allocated on first change.

use crate::grid::{bump, check_space, AreaTable, CellListener, Listeners, VoxelSpace, MAX_CELLS};
use crate::grid_error::{GridError, GridStateError};

/// [GRID.VOXEL.CHUNKS] The edge length of a chunk.
pub(crate) const CHUNK_EDGE: usize = 16;
/// [GRID.VOXEL.CHUNKS] The bytes of one chunk (`16^3`).
pub(crate) const CHUNK_BYTES: usize = 4096;

/// [GRID.VOXEL.CHUNKS] The chunk counts per axis: `ceil(size / 16)`.
pub(crate) fn chunk_dims(size: (usize, usize, usize)) -> (usize, usize, usize) {
    let c = |s: usize| s.div_ceil(CHUNK_EDGE);
    (c(size.0), c(size.1), c(size.2))
}

/// [GRID.VOXEL.CHUNKS] The number of chunks.
pub(crate) fn chunk_count(size: (usize, usize, usize)) -> usize {
    let (a, b, c) = chunk_dims(size);
    a * b * c
}

/// The whole saved content of a voxel grid (also its storage).
pub(crate) struct VoxelState {
    pub(crate) size: (usize, usize, usize),
    pub(crate) default_area: u8,
    pub(crate) version: i32,
    pub(crate) space: VoxelSpace,
    pub(crate) areas: AreaTable,
    /// [GRID.VOXEL.CHUNKS] Chunks in chunk-index order; `None` is unallocated.
    pub(crate) chunks: Vec<Option<Vec<u8>>>,
}

impl VoxelState {
    /// [GRID.VOXEL.CHUNKS] The chunk index and the byte within the chunk of voxel `(x, y, z)`.
    fn locate(&self, x: usize, y: usize, z: usize) -> (usize, usize) {
        let (cx, cy, _) = chunk_dims(self.size);
        let chunk = x / CHUNK_EDGE + cx * (y / CHUNK_EDGE + cy * (z / CHUNK_EDGE));
        let local = (x % CHUNK_EDGE) | (y % CHUNK_EDGE) << 4 | (z % CHUNK_EDGE) << 8;
        (chunk, local)
    }

    /// [GRID.VOXEL.DEFAULT] The value of an in-range voxel.
    fn get(&self, x: usize, y: usize, z: usize) -> u8 {
        let (c, l) = self.locate(x, y, z);
        match &self.chunks[c] {
            Some(bytes) => bytes[l],
            None => self.default_area,
        }
    }
}

/// [GRID.VOXEL] A 3-D grid of area voxels stored in 16x16x16 chunks.
pub struct VoxelGrid {
    state: VoxelState,
    restore_count: u64,
    listeners: Listeners,
}

impl std::fmt::Debug for VoxelGrid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VoxelGrid")
            .field("size", &self.state.size)
            .field("default_area", &self.state.default_area)
            .field("version", &self.state.version)
            .field("restore_count", &self.restore_count)
            .finish_non_exhaustive()
    }
}

impl VoxelGrid {
    /// [GRID.VOXEL.SIZE] [GRID.VOXEL.DEFAULT] A grid of `size_x * size_y * size_z` voxels, all
    /// `default_area`, no chunk allocated (`invalid_size`).
    pub fn new(
        size_x: usize,
        size_y: usize,
        size_z: usize,
        default_area: u8,
    ) -> Result<VoxelGrid, GridError> {
        let product = size_x as u128 * size_y as u128 * size_z as u128;
        if size_x == 0 || size_y == 0 || size_z == 0 || product > u128::from(MAX_CELLS) {
            return Err(GridError::size(format!(
                "{size_x} x {size_y} x {size_z} voxels: each side must be >= 1 and the product <= 2^26"
            )));
        }
        let size = (size_x, size_y, size_z);
        Ok(VoxelGrid {
            state: VoxelState {
                size,
                default_area,
                version: 0,
                space: VoxelSpace::default(),
                areas: AreaTable::new(),
                chunks: vec![None; chunk_count(size)],
            },
            restore_count: 0,
            listeners: Listeners::default(),
        })
    }

    /// [GRID.VOXEL.SIZE] `(size_x, size_y, size_z)`.
    pub fn size(&self) -> (usize, usize, usize) {
        self.state.size
    }

    /// [GRID.VOXEL.DEFAULT] The default area.
    pub fn default_area(&self) -> u8 {
        self.state.default_area
    }

    /// [GRID.EDIT.RANGE] Checks x, then y, then z.
    fn check(&self, x: usize, y: usize, z: usize) -> Result<(), GridError> {
        let (sx, sy, sz) = self.state.size;
        if x >= sx {
            return Err(GridError::cell('x', x, sx));
        }
        if y >= sy {
            return Err(GridError::cell('y', y, sy));
        }
        if z >= sz {
            return Err(GridError::cell('z', z, sz));
        }
        Ok(())
    }

    /// [GRID.VOXEL.DEFAULT] [GRID.EDIT.RANGE] The area of voxel `(x, y, z)`.
    pub fn voxel(&self, x: usize, y: usize, z: usize) -> Result<u8, GridError> {
        self.check(x, y, z)?;
        Ok(self.state.get(x, y, z))
    }

    /// [GRID.VOXEL.ALLOC] [GRID.VERSION.COUNT] [GRID.LISTEN.EDIT] Sets voxel `(x, y, z)`; a change
    /// allocates its chunk if needed (filled with the default area), bumps the version and tells
    /// the listeners with the node index `x + size_x * (y + size_y * z)`.
    pub fn set_voxel(&mut self, x: usize, y: usize, z: usize, area: u8) -> Result<(), GridError> {
        self.check(x, y, z)?;
        let old = self.state.get(x, y, z);
        if old == area {
            return Ok(());
        }
        let (c, l) = self.state.locate(x, y, z);
        let d = self.state.default_area;
        self.state.chunks[c].get_or_insert_with(|| vec![d; CHUNK_BYTES])[l] = area;
        self.state.version = bump(self.state.version);
        let (sx, sy, _) = self.state.size;
        self.listeners.notify(x + sx * (y + sy * z), old, area);
        Ok(())
    }

    /// [GRID.VOXEL.ALLOC] Whether chunk `chunk` (chunk-index order) is allocated; false out of range.
    pub fn is_chunk_allocated(&self, chunk: usize) -> bool {
        matches!(self.state.chunks.get(chunk), Some(Some(_)))
    }

    /// [GRID.VERSION.COUNT] The edit version.
    pub fn version(&self) -> i32 {
        self.state.version
    }
    /// [GRID.RESTORE_COUNT] The number of successful restores.
    pub fn restore_count(&self) -> u64 {
        self.restore_count
    }
    /// [GRID.AREA.TABLE] The multiplier of `area`; `None` for 255.
    pub fn area_multiplier(&self, area: u8) -> Option<f64> {
        self.state.areas.get(area)
    }
    /// [GRID.AREA.SET] Sets the multiplier of `area`.
    pub fn set_area_multiplier(&mut self, area: u8, multiplier: f64) -> Result<(), GridError> {
        self.state.areas.set(area, multiplier)
    }
    /// [GRID.AREA.VERSION] The area table's version.
    pub fn area_version(&self) -> i32 {
        self.state.areas.version
    }
    /// [GRID.SPACE.FIELDS] The grid's space.
    pub fn space(&self) -> VoxelSpace {
        self.state.space
    }
    /// [GRID.SPACE.RANGE] Sets the grid's space (`invalid_space`).
    pub fn set_space(&mut self, space: VoxelSpace) -> Result<(), GridError> {
        check_space(&[
            ("origin_x", space.origin_x),
            ("origin_y", space.origin_y),
            ("origin_z", space.origin_z),
            ("cell_size", space.cell_size),
        ])?;
        self.state.space = space;
        Ok(())
    }
    /// [GRID.LISTEN.EDIT] Adds a listener; returns its id.
    pub fn add_listener(&mut self, listener: CellListener) -> usize {
        self.listeners.add(listener)
    }
    /// [GRID.LISTEN.EDIT] Removes listener `id`; false when unknown.
    pub fn remove_listener(&mut self, id: usize) -> bool {
        self.listeners.remove(id)
    }

    /// [STATE.API] [STATE.STABLE] [STATE.VOXEL] The state bytes (allocated chunks with padding).
    pub fn save_state(&self) -> Vec<u8> {
        crate::state::grid::save_voxel(&self.state)
    }

    /// [STATE.API.INTO] The bytes of `save_state()` left in `out` (cleared first; its
    /// allocation is reused).
    pub fn save_state_into(&self, out: &mut Vec<u8>) {
        out.clear();
        out.extend_from_slice(&self.save_state());
    }

    /// [STATE.API] [STATE.ATOMIC] [STATE.GRID.RESTORE] [GRID.LISTEN.RESTORE] [GRID.VOXEL.PADDING]
    /// Replaces the state by `bytes` (validated first), then tells the listeners about every voxel
    /// whose value changed, in ascending node index.
    pub fn restore_state(&mut self, bytes: &[u8]) -> Result<(), GridStateError> {
        let new = crate::state::grid::read_voxel(
            bytes,
            Some((self.state.size, self.state.default_area)),
        )?;
        let old = std::mem::replace(&mut self.state, new);
        self.restore_count = self.restore_count.wrapping_add(1);
        let (sx, sy, sz) = self.state.size;
        let mut index = 0usize;
        for z in 0..sz {
            for y in 0..sy {
                for x in 0..sx {
                    let (a, b) = (old.get(x, y, z), self.state.get(x, y, z));
                    if a != b {
                        self.listeners.notify(index, a, b);
                    }
                    index += 1;
                }
            }
        }
        Ok(())
    }

    /// [STATE.API] [STATE.VOXEL] A new voxel grid from state bytes.
    pub fn from_state(bytes: &[u8]) -> Result<VoxelGrid, GridStateError> {
        let state = crate::state::grid::read_voxel(bytes, None)?;
        Ok(VoxelGrid {
            state,
            restore_count: 0,
            listeners: Listeners::default(),
        })
    }
}
