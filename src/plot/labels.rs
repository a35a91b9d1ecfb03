//! Where a run's quantile labels go: each in the first of a few rows along an edge of its panel,
//! on either side of its mark's line, where it overlaps neither a label already placed nor what
//! the panel draws (a curve, a band, the other marks' lines), so that no label hides the data or
//! another label. Everything here is in pixels.

use plotters::style::text_anchor::VPos;

/// The edge of a panel a label stands along.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Edge {
    Top,
    Bottom,
}

impl Edge {
    /// How plotters anchors a label along this edge.
    pub(super) fn anchor(self) -> VPos {
        match self {
            Edge::Top => VPos::Top,
            Edge::Bottom => VPos::Bottom,
        }
    }
}

/// A label's height (14-pixel text) and the distance between rows of labels.
const TEXT_HEIGHT: f64 = 14.0;
const ROW_STEP: f64 = 18.0;
/// The gap between an edge and the first row.
const EDGE_GAP: f64 = 4.0;
/// Rows of labels along an edge.
const ROWS: u32 = 3;
/// Pixels kept clear around a label.
pub(super) const CLEAR: f64 = 6.0;
/// Pixels kept between a label and another mark's line.
const POST_CLEAR: f64 = 2.0;
/// An estimate of a 14-pixel label's width a character: text is left to the viewer's fonts, so
/// the width is not known exactly (sans-serif digits and letters average about 7.5 pixels).
const CHAR_WIDTH: f64 = 8.0;

/// A rectangle in pixels, y growing downwards.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct PxBox {
    pub left: f64,
    pub right: f64,
    pub top: f64,
    pub bottom: f64,
}

impl PxBox {
    fn grown(self, by: f64) -> PxBox {
        PxBox {
            left: self.left - by,
            right: self.right + by,
            top: self.top - by,
            bottom: self.bottom + by,
        }
    }

    fn overlaps(&self, other: &PxBox) -> bool {
        self.left < other.right
            && other.left < self.right
            && self.top < other.bottom
            && other.top < self.bottom
    }

    /// True when the segment from `a` to `b` passes through the box (Liang and Barsky's
    /// clipping: the segment's parameter range inside each pair of sides, intersected).
    fn meets(&self, a: (f64, f64), b: (f64, f64)) -> bool {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let (mut enter, mut leave) = (0.0f64, 1.0f64);
        let sides = [
            (-dx, a.0 - self.left),
            (dx, self.right - a.0),
            (-dy, a.1 - self.top),
            (dy, self.bottom - a.1),
        ];
        for (p, q) in sides {
            if p == 0.0 {
                if q < 0.0 {
                    return false;
                }
            } else if p < 0.0 {
                enter = enter.max(q / p);
            } else {
                leave = leave.min(q / p);
            }
        }
        enter <= leave
    }
}

/// The width a label of `text` takes.
pub(super) fn text_width(text: &str) -> f64 {
    CHAR_WIDTH * text.chars().count() as f64
}

/// The box of a label from `left`, `width` wide, in `row` along `edge` of the plot `frame`.
fn label_box(left: f64, width: f64, edge: Edge, row: u32, frame: PxBox) -> PxBox {
    let offset = EDGE_GAP + ROW_STEP * f64::from(row);
    let (top, bottom) = match edge {
        Edge::Bottom => (frame.bottom - offset - TEXT_HEIGHT, frame.bottom - offset),
        Edge::Top => (frame.top + offset, frame.top + offset + TEXT_HEIGHT),
    };
    PxBox {
        left,
        right: left + width,
        top,
        bottom,
    }
}

/// The label's offset from its edge, in pixels: positive downwards from the top, negative
/// upwards from the bottom.
pub(super) fn row_offset(edge: Edge, row: u32) -> i32 {
    let offset = (EDGE_GAP + ROW_STEP * f64::from(row)) as i32;
    match edge {
        Edge::Bottom => -offset,
        Edge::Top => offset,
    }
}

/// A label to place: its width, the left ends it may take (beside its line on its preferred
/// side, then on the other), and its line's place among the posts.
pub(super) struct Wanted {
    pub width: f64,
    pub lefts: [f64; 2],
    pub post: usize,
}

/// Where a label went: its edge, row, side (0 the preferred) and box.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Placed {
    pub edge: Edge,
    pub row: u32,
    pub side: usize,
    pub area: PxBox,
}

/// Places labels one after another: each takes the first row, along the first of `edges` then
/// the next, on its preferred side of its line then the other, inside the plot (`frame`), where
/// it keeps `CLEAR` pixels from the labels placed before it and from every segment of `lines`,
/// and `POST_CLEAR` from every vertical line at `posts` but its own. Failing that, a label may
/// cross another's line, and failing that too, the data: it never covers another label while
/// any place avoids one.
pub(super) fn place(
    wanted: &[Wanted],
    posts: &[f64],
    edges: &[Edge],
    frame: PxBox,
    lines: &[Vec<(f64, f64)>],
) -> Vec<Placed> {
    let mut placed: Vec<Placed> = Vec::new();
    for label in wanted {
        let candidates = || {
            edges.iter().flat_map(move |&edge| {
                (0..ROWS).flat_map(move |row| {
                    (0..2).map(move |side| Placed {
                        edge,
                        row,
                        side,
                        area: label_box(label.lefts[side], label.width, edge, row, frame),
                    })
                })
            })
        };
        // Rows are 4 pixels apart: labels keep their distance across, not down.
        let apart = |c: &Placed| {
            let room = PxBox {
                left: c.area.left - CLEAR,
                right: c.area.right + CLEAR,
                ..c.area
            };
            !placed.iter().any(|p| p.area.overlaps(&room))
        };
        let inside = |c: &Placed| frame.left <= c.area.left && c.area.right <= frame.right;
        let off_posts = |c: &Placed| {
            let room = c.area.grown(POST_CLEAR);
            !posts
                .iter()
                .enumerate()
                .any(|(i, &x)| i != label.post && room.left <= x && x <= room.right)
        };
        let off_lines = |c: &Placed| {
            let room = c.area.grown(CLEAR);
            !lines
                .iter()
                .any(|line| line.windows(2).any(|s| room.meets(s[0], s[1])))
        };
        let first = |good: &dyn Fn(&Placed) -> bool| candidates().find(|c| good(c));
        let chosen = first(&|c| inside(c) && apart(c) && off_posts(c) && off_lines(c))
            .or_else(|| first(&|c| inside(c) && apart(c) && off_lines(c)))
            .or_else(|| first(&|c| inside(c) && apart(c)))
            .or_else(|| first(&apart))
            .unwrap_or_else(|| candidates().next().expect("an edge"));
        placed.push(chosen);
    }
    placed
}

