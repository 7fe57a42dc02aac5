//! Seeded runs of many games and what they come to, shared by `sim`, `test`, `rank` and the
//! Studio's Outcomes tab: playing the games in batches on several threads, the figures
//! ([`Stats`], added up game by game in a [`Tally`]), the profile of hook and bot calls, and
//! the lines that print them.

use std::sync::atomic::{AtomicBool, Ordering};

use farebox::agent::{Checks, Forbid, Match, Outcome, play_many_forbidding};
use farebox::figures::{ContentFigure, Figures};
use farebox::game::Setup;
use farebox::script::Profile;
use serde_json::json;

use crate::common::{Fail, plural};

/// At which decisions the games `test` plays make the labels of every action offered (the
/// acting seat's and the public one), so a `describe` hook that fails only in play is found:
/// about one in four, which finds a hook that fails often at once, and costs about half as
/// much again as the games alone (every decision would cost three times as much).
pub const LABELS: farebox::agent::Labels = farebox::agent::Labels::OneIn(4);

/// Mean and sample standard deviation (0 for fewer than two values).
pub fn mean_sd(xs: &[f64]) -> (f64, f64) {
    if xs.is_empty() {
        return (0.0, 0.0);
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    if xs.len() < 2 {
        return (mean, 0.0);
    }
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, var.sqrt())
}

/// Plays `count` games like `base` (seeded from its seed upward) a batch at a time, so the
/// games asked for are never all made up front; error messages and endings are kept short.
/// Starts no more games once `stop` is set, for a run that can be cancelled: the outcomes
/// are then only those of the games played before it was. The games are `test`'s, labels
/// made as it makes them ([`LABELS`]). Keeps every outcome (the Studio draws
/// distributions from them); [`play_each`] keeps none. With `profile` each outcome holds its
/// game's profile of hook and bot calls.
#[allow(clippy::too_many_arguments)]
pub fn play_all_until(
    def: &std::sync::Arc<farebox::GameDef>,
    base: &Setup,
    count: u64,
    agents: &[String],
    cap: u32,
    threads: usize,
    done: &(dyn Fn() + Sync),
    stop: &AtomicBool,
    forbid: &Forbid,
    profile: bool,
) -> Vec<Outcome> {
    let mut out = Vec::new();
    play_each(
        def,
        base,
        count,
        agents,
        cap,
        threads,
        done,
        stop,
        Checks {
            figures: true,
            profile,
            ..LABELS.into()
        },
        forbid,
        &mut |o| out.push(o),
    );
    out
}

/// [`play_all_until`] handing each outcome to `each`, in seed order, as its batch ends:
/// only one batch of outcomes is held at a time. `checks` picks the decisions at which the
/// labels of every action offered are made too, and whether each game keeps a profile.
#[allow(clippy::too_many_arguments)]
pub fn play_each(
    def: &std::sync::Arc<farebox::GameDef>,
    base: &Setup,
    count: u64,
    agents: &[String],
    cap: u32,
    threads: usize,
    done: &(dyn Fn() + Sync),
    stop: &AtomicBool,
    checks: Checks,
    forbid: &Forbid,
    each: &mut dyn FnMut(Outcome),
) {
    const BATCH: u64 = 4_096;
    let mut first = 0u64;
    while first < count && !stop.load(Ordering::Relaxed) {
        let n = (count - first).min(BATCH);
        let mut batch_base = base.clone();
        batch_base.seed = base.seed.wrapping_add(first);
        let games = matches(&batch_base, n, agents);
        for mut o in play_many_forbidding(def, &games, cap, threads, done, stop, checks, forbid) {
            if let Some(e) = &mut o.error {
                *e = crate::common::cut(e, 500);
            }
            if let Some(r) = &mut o.result
                && r.reason.chars().count() > MAX_REASON
            {
                r.reason = crate::common::cut(&r.reason, MAX_REASON);
            }
            each(o);
        }
        first += n;
    }
}

