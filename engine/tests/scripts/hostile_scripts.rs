//! Scripts written to break the host: long library calls, values built to blow up when
//! copied, state that grows without bound, state kept from one game to the next, weak tables
//! made behind `setmetatable`'s back, addresses that differ between runs. Each must end in an
//! error that names the file and line (where there is one), the state rolled back. None of
//! these tests times anything: the limits themselves must produce the errors.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::sync::Arc;

use farebox::game::{Game, Setup};
use farebox::script::Limits;
use farebox::value::Value;

/// Loads a probe mod whose main chunk is `body` (then returns no hooks); the load error.
fn load_error(body: &str) -> String {
    let script = format!("{body}\nreturn {{}}\n");
    match Game::new(Arc::new(support::probe(&script)), Setup::new(1, 7)) {
        Ok(_) => panic!("loaded: {body}"),
        Err(e) => e.to_string(),
    }
}

/// A probe game whose `apply` runs `body` for the action "go" (line 4 of the script is the
/// body's first line); "ok" does nothing but count.
fn hook_game(body: &str) -> Game {
    let script = format!(
        "return {{\n  actions = function(g, seat) return {{ \"ok\", \"go\" }} end,\n  apply = function(g, seat, action) game.add_counter(\"score\", 1) if action == \"go\" then\n{body}\n  end end,\n}}\n"
    );
    Game::new(Arc::new(support::probe(&script)), Setup::new(1, 7)).unwrap_or_else(|e| panic!("{e}"))
}

/// Applies "go": it must fail with `expect`, name the script and the `line`, and leave the
/// state, the log and the history as they were; the game goes on.
fn hook_fails(body: &str, line: usize, expect: &str) {
    let mut g = hook_game(body);
    g.apply("ok").unwrap();
    let (hash, log, history) = (g.state().hash(), g.log().len(), g.history().len());
    let e = g.apply("go").unwrap_err().to_string();
    assert!(e.contains(expect), "{body}: {e}");
    assert!(
        e.contains(&format!("probe/rules/r.luau:{line}:")),
        "{body}: names the line: {e}"
    );
    assert!(e.contains("in apply"), "{e}");
    assert_eq!(g.state().hash(), hash, "{body} changed the state");
    assert_eq!(g.log().len(), log);
    assert_eq!(g.history().len(), history);
    g.apply("ok").unwrap();
}

fn load_fails(body: &str, expect: &str) {
    let e = load_error(body);
    assert!(e.contains(expect), "{body}: {e}");
    assert!(
        e.contains("probe/rules/r.luau:1:"),
        "{body}: names the line: {e}"
    );
    assert!(e.contains("in load"), "{e}");
}

// 1. Long library calls.

#[test]
fn a_loop_of_big_sorts_meets_the_step_budget() {
    // Each sort of three million numbers runs for milliseconds without an interrupt; it is
    // charged for its work before it starts, so the loop ends on the step budget, at the same
    // sort on every machine, long before the clock's safety net.
    let body = "local t = table.create(3000000, 1) while true do table.sort(t) end";
    load_fails(body, "step budget exceeded (in table.sort");
    hook_fails(
        "local t = table.create(3000000, 1)\nwhile true do table.sort(t) end",
        5,
        "step budget exceeded (in table.sort",
    );
}

#[test]
fn a_loop_of_big_buffer_fills_meets_the_step_budget() {
    load_fails(
        "local b = buffer.create(50000000) while true do buffer.fill(b, 0, 1) end",
        "step budget exceeded",
    );
}

