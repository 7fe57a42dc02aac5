//! Farebox Studio: an eframe/egui app that opens any mod, draws its board, plays it with
//! people and bots, reloads it when its files change and runs its seeded outcomes.
//!
//! Panels draw and push [`Command`]s; [`Studio::apply`] carries them out after the frame's
//! drawing. Everything slow happens on another thread: loading and validating a mod
//! ([`reload`]), the game itself and its bots ([`worker`]: a game's Luau VM cannot leave the
//! thread that made it), and outcome runs ([`outcomes`]). The UI thread only polls channels.

pub mod board_edit;
pub mod board_view;
pub mod cell_text;
pub mod console;
pub mod content;
pub mod edit;
pub mod files;
pub mod items;
pub mod library;
pub mod outcomes;
pub mod play;
pub mod reload;
pub mod replay_view;
pub mod sheets;
pub mod worker;

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use farebox::{Diagnostic, GameDef};

use reload::{Loaded, ModPlace, Watcher};

/// What a panel asks the app to do.
pub enum Command {
    /// Opens a mod: a bundled id or a folder.
    Open(String),
    /// Back to the start screen.
    Close,
    /// Shows a tab.
    Show(Tab),
    /// Loads the open mod again now (as a file change would).
    Reload,
    /// Starts a new game in the Play tab from a replay's first `steps` actions.
    Fork {
        setup: farebox::game::Setup,
        history: Vec<String>,
    },
    /// Changes the open mod's content (the editors).
    Edit(edit::Edit),
    /// The next edit is an undo step of its own (a text field lost focus).
    SealEdit,
    /// The edits until [`Command::EndGroup`] undo as one step (a paint stroke).
    BeginGroup(String),
    EndGroup,
    Undo,
    Redo,
    /// Writes the edited files.
    Save,
    /// Starts the game chosen in the Play tab's new-game dialog.
    StartGame,
    /// Undoes the viewing person's last move in the Play tab (where the game allows it).
    UndoMove,
    /// Carries out a command that closes the mod or replaces the game without asking
    /// again: the person answered [`Leave`]'s question.
    Confirmed(Box<Command>),
    /// Drops the unsaved edits (the person chose to lose them).
    Discard,
    /// Settles a file changed on disk while it had unsaved edits: keep the edits made here,
    /// or take the disk's version.
    Settle {
        file: String,
        keep_mine: bool,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tab {
    Play,
    Outcomes,
    Replay,
    /// The board editor.
    Board,
    /// Decks and tables as spreadsheets.
    Data,
    Diagnostics,
    /// Luau against the game shown, and what scripts print.
    Console,
}

/// The open mod: where it lives, the last version that loaded, and what is wrong with the
/// newest one.
pub struct Project {
    pub place: ModPlace,
    /// The last version that loaded and validated: it keeps running while edits are broken.
    pub def: Option<Arc<GameDef>>,
    /// For a house rule: the game it builds on, for the outcomes beside it.
    pub base: Option<(Arc<GameDef>, PathBuf)>,
    pub diagnostics: Vec<Diagnostic>,
    loading: Option<Receiver<Loaded>>,
    base_loading: Option<Receiver<Loaded>>,
    watcher: Option<Watcher>,
    /// What the last load did, for the status line.
    pub status: String,
    /// Loads that replaced a running version (not the first).
    pub reloads: u32,
    /// From the change being noticed to the new version being live, for the last reload.
    pub last_reload: Option<Duration>,
    /// The content being edited, once an editor was opened.
    pub content: Option<content::Content>,
    /// The files whose change on disk started the load or check under way, as the status
    /// line names them ("rules/main.luau", "decks/fares.toml and 2 other files").
    changed: Option<String>,
}

pub struct Studio {
    ctx: egui::Context,
    library: library::Library,
    pub project: Option<Project>,
    pub tab: Tab,
    pub play: play::PlayPanel,
    pub outcomes: outcomes::Outcomes,
    pub replay: replay_view::ReplayPanel,
    pub sheets: sheets::Sheets,
    pub board: board_edit::BoardEditor,
    pub console: console::Console,
    commands: Vec<Command>,
    /// The window title last set.
    title: String,
    /// Something would be lost: the question shown, and what waits for its answer.
    leaving: Option<Leave>,
}

/// What waits while the Studio asks whether to lose unsaved edits or a game in progress.
pub enum Leave {
    /// The window is closing.
    Window,
    /// A command that closes the mod or replaces the game.
    Then(Box<Command>),
}

/// What a command would throw away: the unsaved edits (their files), a game in progress
/// (its step).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Loss {
    pub edits: Vec<String>,
    pub game: Option<usize>,
}

impl Loss {
    pub fn is_empty(&self) -> bool {
        self.edits.is_empty() && self.game.is_none()
    }

