//! What a run of seeded games came to, game by game and over the content: [`Stats`], the
//! figures `farebox sim` prints and `farebox test` compares, gathered one game at a time by a
//! [`Tally`] as the games come back in seed order (its figures about the content and the
//! game as a whole follow each game's [`super::Trace`]).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{Content, Figures, Firsts, Welford, wilson};
use crate::content::GameDef;

/// `text` cut to `max` characters.
fn cut(text: &str, max: usize) -> String {
    crate::content::load::cut(text, max).into_owned()
}

/// `word` for `n` of them ("1 game", "2 games").
fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        word.to_string()
    } else {
        format!("{word}s")
    }
}

/// What a batch of games came to: the figures `sim` prints and `test` compares.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
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
    pub endings: BTreeMap<String, usize>,
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
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
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
    pub fn of(def: &GameDef, seats: u8, outcomes: &[Outcome]) -> Stats {
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

/// How many seeds a block of a run holds: a run gathers its games a block at a time and
/// merges the blocks in seed order (see [`Tally`]), so a run split into shards on block
/// boundaries (`farebox sim --shard`) merges into the very figures of the whole run.
pub const BLOCK: u64 = 1_024;

/// The figures of a batch of games, gathered as the games come back: what it holds does not
/// grow with the number of games (the first few errors, at most [`MAX_ENDINGS`] endings).
///
/// The games are gathered a block of [`BLOCK`] seeds at a time (counted from the run's first
/// game) into a [`Block`], and each full block is merged into the blocks before it, always
/// left to right: every count is added; a mean and spread is merged by the pairwise update
/// (not the same to the last bit as adding the values one by one, which is why the order is
/// fixed); endings and `game.stat` names are admitted in the order the block met them. A run
/// of one block is therefore exactly what adding its games one by one gives, and a run of
/// many blocks gives the same bits whether it was played whole or as shards whose blocks are
/// merged afterwards ([`Tally::from_blocks`]).
#[derive(Debug, Clone)]
pub struct Tally {
    block: u64,
    /// An empty block of this content, to start each block from.
    empty: Block,
    /// The blocks merged so far, and the one being gathered.
    done: Block,
    now: Block,
    /// Every full block, when asked for (a shard keeps them to write them out).
    kept: Option<Vec<Block>>,
}

/// What one block of games (or the blocks merged so far) came to: every count and sum the
/// figures are made from, written to shard files as it is. Reasons for an ending are kept in
/// the order they first came, every one in a block (at most one a game), the first
/// [`MAX_ENDINGS`] once merged.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Block {
    games: usize,
    finished: usize,
    capped: usize,
    errors: usize,
    error_messages: Vec<String>,
    wins: Vec<u64>,
    ties: u64,
    actions: Welford,
    turns: Welford,
    scores: Vec<Welford>,
    endings: Firsts<usize>,
    failed: Vec<FailedGame>,
    forced: u64,
    playout_errors: u64,
    playout_error_games: u64,
    playouts: u64,
    playout_error_messages: Vec<String>,
    figures: Content,
}

impl Block {
    fn new(def: &GameDef, seats: u8) -> Block {
        let n = seats as usize;
        Block {
            failed: Vec::new(),
            forced: 0,
            playout_errors: 0,
            playout_error_games: 0,
            playouts: 0,
            playout_error_messages: Vec::new(),
            figures: Content::new(def),
            games: 0,
            finished: 0,
            capped: 0,
            errors: 0,
            error_messages: Vec::new(),
            wins: vec![0; n],
            ties: 0,
            actions: Welford::default(),
            turns: Welford::default(),
            scores: vec![Welford::default(); n],
            endings: Firsts::default(),
        }
    }

    /// The games this block holds.
    pub fn games(&self) -> usize {
        self.games
    }

