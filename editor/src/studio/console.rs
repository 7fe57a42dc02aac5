//! The Console tab: Luau typed against the game shown, and what scripts `print`.
//!
//! The console reads the game of the Play tab (paused or over) or the step the Replay tab
//! shows, with the rules' right to read everything and no right to change anything
//! ([`Game::inspect`]): an author asks `game.counter("gas", 2)` or
//! `game.cards(game.zone("hand", 1))` and sees the answer, and the game is never touched. The
//! game is rebuilt on a thread of the console's own from the setup and actions of what is
//! shown, which replays exactly, and kept while it still matches, so the panels' games and
//! their bots are never disturbed and the UI thread never waits.
//!
//! Completion comes from the API registry the stubs are made from: typing `game.` lists the
//! functions with their signatures, and Tab completes.
//!
//! Below it, the Printed panel: every line a script has printed in this Studio (the games of
//! the Play and Replay tabs, the outcome runs, the console's own code), newest last, with its
//! seed, action, file and line.

use std::collections::VecDeque;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex, OnceLock};

use farebox::GameDef;
use farebox::game::{Game, Setup};
use farebox::script::api::API;
use farebox::script::debug::{self, DebugLine};

use super::worker::Snapshot;

/// Lines the Printed panel keeps; older ones are dropped (and counted).
pub const KEPT_LINES: usize = 2000;

/// Everything scripts printed in this process, for the Printed panel.
#[derive(Default)]
pub struct Printed {
    pub lines: VecDeque<DebugLine>,
    /// Lines dropped to keep [`KEPT_LINES`].
    pub dropped: u64,
    /// Asked for a repaint when a line arrives.
    wake: Option<egui::Context>,
}

/// The process's Printed lines: set up (and made the engine's listener) the first time a
/// Studio asks.
pub fn printed() -> &'static Mutex<Printed> {
    static PRINTED: OnceLock<Mutex<Printed>> = OnceLock::new();
    PRINTED.get_or_init(|| {
        debug::listen(Some(Arc::new(|line: DebugLine| {
            if let Ok(mut p) = printed().lock() {
                if p.lines.len() >= KEPT_LINES {
                    p.lines.pop_front();
                    p.dropped += 1;
                }
                p.lines.push_back(line);
                if let Some(ctx) = &p.wake {
                    ctx.request_repaint();
                }
            }
        })));
        Mutex::new(Printed::default())
    })
}

/// Which game the console reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    Play,
    Replay,
}

/// A game to read: the mod, its setup and the actions taken.
#[derive(Clone)]
pub struct Position {
    pub def: Arc<GameDef>,
    pub setup: Setup,
    pub history: Vec<String>,
}

impl Position {
    /// The position of a game played here; None for an online game (its state is the
    /// server's: a seat holds only its view).
    pub fn of(snap: &Snapshot) -> Option<Position> {
        let local = snap.local.as_ref()?;
        Some(Position {
            def: snap.def.clone(),
            setup: local.setup.clone(),
            history: local.history.clone(),
        })
    }

    /// "action 12 of the game with seed 5".
    fn describe(&self) -> String {
        format!(
            "after action {} of the game with seed {}",
            self.history.len(),
            self.setup.seed
        )
    }
}

/// One thing typed and its answer.
pub struct Entry {
    pub code: String,
    /// Where it was read ("Play, after action 12 of the game with seed 5").
    pub at: String,
    pub answer: Result<String, String>,
}

struct Ask {
    position: Position,
    code: String,
}

/// The console's thread: keeps one rebuilt game and answers questions about it.
struct Reader {
    tx: Sender<Ask>,
    rx: Receiver<Result<String, String>>,
}

impl Reader {
    fn spawn(wake: impl Fn() + Send + 'static) -> Reader {
        let (tx, asks) = channel::<Ask>();
        let (answer, rx) = channel();
        let _ = std::thread::Builder::new()
            .name("farebox-console".into())
            .spawn(move || {
                let mut kept: Option<(Position, Game)> = None;
                while let Ok(ask) = asks.recv() {
                    let r = answer_on(&mut kept, ask);
                    if answer.send(r).is_err() {
                        return;
                    }
                    wake();
                }
            });
        Reader { tx, rx }
    }
}