#[test]
fn library_calls_over_huge_ranges_are_refused_before_they_start() {
    // Moving 2^40 nils allocates nothing, so no memory limit stops it: it is refused at once.
    load_fails(
        "table.move({}, 1, 2^40, 2)",
        "step budget exceeded (in table.move",
    );
    load_fails(
        "local t = {} table.move(t, -2^50, 2^50, 1, {})",
        "step budget exceeded (in table.move",
    );
    hook_fails(
        "local t = {1, 2, 3}\ntable.move(t, 1, 1e15, 4)",
        5,
        "step budget exceeded (in table.move",
    );
    load_fails("local t = {} table.concat(t, ',', 1, 2^45)", "table.concat");
    // Each of these is cheap alone; a loop of them meets the step budget (or, where each
    // call leaves megabytes of garbage, the memory limit): a limit that counts, never the
    // clock.
    for body in [
        "local s = string.rep('x', 8000000) while true do local u = string.upper(s) end",
        "local s = string.rep('x', 8000000) while true do local u = s:reverse() end",
        "local t = table.create(1000000, 1) while true do local c = table.clone(t) end",
        "local t = table.create(1000000, 1) while true do local i = table.find(t, 2) end",
        "local t = table.create(1000000, 'ab') while true do local c = table.concat(t) end",
        "local s = string.rep('x', 8000000) while true do local i = string.find(s, 'y', 1, true) end",
    ] {
        load_fails(body, "exceeded");
    }
}

#[test]
fn the_clock_is_only_a_safety_net_and_says_so() {
    use farebox::script::Limits;
    // The `..` operator copies a 16 MB string without a library call to charge: only the
    // safety net ends this loop before its step budget. Here the net is a millisecond, as on
    // a machine far too slow, and the message says the machine ran out of time.
    let script = "return {\n  actions = function(g, seat) return { \"go\" } end,\n  apply = function(g, seat, action)\n    local s = string.rep('x', 16000000)\n    while true do local t = s .. 'y' end\n  end,\n}\n";
    let limits = Limits {
        time: std::time::Duration::from_millis(1),
        ..Limits::default()
    };
    let mut g = Game::with_limits(Arc::new(support::probe(script)), Setup::new(1, 7), limits)
        .unwrap_or_else(|e| panic!("{e}"));
    let e = g.apply("go").unwrap_err().to_string();
    assert!(e.contains("the machine ran out of time"), "{e}");
    assert!(!e.contains("endless loop"), "{e}");
    assert!(e.contains("probe/rules/r.luau:5:"), "{e}");
}

#[test]
fn a_long_plain_search_in_a_long_string_is_refused() {
    // memcmp at every position: three million times 300,000 bytes, seconds in one call.
    load_fails(
        "string.find(string.rep('a', 3000000), string.rep('a', 300000) .. 'b', 1, true)",
        "string.find: looking for 300001 bytes in 3000000",
    );
    load_fails(
        "string.split(string.rep('a', 3000000), string.rep('a', 300000) .. 'b')",
        "string.split: looking for 300001 bytes",
    );
    // Just under the refusal, in a loop: each call is charged, so the budget or the clock
    // ends it.
    hook_fails(
        "local s, p = string.rep('a', 100000), string.rep('a', 1000) .. 'b'\nwhile true do string.find(s, p, 1, true) end",
        5,
        "exceeded",
    );
}

#[test]
fn pathological_patterns_meet_the_step_budget() {
    load_fails(
        "string.find(string.rep('a', 40), string.rep('a*', 20) .. 'b')",
        "step budget exceeded",
    );
    load_fails(
        "string.find(string.rep('a', 300000), '.-b')",
        "step budget exceeded",
    );
    hook_fails(
        "local s = string.rep('a', 30)\nstring.gsub(s, string.rep('a?', 30) .. string.rep('a', 30), 'x')",
        5,
        "step budget exceeded",
    );
}

#[test]
fn sizes_over_the_memory_limit_are_refused_with_the_line() {
    load_fails(
        "local s = string.rep('x', 1e9)",
        "string.rep: 1000000000 bytes is over the memory limit",
    );
    load_fails("local t = table.create(1e8, 0)", "table.create");
    load_fails("local b = buffer.create(1e9)", "buffer.create");
    // One allocation the allocator refuses (a doubling string) still names the line.
    hook_fails(
        "local s = 'x'\nwhile true do s = s .. s end",
        5,
        "memory limit",
    );
}

