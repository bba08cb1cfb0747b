//! An independent walker of valid state bytes (spec/state.md sections 3-8): it names every field
//! with its offset, type and role, so hostile mutations can target fields systematically. It
//! shares no code with either crate. [`try_walk`] takes any bytes; [`walk`] is for bytes the kit
//! generated itself (the reference's states while `vectors` writes the folder), and a golden
//! vector read from a folder is checked with [`try_walk`] when it is loaded ([CONF.STATE.SHAPE]).

use super::StateKind;

/// A field's encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    /// `u8`.
    U8,
    /// `u16`.
    U16,
    /// `u32`.
    U32,
    /// `i32`.
    I32,
    /// `i64` (replanner counters).
    I64,
    /// `f64`.
    F64,
    /// `u8` flag ([STATE.FLAG]).
    Flag,
    /// Raw bytes (cells, chunk bodies) of the given length.
    Bytes(usize),
}

impl Ty {
    /// Width in bytes.
    pub fn width(self) -> usize {
        match self {
            Ty::U8 | Ty::Flag => 1,
            Ty::U16 => 2,
            Ty::U32 | Ty::I32 => 4,
            Ty::I64 => 8,
            Ty::F64 => 8,
            Ty::Bytes(n) => n,
        }
    }
}

/// What a field means, for the mutation generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Header fields.
    Magic,
    /// Header version.
    Version,
    /// Header kind.
    Kind,
    /// A grid size field (width, height, layout, sizes, default area): must match the target.
    Shape,
    /// A counter that must be `>= 0` (grid version, area version, search counters).
    Counter,
    /// A count of `elem`-byte list items bounded by an object size `bound` (`None`: by bytes only).
    Count {
        /// Bytes per item.
        elem: usize,
        /// The object's bound (node count, visited count, expanded), if any.
        bound: Option<i64>,
    },
    /// A node index below `n`.
    Index,
    /// A parent field (`-1` or a node).
    Parent,
    /// Any other value.
    Plain,
}

/// One field.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    /// Byte offset.
    pub offset: usize,
    /// Encoding.
    pub ty: Ty,
    /// Meaning.
    pub role: Role,
    /// A name for people (`areas[17]`, `visited[3].g`).
    pub name: String,
}

/// A visited entry of a search state.
#[derive(Clone, Debug, PartialEq)]
pub struct VisitedEntry {
    /// Offset of the node field.
    pub at: usize,
    /// Node.
    pub node: i32,
    /// Closed flag.
    pub closed: bool,
    /// g.
    pub g: f64,
    /// Parent (`-1` = none).
    pub parent: i32,
}

/// A heap slot of a search state.
#[derive(Clone, Debug, PartialEq)]
pub struct HeapEntry {
    /// Offset of the node field.
    pub at: usize,
    /// Node.
    pub node: i32,
    /// f.
    pub f: f64,
    /// g.
    pub g: f64,
}

/// The structure of a search state (kind 11) beyond its fields.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct SearchLayout {
    /// Node count.
    pub n: i32,
    /// Status byte.
    pub status: u8,
    /// Offset of the status byte.
    pub status_at: usize,
    /// Start.
    pub start: i32,
    /// Goal.
    pub goal: i32,
    /// Expanded counter.
    pub expanded: i32,
    /// Offset of the path cost.
    pub cost_at: usize,
    /// Offset of the visited count (absent when NotStarted).
    pub visited_count_at: Option<usize>,
    /// Visited entries.
    pub visited: Vec<VisitedEntry>,
    /// Offset of the heap count.
    pub heap_count_at: usize,
    /// Heap slots.
    pub heap: Vec<HeapEntry>,
    /// Offset of the recorded count.
    pub recorded_count_at: usize,
    /// Recorded nodes with their offsets.
    pub recorded: Vec<(usize, i32)>,
}

