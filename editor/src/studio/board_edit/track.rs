//! The board editor's track board (Dicey Curves): each piece's lanes, rows, turn, gates and tags,
//! with a preview of the piece and of a sample track laid from the deck by the engine.

use eframe::egui;
use farebox::GameDef;
use farebox::board::Board;
use farebox::content::def::{TrackPieceDef, TrackRole};
use farebox::rng::Rng;

use super::{BoardEditor, split_list};
use crate::edit::{Edit, Gate, TrackChange};
use crate::studio::Command;

impl BoardEditor {
    /// The track piece being edited, and the choice of preview.
    // One piece: an immediate-mode form laid out top to bottom; each field's edit is queued
    // as it is drawn, and the preview at its foot shows the piece as edited so far.
    pub(super) fn track_ui(
        &mut self,
        ui: &mut egui::Ui,
        pieces: &[TrackPieceDef],
        out: &mut Vec<Command>,
    ) {
        ui.horizontal(|ui| {
            ui.selectable_value(&mut self.sample, true, "Sample track");
            ui.selectable_value(&mut self.sample, false, "This piece alone");
            if self.sample && ui.button("Another sample").clicked() {
                self.sample_seed += 1;
            }
        });
        if self
            .piece
            .as_ref()
            .is_none_or(|id| !pieces.iter().any(|p| &p.id == id))
        {
            self.piece = pieces.first().map(|p| p.id.clone());
        }
        let Some(piece) = self
            .piece
            .as_ref()
            .and_then(|id| pieces.iter().find(|p| &p.id == id))
        else {
            ui.label("The board has no track pieces.");
            return;
        };
        let id = piece.id.clone();
        let set = |change: TrackChange, out: &mut Vec<Command>| {
            out.push(Command::Edit(Edit::SetTrackPiece {
                id: id.clone(),
                change,
            }))
        };
        ui.strong(format!("Piece {}", piece.id));
        egui::Grid::new("piece-fields")
            .num_columns(2)
            .show(ui, |ui| {
                ui.label("Name");
                if let Some(text) = self.field(ui, &format!("piece-name {id}"), &piece.name, 160.0)
                {
                    set(TrackChange::Name(text), out);
                }
                ui.end_row();
                ui.label("Lanes");
                let mut lanes = piece.lanes;
                if ui
                    .add(egui::DragValue::new(&mut lanes).range(1..=6))
                    .changed()
                {
                    set(TrackChange::Lanes(lanes), out);
                }
                ui.end_row();
                ui.label("Rows");
                let mut rows = piece.rows;
                if ui
                    .add(egui::DragValue::new(&mut rows).range(1..=6))
                    .changed()
                {
                    set(TrackChange::Rows(rows), out);
                }
                ui.end_row();
                ui.label("Turn");
                let mut turn = piece.turn;
                egui::ComboBox::from_id_salt("piece-turn")
                    .selected_text(turn_name(turn))
                    .show_ui(ui, |ui| {
                        for t in [-90, -45, 0, 45, 90] {
                            ui.selectable_value(&mut turn, t, turn_name(t));
                        }
                    });
                if turn != piece.turn {
                    set(TrackChange::Turn(turn), out);
                }
                ui.end_row();
                ui.label("Tags");
                if let Some(text) = self.field(
                    ui,
                    &format!("piece-tags {id}"),
                    &piece.tags.join(", "),
                    160.0,
                ) {
                    set(TrackChange::Tags(split_list(&text)), out);
                }
                ui.end_row();
            });
        ui.strong("Gates at the exit");
        let gates: Vec<Gate> = piece
            .gates
            .iter()
            .map(|(lanes, size)| Gate {
                lanes: lanes.clone(),
                size: *size,
            })
            .collect();
        let mut changed = None;
        for (i, g) in gates.iter().enumerate() {
            ui.horizontal(|ui| {
                ui.label("lanes");
                let shown = g
                    .lanes
                    .iter()
                    .map(|l| l.to_string())
                    .collect::<Vec<_>>()
                    .join(", ");
                if let Some(text) = self.field(ui, &format!("gate-lanes {id} {i}"), &shown, 60.0) {
                    let lanes: Option<Vec<u32>> =
                        split_list(&text).iter().map(|s| s.parse().ok()).collect();
                    match lanes {
                        Some(l) if !l.is_empty() && l.iter().all(|&n| n < piece.lanes) => {
                            let mut next = gates.clone();
                            next[i].lanes = l;
                            changed = Some(next);
                        }
                        _ => {
                            self.message = Some(format!(
                                "Gate lanes are lane numbers from 0 to {}, e.g. 0, 1",
                                piece.lanes.saturating_sub(1)
                            ))
                        }
                    }
                }
                ui.label("dice");
                let mut size = g.size;
                if ui
                    .add(egui::DragValue::new(&mut size).range(1..=10))
                    .changed()
                {
                    let mut next = gates.clone();
                    next[i].size = size;
                    changed = Some(next);
                }
                if ui
                    .small_button("✖")
                    .on_hover_text("Take this gate out")
                    .clicked()
                {
                    let mut next = gates.clone();
                    next.remove(i);
                    changed = Some(next);
                }
            });
        }
        if ui.button("Add a gate").clicked() {
            let taken: Vec<u32> = gates.iter().flat_map(|g| g.lanes.clone()).collect();
            let free = (0..piece.lanes).find(|l| !taken.contains(l));
            match free {
                Some(l) => {
                    let mut next = gates.clone();
                    next.push(Gate {
                        lanes: vec![l],
                        size: 2,
                    });
                    changed = Some(next);
                }
                None => self.message = Some("Every lane already has a gate.".into()),
            }
        }
        if let Some(next) = changed {
            set(TrackChange::Gates(next), out);
        }
        ui.label(
            egui::RichText::new(
                "Lane 0 is the leftmost lane seen by a driver heading for the exit. A gate asks for a combo of exactly its number of dice.",
            )
            .weak(),
        );
    }
}