/// Answers `ask` on the kept game when it is the same game, or one it can catch up with by
/// playing the actions since; otherwise on a game rebuilt from the setup.
fn answer_on(kept: &mut Option<(Position, Game)>, ask: Ask) -> Result<String, String> {
    let want = &ask.position;
    let reusable = kept.as_ref().is_some_and(|(had, _)| {
        Arc::ptr_eq(&had.def, &want.def)
            && had.setup == want.setup
            && want.history.starts_with(&had.history)
    });
    if !reusable {
        *kept = None;
        // Rebuilding replays the game's hooks: what they print was heard when the game was
        // played, so the rebuilt game is kept quiet.
        let host = farebox::script::Host::new(want.def.clone(), farebox::script::Limits::default())
            .map_err(|e| e.to_string())?;
        host.set_debug(None);
        let game = Game::with_host(want.setup.clone(), host).map_err(|e| e.to_string())?;
        *kept = Some((
            Position {
                history: vec![],
                ..want.clone()
            },
            game,
        ));
    }
    let Some((had, game)) = kept.as_mut() else {
        return Err("the game could not be rebuilt".into());
    };
    for action in &want.history[had.history.len()..] {
        if let Err(e) = game.apply_legal(action) {
            let at = had.history.len() + 1;
            *kept = None;
            return Err(format!(
                "the game could not be rebuilt: action {at} (`{action}`) fails: {e}"
            ));
        }
        had.history.push(action.clone());
    }
    game.inspect(&ask.code).map_err(|e| e.to_string())
}

pub struct Console {
    ctx: egui::Context,
    pub input: String,
    pub source: Source,
    pub entries: Vec<Entry>,
    /// The entry being recalled with the arrow keys.
    recalled: Option<usize>,
    reader: Option<Reader>,
    /// The question under way (its code and place), until the answer comes.
    waiting: Option<(String, String)>,
    /// The Printed panel's filter.
    pub filter: String,
}

impl Console {
    pub fn new(ctx: &egui::Context) -> Console {
        if let Ok(mut p) = printed().lock() {
            p.wake = Some(ctx.clone());
        }
        Console {
            ctx: ctx.clone(),
            input: String::new(),
            source: Source::Play,
            entries: vec![],
            recalled: None,
            reader: None,
            waiting: None,
            filter: String::new(),
        }
    }

    /// Whether a question is being answered.
    pub fn busy(&self) -> bool {
        self.waiting.is_some()
    }

    /// Picks up an answer that has come.
    pub fn poll(&mut self) {
        let Some(r) = &self.reader else { return };
        if let Ok(answer) = r.rx.try_recv()
            && let Some((code, at)) = self.waiting.take()
        {
            self.entries.push(Entry { code, at, answer });
        }
    }

    /// Asks `code` of the game at `position` (what the chosen tab shows).
    pub fn ask(&mut self, position: Position, code: &str) {
        let code = code.trim();
        if code.is_empty() || self.waiting.is_some() {
            return;
        }
        let at = format!(
            "{}, {}",
            match self.source {
                Source::Play => "Play",
                Source::Replay => "Replay",
            },
            position.describe()
        );
        let ctx = self.ctx.clone();
        let reader = self
            .reader
            .get_or_insert_with(|| Reader::spawn(move || ctx.request_repaint()));
        if reader
            .tx
            .send(Ask {
                position,
                code: code.to_string(),
            })
            .is_ok()
        {
            self.waiting = Some((code.to_string(), at));
        }
        self.recalled = None;
    }

