//! The `game` API: the only way scripts reach the state.
//!
//! Conventions: call with a dot (`game.roll(6)`); seats, spaces, zones and pieces are numbered
//! from 1; functions that change the state fail when a bot calls them. Bots and the `actions`
//! and `describe` hooks read through their seat's view (see [`super::Access::Seat`]).
//!
//! The functions are split by what they touch; each submodule lists its functions in its own
//! `API` (name, signature and a sentence of documentation) and registers them:
//!
//! - `turn.rs`: seats and turns, the end of the game, the log, dice and `math.random`;
//! - `values.rs`: counters and variables;
//! - `cards.rs`: zones and their cards;
//! - `pieces.rs`: pieces and their properties;
//! - `board.rs`: spaces, walks and the grid (cells, tiles, blockers);
//! - `track.rs`: the track of laid pieces.
//!
//! This module holds what they share: the context lent to the running hook (`lend`), the
//! helpers that reach it (`with`, `with_mut`, `with_tables`, `lifted`) and read arguments,
//! and [`API`], the submodules' lists joined in the order above. The Luau type stubs for script
//! authors are generated from [`API`] (see [`crate::schema::lua_stubs`]), and a test checks the
//! list and the registered functions agree.

use std::cell::{Cell, RefCell};

use mlua::{Lua, Table, Value as LuaValue};

use super::{Access, CallCtx};

macro_rules! reg {
    ($lua:expr, $t:expr, $name:literal, $f:expr) => {
        $t.raw_set($name, $lua.create_function($f)?)?;
    };
}

mod board;
mod cards;
mod pieces;
mod raw;
mod track;
mod turn;
mod values;

pub(super) use board::LayerCache;
pub use pieces::MAX_PROPS_SIZE;
pub use raw::raw_answers;
pub use turn::{MAX_LOG_LINE, MAX_LOG_LINES, check_lookahead, math_random};
pub(super) use values::VarCache;
pub use values::{MAX_STAT_NAME, MAX_STATS, MAX_VARS_SIZE};

/// (name, Luau signature, what it does)
type Entry = (&'static str, &'static str, &'static str);

/// Each part of the API, in the order the stubs list them.
const PARTS: &[&[Entry]] = &[
    turn::API,
    values::API,
    cards::API,
    pieces::API,
    board::API,
    track::API,
];

/// Every function of the `game` API: the submodules' lists, one after another.
pub const API: &[Entry] = &join::<{ total(PARTS) }>(PARTS);

const fn total(parts: &[&[Entry]]) -> usize {
    let (mut n, mut i) = (0, 0);
    while i < parts.len() {
        n += parts[i].len();
        i += 1;
    }
    n
}

const fn join<const N: usize>(parts: &[&[Entry]]) -> [Entry; N] {
    let mut out: [Entry; N] = [("", "", ""); N];
    let (mut k, mut i) = (0, 0);
    while i < parts.len() {
        let mut j = 0;
        while j < parts[i].len() {
            out[k] = parts[i][j];
            k += 1;
            j += 1;
        }
        i += 1;
    }
    out
}

pub const GAME_KEY: &str = "game";

type R<T> = mlua::Result<T>;

/// Whether parameter `pos` (from 1) of `game.f` (as `call` names it: "game.finish") is a
/// list, as the API's documented signature says (`{number}`).
pub fn takes_list(call: &str, pos: usize) -> bool {
    let Some(name) = call.strip_prefix("game.") else {
        return false;
    };
    let Some((_, sig, _)) = API.iter().find(|(n, _, _)| *n == name) else {
        return false;
    };
    let params = sig
        .strip_prefix('(')
        .and_then(|s| s.split(") ->").next())
        .unwrap_or("");
    // Parameters are "name: type", split at the commas outside braces.
    let mut depth = 0i32;
    let mut index = 1;
    let mut start = 0;
    for (i, c) in params.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                if index == pos {
                    return is_list(&params[start..i]);
                }
                index += 1;
                start = i + 1;
            }
            _ => {}
        }
    }
    index == pos && is_list(&params[start..])
}

fn is_list(param: &str) -> bool {
    param
        .split_once(':')
        .is_some_and(|(_, t)| t.trim_start().starts_with('{') && !t.contains(':'))
}

fn err<T>(msg: impl Into<String>) -> R<T> {
    Err(mlua::Error::RuntimeError(msg.into()))
}

thread_local! {
    /// The context lent to the hook running on this thread. A VM lives on one thread, and a
    /// hook cannot start a hook of another VM, so one slot per thread is enough; `lend` puts
    /// back whatever was there before, so nesting would still be safe. A thread-local slot
    /// costs a few instructions per API call, where the VM's app data costs a hash lookup.
    static LENT: RefCell<Option<CallCtx>> = const { RefCell::new(None) };
}

