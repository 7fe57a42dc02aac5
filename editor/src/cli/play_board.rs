//! `farebox play`: a grid board drawn in the terminal, and the marks of pieces (other boards:
//! [`crate::cli::play_board_map`]).
//!
//! Each cell is a block of 3 lines by 9 columns inside a dotted frame. The roads of the tile
//! are drawn as they lie (the tile's links turned by its rotation): heavy strokes to each open
//! side, an arrow on a side traffic may only enter or only leave by, a stop sign (■) on a tile
//! that takes more than one move to drive through, and × on a dead end (a road with one open
//! side). Where the roads of two neighbouring cells meet, the frame between them is drawn as
//! road too, so a road that does not connect is visibly broken. A blocker closes its cell: the
//! cell is filled with ▒, its name is written across the middle, and a road under it is drawn
//! shaded (░) and never joined to its neighbours, since nobody drives in. An empty cell shows a
//! dot. Pieces sit in the four corners of the cell. Under the board, a legend explains every
//! mark used, the marks of the pieces on the board included, and names each closed cell.
//!
//! A cell keeps 3 lines: the middle one carries the east-west road, the top and bottom ones the
//! north and south arms (with their arrows) and the four corners for pieces, so a cell of 2
//! lines would lose the north-south arms or two of the corners. It keeps 9 columns so a piece
//! mark of 4 letters ("Y+g", "B1+g") fits a corner and a blocker's name of 7 across the middle.
//!
//! Everything is built from a [`View`], so a seat is shown only what it may see.

use std::collections::HashMap;

use farebox::content::GameDef;
use farebox::content::def::{BoardDef, GridDef, Side};
use farebox::game::{CellView, PieceView};
use farebox::value::Value;

/// Columns and lines of one cell, inside the frame.
const CW: usize = 9;
const CH: usize = 3;
/// The middle column and line of a cell.
const MID_X: usize = CW / 2;
const MID_Y: usize = CH / 2;
/// Width of the row numbers at the left of the board.
const LABEL: usize = 4;
/// Columns of one piece slot (a corner of the cell).
const SLOT: usize = MID_X;

const EMPTY: char = '·';
const STOP: char = '■';
const DEAD_END: char = '×';
const NO_ROAD: char = '□';
const CLOSED: char = '▒';
const CLOSED_ROAD: char = '░';
const FRAME_H: char = '┄';
const FRAME_V: char = '┆';
const FRAME_X: char = '·';
const ROAD_H: char = '━';
const ROAD_V: char = '┃';

/// Heavy box-drawing junctions by open sides (N = 1, E = 2, S = 4, W = 8).
const JUNCTIONS: [char; 16] = [
    EMPTY, '╹', '╺', '┗', '╻', '┃', '┏', '┣', '╸', '┛', '━', '┻', '┓', '┫', '┳', '╋',
];

/// The first letter of a word, or `?`.
fn initial(s: &str) -> char {
    s.chars().next().unwrap_or('?')
}

/// Board marks of the seats: the seat name's initial in capitals ("Y" for Yellow). Seats
/// whose names share an initial add their seat number ("B1", "B3"), so marks stay unique.
pub fn seat_marks(def: &GameDef, seats: u8) -> Vec<String> {
    let initials: Vec<String> = (0..seats as usize)
        .map(|i| initial(&def.seat_name(i)).to_uppercase().collect())
        .collect();
    initials
        .iter()
        .enumerate()
        .map(|(i, m)| {
            if initials.iter().filter(|o| *o == m).count() > 1 {
                format!("{m}{}", i + 1)
            } else {
                m.clone()
            }
        })
        .collect()
}

