//! The Luau host: a sandboxed VM per game, rule hooks, bots, budgets and error reports.
//!
//! - Only the `table`, `string`, `math`, `utf8` and `buffer` libraries are opened; `io`, `os`,
//!   `require`, `loadstring`, `getfenv`/`setfenv`, `collectgarbage` and `debug` are absent, and
//!   `math.random` draws from the game's seeded generator. The globals are then sandboxed
//!   (read-only), so one script cannot change what another sees.
//! - Every call (loading a script, a hook, a bot) gets a step budget, checked by Luau's
//!   interrupt, and a wall-clock limit; the VM has a memory limit. Exceeding any is an error,
//!   and stays one for the rest of the call (a `pcall` cannot catch it and go on). With
//!   megabytes in use the clock is read every fourth interrupt, since one library call can
//!   then take milliseconds; library calls whose work is not bounded by memory or the
//!   interrupt are replaced by checked ones (see `guard_libraries`).
//! - The state is lent to the VM for the length of one call (as app data) and taken back after,
//!   so scripts can keep nothing of it between calls.
//! - Errors become [`ScriptError`]: mod, file, line, hook and message.

pub mod api;
mod convert;
pub mod debug;
mod fast_interrupt;
mod returns;

use std::cell::{Cell, RefCell};
use std::fmt;
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use mlua::chunk::ChunkMode;
use mlua::{
    Function, IntoLua, Lua, LuaOptions, MultiValue, StdLib, Table, Value as LuaValue, VmState,
};
use serde::Serialize;

use crate::content::GameDef;
use crate::content::def::ScriptDef;
use crate::diag::suggestion;
use crate::rng::Rng;
use crate::state::{Counted, LogEntry, State};

/// Limits for scripts. Only the step budget and the memory limit end a script in a healthy
/// game: both count what the script does, never how fast the machine does it, so a seeded
/// game ends the same way on any machine under any load. The clock is a safety net for time
/// spent in native code that nothing else bounds, far above what any bundled script takes.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Interrupt checks (function calls and loop iterations) allowed per call; library calls
    /// that do much work in one go are charged for it (see `guard_libraries`).
    pub steps: u64,
    /// The safety net: wall-clock time allowed per call. Reaching it means the machine ran
    /// out of time, not that the script looped (the step budget says that).
    pub time: Duration,
    /// Memory for the whole VM, in bytes.
    pub memory: usize,
}

/// The safety net's default: 30 seconds a call. The slowest bundled call (a Dicey Curves
/// bot's whole turn) takes a few tens of milliseconds, so a machine would have to run it a
/// thousand times slower for the net to fire (see ARCHITECTURE.md, "Limits").
pub const SAFETY_TIME: Duration = Duration::from_secs(30);

impl Default for Limits {
    fn default() -> Self {
        Limits {
            steps: 2_000_000,
            time: SAFETY_TIME,
            memory: 64 << 20,
        }
    }
}

/// What the safety net says when it fires.
fn out_of_time(limits_time: Duration, what: &str) -> String {
    format!(
        "the machine ran out of time: this call ran for over {} s{what} without reaching its step budget (native code working on very large data, or a machine far too busy); the game cannot go on",
        limits_time.as_secs_f64()
    )
}

/// How one hook or bot has run so far, when the host keeps a profile (see
/// [`Host::set_profiling`]).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct CallStats {
    pub calls: u64,
    /// Steps of the step budget used, summed and at most in one call.
    pub steps: u64,
    pub max_steps: u64,
    /// Wall time, summed and at most in one call, in nanoseconds. Measured, so it varies
    /// from run to run; the steps do not.
    pub nanos: u64,
    pub max_nanos: u64,
    /// Calls of the `game` API made during it (for a bot, its tries' hooks included).
    pub api_calls: u64,
}

impl CallStats {
    fn add(&mut self, steps: u64, nanos: u64, api_calls: u64) {
        self.calls += 1;
        self.api_calls += api_calls;
        self.steps += steps;
        self.max_steps = self.max_steps.max(steps);
        self.nanos += nanos;
        self.max_nanos = self.max_nanos.max(nanos);
    }

    /// Adds another run's figures.
    pub fn merge(&mut self, o: &CallStats) {
        self.calls += o.calls;
        self.api_calls += o.api_calls;
        self.steps += o.steps;
        self.max_steps = self.max_steps.max(o.max_steps);
        self.nanos += o.nanos;
        self.max_nanos = self.max_nanos.max(o.max_nanos);
    }
}

/// A profile: every hook (`apply`, `actions`, ..., `load`) and bot (`bot <id>`) by name.
pub type Profile = std::collections::BTreeMap<String, CallStats>;

/// The hooks a rule script may return, in the order they are documented.
pub const HOOKS: [(&str, &str); 7] = [
    (
        "setup",
        "setup(game): after the engine has built zones, pieces and counters",
    ),
    (
        "actions",
        "actions(game, seat) -> {string}: the legal actions of the seat to act",
    ),
    (
        "apply",
        "apply(game, seat, action): carry out one legal action",
    ),
    (
        "describe",
        "describe(game, seat, action) -> Label: a label for people, or a menu path (optional)",
    ),
    (
        "on_turn_start",
        "on_turn_start(game, seat): after game.end_turn() passes play on",
    ),
    (
        "score",
        "score(game, seat) -> number: the seat's score so far, for display (optional)",
    ),
    (
        "imagine",
        "imagine(game, seat): in a game imagined for a seat's lookahead, set the secret variables it may not know to values it could believe (optional)",
    ),
];

/// A script failed: everything a person needs to find the mistake.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ScriptError {
    pub mod_id: String,
    /// File as shown to people, and 1-based line (0 if unknown).
    pub file: String,
    pub line: usize,
    /// The hook (or "load", or "bot <id>") that was running.
    pub hook: String,
    pub message: String,
    /// The stack, and where in a game (boxed: errors are rare, and results that may hold
    /// one are passed around on every call).
    pub context: Box<ErrorContext>,
}

/// Where a script error happened, beyond its file and line.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ErrorContext {
    /// The Luau stack when it failed, innermost first: "file:line in function", the mod's
    /// own frames only (not the engine's wrappers or native code).
    pub trace: Vec<String>,
    /// Where in a game it failed: the number of the action being applied or chosen (1 for
    /// the first; 0 during setup), and the game's seed. None outside a game.
    pub action: Option<usize>,
    pub seed: Option<u64>,
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "{}:{}: error: {}", self.file, self.line, self.message)?;
        } else {
            write!(f, "{}: error: {}", self.file, self.message)?;
        }
        write!(f, " (mod `{}`, in {}", self.mod_id, self.hook)?;
        match (self.context.action, self.context.seed) {
            (Some(0), Some(seed)) => write!(f, ", setting up the game with seed {seed}")?,
            (Some(n), Some(seed)) => write!(f, ", at action {n} of the game with seed {seed}")?,
            _ => {}
        }
        write!(f, ")")?;
        // One frame says no more than the first line.
        if self.context.trace.len() > 1 {
            for frame in &self.context.trace {
                write!(f, "\n    at {frame}")?;
            }
        }
        Ok(())
    }
}

impl std::error::Error for ScriptError {}

/// What a call may do to the state, and what it may read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Rules: read everything and change it.
    Rules,
    /// The rules' own questions (the `score` hook): read everything, change nothing.
    ReadOnly,
    /// Whatever chooses for a seat, or speaks to one: bots, the `actions` and `describe`
    /// hooks. Read only, and only what that seat may see (None: a spectator, who sees public
    /// things): a secret it may not see reads as nil, a zone it may not look into lists no
    /// cards (its count stays public), a face-down deck gives no order.
    Seat(Option<u8>),
}

impl Access {
    /// Whether the call may only read (`math.random` then uses a separate generator, so
    /// looking never changes the game).
    pub fn read_only(self) -> bool {
        self != Access::Rules
    }

    /// Whether the call may read something seen by `seen`.
    pub fn may_see(self, seen: crate::state::Seen) -> bool {
        match self {
            Access::Seat(viewer) => seen.by(viewer),
            Access::Rules | Access::ReadOnly => true,
        }
    }

    /// How many cards of `zone`, counted from the top, the call may read.
    pub fn visible_cards(self, def: &GameDef, zone: &crate::state::ZoneState) -> usize {
        match self {
            Access::Seat(viewer) => crate::game::visible_cards(def, zone, viewer),
            Access::Rules | Access::ReadOnly => zone.cards.len(),
        }
    }
}

/// Lent to the VM for one call.
pub struct CallCtx {
    pub state: Box<State>,
    pub def: Arc<GameDef>,
    pub log: Counted<LogEntry>,
    pub access: Access,
    pub bot_rng: Rng,
    /// Whether `game.try` and `game.undo` may be used: only in a bot's `choose`.
    pub lookahead: bool,
    /// What the game's list of actions taken holds, and the snapshots of a bot's tries under
    /// way: memory scripts make the game hold, counted against the memory limit.
    pub actions_bytes: usize,
    pub tries_bytes: usize,
}

impl CallCtx {
    /// What the game holds outside the VM that scripts can make grow (variables, piece
    /// properties, the log, the actions taken, a bot's tries), in bytes: it shares the
    /// memory limit with the VM.
    pub fn held(&self) -> usize {
        self.state.vars_bytes
            + self.state.props_bytes
            + self.log.bytes()
            + self.actions_bytes
            + self.tries_bytes
    }
}

/// What a bot's `choose` did when it gave control back.
#[derive(Debug, Clone, PartialEq)]
pub enum BotStep {
    /// It chose: the 0-based index into the actions it was given.
    Chose(usize),
    /// It asked to try an action (`game.try`).
    Try(String),
    /// It asked to take back its last try (`game.undo`).
    Undo,
}

/// A bot's `choose` under way, run as a coroutine so it can stop to try actions.
struct BotRun {
    thread: mlua::Thread,
    script: usize,
    hook: String,
    actions: Vec<String>,
}

/// What `game.try` and `game.undo` hand to the engine when they stop the bot.
const TRY_MARK: &str = "farebox:try";
const UNDO_MARK: &str = "farebox:undo";

/// One function in a hook's chain, and the script that returned it.
#[derive(Clone)]
struct Step {
    func: Function,
    script: usize,
}

/// How a script takes part in a hook (see [`Host::hook_chain`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HookPart {
    /// A `before` hook: runs first and may end the hook.
    Before,
    /// The plain hook that the `before`s and `after`s wrap.
    Base,
    /// An `after` hook: gets the result so far.
    After,
}