#[cfg(test)]
mod tests {
    use super::*;

    const UNIT: PxBox = PxBox {
        left: 0.0,
        right: 10.0,
        top: 0.0,
        bottom: 10.0,
    };

    #[test]
    fn segments_meet_a_box_when_they_cross_or_enter_it() {
        // Across it without an end inside, horizontally, vertically and slanted.
        assert!(UNIT.meets((-5.0, 5.0), (15.0, 5.0)));
        assert!(UNIT.meets((5.0, -5.0), (5.0, 15.0)));
        assert!(UNIT.meets((-5.0, -4.0), (15.0, 14.0)));
        // One end inside.
        assert!(UNIT.meets((5.0, 5.0), (50.0, 50.0)));
        // Beside, above, and past a corner.
        assert!(!UNIT.meets((11.0, -5.0), (11.0, 15.0)));
        assert!(!UNIT.meets((-5.0, -1.0), (15.0, -1.0)));
        assert!(!UNIT.meets((8.0, -5.0), (15.0, 2.0)));
        // A point.
        assert!(UNIT.meets((5.0, 5.0), (5.0, 5.0)));
        assert!(!UNIT.meets((15.0, 5.0), (15.0, 5.0)));
    }

    /// A line along the bottom of a plot 200 pixels high.
    fn floor_line() -> Vec<(f64, f64)> {
        vec![(0.0, 195.0), (100.0, 195.0)]
    }

    /// A label 40 pixels wide right of a line at `x` (or left of it).
    fn beside(x: f64, post: usize) -> Wanted {
        Wanted {
            width: 40.0,
            lefts: [x + 6.0, x - 46.0],
            post,
        }
    }

    #[test]
    fn labels_take_the_first_place_clear_of_the_lines_and_of_each_other() {
        let frame = PxBox {
            left: -100.0,
            right: 500.0,
            top: 0.0,
            bottom: 200.0,
        };
        let at = |placed: &[Placed], i: usize| (placed[i].edge, placed[i].row, placed[i].side);
        // A line along the bottom under the first label pushes it to the second row.
        let floor = floor_line();
        let edges = [Edge::Bottom, Edge::Top];
        let placed = place(&[beside(60.0, 0)], &[60.0], &edges, frame, &[floor]);
        assert_eq!(at(&placed, 0), (Edge::Bottom, 1, 0));
        // Two labels at nearly the same place: the second steps down a row.
        let two = [beside(10.0, 0), beside(14.0, 1)];
        let placed = place(&two, &[10.0, 400.0], &[Edge::Top], frame, &[]);
        assert_eq!(at(&placed, 1), (Edge::Top, 1, 0));
        // A line through every bottom row on the right sends the label to the left.
        let wall = vec![(80.0, 120.0), (80.0, 200.0)];
        let placed = place(
            &[beside(60.0, 0)],
            &[60.0],
            &edges,
            frame,
            std::slice::from_ref(&wall),
        );
        assert_eq!(at(&placed, 0), (Edge::Bottom, 0, 1));
        // ... and one on both sides to the top.
        let other = vec![(40.0, 120.0), (40.0, 200.0)];
        let placed = place(&[beside(60.0, 0)], &[60.0], &edges, frame, &[wall, other]);
        assert_eq!(at(&placed, 0), (Edge::Top, 0, 0));
        assert_eq!(placed[0].area.top, 4.0);
        // Another mark's line next to a label: it goes to the other side.
        let placed = place(&[beside(60.0, 0)], &[60.0, 90.0], &edges, frame, &[]);
        assert_eq!(at(&placed, 0), (Edge::Bottom, 0, 1));
        // Out of the plot on the right: on the left.
        let narrow = PxBox {
            right: 100.0,
            ..frame
        };
        let placed = place(&[beside(60.0, 0)], &[60.0], &edges, narrow, &[]);
        assert_eq!(at(&placed, 0), (Edge::Bottom, 0, 1));
        // Nowhere clear of another mark's line: across it rather than across the data.
        let posts = [60.0, 20.0, 90.0];
        let placed = place(&[beside(60.0, 0)], &posts, &edges, frame, &[floor_line()]);
        assert_eq!(at(&placed, 0), (Edge::Bottom, 1, 0));
        // Labels far apart share the first row.
        let two = [beside(10.0, 0), beside(100.0, 1)];
        let placed = place(&two, &[10.0, 100.0], &[Edge::Top], frame, &[]);
        assert_eq!(at(&placed, 1), (Edge::Top, 0, 0));
        assert_eq!(row_offset(Edge::Bottom, 2), -40);
    }
}