    /// One sentence naming what would be lost.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if !self.edits.is_empty() {
            parts.push(format!("unsaved edits in {}", self.edits.join(", ")));
        }
        if let Some(step) = self.game {
            parts.push(format!("a game in progress at action {step}"));
        }
        let mut s = parts.join("; ");
        if let Some(first) = s.get(..1) {
            s = first.to_uppercase() + s.get(1..).unwrap_or("");
        }
        s
    }
}

impl Studio {
    /// A Studio on the start screen, or opening `open` (a bundled id or a folder).
    pub fn new(ctx: &egui::Context, open: Option<String>) -> Studio {
        Studio::with_recent(ctx, open, library::recent_file())
    }

    /// A Studio that keeps its recent folders in memory only, leaving the user's settings
    /// alone (for tests and benchmarks).
    pub fn without_settings(ctx: &egui::Context, open: Option<String>) -> Studio {
        Studio::with_recent(ctx, open, None)
    }

    fn with_recent(ctx: &egui::Context, open: Option<String>, recent: Option<PathBuf>) -> Studio {
        add_fallback_fonts(ctx);
        let wake = waker(ctx);
        let mut s = Studio {
            ctx: ctx.clone(),
            library: library::Library::new(wake, recent),
            project: None,
            tab: Tab::Play,
            play: play::PlayPanel::new(ctx),
            outcomes: outcomes::Outcomes::new(),
            replay: replay_view::ReplayPanel::new(ctx),
            sheets: sheets::Sheets::default(),
            board: board_edit::BoardEditor::default(),
            console: console::Console::new(ctx),
            commands: Vec::new(),
            title: String::new(),
            leaving: None,
        };
        if let Some(m) = open {
            s.apply(Command::Open(m));
        }
        s
    }

    /// One frame: picks up finished work, draws, then carries out the commands.
    pub fn frame(&mut self, ui: &mut egui::Ui) {
        self.poll();
        let mut out = std::mem::take(&mut self.commands);
        self.shortcuts(ui, &mut out);
        self.top_bar(ui, &mut out);
        if matches!(self.tab, Tab::Board | Tab::Data) {
            self.outcomes_strip(ui, &mut out);
        }
        egui::CentralPanel::default().show(ui, |ui| match &self.project {
            None => {
                egui::ScrollArea::vertical().show(ui, |ui| self.library.ui(ui, &mut out));
            }
            Some(p) => match self.tab {
                Tab::Play => self.play.ui(ui, p, &mut out),
                Tab::Outcomes => self.outcomes.ui(ui),
                Tab::Replay => self.replay.ui(ui, p, &mut out),
                Tab::Data | Tab::Board => match &p.content {
                    Some(c) if self.tab == Tab::Data => {
                        self.sheets.outcomes = self.outcomes.card_column();
                        self.sheets.ui(ui, p, c, &mut out)
                    }
                    Some(c) => self.board.ui(ui, p, c, &mut out),
                    None => {
                        ui.label("The mod's files could not be opened for editing.");
                    }
                },
                Tab::Diagnostics => diagnostics_ui(ui, p, &mut out),
                Tab::Console => self
                    .console
                    .ui(ui, self.play.snapshot(), self.replay.snapshot()),
            },
        });
        if let Some((def, settings, seed)) = self.outcomes.open_failed.take() {
            self.replay.open_failed(&def, settings, seed);
            self.tab = Tab::Replay;
        }
        self.conflicts_ui(ui, &mut out);
        self.leaving_ui(ui, &mut out);
        for c in out {
            self.apply(c);
        }
        self.set_title(ui.ctx());
    }

