//! The hottest reads of the `game` API as raw C functions: with `fast_interrupt.rs`, the only
//! code of the engine allowed to be unsafe.
//!
//! A `game` call made through mlua's callback machinery costs some 700 to 1,000 instructions
//! before and after the few dozen the read itself takes (the callback's error-catching
//! wrapper, reference handling, the arguments converted into Rust values and the result
//! back). Rules make about fifty calls a decision, most of them reads of one number
//! (`game.where_is`, `game.prop`, `game.counter`...), and Curbside four `game.ray`s, whose
//! stop table and list of cells mlua handled entry by entry. For those, [`install`] puts a
//! plain C function in front of the registered one, which keeps the registered function as
//! its one upvalue. `game.get` is not among them: most variables the bundled games read are
//! tables, which only the registered function makes, and trying the plain case first cost
//! such a read some 500 instructions more.
//!
//! The C function handles only the plain case: arguments of exactly the kinds the signature
//! names (a number with a whole value, a string of valid UTF-8, nil or nothing for an
//! optional seat, nil, nothing or a table for a stop set), a read that succeeds, and a result
//! that is nil, a boolean, a number or (`game.ray`) a list of numbers. In every other case (a
//! wrong argument, a bad handle, a call outside a hook, a string or table to return, a panic)
//! it calls the registered function with the same arguments and returns what that returns or
//! raises, so every error, message and table is the registered function's own. Both sides
//! read through the same functions (`where_is_of`, `prop_of`, `counter_of`, `count_of`,
//! `ray_of`), so they cannot disagree. The API stays one registry: the names and signatures,
//! the stubs and the test that every documented function is registered are unchanged. The
//! module also fills the grid layers' tables (`tables.rs`).
//!
//! Safety, call by call of the C API:
//!
//! - Luau calls a C function with its arguments at stack indices 1..=n and at least
//!   `LUA_MINSTACK` (20) free slots above them; the fast path pushes one value and the
//!   fallback one (the registered function), so no `lua_checkstack` is needed.
//! - `lua_type`, `lua_tonumberx`, `lua_tolstring` read arguments only after their type was
//!   checked; the string's bytes are read while the string sits on the stack (the caller's
//!   argument, so the collector cannot free it) and nothing runs Lua in between.
//! - Pushing nil, a boolean or a number allocates nothing, so it cannot raise a Lua error in
//!   a Rust frame. The one table made (`game.ray`'s list) is made with the VM's memory limit
//!   lifted, as the registered function makes it, and with room for every entry, so only the
//!   machine running out of memory could raise there (the error then unwinds through the
//!   `C-unwind` frame as below, dropping the list of cells on its way). Stop tables are read
//!   with `lua_rawgeti`, which runs no metamethod, allocates nothing and never raises.
//! - No Rust value that owns memory is alive when the fallback calls `lua_call`, whose errors
//!   (raised by the registered function as mlua raises them, as C++ exceptions, this Luau
//!   being built without longjmp) unwind through the `C-unwind` frame.
//! - The Rust read runs under `catch_unwind`, so a panic never crosses into Luau: a panic
//!   sends the call to the registered function, which reports it as mlua does.
//! - The read borrows the lent context shared (`try_borrow`): a call while the context is
//!   borrowed (which the API never does) falls back and gets the registered function's error.
//! - Steps are unchanged: Luau's interrupt runs at Luau function entries and loop edges, never
//!   for a C function, whether called by a script or by another C function.
//!
//! Tests: `engine/tests/scripts/raw_calls.rs` runs every call here in its plain case and in
//! each of its fallbacks against what the registered function answers.
#![allow(unsafe_code)]

use std::ffi::c_int;
use std::panic::{AssertUnwindSafe, catch_unwind};

use mlua::{Function, Lua, Table, ffi};

use super::{CALLS, LENT, R, lifted};

pub(super) mod tables;
use crate::script::CallCtx;
use crate::value::Value;

type Raw = unsafe extern "C-unwind" fn(*mut ffi::lua_State) -> c_int;

/// The calls made raw, each with its C function.
const RAW: &[(&str, Raw)] = &[
    ("where_is", where_is),
    ("prop", prop),
    ("counter", counter),
    ("count", count),
    ("seats", seats),
    ("is_over", is_over),
    ("ray", ray),
];

