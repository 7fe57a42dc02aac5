//! `farebox play`: graph, sections and track boards drawn in the terminal.
//!
//! A graph board (Critter Cab) and a sections city (Taxi Derby) are drawn as a map: every
//! space at its coordinates scaled to a canvas of at most [`MAP_W`] columns, written as a short
//! code made from its name ("HL" for Hootwood Lookout, "BW2" for Bramble Way 2), with the
//! pieces on it in brackets after the code ("HL[F]"), the marks [`piece_mark`] gives on a grid.
//! Roads are line characters between the spaces; edges tagged `river` are drawn `≈` and edges
//! tagged `flight` (or any other tag) with dots, so the taxis that may use them are told apart.
//! On a sections board only the straight edges are drawn (a street runs through its
//! intersections; turning there is always allowed), and each section's name is written over
//! its corner. Above the map, a list gives every code with the name the menu uses; under it, a
//! legend explains the marks (kept next to the map, which so stays in sight above the menu).
//!
//! A track board (Dicey Curves) is drawn as a strip of its laid cards in order, wrapped to the
//! width: each card is a block headed by its number and turn, its lanes as lines (left lane on
//! top, lettered L, M, R as the rules name them), its rows of spaces from entry to exit, and on
//! its exit edge the gate of each lane with the size of its dice combo. The finish's exit is
//! checkered. The legend names every card by number.
//!
//! The geometry comes from the board as it lies on the table (public to everyone, kept by
//! `play_view::Known`); the pieces only from the seat's view.

use std::collections::HashMap;

use farebox::board::{Board, Edge, Space};
use farebox::content::GameDef;
use farebox::content::def::{BoardDef, TrackRole};
use farebox::game::PieceView;

use crate::cli::play_board::{Canvas, piece_legend, piece_mark, wrap};

/// Widest a map may be: the terminal's 100 columns less a margin.
pub const MAP_W: usize = 96;
/// Lines of a graph map.
const GRAPH_H: usize = 19;
/// The line that heads the list of the spaces' codes, last in a map's lines.
pub const CODES_HEAD: &str =
    "Spaces, by their codes on the map (a number closing a code counts the spaces of one name):";

/// Widest a legend line may be.
const LEGEND_W: usize = 96;

/// Draws a graph, sections or track board with its legend. `names` are the spaces' names as
/// the menu writes them (by id); `pieces` are the pieces of the seat's view.
pub fn draw_map(
    def: &GameDef,
    board: &Board,
    names: &HashMap<String, String>,
    pieces: &[PieceView],
    marks: &[String],
) -> Vec<String> {
    let pieces = with_kind_color(def, pieces);
    match &def.board {
        BoardDef::Track(_) => draw_track(def, board, &pieces, marks),
        BoardDef::Graph(_) | BoardDef::Sections(_) => {
            draw_spaces(def, board, names, &pieces, marks)
        }
        _ => vec![],
    }
}

/// The pieces with the `color` their kind gives them when they have none of their own, so
/// that pieces of no seat told apart only by their kind's color get marks of their own ("cr"
/// the red car, "cb" the blue one) rather than all being "c". The kind's properties are
/// public (the mod's pieces file).
fn with_kind_color(def: &GameDef, pieces: &[PieceView]) -> Vec<PieceView> {
    pieces
        .iter()
        .map(|p| {
            let mut p = p.clone();
            if p.owner.is_none()
                && !p.props.contains_key("color")
                && let Some(c) = def
                    .piece(&p.kind)
                    .and_then(|i| def.pieces.get(i))
                    .and_then(|d| d.props.get("color"))
            {
                p.props.insert("color".into(), c.clone());
            }
            p
        })
        .collect()
}