    /// Ctrl+S saves. Ctrl+Z acts on the tab shown: in Play it undoes the person's last move
    /// (and Ctrl+Shift+Z does nothing: moves are not redone), in the editors it undoes and
    /// Ctrl+Shift+Z (or Ctrl+Y) redoes edits; never while a text field has the keyboard
    /// (it undoes its own typing).
    fn shortcuts(&mut self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        use egui::{Key, KeyboardShortcut, Modifiers};
        if self.project.is_none() {
            return;
        }
        let ctx = ui.ctx().clone();
        let save = KeyboardShortcut::new(Modifiers::COMMAND, Key::S);
        let redo = KeyboardShortcut::new(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
        let redo_y = KeyboardShortcut::new(Modifiers::COMMAND, Key::Y);
        let undo = KeyboardShortcut::new(Modifiers::COMMAND, Key::Z);
        let editing = self.project.as_ref().is_some_and(|p| p.content.is_some());
        if editing && ctx.input_mut(|i| i.consume_shortcut(&save)) {
            out.push(Command::Save);
        }
        if ctx.egui_wants_keyboard_input() {
            return;
        }
        // The longer shortcut first: Ctrl+Shift+Z also matches Ctrl+Z's keys.
        let redo = ctx.input_mut(|i| i.consume_shortcut(&redo) || i.consume_shortcut(&redo_y));
        let undo = !redo && ctx.input_mut(|i| i.consume_shortcut(&undo));
        match self.tab {
            Tab::Play if undo => out.push(Command::UndoMove),
            Tab::Board | Tab::Data if editing && redo => out.push(Command::Redo),
            Tab::Board | Tab::Data if editing && undo => out.push(Command::Undo),
            _ => {}
        }
    }

    /// The window's title: the mod, and a mark while edits are unsaved.
    /// Under the editors: what the last edit did to the outcomes (provisional figures as
    /// they come, then the whole run's), or a button to start them.
    fn outcomes_strip(&mut self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        if self.project.is_none() || !self.outcomes.runnable() {
            return;
        }
        self.outcomes.poll();
        let line = self.outcomes.status_line();
        if self.outcomes.is_running() {
            ui.ctx().request_repaint_after(Duration::from_millis(250));
        }
        let mut run = false;
        egui::Panel::bottom("editor-outcomes").show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                match &line {
                    Some(l) => {
                        ui.label(l);
                    }
                    None => {
                        ui.label("Outcomes: not run for this version.");
                        run = ui
                            .button("Run outcomes")
                            .on_hover_text("Play the seeded games in the background; after each valid edit they run again")
                            .clicked();
                    }
                }
                if ui.link("Open the Outcomes tab").clicked() {
                    out.push(Command::Show(Tab::Outcomes));
                }
            });
        });
        if run {
            self.outcomes.run_now(ui.ctx());
        }
    }

    fn set_title(&mut self, ctx: &egui::Context) {
        let title = match &self.project {
            None => "Farebox Studio".to_string(),
            Some(p) => {
                let name = p
                    .def
                    .as_ref()
                    .map_or(p.place.name.clone(), |d| d.name.clone());
                let dirty = p.content.as_ref().is_some_and(|c| c.unsaved());
                format!("{}{name} — Farebox Studio", if dirty { "● " } else { "" })
            }
        };
        if title != self.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
    }

    /// Whether edits are unsaved.
    pub fn unsaved(&self) -> bool {
        self.project
            .as_ref()
            .and_then(|p| p.content.as_ref())
            .is_some_and(|c| c.unsaved())
    }

    /// A file changed on disk while it had unsaved edits here: which to keep.
    fn conflicts_ui(&mut self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        let Some(file) = self
            .project
            .as_ref()
            .and_then(|p| p.content.as_ref())
            .and_then(|c| c.conflicts.first().cloned())
        else {
            return;
        };
        egui::Modal::new(egui::Id::unique("farebox-conflict")).show(ui.ctx(), |ui| {
            ui.heading("Changed in two places");
            ui.label(format!(
                "{file} was changed on disk, and it has edits here that are not saved."
            ));
            ui.horizontal(|ui| {
                if ui
                    .button("Keep my edits")
                    .on_hover_text("Saving will overwrite the file on disk")
                    .clicked()
                {
                    out.push(Command::Settle {
                        file: file.clone(),
                        keep_mine: true,
                    });
                }
                if ui
                    .button("Take the file from disk")
                    .on_hover_text("The edits made here to this file are dropped")
                    .clicked()
                {
                    out.push(Command::Settle {
                        file: file.clone(),
                        keep_mine: false,
                    });
                }
            });
        });
    }

    /// What a command would throw away: closing the mod or opening another loses the
    /// unsaved edits and the game in progress; forking or starting a new game loses the game.
    pub fn at_risk(&self, c: &Command) -> Loss {
        match c {
            Command::Open(_) | Command::Close if self.project.is_some() => Loss {
                edits: self.unsaved_files(),
                game: self.play.in_progress(),
            },
            Command::Fork { .. } | Command::StartGame => Loss {
                edits: Vec::new(),
                game: self.play.in_progress(),
            },
            _ => Loss::default(),
        }
    }

    /// The open mod's files with unsaved edits.
    fn unsaved_files(&self) -> Vec<String> {
        match self.project.as_ref().and_then(|p| p.content.as_ref()) {
            Some(c) if c.unsaved() => c.editor.docs().dirty_files(),
            _ => Vec::new(),
        }
    }

    /// Whether the question about losing work shows.
    pub fn asking(&self) -> bool {
        self.leaving.is_some()
    }

    /// Closing the window, closing the mod or replacing the game asks first when unsaved
    /// edits or a game in progress would be lost: the question names them, and offers to
    /// save and go on, to discard and go on (or to leave the game), or to cancel.
    fn leaving_ui(&mut self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        let ctx = ui.ctx().clone();
        if ctx.input(|i| i.viewport().close_requested()) && self.unsaved() && self.leaving.is_none()
        {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.leaving = Some(Leave::Window);
        }
        let Some(leave) = &self.leaving else {
            return;
        };
        let window = matches!(leave, Leave::Window);
        let loss = match leave {
            Leave::Window => Loss {
                edits: self.unsaved_files(),
                game: None,
            },
            Leave::Then(c) => self.at_risk(c),
        };
        let mut done = false;
        let mut go = None::<bool>;
        egui::Modal::new(egui::Id::unique("farebox-leaving")).show(&ctx, |ui| {
            ui.heading(if loss.edits.is_empty() {
                "Leave the game?"
            } else {
                "Unsaved edits"
            });
            ui.label(format!("{}.", loss.describe()));
            ui.horizontal(|ui| {
                let on = if window { "close" } else { "go on" };
                if loss.edits.is_empty() {
                    if ui.button("Leave the game").clicked() {
                        go = Some(false);
                    }
                } else {
                    if ui.button(format!("Save and {on}")).clicked() {
                        out.push(Command::Save);
                        go = Some(true);
                    }
                    let discard = if window {
                        "Close without saving".to_string()
                    } else {
                        "Discard and go on".to_string()
                    };
                    if ui.button(discard).clicked() {
                        out.push(Command::Discard);
                        go = Some(false);
                    }
                }
                if ui.button("Cancel").clicked() {
                    done = true;
                }
            });
        });
        if go.is_some() {
            done = true;
            match self.leaving.take() {
                Some(Leave::Window) => ctx.send_viewport_cmd(egui::ViewportCommand::Close),
                Some(Leave::Then(c)) => out.push(Command::Confirmed(c)),
                None => {}
            }
        }
        if done {
            self.leaving = None;
        }
    }

    fn top_bar(&mut self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        let Some(p) = &self.project else {
            return;
        };
        egui::Panel::top("studio-top").show(ui, |ui| {
            ui.horizontal(|ui| {
                if ui
                    .button("All games")
                    .on_hover_text("Back to the start screen")
                    .clicked()
                {
                    out.push(Command::Close);
                }
                let name = p
                    .def
                    .as_ref()
                    .map_or(p.place.name.clone(), |d| d.name.clone());
                ui.heading(name);
                ui.separator();
                for (tab, label) in [
                    (Tab::Play, "Play".to_string()),
                    (Tab::Outcomes, "Outcomes".to_string()),
                    (Tab::Replay, "Replay".to_string()),
                    (Tab::Board, "Board".to_string()),
                    (Tab::Data, "Decks & tables".to_string()),
                    (
                        Tab::Diagnostics,
                        if p.diagnostics.is_empty() {
                            "Diagnostics".to_string()
                        } else {
                            format!("Diagnostics ({})", p.diagnostics.len())
                        },
                    ),
                    (Tab::Console, "Console".to_string()),
                ] {
                    if ui.selectable_label(self.tab == tab, label).clicked() {
                        out.push(Command::Show(tab));
                    }
                }
                ui.separator();
                edit_menu(ui, self.tab, p.content.as_ref(), &self.play, out);
                ui.separator();
                if p.loading.is_some() {
                    ui.spinner();
                }
                let status = egui::RichText::new(&p.status);
                if p.diagnostics.is_empty() {
                    ui.label(status);
                } else {
                    ui.colored_label(ui.visuals().error_fg_color, status);
                }
            });
        });
    }

    /// Carries out one command.
    pub fn apply(&mut self, c: Command) {
        if !self.at_risk(&c).is_empty() {
            self.leaving = Some(Leave::Then(Box::new(c)));
            return;
        }
        self.carry_out(c);
    }

    /// Carries out one command the person has agreed to (or that loses nothing).
    fn carry_out(&mut self, c: Command) {
        match c {
            Command::Confirmed(c) => {
                // A save that failed keeps the edits: ask again rather than lose them.
                if matches!(*c, Command::Open(_) | Command::Close) && self.unsaved() {
                    self.leaving = Some(Leave::Then(c));
                    return;
                }
                // The game was given up: later steps (a fork's dialog) do not ask again.
                if matches!(*c, Command::Fork { .. } | Command::StartGame) {
                    self.play.end_game();
                }
                self.carry_out(*c);
            }
            Command::Discard => {
                if let Some(c) = self.content_mut() {
                    c.discard();
                }
            }
            Command::StartGame => self.play.start_chosen(),
            Command::UndoMove => self.play.undo_move(),
            Command::Open(spec) => self.open(&spec),
            Command::Close => {
                self.project = None;
                self.play.close();
            }
            Command::Show(t) => {
                self.tab = t;
                if matches!(t, Tab::Data | Tab::Board) {
                    self.open_content();
                }
            }
            Command::Edit(e) => {
                if let Some(c) = self.content_mut() {
                    c.apply(&e);
                }
            }
            Command::SealEdit => {
                if let Some(c) = self.content_mut() {
                    c.editor.seal();
                }
            }
            Command::BeginGroup(label) => {
                if let Some(c) = self.content_mut() {
                    c.editor.begin_group(&label);
                }
            }
            Command::EndGroup => {
                if let Some(c) = self.content_mut() {
                    c.editor.end_group();
                }
            }
            Command::Undo => {
                if let Some(c) = self.content_mut() {
                    c.undo();
                }
            }
            Command::Redo => {
                if let Some(c) = self.content_mut() {
                    c.redo();
                }
            }
            Command::Save => {
                if let Some(p) = &mut self.project
                    && let Some(c) = &mut p.content
                {
                    c.save(p.watcher.as_ref());
                }
            }
            Command::Settle { file, keep_mine } => {
                if let Some(c) = self.content_mut() {
                    c.settle(&file, keep_mine);
                }
            }
            Command::Reload => {
                if let Some(p) = &mut self.project {
                    p.changed = None;
                    start_load(p, &self.ctx, Instant::now());
                }
            }
            Command::Fork { setup, history } => {
                if let Some(p) = &self.project {
                    self.play.fork(p, setup, history);
                    self.tab = Tab::Play;
                }
            }
        }
    }

    fn open(&mut self, spec: &str) {
        let located = match crate::common::locate(spec) {
            Ok(l) => l,
            Err(e) => {
                self.library_error(e.message());
                return;
            }
        };
        if spec.contains('/') || std::path::Path::new(spec).is_dir() {
            self.library.opened(&located.folder);
        }
        let mut p = Project {
            place: ModPlace {
                name: located.name,
                folder: located.folder,
                resolver: located.resolver,
            },
            def: None,
            base: None,
            diagnostics: Vec::new(),
            loading: None,
            base_loading: None,
            watcher: None,
            status: "Loading…".into(),
            reloads: 0,
            last_reload: None,
            content: None,
            changed: None,
        };
        start_load(&mut p, &self.ctx, Instant::now());
        self.play.close();
        self.project = Some(p);
        self.tab = Tab::Play;
    }

    fn content_mut(&mut self) -> Option<&mut content::Content> {
        self.project.as_mut().and_then(|p| p.content.as_mut())
    }

    /// Opens the mod's files for editing (once).
    fn open_content(&mut self) {
        let Some(p) = &mut self.project else { return };
        if p.content.is_some() {
            return;
        }
        match content::Content::open(&p.place, &self.ctx) {
            Ok(c) => p.content = Some(c),
            Err(e) => p.status = e,
        }
    }

    fn library_error(&mut self, message: &str) {
        self.project = None;
        self.play.set_error(message);
    }

    /// Picks up loads that finished and file changes.
    fn poll(&mut self) {
        let Some(p) = &mut self.project else {
            return;
        };
        let paths = p.watcher.as_ref().map(Watcher::changed).unwrap_or_default();
        if !paths.is_empty() {
            let folders = p.watcher.as_ref().map(|w| w.folders.clone());
            p.changed = Some(changed_files(&paths, &folders.unwrap_or_default()));
            match &mut p.content {
                // The editor reads the changed files (unless they have unsaved edits) and
                // its check makes the new version live: scripts come from disk either way.
                Some(c) => {
                    if !c.disk_changed() {
                        c.check(Instant::now());
                    }
                }
                None => start_load(p, &self.ctx, Instant::now()),
            }
        }
        if let Some(c) = &mut p.content
            && let Some(done) = c.poll()
        {
            match done.result {
                Ok(def) => {
                    p.diagnostics.clear();
                    p.status = match p.changed.take() {
                        Some(files) => format!(
                            "{files} changed: reloaded, no problems (live {} ms after the change)",
                            done.since_edit.as_millis()
                        ),
                        None => format!(
                            "Edit checked in {} ms, live {} ms after it",
                            done.took.as_millis(),
                            done.since_edit.as_millis()
                        ),
                    };
                    p.def = Some(def.clone());
                    p.reloads += 1;
                    if let Some(t) = target(p) {
                        self.outcomes.set_target(t, base_target(p), false);
                        self.outcomes.rerun();
                    }
                    self.play.rebase(def);
                }
                Err(diags) => {
                    p.diagnostics = diags.0;
                    let n = p.diagnostics.len();
                    let problems = format!("{n} {}", crate::common::plural(n, "problem"));
                    p.status = match p.changed.take() {
                        Some(files) => format!(
                            "{files} changed: {problems}; the last good version keeps running"
                        ),
                        None => format!(
                            "The edited content has {problems}: the last good version keeps running"
                        ),
                    };
                }
            }
        }
        if let Some(rx) = &p.base_loading
            && let Ok(l) = rx.try_recv()
        {
            p.base_loading = None;
            if let (Ok(def), Some(folder)) = (l.result, l.folders.first()) {
                p.base = Some((def, folder.clone()));
                if let Some(t) = target(p) {
                    self.outcomes.set_target(t, base_target(p), false);
                }
            }
        }
        let Some(rx) = &p.loading else {
            return;
        };
        let Ok(loaded) = rx.try_recv() else {
            return;
        };
        p.loading = None;
        let first = p.def.is_none() && p.reloads == 0 && p.watcher.is_none();
        // Watch what the mod was read from (its dependencies too), once it is known.
        let watching = p.watcher.as_ref().map(|w| w.folders.clone());
        if watching.as_ref() != Some(&loaded.folders) {
            match Watcher::watch(&loaded.folders, waker(&self.ctx)) {
                Ok(w) => p.watcher = Some(w),
                Err(e) => p.status = e,
            }
        }
        match loaded.result {
            Ok(def) => {
                p.diagnostics.clear();
                let replaced = p.def.is_some();
                p.def = Some(def.clone());
                let live = loaded.asked.elapsed();
                let files = p.changed.take();
                p.status = if replaced {
                    p.reloads += 1;
                    p.last_reload = Some(live);
                    match files {
                        Some(files) => format!(
                            "{files} changed: reloaded, no problems (live {} ms after the change)",
                            live.as_millis()
                        ),
                        None => format!(
                            "Reloaded: loaded and checked in {} ms, no problems",
                            loaded.took.as_millis(),
                        ),
                    }
                } else {
                    format!("Loaded in {} ms", loaded.took.as_millis())
                };
                // A house rule's base game, for the outcomes beside it.
                let base_id = def.layers.iter().rev().nth(1).map(|(m, _)| m.clone());
                if let Some(id) = base_id
                    && let Some(folder) = p.place.resolver.folder(&id)
                {
                    let place = ModPlace {
                        name: id,
                        folder,
                        resolver: p.place.resolver.clone(),
                    };
                    p.base_loading = Some(reload::load(place, Instant::now(), waker(&self.ctx)));
                }
                if let Some(t) = target(p) {
                    self.outcomes.set_target(t, base_target(p), replaced);
                }
                if replaced {
                    self.play.rebase(def);
                } else {
                    self.play.opened(p);
                }
            }
            Err(diags) => {
                p.diagnostics = diags.0;
                let n = p.diagnostics.len();
                let problems = format!("{n} {}", crate::common::plural(n, "problem"));
                let files = p.changed.take();
                p.status = if p.def.is_some() {
                    match files {
                        Some(files) => format!(
                            "{files} changed: {problems}; the last good version keeps running"
                        ),
                        None => format!(
                            "The files have {problems}: the last good version keeps running"
                        ),
                    }
                } else {
                    format!(
                        "{} does not load: {} {}",
                        p.place.name,
                        p.diagnostics.len(),
                        crate::common::plural(p.diagnostics.len(), "error")
                    )
                };
                if first {
                    self.tab = Tab::Diagnostics;
                }
            }
        }
    }
}

