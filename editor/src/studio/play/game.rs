//! The Play tab's game screen: the board with the actions on it, the keys, the hand-off screen
//! between people at one screen, and a game rebased on changed content.

use std::time::Instant;

use super::dialog::new_game;
use super::side::LocalSide;
use super::{NewGame, PlayPanel};
use crate::studio::board_view::{self, Camera, Scene};
use crate::studio::worker::{Rebased, Request, SeatKind, Snapshot};

impl PlayPanel {
    pub(super) fn game_ui(&mut self, ui: &mut egui::Ui, snap: &Snapshot) {
        let mut screen = std::mem::take(&mut self.screen);
        let act = screen.show(ui, snap, &mut LocalSide(self), "play-side", None, true);
        self.screen = screen;
        // While a new version's replay is out or its question open, the game stands still: a
        // choice made while the replay is out waits for it (and is taken if the game it was
        // made in is still the one on screen); one made while the question is open is not
        // taken, the question comes first.
        if self.rebased.is_some() {
            self.held_act = None;
        } else if self.rebasing {
            if let Some(a) = act {
                self.held_act = Some((a, snap.step()));
            }
        } else {
            let waiting = self.held_act.take().filter(|(a, step)| {
                *step == snap.step() && snap.offered.iter().any(|o| &o.action == a)
            });
            if let (Some(a), Some(w)) = (act.or(waiting.map(|(a, _)| a)), &mut self.worker) {
                w.send(Request::Act(a));
                self.last_move = Instant::now();
            }
        }
    }

    pub(super) fn handoff_ui(&mut self, ui: &mut egui::Ui, seat: u8) {
        let name = self
            .snap
            .as_ref()
            .map_or(String::new(), |s| s.def.seat_name(seat as usize));
        ui.vertical_centered(|ui| {
            ui.add_space(120.0);
            ui.heading(format!("Pass the screen to {name}"));
            ui.label("The board is hidden so that nobody sees another player's cards.");
            ui.add_space(12.0);
            if ui.button(format!("I am {name}: show my view")).clicked() {
                self.handoff = None;
                self.viewer = Some(seat);
                if let Some(w) = &mut self.worker {
                    w.send(Request::Viewer(self.viewer));
                }
            }
        });
    }

    pub(super) fn rebased_ui(&mut self, ui: &mut egui::Ui, r: &Rebased) {
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.strong("The rules were reloaded");
            ui.label(r.describe());
            ui.horizontal(|ui| match r {
                Rebased::Follows { .. } => {
                    if ui.button("Go on with the new rules").clicked() {
                        self.adopt(true);
                    }
                }
                Rebased::NoStart { .. } => {
                    if ui.button("Keep playing the old version").clicked() {
                        self.adopt(false);
                    }
                }
                _ => {
                    if ui
                        .button("Go on under the new rules")
                        .on_hover_text(
                            "The game as the new version replays it, from its setup, up to the \
                             last action that is still legal",
                        )
                        .clicked()
                    {
                        self.adopt(true);
                    }
                    if ui
                        .button("Keep the old game")
                        .on_hover_text(
                            "The game exactly as it was on screen, under the version it was \
                             played with",
                        )
                        .clicked()
                    {
                        self.adopt(false);
                    }
                    if ui.button("Restart").clicked() {
                        self.rebased = None;
                        if let Some(s) = &self.snap {
                            let (def, seats) = (s.def.clone(), SeatKind::of(&s.seats));
                            self.dialog = Some(NewGame {
                                seats,
                                ..new_game(&def)
                            });
                        }
                    }
                }
            });
        });
    }

    pub(super) fn adopt(&mut self, take: bool) {
        self.rebased = None;
        if let Some(w) = &mut self.worker {
            w.send(Request::Adopt(take));
        }
    }
}

/// The board with the zones beside it (or the zones alone, for a game without a board).
pub(super) fn table_ui(
    ui: &mut egui::Ui,
    camera: &mut Camera,
    scene: &Scene,
) -> board_view::BoardResponse {
    let mut out = board_view::BoardResponse::default();
    if scene.board.kind != "none" {
        egui::Panel::right("play-zones")
            .resizable(true)
            .default_size(300.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    let r = board_view::zones_ui(ui, scene);
                    out.clicked = out.clicked.or(r.clicked);
                });
            });
    }
    egui::CentralPanel::default().show(ui, |ui| {
        let r = board_view::show(ui, camera, scene);
        out.clicked = out.clicked.or(r.clicked);
        out.hovered = r.hovered;
        out.named = r.named;
        out.written = r.written;
        out.legend = r.legend;
        out.tokens = r.tokens;
        out.rings = r.rings;
        out.view = r.view;
        out.board = r.board;
        out.marks = r.marks;
    });
    out
}
