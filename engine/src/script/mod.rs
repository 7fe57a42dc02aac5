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
mod bots;
mod convert;
mod ctx;
pub mod debug;
mod errors;
mod fast_interrupt;
mod hooks;
mod host;
mod limits;
mod returns;
mod sandbox;

pub use bots::BotStep;
pub use ctx::{Access, CallCtx};
pub use errors::{ErrorContext, PlayoutAt, ScriptError};
pub use hooks::{HOOKS, HookPart, HookStep};
pub use limits::{CallStats, Limits, Profile, SAFETY_TIME};

pub use host::Host;
