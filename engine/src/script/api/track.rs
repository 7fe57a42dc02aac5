//! The track of laid pieces (Dicey Curves' kind of board): starting it, attaching and
//! removing pieces, reading it, and the table it must stay within, from `game.start_track`
//! to `game.set_track_table`.

use mlua::{Lua, Table, Value as LuaValue};

use super::{R, err, with, with_mut, with_tables};
use crate::board::{AttachError, MAX_CLEARANCE, MAX_TRACK_PIECES, TrackError};
use crate::content::def::TrackPieceDef;
use crate::script::CallCtx;

/// (name, Luau signature, what it does), in the order the stubs list them.
pub const API: &[(&str, &str, &str)] = &[
    (
        "start_track",
        "(at: {x: number?, y: number?, heading: number?, clearance: number?}) -> ()",
        "Before the first track piece: where the track starts. `x`, `y`: the middle of the first piece's entry edge, in card lengths on the table centred at 0, 0 (x to the right, y down the table); `heading`: degrees clockwise, a multiple of 45, 0 up the table (-y) and 90 to the right (+x); `clearance`: the least gap, 0 to 1 card lengths, every new piece keeps from each piece on the table but the one it attaches to. Keys left out keep their values (a new track starts where board.toml's `[track]` says: `start_heading`, `start_from_back`, `clearance`; by default at 0, 0 heading 0 with 0.1).",
    ),
    (
        "attach_track",
        "(piece: string, opts: {force: boolean?}?) -> (number?, string?)",
        "Lay a track piece at the track's end; returns its first space, or nil and \"overlap\" (it would lie over the track, or nearer to it than the clearance) / \"off-table\" (part of it would leave the table). With `force = true` it is laid even so, and the reason it did not fit comes back beside its first space.",
    ),
    (
        "track_fits",
        "(piece: string, opts: {followed_by: {string}?}?) -> (boolean, string?)",
        "Whether a track piece would fit at the track's end: true, or false and \"overlap\" / \"off-table\" as game.attach_track says. With `followed_by` (a list of track piece ids), a piece that fits but, laid, would leave room for none of them after it gives false and \"dead-end\". Changes nothing.",
    ),
    (
        "track",
        "() -> ({{index: number, piece: string, x: number, y: number, heading: number, exit_heading: number, cx: number, cy: number, lanes: number, rows: number, first_space: number, spaces: {number}, forced: boolean, removed: boolean}}, {x: number, y: number, heading: number})",
        "The laid track, first piece first (`index` from 1), removed pieces included: each piece's id, the middle of its entry edge and its heading there (degrees, as in game.start_track), its heading at the exit, its centre, its lanes and rows, its first space and all its spaces (lane by lane, row by row), whether it was laid by force and whether it was removed; then where and in which heading the next piece attaches.",
    ),
    (
        "remove_track",
        "(index: number) -> boolean",
        "Take the laid piece at `index` (as in game.track) off the table: it no longer blocks new pieces, and its spaces keep their handles and ids but lose every edge, so nothing can enter them, and get the tag \"removed\". Fails while a piece stands on it. Returns false if it was removed before.",
    ),
    (
        "clear_track_before",
        "(index: number) -> number",
        "Remove (as game.remove_track) every laid piece before the one at `index`; returns how many of them were still on the table.",
    ),
    (
        "set_track_table",
        "(width: number, height: number) -> ()",
        "Set the play area (in card lengths) the track must stay within, e.g. from a table-size option at setup; pieces already laid stay where they are, and a start board.toml gives (not one set by `game.start_track`) moves with the table.",
    ),
];