/// One step of a hook's chain: which script of which mod gives it, and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookStep {
    pub part: HookPart,
    /// The mod the script belongs to.
    pub mod_id: String,
    /// The script's path, relative to its mod folder.
    pub script: String,
    /// The script's place in load order (0 = the first script run): the step with the
    /// highest one was added last.
    pub order: usize,
}

/// How one hook is carried out once every script has had its say. A script's plain hook
/// replaces everything earlier scripts gave for it; its `before` and `after` hooks wrap what
/// is there so far. Flattened, a call runs the `before`s (the latest script's first), the base
/// hook, then the `after`s (the earliest script's first).
#[derive(Default)]
struct Chain {
    befores: Vec<Step>,
    base: Option<Step>,
    afters: Vec<Step>,
}

impl Chain {
    fn is_empty(&self) -> bool {
        self.base.is_none() && self.befores.is_empty() && self.afters.is_empty()
    }
}

/// How many arguments after `game` each hook of [`HOOKS`] takes; an `after` hook gets the
/// result so far right after them.
const HOOK_ARGS: [usize; 7] = [0, 1, 2, 2, 1, 1, 1];

/// Where a script's return table puts hooks that wrap, rather than replace, earlier ones.
const WRAPS: [&str; 2] = ["before", "after"];

/// What stopped the running call, once a limit was reached; empty while it runs.
#[derive(Default)]
struct Stopped {
    why: RefCell<String>,
    /// "file:line: " of the code last seen running with memory near the limit.
    last_line: RefCell<String>,
    /// The mod's frames of the stack when a limit was reached (see `Host::trace_of`).
    trace: RefCell<Vec<String>>,
}

impl Stopped {
    fn stop(&self, lua: &Lua, message: String) -> mlua::Error {
        *self.why.borrow_mut() = message.clone();
        *self.trace.borrow_mut() = stack_now(lua);
        mlua::Error::RuntimeError(message)
    }

    fn clear(&self) {
        self.why.borrow_mut().clear();
        self.last_line.borrow_mut().clear();
        self.trace.borrow_mut().clear();
    }
}

/// A VM with a game's rule scripts (and bots) loaded.
pub struct Host {
    lua: Lua,
    scripts: Vec<ScriptDef>,
    hooks: Vec<Chain>,
    /// The step whose value a chained hook returned last (None after a plain hook call), so an
    /// error about that value names the right script.
    producer: RefCell<Option<Step>>,
    /// The `choose` function of each bot of the definition, once its script has run. A new
    /// VM runs every bot script (so loading reports their errors); a reset VM runs a bot's
    /// script when the bot is first asked, so games without bots do not pay for them.
    bots: RefCell<Vec<Option<Function>>>,
    /// Each script's loaded main chunk, kept so that a reset VM runs it again (in the new
    /// global environment) without loading its bytecode anew.
    chunks: RefCell<Vec<Option<Function>>>,
    steps_left: Rc<Cell<u64>>,
    deadline: Rc<Cell<Option<Instant>>>,
    /// Why the running call was stopped (a limit reached), and the last line seen near the
    /// memory limit.
    stopped: Rc<Stopped>,
    /// What the VM may hold during the running call: the memory limit less what the game
    /// holds outside the VM (read by the interrupt; the API lowers it as that grows).
    room: Rc<Cell<usize>>,
    limits: Limits,
    def: Arc<GameDef>,
    game: Table,
    /// The bot whose `choose` is stopped at a `game.try` or `game.undo`, if any.
    bot_run: RefCell<Option<BotRun>>,
    /// Each bot's coroutine, kept and reset for its next `choose` (making one costs more).
    bot_threads: RefCell<Vec<Option<mlua::Thread>>>,
    /// The profile being kept, if any (see [`Host::set_profiling`]), and when the running
    /// call and the running bot's `choose` started.
    profile: RefCell<Option<Profile>>,
    profiling: Cell<bool>,
    /// Steps used by every call this VM has finished, so a bot's tries can be charged the
    /// steps their rules took.
    spent: Cell<u64>,
    /// When the running call and bot started, and how many API calls had been made then.
    call_started: Cell<Option<(Instant, u64)>>,
    bot_started: Cell<Option<(Instant, u64)>>,
    /// Whether a debug sink is set (see [`Host::set_debug`]).
    debugging: Cell<bool>,
    /// Keeps this VM on the interrupt's fast path (see [`fast_interrupt`]).
    _fast: Option<fast_interrupt::Armed>,
}

fn hook_index(name: &str) -> Option<usize> {
    HOOKS.iter().position(|(h, _)| *h == name)
}

