//! The Outcomes tab: seeded games of the open mod played in the background, their figures
//! (win rate per seat, game lengths, scores, how games ended, errors) and how they compare
//! with the mod's accepted outcomes, the `snapshots/outcomes.json` that `farebox test`
//! checks. For a house rule the base game is played with the same settings and shown beside
//! it, which answers "what did the house rule change?".
//!
//! The run is on its own threads ([`run`]); the UI thread reads a progress counter and polls
//! for reports, and the figures are worked out before the run reports, so a frame only
//! draws. While a run goes on the panel shows provisional figures over its first games,
//! already compared with the accepted ones; only the finished run can be accepted.

mod compare;
pub mod content;
mod figures;
mod run;
mod settings;
mod slurm;
mod sweep;
mod tune;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use egui::Ui;
use farebox::GameDef;

use crate::accepted::{Accepted, SNAPSHOT, Settings, read_snapshot, write_snapshot};
use crate::common::{MAX_GAMES, plural};
use settings::{defaults, describe, fit, per_seat, same_settings, settings_ui};
pub use sweep::shards_dropped;

/// A mod to play: its name as shown, what loaded, and the folder its snapshot lives in.
pub struct Target {
    pub name: String,
    pub def: Arc<GameDef>,
    pub folder: PathBuf,
}

/// The panel: the settings shown, the run under way and the last one that finished.
pub struct Outcomes {
    target: Option<Target>,
    base: Option<Target>,
    settings: Settings,
    /// The mod's accepted outcomes: None when it has none yet, Err when they cannot be read.
    snapshot: Result<Option<Accepted>, String>,
    running: Option<run::Running>,
    /// The newest provisional figures of the run under way (none once it ends or is
    /// cancelled).
    provisional: Option<run::Report>,
    /// The last run that ended complete.
    last: Option<run::Report>,
    view: View,
    /// What the last action came to ("Cancelled after…", "Accepted…"), and whether it failed.
    note: Option<(String, bool)>,
    ctx: Option<egui::Context>,
    /// The table of figures per card, tile, piece and option.
    table: content::Table,
    /// A failed or capped game the person asked to see in the Replay tab: the mod, the run's
    /// settings and the game's seed. The Studio takes it after the frame.
    pub open_failed: Option<(Arc<GameDef>, Settings, u64)>,
    failed_pick: std::cell::Cell<Option<(usize, u64)>>,
    /// "Tune…": the tuner's form, search and proposal.
    tune: tune::Tune,
    /// Shard files opened here, and the script of a sweep on a cluster.
    sweep: sweep::Sweep,
    /// The complete unrestricted run a "Without it" run is paired with, seed by seed.
    reference: Option<Reference>,
}

/// A run's games kept to pair a "Without it" run of the same settings with.
struct Reference {
    settings: Settings,
    def: Arc<GameDef>,
    games: Vec<crate::paired::Game>,
}

/// What the grid and the summary lines show, worked out when the result or the snapshot
/// changes rather than every frame.
#[derive(Default)]
struct View {
    rows: Vec<compare::Row>,
    /// The last run used the snapshot's settings, so its figures compare with it.
    comparable: bool,
    summary: String,
    base_summary: Option<String>,
    /// For a "Without it" run: its change from the run with it, paired by seed.
    without: Option<String>,
}

impl Default for Outcomes {
    fn default() -> Self {
        Self::new()
    }
}

impl Outcomes {
    pub fn new() -> Outcomes {
        Outcomes {
            target: None,
            base: None,
            settings: Settings {
                games: 200,
                seed: 1,
                players: 1,
                bots: vec!["random".into()],
                cap: 5000,
                options: Vec::new(),
                forbid: Vec::new(),
            },
            snapshot: Ok(None),
            running: None,
            provisional: None,
            last: None,
            view: View::default(),
            note: None,
            ctx: None,
            table: content::Table::default(),
            open_failed: None,
            failed_pick: std::cell::Cell::new(None),
            tune: tune::Tune::default(),
            sweep: sweep::Sweep::default(),
            reference: None,
        }
    }

