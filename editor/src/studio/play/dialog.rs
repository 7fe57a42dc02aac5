//! The Play tab's new-game dialog: who plays each seat, the mod's options (with when each
//! applies), the seed, and a game forked from a replay.

use std::sync::Arc;

use farebox::GameDef;
use farebox::content::def::{OptionType, Visibility};
use farebox::value::Value;

use super::{NewGame, PlayPanel, online};
use crate::studio::Command;
use crate::studio::board_view;
use crate::studio::worker::SeatKind;

impl PlayPanel {
    // One piece: the new-game dialog laid out top to bottom (seats, options, seed, the buttons);
    // the buttons at its foot read back every row drawn above them in the same frame.
    pub(super) fn dialog_ui(
        &mut self,
        ui: &mut egui::Ui,
        def: &Arc<GameDef>,
        out: &mut Vec<Command>,
    ) {
        let Some(d) = &mut self.dialog else { return };
        let fixed = d.fork.is_some();
        match &d.fork {
            Some((_, history)) => {
                ui.heading(format!("Continue a replay of {}", def.name));
                ui.label(format!(
                    "The game goes on from step {} of the replay, with its seed and options. Choose who plays each seat.",
                    history.len()
                ));
            }
            None => {
                ui.heading(format!("New game of {}", def.name));
            }
        }
        ui.add_space(6.0);
        let mut agents = vec![SeatKind::Person, SeatKind::Bot("random".into())];
        agents.extend(def.bots.iter().map(|b| SeatKind::Bot(b.id.clone())));
        if def.bot("search").is_none() {
            agents.extend(
                farebox::search::levels(def)
                    .into_iter()
                    .map(|(spec, _)| SeatKind::Bot(spec)),
            );
        }
        let agent_name = |k: &SeatKind| match k {
            SeatKind::Person => "Person".to_string(),
            SeatKind::Bot(id) if id == "random" => "Random bot".to_string(),
            SeatKind::Bot(id) => def.bot(id).map_or_else(
                || farebox::search::describe(id, def).unwrap_or_else(|| id.clone()),
                |b| format!("Bot: {}", b.name),
            ),
        };
        egui::Grid::new("seats")
            .num_columns(2)
            .spacing([12.0, 6.0])
            .show(ui, |ui| {
                let l = ui.label("Players");
                let mut n = d.seats.len() as u32;
                ui.add_enabled(
                    !fixed,
                    egui::Slider::new(&mut n, def.players.0..=def.players.1),
                )
                .labelled_by(l.id);
                d.seats.resize(n as usize, SeatKind::Bot("random".into()));
                ui.end_row();
                for (i, seat) in d.seats.iter_mut().enumerate() {
                    let l =
                        ui.colored_label(board_view::seat_color(def, i as u8), def.seat_name(i));
                    egui::ComboBox::from_id_salt(("seat", i))
                        .selected_text(agent_name(seat))
                        .show_ui(ui, |ui| {
                            for a in &agents {
                                ui.selectable_value(seat, a.clone(), agent_name(a));
                            }
                        })
                        .response
                        .labelled_by(l.id);
                    ui.end_row();
                }
                if fixed {
                    // A fork keeps the replay's options and seed: shown, not changed.
                    ui.disable();
                }
                let chosen: Vec<String> = d.options.iter().map(|(_, v)| v.clone()).collect();
                for (i, (o, (_, value))) in def.options.iter().zip(d.options.iter_mut()).enumerate()
                {
                    // An option that only applies with another option's choice is greyed
                    // while that choice is not made (its value is kept and still passed on).
                    let idle = applies_when(def, i).filter(|(j, c)| chosen.get(*j) != Some(c));
                    let l = ui.add_enabled(idle.is_none(), egui::Label::new(&o.label));
                    let l = match &idle {
                        Some((j, c)) => {
                            let other = &def.options[*j];
                            let choice = match c.as_str() {
                                "true" => "on",
                                "false" => "off",
                                c => other
                                    .choices
                                    .iter()
                                    .find(|(id, _)| id == c)
                                    .map_or(c, |(_, l)| l.as_str()),
                            };
                            l.on_disabled_hover_text(format!(
                                "Applies only when {} is {choice}. {}",
                                other.label, o.description
                            ))
                        }
                        None => l.on_hover_text(&o.description),
                    };
                    ui.add_enabled_ui(idle.is_none(), |ui| match o.kind {
                        OptionType::Bool => {
                            let mut b = value == "true";
                            ui.checkbox(&mut b, "").labelled_by(l.id);
                            *value = b.to_string();
                        }
                        OptionType::Int => {
                            let mut v: i64 = value.parse().unwrap_or(0);
                            let lo = o.min.unwrap_or(i64::MIN / 2);
                            let hi = o.max.unwrap_or(i64::MAX / 2);
                            ui.add(egui::DragValue::new(&mut v).range(lo..=hi))
                                .labelled_by(l.id);
                            *value = v.to_string();
                        }
                        OptionType::Choice => {
                            let shown = o
                                .choices
                                .iter()
                                .find(|(c, _)| c == value)
                                .map_or(value.clone(), |(_, l)| l.clone());
                            egui::ComboBox::from_id_salt(("option", &o.id))
                                .selected_text(shown)
                                .show_ui(ui, |ui| {
                                    for (c, l) in &o.choices {
                                        ui.selectable_value(value, c.clone(), l);
                                    }
                                })
                                .response
                                .labelled_by(l.id);
                        }
                    });
                    ui.end_row();
                }
                let l = ui.label("Seed");
                ui.horizontal(|ui| {
                    ui.add(egui::TextEdit::singleline(&mut d.seed).desired_width(180.0))
                        .labelled_by(l.id);
                    if ui.small_button("New seed").clicked() {
                        d.seed = random_seed().to_string();
                    }
                });
                ui.end_row();
            });
        ui.add_space(8.0);
        let seed = d.seed.trim().parse::<u64>();
        if seed.is_err() {
            ui.colored_label(
                ui.visuals().error_fg_color,
                "The seed is a whole number, 0 or more.",
            );
        }
        self.dialog_def = Some(def.clone());
        if ui
            .add_enabled(seed.is_ok(), egui::Button::new("Start the game"))
            .clicked()
        {
            // Through the app, which asks first when a game in progress would be lost.
            out.push(Command::StartGame);
        }
        if self.snap.is_some() && ui.button("Back to the game in progress").clicked() {
            self.dialog = None;
        }
        if !fixed {
            self.online_choices(ui, def);
        }
    }

