//! Graph and sections boards, drawn as a map: every space at its coordinates on a canvas of
//! line characters, roads between them (a river `≈`, other tagged edges dotted), and a legend
//! of the codes in columns. A sections board is a graph laid out at setup: only its straight
//! edges are drawn and each section's name is written over its corner.

use std::collections::HashMap;

use farebox::board::{Board, Edge, Space};
use farebox::content::GameDef;
use farebox::content::def::BoardDef;
use farebox::game::PieceView;

use super::marks::MapMarks;
use super::{CODES_HEAD, MAP_W, pieces_by_space, space_codes};
use crate::cli::play_board::{Canvas, piece_legend, wrap};

/// Lines of a graph map.
const GRAPH_H: usize = 19;

/// Widest a legend line may be.
const LEGEND_W: usize = 96;

/// Line directions of a canvas cell (N = 1, E = 2, S = 4, W = 8).
const LIGHT: [char; 16] = [
    ' ', '╵', '╶', '└', '╷', '│', '┌', '├', '╴', '┘', '─', '┴', '┐', '┤', '┬', '┼',
];

/// How an edge is drawn: a road, a river lane, or another path (a flight).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Way {
    Other,
    River,
    Road,
}

fn way(e: &Edge) -> Way {
    if e.tags.is_empty() {
        Way::Road
    } else if e.tags.iter().any(|t| t == "river") {
        Way::River
    } else {
        Way::Other
    }
}

/// A map: lines between scaled points, then text over them.
struct Map {
    w: usize,
    h: usize,
    /// Road directions by cell (for junctions), and the character of other paths.
    bits: Vec<u8>,
    chars: Vec<Option<char>>,
    /// Cells holding text (codes, pieces, names): nothing else is written there.
    text: Vec<bool>,
    cv: Canvas,
}

impl Map {
    fn new(w: usize, h: usize) -> Map {
        Map {
            w,
            h,
            bits: vec![0; w * h],
            chars: vec![None; w * h],
            text: vec![false; w * h],
            cv: Canvas::new(w, h),
        }
    }

    fn idx(&self, x: i64, y: i64) -> Option<usize> {
        (x >= 0 && y >= 0 && (x as usize) < self.w && (y as usize) < self.h)
            .then(|| y as usize * self.w + x as usize)
    }

    /// A line from `a` to `b` (cell coordinates), drawn as `how`. A road that runs straight
    /// across or down sets the directions of its cells, so crossing roads meet in a junction;
    /// a slanting one is drawn with `─` or `│` along its main direction and `╱` or `╲` where it
    /// steps aside. The end cells are left to the spaces' codes.
    fn line(&mut self, a: (i64, i64), b: (i64, i64), how: Way) {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let steps = dx.abs().max(dy.abs());
        if steps == 0 {
            return;
        }
        let across = dx.abs() >= dy.abs();
        let slant = if (dx > 0) == (dy < 0) { '╱' } else { '╲' };
        let mut prev = a;
        for k in 1..=steps {
            let p = (
                a.0 + round_div(dx * k, steps),
                a.1 + round_div(dy * k, steps),
            );
            let stepped = if across { p.1 != prev.1 } else { p.0 != prev.0 };
            let Some(i) = self.idx(p.0, p.1) else {
                prev = p;
                continue;
            };
            match how {
                Way::Road if dx == 0 || dy == 0 => {
                    let (here, back) = match (p.0 - prev.0, p.1 - prev.1) {
                        (0, -1) => (4u8, 1u8),
                        (1, 0) => (8, 2),
                        (0, 1) => (1, 4),
                        _ => (2, 8),
                    };
                    self.bits[i] |= here;
                    if let Some(j) = self.idx(prev.0, prev.1) {
                        self.bits[j] |= back;
                    }
                }
                Way::Road => {
                    let c = if stepped {
                        slant
                    } else if across {
                        '─'
                    } else {
                        '│'
                    };
                    if self.bits[i] == 0 {
                        self.chars[i] = Some(c);
                    }
                }
                Way::River => {
                    self.chars[i].get_or_insert('≈');
                }
                Way::Other => {
                    self.chars[i].get_or_insert('·');
                }
            }
            prev = p;
        }
    }