#[test]
fn a_memory_limit_caught_by_pcall_stays_reached() {
    // How far the loop got would depend on when memory was collected (earlier games on a
    // reused VM included); the script must not go on with it.
    hook_fails(
        "local n, t = 0, {}\npcall(function() while true do n += 1 t[n] = {} end end)\ngame.set('n', n)",
        5,
        "memory limit",
    );
    // One allocation the allocator refuses, caught: whether it is refused depends on how
    // much garbage the VM holds, so it too ends the call, through pcall and xpcall alike.
    hook_fails(
        "local s = string.rep('x', 40 * 2^20)\nlocal ok = pcall(function() return s .. s end)\ngame.set('ok', ok)",
        5,
        "memory limit",
    );
    hook_fails(
        "local s = string.rep('x', 40 * 2^20)\nlocal ok = xpcall(function() return s .. s end, function(e) return e end)\ngame.set('ok', ok)",
        5,
        "memory limit",
    );
    // The step budget and the clock likewise.
    hook_fails(
        "local n = 0\npcall(function() while true do n += 1 end end)\ngame.set('n', n)",
        5,
        "step budget exceeded",
    );
}

#[test]
fn a_huge_error_message_is_cut_short() {
    let mut g = hook_game("error(string.rep('x', 10000000))");
    let e = g.apply("go").unwrap_err();
    assert!(e.to_string().len() < 5000, "{} bytes", e.to_string().len());
}

// 2. Values stored in the state.

#[test]
fn values_built_to_expand_when_copied_are_refused() {
    // A table holding the same subtable twice, thirty levels deep: 2^30 tables when copied.
    hook_fails(
        "local t = {}\nfor i = 1, 30 do t = { t, t } end\ngame.set(\"x\", t)",
        6,
        "game.set(\"x\"): the value is too large",
    );
    // One subtable referred to 200,000 times.
    hook_fails(
        "local sub, t = { 1, 2, 3 }, {}\nfor i = 1, 200000 do t[i] = sub end\ngame.set_secret(\"x\", t)",
        6,
        "game.set_secret(\"x\"): the value is too large",
    );
    // Nesting thousands deep.
    hook_fails(
        "local t = {}\nfor i = 1, 5000 do t = { t } end\ngame.set_prop(1, \"x\", t)",
        6,
        "nested too deeply",
    );
    // A table holding itself.
    hook_fails(
        "local t = {}\nt.self = t\ngame.set(\"x\", t)",
        6,
        "nested too deeply",
    );
    // Text past the bound.
    hook_fails(
        "game.set(\"x\", { string.rep('x', 3000000), string.rep('y', 3000000) })",
        4,
        "the value is too large",
    );
}

#[test]
fn the_variables_together_cannot_grow_without_bound() {
    // Each value is under the bound for one value; together they pass the bound for all.
    hook_fails(
        "local s = string.rep('x', 3000000)\nfor i = 1, 100 do game.set('v' .. i, s) end",
        5,
        "the game's variables would take",
    );
    // Replacing one variable again and again is fine.
    let mut g =
        hook_game("local s = string.rep('x', 3000000)\nfor i = 1, 100 do game.set('v', s) end");
    g.apply("go").unwrap();
}

#[test]
fn a_piece_s_properties_cannot_grow_without_bound() {
    let script = r#"
return {
  actions = function(g, seat) return { "go" } end,
  apply = function(g, seat, action)
    local s = string.rep('x', 300000)
    for i = 1, 100 do game.set_prop(1, 'p' .. i, s) end
  end,
}
"#;
    let def = Arc::new(support::probe_with_pieces(script, PAWN));
    let mut g = Game::new(def, Setup::new(1, 1)).unwrap();
    let e = g.apply("go").unwrap_err().to_string();
    assert!(e.contains("the piece's properties would take"), "{e}");
    assert!(e.contains("r.luau:6:"), "{e}");
}

/// A piece kind with one pawn.
const PAWN: &str = "[[pieces]]\nid = \"pawn\"\nname = \"Pawn\"\ncount = 1\n";