/// A profile as JSON: for each hook and bot, its calls and the steps and milliseconds of a
/// call on average and at most.
pub fn profile_json(p: &Profile) -> serde_json::Value {
    let mut out = serde_json::Map::new();
    for (name, s) in p {
        let calls = s.calls.max(1) as f64;
        out.insert(
            name.clone(),
            json!({
                "calls": s.calls,
                "steps_mean": s.steps as f64 / calls,
                "steps_max": s.max_steps,
                "ms_mean": s.nanos as f64 / calls / 1e6,
                "ms_max": s.max_nanos as f64 / 1e6,
                "api_calls_mean": s.api_calls as f64 / calls,
            }),
        );
    }
    serde_json::Value::Object(out)
}

/// A profile's hooks and bots, the one with the heaviest single call first (then by name):
/// the order `sim --profile` and the Studio's script profile list them in.
pub fn heaviest_first(p: &Profile) -> Vec<(&String, &farebox::script::CallStats)> {
    let mut rows: Vec<_> = p.iter().collect();
    rows.sort_by(|a, b| b.1.max_steps.cmp(&a.1.max_steps).then(a.0.cmp(b.0)));
    rows
}

/// A profile as a table for people: a line per hook and bot, the heaviest (by worst steps)
/// first, with the worst call's share of the step budget.
pub fn profile_lines(p: &Profile, budget: u64) -> Vec<String> {
    let rows = heaviest_first(p);
    let mut out = vec![format!(
        "{:<24}{:>10}{:>12}{:>12}{:>8}{:>10}{:>10}{:>10}",
        "profile", "calls", "steps mean", "steps max", "budget", "ms mean", "ms max", "api mean"
    )];
    for (name, s) in rows {
        let calls = s.calls.max(1) as f64;
        out.push(format!(
            "{:<24}{:>10}{:>12.0}{:>12}{:>7.1}%{:>10.3}{:>10.2}{:>10.1}",
            crate::common::cut(name, 24),
            s.calls,
            s.steps as f64 / calls,
            s.max_steps,
            s.max_steps as f64 * 100.0 / budget.max(1) as f64,
            s.nanos as f64 / calls / 1e6,
            s.max_nanos as f64 / 1e6,
            s.api_calls as f64 / calls
        ));
    }
    out
}

/// `count` games like `base`, seeded from its seed upward, one per game.
pub fn matches(base: &Setup, count: u64, agents: &[String]) -> Vec<Match> {
    (0..count)
        .map(|i| {
            let mut setup = base.clone();
            setup.seed = base.seed.wrapping_add(i);
            Match {
                setup,
                agents: agents.to_vec(),
            }
        })
        .collect()
}

/// What a batch of games came to: the figures `sim` prints and `test` compares.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct Stats {
    pub games: usize,
    /// Games that reached a result.
    pub finished: usize,
    /// Games stopped at the action cap.
    pub capped: usize,
    pub errors: usize,
    /// The first few errors, with their seeds.
    pub error_messages: Vec<String>,
    /// Per seat: the share of finished games where the seat placed first (a tie for first
    /// counts as a win for each tied seat).
    pub win_rate: Vec<f64>,
    pub actions_mean: f64,
    pub actions_sd: f64,
    pub turns_mean: f64,
    pub turns_sd: f64,
    pub score_mean: Vec<f64>,
    pub score_sd: Vec<f64>,
    /// How the finished games ended: each reason the rules gave, with how many games gave it.
    #[serde(default)]
    pub endings: std::collections::BTreeMap<String, usize>,
    /// Per seat: the 95% interval of its win rate (Wilson's score interval).
    #[serde(default)]
    pub win_rate_interval: Vec<[f64; 2]>,
    /// The first errored and capped games, with the seed and the action each stopped at.
    #[serde(default)]
    pub failed_games: Vec<FailedGame>,
    /// Decisions at which every action offered was forbidden (restricted play only).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub forced: u64,
    /// Finished games that were ties (two or more seats placed first; never a cooperative
    /// game), their share of the finished games and its 95% interval (Wilson's). None in
    /// outcomes accepted before ties were counted.
    #[serde(default)]
    pub ties: Option<usize>,
    #[serde(default)]
    pub tie_rate: Option<f64>,
    #[serde(default)]
    pub tie_rate_interval: Option<[f64; 2]>,
    /// Failed calls in the search bots' playouts (the games played on, each failed playout
    /// judged from where it got to), the games they were met in, the playouts run, and the
    /// first few failures with their seeds. Left out when none failed.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub playout_errors: u64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub playout_error_games: u64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub playouts: u64,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub playout_error_messages: Vec<String>,
    /// The figures per card, tile, piece and option, and of the game as a whole.
    #[serde(flatten)]
    pub figures: Figures,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// A game of a run that ended in an error or at the action cap: enough to play it again