    /// Whether `s` fits at (x, y) without covering other text.
    fn free(&self, x: i64, y: i64, n: usize) -> bool {
        (0..n as i64).all(|k| self.idx(x + k, y).is_some_and(|i| !self.text[i]))
    }

    /// Writes `s` with its `anchor`-th character as near (x, y) as it fits; returns where.
    fn label(&mut self, x: i64, y: i64, s: &str, anchor: usize) -> Option<(i64, i64)> {
        let n = s.chars().count();
        let x0 = x - anchor as i64;
        let tries: [(i64, i64); 13] = [
            (0, 0),
            (1, 0),
            (-1, 0),
            (0, -1),
            (0, 1),
            (2, 0),
            (-2, 0),
            (1, -1),
            (-1, 1),
            (1, 1),
            (-1, -1),
            (3, 0),
            (-3, 0),
        ];
        let (ox, oy) = tries
            .iter()
            .copied()
            .find(|&(ox, oy)| self.free(x0 + ox, y + oy, n))
            .or_else(|| {
                (4..self.w as i64)
                    .flat_map(|k| [(k, 0), (-k, 0)])
                    .find(|&(ox, _)| self.free(x0 + ox, y, n))
            })?;
        for (k, c) in s.chars().enumerate() {
            if let Some(i) = self.idx(x0 + ox + k as i64, y + oy) {
                self.text[i] = true;
                self.chars[i] = Some(c);
            }
        }
        Some((x0 + ox, y + oy))
    }

    fn lines(mut self) -> Vec<String> {
        for y in 0..self.h {
            for x in 0..self.w {
                let i = y * self.w + x;
                let c = if self.text[i] {
                    self.chars[i]
                } else if self.bits[i] != 0 {
                    Some(LIGHT[self.bits[i] as usize & 15])
                } else {
                    self.chars[i]
                };
                if let Some(c) = c {
                    self.cv.put(x, y, c);
                }
            }
        }
        self.cv.lines()
    }
}

/// `a / b` rounded to the nearest whole number (halves away from zero).
fn round_div(a: i64, b: i64) -> i64 {
    if b == 0 {
        return 0;
    }
    let q = a as f64 / b as f64;
    q.round() as i64
}

/// A code with the marks of the pieces on its space: "HL[F,R]".
fn with_pieces(code: &str, on: Option<&Vec<&PieceView>>, marks: &MapMarks) -> String {
    match on {
        Some(ps) if !ps.is_empty() => {
            let ms: Vec<String> = ps.iter().map(|p| marks.mark(p)).collect();
            format!("{code}[{}]", ms.join(","))
        }
        _ => code.to_string(),
    }
}

