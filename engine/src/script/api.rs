//! The `game` API: the only way scripts reach the state.
//!
//! Every function is listed in [`API`] with its signature and a sentence of documentation;
//! the Luau type stubs for script authors are generated from that list (see
//! [`crate::schema::lua_stubs`]), and a test checks the list and the registered functions agree.
//!
//! Conventions: call with a dot (`game.roll(6)`); seats, spaces, zones and pieces are numbered
//! from 1; functions that change the state fail when a bot calls them. Bots and the `actions`
//! and `describe` hooks read through their seat's view (see [`super::Access::Seat`]).

use std::cell::RefCell;

use mlua::{Lua, MultiValue, Table, Value as LuaValue};

use super::convert::{from_lua, to_lua};
use super::{Access, CallCtx};
use crate::board::Placed;
use crate::content::def::{Side, TrackRole};
use crate::state::{GameResult, LogEntry, Seen, Var};
use crate::value::Value;

/// (name, Luau signature, what it does)
pub const API: &[(&str, &str, &str)] = &[
    ("seats", "() -> number", "Number of seats in this game."),
    ("active", "() -> number", "The seat whose turn it is."),
    (
        "viewer",
        "() -> number?",
        "The seat this call reads the game as: the seat a bot or the actions hook chooses for, or the acting seat's own label in describe. Nil when describe makes the public label (everyone else reads it) and in the rules, which see everything.",
    ),
    (
        "turn",
        "() -> number",
        "Turns started so far; the first turn is 1.",
    ),
    (
        "seat_name",
        "(seat: number) -> string",
        "Display name of a seat.",
    ),
    (
        "option",
        "(id: string) -> any",
        "Value of a game option chosen at setup.",
    ),
    (
        "end_turn",
        "() -> number",
        "Pass play to the next seat; on_turn_start runs after the current hook. Returns the new seat.",
    ),
    (
        "set_active",
        "(seat: number) -> ()",
        "Give the turn to a seat without starting a new turn.",
    ),
    (
        "finish",
        "(places: {number}, scores: {number}, reason: string) -> ()",
        "End the game: place of each seat (1 = first, ties share), scores, and why.",
    ),
    (
        "try",
        "(action: string) -> boolean",
        "Bots only, to look ahead: apply `action` as if it were taken (false, and nothing changes, if it is not legal now). Until game.undo, every read sees the game after it, still as the bot's seat sees it; tries stack. Whatever is still tried when choose returns is undone. At most 2,000 tries per choose, within its step budget.",
    ),
    (
        "undo",
        "() -> boolean",
        "Bots only: take back the latest game.try (false if there is none).",
    ),
    (
        "finish_together",
        "(won: boolean, score: number, reason: string) -> ()",
        "End a cooperative game: the whole table wins (every seat first) or loses (nobody first), with one shared score.",
    ),
    (
        "result",
        "() -> {places: {number}, scores: {number}, reason: string, together: boolean?}?",
        "How the game ended (nil while it goes on): each seat's place (1 = first) and score, and why. A bot reads it after a game.try that ends the game.",
    ),
    (
        "is_over",
        "() -> boolean",
        "Whether finish has been called.",
    ),
    (
        "log",
        "(text: string, seat: number?) -> ()",
        "Add a line to the log; with a seat, only that seat sees it.",
    ),
    (
        "roll",
        "(sides: number) -> number",
        "Roll a die with this many sides (seeded).",
    ),
    (
        "random",
        "(n: number) -> number",
        "A random whole number from 1 to n (seeded).",
    ),
    (
        "counter",
        "(id: string, seat: number?) -> number",
        "Value of a counter (seat counters need the seat).",
    ),
    (
        "set_counter",
        "(id: string, seat: number?, value: number) -> number",
        "Set a counter, kept within its min and max; returns the value set.",
    ),
    (
        "add_counter",
        "(id: string, seat: number?, delta: number) -> number",
        "Add to a counter, kept within its min and max; returns the new value.",
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
        "zone",
        "(id: string, seat: number?) -> number",
        "Handle of a zone (per-seat zones need the seat).",
    ),
    ("count", "(zone: number) -> number", "Cards in a zone."),
    (
        "cards",
        "(zone: number) -> {string}",
        "Card ids in a zone, bottom first (the top card is last). Bots and the actions and describe hooks get only the cards their seat may see: none of a hidden zone or another seat's hand, the top card of a `top` zone (game.count still gives how many).",
    ),
    (
        "top",
        "(zone: number) -> string?",
        "Id of the top card, or nil (also nil where the reading seat may not see it).",
    ),
    (
        "move_card",
        "(from: number, to: number, where: string?) -> string?",
        "Move the top card of `from` into `to`: where = \"top\" (the default), \"bottom\", \"middle\" (with as many cards above as below, or one fewer above), or a depth from the top, 1 = top (n puts n - 1 cards above it). Returns its id, or nil if `from` is empty.",
    ),
    (
        "take_card",
        "(from: number, card: string, to: number, where: string?) -> boolean",
        "Move a named card from one zone to another (where as in move_card).",
    ),
    (
        "shuffle",
        "(zone: number) -> ()",
        "Shuffle a zone (seeded).",
    ),
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
        "Spaces one edge away; tagged edges count only if all their tags are in `tags`.",
    ),
    (
        "distances",
        "(space: number, tags: {string}?) -> {[number]: number}",
        "Steps to every reachable space (grids follow the tiles' roads).",
    ),
    (
        "walks",
        "(space: number, steps: number, tags: {string}?, avoid: {[number]: any}?) -> {[number]: boolean}",
        "Spaces where a move of exactly `steps` steps can end, never entering a space twice nor a key of `avoid`; over edges whose tags are all in `tags` (grids follow the tiles' roads). Fails if listing them would take more than a million steps.",
    ),
    (
        "within",
        "(space: number, steps: number, tags: {string}?, avoid: {[number]: any}?) -> {[number]: number}",
        "Spaces reachable in at most `steps` steps without entering a key of `avoid`, mapped to the fewest steps (0 for `space`).",
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
        "attach_track",
        "(piece: string) -> (number?, string?)",
        "Lay a track piece at the track's end; returns its first space, or nil and \"overlap\" / \"off-table\".",
    ),
    (
        "set_track_table",
        "(width: number, height: number) -> ()",
        "Set the play area (in card lengths) the track must stay within, e.g. from a table-size option at setup; pieces already laid stay where they are.",
    ),
];

