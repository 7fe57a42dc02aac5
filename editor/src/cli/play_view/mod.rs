//! `farebox play`: the game as one seat sees it, as lines of text.
//!
//! Built only from [`View`] (the seat's view), so nothing hidden from the seat is shown:
//! round and whose turn, counters, public variables, zones (cards in a few words, by
//! [`crate::card_brief`]), the board (see [`crate::cli::play_board`]) and pieces. Beside the view,
//! [`Known`] keeps what any player at the table knows anyway: the names of the board's
//! spaces, and which face-down piles have held cards (so one that ran out is shown empty
//! rather than vanishing).
//!
//! The screen is made of blocks (the heading, the counters, each variable, each zone, the
//! board, each line of pieces), so that after a person's action [`changes_screen`] can show
//! only the blocks that changed, and a turn's [`screen`] can fold the ones that do not fit in
//! a terminal of 100 x 40.

use std::collections::{HashMap, HashSet};

use farebox::board::Board;
use farebox::content::GameDef;
use farebox::content::def::{BoardDef, Scope, Visibility};
use farebox::game::{Game, PieceView, View, ZoneView};
use farebox::value::Value;

use crate::card_brief;
use crate::cli::play_board::{draw, grid_cells, piece_mark, place_name, seat_marks, wrap};
use crate::cli::play_board_map::{CODES_HEAD, draw_map};
use crate::common::plural;

mod fit;

use fit::fit;
pub use fit::{COLS, ROWS, Screen, fold_wide};

/// What everyone at the table knows besides one seat's view: the names of the board's spaces,
/// and the zones that have held cards. Updated after every action ([`Known::update`]).
#[derive(Debug, Default, Clone)]
pub struct Known {
    /// Space id -> the name people read it by (boards other than grids; a grid cell is "x,y").
    spaces: HashMap<String, String>,
    /// The board as it lies on the table (boards other than grids): where the spaces are, the
    /// roads between them, the track's laid cards. Public to everyone.
    board: Option<Board>,
    /// Zones, by id and owner, that have held a card at some time since the game began: an
    /// empty face-down pile among them has run out, and is shown so.
    had_cards: HashSet<(String, Option<u8>)>,
}

impl Known {
    pub fn new(game: &Game) -> Known {
        let mut k = Known::default();
        k.update(game);
        k
    }

    /// Reads the board's space names (a track grows) and notes the zones holding cards now.
    /// How many cards a zone holds is public, so nothing here is hidden from anyone.
    pub fn update(&mut self, game: &Game) {
        let def = game.def();
        let state = game.state();
        if !matches!(def.board, BoardDef::Grid(_)) {
            self.set_board(&state.board);
        }
        for z in state.zones.iter().filter(|z| !z.cards.is_empty()) {
            if let Some(zd) = def.zones.get(z.def as usize) {
                self.had_cards.insert((zd.id.clone(), z.owner));
            }
        }
    }

    /// [`Known::update`] for a seat with no game of its own, only what a server sends it
    /// (`farebox play --join`): the board as it lies on the table, when the server sent one,
    /// and the seat's view (how many cards each zone holds is public).
    pub fn update_from(&mut self, def: &GameDef, board: Option<&Board>, view: &View) {
        if let Some(b) = board.filter(|_| !matches!(def.board, BoardDef::Grid(_))) {
            self.set_board(b);
        }
        for z in view.zones.iter().filter(|z| z.count > 0) {
            self.had_cards.insert((z.id.clone(), z.owner));
        }
    }

    /// Takes the board as it lies (not a grid) and its spaces' names.
    fn set_board(&mut self, board: &Board) {
        let spaces = &board.graph.spaces;
        if spaces.len() != self.spaces.len() {
            let list: Vec<(&str, &str)> = spaces
                .iter()
                .map(|s| (s.id.as_str(), s.name.as_str()))
                .collect();
            self.spaces = space_names(&list);
        }
        self.board = Some(board.clone());
    }

    /// The name people read a space by: "x,y" on a grid, else its name (its id if unnamed).
    fn place(&self, def: &GameDef, cells: Option<&HashMap<String, usize>>, at: &str) -> String {
        match self.spaces.get(at) {
            Some(n) if cells.is_none() => n.clone(),
            _ => place_name(def, cells, at),
        }
    }
}

