//! Counters and variables: `game.counter`, `game.set_counter`, `game.add_counter`,
//! `game.get`, `game.set` and `game.set_secret`; and the game's own figures, `game.stat`.

use std::collections::HashMap;

use mlua::{Function, Lua, Table, Value as LuaValue};

use super::{R, err, note_held, room_for, seat_arg, short, with, with_mut, with_tables};
use crate::script::convert::{from_lua, to_lua};
use crate::script::{Access, CallCtx};
use crate::state::{Seen, Var};
use crate::value::Value;

/// How much the game's variables may hold in all (as [`Value::footprint`] counts).
pub const MAX_VARS_SIZE: usize = 16 << 20;

/// The most figures `game.stat` keeps for one game, and the longest name it takes (bytes):
/// what a game's figures hold stays small however a script calls it.
pub const MAX_STATS: usize = 32;
pub const MAX_STAT_NAME: usize = 64;

/// (name, Luau signature, what it does), in the order the stubs list them.
pub const API: &[(&str, &str, &str)] = &[
    (
        "counter",
        "(id: string, seat: number?) -> number",
        "Value of a counter (seat counters need the seat).",
    ),
    (
        "set_counter",
        "((id: string, value: number) -> number) & ((id: string, seat: number, value: number) -> number)",
        "Set a counter, kept within its min and max; returns the value set. A global counter takes (id, value), a seat counter (id, seat, value).",
    ),
    (
        "add_counter",
        "((id: string, delta: number) -> number) & ((id: string, seat: number, delta: number) -> number)",
        "Add to a counter, kept within its min and max; returns the new value. A global counter takes (id, delta), a seat counter (id, seat, delta).",
    ),
    (
        "get",
        "(name: string) -> any",
        "A game variable (nil if unset). Bots and the actions and describe hooks read as their seat: a secret that seat may not see is nil.",
    ),
    (
        "set",
        "(name: string, value: any) -> ()",
        "Set a public game variable (plain data: numbers, strings, booleans, tables).",
    ),
    (
        "set_secret",
        "(name: string, value: any, seat: number?) -> ()",
        "Set a variable only `seat` may see (nobody, without a seat).",
    ),
    (
        "stat",
        "(name: string, value: number?) -> number?",
        "Rules only: record a figure of this game for outcome runs (`farebox sim`, `farebox test`, the Studio), which summarise each over the games played; the last value set counts. Without a value, the value set so far (nil if none). Names are 1 to 64 letters, digits, `-` or `_`; at most 32 per game. No seat's view shows them.",
    ),
];

