//! State kinds 8, 9 and 10 ([GS.STATE.SEARCHES]): the layout and checks of [STATE.SEARCH] /
//! [STATE.SEARCH.CHECKS] over `width * height` nodes, read in place at any base offset (a
//! `GridSearch` embeds them, [GS.STATE.MODE2]).

use super::generic::{Core, Rule};
use crate::astar::SearchStatus;
use crate::grid_error::GridStateError;
use crate::heap::NO_PARENT;
pub(crate) use crate::search_state::wide;
use crate::search_state::{
    read_search_buffers, search_cross_checks, write_search_state, SearchFields,
};
use crate::wire::{fail, Class, Fault, Reader, KIND_ASTAR, KIND_JUMP, KIND_THETA};

impl Core<'_> {
    /// [STATE.KINDS] This engine's kind.
    pub(crate) fn kind(&self) -> u16 {
        match self.rule {
            Rule::AStar { .. } => KIND_ASTAR,
            Rule::Jump => KIND_JUMP,
            Rule::Theta | Rule::LazyTheta => KIND_THETA,
        }
    }

    /// [GS.STATE.SEARCHES] The saved weight: the search's (kinds 8, 10) or 1.0 (kind 9).
    fn saved_weight(&self) -> f64 {
        if self.rule == Rule::Jump {
            1.0
        } else {
            self.ctx.opts.heuristic_weight
        }
    }

    /// [STATE.SEARCH] [STATE.SEARCH.FIELDS] [STATE.BUFFERS] [GS.STATE.SEARCHES] Appends the
    /// bytes to `out`.
    pub(crate) fn save(&self, out: &mut Vec<u8>) {
        let fields = SearchFields {
            kind: self.kind(),
            status: self.status,
            weight: self.saved_weight(),
            start: (self.kind() == KIND_ASTAR).then_some(self.start),
            goal: self.goal,
            expanded: self.expanded,
            iterations: self.iterations,
            path_cost: self.path_cost(),
        };
        write_search_state(&fields, self.ctx.n, &self.buf, out)
    }

    /// [GS.STATE.SEARCHES] [GS.STATE.FAILED] A whole standalone state; on error NotStarted.
    pub(crate) fn restore_whole(&mut self, bytes: &[u8]) -> Result<(), GridStateError> {
        let mut r = Reader::new(bytes);
        let res = r
            .header(self.kind())
            .and_then(|_| self.restore_body(bytes, 0));
        res.map_err(|f| {
            self.clear();
            GridStateError::from_fault(f)
        })
    }

    /// [STATE.SEARCH.CHECKS] [GS.STATE.SEARCHES] Reads the payload of a state whose (already
    /// checked) header starts at `base`, through the trailing-bytes check at the input's end.
    /// Offsets are absolute. On error the caller clears the search.
    pub(crate) fn restore_body(&mut self, bytes: &[u8], base: usize) -> Result<(), Fault> {
        let n = self.ctx.n;
        let mut r = Reader::new(bytes);
        r.pos = base + 8;
        if r.i32("node_count")? as i64 != n as i64 {
            return fail(Class::SizeMismatch, base + 8, "node_count");
        }
        let status = match r.u8("status")? {
            0 => SearchStatus::NotStarted,
            1 => SearchStatus::Running,
            2 => SearchStatus::Found,
            3 => SearchStatus::NotFound,
            _ => return fail(Class::OutOfRange, base + 12, "status"),
        };
        if r.f64("heuristic_weight")? != self.saved_weight() {
            return fail(Class::SizeMismatch, base + 13, "heuristic_weight");
        }
        let idle = status == SearchStatus::NotStarted;
        let has_start = self.kind() == KIND_ASTAR;
        let mut ends = [0u32; 2];
        for (k, (end, name)) in ends.iter_mut().zip(["start", "goal"]).enumerate() {
            let at = r.pos;
            let v = r.i32(name)?;
            let must_be_none = idle || (k == 0 && !has_start);
            if (must_be_none && v != -1) || (!must_be_none && v as u32 as usize >= n) {
                return fail(Class::IndexOutOfRange, at, name);
            }
            *end = v as u32;
        }
        let expanded = r.i32("expanded")?;
        if expanded < 0 || (idle && expanded != 0) {
            return fail(Class::OutOfRange, base + 29, "expanded");
        }
        let iterations = r.i32("iterations")?;
        if iterations < 0 || (idle && iterations != 0) || expanded > iterations {
            return fail(Class::OutOfRange, base + 33, "iterations");
        }
        let path_cost = r.f64("path_cost")?;
        let cost_ok = if status == SearchStatus::Found {
            path_cost.is_finite() && path_cost >= 0.0
        } else {
            path_cost == f64::INFINITY
        };
        if !cost_ok {
            return fail(Class::OutOfRange, base + 37, "path_cost");
        }
        self.clear();
        if !idle {
            let vis =
                read_search_buffers(&mut self.buf, self.ctx.n, &mut r, bytes, expanded as usize)?;
            search_cross_checks(
                &mut self.buf,
                vis,
                has_start.then_some(ends[0]),
                status,
                ends[1],
                path_cost,
                base + 37,
            )?;
        }
        r.finish()?;
        self.ctx.refresh();
        if !idle {
            self.status = status;
            self.start = ends[0];
            if !has_start {
                self.start = NO_PARENT;
            }
            self.goal = ends[1];
            self.expanded = expanded as u64;
            self.iterations = iterations as u64;
            self.path_cost = path_cost;
        }
        Ok(())
    }
}
