//! Grid-owned derived data and search scratch, so that a tier-1 query costs what it explores,
//! not what the map holds (informative; never observable in results, vectors or state bytes).
//!
//! A [`crate::Grid`] keeps one [`GridCache`]: the multiplier table (dropped by a multiplier
//! change or a restore), the padded passability per agent size ([GS.PASS],
//! clearance included), the specialised A*'s move masks per agent size, connectivity and corner
//! rule, the JPS block-scan masks and the JPS+ tables ([GS.JUMP.TABLES]), each built by the
//! first search that needs it and shared (`Arc`) by every later one; and a small pool of
//! per-search scratch (cell arrays reset by an epoch, never cleared cell by cell) that search
//! objects take when made and give back when dropped.
//!
//! Validity: every edit and restore takes `&mut Grid`, so no search borrows the grid while the
//! cache changes and no version check is needed on the read path. An edit that changes whether
//! a cell is a wall repairs the agent-size-1 data in place: the passability (one byte), the move
//! masks and the JPS block masks (the 3 x 3 cells around it), and the JPS+ tables (the entries
//! near the cell, then each changed entry's ray walked back until an entry keeps its value: a
//! wall changes jump distances along rows, columns and diagonals through it, so the cost is
//! those lines' changed entries, not the map). It drops the clearance of larger agents (a wall
//! changes the clearance of a whole square up and to the left of it), rebuilt by the next
//! search that needs it. An edit between two non-wall areas changes nothing here. A restore
//! drops every derived entry (the scratch pool stays: it depends on the size only).
//!
//! Threads: the cache sits behind one mutex held only to look up or insert an `Arc` or to take
//! or give scratch (never while building or searching), so it is ready for concurrent readers;
//! two readers missing the same entry may both build it, the first stored wins (both are
//! equal). Today `Grid` is `Send` but not `Sync` (its listeners are `FnMut + Send`, as in
//! `onepath-reference`), so concurrent queries use one grid per thread (the crate docs).

use super::bitjump::Bits;
use super::ctx::{DX, DY};
use super::jps_plus::Tables;
use super::options::{Connectivity, DiagonalRule};
use super::special_astar::SpecA;
use super::special_jump::SpecJ;
use crate::heap::{Buffers, Scratch};
use crate::hpa::{HpaHierarchy, HpaOptions};
use std::sync::{Arc, Mutex, MutexGuard};

/// Scratch objects of each kind kept for reuse (more concurrent searches allocate their own).
const POOL: usize = 4;

/// The move-mask key: agent size, directions (4 or 8), corner rule.
type MoveKey = (u32, usize, DiagonalRule);

#[derive(Default)]
struct Inner {
    base: Vec<(u32, Arc<Vec<u8>>)>,
    moves: Vec<(MoveKey, Arc<Vec<u8>>)>,
    tables: Vec<(u32, Arc<Tables>)>,
    bits: Vec<(u32, Arc<Bits>)>,
    spec_a: Vec<SpecA>,
    spec_j: Vec<SpecJ>,
    bufs: Vec<Buffers<2>>,
    /// 4-ary scratch of the hex and bidirectional searches (by node count).
    scratch: Vec<Scratch>,
    /// HPA* tier 1's hierarchies (with their abstract-search scratch) by options.
    hpa: Vec<HpaEntry>,
    /// The multiplier table of the searches ([GRID.AREA.TABLE]: area 255 unused, 1.0), with
    /// its smallest multiplier of areas 0..=254 and whether every one is exactly 1.0.
    areas: Option<AreaTable>,
}

/// A grid's multipliers as the searches read them, built once per area-table change.
#[derive(Clone)]
pub(crate) struct AreaTable {
    /// [GRID.AREA.TABLE] Multiplier by area (255: unused, 1.0).
    pub mult: Arc<[f64; 256]>,
    /// [GS.EST.SCALE] Smallest multiplier of areas 0..=254.
    pub mmin: f64,
    /// [GS.COST.UNIFORM] Every multiplier exactly 1.0.
    pub uniform: bool,
}

/// A hierarchy kept for HPA* tier 1 and whether it is known to match the grid (no edit,
/// restore or multiplier change since its last refresh).
pub(crate) struct HpaEntry {
    /// The hierarchy ([HPA.REFRESH.EQUAL]: refreshed, it equals a new one).
    pub hierarchy: HpaHierarchy,
    /// The abstract search's open set and slots.
    pub buf: Scratch,
    /// Nothing changed since the last refresh (else the next query refreshes).
    pub fresh: bool,
}

/// The derived data and scratch pool of one grid (see the module docs).
#[derive(Default)]
pub(crate) struct GridCache {
    inner: Mutex<Inner>,
}

fn find<K: PartialEq, V: Clone>(v: &[(K, V)], k: &K) -> Option<V> {
    v.iter().find(|(x, _)| x == k).map(|(_, a)| a.clone())
}

