//! The Play tab's online screens: the join form (address, code, then a seat or watching),
//! and the table: the board and zones as this seat's view shows them, and the Play tab's one
//! side panel ([`side_panel`]) with what a table online adds: the table's code and address,
//! every seat's status (connected, gone, played by a bot, to act, you), what the server
//! refused, and the records to download once the game is over.

use farebox::GameDef;
use farebox_server::protocol::{SeatStatus, Sitter};

use super::online::{Online, Stage};
use super::screen::Screen;
use super::side::Side;
use crate::studio::board_view;
use crate::studio::worker::Snapshot;

/// What the online screen asks of the Play tab.
pub(super) enum OnlineOut {
    Stay,
    /// Leave the table (and stop a server hosted here): back to the new-game dialog.
    Leave,
}

/// A bot spec in words: the mod's bot's name, the search bot's level, the random bot.
pub fn bot_name(def: &GameDef, spec: &str) -> String {
    if spec == "random" {
        return "the random bot".into();
    }
    if let Some(b) = def.bot(spec) {
        return format!("the bot {}", b.name);
    }
    if let Some(name) = farebox::search::describe(spec, def) {
        return name.to_lowercase();
    }
    format!("the bot `{spec}`")
}

/// A seat's status in words: who holds it, whether they are here, whether a bot plays it.
pub fn seat_status(def: &GameDef, s: &SeatStatus) -> String {
    match s.kind {
        Sitter::Open => "open: nobody has taken it yet".into(),
        Sitter::Bot => format!(
            "played by {}",
            bot_name(def, s.bot.as_deref().unwrap_or("random"))
        ),
        Sitter::Person => {
            let who = s.player.clone().unwrap_or_else(|| "a person".into());
            match (&s.bot, s.connected) {
                (_, true) => format!("{who}, connected"),
                (Some(b), false) => format!(
                    "{who} dropped out: played by {} until they return",
                    bot_name(def, b)
                ),
                (None, false) => {
                    format!("{who}, disconnected (a bot plays the seat if they stay away)")
                }
            }
        }
    }
}