/// A visited cell of a kind-12 mode-1 or mode-3 state.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct HandleCell {
    /// Offset of the cell field.
    pub at: usize,
    /// Cell.
    pub cell: i32,
    /// Straight steps.
    pub a: i32,
    /// Diagonal steps.
    pub b: i32,
    /// Parent (mode 3; `-1` in mode 1).
    pub parent: i32,
    /// Flags byte.
    pub flags: u8,
}

/// The structure of a kind-12 state in mode 1 or 3 ([GS.STATE.MODE1], [GS.STATE.MODE3]).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct HandleLayout {
    /// 1 or 3.
    pub mode: u8,
    /// Mode 3 finder.
    pub finder: u8,
    /// Offset of the status byte.
    pub status_at: usize,
    /// Status.
    pub status: u8,
    /// Start cell.
    pub start: i32,
    /// Goal cell.
    pub goal: i32,
    /// Offset of the iterations field.
    pub iterations_at: usize,
    /// Offset of pathA.
    pub path_a_at: usize,
    /// Visited cells.
    pub cells: Vec<HandleCell>,
    /// Mode 3: offset of the level.
    pub level_at: usize,
    /// Mode 3: offset of the heap count.
    pub heap_count_at: usize,
    /// Mode 3: heap slots `(offset, F, cell)`.
    pub heap: Vec<(usize, f64, i32)>,
    /// Mode 3: offset of the stack count.
    pub stack_count_at: usize,
    /// Mode 3: stack cells `(offset, cell)`.
    pub stack: Vec<(usize, i32)>,
}

/// The walk of one state.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Layout {
    /// Every field in byte order.
    pub fields: Vec<Field>,
    /// Search structure (kinds 8-11, and a kind-12 mode-2 embedded state).
    pub search: Option<SearchLayout>,
    /// Kind 12 in mode 1 or 3.
    pub handle: Option<HandleLayout>,
    /// Cell values in node order (grids; voxels resolved through chunks and the default area).
    pub cells: Option<Vec<u8>>,
    /// Voxels: `(chunk index, offset of the chunk body)` of each allocated chunk.
    pub chunks: Vec<(usize, usize)>,
}

struct Walk<'a> {
    b: &'a [u8],
    at: usize,
    out: Layout,
    /// A field ran past the end (the walk then reads zeros and stops its loops).
    short: bool,
}

impl Walk<'_> {
    fn field(&mut self, ty: Ty, role: Role, name: impl Into<String>) -> usize {
        let at = self.at;
        self.out.fields.push(Field {
            offset: at,
            ty,
            role,
            name: name.into(),
        });
        self.at += ty.width();
        if self.at > self.b.len() {
            self.short = true;
        }
        at
    }
    fn get(&self, at: usize, n: usize) -> &[u8] {
        self.b.get(at..at + n).unwrap_or(&[0; 8][..n.min(8)])
    }
    fn i32(&mut self, role: Role, name: impl Into<String>) -> i32 {
        let at = self.field(Ty::I32, role, name);
        i32::from_le_bytes(self.get(at, 4).try_into().expect("4 bytes"))
    }
    fn f64(&mut self, role: Role, name: impl Into<String>) -> f64 {
        let at = self.field(Ty::F64, role, name);
        f64::from_bits(u64::from_le_bytes(
            self.get(at, 8).try_into().expect("8 bytes"),
        ))
    }
    fn u8(&mut self, ty: Ty, role: Role, name: impl Into<String>) -> u8 {
        let at = self.field(ty, role, name);
        self.get(at, 1)[0]
    }
    fn areas(&mut self) {
        self.i32(Role::Counter, "area_version");
        for a in 0..255 {
            self.f64(Role::Plain, format!("areas[{a}]"));
        }
    }
}

/// Walks valid state bytes of `kind` that the kit generated itself (never bytes read from a
/// file: those go through [`try_walk`]). Panics on bytes that are not a valid state's shape.
pub fn walk(kind: StateKind, bytes: &[u8]) -> Layout {
    match try_walk(kind, bytes) {
        Some(l) => l,
        None => panic!(
            "bytes of length {} are not the shape of a {kind:?} state",
            bytes.len()
        ),
    }
}