/// A piece's mark: its seat's mark, or for a piece of no seat (or in a colour of its own) the
/// initial of its kind followed by the initial of its `color` property ("py": the yellow
/// passenger). A piece whose `carrying` property is a string adds "+" and that string's
/// initial ("Y+g").
pub fn piece_mark(p: &PieceView, seat_marks: &[String]) -> String {
    let lower = |s: &str| initial(s).to_lowercase().collect::<String>();
    // A seat's piece in a colour of its own (one of the two cars a Dicey Curves seat drives)
    // is marked by its kind and colour, as a piece of no seat is: the seat's mark alone would
    // not tell its pieces apart.
    let own_color = matches!(p.props.get("color"), Some(Value::Str(c)) if !c.is_empty());
    let seat_mark = p
        .owner
        .filter(|_| !own_color)
        .and_then(|o| seat_marks.get(o as usize));
    let mut m = match seat_mark {
        Some(s) => s.clone(),
        None => {
            let mut m = lower(&p.kind);
            if let Some(Value::Str(c)) = p.props.get("color") {
                m.push_str(&lower(c));
            }
            m
        }
    };
    if let Some(Value::Str(c)) = p.props.get("carrying")
        && !c.is_empty()
    {
        m.push('+');
        m.push_str(&lower(c));
    }
    m
}

/// On a grid board, the cell (0-based index) of each space id: "x,y", or the id the board
/// gives a cell. None for other boards.
pub fn grid_cells(def: &GameDef) -> Option<HashMap<String, usize>> {
    let BoardDef::Grid(g) = &def.board else {
        return None;
    };
    let w = g.width as usize;
    let n = w * g.height as usize;
    let mut ids: HashMap<String, usize> = (0..n)
        .map(|i| (format!("{},{}", i % w.max(1) + 1, i / w.max(1) + 1), i))
        .collect();
    for c in &g.cells {
        if let Some(id) = &c.id {
            ids.insert(id.clone(), ((c.y - 1) * g.width + (c.x - 1)) as usize);
        }
    }
    Some(ids)
}

/// How people name a space: on a grid always "x,y" (never the id the board gives a cell);
/// elsewhere its id.
pub fn place_name(def: &GameDef, cells: Option<&HashMap<String, usize>>, at: &str) -> String {
    match (&def.board, cells.and_then(|c| c.get(at))) {
        (BoardDef::Grid(g), Some(&i)) => {
            let w = (g.width as usize).max(1);
            format!("{},{}", i % w + 1, i / w + 1)
        }
        _ => at.to_string(),
    }
}

/// What a tile's roads look like as they lie: for each side (N, E, S, W) whether a vehicle may
/// enter by it and whether it may leave by it.
fn sides(def: &GameDef, tile: &str, rot: u8) -> Option<[(bool, bool); 4]> {
    let t = def.tile(tile).and_then(|i| def.tiles.get(i))?;
    let links = t.links_turned(rot);
    let exits = links.iter().fold(0u8, |a, m| a | m);
    let mut out = [(false, false); 4];
    for (s, o) in out.iter_mut().enumerate() {
        *o = (links[s] != 0, exits & (1 << s) != 0);
    }
    Some(out)
}

/// The marks of the legend that the board used, in the order the legend lists them.
#[derive(Default)]
struct Used {
    road: bool,
    arrows: Vec<char>,
    /// Stop tiles: (name, move cost), in order of first appearance.
    stops: Vec<(String, u32)>,
    dead_end: bool,
    no_road: bool,
    empty: bool,
    /// Blockers: (code, name), in order of first appearance.
    closed: Vec<(String, String)>,
    /// Closed cells as people read them ("cone at 3,4").
    closed_cells: Vec<String>,
    /// A road drawn shaded under a blocker.
    closed_road: bool,
    more: bool,
    /// Road tiles on the board: (name, count), in order of first appearance.
    tiles: Vec<(String, usize)>,
}

fn count_in(list: &mut Vec<(String, usize)>, name: &str) {
    match list.iter_mut().find(|(n, _)| n == name) {
        Some(e) => e.1 += 1,
        None => list.push((name.to_string(), 1)),
    }
}

/// Short codes for the blockers of the mod, written in their cells: the last word of the
/// tile's name in small letters ("cone" for "Construction cone"), at most 7 letters, made
/// unique with a number.
fn blocker_codes(def: &GameDef) -> HashMap<String, String> {
    let mut out: HashMap<String, String> = HashMap::new();
    let mut taken: Vec<String> = vec![];
    for t in def.tiles.iter().filter(|t| t.blocks) {
        let word = t.name.split_whitespace().last().unwrap_or(&t.id);
        let mut code: String = word.to_lowercase().chars().take(CW - 2).collect();
        if code.is_empty() {
            code = "x".into();
        }
        let mut k = 2;
        let base = code.clone();
        while taken.contains(&code) {
            code = format!("{}{k}", base.chars().take(CW - 3).collect::<String>());
            k += 1;
        }
        taken.push(code.clone());
        out.insert(t.id.clone(), code);
    }
    out
}

