//! A small file browser of the Studio's own, for opening a mod folder or a replay file: the
//! folders and matching files of one folder at a time, up, home, and a path that can be typed.
//! Folders are read on a background thread (a slow or network disk never stalls a frame).
//!
//! It is drawn as a modal window; [`Browser::ui`] says when something was chosen.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, channel};

/// What the browser picks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Want {
    /// A mod folder: one holding a `mod.toml`.
    ModFolder,
    /// A replay file (`*.json`).
    Replay,
}

/// What happened in the browser this frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Picked {
    Nothing,
    Cancelled,
    Chosen(PathBuf),
}

/// One folder's contents.
struct Listing {
    dir: PathBuf,
    /// Sub-folders, each with whether it is a mod folder.
    folders: Vec<(String, bool)>,
    files: Vec<String>,
    /// Whether this folder itself is a mod folder.
    is_mod: bool,
    error: Option<String>,
}

/// The most entries listed in one folder: a folder of a million files stays usable.
const MAX_ENTRIES: usize = 2_000;

pub struct Browser {
    want: Want,
    listing: Option<Listing>,
    pending: Option<Receiver<Listing>>,
    typed: String,
    show_hidden: bool,
    ctx: egui::Context,
}

impl Browser {
    /// A browser showing `start` (or the home folder when it is not a folder).
    pub fn new(ctx: &egui::Context, want: Want, start: &Path) -> Browser {
        let start = if start.is_dir() {
            start.to_path_buf()
        } else {
            home()
        };
        let mut b = Browser {
            want,
            listing: None,
            pending: None,
            typed: start.display().to_string(),
            show_hidden: false,
            ctx: ctx.clone(),
        };
        b.go(start);
        b
    }

    /// The folder shown (or being read).
    pub fn dir(&self) -> PathBuf {
        PathBuf::from(&self.typed)
    }

    fn go(&mut self, dir: PathBuf) {
        self.typed = dir.display().to_string();
        let (tx, rx) = channel();
        let wake = super::waker(&self.ctx);
        let want = self.want;
        let hidden = self.show_hidden;
        let _ = std::thread::Builder::new()
            .name("farebox-browse".into())
            .spawn(move || {
                let _ = tx.send(list(&dir, want, hidden));
                wake();
            });
        self.pending = Some(rx);
    }

    /// Draws the browser; what was picked, if anything.
    pub fn ui(&mut self, ctx: &egui::Context) -> Picked {
        if let Some(rx) = &self.pending
            && let Ok(l) = rx.try_recv()
        {
            self.listing = Some(l);
            self.pending = None;
        }
        let mut picked = Picked::Nothing;
        let mut go: Option<PathBuf> = None;
        let title = match self.want {
            Want::ModFolder => "Open a mod folder",
            Want::Replay => "Open a replay",
        };
        let modal = egui::Modal::new(egui::Id::unique("farebox-browser")).show(ctx, |ui| {
            ui.set_width(560.0);
            ui.heading(title);
            ui.horizontal(|ui| {
                if ui.button("Up").on_hover_text("The folder above").clicked()
                    && let Some(parent) = self.dir().parent()
                {
                    go = Some(parent.to_path_buf());
                }
                if ui.button("Home").clicked() {
                    go = Some(home());
                }
                let l = ui.label("Folder");
                let edit = ui
                    .add(egui::TextEdit::singleline(&mut self.typed).desired_width(340.0))
                    .labelled_by(l.id);
                if edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                    go = Some(self.dir());
                }
            });
            if ui
                .checkbox(&mut self.show_hidden, "Show hidden folders")
                .changed()
            {
                go = Some(self.dir());
            }
            ui.separator();
            match (&self.listing, &self.pending) {
                (_, Some(_)) | (None, None) => {
                    ui.horizontal(|ui| {
                        ui.spinner();
                        ui.label("Reading the folder…");
                    });
                }
                (Some(l), None) => {
                    if let Some(e) = &l.error {
                        ui.colored_label(ui.visuals().error_fg_color, e);
                    }
                    egui::ScrollArea::vertical()
                        .max_height(360.0)
                        .auto_shrink([false, true])
                        .show(ui, |ui| {
                            if l.folders.is_empty() && l.files.is_empty() && l.error.is_none() {
                                ui.weak(match self.want {
                                    Want::ModFolder => "No folders here.",
                                    Want::Replay => "No folders or replay files here.",
                                });
                            }
                            for (name, is_mod) in &l.folders {
                                ui.horizontal(|ui| {
                                    if ui
                                        .selectable_label(false, format!("{name}/"))
                                        .on_hover_text("Look inside")
                                        .clicked()
                                    {
                                        go = Some(l.dir.join(name));
                                    }
                                    if *is_mod && self.want == Want::ModFolder {
                                        ui.weak("mod");
                                        if ui.small_button(format!("Open {name}")).clicked() {
                                            picked = Picked::Chosen(l.dir.join(name));
                                        }
                                    }
                                });
                            }
                            for name in &l.files {
                                if ui.selectable_label(false, name).clicked() {
                                    picked = Picked::Chosen(l.dir.join(name));
                                }
                            }
                        });
                }
            }
            ui.separator();
            ui.horizontal(|ui| {
                let here_is_mod = self.listing.as_ref().is_some_and(|l| l.is_mod);
                if self.want == Want::ModFolder
                    && ui
                        .add_enabled(here_is_mod, egui::Button::new("Open this folder"))
                        .on_disabled_hover_text("This folder has no mod.toml")
                        .clicked()
                {
                    picked = Picked::Chosen(self.dir());
                }
                if ui.button("Cancel").clicked() {
                    picked = Picked::Cancelled;
                }
            });
        });
        if modal.should_close() && picked == Picked::Nothing {
            picked = Picked::Cancelled;
        }
        if let Some(dir) = go {
            self.go(dir);
        }
        picked
    }
}

