//! Seeded grid cases ([CONF.GRID.GEN]): maps of the four MovingAI kinds, optional area costs, a
//! rotating set of option sets (every algorithm, rule, agent size, hook and weight) and queries.

use super::{CellBlockRule, CellCostRule, GridApi, GridMap, GridOptionsData, GridRequest};
use crate::movingai::{generate_map, MapKind, MovingAiMap};
use crate::prng::{derive_seed, SplitMix64};

/// One generated case: a map, option sets and queries.
#[derive(Clone, Debug)]
pub struct GridCase {
    /// `grid#<seed>`.
    pub name: String,
    /// The map.
    pub map: GridMap,
    /// Option sets.
    pub options: Vec<GridOptionsData>,
    /// `(start, goal)` pairs.
    pub queries: Vec<((u32, u32), (u32, u32))>,
}

/// The map kinds, in generation order.
pub fn map_kind(i: u64) -> MapKind {
    match i % 4 {
        0 => MapKind::Random { density: 0.25 },
        1 => MapKind::Rooms { room_size: 5 },
        2 => MapKind::Maze { corridor_width: 2 },
        _ => MapKind::Scattered {
            count: 12,
            max_side: 4,
        },
    }
}

/// A MovingAI map as grid cells: passable → area 0, else the wall.
pub fn cells_of(m: &MovingAiMap) -> Vec<u8> {
    (0..m.height())
        .flat_map(|y| (0..m.width()).map(move |x| (x, y)))
        .map(|(x, y)| {
            if m.passable(x as i64, y as i64) {
                0
            } else {
                255
            }
        })
        .collect()
}

/// Every option set the section cycles through ([CONF.GRID.GEN]): the fixed list below.
pub fn option_sets() -> Vec<GridOptionsData> {
    let base = GridOptionsData::default();
    let mut out = Vec::new();
    for algorithm in 0..6u8 {
        for (connectivity, diagonal) in [(8, 2), (8, 1), (8, 0), (4, 2)] {
            out.push(GridOptionsData {
                algorithm,
                connectivity,
                diagonal,
                ..base.clone()
            });
        }
        out.push(GridOptionsData {
            algorithm,
            agent_size: 2,
            ..base.clone()
        });
        out.push(GridOptionsData {
            algorithm,
            blocked: Some(CellBlockRule {
                modulus: 7,
                residue: 3,
            }),
            ..base.clone()
        });
        out.push(GridOptionsData {
            algorithm,
            cell_cost: Some(CellCostRule::ExtraWhere {
                modulus: 5,
                extra: 0.75,
            }),
            ..base.clone()
        });
        out.push(GridOptionsData {
            algorithm,
            cell_cost: Some(CellCostRule::InvalidWhere { modulus: 11 }),
            diagonal: 1,
            ..base.clone()
        });
        out.push(GridOptionsData {
            algorithm,
            weight: 1.5,
            ..base.clone()
        });
        out.push(GridOptionsData {
            algorithm,
            record: false,
            agent_size: 2,
            blocked: Some(CellBlockRule {
                modulus: 13,
                residue: 0,
            }),
            ..base.clone()
        });
    }
    out
}

/// Case `i` of the stream `base`: a map of kind `i % 4`, areas on every other odd case.
pub fn grid_case(base: u64, i: usize, side: usize) -> GridCase {
    let seed = derive_seed(base, i as u64);
    let mut rng = SplitMix64::new(seed);
    let (w, h) = (
        side - (rng.below(5) as usize),
        side - (rng.below(5) as usize),
    );
    let m = generate_map(map_kind(i as u64), w, h, seed);
    let mut cells = cells_of(&m);
    let mut multipliers = Vec::new();
    if i % 4 == 1 || i % 8 == 2 || i % 8 == 6 {
        multipliers = if i % 8 == 6 {
            // Non-dyadic, and so large that two such cells overflow a path cost to +inf, which
            // the search skips ([GRAPH.ASTAR.EXPAND]).
            vec![(1, 0.1), (2, 1e308), (3, 1.7e308), (4, 3.0)]
        } else {
            vec![(1, 0.5), (2, 2.0), (3, 3.25), (4, 1.0)]
        };
        for c in cells.iter_mut() {
            if *c == 0 && rng.chance(0.3) {
                *c = 1 + rng.below(4) as u8;
            }
        }
    }
    let space = (i % 3 == 0).then_some([-12.5, 3.0, 0.75]);
    let map = GridMap {
        width: w as u32,
        height: h as u32,
        cells,
        multipliers,
        space,
    };
    let all = option_sets();
    let options: Vec<GridOptionsData> = (0..6)
        .map(|k| all[(i * 7 + k * 11) % all.len()].clone())
        .collect();
    let open: Vec<u32> = (0..map.cells.len() as u32)
        .filter(|&c| map.cells[c as usize] != 255)
        .collect();
    let pick = |rng: &mut SplitMix64| -> (u32, u32) {
        let c = if open.is_empty() {
            0
        } else {
            open[rng.below(open.len() as u64) as usize]
        };
        (c % map.width, c / map.width)
    };
    let mut queries = Vec::new();
    for _ in 0..3 {
        let s = pick(&mut rng);
        let g = pick(&mut rng);
        queries.push((s, g));
    }
    queries.push((queries[0].0, queries[0].0));
    GridCase {
        name: format!("grid#{seed}"),
        map,
        options,
        queries,
    }
}

/// Whether jump point search applies to the options ([GS.JUMP.APPLIES]) on `map`.
pub fn jump_applies(map: &GridMap, o: &GridOptionsData) -> bool {
    (0u8..=254).all(|a| map.multiplier(a) == Some(1.0))
        && o.cell_cost.is_none()
        && o.weight == 1.0
        && o.connectivity == 8
        && o.diagonal == 2
}

/// The APIs a query runs through for the options ([CONF.GRID.ENGINES]): tier 1 always; the
/// handle for A*/Dijkstra/JPS/JPS+; `AStar` for A*/Dijkstra; `JumpSearch` for JPS/JPS+ when
/// jump search applies; `ThetaSearch` for Theta*/Lazy Theta*.
pub fn apis(map: &GridMap, o: &GridOptionsData) -> Vec<GridApi> {
    let mut v = vec![GridApi::Tier1];
    match o.algorithm {
        0 | 1 => v.extend([GridApi::Handle, GridApi::AStar]),
        2 | 3 => {
            v.push(GridApi::Handle);
            if jump_applies(map, o) {
                v.push(GridApi::Jump);
            }
        }
        _ => v.push(GridApi::Theta),
    }
    v
}

/// A request with no slicing.
pub fn request(
    case: &GridCase,
    o: &GridOptionsData,
    api: GridApi,
    q: ((u32, u32), (u32, u32)),
) -> GridRequest {
    GridRequest {
        map: case.map.clone(),
        options: o.clone(),
        api,
        start: q.0,
        goal: q.1,
        schedule: vec![],
        snapshot_after: None,
    }
}