impl Host {
    /// Creates the VM and runs every rule script and bot script of the definition.
    /// The limits this VM runs its calls under.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    pub fn new(def: Arc<GameDef>, limits: Limits) -> Result<Host, ScriptError> {
        let fail = |m: String| ScriptError {
            mod_id: def.id.clone(),
            file: def.id.clone(),
            line: 0,
            hook: "load".into(),
            message: m,
            ..ScriptError::default()
        };
        // The coroutine library is opened only for `game.try` and `game.undo`, which stop a
        // bot's `choose` with it; `prepare_globals` takes it away from scripts.
        let lua = Lua::new_with(
            StdLib::TABLE
                | StdLib::STRING
                | StdLib::MATH
                | StdLib::UTF8
                | StdLib::BUFFER
                | StdLib::COROUTINE,
            LuaOptions::default(),
        )
        .map_err(|e| fail(e.to_string()))?;
        lua.set_compiler(crate::luau::compiler());
        // The interrupt enforces the limit itself, between instructions, so the error can
        // name the line; the allocator's hard limit, an eighth higher, only catches a single
        // allocation too big to reach an interrupt first (that error has no line).
        lua.set_memory_limit(limits.memory + limits.memory / 8)
            .map_err(|e| fail(e.to_string()))?;
        let memory = limits.memory;
        let time = limits.time;
        let steps_left = Rc::new(Cell::new(limits.steps));
        let deadline: Rc<Cell<Option<Instant>>> = Rc::new(Cell::new(None));
        let stopped: Rc<Stopped> = Rc::default();
        // What the VM may hold now: the limit, less what the game holds outside the VM.
        let room = Rc::new(Cell::new(memory));
        {
            let steps = steps_left.clone();
            let deadline = deadline.clone();
            let stopped = stopped.clone();
            let room = room.clone();
            lua.set_interrupt(move |lua| {
                let left = steps.get();
                if left == 0 {
                    // A limit, once reached, stays reached for the rest of the call: a `pcall`
                    // that caught its error cannot go on (what it did next would depend on when
                    // memory was collected, or on the clock). The next call or loop fails again.
                    let why = stopped.why.borrow().clone();
                    if why.is_empty() {
                        return Err(stopped.stop(
                            lua,
                            format!("{}step budget exceeded (an endless loop?)", where_now(lua)),
                        ));
                    }
                    return Err(mlua::Error::RuntimeError(why));
                }
                steps.set(left - 1);
                // Every fourth interrupt: with an eighth of headroom above the limit, a loop
                // must allocate megabytes per turn to get past this to the hard limit.
                if left.is_multiple_of(4) {
                    let used = lua.used_memory();
                    // What the game holds outside the VM (its log, variables...) shares the
                    // limit.
                    if used > room.get() {
                        steps.set(0);
                        return Err(stopped.stop(
                            lua,
                            format!("{}{}", where_now(lua), api::over_limit(memory, used)),
                        ));
                    }
                    // With megabytes in use, one library call (a sort, a concat, a search in
                    // a long string) can take milliseconds between two interrupts, so the
                    // clock is read at every check rather than every 1024th interrupt. Near
                    // the limit the line is kept too, for an allocation the allocator's hard
                    // limit refuses (that error carries no line).
                    if used > memory / 8 {
                        if used > memory / 2 {
                            *stopped.last_line.borrow_mut() = where_now(lua);
                        }
                        if let Some(d) = deadline.get()
                            && Instant::now() > d
                        {
                            steps.set(0);
                            return Err(stopped.stop(
                                lua,
                                format!("{}{}", where_now(lua), out_of_time(time, "")),
                            ));
                        }
                    }
                }
                if left.is_multiple_of(1024)
                    && let Some(d) = deadline.get()
                    && Instant::now() > d
                {
                    steps.set(0);
                    return Err(
                        stopped.stop(lua, format!("{}{}", where_now(lua), out_of_time(time, "")))
                    );
                }
                Ok(VmState::Continue)
            });
        }
        // Charged by the library wrappers (see `guard_libraries`) for work a single library
        // call does without reaching an interrupt, before the work is done: `steps` of the
        // budget. A call that would pass the budget is not started, so a loop of big library
        // calls ends on the step budget, at the same call on every machine.
        let charge = {
            let steps = steps_left.clone();
            let deadline = deadline.clone();
            let stopped = stopped.clone();
            lua.create_function(move |lua, (cost, what): (f64, mlua::LuaString)| {
                let left = steps.get();
                if left == 0 {
                    return Err(mlua::Error::RuntimeError(stopped.why.borrow().clone()));
                }
                let cost = cost.clamp(1.0, u64::MAX as f64) as u64;
                if cost >= left {
                    steps.set(0);
                    return Err(stopped.stop(lua, format!(
                        "{}step budget exceeded (in {}, whose work here would take more of the budget than is left; an endless loop, or data too big?)",
                        where_now(lua),
                        what.to_string_lossy()
                    )));
                }
                steps.set(left - cost);
                if let Some(d) = deadline.get()
                    && Instant::now() > d
                {
                    steps.set(0);
                    return Err(stopped.stop(lua, format!(
                        "{}{}",
                        where_now(lua),
                        out_of_time(time, &format!(" (in {})", what.to_string_lossy()))
                    )));
                }
                Ok(())
            })
            .map_err(|e| fail(e.to_string()))?
        };
        // Called by the `pcall`/`xpcall` wrappers when they catch the allocator's refusal:
        // whether an allocation is refused depends on how much garbage the VM holds (earlier
        // games on a reused VM included), so the call must end as at any other limit.
        let refused = {
            let steps = steps_left.clone();
            let stopped = stopped.clone();
            lua.create_function(move |lua, ()| {
                if stopped.why.borrow().is_empty() {
                    let line = where_now(lua);
                    let _ = stopped.stop(
                        lua,
                        format!("{line}memory limit of {} MiB exceeded", memory >> 20),
                    );
                }
                steps.set(0);
                Ok(())
            })
            .map_err(|e| fail(e.to_string()))?
        };
        // The API ends the call this way when what the game holds outside the VM would take
        // it past the memory limit.
        {
            let steps = steps_left.clone();
            let stopped = stopped.clone();
            lua.set_app_data(api::Guard {
                limit: memory,
                room: room.clone(),
                stop: Box::new(move |lua, message| {
                    steps.set(0);
                    stopped.stop(lua, format!("{}{message}", where_now(lua)))
                }),
            });
        }
        let game = prepare_globals(&lua, &def, charge, refused, limits.memory)
            .map_err(|e| fail(e.to_string()))?;
        let fast = fast_interrupt::arm(&lua, steps_left.clone());
        let mut host = Host {
            lua,
            scripts: vec![],
            hooks: (0..HOOKS.len()).map(|_| Chain::default()).collect(),
            producer: RefCell::new(None),
            bots: RefCell::new(vec![]),
            chunks: RefCell::new(vec![]),
            steps_left,
            deadline,
            stopped,
            room,
            limits,
            def: def.clone(),
            game,
            bot_run: RefCell::new(None),
            bot_threads: RefCell::new(vec![None; def.bots.len()]),
            profile: RefCell::new(None),
            profiling: Cell::new(false),
            spent: Cell::new(0),
            call_started: Cell::new(None),
            bot_started: Cell::new(None),
            debugging: Cell::new(false),
            _fast: fast,
        };
        // Set before the scripts run, so what they print as they load is heard too.
        if let Some(sink) = debug::listener() {
            host.set_debug(Some(sink));
        }
        host.scripts = def.scripts.clone();
        host.scripts
            .extend(def.bots.iter().map(|b| b.script.clone()));
        *host.chunks.borrow_mut() = vec![None; host.scripts.len()];
        host.run_scripts()?;
        for i in 0..def.bots.len() {
            host.bot(i)?;
        }
        Ok(host)
    }

    /// Makes the VM as good as new for another game of the same mod: a fresh global
    /// environment, every script run again (so no script keeps anything from the last game),
    /// and no cached tables. Much cheaper than a new VM: the libraries, the API and the
    /// frozen `data` table stay.
    pub fn reset(&mut self) -> Result<(), ScriptError> {
        let fail = |e: mlua::Error| ScriptError {
            mod_id: self.def.id.clone(),
            file: self.def.id.clone(),
            line: 0,
            hook: "load".into(),
            message: e.to_string(),
            ..ScriptError::default()
        };
        *self.bot_run.borrow_mut() = None;
        // Leaving and re-entering the sandbox gives the main thread a new, empty table for
        // globals a script sets; the libraries, `game` and `data` are behind it, read-only.
        self.lua.sandbox(false).map_err(fail)?;
        self.lua.sandbox(true).map_err(fail)?;
        forbid_globals(&self.lua).map_err(fail)?;
        self.run_scripts()
    }

    /// The definition this VM was made for.
    pub fn def(&self) -> &Arc<GameDef> {
        &self.def
    }

    /// Runs every rule script and collects the hooks; bots are run when first asked.
    fn run_scripts(&mut self) -> Result<(), ScriptError> {
        self.lua.set_app_data(api::LayerCache::default());
        self.hooks = (0..HOOKS.len()).map(|_| Chain::default()).collect();
        *self.bots.borrow_mut() = vec![None; self.def.bots.len()];
        let def = self.def.clone();
        for idx in 0..def.scripts.len() {
            let table = self.run_script(idx)?;
            self.take_hooks(idx, table)?;
        }
        Ok(())
    }

    /// The `choose` function of bot `i`, running its script first if it has not run yet.
    fn bot(&self, i: usize) -> Result<Function, ScriptError> {
        if let Some(Some(f)) = self.bots.borrow().get(i) {
            return Ok(f.clone());
        }
        let b = &self.def.bots[i];
        let table = self.run_script(self.def.scripts.len() + i)?;
        match table.get::<Option<Function>>("choose").ok().flatten() {
            Some(f) => {
                if let Some(slot) = self.bots.borrow_mut().get_mut(i) {
                    *slot = Some(f.clone());
                }
                Ok(f)
            }
            None => Err(ScriptError {
                mod_id: b.script.mod_id.clone(),
                file: b.script.display.clone(),
                line: 0,
                hook: "load".into(),
                message: format!(
                    "bot `{}` must return a table with a `choose` function",
                    b.id
                ),
                ..ScriptError::default()
            }),
        }
    }

    fn run_script(&self, idx: usize) -> Result<Table, ScriptError> {
        let s = &self.scripts[idx];
        let cached = self.chunks.borrow().get(idx).cloned().flatten();
        let func = match cached {
            // A chunk's environment is the global table it was loaded under; after a reset
            // that is the new one.
            Some(f) => {
                f.set_environment(self.lua.globals())
                    .map_err(|e| self.error_in(e, "load", Some(idx)))?;
                f
            }
            None => {
                // Mod files are always compiled from text here: bytecode from a file is
                // never loaded.
                let chunk = match &s.bytecode {
                    Some(b) => self.lua.load(&b[..]).set_mode(ChunkMode::Binary),
                    None => self.lua.load(&s.source).set_mode(ChunkMode::Text),
                };
                let f = chunk
                    .set_name(format!("={}", s.display))
                    .into_function()
                    .map_err(|e| self.error_in(e, "load", Some(idx)))?;
                if let Some(slot) = self.chunks.borrow_mut().get_mut(idx) {
                    *slot = Some(f.clone());
                }
                f
            }
        };
        self.arm();
        let r: mlua::Result<LuaValue> = func.call(());
        self.disarm("load");
        match r {
            Ok(LuaValue::Table(t)) => Ok(t),
            Ok(other) => Err(ScriptError {
                mod_id: s.mod_id.clone(),
                file: s.display.clone(),
                line: 0,
                hook: "load".into(),
                message: format!(
                    "the script must end with `return {{ ... hooks ... }}`, and it returned {}",
                    returns::what(&other)
                ),
                ..ScriptError::default()
            }),
            Err(e) => Err(self.error_in(e, "load", Some(idx))),
        }
    }

    /// Adds the hooks script `idx` returned to the chains: its plain hooks first (each
    /// replaces the chain so far), then its `before` and `after` hooks around them.
    fn take_hooks(&mut self, idx: usize, table: Table) -> Result<(), ScriptError> {
        let mut plain = vec![];
        let mut wraps = vec![];
        for pair in table.pairs::<LuaValue, LuaValue>() {
            let (key, value) = pair.map_err(|e| self.error(e, "load"))?;
            let name = self.hook_key(idx, &key, "")?;
            if let Some(w) = WRAPS.iter().position(|k| *k == name) {
                let LuaValue::Table(inner) = value else {
                    return Err(self.load_error(
                        idx,
                        format!(
                            "`{name}` must be a table of hooks ({name} = {{ apply = function(game, seat, action) ... end }}), not {}",
                            returns::what(&value)
                        ),
                    ));
                };
                for pair in inner.pairs::<LuaValue, LuaValue>() {
                    let (key, value) = pair.map_err(|e| self.error(e, "load"))?;
                    let hook = self.hook_key(idx, &key, &format!("{name}."))?;
                    let h = self.hook_named(idx, &hook, &format!("{name}."))?;
                    let f = self.hook_function(idx, &format!("{name}.{hook}"), value)?;
                    wraps.push((w, h, f));
                }
            } else {
                let h = self.hook_named(idx, &name, "")?;
                plain.push((h, self.hook_function(idx, &name, value)?));
            }
        }
        for (h, func) in plain {
            self.hooks[h] = Chain {
                base: Some(Step { func, script: idx }),
                ..Chain::default()
            };
        }
        for (w, h, func) in wraps {
            let step = Step { func, script: idx };
            if w == 0 {
                self.hooks[h].befores.insert(0, step);
            } else {
                self.hooks[h].afters.push(step);
            }
        }
        Ok(())
    }

    /// The name a key of a script's table of hooks gives (within `prefix`, "before." say).
    fn hook_key(&self, idx: usize, key: &LuaValue, prefix: &str) -> Result<String, ScriptError> {
        match key {
            LuaValue::String(s) => Ok(s.to_string_lossy()),
            other => Err(self.load_error(
                idx,
                format!(
                    "the table of hooks{} has a key that is {}; hooks are named by strings (apply = function(game, seat, action) ... end)",
                    if prefix.is_empty() {
                        String::new()
                    } else {
                        format!(" in `{}`", prefix.trim_end_matches('.'))
                    },
                    returns::what(other)
                ),
            )),
        }
    }

    /// The index of hook `name` in [`HOOKS`], or an error with a suggestion.
    fn hook_named(&self, idx: usize, name: &str, prefix: &str) -> Result<usize, ScriptError> {
        hook_index(name).ok_or_else(|| {
            let mut known: Vec<&str> = HOOKS.iter().map(|(h, _)| *h).collect();
            if prefix.is_empty() {
                known.extend(WRAPS);
            }
            let hint = suggestion(name, known);
            self.load_error(idx, format!("unknown hook `{prefix}{name}`{hint}"))
        })
    }

    fn hook_function(
        &self,
        idx: usize,
        name: &str,
        value: LuaValue,
    ) -> Result<Function, ScriptError> {
        match value {
            LuaValue::Function(f) => Ok(f),
            other => Err(self.load_error(
                idx,
                format!(
                    "hook `{name}` must be a function, not {}",
                    returns::what(&other)
                ),
            )),
        }
    }

    fn load_error(&self, idx: usize, message: String) -> ScriptError {
        let s = &self.scripts[idx];
        ScriptError {
            mod_id: s.mod_id.clone(),
            file: s.display.clone(),
            line: 0,
            hook: "load".into(),
            message,
            ..ScriptError::default()
        }
    }

    pub fn has_hook(&self, name: &str) -> bool {
        hook_index(name).is_some_and(|i| !self.hooks[i].is_empty())
    }

    /// How hook `name` is carried out once every script has had its say, in call order: the
    /// `before`s (the latest script's first), the base hook, then the `after`s. Empty when no
    /// script gives the hook or the name is not a hook. This is where the Studio learns which
    /// mod defines a hook and which house rule changed it last.
    pub fn hook_chain(&self, name: &str) -> Vec<HookStep> {
        let Some(chain) = hook_index(name).and_then(|i| self.hooks.get(i)) else {
            return vec![];
        };
        let step = |part: HookPart, s: &Step| {
            let script = self.scripts.get(s.script);
            HookStep {
                part,
                mod_id: script.map(|d| d.mod_id.clone()).unwrap_or_default(),
                script: script.map(|d| d.path.clone()).unwrap_or_default(),
                order: s.script,
            }
        };
        let mut out: Vec<HookStep> = chain
            .befores
            .iter()
            .map(|s| step(HookPart::Before, s))
            .collect();
        out.extend(chain.base.iter().map(|s| step(HookPart::Base, s)));
        out.extend(chain.afters.iter().map(|s| step(HookPart::After, s)));
        out
    }

    pub fn bot_ids(&self) -> Vec<String> {
        self.def.bots.iter().map(|b| b.id.clone()).collect()
    }

    fn arm(&self) {
        self.stopped.clear();
        self.steps_left.set(self.limits.steps);
        let now = Instant::now();
        self.deadline.set(Some(now + self.limits.time));
        if self.profiling.get() {
            self.call_started.set(Some((now, api::calls_made())));
        }
    }

    /// Ends a call of `name` (a hook, "load", "console"): stops the clock, and adds the call
    /// to the profile when one is kept.
    fn disarm(&self, name: &str) {
        self.deadline.set(None);
        self.spent.set(
            self.spent
                .get()
                .wrapping_add(self.limits.steps.saturating_sub(self.steps_left.get())),
        );
        if let Some(started) = self.call_started.take() {
            self.record(name, started);
        }
    }

    fn record(&self, name: &str, (started, api_before): (Instant, u64)) {
        let used = self.limits.steps.saturating_sub(self.steps_left.get());
        let nanos = u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX);
        let api = api::calls_made().wrapping_sub(api_before);
        if let Some(p) = self.profile.borrow_mut().as_mut() {
            match p.get_mut(name) {
                Some(stats) => stats.add(used, nanos, api),
                None => {
                    let mut stats = CallStats::default();
                    stats.add(used, nanos, api);
                    p.insert(name.to_string(), stats);
                }
            }
        }
    }

    /// Starts (or stops) keeping a profile of every call this VM makes: calls, steps and
    /// time per hook and per bot (a bot's whole `choose`, its tries included). Off by
    /// default; it costs a clock reading per call when on.
    pub fn set_profiling(&self, on: bool) {
        self.profiling.set(on);
        let mut p = self.profile.borrow_mut();
        match (on, p.is_some()) {
            (true, false) => *p = Some(Profile::new()),
            (false, true) => *p = None,
            _ => {}
        }
    }

    /// The profile kept so far, emptied (see [`Host::set_profiling`]).
    pub fn take_profile(&self) -> Profile {
        self.profile
            .borrow_mut()
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    }

    /// Sends what scripts `print` to `sink` from now on (None: nowhere, the default). Set it
    /// before [`crate::game::Game::with_host`] to hear the scripts as they load and set up.
    pub fn set_debug(&self, sink: Option<debug::DebugSink>) {
        self.debugging.set(sink.is_some());
        if let Some(mut slot) = self.lua.app_data_mut::<debug::Slot>() {
            slot.sink = sink;
        }
    }

    /// Where in a game the calls to come are, for the lines they print: the game's seed and
    /// the number of the action (0 in setup). Costs nothing when nobody listens.
    pub fn debug_at(&self, seed: u64, action: usize) {
        if self.debugging.get()
            && let Some(mut slot) = self.lua.app_data_mut::<debug::Slot>()
        {
            slot.seed = Some(seed);
            slot.action = Some(action);
        }
    }

    /// A call that reached a limit failed, even when a `pcall` caught the error and the script
    /// returned (or yielded) before the next interrupt could raise it again.
    fn unless_stopped<T>(&self, r: mlua::Result<T>) -> mlua::Result<T> {
        match r {
            Ok(_) if !self.stopped.why.borrow().is_empty() => {
                Err(mlua::Error::RuntimeError(self.stopped.why.borrow().clone()))
            }
            r => r,
        }
    }

    /// Calls a hook with the state lent to the VM. The context comes back whatever happens;
    /// on error its state may be half-changed, and the caller rolls it back.
    /// Hooks get `(game, seat, action)`, as many as they take. One step budget covers the
    /// whole chain of a hook that house rules wrap.
    pub fn call_hook<R>(
        &self,
        name: &str,
        ctx: CallCtx,
        seat: Option<u8>,
        action: Option<&str>,
    ) -> (CallCtx, Result<Option<R>, ScriptError>)
    where
        R: mlua::FromLuaMulti,
    {
        let Some(h) = hook_index(name) else {
            return (ctx, Ok(None));
        };
        let chain = &self.hooks[h];
        let seat = seat.map(|s| s as i64 + 1);
        // Made here with the memory limit lifted (see `api::lifted`); mlua would otherwise
        // make it in a protected call. The action came from the script's own list.
        let action = match action {
            Some(a) => match api::lifted(&self.lua, || self.lua.create_string(a)) {
                Ok(s) => Some(s),
                Err(e) => return (ctx, Err(self.error_in(e, name, None))),
            },
            None => None,
        };
        let args = (self.game.clone(), seat, action);
        let (ctx, r) = match (
            &chain.base,
            chain.befores.is_empty() && chain.afters.is_empty(),
        ) {
            (Some(base), true) => {
                // The common case, a game without house rules: one plain call.
                if self.producer.borrow().is_some() {
                    *self.producer.borrow_mut() = None;
                }
                let (ctx, r) = self.call(name, &base.func, ctx, args);
                (ctx, r.map_err(|e| (e, base.script)))
            }
            (None, true) => return (ctx, Ok(None)),
            _ => self.call_chain(name, chain, HOOK_ARGS[h], ctx, args),
        };
        let r = r
            .map(Some)
            .map_err(|(e, script)| self.error_in(e, name, Some(script)));
        (ctx, r)
    }

    /// Runs a hook's chain: `before`s until one returns a value (not nil or false), which then
    /// stands for everything it wraps; else the base hook. Each `after` that wraps what ran
    /// gets the result so far after the hook's own arguments, and what it returns (if not nil)
    /// becomes the result. On error, also says which script's step was running.
    fn call_chain<R: mlua::FromLuaMulti>(
        &self,
        name: &str,
        chain: &Chain,
        nargs: usize,
        ctx: CallCtx,
        (game, seat, action): (Table, Option<i64>, Option<mlua::LuaString>),
    ) -> (CallCtx, Result<R, (mlua::Error, usize)>) {
        let running = Cell::new(0usize);
        let producer = RefCell::new(None::<Step>);
        let run = || -> mlua::Result<R> {
            let mut args = MultiValue::new();
            args.push_back(LuaValue::Table(game.clone()));
            if nargs >= 1 {
                args.push_back(seat.into_lua(&self.lua)?);
            }
            if nargs >= 2 {
                args.push_back(action.into_lua(&self.lua)?);
            }
            let first = |m: MultiValue| m.into_iter().next().unwrap_or(LuaValue::Nil);
            let mut result = LuaValue::Nil;
            // Afters of scripts before this one were inside what returned early, and do not run.
            let mut outer_from = 0;
            let mut done = false;
            for step in &chain.befores {
                running.set(step.script);
                let v = first(step.func.call::<MultiValue>(args.clone())?);
                if !matches!(v, LuaValue::Nil | LuaValue::Boolean(false)) {
                    result = v;
                    outer_from = step.script;
                    *producer.borrow_mut() = Some(step.clone());
                    done = true;
                    break;
                }
            }
            if !done && let Some(base) = &chain.base {
                running.set(base.script);
                result = first(base.func.call::<MultiValue>(args.clone())?);
                *producer.borrow_mut() = Some(base.clone());
            }
            for step in chain.afters.iter().filter(|s| s.script >= outer_from) {
                running.set(step.script);
                let mut with = args.clone();
                with.push_back(result.clone());
                let v = first(step.func.call::<MultiValue>(with)?);
                if !v.is_nil() {
                    result = v;
                }
                *producer.borrow_mut() = Some(step.clone());
            }
            let mut out = MultiValue::new();
            out.push_back(result);
            R::from_lua_multi(out, &self.lua)
        };
        self.arm();
        let (ctx, r) = self.lend(ctx, run);
        self.disarm(name);
        let r = self.unless_stopped(r);
        let ctx = match ctx {
            Some(c) => c,
            None => unreachable_ctx(),
        };
        let producer = producer.into_inner();
        let r = r.map_err(|e| {
            // A value of the wrong type is the fault of the step that produced it.
            let at = match (&e, &producer) {
                (mlua::Error::FromLuaConversionError { .. }, Some(p)) => p.script,
                _ => running.get(),
            };
            (e, at)
        });
        *self.producer.borrow_mut() = producer;
        (ctx, r)
    }

    /// An error about what a hook returned (rather than one it raised): it names the script
    /// and the line where the function that produced the value starts.
    pub fn hook_error(&self, name: &str, message: String) -> ScriptError {
        let producer = self.producer.borrow().clone();
        let step = producer.or_else(|| hook_index(name).and_then(|i| self.hooks[i].base.clone()));
        let script = step.as_ref().and_then(|h| self.scripts.get(h.script));
        ScriptError {
            mod_id: script.map_or_else(|| self.def.id.clone(), |s| s.mod_id.clone()),
            file: script.map_or_else(|| self.def.id.clone(), |s| s.display.clone()),
            line: step.and_then(|h| h.func.info().line_defined).unwrap_or(0),
            hook: name.into(),
            message,
            ..ScriptError::default()
        }
    }

    /// Calls the `describe` hook for `action`: its label as a menu path (a plain string label
    /// is a path of one part). None when the mod has no `describe` hook. Anything but a
    /// non-empty string or a non-empty list of non-empty strings is an error naming the script
    /// and the function that returned it.
    pub fn call_describe(
        &self,
        ctx: CallCtx,
        seat: u8,
        action: &str,
    ) -> (CallCtx, Result<Option<Vec<String>>, ScriptError>) {
        let (ctx, r) = self.call_hook::<LuaValue>("describe", ctx, Some(seat), Some(action));
        let r = r.and_then(|v| match v {
            None => Ok(None),
            Some(v) => menu_path(&v, action)
                .map(Some)
                .map_err(|m| self.hook_error("describe", m)),
        });
        (ctx, r)
    }

    /// Calls the `actions` hook for `seat`: the legal actions, or None when the mod has no
    /// such hook. Anything but a list of strings, each one a replay can hold (see
    /// [`crate::action::problem`]), is an error naming the script and the function that
    /// returned it.
    pub fn call_actions(
        &self,
        ctx: CallCtx,
        seat: u8,
    ) -> (CallCtx, Result<Option<Vec<String>>, ScriptError>) {
        let (ctx, r) = self.call_hook::<LuaValue>("actions", ctx, Some(seat), None);
        let r = r.and_then(|v| match v {
            None => Ok(None),
            Some(v) => returns::action_list(&v)
                .map(Some)
                .map_err(|m| self.hook_error("actions", m)),
        });
        (ctx, r)
    }

    /// Runs a snippet of Luau against the state with the rules' rights (a console, and the way
    /// tests build situations). Returns what the snippet returns.
    pub fn eval(
        &self,
        ctx: CallCtx,
        code: &str,
    ) -> (CallCtx, Result<crate::value::Value, ScriptError>) {
        let func = match self
            .lua
            .load(code)
            .set_mode(ChunkMode::Text)
            .set_name("=console")
            .into_function()
        {
            Ok(f) => f,
            Err(e) => return (ctx, Err(self.error(e, "console"))),
        };
        let (ctx, r) = self.call::<_, LuaValue>("console", &func, ctx, ());
        let r = r.map_err(|e| self.error(e, "console")).and_then(|v| {
            convert::from_lua(&v).map_err(|m| ScriptError {
                mod_id: self.def.id.clone(),
                file: "console".into(),
                line: 0,
                hook: "console".into(),
                message: m,
                ..ScriptError::default()
            })
        });
        (ctx, r)
    }

    /// Runs a snippet for a console with the rights `ctx` gives: first as an expression
    /// (`return <code>`), and when that does not compile, as statements. What it returns is
    /// written as `print` writes values (several separated by tabs; "nil" for nothing).
    pub fn inspect(&self, ctx: CallCtx, code: &str) -> (CallCtx, Result<String, ScriptError>) {
        let load = |src: &str| {
            self.lua
                .load(src)
                .set_mode(ChunkMode::Text)
                .set_name("=console")
                .into_function()
        };
        let func = match load(&format!("return {code}")).or_else(|_| load(code)) {
            Ok(f) => f,
            Err(e) => return (ctx, Err(self.console_error(e))),
        };
        let (ctx, r) = self.call::<_, MultiValue>("console", &func, ctx, ());
        let r = r
            .map(|values| debug::show(&values))
            .map_err(|e| self.console_error(e));
        (ctx, r)
    }

    /// An error of code typed into a console: in a script's function it points there, else
    /// at the console's own line.
    fn console_error(&self, e: mlua::Error) -> ScriptError {
        let mut se = self.error(e, "console");
        if se.line == 0 {
            se.mod_id = self.def.id.clone();
            se.file = "console".into();
            if let Some(rest) = se.message.strip_prefix("console:")
                && let Some((n, msg)) = rest.split_once(": ")
                && let Ok(line) = n.parse()
            {
                se.line = line;
                se.message = msg.to_string();
            }
        }
        se
    }

    /// Starts a bot's `choose` on `actions`, as a coroutine: it runs until it chooses (see
    /// [`BotStep::Chose`]) or stops to try an action or take one back; the engine then does
    /// that and calls [`Host::resume_bot`]. The step budget and time limit cover the bot's
    /// whole `choose`, not each stretch of it (see [`Host::budget`]).
    pub fn start_bot(
        &self,
        bot: &str,
        ctx: CallCtx,
        seat: u8,
        actions: &[String],
    ) -> (CallCtx, Result<BotStep, ScriptError>) {
        let hook = format!("bot {bot}");
        let Some(i) = self.def.bots.iter().position(|b| b.id == bot) else {
            let e = ScriptError {
                mod_id: self.def.id.clone(),
                file: self.def.id.clone(),
                line: 0,
                hook,
                message: format!("no bot `{bot}`"),
                ..ScriptError::default()
            };
            return (ctx, Err(e));
        };
        let script = self.def.scripts.len() + i;
        let func = match self.bot(i) {
            Ok(f) => f,
            Err(e) => return (ctx, Err(e)),
        };
        let kept = self.bot_threads.borrow().get(i).cloned().flatten();
        let thread = match kept {
            Some(t) if t.reset(func.clone()).is_ok() => Ok(t),
            _ => self.lua.create_thread(func),
        };
        if let (Ok(t), Some(slot)) = (&thread, self.bot_threads.borrow_mut().get_mut(i)) {
            *slot = Some(t.clone());
        }
        let made = thread.and_then(|thread| {
            let list = self
                .lua
                .create_sequence_from(actions.iter().map(|a| a.as_str()))?;
            Ok((thread, list))
        });
        let (thread, list) = match made {
            Ok(x) => x,
            Err(e) => return (ctx, Err(self.error(e, &hook))),
        };
        *self.bot_run.borrow_mut() = Some(BotRun {
            thread,
            script,
            hook,
            actions: actions.to_vec(),
        });
        self.arm();
        if self.profiling.get() {
            self.bot_started
                .set(Some((Instant::now(), api::calls_made())));
        }
        self.resume_with(ctx, (self.game.clone(), seat as i64 + 1, list))
    }

    /// Resumes the bot stopped at `game.try` or `game.undo`, which returns `reply` to it.
    pub fn resume_bot(&self, ctx: CallCtx, reply: bool) -> (CallCtx, Result<BotStep, ScriptError>) {
        self.resume_with(ctx, reply)
    }

    /// The step budget and deadline left to the running call: kept across a bot's `try`,
    /// whose rules calls arm their own (see [`Host::charge_tries`]).
    pub fn budget(&self) -> (u64, Option<Instant>) {
        (self.steps_left.get(), self.deadline.get())
    }

    /// Steps used by every call this VM has finished so far (a running total, for
    /// [`Host::charge_tries`]).
    pub fn spent(&self) -> u64 {
        self.spent.get()
    }

    /// Gives the running bot back its budget after a try, less the `used` steps the try's
    /// rules took: a bot's whole `choose`, its tries included, runs under one step budget,
    /// so how long it may think never depends on the machine.
    pub fn charge_tries(&self, (steps, deadline): (u64, Option<Instant>), used: u64, bot: &str) {
        self.deadline.set(deadline);
        if used >= steps {
            self.steps_left.set(0);
            *self.stopped.why.borrow_mut() = format!(
                "step budget exceeded: the bot `{bot}` and the rules its tries ran took more than {} steps in one choose; try fewer actions",
                self.limits.steps
            );
        } else {
            self.stopped.why.borrow_mut().clear();
            self.steps_left.set(steps - used);
        }
    }

    fn resume_with(
        &self,
        ctx: CallCtx,
        args: impl mlua::IntoLuaMulti,
    ) -> (CallCtx, Result<BotStep, ScriptError>) {
        let Some((thread, script, hook)) = self
            .bot_run
            .borrow()
            .as_ref()
            .map(|r| (r.thread.clone(), r.script, r.hook.clone()))
        else {
            let e = ScriptError {
                mod_id: self.def.id.clone(),
                file: self.def.id.clone(),
                line: 0,
                hook: "bot".into(),
                message: "no bot is waiting to go on".into(),
                ..ScriptError::default()
            };
            return (ctx, Err(e));
        };
        let (ctx, r) = self.lend(ctx, || thread.resume::<mlua::MultiValue>(args));
        let r = self.unless_stopped(r);
        let ctx = match ctx {
            Some(c) => c,
            None => unreachable_ctx(),
        };
        let values = match r {
            Ok(v) => v,
            Err(e) => {
                self.end_bot();
                return (ctx, Err(self.error_in(e, &hook, Some(script))));
            }
        };
        if thread.status() == mlua::thread::ThreadStatus::Resumable {
            let mut it = values.into_iter();
            let mark = it
                .next()
                .and_then(|v| v.as_string().map(|s| s.to_string_lossy()));
            let step = match mark.as_deref() {
                Some(TRY_MARK) => {
                    let action = it
                        .next()
                        .and_then(|v| v.as_string().map(|s| s.to_string_lossy()))
                        .unwrap_or_default();
                    BotStep::Try(action)
                }
                Some(UNDO_MARK) => BotStep::Undo,
                _ => {
                    self.end_bot();
                    let s = &self.scripts[script];
                    let e = ScriptError {
                        mod_id: s.mod_id.clone(),
                        file: s.display.clone(),
                        line: 0,
                        hook,
                        message: "choose stopped without choosing".into(),
                        ..ScriptError::default()
                    };
                    return (ctx, Err(e));
                }
            };
            return (ctx, Ok(step));
        }
        let actions = self
            .bot_run
            .borrow()
            .as_ref()
            .map(|r| r.actions.clone())
            .unwrap_or_default();
        self.end_bot();
        let v = values.into_iter().next().unwrap_or(LuaValue::Nil);
        let idx = match &v {
            LuaValue::Integer(i) => Some(*i as usize),
            LuaValue::Number(n) if n.fract() == 0.0 => Some(*n as usize),
            LuaValue::String(s) => actions
                .iter()
                .position(|a| s.to_str().is_ok_and(|x| *x == **a))
                .map(|i| i + 1),
            _ => None,
        };
        let r = match idx {
            Some(i) if (1..=actions.len()).contains(&i) => Ok(BotStep::Chose(i - 1)),
            _ => {
                let s = &self.scripts[script];
                Err(ScriptError {
                    mod_id: s.mod_id.clone(),
                    file: s.display.clone(),
                    line: 0,
                    hook,
                    message: format!(
                        "choose must return an index 1..{} or one of the actions, not {}",
                        actions.len(),
                        returns::shown(&v)
                    ),
                    ..ScriptError::default()
                })
            }
        };
        (ctx, r)
    }

    /// Forgets the bot under way (its coroutine is dropped) and stops the clock; a kept
    /// profile counts its whole `choose` as one call.
    pub fn end_bot(&self) {
        let run = self.bot_run.borrow_mut().take();
        self.deadline.set(None);
        self.call_started.set(None);
        if let (Some(run), Some(started)) = (run, self.bot_started.take()) {
            self.record(&run.hook, started);
        }
    }

    fn call<A: mlua::IntoLuaMulti, R: mlua::FromLuaMulti>(
        &self,
        name: &str,
        f: &Function,
        ctx: CallCtx,
        args: A,
    ) -> (CallCtx, mlua::Result<R>) {
        self.arm();
        let (ctx, r) = self.lend(ctx, || f.call::<R>(args));
        self.disarm(name);
        let r = self.unless_stopped(r);
        if r.is_err() && self.lua.used_memory() > self.limits.memory / 2 {
            // Free what a runaway script left behind before anything else runs.
            let _ = self.lua.gc_collect();
            let _ = self.lua.gc_collect();
        }
        match ctx {
            Some(c) => (c, r),
            // Unreachable: only `lend` empties the slot, and it hands the context back.
            None => unreachable_ctx(),
        }
    }

    /// Lends `ctx` to the API while `f` runs (see `api::lend`). What the game holds outside
    /// the VM shares the memory limit with it; when that is much, the allocator's own hard
    /// limit (for single allocations too big to reach the interrupt) is lowered by it too.
    fn lend<T>(&self, ctx: CallCtx, f: impl FnOnce() -> T) -> (Option<CallCtx>, T) {
        let memory = self.limits.memory;
        let held = ctx.held();
        self.room.set(memory.saturating_sub(held));
        let lowered = held > memory / 16;
        if lowered {
            let hard = (memory + memory / 8).saturating_sub(held).max(1);
            let _ = self.lua.set_memory_limit(hard);
        }
        let out = api::lend(ctx, f);
        if lowered {
            let _ = self.lua.set_memory_limit(memory + memory / 8);
        }
        self.room.set(memory);
        out
    }

    fn error(&self, e: mlua::Error, hook: &str) -> ScriptError {
        self.error_in(e, hook, None)
    }

    /// Finds the script and line an error points at.
    fn error_in(&self, e: mlua::Error, hook: &str, script: Option<usize>) -> ScriptError {
        let mut full = e.to_string();
        let mut message = innermost(&e);
        if is_memory_error(&e) {
            message = format!("memory limit of {} MiB exceeded", self.limits.memory >> 20);
            // The allocator's refusal carries no line; the interrupt kept the last line it saw
            // running with memory near the limit.
            full = format!("{}{message}", self.stopped.last_line.borrow());
        }
        let mut found: Option<(usize, usize)> = None;
        'outer: for (i, s) in self.scripts.iter().enumerate() {
            let pat = format!("{}:", s.display);
            for (pos, _) in full.match_indices(&pat) {
                let rest = &full[pos + pat.len()..];
                let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
                if let Ok(line) = digits.parse() {
                    found = Some((i, line));
                    break 'outer;
                }
            }
        }
        // Strip the location prefix the VM puts before the message.
        if let Some((i, line)) = found {
            let prefix = format!("{}:{line}: ", self.scripts[i].display);
            if let Some(rest) = message.strip_prefix(&prefix) {
                message = rest.to_string();
            }
        }
        let (idx, line) = found.unwrap_or((script.unwrap_or(0), 0));
        let s = self.scripts.get(idx);
        if let Some(plain) = bad_argument(&e, s.zip(found).and_then(|(s, _)| source_line(s, line)))
        {
            message = plain;
        }
        ScriptError {
            mod_id: s.map_or(self.def.id.clone(), |s| s.mod_id.clone()),
            file: s.map_or(self.def.id.clone(), |s| s.display.clone()),
            line,
            hook: hook.to_string(),
            message: shorten(&returns::plain_message(message.trim())),
            context: Box::new(ErrorContext {
                trace: self.trace_of(&e),
                ..ErrorContext::default()
            }),
        }
    }

    /// The mod's own frames of the Luau stack an error came with, innermost first: from the
    /// traceback the VM adds to a raised error or to a failed `game` call, or, for a limit
    /// reached, the one the interrupt took.
    fn trace_of(&self, e: &mlua::Error) -> Vec<String> {
        let mut text = String::new();
        let mut e = e;
        loop {
            match e {
                mlua::Error::CallbackError { traceback, cause } => {
                    if text.is_empty() {
                        text = traceback.clone();
                    }
                    e = cause;
                }
                mlua::Error::RuntimeError(m) => {
                    if text.is_empty() {
                        text = m.clone();
                    }
                    break;
                }
                _ => break,
            }
        }
        let mut frames: Vec<String> = text
            .split_once("stack traceback:")
            .map(|(_, t)| t.lines().filter_map(|l| self.frame(l)).collect())
            .unwrap_or_default();
        if frames.is_empty() {
            frames = self.stopped.trace.borrow().clone();
        }
        frames.truncate(MAX_FRAMES);
        frames
    }

    /// One line of a Luau traceback ("\tfile:12: in function 'name'") as a frame of the
    /// mod's ("file:12 in name"); None for native code and the engine's own wrappers.
    fn frame(&self, line: &str) -> Option<String> {
        let line = line.trim();
        let (place, what) = line.split_once(": in ").unwrap_or((line, ""));
        let (file, number) = place.rsplit_once(':')?;
        number.parse::<usize>().ok()?;
        if !self.scripts.iter().any(|s| s.display == file) {
            return None;
        }
        let name = what
            .strip_prefix("function ")
            .map(|n| n.trim_matches('\''))
            .filter(|n| !n.is_empty() && *n != "?");
        Some(match name {
            Some(n) => format!("{place} in {n}"),
            None => place.to_string(),
        })
    }
}