/// A graph or sections board as a map, with its legend.
// One piece: one pass over a character grid: roads, then spaces, then their codes and the
// legend; each later layer reads the cells the earlier ones wrote.
pub(super) fn draw_spaces(
    def: &GameDef,
    board: &Board,
    names: &HashMap<String, String>,
    pieces: &[PieceView],
    marks: &[String],
) -> Vec<String> {
    let g = &board.graph;
    if g.spaces.is_empty() {
        return vec![];
    }
    let sections = match &def.board {
        BoardDef::Sections(s) => Some(s),
        _ => None,
    };
    let shown: Vec<String> = g
        .spaces
        .iter()
        .map(|s| names.get(&s.id).cloned().unwrap_or_else(|| s.id.clone()))
        .collect();
    let (codes, mut items) = space_codes(&shown);
    // What a space is besides its name, after its code in the list: its tags and properties
    // ("HL Hootwood Lookout — stand, perch; region forest"), for a space with a code of its
    // own.
    for (code, text) in items.iter_mut() {
        let mut of_code = codes.iter().enumerate().filter(|(_, c)| *c == code);
        if let (Some((i, _)), None) = (of_code.next(), of_code.next())
            && let Some(more) = g.spaces.get(i).and_then(space_details)
        {
            text.push_str(&format!(" — {more}"));
        }
    }
    // The extent: a sections city is its whole table; a graph the box around its spaces.
    let (x0, y0, x1, y1) = match sections {
        Some(s) => (
            0.0,
            0.0,
            s.size * f64::from(s.columns.max(1)),
            s.size * f64::from(s.rows.max(1)),
        ),
        None => g.spaces.iter().fold(
            (f64::MAX, f64::MAX, f64::MIN, f64::MIN),
            |(a, b, c, d), s: &Space| (a.min(s.x), b.min(s.y), c.max(s.x), d.max(s.y)),
        ),
    };
    let (ew, eh) = ((x1 - x0).max(1e-9), (y1 - y0).max(1e-9));
    // A city keeps whole cells per unit so its streets stay straight: as many columns per unit
    // as fit, one line per unit. A graph is scaled to the canvas, a margin left for codes.
    let (w, h, sx, sy, mx) = match sections {
        Some(_) => {
            let per = ((MAP_W - 1) as f64 / ew).floor().max(1.0);
            let w = (per * ew) as usize + 1;
            (w, eh as usize + 1, per, 1.0, 0.0)
        }
        None => (
            MAP_W,
            GRAPH_H,
            (MAP_W - 7) as f64 / ew,
            (GRAPH_H - 1) as f64 / eh,
            3.0,
        ),
    };
    let at = |s: &Space| -> (i64, i64) {
        (
            ((s.x - x0) * sx + mx).round() as i64,
            ((s.y - y0) * sy).round() as i64,
        )
    };
    let mut map = Map::new(w, h);
    // Section names over the corner of each section: the top ones on the first line, the
    // bottom ones on the last (no street runs along the city's edge).
    if let Some(s) = sections {
        for (slot, &(si, _)) in board.arrangement.iter().enumerate() {
            let Some(sec) = s.sections.get(si as usize) else {
                continue;
            };
            let (col, row) = (
                slot % s.columns.max(1) as usize,
                slot / s.columns.max(1) as usize,
            );
            let x = (col as f64 * s.size * sx) as i64 + 1;
            let y = if row + 1 == s.rows as usize && row > 0 {
                ((row + 1) as f64 * s.size) as i64
            } else {
                (row as f64 * s.size) as i64
            };
            map.label(x, y, &format!(" {} ", sec.name.to_uppercase()), 0);
        }
    }
    let mut edges: Vec<&Edge> = g.edges.iter().collect();
    // Roads last, so a road crossing a river lane stays a road.
    edges.sort_by_key(|e| way(e));
    let mut kinds: Vec<Way> = vec![];
    for e in edges {
        let (Some(a), Some(b)) = (g.spaces.get(e.from as usize), g.spaces.get(e.to as usize))
        else {
            continue;
        };
        // In a city only the streets: the turns at each intersection are not drawn.
        if sections.is_some() && a.x != b.x && a.y != b.y {
            continue;
        }
        let how = way(e);
        if !kinds.contains(&how) {
            kinds.push(how);
        }
        map.line(at(a), at(b), how);
    }
    let on = pieces_by_space(pieces);
    let piece_marks = MapMarks::new(def, pieces, marks);
    // Spaces with pieces first, so their marks are nearest their spaces.
    let mut order: Vec<usize> = (0..g.spaces.len()).collect();
    order.sort_by_key(|&i| !on.contains_key(g.spaces[i].id.as_str()));
    let mut lost = vec![];
    for i in order {
        let s = &g.spaces[i];
        let text = with_pieces(&codes[i], on.get(s.id.as_str()), &piece_marks);
        let (x, y) = at(s);
        let anchor = codes[i].chars().count() / 2;
        if map.label(x, y, &text, anchor).is_none() {
            lost.push(text);
        }
    }
    // The map with the legend of its marks right under it, then every code (headed by
    // [`CODES_HEAD`]), which the terminal game folds away on a screen of 40 lines.
    let mut out = map.lines();
    let mut head: Vec<String> = vec![];
    if kinds.contains(&Way::Road) {
        head.push("─│╱╲ road".into());
    }
    if kinds.contains(&Way::River) {
        head.push("≈ river lane".into());
    }
    if kinds.contains(&Way::Other) {
        let tags: Vec<String> = g
            .edges
            .iter()
            .filter(|e| way(e) == Way::Other)
            .flat_map(|e| e.tags.clone())
            .fold(vec![], |mut v, t| {
                if !v.contains(&t) {
                    v.push(t);
                }
                v
            });
        head.push(format!("· {} path", tags.join("/")));
    }
    if sections.is_some() {
        head.push("turn at any crossing ┼".into());
    }
    head.push("X[P] pieces P on space X".into());
    out.extend(wrap("Legend: ", &head, "   "));
    let on_board: Vec<&PieceView> = pieces.iter().filter(|p| p.at.is_some()).collect();
    let mut legend = piece_legend(def, &on_board, marks);
    legend.extend(piece_marks.legend(&on_board));
    out.extend(wrap("        ", &legend, "   "));
    if !lost.is_empty() {
        out.extend(wrap("Not drawn for lack of room: ", &lost, ", "));
    }
    out.push(CODES_HEAD.to_string());
    out.extend(columns(&items));
    out
}

