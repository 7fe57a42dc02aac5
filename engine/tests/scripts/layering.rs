//! House rules: mods that depend on a game and wrap its hooks (`before`, `after`) or replace
//! them, in load order, with errors that name the house rule's own file and line.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use farebox::content::{self, GameDef};
use farebox::game::{Game, Setup};
use farebox::source::{MemMods, MemSource};
use farebox::value::Value;

fn manifest(id: &str, depends: Option<&str>) -> String {
    let dep = depends
        .map(|d| format!("depends = [{{ id = \"{d}\", version = \"1.0\" }}]\n"))
        .unwrap_or_default();
    let content = if depends.is_none() {
        "[content]\npieces = \"pieces.toml\"\n"
    } else {
        ""
    };
    format!(
        "id = \"{id}\"\nname = \"{id}\"\nversion = \"1.0.0\"\nengine = \"0.1\"\nplayers = {{ min = 1, max = 2 }}\n{dep}scripts = [\"rules/{id}.luau\"]\n{content}"
    )
}

/// The game every house rule here builds on: two actions, and a trail of what ran.
const BASE: &str = r#"local function mark(s) game.set("trail", (game.get("trail") or "") .. s) end
return {
  setup = function(g) game.set("trail", "") end,
  actions = function(g, seat) return { "a", "b" } end,
  apply = function(g, seat, action)
    mark(",base:" .. action)
    game.add_counter("turns", 1)
  end,
  describe = function(g, seat, action) return "base " .. action end,
  score = function(g, seat) return 1 end,
}
"#;

/// Adds action `c` (handled before the base apply, which never sees it), labels it, and
/// adds 10 to the score.
const EXTRA: &str = r#"local function mark(s) game.set("trail", game.get("trail") .. s) end
return {
  before = {
    apply = function(g, seat, action)
      mark(",extra-before:" .. action)
      if action == "c" then return true end
    end,
    describe = function(g, seat, action)
      if action == "c" then return "extra " .. action end
    end,
  },
  after = {
    actions = function(g, seat, acts) table.insert(acts, "c") end,
    apply = function(g, seat, action) mark(",extra-after:" .. action) end,
    score = function(g, seat, s) return s + 10 end,
  },
}
"#;

/// Built on `extra`: drops action `a`, and takes over action `b` entirely.
const LATER: &str = r#"local function mark(s) game.set("trail", game.get("trail") .. s) end
return {
  before = {
    apply = function(g, seat, action)
      mark(",later-before:" .. action)
      if action == "b" then return true end
    end,
  },
  after = {
    actions = function(g, seat, acts)
      local out = {}
      for _, a in acts do if a ~= "a" then table.insert(out, a) end end
      return out
    end,
    apply = function(g, seat, action) mark(",later-after:" .. action) end,
  },
}
"#;

fn mods(extra_rules: &str, later_rules: &str) -> MemMods {
    let mut m = MemMods::default();
    m.0.insert(
        "base".into(),
        MemSource::new("base")
            .with("mod.toml", &manifest("base", None))
            .with(
                "pieces.toml",
                "[[counters]]\nid = \"turns\"\nname = \"Turns\"\nscope = \"global\"\n",
            )
            .with("rules/base.luau", BASE),
    );
    m.0.insert(
        "extra".into(),
        MemSource::new("extra")
            .with("mod.toml", &manifest("extra", Some("base")))
            .with("rules/extra.luau", extra_rules),
    );
    m.0.insert(
        "later".into(),
        MemSource::new("later")
            .with("mod.toml", &manifest("later", Some("extra")))
            .with("rules/later.luau", later_rules),
    );
    m
}

fn load(m: &MemMods, id: &str) -> GameDef {
    content::load_mod(m.0.get(id).unwrap(), m).unwrap_or_else(|e| panic!("{e}"))
}

fn game(m: &MemMods, id: &str) -> Game {
    Game::new(Arc::new(load(m, id)), Setup::new(1, 3)).unwrap_or_else(|e| panic!("{e}"))
}

fn trail(g: &Game) -> String {
    match g.view(None).vars.get("trail") {
        Some(Value::Str(s)) => s.clone(),
        other => panic!("trail is {other:?}"),
    }
}

fn played(g: &mut Game, action: &str) -> String {
    g.eval("game.set('trail', '')").unwrap();
    g.apply(action).unwrap_or_else(|e| panic!("{e}"));
    trail(g)
}

