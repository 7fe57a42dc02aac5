//! A VM reused for another game (what simulations do) plays exactly the game a new VM plays,
//! keeps nothing a script left behind, and the grid tables the API shares stay true to the
//! state, rollbacks included.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::sync::Arc;

use farebox::batch::Batch;
use farebox::content::{self, GameDef, NoDependencies};
use farebox::game::{Game, Setup};
use farebox::rng::Rng;
use farebox::source::FsSource;
use farebox::value::Value;

fn curbside() -> Arc<GameDef> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../mods/curbside");
    Arc::new(
        content::load_mod(&FsSource::new(dir), &NoDependencies).unwrap_or_else(|e| panic!("{e}")),
    )
}

/// Plays random moves from `rng` to the end; returns the actions and the final state hash.
fn play_out(game: &mut Game, rng: &mut Rng) -> (Vec<String>, String) {
    let mut n = 0;
    while !game.is_over() && n < 3000 {
        let acts = game.legal_actions().unwrap();
        let a = acts[rng.below(acts.len() as u32) as usize].clone();
        game.apply_legal(&a).unwrap();
        n += 1;
    }
    (game.history().to_vec(), game.state().hash())
}

#[test]
fn a_reset_vm_plays_the_same_games_as_a_new_one() {
    let def = curbside();
    let mut host = None;
    for seed in [3u64, 11, 12, 40] {
        let mut fresh = Game::new(def.clone(), Setup::new(2, seed)).unwrap();
        let expected = play_out(&mut fresh, &mut Rng::new(seed, 9));
        let mut reused = match host.take() {
            Some(h) => Game::with_host(Setup::new(2, seed), h).unwrap(),
            None => Game::new(def.clone(), Setup::new(2, seed)).unwrap(),
        };
        let got = play_out(&mut reused, &mut Rng::new(seed, 9));
        assert_eq!(got, expected, "seed {seed}");
        host = Some(reused.into_host());
    }
}

#[test]
fn simulations_reusing_vms_match_games_played_alone() {
    let def = curbside();
    let batch = Batch::new(&def, Setup::new(3, 0), &["random".to_string()], 3000).unwrap();
    let mut vm = None;
    for seed in 0..6u64 {
        let alone = batch.play_one(seed, &mut None, None);
        let reused = batch.play_one(seed, &mut vm, None);
        assert!(vm.is_some());
        assert_eq!(alone.actions, reused.actions, "seed {seed}");
        assert_eq!(alone.result, reused.result, "seed {seed}");
    }
}

fn probe(script: &str) -> Arc<GameDef> {
    Arc::new(support::probe(script))
}

fn var(g: &Game, name: &str) -> Value {
    g.view(None).vars.get(name).cloned().unwrap_or(Value::Nil)
}

#[test]
fn nothing_a_script_leaves_behind_reaches_the_next_game() {
    let def = probe(
        r#"
        local calls = 0
        return {
          setup = function(g)
            calls += 1
            game.set("calls", calls)
          end,
          actions = function(g, seat) return { "end" } end,
          apply = function(g, seat, a) game.finish({ 1 }, { 0 }, "done") end,
        }
        "#,
    );
    let first = Game::new(def.clone(), Setup::new(1, 1)).unwrap();
    assert_eq!(var(&first, "calls"), Value::Int(1));
    let second = Game::with_host(Setup::new(1, 2), first.into_host()).unwrap();
    assert_eq!(var(&second, "calls"), Value::Int(1));
    // The libraries are as sealed on a reset VM as on a new one, and globals as refused.
    let mut second = second;
    let e = second.eval("string.upper = nil").unwrap_err();
    assert!(e.message.contains("readonly"), "{}", e.message);
    let e = second.eval("left_behind = 1").unwrap_err();
    assert!(
        e.message.contains("`left_behind` is not declared"),
        "{}",
        e.message
    );
}

