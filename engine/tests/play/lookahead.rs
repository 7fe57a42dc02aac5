//! Lookahead for scripted bots: `game.try(action)` applies an action for the bot to look at,
//! through its own seat's view, and `game.undo()` takes it back; whatever is still tried when
//! the bot chooses is undone, so the game is exactly as before.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::sync::Arc;

use farebox::agent::Agent;

use farebox::game::{Game, Setup};
use farebox::value::Value;

const MANIFEST: &str = r#"
id = "counting"
name = "Counting"
version = "1.0.0"
engine = "0.1"
players = { min = 2, max = 2 }
scripts = ["rules/r.luau"]
[[bots]]
id = "greedy"
name = "Greedy"
script = "bots/greedy.luau"
[[bots]]
id = "bad"
name = "Bad"
script = "bots/bad.luau"
[content]
pieces = "pieces.toml"
"#;

const PIECES: &str = r#"
[[counters]]
id = "points"
name = "Points"
scope = "seat"
"#;

// Each action adds points: "add 1", "add 5", or "gamble", which adds 9 but gives the turn
// to a secret-keeping rival... and "trap", which takes 20 away.
const RULES: &str = r#"
return {
  setup = function() game.set_secret("plan", "steal", 2) end,
  actions = function(g, seat) return { "add 1", "trap", "add 5", "pass" } end,
  apply = function(g, seat, action)
    if action == "trap" then game.add_counter("points", seat, -20)
    elseif action ~= "pass" then game.add_counter("points", seat, tonumber(string.split(action, " ")[2]))
    end
    game.log(game.seat_name(seat) .. " does " .. action)
    game.end_turn()
  end,
}
"#;

// Tries every action, reads its own points after it (and whether it may see seat 2's plan),
// undoes it, and takes the best.
const GREEDY: &str = r#"
return { choose = function(g, seat, actions)
  local best, best_points = 1, -math.huge
  for i, a in actions do
    assert(game.try(a), "a legal action is tried")
    local p = game.counter("points", seat)
    assert(game.get("plan") == nil, "a try does not show what the seat may not see")
    assert(game.undo())
    if p > best_points then best, best_points = i, p end
  end
  assert(not game.undo(), "nothing left to undo")
  assert(not game.try("fly"), "an illegal action is not tried")
  -- Left tried on purpose: the engine takes it back.
  game.try(actions[2])
  return best
end }
"#;

const BAD: &str = r#"
return { choose = function(g, seat, actions)
  while true do game.try(actions[1]) game.undo() end
end }
"#;

fn def() -> Arc<farebox::GameDef> {
    Arc::new(support::mem_mod(
        "counting",
        &[
            ("mod.toml", MANIFEST),
            ("pieces.toml", PIECES),
            ("rules/r.luau", RULES),
            ("bots/greedy.luau", GREEDY),
            ("bots/bad.luau", BAD),
        ],
    ))
}

#[test]
fn a_bot_tries_each_action_and_the_game_is_untouched() {
    let def = def();
    let mut g = Game::new(def.clone(), Setup::new(2, 1)).unwrap();
    let before = (g.state().hash(), g.log().len(), g.history().len());
    let mut bot = Agent::from_spec("greedy", &def, 1, 0).unwrap();
    let actions = g.legal_actions().unwrap();
    let i = bot.choose(&mut g, &actions).unwrap();
    assert_eq!(actions[i], "add 5", "it looked at what each action gives");
    assert_eq!(
        (g.state().hash(), g.log().len(), g.history().len()),
        before,
        "every try was taken back"
    );
    assert_eq!(g.active(), 0);
}

#[test]
fn tries_are_not_possible_outside_a_bot() {
    let mut g = Game::new(def(), Setup::new(2, 1)).unwrap();
    let e = g.eval("return game.try('add 1')").unwrap_err();
    assert!(e.to_string().contains("only in a bot's choose"), "{e}");
}

#[test]
fn a_bot_that_tries_forever_is_stopped_and_nothing_changes() {
    let def = def();
    let mut g = Game::new(def.clone(), Setup::new(2, 1)).unwrap();
    let before = g.state().hash();
    let mut bot = Agent::from_spec("bad", &def, 1, 0).unwrap();
    let actions = g.legal_actions().unwrap();
    let e = bot.choose(&mut g, &actions).unwrap_err();
    assert!(e.to_string().contains("tries in one choose"), "{e}");
    assert_eq!(g.state().hash(), before);
    // The VM is fine afterwards: the game goes on.
    g.apply("add 1").unwrap();
    assert_eq!(g.view(Some(0)).counters[0].1[0], 1);
    let _ = Value::Nil;
}