thread_local! {
    /// Calls of the `game` API made on this thread, for profiles (see [`calls_made`]).
    static CALLS: Cell<u64> = const { Cell::new(0) };
}

/// How many calls of the `game` API this thread has made; a profile takes the difference
/// over a hook call.
pub(super) fn calls_made() -> u64 {
    CALLS.with(Cell::get)
}

/// Lends `ctx` to the `game` API while `f` runs, and takes it back.
pub(super) fn lend<T>(ctx: CallCtx, f: impl FnOnce() -> T) -> (Option<CallCtx>, T) {
    let before = LENT.with(|slot| slot.replace(Some(ctx)));
    let out = f();
    let ctx = LENT.with(|slot| slot.replace(before));
    (ctx, out)
}

/// The VM's memory limit as the API sees it, kept as the VM's app data by `Host::new`: what
/// the game holds outside the VM ([`CallCtx::held`]) shares `limit` with the VM, so `room`
/// (read by the interrupt) is what the VM may hold now, and `stop` ends the running call at
/// the limit (so a `pcall` cannot go on past it), returning the error to raise.
pub(super) struct Guard {
    pub limit: usize,
    pub room: std::rc::Rc<Cell<usize>>,
    pub stop: Stop,
}

/// Ends the running call with a message: gives the error to raise.
pub(super) type Stop = Box<dyn Fn(&Lua, String) -> mlua::Error>;

/// Refuses a change that would add `more` bytes to what the game holds outside the VM when
/// that and the VM's memory together would pass the memory limit. The call ends there, as at
/// the VM's own limit (the VM's memory depends on when garbage is collected, so a script
/// must not be able to catch this and go on). Once it returns, the caller makes the change.
fn room_for(lua: &Lua, c: &CallCtx, more: usize) -> R<()> {
    let Some(guard) = lua.app_data_ref::<Guard>() else {
        return Ok(());
    };
    let used = lua.used_memory();
    let held = c.held() + more;
    if used + held <= guard.limit {
        // The change is made next: the interrupt gives the VM that much less room.
        guard.room.set(guard.limit - held);
        return Ok(());
    }
    let message = over_limit_of(guard.limit, used, Some(c), more);
    Err((guard.stop)(lua, message))
}

/// Tells the interrupt how much room the VM has left after what the game holds outside it
/// shrank (see [`Guard`]; [`room_for`] does it for growth).
fn note_held(lua: &Lua, c: &CallCtx) {
    if let Some(guard) = lua.app_data_ref::<Guard>() {
        guard.room.set(guard.limit.saturating_sub(c.held()));
    }
}

/// "memory limit of 64 MiB exceeded", saying what holds the memory when the game holds much
/// of it outside the VM: for the interrupt, which has found the VM's `used` bytes and what
/// the game holds together past `limit`.
pub(super) fn over_limit(limit: usize, used: usize) -> String {
    LENT.with(|slot| match slot.try_borrow() {
        Ok(lent) => over_limit_of(limit, used, lent.as_ref(), 0),
        Err(_) => over_limit_of(limit, used, None, 0),
    })
}

fn over_limit_of(limit: usize, used: usize, c: Option<&CallCtx>, more: usize) -> String {
    let head = format!("memory limit of {} MiB exceeded", limit >> 20);
    let Some(c) = c else {
        return head;
    };
    if c.held() + more < 1 << 20 {
        return head;
    }
    let mut parts = [
        ("the game's log holds", c.log.bytes()),
        ("its variables hold", c.state.vars_bytes),
        ("its pieces' properties hold", c.state.props_bytes),
        ("the actions taken so far hold", c.actions_bytes),
        ("the bot's tries under way hold", c.tries_bytes),
        ("the scripts' own values hold", used),
    ];
    parts.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
    let said: Vec<String> = parts
        .iter()
        .filter(|(_, n)| *n >= 1 << 20)
        .map(|(what, n)| format!("{what} {}", mib(*n)))
        .collect();
    if said.is_empty() {
        return head;
    }
    format!("{head}: {}", said.join(", "))
}

/// Bytes as MiB for a message: whole MiB from 10 on, else with a tenth.
fn mib(bytes: usize) -> String {
    let m = bytes as f64 / (1u64 << 20) as f64;
    if m >= 10.0 {
        format!("{m:.0} MiB")
    } else {
        format!("{m:.1} MiB")
    }
}

/// Runs `f` on the lent context.
#[inline(always)]
fn with<T>(f: impl FnOnce(&mut CallCtx) -> R<T>) -> R<T> {
    CALLS.with(|c| c.set(c.get().wrapping_add(1)));
    LENT.with(|slot| match slot.try_borrow_mut() {
        Ok(mut lent) => match lent.as_mut() {
            Some(ctx) => f(ctx),
            None => err("the game is not available here (scripts may use it only inside hooks)"),
        },
        Err(_) => err("the game API was called again while a call to it was still running"),
    })
}