#[test]
fn the_log_is_bounded() {
    hook_fails(
        "game.log(string.rep('x', 100000))",
        4,
        "game.log: a line of 100000 bytes is too long",
    );
    hook_fails(
        "for i = 1, 200000 do game.log('x') end",
        4,
        "the log is full",
    );
}

// 3. State kept between games on a reused VM, and determinism.

#[test]
fn every_table_of_data_is_frozen_however_deep() {
    use farebox::content::{self, NoDependencies};
    use farebox::source::MemSource;
    // Content with nesting at every place `data` shows it: tile and piece props, card fields
    // and tags, table rows (by position and by key), constants.
    let src = MemSource::new("probe")
        .with(
            "mod.toml",
            &support::MANIFEST.replace("[content]\n", "[content]\ndecks = [\"decks.toml\"]\ntables = [\"tables.toml\"]\n"),
        )
        .with(
            "pieces.toml",
            &format!(
                "{}\n[[pieces]]\nid = \"pawn\"\nname = \"Pawn\"\ncount = 1\nprops = {{ a = {{ b = {{ c = {{ d = {{ e = {{ f = {{ g = {{ h = {{ i = [1] }} }} }} }} }} }} }} }} }}\n",
                support::PIECES
            ),
        )
        .with(
            "decks.toml",
            "id = \"d\"\nname = \"D\"\n[[cards]]\nid = \"c\"\nname = \"C\"\ntags = [\"x\"]\n",
        )
        .with(
            "tables.toml",
            "id = \"t\"\nname = \"T\"\nkey = \"k\"\n[columns.k]\ntype = \"int\"\nrequired = true\n[[rows]]\nk = 1\n",
        )
        .with(
            "rules/r.luau",
            r#"
local open = {}
local function walk(t, path, seen)
  if seen[t] then return end
  seen[t] = true
  if not pcall(function() rawset(t, "__farebox_probe", true) end) then else table.insert(open, path) end
  for k, v in pairs(t) do
    if type(v) == "table" then walk(v, path .. "." .. tostring(k), seen) end
  end
end
walk(data, "data", {})
return {
  setup = function(g) game.set("open", table.concat(open, " ")) end,
}
"#,
        );
    let def = match content::load_mod(&src, &NoDependencies) {
        Ok(d) => d,
        Err(e) => panic!("{e}"),
    };
    let g = Game::new(Arc::new(def), Setup::new(1, 1)).unwrap();
    assert_eq!(
        g.view(None).vars.get("open").cloned(),
        Some(Value::Str(String::new())),
        "tables of data a script could write to"
    );
}

#[test]
fn weak_tables_cannot_be_made_after_setmetatable() {
    // __mode added to the metatable once it is in use.
    let e = load_error("local mt = {}\nlocal t = setmetatable({}, mt)\nmt.__mode = 'k'");
    assert!(e.contains("r.luau:3:") && e.contains("readonly"), "{e}");
    // Through getmetatable of a table that already has one.
    let e =
        load_error("local t = setmetatable({}, { __index = {} })\ngetmetatable(t).__mode = 'v'");
    assert!(e.contains("r.luau:2:") && e.contains("readonly"), "{e}");
    // rawset does not get past a frozen table either.
    let e = load_error("local mt = {}\nsetmetatable({}, mt)\nrawset(mt, '__mode', 'kv')");
    assert!(e.contains("r.luau:3:"), "{e}");
    // The string metatable is read-only too.
    let e = load_error("getmetatable('').__mode = 'k'");
    assert!(e.contains("r.luau:1:") && e.contains("readonly"), "{e}");
}

#[test]
fn addresses_never_reach_a_script() {
    // tostring and string.format of a table or function would differ from run to run (and
    // a replay would fail to verify).
    let mut g = hook_game(
        "game.set('a', tostring({}) .. ' ' .. tostring(print or error) .. ' ' .. string.format('%s %s %d', {}, 'x', 3))\ngame.set('b', tostring(setmetatable({}, { __tostring = function() return 'mine' end })))",
    );
    g.apply("go").unwrap();
    let v = g.view(None).vars;
    assert_eq!(
        v.get("a").cloned(),
        Some(Value::Str("table function table x 3".into()))
    );
    assert_eq!(v.get("b").cloned(), Some(Value::Str("mine".into())));
}

