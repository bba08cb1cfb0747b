//! The tier-2 half of the graph adapters: the combined estimate, the sliced
//! driver over `GraphAStar` and `BidirectionalGraphSearch`, the cancel driver, expanded inside
//! each crate's adapter module by `define_adapter!` (they use its `build`, `landmarks`,
//! `geo_points` and its `op` crate alias).

/// The tier-2 types and drivers of one crate's adapter module.
macro_rules! graph_tier2_fns {
    () => {
        /// The combined estimate of [GRAPH.EST.COMBINE] for tier 2.
        struct Estimate<'a> {
            geo: Option<&'a [op::Point3]>,
            alt: Option<&'a op::Landmarks>,
        }

        fn normalise(e: f64) -> f64 {
            if e == f64::INFINITY {
                e
            } else if e > 0.0 {
                e
            } else {
                0.0
            }
        }

        impl op::GraphHeuristic for Estimate<'_> {
            fn estimate(&self, from: u32, to: u32) -> f64 {
                let mut best = 0.0f64;
                if let Some(p) = self.geo {
                    let e = normalise(op::distance(p[from as usize], p[to as usize]));
                    if e > best {
                        best = e;
                    }
                }
                if let Some(l) = self.alt {
                    let e = normalise(l.lower_bound(from, to));
                    if e > best {
                        best = e;
                    }
                }
                best
            }
        }

        /// What the sliced driver needs from both tier-2 searches.
        trait Stepper {
            fn begin_(&mut self, start: u32, goal: u32) -> Result<(), String>;
            fn step_(&mut self, n: u64) -> op::SearchStatus;
            fn run_(&mut self) -> op::SearchStatus;
            fn run_flag(&mut self, flag: &std::sync::atomic::AtomicBool) -> op::SearchStatus;
            fn state(&self) -> (SearchCode, u64);
            fn finish(&self, algorithm: AlgorithmCode) -> Outcome;
        }

        macro_rules! stepper {
            ($search:ident) => {
                impl<C: op::GraphCost, H: op::GraphHeuristic> Stepper for op::$search<'_, C, H> {
                    fn begin_(&mut self, start: u32, goal: u32) -> Result<(), String> {
                        self.set_record_expansions(true);
                        self.begin(start, goal).map_err(|e| e.class().to_string())
                    }
                    fn step_(&mut self, n: u64) -> op::SearchStatus {
                        self.step(n)
                    }
                    fn run_(&mut self) -> op::SearchStatus {
                        self.run(None)
                    }
                    fn run_flag(
                        &mut self,
                        flag: &std::sync::atomic::AtomicBool,
                    ) -> op::SearchStatus {
                        self.run(Some(flag))
                    }
                    fn state(&self) -> (SearchCode, u64) {
                        (search_code(self.status()), self.iterations())
                    }
                    fn finish(&self, algorithm: AlgorithmCode) -> Outcome {
                        let status = match self.status() {
                            op::SearchStatus::Found => StatusCode::Found,
                            op::SearchStatus::NotFound => StatusCode::NotFound,
                            other => {
                                return Outcome::Error(format!(
                                    "harness: tier-2 search ended {other:?}"
                                ))
                            }
                        };
                        Outcome::Path(PathOutcome {
                            algorithm,
                            status,
                            cost: self.path_cost(),
                            iterations: self.iterations(),
                            expanded_count: self.expanded_count(),
                            nodes: self.path(),
                            expanded: self.expansions().to_vec(),
                        })
                    }
                }
            };
        }
        stepper!(GraphAStar);
        stepper!(BidirectionalGraphSearch);

        fn drive<S: Stepper>(
            s: &mut S,
            query: Query,
            budgets: &[u64],
            algorithm: AlgorithmCode,
        ) -> Outcome {
            if let Err(class) = s.begin_(query.0, query.1) {
                return Outcome::Error(class);
            }
            let mut status = if budgets.is_empty() {
                s.run_()
            } else {
                let mut i = 0usize;
                loop {
                    let st = s.step_(budgets[i % budgets.len()].max(1));
                    i += 1;
                    if st != op::SearchStatus::Running || i > 100_000_000 {
                        break st;
                    }
                }
            };
            if status == op::SearchStatus::Running {
                status = s.run_();
            }
            let _ = status;
            s.finish(algorithm)
        }

        /// `[variant][query][schedule]`: each query on the tier-2 search of each variant,
        /// driven by each schedule ([`drive`]); the graph and the landmark table are built
        /// once (a failed build is every outcome's error, a failed table every alt one's).
        fn sliced(
            case: &Case,
            variants: &[Variant],
            queries: &[Query],
            schedules: &[&[u64]],
        ) -> Vec<Vec<Vec<Outcome>>> {
            let fill = |o: Outcome| vec![vec![o; schedules.len()]; queries.len()];
            let built = match build(&case.graph) {
                Ok(b) => b,
                Err(class) => return vec![fill(Outcome::Error(class)); variants.len()],
            };
            let table = variants
                .iter()
                .any(|v| v.uses_alt())
                .then(|| landmarks(&built, case));
            let run = |variant: Variant| -> Vec<Vec<Outcome>> {
                let alt = match (&table, variant.uses_alt()) {
                    (Some(Ok(t)), true) => Some(t),
                    (Some(Err(class)), true) => return fill(Outcome::Error(class.clone())),
                    _ => None,
                };
                let estimate = || Estimate {
                    geo: geo_points(&built, variant),
                    alt,
                };
                let one = |query: Query, budgets: &[u64]| {
                    let csr = built.plain.compile();
                    if variant.bidirectional() {
                        let mut s = op::BidirectionalGraphSearch::new(
                            csr,
                            op::DefaultGraphCost,
                            estimate(),
                        );
                        drive(&mut s, query, budgets, variant.algorithm())
                    } else {
                        let mut s = op::GraphAStar::new(csr, op::DefaultGraphCost, estimate());
                        drive(&mut s, query, budgets, variant.algorithm())
                    }
                };
                queries
                    .iter()
                    .map(|&q| schedules.iter().map(|b| one(q, b)).collect())
                    .collect()
            };
            variants.iter().map(|&v| run(v)).collect()
        }

        /// A [GRAPH.ASTAR.STATUS] code.
        fn search_code(s: op::SearchStatus) -> SearchCode {
            match s {
                op::SearchStatus::NotStarted => SearchCode::NotStarted,
                op::SearchStatus::Running => SearchCode::Running,
                op::SearchStatus::Found => SearchCode::Found,
                op::SearchStatus::NotFound => SearchCode::NotFound,
            }
        }

        fn cancel_drive<S: Stepper>(
            s: &mut S,
            query: Query,
            first_steps: u64,
            algorithm: AlgorithmCode,
        ) -> Result<CancelTrace, String> {
            use std::sync::atomic::AtomicBool;
            s.begin_(query.0, query.1)?;
            if first_steps > 0 {
                s.step_(first_steps);
            }
            let before = s.state();
            // [CONF.IMPL.CANCEL] a cancelled run's entry is the status it returned.
            let set = AtomicBool::new(true);
            let returned = s.run_flag(&set);
            let cancelled = (search_code(returned), s.state().1);
            let returned = s.run_flag(&set);
            let cancelled_again = (search_code(returned), s.state().1);
            let clear = AtomicBool::new(false);
            s.run_flag(&clear);
            Ok(CancelTrace {
                before,
                cancelled,
                cancelled_again,
                resumed: s.finish(algorithm),
            })
        }
    };
}