impl Project {
    /// Whether the mod's folders are being watched for changes.
    pub fn watching(&self) -> bool {
        self.watcher.is_some()
    }
}

/// Undo and redo of the tab shown, each naming what it takes back or makes again (a move
/// in Play, an edit in the editors) or why there is nothing, and save.
fn edit_menu(
    ui: &mut egui::Ui,
    tab: Tab,
    c: Option<&content::Content>,
    play: &play::PlayPanel,
    out: &mut Vec<Command>,
) {
    let unsaved = c.is_some_and(|c| c.unsaved());
    let history = c.map(|c| c.editor.history());
    let (undo, redo) = match tab {
        Tab::Play => (
            play.undo_label()
                .map(|l| (format!("Undo move: {l}"), Command::UndoMove)),
            Err("Moves are not redone: play the move again".to_string()),
        ),
        Tab::Board | Tab::Data => match history {
            Some(h) => (
                h.undo_label()
                    .map(|l| (format!("Undo edit: {l}"), Command::Undo))
                    .ok_or_else(|| "Nothing to undo: no edits yet".to_string()),
                h.redo_label()
                    .map(|l| (format!("Redo edit: {l}"), Command::Redo))
                    .ok_or_else(|| "Nothing to redo".to_string()),
            ),
            None => (
                Err("The mod's files are not open for editing".to_string()),
                Err("Nothing to redo".to_string()),
            ),
        },
        _ => {
            let why = "Undo works in the Play tab (moves) and the editors (edits)".to_string();
            (Err(why.clone()), Err(why))
        }
    };
    let title = if unsaved { "Edit •" } else { "Edit" };
    let hover = match &undo {
        Ok((l, _)) => l.clone(),
        Err(why) => why.clone(),
    };
    ui.menu_button(title, |ui| {
        let save = if unsaved {
            Ok(("Save".to_string(), Command::Save))
        } else {
            Err("Nothing to save".to_string())
        };
        for (i, (item, keys)) in [(undo, "Ctrl+Z"), (redo, "Ctrl+Shift+Z"), (save, "Ctrl+S")]
            .into_iter()
            .enumerate()
        {
            if i == 2 {
                ui.separator();
            }
            match item {
                Ok((label, command)) => {
                    let button = egui::Button::new(label).shortcut_text(keys);
                    if ui.add(button).clicked() {
                        out.push(command);
                        ui.close();
                    }
                }
                Err(why) => {
                    let button = egui::Button::new(why).shortcut_text(keys);
                    ui.add_enabled(false, button);
                }
            }
        }
    })
    .response
    .on_hover_text(hover);
}