#[test]
fn assigning_a_global_is_an_error_with_the_line() {
    for (script, line) in [
        // In a hook: it would outlive the call.
        (
            "return {\n  setup = function(g)\n    counter = (counter or 0) + 1\n  end,\n}\n",
            3,
        ),
        // At load, a global function.
        ("function helper() end\nreturn {}\n", 1),
        // Through a name built at run time is no way round it.
        (
            "return {\n  setup = function(g)\n    local env = getmetatable(_G)\n    rawset(_G, 'x', 1)\n  end,\n}\n",
            4,
        ),
    ] {
        let Err(e) = Game::new(probe(script), Setup::new(1, 1)) else {
            panic!("a global was set: {script}")
        };
        let text = e.to_string();
        assert!(
            text.contains(&format!("r.luau:{line}:")),
            "{script}: {text}"
        );
        assert!(
            text.contains("not declared") || text.contains("readonly"),
            "{script}: {text}"
        );
    }
}

#[test]
fn weak_tables_are_refused_with_the_line() {
    let def = probe(
        r#"
        return {
          setup = function(g)
            local cache = {}
            setmetatable(cache, { __mode = "k" })
          end,
        }
        "#,
    );
    let Err(e) = Game::new(def, Setup::new(1, 1)) else {
        panic!("a weak table was accepted")
    };
    let text = e.to_string();
    assert!(text.contains("r.luau:5"), "{text}");
    assert!(text.contains("weak tables"), "{text}");
    // Ordinary metatables still work.
    let def = probe(
        r#"
        return {
          setup = function(g)
            local t = setmetatable({}, { __index = function(_, k) return k * 2 end })
            game.set("x", t[21])
          end,
        }
        "#,
    );
    let g = Game::new(def, Setup::new(1, 1)).unwrap();
    assert_eq!(var(&g, "x"), Value::Int(42));
}

#[test]
fn shared_grid_tables_follow_changes_and_rollbacks() {
    let mut g = Game::new(curbside(), Setup::new(2, 5)).unwrap();
    let count = "local n = 0 for _ in game.tiles() do n += 1 end return n";
    let before = g.eval(count).unwrap().as_int().unwrap();
    // Find an empty cell and lay a tile there.
    let empty = g
        .eval("local t = game.tiles() for c = 1, game.space_count() do if not t[c] then return c end end")
        .unwrap()
        .as_int()
        .unwrap();
    // A change that fails is rolled back, and the shared table must not show it.
    let failed = g.eval(&format!(
        "game.place_tile({empty}, 'cs-t4', 1); assert(game.tiles()[{empty}]); error('undo')"
    ));
    assert!(failed.is_err());
    assert_eq!(g.eval(count).unwrap().as_int(), Some(before));
    assert_eq!(
        g.eval(&format!("return game.tiles()[{empty}]")).unwrap(),
        Value::Nil
    );
    // A change that holds shows at once, turns included.
    g.eval(&format!("game.place_tile({empty}, 'cs-t4', 1)"))
        .unwrap();
    assert_eq!(g.eval(count).unwrap().as_int(), Some(before + 1));
    assert_eq!(
        g.eval(&format!(
            "local ids, turns = game.tiles() return ids[{empty}] .. turns[{empty}]"
        ))
        .unwrap(),
        Value::Str("cs-t41".into())
    );
    g.eval(&format!("game.set_blocker({empty}, 'cs-t12')"))
        .unwrap();
    assert_eq!(
        g.eval(&format!("return game.blockers()[{empty}]")).unwrap(),
        Value::Str("cs-t12".into())
    );
    // Each layer follows its own changes: a tile laid elsewhere leaves the blockers as they
    // are, a blocker lifted leaves the tiles, and a rolled-back blocker is not shown.
    let other = g
        .eval("local t = game.tiles() for c = 1, game.space_count() do if not t[c] then return c end end")
        .unwrap()
        .as_int()
        .unwrap();
    g.eval(&format!("game.place_tile({other}, 'cs-t1', 0)"))
        .unwrap();
    assert_eq!(
        g.eval(&format!("return game.blockers()[{empty}]")).unwrap(),
        Value::Str("cs-t12".into())
    );
    let failed = g.eval(&format!(
        "game.set_blocker({other}, 'cs-t12'); assert(game.blockers()[{other}]); error('undo')"
    ));
    assert!(failed.is_err());
    assert_eq!(
        g.eval(&format!("return game.blockers()[{other}]")).unwrap(),
        Value::Nil
    );
    g.eval(&format!("game.set_blocker({empty}, nil)")).unwrap();
    assert_eq!(
        g.eval(&format!(
            "return {{ game.blockers()[{empty}] == nil, game.tiles()[{empty}], game.tiles()[{other}] }}"
        ))
        .unwrap(),
        Value::List(vec![
            Value::Bool(true),
            Value::Str("cs-t4".into()),
            Value::Str("cs-t1".into())
        ])
    );
    // The shared tables are read-only.
    let e = g.eval("game.tiles()[1] = 'x'").unwrap_err();
    assert!(e.message.contains("readonly"), "{}", e.message);
}

