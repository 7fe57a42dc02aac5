//! Where's My Ride?'s house rule Show, Don't Tell changes the rules through hooks as well as the
//! content: a Driver whose emojis say nothing true of the pickup spot draws a fresh hand behind
//! the screen, once a round, and one who still holds nothing true may say done without placing
//! anything, where the game asks for an emoji every round (WR-R4). The bots play it
//! (tests/outcomes/wheres_my_ride.rs holds their margin; tests/leaks/ checks that the fresh
//! hand tells the Riders nothing).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use farebox::batch::Batch;
use farebox::game::{Game, Setup};
use farebox::value::Value;

const PRELUDE: &str = r#"
local function z(id, s) return game.zone(id, s) end
local function empty(a, b) while game.move_card(a, b) do end end
local function fetch(card, to)
  for _, id in { "emoji-bag", "driver-emojis", "text-discard", "location-deck", "candidates" } do
    local zone = if id == "driver-emojis" then z(id, 1) else z(id)
    if game.take_card(zone, card, to) then return end
  end
  error("no card " .. card)
end
local function ids(zone) return game.cards(zone) end
"#;

/// A four-seat game of `id` in which the Aquarium (indoor, water, animals, kids, learning) is
/// the pickup spot and the Driver holds `hand`; the texters have not chosen yet.
fn game(id: &str, hand: &[&str]) -> Game {
    let def = Arc::new(farebox_suite::load(id));
    let mut g = Game::new(def, Setup::new(4, 21)).unwrap();
    let list: Vec<String> = hand.iter().map(|t| format!("'{t}'")).collect();
    ev(
        &mut g,
        &format!(
            "if not table.find(ids(z('candidates')), 'aquarium') then
               game.move_card(z('candidates'), z('location-deck'))
               fetch('aquarium', z('candidates'))
             end
             game.set_secret('_answer', 'aquarium', 1)
             empty(z('driver-emojis', 1), z('emoji-bag'))
             for _, t in {{ {} }} do fetch(t, z('driver-emojis', 1)) end",
            list.join(", ")
        ),
    );
    g
}

fn ev(g: &mut Game, code: &str) -> Value {
    g.eval(&format!("{PRELUDE}\n{code}"))
        .unwrap_or_else(|e| panic!("{e}\n{code}"))
}

fn strings(v: Value) -> Vec<String> {
    match v {
        Value::List(items) => items
            .into_iter()
            .map(|i| i.as_str().unwrap().to_string())
            .collect(),
        _ => vec![],
    }
}

fn cards(g: &mut Game, zone: &str) -> Vec<String> {
    let z = if zone == "driver-emojis" {
        "z('driver-emojis', 1)".to_string()
    } else {
        format!("z('{zone}')")
    };
    strings(ev(g, &format!("return ids({z})")))
}

/// Both texters send their first text: the Driver's part of the round begins.
fn texts_sent(g: &mut Game) {
    while g.active() != 0 {
        let a = g.legal_actions().unwrap()[0].clone();
        g.apply(&a).unwrap();
    }
}

fn offers_done(g: &mut Game) -> bool {
    g.legal_actions().unwrap().iter().any(|a| a == "done")
}

/// The tokens of the house rule's bag with a reading that suggests something the Aquarium is
/// (indoor, water, animals, kids, learning), by tables/meanings.toml: the House (under a roof),
/// the Speak-No-Evil Monkey (hush: learning), the Airplane (far away: water), the Water Wave,
/// the Soccer Ball (a game: kids), the Pill (care), the Books, the Baby (family), the Paw
/// Prints and the Stone Head (history: learning).
const TRUE_OF_THE_AQUARIUM: [&str; 10] = [
    "emoji-house",
    "emoji-speak-no-evil",
    "emoji-airplane",
    "emoji-water-wave",
    "emoji-soccer-ball",
    "emoji-pill",
    "emoji-books",
    "emoji-baby",
    "emoji-paw-prints",
    "emoji-stone-head",
];

/// Whether a token means something the Aquarium is.
fn true_of_the_aquarium(token: &str) -> bool {
    TRUE_OF_THE_AQUARIUM.contains(&token)
}

/// Takes every token true of the Aquarium out of the bag.
fn no_true_token_in_the_bag(g: &mut Game) {
    let list: Vec<String> = TRUE_OF_THE_AQUARIUM
        .iter()
        .map(|t| format!("'{t}'"))
        .collect();
    ev(
        g,
        &format!(
            "for _, t in {{ {} }} do fetch(t, z('text-discard')) end",
            list.join(", ")
        ),
    );
}

/// Log lines seat `seat` (from 1) may read.
fn told(g: &Game, seat: u8) -> String {
    g.log()
        .iter()
        .filter(|e| e.seen.by(Some(seat - 1)))
        .map(|e| e.text.as_ref())
        .collect::<Vec<_>>()
        .join("\n")
}

const NOTHING_TRUE: [&str; 5] = [
    "emoji-moon",
    "emoji-briefcase",
    "emoji-gem-stone",
    "emoji-money-bag",
    "emoji-burger",
];

