//! Pieces and their properties: `game.pieces`, `game.piece_kind`, `game.owner`,
//! `game.set_owner`, `game.where_is`, `game.move_piece`, `game.pieces_at`, `game.prop` and
//! `game.set_prop`.

use mlua::{Lua, Table, Value as LuaValue};

use super::{
    R, err, note_held, room_for, seat_arg, short, space_arg, text, with, with_mut, with_tables,
};
use crate::script::CallCtx;
use crate::script::convert::{from_lua, to_lua};
use crate::value::Value;

/// How much one piece's properties may hold in all.
pub const MAX_PROPS_SIZE: usize = 1 << 20;
/// How much the properties of all pieces together may hold.
pub const MAX_ALL_PROPS_SIZE: usize = 16 << 20;

/// (name, Luau signature, what it does), in the order the stubs list them.
pub const API: &[(&str, &str, &str)] = &[
    (
        "pieces",
        "(kind: string, seat: number?) -> {number}",
        "Handles of the pieces of a kind (of one seat).",
    ),
    (
        "piece_kind",
        "(piece: number) -> string",
        "The kind (piece id) of a piece.",
    ),
    (
        "owner",
        "(piece: number) -> number?",
        "The seat owning a piece, if any.",
    ),
    (
        "set_owner",
        "(piece: number, seat: number?) -> ()",
        "Give a piece to a seat (or to nobody with nil): front ends name it as that seat's.",
    ),
    (
        "where_is",
        "(piece: number) -> number?",
        "The space a piece stands on, or nil.",
    ),
    (
        "move_piece",
        "(piece: number, space: number?) -> ()",
        "Put a piece on a space, or off the board with nil.",
    ),
    (
        "pieces_at",
        "(space: number) -> {number}",
        "Pieces standing on a space.",
    ),
    (
        "prop",
        "(piece: number, key: string) -> any",
        "A property of a piece (its own, else its kind's).",
    ),
    (
        "set_prop",
        "(piece: number, key: string, value: any) -> ()",
        "Set a property of one piece.",
    ),
];

