//! The geometry of laid cards: where a track card lies on the table ([`CardShape`]), its
//! footprint as convex quadrilaterals, and how near two footprints come. Nothing here knows
//! about tracks or boards; `track.rs` judges pieces with it.

/// Width of one lane, in card lengths; the lanes' middle lines are this far apart.
pub const LANE_WIDTH: f64 = 0.25;

/// How much wider a card is than its lanes (half of it on each side): the verge.
pub const CARD_MARGIN: f64 = 0.1;

/// Angle (radians) of one quadrilateral of a curve's footprint: 90 degrees take 8.
const FOOTPRINT_STEP: f64 = std::f64::consts::PI / 16.0;

/// Where one card lies on the table, and its footprint.
///
/// A card is one card length long along its middle line and `lanes * LANE_WIDTH +
/// CARD_MARGIN` wide. A straight's middle line is a segment; a curve's is a circular arc one
/// card length long that turns by the card's turn (so a 90-degree card bends on a radius of
/// 2/pi, about 0.64, and its exit edge lies 0.64 ahead and 0.64 to the side of its entry).
/// Points are named by `f`, the fraction of the way along the middle line, and `off`, the
/// distance to the right of it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CardShape {
    /// Middle of the entry edge.
    pub x: f64,
    pub y: f64,
    /// Heading at the entry, in radians clockwise from -y.
    pub heading: f64,
    /// Change of heading from entry to exit, in radians; positive turns right.
    pub turn: f64,
    pub lanes: u32,
}

impl CardShape {
    /// A card entering at (`x`, `y`) with `heading` in 45-degree steps and `turn` in degrees.
    pub fn new(x: f64, y: f64, heading: i32, turn: i32, lanes: u32) -> CardShape {
        CardShape {
            x,
            y,
            heading: heading as f64 * std::f64::consts::FRAC_PI_4,
            turn: (turn as f64).to_radians(),
            lanes,
        }
    }

    /// The heading `f` of the way along.
    pub fn heading_at(&self, f: f64) -> f64 {
        self.heading + self.turn * f
    }

    /// The point `f` of the way along the middle line, `off` to the right of it.
    pub fn at(&self, f: f64, off: f64) -> (f64, f64) {
        let a = self.heading_at(f);
        let (mx, my) = if self.turn == 0.0 {
            (self.x + f * a.sin(), self.y - f * a.cos())
        } else {
            // The integral of the heading's direction (sin, -cos) along the arc.
            (
                self.x + (self.heading.cos() - a.cos()) / self.turn,
                self.y + (self.heading.sin() - a.sin()) / self.turn,
            )
        };
        (mx + off * a.cos(), my + off * a.sin())
    }

    /// Half the card's width.
    pub fn half_width(&self) -> f64 {
        (self.lanes as f64 * LANE_WIDTH + CARD_MARGIN) / 2.0
    }

    /// The middle of the card: halfway along its middle line.
    pub fn centre(&self) -> (f64, f64) {
        self.at(0.5, 0.0)
    }

    /// The middle of the exit edge.
    pub fn exit(&self) -> (f64, f64) {
        self.at(1.0, 0.0)
    }

    /// A radius around [`CardShape::centre`] that holds the whole footprint: no point of the
    /// middle line is more than half a length from its middle, and the footprint reaches half
    /// a width (and a little, see [`CardShape::footprint`]) beyond the middle line.
    pub fn reach(&self) -> f64 {
        0.5 + self.half_width() + 0.02
    }

    /// The card's footprint as convex quadrilaterals, each four corners in order: one for a
    /// straight, one per 11.25 degrees of a curve. Together they hold the whole card: on a
    /// curve the outer corners sit a little beyond the outer edge, so that each quadrilateral's
    /// outer side touches the arc instead of cutting across it (at most 0.006 card lengths out,
    /// never in); the inner side cuts across the inner arc, which only adds area.
    pub fn footprint(&self) -> Vec<[(f64, f64); 4]> {
        let hw = self.half_width();
        let steps = (self.turn.abs() / FOOTPRINT_STEP).round().max(1.0) as usize;
        let (left, right) = if self.turn == 0.0 {
            (hw, hw)
        } else {
            let r = 1.0 / self.turn.abs();
            let half = self.turn.abs() / steps as f64 / 2.0;
            let outer = (r + hw) / half.cos() - r;
            // A right turn bends around a centre on the right: its outer edge is the left.
            if self.turn > 0.0 {
                (outer, hw)
            } else {
                (hw, outer)
            }
        };
        (0..steps)
            .map(|k| {
                let (f0, f1) = (k as f64 / steps as f64, (k + 1) as f64 / steps as f64);
                [
                    self.at(f0, -left),
                    self.at(f1, -left),
                    self.at(f1, right),
                    self.at(f0, right),
                ]
            })
            .collect()
    }
}

/// Whether two convex quadrilaterals overlap (more than touching) or come closer than
/// `clearance`.
pub(super) fn too_close(a: &[(f64, f64); 4], b: &[(f64, f64); 4], clearance: f64) -> bool {
    if !separated(a, b) {
        return true;
    }
    // Two convex shapes apart are nearest at a corner of one and a side of the other.
    let mut gap = f64::INFINITY;
    for (p, q) in [(a, b), (b, a)] {
        for &c in p {
            for k in 0..4 {
                gap = gap.min(point_segment(c, q[k], q[(k + 1) % 4]));
            }
        }
    }
    gap < clearance
}

/// Separating-axis test: some side of either quadrilateral has the other wholly on its far
/// side or touching it.
pub(super) fn separated(a: &[(f64, f64); 4], b: &[(f64, f64); 4]) -> bool {
    [a, b].iter().any(|poly| {
        (0..4).any(|k| {
            let (p, q) = (poly[k], poly[(k + 1) % 4]);
            let axis = (q.1 - p.1, p.0 - q.0);
            let span = |s: &[(f64, f64); 4]| {
                s.iter()
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                        let d = v.0 * axis.0 + v.1 * axis.1;
                        (lo.min(d), hi.max(d))
                    })
            };
            let ((alo, ahi), (blo, bhi)) = (span(a), span(b));
            let eps = 1e-12 * (axis.0.abs() + axis.1.abs());
            ahi <= blo + eps || bhi <= alo + eps
        })
    })
}

fn point_segment(c: (f64, f64), p: (f64, f64), q: (f64, f64)) -> f64 {
    let (dx, dy) = (q.0 - p.0, q.1 - p.1);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 {
        (((c.0 - p.0) * dx + (c.1 - p.1) * dy) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (c.0 - p.0 - t * dx).hypot(c.1 - p.1 - t * dy)
}
