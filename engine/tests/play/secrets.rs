//! Whatever chooses for a seat reads the game through that seat's view: a bot, the `actions`
//! hook and the `describe` hook see a secret only if the seat may, the cards of a zone only
//! if the seat may look into it, and a face-down deck's order not at all. The rules
//! themselves (`setup`, `apply`, the console) see everything.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::sync::Arc;

use farebox::agent::Agent;
use farebox::content::GameDef;
use farebox::game::{Game, Setup};
use farebox::value::Value;

const MANIFEST: &str = r#"
id = "secrets"
name = "Secrets"
version = "1.0.0"
engine = "0.1"
players = { min = 2, max = 2 }
scripts = ["rules/r.luau"]
[[bots]]
id = "peek"
name = "Peek"
script = "bots/peek.luau"
[content]
decks = ["decks/cards.toml"]
pieces = "pieces.toml"
"#;

const DECK: &str = r#"
id = "cards"
name = "Cards"
[[cards]]
id = "ace"
name = "Ace"
[[cards]]
id = "king"
name = "King"
[[cards]]
id = "queen"
name = "Queen"
[[cards]]
id = "jack"
name = "Jack"
[[cards]]
id = "ten"
name = "Ten"
"#;

const PIECES: &str = r#"
[[zones]]
id = "deck"
name = "Deck"
visibility = "hidden"
deck = "cards"
[[zones]]
id = "hand"
name = "Hand"
per_seat = true
visibility = "owner"
[[zones]]
id = "pile"
name = "Pile"
visibility = "top"
"#;

/// What a seat's reads see, as one string: the answer secret (seat 2's), seat 1's and seat
/// 2's hands, the deck, the pile, and the top of the deck and the pile.
const LOOK: &str = r#"
local function look()
  local function list(z) return table.concat(game.cards(z), "+") end
  return table.concat({
    tostring(game.get("answer")), tostring(game.get("nobody")), tostring(game.get("open")),
    list(game.zone("hand", 1)), list(game.zone("hand", 2)), list(game.zone("deck")),
    list(game.zone("pile")), tostring(game.top(game.zone("deck"))), tostring(game.top(game.zone("pile"))),
    tostring(game.count(game.zone("deck"))),
  }, " ")
end
"#;

fn rules() -> String {
    format!(
        r#"{LOOK}
return {{
  setup = function(g)
    local deck = game.zone("deck")
    game.move_card(deck, game.zone("hand", 1))
    game.move_card(deck, game.zone("hand", 2))
    game.move_card(deck, game.zone("pile"))
    game.move_card(deck, game.zone("pile"))
    game.set_secret("answer", "forty-two", 2)
    game.set_secret("nobody", "hidden")
    game.set("open", "public")
  end,
  actions = function(g, seat) return {{ "look " .. look(), "pass" }} end,
  describe = function(g, seat, action)
    if action == "pass" then return "Pass, seeing " .. look() .. " as " .. tostring(game.viewer()) end
    return action
  end,
  apply = function(g, seat, action)
    game.set("applied", action)
    game.end_turn()
  end,
}}"#
    )
}

/// The bot chooses by what it can read: the first action if it can see the answer secret.
fn bot() -> String {
    format!(
        r#"{LOOK}
return {{ choose = function(g, seat, actions)
  if game.get("answer") ~= nil then return 1 end
  return 2
end }}"#
    )
}

fn def() -> Arc<GameDef> {
    Arc::new(support::mem_mod(
        "secrets",
        &[
            ("mod.toml", MANIFEST),
            ("decks/cards.toml", DECK),
            ("pieces.toml", PIECES),
            ("rules/r.luau", &rules()),
            ("bots/peek.luau", &bot()),
        ],
    ))
}

fn game() -> Game {
    Game::new(def(), Setup::new(2, 3)).unwrap()
}

/// The full truth, as the rules see it.
fn truth(g: &mut Game) -> String {
    let code = format!("{LOOK}\nreturn look()");
    match g.eval(&code).unwrap() {
        Value::Str(s) => s,
        v => panic!("{v:?}"),
    }
}

fn seen_by_actions_hook(g: &mut Game) -> String {
    let acts = g.legal_actions().unwrap();
    acts[0].strip_prefix("look ").unwrap().to_string()
}

#[test]
fn the_rules_see_everything() {
    let mut g = game();
    let t = truth(&mut g);
    let parts: Vec<&str> = t.split(' ').collect();
    assert_eq!(&parts[..3], &["forty-two", "hidden", "public"]);
    assert!(parts[3..5].iter().all(|h| !h.is_empty()), "{t}");
    assert_eq!(
        parts[5].split('+').count(),
        1,
        "one card left in the deck: {t}"
    );
}

#[test]
fn the_actions_hook_reads_through_the_seat_to_act() {
    let mut g = game();
    let t = truth(&mut g);
    let parts: Vec<&str> = t.split(' ').collect();
    let (hand1, hand2, deck_top, pile_top) = (parts[3], parts[4], parts[7], parts[8]);
    // Seat 1: its own hand, the pile's top card only, no secrets but the public one, and no
    // deck contents (but the count).
    let seen = seen_by_actions_hook(&mut g);
    assert_eq!(
        seen,
        format!("nil nil public {hand1}   {pile_top} nil {pile_top} 1"),
        "truth: {t}"
    );
    assert_ne!(deck_top, "nil");
    // Seat 2 sees its own secret and its own hand, not seat 1's.
    g.apply("pass").unwrap();
    let seen = seen_by_actions_hook(&mut g);
    assert_eq!(
        seen,
        format!("forty-two nil public  {hand2}  {pile_top} nil {pile_top} 1")
    );
}