    /// Adds one game; games are added in seed order.
    fn add(&mut self, o: &Outcome) {
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
                self.playout_error_messages
                    .push(format!("seed {}: {}", o.seed, cut(e, 500)));
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
                    self.error_messages
                        .push(format!("seed {}: {}", o.seed, cut(e, 500)));
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
        *self.endings.entry(&cut(&r.reason, MAX_REASON)) += 1;
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

    /// Adds the block of games that came next (see [`Tally`]).
    fn merge(&mut self, b: &Block) {
        let add = |a: &mut usize, b: usize| *a = a.saturating_add(b);
        let add64 = |a: &mut u64, b: u64| *a = a.saturating_add(b);
        add(&mut self.games, b.games);
        add(&mut self.finished, b.finished);
        add(&mut self.capped, b.capped);
        add(&mut self.errors, b.errors);
        add64(&mut self.ties, b.ties);
        add64(&mut self.forced, b.forced);
        add64(&mut self.playout_errors, b.playout_errors);
        add64(&mut self.playout_error_games, b.playout_error_games);
        add64(&mut self.playouts, b.playouts);
        let first = |mine: &mut Vec<String>, theirs: &[String], max: usize| {
            let room = max.saturating_sub(mine.len());
            mine.extend(theirs.iter().take(room).cloned());
        };
        first(&mut self.error_messages, &b.error_messages, 5);
        first(
            &mut self.playout_error_messages,
            &b.playout_error_messages,
            5,
        );
        let room = MAX_FAILED.saturating_sub(self.failed.len());
        self.failed.extend(b.failed.iter().take(room).cloned());
        for (w, o) in self.wins.iter_mut().zip(&b.wins) {
            add64(w, *o);
        }
        self.actions.merge(&b.actions);
        self.turns.merge(&b.turns);
        for (s, o) in self.scores.iter_mut().zip(&b.scores) {
            s.merge(o);
        }
        for (reason, n) in b.endings.iter() {
            let key = if self.endings.get_mut(reason).is_some() || self.endings.len() < MAX_ENDINGS
            {
                reason.as_str()
            } else {
                OTHER_ENDINGS
            };
            add(self.endings.entry(key), *n);
        }
        self.figures.merge(&b.figures);
    }

    /// Whether `b` was gathered for the same content and seats as this.
    fn fits(&self, b: &Block) -> bool {
        self.wins.len() == b.wins.len()
            && self.scores.len() == b.scores.len()
            && self.figures.fits(&b.figures)
    }
}

impl Tally {
    pub fn new(def: &GameDef, seats: u8) -> Tally {
        Tally::with_block(def, seats, BLOCK)
    }

    /// A tally whose blocks hold `block` seeds (at least one): a run and its shards must use
    /// the same.
    pub fn with_block(def: &GameDef, seats: u8, block: u64) -> Tally {
        let empty = Block::new(def, seats);
        Tally {
            block: block.max(1),
            done: empty.clone(),
            now: empty.clone(),
            empty,
            kept: None,
        }
    }

    /// Keeps every block besides merging it, for [`Tally::blocks`].
    pub fn keep_blocks(mut self) -> Tally {
        self.kept = Some(Vec::new());
        self
    }

    /// Adds one game; games are added in seed order, starting from the first of a block.
    pub fn add(&mut self, o: &Outcome) {
        self.now.add(o);
        if self.now.games as u64 >= self.block {
            self.end_block();
        }
    }

    fn end_block(&mut self) {
        let full = std::mem::replace(&mut self.now, self.empty.clone());
        self.done.merge(&full);
        if let Some(kept) = &mut self.kept {
            kept.push(full);
        }
    }

    /// The blocks gathered, in seed order (with [`Tally::keep_blocks`]; the last may be
    /// short).
    pub fn blocks(&self) -> Vec<Block> {
        let mut all = self.kept.clone().unwrap_or_default();
        if self.now.games > 0 {
            all.push(self.now.clone());
        }
        all
    }

