//! Reading `--plot`'s SVGs back: their texts, numbers and polylines, and checks that a run's
//! mark labels (median, p90, p99) stand clear of the data on both panels.

use std::path::Path;

/// The SVG's text elements, after checking that it is well-formed and sized.
pub fn svg_texts(path: &Path) -> Vec<String> {
    let svg = std::fs::read_to_string(path).unwrap();
    let document = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let root = document.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(root.attribute("width"), Some("1100"));
    root.descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or("").trim().to_string())
        .collect()
}

/// Whether any of `texts` contains `wanted`.
pub fn has(texts: &[String], wanted: &str) -> bool {
    texts.iter().any(|t| t.contains(wanted))
}

/// An SVG element's numeric attribute `name`.
pub fn number(node: &roxmltree::Node, name: &str) -> f64 {
    node.attribute(name).unwrap().parse().unwrap()
}

/// A polyline's or polygon's points, `(x, y)` in pixels.
pub fn points(node: &roxmltree::Node) -> Vec<(f64, f64)> {
    node.attribute("points")
        .unwrap()
        .split_whitespace()
        .map(|p| p.split_once(',').unwrap())
        .map(|(x, y)| (x.parse().unwrap(), y.parse().unwrap()))
        .collect()
}

/// Pixels a label keeps from the data.
const CLEAR: f64 = 6.0;

/// A mark's label: its text and box (left, right, top, bottom) in pixels, for text 14 pixels
/// high and about 8 wide a character.
pub struct Label {
    pub text: String,
    pub left: f64,
    pub right: f64,
    pub top: f64,
    pub bottom: f64,
}

impl Label {
    /// True when the point is less than `by` pixels from the label.
    fn covers(&self, (x, y): (f64, f64), by: f64) -> bool {
        x > self.left - by && x < self.right + by && y > self.top - by && y < self.bottom + by
    }
}

/// The labels of marks among `nodes`.
fn labels(nodes: &[roxmltree::Node]) -> Vec<Label> {
    let marked = ["median", "p90", "p99"];
    nodes
        .iter()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| {
            let text = n.text().unwrap_or("").trim().to_string();
            marked
                .iter()
                .any(|m| text.starts_with(m))
                .then_some((n, text))
        })
        .map(|(n, text)| {
            let width = 8.0 * text.chars().count() as f64;
            let (x, y) = (number(n, "x"), number(n, "y"));
            let left = match n.attribute("text-anchor") {
                Some("end") => x - width,
                _ => x,
            };
            // Anchored by its top (dy 0.76em) or its bottom (a negative dy).
            let (top, bottom) = match n.attribute("dy").unwrap().starts_with('-') {
                true => (y - 14.0, y),
                false => (y, y + 14.0),
            };
            Label {
                text,
                left,
                right: left + width,
                top,
                bottom,
            }
        })
        .collect()
}

/// A polyline's points with its segments filled in a pixel apart, so that a segment crossing a
/// label with no point inside it is seen too.
fn dense(line: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let mut all = Vec::new();
    for pair in line.windows(2) {
        let ((x0, y0), (x1, y1)) = (pair[0], pair[1]);
        let steps = (x1 - x0).abs().max((y1 - y0).abs()).ceil().max(1.0) as usize;
        for k in 0..=steps {
            let t = k as f64 / steps as f64;
            all.push((x0 + t * (x1 - x0), y0 + t * (y1 - y0)));
        }
    }
    all
}

/// Checks that the survival panel's labels of the median, p90 and p99 stand `CLEAR` pixels
/// clear of its curve and of its shaded band; returns how many it checked.
pub fn marks_clear_of_the_curve(path: &Path) -> usize {
    let svg = std::fs::read_to_string(path).unwrap();
    let document = roxmltree::Document::parse(&svg).unwrap();
    let nodes: Vec<_> = document.root_element().children().collect();
    let orange = |n: &roxmltree::Node| {
        n.attribute("stroke") == Some("#D55E00") || n.attribute("fill") == Some("#D55E00")
    };
    let band = nodes.iter().position(orange).expect("a survival band");
    let mut data = dense(&points(&nodes[band]));
    let curve = nodes[band + 1..]
        .iter()
        .find(|n| n.attribute("stroke") == Some("#D55E00"))
        .expect("a survival curve");
    data.extend(dense(&points(curve)));
    let labels = labels(&nodes[band..]);
    for label in &labels {
        let under = data.iter().find(|&&p| label.covers(p, CLEAR));
        assert!(
            under.is_none(),
            "{path:?}: {under:?} under {:?}",
            label.text
        );
    }
    labels.len()
}