// One piece: the track's half of the `game` API, one `reg!` per function in the order of
// `API` above; each entry stands alone.
pub(super) fn register(lua: &Lua, t: &Table) -> R<()> {
    reg!(lua, t, "start_track", |_, at: Table| with_mut(
        "start_track",
        |c| {
            let Some(track) = c.state.board.track.as_ref() else {
                return err("game.start_track: this board is not a track");
            };
            only_keys(&at, "start_track", &["x", "y", "heading", "clearance"])?;
            let (x0, y0, h0) = track.end;
            let x = number_key(&at, "start_track", "x")?.unwrap_or(x0);
            let y = number_key(&at, "start_track", "y")?.unwrap_or(y0);
            let heading = match number_key(&at, "start_track", "heading")? {
                None => h0,
                Some(h) if h.is_finite() && h % 45.0 == 0.0 && h.abs() <= 1e6 => (h / 45.0) as i32,
                Some(h) => {
                    return err(format!(
                        "game.start_track: heading is in degrees and a multiple of 45 (0 up the table, 90 to the right), not {h}"
                    ));
                }
            };
            let clearance = number_key(&at, "start_track", "clearance")?;
            match c.state.board.start_track(x, y, heading, clearance) {
                Ok(()) => Ok(()),
                Err(TrackError::AlreadyStarted) => err(
                    "game.start_track: the track has pieces already; it can only be started before the first",
                ),
                Err(TrackError::BadStart) => err(format!(
                    "game.start_track: x and y must be numbers, not {x} and {y}"
                )),
                Err(TrackError::BadClearance) => err(format!(
                    "game.start_track: clearance must be from 0 to {MAX_CLEARANCE} card lengths, not {}",
                    clearance.unwrap_or(f64::NAN)
                )),
                Err(TrackError::NoTrack) => err("game.start_track: this board is not a track"),
            }
        }
    ));
    reg!(lua, t, "attach_track", |_,
                                  (id, opts): (
        String,
        Option<Table>
    )| with_mut(
        "attach_track",
        |c| {
            let force = match &opts {
                None => false,
                Some(o) => {
                    only_keys(o, "attach_track", &["force"])?;
                    match o.raw_get::<LuaValue>("force")? {
                        LuaValue::Nil => false,
                        LuaValue::Boolean(b) => b,
                        other => {
                            return err(format!(
                                "game.attach_track: force is true or false, not {}",
                                other.type_name()
                            ));
                        }
                    }
                }
            };
            let (pi, piece) = track_piece(c, &id, "attach_track")?;
            match c.state.board.lay_track(pi, &piece, force) {
                Ok((first, why)) => Ok((Some(first as i64 + 1), why.map(AttachError::word))),
                Err(e @ (AttachError::Overlap | AttachError::OffTable)) => {
                    Ok((None, Some(e.word())))
                }
                Err(AttachError::NoTrack) => err("game.attach_track: this board is not a track"),
                Err(AttachError::Full) => err(format!(
                    "game.attach_track: a track has at most {MAX_TRACK_PIECES} pieces"
                )),
            }
        }
    ));
    reg!(lua, t, "track_fits", |_,
                                (id, opts): (
        String,
        Option<Table>
    )| with(|c| {
        let (_, piece) = track_piece(c, &id, "track_fits")?;
        let mut then: Vec<TrackPieceDef> = Vec::new();
        if let Some(o) = &opts {
            only_keys(o, "track_fits", &["followed_by"])?;
            match o.raw_get::<LuaValue>("followed_by")? {
                LuaValue::Nil => {}
                LuaValue::Table(list) => {
                    for v in list.sequence_values::<LuaValue>() {
                        match v? {
                            LuaValue::String(s) => {
                                let s = s.to_str()?.to_string();
                                then.push(track_piece(c, &s, "track_fits")?.1);
                            }
                            other => {
                                return err(format!(
                                    "game.track_fits: followed_by lists track piece ids, not {}",
                                    other.type_name()
                                ));
                            }
                        }
                    }
                }
                other => {
                    return err(format!(
                        "game.track_fits: followed_by is a list of track piece ids, not {}",
                        other.type_name()
                    ));
                }
            }
        }
        let then: Vec<&TrackPieceDef> = then.iter().collect();
        match c.state.board.track_fits_then(&piece, &then) {
            Ok(true) => Ok((true, None)),
            Ok(false) => Ok((false, Some("dead-end"))),
            Err(e @ (AttachError::Overlap | AttachError::OffTable)) => Ok((false, Some(e.word()))),
            Err(_) => err("game.track_fits: this board is not a track"),
        }
    }));
    reg!(lua, t, "track", |lua, ()| with_tables(lua, |c| {
        let (Some(track), crate::content::def::BoardDef::Track(def)) =
            (c.state.board.track.as_ref(), &c.def.board)
        else {
            return err("game.track: this board is not a track");
        };
        let degrees = |h: i32| (h.rem_euclid(8) * 45) as i64;
        let list = lua.create_table_with_capacity(track.laid.len(), 0)?;
        for (i, p) in track.laid.iter().enumerate() {
            let t = lua.create_table_with_capacity(0, 14)?;
            t.raw_set("index", i as i64 + 1)?;
            let id = def
                .pieces
                .get(p.piece as usize)
                .map_or("", |d| d.id.as_str());
            t.raw_set("piece", id)?;
            t.raw_set("x", p.x)?;
            t.raw_set("y", p.y)?;
            t.raw_set("heading", degrees(p.heading))?;
            t.raw_set("exit_heading", degrees(p.heading + p.turn / 45))?;
            let (cx, cy) = p.shape().centre();
            t.raw_set("cx", cx)?;
            t.raw_set("cy", cy)?;
            t.raw_set("lanes", p.lanes as i64)?;
            t.raw_set("rows", p.rows as i64)?;
            t.raw_set("first_space", p.first_space as i64 + 1)?;
            t.raw_set(
                "spaces",
                lua.create_sequence_from(p.spaces().map(|s| s as i64 + 1))?,
            )?;
            t.raw_set("forced", p.forced)?;
            t.raw_set("removed", p.removed)?;
            list.raw_set(i as i64 + 1, t)?;
        }
        let end = lua.create_table_with_capacity(0, 3)?;
        end.raw_set("x", track.end.0)?;
        end.raw_set("y", track.end.1)?;
        end.raw_set("heading", degrees(track.end.2))?;
        Ok((list, end))
    }));
    reg!(lua, t, "remove_track", |_, index: i64| with_mut(
        "remove_track",
        |c| {
            let i = laid_index(c, index, "remove_track")?;
            Ok(remove_laid(c, i, i + 1, "remove_track")? > 0)
        }
    ));
    reg!(lua, t, "clear_track_before", |_, index: i64| with_mut(
        "clear_track_before",
        |c| {
            let i = laid_index(c, index, "clear_track_before")?;
            Ok(remove_laid(c, 0, i, "clear_track_before")? as i64)
        }
    ));
    reg!(lua, t, "set_track_table", |_, (w, h): (f64, f64)| with_mut(
        "set_track_table",
        |c| {
            let Some(track) = c.state.board.track.as_mut() else {
                return err("this board is not a track");
            };
            if !(w.is_finite() && h.is_finite() && w > 0.0 && h > 0.0) {
                return err(format!(
                    "the table must have a positive width and height, not {w} x {h}"
                ));
            }
            track.set_table(w, h);
            Ok(())
        }
    ));
    Ok(())
}

