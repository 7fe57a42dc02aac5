//! What displays get from a mod: action labels and menu paths from the `describe` hook, and
//! the zones a mod keeps out of sight (`shown = false`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use farebox::content::{self, GameDef};
use farebox::game::{Game, Setup};
use farebox::source::{MemMods, MemSource};

const MANIFEST: &str = "id = \"labels\"\nname = \"Labels\"\nversion = \"1.0.0\"\nengine = \"0.1\"\nplayers = { min = 1, max = 2 }\nscripts = [\"rules/labels.luau\"]\n[content]\npieces = \"pieces.toml\"\n";

const PIECES: &str = "[[zones]]\nid = \"deck\"\nname = \"Deck\"\nvisibility = \"hidden\"\n\n[[zones]]\nid = \"ledger\"\nname = \"Ledger\"\nvisibility = \"hidden\"\nshown = false\n";

/// A game whose `describe` returns, for each action, what the action's name says.
fn rules(describe: &str) -> String {
    format!(
        "return {{\n  actions = function(g, seat) return {{ \"plain\", \"path\", \"one\", \"bad\" }} end,\n  apply = function(g, seat, action) end,\n  describe = function(g, seat, action)\n{describe}\n  end,\n}}\n"
    )
}

fn load(rules: &str, extra: Option<&str>) -> GameDef {
    let mut m = MemMods::default();
    m.0.insert(
        "labels".into(),
        MemSource::new("labels")
            .with("mod.toml", MANIFEST)
            .with("pieces.toml", PIECES)
            .with("rules/labels.luau", rules),
    );
    let id = match extra {
        Some(house) => {
            m.0.insert(
                "house".into(),
                MemSource::new("house")
                    .with("mod.toml", "id = \"house\"\nname = \"House\"\nversion = \"1.0.0\"\nengine = \"0.1\"\ndepends = [{ id = \"labels\", version = \"1.0\" }]\nscripts = [\"rules/house.luau\"]\n")
                    .with("rules/house.luau", house),
            );
            "house"
        }
        None => "labels",
    };
    content::load_mod(m.0.get(id).unwrap(), &m).unwrap_or_else(|e| panic!("{e}"))
}

fn game(rules: &str) -> Game {
    Game::new(Arc::new(load(rules, None)), Setup::new(1, 1)).unwrap_or_else(|e| panic!("{e}"))
}

const GOOD: &str = r#"    if action == "plain" then return "A plain label" end
    if action == "path" then return { "Place", "a Bend", "at 3,4" } end
    if action == "one" then return { "Only part" } end
    return action"#;

#[test]
fn a_string_label_is_a_path_of_one_part() {
    let mut g = game(&rules(GOOD));
    assert_eq!(g.describe_path("plain"), ["A plain label"]);
    assert_eq!(g.describe("plain"), "A plain label");
    assert_eq!(g.try_describe_path("plain").unwrap(), ["A plain label"]);
}

#[test]
fn a_list_label_is_a_menu_path_and_its_parts_joined_are_the_label() {
    let mut g = game(&rules(GOOD));
    assert_eq!(g.describe_path("path"), ["Place", "a Bend", "at 3,4"]);
    assert_eq!(g.describe("path"), "Place a Bend at 3,4");
    assert_eq!(g.describe_path("one"), ["Only part"]);
    assert_eq!(g.describe("one"), "Only part");
}

#[test]
fn without_a_describe_hook_the_action_is_its_own_label() {
    let plain = "return {\n  actions = function(g, seat) return { \"go\" } end,\n  apply = function(g, seat, action) end,\n}\n";
    let mut g = game(plain);
    assert_eq!(g.describe_path("go"), ["go"]);
    assert_eq!(g.describe("go"), "go");
}

#[test]
fn bad_labels_are_errors_that_name_the_script_and_the_hook() {
    let cases = [
        (
            "return 42",
            "describe returned a number for the action `bad`; it must return a label: a string, or a list of strings (a menu path)",
        ),
        (
            "return {}",
            "describe returned an empty list for the action `bad`",
        ),
        (
            "return { \"Place\", 3 }",
            "describe returned a menu path for the action `bad` whose part 2 is a number, not a string",
        ),
        (
            "return { \"Place\", \"\" }",
            "whose part 2 is an empty string",
        ),
        (
            "return { first = \"Place\" }",
            "describe returned a table for the action `bad`, with keys other than 1, 2, 3...",
        ),
        (
            "return { \"Place\", x = \"y\" }",
            "with keys other than 1, 2, 3...",
        ),
        (
            "return \"\"",
            "describe returned an empty label for the action `bad`",
        ),
        (
            "return nil",
            "describe returned nothing (nil) for the action `bad`",
        ),
        (
            "return true",
            "describe returned `true` for the action `bad`",
        ),
    ];
    for (body, want) in cases {
        let mut g = game(&rules(&format!("    {body}")));
        let e = g.try_describe_path("bad").expect_err(body);
        let text = e.to_string();
        assert_eq!(e.hook, "describe", "{body}: {text}");
        assert!(text.contains("rules/labels.luau:4"), "{body}: {text}");
        assert!(text.contains(want), "{body}: {text}");
        // Displays that cannot fail fall back to the action itself.
        assert_eq!(g.describe("bad"), "bad", "{body}");
        assert_eq!(g.describe_path("bad"), ["bad"], "{body}");
    }
}

#[test]
fn a_house_rule_after_hook_gets_the_path_so_far_and_is_blamed_for_its_own_result() {
    let house = r#"return {
  after = {
    describe = function(g, seat, action, label)
      if action == "path" then
        local out = table.clone(label)
        table.insert(out, "(house)")
        return out
      end
      if action == "one" then return 7 end
    end,
  },
}
"#;
    let def = load(&rules(GOOD), Some(house));
    let mut g = Game::new(Arc::new(def), Setup::new(1, 1)).unwrap();
    assert_eq!(
        g.describe_path("path"),
        ["Place", "a Bend", "at 3,4", "(house)"]
    );
    assert_eq!(g.describe("plain"), "A plain label");
    let e = g.try_describe_path("one").unwrap_err().to_string();
    assert!(e.contains("rules/house.luau:3"), "{e}");
    assert!(e.contains("mod `house`"), "{e}");
}

#[test]
fn zones_are_shown_unless_the_mod_says_otherwise() {
    let def = load(&rules(GOOD), None);
    let shown = |id: &str| def.zones[def.zone(id).unwrap()].shown;
    assert!(shown("deck"), "shown by default");
    assert!(!shown("ledger"));
}