/// Walks state bytes of `kind`; `None` when they do not have the shape of a valid state (too
/// short, too long, sizes past 2^26).
pub fn try_walk(kind: StateKind, bytes: &[u8]) -> Option<Layout> {
    let mut w = Walk {
        b: bytes,
        at: 0,
        out: Layout::default(),
        short: false,
    };
    w.field(Ty::U32, Role::Magic, "magic");
    w.field(Ty::U16, Role::Version, "version");
    w.field(Ty::U16, Role::Kind, "kind");
    match kind {
        StateKind::Grid | StateKind::HexGrid => {
            let width = w.i32(Role::Shape, "width").max(0) as usize;
            let height = w.i32(Role::Shape, "height").max(0) as usize;
            if width.checked_mul(height)? > 1 << 26 {
                return None;
            }
            if kind == StateKind::HexGrid {
                w.i32(Role::Shape, "layout");
            }
            w.i32(Role::Counter, "grid_version");
            for name in ["origin_x", "origin_y", "cell_size"] {
                w.f64(Role::Plain, name);
            }
            w.areas();
            let at = w.field(Ty::Bytes(width * height), Role::Plain, "cells");
            w.out.cells = Some(bytes.get(at..at + width * height)?.to_vec());
        }
        StateKind::VoxelGrid => {
            let sx = w.i32(Role::Shape, "size_x").max(0) as usize;
            let sy = w.i32(Role::Shape, "size_y").max(0) as usize;
            let sz = w.i32(Role::Shape, "size_z").max(0) as usize;
            if sx.checked_mul(sy)?.checked_mul(sz)? > 1 << 26 {
                return None;
            }
            let default = w.u8(Ty::U8, Role::Shape, "default_area");
            w.i32(Role::Counter, "grid_version");
            for name in ["origin_x", "origin_y", "origin_z", "cell_size"] {
                w.f64(Role::Plain, name);
            }
            w.areas();
            let (cx, cy, cz) = (sx.div_ceil(16), sy.div_ceil(16), sz.div_ceil(16));
            let mut body = vec![None; cx * cy * cz];
            for (c, slot) in body.iter_mut().enumerate() {
                if w.short {
                    return None;
                }
                if w.u8(Ty::Flag, Role::Plain, format!("chunk[{c}].flag")) == 1 {
                    let at = w.field(Ty::Bytes(4096), Role::Plain, format!("chunk[{c}].bytes"));
                    *slot = Some(at);
                    w.out.chunks.push((c, at));
                }
            }
            let mut cells = Vec::with_capacity(sx * sy * sz);
            for z in 0..sz {
                for y in 0..sy {
                    for x in 0..sx {
                        let c = x / 16 + cx * (y / 16 + cy * (z / 16));
                        cells.push(match body[c] {
                            Some(at) => {
                                *bytes.get(at + ((x % 16) | (y % 16) << 4 | (z % 16) << 8))?
                            }
                            None => default,
                        });
                    }
                }
            }
            w.out.cells = Some(cells);
        }
        StateKind::Graph => {
            w.i32(
                Role::Count {
                    elem: 0,
                    bound: Some(1 << 26),
                },
                "node_count",
            );
            let m = w.i32(
                Role::Count {
                    elem: 17,
                    bound: None,
                },
                "edge_count",
            );
            for e in 0..m {
                if w.short {
                    return None;
                }
                w.i32(Role::Index, format!("edges[{e}].from"));
                w.i32(Role::Index, format!("edges[{e}].to"));
                w.f64(Role::Plain, format!("edges[{e}].weight"));
                w.u8(Ty::Flag, Role::Plain, format!("edges[{e}].alive"));
            }
        }
        StateKind::GraphAStar
        | StateKind::AStar
        | StateKind::JumpSearch
        | StateKind::ThetaSearch => {
            let s = walk_search(&mut w)?;
            w.out.search = Some(s);
        }
        StateKind::GridSearch => walk_handle(&mut w)?,
        StateKind::GridReplanner | StateKind::HexReplanner => walk_replanner(&mut w)?,
        StateKind::FlowField => walk_flow_field(&mut w)?,
    }
    (!w.short && w.at == bytes.len()).then_some(w.out)
}