/// Splits a space's name into a group name and what tells it from the rest of its group:
/// "Bramble Way 2" is ("Bramble Way", "2", "2"), "Rope Walk, 1st block" is ("Rope Walk", "1",
/// "1st block"), "Anchor Street Rank, stop A" is (.., "A", "stop A"), "Green Depot, side" is
/// (.., "S", "side"). A name with neither a comma nor a number at its end has no group.
fn split_name(name: &str) -> Option<(String, String, String)> {
    if let Some((base, rest)) = name.split_once(", ") {
        let digits: String = rest
            .chars()
            .skip_while(|c| !c.is_ascii_digit())
            .take_while(char::is_ascii_digit)
            .collect();
        let last = rest.split_whitespace().last().unwrap_or("");
        let tag = if !digits.is_empty() {
            digits
        } else if last.chars().count() == 1 && last.chars().all(char::is_uppercase) {
            last.to_string()
        } else {
            rest.chars()
                .find(|c| c.is_alphanumeric())?
                .to_uppercase()
                .collect()
        };
        return Some((base.to_string(), tag, rest.to_string()));
    }
    let (base, n) = name.rsplit_once(' ')?;
    (!n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
        .then(|| (base.to_string(), n.to_string(), n.to_string()))
}

/// The words of a name that make its code: letters and digits, small words left out.
fn code_words(name: &str) -> Vec<String> {
    let words: Vec<String> = name
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| w.starts_with(char::is_alphabetic))
        .map(|w| w.replace('\'', ""))
        .collect();
    let big: Vec<String> = words
        .iter()
        .filter(|w| {
            !["of", "the", "and", "at", "on", "in", "co"].contains(&w.to_lowercase().as_str())
        })
        .cloned()
        .collect();
    if big.is_empty() { words } else { big }
}

/// Ways to abbreviate a name, shortest first: its initials (at most `max`), then with a
/// second letter of the first word, then the first word's first letters.
fn code_choices(name: &str, max: usize) -> Vec<String> {
    let words = code_words(name);
    let initials: String = words
        .iter()
        .filter_map(|w| w.chars().next())
        .flat_map(char::to_uppercase)
        .collect();
    let mut out = vec![];
    let first: Vec<char> = words
        .first()
        .map(|w| w.chars().collect())
        .unwrap_or_default();
    if words.len() == 1 {
        let up: String = first
            .iter()
            .take(max)
            .flat_map(|c| c.to_uppercase())
            .collect();
        out.push(up);
    } else {
        out.push(initials.chars().take(max).collect());
    }
    if first.len() > 1 {
        let rest: String = initials.chars().skip(1).collect();
        let two: String = first[..2].iter().flat_map(|c| c.to_uppercase()).collect();
        out.push(format!("{two}{rest}").chars().take(max + 1).collect());
        let three: String = first
            .iter()
            .take(3)
            .flat_map(|c| c.to_uppercase())
            .collect();
        out.push(three);
    }
    out.retain(|c| !c.is_empty());
    if out.is_empty() {
        out.push("S".into());
    }
    out
}

