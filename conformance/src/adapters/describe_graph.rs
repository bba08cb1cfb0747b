//! The graph half of the describe adapters ([CONF.DEBUG.REQUEST]) and the tier-1 options of a
//! variant, expanded inside each crate's adapter module by `define_adapter!` (they use its graph
//! builder, `build` and `landmarks`, and its `op` crate alias).

/// The functions `describe_graph` and `tier1_options` of one crate's adapter module.
macro_rules! graph_describe_fns {
    ($module:ident) => {
        /// [CONF.DEBUG.REQUEST] A graph target: the case's tier-1 query of the variant with
        /// recording on (as [`Implementation::run_case`] runs it), described with the
        /// positions of a points case or of an edges case that has them.
        pub(crate) fn describe_graph(
            t: &crate::debug::GraphTarget,
        ) -> Result<crate::debug::DescribeReply, crate::error::HarnessError> {
            use crate::debug::{DescribeEntry, DescribeReply};
            let case = Case {
                graph: t.case.graph.clone(),
                landmarks: t.case.landmarks.clone(),
            };
            let built = match build(&case.graph) {
                Ok(b) => b,
                Err(class) => return Ok(DescribeReply::Failed(class)),
            };
            let table = if t.variant.uses_alt() {
                match landmarks(&built, &case) {
                    Ok(table) => Some(Arc::new(table)),
                    Err(class) => return Ok(DescribeReply::Failed(class)),
                }
            } else {
                None
            };
            let options = tier1_options(
                &built,
                t.variant,
                table,
                RunOptions {
                    iteration_budget: 0,
                    record_expansions: true,
                },
            );
            let (s, g) = t.query;
            let found = match (&built.points, t.variant.uses_geo()) {
                (Some(pg), true) => pg.find_path(s, g, &options),
                _ => built.plain.find_path(s, g, &options),
            };
            let positions: Option<&[op::Point3]> = match (&built.points, &built.positions) {
                (Some(pg), _) => Some(pg.points()),
                (None, Some(p)) => Some(p.as_slice()),
                (None, None) => None,
            };
            Ok(DescribeReply::Ran(vec![match found {
                Ok(p) => DescribeEntry::Described(crate::debug::adapter::$module::graph_path(
                    &op::describe_graph_path(&p, positions),
                )),
                Err(e) => crate::debug::adapter::error_entry(e.class()),
            }]))
        }

        /// [CONF.VAR.TIER1] The tier-1 options of a variant: the algorithm, the budget and
        /// recording, the landmark table of an alt variant and, for a geo variant on an
        /// edges graph with positions, the straight-line hook.
        fn tier1_options(
            built: &Built,
            variant: Variant,
            table: Option<Arc<op::Landmarks>>,
            opts: RunOptions,
        ) -> op::GraphOptions {
            let mut options = op::GraphOptions {
                algorithm: algorithm(variant),
                iteration_budget: opts.iteration_budget,
                record_expansions: opts.record_expansions,
                ..Default::default()
            };
            if variant.uses_alt() {
                options.landmarks = table;
            }
            if variant.uses_geo() {
                if let Some(pos) = &built.positions {
                    let pos = pos.clone();
                    options.heuristic = Some(Arc::new(move |u: u32, v: u32| {
                        match (pos.get(u as usize), pos.get(v as usize)) {
                            (Some(a), Some(b)) => op::distance(*a, *b),
                            _ => 0.0,
                        }
                    }));
                }
            }
            options
        }
    };
}
