//! The start screen: bundled games, house rules (with the game each builds on), recently
//! opened folders, and a folder typed in by hand.
//!
//! The catalogue is read on a background thread (every bundled mod is loaded to learn its
//! name, players and layers); recent folders are kept in the user's config folder and
//! written atomically.

use std::path::{Path, PathBuf};
use std::sync::mpsc::Receiver;

use farebox::source::FolderResolver;

use super::Command;
use crate::common::mods_dir;

/// One bundled mod, as the start screen lists it.
#[derive(Debug, Clone)]
pub struct Entry {
    pub id: String,
    pub name: String,
    pub folder: PathBuf,
    pub players: (u32, u32),
    pub playable: bool,
    /// The game a house rule builds on (None for a base game).
    pub builds_on: Option<String>,
    /// Set when the mod does not load: it still opens, showing its diagnostics.
    pub broken: Option<usize>,
}

pub struct Library {
    catalogue: Option<Vec<Entry>>,
    loading: Option<Receiver<Vec<Entry>>>,
    pub recent: Vec<PathBuf>,
    /// Where the recent folders are kept (None: in memory only).
    recent_file: Option<PathBuf>,
    typed: String,
    browser: Option<super::files::Browser>,
    new: NewMod,
}

/// The "New" form: a new game, or a house rule for a game, made from `farebox new`'s
/// scaffolds on a thread and then opened.
#[derive(Default)]
struct NewMod {
    name: String,
    /// The game a house rule builds on (None: a new game).
    from: Option<String>,
    /// The folder the mod goes in (empty: not chosen yet).
    dir: String,
    making: Option<Receiver<Result<PathBuf, String>>>,
    error: Option<String>,
}

const MAX_RECENT: usize = 8;

impl Library {
    /// The start screen; `recent_file` keeps the recent folders between runs (see
    /// [`recent_file`]), or None to keep them in memory only.
    pub fn new(wake: impl Fn() + Send + 'static, recent_file: Option<PathBuf>) -> Library {
        let (tx, rx) = std::sync::mpsc::channel();
        let _ = std::thread::Builder::new()
            .name("farebox-catalogue".into())
            .spawn(move || {
                let _ = tx.send(catalogue(&mods_dir()));
                wake();
            });
        Library {
            catalogue: None,
            loading: Some(rx),
            recent: recent_file.as_deref().map(read_recent).unwrap_or_default(),
            recent_file,
            typed: String::new(),
            browser: None,
            new: NewMod::default(),
        }
    }

    /// Remembers a folder opened from disk, most recent first.
    pub fn opened(&mut self, folder: &Path) {
        let folder = folder
            .canonicalize()
            .unwrap_or_else(|_| folder.to_path_buf());
        self.recent.retain(|f| f != &folder);
        self.recent.insert(0, folder);
        self.recent.truncate(MAX_RECENT);
        if let Some(f) = &self.recent_file {
            write_recent(f, &self.recent);
        }
    }

