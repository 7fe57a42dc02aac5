//! The sandbox a VM's scripts run in: the globals they get (read-only, with `math.random`
//! drawing from the game's generator), the globals taken away, protected calls that cannot
//! swallow a stopped call, and library functions charged for the work they do in one go.

use mlua::{Function, Lua, Table, Value as LuaValue};

use super::bots::{TRY_MARK, UNDO_MARK};
use super::convert;
use super::errors::MAX_MESSAGE;
use super::{api, debug};
use crate::content::GameDef;
use mlua::chunk::ChunkMode;

/// Removes what scripts must not reach, installs the API, and seals the globals.
pub(super) fn prepare_globals(
    lua: &Lua,
    def: &GameDef,
    charge: Function,
    refused: Function,
    memory: usize,
) -> mlua::Result<Table> {
    let g = lua.globals();
    for name in [
        "loadstring",
        "load",
        "dofile",
        "require",
        "getfenv",
        "setfenv",
        "collectgarbage",
        "gcinfo",
        "debug",
        "newproxy",
    ] {
        g.raw_set(name, LuaValue::Nil)?;
    }
    // `print` writes to the debug channel, never to standard output (where it could fake the
    // command line's own lines); see `debug`.
    debug::install(lua, &g)?;
    let game = api::register(lua)?;
    // Lookahead for bots: `game.try` and `game.undo` stop the bot's `choose` (a coroutine)
    // and hand the request to the engine, which applies or takes back the action and resumes
    // the bot; in between, the bot reads the game as it is after the action.
    let coroutine: Table = g.raw_get("coroutine")?;
    let wrappers: Table = lua
        .load(
            r#"local yield, check, try_mark, undo_mark = ...
            return {
                try = function(action)
                    check("try", action)
                    return yield(try_mark, action)
                end,
                undo = function()
                    check("undo", nil)
                    return yield(undo_mark)
                end,
            }"#,
        )
        .set_name("=farebox")
        .set_mode(ChunkMode::Text)
        .call((
            coroutine.raw_get::<Function>("yield")?,
            lua.create_function(api::check_lookahead)?,
            TRY_MARK,
            UNDO_MARK,
        ))?;
    game.set_readonly(false);
    game.raw_set("try", wrappers.raw_get::<Function>("try")?)?;
    game.raw_set("undo", wrappers.raw_get::<Function>("undo")?)?;
    game.set_readonly(true);
    g.raw_set("coroutine", LuaValue::Nil)?;
    g.raw_set("game", game.clone())?;
    // Weak tables lose entries whenever the collector runs, and when it runs depends on how
    // much memory the VM has used, earlier games on a reused VM included: a game that read
    // them could not be replayed. setmetatable refuses a metatable with `__mode`, and freezes
    // the metatable it sets, so `__mode` cannot be added to it afterwards.
    let guarded: Function = lua
        .load(
            r#"local raw, rawget, type, error, freeze, isfrozen = ...
            return function(t, mt)
                if type(mt) == "table" then
                    if rawget(mt, "__mode") ~= nil then
                        error("weak tables (__mode) are not available: what they keep would depend on when memory is collected, and games must replay exactly", 2)
                    end
                    -- Frozen, so that no `__mode` can be added once it is in use.
                    if not isfrozen(mt) then
                        freeze(mt)
                    end
                end
                return raw(t, mt)
            end"#,
        )
        .set_name("=farebox")
        .set_mode(ChunkMode::Text)
        .call((
            g.raw_get::<Function>("setmetatable")?,
            g.raw_get::<Function>("rawget")?,
            g.raw_get::<Function>("type")?,
            g.raw_get::<Function>("error")?,
            lua.globals()
                .raw_get::<Table>("table")?
                .raw_get::<Function>("freeze")?,
            lua.globals()
                .raw_get::<Table>("table")?
                .raw_get::<Function>("isfrozen")?,
        ))?;
    g.raw_set("setmetatable", guarded)?;
    guard_protected_calls(lua, &g, refused)?;
    guard_libraries(lua, &g, charge, memory)?;
    if let Ok(math) = g.get::<Table>("math") {
        math.raw_set("random", lua.create_function(api::math_random)?)?;
        math.raw_set(
            "randomseed",
            lua.create_function(|_, _: mlua::MultiValue| -> mlua::Result<()> {
                Err(mlua::Error::RuntimeError(
                    "math.randomseed is not available: the game's seed decides every random number"
                        .into(),
                ))
            })?,
        )?;
    }
    g.raw_set("data", convert::content_table(lua, def)?)?;
    lua.sandbox(true)?;
    forbid_globals(lua)?;
    Ok(game)
}

