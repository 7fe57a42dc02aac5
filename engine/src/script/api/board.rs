//! The board: spaces and how they connect, walks, the grid's cells, tiles and blockers, from
//! `game.space` to `game.exits`. The track of laid pieces is in `track.rs`.

use mlua::{Lua, Table, Value as LuaValue};

use super::{R, err, space_arg, text, with, with_mut, with_tables};
use crate::board::{MAX_EDGE_COST, Placed};
use crate::content::def::Side;
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
];

// One piece: the board's half of the `game` API, one `reg!` per function in the order of
// `API` above; each entry is a few lines and stands alone, so splitting would only scatter
// the list the stubs and docs are checked against.
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
            let hit = |x: u32| stops_at(&stop, x);
            let cells = super::ray_of(c, s, &side, max, &hit)?;
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
    Ok(())
}

pub(super) fn side_arg(s: &str) -> R<Side> {
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
    /// Each tile's id as a Luau string, at its tile's index from 1, made at the first rebuild
    /// of a game: a rebuild then sets a string the VM holds instead of making (hashing and
    /// looking up) the id again for every cell.
    names: Option<Table>,
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
    let names = lua
        .app_data_ref::<LayerCache>()
        .and_then(|cache| cache.names.clone());
    let pair = with_tables(lua, |c| {
        let Some(g) = c.state.board.grid.as_ref() else {
            return err("this board is not a grid");
        };
        let names = match names {
            Some(names) => names,
            None => {
                let names = lua.create_table_with_capacity(c.def.tiles.len(), 0)?;
                for (i, tile) in c.def.tiles.iter().enumerate() {
                    names.raw_set(i as i64 + 1, tile.id.as_str())?;
                }
                if let Some(mut cache) = lua.app_data_mut::<LayerCache>() {
                    cache.names = Some(names.clone());
                }
                names
            }
        };
        let layer = if blockers { &g.blockers } else { &g.tiles };
        let n = layer.len();
        let cells: Vec<(i32, i32, i32)> = layer
            .iter()
            .enumerate()
            .filter_map(|(i, p)| {
                let p = p.as_ref()?;
                let i = i32::try_from(i + 1).ok()?;
                let tile = i32::try_from(usize::from(p.tile) + 1).ok()?;
                (usize::from(p.tile) < c.def.tiles.len()).then_some((i, tile, i32::from(p.rot)))
            })
            .collect();
        let (ids, turns) = super::raw::tables::layer_tables(lua, &names, n, &cells)?;
        ids.set_readonly(true);
        turns.set_readonly(true);
        Ok((ids, turns))
    })?;
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

pub(super) fn grid_only(c: &CallCtx, name: &str) -> R<()> {
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