/// Space names as people read them: a name several spaces share is told apart by the number
/// its id ends with ("Fernway 2" for `fernway-2`, as rules tend to write it), or else by its
/// place among them; a space without a name is called by its id.
fn space_names(spaces: &[(&str, &str)]) -> HashMap<String, String> {
    let mut count: HashMap<&str, usize> = HashMap::new();
    for (_, name) in spaces {
        *count.entry(name).or_default() += 1;
    }
    let mut seen: HashMap<&str, usize> = HashMap::new();
    spaces
        .iter()
        .map(|&(id, name)| {
            let k = seen.entry(name).or_default();
            *k += 1;
            let shown = if name.trim().is_empty() {
                id.to_string()
            } else if count.get(name).copied().unwrap_or(0) > 1 {
                let digits: String = id
                    .chars()
                    .rev()
                    .take_while(char::is_ascii_digit)
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect();
                let tail = id.len() - digits.len();
                let numbered =
                    !digits.is_empty() && id[..tail].ends_with(|c: char| "-_ ".contains(c));
                format!("{name} {}", if numbered { digits } else { k.to_string() })
            } else {
                name.to_string()
            };
            (id.to_string(), shown)
        })
        .collect()
}

/// Which part of the screen a block is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    Head,
    Counters,
    Var,
    Zone,
    Board,
    /// The list of the map's codes (folded away on a turn's screen: [`screen`]).
    Codes,
    /// A board's legend, apart from the board only on a turn's screen ([`fit`]).
    Legend,
    PiecesHead,
    Piece,
}

/// A few lines of the screen that belong together (one zone, one line of pieces).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Block {
    part: Part,
    lines: Vec<String>,
}

/// The round being played: the game's own round counter (a global counter named `round`)
/// when it has one and it has started, else the seat turns so far shared out among the seats
/// (turn 1 to n is round 1 with n seats).
pub fn round(def: &GameDef, view: &View) -> u32 {
    let own = view.counters.iter().find_map(|(id, values)| {
        let cd = def.counters.iter().find(|c| &c.id == id)?;
        let named = cd.id.eq_ignore_ascii_case("round") || cd.name.eq_ignore_ascii_case("round");
        (named && cd.scope == Scope::Global)
            .then(|| values.first().copied())
            .flatten()
            .filter(|&v| v > 0)
    });
    match own {
        Some(v) => u32::try_from(v).unwrap_or(u32::MAX),
        None => view.turn.saturating_sub(1) / u32::from(view.seats.max(1)) + 1,
    }
}

/// The heading: the round and whose turn it is, and who is looking ("== Round 3 · Fox's turn
/// (you are Fox) ==").
pub fn heading(def: &GameDef, view: &View) -> String {
    let you = view.seat.map_or_else(String::new, |s| {
        format!(" (you are {})", def.seat_name(s as usize))
    });
    let round = round(def, view);
    // Once the game is over nobody is to act.
    if view.result.is_some() {
        format!("== Game over in round {round}{you} ==")
    } else {
        format!(
            "== Round {round} · {}'s turn{you} ==",
            def.seat_name(view.active as usize)
        )
    }
}

/// The lines that show `view`.
pub fn lines(def: &GameDef, view: &View, known: &Known) -> Vec<String> {
    let mut out = vec![String::new()];
    out.extend(blocks(def, view, known).into_iter().flat_map(|b| b.lines));
    out
}

/// The whole screen of a turn (the game as `view` shows it), fitted: see [`fit`].
pub fn screen(
    def: &GameDef,
    view: &View,
    known: &Known,
    news: &[String],
    menu: &[String],
) -> Screen {
    fit(blocks(def, view, known), news, menu, false)
}

/// The screen after a person's own action in the same turn: what happened, then what changed
/// (see [`changed_blocks`]) under a "Changed:" line, fitted like a whole screen.
pub fn changes_screen(
    def: &GameDef,
    before: (&View, &Known),
    after: (&View, &Known),
    news: &[String],
    menu: &[String],
) -> Screen {
    let mut body = changed_blocks(def, before, after);
    if body.iter().any(|b| b.part != Part::Codes) {
        body.insert(
            0,
            Block {
                part: Part::Head,
                lines: vec!["Changed:".into()],
            },
        );
    }
    fit(body, news, menu, true)
}

