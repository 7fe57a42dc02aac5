//! Cards go into a zone on top, at the bottom, in the middle or at a given depth.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::sync::Arc;

use farebox::game::{Game, Setup};
use farebox::value::Value;

const MANIFEST: &str = r#"
id = "stacker"
name = "Stacker"
version = "1.0.0"
engine = "0.1"
players = { min = 1, max = 1 }
scripts = ["rules/r.luau"]
[content]
decks = ["decks/d.toml"]
pieces = "pieces.toml"
"#;

const DECK: &str = r#"
id = "d"
name = "D"
[[cards]]
id = "x"
name = "X"
count = 6
[[cards]]
id = "finish"
name = "Finish"
"#;

const PIECES: &str = r#"
[[zones]]
id = "deck"
name = "Deck"
visibility = "public"
deck = "d"
[[zones]]
id = "aside"
name = "Aside"
visibility = "public"
"#;

const RULES: &str = r#"
return {
  setup = function() game.take_card(game.zone("deck"), "finish", game.zone("aside")) end,
  actions = function() return { "wait" } end,
  apply = function() end,
}
"#;

fn game() -> Game {
    let def = support::mem_mod(
        "stacker",
        &[
            ("mod.toml", MANIFEST),
            ("decks/d.toml", DECK),
            ("pieces.toml", PIECES),
            ("rules/r.luau", RULES),
        ],
    );
    Game::new(Arc::new(def), Setup::new(1, 1)).unwrap()
}

/// Puts the Finish into the six-card deck `where`, and says how many cards lie above it.
fn above(g: &mut Game, place: &str) -> Value {
    g.eval(&format!(
        r#"local deck = game.zone("deck")
           game.take_card(deck, "finish", game.zone("aside"))
           game.move_card(game.zone("aside"), deck, {place})
           local cards = game.cards(deck)
           return #cards - table.find(cards, "finish")"#
    ))
    .unwrap()
}

#[test]
fn a_card_goes_where_it_is_told() {
    let mut g = game();
    assert_eq!(above(&mut g, "nil"), Value::Int(0));
    assert_eq!(above(&mut g, "'top'"), Value::Int(0));
    assert_eq!(above(&mut g, "'bottom'"), Value::Int(6));
    assert_eq!(above(&mut g, "'middle'"), Value::Int(3));
    assert_eq!(above(&mut g, "'1'"), Value::Int(0));
    assert_eq!(above(&mut g, "4"), Value::Int(3), "a number works too");
    assert_eq!(
        above(&mut g, "'99'"),
        Value::Int(6),
        "past the bottom: bottom"
    );
}

#[test]
fn a_bad_place_is_refused_in_plain_words() {
    let mut g = game();
    for bad in ["'0'", "'side'", "'-2'"] {
        let e = g
            .eval(&format!(
                "game.move_card(game.zone('deck'), game.zone('aside'), {bad})"
            ))
            .unwrap_err();
        assert!(
            e.to_string().contains("is not a place in a zone"),
            "{bad}: {e}"
        );
    }
}