/// The changed files as the status line names them: relative to the watched folder that
/// holds them, the first by name and the rest counted.
fn changed_files(paths: &[PathBuf], folders: &[PathBuf]) -> String {
    let rel = |p: &PathBuf| {
        folders
            .iter()
            .find_map(|f| {
                p.strip_prefix(f)
                    .ok()
                    .or_else(|| p.strip_prefix(f.canonicalize().ok()?).ok())
                    .map(|r| r.display().to_string())
            })
            .unwrap_or_else(|| p.display().to_string())
    };
    let mut names: Vec<String> = paths.iter().map(rel).collect();
    names.sort();
    names.dedup();
    let shown = crate::common::shown(names.first().map_or("A file", String::as_str), 80);
    match names.len() {
        0 | 1 => shown,
        n => format!(
            "{shown} and {} other {}",
            n - 1,
            crate::common::plural(n - 1, "file")
        ),
    }
}

fn start_load(p: &mut Project, ctx: &egui::Context, asked: Instant) {
    p.loading = Some(reload::load(p.place.clone(), asked, waker(ctx)));
}

fn target(p: &Project) -> Option<outcomes::Target> {
    p.def.as_ref().map(|d| outcomes::Target {
        name: d.name.clone(),
        def: d.clone(),
        folder: p.place.folder.clone(),
    })
}