pub const GAME_KEY: &str = "game";

type R<T> = mlua::Result<T>;

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

/// Lends `ctx` to the `game` API while `f` runs, and takes it back.
pub(super) fn lend<T>(ctx: CallCtx, f: impl FnOnce() -> T) -> (Option<CallCtx>, T) {
    let before = LENT.with(|slot| slot.replace(Some(ctx)));
    let out = f();
    let ctx = LENT.with(|slot| slot.replace(before));
    (ctx, out)
}

/// Runs `f` on the lent context.
fn with<T>(f: impl FnOnce(&mut CallCtx) -> R<T>) -> R<T> {
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
fn with_tables<T>(lua: &Lua, f: impl FnOnce(&mut CallCtx) -> R<T>) -> R<T> {
    lifted(lua, || with(f))
}

/// Runs `f` with the VM's memory limit lifted (see [`with_tables`]).
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
            return err(format!(
                "game.{name} changes the game; it cannot be used here (bots and the actions hook only read)"
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

fn zone_arg(ctx: &CallCtx, z: i64) -> R<usize> {
    if z >= 1 && (z as usize) <= ctx.state.zones.len() {
        Ok((z - 1) as usize)
    } else {
        err(format!("{z} is not a zone handle (get one with game.zone)"))
    }
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

fn card_name(ctx: &CallCtx, c: crate::state::CardRef) -> String {
    ctx.def
        .decks
        .get(c.deck as usize)
        .and_then(|d| d.cards.get(c.card as usize))
        .map_or_else(String::new, |c| c.id.clone())
}

fn tags_arg(tags: Option<Vec<String>>) -> Vec<String> {
    tags.unwrap_or_default()
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

/// Read-only copies of a grid's layers, each kept while its layer's stamp stays the same.
/// Actions hooks read the whole grid at every decision, and the grid changes far less often.
#[derive(Default)]
pub(super) struct LayerCache {
    tiles: Option<(u64, Table, Table)>,
    blockers: Option<(u64, Table, Table)>,
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
        for (i, p) in layer.iter().enumerate() {
            if let Some(p) = p
                && let Some(tile) = c.def.tiles.get(p.tile as usize)
            {
                ids.raw_set(i as i64 + 1, tile.id.as_str())?;
                turns.raw_set(i as i64 + 1, p.rot as i64)?;
            }
        }
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

/// Called by `game.try` and `game.undo` before they stop the bot: they work only in a bot's
/// `choose` (run as a coroutine), and `try` needs an action.
pub fn check_lookahead(_lua: &Lua, (what, action): (String, LuaValue)) -> R<()> {
    with(|c| {
        if !c.lookahead {
            return err(format!(
                "game.{what} can be used only in a bot's choose, to look ahead"
            ));
        }
        if what == "try" && !matches!(action, LuaValue::String(_)) {
            return err(format!(
                "game.try needs an action (a string), not {}",
                action.type_name()
            ));
        }
        Ok(())
    })
}

/// Steps a walk may take: far more than any board game moves, and a bound on the work.
const MAX_WALK_STEPS: i64 = 64;
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
    if !(0..=MAX_WALK_STEPS).contains(&steps) {
        return err(format!(
            "game.{name}: steps must be from 0 to {MAX_WALK_STEPS}, not {steps}"
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

fn grid_only(c: &CallCtx, name: &str) -> R<()> {
    if c.state.board.grid.is_none() {
        return err(format!("game.{name} needs a grid board"));
    }
    Ok(())
}

/// `math.random` with the engine's generator: (), (n) or (m, n), as in Lua.
pub fn math_random(_lua: &Lua, args: MultiValue) -> R<LuaValue> {
    let nums: Vec<i64> = args
        .iter()
        .filter_map(|v| v.as_integer().or_else(|| v.as_number().map(|n| n as i64)))
        .collect();
    with(|ctx| {
        let rng = if ctx.access.read_only() {
            &mut ctx.bot_rng
        } else {
            &mut ctx.state.rng
        };
        Ok(match nums.as_slice() {
            [] => LuaValue::Number(rng.unit()),
            [n] if *n >= 1 => LuaValue::Integer(rng.range(1, *n)),
            [m, n] if n >= m => LuaValue::Integer(rng.range(*m, *n)),
            _ => return err("math.random: empty interval"),
        })
    })
}

macro_rules! reg {
    ($lua:expr, $t:expr, $name:literal, $f:expr) => {
        $t.raw_set($name, $lua.create_function($f)?)?;
    };
}

/// Builds the `game` table.
pub fn register(lua: &Lua) -> R<Table> {
    let t = lua.create_table()?;
    reg!(lua, t, "seats", |_, ()| with(|c| Ok(c.state.seats as i64)));
    reg!(lua, t, "active", |_, ()| with(|c| Ok(c.state.active
        as i64
        + 1)));
    reg!(lua, t, "viewer", |_, ()| with(|c| Ok(match c.access {
        Access::Seat(Some(s)) => Some(s as i64 + 1),
        _ => None,
    })));
    reg!(lua, t, "turn", |_, ()| with(|c| Ok(c.state.turn as i64)));
    reg!(lua, t, "seat_name", |lua, seat: i64| {
        let name = with(|c| {
            let s = seat_arg(c, Some(seat))?.unwrap_or(0);
            Ok(c.def.seat_name(s as usize))
        })?;
        text(lua, Some(name))
    });
    reg!(lua, t, "option", |lua, id: String| with_tables(lua, |c| {
        match c.state.options.get(&*id) {
            Some(v) => to_lua(lua, v),
            None => err(format!(
                "no option `{id}`{}",
                crate::diag::suggestion(&id, c.def.options.iter().map(|o| o.id.as_str()))
            )),
        }
    }));
    reg!(lua, t, "end_turn", |_, ()| with_mut("end_turn", |c| {
        let s = &mut c.state;
        s.active = (s.active + 1) % s.seats.max(1);
        s.turn += 1;
        s.pending_turn_start = true;
        Ok(s.active as i64 + 1)
    }));
    reg!(lua, t, "set_active", |_, seat: i64| with_mut(
        "set_active",
        |c| {
            let s = seat_arg(c, Some(seat))?.unwrap_or(0);
            c.state.active = s;
            Ok(())
        }
    ));
    reg!(lua, t, "finish", |_,
                            (places, scores, reason): (
        Vec<i64>,
        Vec<i64>,
        String
    )| with_mut("finish", |c| {
        reason_fits(&reason)?;
        let n = c.state.seats as usize;
        if places.len() != n || scores.len() != n {
            return err(format!(
                "finish needs a place and a score for each of the {n} seats"
            ));
        }
        if places.iter().any(|&p| p < 1 || p > n as i64) {
            return err("places run from 1 (first) to the number of seats");
        }
        c.state.result = Some(GameResult {
            places: places.iter().map(|&p| p as u32).collect(),
            scores,
            reason,
            together: None,
        });
        Ok(())
    }));
    reg!(lua, t, "finish_together", |_,
                                     (won, score, reason): (
        bool,
        i64,
        String
    )| with_mut(
        "finish_together",
        |c| {
            reason_fits(&reason)?;
            let n = c.state.seats as u32;
            c.state.result = Some(GameResult {
                places: vec![if won { 1 } else { n }; n as usize],
                scores: vec![score; n as usize],
                reason,
                together: Some(won),
            });
            Ok(())
        }
    ));
    reg!(lua, t, "result", |lua, ()| with_tables(lua, |c| {
        let Some(r) = &c.state.result else {
            return Ok(LuaValue::Nil);
        };
        let mut m = std::collections::BTreeMap::new();
        m.insert(
            "places".to_string(),
            Value::List(r.places.iter().map(|p| Value::Int(*p as i64)).collect()),
        );
        m.insert(
            "scores".to_string(),
            Value::List(r.scores.iter().map(|s| Value::Int(*s)).collect()),
        );
        m.insert("reason".to_string(), Value::Str(r.reason.clone()));
        if let Some(t) = r.together {
            m.insert("together".to_string(), Value::Bool(t));
        }
        to_lua(lua, &Value::Map(m))
    }));
    reg!(lua, t, "is_over", |_, ()| with(|c| Ok(c
        .state
        .result
        .is_some())));
    reg!(lua, t, "log", |_, (text, seat): (String, Option<i64>)| {
        with_mut("log", |c| {
            if text.len() > MAX_LOG_LINE {
                return err(format!(
                    "game.log: a line of {} bytes is too long (at most {MAX_LOG_LINE})",
                    text.len()
                ));
            }
            if c.log.len() >= MAX_LOG_LINES {
                return err(format!("game.log: the log is full ({MAX_LOG_LINES} lines)"));
            }
            let seen = match seat_arg(c, seat)? {
                Some(s) => Seen::Seat(s),
                None => Seen::All,
            };
            let (turn, active) = (c.state.turn, c.state.active);
            c.log.push(LogEntry {
                turn,
                seat: Some(active),
                text,
                seen,
            });
            Ok(())
        })
    });
    reg!(lua, t, "roll", |_, sides: i64| with_mut("roll", |c| {
        if !(1..=1000).contains(&sides) {
            return err("a die has 1 to 1000 sides");
        }
        Ok(c.state.rng.roll(sides as u32) as i64)
    }));
    reg!(lua, t, "random", |_, n: i64| with(|c| {
        if n < 1 {
            return err("game.random(n) needs n >= 1");
        }
        let rng = if c.access.read_only() {
            &mut c.bot_rng
        } else {
            &mut c.state.rng
        };
        Ok(rng.range(1, n))
    }));
    reg!(lua, t, "counter", |_, (id, seat): (String, Option<i64>)| {
        with(|c| {
            let (ci, slot) = counter_slot(c, &id, seat)?;
            Ok(c.state
                .counters
                .get(ci)
                .and_then(|v| v.get(slot))
                .copied()
                .unwrap_or(0))
        })
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
        match c.state.vars.get(&*name) {
            Some(v) if c.access.may_see(v.seen) => to_lua(lua, &v.value),
            _ => Ok(LuaValue::Nil),
        }
    }));
    reg!(lua, t, "set", |_, (name, value): (String, LuaValue)| {
        let v = from_lua(&value).map_err(|e| {
            mlua::Error::RuntimeError(format!("game.set(\"{}\"): {e}", short(&name)))
        })?;
        with_mut("set", |c| {
            let v = (v != Value::Nil).then_some(v);
            store_var(c, "game.set", name, v, Seen::All)
        })
    });
    reg!(lua, t, "set_secret", |_,
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
            store_var(c, "game.set_secret", name, Some(v), seen)
        })
    });
    reg!(lua, t, "zone", |_, (id, seat): (String, Option<i64>)| {
        with(|c| {
            let Some(d) = c.def.zone(&id) else {
                return err(format!(
                    "no zone `{id}`{}",
                    crate::diag::suggestion(&id, c.def.zones.iter().map(|z| z.id.as_str()))
                ));
            };
            let per_seat = c.def.zones[d].per_seat;
            if per_seat && seat.is_none() {
                return err(format!("zone `{id}` belongs to each seat: give the seat"));
            }
            let s = seat_arg(c, seat)?;
            c.state.zone_of(d, s).map_or_else(
                || err(format!("no zone `{id}` for that seat")),
                |z| Ok(z as i64 + 1),
            )
        })
    });
    reg!(lua, t, "count", |_, z: i64| with(|c| {
        let z = zone_arg(c, z)?;
        Ok(c.state.zones[z].cards.len() as i64)
    }));
    reg!(lua, t, "cards", |lua, z: i64| with_tables(lua, |c| {
        let z = zone_arg(c, z)?;
        let zone = &c.state.zones[z];
        let from = zone.cards.len() - c.access.visible_cards(&c.def, zone);
        let ids: Vec<String> = zone.cards[from..]
            .iter()
            .map(|&r| card_name(c, r))
            .collect();
        lua.create_sequence_from(ids)
    }));
    reg!(lua, t, "top", |lua, z: i64| {
        let card = with(|c| {
            let z = zone_arg(c, z)?;
            let zone = &c.state.zones[z];
            if c.access.visible_cards(&c.def, zone) == 0 {
                return Ok(None);
            }
            Ok(zone.cards.last().map(|&r| card_name(c, r)))
        })?;
        text(lua, card)
    });
    reg!(lua, t, "move_card", |lua,
                               (from, to, place): (
        i64,
        i64,
        Option<String>
    )| {
        let card = with_mut("move_card", |c| {
            let (f, t) = (zone_arg(c, from)?, zone_arg(c, to)?);
            let Some(card) = c.state.zones[f].cards.pop() else {
                return Ok(None);
            };
            insert(&mut c.state.zones[t].cards, card, place.as_deref())?;
            Ok(Some(card_name(c, card)))
        })?;
        text(lua, card)
    });
    reg!(lua, t, "take_card", |_,
                               (from, id, to, place): (
        i64,
        String,
        i64,
        Option<String>
    )| with_mut("take_card", |c| {
        let (f, t) = (zone_arg(c, from)?, zone_arg(c, to)?);
        let pos = c.state.zones[f]
            .cards
            .iter()
            .rposition(|&r| card_name(c, r) == id);
        let Some(pos) = pos else { return Ok(false) };
        let card = c.state.zones[f].cards.remove(pos);
        insert(&mut c.state.zones[t].cards, card, place.as_deref())?;
        Ok(true)
    }));
    reg!(lua, t, "shuffle", |_, z: i64| with_mut("shuffle", |c| {
        let z = zone_arg(c, z)?;
        let State { zones, rng, .. } = &mut *c.state;
        rng.shuffle(&mut zones[z].cards);
        Ok(())
    }));
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
    reg!(lua, t, "where_is", |_, p: i64| with(|c| {
        let p = piece_arg(c, p)?;
        Ok(c.state.pieces[p].at.map(|s| s as i64 + 1))
    }));
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
        |c| {
            let p = piece_arg(c, p)?;
            let piece = &c.state.pieces[p];
            let v = piece.props.get(&*key).or_else(|| {
                c.def
                    .pieces
                    .get(piece.def as usize)
                    .and_then(|d| d.props.get(&*key))
            });
            v.map_or(Ok(LuaValue::Nil), |v| to_lua(lua, v))
        }
    ));
    reg!(lua, t, "set_prop", |_,
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
            if v == Value::Nil {
                std::sync::Arc::make_mut(&mut c.state.pieces[p].props).remove(&key);
            } else {
                let props = &c.state.pieces[p].props;
                let entry = |k: &str, v: &Value| 32 + k.len() + v.footprint();
                let total: usize = props.iter().map(|(k, v)| entry(k, v)).sum::<usize>()
                    - props.get(&key).map_or(0, |old| entry(&key, old))
                    + entry(&key, &v);
                if total > MAX_PROPS_SIZE {
                    return err(format!(
                        "game.set_prop({}, \"{}\"): the piece's properties would take {} KiB, more than the {} KiB one piece may hold",
                        p + 1,
                        short(&key),
                        total >> 10,
                        MAX_PROPS_SIZE >> 10
                    ));
                }
                std::sync::Arc::make_mut(&mut c.state.pieces[p].props).insert(key, v);
            }
            Ok(())
        })
    });
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
                t.raw_set(i + 1, *x)?;
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
            let s = space_arg(c, s)?;
            grid_only(c, "reach")?;
            let hit = |x: u32| stops_at(&stop, x);
            let found = c.state.board.reach(
                s,
                moves.clamp(0, 64) as u32,
                max.max(0) as u32,
                &hit,
                &c.def.tiles,
            );
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
            let s = space_arg(c, s)?;
            grid_only(c, "approach")?;
            let hit = |x: u32| stops_at(&stop, x);
            let found = c.state.board.approach(
                s,
                moves.clamp(0, 64) as u32,
                max.max(0) as u32,
                &hit,
                &c.def.tiles,
            );
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
    reg!(lua, t, "attach_track", |_, id: String| with_mut(
        "attach_track",
        |c| {
            let crate::content::def::BoardDef::Track(track) = &c.def.board else {
                return err("this board is not a track");
            };
            let Some(pi) = track.pieces.iter().position(|p| p.id == id) else {
                return err(format!(
                    "no track piece `{id}`{}",
                    crate::diag::suggestion(&id, track.pieces.iter().map(|p| p.id.as_str()))
                ));
            };
            let piece = track.pieces[pi].clone();
            let _ = TrackRole::Normal;
            match c.state.board.attach_track(pi, &piece) {
                Ok(first) => Ok((Some(first as i64 + 1), None)),
                Err(crate::board::AttachError::Overlap) => Ok((None, Some("overlap"))),
                Err(crate::board::AttachError::OffTable) => Ok((None, Some("off-table"))),
            }
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
            track.table = (w, h);
            Ok(())
        }
    ));
    t.set_readonly(true);
    Ok(t)
}