/// The most frames an error keeps: a runaway recursion has thousands.
const MAX_FRAMES: usize = 12;

/// Whether an error is the allocator refusing memory (possibly raised inside an API call).
fn is_memory_error(e: &mlua::Error) -> bool {
    match e {
        mlua::Error::MemoryError(_) => true,
        mlua::Error::CallbackError { cause, .. } => is_memory_error(cause),
        _ => false,
    }
}

/// At most this many bytes of an error message are kept: a script may raise a string of
/// megabytes.
const MAX_MESSAGE: usize = 2000;

fn shorten(m: &str) -> String {
    if m.len() <= MAX_MESSAGE {
        return m.to_string();
    }
    let mut end = MAX_MESSAGE;
    while !m.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}... ({} bytes in all)", &m[..end], m.len())
}

/// What a `describe` hook returned for `action`, as a menu path: a string is a path of one
/// part; a list must hold one or more strings (items 1..n, nothing else). Empty labels or
/// parts are refused, since people could not tell them apart. The error says what was wrong.
fn menu_path(v: &LuaValue, action: &str) -> Result<Vec<String>, String> {
    const WANT: &str = "it must return a label: a string, or a list of strings (a menu path)";
    let what = returns::what;
    let text = |v: &LuaValue| -> Option<String> {
        match v {
            LuaValue::String(s) => Some(s.to_string_lossy()),
            _ => None,
        }
    };
    let returned = |x: &str| format!("describe returned {x} for the action `{action}`");
    match v {
        LuaValue::String(_) => {
            let s = text(v).unwrap_or_default();
            if s.trim().is_empty() {
                return Err(format!("{}; {WANT}", returned("an empty label")));
            }
            Ok(vec![s])
        }
        LuaValue::Table(t) => {
            let n = t.raw_len();
            let mut keys = 0usize;
            for pair in t.clone().pairs::<LuaValue, LuaValue>() {
                if pair.is_err() {
                    return Err(format!("{}; {WANT}", returned(&what(v))));
                }
                keys += 1;
            }
            if n == 0 && keys == 0 {
                return Err(format!("{}; {WANT}", returned("an empty list")));
            }
            if keys != n {
                return Err(format!(
                    "{}, with keys other than 1, 2, 3...; {WANT}",
                    returned("a table")
                ));
            }
            let mut out = Vec::with_capacity(n);
            for i in 1..=n {
                let item: LuaValue = t.raw_get(i).unwrap_or(LuaValue::Nil);
                match text(&item) {
                    Some(s) if !s.trim().is_empty() => out.push(s),
                    Some(_) => {
                        return Err(format!(
                            "{} whose part {i} is an empty string; each part of a menu path must say something",
                            returned("a menu path")
                        ));
                    }
                    None => {
                        return Err(format!(
                            "{} whose part {i} is {}, not a string",
                            returned("a menu path"),
                            what(&item)
                        ));
                    }
                }
            }
            Ok(out)
        }
        other => Err(format!("{}; {WANT}", returned(&what(other)))),
    }
}