// A game of guessing what comes next: "roll" rolls a die and shows it, "draw" turns up the top
// card of a face-down deck. The seer bot tries each, reads what it showed, takes it back, and
// then chooses the action whose index says what it saw (1-6 for the die, 7-11 for the card):
// with a try that showed the real future it would always be right.
const SEER_MANIFEST: &str = r#"
id = "seer"
name = "Seer"
version = "1.0.0"
engine = "0.1"
players = { min = 2, max = 2 }
scripts = ["rules/r.luau"]
[[bots]]
id = "seer"
name = "Seer"
script = "bots/seer.luau"
[content]
decks = ["decks/cards.toml"]
pieces = "pieces.toml"
"#;

const SEER_DECK: &str = r#"
id = "cards"
name = "Cards"
[[cards]]
id = "c1"
name = "One"
[[cards]]
id = "c2"
name = "Two"
[[cards]]
id = "c3"
name = "Three"
[[cards]]
id = "c4"
name = "Four"
[[cards]]
id = "c5"
name = "Five"
"#;

const SEER_PIECES: &str = r#"
[[zones]]
id = "deck"
name = "Deck"
visibility = "hidden"
deck = "cards"
shuffle = true
[[zones]]
id = "up"
name = "Face up"
visibility = "public"
"#;

const SEER_RULES: &str = r#"
return {
  actions = function(g, seat)
    local out = {}
    for i = 1, 11 do table.insert(out, "guess " .. i) end
    table.insert(out, "roll")
    table.insert(out, "draw")
    return out
  end,
  apply = function(g, seat, action)
    if action == "roll" then game.set("rolled", game.roll(6))
    elseif action == "draw" then game.move_card(game.zone("deck"), game.zone("up"))
    end
  end,
}
"#;

const SEER_BOT: &str = r#"
return { choose = function(g, seat, actions)
  local n = #actions
  if game.get("want") == "card" then
    assert(game.try(actions[n]))
    local card = game.top(game.zone("up"))
    game.undo()
    return 6 + tonumber(string.sub(card, 2))
  end
  assert(game.try(actions[n - 1]))
  local v = game.get("rolled")
  game.undo()
  return v
end }
"#;

#[test]
fn a_try_does_not_show_the_next_roll_or_the_next_card() {
    let def = Arc::new(support::mem_mod(
        "seer",
        &[
            ("mod.toml", SEER_MANIFEST),
            ("decks/cards.toml", SEER_DECK),
            ("pieces.toml", SEER_PIECES),
            ("rules/r.luau", SEER_RULES),
            ("bots/seer.luau", SEER_BOT),
        ],
    ));
    let (mut rolls_seen, mut cards_seen) = (0, 0);
    for seed in 0..60 {
        // The die.
        let mut g = Game::new(def.clone(), Setup::new(2, seed)).unwrap();
        let mut bot = Agent::from_spec("seer", &def, seed, 0).unwrap();
        let actions = g.legal_actions().unwrap();
        let guess = bot.choose(&mut g, &actions).unwrap() as i64 + 1;
        g.apply("roll").unwrap();
        if g.eval("return game.get('rolled')").unwrap() == Value::Int(guess) {
            rolls_seen += 1;
        }
        // The card.
        let mut g = Game::new(def.clone(), Setup::new(2, seed)).unwrap();
        g.eval("game.set('want', 'card')").unwrap();
        let guess = bot.choose(&mut g, &actions).unwrap() as i64 + 1 - 6;
        g.apply("draw").unwrap();
        let up = g.eval("return game.top(game.zone('up'))").unwrap();
        if up == Value::Str(format!("c{guess}")) {
            cards_seen += 1;
        }
    }
    // By chance one in six rolls and one in five cards; a try that showed the future would
    // get all 60 right.
    assert!(
        rolls_seen < 25,
        "the next roll was foreseen {rolls_seen} times of 60"
    );
    assert!(
        cards_seen < 25,
        "the next card was foreseen {cards_seen} times of 60"
    );
}

// A coin hidden from seat 1: seat 2 flips it at setup and keeps it secret; "call heads" or
// "call tails" wins for seat 1 when it names the coin. The oracle bot tries both calls and
// takes one that won in its try: a try that kept the real secret would always be right.
const COIN_MANIFEST: &str = r#"
id = "coin"
name = "Coin"
version = "1.0.0"
engine = "0.1"
players = { min = 2, max = 2 }
scripts = ["rules/r.luau"]
[[bots]]
id = "oracle"
name = "Oracle"
script = "bots/oracle.luau"
"#;