#[test]
fn without_house_rules_the_base_hooks_run_alone() {
    let m = mods(EXTRA, LATER);
    let mut g = game(&m, "base");
    assert_eq!(g.legal_actions().unwrap(), ["a", "b"]);
    assert_eq!(played(&mut g, "a"), ",base:a");
    assert_eq!(g.describe("b"), "base b");
    assert_eq!(g.score(0), Some(1.0));
}

#[test]
fn before_and_after_hooks_wrap_the_game_they_depend_on() {
    let m = mods(EXTRA, LATER);
    let mut g = game(&m, "extra");
    // `after actions` changed the list in place.
    assert_eq!(g.legal_actions().unwrap(), ["a", "b", "c"]);
    assert_eq!(played(&mut g, "a"), ",extra-before:a,base:a,extra-after:a");
    // The `before` that returns true carries out `c` itself: the base apply never sees it,
    // and the house rule's own `after` still runs.
    assert_eq!(played(&mut g, "c"), ",extra-before:c,extra-after:c");
    assert_eq!(
        g.state().counters.iter().flatten().sum::<i64>(),
        1,
        "only `a` reached the base"
    );
    // A `before` that returns nothing falls through to the base hook.
    assert_eq!(g.describe("c"), "extra c");
    assert_eq!(g.describe("a"), "base a");
    // An `after` gets the result so far and returns a new one.
    assert_eq!(g.score(0), Some(11.0));
}

#[test]
fn later_house_rules_wrap_earlier_ones() {
    let m = mods(EXTRA, LATER);
    let mut g = game(&m, "later");
    assert_eq!(g.legal_actions().unwrap(), ["b", "c"]);
    // Outermost first on the way in, innermost first on the way out.
    assert_eq!(
        played(&mut g, "c"),
        ",later-before:c,extra-before:c,extra-after:c,later-after:c"
    );
    // A `before` that ends the hook skips everything it wraps, the earlier house rule's
    // `after` included.
    assert_eq!(played(&mut g, "b"), ",later-before:b,later-after:b");
    assert_eq!(g.describe("c"), "extra c");
    assert_eq!(g.score(0), Some(11.0));
}

#[test]
fn a_plain_hook_replaces_everything_below_it() {
    let later = r#"return {
  apply = function(g, seat, action) game.set("trail", game.get("trail") .. ",later:" .. action) end,
  after = { apply = function(g, seat, action) game.set("trail", game.get("trail") .. ",later-after") end },
}
"#;
    let m = mods(EXTRA, later);
    let mut g = game(&m, "later");
    // The base apply and `extra`'s wrappers are gone; the replacing script's own `after`
    // wraps its replacement.
    assert_eq!(played(&mut g, "a"), ",later:a,later-after");
    assert_eq!(
        g.legal_actions().unwrap(),
        ["a", "b", "c"],
        "actions untouched"
    );
}

#[test]
fn an_error_in_a_house_rule_names_its_file_and_line_and_rolls_back() {
    let later = "return {\n  after = {\n    apply = function(g, seat, action)\n      game.add_counter(\"turns\", 5)\n      error(\"the meter jammed\")\n    end,\n  },\n}\n";
    let m = mods(EXTRA, later);
    let mut g = game(&m, "later");
    g.apply("a").unwrap_err();
    let (hash, history) = (g.state().hash(), g.history().len());
    let e = g.apply("b").unwrap_err().to_string();
    assert!(e.contains("later/rules/later.luau:5:"), "{e}");
    assert!(e.contains("the meter jammed"), "{e}");
    assert!(e.contains("in apply"), "{e}");
    assert!(e.contains("later"), "names the mod: {e}");
    assert_eq!(
        g.state().hash(),
        hash,
        "the base apply's change was rolled back"
    );
    assert_eq!(g.history().len(), history);
}

#[test]
fn a_bad_list_from_an_after_hook_names_that_hook() {
    let later = "return {\n  after = {\n    actions = function(g, seat, acts)\n      table.insert(acts, \"a\")\n    end,\n  },\n}\n";
    let m = mods(EXTRA, later);
    let mut g = game(&m, "later");
    let e = g.legal_actions().unwrap_err().to_string();
    assert!(e.contains("later/rules/later.luau:3:"), "{e}");
    assert!(e.contains("`a` is listed twice"), "{e}");
    // A value of the wrong type is blamed on the step that returned it.
    let later = "return {\n  after = {\n    actions = function(g, seat, acts)\n      return 5\n    end,\n  },\n}\n";
    let m = mods(EXTRA, later);
    let mut g = game(&m, "later");
    let e = g.legal_actions().unwrap_err().to_string();
    assert!(e.contains("later/rules/later.luau"), "{e}");
    assert!(e.contains("in actions"), "{e}");
}

