//! The VM of one game: [`Host`] runs the mod's rule scripts and bot scripts under their limits
//! and calls their hooks. This file makes the VM and runs calls; beside it, how scripts'
//! hooks are taken and chained (`chains.rs`), how a bot's `choose` runs as a coroutine
//! (`coroutines.rs`) and how a failure becomes a [`ScriptError`] (`failures.rs`).

mod chains;
mod coroutines;
mod failures;

use super::bots::{BotRun, BotStep, TRY_MARK, UNDO_MARK};
use super::ctx::CallCtx;
use super::errors::{
    ErrorContext, MAX_FRAMES, ScriptError, bad_argument, innermost, shorten, source_line, where_now,
};
use super::hooks::{
    Chain, HOOK_ARGS, HOOKS, HookPart, HookStep, Step, WRAPS, hook_index, menu_path,
};
use super::limits::{CallStats, Limits, Profile, Stopped, is_memory_error, out_of_time};
use super::sandbox::{forbid_globals, prepare_globals, unreachable_ctx};
use super::{api, convert, debug, fast_interrupt, returns};

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::Arc;
use std::time::Instant;

use mlua::chunk::ChunkMode;
use mlua::{
    Function, IntoLua, Lua, LuaOptions, MultiValue, StdLib, Table, Value as LuaValue, VmState,
};

use crate::content::GameDef;
use crate::content::def::ScriptDef;
use crate::diag::suggestion;

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

impl Host {
    /// The limits this VM runs its calls under.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Creates the VM and runs every rule script and bot script of the definition.
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
        let meters = Meters {
            steps: steps_left.clone(),
            deadline: deadline.clone(),
            stopped: stopped.clone(),
            room: room.clone(),
            memory,
            time,
        };
        meters.install_interrupt(&lua);
        let charge = meters.charge(&lua).map_err(|e| fail(e.to_string()))?;
        let refused = meters.refused(&lua).map_err(|e| fail(e.to_string()))?;
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
        let fast = fast_interrupt::arm(
            &lua,
            steps_left.clone(),
            Some(fast_interrupt::Memory {
                lua: lua.weak(),
                room: room.clone(),
                limit: memory,
            }),
        );
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
        let vars = self
            .lua
            .app_data_ref::<api::VarCache>()
            .map(|c| c.emptied());
        if let Some(vars) = vars {
            self.lua.set_app_data(vars);
        }
        self.hooks = (0..HOOKS.len()).map(|_| Chain::default()).collect();
        *self.bots.borrow_mut() = vec![None; self.def.bots.len()];
        let def = self.def.clone();
        for idx in 0..def.scripts.len() {
            let table = self.run_script(idx)?;
            self.take_hooks(idx, table)?;
        }
        Ok(())
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
}

/// The counters a VM's calls are held to (the step budget, the clock, the memory room) and
/// what stops a call; the interrupt and the two functions the sandbox's wrappers call share
/// them.
struct Meters {
    steps: Rc<Cell<u64>>,
    deadline: Rc<Cell<Option<Instant>>>,
    stopped: Rc<Stopped>,
    room: Rc<Cell<usize>>,
    memory: usize,
    time: std::time::Duration,
}

impl Meters {
    /// The interrupt: spends the step budget, and checks the memory room and the clock.
    fn install_interrupt(&self, lua: &Lua) {
        let (memory, time) = (self.memory, self.time);
        let steps = self.steps.clone();
        let deadline = self.deadline.clone();
        let stopped = self.stopped.clone();
        let room = self.room.clone();

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
                        return Err(stopped
                            .stop(lua, format!("{}{}", where_now(lua), out_of_time(time, ""))));
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

    /// Charged by the library wrappers (see `guard_libraries`) for work a single library
    /// call does without reaching an interrupt, before the work is done: `steps` of the
    /// budget. A call that would pass the budget is not started, so a loop of big library
    /// calls ends on the step budget, at the same call on every machine.
    fn charge(&self, lua: &Lua) -> mlua::Result<Function> {
        let time = self.time;
        let steps = self.steps.clone();
        let deadline = self.deadline.clone();
        let stopped = self.stopped.clone();

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
    }

    /// Called by the `pcall`/`xpcall` wrappers when they catch the allocator's refusal:
    /// whether an allocation is refused depends on how much garbage the VM holds (earlier
    /// games on a reused VM included), so the call must end as at any other limit.
    fn refused(&self, lua: &Lua) -> mlua::Result<Function> {
        let memory = self.memory;
        let steps = self.steps.clone();
        let stopped = self.stopped.clone();

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
    }
}