/// What changed between two views of the same seat (each with what the table knew then), as
/// the blocks that differ:
/// variables, zones and pieces as they are now, the counters when another seat's changed (the
/// seat's own and the global ones are on the status line), the board when a tile or blocker
/// changed (a piece that moved has its own line). Empty when nothing shown changed.
fn changed_blocks(def: &GameDef, before: (&View, &Known), after: (&View, &Known)) -> Vec<Block> {
    let (before, known_before) = before;
    let (after, known) = after;
    // The board's lines as drawn without pieces.
    let bare = |view: &View, known: &Known| -> Vec<String> {
        let mut empty = view.clone();
        empty.pieces.clear();
        blocks(def, &empty, known)
            .into_iter()
            .filter(|b| b.part == Part::Board)
            .flat_map(|b| b.lines)
            .collect()
    };
    let old = blocks(def, before, known_before);
    let new = blocks(def, after, known);
    let others_counters = def.counters.iter().any(|cd| {
        cd.scope == Scope::Seat && {
            let values = |v: &View| {
                v.counters
                    .iter()
                    .find(|(id, _)| *id == cd.id)
                    .map(|(_, vs)| vs.clone())
                    .unwrap_or_default()
            };
            let (a, b) = (values(before), values(after));
            (0..a.len().max(b.len()))
                .filter(|&i| Some(i as u8) != after.seat)
                .any(|i| a.get(i) != b.get(i))
        }
    });
    let mut out = vec![];
    for b in new {
        let show = match b.part {
            Part::Head | Part::PiecesHead | Part::Codes | Part::Legend => false,
            Part::Counters => others_counters,
            // A track grows without a tile changing: the board is shown again when it
            // looks different without its pieces (a newly laid card at once; a piece that
            // moved has its own line).
            Part::Board => {
                before.tiles != after.tiles || bare(before, known_before) != bare(after, known)
            }
            Part::Var | Part::Zone | Part::Piece => !old.contains(&b),
        };
        if show {
            out.push(b);
        }
    }
    out
}

fn blocks(def: &GameDef, view: &View, known: &Known) -> Vec<Block> {
    let block = |part, lines| Block { part, lines };
    let mut out = vec![block(Part::Head, vec![heading(def, view)])];
    // Counters side by side, as many to a line as fit.
    let counters = counters(def, view);
    out.push(block(Part::Counters, wrap("  ", &counters, "   ")));
    // Names starting with `_` are the rules' bookkeeping: in the view, but not worth showing.
    for (k, v) in view.vars.iter().filter(|(k, _)| !k.starts_with('_')) {
        out.push(block(Part::Var, vec![format!("  {k} = {v}")]));
    }
    for z in zones(def, view, known) {
        out.push(block(Part::Zone, z));
    }
    let cells = grid_cells(def);
    let marks = seat_marks(def, view.seats);
    if let (BoardDef::Grid(g), Some(tiles), Some(ids)) = (&def.board, &view.tiles, &cells) {
        let mut on: Vec<Vec<&PieceView>> = vec![vec![]; tiles.len()];
        for p in &view.pieces {
            if let Some(here) =
                p.at.as_ref()
                    .and_then(|a| ids.get(a))
                    .and_then(|i| on.get_mut(*i))
            {
                here.push(p);
            }
        }
        out.push(block(Part::Board, draw(def, g, tiles, &on, &marks)));
    } else if let Some(board) = &known.board {
        let mut map = draw_map(def, board, &known.spaces, &view.pieces, &marks);
        let codes = map
            .iter()
            .position(|l| l == CODES_HEAD)
            .map_or(vec![], |at| map.split_off(at));
        if !map.is_empty() {
            out.push(block(Part::Board, map));
        }
        if !codes.is_empty() {
            out.push(block(Part::Codes, codes));
        }
    }
    let pieces = pieces(def, view, cells.as_ref(), &marks, known);
    if let Some((head, rest)) = pieces.split_first() {
        out.push(block(Part::PiecesHead, vec![head.clone()]));
        out.extend(rest.iter().map(|l| block(Part::Piece, vec![l.clone()])));
    }
    out
}

/// The counters that matter to the seat in one line, for a menu level shown without the rest
/// of the screen: the seat's own counters after its name, then the global ones ("Yellow: Gas
/// 3, Stars 4 · Actions left this turn: 2"). None when there is nothing to show.
pub fn status(def: &GameDef, view: &View) -> Option<String> {
    let mut mine = vec![];
    let mut global = vec![];
    for (id, values) in &view.counters {
        let cd = def.counters.iter().find(|c| &c.id == id);
        let name = cd.map_or(id.as_str(), |c| c.name.as_str());
        if cd.is_some_and(|c| c.scope == Scope::Seat) {
            if let Some(v) = view.seat.and_then(|s| values.get(s as usize)) {
                mine.push(format!("{name} {v}"));
            }
        } else {
            let vs: Vec<String> = values.iter().map(|v| v.to_string()).collect();
            global.push(format!("{name}: {}", vs.join(", ")));
        }
    }
    let mut parts = vec![];
    if let Some(s) = view.seat.filter(|_| !mine.is_empty()) {
        parts.push(format!(
            "{}: {}",
            def.seat_name(s as usize),
            mine.join(", ")
        ));
    }
    parts.extend(global);
    (!parts.is_empty()).then(|| parts.join(" · "))
}

