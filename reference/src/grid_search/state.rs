//! [GS.STATE] State kinds 8, 9, 10 and 12 (spec/grid-search.md §10).