/// A track piece by id: its index in the board's definition and a copy of it.
fn track_piece(c: &CallCtx, id: &str, name: &str) -> R<(usize, TrackPieceDef)> {
    let crate::content::def::BoardDef::Track(track) = &c.def.board else {
        return err(format!("game.{name}: this board is not a track"));
    };
    match track.pieces.iter().position(|p| p.id == id) {
        Some(i) => Ok((i, track.pieces[i].clone())),
        None => err(format!(
            "game.{name}: no track piece `{}`{}",
            super::short(id),
            crate::diag::suggestion(id, track.pieces.iter().map(|p| p.id.as_str()))
        )),
    }
}

/// A laid piece's index as scripts give it (from 1), checked, as an index from 0.
fn laid_index(c: &CallCtx, index: i64, name: &str) -> R<usize> {
    let Some(track) = c.state.board.track.as_ref() else {
        return err(format!("game.{name}: this board is not a track"));
    };
    let n = track.laid.len();
    if index >= 1 && (index as usize) <= n {
        Ok(index as usize - 1)
    } else if n == 0 {
        err(format!("game.{name}: no track piece has been laid yet"))
    } else {
        err(format!(
            "game.{name}: {index} is not a laid track piece (they are 1..{n})"
        ))
    }
}

/// Takes the laid pieces `from..to` off the table, unless a piece stands on one of them.
fn remove_laid(c: &mut CallCtx, from: usize, to: usize, name: &str) -> R<usize> {
    if let Some(track) = c.state.board.track.as_ref() {
        for (i, laid) in track.laid.iter().enumerate().take(to).skip(from) {
            let spaces = laid.spaces();
            let on = c
                .state
                .pieces
                .iter()
                .enumerate()
                .find(|(_, p)| p.at.is_some_and(|s| spaces.contains(&s)));
            if let Some((k, p)) = on {
                let what = c
                    .def
                    .pieces
                    .get(p.def as usize)
                    .map_or("", |d| d.id.as_str());
                return err(format!(
                    "game.{name}: piece {} ({what}) stands on track piece {}; move it off first",
                    k + 1,
                    i + 1
                ));
            }
        }
    }
    c.state.board.remove_track(from, to).map_or_else(
        |_| err(format!("game.{name}: this board is not a track")),
        Ok,
    )
}

/// Refuses keys of an options table other than `keys`.
fn only_keys(t: &Table, name: &str, keys: &[&str]) -> R<()> {
    t.for_each(|k: LuaValue, _: LuaValue| {
        let known = matches!(&k, LuaValue::String(s) if keys.iter().any(|w| s.as_bytes().as_ref() == w.as_bytes()));
        if known {
            return Ok(());
        }
        let shown = match &k {
            LuaValue::String(s) => format!("`{}`", super::short(&s.to_string_lossy())),
            other => format!("a {} key", other.type_name()),
        };
        err(format!(
            "game.{name}: unknown option {shown} (the options are {})",
            keys.join(", ")
        ))
    })
}

/// An optional number in an options table.
fn number_key(t: &Table, name: &str, key: &str) -> R<Option<f64>> {
    match t.raw_get::<LuaValue>(key)? {
        LuaValue::Nil => Ok(None),
        LuaValue::Integer(i) => Ok(Some(i as f64)),
        LuaValue::Number(n) => Ok(Some(n)),
        other => err(format!(
            "game.{name}: {key} must be a number, not {}",
            other.type_name()
        )),
    }
}