/// A space's tags and properties in a few words: "stand, perch; region forest" (None when it
/// has neither). Long property values are left out.
fn space_details(s: &Space) -> Option<String> {
    let props: Vec<String> = s
        .props
        .iter()
        .filter_map(|(k, v)| {
            let v = match v {
                farebox::value::Value::Str(t) => t.clone(),
                farebox::value::Value::Int(_)
                | farebox::value::Value::Num(_)
                | farebox::value::Value::Bool(_) => v.to_string(),
                _ => return None,
            };
            (v.chars().count() <= 24).then(|| format!("{} {v}", k.replace(['_', '-'], " ")))
        })
        .collect();
    let tags = s.tags.join(", ");
    match (tags.is_empty(), props.is_empty()) {
        (true, true) => None,
        (false, true) => Some(tags),
        (true, false) => Some(props.join(", ")),
        (false, false) => Some(format!("{tags}; {}", props.join(", "))),
    }
}

/// The codes of the legend in columns across [`LEGEND_W`]: "HL Hootwood Lookout". An item
/// longer than its column takes two (or more); of the numbers of columns that fit, the one
/// that takes fewest lines is used.
fn columns(items: &[(String, String)]) -> Vec<String> {
    let cells: Vec<String> = items.iter().map(|(c, t)| format!("{c} {t}")).collect();
    (1..=6)
        .map(|per| lay_out(&cells, per))
        .min_by_key(Vec::len)
        .unwrap_or_default()
}

/// `cells` in `per` columns across [`LEGEND_W`].
fn lay_out(cells: &[String], per: usize) -> Vec<String> {
    let col_w = LEGEND_W / per;
    let mut out = vec![];
    let mut line = String::new();
    let mut used = 0;
    for c in cells {
        let cw = c.chars().count() + 2;
        let span = cw.div_ceil(col_w).clamp(1, per);
        if used + span > per && !line.is_empty() {
            out.push(line.trim_end().to_string());
            line.clear();
            used = 0;
        }
        let pad = span * col_w;
        line.push_str(&format!("{c:<pad$}"));
        used += span;
    }
    if !line.trim().is_empty() {
        out.push(line.trim_end().to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roads_meet_in_junctions_and_labels_never_overlap() {
        let mut m = Map::new(20, 5);
        m.line((0, 2), (10, 2), Way::Road);
        m.line((5, 0), (5, 4), Way::Road);
        m.line((10, 2), (15, 4), Way::River);
        let a = m.label(2, 2, "AB", 1).unwrap();
        let b = m.label(2, 2, "CD", 1).unwrap();
        assert_ne!(a, b);
        let lines = m.lines();
        assert_eq!(lines[2].chars().nth(5), Some('┼'), "{lines:?}");
        assert!(
            lines[2].contains("AB") && lines.concat().contains("CD"),
            "{lines:?}"
        );
        assert!(lines.concat().contains('≈'), "{lines:?}");
    }

    #[test]
    fn columns_stay_within_the_width() {
        let items: Vec<(String, String)> = (0..40)
            .map(|i| (format!("C{i}"), format!("A space with a long name {i}")))
            .collect();
        let lines = columns(&items);
        assert!(
            lines.iter().all(|l| l.chars().count() <= LEGEND_W),
            "{lines:?}"
        );
        let all = lines.join("\n");
        for (c, t) in &items {
            assert!(all.contains(&format!("{c} ")) && all.contains(t.as_str()));
        }
    }
}