    /// What to run for: the open mod and, for a house rule, its base game (run with the same
    /// settings, shown side by side). When `rerun` is true (after a reload) and this mod's
    /// outcomes were run before or are running, a run starts at once, cancelling the one
    /// under way. A new mod's settings are its snapshot's, else 200
    /// games from seed 1 with the fewest players and the mod's first bot (or the random agent)
    /// in every seat; the same mod again keeps the settings, fitted to what it now has.
    pub fn set_target(&mut self, target: Target, base: Option<Target>, rerun: bool) {
        self.snapshot = read_snapshot(&target.folder).map_err(|f| f.message().to_string());
        let same = self
            .target
            .as_ref()
            .is_some_and(|t| t.folder == target.folder);
        if same {
            fit(&mut self.settings, &target.def);
        } else {
            self.cancel();
            self.running = None;
            self.provisional = None;
            self.last = None;
            self.note = None;
            self.sweep = sweep::Sweep::default();
            self.settings = match &self.snapshot {
                Ok(Some(s)) => per_seat(&s.settings),
                _ => defaults(&target.def),
            };
        }
        // A reload runs the outcomes again only where figures were asked for: a mod whose
        // outcomes were never run is not made to play hundreds of games on every save.
        let asked = same && (self.last.is_some() || self.running.is_some());
        self.target = Some(target);
        self.base = base;
        if rerun && asked {
            self.cancel();
            self.start();
        }
        self.refresh();
    }

    /// Starts a run now, cancelling the one under way (after an edit of the content: live
    /// outcomes).
    pub fn rerun(&mut self) {
        if self.target.is_some() {
            self.cancel();
            self.start();
        }
    }

    /// The agents of the next run's seats (the last repeats), as the seat drop-downs set them.
    pub fn set_bots(&mut self, bots: Vec<String>) {
        if !bots.is_empty() {
            self.settings.bots = bots;
        }
    }

    /// The number of games the next run plays.
    pub fn set_games(&mut self, games: u64) {
        self.settings.games = games.clamp(1, MAX_GAMES);
    }

    /// Whether shard files are being merged.
    pub fn is_merging(&self) -> bool {
        self.sweep.is_merging()
    }

    /// Whether the figures on show were merged from shard files.
    pub fn shows_merged(&self) -> bool {
        self.shown().is_some_and(|r| r.merged.is_some())
    }

    /// Whether the tuner's search is under way.
    pub fn is_tuning(&self) -> bool {
        self.tune.is_running()
    }

    /// The proposal of the tuner's last search, if it made one.
    pub fn tune_proposal(&self) -> Option<&crate::tune::Proposal> {
        self.tune.proposal()
    }

    /// Whether a run is under way: true until the panel has picked up its end (in [`ui`]
    /// or [`wait`]).
    ///
    /// [`ui`]: Outcomes::ui
    /// [`wait`]: Outcomes::wait
    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// Blocks until the run under way ends (for tests and benchmarks).
    pub fn wait(&mut self) {
        if let Some(r) = &self.running {
            let f = r.wait();
            self.finish(f);
        }
    }

    /// The figures on show: the version of the mod they are of, how many of its games they
    /// count, and whether they are provisional (the run goes on).
    pub fn figures(&self) -> Option<(&Arc<GameDef>, usize, bool)> {
        let r = self.shown()?;
        let now = r.now.as_ref().ok()?;
        Some((&now.def, r.games(), r.provisional))
    }