pub(super) fn register(lua: &Lua, t: &Table) -> R<()> {
    reg!(
        lua,
        t,
        "pieces",
        |lua, (kind, seat): (String, Option<i64>)| with_tables(lua, |c| {
            let Some(k) = c.def.piece(&kind) else {
                return err(format!(
                    "no piece `{kind}`{}",
                    crate::diag::suggestion(&kind, c.def.pieces.iter().map(|p| p.id.as_str()))
                ));
            };
            let s = seat_arg(c, seat)?;
            piece_handles(lua, c, |p| {
                p.def as usize == k && (s.is_none() || p.owner == s)
            })
        })
    );
    reg!(lua, t, "piece_kind", |lua, p: i64| {
        let kind = with(|c| {
            let p = piece_arg(c, p)?;
            Ok(c.def
                .pieces
                .get(c.state.pieces[p].def as usize)
                .map(|d| d.id.clone()))
        })?;
        text(lua, kind)
    });
    reg!(lua, t, "owner", |_, p: i64| with(|c| {
        let p = piece_arg(c, p)?;
        Ok(c.state.pieces[p].owner.map(|o| o as i64 + 1))
    }));
    reg!(lua, t, "set_owner", |_, (p, seat): (i64, Option<i64>)| {
        with_mut("set_owner", |c| {
            let p = piece_arg(c, p)?;
            let owner = seat_arg(c, seat)?;
            c.state.pieces[p].owner = owner;
            Ok(())
        })
    });
    reg!(lua, t, "where_is", |_, p: i64| with(|c| where_is_of(c, p)));
    reg!(lua, t, "move_piece", |_, (p, space): (i64, Option<i64>)| {
        with_mut("move_piece", |c| {
            let p = piece_arg(c, p)?;
            let at = match space {
                Some(s) => Some(space_arg(c, s)?),
                None => None,
            };
            c.state.pieces[p].at = at;
            Ok(())
        })
    });
    reg!(lua, t, "pieces_at", |lua, space: i64| with_tables(
        lua,
        |c| {
            let s = space_arg(c, space)?;
            piece_handles(lua, c, |p| p.at == Some(s))
        }
    ));
    reg!(lua, t, "prop", |lua, (p, key): (i64, String)| with_tables(
        lua,
        |c| prop_of(c, p, &key)?.map_or(Ok(LuaValue::Nil), |v| to_lua(lua, v))
    ));
    reg!(lua, t, "set_prop", |lua,
                              (p, key, value): (
        i64,
        String,
        LuaValue
    )| {
        let v = from_lua(&value).map_err(|e| {
            mlua::Error::RuntimeError(format!("game.set_prop({p}, \"{}\"): {e}", short(&key)))
        })?;
        with_mut("set_prop", |c| {
            let p = piece_arg(c, p)?;
            // Sizes are kept up to date change by change, so a change costs what the old and
            // new values cost to measure, however much the pieces hold.
            let entry = |k: &str, v: &Value| 32 + k.len() + v.footprint();
            let old = c.state.pieces[p]
                .props
                .get(&key)
                .map_or(0, |old| entry(&key, old));
            if v == Value::Nil {
                std::sync::Arc::make_mut(&mut c.state.pieces[p].props).remove(&key);
                c.state.pieces[p].props_bytes = c.state.pieces[p].props_bytes.saturating_sub(old);
                c.state.props_bytes = c.state.props_bytes.saturating_sub(old);
                note_held(lua, c);
            } else {
                let new = entry(&key, &v);
                let total = c.state.pieces[p].props_bytes.saturating_sub(old) + new;
                let all = c.state.props_bytes.saturating_sub(old) + new;
                if all > MAX_ALL_PROPS_SIZE {
                    return err(format!(
                        "game.set_prop({}, \"{}\"): the pieces' properties would take {} KiB in all, more than the {} KiB a game may hold",
                        p + 1,
                        short(&key),
                        all >> 10,
                        MAX_ALL_PROPS_SIZE >> 10
                    ));
                }
                if total > MAX_PROPS_SIZE {
                    return err(format!(
                        "game.set_prop({}, \"{}\"): the piece's properties would take {} KiB, more than the {} KiB one piece may hold",
                        p + 1,
                        short(&key),
                        total >> 10,
                        MAX_PROPS_SIZE >> 10
                    ));
                }
                if new > old {
                    room_for(lua, c, new - old)?;
                }
                std::sync::Arc::make_mut(&mut c.state.pieces[p].props).insert(key, v);
                c.state.pieces[p].props_bytes = total;
                c.state.props_bytes = all;
                if new < old {
                    note_held(lua, c);
                }
            }
            Ok(())
        })
    });
    Ok(())
}

/// `game.where_is(p)`: the space (from 1) piece `p` stands on. Shared with the raw calls.
pub(super) fn where_is_of(c: &CallCtx, p: i64) -> R<Option<i64>> {
    let p = piece_arg(c, p)?;
    Ok(c.state.pieces[p].at.map(|s| s as i64 + 1))
}

/// `game.prop(p, key)`: the piece's own property, else its kind's. Shared with the raw calls.
pub(super) fn prop_of<'a>(c: &'a CallCtx, p: i64, key: &str) -> R<Option<&'a Value>> {
    let p = piece_arg(c, p)?;
    let piece = &c.state.pieces[p];
    Ok(piece.props.get(key).or_else(|| {
        c.def
            .pieces
            .get(piece.def as usize)
            .and_then(|d| d.props.get(key))
    }))
}

fn piece_arg(ctx: &CallCtx, p: i64) -> R<usize> {
    if p >= 1 && (p as usize) <= ctx.state.pieces.len() {
        Ok((p - 1) as usize)
    } else {
        err(format!(
            "{p} is not a piece handle (get them with game.pieces)"
        ))
    }
}

/// The handles (1-based) of the pieces that `keep` accepts, as a sequence.
fn piece_handles(
    lua: &Lua,
    c: &CallCtx,
    keep: impl Fn(&crate::state::PieceState) -> bool,
) -> R<Table> {
    // Collected first: a sequence made from a filter cannot know its length, and grows.
    let list: Vec<i64> = c
        .state
        .pieces
        .iter()
        .enumerate()
        .filter(|(_, p)| keep(p))
        .map(|(i, _)| i as i64 + 1)
        .collect();
    lua.create_sequence_from(list)
}