/// Makes assigning a global an error naming the file and line. In the sandbox each VM thread
/// writes globals into a table of its own (the libraries, `game` and `data` stay behind it,
/// read-only), and a global set in one hook call would still be there in the next: a script
/// could count its own calls, and a bot's look-ahead or a label shown to a person would then
/// change the game. Scripts keep what must last in the game (`game.set`), and `local`s.
pub(super) fn forbid_globals(lua: &Lua) -> mlua::Result<()> {
    let g = lua.globals();
    let behind = g
        .metatable()
        .map(|mt| mt.raw_get::<LuaValue>("__index"))
        .transpose()?
        .unwrap_or(LuaValue::Nil);
    // The refusing function keeps nothing: made once per VM and kept, as a reset calls this
    // again for every game.
    let kept = lua.app_data_ref::<Refuse>().map(|r| r.0.clone());
    let refuse = match kept {
        Some(f) => f,
        None => {
            let f = refusing_function(lua, &g)?;
            lua.set_app_data(Refuse(f.clone()));
            f
        }
    };
    let mt = lua.create_table()?;
    mt.raw_set("__index", behind)?;
    mt.raw_set("__newindex", refuse)?;
    mt.raw_set("__metatable", "the globals")?;
    mt.set_readonly(true);
    g.set_metatable(Some(mt))
}

/// The `__newindex` [`forbid_globals`] puts on the globals, once made.
struct Refuse(Function);

/// Raises the error for a global assigned, naming the file and line.
fn refusing_function(lua: &Lua, g: &Table) -> mlua::Result<Function> {
    lua
        .load(
            r#"local error, tostring, type = ...
            return function(_, name, _)
                local shown = if type(name) == "string" then name else tostring(name)
                error("`" .. shown .. "` is not declared: scripts may not set globals, since a global would keep its value from one hook call to the next and the game could not be replayed; declare it `local` (at the top of the file for a constant, or inside the function that uses it), or keep what the game must remember with game.set", 2)
            end"#,
        )
        .set_name("=farebox")
        .set_mode(ChunkMode::Text)
        .call((
            g.raw_get::<Function>("error")
                .or_else(|_| lua.globals().get::<Function>("error"))?,
            g.get::<Function>("tostring")?,
            g.get::<Function>("type")?,
        ))
}

/// `pcall` and `xpcall` that pass every error on as before, except the allocator's refusal
/// ("not enough memory"): that one stops the call (see `Host::new`), as the step budget, the
/// clock and the interrupt's memory check do. Written in Luau, so a bot's `choose` can still
/// yield (at `game.try`) inside them.
pub(super) fn guard_protected_calls(lua: &Lua, g: &Table, refused: Function) -> mlua::Result<()> {
    let wrapped: Table = lua
        .load(
            r#"local pcall, xpcall, refused = ...
            local MEMORY = "not enough memory"
            local function pass(ok, ...)
                if not ok and (...) == MEMORY then
                    refused()
                end
                return ok, ...
            end
            return {
                pcall = function(f, ...)
                    return pass(pcall(f, ...))
                end,
                xpcall = function(f, handler, ...)
                    return xpcall(f, function(e)
                        if e == MEMORY then
                            refused()
                        end
                        return handler(e)
                    end, ...)
                end,
            }"#,
        )
        .set_name("=farebox")
        .set_mode(ChunkMode::Text)
        .call((
            g.raw_get::<Function>("pcall")?,
            g.raw_get::<Function>("xpcall")?,
            refused,
        ))?;
    g.raw_set("pcall", wrapped.raw_get::<Function>("pcall")?)?;
    g.raw_set("xpcall", wrapped.raw_get::<Function>("xpcall")?)?;
    Ok(())
}

