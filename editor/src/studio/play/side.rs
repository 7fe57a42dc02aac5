//! The Play tab's side panel, one for a game played here and a table online ([`Side`] says
//! what differs): the seat to act, the actions offered, the result, the log; and for a game
//! played here its seed, pace, undo and saving.

use std::time::Duration;

use farebox::GameDef;
use farebox::game::View;

use super::actions::actions_ui;
use super::dialog::new_game;
use super::{NewGame, PlayPanel};
use crate::studio::worker::{Request, SeatKind, Snapshot};
use crate::studio::{Command, board_view};

/// What the side panel shows around the parts every game shares: a game played here (its
/// seed, pace, undo and saving) or a table online (its code, seats and connection). The
/// panel itself ([`side_panel`]) is one, for both.
pub(super) trait Side {
    /// The rows at the top: what game this is and whose eyes the screen shows.
    fn head(&mut self, ui: &mut egui::Ui, snap: &Snapshot);
    /// Under the result, once the game is over (records to save, a new game).
    fn ended(&mut self, ui: &mut egui::Ui, snap: &Snapshot);
    /// Who plays the seat to act, when a bot does ("a bot", "the bot Rookie"), and whether
    /// it is thinking now.
    fn bot_to_act(&self, snap: &Snapshot, active: u8) -> Option<(String, bool)>;
    /// Controls under the seat to act (pace and undo), if any.
    fn controls(&mut self, ui: &mut egui::Ui, snap: &Snapshot);
    /// What the list of actions says when none is offered to this screen.
    fn waiting(&self, snap: &Snapshot, active: u8) -> String;
    /// The rows above the log.
    fn foot(&mut self, ui: &mut egui::Ui, snap: &Snapshot);
}

/// The side panel: the head, then (while the game goes on) the seat to act, the controls
/// and the actions offered in a scroll area of their own, always in the same rows so the
/// list starts at the same place after every action; or the result; then the foot and the
/// log, which stays after the game ends. `keyed`: the action chosen with the keys. The
/// actions under the pointer in the list.
pub(super) fn side_panel(
    ui: &mut egui::Ui,
    side: &mut dyn Side,
    snap: &Snapshot,
    act: &mut Option<String>,
    armed: bool,
    keyed: Option<usize>,
) -> Vec<usize> {
    let def = &snap.def;
    side.head(ui, snap);
    ui.separator();
    if let Some(r) = &snap.result() {
        result_ui(ui, snap, r);
        ui.separator();
        side.ended(ui, snap);
        side.foot(ui, snap);
        log_ui(ui, snap);
        return Vec::new();
    }
    let active = snap.active();
    let name = def.seat_name(active as usize);
    let bot = side.bot_to_act(snap, active);
    ui.horizontal_wrapped(|ui| {
        ui.label("To act:");
        ui.colored_label(board_view::seat_color(def, active), &name);
        if let Some((who, thinking)) = &bot {
            ui.weak(format!("({who})"));
            if *thinking {
                ui.spinner();
            }
        }
    });
    side.controls(ui, snap);
    ui.separator();
    if snap.viewer.is_some() {
        ui.strong("Your actions");
    }
    let list_h = (ui.available_height() * 0.55).max(120.0);
    let mut pointed = Vec::new();
    egui::ScrollArea::vertical()
        .id_salt("play-actions")
        .max_height(list_h)
        .auto_shrink([false, true])
        .show(ui, |ui| {
            if snap.offered.is_empty() {
                ui.weak(side.waiting(snap, active));
            } else {
                pointed = actions_ui(ui, &snap.offered, act, armed, keyed);
            }
        });
    if !snap.offered.is_empty() {
        ui.weak("↑ ↓ choose an action, Enter takes it");
    }
    ui.separator();
    side.foot(ui, snap);
    log_ui(ui, snap);
    pointed
}

/// Shows `add` in the Play tab's side panel `id`, on the left. The panel keeps the width it
/// was given (or dragged to): its contents wrap inside it and never widen it, so the board
/// beside it does not shift.
pub(super) fn in_side_panel(ui: &mut egui::Ui, id: &str, add: impl FnOnce(&mut egui::Ui)) {
    egui::Panel::left(id.to_string())
        .resizable(true)
        .default_size(super::SIDE_W)
        .size_range(240.0..=640.0)
        .show(ui, |ui| {
            let rect = ui.available_rect_before_wrap();
            let mut inner = ui.new_child(
                egui::UiBuilder::new()
                    .max_rect(rect)
                    .layout(egui::Layout::top_down(egui::Align::Min)),
            );
            inner.shrink_clip_rect(rect);
            add(&mut inner);
            ui.advance_cursor_after_rect(rect);
        });
}

/// A game played here, as the side panel shows it.
pub(super) struct LocalSide<'a>(pub &'a mut PlayPanel);

