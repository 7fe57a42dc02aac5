//! A game in progress: the action model.
//!
//! 1. [`Game::legal_actions`] asks the rules (the `actions` hook, read-only) for the actions of
//!    the seat to act. An action is a string such as `"move N 2"`; [`Game::describe`] gives a
//!    label for people, and [`Game::describe_path`] the same label as a menu path.
//! 2. An agent picks one.
//! 3. [`Game::apply`] checks the action is legal and runs the `apply` hook. Apply is atomic: on
//!    any script error the state and the log are exactly as before, and the error names mod,
//!    file, line and hook.
//!
//! [`Game::view`] shows the state as one seat may see it (`view.rs`). How the first state is
//! built is in `setup.rs`; trials, bots' tries and the copies a seat could imagine are in
//! `lookahead.rs`.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;

use crate::content::GameDef;
use crate::rng::Rng;
use crate::script::{Access, CallCtx, Host, Limits, ScriptError};
/// Re-exported here, where views are made, for the code that asks what a seat may see.
pub use crate::state::visible_cards;
use crate::state::{Counted, GameResult, LogEntry, State};
use crate::value::Value;

mod lookahead;
mod seen;
mod setup;
mod told;
mod view;

pub use seen::{Name, Offer, SeatStatus, Sitter, TableView, space_named};
pub use setup::{check_options, initial_state};
pub use told::{Chronicle, Own, Told};
pub use view::{PieceView, View, ZoneView, view_of};

/// How a game starts: seats, seed and options.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct Setup {
    pub seats: u8,
    pub seed: u64,
    /// Options given; the rest take their defaults.
    #[serde(default)]
    pub options: BTreeMap<String, Value>,
    /// Restricted play that takes cards out of one seat's draws (`farebox sim --rank DECK
    /// --remove`). None in a game played as the rules have it; never written to a replay.
    #[serde(skip)]
    pub barred: Option<Barred>,
}

/// Cards one seat never draws: whenever `game.move_card` would move one of them from a zone
/// that is not the seat's into one of its zones, the topmost other card of that zone moves
/// instead and the barred card stays where it was, for the other seats to draw. Where every
/// card left in the zone is barred, the top one moves after all (the rules must go on).
/// `game.take_card`, which names its card, is left alone: the agents are kept from actions
/// that name a barred card by [`crate::agent::Forbid`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Barred {
    /// The seat (0-based).
    pub seat: u8,
    /// Card ids (in any deck).
    pub ids: Vec<String>,
}