/// Short, unique codes for the spaces, by space index, and the legend items that explain
/// them, in the order of the spaces. Spaces whose names share a group ("Bramble Way 1", "2",
/// "3") share a code and add what tells them apart ("BW1"); the legend says "BW1-3 Bramble Way
/// 1-3". Each item is (code shown first, the text after it).
pub fn space_codes(shown: &[String]) -> (Vec<String>, Vec<(String, String)>) {
    // Groups of two or more names, by group name.
    let parts: Vec<Option<(String, String, String)>> =
        shown.iter().map(|n| split_name(n)).collect();
    let mut group_size: HashMap<&str, usize> = HashMap::new();
    for (b, _, _) in parts.iter().flatten() {
        *group_size.entry(b.as_str()).or_default() += 1;
    }
    // A name of a group of one is a group all the same when a number tells it ("Anchor
    // Street, 4th block": AS4, like its street's other blocks).
    let grouped = |i: usize| -> Option<&(String, String, String)> {
        parts[i].as_ref().filter(|(b, t, _)| {
            group_size.get(b.as_str()).copied().unwrap_or(0) > 1
                || t.chars().all(|c| c.is_ascii_digit())
        })
    };
    let mut taken: Vec<String> = vec![];
    let mut codes = vec![String::new(); shown.len()];
    let mut prefix_of: HashMap<String, String> = HashMap::new();
    let mut items: Vec<(String, String)> = vec![];
    for i in 0..shown.len() {
        if !codes[i].is_empty() {
            continue;
        }
        if let Some((base, _, _)) = grouped(i) {
            let members: Vec<usize> = (i..shown.len())
                .filter(|&k| grouped(k).is_some_and(|(b, _, _)| b == base))
                .collect();
            let tags: Vec<String> = members
                .iter()
                .filter_map(|&k| grouped(k).map(|(_, t, _)| t.clone()))
                .collect();
            let fits = |p: &str| {
                let mut all: Vec<String> = tags.iter().map(|t| format!("{p}{t}")).collect();
                all.sort();
                all.dedup();
                all.len() == tags.len() && all.iter().all(|c| !taken.contains(c))
            };
            let prefix = code_choices(base, 2)
                .into_iter()
                .find(|p| fits(p))
                .or_else(|| {
                    (2..99)
                        .map(|k| format!("{}{k}_", code_choices(base, 2)[0]))
                        .find(|p| fits(p))
                })
                .unwrap_or_default();
            for (&k, t) in members.iter().zip(&tags) {
                codes[k] = format!("{prefix}{t}");
                taken.push(codes[k].clone());
            }
            prefix_of.insert(base.clone(), prefix.clone());
            let rests: Vec<String> = members
                .iter()
                .filter_map(|&k| grouped(k).map(|(_, _, r)| r.clone()))
                .collect();
            let numbers: Option<Vec<u32>> = tags.iter().map(|t| t.parse().ok()).collect();
            let run = numbers
                .as_ref()
                .is_some_and(|ns| ns.len() > 2 && ns.windows(2).all(|w| w[1] == w[0] + 1));
            let code_list = if run {
                format!("{prefix}{}-{}", tags[0], tags[tags.len() - 1])
            } else {
                format!("{prefix}{}", tags.join(","))
            };
            let plain_numbers = rests.iter().zip(&tags).all(|(r, t)| r == t);
            // Numbered ones ("Rope Walk, 1st block") read well enough by the group's name;
            // lettered ones keep what the letter stands for ("Green Depot, front/side").
            let text = if plain_numbers && run {
                format!("{base} {}-{}", tags[0], tags[tags.len() - 1])
            } else if plain_numbers {
                format!("{base} {}", tags.join(", "))
            } else if numbers.is_some() {
                // "Rope Walk, 1st block" is RW1: the number says which block.
                base.clone()
            } else {
                // "stop A/stop B" reads "stop A/B".
                let firsts: Vec<&str> = rests
                    .iter()
                    .filter_map(|r| r.split_once(' ').map(|(a, _)| a))
                    .collect();
                if firsts.len() == rests.len() && firsts.windows(2).all(|w| w[0] == w[1]) {
                    let tails: Vec<&str> = rests
                        .iter()
                        .filter_map(|r| r.split_once(' ').map(|(_, b)| b))
                        .collect();
                    format!("{base}, {} {}", firsts[0], tails.join("/"))
                } else {
                    format!("{base}, {}", rests.join("/"))
                }
            };
            items.push((code_list, text));
        } else {
            let name = &shown[i];
            let code = code_choices(name, 3)
                .into_iter()
                .find(|c| !taken.contains(c))
                .or_else(|| {
                    let c = code_choices(name, 2)[0].clone();
                    (2..999)
                        .map(|k| format!("{c}{k}"))
                        .find(|x| !taken.contains(x))
                })
                .unwrap_or_default();
            taken.push(code.clone());
            codes[i] = code.clone();
            items.push((code, name.clone()));
        }
    }
    (codes, items)
}

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

/// The pieces of the view by space id, in view order.
fn pieces_by_space(pieces: &[PieceView]) -> HashMap<&str, Vec<&PieceView>> {
    let mut on: HashMap<&str, Vec<&PieceView>> = HashMap::new();
    for p in pieces {
        if let Some(a) = &p.at {
            on.entry(a.as_str()).or_default().push(p);
        }
    }
    on
}

/// A code with the marks of the pieces on its space: "HL[F,R]".
fn with_pieces(code: &str, on: Option<&Vec<&PieceView>>, marks: &[String]) -> String {
    match on {
        Some(ps) if !ps.is_empty() => {
            let ms: Vec<String> = ps.iter().map(|p| piece_mark(p, marks)).collect();
            format!("{code}[{}]", ms.join(","))
        }
        _ => code.to_string(),
    }
}

