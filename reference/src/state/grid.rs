//! [STATE.GRID] [STATE.HEX] [STATE.VOXEL] Grid states: kinds 1 (Grid), 2 (HexGrid), 3 (VoxelGrid).

use super::{
    fault, read_areas, read_header, read_i32_in, read_space, write_areas, write_space, Fault,
    Reader, Writer, KIND_HEX, KIND_VOXEL,
};
use crate::grid::{GridSpace, Plane, PlaneState, VoxelSpace, MAX_CELLS};
use crate::voxel::{VoxelState, CHUNK_BYTES};

/// [STATE.GRID] [STATE.HEX] Writes a square (`layout = None`) or hex grid.
pub(crate) fn save_plane(p: &Plane, kind: u16, layout: Option<i32>) -> Vec<u8> {
    let mut w = Writer::with_header(kind);
    w.i32(p.width as i32);
    w.i32(p.height as i32);
    if let Some(l) = layout {
        w.i32(l);
    }
    w.i32(p.version);
    write_space(
        &mut w,
        &[p.space.origin_x, p.space.origin_y, p.space.cell_size],
    );
    write_areas(&mut w, &p.areas);
    w.bytes(&p.cells);
    w.out
}

/// [STATE.GRID] [STATE.HEX] A size field: equal to the restoring grid's (`size_mismatch`) or, for
/// `from_state`, `>= 1` (`out_of_range`).
fn read_side(r: &mut Reader<'_>, name: &str, expect: Option<usize>) -> Result<usize, Fault> {
    let at = r.pos();
    let v = r.i32()?;
    match expect {
        Some(e) => {
            if i64::from(v) != e as i64 {
                return fault(
                    "size_mismatch",
                    at,
                    format!("size_mismatch at byte {at}: {name} = {v}, the grid has {e}"),
                );
            }
        }
        None => {
            if v < 1 {
                return fault(
                    "out_of_range",
                    at,
                    format!("out_of_range at byte {at}: {name} = {v} < 1"),
                );
            }
        }
    }
    Ok(v as usize)
}

/// [GRID.SQUARE.SIZE] [GRID.VOXEL.SIZE] For `from_state`: the product of the sizes is at most
/// `2^26` (`out_of_range` at the last size field).
fn check_product(sizes: &[usize], at: usize) -> Result<(), Fault> {
    let product = sizes.iter().fold(1u128, |a, &s| a * s as u128);
    if product > u128::from(MAX_CELLS) {
        return fault(
            "out_of_range",
            at,
            format!("out_of_range at byte {at}: {sizes:?} gives {product} cells, more than 2^26"),
        );
    }
    Ok(())
}

/// [STATE.GRID] [STATE.HEX] [STATE.ORDER] Reads and validates a square or hex grid state; `expect`
/// is the restoring grid's `(width, height, layout)`, `None` for `from_state`.
pub(crate) fn read_plane(
    bytes: &[u8],
    kind: u16,
    expect: Option<(usize, usize, Option<i32>)>,
) -> Result<PlaneState, Fault> {
    let mut r = Reader::new(bytes);
    read_header(&mut r, kind)?;
    let width = read_side(&mut r, "width", expect.map(|e| e.0))?;
    let h_at = r.pos();
    let height = read_side(&mut r, "height", expect.map(|e| e.1))?;
    if expect.is_none() {
        check_product(&[width, height], h_at)?;
    }
    let mut layout = -1;
    if kind == KIND_HEX {
        let at = r.pos();
        let v = r.i32()?;
        match expect.and_then(|e| e.2) {
            Some(l) if v != l => {
                return fault(
                    "size_mismatch",
                    at,
                    format!("size_mismatch at byte {at}: layout {v}, the grid has {l}"),
                );
            }
            None if !(0..=3).contains(&v) => {
                return fault(
                    "out_of_range",
                    at,
                    format!("out_of_range at byte {at}: layout {v} is not 0..=3"),
                );
            }
            _ => {}
        }
        layout = v;
    }
    let version = read_i32_in(&mut r, "version", 0, i64::from(i32::MAX), "out_of_range")?;
    let s = read_space(&mut r, &["origin_x", "origin_y", "cell_size"])?;
    let space = GridSpace {
        origin_x: s[0],
        origin_y: s[1],
        cell_size: s[2],
    };
    let areas = read_areas(&mut r)?;
    // width * height <= 2^26 here (checked above or equal to a valid grid's).
    let cells = r.take(width * height)?.to_vec();
    r.finish()?;
    Ok(PlaneState {
        width,
        height,
        layout,
        version,
        space,
        areas,
        cells,
    })
}

/// [STATE.VOXEL] Writes a voxel grid.
pub(crate) fn save_voxel(v: &VoxelState) -> Vec<u8> {
    let mut w = Writer::with_header(KIND_VOXEL);
    w.i32(v.size.0 as i32);
    w.i32(v.size.1 as i32);
    w.i32(v.size.2 as i32);
    w.u8(v.default_area);
    w.i32(v.version);
    let s = v.space;
    write_space(&mut w, &[s.origin_x, s.origin_y, s.origin_z, s.cell_size]);
    write_areas(&mut w, &v.areas);
    for chunk in &v.chunks {
        match chunk {
            Some(bytes) => {
                w.u8(1);
                w.bytes(bytes);
            }
            None => w.u8(0),
        }
    }
    w.out
}

/// [STATE.VOXEL] [STATE.ORDER] [STATE.BOUNDED] Reads and validates a voxel grid state; `expect` is
/// the restoring grid's `(sizes, default_area)`, `None` for `from_state`. Chunks are allocated only
/// as their bytes are read.
pub(crate) fn read_voxel(
    bytes: &[u8],
    expect: Option<((usize, usize, usize), u8)>,
) -> Result<VoxelState, Fault> {
    let mut r = Reader::new(bytes);
    read_header(&mut r, KIND_VOXEL)?;
    let sx = read_side(&mut r, "size_x", expect.map(|e| e.0 .0))?;
    let sy = read_side(&mut r, "size_y", expect.map(|e| e.0 .1))?;
    let z_at = r.pos();
    let sz = read_side(&mut r, "size_z", expect.map(|e| e.0 .2))?;
    if expect.is_none() {
        check_product(&[sx, sy, sz], z_at)?;
    }
    let at = r.pos();
    let default_area = r.u8()?;
    if let Some((_, d)) = expect {
        if d != default_area {
            return fault(
                "size_mismatch",
                at,
                format!(
                    "size_mismatch at byte {at}: default area {default_area}, the grid has {d}"
                ),
            );
        }
    }
    let version = read_i32_in(&mut r, "version", 0, i64::from(i32::MAX), "out_of_range")?;
    let s = read_space(&mut r, &["origin_x", "origin_y", "origin_z", "cell_size"])?;
    let space = VoxelSpace {
        origin_x: s[0],
        origin_y: s[1],
        origin_z: s[2],
        cell_size: s[3],
    };
    let areas = read_areas(&mut r)?;
    let count = crate::voxel::chunk_count((sx, sy, sz));
    let mut chunks = Vec::new();
    for _ in 0..count {
        if r.flag("chunk flag")? {
            chunks.push(Some(r.take(CHUNK_BYTES)?.to_vec()));
        } else {
            chunks.push(None);
        }
    }
    r.finish()?;
    Ok(VoxelState {
        size: (sx, sy, sz),
        default_area,
        version,
        space,
        areas,
        chunks,
    })
}