pub(super) fn register(lua: &Lua, t: &Table) -> R<()> {
    reg!(lua, t, "counter", |_, (id, seat): (String, Option<i64>)| {
        with(|c| counter_of(c, &id, seat))
    });
    reg!(lua, t, "set_counter", |_,
                                 (id, seat, value): (
        String,
        LuaValue,
        Option<i64>
    )| with_mut("set_counter", |c| {
        let (seat, value) = two_forms(seat, value, "game.set_counter's value")?;
        let (ci, slot) = counter_slot(c, &id, seat)?;
        let v = clamp(c, ci, value);
        if let Some(x) = c.state.counters.get_mut(ci).and_then(|v| v.get_mut(slot)) {
            *x = v;
        }
        Ok(v)
    }));
    reg!(lua, t, "add_counter", |_,
                                 (id, seat, delta): (
        String,
        LuaValue,
        Option<i64>
    )| with_mut("add_counter", |c| {
        let (seat, delta) = two_forms(seat, delta, "game.add_counter's amount")?;
        let (ci, slot) = counter_slot(c, &id, seat)?;
        let old = c
            .state
            .counters
            .get(ci)
            .and_then(|v| v.get(slot))
            .copied()
            .unwrap_or(0);
        let v = clamp(c, ci, old.saturating_add(delta));
        if let Some(x) = c.state.counters.get_mut(ci).and_then(|v| v.get_mut(slot)) {
            *x = v;
        }
        Ok(v)
    }));
    reg!(lua, t, "get", |lua, name: String| with_tables(lua, |c| {
        match var_of(c, &name)? {
            Some(v) => var_to_lua(lua, &name, v),
            None => Ok(LuaValue::Nil),
        }
    }));
    reg!(lua, t, "set", |lua, (name, value): (String, LuaValue)| {
        let v = from_lua(&value).map_err(|e| {
            mlua::Error::RuntimeError(format!("game.set(\"{}\"): {e}", short(&name)))
        })?;
        with_mut("set", |c| {
            let v = (v != Value::Nil).then_some(v);
            store_var(lua, c, "game.set", name, v, Seen::All)
        })
    });
    reg!(lua, t, "set_secret", |lua,
                                (name, value, seat): (
        String,
        LuaValue,
        Option<i64>
    )| {
        let v = from_lua(&value).map_err(|e| {
            mlua::Error::RuntimeError(format!("game.set_secret(\"{}\"): {e}", short(&name)))
        })?;
        with_mut("set_secret", |c| {
            let seen = match seat_arg(c, seat)? {
                Some(s) => Seen::Seat(s),
                None => Seen::Nobody,
            };
            store_var(lua, c, "game.set_secret", name, Some(v), seen)
        })
    });
    reg!(lua, t, "stat", |_,
                          (name, value): (
        mlua::LuaString,
        LuaValue
    )| {
        with(|c| {
            if c.access != Access::Rules {
                return err(
                    "game.stat is for the rules only (bots, the actions, describe and score hooks cannot record figures)",
                );
            }
            let name = stat_name(&name)?;
            let value = match value {
                LuaValue::Nil => return Ok(c.state.stats.get(&name).copied()),
                LuaValue::Integer(i) => i as f64,
                LuaValue::Number(n) if n.is_finite() => n,
                LuaValue::Number(n) => {
                    return err(format!(
                        "game.stat(\"{name}\"): the value must be a finite number, not {n}"
                    ));
                }
                other => {
                    return err(format!(
                        "game.stat(\"{name}\"): the value must be a number, not {}",
                        crate::script::returns::what(&other)
                    ));
                }
            };
            if !c.state.stats.contains_key(&name) && c.state.stats.len() >= MAX_STATS {
                return err(format!(
                    "game.stat(\"{name}\"): a game records at most {MAX_STATS} figures, and this one has them all already"
                ));
            }
            std::sync::Arc::make_mut(&mut c.state.stats).insert(name, value);
            Ok(Some(value))
        })
    });
    Ok(())
}

/// A `game.stat` name, checked before it is copied out of the VM: 1 to [`MAX_STAT_NAME`]
/// bytes of letters, digits, `-` and `_`.
fn stat_name(name: &mlua::LuaString) -> R<String> {
    let bytes = name.as_bytes();
    if bytes.is_empty() || bytes.len() > MAX_STAT_NAME {
        return err(format!(
            "game.stat: a figure's name is 1 to {MAX_STAT_NAME} characters, not {}",
            bytes.len()
        ));
    }
    if !bytes
        .iter()
        .all(|b| b.is_ascii_alphanumeric() || *b == b'-' || *b == b'_')
    {
        return err(format!(
            "game.stat(\"{}\"): a figure's name uses letters, digits, `-` and `_` only",
            short(&String::from_utf8_lossy(&bytes[..]))
        ));
    }
    Ok(String::from_utf8_lossy(&bytes[..]).into_owned())
}

/// `game.counter(id, seat)`. Shared with the raw calls.
pub(super) fn counter_of(c: &CallCtx, id: &str, seat: Option<i64>) -> R<i64> {
    let (ci, slot) = counter_slot(c, id, seat)?;
    Ok(c.state
        .counters
        .get(ci)
        .and_then(|v| v.get(slot))
        .copied()
        .unwrap_or(0))
}

/// `game.get(name)`: the variable's value as the caller may see it (None reads as nil).
/// Shared with the raw calls.
pub(super) fn var_of<'a>(c: &'a CallCtx, name: &str) -> R<Option<&'a Value>> {
    match c.state.vars.get(name) {
        Some(v) if c.access.may_see(v.seen) => Ok(Some(&v.value)),
        Some(_) => Ok(None),
        None => match &c.state.unknown {
            Some(u) if c.access == Access::Rules && u.names.contains(name) => err(format!(
                "game.get(\"{}\"): this game is imagined for seat {}'s lookahead, and that seat may not know this secret; give the rules an `imagine(game, seat)` hook that sets it to a value the seat could believe",
                short(name),
                u.seat as u32 + 1
            )),
            _ => Ok(None),
        },
    }
}