/// Counters: a seat counter by seat name ("Gas: Yellow 12, Red 9"), a global one by its value.
fn counters(def: &GameDef, view: &View) -> Vec<String> {
    view.counters
        .iter()
        .map(|(id, values)| {
            let cd = def.counters.iter().find(|c| &c.id == id);
            let name = cd.map_or(id.as_str(), |c| c.name.as_str());
            let text = if cd.is_some_and(|c| c.scope == Scope::Seat) {
                values
                    .iter()
                    .enumerate()
                    .map(|(i, v)| format!("{} {v}", def.seat_name(i)))
                    .collect::<Vec<_>>()
                    .join(", ")
            } else {
                values
                    .iter()
                    .map(|v| v.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            format!("{name}: {text}")
        })
        .collect()
}

/// What a seat knows of one zone, as items of a list: its cards in a few words when it may
/// see them all (identical ones counted), else how many (and the top card of a `top` zone).
/// An empty zone is "none" when the seat may look into it; a face-down one that has held
/// cards is "empty" (a pile that ran out), or "0 cards" for another seat's; None for a
/// face-down zone that never held a card (nothing to tell).
fn contents(
    def: &GameDef,
    deck: Option<usize>,
    z: &ZoneView,
    can_see: bool,
    had: bool,
) -> Option<Vec<String>> {
    let count = format!("{} {}", z.count, plural(z.count, "card"));
    if z.count == 0 {
        return if can_see {
            Some(vec!["none".into()])
        } else if z.owner.is_some() {
            had.then(|| vec![count])
        } else {
            had.then(|| vec!["empty".into()])
        };
    }
    let briefs = |ids: &[String]| -> Vec<String> {
        card_brief::cards_in(def, deck, ids)
            .iter()
            .map(card_brief::Group::text)
            .collect()
    };
    Some(if z.cards.len() == z.count {
        briefs(&z.cards)
    } else if z.cards.is_empty() {
        vec![count]
    } else {
        vec![format!("{count}, top: {}", briefs(&z.cards).join("; "))]
    })
}

/// The zones a seat needs, by name, each as the lines of one block: its own per-seat zones
/// with their cards, the other seats' (their cards if public, else how many), shared zones
/// (their cards if public, else how many). Cards are separated by "; " (a card's details use
/// commas). Per-seat zones of several seats share a line when each shows one item and it
/// fits, else each seat gets a line of its own under the zone's name. Face-down zones that
/// never held a card, and zones the mod marks `shown = false`, are left out.
fn zones(def: &GameDef, view: &View, known: &Known) -> Vec<Vec<String>> {
    const WIDTH: usize = 78;
    let mut out = vec![];
    for zd in def.zones.iter().filter(|z| z.shown) {
        let mut others: Vec<(String, Vec<String>)> = vec![];
        let public = zd.visibility == Visibility::Public;
        for z in view.zones.iter().filter(|z| z.id == zd.id) {
            let mine = z.owner.is_some() && z.owner == view.seat;
            let can_see = match zd.visibility {
                Visibility::Public | Visibility::Top => true,
                Visibility::Owner => mine,
                Visibility::Hidden => false,
            };
            let had = known.had_cards.contains(&(z.id.clone(), z.owner));
            let Some(c) = contents(def, zd.deck, z, can_see, had) else {
                continue;
            };
            match z.owner {
                None => out.push(wrap(&format!("  {}: ", zd.name), &c, "; ")),
                // What everyone sees goes together, the seat's own part first.
                Some(o) if public => {
                    let who = def.seat_name(o as usize);
                    let who = if mine { format!("{who} (you)") } else { who };
                    others.insert(if mine { 0 } else { others.len() }, (who, c));
                }
                Some(_) if mine => out.push(wrap(&format!("  {} (yours): ", zd.name), &c, "; ")),
                Some(o) => others.push((def.seat_name(o as usize), c)),
            }
        }
        let head = match others.as_slice() {
            [] => continue,
            _ if public => format!("  {}: ", zd.name),
            [(seat, _)] => format!("  {} of {seat}: ", zd.name),
            _ => format!("  {} of others: ", zd.name),
        };
        // A single seat (not a public zone): "Hand of Red: 5 cards".
        if let ([(_, c)], false) = (others.as_slice(), public) {
            out.push(wrap(&head, c, "; "));
            continue;
        }
        let one_line = format!(
            "{head}{}",
            others
                .iter()
                .map(|(s, c)| format!("{s}: {}", c.join("; ")))
                .collect::<Vec<_>>()
                .join("; ")
        );
        if others.iter().all(|(_, c)| c.len() <= 1) && one_line.chars().count() <= WIDTH {
            out.push(vec![one_line]);
        } else {
            let mut lines = vec![head.trim_end().to_string()];
            for (s, c) in &others {
                lines.extend(wrap(&format!("    {s}: "), c, "; "));
            }
            out.push(lines);
        }
    }
    out
}

/// The pieces that matter: on the board, or a seat's. On a grid each line starts with the
/// piece's mark on the board and places are "x,y"; elsewhere a place is the space's name.
/// Properties the rules keep for themselves (`_` names) are left out, and so is one that
/// only says where the piece is (a text starting with the space's name, which then stands
/// for the place: "at Green Depot, front in Midtown"). The same piece in the same place is
/// counted, not repeated. The first line is a heading.
fn pieces(
    def: &GameDef,
    view: &View,
    cells: Option<&HashMap<String, usize>>,
    marks: &[String],
    known: &Known,
) -> Vec<String> {
    let grid = cells.is_some();
    let mut groups: Vec<(String, String, usize)> = Vec::new();
    for p in view
        .pieces
        .iter()
        .filter(|p| p.at.is_some() || p.owner.is_some())
    {
        let name = def
            .piece(&p.kind)
            .and_then(|i| def.pieces.get(i))
            .map_or(p.kind.as_str(), |d| d.name.as_str());
        let owner = p.owner.map_or_else(String::new, |o| {
            format!(" of {}", def.seat_name(o as usize))
        });
        let place = p.at.as_ref().map(|a| known.place(def, cells, a));
        // A property that names the place ("on" = "Green Depot, front in Midtown").
        let says_where = |v: &Value| match (v, &place) {
            (Value::Str(s), Some(n)) if !grid && !n.is_empty() => s.starts_with(n.as_str()),
            _ => false,
        };
        let where_prop = p
            .props
            .iter()
            .find(|(k, v)| !k.starts_with('_') && says_where(v))
            .map(|(k, _)| k.clone());
        let at = match (&place, where_prop.as_ref().and_then(|k| p.props.get(k))) {
            (_, Some(Value::Str(s))) => format!("at {s}"),
            (Some(n), _) => format!("at {n}"),
            (None, _) => "off the board".to_string(),
        };
        let props: Vec<String> = p
            .props
            .iter()
            .filter(|(k, _)| !k.starts_with('_') && Some(*k) != where_prop.as_ref())
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        let props = if props.is_empty() {
            String::new()
        } else {
            format!(" ({})", props.join(", "))
        };
        let mark = if grid && p.at.is_some() {
            piece_mark(p, marks)
        } else {
            String::new()
        };
        let key = format!("{name}{owner} {at}{props}");
        match groups.iter_mut().find(|(m, k, _)| *k == key && *m == mark) {
            Some(g) => g.2 += 1,
            None => groups.push((mark, key, 1)),
        }
    }
    if groups.is_empty() {
        return vec![];
    }
    let width = groups
        .iter()
        .map(|(m, _, _)| m.chars().count())
        .max()
        .unwrap_or(0);
    let mut out = vec![if grid {
        "Pieces (mark on the board, piece, place):".to_string()
    } else {
        "Pieces:".to_string()
    }];
    for (mark, key, c) in groups {
        let count = if c > 1 {
            format!("{c} x ")
        } else {
            String::new()
        };
        let mark = if width > 0 {
            format!("{mark:<width$}  ")
        } else {
            String::new()
        };
        out.push(format!("  {mark}{count}{key}"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_names_are_told_apart_by_their_ids_number_or_their_place() {
        let names = space_names(&[
            ("fernway-1", "Fernway"),
            ("fernway-2", "Fernway"),
            ("mill", "Mill"),
            ("a", "Lane"),
            ("b", "Lane"),
            ("x9", ""),
        ]);
        assert_eq!(names["fernway-2"], "Fernway 2");
        assert_eq!(names["mill"], "Mill");
        assert_eq!(names["b"], "Lane 2");
        assert_eq!(names["x9"], "x9");
    }
}