impl Side for LocalSide<'_> {
    fn head(&mut self, ui: &mut egui::Ui, snap: &Snapshot) {
        let p = &mut *self.0;
        ui.horizontal_wrapped(|ui| {
            match &snap.local {
                Some(l) => ui.label(format!("Seed {} · {} actions", l.setup.seed, snap.step())),
                None => ui.label(format!("{} actions", snap.step())),
            };
            if snap.result().is_none()
                && ui
                    .small_button("Leave game")
                    .on_hover_text(
                        "Back to the new-game dialog, with these seats; asks first once the \
                         game has begun",
                    )
                    .clicked()
            {
                p.wants = Some(Command::LeaveGame);
            }
        });
        match snap.viewer {
            Some(v) => ui.label(format!(
                "Showing what {} may see",
                snap.def.seat_name(v as usize)
            )),
            None => ui.label("Showing what everyone may see"),
        };
    }

    fn ended(&mut self, ui: &mut egui::Ui, snap: &Snapshot) {
        if ui.button("New game").clicked() {
            self.0.dialog = Some(NewGame {
                seats: SeatKind::of(&snap.seats),
                ..new_game(&snap.def)
            });
        }
    }

    fn bot_to_act(&self, snap: &Snapshot, active: u8) -> Option<(String, bool)> {
        snap.seats
            .get(active as usize)
            .is_some_and(|s| !s.is_person())
            .then(|| ("a bot".to_string(), !self.0.paused))
    }

    fn controls(&mut self, ui: &mut egui::Ui, snap: &Snapshot) {
        let p = &mut *self.0;
        if snap.seats.iter().any(|s| !s.is_person()) {
            ui.horizontal_wrapped(|ui| {
                let label = if p.paused { "Play" } else { "Pause" };
                if ui.button(label).clicked() {
                    p.paused = !p.paused;
                }
                if ui
                    .add_enabled(p.paused, egui::Button::new("Step"))
                    .clicked()
                {
                    p.step_once = true;
                }
                let mut ms = p.pace.as_millis() as u32;
                let l = ui.label("Pace");
                ui.add(egui::Slider::new(&mut ms, 0..=2000).suffix(" ms"))
                    .labelled_by(l.id);
                p.pace = Duration::from_millis(ms as u64);
            });
        }
        // Undo is always there (greyed when there is nothing to undo), so it never pushes
        // the actions down when it becomes possible.
        let undo = undo_of(snap);
        let r = ui.add_enabled(undo.is_ok(), egui::Button::new("Undo"));
        let r = match &undo {
            Ok((_, what)) => r.on_hover_text(format!("Undo move: {what} (Ctrl+Z)")),
            Err(why) => r.on_disabled_hover_text(why),
        };
        if r.clicked()
            && let Ok((to, _)) = undo
            && let Some(w) = &mut p.worker
        {
            w.send(Request::Undo(to));
        }
    }

    fn waiting(&self, snap: &Snapshot, active: u8) -> String {
        format!("Waiting for {}…", snap.def.seat_name(active as usize))
    }

    fn foot(&mut self, ui: &mut egui::Ui, _snap: &Snapshot) {
        self.0.save_ui(ui);
    }
}

impl PlayPanel {
    pub(super) fn save_ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            let l = ui.label("Replay file");
            // The field takes what the label and the button leave of the panel's width.
            let room = ui.available_width() - 100.0;
            ui.add(
                egui::TextEdit::singleline(&mut self.save_path)
                    .hint_text("game.replay.json")
                    .desired_width(room.clamp(60.0, 240.0)),
            )
            .labelled_by(l.id);
            if ui.button("Save replay").clicked()
                && !self.save_path.trim().is_empty()
                && let Some(w) = &mut self.worker
            {
                w.send(Request::Save(self.save_path.trim().into()));
            }
        });
        if let Some(s) = &self.saved {
            ui.add(egui::Label::new(egui::RichText::new(s).weak()).wrap());
        }
    }
}

/// The end of the game: who won, why, and everyone's place and score.
pub(super) fn result_ui(ui: &mut egui::Ui, snap: &Snapshot, r: &farebox::state::GameResult) {
    let def = &snap.def;
    // A cooperative ending is one result for the whole table.
    match r.together {
        Some(true) => ui.heading("Game over: everyone wins"),
        Some(false) => ui.heading("Game over: everyone loses"),
        None => ui.heading("Game over"),
    };
    ui.add(egui::Label::new(&r.reason).wrap());
    let mut order: Vec<usize> = (0..r.places.len()).collect();
    order.sort_by_key(|&i| r.places.get(i).copied().unwrap_or(u32::MAX));
    let unit = score_unit(def, &snap.view, &r.scores);
    let score = |n: i64| match &unit {
        Some(u) => format!("{n} {u}"),
        None => format!("score {n}"),
    };
    egui::Grid::new("places").show(ui, |ui| {
        for i in order {
            match r.together {
                Some(true) => ui.label("won"),
                Some(false) => ui.label("lost"),
                None => ui.label(crate::common::ordinal(
                    r.places.get(i).copied().unwrap_or(0),
                )),
            };
            ui.colored_label(board_view::seat_color(def, i as u8), def.seat_name(i));
            ui.label(score(r.scores.get(i).copied().unwrap_or(0)));
            ui.end_row();
        }
    });
}