fn counter_slot(ctx: &CallCtx, id: &str, seat: Option<i64>) -> R<(usize, usize)> {
    let Some(c) = ctx.def.counter(id) else {
        let hint = crate::diag::suggestion(id, ctx.def.counters.iter().map(|c| c.id.as_str()));
        return err(format!("no counter `{id}`{hint}"));
    };
    let per_seat = ctx.state.counters.get(c).is_some_and(|v| v.len() > 1)
        || ctx.def.counters[c].scope == crate::content::def::Scope::Seat;
    let slot = if per_seat {
        match seat_arg(ctx, seat)? {
            Some(s) => s as usize,
            None => {
                return err(format!(
                    "counter `{id}` belongs to each seat: give the seat"
                ));
            }
        }
    } else {
        0
    };
    Ok((c, slot))
}

fn clamp(ctx: &CallCtx, c: usize, v: i64) -> i64 {
    let d = &ctx.def.counters[c];
    let v = d.min.map_or(v, |m| v.max(m));
    d.max.map_or(v, |m| v.min(m))
}

/// `f(id, seat, value)` and `f(id, value)` both work for global counters. `what` names the
/// function and its number ("game.add_counter's amount") for the error.
fn two_forms(seat: LuaValue, value: Option<i64>, what: &str) -> R<(Option<i64>, i64)> {
    let as_int = |v: &LuaValue| {
        v.as_integer()
            .or_else(|| v.as_number().filter(|n| n.fract() == 0.0).map(|n| n as i64))
    };
    match (value, &seat) {
        (Some(v), LuaValue::Nil) => Ok((None, v)),
        (Some(v), s) => as_int(s).map_or_else(
            || {
                err(format!(
                    "{what}: the seat must be a whole number, not {}",
                    crate::script::returns::what(s)
                ))
            },
            |s| Ok((Some(s), v)),
        ),
        (None, s) => as_int(s).map_or_else(
            || {
                err(format!(
                    "{what} must be a whole number, not {}",
                    match s {
                        LuaValue::Number(_) => "a fraction or a number out of range".to_string(),
                        other => crate::script::returns::what(other),
                    }
                ))
            },
            |v| Ok((None, v)),
        ),
    }
}

/// Sets (or with None, removes) variable `name`, refusing to let all the variables together
/// grow past [`MAX_VARS_SIZE`], or the game past its memory limit.
fn store_var(
    lua: &Lua,
    c: &mut CallCtx,
    what: &str,
    name: String,
    v: Option<Value>,
    seen: Seen,
) -> R<()> {
    let old = c.state.vars.get(&name).map_or(0, |v| v.size);
    let Some(value) = v else {
        if old > 0 || c.state.vars.contains_key(&name) {
            std::sync::Arc::make_mut(&mut c.state.vars).remove(&name);
            c.state.vars_bytes = c.state.vars_bytes.saturating_sub(old);
            note_held(lua, c);
        }
        return Ok(());
    };
    let size = name.len() + value.footprint();
    let others = c.state.vars_bytes.saturating_sub(old);
    if others + size > MAX_VARS_SIZE {
        return err(format!(
            "{what}(\"{}\"): the game's variables would take {} KiB, more than the {} MiB they may hold in all",
            short(&name),
            (others + size) >> 10,
            MAX_VARS_SIZE >> 20
        ));
    }
    if size > old {
        room_for(lua, c, size - old)?;
    }
    std::sync::Arc::make_mut(&mut c.state.vars)
        .insert(name, std::sync::Arc::new(Var::new(value, seen, size)));
    c.state.vars_bytes = others + size;
    if size < old {
        note_held(lua, c);
    }
    Ok(())
}