#[test]
fn mistakes_in_the_hook_table_are_reported_at_load() {
    for (script, expect) in [
        (
            "return { before = { aply = function() end } }",
            "unknown hook `before.aply`; did you mean `apply`?",
        ),
        (
            "return { befor = { apply = function() end } }",
            "unknown hook `befor`; did you mean `before`?",
        ),
        ("return { after = 3 }", "`after` must be a table of hooks"),
        (
            "return { after = { apply = 3 } }",
            "hook `after.apply` must be a function, not a number",
        ),
    ] {
        let m = mods(EXTRA, script);
        let def = Arc::new(load(&m, "later"));
        let e = Game::new(def, Setup::new(1, 3)).err().unwrap().to_string();
        assert!(e.contains(expect), "{script}: {e}");
        assert!(e.contains("later/rules/later.luau"), "{e}");
    }
}

#[test]
fn a_patch_takes_out_adds_and_replaces_content_of_the_game_below() {
    let mut m = mods(EXTRA, LATER);
    let base = m.0.get_mut("base").unwrap();
    let base_manifest = manifest("base", None).replace(
        "[content]\n",
        "[[options]]\nid = \"fast\"\nlabel = \"Fast\"\ntype = \"bool\"\ndefault = false\n[content]\ndecks = [\"d.toml\"]\ntables = [\"t.toml\"]\n",
    );
    *base = base
        .clone()
        .with("mod.toml", &base_manifest)
        .with(
            "pieces.toml",
            "[[counters]]\nid = \"turns\"\nname = \"Turns\"\nscope = \"global\"\n[[counters]]\nid = \"spare\"\nname = \"Spare\"\nscope = \"global\"\n",
        )
        .with(
            "d.toml",
            "id = \"d\"\nname = \"D\"\n[[cards]]\nid = \"x\"\n[[cards]]\nid = \"y\"\nname = \"Y\"\n[[cards]]\nid = \"w\"\n",
        )
        .with(
            "t.toml",
            "id = \"t\"\nname = \"T\"\nkey = \"k\"\n[columns.k]\ntype = \"int\"\n[columns.v]\ntype = \"int\"\n[[rows]]\nk = 1\nv = 10\n[[rows]]\nk = 2\nv = 20\n",
        );
    let extra = m.0.get_mut("extra").unwrap();
    *extra = extra
        .clone()
        .with(
            "mod.toml",
            &format!("{}[content]\npatches = [\"p.toml\"]\n", manifest("extra", Some("base"))),
        )
        .with(
            "p.toml",
            "[remove]\ncounters = [\"spare\"]\noptions = [\"fast\"]\n\n[[decks]]\nid = \"d\"\nremove = [\"x\"]\n[[decks.cards]]\nid = \"y\"\nname = \"Y2\"\ncount = 3\n[[decks.cards]]\nid = \"z\"\n\n[[tables]]\nid = \"t\"\nremove = [1]\n[[tables.rows]]\nk = 2\nv = 22\n[[tables.rows]]\nk = 3\nv = 30\n",
        );
    let def = load(&m, "extra");
    let cards: Vec<(String, String, u32)> = def.decks[0]
        .cards
        .iter()
        .map(|c| (c.id.clone(), c.name.clone(), c.count))
        .collect();
    assert_eq!(
        cards,
        [
            ("y".to_string(), "Y2".to_string(), 3),
            ("w".into(), "w".into(), 1),
            ("z".into(), "z".into(), 1)
        ],
        "x taken out, y replaced in its place, z added at the end"
    );
    let rows: Vec<String> = def.tables[0]
        .rows
        .iter()
        .map(|r| format!("{}={}", r["k"], r["v"]))
        .collect();
    assert_eq!(rows, ["2=22", "3=30"]);
    assert!(def.options.is_empty(), "option taken out");
    let counters: Vec<&str> = def.counters.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(counters, ["turns"]);
    // The game the patch was made for is unchanged.
    let base = load(&m, "base");
    assert_eq!(base.decks[0].cards.len(), 3);
    assert_eq!(base.tables[0].rows.len(), 2);
}

