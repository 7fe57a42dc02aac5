//! The settings of an outcome run in the Outcomes tab: the form (games, seed, players, a bot
//! per seat, the action cap), the mod's defaults, fitting settings to the mod, comparing them
//! with the accepted outcomes' settings, and the line that describes them.

use egui::Ui;
use farebox::GameDef;

use crate::accepted::Settings;
use crate::common::{MAX_AGENTS, MAX_CAP, MAX_GAMES, plural};

/// The settings editor: games, seed, players, one agent per seat and the action cap.
pub(super) fn settings_ui(ui: &mut Ui, s: &mut Settings, def: &GameDef) {
    let (lo, hi) = def.players;
    let lo = lo.clamp(1, MAX_AGENTS as u32) as u8;
    let hi = hi.clamp(u32::from(lo), MAX_AGENTS as u32) as u8;
    egui::Grid::new("outcomes-settings")
        .num_columns(2)
        .show(ui, |ui| {
            let l = ui.label("Games");
            ui.add(
                egui::DragValue::new(&mut s.games)
                    .range(1..=MAX_GAMES)
                    .speed(10),
            )
            .labelled_by(l.id);
            ui.end_row();
            let l = ui.label("Seed of the first game");
            ui.add(egui::DragValue::new(&mut s.seed)).labelled_by(l.id);
            ui.end_row();
            let l = ui.label("Players");
            if lo == hi {
                ui.label(lo.to_string());
            } else {
                ui.add(egui::DragValue::new(&mut s.players).range(lo..=hi))
                    .labelled_by(l.id);
            }
            ui.end_row();
            fit(s, def);
            let levels = if def.bot("search").is_none() {
                farebox::search::levels(def)
            } else {
                Vec::new()
            };
            let choices: Vec<&str> = std::iter::once("random")
                .chain(def.bots.iter().map(|b| b.id.as_str()))
                .chain(levels.iter().map(|(spec, _)| spec.as_str()))
                .collect();
            for seat in 0..s.players as usize {
                let name = def.seat_name(seat);
                ui.label(format!("Agent for {name}"));
                if let Some(agent) = s.bots.get_mut(seat) {
                    egui::ComboBox::new(("outcomes-agent", seat), "")
                        .selected_text(agent.as_str())
                        .show_ui(ui, |ui| {
                            for c in &choices {
                                let hover = match def.bot(c) {
                                    Some(b) => b.description.as_str(),
                                    None if c.starts_with("search") => {
                                        "The built-in search bot: tries each move in imagined games (only what its seat can see) played on by the mod's first bot, and keeps the one that does best"
                                    }
                                    None => "Picks any legal action at random",
                                };
                                ui.selectable_value(agent, c.to_string(), *c)
                                    .on_hover_text(hover);
                            }
                        })
                        .response
                        .on_hover_text(format!("The agent that plays {name}"));
                }
                ui.end_row();
            }
            let l = ui.label("Action cap");
            ui.add(
                egui::DragValue::new(&mut s.cap)
                    .range(1..=MAX_CAP)
                    .speed(10),
            )
            .labelled_by(l.id)
            .on_hover_text(
                "A game that reaches this many actions is stopped and counted as capped",
            );
            ui.end_row();
            if !s.options.is_empty() {
                ui.label("Options");
                ui.label(s.options.join(", "));
                ui.end_row();
            }
            if !s.forbid.is_empty() {
                ui.label("Forbidden to the bots");
                ui.horizontal(|ui| {
                    ui.label(s.forbid.join(", "));
                    if ui
                        .small_button("Allow again")
                        .on_hover_text("Play without restrictions")
                        .clicked()
                    {
                        s.forbid.clear();
                    }
                });
                ui.end_row();
            }
        });
}

/// The settings of a mod without accepted outcomes: 200 games from seed 1, the fewest
/// players, the first bot (or the random agent) in every seat.
pub(super) fn defaults(def: &GameDef) -> Settings {
    let players = def.players.0.clamp(1, MAX_AGENTS as u32) as u8;
    let agent = def.bots.first().map_or("random", |b| b.id.as_str());
    Settings {
        games: 200,
        seed: 1,
        players,
        bots: vec![agent.to_string(); players as usize],
        cap: 5000,
        options: Vec::new(),
        forbid: Vec::new(),
    }
}

/// `s` with one agent per seat (a short list repeats its last agent, as games do).
pub(super) fn per_seat(s: &Settings) -> Settings {
    let bots = (0..s.players as usize)
        .map(|i| {
            s.bots
                .get(i)
                .or(s.bots.last())
                .cloned()
                .unwrap_or_else(|| "random".into())
        })
        .collect();
    Settings { bots, ..s.clone() }
}

/// Whether `a` and `b` play the same games (a short list of agents repeats its last), but
/// for restricted play: a run with an id forbidden compares with the accepted outcomes, and
/// the difference is what the id is worth.
pub(super) fn same_settings(a: &Settings, b: &Settings) -> bool {
    a.games == b.games
        && a.seed == b.seed
        && a.players == b.players
        && a.cap == b.cap
        && a.options == b.options
        && (0..a.players as usize).all(|i| agent(a, i) == agent(b, i))
}

/// The agent of seat `i` (a short list repeats its last).
pub(super) fn agent(s: &Settings, i: usize) -> &str {
    s.bots
        .get(i)
        .or(s.bots.last())
        .map_or("random", String::as_str)
}

/// Fits `s` to what `def` has: seats in its range, one agent per seat, every agent one it has.
pub(super) fn fit(s: &mut Settings, def: &GameDef) {
    let (lo, hi) = def.players;
    let lo = lo.clamp(1, MAX_AGENTS as u32);
    let hi = hi.clamp(lo, MAX_AGENTS as u32);
    s.players = u32::from(s.players).clamp(lo, hi) as u8;
    if s.bots.len() != s.players as usize {
        let last = s.bots.last().cloned().unwrap_or_else(|| "random".into());
        s.bots.resize(s.players as usize, last);
    }
    let fallback = def.bots.first().map_or("random", |b| b.id.as_str());
    for b in &mut s.bots {
        let search = def.bot("search").is_none()
            && b.starts_with("search")
            && farebox::search::Search::from_spec(b, def, 0, 0).is_ok();
        if b != "random" && def.bot(b).is_none() && !search {
            *b = fallback.to_string();
        }
    }
    s.games = s.games.clamp(1, MAX_GAMES);
    s.cap = s.cap.clamp(1, MAX_CAP);
}

/// "20 games (seeds 1..20), 2 players, dispatcher, dispatcher, cap 5000".
pub(super) fn describe(s: &Settings) -> String {
    let mut text = format!(
        "{} {} (seeds {}..{}), {} players, {}, cap {}",
        s.games,
        plural(s.games as usize, "game"),
        s.seed,
        s.seed.wrapping_add(s.games.saturating_sub(1)),
        s.players,
        s.bots.join(", "),
        s.cap
    );
    if !s.options.is_empty() {
        text.push_str(&format!(", options {}", s.options.join(", ")));
    }
    text
}
