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
pub mod files;
pub mod items;
pub mod library;
pub mod outcomes;
pub mod play;
pub mod print_view;
pub mod reload;
pub mod replay_view;
pub mod sheets;
pub mod worker;

mod chrome;
mod diagnostics;
mod history_panel;
mod leaving;
mod poll;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use farebox::{Diagnostic, GameDef};

use diagnostics::diagnostics_ui;
pub use leaving::{Leave, Loss};
use reload::{Loaded, ModPlace, Watcher};

/// A field of a card or row that names spaces, being set by clicking them on the board.
#[derive(Debug, Clone, PartialEq)]
pub struct PickSpace {
    /// What is being set, as the board's banner names it ("destinations of hare-family").
    pub what: String,
    /// The edit that sets the field (its value is filled in with what is picked).
    pub edit: crate::edit::Edit,
    /// A list of spaces (`refs`): Some, with how many it holds when that is fixed (else Done
    /// ends the picking); None for one space.
    pub list: Option<Option<usize>>,
    /// The spaces picked so far, for a list.
    pub picked: Vec<String>,
}

/// What a panel asks the app to do.
pub enum Command {
    /// Opens a mod: a bundled id or a folder.
    Open(String),
    /// A card's or row's field that names spaces is set by clicking them on the board: the
    /// Board tab is shown in picking mode.
    PickSpace(PickSpace),
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
    Edit(crate::edit::Edit),
    /// The next edit is an undo step of its own (a text field lost focus).
    SealEdit,
    /// The edits until [`Command::EndGroup`] undo as one step (a paint stroke).
    BeginGroup(String),
    EndGroup,
    /// Several edits made as one undo step named `label` (a tuner's proposal applied); the
    /// mod's files are opened for editing first if they are not yet.
    EditGroup {
        label: String,
        edits: Vec<crate::edit::Edit>,
    },
    Undo,
    Redo,
    /// Undoes or redoes edits until the first `n` steps of the history are made (the undo
    /// history panel).
    UndoTo(usize),
    /// Writes the edited files.
    Save,
    /// Starts the outcome games of the open version, unless they are running (the board
    /// editor's "Show play" offers it when there are none).
    RunOutcomes,
    /// Starts the game chosen in the Play tab's new-game dialog.
    StartGame,
    /// Undoes the viewing person's last move in the Play tab (where the game allows it).
    UndoMove,
    /// Leaves the game in Play (local, or a table online: a server hosted here stops) for
    /// the new-game dialog.
    LeaveGame,
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

/// Why the mod is being loaded or checked: the status line reports the verdict by it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Why {
    /// The mod was opened.
    Opened,
    /// Files changed on disk, named as the status line names them ("rules/main.luau",
    /// "decks/fares.toml and 2 other files").
    Files(String),
    /// An edit made in the Studio (or its undo, redo, a settled conflict).
    Edit,
    /// The person asked ("Check again").
    Asked,
}

