//! Reading pictures back: the XML parser, the root and finiteness checks, layers by id, marks
//! by class, the path polyline's points and mark centres.

use onepath_conformance::debug::svg::{render_svg, Backdrop, Picture};
use onepath_conformance::debug::Description;
use onepath_conformance::port::wire::Real;
use roxmltree::{Document, Node};

pub fn parse(text: &str) -> Document<'_> {
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..roxmltree::ParsingOptions::default()
    };
    Document::parse_with_options(text, options).unwrap_or_else(|e| {
        panic!(
            "not well-formed XML: {e}\n{}",
            &text[..text.len().min(2000)]
        )
    })
}

pub fn num(s: &str) -> f64 {
    s.trim()
        .parse()
        .unwrap_or_else(|_| panic!("not a number: {s:?}"))
}

pub fn attr<'a>(n: Node<'a, '_>, name: &str) -> &'a str {
    n.attribute(name)
        .unwrap_or_else(|| panic!("<{}> has no {name}", n.tag_name().name()))
}

/// The root is `<svg>` with positive `width` and `height` and a four-number `viewBox` of positive
/// size; returns `(width, height)`.
pub fn check_root(doc: &Document) -> (f64, f64) {
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    let (w, h) = (num(attr(root, "width")), num(attr(root, "height")));
    assert!(w > 0.0 && h > 0.0, "size {w}x{h}");
    let vb: Vec<f64> = attr(root, "viewBox").split_whitespace().map(num).collect();
    assert_eq!(vb.len(), 4, "viewBox {vb:?}");
    assert!(vb[2] > 0.0 && vb[3] > 0.0, "viewBox {vb:?}");
    (w, h)
}

/// No attribute anywhere holds `NaN` or `inf` (in any case).
pub fn check_finite(doc: &Document) {
    for n in doc.descendants().filter(|n| n.is_element()) {
        for a in n.attributes() {
            let v = a.value().to_ascii_lowercase();
            assert!(
                !v.contains("nan") && !v.contains("inf"),
                "<{} {}={:?}>",
                n.tag_name().name(),
                a.name(),
                a.value()
            );
        }
    }
}

pub fn by_id<'a, 'i>(doc: &'a Document<'i>, id: &str) -> Option<Node<'a, 'i>> {
    doc.descendants()
        .find(|n| n.is_element() && n.attribute("id") == Some(id))
}

pub fn layer<'a, 'i>(doc: &'a Document<'i>, id: &str) -> Node<'a, 'i> {
    let g = by_id(doc, id).unwrap_or_else(|| panic!("no layer {id}"));
    assert_eq!(g.tag_name().name(), "g");
    assert!(
        g.children()
            .any(|c| c.is_element() && c.tag_name().name() == "title"),
        "layer {id} has no <title>"
    );
    g
}

pub fn with_class<'a, 'i>(n: Node<'a, 'i>, class: &str) -> Vec<Node<'a, 'i>> {
    n.descendants()
        .filter(|d| d.is_element() && d.attribute("class") == Some(class))
        .collect()
}

/// The points of the path layer's polyline (none when it has no polyline).
pub fn route(doc: &Document, prefix: &str) -> Vec<[f64; 2]> {
    let g = layer(doc, &format!("{prefix}path"));
    let lines = with_class(g, "route");
    assert!(lines.len() <= 1, "one polyline at most");
    lines.first().map_or(Vec::new(), |l| {
        assert_eq!(l.tag_name().name(), "polyline");
        attr(*l, "points")
            .split_whitespace()
            .map(|p| {
                let (x, y) = p.split_once(',').expect("x,y");
                [num(x), num(y)]
            })
            .collect()
    })
}

/// Equal up to the pictures' rounding (a hundredth of a pixel, well under 1e-3 of a unit here).
pub fn close(a: f64, b: f64, what: &str) {
    assert!(
        (a - b).abs() <= 1e-3 * (1.0 + b.abs()),
        "{what}: {a} vs {b}"
    );
}

/// The polyline goes through the description's points, in order.
pub fn check_route(doc: &Document, points: &[[f64; 2]]) {
    let got = route(doc, "");
    assert_eq!(got.len(), points.len(), "one polyline point per path point");
    for (i, (g, p)) in got.iter().zip(points).enumerate() {
        close(g[0], p[0], &format!("point {i} x"));
        close(g[1], p[1], &format!("point {i} y"));
    }
}

/// The centre of a mark (`rect` or `circle`).
pub fn centre(n: Node) -> [f64; 2] {
    match n.tag_name().name() {
        "rect" => [
            num(attr(n, "x")) + num(attr(n, "width")) / 2.0,
            num(attr(n, "y")) + num(attr(n, "height")) / 2.0,
        ],
        "circle" => [num(attr(n, "cx")), num(attr(n, "cy"))],
        other => panic!("no centre for <{other}>"),
    }
}

/// One expansion mark per entry, at its point, and returns their fills.
pub fn check_expanded(doc: &Document, points: &[[f64; 2]]) -> Vec<String> {
    let marks = with_class(layer(doc, "expanded"), "exp");
    assert_eq!(marks.len(), points.len(), "one mark per expansion");
    for (i, (m, p)) in marks.iter().zip(points).enumerate() {
        let c = centre(*m);
        close(c[0], p[0], &format!("expansion {i} x"));
        close(c[1], p[1], &format!("expansion {i} y"));
    }
    marks.iter().map(|m| attr(*m, "fill").to_string()).collect()
}

/// Renders and checks a picture; with `DEBUG_SVG_DUMP=DIR` set it is also written to `DIR` (to
/// look at by eye).
pub fn render_checked(p: &Picture) -> String {
    let svg = render_svg(p);
    let doc = parse(&svg);
    check_root(&doc);
    check_finite(&doc);
    if let Some(dir) = std::env::var_os("DEBUG_SVG_DUMP") {
        static COUNT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let k = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let name: String = p
            .title
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .take(24)
            .collect();
        std::fs::write(
            std::path::Path::new(&dir).join(format!("{k:04}-{name}.svg")),
            &svg,
        )
        .expect("write the dump");
    }
    svg
}

pub fn r2(p: &[[Real; 2]]) -> Vec<[f64; 2]> {
    p.iter().map(|q| [q[0].0, q[1].0]).collect()
}

pub fn r3xy(p: &[[Real; 3]]) -> Vec<[f64; 2]> {
    p.iter().map(|q| [q[0].0, q[1].0]).collect()
}

/// A picture without a mark.
pub fn no_mark<'a>(title: &'a str, b: &'a Backdrop, d: &'a Description) -> Picture<'a> {
    Picture {
        title,
        backdrop: b,
        description: d,
        mark: None,
    }
}