fn store<K: PartialEq, V: Clone>(v: &mut Vec<(K, V)>, k: K, a: V) -> V {
    match v.iter().find(|(x, _)| *x == k) {
        Some((_, old)) => old.clone(),
        None => {
            v.push((k, a.clone()));
            a
        }
    }
}

/// [GS.MOVE.STRAIGHT] [GS.MOVE.DIAGONAL] The allowed-move bits of padded cell `p`.
pub(crate) fn move_mask(pass: &[u8], pw: usize, p: usize, nd: usize, rule: DiagonalRule) -> u8 {
    if pass[p] == 0 {
        return 0;
    }
    let mut m = 0u8;
    for d in 0..nd {
        let q = p.wrapping_add_signed(DY[d] as isize * pw as isize + DX[d] as isize);
        if pass[q] == 0 {
            continue;
        }
        if d >= 4 {
            let a = pass[p.wrapping_add_signed(DX[d] as isize)] != 0;
            let b = pass[p.wrapping_add_signed(DY[d] as isize * pw as isize)] != 0;
            let ok = match rule {
                DiagonalRule::Always => true,
                DiagonalRule::AtMostOneBlocked => a || b,
                DiagonalRule::NoneBlocked => a && b,
            };
            if !ok {
                continue;
            }
        }
        m |= 1 << d;
    }
    m
}

impl GridCache {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The multiplier table (`build` runs on a miss, unlocked).
    pub fn area_table(&self, build: impl FnOnce() -> AreaTable) -> AreaTable {
        if let Some(t) = &self.lock().areas {
            return t.clone();
        }
        let t = build();
        self.lock().areas.get_or_insert(t).clone()
    }

    /// [GS.PASS] The padded passability for `agent` (`build` runs on a miss, unlocked).
    pub fn base(&self, agent: u32, build: impl FnOnce() -> Vec<u8>) -> Arc<Vec<u8>> {
        if let Some(a) = find(&self.lock().base, &agent) {
            return a;
        }
        let a = Arc::new(build());
        store(&mut self.lock().base, agent, a)
    }

    /// The specialised A*'s move masks over `pass` (the passability of `agent`).
    pub fn moves(
        &self,
        agent: u32,
        conn: Connectivity,
        rule: DiagonalRule,
        pass: &[u8],
        pw: usize,
    ) -> Arc<Vec<u8>> {
        let nd = if conn == Connectivity::Four { 4 } else { 8 };
        let key = (agent, nd, rule);
        if let Some(a) = find(&self.lock().moves, &key) {
            return a;
        }
        let ph = pass.len() / pw;
        let mut m = vec![0u8; pass.len()];
        for y in 1..ph - 1 {
            for x in 1..pw - 1 {
                let p = y * pw + x;
                m[p] = move_mask(pass, pw, p, nd, rule);
            }
        }
        store(&mut self.lock().moves, key, Arc::new(m))
    }

    /// [GS.JUMP.TABLES] The JPS+ tables of `pass` (the passability of `agent`).
    pub fn tables(&self, agent: u32, pass: &[u8], pw: usize) -> Arc<Tables> {
        if let Some(a) = find(&self.lock().tables, &agent) {
            return a;
        }
        let t = Arc::new(Tables::build(pass, pw));
        store(&mut self.lock().tables, agent, t)
    }

    /// The JPS block-scan masks of `pass` (the passability of `agent`).
    pub fn bits(&self, agent: u32, pass: &[u8], pw: usize) -> Arc<Bits> {
        if let Some(a) = find(&self.lock().bits, &agent) {
            return a;
        }
        let b = Arc::new(Bits::build(pass, pw));
        store(&mut self.lock().bits, agent, b)
    }

    /// A pooled specialised A* of `len` padded cells, if any.
    pub fn take_spec_a(&self, len: usize) -> Option<SpecA> {
        let mut g = self.lock();
        let i = g.spec_a.iter().position(|e| e.len() == len)?;
        Some(g.spec_a.swap_remove(i))
    }

    /// Gives a specialised A* back to the pool (dropped when the pool is full).
    pub fn give_spec_a(&self, e: SpecA) {
        let mut g = self.lock();
        if g.spec_a.len() < POOL {
            g.spec_a.push(e);
        }
    }

    /// A pooled specialised jump engine of `len` padded cells, if any.
    pub fn take_spec_j(&self, len: usize) -> Option<SpecJ> {
        let mut g = self.lock();
        let i = g.spec_j.iter().position(|e| e.cells.len() == len)?;
        Some(g.spec_j.swap_remove(i))
    }

    /// Gives a specialised jump engine back to the pool (dropped when the pool is full).
    pub fn give_spec_j(&self, e: SpecJ) {
        let mut g = self.lock();
        if g.spec_j.len() < POOL {
            g.spec_j.push(e);
        }
    }

    /// Pooled generic-engine buffers of at least `n` nodes, if any.
    pub fn take_bufs(&self, n: usize) -> Option<Buffers<2>> {
        let mut g = self.lock();
        let i = g.bufs.iter().position(|b| b.slots.len() == n)?;
        Some(g.bufs.swap_remove(i))
    }