/// Removes what scripts must not reach, installs the API, and seals the globals.
fn prepare_globals(
    lua: &Lua,
    def: &GameDef,
    charge: Function,
    refused: Function,
    memory: usize,
) -> mlua::Result<Table> {
    let g = lua.globals();
    for name in [
        "loadstring",
        "load",
        "dofile",
        "require",
        "getfenv",
        "setfenv",
        "collectgarbage",
        "gcinfo",
        "debug",
        "newproxy",
    ] {
        g.raw_set(name, LuaValue::Nil)?;
    }
    // `print` writes to the debug channel, never to standard output (where it could fake the
    // command line's own lines); see `debug`.
    debug::install(lua, &g)?;
    let game = api::register(lua)?;
    // Lookahead for bots: `game.try` and `game.undo` stop the bot's `choose` (a coroutine)
    // and hand the request to the engine, which applies or takes back the action and resumes
    // the bot; in between, the bot reads the game as it is after the action.
    let coroutine: Table = g.raw_get("coroutine")?;
    let wrappers: Table = lua
        .load(
            r#"local yield, check, try_mark, undo_mark = ...
            return {
                try = function(action)
                    check("try", action)
                    return yield(try_mark, action)
                end,
                undo = function()
                    check("undo", nil)
                    return yield(undo_mark)
                end,
            }"#,
        )
        .set_name("=farebox")
        .set_mode(ChunkMode::Text)
        .call((
            coroutine.raw_get::<Function>("yield")?,
            lua.create_function(api::check_lookahead)?,
            TRY_MARK,
            UNDO_MARK,
        ))?;
    game.set_readonly(false);
    game.raw_set("try", wrappers.raw_get::<Function>("try")?)?;
    game.raw_set("undo", wrappers.raw_get::<Function>("undo")?)?;
    game.set_readonly(true);
    g.raw_set("coroutine", LuaValue::Nil)?;
    g.raw_set("game", game.clone())?;
    // Weak tables lose entries whenever the collector runs, and when it runs depends on how
    // much memory the VM has used, earlier games on a reused VM included: a game that read
    // them could not be replayed. setmetatable refuses a metatable with `__mode`, and freezes
    // the metatable it sets, so `__mode` cannot be added to it afterwards.
    let guarded: Function = lua
        .load(
            r#"local raw, rawget, type, error, freeze, isfrozen = ...
            return function(t, mt)
                if type(mt) == "table" then
                    if rawget(mt, "__mode") ~= nil then
                        error("weak tables (__mode) are not available: what they keep would depend on when memory is collected, and games must replay exactly", 2)
                    end
                    -- Frozen, so that no `__mode` can be added once it is in use.
                    if not isfrozen(mt) then
                        freeze(mt)
                    end
                end
                return raw(t, mt)
            end"#,
        )
        .set_name("=farebox")
        .set_mode(ChunkMode::Text)
        .call((
            g.raw_get::<Function>("setmetatable")?,
            g.raw_get::<Function>("rawget")?,
            g.raw_get::<Function>("type")?,
            g.raw_get::<Function>("error")?,
            lua.globals()
                .raw_get::<Table>("table")?
                .raw_get::<Function>("freeze")?,
            lua.globals()
                .raw_get::<Table>("table")?
                .raw_get::<Function>("isfrozen")?,
        ))?;
    g.raw_set("setmetatable", guarded)?;
    guard_protected_calls(lua, &g, refused)?;
    guard_libraries(lua, &g, charge, memory)?;
    if let Ok(math) = g.get::<Table>("math") {
        math.raw_set("random", lua.create_function(api::math_random)?)?;
        math.raw_set(
            "randomseed",
            lua.create_function(|_, _: mlua::MultiValue| -> mlua::Result<()> {
                Err(mlua::Error::RuntimeError(
                    "math.randomseed is not available: the game's seed decides every random number"
                        .into(),
                ))
            })?,
        )?;
    }
    g.raw_set("data", convert::content_table(lua, def)?)?;
    lua.sandbox(true)?;
    forbid_globals(lua)?;
    Ok(game)
}

