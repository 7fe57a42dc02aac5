//! Sweeps beyond the Studio: shard files opened in the Outcomes tab, and the Slurm script that
//! plays the tab's run settings on a cluster.
//!
//! Shard files (`farebox sim --shard I/N --out FILE`) dropped on the window, or named in the
//! tab (files, or folders of `shard-*.json`), are read and merged on a thread of their own
//! with the code of `farebox merge` ([`crate::shards::merge`]), so they are refused with its
//! words: another build, other content or settings, blocks that overlap or leave a gap, and
//! shards of content other than the open mod's. The merged figures are shown as a run's are,
//! labelled with the files and games they came from.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, TryRecvError};

use egui::Ui;
use farebox::GameDef;
use farebox::figures::Stats;

use super::Target;
use super::run::{Histogram, Report, Side};
use super::slurm;
use crate::accepted::Settings;
use crate::common::{Fail, plural, shown_path};
use crate::shards::{self, ShardFile};

/// The most shard files one merge reads (a folder holding more is refused).
const MAX_FILES: usize = 100_000;

/// Shard files merged: the figures of the whole range and where they came from.
pub(super) struct Merged {
    stats: Stats,
    settings: shards::Settings,
    files: usize,
    /// The content the figures are of (the open mod's when the merge began).
    content_hash: String,
}

/// A merge under way on its own thread.
struct Merging {
    rx: Receiver<Result<Merged, String>>,
    what: String,
}

/// The section's state: the paths field, a merge under way, the last refusal, and the form
/// of the cluster script.
pub(super) struct Sweep {
    /// Shard files or folders of them, one a line.
    paths: String,
    merging: Option<Merging>,
    /// Why the last merge gave nothing.
    refused: Option<String>,
    /// Shards of the cluster run.
    shards: u64,
    /// Where the script goes (empty: the mod's `sweeps/` folder).
    script: String,
    /// The script last written and the command that submits it, or why it was not.
    written: Option<Result<(PathBuf, String), String>>,
}

impl Default for Sweep {
    fn default() -> Self {
        Sweep {
            paths: String::new(),
            merging: None,
            refused: None,
            shards: 16,
            script: String::new(),
            written: None,
        }
    }
}

impl Sweep {
    /// Whether a merge is under way.
    pub(super) fn is_merging(&self) -> bool {
        self.merging.is_some()
    }