    /// The tab: the game read, the entries, the input with completions, and the Printed panel.
    pub fn ui(&mut self, ui: &mut egui::Ui, play: Option<&Snapshot>, replay: Option<&Snapshot>) {
        self.poll();
        let shown = match self.source {
            Source::Play => play,
            Source::Replay => replay,
        };
        ui.horizontal(|ui| {
            ui.heading("Console");
            ui.label("Read:");
            ui.selectable_value(&mut self.source, Source::Play, "the Play tab's game");
            ui.selectable_value(&mut self.source, Source::Replay, "the Replay tab's step");
        });
        let position = shown.and_then(Position::of);
        match &position {
            Some(p) => ui.label(format!(
                "Luau against the game {}, with the rules' right to read everything (every seat's secrets) and no right to change anything. An expression shows its value; statements show what they `return`.",
                p.describe()
            )),
            None => ui.label(match self.source {
                Source::Play if shown.is_some() => {
                    "The Play tab's game is online: its state is the server's, and this seat holds only its own view, so the console cannot read it."
                }
                Source::Play => "No game in the Play tab: start one there, then read it here.",
                Source::Replay => "No replay open: open one in the Replay tab, then read it here.",
            }),
        };
        let printed_h = (ui.available_height() * 0.4).max(120.0);
        let answers_h = (ui.available_height() - printed_h - 90.0).max(80.0);
        egui::ScrollArea::vertical()
            .id_salt("console-entries")
            .max_height(answers_h)
            .stick_to_bottom(true)
            .auto_shrink([false, false])
            .show(ui, |ui| {
                for e in &self.entries {
                    entry_ui(ui, e);
                }
                if let Some((code, _)) = &self.waiting {
                    ui.horizontal(|ui| {
                        ui.spinner();
                        ui.monospace(format!("> {code}"));
                    });
                }
            });
        ui.separator();
        self.input_ui(ui, position);
        ui.separator();
        self.printed_ui(ui);
    }

    fn input_ui(&mut self, ui: &mut egui::Ui, position: Option<Position>) {
        let completions = completions(&self.input);
        let response = ui
            .horizontal(|ui| {
                ui.monospace(">");
                let r = ui.add(
                    egui::TextEdit::singleline(&mut self.input)
                        .id_salt("console-input")
                        .code_editor()
                        .hint_text(
                            "an expression, like game.turn() or data.id; Tab completes game.",
                        )
                        .desired_width(ui.available_width() - 80.0)
                        .lock_focus(true),
                );
                let run = ui
                    .add_enabled(position.is_some() && !self.busy(), egui::Button::new("Run"))
                    .on_disabled_hover_text("No game to read, or a question under way");
                (r, run.clicked())
            })
            .inner;
        let (edit, clicked) = response;
        let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if (enter || clicked)
            && let Some(p) = position
        {
            let code = std::mem::take(&mut self.input);
            self.ask(p, &code);
            edit.request_focus();
        }
        if edit.has_focus() {
            let (tab, up, down) = ui.input_mut(|i| {
                (
                    i.consume_key(egui::Modifiers::NONE, egui::Key::Tab),
                    i.consume_key(egui::Modifiers::NONE, egui::Key::ArrowUp),
                    i.consume_key(egui::Modifiers::NONE, egui::Key::ArrowDown),
                )
            });
            if tab && let Some(done) = complete(&self.input, &completions) {
                self.input = done;
                move_cursor_to_end(ui, edit.id, &self.input);
            }
            if up || down {
                self.recall(up);
                move_cursor_to_end(ui, edit.id, &self.input);
            }
        }
        if !completions.is_empty() {
            egui::ScrollArea::vertical()
                .id_salt("console-completions")
                .max_height(110.0)
                .show(ui, |ui| {
                    for (name, sig, doc) in completions.iter().take(12) {
                        ui.horizontal(|ui| {
                            ui.monospace(format!("game.{name}"));
                            ui.weak(*sig);
                        })
                        .response
                        .on_hover_text(*doc);
                    }
                    if completions.len() > 12 {
                        ui.weak(format!("and {} more", completions.len() - 12));
                    }
                });
        }
    }

    /// Puts an earlier entry's code in the input (up: older, down: newer).
    fn recall(&mut self, older: bool) {
        if self.entries.is_empty() {
            return;
        }
        let last = self.entries.len() - 1;
        let i = match (self.recalled, older) {
            (None, true) => Some(last),
            (None, false) => None,
            (Some(i), true) => Some(i.saturating_sub(1)),
            (Some(i), false) if i < last => Some(i + 1),
            (Some(_), false) => None,
        };
        self.recalled = i;
        self.input = i.map_or(String::new(), |i| self.entries[i].code.clone());
    }

