//! `farebox play`: the game as one seat sees it, as lines of text.
//!
//! Built only from [`View`] (the seat's view), so nothing hidden from the seat is shown:
//! turn, counters, public variables, zones, the board (see [`crate::play_board`]) and pieces.

use farebox::content::GameDef;
use farebox::content::def::{BoardDef, Scope, Visibility};
use farebox::game::{PieceView, View, ZoneView};

use crate::common::plural;
use crate::play_board::{draw, grid_cells, piece_mark, place_name, seat_marks, wrap};

/// The lines that show `view`.
pub fn lines(def: &GameDef, view: &View) -> Vec<String> {
    let mut out = vec![String::new()];
    let you = view.seat.map_or_else(String::new, |s| {
        format!(" (you are {})", def.seat_name(s as usize))
    });
    // Once the game is over nobody is to act.
    if view.result.is_some() {
        out.push(format!("== Game over after turn {}{you} ==", view.turn));
    } else {
        out.push(format!(
            "== Turn {}: {} to act{you} ==",
            view.turn,
            def.seat_name(view.active as usize)
        ));
    }
    // Counters side by side, as many to a line as fit.
    let counters = counters(def, view);
    out.extend(wrap("  ", &counters, "   "));
    // Names starting with `_` are the rules' bookkeeping: in the view, but not worth showing.
    for (k, v) in view.vars.iter().filter(|(k, _)| !k.starts_with('_')) {
        out.push(format!("  {k} = {v}"));
    }
    for z in zones(def, view) {
        out.extend(wrap_line(&z));
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
        out.extend(draw(def, g, tiles, &on, &marks));
    }
    out.extend(pieces(def, view, cells.as_ref(), &marks));
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

/// A long line broken at ", " before 78 columns; the rest indented under its text.
fn wrap_line(line: &str) -> Vec<String> {
    let head_len = line.find(": ").map_or(0, |i| i + 2);
    let (head, rest) = line.split_at(head_len);
    let items: Vec<String> = rest.split(", ").map(str::to_string).collect();
    wrap(head, &items, ", ")
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

/// What a seat knows of one zone: its cards when it may see them all, else how many (and the
/// top card of a `top` zone). None for an empty zone the seat cannot see into: nothing to
/// tell.
fn contents(def: &GameDef, z: &ZoneView, can_see: bool) -> Option<String> {
    let count = format!("{} {}", z.count, plural(z.count, "card"));
    if z.count == 0 {
        return can_see.then(|| "none".to_string());
    }
    Some(if z.cards.len() == z.count {
        card_names(def, &z.cards)
    } else if z.cards.is_empty() {
        count
    } else {
        format!("{count}, top: {}", card_names(def, &z.cards))
    })
}

/// The zones a seat needs, by name: its own per-seat zones with their cards, the other seats'
/// on one line per zone (their cards if public, else how many), shared zones as a count (or
/// their cards if public). Empty zones the seat cannot see into, and zones the mod marks
/// `shown = false`, are left out.
fn zones(def: &GameDef, view: &View) -> Vec<String> {
    let mut out = vec![];
    for zd in def.zones.iter().filter(|z| z.shown) {
        let mut others = vec![];
        for z in view.zones.iter().filter(|z| z.id == zd.id) {
            let mine = z.owner.is_some() && z.owner == view.seat;
            let can_see = match zd.visibility {
                Visibility::Public | Visibility::Top => true,
                Visibility::Owner => mine,
                Visibility::Hidden => false,
            };
            let Some(c) = contents(def, z, can_see) else {
                continue;
            };
            match z.owner {
                None => out.push(format!("  {}: {c}", zd.name)),
                // What everyone sees goes on one line, the seat's own part first.
                Some(o) if zd.visibility == Visibility::Public => {
                    let who = def.seat_name(o as usize);
                    let who = if mine { format!("{who} (you)") } else { who };
                    others.insert(if mine { 0 } else { others.len() }, (who, c));
                }
                Some(_) if mine => out.push(format!("  {} (yours): {c}", zd.name)),
                Some(o) => others.push((def.seat_name(o as usize), c)),
            }
        }
        let each = || -> Vec<String> { others.iter().map(|(s, c)| format!("{s}: {c}")).collect() };
        match others.as_slice() {
            [] => {}
            _ if zd.visibility == Visibility::Public => {
                out.push(format!("  {}: {}", zd.name, each().join("; ")));
            }
            [(seat, c)] => out.push(format!("  {} of {seat}: {c}", zd.name)),
            _ => out.push(format!("  {} of others: {}", zd.name, each().join("; "))),
        }
    }
    out
}

/// Cards as people know them: by name, in the order each first appears, copies counted
/// ("2 x Straightaway").
pub fn card_names(def: &GameDef, ids: &[String]) -> String {
    let name = |id: &str| {
        def.decks
            .iter()
            .find_map(|d| d.card(id).and_then(|i| d.cards.get(i)))
            .map_or_else(|| id.to_string(), |c| c.name.clone())
    };
    let mut out: Vec<(String, usize)> = Vec::new();
    for id in ids {
        let n = name(id);
        match out.iter_mut().find(|(seen, _)| *seen == n) {
            Some((_, count)) => *count += 1,
            None => out.push((n, 1)),
        }
    }
    out.into_iter()
        .map(|(n, c)| if c > 1 { format!("{c} x {n}") } else { n })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The pieces that matter: on the board, or a seat's. On a grid each line starts with the
/// piece's mark on the board and places are "x,y"; properties the rules keep for themselves
/// (`_` names) are left out. The same piece in the same place is counted, not repeated.
fn pieces(
    def: &GameDef,
    view: &View,
    cells: Option<&std::collections::HashMap<String, usize>>,
    marks: &[String],
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
        let at = p.at.as_ref().map_or("off the board".to_string(), |a| {
            format!("at {}", place_name(def, cells, a))
        });
        let props: Vec<String> = p
            .props
            .iter()
            .filter(|(k, _)| !k.starts_with('_'))
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