/// (`farebox record MOD --seed S`) and find the action.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct FailedGame {
    pub seed: u64,
    /// The action it stopped at: the failing action, counted from 1 (0: its setup), or the
    /// cap.
    pub action: u32,
    /// Stopped at the cap rather than by an error.
    pub capped: bool,
}

/// How many failed games the figures keep.
pub const MAX_FAILED: usize = 20;

impl Stats {
    pub fn of(def: &farebox::GameDef, seats: u8, outcomes: &[Outcome]) -> Stats {
        let mut tally = Tally::new(def, seats);
        for o in outcomes {
            tally.add(o);
        }
        tally.stats()
    }
}

impl Stats {
    /// Games that ended in an error or were stopped at the action cap.
    pub fn failed(&self) -> usize {
        self.errors + self.capped
    }

    /// "3 of 200 games failed (2 with errors, 1 stopped at the action cap)".
    pub fn failed_line(&self) -> String {
        let mut how = Vec::new();
        if self.errors > 0 {
            how.push(if self.errors == 1 {
                "1 with an error".to_string()
            } else {
                format!("{} with errors", self.errors)
            });
        }
        if self.capped > 0 {
            how.push(format!("{} stopped at the action cap", self.capped));
        }
        format!(
            "{} of {} {} failed ({})",
            self.failed(),
            self.games,
            plural(self.games, "game"),
            how.join(", ")
        )
    }

    /// The first game that failed, as the run reports it: its seed, the action it stopped
    /// at and why (an error gives the script's file:line). None when no game failed.
    pub fn first_failure(&self) -> Option<String> {
        if self.failed() == 0 {
            return None;
        }
        let Some(g) = self.failed_games.first() else {
            // A game that failed before it started (an agent it could not make) has no
            // action; its message says which seed.
            return self.error_messages.first().cloned();
        };
        if g.capped {
            return Some(format!(
                "seed {} was stopped at the action cap, after {} actions",
                g.seed, g.action
            ));
        }
        let prefix = format!("seed {}: ", g.seed);
        let why = self
            .error_messages
            .iter()
            .find_map(|m| m.strip_prefix(&prefix))
            .unwrap_or("an error");
        let at = if g.action == 0 {
            "setting up the game".to_string()
        } else {
            format!("action {}", g.action)
        };
        Some(format!("seed {}, {at}: {why}", g.seed))
    }

