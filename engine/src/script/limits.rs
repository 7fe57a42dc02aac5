//! What a call may spend: the step budget, the memory limit and the clock's safety net; why a
//! call was stopped; and the profile of what each hook and bot spent.

use std::time::Duration;

use super::errors::stack_now;
use mlua::Lua;
use serde::Serialize;
use std::cell::RefCell;

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
pub(super) fn out_of_time(limits_time: Duration, what: &str) -> String {
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
    pub(super) fn add(&mut self, steps: u64, nanos: u64, api_calls: u64) {
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

/// What stopped the running call, once a limit was reached; empty while it runs.
#[derive(Default)]
pub(super) struct Stopped {
    pub(super) why: RefCell<String>,
    /// "file:line: " of the code last seen running with memory near the limit.
    pub(super) last_line: RefCell<String>,
    /// The mod's frames of the stack when a limit was reached (see `Host::trace_of`).
    pub(super) trace: RefCell<Vec<String>>,
}

impl Stopped {
    pub(super) fn stop(&self, lua: &Lua, message: String) -> mlua::Error {
        *self.why.borrow_mut() = message.clone();
        *self.trace.borrow_mut() = stack_now(lua);
        mlua::Error::RuntimeError(message)
    }

    pub(super) fn clear(&self) {
        self.why.borrow_mut().clear();
        self.last_line.borrow_mut().clear();
        self.trace.borrow_mut().clear();
    }
}

/// Whether an error is the allocator refusing memory (possibly raised inside an API call).
pub(super) fn is_memory_error(e: &mlua::Error) -> bool {
    match e {
        mlua::Error::MemoryError(_) => true,
        mlua::Error::CallbackError { cause, .. } => is_memory_error(cause),
        _ => false,
    }
}