/// A rectangle of characters to draw on.
pub(crate) struct Canvas {
    rows: Vec<Vec<char>>,
}

impl Canvas {
    pub(crate) fn new(w: usize, h: usize) -> Canvas {
        Canvas {
            rows: vec![vec![' '; w]; h],
        }
    }
    pub(crate) fn put(&mut self, x: usize, y: usize, c: char) {
        if let Some(cell) = self.rows.get_mut(y).and_then(|r| r.get_mut(x)) {
            *cell = c;
        }
    }
    pub(crate) fn text(&mut self, x: usize, y: usize, s: &str) {
        for (i, c) in s.chars().enumerate() {
            self.put(x + i, y, c);
        }
    }
    pub(crate) fn lines(&self) -> Vec<String> {
        self.rows
            .iter()
            .map(|r| r.iter().collect::<String>().trim_end().to_string())
            .collect()
    }
}

/// Draws a grid board as `view` shows it, with its legend. `on[i]` are the pieces on cell i;
/// `seat_marks` are the marks of the seats ([`seat_marks`]).
pub fn draw(
    def: &GameDef,
    g: &GridDef,
    tiles: &[CellView],
    on: &[Vec<&PieceView>],
    seat_marks: &[String],
) -> Vec<String> {
    let (w, h) = (g.width as usize, g.height as usize);
    if w == 0 || h == 0 || tiles.len() < w * h {
        return vec![];
    }
    let codes = blocker_codes(def);
    let mut used = Used::default();
    // The sides a vehicle may use: none on a closed cell, whatever lies under the blocker.
    let open = |i: usize| -> [bool; 4] {
        match tiles.get(i) {
            Some((Some((id, r)), None)) => {
                sides(def, id, *r).map_or([false; 4], |s| s.map(|(a, b)| a || b))
            }
            _ => [false; 4],
        }
    };
    // Canvas: column numbers, then per row a frame line and CH cell lines, then a last frame.
    let width = LABEL + w * (CW + 1) + 1;
    let height = 1 + h * (CH + 1) + 1;
    let mut cv = Canvas::new(width, height);
    let left = |x: usize| LABEL + x * (CW + 1) + 1;
    let top = |y: usize| 1 + y * (CH + 1) + 1;
    for x in 0..w {
        let n = (x + 1).to_string();
        cv.text(left(x) + MID_X + 1 - n.chars().count().div_ceil(2), 0, &n);
    }
    // The frame.
    for y in 0..=h {
        let fy = top(y) - 1;
        for x in LABEL..width {
            let c = if (x - LABEL).is_multiple_of(CW + 1) {
                FRAME_X
            } else {
                FRAME_H
            };
            cv.put(x, fy, c);
        }
    }
    for y in 0..h {
        for line in 0..CH {
            for x in 0..=w {
                cv.put(LABEL + x * (CW + 1), top(y) + line, FRAME_V);
            }
        }
        let n = (y + 1).to_string();
        cv.text(LABEL - 1 - n.chars().count(), top(y) + MID_Y, &n);
    }
    for (i, (tile, blocker)) in tiles.iter().enumerate().take(w * h) {
        let (cx, cy) = (i % w, i / w);
        let (x0, y0) = (left(cx), top(cy));
        if let Some((id, rot)) = tile {
            let t = def.tile(id).and_then(|k| def.tiles.get(k));
            count_in(&mut used.tiles, t.map_or(id.as_str(), |t| t.name.as_str()));
            if blocker.is_none() {
                draw_road(&mut cv, &mut used, def, id, *rot, (x0, y0));
            }
        } else if blocker.is_none() {
            used.empty = true;
            cv.put(x0 + MID_X, y0 + MID_Y, EMPTY);
        }
        if let Some((id, _)) = blocker {
            let name = def
                .tile(id)
                .and_then(|k| def.tiles.get(k))
                .map_or(id.clone(), |t| t.name.clone());
            let code = codes.get(id).cloned().unwrap_or_else(|| id.clone());
            if !used.closed.iter().any(|(c, _)| *c == code) {
                used.closed.push((code.clone(), name));
            }
            used.closed_cells
                .push(format!("{code} at {},{}", cx + 1, cy + 1));
            for line in 0..CH {
                for x in 0..CW {
                    cv.put(x0 + x, y0 + line, CLOSED);
                }
            }
            // A road under the blocker is drawn shaded: it is there, but nobody drives on it.
            if let Some((t, rot)) = tile {
                let s = sides(def, t, *rot).unwrap_or_default();
                for (side, &(enter, leave)) in s.iter().enumerate() {
                    if !(enter || leave) {
                        continue;
                    }
                    used.closed_road = true;
                    match Side::from_index(side) {
                        Side::N => cv.put(x0 + MID_X, y0, CLOSED_ROAD),
                        Side::S => cv.put(x0 + MID_X, y0 + CH - 1, CLOSED_ROAD),
                        Side::W => {
                            (0..=MID_X).for_each(|x| cv.put(x0 + x, y0 + MID_Y, CLOSED_ROAD))
                        }
                        Side::E => {
                            (MID_X..CW).for_each(|x| cv.put(x0 + x, y0 + MID_Y, CLOSED_ROAD));
                        }
                    }
                }
            }
            // Its name across the middle, over any road.
            let code = format!(" {} ", code.chars().take(CW - 2).collect::<String>());
            let n = code.chars().count();
            cv.text(x0 + (CW - n).div_ceil(2), y0 + MID_Y, &code);
        }
        // Pieces, in the corners: top left, top right, bottom left, bottom right.
        let here: Vec<String> = on
            .get(i)
            .map(|ps| ps.iter().map(|p| piece_mark(p, seat_marks)).collect())
            .unwrap_or_default();
        let slots = [(0, 0), (MID_X + 1, 0), (0, CH - 1), (MID_X + 1, CH - 1)];
        let shown = if here.len() > slots.len() {
            slots.len() - 1
        } else {
            here.len()
        };
        for (k, m) in here.iter().take(shown).enumerate() {
            let (sx, sy) = slots[k];
            cv.text(x0 + sx, y0 + sy, &slot_text(m));
        }
        if here.len() > shown {
            used.more = true;
            let (sx, sy) = slots[slots.len() - 1];
            cv.text(
                x0 + sx,
                y0 + sy,
                &slot_text(&format!("+{}", here.len() - shown)),
            );
        }
    }
    // Where two neighbours' roads meet, the frame between them is road too.
    for i in 0..w * h {
        let (cx, cy) = (i % w, i / w);
        let here = open(i);
        if cx + 1 < w && here[Side::E.index()] && open(i + 1)[Side::W.index()] {
            cv.put(left(cx) + CW, top(cy) + MID_Y, ROAD_H);
        }
        if cy + 1 < h && here[Side::S.index()] && open(i + w)[Side::N.index()] {
            cv.put(left(cx) + MID_X, top(cy) + CH, ROAD_V);
        }
    }
    let pieces: Vec<&PieceView> = on.iter().flatten().copied().collect();
    let mut out = cv.lines();
    out.extend(legend(&used, &piece_legend(def, &pieces, seat_marks)));
    out
}