    /// The first figure that is not a finite number, by name (JSON has no such numbers: it
    /// would be written as `null`, which does not read back as a figure).
    pub fn non_finite(&self) -> Option<String> {
        let mut all: Vec<(String, f64)> = vec![
            ("mean length in actions".into(), self.actions_mean),
            ("sd of the length in actions".into(), self.actions_sd),
            ("mean length in turns".into(), self.turns_mean),
            ("sd of the length in turns".into(), self.turns_sd),
        ];
        let seat = |what: &str, xs: &[f64]| -> Vec<(String, f64)> {
            xs.iter()
                .enumerate()
                .map(|(i, x)| (format!("{what} of seat {}", i + 1), *x))
                .collect()
        };
        all.extend(seat("win rate", &self.win_rate));
        all.extend(seat("mean score", &self.score_mean));
        all.extend(seat("sd of the score", &self.score_sd));
        all.extend(self.tie_rate.map(|x| ("tie rate".to_string(), x)));
        all.extend(
            self.tie_rate_interval
                .into_iter()
                .flatten()
                .map(|x| ("tie rate (its 95% interval)".to_string(), x)),
        );
        for (i, ends) in self.win_rate_interval.iter().enumerate() {
            for x in ends {
                all.push((format!("win rate of seat {} (its 95% interval)", i + 1), *x));
            }
        }
        let f = &self.figures;
        let mut maybe = |name: String, x: Option<f64>, i: Option<[f64; 2]>| {
            all.extend(x.map(|x| (name.clone(), x)));
            all.extend(
                i.into_iter()
                    .flatten()
                    .map(|x| (format!("{name} (its 95% interval)"), x)),
            );
        };
        maybe(
            "first mover win rate".into(),
            f.first_mover_win_rate,
            f.first_mover_win_rate_interval,
        );
        maybe(
            "lead changes a game".into(),
            f.lead_changes_mean,
            f.lead_changes_interval,
        );
        maybe(
            "how far in the winner took the lead for good".into(),
            f.winner_took_lead_at,
            f.winner_took_lead_at_interval,
        );
        for (name, st) in &f.stats {
            maybe(format!("stat `{name}`"), Some(st.mean), Some(st.interval));
            maybe(format!("stat `{name}` (its sd)"), Some(st.sd), None);
        }
        for (key, c) in f
            .cards
            .iter()
            .chain(&f.tiles)
            .chain(&f.pieces)
            .chain(&f.options)
        {
            for (how, x, i) in [
                ("held", c.win_rate_held, c.win_rate_held_interval),
                (
                    "not held",
                    c.win_rate_not_held,
                    c.win_rate_not_held_interval,
                ),
                ("played", c.win_rate_played, c.win_rate_played_interval),
                (
                    "not played",
                    c.win_rate_not_played,
                    c.win_rate_not_played_interval,
                ),
            ] {
                maybe(format!("win rate of {key} {how}"), x, i);
            }
        }
        all.into_iter()
            .find(|(_, x)| !x.is_finite())
            .map(|(name, _)| name)
    }
}

/// The most distinct endings the figures list; the games of any further reason are counted
/// together under [`OTHER_ENDINGS`], so a mod whose every game ends for a reason of its own
/// cannot make the figures grow with the games.
pub const MAX_ENDINGS: usize = 100;
/// Where the endings past [`MAX_ENDINGS`] are counted.
pub const OTHER_ENDINGS: &str = "(any other reason)";
/// How many characters of an ending's reason the figures keep.
pub const MAX_REASON: usize = 300;

/// Mean and spread of a figure, gathered one value at a time (Welford's method), so the
/// values themselves need not be kept.
#[derive(Debug, Clone, Default)]
struct Spread {
    n: u64,
    sum: f64,
    mean: f64,
    m2: f64,
}

impl Spread {
    fn add(&mut self, x: f64) {
        self.n += 1;
        self.sum += x;
        let d = x - self.mean;
        self.mean += d / self.n as f64;
        self.m2 += d * (x - self.mean);
    }

    /// Mean and sample standard deviation, as [`mean_sd`] gives them.
    fn mean_sd(&self) -> (f64, f64) {
        match self.n {
            0 => (0.0, 0.0),
            1 => (self.sum, 0.0),
            n => (
                self.sum / n as f64,
                (self.m2.max(0.0) / (n - 1) as f64).sqrt(),
            ),
        }
    }
}

/// The figures of a batch of games, gathered as the games come back: what it holds does not
/// grow with the number of games (the first few errors, at most [`MAX_ENDINGS`] endings).
#[derive(Debug, Clone)]
pub struct Tally {
    games: usize,
    finished: usize,
    capped: usize,
    errors: usize,
    error_messages: Vec<String>,
    wins: Vec<u64>,
    ties: u64,
    actions: Spread,
    turns: Spread,
    scores: Vec<Spread>,
    endings: std::collections::BTreeMap<String, usize>,
    failed: Vec<FailedGame>,
    forced: u64,
    playout_errors: u64,
    playout_error_games: u64,
    playouts: u64,
    playout_error_messages: Vec<String>,
    figures: farebox::figures::Tally,
}