    pub fn ui(&mut self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        if let Some(rx) = &self.loading
            && let Ok(c) = rx.try_recv()
        {
            self.catalogue = Some(c);
            self.loading = None;
        }
        ui.heading("Farebox Studio");
        ui.label("Open a game to play it, look at its board and run its outcomes.");
        ui.add_space(8.0);
        let Some(cat) = &self.catalogue else {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("Reading the bundled games…");
            });
            return;
        };
        ui.columns(2, |cols| {
            cols[0].strong("Games");
            for e in cat.iter().filter(|e| e.builds_on.is_none()) {
                entry_ui(&mut cols[0], e, cat, out);
            }
            cols[1].strong("House rules");
            for e in cat.iter().filter(|e| e.builds_on.is_some()) {
                entry_ui(&mut cols[1], e, cat, out);
            }
        });
        ui.add_space(12.0);
        ui.separator();
        ui.strong("Recently opened folders");
        if self.recent.is_empty() {
            ui.weak("None yet.");
        }
        for f in self.recent.clone() {
            if ui.link(f.display().to_string()).clicked() {
                out.push(Command::Open(f.display().to_string()));
            }
        }
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            ui.label("Open a mod folder:");
            let edit = ui.add(
                egui::TextEdit::singleline(&mut self.typed)
                    .hint_text("/path/to/my-mod")
                    .desired_width(360.0),
            );
            let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if (ui.button("Open folder").clicked() || enter) && !self.typed.trim().is_empty() {
                out.push(Command::Open(self.typed.trim().to_string()));
            }
            if ui
                .button("Browse…")
                .on_hover_text("Find a mod folder on disk")
                .clicked()
            {
                let start = self
                    .recent
                    .first()
                    .and_then(|f| f.parent())
                    .map_or_else(mods_dir, Path::to_path_buf);
                self.browser = Some(super::files::Browser::new(
                    ui.ctx(),
                    super::files::Want::ModFolder,
                    &start,
                ));
            }
        });
        if let Some(f) = super::files::show(&mut self.browser, ui.ctx()) {
            out.push(Command::Open(f.display().to_string()));
        }
        ui.add_space(12.0);
        ui.separator();
        self.new_ui(ui, out);
    }

    /// "New": a name, a game or a house rule for one, and a folder; made on a thread, then
    /// opened.
    fn new_ui(&mut self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        if let Some(rx) = &self.new.making
            && let Ok(done) = rx.try_recv()
        {
            self.new.making = None;
            match done {
                Ok(folder) => {
                    self.new.error = None;
                    self.new.name.clear();
                    out.push(Command::Open(folder.display().to_string()));
                }
                Err(e) => self.new.error = Some(e),
            }
        }
        if self.new.dir.is_empty() {
            let start = self
                .recent
                .first()
                .and_then(|f| f.parent())
                .map(Path::to_path_buf)
                .or_else(|| std::env::current_dir().ok())
                .unwrap_or_default();
            self.new.dir = start.display().to_string();
        }
        ui.strong("New");
        let games: Vec<(String, String)> = self
            .catalogue
            .iter()
            .flatten()
            .filter(|e| e.builds_on.is_none() && e.broken.is_none())
            .map(|e| (e.id.clone(), e.name.clone()))
            .collect();
        egui::Grid::new("new-mod").num_columns(2).show(ui, |ui| {
            let l = ui.label("New mod's id");
            ui.add(
                egui::TextEdit::singleline(&mut self.new.name)
                    .hint_text("night-shift")
                    .desired_width(200.0),
            )
            .labelled_by(l.id)
            .on_hover_text("Lowercase letters, digits and dashes; also the folder's name");
            ui.end_row();
            ui.label("What");
            ui.horizontal(|ui| {
                ui.radio_value(&mut self.new.from, None, "A new game");
                let house = self.new.from.is_some();
                if ui.radio(house, "A house rule for").clicked() && !house {
                    self.new.from = games.first().map(|g| g.0.clone());
                }
                if let Some(from) = &mut self.new.from {
                    let shown = games
                        .iter()
                        .find(|g| &g.0 == from)
                        .map_or(from.clone(), |g| g.1.clone());
                    egui::ComboBox::from_id_salt("new-from")
                        .selected_text(shown)
                        .show_ui(ui, |ui| {
                            for (id, name) in &games {
                                ui.selectable_value(from, id.clone(), name);
                            }
                        });
                }
            });
            ui.end_row();
            let l = ui.label("In folder");
            ui.add(egui::TextEdit::singleline(&mut self.new.dir).desired_width(360.0))
                .labelled_by(l.id);
            ui.end_row();
        });
        ui.horizontal(|ui| {
            let ready = !self.new.name.trim().is_empty() && self.new.making.is_none();
            if ui
                .add_enabled(ready, egui::Button::new("Create and open"))
                .clicked()
            {
                let (name, from) = (self.new.name.trim().to_string(), self.new.from.clone());
                let dir = PathBuf::from(self.new.dir.trim());
                let (tx, rx) = std::sync::mpsc::channel();
                let ctx = ui.ctx().clone();
                let _ = std::thread::Builder::new()
                    .name("farebox-new".into())
                    .spawn(move || {
                        let made = crate::scaffold::create(&name, from.as_deref(), &dir)
                            .map(|(folder, _)| folder)
                            .map_err(|e| e.message().to_string());
                        let _ = tx.send(made);
                        ctx.request_repaint();
                    });
                self.new.making = Some(rx);
            }
            if self.new.making.is_some() {
                ui.spinner();
            }
        });
        if let Some(e) = &self.new.error {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
    }
}