fn walk_search(w: &mut Walk<'_>) -> Option<SearchLayout> {
    let status_at_base = w.at;
    let mut s = SearchLayout {
        n: w.i32(Role::Shape, "node_count"),
        status_at: status_at_base + 4,
        ..Default::default()
    };
    s.status = w.u8(Ty::U8, Role::Plain, "status");
    w.f64(Role::Plain, "heuristic_weight");
    s.start = w.i32(Role::Index, "start");
    s.goal = w.i32(Role::Index, "goal");
    s.expanded = w.i32(Role::Counter, "expanded");
    w.i32(Role::Counter, "iterations");
    s.cost_at = w.at;
    w.f64(Role::Plain, "path_cost");
    if s.status != 0 {
        s.visited_count_at = Some(w.at);
        let count = w.i32(
            Role::Count {
                elem: 17,
                bound: Some(i64::from(s.n)),
            },
            "visited_count",
        );
        for i in 0..count {
            if w.short {
                return None;
            }
            let at = w.at;
            let node = w.i32(Role::Index, format!("visited[{i}].node"));
            let closed = w.u8(Ty::Flag, Role::Plain, format!("visited[{i}].closed")) == 1;
            let g = w.f64(Role::Plain, format!("visited[{i}].g"));
            let parent = w.i32(Role::Parent, format!("visited[{i}].parent"));
            s.visited.push(VisitedEntry {
                at,
                node,
                closed,
                g,
                parent,
            });
        }
        s.heap_count_at = w.at;
        let hc = w.i32(
            Role::Count {
                elem: 20,
                bound: Some(i64::from(count)),
            },
            "heap_count",
        );
        for i in 0..hc {
            if w.short {
                return None;
            }
            let at = w.at;
            let node = w.i32(Role::Index, format!("heap[{i}].node"));
            let f = w.f64(Role::Plain, format!("heap[{i}].f"));
            let g = w.f64(Role::Plain, format!("heap[{i}].g"));
            s.heap.push(HeapEntry { at, node, f, g });
        }
        s.recorded_count_at = w.at;
        let rc = w.i32(
            Role::Count {
                elem: 4,
                bound: Some(i64::from(s.expanded)),
            },
            "recorded_count",
        );
        for i in 0..rc {
            if w.short {
                return None;
            }
            let at = w.at;
            let node = w.i32(Role::Index, format!("recorded[{i}]"));
            s.recorded.push((at, node));
        }
    }
    Some(s)
}

/// Kinds 5 and 6 ([REPLAN.STATE.HEADER], [REPLAN.STATE.SEARCH]): the header, the replan search,
/// and when initialised km, the pending entries, the planned cells and the queue.
fn walk_replanner(w: &mut Walk<'_>) -> Option<()> {
    let width = w.i32(Role::Shape, "width");
    let height = w.i32(Role::Shape, "height");
    let cells = i64::from(width.max(0)) * i64::from(height.max(0));
    if cells > 1 << 26 {
        return None;
    }
    w.u8(Ty::U8, Role::Shape, "algorithm");
    w.i32(Role::Counter, "area_version");
    w.i32(Role::Index, "start");
    w.i32(Role::Index, "goal");
    w.i32(Role::Shape, "node_count");
    w.u8(Ty::U8, Role::Shape, "mode");
    w.i32(Role::Index, "inner_start");
    w.i32(Role::Index, "inner_goal");
    let initialized = w.u8(Ty::Flag, Role::Plain, "initialized") == 1;
    w.u8(Ty::Flag, Role::Plain, "found");
    w.field(Ty::I64, Role::Counter, "iterations");
    w.field(Ty::I64, Role::Counter, "expanded");
    w.i32(Role::Counter, "last_expanded");
    if !initialized {
        return Some(());
    }
    w.f64(Role::Plain, "km");
    w.u8(Ty::Flag, Role::Plain, "overflow");
    let pending = w.i32(
        Role::Count {
            elem: 4,
            bound: Some(64 + cells / 16),
        },
        "pending_count",
    );
    for i in 0..pending {
        if w.short {
            return None;
        }
        w.i32(Role::Plain, format!("pending[{i}]"));
    }
    let planned = w.i32(
        Role::Count {
            elem: 20,
            bound: Some(cells),
        },
        "planned_count",
    );
    for i in 0..planned {
        if w.short {
            return None;
        }
        w.i32(Role::Index, format!("planned[{i}].cell"));
        w.f64(Role::Plain, format!("planned[{i}].g"));
        w.f64(Role::Plain, format!("planned[{i}].rhs"));
    }
    let queued = w.i32(
        Role::Count {
            elem: 20,
            bound: Some(i64::from(planned)),
        },
        "queue_count",
    );
    for i in 0..queued {
        if w.short {
            return None;
        }
        w.i32(Role::Index, format!("queue[{i}].node"));
        w.f64(Role::Plain, format!("queue[{i}].key1"));
        w.f64(Role::Plain, format!("queue[{i}].key2"));
    }
    Some(())
}