fn base_target(p: &Project) -> Option<outcomes::Target> {
    p.base.as_ref().map(|(d, f)| outcomes::Target {
        name: d.name.clone(),
        def: d.clone(),
        folder: f.clone(),
    })
}

/// Rules write labels with characters egui's own fonts lack (Curbside draws road shapes
/// with box-drawing characters): a system font that has them is added behind egui's.
fn add_fallback_fonts(ctx: &egui::Context) {
    const CANDIDATES: [&str; 3] = [
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/TTF/DejaVuSans.ttf",
        "/Library/Fonts/Arial Unicode.ttf",
    ];
    for path in CANDIDATES {
        let small = std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() < 64 << 20);
        let Some(bytes) = small.then(|| std::fs::read(path).ok()).flatten() else {
            continue;
        };
        ctx.add_font(egui::epaint::text::FontInsert {
            name: "fallback".into(),
            data: egui::FontData::from_owned(bytes),
            families: [egui::FontFamily::Proportional, egui::FontFamily::Monospace]
                .into_iter()
                .map(|family| egui::epaint::text::InsertFontFamily {
                    family,
                    priority: egui::epaint::text::FontPriority::Lowest,
                })
                .collect(),
        });
        return;
    }
}

/// A function that asks for a repaint, for other threads to call when they have news.
pub fn waker(ctx: &egui::Context) -> impl Fn() + Send + 'static {
    let ctx = ctx.clone();
    move || ctx.request_repaint()
}