fn entry_ui(ui: &mut egui::Ui, e: &Entry, cat: &[Entry], out: &mut Vec<Command>) {
    ui.horizontal(|ui| {
        if ui.button(&e.name).clicked() {
            out.push(Command::Open(e.id.clone()));
        }
        let players = if e.players.0 == e.players.1 {
            format!("{} players", e.players.0)
        } else {
            format!("{}-{} players", e.players.0, e.players.1)
        };
        let mut what = vec![players];
        if let Some(b) = &e.builds_on {
            let base = cat
                .iter()
                .find(|c| &c.id == b)
                .map_or(b.clone(), |c| c.name.clone());
            what.push(format!("builds on {base}"));
        }
        if let Some(n) = e.broken {
            what.push(format!("{n} errors"));
        } else if !e.playable {
            what.push("content only".into());
        }
        ui.weak(what.join(" · "));
    });
}

/// Every bundled mod, loaded to learn what it is.
pub fn catalogue(dir: &Path) -> Vec<Entry> {
    let resolver = FolderResolver::new(dir);
    resolver
        .all()
        .into_iter()
        .map(|(id, folder)| {
            match farebox::content::load_mod(&farebox::source::FsSource::new(&folder), &resolver) {
                Ok(d) => Entry {
                    name: d.name.clone(),
                    players: d.players,
                    playable: d.playable(),
                    builds_on: d.layers.iter().rev().nth(1).map(|(m, _)| m.clone()),
                    broken: None,
                    id,
                    folder,
                },
                Err(diags) => Entry {
                    name: id.clone(),
                    players: (0, 0),
                    playable: false,
                    builds_on: None,
                    broken: Some(diags.len()),
                    id,
                    folder,
                },
            }
        })
        .collect()
}

/// Where the recent folders are kept: `$FAREBOX_CONFIG/recent.json`, else
/// `$XDG_CONFIG_HOME/farebox/recent.json`, else `~/.config/farebox/recent.json`.
pub fn recent_file() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("FAREBOX_CONFIG") {
        return Some(PathBuf::from(d).join("recent.json"));
    }
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))?;
    Some(base.join("farebox").join("recent.json"))
}

/// The recent folders that still exist.
fn read_recent(f: &Path) -> Vec<PathBuf> {
    let text = farebox::source::read_bounded(f, 64 * 1024).unwrap_or_default();
    let list: Vec<PathBuf> = serde_json::from_str(&text).unwrap_or_default();
    list.into_iter()
        .filter(|p| p.is_dir())
        .take(MAX_RECENT)
        .collect()
}

fn write_recent(f: &Path, list: &[PathBuf]) {
    if let Some(dir) = f.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    if let Ok(text) = serde_json::to_string_pretty(list) {
        let _ = farebox::source::write_atomic(f, &text);
    }
}

#[cfg(test)]
mod recent_tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// The list survives a restart, newest first, and a folder deleted since is dropped.
    #[test]
    fn recent_folders_are_kept_and_missing_ones_dropped() {
        let dir = std::env::temp_dir().join(format!("farebox-recent-{}", std::process::id()));
        let (a, b) = (dir.join("a"), dir.join("b"));
        std::fs::create_dir_all(&a).unwrap();
        std::fs::create_dir_all(&b).unwrap();
        let file = dir.join("config").join("recent.json");
        let mut lib = Library::new(|| {}, Some(file.clone()));
        lib.opened(&a);
        lib.opened(&b);
        assert_eq!(read_recent(&file).len(), 2);
        std::fs::remove_dir_all(&a).unwrap();
        let again = Library::new(|| {}, Some(file.clone()));
        assert_eq!(again.recent, vec![b.canonicalize().unwrap()]);
        let _ = std::fs::remove_dir_all(dir);
    }
}