use crate::state::State;

/// How much the game's variables may hold in all (as [`Value::footprint`] counts).
pub const MAX_VARS_SIZE: usize = 16 << 20;
/// How much one piece's properties may hold in all.
pub const MAX_PROPS_SIZE: usize = 1 << 20;
/// The longest line `game.log` takes, in bytes, and the most lines a game's log may hold.
pub const MAX_LOG_LINE: usize = 4000;
pub const MAX_LOG_LINES: usize = 100_000;

/// A game's ending reason is shown like a log line, and held to the same length.
fn reason_fits(reason: &str) -> R<()> {
    if reason.len() > MAX_LOG_LINE {
        return err(format!(
            "the reason a game ended is {} bytes long; at most {MAX_LOG_LINE}",
            reason.len()
        ));
    }
    Ok(())
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

/// Sets (or with None, removes) variable `name`, refusing to let all the variables together
/// grow past [`MAX_VARS_SIZE`].
fn store_var(c: &mut CallCtx, what: &str, name: String, v: Option<Value>, seen: Seen) -> R<()> {
    let Some(value) = v else {
        if c.state.vars.contains_key(&name) {
            std::sync::Arc::make_mut(&mut c.state.vars).remove(&name);
        }
        return Ok(());
    };
    let size = name.len() + value.footprint();
    let others: usize = c
        .state
        .vars
        .iter()
        .filter(|(k, _)| **k != name)
        .map(|(_, v)| v.size)
        .sum();
    if others + size > MAX_VARS_SIZE {
        return err(format!(
            "{what}(\"{}\"): the game's variables would take {} KiB, more than the {} MiB they may hold in all",
            short(&name),
            (others + size) >> 10,
            MAX_VARS_SIZE >> 20
        ));
    }
    std::sync::Arc::make_mut(&mut c.state.vars).insert(name, Var { value, seen, size });
    Ok(())
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
                    s.type_name()
                ))
            },
            |s| Ok((Some(s), v)),
        ),
        (None, s) => as_int(s).map_or_else(
            || {
                err(format!(
                    "{what} must be a whole number, not {}",
                    s.type_name()
                ))
            },
            |v| Ok((None, v)),
        ),
    }
}

fn insert(
    cards: &mut Vec<crate::state::CardRef>,
    card: crate::state::CardRef,
    place: Option<&str>,
) -> R<()> {
    match place {
        None | Some("top") => cards.push(card),
        Some("bottom") => cards.insert(0, card),
        Some("middle") => cards.insert(cards.len().div_ceil(2), card),
        Some(other) => match other.parse::<u64>() {
            // The n-th card from the top: n - 1 cards stay above it (past the bottom: bottom).
            Ok(n) if n >= 1 => {
                let above = (n - 1).min(cards.len() as u64) as usize;
                cards.insert(cards.len() - above, card);
            }
            _ => {
                return err(format!(
                    "`{other}` is not a place in a zone: use \"top\", \"bottom\", \"middle\" or a depth from the top (1 = top)"
                ));
            }
        },
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
        // coroutine); engine/tests/lookahead.rs uses them.
        let mut documented: Vec<String> = API
            .iter()
            .map(|(n, _, _)| n.to_string())
            .filter(|n| n != "try" && n != "undo")
            .collect();
        documented.sort();
        assert_eq!(registered, documented);
    }
}