/// Checks that the histogram's labels of the median, p90 and p99 stand `CLEAR` pixels clear of
/// its bars; returns how many it checked.
pub fn marks_clear_of_the_bars(path: &Path) -> usize {
    let svg = std::fs::read_to_string(path).unwrap();
    let document = roxmltree::Document::parse(&svg).unwrap();
    let nodes: Vec<_> = document.root_element().children().collect();
    let bars: Vec<(f64, f64, f64, f64)> = nodes
        .iter()
        .filter(|n| n.has_tag_name("rect") && n.attribute("fill") == Some("#0072B2"))
        .map(|n| {
            let (x, y) = (number(n, "x"), number(n, "y"));
            (x, x + number(n, "width"), y, y + number(n, "height"))
        })
        .collect();
    assert!(!bars.is_empty(), "{path:?}: no bars");
    let survival = nodes
        .iter()
        .position(|n| n.attribute("fill") == Some("#D55E00"))
        .unwrap_or(nodes.len());
    let labels = labels(&nodes[..survival]);
    for label in &labels {
        let hit = bars.iter().find(|&&(left, right, top, bottom)| {
            left < label.right + CLEAR
                && right > label.left - CLEAR
                && top < label.bottom + CLEAR
                && bottom > label.top - CLEAR
        });
        assert!(
            hit.is_none(),
            "{path:?}: bar {hit:?} under {:?}",
            label.text
        );
    }
    labels.len()
}

/// The numbers written along the plots' horizontal axes (centred under their ticks).
pub fn x_ticks(path: &Path) -> Vec<String> {
    let svg = std::fs::read_to_string(path).unwrap();
    let document = roxmltree::Document::parse(&svg).unwrap();
    document
        .root_element()
        .children()
        .filter(|n| n.has_tag_name("text") && n.attribute("text-anchor") == Some("middle"))
        .filter_map(|n| n.text().map(|t| t.trim().to_string()))
        .filter(|t| t.parse::<f64>().is_ok())
        .collect()
}

/// Plots a sweep with `args` to `svg`.
pub fn plot_sweep(svg: &Path, args: &[&str]) {
    assert_cmd::Command::cargo_bin("warsim")
        .unwrap()
        .arg("sweep")
        .args(args)
        .args(["-q", "--plot"])
        .arg(svg)
        .assert()
        .success();
}

/// The notes of a sweep plot's censored quantiles (text in a series' colour): text, x, y and
/// whether it is pale.
pub fn notes(path: &Path) -> Vec<(String, f64, f64, bool)> {
    let svg = std::fs::read_to_string(path).unwrap();
    let document = roxmltree::Document::parse(&svg).unwrap();
    document
        .root_element()
        .children()
        .filter(|n| n.has_tag_name("text") && n.attribute("fill") != Some("#000000"))
        .map(|n| {
            let text = n.text().unwrap_or("").trim().to_string();
            let pale = n.attribute("opacity").is_some_and(|o| o != "1");
            (text, number(&n, "x"), number(&n, "y"), pale)
        })
        .collect()
}

/// Asserts that no two of `notes` on one row overlap (8 pixels a character).
pub fn apart(notes: &[(String, f64, f64, bool)]) {
    let mut by_row = notes.to_vec();
    by_row.sort_by(|a, b| (a.2, a.1).partial_cmp(&(b.2, b.1)).unwrap());
    for pair in by_row.windows(2) {
        let ((a, xa, ya, _), (b, xb, yb, _)) = (&pair[0], &pair[1]);
        let half = |t: &String| 4.0 * t.chars().count() as f64;
        assert!(ya != yb || xb - xa >= half(a) + half(b) + 4.0, "{pair:?}");
    }
}