#[test]
fn what_a_script_stashes_in_shared_tables_does_not_reach_the_next_game() {
    let def = Arc::new(support::probe(
        r#"
local stash = pcall(function() rawset(data.constants, "stash", (rawget(data.constants, "stash") or 0) + 1) end)
local lib = pcall(function() string.stash = 1 end)
local strmt = pcall(function() getmetatable("").stash = 1 end)
return {
  setup = function(g)
    game.set("writes", tostring(stash) .. tostring(lib) .. tostring(strmt))
  end,
}
"#,
    ));
    let first = Game::new(def.clone(), Setup::new(1, 1)).unwrap();
    assert_eq!(
        first.view(None).vars.get("writes").cloned(),
        Some(Value::Str("falsefalsefalse".into()))
    );
    let second = Game::with_host(Setup::new(1, 2), first.into_host()).unwrap();
    assert_eq!(
        second.view(None).vars.get("writes").cloned(),
        Some(Value::Str("falsefalsefalse".into()))
    );
}

#[test]
fn the_pieces_properties_together_cannot_grow_without_bound() {
    // Each piece stays under its own bound; together they would not.
    let script = r#"
return {
  actions = function(g, seat) return { "go" } end,
  apply = function(g, seat, action)
    local s = string.rep('x', 900000)
    for _, p in game.pieces("pawn") do game.set_prop(p, 'load', s) end
  end,
}
"#;
    let pawns = PAWN.replace("count = 1", "count = 100");
    let def = support::probe_with_pieces(script, &pawns);
    let mut g = Game::new(Arc::new(def), Setup::new(1, 1)).unwrap();
    let before = g.state().hash();
    let e = g.apply("go").unwrap_err().to_string();
    assert!(
        e.contains("properties would take") && e.contains("in all"),
        "{e}"
    );
    assert_eq!(g.state().hash(), before, "rolled back");
}

// 4. What the game holds outside the VM shares the memory limit with it.

