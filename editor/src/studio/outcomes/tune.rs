//! The Outcomes tab's "Tune…": the tuner (`crate::tune`, as `farebox tune` runs it) on its own
//! thread for a target and fields the person chooses, with the run's seats, agents and seed;
//! the proposal is shown as the lines of TOML it changes with the figure before and after,
//! and "Apply" makes it as ordinary edits, one undo step ([`Command::EditGroup`]).
//!
//! The tuner reads the mod's files as saved: unsaved edits are not part of its search.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc;

use egui::Ui;

use crate::accepted::Settings;
use crate::common::{locate, threads_for};
use crate::studio::Command;
use crate::tune::{Failure, Measure, Plan, Proposal, Target};

/// A search under way.
struct Job {
    rx: mpsc::Receiver<Result<Proposal, String>>,
    done: Arc<AtomicU32>,
    stop: Arc<AtomicBool>,
    budget: u32,
}

/// The form, the search under way and its proposal.
pub struct Tune {
    target: String,
    fields: String,
    games: u64,
    budget: u32,
    job: Option<Job>,
    result: Option<Result<Proposal, String>>,
    applied: bool,
}

impl Default for Tune {
    fn default() -> Self {
        Tune {
            target: "first_mover_win_rate=0.50±0.03".into(),
            fields: "options.*.default".into(),
            games: 200,
            budget: 40,
            job: None,
            result: None,
            applied: false,
        }
    }
}

/// `0.612 (0.585 to 0.640)`.
fn figure(m: &Measure) -> String {
    match m.interval {
        Some([lo, hi]) => format!("{:.3} ({lo:.3} to {hi:.3})", m.value),
        None => format!("{:.3}", m.value),
    }
}

/// A text field with a label a test (and a screen reader) finds it by.
fn field(ui: &mut Ui, label: &str, text: &mut String, hint: &str) {
    ui.horizontal(|ui| {
        let l = ui.label(label);
        ui.add(egui::TextEdit::singleline(text).desired_width(320.0))
            .labelled_by(l.id)
            .on_hover_text(hint);
    });
}

impl Tune {
    /// Whether a search is under way.
    pub fn is_running(&self) -> bool {
        self.job.is_some()
    }

    /// The proposal of the last search, if it made one.
    pub fn proposal(&self) -> Option<&Proposal> {
        self.result.as_ref().and_then(|r| r.as_ref().ok())
    }

    /// Stops the search under way (the mod changed, or the panel goes).
    pub fn cancel(&mut self) {
        if let Some(j) = &self.job {
            j.stop.store(true, Ordering::Relaxed);
        }
        self.job = None;
    }

    /// Picks up the search's end; never blocks.
    fn poll(&mut self) {
        let Some(j) = &self.job else {
            return;
        };
        match j.rx.try_recv() {
            Ok(r) => {
                self.result = Some(r);
                self.applied = false;
                self.job = None;
            }
            Err(mpsc::TryRecvError::Disconnected) => {
                self.result = Some(Err("the search stopped".into()));
                self.job = None;
            }
            Err(mpsc::TryRecvError::Empty) => {}
        }
    }