impl Setup {
    pub fn new(seats: u8, seed: u64) -> Setup {
        Setup {
            seats,
            seed,
            options: BTreeMap::new(),
            barred: None,
        }
    }
    pub fn option(mut self, id: &str, v: Value) -> Setup {
        self.options.insert(id.to_string(), v);
        self
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum GameError {
    /// The setup does not fit the mod (seat count, unknown option...).
    Setup(String),
    /// The action is not among the legal actions.
    Illegal(String),
    /// The game is over.
    Over,
    Script(ScriptError),
}

impl std::fmt::Display for GameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GameError::Setup(m) => write!(f, "{m}"),
            GameError::Illegal(a) => write!(f, "`{a}` is not a legal action now"),
            GameError::Over => write!(f, "the game is over"),
            GameError::Script(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for GameError {}

impl From<ScriptError> for GameError {
    fn from(e: ScriptError) -> Self {
        GameError::Script(e)
    }
}

pub struct Game {
    def: Arc<GameDef>,
    host: Host,
    state: Box<State>,
    log: Counted<LogEntry>,
    history: Counted<String>,
    setup: Setup,
    /// An empty state that stands in for `state` while a hook has it; kept between calls so
    /// lending the state allocates nothing.
    spare: Option<Box<State>>,
    /// What the snapshots of a bot's standing tries hold (see `State::bytes_apart_from`),
    /// counted against the memory limit with the rest of the game.
    standing: usize,
    /// Whether the `setup` hook is running (for the lines scripts print).
    setting_up: bool,
}

/// A point to come back to (see `Game::mark`).
struct Mark {
    state: Box<State>,
    log: usize,
    history: usize,
}

/// Actions a bot may try (`game.try`) in one `choose`.
const MAX_TRIES: usize = 2000;

/// Turn changes a single hook may chain before the engine calls it a loop.
const MAX_TURN_CHAIN: usize = 256;

impl Game {
    pub fn new(def: Arc<GameDef>, setup: Setup) -> Result<Game, GameError> {
        Game::with_limits(def, setup, Limits::default())
    }

    pub fn with_limits(def: Arc<GameDef>, setup: Setup, limits: Limits) -> Result<Game, GameError> {
        Game::check(&def, &setup)?;
        let host = Host::new(def.clone(), limits)?;
        Game::start(def, setup, host)
    }

    /// [`Game::new`] on a VM that keeps a profile of its calls from the start, setup
    /// included (see [`Host::set_profiling`]).
    pub fn with_profile(def: Arc<GameDef>, setup: Setup) -> Result<Game, GameError> {
        Game::check(&def, &setup)?;
        let host = Host::new(def.clone(), Limits::default())?;
        host.set_profiling(true);
        Game::start(def, setup, host)
    }

    /// Starts a game on a VM that has played another game of the same mod (see
    /// [`Game::into_host`]): the VM is reset first, so the game is the same as on a new one,
    /// only cheaper to start. Simulations use this.
    pub fn with_host(setup: Setup, mut host: Host) -> Result<Game, GameError> {
        let def = host.def().clone();
        Game::check(&def, &setup)?;
        host.reset()?;
        Game::start(def, setup, host)
    }

    /// Ends the game and gives back its VM, for [`Game::with_host`].
    pub fn into_host(self) -> Host {
        self.host
    }

    fn check(def: &GameDef, setup: &Setup) -> Result<(), GameError> {
        if !def.playable() {
            return Err(GameError::Setup(format!(
                "mod `{}` has no rule scripts yet, so it cannot be played",
                def.id
            )));
        }
        let (lo, hi) = def.players;
        if (setup.seats as u32) < lo || (setup.seats as u32) > hi {
            return Err(GameError::Setup(format!(
                "{} is for {lo} to {hi} players, not {}",
                def.name, setup.seats
            )));
        }
        Ok(())
    }

    fn start(def: Arc<GameDef>, setup: Setup, host: Host) -> Result<Game, GameError> {
        let state = initial_state(&def, &setup)?;
        let mut game = Game {
            def,
            host,
            state: Box::new(state),
            log: Counted::default(),
            history: Counted::default(),
            setup,
            spare: None,
            standing: 0,
            setting_up: false,
        };
        let snapshot = game.state.clone();
        game.setting_up = true;
        let r = game.run_rules("setup", None, None);
        game.setting_up = false;
        if let Err(e) = r {
            game.state = snapshot;
            return Err(game.at(e, 0).into());
        }
        Ok(game)
    }
}

/// Whether a mod's scripts are fit to play: every rule and bot script compiles and runs, a
/// game of every seat count the mod allows sets up (seed 1, the default options), and the
/// first seat to act is offered its actions. The first script error, with its file and line;
/// content-only mods pass. The Studio's reload and its check of unsaved edits report it beside
/// the content's problems, so a setup that fails only for four seats is found on the save.
pub fn check_scripts(def: &Arc<GameDef>) -> Result<(), ScriptError> {
    if !def.playable() {
        return Ok(());
    }
    let fewest = def.players.0.max(1);
    // At most eight seat counts: a mod allowing 1 to 200 seats is checked at its fewest eight.
    let most = def.players.1.max(fewest).min(fewest.saturating_add(7));
    for seats in fewest..=most {
        let seats = u8::try_from(seats).unwrap_or(u8::MAX);
        match Game::new(def.clone(), Setup::new(seats, 1)) {
            Err(GameError::Script(e)) => return Err(e),
            Err(_) => {}
            Ok(mut g) => {
                if !g.is_over() {
                    g.legal_actions()?;
                }
            }
        }
    }
    Ok(())
}

impl Game {
    pub fn def(&self) -> &Arc<GameDef> {
        &self.def
    }
    pub fn state(&self) -> &State {
        &self.state
    }
    pub fn setup(&self) -> &Setup {
        &self.setup
    }
    pub fn history(&self) -> &[String] {
        &self.history
    }
    pub fn log(&self) -> &[LogEntry] {
        &self.log
    }
    pub fn is_over(&self) -> bool {
        self.state.result.is_some()
    }
    pub fn result(&self) -> Option<&GameResult> {
        self.state.result.as_ref()
    }
    pub fn active(&self) -> u8 {
        self.state.active
    }
    pub fn host(&self) -> &Host {
        &self.host
    }

    /// Says where in the game an error happened: at action `action` (1-based; 0 is setup) of
    /// the game with this seed, unless it already says.
    fn at(&self, mut e: ScriptError, action: usize) -> ScriptError {
        if e.context.seed.is_none() {
            e.context.seed = Some(self.setup.seed);
            e.context.action = Some(action);
        }
        e
    }

    /// The number of the action to come (1 for the first).
    fn next_action(&self) -> usize {
        self.history.len() + 1
    }

    fn ctx(&mut self, access: Access, bot_rng: Rng) -> CallCtx {
        let action = if self.setting_up {
            0
        } else {
            self.next_action()
        };
        self.host.debug_at(self.setup.seed, action);
        let stand_in = self
            .spare
            .take()
            .unwrap_or_else(|| Box::new(State::empty()));
        let state = std::mem::replace(&mut self.state, stand_in);
        CallCtx {
            state,
            def: self.def.clone(),
            log: std::mem::take(&mut self.log),
            access,
            bot_rng,
            lookahead: false,
            actions_bytes: self.history.bytes(),
            tries_bytes: self.standing,
        }
    }

    /// The game as it is now, to come back to (the log and the history only grow, so their
    /// lengths are enough).
    fn mark(&self) -> Mark {
        Mark {
            state: self.state.clone(),
            log: self.log.len(),
            history: self.history.len(),
        }
    }

    /// Puts the game back as it was at `mark`: rollback on errors, tries and trials.
    fn rewind(&mut self, mark: Mark) {
        self.state = mark.state;
        self.log.truncate(mark.log);
        self.history.truncate(mark.history);
    }

    fn restore(&mut self, ctx: CallCtx) -> Rng {
        self.spare = Some(std::mem::replace(&mut self.state, ctx.state));
        self.log = ctx.log;
        ctx.bot_rng
    }

    /// Runs a rules hook, then any turn starts it asked for.
    fn run_rules(
        &mut self,
        hook: &str,
        seat: Option<u8>,
        action: Option<&str>,
    ) -> Result<(), ScriptError> {
        let ctx = self.ctx(Access::Rules, Rng::new(0, 0));
        let (ctx, r) = self.host.call_hook::<()>(hook, ctx, seat, action);
        self.restore(ctx);
        r?;
        let mut chain = 0;
        while self.state.pending_turn_start && self.state.result.is_none() {
            self.state.pending_turn_start = false;
            chain += 1;
            if chain > MAX_TURN_CHAIN {
                return Err(ScriptError {
                    mod_id: self.def.id.clone(),
                    file: self.def.id.clone(),
                    line: 0,
                    hook: "on_turn_start".into(),
                    message: format!(
                        "on_turn_start passed the turn on {MAX_TURN_CHAIN} times in a row (a loop?)"
                    ),
                    ..ScriptError::default()
                });
            }
            let active = self.state.active;
            let ctx = self.ctx(Access::Rules, Rng::new(0, 0));
            let (ctx, r) = self
                .host
                .call_hook::<()>("on_turn_start", ctx, Some(active), None);
            self.restore(ctx);
            r?;
        }
        self.state.pending_turn_start = false;
        Ok(())
    }

    /// The legal actions of the seat to act (empty when the game is over).
    pub fn legal_actions(&mut self) -> Result<Vec<String>, ScriptError> {
        if self.is_over() {
            return Ok(vec![]);
        }
        let seat = self.state.active;
        let seed = self.history.len() as u64;
        let ctx = self.ctx(Access::Seat(Some(seat)), Rng::new(seed, 1));
        let (ctx, r) = self.host.call_actions(ctx, seat);
        self.restore(ctx);
        let actions = r
            .map_err(|e| self.at(e, self.next_action()))?
            .unwrap_or_default();
        if let Some(twice) = repeated(&actions) {
            return Err(self.host.hook_error(
                "actions",
                format!("the action `{twice}` is listed twice; each action must be listed once"),
            ));
        }
        Ok(actions)
    }

    /// The acting seat's own label for an action: the parts of [`Game::describe_path`]
    /// joined by single spaces. What everyone else is shown is [`Game::describe_public`].
    pub fn describe(&mut self, action: &str) -> String {
        self.describe_path(action).join(" ")
    }

    /// The label everyone but the acting seat is shown for an action: the `describe` hook
    /// run reading the game as a spectator (`game.viewer()` is nil), so it cannot read what
    /// is hidden; a mod whose actions name hidden things gives a plainer label there. Logs,
    /// transcripts and bot lines shown to others use it.
    pub fn describe_public(&mut self, action: &str) -> String {
        self.try_describe_public(action)
            .unwrap_or_else(|_| action.to_string())
    }

    /// [`Game::describe_public`], with the error when the `describe` hook fails.
    pub fn try_describe_public(&mut self, action: &str) -> Result<String, ScriptError> {
        Ok(self.try_label(action, None)?.join(" "))
    }

    /// The label `viewer` is shown for an action of the seat to act: its own label when it
    /// is that seat, else the public one.
    pub fn describe_for(&mut self, action: &str, viewer: Option<u8>) -> String {
        if viewer == Some(self.state.active) {
            self.describe(action)
        } else {
            self.describe_public(action)
        }
    }

    /// An action's label as a menu path (`["Place", "a Straightaway", "at 3,4"]`), so a menu
    /// can group actions by their first parts. A plain string label is a path of one part;
    /// without a `describe` hook, or when the hook fails, the path is the action itself (see
    /// [`Game::try_describe_path`] for the error).
    pub fn describe_path(&mut self, action: &str) -> Vec<String> {
        self.try_describe_path(action)
            .unwrap_or_else(|_| vec![action.to_string()])
    }

    /// [`Game::describe_path`], with the error when the `describe` hook fails or returns
    /// something other than a string or a non-empty list of strings.
    pub fn try_describe_path(&mut self, action: &str) -> Result<Vec<String>, ScriptError> {
        let seat = self.state.active;
        self.try_label(action, Some(seat))
    }

    /// The `describe` hook's label for `action` of the seat to act, read as `viewer` sees
    /// the game (None: the public label).
    fn try_label(&mut self, action: &str, viewer: Option<u8>) -> Result<Vec<String>, ScriptError> {
        if !self.host.has_hook("describe") {
            return Ok(vec![action.to_string()]);
        }
        let seat = self.state.active;
        let ctx = self.ctx(Access::Seat(viewer), Rng::new(0, 2));
        let (ctx, r) = self.host.call_describe(ctx, seat, action);
        self.restore(ctx);
        let r = r.map_err(|e| self.at(e, self.next_action()))?;
        Ok(r.unwrap_or_else(|| vec![action.to_string()]))
    }

    /// The rules' score of a seat (from the `score` hook), if the mod has one.
    pub fn score(&mut self, seat: u8) -> Option<f64> {
        self.try_score(seat).ok().flatten()
    }

    /// [`Game::score`], with the error when the hook fails.
    pub fn try_score(&mut self, seat: u8) -> Result<Option<f64>, ScriptError> {
        let ctx = self.ctx(Access::ReadOnly, Rng::new(0, 3));
        let (ctx, r) = self.host.call_hook::<f64>("score", ctx, Some(seat), None);
        self.restore(ctx);
        r.map_err(|e| self.at(e, self.next_action()))
    }

    /// The rules' evaluation of an unfinished game for a seat (the `evaluate` hook), in
    /// [0, 1], if the mod has one; a value outside is clamped, and an error or a value that
    /// is not a finite number counts as none.
    pub fn evaluate(&mut self, seat: u8) -> Option<f64> {
        self.try_evaluate(seat).ok().flatten()
    }

    /// [`Game::evaluate`], with the error when the hook fails (a value that is not a finite
    /// number is still none, not an error).
    pub fn try_evaluate(&mut self, seat: u8) -> Result<Option<f64>, ScriptError> {
        let ctx = self.ctx(Access::ReadOnly, Rng::new(0, 4));
        let (ctx, r) = self
            .host
            .call_hook::<f64>("evaluate", ctx, Some(seat), None);
        self.restore(ctx);
        let v = r.map_err(|e| self.at(e, self.next_action()))?;
        Ok(v.filter(|v| v.is_finite()).map(|v| v.clamp(0.0, 1.0)))
    }

    /// Checks that `action` is legal, then applies it.
    pub fn apply(&mut self, action: &str) -> Result<(), GameError> {
        if self.is_over() {
            return Err(GameError::Over);
        }
        let legal = self.legal_actions()?;
        if !legal.iter().any(|a| a == action) {
            return Err(GameError::Illegal(action.to_string()));
        }
        self.apply_legal(action)
    }

    /// Applies an action taken from [`Game::legal_actions`] of this very state.
    pub fn apply_legal(&mut self, action: &str) -> Result<(), GameError> {
        if self.is_over() {
            return Err(GameError::Over);
        }
        if self.history.len() >= MAX_ACTIONS {
            return Err(GameError::Setup(format!(
                "the game has taken {} actions, the most a replay holds, and cannot go on",
                MAX_ACTIONS
            )));
        }
        let mark = self.mark();
        let seat = self.state.active;
        if let Err(e) = self.run_rules("apply", Some(seat), Some(action)) {
            self.rewind(mark);
            return Err(self.at(e, self.next_action()).into());
        }
        self.history.push(action.to_string());
        Ok(())
    }

    /// Runs Luau against the game with the rules' rights, atomically (see [`Host::eval`]);
    /// turn starts it asks for run after it.
    pub fn eval(&mut self, code: &str) -> Result<Value, ScriptError> {
        let mark = self.mark();
        let ctx = self.ctx(Access::Rules, Rng::new(0, 4));
        let (ctx, r) = self.host.eval(ctx, code);
        self.restore(ctx);
        if r.is_err() {
            self.rewind(mark);
        }
        r
    }

    /// Runs Luau against the game with the rules' right to read everything and no right to
    /// change anything, for a console: `code` is an expression ("game.counter('gas', 1)") or
    /// statements that `return` what to show. Returns what it gives, written as `print`
    /// writes values; the game is exactly as it was after, whatever the code did.
    pub fn inspect(&mut self, code: &str) -> Result<String, ScriptError> {
        let mark = self.mark();
        let ctx = self.ctx(Access::ReadOnly, Rng::new(0, 4));
        let (ctx, r) = self.host.inspect(ctx, code);
        self.restore(ctx);
        self.rewind(mark);
        r
    }
}

/// An action that appears more than once in a list, if any. Lists are a few dozen at most, so
/// comparing pairs (most differ in length) costs less than hashing every action.
fn repeated(actions: &[String]) -> Option<&str> {
    // A short list (every bundled game's, nearly always) is scanned pair by pair without
    // allocating; a long one goes through a set, so a list of 100,000 actions costs linear
    // time, not quadratic. Either way the first action seen a second time is named.
    if actions.len() <= 32 {
        return actions
            .iter()
            .enumerate()
            .find(|(i, a)| actions[..*i].contains(a))
            .map(|(_, a)| a.as_str());
    }
    let mut seen = std::collections::HashSet::with_capacity(actions.len());
    actions
        .iter()
        .find(|a| !seen.insert(a.as_str()))
        .map(String::as_str)
}

/// (road tile, blocker) on a grid cell, as (tile id, quarter turns).
pub type CellView = (Option<(String, u8)>, Option<(String, u8)>);

/// The most actions a game may take (and so a replay hold).
pub const MAX_ACTIONS: usize = 1_000_000;