/// Draws the roads of an open cell whose top left corner is `at`: heavy strokes to each open
/// side, arrows on one-way sides, and in the middle the junction, a stop sign or a dead end.
fn draw_road(
    cv: &mut Canvas,
    used: &mut Used,
    def: &GameDef,
    id: &str,
    rot: u8,
    at: (usize, usize),
) {
    let (x0, y0) = at;
    let t = def.tile(id).and_then(|k| def.tiles.get(k));
    let s = sides(def, id, rot).unwrap_or_default();
    let mut mask = 0usize;
    for (side, &(enter, leave)) in s.iter().enumerate() {
        if !(enter || leave) {
            continue;
        }
        mask |= 1 << side;
        used.road = true;
        // The way traffic goes on a one-way side, as a compass side.
        let flow = match (enter, leave) {
            (true, false) => Some(Side::from_index(side).opposite()),
            (false, true) => Some(Side::from_index(side)),
            _ => None,
        };
        let arrow = flow.map(|f| match f {
            Side::N => '↑',
            Side::E => '→',
            Side::S => '↓',
            Side::W => '←',
        });
        if let Some(a) = arrow
            && !used.arrows.contains(&a)
        {
            used.arrows.push(a);
        }
        match Side::from_index(side) {
            Side::N => cv.put(x0 + MID_X, y0, arrow.unwrap_or(ROAD_V)),
            Side::S => cv.put(x0 + MID_X, y0 + CH - 1, arrow.unwrap_or(ROAD_V)),
            Side::W => {
                for x in 0..MID_X {
                    cv.put(x0 + x, y0 + MID_Y, ROAD_H);
                }
                if let Some(a) = arrow {
                    cv.put(x0 + MID_X / 2, y0 + MID_Y, a);
                }
            }
            Side::E => {
                for x in MID_X + 1..CW {
                    cv.put(x0 + x, y0 + MID_Y, ROAD_H);
                }
                if let Some(a) = arrow {
                    cv.put(x0 + MID_X + 1 + MID_X / 2, y0 + MID_Y, a);
                }
            }
        }
    }
    let centre = match t {
        Some(t) if t.move_cost > 1 && mask != 0 => {
            if !used.stops.iter().any(|(n, _)| *n == t.name) {
                used.stops.push((t.name.clone(), t.move_cost));
            }
            STOP
        }
        _ if mask.count_ones() == 1 => {
            used.dead_end = true;
            DEAD_END
        }
        _ if mask == 0 => {
            used.no_road = true;
            NO_ROAD
        }
        _ => JUNCTIONS[mask & 15],
    };
    cv.put(x0 + MID_X, y0 + MID_Y, centre);
}