impl Tally {
    pub fn new(def: &farebox::GameDef, seats: u8) -> Tally {
        let n = seats as usize;
        Tally {
            failed: Vec::new(),
            forced: 0,
            playout_errors: 0,
            playout_error_games: 0,
            playouts: 0,
            playout_error_messages: Vec::new(),
            figures: farebox::figures::Tally::new(def),
            games: 0,
            finished: 0,
            capped: 0,
            errors: 0,
            error_messages: Vec::new(),
            wins: vec![0; n],
            ties: 0,
            actions: Spread::default(),
            turns: Spread::default(),
            scores: vec![Spread::default(); n],
            endings: std::collections::BTreeMap::new(),
        }
    }

    /// Adds one game; games are added in seed order.
    pub fn add(&mut self, o: &Outcome) {
        self.games += 1;
        self.capped += usize::from(o.capped);
        self.forced += u64::from(o.forced);
        self.playouts = self.playouts.saturating_add(o.playouts);
        if o.playout_errors > 0 {
            self.playout_errors = self.playout_errors.saturating_add(o.playout_errors);
            self.playout_error_games += 1;
            if let Some(e) = &o.playout_error
                && self.playout_error_messages.len() < 5
            {
                self.playout_error_messages.push(format!(
                    "seed {}: {}",
                    o.seed,
                    crate::common::cut(e, 500)
                ));
            }
        }
        if let Some(action) = o.stopped_at
            && self.failed.len() < MAX_FAILED
        {
            self.failed.push(FailedGame {
                seed: o.seed,
                action,
                capped: o.capped && o.error.is_none(),
            });
        }
        match &o.error {
            Some(e) => {
                self.errors += 1;
                if self.error_messages.len() < 5 {
                    self.error_messages.push(format!(
                        "seed {}: {}",
                        o.seed,
                        crate::common::cut(e, 500)
                    ));
                }
            }
            None => {
                self.actions.add(o.actions as f64);
                self.turns.add(o.turns as f64);
                if o.trace.is_some() {
                    self.figures.add_length(o.turns, o.actions);
                }
            }
        }
        let Some(r) = &o.result else {
            return;
        };
        if let Some(t) = &o.trace {
            self.figures.add(t, r, o.actions);
        }
        self.finished += 1;
        let reason = crate::common::cut(&r.reason, MAX_REASON);
        let key = if self.endings.contains_key(&reason) || self.endings.len() < MAX_ENDINGS {
            reason
        } else {
            OTHER_ENDINGS.to_string()
        };
        *self.endings.entry(key).or_insert(0) += 1;
        self.ties += u64::from(r.is_tie());
        for w in r.winners() {
            if let Some(count) = self.wins.get_mut(w) {
                *count += 1;
            }
        }
        for (spread, s) in self.scores.iter_mut().zip(&r.scores) {
            spread.add(*s as f64);
        }
    }

    pub fn stats(&self) -> Stats {
        let (actions_mean, actions_sd) = self.actions.mean_sd();
        let (turns_mean, turns_sd) = self.turns.mean_sd();
        let scores: Vec<(f64, f64)> = self.scores.iter().map(Spread::mean_sd).collect();
        Stats {
            games: self.games,
            finished: self.finished,
            capped: self.capped,
            errors: self.errors,
            error_messages: self.error_messages.clone(),
            win_rate: self
                .wins
                .iter()
                .map(|w| {
                    if self.finished == 0 {
                        0.0
                    } else {
                        *w as f64 / self.finished as f64
                    }
                })
                .collect(),
            actions_mean,
            actions_sd,
            turns_mean,
            turns_sd,
            score_mean: scores.iter().map(|s| s.0).collect(),
            score_sd: scores.iter().map(|s| s.1).collect(),
            endings: self.endings.clone(),
            win_rate_interval: self
                .wins
                .iter()
                .map(|w| farebox::figures::wilson(*w, self.finished as u64).unwrap_or([0.0, 0.0]))
                .collect(),
            failed_games: self.failed.clone(),
            forced: self.forced,
            ties: Some(self.ties as usize),
            tie_rate: (self.finished > 0).then(|| self.ties as f64 / self.finished as f64),
            tie_rate_interval: farebox::figures::wilson(self.ties, self.finished as u64),
            playout_errors: self.playout_errors,
            playout_error_games: self.playout_error_games,
            playouts: self.playouts,
            playout_error_messages: self.playout_error_messages.clone(),
            figures: self.figures.figures(),
        }
    }
}