/// A probe game under `limits` whose rules are `script`.
fn game_with(script: &str, limits: Limits) -> Game {
    Game::with_limits(Arc::new(support::probe(script)), Setup::new(1, 7), limits)
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Applies `action` until it fails (at most `tries` times); the error, with the state, log and
/// history checked to be as before the failing action.
fn fails_within(g: &mut Game, action: &str, tries: usize) -> String {
    for _ in 0..tries {
        let (hash, log, history) = (g.state().hash(), g.log().len(), g.history().len());
        if let Err(e) = g.apply(action) {
            assert_eq!(g.state().hash(), hash, "rolled back");
            assert_eq!((g.log().len(), g.history().len()), (log, history));
            return e.to_string();
        }
    }
    panic!("`{action}` was applied {tries} times without reaching a limit");
}

#[test]
fn the_log_counts_against_the_memory_limit() {
    // 1,000 lines of 4,000 bytes an action: each line and the log's line count are within
    // their own bounds (100,000 lines of 4,000 bytes, 400 MB, used to be allowed), but the
    // game may not hold more than its memory limit.
    let mut g = hook_game("local s = string.rep('x', 4000)\nfor i = 1, 1000 do game.log(s) end");
    let e = fails_within(&mut g, "go", 40);
    assert!(e.contains("memory limit of 64 MiB exceeded"), "{e}");
    assert!(
        e.contains("the game's log holds 6"),
        "says what holds it: {e}"
    );
    assert!(e.contains("probe/rules/r.luau:5:"), "names the line: {e}");
    assert!(g.log().len() < 17_000, "{} lines kept", g.log().len());
    // The game goes on after the refusal.
    g.apply("ok").unwrap();
}

#[test]
fn variables_properties_and_log_share_the_limit() {
    // Each store within its own bound (16 MiB of variables, 16 MiB of properties), but not
    // within the game's limit together with the log.
    let script = r#"
return {
  actions = function(g, seat) return { "vars", "props", "log" } end,
  apply = function(g, seat, action)
    local s = string.rep('x', 3000000)
    if action == "vars" then for i = 1, 5 do game.set('v' .. i, s) end end
    if action == "props" then for i = 1, 5 do game.set_prop(1, 'p' .. i, string.rep('y', 190000)) end end
    if action == "log" then for i = 1, 5000 do game.log(string.rep('z', 4000)) end end
  end,
}
"#;
    let pawn = PAWN.replace("count = 1", "count = 2");
    let def = Arc::new(support::probe_with_pieces(script, &pawn));
    let limits = Limits {
        memory: 32 << 20,
        ..Limits::default()
    };
    let mut g = Game::with_limits(def, Setup::new(1, 1), limits).unwrap();
    g.apply("vars").unwrap();
    g.apply("props").unwrap();
    let e = fails_within(&mut g, "log", 1);
    assert!(e.contains("memory limit of 32 MiB exceeded"), "{e}");
    assert!(e.contains("its variables hold 14"), "{e}");
    assert!(e.contains("the game's log holds"), "{e}");
    assert!(e.contains("r.luau:8:"), "{e}");
    // A variable that would take the game past the limit is refused where it is set.
    let mut g = game_with(
        "return {\n  actions = function(g, seat) return { \"go\" } end,\n  apply = function(g, seat, action)\n    local s = string.rep('x', 3000000)\n    for i = 1, 5 do game.set('v' .. i, s) end\n  end,\n}\n",
        Limits {
            memory: 16 << 20,
            ..Limits::default()
        },
    );
    let e = fails_within(&mut g, "go", 1);
    assert!(
        e.contains("memory limit of 16 MiB exceeded: its variables hold"),
        "{e}"
    );
    assert!(e.contains("r.luau:5:"), "{e}");
}

#[test]
fn a_limit_reached_through_the_game_stays_reached_under_pcall() {
    // What the VM holds depends on when garbage is collected, so a script must not catch the
    // refusal and go on.
    let mut g = hook_game(
        "local s = string.rep('x', 4000)\nlocal ok = pcall(function() for i = 1, 20000 do game.log(s) end end)\ngame.set('after', ok)",
    );
    let e = g.apply("go").unwrap_err().to_string();
    assert!(e.contains("memory limit of 64 MiB exceeded"), "{e}");
    assert!(!g.view(None).vars.contains_key("after"));
}

#[test]
fn the_actions_taken_count_against_the_memory_limit() {
    // Long actions, each within the 1,000 bytes an action may have, in a game that never
    // ends: the list of actions taken (kept for replays) is memory the game holds.
    let mut g = game_with(
        "return {\n  actions = function(g, seat) return { string.rep('a', 999) .. (g.turn() % 2) } end,\n  apply = function(g, seat, action) game.end_turn() end,\n}\n",
        Limits {
            memory: 8 << 20,
            ..Limits::default()
        },
    );
    let mut err = None;
    for _ in 0..20_000 {
        let actions = match g.legal_actions() {
            Ok(a) => a,
            Err(e) => {
                err = Some(e.to_string());
                break;
            }
        };
        if let Err(e) = g.apply_legal(&actions[0]) {
            err = Some(e.to_string());
            break;
        }
    }
    let e = err.expect("20,000 actions of 1,000 bytes fit in 8 MiB");
    assert!(e.contains("memory limit of 8 MiB exceeded"), "{e}");
    assert!(e.contains("the actions taken so far hold"), "{e}");
}

#[test]
fn a_bot_s_tries_under_way_count_against_the_memory_limit() {
    // Each try changes a variable, so each snapshot kept to undo it holds a copy of the
    // variables (4 MiB): 200 tries standing would hold 800 MiB.
    let manifest = support::MANIFEST.replace(
        "[content]",
        "[[bots]]\nid = \"hoarder\"\nname = \"Hoarder\"\nscript = \"bots/b.luau\"\n[content]",
    );
    let rules = r#"
return {
  setup = function(g) game.set('big', string.rep('x', 4000000)) end,
  actions = function(g, seat) return { "a", "b" } end,
  apply = function(g, seat, action) game.set('n', (game.get('n') or 0) + 1) end,
}
"#;
    let bot = "return { choose = function(game, seat, actions)\n  for i = 1, 200 do game.try(actions[1]) end\n  return 1\nend }\n";
    let def = Arc::new(support::mem_mod(
        "probe",
        &[
            ("mod.toml", &manifest),
            ("pieces.toml", support::PIECES),
            ("rules/r.luau", rules),
            ("bots/b.luau", bot),
        ],
    ));
    let limits = Limits {
        memory: 32 << 20,
        ..Limits::default()
    };
    let mut g = Game::with_limits(def.clone(), Setup::new(1, 1), limits).unwrap();
    let before = g.state().hash();
    let actions = g.legal_actions().unwrap();
    let mut rng = farebox::rng::Rng::new(1, 1);
    let e = g
        .bot_choose("hoarder", &actions, &mut rng)
        .unwrap_err()
        .to_string();
    assert!(e.contains("memory limit of 32 MiB exceeded"), "{e}");
    assert!(e.contains("the bot's tries under way hold"), "{e}");
    assert!(e.contains("bots/b.luau:2:"), "{e}");
    assert_eq!(g.state().hash(), before, "every try was taken back");
}

// 5. Every action the `actions` hook offers can be written in a replay.

#[test]
fn actions_a_replay_could_not_hold_are_refused_where_they_are_offered() {
    for (offered, expect) in [
        ("''", "is empty"),
        (
            "string.rep('x', 1001)",
            "is 1001 bytes long; an action has at most 1000 bytes",
        ),
        ("'move\\n2'", "holds a line break"),
        ("'ok\\27[2J'", "holds the control character U+001B"),
    ] {
        let script = format!(
            "return {{\n  actions = function(g, seat)\n    return {{ 'fine', {offered} }}\n  end,\n  apply = function(g, seat, action) end,\n}}\n"
        );
        let mut g = game_with(&script, Limits::default());
        let e = g.legal_actions().unwrap_err().to_string();
        assert!(e.contains(expect), "{offered}: {e}");
        assert!(e.contains("item 2 of the actions list"), "{offered}: {e}");
        assert!(
            e.contains("probe/rules/r.luau:2:") && e.contains("in actions"),
            "names the hook's function: {e}"
        );
        assert!(
            !e.contains('\n') && !e.contains('\u{1b}'),
            "one line: {e:?}"
        );
    }
    // The longest action a replay holds is still fine.
    let mut g = game_with(
        "return {\n  actions = function(g, seat) return { string.rep('x', 1000) } end,\n  apply = function(g, seat, action) end,\n}\n",
        Limits::default(),
    );
    assert_eq!(g.legal_actions().unwrap()[0].len(), 1000);
}

#[test]
fn a_memory_error_while_loading_names_the_script() {
    // The second of two scripts makes one allocation far past the limit: the allocator
    // refuses it, with no line to report, and the error must still name that script.
    let manifest = support::MANIFEST.replace(
        "scripts = [\"rules/r.luau\"]",
        "scripts = [\"rules/r.luau\", \"rules/big.luau\"]",
    );
    let big = "local s = string.rep('x', 40 * 2^20)\nlocal t = s .. s\nreturn {}\n";
    let def = Arc::new(support::mem_mod(
        "probe",
        &[
            ("mod.toml", &manifest),
            ("pieces.toml", support::PIECES),
            ("rules/r.luau", "return {}\n"),
            ("rules/big.luau", big),
        ],
    ));
    let e = match Game::new(def, Setup::new(1, 1)) {
        Ok(_) => panic!("loaded"),
        Err(e) => e.to_string(),
    };
    assert!(e.contains("memory limit of 64 MiB exceeded"), "{e}");
    assert!(
        e.starts_with("probe/rules/big.luau"),
        "names the script: {e}"
    );
}