#[test]
fn labels_are_made_from_what_the_seat_may_see() {
    let mut g = game();
    let t = truth(&mut g);
    let hand1 = t.split(' ').nth(3).unwrap().to_string();
    // Seat 1's own label: its own hand, not seat 2's secret.
    let own = g.describe("pass");
    assert!(
        own.starts_with(&format!("Pass, seeing nil nil public {hand1} ")),
        "{own}"
    );
    assert!(own.ends_with(" as 1"), "{own}");
    assert!(!own.contains("forty-two"));
    // The public label, for everyone else: no hand at all, and game.viewer() is nil.
    let public = g.describe_public("pass");
    assert!(
        public.starts_with("Pass, seeing nil nil public   "),
        "{public}"
    );
    assert!(public.ends_with(" as nil"), "{public}");
    assert!(!public.contains(&hand1), "{public}");
    assert_eq!(g.describe_for("pass", Some(1)), public);
    assert_eq!(g.describe_for("pass", Some(0)), own);
}

#[test]
fn a_bot_reads_through_its_seat() {
    let def = def();
    let mut g = Game::new(def.clone(), Setup::new(2, 3)).unwrap();
    let mut peek = [
        Agent::from_spec("peek", &def, 1, 0).unwrap(),
        Agent::from_spec("peek", &def, 1, 1).unwrap(),
    ];
    // Seat 1 may not see the answer: it passes. Seat 2 may: it looks.
    for (seat, bot) in peek.iter_mut().enumerate() {
        let acts = g.legal_actions().unwrap();
        let i = bot.choose(&mut g, &acts).unwrap();
        let want = if seat == 0 { "pass" } else { "look" };
        assert!(
            acts[i].starts_with(want),
            "seat {}: chose {}",
            seat + 1,
            acts[i]
        );
        let a = acts[i].clone();
        g.apply(&a).unwrap();
    }
}

/// Every zone's cards, as the rules see them.
fn zones(g: &mut Game) -> Vec<String> {
    let code = r#"local out = {}
      for _, z in { game.zone("hand", 1), game.zone("hand", 2), game.zone("deck"), game.zone("pile") } do
        table.insert(out, table.concat(game.cards(z), "+"))
      end
      return out"#;
    match g.eval(code).unwrap() {
        Value::List(v) => v
            .into_iter()
            .map(|x| match x {
                Value::Str(s) => s,
                _ => String::new(),
            })
            .collect(),
        v => panic!("{v:?}"),
    }
}

#[test]
fn determinization_redeals_only_what_the_seat_cannot_see() {
    let mut g = game();
    let truth = zones(&mut g);
    let mut deals = std::collections::BTreeSet::new();
    for seed in 0..20 {
        let mut copy = g.determinized(0, seed).unwrap();
        let z = zones(&mut copy);
        // Seat 1's hand and the pile's top card stay; every zone keeps its count; the same
        // cards are in play.
        assert_eq!(z[0], truth[0], "seed {seed}");
        assert_eq!(z[3].rsplit('+').next(), truth[3].rsplit('+').next());
        for (a, b) in z.iter().zip(&truth) {
            assert_eq!(a.split('+').count(), b.split('+').count());
        }
        let mut all: Vec<&str> = z.iter().flat_map(|s| s.split('+')).collect();
        let mut want: Vec<&str> = truth.iter().flat_map(|s| s.split('+')).collect();
        all.sort();
        want.sort();
        assert_eq!(all, want);
        // Seat 2's secret is not in the copy (the rules reading it are told so, as the mod
        // gives no `imagine` hook); the public variable is.
        let e = copy.eval("return game.get('answer')").unwrap_err();
        assert!(e.message.contains("imagined for seat 1's lookahead"), "{e}");
        assert!(!copy.state().vars.contains_key("answer"));
        assert_eq!(
            copy.eval("return game.get('open')").unwrap(),
            Value::Str("public".into())
        );
        // The same seed deals the same way; the copy plays on.
        let again = zones(&mut g.determinized(0, seed).unwrap());
        assert_eq!(again, z);
        assert!(!copy.legal_actions().unwrap().is_empty());
        deals.insert(z.join(" "));
    }
    assert!(
        deals.len() > 3,
        "different seeds deal differently: {deals:?}"
    );
}

#[test]
fn a_trial_action_is_undone() {
    let mut g = game();
    let before = (zones(&mut g), g.history().len(), g.log().len(), g.active());
    let seen = g
        .trial("pass", |after| {
            (
                after.active(),
                after.view(Some(0)).vars.get("applied").cloned(),
            )
        })
        .unwrap();
    assert_eq!(seen, (1, Some(Value::Str("pass".into()))));
    assert_eq!(
        (zones(&mut g), g.history().len(), g.log().len(), g.active()),
        before
    );
    assert_eq!(g.eval("return game.get('applied')").unwrap(), Value::Nil);
    assert!(
        g.trial("fly", |_| ()).is_err(),
        "an illegal action is refused"
    );
}
