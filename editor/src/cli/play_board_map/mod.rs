//! `farebox play`: graph, sections and track boards drawn in the terminal.
//!
//! A graph board (Critter Cab) and a sections city (Taxi Derby) are drawn as a map: every
//! space at its coordinates scaled to a canvas of at most [`MAP_W`] columns, written as a short
//! code made from its name ("HL" for Hootwood Lookout, "BW2" for Bramble Way 2), with the
//! pieces on it in brackets after the code ("HL[F]"), the marks [`piece_mark`](crate::cli::play_board::piece_mark) gives on a grid.
//! Roads are line characters between the spaces; edges tagged `river` are drawn `≈` and edges
//! tagged `flight` (or any other tag) with dots, so the taxis that may use them are told apart.
//! On a sections board only the straight edges are drawn (a street runs through its
//! intersections; turning there is always allowed), and each section's name is written over
//! its corner. Above the map, a list gives every code with the name the menu uses; under it, a
//! legend explains the marks (kept next to the map, which so stays in sight above the menu).
//! The map is drawn in `graph.rs`, its codes made in `codes.rs`. Pieces of no seat whose
//! marks would be alike (the Blue and the Black Racer, both "cb") are told apart by
//! `marks.rs` ("ck" for the black one), and the legend says so.
//!
//! A track board (Dicey Curves) is drawn as a strip of its laid cards in order, wrapped to the
//! width: each card is a block headed by its number and turn, its lanes as lines (left lane on
//! top, lettered L, M, R as the rules name them), its rows of spaces from entry to exit, and on
//! its exit edge the gate of each lane with the size of its dice combo. The finish's exit is
//! checkered. The legend names every card by number. The strip is drawn in `track.rs`.
//!
//! The geometry comes from the board as it lies on the table (public to everyone, kept by
//! `play_view::Known`); the pieces only from the seat's view.

mod codes;
mod graph;
mod marks;
mod track;

use std::collections::HashMap;

use farebox::board::Board;
use farebox::content::GameDef;
use farebox::content::def::BoardDef;
use farebox::game::PieceView;

pub use codes::space_codes;
use graph::draw_spaces;
use track::draw_track;

/// Widest a map may be: the terminal's 100 columns less a margin.
pub const MAP_W: usize = 96;
/// The line that heads the list of the spaces' codes, last in a map's lines.
pub const CODES_HEAD: &str =
    "Spaces, by their codes on the map (a number closing a code counts the spaces of one name):";

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
/// that pieces told apart only by their kind's color get marks of their own ("cr" the red
/// car, "cb" the blue one) rather than all being "c", or all their seat's mark when a seat
/// drives two. The kind's properties are public (the mod's pieces file).
fn with_kind_color(def: &GameDef, pieces: &[PieceView]) -> Vec<PieceView> {
    pieces
        .iter()
        .map(|p| {
            let mut p = p.clone();
            if !p.props.contains_key("color")
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::play_board::seat_marks;
    use crate::common::{Io, load_for_play, setup};
    use farebox::game::Game;

    /// A bundled game of two seats, just set up.
    fn game(id: &str, seed: u64) -> Game {
        game_of(id, 2, seed)
    }

    /// A bundled game of `seats` seats, just set up.
    fn game_of(id: &str, seats: u8, seed: u64) -> Game {
        let (mut stdin, mut out, mut err) = (&b""[..], Vec::new(), Vec::new());
        let mut io = Io {
            stdin: &mut stdin,
            out: &mut out,
            err: &mut err,
        };
        let def = load_for_play(id, &mut io).expect("bundled mod");
        let su = setup(&def, seats, seed, &[]).expect("setup");
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
    fn every_piece_on_a_four_seat_dicey_board_has_a_code_of_its_own() {
        let mut g = game_of("dicey-curves", 4, 7);
        // Line the cars up on the grid: the first legal action until all eight stand on it.
        let on_board = |g: &Game| {
            g.view(Some(0))
                .pieces
                .iter()
                .filter(|p| p.at.is_some() && p.kind.starts_with("car-"))
                .count()
        };
        let mut steps = 0;
        while on_board(&g) < 8 {
            let a = g.legal_actions().expect("actions")[0].clone();
            g.apply_legal(&a).expect("apply");
            steps += 1;
            assert!(steps < 200, "the cars never all stood on the track");
        }
        let def = g.def().clone();
        let marks = seat_marks(&def, 4);
        let view = g.view(Some(0));
        let pieces = with_kind_color(&def, &view.pieces);
        let placed: Vec<&PieceView> = pieces.iter().filter(|p| p.at.is_some()).collect();
        // Each kind of piece on the board has its own code, and no two kinds share one.
        let codes = marks::MapMarks::new(&def, &pieces, &marks);
        let mut by_code: HashMap<String, String> = HashMap::new();
        for p in &placed {
            let code = codes.mark(p);
            if let Some(other) = by_code.insert(code.clone(), p.kind.clone()) {
                assert_eq!(other, p.kind, "{other} and {} are both `{code}`", p.kind);
            }
        }
        assert_eq!(by_code.len(), 8, "{by_code:?}");
        // And so the strip drawn shows eight different car codes, the legend explaining any
        // that is not kind-and-color initials.
        let lines = draw_map(&def, &g.state().board, &names(&g), &view.pieces, &marks);
        let strip: Vec<&String> = lines
            .iter()
            .take_while(|l| !l.starts_with("Legend"))
            .collect();
        let shown: std::collections::BTreeSet<String> = strip
            .iter()
            .flat_map(|l| l.split(|c: char| !c.is_ascii_alphanumeric()))
            .filter(|w| w.len() == 2 && w.starts_with('c'))
            .map(str::to_string)
            .collect();
        assert_eq!(shown.len(), 8, "{shown:?}\n{lines:#?}");
        assert!(
            lines
                .iter()
                .any(|l| l.contains("ck  Black Racer (black: cb is taken)")),
            "{lines:#?}"
        );
        // Cars that differ only by color are named once in the legend, on a line that fits.
        let cars = lines
            .iter()
            .find(|l| l.contains("c?"))
            .expect("the cars' legend line");
        assert!(
            cars.contains("c?  racer (second letter: its color)") && cars.chars().count() <= 100,
            "{cars}"
        );
    }
}