/// Kind 7 ([FLOW.STATE.HEADER], [FLOW.STATE.SEARCH]): the header with the creation goals and
/// the pending cells, then the flow field search.
fn walk_flow_field(w: &mut Walk<'_>) -> Option<()> {
    let width = w.i32(Role::Shape, "width");
    let height = w.i32(Role::Shape, "height");
    let cells = i64::from(width.max(0)) * i64::from(height.max(0));
    if cells > 1 << 26 {
        return None;
    }
    w.i32(Role::Counter, "area_version");
    let goals = w.i32(
        Role::Count {
            elem: 4,
            bound: None,
        },
        "goal_count",
    );
    for i in 0..goals {
        if w.short {
            return None;
        }
        w.i32(Role::Plain, format!("goals[{i}]"));
    }
    let pending = w.i32(
        Role::Count {
            elem: 4,
            bound: Some(cells),
        },
        "pending_count",
    );
    for i in 0..pending {
        if w.short {
            return None;
        }
        w.i32(Role::Index, format!("pending[{i}]"));
    }
    w.i32(Role::Shape, "node_count");
    w.u8(Ty::U8, Role::Plain, "status");
    w.i32(Role::Counter, "settled");
    let repairing = w.u8(Ty::Flag, Role::Plain, "repairing") == 1;
    let set = w.i32(
        Role::Count {
            elem: 4,
            bound: None,
        },
        "goal_set_count",
    );
    for i in 0..set {
        if w.short {
            return None;
        }
        w.i32(Role::Index, format!("goal_set[{i}]"));
    }
    let reached = w.i32(
        Role::Count {
            elem: 12,
            bound: Some(cells),
        },
        "reached_count",
    );
    for i in 0..reached {
        if w.short {
            return None;
        }
        w.i32(Role::Index, format!("reached[{i}].cell"));
        w.f64(Role::Plain, format!("reached[{i}].cost"));
    }
    let steps = w.i32(
        Role::Count {
            elem: 8,
            bound: Some(i64::from(reached)),
        },
        "step_count",
    );
    for i in 0..steps {
        if w.short {
            return None;
        }
        w.i32(Role::Index, format!("steps[{i}].cell"));
        w.i32(Role::Index, format!("steps[{i}].next"));
    }
    let open = w.i32(
        Role::Count {
            elem: 20,
            bound: Some(i64::from(reached)),
        },
        "open_count",
    );
    for i in 0..open {
        if w.short {
            return None;
        }
        w.i32(Role::Index, format!("open[{i}].node"));
        w.f64(Role::Plain, format!("open[{i}].f"));
        w.f64(Role::Plain, format!("open[{i}].g"));
    }
    if repairing {
        let touched = w.i32(
            Role::Count {
                elem: 4,
                bound: Some(cells),
            },
            "touched_count",
        );
        for i in 0..touched {
            if w.short {
                return None;
            }
            w.i32(Role::Index, format!("touched[{i}]"));
        }
    }
    Some(())
}

