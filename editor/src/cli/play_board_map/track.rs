//! Track boards, drawn as a strip of the laid cards in order, wrapped to the width.

use farebox::board::Board;
use farebox::content::GameDef;
use farebox::content::def::{BoardDef, TrackRole};
use farebox::game::PieceView;

use super::marks::MapMarks;
use super::{MAP_W, pieces_by_space};
use crate::cli::play_board::{Canvas, piece_legend, wrap};

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
// One piece: one pass over a character grid, card by card in track order, bands wrapping at
// the width; each card's cells are placed against those its predecessors took.
pub(super) fn draw_track(
    def: &GameDef,
    board: &Board,
    pieces: &[PieceView],
    marks: &[String],
) -> Vec<String> {
    let BoardDef::Track(td) = &def.board else {
        return vec![];
    };
    let Some(track) = &board.track else {
        return vec![];
    };
    let g = &board.graph;
    let on = pieces_by_space(pieces);
    let codes = MapMarks::new(def, pieces, marks);
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
                        let ms: Vec<String> = ps.iter().map(|p| codes.mark(p)).collect();
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
    let mut items = piece_legend(def, &on_board, marks);
    items.extend(codes.legend(&on_board));
    out.extend(wrap("        ", &items, "   "));
    out.extend(wrap("Cards: ", &names, ", "));
    if track.laid.is_empty() {
        out.push("No card is laid yet.".into());
    }
    out
}