#[test]
fn a_patch_cannot_remove_rows_of_a_keyless_table_or_its_own_items() {
    let mut m = mods(EXTRA, LATER);
    let base = m.0.get_mut("base").unwrap();
    let base_manifest =
        manifest("base", None).replace("[content]\n", "[content]\ntables = [\"t.toml\"]\n");
    *base = base.clone().with("mod.toml", &base_manifest).with(
        "t.toml",
        "id = \"t\"\nname = \"T\"\n[columns.v]\ntype = \"int\"\n[[rows]]\nv = 10\n",
    );
    let extra = m.0.get_mut("extra").unwrap();
    *extra = extra
        .clone()
        .with(
            "mod.toml",
            &format!(
                "{}[content]\npieces = \"pieces.toml\"\npatches = [\"p.toml\"]\n",
                manifest("extra", Some("base"))
            ),
        )
        .with(
            "pieces.toml",
            "[[counters]]\nid = \"mine\"\nname = \"Mine\"\nscope = \"global\"\n",
        )
        .with(
            "p.toml",
            "[remove]\ncounters = [\"mine\"]\n\n[[tables]]\nid = \"t\"\nremove = [10]\n[[tables.rows]]\nv = 20\n",
        );
    let e = content::load_mod(m.0.get("extra").unwrap(), &m)
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("p.toml:2:13: error: counter `mine` is defined by this mod; delete it there instead of removing it"),
        "{e}"
    );
    assert!(
        e.contains("p.toml:6:11: error: table `t` has no `key` column, so its rows cannot be removed or replaced (only added)"),
        "{e}"
    );
    assert_eq!(e.lines().count(), 2, "{e}");
}

#[test]
fn a_house_rule_keeps_its_games_seats_unless_it_sets_its_own() {
    let named = |id: &str, dep: Option<&str>, extra: &str| {
        manifest(id, dep).replacen("players = { min = 1, max = 2 }\n", extra, 1)
    };
    let mut m = mods(EXTRA, LATER);
    // The base names its seats; `extra` says nothing of seats; `later` sets its own.
    for (id, dep, seats) in [
        (
            "base",
            None,
            "players = { min = 1, max = 2 }\nseat_names = [\"Red\", \"Blue\"]\n",
        ),
        ("extra", Some("base"), ""),
        (
            "later",
            Some("extra"),
            "players = { min = 2, max = 3 }\nseat_names = [\"North\", \"South\", \"East\"]\n",
        ),
    ] {
        let src = m.0.get_mut(id).unwrap();
        *src = src.clone().with("mod.toml", &named(id, dep, seats));
    }
    let extra = load(&m, "extra");
    assert_eq!(extra.players, (1, 2));
    assert_eq!(extra.seat_names, ["Red", "Blue"]);
    assert_eq!(extra.seat_name(1), "Blue");
    let later = load(&m, "later");
    assert_eq!(later.players, (2, 3));
    assert_eq!(later.seat_names, ["North", "South", "East"]);

    // A mistake in the seats a house rule inherits is reported in the file that made it.
    let base = m.0.get_mut("base").unwrap();
    *base = base.clone().with(
        "mod.toml",
        &named("base", None, "players = { min = 3, max = 2 }\n"),
    );
    let e = content::load_mod(m.0.get("extra").unwrap(), &m)
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("base/mod.toml:5:"),
        "the error should point into the base game's manifest: {e}"
    );
    assert!(
        e.contains("players.max (2) is less than players.min (3)"),
        "{e}"
    );
}

#[test]
fn a_counter_started_from_a_constant_follows_a_house_rule_that_changes_it() {
    let mut m = mods(EXTRA, LATER);
    let base = m.0.get_mut("base").unwrap();
    *base = base
        .clone()
        .with(
            "mod.toml",
            &format!("{}[constants]\nstart = 4\n", manifest("base", None)),
        )
        .with(
            "pieces.toml",
            "[[counters]]\nid = \"turns\"\nname = \"Turns\"\nscope = \"global\"\ninitial_constant = \"start\"\n",
        );
    let extra = m.0.get_mut("extra").unwrap();
    *extra = extra.clone().with(
        "mod.toml",
        &format!(
            "{}[constants]\nstart = 9\n",
            manifest("extra", Some("base"))
        ),
    );
    let turns = |g: &Game| {
        g.view(None)
            .counters
            .iter()
            .find(|(id, _)| id == "turns")
            .map(|(_, v)| v.clone())
    };
    assert_eq!(turns(&game(&m, "base")), Some(vec![4]));
    assert_eq!(turns(&game(&m, "extra")), Some(vec![9]));
}