/// The `--forbid` ids as restricted play, each checked against the content: an id nothing
/// is called is refused with the names nearest to it.
/// The first of `ids` the content does not have, and a sentence saying so ("Curbside has no
/// card, tile, piece or option value of that id; did you mean ...").
pub fn unknown_id<'i>(def: &farebox::GameDef, ids: &'i [String]) -> Option<(&'i str, String)> {
    let catalog = def.catalog();
    let id = ids.iter().find(|id| !catalog.knows(id))?;
    let near = farebox::diag::suggestion(id, catalog.ids());
    Some((
        id,
        format!(
            "{} has no card, tile, piece or option value of that id{near}",
            def.name
        ),
    ))
}

pub fn forbid_of(
    def: &farebox::GameDef,
    ids: &[String],
    seat: Option<u8>,
    seats: u8,
) -> Result<Forbid, Fail> {
    if let Some((id, why)) = unknown_id(def, ids) {
        return Err(Fail::Usage(format!(
            "--forbid {}: {why}",
            crate::common::shown(id, 60)
        )));
    }
    if let Some(s) = seat
        && (s == 0 || s > seats)
    {
        return Err(Fail::Usage(format!(
            "--forbid-seat {s}: the game has seats 1 to {seats}"
        )));
    }
    Ok(Forbid {
        ids: ids.to_vec(),
        seat: seat.map(|s| s - 1),
    })
}

/// "52.3% (48.1-56.4%)".
pub fn rate_text(rate: Option<f64>, interval: Option<[f64; 2]>) -> String {
    match (rate, interval) {
        (Some(r), Some([lo, hi])) => {
            format!("{:.1}% ({:.1}-{:.1}%)", r * 100.0, lo * 100.0, hi * 100.0)
        }
        (Some(r), None) => format!("{:.1}%", r * 100.0),
        _ => "-".into(),
    }
}

/// "ties      12.5% (9.9-15.6%) of 400 finished games: a tie for first is a win for each
/// tied seat" (None when no
/// game finished, or the figures predate ties).
pub fn tie_line(st: &Stats) -> Option<String> {
    st.tie_rate?;
    Some(format!(
        "ties      {} of {} finished {}: a tie for first is a win for each tied seat",
        rate_text(st.tie_rate, st.tie_rate_interval),
        st.finished,
        plural(st.finished, "game")
    ))
}

/// A warning when the rules recorded more `game.stat` names than a run summarises: the names
/// past the limit are left out of the figures, and the person should know which.
pub fn left_out_note(game: &str, f: &Figures) -> Option<String> {
    if f.stats_left_out == 0 {
        return None;
    }
    let at_least = if f.stats_left_out as usize >= farebox::figures::MAX_LEFT_OUT {
        "at least "
    } else {
        ""
    };
    let first: Vec<String> = f
        .stats_left_out_first
        .iter()
        .map(|n| format!("`{}`", crate::common::shown(n, 64)))
        .collect();
    Some(format!(
        "{game}: warning: the rules recorded {at_least}{} game.stat {} past the {} a run summarises, and {} left out of these figures ({}{}); record a fixed set of names, and count the rest under one of them",
        f.stats_left_out,
        plural(f.stats_left_out as usize, "name"),
        farebox::figures::MAX_RUN_STATS,
        if f.stats_left_out == 1 {
            "it is"
        } else {
            "they are"
        },
        if f.stats_left_out as usize > first.len() {
            "the first: "
        } else {
            ""
        },
        first.join(", ")
    ))
}