impl Why {
    /// Two reasons for one check (a change came while a check ran): files changed on disk
    /// are named over an edit made here, the newest files over older ones.
    pub fn and(self, newer: Why) -> Why {
        match (self, newer) {
            (_, f @ Why::Files(_)) | (f @ Why::Files(_), _) => f,
            (_, n) => n,
        }
    }
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
    /// The paper edition: a preview, its warnings, Export PDF.
    Print,
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
    pub print: print_view::PrintPanel,
    commands: Vec<Command>,
    /// The window title last set.
    title: String,
    /// Something would be lost: the question shown, and what waits for its answer.
    leaving: Option<Leave>,
    /// The undo history panel is shown beside the editors (the top bar's "History").
    pub history_open: bool,
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
            print: print_view::PrintPanel::default(),
            commands: Vec::new(),
            title: String::new(),
            leaving: None,
            history_open: false,
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
        // Shard files dropped on any tab of an open mod are the Outcomes tab's to merge.
        if self.project.is_some() && outcomes::shards_dropped(ui.ctx()) {
            self.tab = Tab::Outcomes;
        }
        self.top_bar(ui, &mut out);
        if matches!(self.tab, Tab::Board | Tab::Data) {
            self.outcomes_strip(ui, &mut out);
            if self.history_open
                && let Some(c) = self.project.as_ref().and_then(|p| p.content.as_ref())
            {
                history_panel::history_ui(ui, c, &mut out);
            }
        }
        egui::CentralPanel::default().show(ui, |ui| match &self.project {
            None => {
                egui::ScrollArea::vertical().show(ui, |ui| self.library.ui(ui, &mut out));
            }
            Some(p) => match self.tab {
                Tab::Play => self.play.ui(ui, p, &mut out),
                Tab::Outcomes => self.outcomes.ui(ui, &mut out),
                Tab::Replay => self.replay.ui(ui, p, &mut out),
                Tab::Data | Tab::Board => match &p.content {
                    Some(c) if self.tab == Tab::Data => {
                        self.sheets.outcomes = self.outcomes.card_column();
                        self.sheets.ui(ui, p, c, &mut out)
                    }
                    Some(c) => {
                        let play = self.outcomes.play_run();
                        self.board.ui(ui, p, c, &play, &mut out)
                    }
                    None => {
                        ui.label("The mod's files could not be opened for editing.");
                    }
                },
                Tab::Diagnostics => diagnostics_ui(ui, p, &mut out),
                Tab::Console => self
                    .console
                    .ui(ui, self.play.snapshot(), self.replay.snapshot()),
                Tab::Print => self.print.ui(ui, p),
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
            Command::LeaveGame => self.play.leave_game(),
            Command::RunOutcomes => self.outcomes.run_if_idle(),
            Command::Open(spec) => self.open(&spec),
            Command::Close => {
                self.project = None;
                self.play.close();
            }
            Command::PickSpace(p) => {
                self.board.pick = Some(p);
                self.tab = Tab::Board;
                self.open_content();
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
            Command::EditGroup { label, edits } => {
                self.open_content();
                if let Some(c) = self.content_mut() {
                    c.editor.seal();
                    c.editor.begin_group(&label);
                    for e in &edits {
                        c.apply(e);
                    }
                    c.editor.end_group();
                    c.editor.seal();
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
            Command::UndoTo(n) => {
                if let Some(c) = self.content_mut() {
                    c.undo_to(n);
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
            // With the editor open the check goes through it, so the unsaved edits are
            // checked with the files on disk and stay live; else the disk is read again.
            Command::Reload => {
                if let Some(p) = &mut self.project {
                    match &mut p.content {
                        Some(c) => {
                            if !c.disk_changed(Why::Asked) {
                                c.check(Instant::now(), Why::Asked);
                            }
                        }
                        None => start_load(p, &self.ctx, Instant::now(), Why::Asked),
                    }
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
        };
        start_load(&mut p, &self.ctx, Instant::now(), Why::Opened);
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
}

impl Project {
    /// Whether the mod's folders are being watched for changes.
    pub fn watching(&self) -> bool {
        self.watcher.is_some()
    }

    /// Whether a load or a check of the mod is under way (its verdict is still to come).
    pub fn checking(&self) -> bool {
        self.loading.is_some() || self.content.as_ref().is_some_and(|c| c.checking())
    }
}

fn start_load(p: &mut Project, ctx: &egui::Context, asked: Instant, why: Why) {
    p.loading = Some(reload::load(p.place.clone(), asked, why, waker(ctx)));
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

impl eframe::App for Studio {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.frame(ui);
    }
}

/// Opens the Studio window (on `open`, a bundled id or a folder). `frames`, when given,
/// closes it after that many frames (the smoke test).
pub fn run(open: Option<String>, frames: Option<u32>) -> Result<(), String> {
    // Held until the window closes: while it is open the X server has a client, so a server
    // that resets when its last client leaves (Xvfb's default) cannot reset between the
    // probe and the toolkit's own connection.
    let _held = wait_for_display(Duration::from_secs(5))?;
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

/// Waits (up to `wait`) for a local X server named by `DISPLAY` to take connections. A
/// window system connection can be tried only once per process (the toolkit keeps its first
/// failure), so a Studio started just after its X server (`Xvfb :99 & DISPLAY=:99 farebox`),
/// or while the server resets after its last client left (what Xvfb does by default), used to
/// close at once with "could not open a window". Now it opens the X connection itself and
/// waits for the server's answer to the connection setup (at most `wait`, then the toolkit
/// tries as before), and returns that connection for the caller to hold, so the server keeps
/// a client until the toolkit has connected too. Remote displays (`host:0`) and Wayland
/// sessions are left to the toolkit.
fn wait_for_display(wait: Duration) -> Result<Option<std::os::unix::net::UnixStream>, String> {
    if std::env::var_os("WAYLAND_DISPLAY").is_some() {
        return Ok(None);
    }
    let Some(display) = std::env::var("DISPLAY").ok().filter(|d| !d.is_empty()) else {
        return Err(
            "the Studio needs a display, and DISPLAY is not set (on a machine without \
             one, start a virtual one: `Xvfb :99 &`, then `DISPLAY=:99 farebox`)"
                .into(),
        );
    };
    // ":N" or ":N.S" is the local socket /tmp/.X11-unix/XN.
    let Some(number) = display
        .strip_prefix(':')
        .and_then(|rest| rest.split('.').next())
        .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    else {
        return Ok(None);
    };
    let socket = PathBuf::from(format!("/tmp/.X11-unix/X{number}"));
    let start = Instant::now();
    let mut told = false;
    loop {
        match x_setup(&socket) {
            Some(XAnswer::Accepted(stream)) => return Ok(Some(stream)),
            // The server is up but wants credentials this probe does not send: it is the
            // toolkit's to connect with them.
            Some(XAnswer::Other) => return Ok(None),
            None => {}
        }
        // A server may listen elsewhere (an abstract socket alone): the toolkit has the
        // last word.
        if start.elapsed() >= wait {
            return Ok(None);
        }
        if !told {
            eprintln!("Waiting for the X server on DISPLAY={display}…");
            told = true;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// What an X server answered to a connection setup.
enum XAnswer {
    /// The connection is open and usable (held by the caller).
    Accepted(std::os::unix::net::UnixStream),
    /// The server answered, but refused or asked for authentication.
    Other,
}

/// Sends the X11 connection setup (protocol 11.0, no authorisation) over the local socket
/// and reads the first byte of the answer: 1 is success, 0 failure, 2 "authenticate". `None`
/// when the socket is not there, the connection is refused or closed before an answer (a
/// server still starting or resetting), or nothing comes within a second.
fn x_setup(socket: &Path) -> Option<XAnswer> {
    use std::io::{Read, Write};
    let mut stream = std::os::unix::net::UnixStream::connect(socket).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(1))).ok()?;
    // 'l': little-endian; then an unused byte, major 11, minor 0, empty authorisation name
    // and data, two unused bytes.
    let request = [b'l', 0, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    stream.write_all(&request).ok()?;
    let mut first = [0u8; 1];
    match stream.read(&mut first) {
        Ok(1) if first[0] == 1 => Some(XAnswer::Accepted(stream)),
        Ok(1) => Some(XAnswer::Other),
        _ => None,
    }
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