pub(super) fn turn_name(t: i32) -> String {
    match t {
        0 => "straight".into(),
        t if t < 0 => format!("{}° left", -t),
        t => format!("{t}° right"),
    }
}

/// The side of the small table a piece is previewed alone on, in card lengths: room for
/// any piece (one card length long, at most six lanes wide) laid from its middle.
const PREVIEW_TABLE: f64 = 3.0;

/// Lays one piece alone, for its preview: on a small table, heading as the board's start
/// heads, its entry edge half a card length behind the table's centre so the piece lies in
/// the middle. (The board's own start is placed for the board's table, many card lengths
/// out, which is off a small one.)
pub(super) fn preview_piece(board: &mut Board, pieces: &[TrackPieceDef], id: &str) -> String {
    let Some((i, piece)) = pieces.iter().enumerate().find(|(_, p)| p.id == id) else {
        return format!("No piece `{id}`");
    };
    let Some(t) = board.track.as_mut() else {
        return "The board is not a track".to_string();
    };
    t.set_table(PREVIEW_TABLE, PREVIEW_TABLE);
    let heading = t.end.2;
    let a = f64::from(heading) * std::f64::consts::FRAC_PI_4;
    if board
        .start_track(-0.5 * a.sin(), 0.5 * a.cos(), heading, None)
        .is_err()
    {
        return format!(
            "{} cannot be previewed: the track has already started",
            piece.name
        );
    }
    match board.attach_track(i, piece) {
        Ok(_) => format!("{}: {} lanes, {} rows", piece.name, piece.lanes, piece.rows),
        Err(e) => format!("{} cannot be laid: {}", piece.name, e.word()),
    }
}