thread_local! {
    /// Calls the C functions answered themselves on this thread (see [`raw_answers`]).
    static ANSWERED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many `game` calls this thread's raw C functions answered without the registered
/// function: tests take the difference over a call to see which way it went.
pub fn raw_answers() -> u64 {
    ANSWERED.with(std::cell::Cell::get)
}

/// Replaces each raw call's registered function in `t` by its C function, which keeps the
/// registered one as its upvalue.
pub(super) fn install(lua: &Lua, t: &Table) -> R<()> {
    for &(name, f) in RAW {
        let slow: Function = t.raw_get(name)?;
        // SAFETY: `exec_raw` pushes `slow` and runs the closure in a protected call with it on
        // the stack; `lua_pushcclosurek` pops it as the upvalue and pushes the new function,
        // the one result `exec_raw` takes back. `f` is an `extern "C-unwind"` function of
        // this module, valid for the whole program.
        let fast: Function = unsafe {
            lua.exec_raw(slow, move |state| {
                ffi::lua_pushcclosurek(state, f, std::ptr::null(), 1, None);
            })
        }?;
        t.raw_set(name, fast)?;
    }
    Ok(())
}

/// A result the C functions push themselves.
enum Out {
    Nil,
    Bool(bool),
    Num(f64),
}

impl Out {
    /// A value of a property or variable, when it is one the fast path returns.
    fn of(v: Option<&Value>) -> Option<Out> {
        Some(match v {
            None | Some(Value::Nil) => Out::Nil,
            Some(Value::Bool(b)) => Out::Bool(*b),
            // As mlua pushes an integer into Luau: as a number.
            Some(Value::Int(i)) => Out::Num(*i as f64),
            Some(Value::Num(n)) => Out::Num(*n),
            Some(_) => return None,
        })
    }
}

/// Runs `f` on the lent context; None where the registered function must answer instead.
fn read(f: impl FnOnce(&CallCtx) -> Option<Out>) -> Option<Out> {
    let out = catch_unwind(AssertUnwindSafe(|| {
        LENT.with(|slot| {
            let lent = slot.try_borrow().ok()?;
            f(lent.as_ref()?)
        })
    }))
    .ok()
    .flatten();
    if out.is_some() {
        CALLS.with(|c| c.set(c.get().wrapping_add(1)));
        ANSWERED.with(|c| c.set(c.get().wrapping_add(1)));
    }
    out
}

/// Argument `i` as mlua reads an `i64` from a number with a whole value; None otherwise.
///
/// # Safety
/// `l` is the running state of a C function call.
unsafe fn whole(l: *mut ffi::lua_State, i: c_int) -> Option<i64> {
    // SAFETY: as the caller promises; the number is read only once its type is known.
    unsafe {
        if ffi::lua_type(l, i) != ffi::LUA_TNUMBER {
            return None;
        }
        let n = ffi::lua_tonumberx(l, i, std::ptr::null_mut());
        // Inside i64's range, where mlua's cast succeeds too.
        (n == n.trunc() && (-9.0e18..=9.0e18).contains(&n)).then_some(n as i64)
    }
}

/// Argument `i` as an optional whole number: nil or nothing is None.
///
/// # Safety
/// As [`whole`].
unsafe fn seat(l: *mut ffi::lua_State, i: c_int) -> Option<Option<i64>> {
    // SAFETY: as the caller promises.
    unsafe {
        match ffi::lua_type(l, i) {
            ffi::LUA_TNONE | ffi::LUA_TNIL => Some(None),
            _ => whole(l, i).map(Some),
        }
    }
}

/// Argument `i` as a string of valid UTF-8, borrowed from the stack.
///
/// # Safety
/// As [`whole`]; the string is used only while the argument stays on the stack and before
/// anything runs Lua.
unsafe fn text<'a>(l: *mut ffi::lua_State, i: c_int) -> Option<&'a str> {
    // SAFETY: as the caller promises; `lua_tolstring` of a string gives its bytes and length.
    unsafe {
        if ffi::lua_type(l, i) != ffi::LUA_TSTRING {
            return None;
        }
        let mut len = 0usize;
        let p = ffi::lua_tolstring(l, i, &mut len);
        if p.is_null() {
            return None;
        }
        std::str::from_utf8(std::slice::from_raw_parts(p.cast::<u8>(), len)).ok()
    }
}

/// Pushes `got` and returns 1, or hands the call to the registered function.
///
/// # Safety
/// `l` is the running state of a call of one of [`RAW`]'s functions, made by [`install`].
unsafe fn answer(l: *mut ffi::lua_State, got: Option<Out>) -> c_int {
    // SAFETY: as the caller promises; a C function has LUA_MINSTACK free slots.
    unsafe {
        match got {
            Some(Out::Nil) => ffi::lua_pushnil(l),
            Some(Out::Bool(b)) => ffi::lua_pushboolean(l, b as c_int),
            Some(Out::Num(n)) => ffi::lua_pushnumber(l, n),
            None => return registered(l),
        }
    }
    1
}

/// Calls the registered function (the upvalue) with this call's arguments and returns all it
/// returns; what it raises goes on up. Nothing that needs dropping is alive here.
///
/// # Safety
/// As [`answer`].
unsafe fn registered(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: as the caller promises: upvalue 1 is the registered function (see `install`);
    // it goes below the arguments and `lua_call` replaces it and them by its results.
    unsafe {
        let n = ffi::lua_gettop(l);
        ffi::lua_pushvalue(l, ffi::lua_upvalueindex(1));
        ffi::lua_insert(l, 1);
        ffi::lua_call(l, n, ffi::LUA_MULTRET);
        ffi::lua_gettop(l)
    }
}

unsafe extern "C-unwind" fn where_is(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: Luau calls this with its running state, as one of RAW's functions.
    unsafe {
        let got = whole(l, 1).and_then(|p| {
            read(|c| {
                let at = super::pieces::where_is_of(c, p).ok()?;
                Some(at.map_or(Out::Nil, |s| Out::Num(s as f64)))
            })
        });
        answer(l, got)
    }
}

unsafe extern "C-unwind" fn prop(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: as `where_is`.
    unsafe {
        let got = match (whole(l, 1), text(l, 2)) {
            (Some(p), Some(key)) => read(|c| Out::of(super::pieces::prop_of(c, p, key).ok()?)),
            _ => None,
        };
        answer(l, got)
    }
}

unsafe extern "C-unwind" fn counter(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: as `where_is`.
    unsafe {
        let got = match (text(l, 1), seat(l, 2)) {
            (Some(id), Some(s)) => read(|c| {
                let v = super::values::counter_of(c, id, s).ok()?;
                Some(Out::Num(v as f64))
            }),
            _ => None,
        };
        answer(l, got)
    }
}

unsafe extern "C-unwind" fn count(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: as `where_is`.
    unsafe {
        let got = whole(l, 1)
            .and_then(|z| read(|c| Some(Out::Num(super::cards::count_of(c, z).ok()? as f64))));
        answer(l, got)
    }
}

unsafe extern "C-unwind" fn seats(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: as `where_is`.
    unsafe { answer(l, read(|c| Some(Out::Num(c.state.seats as f64)))) }
}

unsafe extern "C-unwind" fn is_over(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: as `where_is`.
    unsafe { answer(l, read(|c| Some(Out::Bool(c.state.result.is_some())))) }
}

unsafe extern "C-unwind" fn ray(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: as `where_is`; see `ray_cells` and `push_cells`. In the fallback nothing that
    // owns memory is alive in this frame.
    unsafe {
        match ray_cells(l) {
            Some(cells) => push_cells(l, cells),
            None => registered(l),
        }
    }
}

/// The cells (from 0) of `game.ray`'s plain case, or None for the registered function.
///
/// # Safety
/// As [`answer`]. The stop table (argument 4, when a table) is read with `lua_rawgeti`,
/// which pushes one value and never raises (no metamethod runs, nothing is allocated); the
/// value is popped before the next read.
unsafe fn ray_cells(l: *mut ffi::lua_State) -> Option<Vec<u32>> {
    // SAFETY: as the caller promises.
    unsafe {
        let stop = match ffi::lua_type(l, 4) {
            ffi::LUA_TNONE | ffi::LUA_TNIL => false,
            ffi::LUA_TTABLE => true,
            _ => return None,
        };
        let (s, side, max) = (whole(l, 1)?, text(l, 2)?, whole(l, 3)?);
        let hit = |x: u32| {
            if !stop {
                return false;
            }
            let Ok(key) = c_int::try_from(u64::from(x) + 1) else {
                return false;
            };
            ffi::lua_rawgeti_(l, 4, key);
            let yes = ffi::lua_toboolean(l, -1) != 0;
            ffi::lua_settop(l, -2);
            yes
        };
        let mut cells = None;
        read(|c| {
            cells = super::ray_of(c, s, side, max, &hit).ok();
            cells.as_ref().map(|_| Out::Nil)
        })?;
        cells.filter(|c| c.len() < c_int::MAX as usize)
    }
}

/// Pushes `cells` (from 0) as a new list of cells (from 1) and returns 1.
///
/// # Safety
/// As [`answer`]. The table is made with room for every entry in its array part and the
/// VM's memory limit lifted, as the registered function makes it: only the machine running
/// out of memory could make `lua_createtable` raise, and that error would unwind through this
/// `C-unwind` frame, dropping `cells`.
unsafe fn push_cells(l: *mut ffi::lua_State, cells: Vec<u32>) -> c_int {
    // SAFETY: as the caller promises; `get_or_init_from_ptr` gives the VM this state belongs
    // to (its own, as the VM is running this call).
    unsafe {
        let lua = Lua::get_or_init_from_ptr(l);
        lifted(lua, || {
            ffi::lua_createtable(l, cells.len() as c_int, 0);
            for (i, x) in cells.iter().enumerate() {
                ffi::lua_pushnumber(l, f64::from(*x) + 1.0);
                ffi::lua_rawseti_(l, -2, i as c_int + 1);
            }
        });
    }
    1
}