/// Runs `f` on the lent context with the VM's memory limit lifted, for calls that build
/// tables. Everything `f` allocates in the VM is bounded by the game's content and state, not
/// by what a script asks for, and with a limit in place mlua guards every single table insert
/// with a protected call, which made building a table of a few dozen entries the most expensive
/// part of many API calls. The limit is back before control returns to the script.
#[inline(always)]
fn with_tables<T>(lua: &Lua, f: impl FnOnce(&mut CallCtx) -> R<T>) -> R<T> {
    lifted(lua, || with(f))
}

/// Runs `f` with the VM's memory limit lifted (see [`with_tables`]).
#[inline(always)]
pub(super) fn lifted<T>(lua: &Lua, f: impl FnOnce() -> T) -> T {
    struct Restore<'a>(&'a Lua, usize);
    impl Drop for Restore<'_> {
        fn drop(&mut self) {
            let _ = self.0.set_memory_limit(self.1);
        }
    }
    let _restore = Restore(lua, lua.set_memory_limit(0).unwrap_or(0));
    f()
}

/// A name or id from the content (or nil) as a Luau string. Made with the memory limit
/// lifted, like tables: under a limit mlua makes every string in a protected call, which costs
/// more than the string. Content strings are bounded by the content, not by the script.
fn text(lua: &Lua, s: Option<String>) -> R<LuaValue> {
    match s {
        Some(s) => lifted(lua, || lua.create_string(s)).map(LuaValue::String),
        None => Ok(LuaValue::Nil),
    }
}

/// Runs `f` on the lent context, refusing bots.
fn with_mut<T>(name: &str, f: impl FnOnce(&mut CallCtx) -> R<T>) -> R<T> {
    with(|ctx| {
        if ctx.access.read_only() {
            let who = match ctx.access {
                Access::ReadOnly => "the score hook and the console only read",
                _ => "bots and the actions and describe hooks only read",
            };
            return err(format!(
                "game.{name} changes the game; it cannot be used here ({who})"
            ));
        }
        f(ctx)
    })
}

fn seat_arg(ctx: &CallCtx, seat: Option<i64>) -> R<Option<u8>> {
    match seat {
        None => Ok(None),
        Some(s) if s >= 1 && s <= ctx.state.seats as i64 => Ok(Some((s - 1) as u8)),
        Some(s) => err(format!(
            "there is no seat {s} (seats are 1..{})",
            ctx.state.seats
        )),
    }
}

fn space_arg(ctx: &CallCtx, s: i64) -> R<u32> {
    if s >= 1 && (s as usize) <= ctx.state.board.space_count() {
        Ok((s - 1) as u32)
    } else {
        err(format!(
            "{s} is not a space of this board (1..{})",
            ctx.state.board.space_count()
        ))
    }
}

/// `game.ray(s, side, max, stop)`: the cells (from 0) of a straight drive. Shared with the
/// raw calls.
fn ray_of(c: &CallCtx, s: i64, side: &str, max: i64, hit: &dyn Fn(u32) -> bool) -> R<Vec<u32>> {
    let s = space_arg(c, s)?;
    let side = board::side_arg(side)?;
    board::grid_only(c, "ray")?;
    Ok(c.state
        .board
        .ray(s, side, max.max(0) as u32, hit, &c.def.tiles))
}

/// A name for an error message, cut short if a script made it long.
fn short(name: &str) -> String {
    if name.len() <= 60 {
        return name.to_string();
    }
    let mut end = 60;
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &name[..end])
}

/// Builds the `game` table.
pub fn register(lua: &Lua) -> R<Table> {
    // Luau's own `table.clone`, before the sandbox wraps it, copies cached variables.
    let clone: mlua::Function = lua.globals().raw_get::<Table>("table")?.raw_get("clone")?;
    lua.set_app_data(VarCache::new(clone));
    let t = lua.create_table()?;
    turn::register(lua, &t)?;
    values::register(lua, &t)?;
    cards::register(lua, &t)?;
    pieces::register(lua, &t)?;
    board::register(lua, &t)?;
    track::register(lua, &t)?;
    // The hottest reads go through raw C functions first (see `raw/mod.rs`).
    raw::install(lua, &t)?;
    t.set_readonly(true);
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_documented_function_is_registered_and_back() {
        let lua = Lua::new();
        let t = register(&lua).unwrap();
        let mut registered: Vec<String> = t
            .pairs::<String, LuaValue>()
            .map(|p| p.unwrap().0)
            .collect();
        registered.sort();
        // game.try and game.undo are Luau wrappers `prepare_globals` adds (they stop a bot's
        // coroutine); engine/tests/play/lookahead.rs uses them.
        let mut documented: Vec<String> = API
            .iter()
            .map(|(n, _, _)| n.to_string())
            .filter(|n| n != "try" && n != "undo")
            .collect();
        documented.sort();
        assert_eq!(registered, documented);
    }
}
