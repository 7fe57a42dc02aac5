//! Lookahead for scripted bots: `game.try(action)` applies an action for the bot to look at,
//! through its own seat's view, and `game.undo()` takes it back; whatever is still tried when
//! the bot chooses is undone, so the game is exactly as before.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

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
