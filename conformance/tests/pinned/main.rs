//! Named checks ([CONF.CLAUSES.PINS]) written for the clauses that no vector and no earlier test
//! pinned (session 18, issue 35): one module per part of the spec, each test preceded by its
//! `// pins` line saying which kit or implementation change it fails.

#[path = "../cli/mod.rs"]
mod cli;
#[path = "../tools/mod.rs"]
mod tools;

mod checks_state;
mod clauses_tools;
mod driver_ops;
mod driver_process;
mod grid_replan_flow;
mod lattice_hpa_debug;
mod records_sync;
mod scenarios_files;