/// Lays a sample track: the start (where the board puts it), then the deck's other cards in
/// a seeded shuffle, each laid where it fits (the engine's own check) and left out where it
/// does not, the finish last. Says how it went.
pub(super) fn sample_track(
    board: &mut Board,
    def: &GameDef,
    pieces: &[TrackPieceDef],
    rng: &mut Rng,
) -> String {
    // The deck whose cards name track pieces, each card as many times as its count.
    let mut cards: Vec<usize> = Vec::new();
    for deck in &def.decks {
        let Some(field) = deck
            .fields
            .iter()
            .find(|f| f.to.as_deref() == Some("track-pieces"))
        else {
            continue;
        };
        for card in &deck.cards {
            let piece = card
                .fields
                .get(&field.name)
                .and_then(|v| v.as_str())
                .and_then(|id| pieces.iter().position(|p| p.id == id));
            if let Some(pi) = piece {
                for _ in 0..card.count.max(1) {
                    cards.push(pi);
                }
            }
        }
    }
    if cards.is_empty() {
        cards = (0..pieces.len()).collect();
    }
    let role = |i: usize| pieces.get(i).map(|p| p.role);
    let start = cards
        .iter()
        .position(|&i| role(i) == Some(TrackRole::Start));
    let finish = cards
        .iter()
        .position(|&i| role(i) == Some(TrackRole::Finish));
    let mut middle: Vec<usize> = cards
        .iter()
        .copied()
        .filter(|&i| !matches!(role(i), Some(TrackRole::Start | TrackRole::Finish)))
        .collect();
    rng.shuffle(&mut middle);
    let mut order: Vec<usize> = start.map(|s| cards[s]).into_iter().collect();
    order.extend(middle);
    order.extend(finish.map(|f| cards[f]));
    let (mut laid, mut left) = (0, 0);
    let mut finished = false;
    let mut forced = false;
    for i in order {
        let Some(piece) = pieces.get(i) else { continue };
        let finish = piece.role == TrackRole::Finish;
        // The Finish is laid even where it does not fit, as Dicey Curves' rules do (DC-T1).
        match board.lay_track(i, piece, finish) {
            Ok((_, why)) => {
                laid += 1;
                finished |= finish;
                forced |= why.is_some();
            }
            Err(_) => left += 1,
        }
    }
    sample_words(laid, left, finished, forced, finish.is_some())
}

/// What a sample track says of itself. It lays the whole deck, where a race stops at the
/// finish: cards left out are the deck's rest that found no room on the table, which says
/// nothing wrong of the board unless the finish is among them.
fn sample_words(
    laid: usize,
    left: usize,
    finished: bool,
    forced: bool,
    has_finish: bool,
) -> String {
    let finish = if finished && forced {
        "; the finish was forced in where it did not fit, as a race does"
    } else if finished {
        "; the finish fitted"
    } else if has_finish {
        "; the finish did not fit"
    } else {
        ""
    };
    format!(
        "Sample of the whole deck, finish last: {laid} of {} cards laid, {left} found no room{finish}",
        laid + left
    )
}

#[cfg(test)]
mod tests {
    use super::{preview_piece, sample_words};
    use farebox::board::Board;
    use farebox::content::def::BoardDef;
    use farebox::rng::Rng;

    #[test]
    fn a_piece_of_any_width_and_turn_is_previewed_on_the_small_table() {
        let mods = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../mods");
        let resolver = farebox::source::FolderResolver::new(mods.clone());
        let def = farebox::content::load_mod(
            &farebox::source::FsSource::new(mods.join("dicey-curves")),
            &resolver,
        )
        .unwrap_or_else(|d| panic!("{d}"));
        let BoardDef::Track(t) = &def.board else {
            panic!("Dicey Curves has a track");
        };
        for lanes in 1..=6 {
            for turn in [-90, -45, 0, 45, 90] {
                let mut pieces = t.pieces.clone();
                pieces[0].lanes = lanes;
                pieces[0].turn = turn;
                let id = pieces[0].id.clone();
                let mut board = Board::new(
                    &def.board,
                    &def.tiles,
                    &Default::default(),
                    &mut Rng::new(1, 0),
                );
                let said = preview_piece(&mut board, &pieces, &id);
                assert!(
                    said.contains(&format!("{lanes} lanes")),
                    "{lanes} lanes, turn {turn}: {said}"
                );
                let laid = board.track.as_ref().map_or(0, |t| t.laid.len());
                assert_eq!(laid, 1, "{lanes} lanes, turn {turn}: {said}");
            }
        }
    }

    #[test]
    fn a_sample_says_it_lays_the_whole_deck_and_how_the_finish_went() {
        let s = sample_words(17, 19, true, true, true);
        assert!(s.contains("of the whole deck"), "{s}");
        assert!(s.contains("17 of 36 cards laid, 19 found no room"), "{s}");
        assert!(
            s.contains("finish was forced in where it did not fit"),
            "{s}"
        );
        assert!(sample_words(20, 0, true, false, true).ends_with("the finish fitted"));
        assert!(sample_words(20, 1, false, false, true).ends_with("the finish did not fit"));
        assert!(sample_words(3, 0, false, false, false).ends_with("found no room"));
    }
}