#[test]
fn a_variable_read_twice_gives_two_tables_of_the_script_s_own() {
    // game.get keeps the table it built for an unchanged variable and hands out copies: a
    // copy changed by the script changes neither the variable nor the next copy, nested
    // tables included, and a change, a rollback or a new game is seen at once.
    let def = probe(
        r#"
        return {
          setup = function(g)
            game.set("v", { a = { 1, 2 }, list = { { x = 1 }, { x = 2 } }, n = 3 })
          end,
        }
        "#,
    );
    let mut g = Game::new(def.clone(), Setup::new(1, 1)).unwrap();
    let original = var(&g, "v");
    let seen = g
        .eval(
            r#"
            local t = game.get("v")
            t.a[1] = 99
            t.n = nil
            t.list[1].x = 5
            table.insert(t.list, { x = 9 })
            local u = game.get("v")
            return { u.a[1], u.n, u.list[1].x, #u.list, rawequal(t, u), rawequal(t.a, u.a),
              rawequal(t.list[2], u.list[2]), table.isfrozen(u) }
            "#,
        )
        .unwrap();
    assert_eq!(
        seen,
        Value::List(vec![
            Value::Int(1),
            Value::Int(3),
            Value::Int(1),
            Value::Int(2),
            Value::Bool(false),
            Value::Bool(false),
            Value::Bool(false),
            Value::Bool(false),
        ])
    );
    assert_eq!(var(&g, "v"), original);
    // A change is read back at once; a change rolled back is not.
    g.eval(r#"game.set("v", { a = { 7 } })"#).unwrap();
    assert_eq!(
        g.eval(r#"return game.get("v").a[1]"#).unwrap(),
        Value::Int(7)
    );
    let failed =
        g.eval(r#"game.set("v", { a = { 8 } }); assert(game.get("v").a[1] == 8); error("undo")"#);
    assert!(failed.is_err());
    assert_eq!(
        g.eval(r#"return game.get("v").a[1]"#).unwrap(),
        Value::Int(7)
    );
    // The same order of iteration as the table the first read built.
    let order = r#"local keys = {} for k in game.get("m") do table.insert(keys, k) end return table.concat(keys, " ")"#;
    g.eval(r#"game.set("m", { zebra = 1, apple = 2, mango = 3, kiwi = 4, fig = 5 })"#)
        .unwrap();
    let first = g.eval(order).unwrap();
    assert_eq!(g.eval(order).unwrap(), first);
    // A reset VM starts the next game with nothing kept from this one.
    let g2 = Game::with_host(Setup::new(1, 2), g.into_host()).unwrap();
    assert_eq!(var(&g2, "v"), original);
    let mut g2 = g2;
    assert_eq!(
        g2.eval(r#"return game.get("v").a[1]"#).unwrap(),
        Value::Int(1)
    );
}