/// Makes assigning a global an error naming the file and line. In the sandbox each VM thread
/// writes globals into a table of its own (the libraries, `game` and `data` stay behind it,
/// read-only), and a global set in one hook call would still be there in the next: a script
/// could count its own calls, and a bot's look-ahead or a label shown to a person would then
/// change the game. Scripts keep what must last in the game (`game.set`), and `local`s.
fn forbid_globals(lua: &Lua) -> mlua::Result<()> {
    let g = lua.globals();
    let behind = g
        .metatable()
        .map(|mt| mt.raw_get::<LuaValue>("__index"))
        .transpose()?
        .unwrap_or(LuaValue::Nil);
    let refuse: Function = lua
        .load(
            r#"local error, tostring, type = ...
            return function(_, name, _)
                local shown = if type(name) == "string" then name else tostring(name)
                error("`" .. shown .. "` is not declared: scripts may not set globals, since a global would keep its value from one hook call to the next and the game could not be replayed; declare it `local` (at the top of the file for a constant, or inside the function that uses it), or keep what the game must remember with game.set", 2)
            end"#,
        )
        .set_name("=farebox")
        .set_mode(ChunkMode::Text)
        .call((
            g.raw_get::<Function>("error")
                .or_else(|_| lua.globals().get::<Function>("error"))?,
            g.get::<Function>("tostring")?,
            g.get::<Function>("type")?,
        ))?;
    let mt = lua.create_table()?;
    mt.raw_set("__index", behind)?;
    mt.raw_set("__newindex", refuse)?;
    mt.raw_set("__metatable", "the globals")?;
    mt.set_readonly(true);
    g.set_metatable(Some(mt))
}