/// Every problem of the newest version of the mod, with its place; each can be copied or
/// opened in the system's editor for that file.
fn diagnostics_ui(ui: &mut egui::Ui, p: &Project, out: &mut Vec<Command>) {
    ui.horizontal(|ui| {
        ui.heading("Diagnostics");
        if ui.button("Check again").clicked() {
            out.push(Command::Reload);
        }
    });
    if p.diagnostics.is_empty() {
        ui.label("No problems: the mod loads and validates.");
        return;
    }
    if p.def.is_some() {
        ui.label("The files on disk have these problems; the last version that loaded keeps running until they are fixed.");
    }
    egui::ScrollArea::vertical().show(ui, |ui| {
        for d in &p.diagnostics {
            ui.horizontal(|ui| {
                let place = if d.line == 0 {
                    d.path.clone()
                } else {
                    format!("{}:{}:{}", d.path, d.line, d.col)
                };
                if ui
                    .small_button("Copy")
                    .on_hover_text("Copy this line")
                    .clicked()
                {
                    ui.ctx().copy_text(d.to_string());
                }
                if ui
                    .small_button("Open")
                    .on_hover_text("Open the file in the system's editor")
                    .clicked()
                {
                    open_in_editor(&p.place.folder, d);
                }
                ui.monospace(place);
                ui.label(&d.message);
            });
        }
    });
}