/// The figures about the game as a whole and its content, for people: the first mover, the
/// spread of lengths, the lead, the rules' own figures, and per deck (and for tiles, pieces
/// and options) the items whose players won most and least often against the others.
pub fn figure_lines(def: &farebox::GameDef, st: &Stats) -> Vec<String> {
    let f = &st.figures;
    let mut out = Vec::new();
    out.push(
        "(win rates: ties for first count as a win for each tied seat; 95% intervals in brackets)"
            .to_string(),
    );
    if f.first_mover_games > 0 {
        out.push(format!(
            "first mover wins {} of {} games",
            rate_text(f.first_mover_win_rate, f.first_mover_win_rate_interval),
            f.first_mover_games
        ));
    }
    for (what, s) in [("turns", &f.turns_spread), ("actions", &f.actions_spread)] {
        if let Some(s) = s {
            out.push(format!(
                "length in {what}: shortest {}, 10% under {}, median {}, 90% under {}, longest {}",
                s.min, s.p10, s.median, s.p90, s.max
            ));
        }
    }
    if let (Some(counter), Some(m)) = (&f.score_counter, f.lead_changes_mean) {
        let [lo, hi] = f.lead_changes_interval.unwrap_or([m, m]);
        let mut line =
            format!("lead on `{counter}`: changes {m:.2} times a game ({lo:.2}-{hi:.2})");
        if let Some(at) = f.winner_took_lead_at {
            let [lo, hi] = f.winner_took_lead_at_interval.unwrap_or([at, at]);
            line.push_str(&format!(
                "; in {} games the winner led alone to the end, taking the lead for good {:.0}% of the way in ({:.0}-{:.0}%)",
                f.winner_led_for_good_games,
                at * 100.0,
                lo * 100.0,
                hi * 100.0
            ));
        }
        out.push(line);
    }
    for (name, s) in &f.stats {
        out.push(format!(
            "stat {name}: mean {:.3} ({:.3}-{:.3}), sd {:.3}, in {} games",
            s.mean, s.interval[0], s.interval[1], s.sd, s.games
        ));
    }
    let mut groups: Vec<(String, Vec<(&String, &ContentFigure)>)> = Vec::new();
    for d in &def.decks {
        let cards = f.cards.iter().filter(|(_, c)| c.group == d.id).collect();
        groups.push((format!("deck {}", d.id), cards));
    }
    groups.push(("tiles".into(), f.tiles.iter().collect()));
    groups.push(("pieces".into(), f.pieces.iter().collect()));
    groups.push(("options".into(), f.options.iter().collect()));
    for (title, mut items) in groups {
        items.retain(|(_, c)| c.effect().is_some());
        if items.is_empty() {
            continue;
        }
        items.sort_by(|a, b| {
            let (x, y) = (a.1.effect().unwrap_or(0.0), b.1.effect().unwrap_or(0.0));
            y.abs().total_cmp(&x.abs()).then(a.0.cmp(b.0))
        });
        out.push(format!(
            "{title}: largest effects on win rate (of {}; the seats that played it, else held it, against the rest)",
            items.len()
        ));
        for (key, c) in items.iter().take(5) {
            out.push(format!("  {}", content_line(key, c)));
        }
    }
    out
}

/// One item's figures on a line.
pub fn content_line(key: &str, c: &ContentFigure) -> String {
    let (how, games, rate, interval, other, other_interval) =
        if c.win_rate_played.is_some() && c.win_rate_not_played.is_some() {
            (
                "played",
                c.games_played,
                c.win_rate_played,
                c.win_rate_played_interval,
                c.win_rate_not_played,
                c.win_rate_not_played_interval,
            )
        } else {
            (
                "held",
                c.games_held,
                c.win_rate_held,
                c.win_rate_held_interval,
                c.win_rate_not_held,
                c.win_rate_not_held_interval,
            )
        };
    format!(
        "{:<24} {:+5.1} pts  {how} in {games} games: wins {} against {}",
        crate::common::cut(key, 24),
        c.effect().unwrap_or(0.0) * 100.0,
        rate_text(rate, interval),
        rate_text(other, other_interval)
    )
}