    /// The board figures on show, for the board editor's "Show play".
    pub fn play_run(&self) -> crate::studio::board_edit::PlayRun<'_> {
        let now = self.shown().and_then(|r| Some((r, r.now.as_ref().ok()?)));
        let stats = now.map(|(_, s)| &s.stats);
        let rates = stats.map(|s| s.win_rate.as_slice()).unwrap_or_default();
        crate::studio::board_edit::PlayRun {
            figures: stats.and_then(|s| s.figures.board_play.as_ref()),
            current: match (now, &self.target) {
                (Some((_, s)), Some(t)) => Arc::ptr_eq(&s.def, &t.def),
                _ => false,
            },
            provisional: now.is_some_and(|(r, _)| r.provisional),
            running: self.running.is_some(),
            runnable: self.runnable(),
            mean_win: rates.iter().sum::<f64>() / rates.len().max(1) as f64,
        }
    }

    /// Starts a run with the settings chosen, unless one is under way.
    pub fn run_if_idle(&mut self) {
        if self.running.is_none() && self.runnable() {
            self.start();
        }
    }

    /// Per card id, its win rate in the figures on show and in the accepted outcomes, for
    /// the Decks & tables tab.
    pub fn card_column(&self) -> std::collections::BTreeMap<String, String> {
        let now = self
            .shown()
            .and_then(|r| r.now.as_ref().ok())
            .map(|s| &s.stats.figures);
        let accepted = match &self.snapshot {
            Ok(Some(s)) => Some(&s.outcomes.figures),
            _ => None,
        };
        content::card_column(now, accepted)
    }

    /// The run's provisional figures while it goes on, else the last complete run's.
    fn shown(&self) -> Option<&run::Report> {
        self.provisional.as_ref().or(self.last.as_ref())
    }

    /// One line for the other tabs (the editors): how the outcomes stand. None when nothing
    /// was run for this version.
    pub fn status_line(&self) -> Option<String> {
        if let Some(r) = &self.running
            && self.provisional.is_none()
        {
            return Some(format!(
                "Outcomes: playing the first games ({} of {})…",
                thousands(r.done()),
                thousands(r.total)
            ));
        }
        self.shown()?;
        Some(format!("Outcomes: {}", self.view.summary))
    }

    /// Whether outcomes can be run for the open version (it has rules).
    pub fn runnable(&self) -> bool {
        self.target.as_ref().is_some_and(|t| t.def.playable())
    }

    /// Starts a run with the settings chosen (or the defaults), from another tab.
    pub fn run_now(&mut self, ctx: &egui::Context) {
        if self.ctx.is_none() {
            self.ctx = Some(ctx.clone());
        }
        if self.running.is_none() && self.runnable() {
            self.start();
        }
    }

    /// Picks up what the run under way has to say; never blocks.
    pub fn poll(&mut self) {
        let Some(r) = &self.running else {
            return;
        };
        match r.poll() {
            Some(run::Update::Ended(f)) => self.finish(f),
            // Figures that were on their way when the run was cancelled are not shown.
            Some(run::Update::Provisional(p)) if !r.cancelling() => {
                self.provisional = Some(p);
                self.refresh();
            }
            _ => {}
        }
    }

    pub fn ui(&mut self, ui: &mut Ui, out: &mut Vec<crate::studio::Command>) {
        if self.ctx.is_none() {
            self.ctx = Some(ui.ctx().clone());
        }
        self.poll();
        let Some(t) = &self.target else {
            ui.label("Open a mod to see its outcomes.");
            return;
        };
        if !t.def.playable() {
            ui.heading(format!("Outcomes of {}", t.name));
            ui.label(format!(
                "{} has no rule scripts yet, so its games cannot be played and it has no outcomes. Add rules to run them here.",
                t.name
            ));
            return;
        }
        egui::ScrollArea::vertical()
            .id_salt("outcomes-scroll")
            .auto_shrink([false, false])
            .show(ui, |ui| self.body(ui, out));
    }

    fn body(&mut self, ui: &mut Ui, out: &mut Vec<crate::studio::Command>) {
        let Some(t) = &self.target else {
            return;
        };
        let def = t.def.clone();
        let spec = t.folder.display().to_string();
        match &self.base {
            Some(b) => ui.heading(format!("Outcomes of {}, beside {}", t.name, b.name)),
            None => ui.heading(format!("Outcomes of {}", t.name)),
        };
        ui.add_enabled_ui(self.running.is_none(), |ui| {
            settings_ui(ui, &mut self.settings, &def);
        });
        self.snapshot_ui(ui);
        ui.horizontal(|ui| {
            let idle = self.running.is_none();
            if ui
                .add_enabled(idle, egui::Button::new("Run"))
                .on_hover_text("Play the games with these settings")
                .clicked()
            {
                self.start();
            }
            let cancellable = self.running.as_ref().is_some_and(|r| !r.cancelling());
            if ui
                .add_enabled(cancellable, egui::Button::new("Cancel"))
                .on_hover_text("Stop the run after the games being played")
                .clicked()
            {
                self.cancel();
            }
            // A run with failed or capped games is not accepted by a click meant for a good
            // one: Accept waits, and a button of its own says what it would record.
            let failed = self.acceptable().map(|(_, _, now)| {
                let st = &now.stats;
                // Failed playouts count as one failure: the figures are another bot's.
                let playouts = usize::from(st.playout_errors > 0);
                let line = if st.failed() > 0 {
                    st.failed_line()
                } else {
                    format!(
                        "{} calls failed in the search bot's playouts",
                        st.playout_errors
                    )
                };
                (st.failed() + playouts, line)
            });
            let why_not = match &failed {
                Some((n, line)) if *n > 0 => format!(
                    "{line}; they are listed above. Accepting would make `farebox test` expect them: fix what fails and run again, or use \"{}\" to record them as they are",
                    accept_failed_label(*n)
                ),
                _ if self.shows_merged() => "Figures merged from shard files are not accepted: `farebox test` plays the accepted settings again, so press Run to play them here and accept that run".to_string(),
                _ => "Needs a complete run of the mod as it is now".to_string(),
            };
            if ui
                .add_enabled(
                    failed.as_ref().is_some_and(|(n, _)| *n == 0),
                    egui::Button::new("Accept"),
                )
                .on_hover_text(format!(
                    "Record these outcomes as the accepted ones ({SNAPSHOT} in the mod folder), the ones `farebox test` compares with"
                ))
                .on_disabled_hover_text(why_not)
                .clicked()
            {
                self.accept();
            }
            if let Some((n, _)) = failed
                && n > 0
                && ui
                    .button(accept_failed_label(n))
                    .on_hover_text(format!(
                        "Record these outcomes as the accepted ones ({SNAPSHOT}), failed games and all: `farebox test` then expects the same games to fail (as `farebox test --accept --accept-failures` does)"
                    ))
                    .clicked()
            {
                self.accept_with_failures();
            }
        });
        if let Some(r) = &self.running {
            let done = r.done();
            let frac = done as f32 / r.total.max(1) as f32;
            let what = if r.cancelling() {
                "cancelling"
            } else {
                "games"
            };
            ui.add(egui::ProgressBar::new(frac).text(format!("{done} / {} {what}", r.total)));
            // The run wakes the UI when it ends; until then the bar moves ten times a second.
            ui.ctx().request_repaint_after(Duration::from_millis(100));
        }
        self.tune.ui(ui, &spec, &self.settings, out);
        let described = describe(&self.settings);
        if let Some(t) = &self.target
            && let Some(m) = self.sweep.ui(ui, t, &self.settings, described)
        {
            let report = m.report(t);
            self.show_merged(report);
        }
        if let Some((text, failed)) = &self.note {
            if *failed {
                ui.colored_label(ui.visuals().error_fg_color, text);
            } else {
                ui.label(text);
            }
        }
        self.result_ui(ui, &def);
    }

    /// What the snapshot is, and an offer to use its settings when they are not these.
    fn snapshot_ui(&mut self, ui: &mut Ui) {
        match &self.snapshot {
            Err(e) => {
                ui.colored_label(
                    ui.visuals().error_fg_color,
                    format!("The accepted outcomes cannot be read: {e}"),
                );
            }
            Ok(None) => {
                ui.label(format!(
                    "No accepted outcomes yet ({SNAPSHOT} does not exist). Accept records a run's outcomes as the ones `farebox test` compares with."
                ));
            }
            Ok(Some(s)) if !same_settings(&s.settings, &self.settings) => {
                let wanted = per_seat(&s.settings);
                ui.horizontal_wrapped(|ui| {
                    ui.label(format!(
                        "The accepted outcomes were made with other settings ({}); comparing with them needs the snapshot's settings.",
                        describe(&wanted)
                    ));
                    if ui.button("Use the snapshot's settings").clicked() {
                        self.settings = wanted;
                    }
                });
            }
            Ok(Some(_)) => {
                ui.weak("These are the settings of the accepted outcomes.");
            }
        }
    }

    fn result_ui(&mut self, ui: &mut Ui, def: &Arc<GameDef>) {
        let mut table = std::mem::take(&mut self.table);
        let forbid = self.figures_ui(ui, def, &mut table);
        self.table = table;
        if let Some((side, seed)) = self.failed_pick.take()
            && let Some(f) = self.shown()
        {
            let side = if side == 0 {
                f.now.as_ref().ok()
            } else {
                f.base.as_ref().and_then(|b| b.as_ref().ok())
            };
            if let Some(side) = side {
                self.open_failed = Some((side.def.clone(), f.settings.clone(), seed));
            }
        }
        if let Some(id) = forbid {
            // The run on show, when complete and unrestricted, is what the run without `id`
            // is paired with; a second "Without it" keeps the first one's.
            if let Some(f) = &self.last
                && f.settings.forbid.is_empty()
                && !f.cancelled
                && let Ok(now) = &f.now
            {
                self.reference = Some(Reference {
                    settings: f.settings.clone(),
                    def: now.def.clone(),
                    games: crate::paired::games(&now.outcomes),
                });
            }
            self.settings.forbid = vec![id];
            self.start();
        }
    }

    /// The figures of the run on show; returns an id the person asked to run without.
    fn figures_ui(
        &self,
        ui: &mut Ui,
        def: &Arc<GameDef>,
        table: &mut content::Table,
    ) -> Option<String> {
        let f = self.shown()?;
        ui.separator();
        let now = match &f.now {
            Ok(s) => s,
            Err(e) => {
                ui.colored_label(
                    ui.visuals().error_fg_color,
                    format!("The games could not run: {e}"),
                );
                return None;
            }
        };
        if let Some(merged) = &f.merged {
            ui.strong(merged);
            ui.weak(format!(
                "{}. Shard files keep the sums of each block of games, not the games: the charts of game lengths and scores, and the script profile, need a run here. Accept needs one too, since `farebox test` plays the accepted settings again.",
                describe(&f.settings)
            ));
        } else if f.provisional {
            provisional_ui(ui, f);
        } else {
            ui.weak(format!("{}, in {:.1} s", describe(&f.settings), f.seconds));
        }
        if !Arc::ptr_eq(&now.def, def) {
            ui.colored_label(
                ui.visuals().warn_fg_color,
                "These figures are from an earlier version of the mod: run again to update them.",
            );
        }
        let base = f.base.as_ref().and_then(|b| b.as_ref().ok());
        // Games that failed come first, above every figure: the figures leave them out, and
        // a run that has them is not one to accept as it is.
        self.failures_ui(ui, now, base);
        ui.strong(&self.view.summary);
        if let Some(s) = &self.view.base_summary {
            ui.label(s);
        }
        if let Some(s) = &self.view.without {
            ui.label(s);
        }
        if let Some(Err(e)) = &f.base {
            ui.colored_label(
                ui.visuals().warn_fg_color,
                format!("The base game could not run: {e}"),
            );
        }
        figures::grid(
            ui,
            &self.view.rows,
            self.view.comparable,
            base.map(|b| b.name.as_str()),
            f.games() as f64,
            f.provisional,
        );
        let accepted = match (&self.snapshot, self.view.comparable) {
            (Ok(Some(s)), true) => Some(s.outcomes.win_rate.as_slice()),
            _ => None,
        };
        let accepted_stats = match (&self.snapshot, self.view.comparable) {
            (Ok(Some(s)), true) => Some(&s.outcomes),
            _ => None,
        };
        figures::plots(ui, f, now, accepted, accepted_stats);
        ui.heading("Cards, tiles, pieces and options");
        ui.weak(
            "Per piece of content: the games in which a seat held it (a card in its hand or zones, its own piece, the game's option value) or played it (one of its actions named it), and how often those seats won against the others. Sorted by the size of the effect; \"Without it\" plays the same games with it forbidden to the bots.",
        );
        let forbid = content::table_ui(
            ui,
            table,
            def,
            &now.stats.figures,
            accepted_stats.map(|s| &s.figures),
            self.running.is_none(),
        );
        let finished = now.stats.finished;
        if !f.provisional && finished > 0 {
            let never = figures::never_used(def, &now.stats.figures, finished);
            ui.heading(format!("Never used in {finished} games"));
            if never.is_empty() {
                ui.weak("Every card and tile was played in at least one game.");
            } else {
                ui.weak("Content that never mattered in these games: a card never played is a card nobody needed, or one the bots cannot see the use of.");
                for line in never {
                    ui.label(line);
                }
            }
        }
        ui.heading("Script profile");
        ui.weak(
            "What the rules' hooks and the bots cost in these games: how often each ran, its Luau steps (the same on every machine) and its time (this machine's). A call that uses up its step budget stops the game with an error.",
        );
        let budget = farebox::script::Limits::default().steps;
        for side in std::iter::once(now).chain(base) {
            if base.is_some() {
                ui.strong(&side.name);
            }
            figures::profile(ui, side, budget);
        }
        forbid
    }

    /// The games of the run on show that ended in an error or at the action cap, on each
    /// side: the first errors, and each failed game with a button that shows it in Replay.
    fn failures_ui(&self, ui: &mut Ui, now: &run::Side, base: Option<&run::Side>) {
        for (k, side) in std::iter::once(now).chain(base).enumerate() {
            // A search bot's playouts that failed: the games played on, but the figures are
            // those of a bot that did not think as it should.
            if side.stats.playout_errors > 0 {
                let st = &side.stats;
                ui.heading(format!(
                    "Errors in the search bot's playouts in {}",
                    side.name
                ));
                ui.colored_label(
                    ui.visuals().error_fg_color,
                    format!(
                        "{} failed {} in {} playouts, in {} {} (the games played on).",
                        st.playout_errors,
                        if st.playout_errors == 1 {
                            "call"
                        } else {
                            "calls"
                        },
                        st.playouts,
                        st.playout_error_games,
                        if st.playout_error_games == 1 {
                            "game"
                        } else {
                            "games"
                        },
                    ),
                );
                for m in &st.playout_error_messages {
                    ui.colored_label(ui.visuals().error_fg_color, m);
                }
            }
            if side.stats.failed() == 0 {
                continue;
            }
            ui.heading(format!(
                "Errors and capped games in {} ({} with errors, {} capped)",
                side.name, side.stats.errors, side.stats.capped,
            ));
            ui.colored_label(
                ui.visuals().error_fg_color,
                format!("{}.", side.stats.failed_line()),
            );
            for m in &side.stats.error_messages {
                ui.colored_label(ui.visuals().error_fg_color, m);
            }
            // The first few games each with its button; the rest folded, so that a run
            // whose every game failed still shows its figures a scroll away.
            let game_ui = |ui: &mut Ui, g: &farebox::figures::FailedGame| {
                ui.horizontal_wrapped(|ui| {
                    if ui
                        .button("Show in Replay")
                        .on_hover_text(
                            "Play this game again as the run played it and show it in the Replay tab, just before it stopped",
                        )
                        .clicked()
                    {
                        self.failed_pick.set(Some((k, g.seed)));
                    }
                    ui.label(format!(
                        "Seed {}: {} at action {}",
                        g.seed,
                        if g.capped { "stopped at the cap" } else { "error" },
                        g.action,
                    ));
                });
            };
            const SHOWN: usize = 8;
            let games = &side.stats.failed_games;
            for g in games.iter().take(SHOWN) {
                game_ui(ui, g);
            }
            if games.len() > SHOWN {
                egui::CollapsingHeader::new(format!(
                    "{} more failed {}",
                    games.len() - SHOWN,
                    crate::common::plural(games.len() - SHOWN, "game")
                ))
                .id_salt(("failed-games", k))
                .default_open(false)
                .show(ui, |ui| {
                    for g in games.iter().skip(SHOWN) {
                        game_ui(ui, g);
                    }
                });
            }
            ui.separator();
        }
    }

    /// Starts a run with the panel's settings, unless they cannot be played.
    fn start(&mut self) {
        let Some(t) = &self.target else {
            return;
        };
        if let Some(why) = run::unplayable(&t.def, &self.settings) {
            self.note = Some((why, true));
            return;
        }
        let base = self.base.as_ref().map(|b| (b.name.clone(), b.def.clone()));
        let now = (t.name.clone(), t.def.clone());
        match run::start(now, base, self.settings.clone(), self.ctx.clone()) {
            Ok(r) => {
                self.running = Some(r);
                self.provisional = None;
                self.note = None;
            }
            Err(e) => self.note = Some((e, true)),
        }
        self.refresh();
    }

    /// Shows figures merged from shard files as the last run's, with the settings that play
    /// the same games in the form; a run under way is cancelled.
    fn show_merged(&mut self, report: run::Report) {
        self.cancel();
        self.settings = report.settings.clone();
        self.last = Some(report);
        self.note = None;
        if let Some(t) = &self.target {
            self.snapshot = read_snapshot(&t.folder).map_err(|f| f.message().to_string());
        }
        self.refresh();
    }

    /// Asks the run under way to stop; its provisional figures go at once.
    fn cancel(&mut self) {
        if let Some(r) = &self.running {
            r.cancel();
        }
        if self.provisional.take().is_some() {
            self.refresh();
        }
    }

    fn finish(&mut self, f: run::Report) {
        self.running = None;
        self.provisional = None;
        if f.cancelled {
            self.note = Some((
                format!("Cancelled after {} of {} games.", f.played, f.total),
                false,
            ));
            self.refresh();
            return;
        }
        self.last = Some(f);
        // Compared with the accepted outcomes as they are now: they may have been accepted
        // again from the command line since the mod was opened.
        if let Some(t) = &self.target {
            self.snapshot = read_snapshot(&t.folder).map_err(|f| f.message().to_string());
        }
        self.refresh();
    }

    /// The last run when it can be accepted: it is complete and of the mod as it is now,
    /// and no run is under way (provisional figures never are: they are not `last`).
    fn acceptable(&self) -> Option<(&Target, &run::Report, &run::Side)> {
        let (t, f) = (self.target.as_ref()?, self.last.as_ref()?);
        let now = f.now.as_ref().ok()?;
        let current = Arc::ptr_eq(&now.def, &t.def);
        let complete = !f.cancelled && !f.provisional;
        // Restricted play is a question asked of the mod, not its outcomes.
        let unrestricted = f.settings.forbid.is_empty();
        // Merged figures are not accepted: `farebox test` plays the accepted settings again.
        let played_here = f.merged.is_none();
        (self.running.is_none() && complete && current && unrestricted && played_here)
            .then_some((t, f, now))
    }

    /// Writes the last run's outcomes as the accepted ones, as `farebox test --accept` does:
    /// not when any of its games failed or hit the cap.
    fn accept(&mut self) {
        self.accept_run(false);
    }

    /// Writes the last run's outcomes as the accepted ones even with failed or capped games,
    /// as `farebox test --accept --accept-failures` does.
    fn accept_with_failures(&mut self) {
        self.accept_run(true);
    }

    fn accept_run(&mut self, failures: bool) {
        let Some((t, f, now)) = self.acceptable() else {
            return;
        };
        if (now.stats.failed() > 0 || now.stats.playout_errors > 0) && !failures {
            let what = if now.stats.failed() > 0 {
                now.stats.failed_line()
            } else {
                format!(
                    "{} calls failed in the search bot's playouts",
                    now.stats.playout_errors
                )
            };
            let why = format!("Not accepted: {what}. The accepted outcomes are left as they were.");
            self.note = Some((why, true));
            return;
        }
        // The snapshot's own way of writing the same settings is kept, so accepting them
        // again changes only the figures in the file.
        let settings = match &self.snapshot {
            Ok(Some(s)) if same_settings(&s.settings, &f.settings) => s.settings.clone(),
            _ => f.settings.clone(),
        };
        let per_game = Some(crate::paired::Record::of(
            &crate::paired::games(&now.outcomes),
            f.settings.players,
        ));
        let snap = Accepted {
            mod_version: t.def.version.clone(),
            settings,
            outcomes: now.stats.clone(),
            per_game,
        };
        match write_snapshot(&t.folder, &snap) {
            Ok(path) => {
                self.note = Some((format!("Accepted: wrote {}", path.display()), false));
                self.snapshot = Ok(Some(snap));
            }
            Err(e) => self.note = Some((format!("Not accepted: {}", e.message()), true)),
        }
        self.refresh();
    }

    /// Works out the grid and the summaries again. Provisional figures are over fewer games
    /// than the accepted ones, so their counts (games finished, endings...) are compared as
    /// shares of the games.
    fn refresh(&mut self) {
        self.view = self.work_out_view();
    }

    fn work_out_view(&self) -> View {
        let Some(f) = self.shown() else {
            return View::default();
        };
        let Ok(now) = &f.now else {
            return View::default();
        };
        let base = f.base.as_ref().and_then(|b| b.as_ref().ok());
        let snap = match &self.snapshot {
            Ok(Some(s)) if same_settings(&s.settings, &f.settings) => Some(s),
            _ => None,
        };
        let accepted = snap.map(|s| &s.outcomes);
        let accepted_games = snap.and_then(|s| s.games());
        let now_games = crate::paired::games(&now.outcomes);
        let base_games = base.map(|b| crate::paired::games(&b.outcomes));
        let rows = compare::rows_paired(
            &now.def,
            [accepted, Some(&now.stats), base.map(|b| &b.stats)],
            [
                accepted_games.as_deref(),
                Some(&now_games),
                base_games.as_deref(),
            ],
            f.provisional,
        );
        let games = f.games() as f64;
        let so_far = f.provisional.then(|| {
            format!(
                "So far ({} of {} games)",
                thousands(f.games() as u64),
                thousands(f.settings.games)
            )
        });
        let summary = match (&self.snapshot, snap, &so_far) {
            (Err(_), _, _) => "The accepted outcomes cannot be read, so there is nothing to compare with.".to_string(),
            (Ok(None), _, _) => "No accepted outcomes to compare with yet.".to_string(),
            (Ok(Some(_)), None, _) => "The accepted outcomes were made with other settings: run with the snapshot's settings to compare.".to_string(),
            (Ok(Some(_)), Some(_), Some(so_far)) => {
                match compare::summary(&rows, games, compare::Side::Accepted, compare::Side::Now) {
                    Some(line) => format!("{so_far}, changed from the accepted outcomes: {line}."),
                    None => format!("{so_far}, no figure differs from the accepted outcomes by more than chance."),
                }
            }
            (Ok(Some(s)), Some(_), None) => {
                let pairs = accepted_games.as_deref().map(|a| (a, now_games.as_slice()));
                let cmp = crate::compare::compare(&now.def, &s.outcomes, &now.stats, f.settings.games, pairs);
                let open = match cmp.open.first() {
                    Some((_, more)) => format!(
                        " {} {} moved within chance; about {more} more games would settle the nearest.",
                        cmp.open.len(),
                        plural(cmp.open.len(), "figure")
                    ),
                    None => String::new(),
                };
                match compare::summary(&rows, games, compare::Side::Accepted, compare::Side::Now) {
                    Some(line) => format!("Changed beyond chance from the accepted outcomes: {line}. `farebox test` fails until the new outcomes are accepted."),
                    None if cmp.changed.is_empty() && cmp.open.is_empty() => "Same as the accepted outcomes: `farebox test` passes.".to_string(),
                    None if cmp.changed.is_empty() => format!("No figure changed beyond its 95% interval: `farebox test` passes.{open}"),
                    None => format!("{} {} per card, tile, piece or option changed beyond chance (see Content below); `farebox test` fails until the new outcomes are accepted.{open}", cmp.changed.len(), plural(cmp.changed.len(), "figure")),
                }
            }
        };
        let base_summary = base.map(|b| {
            let line = compare::summary(&rows, games, compare::Side::Base, compare::Side::Now);
            match (line, &so_far) {
                (Some(line), None) => format!("Against {}: {line}.", b.name),
                (Some(line), Some(_)) => format!("So far, against {}: {line}.", b.name),
                (None, None) => format!("No figure differs from {} beyond the tolerance.", b.name),
                (None, Some(_)) => format!(
                    "So far, no figure differs from {} by more than chance.",
                    b.name
                ),
            }
        });
        let summary = if f.settings.forbid.is_empty() {
            summary
        } else {
            format!(
                "Without {} (forbidden to the bots): {summary}",
                f.settings.forbid.join(", ")
            )
        };
        View {
            without: self.without_line(f, &now_games),
            rows,
            comparable: snap.is_some(),
            summary,
            base_summary,
        }
    }

    /// For a run with ids forbidden ("Without it"), its change from the run with them, seed by
    /// seed: "Paired with the run with it, over the 200 games both finished: Red win rate -5.1
    /// pts (-7.0 to -3.2), …". None for another run, or when the run with it is not of the same
    /// settings and version.
    fn without_line(&self, f: &run::Report, games: &[crate::paired::Game]) -> Option<String> {
        let now = f.now.as_ref().ok()?;
        let r = self.reference.as_ref()?;
        if f.settings.forbid.is_empty()
            || !same_settings(&r.settings, &f.settings)
            || !Arc::ptr_eq(&r.def, &now.def)
        {
            return None;
        }
        // Provisional figures are of the first games: paired with the same seeds.
        let with = r.games.get(..games.len())?;
        let diffs = crate::paired::diffs(with, games, f.settings.players);
        let n = diffs.first().map_or(0, |(_, d)| d.games);
        let parts: Vec<String> = diffs
            .iter()
            .map(|(which, d)| {
                let (name, rate) = match which {
                    crate::paired::Which::Win(s) => {
                        (format!("{} win rate", now.def.seat_name(*s)), true)
                    }
                    crate::paired::Which::FirstMover => ("first mover win rate".into(), true),
                    crate::paired::Which::Turns => ("length in turns".into(), false),
                };
                let verdict = if d.settled() { "" } else { ", within chance" };
                format!("{name} {}{verdict}", crate::paired::text(rate, d))
            })
            .collect();
        if parts.is_empty() {
            return None;
        }
        Some(format!(
            "Without {}, paired seed by seed with the run with it over the {n} {} both finished: {}.",
            f.settings.forbid.join(", "),
            plural(n as usize, "game"),
            parts.join(", ")
        ))
    }
}

/// What provisional figures are: a line that says so, and which games they count.
fn provisional_ui(ui: &mut Ui, f: &run::Report) {
    let (k, n) = (f.games() as u64, f.settings.games);
    ui.label(
        egui::RichText::new(format!(
            "Provisional: {} of {} games so far",
            thousands(k),
            thousands(n)
        ))
        .strong()
        .color(ui.visuals().warn_fg_color),
    );
    let each = if f.base.is_some() {
        ", of the house rule and of its base game"
    } else {
        ""
    };
    ui.weak(format!(
        "Figures of the first {} {} (seeds {}..{}){each}; they change as the run goes on, and Accept waits for the whole run.",
        thousands(k),
        plural(k as usize, "game"),
        f.settings.seed,
        f.settings.seed.wrapping_add(k.saturating_sub(1)),
    ));
}

/// "Accept with 10 failed games": the button that accepts a run with failures.
fn accept_failed_label(failed: usize) -> String {
    format!("Accept with {failed} failed {}", plural(failed, "game"))
}

/// "1,000".
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests;