    fn printed_ui(&mut self, ui: &mut egui::Ui) {
        let Ok(mut p) = printed().lock() else { return };
        ui.horizontal(|ui| {
            ui.strong("Printed by scripts");
            ui.weak(format!(
                "{} line{}{}",
                p.lines.len(),
                if p.lines.len() == 1 { "" } else { "s" },
                if p.dropped > 0 {
                    format!(", {} older ones dropped", p.dropped)
                } else {
                    String::new()
                }
            ));
            ui.add(
                egui::TextEdit::singleline(&mut self.filter)
                    .id_salt("printed-filter")
                    .hint_text("filter")
                    .desired_width(160.0),
            );
            if ui.button("Clear").clicked() {
                p.lines.clear();
                p.dropped = 0;
            }
        });
        if p.lines.is_empty() {
            ui.weak(
                "Nothing printed yet. `print(...)` in a rule script or bot writes here (and with `farebox --debug` to standard error); it never changes a game.",
            );
            return;
        }
        let filter = self.filter.to_lowercase();
        let shown: Vec<&DebugLine> = p
            .lines
            .iter()
            .filter(|l| {
                filter.is_empty()
                    || l.text.to_lowercase().contains(&filter)
                    || l.heading().to_lowercase().contains(&filter)
            })
            .collect();
        if shown.is_empty() {
            ui.weak("No printed line matches the filter.");
            return;
        }
        let row_h = ui.text_style_height(&egui::TextStyle::Monospace) + 2.0;
        egui::ScrollArea::both()
            .id_salt("printed-lines")
            .stick_to_bottom(true)
            .auto_shrink([false, false])
            .show_rows(ui, row_h, shown.len(), |ui, rows| {
                for l in &shown[rows] {
                    ui.horizontal(|ui| {
                        ui.weak(egui::RichText::new(l.heading()).monospace());
                        ui.monospace(&l.text);
                    });
                }
            });
    }
}

fn entry_ui(ui: &mut egui::Ui, e: &Entry) {
    ui.horizontal(|ui| {
        ui.monospace(format!("> {}", e.code));
        ui.weak(&e.at);
    });
    match &e.answer {
        Ok(v) => {
            ui.monospace(v);
        }
        Err(m) => {
            ui.colored_label(ui.visuals().error_fg_color, m);
        }
    }
    ui.add_space(4.0);
}

/// The API functions whose names complete the `game.` word the input ends with.
pub fn completions(input: &str) -> Vec<(&'static str, &'static str, &'static str)> {
    let word_start = input
        .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
        .map_or(0, |i| i + 1);
    let Some(prefix) = input[word_start..].strip_prefix("game.") else {
        return vec![];
    };
    API.iter()
        .filter(|(name, _, _)| name.starts_with(prefix) && *name != prefix)
        .copied()
        .collect()
}

/// The input with its last word completed: to the one function that fits (with an opening
/// bracket), or as far as every fitting name agrees.
pub fn complete(input: &str, found: &[(&str, &str, &str)]) -> Option<String> {
    let word_start = input
        .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
        .map_or(0, |i| i + 1);
    let head = &input[..word_start + "game.".len()];
    match found {
        [] => None,
        [(one, _, _)] => Some(format!("{head}{one}(")),
        many => {
            let first = many[0].0;
            let common = many.iter().fold(first.len(), |n, (name, _, _)| {
                first
                    .bytes()
                    .zip(name.bytes())
                    .take(n)
                    .take_while(|(a, b)| a == b)
                    .count()
            });
            Some(format!("{head}{}", &first[..common]))
        }
    }
}

fn move_cursor_to_end(ui: &egui::Ui, id: egui::Id, text: &str) {
    if let Some(mut state) = egui::TextEdit::load_state(ui.ctx(), id) {
        let end = egui::text::CCursor::new(text.chars().count());
        state
            .cursor
            .set_char_range(Some(egui::text::CCursorRange::one(end)));
        state.store(ui.ctx(), id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_dot_completes_from_the_registry() {
        let found = completions("local n = game.counte");
        let names: Vec<&str> = found.iter().map(|f| f.0).collect();
        assert_eq!(names, vec!["counter"]);
        assert_eq!(
            complete("local n = game.counte", &found).as_deref(),
            Some("local n = game.counter(")
        );
        // Several fit: completed as far as they agree.
        let found = completions("game.coun");
        let names: Vec<&str> = found.iter().map(|f| f.0).collect();
        assert!(
            names.contains(&"count") && names.contains(&"counter"),
            "{names:?}"
        );
        assert_eq!(complete("game.coun", &found).as_deref(), Some("game.count"));
        assert!(completions("data.ti").is_empty());
        assert!(completions("x = 1").is_empty());
    }
}