/// Where the viewing person's undo goes and what it takes back, or why it cannot.
pub(super) fn undo_of(snap: &Snapshot) -> Result<(usize, String), String> {
    if snap.result().is_some() {
        return Err("The game is over".into());
    }
    let Some(v) = snap.viewer else {
        return Err("Only bots play: no move of a person to undo".into());
    };
    let Some(local) = &snap.local else {
        return Err("An online game cannot be undone".into());
    };
    match local.undo_to.get(v as usize).copied().flatten() {
        Some(to) => {
            let what = local.undo_what.get(v as usize).cloned().flatten();
            Ok((
                to,
                what.unwrap_or_else(|| format!("back to before action {}", to + 1)),
            ))
        }
        None => Err(
            "Nothing to undo: no decision of yours since the last random draw or revealed card"
                .into(),
        ),
    }
}

/// The log, newest first, in a scroll area of its own filling the rest of the panel; it
/// stays once the game is over. Each action's line ("Red: Place a tile at 3,4", in the
/// seat's colour, its own words for the viewer's moves and the public ones for everyone
/// else's) comes with the lines the rules wrote as it was applied, under it.
pub(super) fn log_ui(ui: &mut egui::Ui, snap: &Snapshot) {
    ui.separator();
    ui.strong("Log");
    egui::ScrollArea::vertical()
        .id_salt("play-log")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            // Newest first, each action still above what it wrote.
            let mut groups: Vec<&[crate::studio::worker::LogLine]> = Vec::new();
            let mut start = 0;
            for (i, l) in snap.log.iter().enumerate() {
                if l.seat.is_some() && i > start {
                    groups.push(&snap.log[start..i]);
                    start = i;
                }
            }
            groups.push(&snap.log[start..]);
            let mut shown = 0;
            for g in groups.iter().rev() {
                // Lines written before any action (setup) stand alone, not indented.
                let headed = g.first().is_some_and(|l| l.seat.is_some());
                for l in g.iter() {
                    match l.seat {
                        Some(seat) => {
                            let color = board_view::seat_color(&snap.def, seat);
                            ui.add(
                                egui::Label::new(
                                    egui::RichText::new(&l.text).color(color).strong(),
                                )
                                .wrap(),
                            );
                        }
                        None if headed => {
                            ui.indent("log-line", |ui| {
                                ui.add(egui::Label::new(&l.text).wrap());
                            });
                        }
                        None => {
                            ui.add(egui::Label::new(&l.text).wrap());
                        }
                    }
                }
                shown += g.len();
                if shown > 300 {
                    break;
                }
            }
        });
}

/// What the final scores count, as the game names it: the counter holding every seat's score
/// at the end (Critter Cab's coins, Taxi Derby's money, Curbside's stars), found by comparing
/// the scores with the counters the view shows; a mod's manifest has no word for its score.
/// None when no counter, or more than one, matches: then it is just the "score".
pub fn score_unit(def: &GameDef, view: &View, scores: &[i64]) -> Option<String> {
    use farebox::content::def::Scope;
    if scores.is_empty() {
        return None;
    }
    let counter = |id: &str| def.counter(id).and_then(|i| def.counters.get(i));
    let matching = |scope: Scope| -> Vec<&str> {
        view.counters
            .iter()
            .filter_map(|(id, values)| {
                let c = counter(id).filter(|c| c.scope == scope)?;
                let fits = match scope {
                    Scope::Seat => {
                        values.len() >= scores.len()
                            && scores.iter().zip(values.iter()).all(|(s, v)| s == v)
                    }
                    Scope::Global => values
                        .first()
                        .is_some_and(|v| scores.iter().all(|s| s == v)),
                };
                fits.then_some(c.name.as_str())
            })
            .collect()
    };
    // A seat's own counter first (a race for coins); a counter of the whole game only when
    // no seat's counter fits (a shared rating, everyone scoring the same).
    let seat = matching(Scope::Seat);
    let found = if seat.is_empty() {
        matching(Scope::Global)
    } else {
        seat
    };
    match found.as_slice() {
        [one] if !one.is_empty() => {
            // A name in capitals stays so ("VP"); else it reads as a word ("12 coins").
            Some(
                if one
                    .chars()
                    .filter(|c| c.is_alphabetic())
                    .all(char::is_uppercase)
                {
                    one.to_string()
                } else {
                    one.to_lowercase()
                },
            )
        }
        _ => None,
    }
}
