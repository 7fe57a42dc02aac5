//! The board: spaces and how they connect, walks, the grid's cells, tiles and blockers, and
//! the track of laid pieces, from `game.space` to `game.set_track_table`.

use mlua::{Lua, Table, Value as LuaValue};

use super::{R, err, space_arg, text, with, with_mut, with_tables};
use crate::board::{
    AttachError, MAX_CLEARANCE, MAX_EDGE_COST, MAX_TRACK_PIECES, Placed, TrackError,
};
use crate::content::def::{Side, TrackPieceDef};
use crate::script::CallCtx;
use crate::script::convert::to_lua;
use crate::value::Value;

/// (name, Luau signature, what it does), in the order the stubs list them.
pub const API: &[(&str, &str, &str)] = &[
    ("space", "(id: string) -> number?", "A space by id."),
    (
        "space_info",
        "(space: number) -> {id: string, name: string, x: number, y: number, tags: {string}, props: {[string]: any}}",
        "What the board says about a space.",
    ),
    (
        "space_count",
        "() -> number",
        "Number of spaces on the board.",
    ),
    (
        "neighbors",
        "(space: number, tags: {string}?) -> {number}",
        "Spaces one edge away, whatever the edge costs; tagged edges count only if all their tags are in `tags`.",
    ),
    (
        "distances",
        "(space: number, tags: {string}?) -> {[number]: number}",
        "The least total cost from `space` to every space it can reach, over edges whose tags are all in `tags`: each edge costs its `cost` in board.toml (1 unless it says otherwise), so where every edge costs 1 this is the number of steps. Grids follow the tiles' roads and count 1 a step (a tile's move_cost is for game.ray).",
    ),
    (
        "walks",
        "(space: number, steps: number, tags: {string}?, avoid: {[number]: any}?) -> {[number]: boolean}",
        "Spaces where a move of exactly `steps` can end, never entering a space twice nor a key of `avoid`; over edges whose tags are all in `tags` (grids follow the tiles' roads). A move spends each edge's cost (1 unless board.toml says otherwise; 1 a road step on a grid), so a move of 3 may take one edge of cost 3 or three of cost 1. `steps` is 0 to 1,000,000. Fails if listing them would take more than a million steps of work.",
    ),
    (
        "within",
        "(space: number, steps: number, tags: {string}?, avoid: {[number]: any}?) -> {[number]: number}",
        "Spaces a move spending at most `steps` (in edge costs, as in game.walks) can reach without entering a key of `avoid`, mapped to the least it spends (0 for `space`).",
    ),
    (
        "cell",
        "(x: number, y: number) -> number?",
        "The space of a grid cell, or nil off the grid.",
    ),
    (
        "xy",
        "(space: number) -> (number, number)",
        "Column and row of a grid cell.",
    ),
    (
        "tile_at",
        "(space: number) -> (string?, number)",
        "Road tile on a cell and its quarter turns.",
    ),
    (
        "blocker_at",
        "(space: number) -> (string?, number)",
        "Blocking tile on a cell, if any.",
    ),
    (
        "tiles",
        "() -> ({[number]: string}, {[number]: number})",
        "Every road tile on the grid, as cell -> tile id, and cell -> quarter turns (one call instead of a tile_at per cell). The tables are read-only and shared until the grid changes.",
    ),
    (
        "blockers",
        "() -> {[number]: string}",
        "Every blocking tile on the grid, as cell -> tile id (read-only, shared until the grid changes).",
    ),
    (
        "place_tile",
        "(space: number, tile: string, turns: number) -> ()",
        "Put a tile on a cell (replacing nothing: the cell must be empty).",
    ),
    (
        "remove_tile",
        "(space: number) -> string?",
        "Take the road tile off a cell; returns its id.",
    ),
    (
        "rotate_tile",
        "(space: number, turns: number) -> ()",
        "Set the quarter turns of the tile on a cell.",
    ),
    (
        "set_blocker",
        "(space: number, tile: string?) -> ()",
        "Put a blocking tile on a cell over its road, or clear it with nil.",
    ),
    (
        "step",
        "(space: number, side: string) -> number?",
        "The cell reached by driving out of `side` (N, E, S, W), if the roads allow it.",
    ),
    (
        "ray",
        "(space: number, side: string, max: number, stop: {[number]: any}?) -> {number}",
        "Cells passed driving straight out of `side`, in order: the drive goes on while the road runs straight and stops after `max` cells, on a cell that is a key of `stop`, on a tile with move_cost above 1, or where the road turns or ends.",
    ),
    (
        "reach",
        "(space: number, moves: number, max: number, stop: {[number]: any}?) -> {[number]: number}",
        "Cells reachable with at most `moves` straight drives (each as in game.ray) passing `max` cells in all, mapped to the fewest drives needed (0 for `space`).",
    ),
    (
        "approach",
        "(space: number, moves: number, max: number, stop: {[number]: any}?) -> {[number]: string}",
        "Empty cells (no tile, no blocker) a vehicle could drive onto within `moves` drives and `max` cells, as in game.reach, if a tile there let it in; each mapped to the sides it would be entered by, e.g. \"W\" or \"NW\".",
    ),
    (
        "passes",
        "(space: number, from: string, to: string) -> boolean",
        "Whether the tile's roads lead from side `from` (entering) to side `to` (leaving).",
    ),
    (
        "exits",
        "(space: number) -> string",
        "Sides a vehicle on this cell may leave by, e.g. \"NES\".",
    ),
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

pub(super) fn register(lua: &Lua, t: &Table) -> R<()> {
    reg!(lua, t, "space", |_, id: String| with(|c| Ok(c
        .state
        .board
        .graph
        .find(&id)
        .map(|s| s as i64 + 1))));
    reg!(lua, t, "space_info", |lua, s: i64| with_tables(lua, |c| {
        let s = space_arg(c, s)?;
        let sp = &c.state.board.graph.spaces[s as usize];
        let t = lua.create_table()?;
        t.raw_set("id", sp.id.as_str())?;
        t.raw_set("name", sp.name.as_str())?;
        t.raw_set("x", sp.x)?;
        t.raw_set("y", sp.y)?;
        t.raw_set(
            "tags",
            lua.create_sequence_from(sp.tags.iter().map(|s| s.as_str()))?,
        )?;
        t.raw_set("props", to_lua(lua, &Value::Map(sp.props.clone()))?)?;
        Ok(t)
    }));
    reg!(lua, t, "space_count", |_, ()| with(|c| Ok(
        c.state.board.space_count() as i64
    )));
    reg!(lua, t, "neighbors", |lua,
                               (s, tags): (
        i64,
        Option<Vec<String>>
    )| with_tables(lua, |c| {
        let s = space_arg(c, s)?;
        let list: Vec<i64> = c
            .state
            .board
            .neighbors(s, &tags_arg(tags))
            .into_iter()
            .map(|x| x as i64 + 1)
            .collect();
        lua.create_sequence_from(list)
    }));
    reg!(lua, t, "distances", |lua,
                               (s, tags): (
        i64,
        Option<Vec<String>>
    )| with_tables(lua, |c| {
        let s = space_arg(c, s)?;
        let d = c.state.board.distances(s, &tags_arg(tags), &c.def.tiles);
        let t = lua.create_table()?;
        for (i, x) in d.iter().enumerate() {
            if let Some(x) = x {
                t.raw_set(i + 1, *x as i64)?;
            }
        }
        Ok(t)
    }));
    reg!(lua, t, "walks", |lua,
                           (s, steps, tags, avoid): (
        i64,
        i64,
        Option<Vec<String>>,
        Option<Table>
    )| {
        with_tables(lua, |c| {
            let w = walk(c, s, steps, tags, &avoid, "walks")?;
            lua.create_table_from(w.exactly.into_iter().map(|x| (x as i64 + 1, true)))
        })
    });
    reg!(lua, t, "within", |lua,
                            (s, steps, tags, avoid): (
        i64,
        i64,
        Option<Vec<String>>,
        Option<Table>
    )| {
        with_tables(lua, |c| {
            let w = walk(c, s, steps, tags, &avoid, "within")?;
            lua.create_table_from(w.within.into_iter().map(|(x, d)| (x as i64 + 1, d as i64)))
        })
    });
    reg!(lua, t, "cell", |_, (x, y): (i64, i64)| with(|c| Ok(c
        .state
        .board
        .cell(x, y)
        .map(|s| s as i64 + 1))));
    reg!(lua, t, "xy", |_, s: i64| with(|c| {
        let s = space_arg(c, s)?;
        c.state
            .board
            .xy(s)
            .map_or_else(|| err("this board is not a grid"), Ok)
    }));
    reg!(lua, t, "tile_at", |lua, s: i64| {
        let (id, rot) = with(|c| {
            let s = space_arg(c, s)?;
            Ok(placed_out(c, c.state.board.tile_at(s)))
        })?;
        Ok((text(lua, id)?, rot))
    });
    reg!(lua, t, "blocker_at", |lua, s: i64| {
        let (id, rot) = with(|c| {
            let s = space_arg(c, s)?;
            Ok(placed_out(c, c.state.board.blocker_at(s)))
        })?;
        Ok((text(lua, id)?, rot))
    });
    reg!(lua, t, "tiles", |lua, ()| layer_table(lua, false));
    reg!(lua, t, "blockers", |lua, ()| layer_table(lua, true)
        .map(|(ids, _)| ids));
    reg!(lua, t, "place_tile", |_,
                                (s, tile, turns): (
        i64,
        String,
        Option<i64>
    )| with_mut("place_tile", |c| {
        let s = space_arg(c, s)?;
        let t = tile_arg(c, &tile)?;
        if c.state.board.tile_at(s).is_some() {
            return err("that cell already has a tile");
        }
        let rot = turns.unwrap_or(0).rem_euclid(4) as u8;
        if !c.state.board.set_tile(
            s,
            Some(Placed {
                tile: t as u16,
                rot,
            }),
        ) {
            return err("this board has no cells for tiles");
        }
        Ok(())
    }));
    reg!(lua, t, "remove_tile", |_, s: i64| with_mut(
        "remove_tile",
        |c| {
            let s = space_arg(c, s)?;
            let old = c.state.board.tile_at(s);
            c.state.board.set_tile(s, None);
            Ok(placed_out(c, old).0)
        }
    ));
    reg!(lua, t, "rotate_tile", |_, (s, turns): (i64, i64)| {
        with_mut("rotate_tile", |c| {
            let s = space_arg(c, s)?;
            let Some(p) = c.state.board.tile_at(s) else {
                return err("there is no tile on that cell");
            };
            c.state.board.set_tile(
                s,
                Some(Placed {
                    tile: p.tile,
                    rot: turns.rem_euclid(4) as u8,
                }),
            );
            Ok(())
        })
    });
    reg!(
        lua,
        t,
        "set_blocker",
        |_, (s, tile): (i64, Option<String>)| with_mut("set_blocker", |c| {
            let s = space_arg(c, s)?;
            let placed = match tile {
                Some(id) => Some(Placed {
                    tile: tile_arg(c, &id)? as u16,
                    rot: 0,
                }),
                None => None,
            };
            c.state.board.set_blocker(s, placed);
            Ok(())
        })
    );
    reg!(lua, t, "step", |_, (s, side): (i64, String)| with(|c| {
        let s = space_arg(c, s)?;
        let side = side_arg(&side)?;
        Ok(c.state
            .board
            .grid_step(s, side, &c.def.tiles)
            .map(|x| x as i64 + 1))
    }));
    reg!(lua, t, "ray", |lua,
                         (s, side, max, stop): (
        i64,
        String,
        i64,
        Option<Table>
    )| {
        with_tables(lua, |c| {
            let s = space_arg(c, s)?;
            let side = side_arg(&side)?;
            grid_only(c, "ray")?;
            let hit = |x: u32| stops_at(&stop, x);
            let cells = c
                .state
                .board
                .ray(s, side, max.max(0) as u32, &hit, &c.def.tiles);
            lua.create_sequence_from(cells.into_iter().map(|x| x as i64 + 1))
        })
    });
    reg!(lua, t, "reach", |lua,
                           (s, moves, max, stop): (
        i64,
        i64,
        i64,
        Option<Table>
    )| {
        with_tables(lua, |c| {
            let (s, moves, max) = drives(c, s, moves, max, "reach")?;
            let hit = |x: u32| stops_at(&stop, x);
            let found = c.state.board.reach(s, moves, max, &hit, &c.def.tiles);
            lua.create_table_from(
                found
                    .into_iter()
                    .map(|(cell, n)| (cell as i64 + 1, n as i64)),
            )
        })
    });
    reg!(lua, t, "approach", |lua,
                              (s, moves, max, stop): (
        i64,
        i64,
        i64,
        Option<Table>
    )| {
        with_tables(lua, |c| {
            let (s, moves, max) = drives(c, s, moves, max, "approach")?;
            let hit = |x: u32| stops_at(&stop, x);
            let found = c.state.board.approach(s, moves, max, &hit, &c.def.tiles);
            lua.create_table_from(
                found
                    .into_iter()
                    .map(|(cell, mask)| (cell as i64 + 1, side_letters(mask))),
            )
        })
    });
    reg!(
        lua,
        t,
        "passes",
        |_, (s, from, to): (i64, String, String)| with(|c| {
            let s = space_arg(c, s)?;
            let (f, t) = (side_arg(&from)?, side_arg(&to)?);
            let links = c.state.board.links(s, &c.def.tiles);
            Ok(links[f.index()] & (1 << t.index()) != 0)
        })
    );
    reg!(lua, t, "exits", |_, s: i64| with(|c| {
        let s = space_arg(c, s)?;
        let links = c.state.board.links(s, &c.def.tiles);
        let mask = links.iter().fold(0u8, |a, m| a | m);
        Ok(side_letters(mask))
    }));
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

fn side_arg(s: &str) -> R<Side> {
    Side::parse(s).map_or_else(|| err(format!("`{s}` is not a side: use N, E, S or W")), Ok)
}

fn tile_arg(ctx: &CallCtx, id: &str) -> R<usize> {
    ctx.def.tile(id).map_or_else(
        || {
            err(format!(
                "no tile `{id}`{}",
                crate::diag::suggestion(id, ctx.def.tiles.iter().map(|t| t.id.as_str()))
            ))
        },
        Ok,
    )
}

fn tags_arg(tags: Option<Vec<String>>) -> Vec<String> {
    tags.unwrap_or_default()
}

/// Read-only copies of a grid's layers, each kept while its layer's stamp stays the same.
/// Actions hooks read the whole grid at every decision, and the grid changes far less often.
#[derive(Default)]
pub(in crate::script) struct LayerCache {
    tiles: Option<(u64, Table, Table)>,
    blockers: Option<(u64, Table, Table)>,
    /// Each tile's id as a Luau string, by tile, made at the first rebuild that needs it: a
    /// rebuild then sets a string the VM holds instead of making (hashing and looking up)
    /// the id again for every cell.
    names: Vec<Option<mlua::LuaString>>,
}

impl LayerCache {
    fn slot(&mut self, blockers: bool) -> &mut Option<(u64, Table, Table)> {
        if blockers {
            &mut self.blockers
        } else {
            &mut self.tiles
        }
    }
}

/// cell -> tile id and cell -> quarter turns for the road tiles (or the blockers) of a grid.
fn layer_table(lua: &Lua, blockers: bool) -> R<(Table, Table)> {
    let stamp = with(|c| match c.state.board.grid.as_ref() {
        Some(g) if blockers => Ok(g.blockers_stamp),
        Some(g) => Ok(g.tiles_stamp),
        None => err("this board is not a grid"),
    })?;
    if let Some(mut cache) = lua.app_data_mut::<LayerCache>()
        && let Some((s, ids, turns)) = cache.slot(blockers)
        && *s == stamp
    {
        return Ok((ids.clone(), turns.clone()));
    }
    let mut names = lua
        .app_data_mut::<LayerCache>()
        .map(|mut cache| std::mem::take(&mut cache.names))
        .unwrap_or_default();
    let pair = with_tables(lua, |c| {
        let Some(g) = c.state.board.grid.as_ref() else {
            return err("this board is not a grid");
        };
        let layer = if blockers { &g.blockers } else { &g.tiles };
        let n = layer.len();
        let (ids, turns) = (
            lua.create_table_with_capacity(n, 0)?,
            lua.create_table_with_capacity(n, 0)?,
        );
        if names.len() < c.def.tiles.len() {
            names.resize(c.def.tiles.len(), None);
        }
        for (i, p) in layer.iter().enumerate() {
            if let Some(p) = p
                && let Some(tile) = c.def.tiles.get(p.tile as usize)
            {
                let name = match &names[p.tile as usize] {
                    Some(name) => name.clone(),
                    None => {
                        let name = lua.create_string(&tile.id)?;
                        names[p.tile as usize] = Some(name.clone());
                        name
                    }
                };
                ids.raw_set(i as i64 + 1, name)?;
                turns.raw_set(i as i64 + 1, p.rot as i64)?;
            }
        }
        ids.set_readonly(true);
        turns.set_readonly(true);
        Ok((ids, turns))
    });
    if let Some(mut cache) = lua.app_data_mut::<LayerCache>() {
        cache.names = names;
    }
    let pair = pair?;
    if let Some(mut cache) = lua.app_data_mut::<LayerCache>() {
        *cache.slot(blockers) = Some((stamp, pair.0.clone(), pair.1.clone()));
    }
    Ok(pair)
}

/// Whether a cell is a key of a `stop` table (cells given as keys, any true value). The table
/// is read cell by cell as a walk reaches them: a walk looks at a few cells, and the table may
/// hold many.
fn stops_at(stop: &Option<Table>, cell: u32) -> bool {
    stop.as_ref().is_some_and(|t| {
        !matches!(
            t.raw_get::<LuaValue>(cell as i64 + 1),
            Ok(LuaValue::Nil | LuaValue::Boolean(false)) | Err(_)
        )
    })
}

/// The most a move may spend: as much as the dearest edge costs (the work a listing of walks
/// may do is bounded by [`WALK_BUDGET`], and a cheapest move visits each space once).
const MAX_MOVE: i64 = MAX_EDGE_COST as i64;
/// Steps a listing of walks may spend before it is refused.
const WALK_BUDGET: u64 = 1_000_000;

/// `game.walks` and `game.within`: checks the arguments and walks.
fn walk(
    c: &CallCtx,
    s: i64,
    steps: i64,
    tags: Option<Vec<String>>,
    avoid: &Option<Table>,
    name: &str,
) -> R<crate::board::Walks> {
    let s = space_arg(c, s)?;
    if !(0..=MAX_MOVE).contains(&steps) {
        return err(format!(
            "game.{name}: steps must be from 0 to {MAX_MOVE}, not {steps}"
        ));
    }
    let skip = |x: u32| stops_at(avoid, x);
    c.state
        .board
        .walks(s, steps as u32, &tags_arg(tags), &skip, &c.def.tiles, WALK_BUDGET)
        .or_else(|e| {
            err(format!(
                "game.{name}: moves of {} steps branch too much here to list (over {} steps of work); take fewer steps at a time",
                e.steps, e.budget
            ))
        })
}

/// The sides in a bit mask (a bit per [`Side`]) as letters in N, E, S, W order ("NS").
fn side_letters(mask: u8) -> String {
    Side::ALL
        .iter()
        .filter(|side| mask & (1 << side.index()) != 0)
        .map(|side| side.letter())
        .collect()
}

/// `game.reach` and `game.approach`: the start cell (on a grid), the drives (at most 64) and
/// the cells they may pass in all.
fn drives(c: &CallCtx, s: i64, moves: i64, max: i64, name: &str) -> R<(u32, u32, u32)> {
    let s = space_arg(c, s)?;
    grid_only(c, name)?;
    Ok((s, moves.clamp(0, 64) as u32, max.max(0) as u32))
}

fn grid_only(c: &CallCtx, name: &str) -> R<()> {
    if c.state.board.grid.is_none() {
        return err(format!("game.{name} needs a grid board"));
    }
    Ok(())
}

fn placed_out(c: &CallCtx, p: Option<Placed>) -> (Option<String>, i64) {
    match p {
        Some(p) => (
            c.def.tiles.get(p.tile as usize).map(|t| t.id.clone()),
            p.rot as i64,
        ),
        None => (None, 0),
    }
}