/// Kind 12 ([GS.STATE.HEADER12] .. [GS.STATE.MODE3]): mode, sizes, then the mode's body.
fn walk_handle(w: &mut Walk<'_>) -> Option<()> {
    let mode = w.u8(Ty::U8, Role::Plain, "mode");
    let width = w.i32(Role::Shape, "width");
    let height = w.i32(Role::Shape, "height");
    let n = i64::from(width) * i64::from(height);
    match mode {
        0 => {}
        2 => {
            for name in ["start_x", "start_y", "goal_x", "goal_y"] {
                w.i32(Role::Plain, name);
            }
            w.i32(
                Role::Count {
                    elem: 1,
                    bound: None,
                },
                "length",
            );
            w.field(Ty::U32, Role::Plain, "embedded.magic");
            w.field(Ty::U16, Role::Plain, "embedded.version");
            w.field(Ty::U16, Role::Plain, "embedded.kind");
            let s = walk_search(w)?;
            w.out.search = Some(s);
        }
        1 | 3 => {
            let mut h = HandleLayout {
                mode,
                ..Default::default()
            };
            if mode == 3 {
                h.finder = w.u8(Ty::U8, Role::Plain, "finder");
            }
            h.status_at = w.at;
            h.status = w.u8(Ty::U8, Role::Plain, "status");
            w.u8(Ty::Flag, Role::Plain, "zero_estimate");
            h.start = w.i32(Role::Index, "start");
            h.goal = w.i32(Role::Index, "goal");
            w.i32(Role::Counter, "expanded");
            h.iterations_at = w.at;
            w.i32(Role::Counter, "iterations");
            h.path_a_at = w.at;
            w.i32(Role::Plain, "path_a");
            w.i32(Role::Plain, "path_b");
            let per = if mode == 3 { 17 } else { 13 };
            let count = w.i32(
                Role::Count {
                    elem: per,
                    bound: Some(n),
                },
                "visited_count",
            );
            for i in 0..count {
                if w.short {
                    return None;
                }
                let at = w.at;
                let cell = w.i32(Role::Index, format!("visited[{i}].cell"));
                let a = w.i32(Role::Plain, format!("visited[{i}].a"));
                let b = w.i32(Role::Plain, format!("visited[{i}].b"));
                let parent = if mode == 3 {
                    w.i32(Role::Parent, format!("visited[{i}].parent"))
                } else {
                    -1
                };
                let flags = w.u8(Ty::U8, Role::Plain, format!("visited[{i}].flags"));
                h.cells.push(HandleCell {
                    at,
                    cell,
                    a,
                    b,
                    parent,
                    flags,
                });
            }
            if mode == 3 {
                h.level_at = w.at;
                w.f64(Role::Plain, "level");
                h.heap_count_at = w.at;
                let hc = w.i32(
                    Role::Count {
                        elem: 16,
                        bound: None,
                    },
                    "heap_count",
                );
                for i in 0..hc {
                    if w.short {
                        return None;
                    }
                    let at = w.at;
                    let f = w.f64(Role::Plain, format!("heap[{i}].f"));
                    let t_at = w.field(Ty::U32, Role::Plain, format!("heap[{i}].t_cell"));
                    let cell = i32::from_le_bytes(w.get(t_at, 4).try_into().expect("4"));
                    w.field(Ty::U32, Role::Plain, format!("heap[{i}].t_cost"));
                    h.heap.push((at, f, cell));
                }
                h.stack_count_at = w.at;
                let sc = w.i32(
                    Role::Count {
                        elem: 4,
                        bound: None,
                    },
                    "stack_count",
                );
                for i in 0..sc {
                    if w.short {
                        return None;
                    }
                    let at = w.at;
                    let cell = w.i32(Role::Plain, format!("stack[{i}]"));
                    h.stack.push((at, cell));
                }
            }
            w.out.handle = Some(h);
        }
        _ => return None,
    }
    Some(())
}