impl Online {
    pub(super) fn ui(&mut self, ui: &mut egui::Ui, st: &mut Screen) -> OnlineOut {
        self.poll();
        let mut out = OnlineOut::Stay;
        match &self.stage {
            Stage::Busy(what) => {
                let what = what.clone();
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label(what);
                });
                if ui.button("Cancel").clicked() {
                    self.cancel();
                }
            }
            Stage::Form { .. } => out = self.form_ui(ui),
            Stage::Table => {
                let Some(snap) = self.take_snapshot() else {
                    // Nothing seated (a host that failed to start): say why, go back.
                    ui.heading("Online play");
                    self.problem_ui(ui);
                    if ui.button("Back to the new-game dialog").clicked() {
                        out = OnlineOut::Leave;
                    }
                    return out;
                };
                out = self.table_screen(ui, st, &snap);
                self.put_snapshot(snap);
            }
        }
        out
    }

    fn problem_ui(&mut self, ui: &mut egui::Ui) {
        if let Some(p) = &self.problem {
            ui.add(
                egui::Label::new(egui::RichText::new(p).color(ui.visuals().error_fg_color)).wrap(),
            );
        }
    }

    fn form_ui(&mut self, ui: &mut egui::Ui) -> OnlineOut {
        let mut out = OnlineOut::Stay;
        let def = self.def().clone();
        ui.heading(format!("Join a table of {} online", def.name));
        ui.label("Ask the host for the table's address and code.");
        ui.add_space(6.0);
        let looked = match &self.stage {
            Stage::Form { looked } => looked.clone(),
            _ => None,
        };
        egui::Grid::new("online-join")
            .num_columns(2)
            .spacing([12.0, 6.0])
            .show(ui, |ui| {
                let l = ui.label("Address");
                ui.add(
                    egui::TextEdit::singleline(&mut self.addr)
                        .hint_text("127.0.0.1:7420")
                        .desired_width(220.0),
                )
                .labelled_by(l.id);
                ui.end_row();
                let l = ui.label("Table code");
                ui.add(egui::TextEdit::singleline(&mut self.code).desired_width(120.0))
                    .labelled_by(l.id);
                ui.end_row();
                let l = ui.label("Your name");
                ui.add(
                    egui::TextEdit::singleline(&mut self.name)
                        .hint_text("Player 1")
                        .desired_width(220.0),
                )
                .labelled_by(l.id);
                ui.end_row();
            });
        let ready = !self.addr.trim().is_empty() && !self.code.trim().is_empty();
        if ui
            .add_enabled(ready, egui::Button::new("Look at the table"))
            .clicked()
        {
            self.look();
            return out;
        }
        self.problem_ui(ui);
        if let Some(t) = looked {
            ui.separator();
            ui.strong(format!("Table {}", t.code));
            if t.mod_id != def.id {
                ui.colored_label(
                    ui.visuals().error_fg_color,
                    format!(
                        "This table plays the mod `{}`, and the Studio has {} (`{}`) open: open `{}` to join it.",
                        t.mod_id, def.name, def.id, t.mod_id
                    ),
                );
            } else {
                if t.content_hash != def.content_hash {
                    ui.colored_label(
                        ui.visuals().warn_fg_color,
                        format!(
                            "The table's {} (`{}`) is not the copy open here: their contents differ, so the server will not seat you.",
                            def.name, def.id
                        ),
                    );
                }
                for s in &t.seats {
                    let text = format!("{}: {}", s.name, seat_status(&def, s));
                    let open = s.kind == Sitter::Open;
                    ui.add_enabled_ui(open, |ui| {
                        ui.radio_value(&mut self.choice, Some(s.seat), text);
                    });
                }
                ui.radio_value(&mut self.choice, None, "Watch the game (no seat)");
                let label = match self.choice {
                    Some(s) => format!("Join as {}", def.seat_name(s as usize)),
                    None => "Watch".to_string(),
                };
                if ui.button(label).clicked() {
                    self.join();
                }
            }
        }
        ui.add_space(8.0);
        if ui.button("Back to the new-game dialog").clicked() {
            out = OnlineOut::Leave;
        }
        out
    }

    fn table_screen(&mut self, ui: &mut egui::Ui, st: &mut Screen, snap: &Snapshot) -> OnlineOut {
        let live = self.closed.is_none();
        let banner = (!self.board_drawn()).then_some(
            "The server has not sent this board's layout yet: the pieces are listed in the side panel",
        );
        let mut side = OnlineSide {
            online: self,
            leave: false,
        };
        let act = st.show(ui, snap, &mut side, "online-side", banner, live);
        let leave = side.leave;
        if let Some(a) = act {
            self.act_at(snap.step() as u64, &a);
        }
        if leave {
            OnlineOut::Leave
        } else {
            OnlineOut::Stay
        }
    }

    /// The seats, a block each: its name (and whether it is to act, with the turn clock), then
    /// who holds it, wrapped to the panel's width under the name.
    fn seats_ui(&mut self, ui: &mut egui::Ui, def: &GameDef, me: Option<u8>) {
        for s in self.seats().to_vec() {
            ui.horizontal_wrapped(|ui| {
                ui.colored_label(
                    board_view::seat_color(def, s.seat),
                    egui::RichText::new(&s.name).strong(),
                );
                if s.to_act {
                    ui.label(
                        egui::RichText::new("to act")
                            .strong()
                            .color(ui.visuals().warn_fg_color),
                    );
                    // The turn clock: when it runs out, the table's bot takes the decision.
                    if let Some((seat, left)) = self.clock()
                        && seat == s.seat
                    {
                        let secs = left.as_secs();
                        ui.label(egui::RichText::new(format!("{}:{:02} left", secs / 60, secs % 60)).strong())
                            .on_hover_text("The turn clock: when it runs out, the table's stand-in bot takes this decision.");
                        ui.ctx().request_repaint_after(std::time::Duration::from_millis(250));
                    }
                }
            });
            let mut words = seat_status(def, &s);
            if me == Some(s.seat) {
                words = format!("you ({words})");
            }
            ui.indent(("online-seat", s.seat), |ui| {
                ui.add(egui::Label::new(words).wrap());
            });
        }
    }

    /// A lost connection (and the way back to a kept seat), a resync, a refused request.
    fn connection_ui(&mut self, ui: &mut egui::Ui) {
        if let Some(c) = self.closed.clone() {
            ui.separator();
            ui.colored_label(
                ui.visuals().error_fg_color,
                format!("Disconnected from the table: {c}"),
            );
            let token = self.seated().is_some_and(|s| s.token.is_some());
            if token {
                ui.label("Your seat is kept for you: come back to it with its token.");
                if ui.button("Rejoin").clicked() {
                    self.rejoin();
                }
            }
        }
        if let Some(r) = &self.resynced {
            ui.add(
                egui::Label::new(egui::RichText::new(r).color(ui.visuals().warn_fg_color)).wrap(),
            );
        }
        self.problem_ui(ui);
    }

    fn downloads_ui(&mut self, ui: &mut egui::Ui) {
        ui.strong("Records of the game");
        let seated = self.seated().is_some_and(|s| s.seat.is_some());
        egui::Grid::new("online-downloads")
            .num_columns(2)
            .spacing([8.0, 4.0])
            .show(ui, |ui| {
                if seated {
                    let l = ui.label("My view file");
                    ui.add(
                        egui::TextEdit::singleline(&mut self.seat_path)
                            .desired_width(ui.available_width()),
                    )
                    .labelled_by(l.id);
                    ui.end_row();
                }
                let l = ui.label("Replay file");
                ui.add(
                    egui::TextEdit::singleline(&mut self.replay_path)
                        .desired_width(ui.available_width()),
                )
                .labelled_by(l.id);
                ui.end_row();
            });
        ui.horizontal_wrapped(|ui| {
            if seated
                && ui
                    .add_enabled(
                        !self.seat_path.trim().is_empty(),
                        egui::Button::new("Save my view of the game"),
                    )
                    .clicked()
            {
                self.download(true, false);
            }
            if ui
                .add_enabled(
                    !self.replay_path.trim().is_empty(),
                    egui::Button::new("Save the whole replay"),
                )
                .clicked()
            {
                self.download(false, true);
            }
        });
        for s in &self.saved {
            ui.add(egui::Label::new(egui::RichText::new(format!("Saved to {s}")).weak()).wrap());
        }
    }
}