/// A name as it reads inside a sentence: "Taxi" becomes "taxi", "UFO" stays.
fn in_sentence(name: &str) -> String {
    let mut cs = name.chars();
    match (cs.next(), cs.next()) {
        (Some(_), Some(b)) if b.is_uppercase() => name.to_string(),
        (Some(a), _) => a.to_lowercase().chain(name.chars().skip(1)).collect(),
        _ => name.to_string(),
    }
}

/// The legend of the piece marks on the board, built from the pieces there: each seat's mark
/// ("Y  Yellow's taxi"), the marks of pieces of no seat by their kind's initial ("p?  passenger
/// meeple (second letter: its color)"), and "+x" when a piece carries something.
pub(crate) fn piece_legend(
    def: &GameDef,
    pieces: &[&PieceView],
    seat_marks: &[String],
) -> Vec<String> {
    let kind_name = |kind: &str| {
        in_sentence(
            def.piece(kind)
                .and_then(|i| def.pieces.get(i))
                .map_or(kind, |d| d.name.as_str()),
        )
    };
    let push_once = |list: &mut Vec<String>, s: String| {
        if !list.contains(&s) {
            list.push(s);
        }
    };
    // Seats by seat order, each with the kinds of its pieces on the board.
    let mut seats: Vec<(u8, Vec<String>)> = vec![];
    // Pieces of no seat by mark ("p?", "x"), each with the kinds (ids) it stands for.
    let mut others: Vec<(String, bool, Vec<String>)> = vec![];
    let mut carrying = false;
    for p in pieces {
        if let Some(Value::Str(c)) = p.props.get("carrying")
            && !c.is_empty()
        {
            carrying = true;
        }
        let own_color = matches!(p.props.get("color"), Some(Value::Str(c)) if !c.is_empty());
        match p.owner {
            Some(o) if (o as usize) < seat_marks.len() && !own_color => {
                let at = match seats.iter().position(|(s, _)| *s == o) {
                    Some(k) => k,
                    None => {
                        seats.push((o, vec![]));
                        seats.len() - 1
                    }
                };
                push_once(&mut seats[at].1, kind_name(&p.kind));
            }
            _ => {
                let letter: String = initial(&p.kind).to_lowercase().collect();
                let colored = matches!(p.props.get("color"), Some(Value::Str(_)));
                let mark = if colored {
                    format!("{letter}?")
                } else {
                    letter
                };
                let at = match others.iter().position(|(m, _, _)| *m == mark) {
                    Some(k) => k,
                    None => {
                        others.push((mark, colored, vec![]));
                        others.len() - 1
                    }
                };
                push_once(&mut others[at].2, p.kind.clone());
            }
        }
    }
    // In the order of the mod's pieces (its `pieces.toml`), not of the cells.
    let order = |kinds: &[String]| -> usize {
        kinds
            .iter()
            .filter_map(|k| def.piece(k))
            .min()
            .unwrap_or(usize::MAX)
    };
    seats.sort_by_key(|(s, _)| *s);
    others.sort_by_key(|(_, _, ids)| order(ids));
    let names = |ids: &[String]| -> String {
        ids.iter()
            .map(|k| kind_name(k))
            .collect::<Vec<_>>()
            .join(" or ")
    };
    let mut items: Vec<String> = seats
        .iter()
        .map(|(s, kinds)| {
            format!(
                "{}  {}'s {}",
                seat_marks[*s as usize],
                def.seat_name(*s as usize),
                kinds.join(" or ")
            )
        })
        .collect();
    // Colored kinds share one item ("p? d?  passenger, destination (second letter: ...)").
    let colored: Vec<&(String, bool, Vec<String>)> = others.iter().filter(|(_, c, _)| *c).collect();
    if !colored.is_empty() {
        let marks: Vec<&str> = colored.iter().map(|(m, _, _)| m.as_str()).collect();
        // Kinds that differ only by their color ("Red Racer", "Blue Racer", ...) are named
        // once, by the word they share ("racer"), which keeps the line short.
        // A kind alone keeps the rest of its name without its color ("blue Racer": "racer"),
        // as the second letter already says it.
        let color_of = |kind: &str| {
            pieces
                .iter()
                .find(|p| p.kind == kind)
                .and_then(|p| match p.props.get("color") {
                    Some(Value::Str(c)) => Some(c.to_lowercase()),
                    _ => None,
                })
        };
        let names: Vec<String> = colored
            .iter()
            .map(|(_, _, k)| match k.as_slice() {
                [one] => without_color(&kind_name(one), color_of(one).as_deref()),
                _ => shared_last_word(k.iter().map(|k| kind_name(k))).unwrap_or_else(|| names(k)),
            })
            .collect();
        items.push(format!(
            "{}  {} (second letter: its color)",
            marks.join(" "),
            names.join(", ")
        ));
    }
    for (m, _, kinds) in others.iter().filter(|(_, c, _)| !*c) {
        items.push(format!("{m}  {}", names(kinds)));
    }
    if carrying {
        items.push("+x  carrying (initial of what it carries)".into());
    }
    items
}