/// The node count a graph or search state names (field at offset 8).
pub fn node_count(bytes: &[u8]) -> i32 {
    i32::from_le_bytes(bytes[8..12].try_into().expect("header"))
}

/// The canonical `NotStarted` GraphAStar state over `n` nodes ([STATE.SEARCH.FIELDS]).
pub fn not_started_search(n: i32) -> Vec<u8> {
    let mut b = Vec::new();
    b.extend_from_slice(&0x5347_504Fu32.to_le_bytes());
    b.extend_from_slice(&1u16.to_le_bytes());
    b.extend_from_slice(&11u16.to_le_bytes());
    b.extend_from_slice(&n.to_le_bytes());
    b.push(0);
    b.extend_from_slice(&1.0f64.to_bits().to_le_bytes());
    for v in [-1i32, -1, 0, 0] {
        b.extend_from_slice(&v.to_le_bytes());
    }
    b.extend_from_slice(&f64::INFINITY.to_bits().to_le_bytes());
    b
}

/// The bytes a search saves before `begin` (and after a failed restore, [STATE.SEARCH_FAILED],
/// [GS.STATE.FAILED]) for the recipe's search; empty for objects that are not searches.
pub fn not_started_bytes(recipe: &super::StateRecipe) -> Vec<u8> {
    use super::StateRecipe;
    match recipe {
        StateRecipe::GraphAstar { graph, .. } => {
            not_started_search((graph.node_count + u64::from(graph.added_nodes)) as i32)
        }
        StateRecipe::GridSearch {
            width,
            height,
            options,
            ..
        } => {
            let kind = recipe.kind();
            let mut b = Vec::new();
            b.extend_from_slice(&0x5347_504Fu32.to_le_bytes());
            b.extend_from_slice(&1u16.to_le_bytes());
            b.extend_from_slice(&kind.code().to_le_bytes());
            if kind == StateKind::GridSearch {
                b.push(0);
                b.extend_from_slice(&(*width as i32).to_le_bytes());
                b.extend_from_slice(&(*height as i32).to_le_bytes());
                return b;
            }
            b.extend_from_slice(&((width * height) as i32).to_le_bytes());
            b.push(0);
            let weight = if kind == StateKind::JumpSearch {
                1.0
            } else {
                options.weight
            };
            b.extend_from_slice(&weight.to_bits().to_le_bytes());
            for v in [-1i32, -1, 0, 0] {
                b.extend_from_slice(&v.to_le_bytes());
            }
            b.extend_from_slice(&f64::INFINITY.to_bits().to_le_bytes());
            b
        }
        // [FLOW.STATE.UNUSABLE] A new field on the target's grid (no script): area version =
        // the multipliers the map sets, the creation goals, the goal set, nothing else.
        StateRecipe::FlowField { request } => {
            let m = &request.grid.map;
            let mut b = Vec::new();
            b.extend_from_slice(&0x5347_504Fu32.to_le_bytes());
            b.extend_from_slice(&1u16.to_le_bytes());
            b.extend_from_slice(&7u16.to_le_bytes());
            let cell = |&(x, y): &(u32, u32)| (y * m.width + x) as i32;
            let mut head = vec![
                m.width as i32,
                m.height as i32,
                m.multipliers.len() as i32,
                request.goals.len() as i32,
            ];
            head.extend(request.goals.iter().map(cell));
            head.push(0); // pending
            head.push((m.width * m.height) as i32);
            for v in head {
                b.extend_from_slice(&v.to_le_bytes());
            }
            b.push(0); // not started
            b.extend_from_slice(&0i32.to_le_bytes());
            b.push(0);
            let mut set: Vec<i32> = request.goals.iter().map(cell).collect();
            set.sort_unstable();
            set.dedup();
            b.extend_from_slice(&(set.len() as i32).to_le_bytes());
            for g in set {
                b.extend_from_slice(&g.to_le_bytes());
            }
            for _ in 0..3 {
                b.extend_from_slice(&0i32.to_le_bytes()); // reached, steps, open
            }
            b
        }
        _ => Vec::new(),
    }
}