const COIN_RULES: &str = r#"
return {
  setup = function() game.set_secret("coin", if game.roll(2) == 1 then "heads" else "tails", 2) end,
  actions = function(g, seat) return { "call heads", "call tails" } end,
  apply = function(g, seat, action)
    local won = action == "call " .. game.get("coin")
    game.finish(if won then { 1, 2 } else { 2, 1 }, { 0, 0 }, "called")
  end,
}
"#;

const COIN_IMAGINE: &str = r#"
local rules = {
  setup = function() game.set_secret("coin", if game.roll(2) == 1 then "heads" else "tails", 2) end,
  actions = function(g, seat) return { "call heads", "call tails" } end,
  apply = function(g, seat, action)
    local won = action == "call " .. game.get("coin")
    game.finish(if won then { 1, 2 } else { 2, 1 }, { 0, 0 }, "called")
  end,
  -- A seat that may not see the coin can only imagine it.
  imagine = function(g, seat) game.set_secret("coin", if game.random(2) == 1 then "heads" else "tails", 2) end,
}
return rules
"#;

const ORACLE: &str = r#"
return { choose = function(g, seat, actions)
  local tried = {}
  for i, a in actions do
    if game.try(a) then
      local r = game.result()
      game.undo()
      if r.places[seat] == 1 then return i end
      tried[i] = "lost"
    else
      tried[i] = "refused"
    end
  end
  -- Neither try could tell: say so through the choice (2 when both were refused).
  if tried[1] == "refused" and tried[2] == "refused" then return 2 end
  return 1
end }
"#;

fn coin(rules: &str) -> Arc<farebox::GameDef> {
    Arc::new(support::mem_mod(
        "coin",
        &[
            ("mod.toml", COIN_MANIFEST),
            ("rules/r.luau", rules),
            ("bots/oracle.luau", ORACLE),
        ],
    ))
}

#[test]
fn a_try_never_reads_a_secret_the_seat_may_not_know() {
    // Without an `imagine` hook the rules cannot read the coin in seat 1's tries: each try is
    // refused, and the bot wins only by chance.
    let def = coin(COIN_RULES);
    let mut wins = 0;
    for seed in 0..40 {
        let mut g = Game::new(def.clone(), Setup::new(2, seed)).unwrap();
        let mut bot = Agent::from_spec("oracle", &def, seed, 0).unwrap();
        let actions = g.legal_actions().unwrap();
        let i = bot.choose(&mut g, &actions).unwrap();
        assert_eq!(i, 1, "both tries were refused");
        g.apply(&actions[i]).unwrap();
        wins += usize::from(g.result().unwrap().places[0] == 1);
    }
    assert!(
        (8..=32).contains(&wins),
        "{wins} of 40: chance, not foresight"
    );
    // In a determinized copy the rules reading the coin get a clear error.
    let g = Game::new(def.clone(), Setup::new(2, 3)).unwrap();
    let mut copy = g.determinized(0, 9).unwrap();
    let e = copy.apply("call heads").unwrap_err().to_string();
    assert!(e.contains("game.get(\"coin\")"), "{e}");
    assert!(e.contains("imagine"), "{e}");
    assert!(e.contains("rules/r.luau:6"), "{e}");
}

#[test]
fn an_imagine_hook_gives_tries_a_secret_the_seat_could_believe() {
    let def = coin(COIN_IMAGINE);
    let mut wins = 0;
    for seed in 0..40 {
        let mut g = Game::new(def.clone(), Setup::new(2, seed)).unwrap();
        let real = g.state().vars.get("coin").unwrap().value.clone();
        let mut bot = Agent::from_spec("oracle", &def, seed, 0).unwrap();
        let actions = g.legal_actions().unwrap();
        let i = bot.choose(&mut g, &actions).unwrap();
        // The game is untouched: the real coin is still there, still secret.
        assert_eq!(g.state().vars.get("coin").unwrap().value, real);
        g.apply(&actions[i]).unwrap();
        wins += usize::from(g.result().unwrap().places[0] == 1);
    }
    assert!(
        (8..=32).contains(&wins),
        "{wins} of 40: the tries showed an imagined coin"
    );
    // Seat 2 may see the coin, so its copies keep it and imagine nothing.
    let g = Game::new(def.clone(), Setup::new(2, 3)).unwrap();
    let copy = g.determinized(1, 9).unwrap();
    assert_eq!(
        copy.state().vars.get("coin").unwrap().value,
        g.state().vars.get("coin").unwrap().value
    );
}