#[test]
fn in_the_game_a_driver_with_nothing_true_must_still_place_one() {
    let mut g = game("wheres-my-ride", &NOTHING_TRUE);
    texts_sent(&mut g);
    assert_eq!(cards(&mut g, "driver-emojis"), NOTHING_TRUE);
    assert!(!offers_done(&mut g));
}

#[test]
fn a_driver_with_nothing_true_draws_afresh_behind_the_screen() {
    let mut g = game("wheres-my-ride-show-dont-tell", &NOTHING_TRUE);
    let bag = cards(&mut g, "emoji-bag").len();
    texts_sent(&mut g);
    let hand = cards(&mut g, "driver-emojis");
    assert_eq!(hand.len(), 5);
    assert_ne!(hand, NOTHING_TRUE, "the hand is the same");
    assert_eq!(cards(&mut g, "emoji-bag").len(), bag, "as many back as out");
    // Only the Driver is told.
    assert!(told(&g, 1).contains("Nothing behind your screen is true"));
    for rider in 2..=4 {
        assert!(!told(&g, rider).contains("Nothing behind"), "seat {rider}");
    }
    // With something true in the new hand, an emoji must go down as usual.
    let something = hand.iter().any(|t| true_of_the_aquarium(t));
    assert_eq!(offers_done(&mut g), !something, "{hand:?}");
}

#[test]
fn still_nothing_true_the_driver_may_place_nothing() {
    let mut g = game("wheres-my-ride-show-dont-tell", &NOTHING_TRUE);
    // Every true token is out of the bag.
    no_true_token_in_the_bag(&mut g);
    texts_sent(&mut g);
    let hand = cards(&mut g, "driver-emojis");
    assert_ne!(hand, NOTHING_TRUE);
    assert!(!hand.iter().any(|t| true_of_the_aquarium(t)));
    assert!(offers_done(&mut g));
    // The Driver's label says why; everyone else hears only that the Driver is done.
    assert_eq!(
        g.describe("done"),
        "Done without placing anything: nothing you hold is true of the pickup spot"
    );
    assert_eq!(g.describe_public("done"), "Is done placing emojis");
    // Placing is still allowed: only being made to place is gone.
    assert!(
        g.legal_actions()
            .unwrap()
            .iter()
            .any(|a| a.starts_with("place "))
    );
    g.apply("done").unwrap();
    assert!(cards(&mut g, "placed-emojis").is_empty());
    // The spokesperson decides as usual.
    assert_eq!(g.active(), 1);
    assert!(g.legal_actions().unwrap().contains(&"wait".to_string()));
}

#[test]
fn a_driver_with_something_true_keeps_the_hand_and_must_place() {
    let hand = [
        "emoji-moon",
        "emoji-briefcase",
        "emoji-paw-prints",
        "emoji-money-bag",
        "emoji-burger",
    ];
    let mut g = game("wheres-my-ride-show-dont-tell", &hand);
    texts_sent(&mut g);
    assert_eq!(cards(&mut g, "driver-emojis"), hand);
    assert!(!offers_done(&mut g));
    assert!(!told(&g, 1).contains("Nothing behind"));
}

#[test]
fn the_fresh_hand_comes_once_a_round() {
    let mut g = game("wheres-my-ride-show-dont-tell", &NOTHING_TRUE);
    no_true_token_in_the_bag(&mut g);
    texts_sent(&mut g);
    let once = told(&g, 1).matches("Nothing behind").count();
    assert_eq!(once, 1);
    // Placing an untrue token and being done: no second fresh hand this round...
    let a = g
        .legal_actions()
        .unwrap()
        .into_iter()
        .find(|a| a.starts_with("place "))
        .unwrap();
    g.apply(&a).unwrap();
    g.apply("done").unwrap();
    assert_eq!(told(&g, 1).matches("Nothing behind").count(), 1);
    // ...but next round, again.
    g.apply("wait").unwrap();
    texts_sent(&mut g);
    assert_eq!(told(&g, 1).matches("Nothing behind").count(), 2);
}

#[test]
fn only_place_emojis_are_in_the_bag() {
    let mut g = game("wheres-my-ride-show-dont-tell", &NOTHING_TRUE);
    let verdicts = ev(
        &mut g,
        "local n = 0
         for _, e in data.decks.emojis.list do
           for _, m in e.meanings do
             for _, t in data.tables.meanings.by_key[m].suggests do
               if data.tables.tags.by_key[t].group ~= 'place' then n += 1 end
             end
           end
         end
         return n",
    );
    assert_eq!(verdicts, Value::Int(0));
}

#[test]
fn show_dont_tell_games_play_to_the_end_with_bots() {
    let def = Arc::new(farebox_suite::load("wheres-my-ride-show-dont-tell"));
    for (seats, bots) in [
        (2u8, "regular,regular"),
        (4, "regular,random,regular,regular"),
        (7, "random,regular,regular,regular,random,regular,regular"),
    ] {
        for seed in 1..=10 {
            let agents: Vec<String> = bots.split(',').map(String::from).collect();
            let out = Batch::new(&def, Setup::new(seats, seed), &agents, 2_000)
                .unwrap()
                .play_one(0, &mut None, None);
            assert!(out.error.is_none(), "{out:?}");
            let r = out.result.unwrap();
            assert!(r.together.is_some(), "{r:?}");
        }
    }
}