    /// The tally of `blocks` of a run of `def` with `seats` seats, merged in the order given;
    /// a block gathered for other content or seats is refused with its number (from 0).
    pub fn from_blocks(
        def: &GameDef,
        seats: u8,
        block: u64,
        blocks: &[Block],
    ) -> Result<Tally, usize> {
        let mut t = Tally::with_block(def, seats, block);
        for (i, b) in blocks.iter().enumerate() {
            if !t.empty.fits(b) {
                return Err(i);
            }
            t.done.merge(b);
        }
        Ok(t)
    }

    pub fn stats(&self) -> Stats {
        if self.now.games == 0 {
            return stats_of(&self.done);
        }
        let mut all = self.done.clone();
        all.merge(&self.now);
        stats_of(&all)
    }
}

/// The figures of the games `t` holds.
fn stats_of(t: &Block) -> Stats {
    let (actions_mean, actions_sd) = t.actions.sum_mean_sd();
    let (turns_mean, turns_sd) = t.turns.sum_mean_sd();
    let scores: Vec<(f64, f64)> = t.scores.iter().map(Welford::sum_mean_sd).collect();
    Stats {
        games: t.games,
        finished: t.finished,
        capped: t.capped,
        errors: t.errors,
        error_messages: t.error_messages.clone(),
        win_rate: t
            .wins
            .iter()
            .map(|w| {
                if t.finished == 0 {
                    0.0
                } else {
                    *w as f64 / t.finished as f64
                }
            })
            .collect(),
        actions_mean,
        actions_sd,
        turns_mean,
        turns_sd,
        score_mean: scores.iter().map(|s| s.0).collect(),
        score_sd: scores.iter().map(|s| s.1).collect(),
        endings: t.endings.iter().map(|(k, v)| (k.clone(), *v)).collect(),
        win_rate_interval: t
            .wins
            .iter()
            .map(|w| wilson(*w, t.finished as u64).unwrap_or([0.0, 0.0]))
            .collect(),
        failed_games: t.failed.clone(),
        forced: t.forced,
        ties: Some(t.ties as usize),
        tie_rate: (t.finished > 0).then(|| t.ties as f64 / t.finished as f64),
        tie_rate_interval: wilson(t.ties, t.finished as u64),
        playout_errors: t.playout_errors,
        playout_error_games: t.playout_error_games,
        playouts: t.playouts,
        playout_error_messages: t.playout_error_messages.clone(),
        figures: t.figures.figures(),
    }
}

/// How one simulated game went.
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    pub seed: u64,
    pub result: Option<crate::state::GameResult>,
    pub actions: u32,
    pub turns: u32,
    /// The game passed the safety cap on actions and was stopped.
    pub capped: bool,
    pub error: Option<String>,
    /// For a game that failed or was capped: the number of the action it stopped at (the
    /// action that failed, counted from 1; 0 for its setup; the cap for a capped game), so
    /// the game can be replayed to that point from its seed.
    pub stopped_at: Option<u32>,
    /// Decisions at which every action offered was forbidden (`farebox sim --forbid`), so
    /// the bot chose among all of them.
    pub forced: u32,
    /// What failed in the search bots' playouts (every seat's together; see
    /// [`crate::search::Failures`]): the game played on, each failed playout judged from
    /// where it got to. Failed calls, playouts run and the first failure in full.
    pub playout_errors: u64,
    pub playouts: u64,
    pub playout_error: Option<String>,
    /// Calls, steps and time per hook and bot, when the run keeps a profile (see
    /// [`crate::agent::Checks`]); empty otherwise.
    #[serde(skip)]
    pub profile: crate::script::Profile,
    /// What the game showed about its content, when the run follows it (see [`crate::agent::Checks`]).
    #[serde(skip)]
    pub trace: Option<Box<crate::figures::Trace>>,
}

impl Outcome {
    /// A game of this seed not played yet.
    pub(crate) fn of(seed: u64) -> Outcome {
        Outcome {
            seed,
            result: None,
            actions: 0,
            turns: 0,
            capped: false,
            error: None,
            stopped_at: None,
            forced: 0,
            playout_errors: 0,
            playouts: 0,
            playout_error: None,
            profile: Default::default(),
            trace: None,
        }
    }
}