/// Library functions that can do much work in one call without reaching an interrupt, or
/// that show memory addresses, replaced by checked versions. The work a call will do is
/// charged to the step budget before it starts, from the sizes of its arguments alone (so the
/// charge is the same on every machine): a step for every 16 elements moved, compared or
/// searched and every 256 bytes copied or scanned; small calls cost nothing extra. A call the
/// budget left cannot pay is refused with the line (see `Host::new`, `charge`).
/// - `table.sort` (n log n comparisons), `table.concat`, `table.move`, `table.find`,
///   `table.create`, and `table.clone` and `table.clear` by their list part;
/// - `string.rep`, `string.upper`, `string.lower`, `string.reverse`, `string.find` and
///   `string.split` (a plain search with a long pattern compares bytes with `memcmp` at every
///   position: beyond 200 million bytes of work it is refused); patterns reach the interrupt
///   on their own;
/// - `buffer.create`, `buffer.fill`, `buffer.copy`, `buffer.tostring`, `buffer.fromstring`,
///   `buffer.readstring`, `buffer.writestring`; `utf8.len`.
///
/// `string.rep`, `table.create` and `buffer.create` also refuse a size over the memory limit
/// at once, with the line, rather than leaving it to the allocator (whose error has none).
/// `tostring` and `string.format` show a table, function, thread or buffer without a
/// `__tostring` as its type name: an address differs between runs, and a game must replay.
/// `error` cuts a message longer than a report keeps ("… (N bytes more)") and raises a value
/// whose `__tostring` fails as a message saying so, at the caller's line: left to the VM, both
/// failed inside its error handler and reached the report as "error in error handling", with
/// no line.
/// Left to the interrupt and the safety net: the built-ins Luau runs without a call
/// (`string.sub`, `table.insert`, `table.unpack`, the `..` operator), whose work is bounded by
/// the memory limit per call.
// One piece: one wrapper per library function, each a few lines that stand alone, in the
// order of the libraries; the list is what a reviewer of the sandbox reads top to bottom.
pub(super) fn guard_libraries(
    lua: &Lua,
    g: &Table,
    charge: Function,
    memory: usize,
) -> mlua::Result<()> {
    let string: Table = g.raw_get("string")?;
    let table: Table = g.raw_get("table")?;
    let buffer: Table = g.raw_get("buffer")?;
    let utf8: Table = g.raw_get("utf8")?;
    let originals = lua.create_table()?;
    for (lib_name, lib, names) in [
        (
            "string",
            &string,
            &[
                "find", "split", "rep", "format", "upper", "lower", "reverse",
            ][..],
        ),
        (
            "table",
            &table,
            &[
                "sort", "concat", "move", "clone", "find", "clear", "create", "pack", "unpack",
            ][..],
        ),
        (
            "buffer",
            &buffer,
            &[
                "create",
                "fill",
                "copy",
                "tostring",
                "fromstring",
                "readstring",
                "writestring",
                "len",
            ][..],
        ),
        ("utf8", &utf8, &["len"][..]),
    ] {
        for name in names {
            originals.raw_set(
                format!("{lib_name}.{name}"),
                lib.raw_get::<Function>(*name)?,
            )?;
        }
    }
    for name in [
        "error",
        "pcall",
        "type",
        "select",
        "getmetatable",
        "rawget",
        "rawlen",
        "tostring",
    ] {
        originals.raw_set(name, g.raw_get::<Function>(name)?)?;
    }
    let guarded: Table = lua
        .load(
            r##"local charge, memory, lib, KEPT = ...
            -- `type`, `select`, `rawlen`, `rawget` and `getmetatable` are left as globals, so
            -- Luau calls them as built-ins (no call at all) once the globals are sealed.
            local error, tostring, pcall = lib.error, lib.tostring, lib.pcall
            local sub, byte = string.sub, string.byte
            local pack, unpack = lib["table.pack"], lib["table.unpack"]
            local find, split, rep, format = lib["string.find"], lib["string.split"], lib["string.rep"], lib["string.format"]
            local upper, lower, reverse = lib["string.upper"], lib["string.lower"], lib["string.reverse"]
            local sort, concat, move, clone, tfind, clear, create =
                lib["table.sort"], lib["table.concat"], lib["table.move"], lib["table.clone"],
                lib["table.find"], lib["table.clear"], lib["table.create"]
            local bcreate, bfill, bcopy, btostring, bfromstring, breadstring, bwritestring, blen =
                lib["buffer.create"], lib["buffer.fill"], lib["buffer.copy"], lib["buffer.tostring"],
                lib["buffer.fromstring"], lib["buffer.readstring"], lib["buffer.writestring"], lib["buffer.len"]
            local ulen = lib["utf8.len"]
            local floor, log = math.floor, math.log
            -- A step of the budget buys this much native work.
            local ITEMS, BYTES = 16, 256
            local MOST = 2e8
            local function items(n, what)
                if type(n) == "number" and n >= ITEMS then
                    charge(n / ITEMS, what)
                end
            end
            local function bytes(n, what)
                if type(n) == "number" and n >= BYTES then
                    charge(n / BYTES, what)
                end
            end
            local function count(t)
                if type(t) == "table" then
                    return rawlen(t)
                end
                return 0
            end
            local function searched(what, s, p)
                if type(s) == "string" and type(p) == "string" then
                    local work = #s * #p
                    if #p > 16 and work > 1e6 then
                        if work > MOST then
                            error(what .. ": looking for " .. #p .. " bytes in " .. #s .. " could compare " .. work .. " bytes, more than a call may do; search shorter strings", 3)
                        end
                        charge(work / 1000, what)
                    elseif #s >= BYTES then
                        charge(#s / BYTES, what)
                    end
                end
            end
            local function too_big(what, n)
                if type(n) == "number" and n > memory then
                    error(format("%s: %.0f bytes is over the memory limit of %d MiB", what, n, memory // 1048576), 3)
                end
            end
            local function plain(v)
                local t = type(v)
                if t == "table" or t == "function" or t == "userdata" or t == "thread" or t == "buffer" then
                    local mt = getmetatable(v)
                    if not (type(mt) == "table" and rawget(mt, "__tostring") ~= nil) then
                        return t
                    end
                end
                return tostring(v)
            end
            -- A message cut to `most` bytes, at a character's start, saying how much more there
            -- was (the note included in the `most`).
            local function cut(s, most)
                local n = #s
                if n <= most then
                    return s
                end
                local keep = most - 32
                while keep > 0 and (byte(s, keep + 1) or 0) >= 0x80 and byte(s, keep + 1) < 0xC0 do
                    keep -= 1
                end
                return sub(s, 1, keep) .. "… (" .. (n - keep) .. " bytes more)"
            end
            -- What `error` raises when a report could not show the value as it is: a message
            -- too long to keep, or a value whose `__tostring` fails, returns something other
            -- than text, or returns too much. Anything else is raised unchanged.
            local function reportable(e)
                local t = type(e)
                if t == "string" then
                    return cut(e, KEPT)
                end
                if t ~= "table" and t ~= "userdata" then
                    return e
                end
                local ok, s = pcall(tostring, e)
                if not ok then
                    local why = if type(s) == "string" then cut(s, 300) else "it raised a " .. type(s)
                    return "the error value could not be turned into text: its __tostring failed (" .. why .. ")"
                end
                if type(s) == "string" and #s > KEPT then
                    return cut(s, KEPT)
                end
                return e
            end
            local function blength(b)
                if type(b) == "buffer" then
                    return blen(b)
                end
                return 0
            end
            return {
                find = function(s, p, init, plain)
                    if type(s) == "string" and (#s >= BYTES or (type(p) == "string" and #p > 16)) then
                        searched("string.find", s, p)
                    end
                    return find(s, p, init, plain)
                end,
                split = function(s, sep)
                    searched("string.split", s, sep)
                    return split(s, sep)
                end,
                rep = function(s, n)
                    if type(s) == "string" and type(n) == "number" then
                        too_big("string.rep", #s * n)
                        bytes(#s * n, "string.rep")
                    end
                    return rep(s, n)
                end,
                -- The checks below are written out rather than calling `items` and `bytes`:
                -- rules call these at every decision, and most calls are small.
                upper = function(s)
                    if type(s) == "string" and #s >= BYTES then bytes(#s, "string.upper") end
                    return upper(s)
                end,
                lower = function(s)
                    if type(s) == "string" and #s >= BYTES then bytes(#s, "string.lower") end
                    return lower(s)
                end,
                reverse = function(s)
                    if type(s) == "string" and #s >= BYTES then bytes(#s, "string.reverse") end
                    return reverse(s)
                end,
                sort = function(t, comp)
                    if type(t) == "table" then
                        local n = rawlen(t)
                        if n >= ITEMS then
                            charge(n * floor(log(n, 2) + 1) / ITEMS, "table.sort")
                        end
                    end
                    if comp == nil then
                        return sort(t)
                    end
                    return sort(t, comp)
                end,
                concat = function(t, sep, i, j)
                    if i == nil and j == nil then
                        if type(t) == "table" and rawlen(t) >= ITEMS then
                            items(rawlen(t), "table.concat")
                        end
                    elseif type(i) == "number" or type(j) == "number" then
                        local first = if type(i) == "number" then i else 1
                        local last = if type(j) == "number" then j else count(t)
                        if last - first + 1 >= ITEMS then
                            items(last - first + 1, "table.concat")
                        end
                    end
                    local s = concat(t, sep, i, j)
                    if #s >= BYTES then
                        bytes(#s, "table.concat")
                    end
                    return s
                end,
                move = function(a1, f, e, t, a2)
                    if type(f) == "number" and type(e) == "number" and e >= f then
                        items(e - f + 1, "table.move")
                    end
                    if a2 == nil then
                        return move(a1, f, e, t)
                    end
                    return move(a1, f, e, t, a2)
                end,
                clone = function(t)
                    if type(t) == "table" and rawlen(t) >= ITEMS then
                        items(rawlen(t), "table.clone")
                    end
                    return clone(t)
                end,
                tfind = function(t, v, init)
                    if type(t) == "table" and rawlen(t) >= ITEMS then
                        items(rawlen(t), "table.find")
                    end
                    if init == nil then
                        return tfind(t, v)
                    end
                    return tfind(t, v, init)
                end,
                clear = function(t)
                    items(count(t), "table.clear")
                    return clear(t)
                end,
                -- No `...` here: a vararg function costs far more per call, and rules call
                -- table.create at every decision.
                create = function(n, value)
                    if type(n) == "number" and n >= ITEMS then
                        too_big("table.create", n * 16)
                        items(n, "table.create")
                    end
                    if value == nil then
                        return create(n)
                    end
                    return create(n, value)
                end,
                bcreate = function(n)
                    too_big("buffer.create", n)
                    bytes(n, "buffer.create")
                    return bcreate(n)
                end,
                bfill = function(b, offset, value, count)
                    bytes(if type(count) == "number" then count else blength(b), "buffer.fill")
                    return bfill(b, offset, value, count)
                end,
                bcopy = function(target, offset, source, soffset, count)
                    bytes(if type(count) == "number" then count else blength(source), "buffer.copy")
                    return bcopy(target, offset, source, soffset, count)
                end,
                btostring = function(b)
                    bytes(blength(b), "buffer.tostring")
                    return btostring(b)
                end,
                bfromstring = function(s)
                    if type(s) == "string" then bytes(#s, "buffer.fromstring") end
                    return bfromstring(s)
                end,
                breadstring = function(b, offset, count)
                    bytes(count, "buffer.readstring")
                    return breadstring(b, offset, count)
                end,
                bwritestring = function(b, offset, value, count)
                    bytes(if type(count) == "number" then count elseif type(value) == "string" then #value else 0, "buffer.writestring")
                    return bwritestring(b, offset, value, count)
                end,
                ulen = function(s, i, j)
                    if type(s) == "string" then bytes(#s, "utf8.len") end
                    return ulen(s, i, j)
                end,
                tostring = function(v, ...)
                    return plain(v)
                end,
                -- Level 1 is this function: the position said is the caller's.
                error = function(e, level)
                    e = reportable(e)
                    if level == nil then
                        return error(e, 2)
                    elseif type(level) == "number" and level > 0 then
                        return error(e, level + 1)
                    end
                    return error(e, level)
                end,
                format = function(fmt, ...)
                    local n = select("#", ...)
                    for i = 1, n do
                        local t = type((select(i, ...)))
                        if t ~= "string" and t ~= "number" and t ~= "boolean" and t ~= "nil" and t ~= "vector" then
                            local args = pack(...)
                            for j = i, n do
                                local tj = type(args[j])
                                if tj ~= "string" and tj ~= "number" and tj ~= "boolean" and tj ~= "nil" and tj ~= "vector" then
                                    args[j] = plain(args[j])
                                end
                            end
                            local s = format(fmt, unpack(args, 1, n))
                            if #s >= BYTES then bytes(#s, "string.format") end
                            return s
                        end
                    end
                    local s = format(fmt, ...)
                    if #s >= BYTES then bytes(#s, "string.format") end
                    return s
                end,
            }"##,
        )
        .set_name("=farebox")
        .set_mode(ChunkMode::Text)
        .call((charge, memory as f64, originals, MESSAGE_KEPT))?;
    let set = |lib: &Table, name: &str, key: &str| -> mlua::Result<()> {
        lib.raw_set(name, guarded.raw_get::<Function>(key)?)
    };
    for name in [
        "find", "split", "rep", "format", "upper", "lower", "reverse",
    ] {
        set(&string, name, name)?;
    }
    for name in ["sort", "concat", "move", "clone", "clear", "create"] {
        set(&table, name, name)?;
    }
    set(&table, "find", "tfind")?;
    for (name, key) in [
        ("create", "bcreate"),
        ("fill", "bfill"),
        ("copy", "bcopy"),
        ("tostring", "btostring"),
        ("fromstring", "bfromstring"),
        ("readstring", "breadstring"),
        ("writestring", "bwritestring"),
    ] {
        set(&buffer, name, key)?;
    }
    set(&utf8, "len", "ulen")?;
    g.raw_set("tostring", guarded.raw_get::<Function>("tostring")?)?;
    g.raw_set("error", guarded.raw_get::<Function>("error")?)?;
    Ok(())
}

/// The bytes of an error message `error` raises at most, its note of what was cut included:
/// what a report keeps, so the report does not cut it again.
const MESSAGE_KEPT: usize = MAX_MESSAGE;

#[allow(clippy::panic)]
pub(super) fn unreachable_ctx() -> ! {
    panic!("the call context is always returned by the VM")
}