/// A graph or sections board as a map, with its legend.
fn draw_spaces(
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
    let (codes, items) = space_codes(&shown);
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
    // Spaces with pieces first, so their marks are nearest their spaces.
    let mut order: Vec<usize> = (0..g.spaces.len()).collect();
    order.sort_by_key(|&i| !on.contains_key(g.spaces[i].id.as_str()));
    let mut lost = vec![];
    for i in order {
        let s = &g.spaces[i];
        let text = with_pieces(&codes[i], on.get(s.id.as_str()), marks);
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
    out.extend(wrap(
        "        ",
        &piece_legend(def, &on_board, marks),
        "   ",
    ));
    if !lost.is_empty() {
        out.extend(wrap("Not drawn for lack of room: ", &lost, ", "));
    }
    out.push(CODES_HEAD.to_string());
    out.extend(columns(&items));
    out
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

/// A lane's letter as the rules name it: L, M, R on a card of 2 or 3 lanes, else its number.
fn lane_letter(lane: u32, lanes: u32) -> String {
    match (lanes, lane) {
        (2, 0) | (3, 0) => "L".into(),
        (2, 1) | (3, 2) => "R".into(),
        (3, 1) => "M".into(),
        _ => (lane + 1).to_string(),
    }
}

/// A card's turn as an arrow: → straight, ↗ ↘ gentle left or right, ↑ ↓ hard.
fn turn_arrow(turn: i32) -> char {
    match turn {
        t if t <= -90 => '↑',
        t if t < 0 => '↗',
        0 => '→',
        t if t < 90 => '↘',
        _ => '↓',
    }
}

/// A track board: its laid cards in order, in bands across the width.
fn draw_track(def: &GameDef, board: &Board, pieces: &[PieceView], marks: &[String]) -> Vec<String> {
    let BoardDef::Track(td) = &def.board else {
        return vec![];
    };
    let Some(track) = &board.track else {
        return vec![];
    };
    let g = &board.graph;
    let on = pieces_by_space(pieces);
    // Lines of a band: lanes sit by their place across the track in half lanes, so a 3-lane
    // card's middle lane lines up with the line between a 2-lane card's lanes.
    let most = track.laid.iter().map(|p| p.lanes).max().unwrap_or(1).max(1) as usize;
    let band_h = 2 * most - 1;
    const CELL: usize = 4;
    let mut blocks: Vec<(usize, Vec<String>)> = vec![];
    let mut names: Vec<String> = vec![];
    let mut gates_used: Vec<u32> = vec![];
    let mut finish = false;
    for (n, laid) in track.laid.iter().enumerate() {
        let Some(pd) = td.pieces.get(laid.piece as usize) else {
            continue;
        };
        let lanes = laid.lanes as usize;
        let rows = laid.rows as usize;
        let w = 1 + rows * CELL + 1;
        let head = match pd.role {
            TrackRole::Start => format!("{} start", n + 1),
            TrackRole::Finish => format!("{} FINISH", n + 1),
            _ => format!("{} {}", n + 1, turn_arrow(laid.turn)),
        };
        let w = w.max(head.chars().count() + 1);
        let name = if laid.removed {
            format!("{} {} (taken off)", n + 1, pd.name)
        } else {
            format!("{} {}", n + 1, pd.name)
        };
        names.push(name);
        let mut cv = Canvas::new(w, band_h + 1);
        cv.text(0, 0, &head);
        if laid.removed {
            cv.text(0, 1 + band_h / 2, "(off)");
            blocks.push((w, cv.lines()));
            continue;
        }
        let gate_of = |lane: u32| {
            pd.gates
                .iter()
                .find(|(ls, _)| ls.contains(&lane))
                .map(|(_, s)| *s)
        };
        let top = most - lanes; // in half lanes
        for lane in 0..lanes {
            let y = 1 + top + 2 * lane;
            cv.text(0, y, &lane_letter(lane as u32, laid.lanes));
            for row in 0..rows {
                let id = g
                    .spaces
                    .get(laid.first_space as usize + lane * rows + row)
                    .map(|s| s.id.as_str())
                    .unwrap_or("");
                let text = match on.get(id) {
                    Some(ps) if !ps.is_empty() => {
                        let ms: Vec<String> = ps.iter().map(|p| piece_mark(p, marks)).collect();
                        ms.join(",")
                    }
                    _ => "·".into(),
                };
                let x = 1 + row * CELL + 1;
                cv.text(x, y, &text.chars().take(CELL - 1).collect::<String>());
            }
            let exit = 1 + rows * CELL;
            let edge = match (pd.role, gate_of(lane as u32)) {
                (_, Some(size)) => {
                    if !gates_used.contains(&size) {
                        gates_used.push(size);
                    }
                    char::from_digit(size, 10).unwrap_or('#')
                }
                (TrackRole::Finish, None) => '▞',
                _ => '│',
            };
            if pd.role == TrackRole::Finish {
                finish = true;
            }
            cv.put(exit, y, edge);
            // Between two lanes: a dashed lane line, solid in the last row where two
            // different gates meet (no changing lanes there).
            if lane + 1 < lanes {
                for row in 0..rows {
                    let walled = row + 1 == rows
                        && gate_of(lane as u32).is_some()
                        && gate_of(lane as u32) != gate_of(lane as u32 + 1);
                    let c = if walled { '━' } else { '┄' };
                    for k in 0..CELL - 1 {
                        cv.put(1 + row * CELL + 1 + k, y + 1, c);
                    }
                }
                cv.put(exit, y + 1, '│');
            }
        }
        blocks.push((w, cv.lines()));
    }
    // Bands of blocks across the width.
    let mut out = vec![];
    let mut band: Vec<(usize, Vec<String>)> = vec![];
    let flush = |band: &mut Vec<(usize, Vec<String>)>, out: &mut Vec<String>| {
        if band.is_empty() {
            return;
        }
        for line in 0..=band_h {
            let mut s = String::new();
            for (w, b) in band.iter() {
                let t = b.get(line).cloned().unwrap_or_default();
                s.push_str(&format!("{t:<w$} "));
            }
            out.push(s.trim_end().to_string());
        }
        band.clear();
    };
    let mut used = 0;
    for (w, b) in blocks {
        if used + w + 1 > MAP_W && !band.is_empty() {
            flush(&mut band, &mut out);
            used = 0;
        }
        used += w + 1;
        band.push((w, b));
    }
    flush(&mut band, &mut out);
    let mut head: Vec<String> = vec![
        "cards in order, driving left to right, row 1 at the entry".into(),
        "L M R left, middle, right lane".into(),
        "→ ↗ ↘ ↑ ↓ straight, gentle left/right, hard left/right".into(),
    ];
    if !gates_used.is_empty() {
        gates_used.sort();
        let sizes: Vec<String> = gates_used.iter().map(u32::to_string).collect();
        head.push(format!(
            "{} gate on the exit: exactly that many matching dice to cross",
            sizes.join(" ")
        ));
    }
    head.push("━ no lane change (gates differ)".into());
    if finish {
        head.push("▞ the finish line".into());
    }
    out.extend(wrap("Legend: ", &head, "   "));
    let on_board: Vec<&PieceView> = pieces.iter().filter(|p| p.at.is_some()).collect();
    out.extend(wrap(
        "        ",
        &piece_legend(def, &on_board, marks),
        "   ",
    ));
    out.extend(wrap("Cards: ", &names, ", "));
    if track.laid.is_empty() {
        out.push("No card is laid yet.".into());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::play_board::seat_marks;
    use crate::common::{Io, load_for_play, setup};
    use farebox::game::Game;

    /// A bundled game of two seats, just set up.
    fn game(id: &str, seed: u64) -> Game {
        let (mut stdin, mut out, mut err) = (&b""[..], Vec::new(), Vec::new());
        let mut io = Io {
            stdin: &mut stdin,
            out: &mut out,
            err: &mut err,
        };
        let def = load_for_play(id, &mut io).expect("bundled mod");
        let su = setup(&def, 2, seed, &[]).expect("setup");
        Game::new(def, su).expect("game")
    }

    fn names(game: &Game) -> HashMap<String, String> {
        game.state()
            .board
            .graph
            .spaces
            .iter()
            .map(|s| (s.id.clone(), s.name.clone()))
            .collect()
    }

    #[test]
    fn a_map_shows_the_pieces_of_the_view_and_no_others() {
        let g = game("taxi-derby", 5);
        let def = g.def().clone();
        let marks = seat_marks(&def, 2);
        let view = g.view(Some(0));
        let board = &g.state().board;
        let with = draw_map(&def, board, &names(&g), &view.pieces, &marks);
        // The patrol car stands at the precinct from the start.
        let (codes, _) = space_codes(
            &board
                .graph
                .spaces
                .iter()
                .map(|s| s.name.clone())
                .collect::<Vec<_>>(),
        );
        let precinct = board
            .graph
            .spaces
            .iter()
            .position(|s| s.tags.iter().any(|t| t == "police"))
            .expect("a precinct");
        assert!(
            with.iter()
                .any(|l| l.contains(&format!("{}[p]", codes[precinct])) && l.contains('┼')),
            "{with:#?}"
        );
        assert!(with.iter().all(|l| l.chars().count() <= 100), "{with:#?}");
        // Given no pieces, it draws none, whatever the state holds.
        let without = draw_map(&def, board, &names(&g), &[], &marks);
        let map = without
            .iter()
            .skip_while(|l| !l.contains('┼'))
            .take_while(|l| !l.starts_with("Legend"));
        assert!(map.clone().count() > 10, "{without:#?}");
        assert!(map.clone().all(|l| !l.contains('[')), "{without:#?}");
        assert!(
            without.iter().all(|l| !l.contains("patrol")),
            "{without:#?}"
        );
    }

    #[test]
    fn a_track_strip_heads_every_laid_card_within_the_width() {
        let g = game("dicey-curves", 3);
        let def = g.def().clone();
        let board = &g.state().board;
        let laid = board.track.as_ref().map_or(0, |t| t.laid.len());
        assert!(laid >= 2, "the race starts with laid cards");
        let lines = draw_map(
            &def,
            board,
            &names(&g),
            &g.view(Some(0)).pieces,
            &seat_marks(&def, 2),
        );
        assert!(
            lines.iter().all(|l| l.chars().count() <= MAP_W),
            "{lines:#?}"
        );
        assert!(lines[0].starts_with("1 start"), "{lines:#?}");
        for n in 2..=laid {
            assert!(
                lines
                    .iter()
                    .any(|l| l.contains(&format!(" {n} ")) || l.starts_with(&format!("{n} "))),
                "card {n}: {lines:#?}"
            );
        }
        let cards = lines
            .iter()
            .find(|l| l.starts_with("Cards: "))
            .expect("cards");
        assert!(cards.starts_with("Cards: 1 Starting Grid"), "{cards}");
    }

    #[test]
    fn names_split_into_group_and_tag() {
        assert_eq!(
            split_name("Bramble Way 2"),
            Some(("Bramble Way".into(), "2".into(), "2".into()))
        );
        assert_eq!(
            split_name("Rope Walk, 1st block"),
            Some(("Rope Walk".into(), "1".into(), "1st block".into()))
        );
        assert_eq!(
            split_name("Anchor Street Rank, stop A"),
            Some(("Anchor Street Rank".into(), "A".into(), "stop A".into()))
        );
        assert_eq!(
            split_name("Green Depot, side"),
            Some(("Green Depot".into(), "S".into(), "side".into()))
        );
        assert_eq!(split_name("Hootwood Lookout"), None);
    }

    #[test]
    fn codes_are_unique_and_groups_share_a_prefix() {
        let names: Vec<String> = [
            "Hootwood Lookout",
            "Bramble Way 1",
            "Bramble Way 2",
            "Bramble Way 3",
            "Hazelnut Lane",
            "Hill",
            "Rope Walk, 1st block",
            "Rope Walk, 3rd block",
            "Ferry Terminal, Quay Gate",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let (codes, items) = space_codes(&names);
        let mut sorted = codes.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), codes.len(), "{codes:?}");
        assert_eq!(codes[0], "HL");
        assert_eq!(&codes[1..4], ["BW1", "BW2", "BW3"]);
        assert_ne!(codes[4], "HL");
        assert_eq!(codes[6], "RW1");
        assert!(
            items.contains(&("BW1-3".into(), "Bramble Way 1-3".into())),
            "{items:?}"
        );
        assert!(
            items.contains(&("RW1,3".into(), "Rope Walk".into())),
            "{items:?}"
        );
        // A group of one is a plain name.
        assert!(
            items.iter().any(|(_, t)| t == "Ferry Terminal, Quay Gate"),
            "{items:?}"
        );
    }

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