/// A table online, as the side panel shows it.
struct OnlineSide<'a> {
    online: &'a mut Online,
    /// "Leave the table" was clicked.
    leave: bool,
}

impl Side for OnlineSide<'_> {
    fn head(&mut self, ui: &mut egui::Ui, snap: &Snapshot) {
        let o = &mut *self.online;
        let def = snap.def.clone();
        let code = o.code.clone();
        let addr = o.addr.clone();
        ui.horizontal_wrapped(|ui| {
            ui.label("Table code");
            ui.label(egui::RichText::new(&code).monospace().strong().size(20.0));
            if ui
                .small_button("Copy code")
                .on_hover_text("Copy the table's code")
                .clicked()
            {
                ui.ctx().copy_text(code.clone());
            }
        });
        ui.horizontal_wrapped(|ui| {
            ui.label("Address");
            ui.label(egui::RichText::new(&addr).monospace().strong());
            if ui.small_button("Copy address").clicked() {
                ui.ctx().copy_text(addr.clone());
            }
        });
        if o.hosting() {
            let hint = if addr.starts_with("127.") || addr.starts_with("localhost") {
                "You host this table in this Studio (this machine only). It stops when you leave."
            } else {
                "You host this table in this Studio; others join at this machine's address and the port above. It stops when you leave."
            };
            ui.add(egui::Label::new(egui::RichText::new(hint).weak()).wrap());
        }
        ui.separator();
        let me = o.seated().and_then(|s| s.seat);
        match me {
            Some(s) => {
                ui.horizontal_wrapped(|ui| {
                    ui.label("You are");
                    ui.colored_label(
                        board_view::seat_color(&def, s),
                        egui::RichText::new(def.seat_name(s as usize)).strong(),
                    );
                });
            }
            None => {
                ui.label("You are watching: you see what everyone may see.");
            }
        }
        ui.label(format!("Action {}", o.number()));
        ui.add_space(4.0);
        o.seats_ui(ui, &def, me);
        o.connection_ui(ui);
    }

    fn ended(&mut self, ui: &mut egui::Ui, _snap: &Snapshot) {
        self.online.downloads_ui(ui);
    }

    fn bot_to_act(&self, snap: &Snapshot, active: u8) -> Option<(String, bool)> {
        let bot = self
            .online
            .seats()
            .iter()
            .find(|s| s.seat == active)
            .and_then(|s| s.bot.clone())?;
        Some((bot_name(&snap.def, &bot), false))
    }

    fn controls(&mut self, _ui: &mut egui::Ui, _snap: &Snapshot) {}

    fn waiting(&self, snap: &Snapshot, active: u8) -> String {
        if self.online.closed.is_some() {
            "Disconnected: nothing more comes from the table.".to_string()
        } else if snap.viewer == Some(active) && self.bot_to_act(snap, active).is_some() {
            "A bot plays your seat until you rejoin.".to_string()
        } else {
            format!("Waiting for {}…", snap.def.seat_name(active as usize))
        }
    }

    fn foot(&mut self, ui: &mut egui::Ui, snap: &Snapshot) {
        let o = &mut *self.online;
        let def = &snap.def;
        if !o.board_drawn() {
            ui.strong("Pieces");
            for p in &snap.view.pieces {
                let owner = p.owner.map_or(String::new(), |o| {
                    format!("{}'s ", def.seat_name(o as usize))
                });
                let at = p.at.as_deref().unwrap_or("off the board");
                ui.label(format!("{owner}{} at {at}", p.kind));
            }
            ui.separator();
        }
        let leave = ui.button("Leave the table");
        let leave = if o.hosting() {
            leave.on_hover_text("The table is hosted here: leaving stops it for everyone")
        } else if snap.viewer.is_some() {
            leave.on_hover_text("Your seat stays yours: a bot plays it while you are away")
        } else {
            leave
        };
        if leave.clicked() {
            self.leave = true;
        }
    }
}