/// Draws the browser in `slot`, if one is open: the path chosen this frame, if any. The
/// browser closes when something is chosen or it is cancelled.
pub fn show(slot: &mut Option<Browser>, ctx: &egui::Context) -> Option<PathBuf> {
    let picked = slot.as_mut()?.ui(ctx);
    match picked {
        Picked::Nothing => None,
        Picked::Cancelled => {
            *slot = None;
            None
        }
        Picked::Chosen(p) => {
            *slot = None;
            Some(p)
        }
    }
}

/// The user's home folder, or the current folder when there is none.
fn home() -> PathBuf {
    std::env::var_os("HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_dir())
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_else(|| PathBuf::from("/"))
}

fn list(dir: &Path, want: Want, hidden: bool) -> Listing {
    let mut l = Listing {
        dir: dir.to_path_buf(),
        folders: Vec::new(),
        files: Vec::new(),
        is_mod: dir.join("mod.toml").is_file(),
        error: None,
    };
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            l.error = Some(format!("{}: {e}", dir.display()));
            return l;
        }
    };
    for e in entries.flatten().take(MAX_ENTRIES) {
        let Some(name) = e.file_name().to_str().map(str::to_string) else {
            continue;
        };
        if name.starts_with('.') && !hidden {
            continue;
        }
        let path = e.path();
        if path.is_dir() {
            let is_mod = path.join("mod.toml").is_file();
            l.folders.push((name, is_mod));
        } else if want == Want::Replay && name.ends_with(".json") {
            l.files.push(name);
        }
    }
    l.folders.sort();
    l.files.sort();
    l
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;

    fn temp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!(
            "farebox-browse-{}-{name}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.subsec_nanos())
        ));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    type H = Harness<'static, (Option<Browser>, Picked)>;

    fn browser(want: Want, start: PathBuf) -> H {
        Harness::builder()
            .with_size(egui::vec2(900.0, 700.0))
            .build_ui_state(
                move |ui, (b, picked): &mut (Option<Browser>, Picked)| {
                    let ctx = ui.ctx().clone();
                    let b = b.get_or_insert_with(|| Browser::new(&ctx, want, &start));
                    let p = b.ui(&ctx);
                    if p != Picked::Nothing {
                        *picked = p;
                    }
                },
                (None, Picked::Nothing),
            )
    }

    fn until_listed(h: &mut H, label: &str) {
        for _ in 0..500 {
            h.step();
            if h.query_by_label(label).is_some() {
                // One more frame, so the window has its final size before a click.
                h.step();
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        panic!("{label} never listed");
    }

    #[test]
    fn walks_into_a_folder_and_opens_the_mod_there() {
        let root = temp("mods");
        std::fs::create_dir_all(root.join("games/my-mod")).unwrap();
        std::fs::write(root.join("games/my-mod/mod.toml"), "id = \"my-mod\"").unwrap();
        std::fs::create_dir_all(root.join("games/notes")).unwrap();
        std::fs::create_dir_all(root.join(".hidden")).unwrap();
        let mut h = browser(Want::ModFolder, root.clone());
        until_listed(&mut h, "games/");
        assert!(h.query_by_label(".hidden/").is_none());
        h.get_by_label("games/").click();
        until_listed(&mut h, "my-mod/");
        // Only the mod folder can be opened.
        assert!(h.query_by_label("Open notes").is_none());
        h.get_by_label("Open my-mod").click();
        h.step();
        assert_eq!(h.state().1, Picked::Chosen(root.join("games/my-mod")));
        let _ = std::fs::remove_dir_all(root);
    }

    #[test]
    fn lists_replay_files_goes_up_and_cancels() {
        let root = temp("replays");
        std::fs::create_dir_all(root.join("saved")).unwrap();
        std::fs::write(root.join("saved/game.replay.json"), "{}").unwrap();
        std::fs::write(root.join("saved/notes.txt"), "").unwrap();
        let mut h = browser(Want::Replay, root.join("saved"));
        until_listed(&mut h, "game.replay.json");
        assert!(h.query_by_label("notes.txt").is_none());
        h.get_by_label("Up").click();
        until_listed(&mut h, "saved/");
        h.get_by_label("Cancel").click();
        h.step();
        assert_eq!(h.state().1, Picked::Cancelled);
        let _ = std::fs::remove_dir_all(root);
    }

    #[test]
    fn a_folder_that_cannot_be_read_says_so() {
        let l = list(
            Path::new("/no/such/folder/anywhere"),
            Want::ModFolder,
            false,
        );
        assert!(l.error.is_some());
        assert!(l.folders.is_empty());
    }
}