    /// The section, and the merged figures when a merge has just ended well. Files dropped on
    /// the window while the tab shows are merged at once.
    pub(super) fn ui(
        &mut self,
        ui: &mut Ui,
        target: &Target,
        settings: &Settings,
        described: String,
    ) -> Option<Merged> {
        let dropped: Vec<PathBuf> = ui.ctx().input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_path_buf())
                .collect()
        });
        if !dropped.is_empty() {
            self.paths = dropped
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join("\n");
            self.start(ui.ctx(), target);
        }
        let hovering = ui.ctx().input(|i| !i.raw.hovered_files.is_empty());
        if hovering {
            ui.label(
                egui::RichText::new(
                    "Drop shard files (or their folder) to merge them and show their figures here",
                )
                .strong()
                .color(ui.visuals().warn_fg_color),
            );
        }
        let merged = self.poll(target);
        egui::CollapsingHeader::new("Shard files and cluster runs")
            .id_salt("outcomes-sweep")
            .default_open(false)
            .show(ui, |ui| {
                self.open_ui(ui, target);
                ui.separator();
                self.cluster_ui(ui, target, settings, described);
            });
        if let Some(m) = &self.merging {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label(format!("Merging {}…", m.what));
            });
        }
        if let Some(why) = &self.refused {
            ui.colored_label(
                ui.visuals().error_fg_color,
                format!("The shard files were not merged: {why}"),
            );
        }
        merged
    }

    fn open_ui(&mut self, ui: &mut Ui, target: &Target) {
        ui.strong("Open shard files");
        ui.weak("The files `farebox sim --shard I/N --out FILE` wrote, on a cluster or here: merged as `farebox merge` merges them and shown below as a run's figures are. Drop them on the window, or name them here, one a line (a folder stands for its shard-*.json files).");
        let l = ui.label("Shard files or folders");
        ui.add(
            egui::TextEdit::multiline(&mut self.paths)
                .desired_rows(2)
                .desired_width(f32::INFINITY)
                .hint_text("a folder of shard-*.json files, or the files, one a line"),
        )
        .labelled_by(l.id);
        let ready = self.merging.is_none() && !self.paths.trim().is_empty();
        if ui
            .add_enabled(ready, egui::Button::new("Merge shard files"))
            .on_hover_text(
                "Read the files and merge them into the figures of their whole seed range",
            )
            .clicked()
        {
            self.start(ui.ctx(), target);
        }
    }

    fn cluster_ui(&mut self, ui: &mut Ui, target: &Target, settings: &Settings, described: String) {
        ui.strong("Run these settings on a cluster");
        ui.weak("Writes a Slurm script that plays the settings above in shards, one an array task, and merges them once all have ended: the same figures as Run gives here.");
        let default = slurm::default_path(&target.folder, &target.def, settings);
        egui::Grid::new("outcomes-sweep-cluster")
            .num_columns(2)
            .show(ui, |ui| {
                let l = ui.label("Shards");
                ui.add(egui::DragValue::new(&mut self.shards).range(1..=100_000))
                    .labelled_by(l.id)
                    .on_hover_text("Array tasks, each playing an even share of whole blocks of 1,024 seeds (a shard may get none). Slurm allows 1,001 tasks an array unless its MaxArraySize says more");
                ui.end_row();
                let l = ui.label("Script");
                ui.add(
                    egui::TextEdit::singleline(&mut self.script)
                        .desired_width(520.0)
                        .hint_text(default.display().to_string()),
                )
                .labelled_by(l.id);
                ui.end_row();
            });
        if ui
            .button("Write Slurm script")
            .on_hover_text(
                "Write the script (whole or not at all) and show the command that submits it",
            )
            .clicked()
        {
            let path = match self.script.trim() {
                "" => default,
                p => PathBuf::from(p),
            };
            self.written = Some(self.write(&path, target, settings, described));
        }
        match &self.written {
            Some(Ok((path, command))) => {
                ui.label(format!(
                    "Wrote {}. Submit it from a login node of the cluster:",
                    path.display()
                ));
                ui.horizontal(|ui| {
                    ui.add(
                        egui::Label::new(egui::RichText::new(command).monospace()).selectable(true),
                    );
                    if ui
                        .button("Copy")
                        .on_hover_text("Copy the command")
                        .clicked()
                    {
                        ui.ctx().copy_text(command.clone());
                    }
                });
                ui.weak(format!(
                    "The shards and the merged figures go to {}; open that folder above when the merge has run.",
                    slurm::sweep_dir(path).display()
                ));
            }
            Some(Err(e)) => {
                ui.colored_label(ui.visuals().error_fg_color, e);
            }
            None => {}
        }
    }

    /// Writes the script to `path` and its folder for the shards beside it.
    fn write(
        &mut self,
        path: &Path,
        target: &Target,
        settings: &Settings,
        described: String,
    ) -> Result<(PathBuf, String), String> {
        if let Some(why) = super::run::unplayable(&target.def, settings) {
            return Err(format!("No script written: {why}."));
        }
        let folder = std::fs::canonicalize(&target.folder).unwrap_or(target.folder.clone());
        let path = std::path::absolute(path).unwrap_or(path.to_path_buf());
        let text = slurm::script(&slurm::Plan {
            farebox: slurm::farebox_binary(),
            name: &target.def.name,
            id: &target.def.id,
            folder: &folder,
            settings,
            shards: self.shards,
            script: &path,
            described,
        });
        let dir = slurm::sweep_dir(&path);
        let cannot =
            |e: std::io::Error| format!("No script written: cannot write {}: {e}.", path.display());
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("No script written: cannot make {}: {e}.", dir.display()))?;
        farebox::source::write_atomic(&path, &text).map_err(cannot)?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
                .map_err(cannot)?;
        }
        self.paths = dir.display().to_string();
        Ok((path.clone(), slurm::submit_command(&path, self.shards)))
    }

    /// Starts merging the files the paths field names, on a thread of its own.
    fn start(&mut self, ctx: &egui::Context, target: &Target) {
        let paths: Vec<PathBuf> = self
            .paths
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(PathBuf::from)
            .collect();
        let what = match paths.as_slice() {
            [one] => shown_path(one),
            more => format!("{} paths", more.len()),
        };
        let def = target.def.clone();
        let spec = target.folder.display().to_string();
        let (tx, rx) = std::sync::mpsc::channel();
        let wake = ctx.clone();
        let spawned = std::thread::Builder::new()
            .name("merge-shards".into())
            .spawn(move || {
                let _ = tx.send(merge(&paths, &def, &spec).map_err(|f| f.message().to_string()));
                wake.request_repaint();
            });
        match spawned {
            Ok(_) => {
                self.merging = Some(Merging { rx, what });
                self.refused = None;
            }
            Err(e) => self.refused = Some(format!("cannot start the merge: {e}")),
        }
    }

    /// The merge's end, once it has ended; never blocks.
    fn poll(&mut self, target: &Target) -> Option<Merged> {
        let m = self.merging.as_ref()?;
        let got = match m.rx.try_recv() {
            Ok(got) => got,
            Err(TryRecvError::Empty) => return None,
            Err(TryRecvError::Disconnected) => Err("the merge stopped unexpectedly".into()),
        };
        self.merging = None;
        match got {
            Ok(m) if m.content_hash != target.def.content_hash => {
                self.refused = Some(format!(
                    "{} changed while the files were merged: merge them again",
                    target.name
                ));
                None
            }
            Ok(m) => Some(m),
            Err(why) => {
                self.refused = Some(why);
                None
            }
        }
    }
}