    /// Gives generic-engine buffers back to the pool (dropped when the pool is full).
    pub fn give_bufs(&self, b: Buffers<2>) {
        let mut g = self.lock();
        if g.bufs.len() < POOL && !b.slots.is_empty() {
            g.bufs.push(b);
        }
    }

    /// Pooled 4-ary scratch of exactly `n` nodes, else a new one.
    pub fn take_scratch(&self, n: usize) -> Scratch {
        let mut g = self.lock();
        match g.scratch.iter().position(|b| b.slots.len() == n) {
            Some(i) => g.scratch.swap_remove(i),
            None => {
                drop(g);
                Scratch::with_nodes(n)
            }
        }
    }

    /// Gives 4-ary scratch back to the pool (dropped when the pool is full).
    pub fn give_scratch(&self, b: Scratch) {
        let mut g = self.lock();
        if g.scratch.len() < POOL && !b.slots.is_empty() {
            g.scratch.push(b);
        }
    }

    /// HPA* tier 1's hierarchy for `options` (the budget ignored), if one is kept.
    pub fn take_hpa(&self, options: &HpaOptions) -> Option<HpaEntry> {
        let mut g = self.lock();
        let i = g.hpa.iter().position(|e| {
            let o = e.hierarchy.options();
            (o.chunk_size, o.connectivity, o.diagonal, o.smooth)
                == (
                    options.chunk_size,
                    options.connectivity,
                    options.diagonal,
                    options.smooth,
                )
                && o.heuristic_weight.to_bits() == options.heuristic_weight.to_bits()
                && o.record_expansions == options.record_expansions
        })?;
        Some(g.hpa.swap_remove(i))
    }

    /// Keeps an HPA* tier-1 hierarchy (the oldest is dropped past the pool size).
    pub fn give_hpa(&self, e: HpaEntry) {
        let mut g = self.lock();
        if g.hpa.len() >= POOL {
            g.hpa.remove(0);
        }
        g.hpa.push(e);
    }

    /// [GRID.AREA.SET] A multiplier changed: HPA* hierarchies refresh on their next query (the
    /// square-grid entries above do not depend on multipliers).
    pub fn areas_changed(&mut self) {
        let g = self.inner.get_mut().unwrap_or_else(|e| e.into_inner());
        for e in &mut g.hpa {
            e.fresh = false;
        }
        g.areas = None;
    }

    /// A restore: every derived entry is dropped (the scratch pool stays; HPA* hierarchies
    /// refresh, fully, on their next query).
    pub fn restored(&mut self) {
        let g = self.inner.get_mut().unwrap_or_else(|e| e.into_inner());
        for e in &mut g.hpa {
            e.fresh = false;
        }
        g.base.clear();
        g.moves.clear();
        g.tables.clear();
        g.bits.clear();
        g.areas = None;
    }

    /// Cell `i` of a `w`-wide grid changed from `old` to `new`: repairs or drops what depends
    /// on it (see the module docs).
    pub fn edited(&mut self, i: usize, w: usize, old: u8, new: u8) {
        let wall = crate::WALL;
        let g = self.inner.get_mut().unwrap_or_else(|e| e.into_inner());
        for e in &mut g.hpa {
            e.fresh = false;
        }
        if (old == wall) == (new == wall) {
            return;
        }
        let pw = w + 2;
        let p = (i / w + 1) * pw + i % w + 1;
        g.base.retain(|(agent, _)| *agent == 1);
        let pass = match g.base.first_mut().map(|(_, a)| Arc::get_mut(a)) {
            Some(Some(pass)) => {
                pass[p] = (new != wall) as u8;
                pass
            }
            _ => {
                g.base.clear();
                g.moves.clear();
                g.tables.clear();
                g.bits.clear();
                return;
            }
        };
        // The jump data of agent size 1 (the only size the specialised jump engine serves).
        g.tables.retain_mut(|(agent, t)| match Arc::get_mut(t) {
            Some(t) if *agent == 1 => {
                t.repair(pass, p);
                true
            }
            _ => false,
        });
        g.bits.retain_mut(|(agent, b)| match Arc::get_mut(b) {
            Some(b) if *agent == 1 => {
                b.repair(pass, p);
                true
            }
            _ => false,
        });
        g.moves.retain(|(k, _)| k.0 == 1);
        let mut ok = true;
        for ((_, nd, rule), m) in g.moves.iter_mut() {
            let Some(m) = Arc::get_mut(m) else {
                ok = false;
                continue;
            };
            for dy in [-1isize, 0, 1] {
                for dx in [-1isize, 0, 1] {
                    let q = p.wrapping_add_signed(dy * pw as isize + dx);
                    let (qx, qy) = (q % pw, q / pw);
                    if qx >= 1 && qx < pw - 1 && qy >= 1 && qy < pass.len() / pw - 1 {
                        m[q] = move_mask(pass, pw, q, *nd, *rule);
                    }
                }
            }
        }
        if !ok {
            g.moves.clear();
        }
    }
}