/// `pcall` and `xpcall` that pass every error on as before, except the allocator's refusal
/// ("not enough memory"): that one stops the call (see `Host::new`), as the step budget, the
/// clock and the interrupt's memory check do. Written in Luau, so a bot's `choose` can still
/// yield (at `game.try`) inside them.
fn guard_protected_calls(lua: &Lua, g: &Table, refused: Function) -> mlua::Result<()> {
    let wrapped: Table = lua
        .load(
            r#"local pcall, xpcall, refused = ...
            local MEMORY = "not enough memory"
            local function pass(ok, ...)
                if not ok and (...) == MEMORY then
                    refused()
                end
                return ok, ...
            end
            return {
                pcall = function(f, ...)
                    return pass(pcall(f, ...))
                end,
                xpcall = function(f, handler, ...)
                    return xpcall(f, function(e)
                        if e == MEMORY then
                            refused()
                        end
                        return handler(e)
                    end, ...)
                end,
            }"#,
        )
        .set_name("=farebox")
        .set_mode(ChunkMode::Text)
        .call((
            g.raw_get::<Function>("pcall")?,
            g.raw_get::<Function>("xpcall")?,
            refused,
        ))?;
    g.raw_set("pcall", wrapped.raw_get::<Function>("pcall")?)?;
    g.raw_set("xpcall", wrapped.raw_get::<Function>("xpcall")?)?;
    Ok(())
}