/// Whether files dropped on the window this frame look like shard files or their folder
/// (`shard-*.json`, or a folder), for the Studio to show the Outcomes tab, which merges them.
pub fn shards_dropped(ctx: &egui::Context) -> bool {
    ctx.input(|i| {
        i.raw.dropped_files.iter().any(|f| {
            let p = f.path();
            p.is_dir()
                || p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("shard-") && n.ends_with(".json"))
        })
    })
}

/// The shard files `paths` name: each file as it is, each folder's `shard-*.json` files.
fn expand(paths: &[PathBuf]) -> Result<Vec<PathBuf>, Fail> {
    let mut out = Vec::new();
    for p in paths {
        if !p.is_dir() {
            out.push(p.clone());
            continue;
        }
        let entries = std::fs::read_dir(p)
            .map_err(|e| Fail::Usage(format!("cannot read the folder {}: {e}", shown_path(p))))?;
        let mut found: Vec<PathBuf> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|f| {
                f.is_file()
                    && f.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n.starts_with("shard-") && n.ends_with(".json"))
            })
            .collect();
        if found.is_empty() {
            return Err(Fail::Usage(format!(
                "{} holds no shard files (shard-*.json)",
                shown_path(p)
            )));
        }
        found.sort();
        out.extend(found);
        if out.len() > MAX_FILES {
            return Err(Fail::Usage(format!(
                "more than {MAX_FILES} shard files: merge them in fewer, larger shards"
            )));
        }
    }
    Ok(out)
}

/// Reads and merges the shard files `paths` name against the open mod `def` (its folder
/// `spec`), as `farebox merge --mod SPEC FILE...` does.
fn merge(paths: &[PathBuf], def: &GameDef, spec: &str) -> Result<Merged, Fail> {
    let files = expand(paths)?;
    let mut read: Vec<(PathBuf, ShardFile)> = Vec::with_capacity(files.len());
    for path in files {
        let f = shards::read(&path)?;
        read.push((path, f));
    }
    let stats = shards::merge(&read, def, spec)?;
    let Some((_, first)) = read.first() else {
        return Err(Fail::Usage("merge needs at least one shard file".into()));
    };
    Ok(Merged {
        stats,
        settings: first.settings.clone(),
        files: read.len(),
        content_hash: def.content_hash.clone(),
    })
}

impl Merged {
    /// The merged figures as a run's report of `target`, with the settings of the tab that
    /// play the same games.
    pub(super) fn report(self, target: &Target) -> Report {
        let s = &self.settings;
        let settings = studio_settings(s);
        let games = self.stats.games;
        let mut label = format!(
            "Merged from {} shard {}: {} {}",
            self.files,
            plural(self.files, "file"),
            super::thousands(games as u64),
            plural(games, "game")
        );
        if s.block != farebox::figures::BLOCK {
            label.push_str(&format!(", in blocks of {} seeds", s.block));
        }
        if let Some(seat) = s.forbid_seat {
            label.push_str(&format!(
                ", forbidden to {} only",
                target.def.seat_name(usize::from(seat.saturating_sub(1)))
            ));
        }
        if !s.figures {
            label.push_str(", without figures per content (--no-figures)");
        }
        let empty = || Histogram {
            bars: Vec::new(),
            width: 1.0,
        };
        Report {
            now: Ok(Side {
                name: target.name.clone(),
                def: Arc::clone(&target.def),
                outcomes: Vec::new(),
                stats: self.stats,
                scores: vec![None; usize::from(s.players)],
                profile: farebox::script::Profile::new(),
            }),
            settings,
            base: None,
            provisional: false,
            cancelled: false,
            played: games as u64,
            total: games as u64,
            seconds: 0.0,
            turns: vec![empty()],
            actions: vec![empty()],
            merged: Some(label),
        }
    }
}

/// The tab's settings that play the games of shard settings `s` (one agent per seat).
fn studio_settings(s: &shards::Settings) -> Settings {
    let bots = (0..usize::from(s.players))
        .filter_map(|i| s.bots.get(i).or(s.bots.last()).cloned())
        .collect();
    let options = match &s.options {
        serde_json::Value::Object(m) => m
            .iter()
            .map(|(k, v)| match v {
                serde_json::Value::String(v) => format!("{k}={v}"),
                v => format!("{k}={v}"),
            })
            .collect(),
        _ => Vec::new(),
    };
    Settings {
        games: s.games,
        seed: s.seed,
        players: s.players,
        bots,
        cap: s.cap,
        options,
        forbid: s.forbid.clone(),
    }
}