    /// Playing online: host the game chosen above at an address (a server in this Studio;
    /// the people's seats are joined by code, the first one by you), or join a table.
    fn online_choices(&mut self, ui: &mut egui::Ui, def: &Arc<GameDef>) {
        ui.add_space(10.0);
        ui.separator();
        ui.strong("Online");
        ui.add(
            egui::Label::new(
                "Host the game chosen above: you take the first Person seat, and the others join with the table's code. An online table draws its own secret seed.",
            )
            .wrap(),
        );
        egui::Grid::new("online-host")
            .num_columns(2)
            .spacing([12.0, 6.0])
            .show(ui, |ui| {
                let l = ui.label("Host at");
                ui.add(
                    egui::TextEdit::singleline(&mut self.host_addr)
                        .hint_text("127.0.0.1:0")
                        .desired_width(180.0),
                )
                .labelled_by(l.id)
                .on_hover_text(
                    "IP address and port to listen at: 127.0.0.1 for this machine only, 0.0.0.0 for others on the network; port 0 takes any free port",
                );
                ui.end_row();
                let l = ui.label("Your name");
                ui.add(
                    egui::TextEdit::singleline(&mut self.player_name)
                        .hint_text("Player 1")
                        .desired_width(180.0),
                )
                .labelled_by(l.id);
                ui.end_row();
            });
        let Some(d) = &self.dialog else { return };
        let people = d.seats.iter().any(SeatKind::is_person);
        if !people {
            ui.weak("Choose Person for the seat you play to host online.");
        }
        // A server lets a search bot think with a bounded budget, whatever the game's levels.
        let cap = farebox_server::protocol::MAX_SEARCH_PLAYOUTS;
        let too_strong = d.seats.iter().enumerate().find_map(|(i, s)| match s {
            SeatKind::Bot(id) => farebox::search::Search::parse_spec(id, def)
                .ok()
                .filter(|(n, _)| *n > cap && def.bot(id).is_none())
                .map(|(n, _)| (i, n)),
            SeatKind::Person => None,
        });
        if let Some((i, n)) = too_strong {
            ui.weak(format!(
                "{}'s search bot thinks with {n} playouts a move; an online table allows at most {cap}: choose a lighter one to host online.",
                def.seat_name(i)
            ));
        }
        let mut host = false;
        let mut join = false;
        ui.horizontal(|ui| {
            host = ui
                .add_enabled(
                    people && too_strong.is_none(),
                    egui::Button::new("Host online"),
                )
                .clicked();
            join = ui.button("Join online…").clicked();
        });
        if host {
            let spec = online::HostSpec {
                addr: self.host_addr.trim().to_string(),
                seats: d
                    .seats
                    .iter()
                    .map(|s| match s {
                        SeatKind::Person => farebox_server::protocol::PERSON.to_string(),
                        SeatKind::Bot(id) => id.clone(),
                    })
                    .collect(),
                options: d.options.iter().cloned().collect(),
                name: self.player_name.clone(),
                grace: std::time::Duration::from_secs(30),
            };
            self.online = Some(online::Online::host(&self.ctx, def.clone(), spec));
        } else if join {
            self.online = Some(online::Online::join_form(
                &self.ctx,
                def.clone(),
                "",
                &self.player_name,
            ));
        }
    }
}

pub(super) fn new_game(def: &GameDef) -> NewGame {
    let n = def.players.0.max(2).min(def.players.1) as usize;
    let bot = def
        .bots
        .first()
        .map_or(SeatKind::Bot("random".into()), |b| {
            SeatKind::Bot(b.id.clone())
        });
    let mut seats = vec![bot; n];
    if let Some(s) = seats.first_mut() {
        *s = SeatKind::Person;
    }
    NewGame {
        seats,
        options: def
            .options
            .iter()
            .map(|o| (o.id.clone(), o.default.to_string()))
            .collect(),
        seed: random_seed().to_string(),
        fork: None,
    }
}

/// A seed for a new game: the clock is fine here, since the seed is shown and recorded, and
/// the game itself draws every number from it.
pub(super) fn random_seed() -> u64 {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    (t ^ (t >> 29)) % 1_000_000
}

/// The option (by index) and value under which option `i` matters, as its `applies_when`
/// says, with the value as the dialog holds it ("true", or a choice id).
pub(super) fn applies_when(def: &GameDef, i: usize) -> Option<(usize, String)> {
    let (other, is) = def.options.get(i)?.applies_when.as_ref()?;
    let j = def.options.iter().position(|o| &o.id == other)?;
    let want = match is {
        Value::Str(s) => s.clone(),
        v => v.to_string(),
    };
    Some((j, want))
}

/// Whether a game has anything some seat may not see: then people sharing a screen take
/// turns behind a hand-off screen.
pub(super) fn hides_anything(def: &GameDef) -> bool {
    def.zones.iter().any(|z| z.visibility != Visibility::Public)
}
