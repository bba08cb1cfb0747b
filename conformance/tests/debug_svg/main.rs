//! [CONF.DEBUG.SVG] [CONF.DEBUG.EXPLAIN] The pictures of descriptions, read back with an XML
//! parser: descriptions of every kind, made by hand and by the reference crate
//! (`Implementation::describe`), are drawn and each picture is checked for what it must show (the
//! root `<svg>` with its sizes, one polyline point per path point at the description's world
//! points, one mark per expansion in order colours, one arrow per flow step, two colours for a
//! replan's settled and reset nodes, the hierarchy's dashed and solid edges, a graph's nodes and
//! edges, the ring of a mark), that no attribute holds `NaN` or `inf`, and that hostile
//! descriptions draw without a panic. The side-by-side document and the HTML page are parsed too.

mod hand;
mod read;
mod real;