/// Library functions that can do much work in one call without reaching an interrupt, or
/// that show memory addresses, replaced by checked versions. The work a call will do is
/// charged to the step budget before it starts, from the sizes of its arguments alone (so the
/// charge is the same on every machine): a step for every 16 elements moved, compared or
/// searched and every 256 bytes copied or scanned; small calls cost nothing extra. A call the
/// budget left cannot pay is refused with the line (see `Host::new`, `charge`).
/// - `table.sort` (n log n comparisons), `table.concat`, `table.move`, `table.find`,
///   `table.create`, and `table.clone` and `table.clear` by their list part;
/// - `string.rep`, `string.upper`, `string.lower`, `string.reverse`, `string.find` and
///   `string.split` (a plain search with a long pattern compares bytes with `memcmp` at every
///   position: beyond 200 million bytes of work it is refused); patterns reach the interrupt
///   on their own;
/// - `buffer.create`, `buffer.fill`, `buffer.copy`, `buffer.tostring`, `buffer.fromstring`,
///   `buffer.readstring`, `buffer.writestring`; `utf8.len`.
///
/// `string.rep`, `table.create` and `buffer.create` also refuse a size over the memory limit
/// at once, with the line, rather than leaving it to the allocator (whose error has none).
/// `tostring` and `string.format` show a table, function, thread or buffer without a
/// `__tostring` as its type name: an address differs between runs, and a game must replay.
/// Left to the interrupt and the safety net: the built-ins Luau runs without a call
/// (`string.sub`, `table.insert`, `table.unpack`, the `..` operator), whose work is bounded by
/// the memory limit per call.
fn guard_libraries(lua: &Lua, g: &Table, charge: Function, memory: usize) -> mlua::Result<()> {
    let string: Table = g.raw_get("string")?;
    let table: Table = g.raw_get("table")?;
    let buffer: Table = g.raw_get("buffer")?;
    let utf8: Table = g.raw_get("utf8")?;
    let originals = lua.create_table()?;
    for (lib_name, lib, names) in [
        (
            "string",
            &string,
            &[
                "find", "split", "rep", "format", "upper", "lower", "reverse",
            ][..],
        ),
        (
            "table",
            &table,
            &[
                "sort", "concat", "move", "clone", "find", "clear", "create", "pack", "unpack",
            ][..],
        ),
        (
            "buffer",
            &buffer,
            &[
                "create",
                "fill",
                "copy",
                "tostring",
                "fromstring",
                "readstring",
                "writestring",
                "len",
            ][..],
        ),
        ("utf8", &utf8, &["len"][..]),
    ] {
        for name in names {
            originals.raw_set(
                format!("{lib_name}.{name}"),
                lib.raw_get::<Function>(*name)?,
            )?;
        }
    }
    for name in [
        "error",
        "type",
        "select",
        "getmetatable",
        "rawget",
        "rawlen",
        "tostring",
    ] {
        originals.raw_set(name, g.raw_get::<Function>(name)?)?;
    }
    let guarded: Table = lua
        .load(
            r##"local charge, memory, lib = ...
            -- `type`, `select`, `rawlen`, `rawget` and `getmetatable` are left as globals, so
            -- Luau calls them as built-ins (no call at all) once the globals are sealed.
            local error, tostring = lib.error, lib.tostring
            local pack, unpack = lib["table.pack"], lib["table.unpack"]
            local find, split, rep, format = lib["string.find"], lib["string.split"], lib["string.rep"], lib["string.format"]
            local upper, lower, reverse = lib["string.upper"], lib["string.lower"], lib["string.reverse"]
            local sort, concat, move, clone, tfind, clear, create =
                lib["table.sort"], lib["table.concat"], lib["table.move"], lib["table.clone"],
                lib["table.find"], lib["table.clear"], lib["table.create"]
            local bcreate, bfill, bcopy, btostring, bfromstring, breadstring, bwritestring, blen =
                lib["buffer.create"], lib["buffer.fill"], lib["buffer.copy"], lib["buffer.tostring"],
                lib["buffer.fromstring"], lib["buffer.readstring"], lib["buffer.writestring"], lib["buffer.len"]
            local ulen = lib["utf8.len"]
            local floor, log = math.floor, math.log
            -- A step of the budget buys this much native work.
            local ITEMS, BYTES = 16, 256
            local MOST = 2e8
            local function items(n, what)
                if type(n) == "number" and n >= ITEMS then
                    charge(n / ITEMS, what)
                end
            end
            local function bytes(n, what)
                if type(n) == "number" and n >= BYTES then
                    charge(n / BYTES, what)
                end
            end
            local function count(t)
                if type(t) == "table" then
                    return rawlen(t)
                end
                return 0
            end
            local function searched(what, s, p)
                if type(s) == "string" and type(p) == "string" then
                    local work = #s * #p
                    if #p > 16 and work > 1e6 then
                        if work > MOST then
                            error(what .. ": looking for " .. #p .. " bytes in " .. #s .. " could compare " .. work .. " bytes, more than a call may do; search shorter strings", 3)
                        end
                        charge(work / 1000, what)
                    elseif #s >= BYTES then
                        charge(#s / BYTES, what)
                    end
                end
            end
            local function too_big(what, n)
                if type(n) == "number" and n > memory then
                    error(format("%s: %.0f bytes is over the memory limit of %d MiB", what, n, memory // 1048576), 3)
                end
            end
            local function plain(v)
                local t = type(v)
                if t == "table" or t == "function" or t == "userdata" or t == "thread" or t == "buffer" then
                    local mt = getmetatable(v)
                    if not (type(mt) == "table" and rawget(mt, "__tostring") ~= nil) then
                        return t
                    end
                end
                return tostring(v)
            end
            local function blength(b)
                if type(b) == "buffer" then
                    return blen(b)
                end
                return 0
            end
            return {
                find = function(s, p, init, plain)
                    if type(s) == "string" and (#s >= BYTES or (type(p) == "string" and #p > 16)) then
                        searched("string.find", s, p)
                    end
                    return find(s, p, init, plain)
                end,
                split = function(s, sep)
                    searched("string.split", s, sep)
                    return split(s, sep)
                end,
                rep = function(s, n)
                    if type(s) == "string" and type(n) == "number" then
                        too_big("string.rep", #s * n)
                        bytes(#s * n, "string.rep")
                    end
                    return rep(s, n)
                end,
                -- The checks below are written out rather than calling `items` and `bytes`:
                -- rules call these at every decision, and most calls are small.
                upper = function(s)
                    if type(s) == "string" and #s >= BYTES then bytes(#s, "string.upper") end
                    return upper(s)
                end,
                lower = function(s)
                    if type(s) == "string" and #s >= BYTES then bytes(#s, "string.lower") end
                    return lower(s)
                end,
                reverse = function(s)
                    if type(s) == "string" and #s >= BYTES then bytes(#s, "string.reverse") end
                    return reverse(s)
                end,
                sort = function(t, comp)
                    if type(t) == "table" then
                        local n = rawlen(t)
                        if n >= ITEMS then
                            charge(n * floor(log(n, 2) + 1) / ITEMS, "table.sort")
                        end
                    end
                    if comp == nil then
                        return sort(t)
                    end
                    return sort(t, comp)
                end,
                concat = function(t, sep, i, j)
                    if i == nil and j == nil then
                        if type(t) == "table" and rawlen(t) >= ITEMS then
                            items(rawlen(t), "table.concat")
                        end
                    elseif type(i) == "number" or type(j) == "number" then
                        local first = if type(i) == "number" then i else 1
                        local last = if type(j) == "number" then j else count(t)
                        if last - first + 1 >= ITEMS then
                            items(last - first + 1, "table.concat")
                        end
                    end
                    local s = concat(t, sep, i, j)
                    if #s >= BYTES then
                        bytes(#s, "table.concat")
                    end
                    return s
                end,
                move = function(a1, f, e, t, a2)
                    if type(f) == "number" and type(e) == "number" and e >= f then
                        items(e - f + 1, "table.move")
                    end
                    if a2 == nil then
                        return move(a1, f, e, t)
                    end
                    return move(a1, f, e, t, a2)
                end,
                clone = function(t)
                    if type(t) == "table" and rawlen(t) >= ITEMS then
                        items(rawlen(t), "table.clone")
                    end
                    return clone(t)
                end,
                tfind = function(t, v, init)
                    if type(t) == "table" and rawlen(t) >= ITEMS then
                        items(rawlen(t), "table.find")
                    end
                    if init == nil then
                        return tfind(t, v)
                    end
                    return tfind(t, v, init)
                end,
                clear = function(t)
                    items(count(t), "table.clear")
                    return clear(t)
                end,
                -- No `...` here: a vararg function costs far more per call, and rules call
                -- table.create at every decision.
                create = function(n, value)
                    if type(n) == "number" and n >= ITEMS then
                        too_big("table.create", n * 16)
                        items(n, "table.create")
                    end
                    if value == nil then
                        return create(n)
                    end
                    return create(n, value)
                end,
                bcreate = function(n)
                    too_big("buffer.create", n)
                    bytes(n, "buffer.create")
                    return bcreate(n)
                end,
                bfill = function(b, offset, value, count)
                    bytes(if type(count) == "number" then count else blength(b), "buffer.fill")
                    return bfill(b, offset, value, count)
                end,
                bcopy = function(target, offset, source, soffset, count)
                    bytes(if type(count) == "number" then count else blength(source), "buffer.copy")
                    return bcopy(target, offset, source, soffset, count)
                end,
                btostring = function(b)
                    bytes(blength(b), "buffer.tostring")
                    return btostring(b)
                end,
                bfromstring = function(s)
                    if type(s) == "string" then bytes(#s, "buffer.fromstring") end
                    return bfromstring(s)
                end,
                breadstring = function(b, offset, count)
                    bytes(count, "buffer.readstring")
                    return breadstring(b, offset, count)
                end,
                bwritestring = function(b, offset, value, count)
                    bytes(if type(count) == "number" then count elseif type(value) == "string" then #value else 0, "buffer.writestring")
                    return bwritestring(b, offset, value, count)
                end,
                ulen = function(s, i, j)
                    if type(s) == "string" then bytes(#s, "utf8.len") end
                    return ulen(s, i, j)
                end,
                tostring = function(v, ...)
                    return plain(v)
                end,
                format = function(fmt, ...)
                    local n = select("#", ...)
                    for i = 1, n do
                        local t = type((select(i, ...)))
                        if t ~= "string" and t ~= "number" and t ~= "boolean" and t ~= "nil" and t ~= "vector" then
                            local args = pack(...)
                            for j = i, n do
                                local tj = type(args[j])
                                if tj ~= "string" and tj ~= "number" and tj ~= "boolean" and tj ~= "nil" and tj ~= "vector" then
                                    args[j] = plain(args[j])
                                end
                            end
                            local s = format(fmt, unpack(args, 1, n))
                            if #s >= BYTES then bytes(#s, "string.format") end
                            return s
                        end
                    end
                    local s = format(fmt, ...)
                    if #s >= BYTES then bytes(#s, "string.format") end
                    return s
                end,
            }"##,
        )
        .set_name("=farebox")
        .set_mode(ChunkMode::Text)
        .call((charge, memory as f64, originals))?;
    let set = |lib: &Table, name: &str, key: &str| -> mlua::Result<()> {
        lib.raw_set(name, guarded.raw_get::<Function>(key)?)
    };
    for name in [
        "find", "split", "rep", "format", "upper", "lower", "reverse",
    ] {
        set(&string, name, name)?;
    }
    for name in ["sort", "concat", "move", "clone", "clear", "create"] {
        set(&table, name, name)?;
    }
    set(&table, "find", "tfind")?;
    for (name, key) in [
        ("create", "bcreate"),
        ("fill", "bfill"),
        ("copy", "bcopy"),
        ("tostring", "btostring"),
        ("fromstring", "bfromstring"),
        ("readstring", "breadstring"),
        ("writestring", "bwritestring"),
    ] {
        set(&buffer, name, key)?;
    }
    set(&utf8, "len", "ulen")?;
    g.raw_set("tostring", guarded.raw_get::<Function>("tostring")?)?;
    Ok(())
}

#[allow(clippy::panic)]
fn unreachable_ctx() -> ! {
    panic!("the call context is always returned by the VM")
}

/// The frames of the Luau code running now, innermost first ("file:line in name"), leaving
/// out native code and the engine's own wrappers.
fn stack_now(lua: &Lua) -> Vec<String> {
    let mut out = vec![];
    for level in 0..64 {
        let frame = lua.inspect_stack(level, |d| {
            let src = d.source();
            match (src.short_src, d.current_line()) {
                (Some(s), Some(l)) if l > 0 && s != "farebox" && s != "[C]" => {
                    Some(match d.names().name {
                        Some(n) => format!("{s}:{l} in {n}"),
                        None => format!("{s}:{l}"),
                    })
                }
                _ => None,
            }
        });
        match frame {
            None => break,
            Some(Some(f)) if out.len() < MAX_FRAMES => out.push(f),
            Some(_) => {}
        }
    }
    out
}

/// "file:line: " of the Luau code running now, for errors raised from the interrupt.
fn where_now(lua: &Lua) -> String {
    for level in 0..4 {
        let found = lua.inspect_stack(level, |d| {
            let src = d.source();
            match (src.short_src, d.current_line()) {
                // The engine's own Luau wrappers are not where a mod's error lies.
                (Some(s), Some(l)) if l > 0 && s != "farebox" => Some(format!("{s}:{l}: ")),
                _ => None,
            }
        });
        if let Some(Some(w)) = found {
            return w;
        }
    }
    String::new()
}

/// Line `line` (1-based) of a script's source.
fn source_line(s: &ScriptDef, line: usize) -> Option<&str> {
    s.source.lines().nth(line.checked_sub(1)?)
}

/// A plain-words message for an API call given an argument of the wrong kind ("argument 1 of
/// `game.cell` must be a whole number, not nil"), in place of the binding's conversion error.
/// The function is named when the line calls only one `game` function.
fn bad_argument(e: &mlua::Error, line: Option<&str>) -> Option<String> {
    let mut e = e;
    while let mlua::Error::CallbackError { cause, .. } = e {
        e = cause;
    }
    let mlua::Error::BadArgument { pos, cause, .. } = e else {
        return None;
    };
    let mlua::Error::FromLuaConversionError { from, to, .. } = &**cause else {
        return None;
    };
    let want = returns::wanted(to)?;
    let got = returns::got(from, &want);
    let mut called: Vec<&str> = vec![];
    if let Some(line) = line {
        for (at, _) in line.match_indices("game.") {
            let name: String = line[at + 5..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if line[at + 5 + name.len()..].trim_start().starts_with('(')
                && !called.contains(&&line[at..at + 5 + name.len()])
            {
                called.push(&line[at..at + 5 + name.len()]);
            }
        }
    }
    let (of, list) = match called.as_slice() {
        [one] => (format!("`{one}`"), returns::takes_list(one, *pos)),
        _ => ("the `game` function called here".to_string(), false),
    };
    if list && !to.starts_with("Vec<") && want != "a table" {
        // mlua names the item's type when an item of a list argument is wrong.
        return Some(format!(
            "argument {pos} of {of} must be a list of {}, and an item of it is {got}",
            returns::plural(&want)
        ));
    }
    Some(format!("argument {pos} of {of} must be {want}, not {got}"))
}

/// The message of the error that started it all, without tracebacks.
fn innermost(e: &mlua::Error) -> String {
    match e {
        mlua::Error::CallbackError { cause, .. } => innermost(cause),
        mlua::Error::RuntimeError(m) => m.lines().next().unwrap_or("").to_string(),
        mlua::Error::SyntaxError { message, .. } => {
            message.lines().next().unwrap_or("").to_string()
        }
        mlua::Error::MemoryError(m) => m.clone(),
        mlua::Error::ExternalError(x) => x.to_string(),
        other => other.to_string().lines().next().unwrap_or("").to_string(),
    }
}
