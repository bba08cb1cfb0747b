//! Uniform cell grid for point-graph link building ([GRAPH.PT.RING], informative): exact integer
//! cell coordinates, lookups only (never iteration order of a hash container in results).

use crate::values::Point3;
use std::collections::HashMap;

enum CellMap {
    /// Prefix offsets into `order` for every cell of the bounding box.
    Dense(Vec<u32>),
    /// Occupied cells only: cell -> range of `order`.
    Sparse(HashMap<[i64; 3], (u32, u32)>),
}

/// [GRAPH.PT.RING] Points bucketed by cell of size `max(2^-30, extent / max(1, floor(sqrt N)))`.
pub(crate) struct Grid {
    min: [f64; 3],
    pub cell: f64,
    /// Largest occupied cell coordinate per axis (the smallest is 0).
    pub dims: [i64; 3],
    order: Vec<u32>,
    map: CellMap,
}

fn axes(p: &Point3) -> [f64; 3] {
    [p.x, p.y, p.z]
}

impl Grid {
    pub fn new(points: &[Point3]) -> Grid {
        let n = points.len();
        let mut min = [f64::INFINITY; 3];
        let mut max = [f64::NEG_INFINITY; 3];
        for p in points {
            let a = axes(p);
            for i in 0..3 {
                if a[i] < min[i] {
                    min[i] = a[i];
                }
                if a[i] > max[i] {
                    max[i] = a[i];
                }
            }
        }
        let mut extent = 0.0f64;
        if n > 0 {
            for i in 0..3 {
                let span = max[i] - min[i];
                if span > extent {
                    extent = span;
                }
            }
        } else {
            min = [0.0; 3];
        }
        let s = ((n as f64).sqrt().floor()).max(1.0);
        let cell = if extent == 0.0 {
            1.0
        } else {
            let c = extent / s;
            if c > 1.0 / (1u64 << 30) as f64 {
                c
            } else {
                1.0 / (1u64 << 30) as f64
            }
        };
        let mut g = Grid {
            min,
            cell,
            dims: [0; 3],
            order: Vec::new(),
            map: CellMap::Dense(vec![0]),
        };
        let keys: Vec<[i64; 3]> = points.iter().map(|p| g.cell_of(p)).collect();
        for k in &keys {
            for i in 0..3 {
                g.dims[i] = g.dims[i].max(k[i]);
            }
        }
        let total = (g.dims[0] as u128 + 1) * (g.dims[1] as u128 + 1) * (g.dims[2] as u128 + 1);
        if total <= 4 * n as u128 + 64 {
            let cells = total as usize;
            let mut starts = vec![0u32; cells + 1];
            let lin: Vec<usize> = keys.iter().map(|k| g.linear(*k)).collect();
            for &l in &lin {
                starts[l + 1] += 1;
            }
            for i in 0..cells {
                starts[i + 1] += starts[i];
            }
            let mut cursor = starts[..cells].to_vec();
            let mut order = vec![0u32; n];
            for (j, &l) in lin.iter().enumerate() {
                order[cursor[l] as usize] = j as u32;
                cursor[l] += 1;
            }
            g.order = order;
            g.map = CellMap::Dense(starts);
        } else {
            let mut idx: Vec<u32> = (0..n as u32).collect();
            idx.sort_unstable_by_key(|&j| (keys[j as usize], j));
            let mut map = HashMap::new();
            let mut i = 0;
            while i < n {
                let k = keys[idx[i] as usize];
                let mut e = i + 1;
                while e < n && keys[idx[e] as usize] == k {
                    e += 1;
                }
                map.insert(k, (i as u32, e as u32));
                i = e;
            }
            g.order = idx;
            g.map = CellMap::Sparse(map);
        }
        g
    }

    /// Exact integer cell coordinates of `p` (monotone in each coordinate).
    #[inline]
    pub fn cell_of(&self, p: &Point3) -> [i64; 3] {
        let a = axes(p);
        let mut k = [0i64; 3];
        for i in 0..3 {
            k[i] = ((a[i] - self.min[i]) / self.cell).floor() as i64;
        }
        k
    }

    #[inline]
    fn linear(&self, k: [i64; 3]) -> usize {
        ((k[0] * (self.dims[1] + 1) + k[1]) * (self.dims[2] + 1) + k[2]) as usize
    }

    /// The points of cell `k` (which must lie inside `0..=dims`).
    #[inline]
    pub fn points_in(&self, k: [i64; 3]) -> &[u32] {
        match &self.map {
            CellMap::Dense(starts) => {
                let l = self.linear(k);
                &self.order[starts[l] as usize..starts[l + 1] as usize]
            }
            CellMap::Sparse(map) => match map.get(&k) {
                Some(&(a, b)) => &self.order[a as usize..b as usize],
                None => &[],
            },
        }
    }

    /// Calls `f` for every cell at Chebyshev distance exactly `r` from `c`, clipped to the box.
    pub fn ring(&self, c: [i64; 3], r: i64, mut f: impl FnMut(&[u32])) {
        if r == 0 {
            f(self.points_in(c));
            return;
        }
        let lo = |i: usize| (c[i] - r).max(0);
        let hi = |i: usize| (c[i] + r).min(self.dims[i]);
        for x in lo(0)..=hi(0) {
            let ex = (x - c[0]).abs() == r;
            for y in lo(1)..=hi(1) {
                if ex || (y - c[1]).abs() == r {
                    for z in lo(2)..=hi(2) {
                        f(self.points_in([x, y, z]));
                    }
                } else {
                    for z in [c[2] - r, c[2] + r] {
                        if z >= 0 && z <= self.dims[2] {
                            f(self.points_in([x, y, z]));
                        }
                    }
                }
            }
        }
    }

    /// Calls `f` for every cell within Chebyshev distance `r` of `c`, clipped to the box;
    /// returns `false` without calling when that window has more than `limit` cells.
    pub fn window(&self, c: [i64; 3], r: i64, limit: u128, mut f: impl FnMut(&[u32])) -> bool {
        let lo = |i: usize| c[i].saturating_sub(r).max(0);
        let hi = |i: usize| c[i].saturating_add(r).min(self.dims[i]);
        let count: u128 = (0..3).map(|i| (hi(i) - lo(i) + 1) as u128).product();
        if count > limit {
            return false;
        }
        for x in lo(0)..=hi(0) {
            for y in lo(1)..=hi(1) {
                for z in lo(2)..=hi(2) {
                    f(self.points_in([x, y, z]));
                }
            }
        }
        true
    }
}
