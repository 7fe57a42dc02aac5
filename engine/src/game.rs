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
//! [`Game::view`] shows the state as one seat may see it.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;

use crate::board::Board;
use crate::content::GameDef;
use crate::content::def::{OptionType, Scope};
use crate::rng::Rng;
use crate::script::{Access, BotStep, CallCtx, Host, Limits, ScriptError};
/// Re-exported here, where views are made, for the code that asks what a seat may see.
pub use crate::state::visible_cards;
use crate::state::{CardRef, Counted, GameResult, LogEntry, PieceState, Seen, State, ZoneState};
use crate::value::Value;

/// How a game starts: seats, seed and options.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct Setup {
    pub seats: u8,
    pub seed: u64,
    /// Options given; the rest take their defaults.
    #[serde(default)]
    pub options: BTreeMap<String, Value>,
}

impl Setup {
    pub fn new(seats: u8, seed: u64) -> Setup {
        Setup {
            seats,
            seed,
            options: BTreeMap::new(),
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

/// Whether a mod's scripts are fit to play: every rule and bot script compiles and runs, and
/// a game of the fewest seats sets up (seed 1). The first script error, with its file and line;
/// content-only mods pass. `farebox validate` and the Studio's reload report it beside the
/// content's problems.
pub fn check_scripts(def: &Arc<GameDef>) -> Result<(), ScriptError> {
    if !def.playable() {
        return Ok(());
    }
    let seats = u8::try_from(def.players.0.max(1)).unwrap_or(u8::MAX);
    match Game::new(def.clone(), Setup::new(seats, 1)) {
        Err(GameError::Script(e)) => Err(e),
        _ => Ok(()),
    }
}

/// Deals the cards hidden from `seat` again, shuffled by `seed`, into the places hidden from
/// it (every zone keeps its count, every card the seat can see stays where it is), and seeds
/// the generator anew: the game as the seat might imagine it, for lookahead that must not see
/// the real deal or the real dice to come. The hidden cards are put in a fixed order (by deck
/// and card) before the shuffle, so where each lands depends only on which cards are hidden,
/// which the seat can work out, and never on where they really lie.
fn redeal_hidden(def: &GameDef, state: &mut State, seat: u8, seed: u64) {
    let viewer = Some(seat);
    let mut places = Vec::new();
    let mut cards = Vec::new();
    for (z, zone) in state.zones.iter().enumerate() {
        let hidden = zone.cards.len() - visible_cards(def, zone, viewer);
        for i in 0..hidden {
            places.push((z, i));
            cards.push(zone.cards[i]);
        }
    }
    cards.sort_unstable_by_key(|c| (c.deck, c.card));
    let mut rng = Rng::new(seed, 5);
    rng.shuffle(&mut cards);
    for ((z, i), card) in places.into_iter().zip(cards) {
        state.zones[z].cards[i] = card;
    }
    state.rng = Rng::new(seed, 6);
}

/// Takes out of `state` every variable `seat` may not see, and remembers their names (see
/// [`State::unknown`]).
fn hide_secrets(state: &mut State, seat: u8) {
    let viewer = Some(seat);
    if state.vars.values().all(|v| v.seen.by(viewer)) {
        state.unknown = None;
        return;
    }
    let names = state
        .vars
        .iter()
        .filter(|(_, v)| !v.seen.by(viewer))
        .map(|(k, _)| k.clone())
        .collect();
    Arc::make_mut(&mut state.vars).retain(|_, v| v.seen.by(viewer));
    state.vars_bytes = state.vars.values().map(|v| v.size).sum();
    state.unknown = Some(Arc::new(crate::state::Unknown { seat, names }));
}

/// The state a game starts from before its `setup` hook runs: the board built (sections
/// arranged, by the seed), every zone filled from its deck (shuffled where it says so), every
/// piece off the board, counters at their starting values. Content-only mods (no rules yet)
/// are shown from this.
pub fn initial_state(def: &GameDef, setup: &Setup) -> Result<State, GameError> {
    let options = resolve_options(def, setup)?;

    let mut rng = Rng::new(setup.seed, 0);
    let board = Board::new(&def.board, &def.tiles, &options, &mut rng);
    let seats = setup.seats;

    let mut zones = Vec::new();
    let mut zone_index = Vec::new();
    for (di, z) in def.zones.iter().enumerate() {
        let owners: Vec<Option<u8>> = if z.per_seat {
            (0..seats).map(Some).collect()
        } else {
            vec![None]
        };
        let mut idx = Vec::new();
        for owner in owners {
            let mut cards = Vec::new();
            if let Some(d) = z.deck
                && let Some(deck) = def.decks.get(d)
            {
                for (ci, c) in deck.cards.iter().enumerate() {
                    for _ in 0..c.count {
                        cards.push(CardRef {
                            deck: d as u16,
                            card: ci as u16,
                        });
                    }
                }
            }
            if z.shuffle {
                rng.shuffle(&mut cards);
            }
            idx.push(zones.len() as u16);
            zones.push(ZoneState {
                def: di as u16,
                owner,
                cards,
            });
        }
        zone_index.push(idx);
    }
    let mut pieces = Vec::new();
    for (di, p) in def.pieces.iter().enumerate() {
        let owners: Vec<Option<u8>> = if p.per_seat {
            (0..seats).map(Some).collect()
        } else {
            vec![None]
        };
        for owner in owners {
            for _ in 0..p.count {
                pieces.push(PieceState {
                    def: di as u16,
                    owner,
                    at: None,
                    props: Arc::default(),
                    props_bytes: 0,
                });
            }
        }
    }
    let counters = def
        .counters
        .iter()
        .map(|c| {
            let v = c
                .initial_option
                .as_ref()
                .and_then(|o| options.get(o))
                .and_then(|v| v.as_int())
                .unwrap_or(c.initial);
            let n = if c.scope == Scope::Seat {
                seats as usize
            } else {
                1
            };
            vec![v; n]
        })
        .collect();
    Ok(State {
        seats,
        active: 0,
        turn: 1,
        board,
        pieces,
        zones,
        zone_index,
        counters,
        vars: Arc::default(),
        options: Arc::new(options),
        rng,
        result: None,
        pending_turn_start: true,
        props_bytes: 0,
        unknown: None,
        vars_bytes: 0,
        stats: Arc::default(),
    })
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
        let ctx = self.ctx(Access::ReadOnly, Rng::new(0, 3));
        let (ctx, r) = self.host.call_hook::<f64>("score", ctx, Some(seat), None);
        self.restore(ctx);
        r.ok().flatten()
    }

    /// The rules' evaluation of an unfinished game for a seat (the `evaluate` hook), in
    /// [0, 1], if the mod has one; a value outside is clamped, and an error or a value that
    /// is not a finite number counts as none.
    pub fn evaluate(&mut self, seat: u8) -> Option<f64> {
        let ctx = self.ctx(Access::ReadOnly, Rng::new(0, 4));
        let (ctx, r) = self
            .host
            .call_hook::<f64>("evaluate", ctx, Some(seat), None);
        self.restore(ctx);
        r.ok()
            .flatten()
            .filter(|v| v.is_finite())
            .map(|v| v.clamp(0.0, 1.0))
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

    /// Makes this game one `seat` could imagine, for lookahead: the cards hidden from it
    /// dealt again and the generator seeded anew (both from `seed`), the secret variables it
    /// may not read taken out, then the rules' `imagine(game, seat)` hook, if they give one,
    /// run to set those secrets to values the seat could believe (drawn from the new
    /// generator); it is not called when the seat may read every variable. Rules that read
    /// a secret taken out and not set again get an error.
    fn imagine(&mut self, seat: u8, seed: u64) -> Result<(), ScriptError> {
        redeal_hidden(&self.def, &mut self.state, seat, seed);
        self.imagine_secrets(seat)
    }

    /// Takes out the secret variables `seat` may not know and lets the rules' `imagine` hook,
    /// if any, set them anew (see [`Game::imagine`]).
    fn imagine_secrets(&mut self, seat: u8) -> Result<(), ScriptError> {
        hide_secrets(&mut self.state, seat);
        // Nothing to imagine when the seat may read every variable.
        if self.state.unknown.is_none() || !self.host.has_hook("imagine") {
            return Ok(());
        }
        let ctx = self.ctx(Access::Rules, Rng::new(0, 0));
        let (ctx, r) = self.host.call_hook::<()>("imagine", ctx, Some(seat), None);
        self.restore(ctx);
        r?;
        if self.state.pending_turn_start || self.state.result.is_some() {
            return Err(self.host.hook_error(
                "imagine",
                "imagine may only set what the seat cannot know (secret variables); it passed the turn or ended the game".into(),
            ));
        }
        Ok(())
    }

    /// Asks a bot of the mod to choose; returns the index into `actions`. The bot may look
    /// ahead with `game.try`/`game.undo`: each try is applied here as a real action would be
    /// (rules, turn starts and all) on the game as it is, and every try still standing when
    /// the bot chooses (or fails) is rolled back, so the game is exactly as before.
    pub fn bot_choose(
        &mut self,
        bot: &str,
        actions: &[String],
        rng: &mut Rng,
    ) -> Result<usize, ScriptError> {
        let seat = self.state.active;
        let mut ctx = self.ctx(Access::Seat(Some(seat)), rng.clone());
        ctx.lookahead = true;
        let (ctx, mut step) = self.host.start_bot(bot, ctx, seat, actions);
        *rng = self.restore(ctx);
        let standing = self.standing;
        let mut tried: Vec<(Mark, usize)> = Vec::new();
        let mut tries = 0;
        let out = loop {
            let reply = match step {
                Err(e) => break Err(e),
                Ok(BotStep::Chose(i)) => break Ok(i),
                Ok(BotStep::Try(action)) => {
                    tries += 1;
                    if tries > MAX_TRIES {
                        self.host.end_bot();
                        break Err(self.host.hook_error(
                            &format!("bot {bot}"),
                            format!("more than {MAX_TRIES} tries in one choose"),
                        ));
                    }
                    let budget = self.host.budget();
                    let spent = self.host.spent();
                    let before = self.mark();
                    // What follows the action is imagined, not the game's own future: the
                    // hidden cards are dealt again and the generator seeded from the bot's
                    // own, so a try cannot show the next card or the next roll.
                    let seed = (u64::from(rng.next_u32()) << 32) | u64::from(rng.next_u32());
                    if let Err(e) = self.imagine(seat, seed) {
                        self.rewind(before);
                        self.host.end_bot();
                        break Err(e);
                    }
                    let ok = self.apply(&action).is_ok();
                    if ok {
                        let apart = before.state.bytes_apart_from(&self.state);
                        self.standing += apart;
                        tried.push((before, apart));
                    } else {
                        self.rewind(before);
                    }
                    let used = self.host.spent().wrapping_sub(spent);
                    self.host.charge_tries(budget, used, bot);
                    ok
                }
                Ok(BotStep::Undo) => match tried.pop() {
                    Some((mark, apart)) => {
                        self.standing = self.standing.saturating_sub(apart);
                        self.rewind(mark);
                        true
                    }
                    None => false,
                },
            };
            let mut ctx = self.ctx(Access::Seat(Some(seat)), rng.clone());
            ctx.lookahead = true;
            let (ctx, next) = self.host.resume_bot(ctx, reply);
            *rng = self.restore(ctx);
            step = next;
        };
        if let Some((mark, _)) = tried.into_iter().next() {
            self.rewind(mark);
        }
        self.standing = standing;
        out.map_err(|e| self.at(e, self.next_action()))
    }

    /// Lookahead: applies `action` (if legal), lets `look` read the game that follows (it
    /// may try further actions), then puts the state, the log and the history back exactly
    /// as they were. Returns what `look` returned, or the error that refused the action. A
    /// bot looks through its own seat's view (`look` gets the whole game; read it with
    /// [`Game::view`] of that seat).
    pub fn trial<T>(
        &mut self,
        action: &str,
        look: impl FnOnce(&mut Game) -> T,
    ) -> Result<T, GameError> {
        let mark = self.mark();
        let out = self.apply(action).map(|()| look(self));
        self.rewind(mark);
        out
    }

    /// Determinization, for search bots: a copy of the game as `seat` might imagine it. The
    /// cards hidden from the seat are dealt again, shuffled by `seed`, into the places hidden
    /// from it (every zone keeps its count, every card the seat can see stays where it is,
    /// and all hidden cards stay in play, so the deal is consistent with what the seat
    /// knows). Variables hidden from the seat are taken out and the rules' `imagine` hook,
    /// if any, sets them to values the seat could believe; log lines it may not read are
    /// dropped, and the copy's random generator is seeded anew, so nothing in the copy tells
    /// what the seat may not know. The copy has a VM of its own and can be played on.
    pub fn determinized(&self, seat: u8, seed: u64) -> Result<Game, GameError> {
        self.determinized_on(seat, seed, None)
    }

    /// [`Game::determinized`] on `host`, a VM an earlier copy of this game's mod gave back
    /// ([`Game::into_host`]), when it is one of this mod (a new VM otherwise). The VM is not
    /// reset: its rule scripts keep the top-level locals they had (the same as a real game
    /// keeps between hooks; see "scripts keep nothing between calls" in ARCHITECTURE.md), and
    /// it has only ever run imagined games of this seat, so it holds nothing hidden from it.
    /// A new VM costs about 1.8 ms, which a search bot pays once a decision this way instead
    /// of once a playout.
    pub fn determinized_on(
        &self,
        seat: u8,
        seed: u64,
        host: Option<Host>,
    ) -> Result<Game, GameError> {
        let state = Box::new((*self.state).clone());
        let viewer = Some(seat);
        let host = match host {
            Some(h) if Arc::ptr_eq(h.def(), &self.def) => h,
            _ => Host::new(self.def.clone(), self.host.limits())?,
        };
        let mut copy = Game {
            def: self.def.clone(),
            host,
            state,
            log: self
                .log
                .iter()
                .filter(|e| e.seen.by(viewer))
                .cloned()
                .collect(),
            history: self.history.clone(),
            setup: self.setup.clone(),
            spare: None,
            standing: 0,
            setting_up: false,
        };
        copy.imagine(seat, seed)?;
        Ok(copy)
    }

    /// Another game `seat` could not tell from this one: everything it may see is the same,
    /// everything hidden from it is dealt or drawn anew from `seed` (the hidden cards, the
    /// generator, and the secret variables it may not know, which the rules' `imagine` hook
    /// sets; without one they are gone). Unlike [`Game::determinized`] the copy is played as a
    /// real game: it is what tests use to show that a seat's choices do not depend on what it
    /// cannot see. The copy has a VM of its own.
    pub fn alternative(&self, seat: u8, seed: u64) -> Result<Game, GameError> {
        let host = Host::new(self.def.clone(), self.host.limits())?;
        let mut copy = Game {
            def: self.def.clone(),
            host,
            state: Box::new((*self.state).clone()),
            log: self.log.clone(),
            history: self.history.clone(),
            setup: self.setup.clone(),
            spare: None,
            standing: 0,
            setting_up: false,
        };
        redeal_hidden(&copy.def, &mut copy.state, seat, seed);
        copy.imagine_secrets(seat)?;
        copy.state.unknown = None;
        Ok(copy)
    }

    /// The state as `seat` may see it (None: a spectator, who sees only public things).
    pub fn view(&self, seat: Option<u8>) -> View {
        view_of(&self.def, &self.state, &self.log, seat)
    }
}

/// A state as `seat` may see it (None: a spectator), with the log lines it may read. For a
/// state that is not in a game (see [`initial_state`]).
pub fn view_of(def: &GameDef, s: &State, log: &[LogEntry], seat: Option<u8>) -> View {
    let zones = s
        .zones
        .iter()
        .map(|z| {
            let d = &def.zones[z.def as usize];
            let visible = visible_cards(def, z, seat);
            let cards = z.cards[z.cards.len() - visible..]
                .iter()
                .map(|c| def.decks[c.deck as usize].cards[c.card as usize].id.clone())
                .collect();
            ZoneView {
                id: d.id.clone(),
                owner: z.owner,
                count: z.cards.len(),
                cards,
            }
        })
        .collect();
    let vars = s
        .vars
        .iter()
        .filter(|(_, v)| v.seen.by(seat))
        .map(|(k, v)| (k.clone(), v.value.clone()))
        .collect();
    // A counter that does not apply under the game's options (`applies_when`) is left out.
    let counters = def
        .counters
        .iter()
        .zip(&s.counters)
        .filter(|(d, _)| match &d.applies_when {
            Some((o, is)) => s.options.get(o).is_none_or(|v| v == is),
            None => true,
        })
        .map(|(d, v)| (d.id.clone(), v.clone()))
        .collect();
    let pieces = s
        .pieces
        .iter()
        .map(|p| PieceView {
            kind: def.pieces[p.def as usize].id.clone(),
            owner: p.owner,
            at: p.at.map(|a| {
                s.board
                    .graph
                    .spaces
                    .get(a as usize)
                    .map_or_else(String::new, |sp| sp.id.clone())
            }),
            props: (*p.props).clone(),
        })
        .collect();
    let tiles = s.board.grid.as_ref().map(|g| {
        let name = |p: &Option<crate::board::Placed>| {
            p.map(|p| (def.tiles[p.tile as usize].id.clone(), p.rot))
        };
        g.tiles
            .iter()
            .zip(&g.blockers)
            .map(|(t, b)| (name(t), name(b)))
            .collect()
    });
    View {
        seat,
        seats: s.seats,
        active: s.active,
        turn: s.turn,
        counters,
        vars,
        zones,
        pieces,
        tiles,
        log: log
            .iter()
            .filter(|l| l.seen.by(seat))
            .map(|l| l.text.clone())
            .collect(),
        result: s.result.clone(),
    }
}

/// An action that appears more than once in a list, if any. Lists are a few dozen at most, so
/// comparing pairs (most differ in length) costs less than hashing every action.
fn repeated(actions: &[String]) -> Option<&str> {
    actions
        .iter()
        .enumerate()
        .find(|(i, a)| actions[i + 1..].contains(a))
        .map(|(_, a)| a.as_str())
}

/// (road tile, blocker) on a grid cell, as (tile id, quarter turns).
pub type CellView = (Option<(String, u8)>, Option<(String, u8)>);

/// The most actions a game may take (and so a replay hold).
pub const MAX_ACTIONS: usize = 1_000_000;

/// A seat's view of the game. Views, logs and replays shown to a seat are built from this.
#[derive(Debug, Clone, Serialize)]
pub struct View {
    pub seat: Option<u8>,
    pub seats: u8,
    pub active: u8,
    pub turn: u32,
    pub counters: Vec<(String, Vec<i64>)>,
    pub vars: BTreeMap<String, Value>,
    pub zones: Vec<ZoneView>,
    pub pieces: Vec<PieceView>,
    /// For grid boards: (road tile, blocker) on each cell, as (tile id, quarter turns).
    pub tiles: Option<Vec<CellView>>,
    pub log: Vec<String>,
    pub result: Option<GameResult>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ZoneView {
    pub id: String,
    pub owner: Option<u8>,
    pub count: usize,
    /// The cards this seat may see (for a `top` zone, only the top card).
    pub cards: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct PieceView {
    pub kind: String,
    pub owner: Option<u8>,
    pub at: Option<String>,
    pub props: BTreeMap<String, Value>,
}

fn resolve_options(def: &GameDef, setup: &Setup) -> Result<BTreeMap<String, Value>, GameError> {
    let mut out = BTreeMap::new();
    for (k, v) in &setup.options {
        let Some(o) = def.option(k) else {
            let hint = crate::diag::suggestion(k, def.options.iter().map(|o| o.id.as_str()));
            return Err(GameError::Setup(format!(
                "{} has no option `{k}`{hint}",
                def.name
            )));
        };
        let v = match (o.kind, v) {
            (_, Value::Str(s)) => o.parse(s).map_err(GameError::Setup)?,
            (OptionType::Int, Value::Int(_)) | (OptionType::Bool, Value::Bool(_)) => v.clone(),
            _ => {
                return Err(GameError::Setup(format!(
                    "option `{k}` cannot be {}",
                    v.type_name()
                )));
            }
        };
        if let (OptionType::Int, Some(i)) = (o.kind, v.as_int())
            && (o.min.is_some_and(|m| i < m) || o.max.is_some_and(|m| i > m))
        {
            return Err(GameError::Setup(format!(
                "option `{k}` = {i} is out of range"
            )));
        }
        out.insert(k.clone(), v);
    }
    for o in &def.options {
        out.entry(o.id.clone()).or_insert_with(|| o.default.clone());
    }
    let _ = Seen::All;
    Ok(out)
}
