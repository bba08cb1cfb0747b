//! [CONF.DEBUG.EXPLAIN] The `--html` page: one self-contained document (no external resources,
//! no scripts) with a heading, the caption, the expected and found pictures inline as SVG side by
//! side, and the step table of the first differing list with its first differing row marked.
//!
//! The page is also well-formed XML (every element closed, every text escaped), so the tests
//! read it back with an XML parser. Tables longer than [`MAX_ROWS`] show a window of rows around
//! the first difference.

use crate::debug::svg::style::clean;
use crate::debug::svg::{pair, Picture};

/// At most this many rows of a step table are written (a window around the first difference).
pub const MAX_ROWS: usize = 2_000;

/// Largest side of each picture on the page, in pixels.
const PAGE_PX: f64 = 560.0;

/// One row of a step table: the list index and the expected and found entries as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepRow {
    /// The list index.
    pub index: usize,
    /// The expected entry (empty when the expected list is shorter).
    pub expected: String,
    /// The found entry (empty when the found list is shorter).
    pub found: String,
}

/// The step table of the first differing list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepTable {
    /// The list's member name on the wire.
    pub member: String,
    /// The rows in index order.
    pub rows: Vec<StepRow>,
    /// The row index (into `rows`) of the first difference, highlighted.
    pub first: Option<usize>,
}

/// Text content escaped for HTML and XML.
fn text(s: &str) -> String {
    clean(s)
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// An attribute value escaped for HTML and XML (quotes too).
fn attr(s: &str) -> String {
    text(s).replace('"', "&quot;").replace('\'', "&#39;")
}

const STYLE: &str = "body{font-family:sans-serif;margin:16px;color:#202020;background:#ffffff}\
h1{font-size:20px;margin:0 0 8px 0}\
h2{font-size:16px;margin:20px 0 8px 0}\
p.caption{font-size:14px;background:#fff4d6;border-left:4px solid #ff00ff;padding:6px 10px}\
div.pictures{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start}\
figure{margin:0;border:1px solid #d0d0d0;padding:4px}\
table{border-collapse:collapse;font-family:monospace;font-size:13px}\
th,td{border:1px solid #c8c8c8;padding:2px 8px;text-align:left;vertical-align:top}\
th{background:#eeeeee}\
tr.first td{background:#ffd6ff;font-weight:bold}\
tr.first td.index::before{content:'\\25B6  '}\
p.note{font-size:12px;color:#666666}";

/// [CONF.DEBUG.EXPLAIN] One self-contained HTML page (no external resources, no scripts
/// needed): a heading, the caption, both pictures inline as SVG side by side (expected left, found
/// right), and the step table with the first differing row marked (`class="first"`, anchored as
/// `#first-difference`).
pub fn html_page(
    title: &str,
    left: &Picture,
    right: &Picture,
    caption: &str,
    table: &StepTable,
) -> String {
    let (l, r, _, _) = pair(left, right, PAGE_PX);
    let mut out = String::new();
    out += "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n";
    out += "<meta charset=\"utf-8\"/>\n";
    out += &format!("<title>{}</title>\n", text(title));
    out += &format!("<style>{STYLE}</style>\n</head>\n<body>\n");
    out += &format!("<h1>{}</h1>\n", text(title));
    out += &format!("<p class=\"caption\">{}</p>\n", text(caption));
    out += "<div class=\"pictures\">\n";
    for (el, side) in [(l, "expected"), (r, "found")] {
        out += &format!(
            "<figure class=\"{side}\">\n{}\n</figure>\n",
            el.set("x", 0).set("y", 0)
        );
    }
    out += "</div>\n";
    out += &format!(
        "<h2>Step table: <code>{}</code></h2>\n",
        text(&table.member)
    );
    let first = table.first.filter(|&f| f < table.rows.len());
    if let Some(f) = first {
        out += &format!(
            "<p class=\"note\"><a href=\"#first-difference\">First difference: row {}, index {}</a></p>\n",
            f, table.rows[f].index
        );
    } else {
        out += "<p class=\"note\">No differing row.</p>\n";
    }
    let (lo, hi) = window(table.rows.len(), first);
    if lo > 0 || hi < table.rows.len() {
        out += &format!(
            "<p class=\"note\">Rows {lo} to {} of {} shown.</p>\n",
            hi.saturating_sub(1),
            table.rows.len()
        );
    }
    out += "<table class=\"steps\">\n<thead><tr><th>index</th><th>expected</th><th>found</th></tr></thead>\n<tbody>\n";
    for (k, row) in table.rows.iter().enumerate().take(hi).skip(lo) {
        let mark = if Some(k) == first {
            " class=\"first\" id=\"first-difference\""
        } else {
            ""
        };
        out += &format!(
            "<tr{mark}><td class=\"index\">{}</td><td class=\"expected\" title=\"{}\">{}</td><td class=\"found\" title=\"{}\">{}</td></tr>\n",
            row.index,
            attr(&row.expected),
            text(&row.expected),
            attr(&row.found),
            text(&row.found)
        );
    }
    out += "</tbody>\n</table>\n</body>\n</html>\n";
    out
}

/// The rows `lo..hi` written: all of them, or [`MAX_ROWS`] around the first difference.
fn window(n: usize, first: Option<usize>) -> (usize, usize) {
    if n <= MAX_ROWS {
        return (0, n);
    }
    let centre = first.unwrap_or(0);
    let lo = centre.saturating_sub(MAX_ROWS / 2).min(n - MAX_ROWS);
    (lo, lo + MAX_ROWS)
}