/// `name` without a first word that is its `color` ("blue Racer", "blue": "racer").
fn without_color(name: &str, color: Option<&str>) -> String {
    match (name.split_once(' '), color) {
        (Some((first, rest)), Some(c)) if first.to_lowercase() == c && !rest.is_empty() => {
            in_sentence(rest)
        }
        _ => name.to_string(),
    }
}

/// The last word of every name, when there are at least two and they all end with the same one
/// (in lower case).
fn shared_last_word(names: impl Iterator<Item = String>) -> Option<String> {
    let mut word: Option<String> = None;
    let mut count = 0;
    for n in names {
        let last = n.rsplit(' ').next()?.to_lowercase();
        if n.split(' ').count() < 2 || word.as_ref().is_some_and(|w| *w != last) {
            return None;
        }
        word = Some(last);
        count += 1;
    }
    word.filter(|_| count >= 2)
}

/// A piece mark as it fits a corner of a cell: one space before it, cut to the slot.
fn slot_text(m: &str) -> String {
    let s = if m.chars().count() < SLOT {
        format!(" {m}")
    } else {
        m.to_string()
    };
    s.chars().take(SLOT).collect()
}

/// The legend: every mark the board used, wrapped to the terminal's usual width, a line for
/// each kind of blocker on the board, the marks of the pieces (`pieces`), then the tiles on
/// the board and the closed cells.
fn legend(u: &Used, pieces: &[String]) -> Vec<String> {
    const HEAD: &str = "Legend: ";
    let mut items: Vec<String> = vec!["cells are named x,y (column, row)".into()];
    if u.road {
        items.push(format!("{ROAD_H}{ROAD_V} road"));
    }
    if !u.arrows.is_empty() {
        let arrows: String = u.arrows.iter().collect();
        items.push(format!("{arrows} one way: drive where the arrow points"));
    }
    match u.stops.as_slice() {
        [] => {}
        [(_, cost)] => items.push(format!("{STOP} stop sign: {cost} moves to drive through")),
        many => items.push(format!(
            "{STOP} stop sign: {}",
            many.iter()
                .map(|(n, c)| format!("{n} takes {c} moves"))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
    if u.dead_end {
        items.push(format!(
            "{DEAD_END} dead end: in and back out the same side"
        ));
    }
    if u.no_road {
        items.push(format!("{NO_ROAD} a tile without roads"));
    }
    if u.empty {
        items.push(format!("{EMPTY} empty cell"));
    }
    if u.closed_road {
        items.push(format!("{CLOSED_ROAD} road under a closed cell"));
    }
    let mut out = wrap(HEAD, &items, "   ");
    let indent = " ".repeat(HEAD.len());
    for (code, name) in &u.closed {
        out.push(format!(
            "{indent}{CLOSED} {code} = {name}: closed, nobody drives in"
        ));
    }
    let mut pieces = pieces.to_vec();
    if u.more {
        pieces.push("+N  N more pieces in the cell".into());
    }
    out.extend(wrap(&indent, &pieces, "   "));
    if !u.tiles.is_empty() {
        let tiles: Vec<String> = u
            .tiles
            .iter()
            .map(|(n, c)| {
                if *c > 1 {
                    format!("{n} ({c})")
                } else {
                    n.clone()
                }
            })
            .collect();
        out.extend(wrap("Tiles on the board: ", &tiles, ", "));
    }
    out.extend(wrap("Closed cells: ", &u.closed_cells, ", "));
    out
}

/// Joins `items` after `head`, starting a new indented line before passing 78 columns.
pub fn wrap(head: &str, items: &[String], sep: &str) -> Vec<String> {
    const WIDTH: usize = 78;
    let indent = " ".repeat(head.chars().count());
    let mut out = vec![];
    let mut line = head.to_string();
    let mut first = true;
    for it in items {
        let len = line.chars().count();
        if !first && len + sep.chars().count() + it.chars().count() > WIDTH {
            out.push(format!("{}{}", line, sep.trim_end()).trim_end().to_string());
            line = indent.clone();
            first = true;
        }
        if !first {
            line.push_str(sep);
        }
        line.push_str(it);
        first = false;
    }
    if !first {
        out.push(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_breaks_before_the_width() {
        let items: Vec<String> = (0..30).map(|i| format!("item{i}")).collect();
        let lines = wrap("Head: ", &items, ", ");
        assert!(lines.len() > 1);
        assert!(lines.iter().all(|l| l.chars().count() <= 78), "{lines:?}");
        assert!(lines[1].starts_with("      item"), "{lines:?}");
        assert_eq!(wrap("H: ", &[], ", "), Vec::<String>::new());
    }

    #[test]
    fn kinds_that_differ_by_color_share_one_name() {
        let names = |v: &[&str]| shared_last_word(v.iter().map(|s| s.to_string()));
        assert_eq!(names(&["red Racer", "blue Racer"]), Some("racer".into()));
        assert_eq!(names(&["red Racer"]), None);
        assert_eq!(names(&["red Racer", "blue Cab"]), None);
        assert_eq!(names(&["Racer", "Racer"]), None);
    }

    #[test]
    fn a_kind_alone_is_named_without_its_color() {
        assert_eq!(without_color("blue Racer", Some("blue")), "racer");
        assert_eq!(
            without_color("passenger meeple", Some("red")),
            "passenger meeple"
        );
        assert_eq!(without_color("blue", Some("blue")), "blue");
        assert_eq!(without_color("blue Racer", None), "blue Racer");
    }

    #[test]
    fn names_read_inside_a_sentence() {
        assert_eq!(in_sentence("Taxi"), "taxi");
        assert_eq!(in_sentence("Passenger meeple"), "passenger meeple");
        assert_eq!(in_sentence("UFO"), "UFO");
        assert_eq!(in_sentence(""), "");
    }

    #[test]
    fn slots_fit_their_corner() {
        assert_eq!(slot_text("Y"), " Y");
        assert_eq!(slot_text("Y+g"), " Y+g");
        assert_eq!(slot_text("py+gx"), "py+g");
    }
}