/// Opens a diagnostic's file: with `$FAREBOX_EDITOR` (`{file}` and `{line}` in it are filled
/// in, e.g. `code -g {file}:{line}`), else the desktop's handler for the file.
fn open_in_editor(folder: &std::path::Path, d: &Diagnostic) {
    // Diagnostic paths start with the mod folder as it was given.
    let file = PathBuf::from(&d.path);
    let file = if file.exists() {
        file
    } else {
        folder.join(d.path.split('/').skip(1).collect::<Vec<_>>().join("/"))
    };
    let spawned = match std::env::var("FAREBOX_EDITOR") {
        Ok(template) => {
            let filled = template
                .replace("{file}", &file.display().to_string())
                .replace("{line}", &d.line.max(1).to_string());
            let mut parts = filled.split_whitespace();
            parts.next().map(|prog| {
                std::process::Command::new(prog)
                    .args(parts)
                    .spawn()
                    .map(|_| ())
            })
        }
        Err(_) => Some(
            std::process::Command::new("xdg-open")
                .arg(&file)
                .spawn()
                .map(|_| ()),
        ),
    };
    let _ = spawned;
}

impl eframe::App for Studio {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.frame(ui);
    }
}

/// Opens the Studio window (on `open`, a bundled id or a folder). `frames`, when given,
/// closes it after that many frames (the smoke test).
pub fn run(open: Option<String>, frames: Option<u32>) -> Result<(), String> {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Farebox Studio")
            .with_inner_size([1280.0, 820.0]),
        renderer: eframe::Renderer::Glow,
        ..Default::default()
    };
    eframe::run_native(
        "Farebox Studio",
        options,
        Box::new(move |cc| {
            let studio = Studio::new(&cc.egui_ctx, open);
            Ok(Box::new(Smoke {
                studio,
                frames,
                seen: 0,
            }))
        }),
    )
    .map_err(|e| format!("the Studio could not open a window: {e}"))
}

/// The app, closing itself after a number of frames when asked (for the smoke test).
struct Smoke {
    studio: Studio,
    frames: Option<u32>,
    seen: u32,
}

impl eframe::App for Smoke {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        self.studio.ui(ui, frame);
        self.seen += 1;
        if let Some(n) = self.frames {
            if self.seen >= n {
                ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
            } else {
                ui.ctx().request_repaint();
            }
        }
    }
}