/// The tables `game.get` last built for the game's variables, kept in the VM (never handed
/// out) with the value each was built from, so that reading a variable that has not changed
/// copies a table inside the VM (`table.clone`, once per table of the value) instead of
/// building it again entry by entry through mlua. Rules read the same variables many times a
/// decision (Dicey Curves reads some 90 values' worth a decision). A copy has the same entries,
/// and the same order of iteration, as a table built afresh (`table.clone` copies the layout),
/// and it is the script's own: changing it changes neither the variable nor the next copy.
///
/// Only values of at most [`CACHED_VALUE`] bytes are kept, and at most [`CACHED_ALL`] in all
/// (the cache starts again empty when it would hold more), so what it keeps in the VM's memory
/// stays small against any memory limit.
pub(in crate::script) struct VarCache {
    clone: Function,
    held: usize,
    tables: HashMap<String, (Value, Option<Table>)>,
}

/// The largest value (by [`Value::footprint`]) and the most in all that [`VarCache`] keeps.
const CACHED_VALUE: usize = 16 << 10;
const CACHED_ALL: usize = 256 << 10;

impl VarCache {
    /// A cache whose copies are made by `clone` (Luau's own `table.clone`, taken before the
    /// sandbox wraps it).
    pub(in crate::script) fn new(clone: Function) -> Self {
        Self {
            clone,
            held: 0,
            tables: HashMap::new(),
        }
    }

    /// An empty cache copying the same way (for a reset VM).
    pub(in crate::script) fn emptied(&self) -> Self {
        Self::new(self.clone.clone())
    }
}

/// Variable `name`, whose value is `v`, as a fresh Luau value (see [`VarCache`]). The first
/// read of a value builds the table as before and only notes the value; a second read of the
/// same value builds the table kept and hands out a copy, as every later read does. So a
/// variable read once between changes costs what it did without the cache.
fn var_to_lua(lua: &Lua, name: &str, v: &Value) -> R<LuaValue> {
    if !matches!(v, Value::List(_) | Value::Map(_)) {
        return to_lua(lua, v);
    }
    let (clone, master) = {
        let Some(mut cache) = lua.app_data_mut::<VarCache>() else {
            return to_lua(lua, v);
        };
        match cache.tables.get(name) {
            Some((was, master)) if was == v => (cache.clone.clone(), master.clone()),
            _ => {
                let size = name.len() + v.footprint();
                if let Some((was, _)) = cache.tables.remove(name) {
                    cache.held -= name.len() + was.footprint();
                }
                if size <= CACHED_VALUE {
                    if cache.held + size > CACHED_ALL {
                        cache.tables.clear();
                        cache.held = 0;
                    }
                    cache.held += size;
                    cache.tables.insert(name.to_string(), (v.clone(), None));
                }
                drop(cache);
                return to_lua(lua, v);
            }
        }
    };
    let master = match master {
        Some(m) => m,
        None => {
            let LuaValue::Table(m) = to_lua(lua, v)? else {
                return to_lua(lua, v);
            };
            if let Some(mut cache) = lua.app_data_mut::<VarCache>()
                && let Some(entry) = cache.tables.get_mut(name)
            {
                entry.1 = Some(m.clone());
            }
            m
        }
    };
    copy_of(&clone, &master, v).map(LuaValue::Table)
}

/// A copy of `master`, the table built from `v`, and of every table inside it.
fn copy_of(clone: &Function, master: &Table, v: &Value) -> R<Table> {
    let t: Table = clone.call(master)?;
    let nested = |x: &Value| matches!(x, Value::List(_) | Value::Map(_));
    match v {
        Value::List(l) => {
            for (i, x) in l.iter().enumerate().filter(|(_, x)| nested(x)) {
                let inner: Table = master.raw_get(i + 1)?;
                t.raw_set(i + 1, copy_of(clone, &inner, x)?)?;
            }
        }
        Value::Map(m) => {
            for (k, x) in m.iter().filter(|(_, x)| nested(x)) {
                let inner: Table = master.raw_get(k.as_str())?;
                t.raw_set(k.as_str(), copy_of(clone, &inner, x)?)?;
            }
        }
        _ => {}
    }
    Ok(t)
}