    /// Starts a search of the mod in `folder` (by its name as opened) with the run's seats,
    /// agents and seed.
    fn start(&mut self, spec: &str, settings: &Settings, ctx: &egui::Context) {
        self.cancel();
        self.result = None;
        let plan = (|| -> Result<Plan, String> {
            let located = locate(spec).map_err(|f| f.message().to_string())?;
            let target = Target::parse(self.target.trim())?;
            Ok(Plan {
                folder: located.folder,
                resolver: located.resolver,
                target,
                fields: crate::common::split_list(&self.fields, "fields")
                    .map_err(|f| f.message().to_string())?,
                seats: settings.players.max(1),
                bots: settings.bots.clone(),
                games: self.games.max(1),
                seed: settings.seed,
                check_seed: settings.seed.wrapping_add(1_000_000),
                budget: self.budget,
                cap: settings.cap,
                threads: threads_for(None, self.games),
            })
        })();
        let plan = match plan {
            Ok(p) => p,
            Err(e) => {
                self.result = Some(Err(e));
                return;
            }
        };
        let (tx, rx) = mpsc::channel();
        let done = Arc::new(AtomicU32::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let (d, s, c) = (done.clone(), stop.clone(), ctx.clone());
        let spawned = std::thread::Builder::new()
            .name("tune".into())
            .spawn(move || {
                let progress = |n: u32, _: u32| {
                    d.store(n, Ordering::Relaxed);
                    c.request_repaint();
                };
                let r = crate::tune::tune(&plan, &s, &progress).map_err(|e: Failure| e.to_string());
                let _ = tx.send(r);
                c.request_repaint();
            });
        match spawned {
            Ok(_) => {
                self.job = Some(Job {
                    rx,
                    done,
                    stop,
                    budget: self.budget,
                })
            }
            Err(e) => self.result = Some(Err(format!("could not start the search: {e}"))),
        }
    }

    /// The section: the form, the progress, the proposal and its Apply.
    pub fn ui(&mut self, ui: &mut Ui, spec: &str, settings: &Settings, out: &mut Vec<Command>) {
        self.poll();
        egui::CollapsingHeader::new("Tune…")
            .id_salt("outcomes-tune")
            .show(ui, |ui| self.body(ui, spec, settings, out));
    }

    fn body(&mut self, ui: &mut Ui, spec: &str, settings: &Settings, out: &mut Vec<Command>) {
        ui.label("Finds the smallest change of the fields named (at most three) that brings a figure to its target, playing every candidate on the same seeds with the seats and agents above, and checks it on fresh seeds. It reads the files as saved.");
        let idle = self.job.is_none();
        ui.add_enabled_ui(idle, |ui| {
            field(ui, "Target", &mut self.target, "FIGURE=GOAL±TOLERANCE, the figure as `farebox sim --json` names it: first_mover_win_rate, win_rate[0] (the first seat's), tie_rate, turns_mean…");
            ui.horizontal(|ui| {
                ui.label("Games a candidate");
                ui.add(egui::DragValue::new(&mut self.games).range(1..=100_000));
                ui.label("Budget");
                ui.add(egui::DragValue::new(&mut self.budget).range(3..=10_000));
            });
            field(ui, "Fields", &mut self.fields, "Comma separated: decks.DECK.CARD.FIELD, tables.TABLE.ROW.COLUMN, options.OPTION.default, constants.NAME; * for any part");
        });
        ui.horizontal(|ui| {
            if ui
                .add_enabled(idle, egui::Button::new("Propose a change"))
                .clicked()
            {
                self.start(spec, settings, ui.ctx());
            }
            if ui
                .add_enabled(!idle, egui::Button::new("Stop the search"))
                .clicked()
            {
                self.cancel();
            }
        });
        if let Some(j) = &self.job {
            let n = j.done.load(Ordering::Relaxed);
            ui.add(
                egui::ProgressBar::new(n as f32 / j.budget.max(1) as f32)
                    .text(format!("{n} of at most {} candidates", j.budget)),
            );
        }
        match &self.result {
            None => {}
            Some(Err(e)) => {
                ui.colored_label(ui.visuals().error_fg_color, e);
            }
            Some(Ok(p)) => {
                let p = p.clone();
                self.proposal_ui(ui, &p, out);
            }
        }
    }

    fn proposal_ui(&mut self, ui: &mut Ui, p: &Proposal, out: &mut Vec<Command>) {
        let name = p.target.name();
        if p.already_met {
            ui.label(format!(
                "{name} is {} already, within {}: nothing to change.",
                figure(&p.search.before),
                p.target.words()
            ));
            return;
        }
        if p.changes.is_empty() {
            ui.label("No change of these fields moved the figure: name other fields, or play more games a candidate.");
            return;
        }
        ui.label(if p.met {
            format!("Proposed ({} candidates played):", p.evaluations)
        } else {
            format!(
                "No change within the budget met {}; the nearest ({} candidates played):",
                p.target.words(),
                p.evaluations
            )
        });
        egui::Grid::new("tune-diff").striped(true).show(ui, |ui| {
            for d in &p.diff {
                ui.monospace(format!("{}:{}", d.file, d.line));
                ui.monospace(d.old.as_deref().map_or("", str::trim));
                ui.label("→");
                ui.monospace(d.new.as_deref().map_or("", str::trim));
                ui.end_row();
            }
        });
        ui.label(format!(
            "{name}: {} before, {} after (seeds from {}, 95% intervals).",
            figure(&p.search.before),
            figure(&p.search.after),
            p.search.first_seed
        ));
        ui.label(format!(
            "On fresh seeds (from {}): {} before, {} after: {}.",
            p.check.first_seed,
            figure(&p.check.before),
            figure(&p.check.after),
            if p.held {
                "the target held"
            } else {
                "the target did not hold"
            }
        ));
        if self.applied {
            ui.label("Applied as one edit: Undo takes it back.");
        } else if ui
            .button("Apply")
            .on_hover_text("Make the change as an edit of the open mod (undoable; save to keep it)")
            .clicked()
        {
            out.push(Command::EditGroup {
                label: format!(
                    "Tune {}: {}",
                    name,
                    p.changes
                        .iter()
                        .map(|c| format!("{} {} -> {}", c.field, c.old_text, c.new_text))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                edits: p.edits.clone(),
            });
            self.applied = true;
        }
    }
}
