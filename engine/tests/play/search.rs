//! The built-in search bot (`search`, `search:N`): it plays any mod with no code, beats the
//! random agent, makes the same choices for the same seed and budget on any thread, and
//! chooses only by what its seat may see.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::sync::Arc;

use farebox::GameDef;
use farebox::agent::Agent;
use farebox::content;
use farebox::game::{Game, Setup};
use farebox::source::{FolderResolver, FsSource};

fn bundled(id: &str) -> Arc<GameDef> {
    let mods = concat!(env!("CARGO_MANIFEST_DIR"), "/../mods");
    let src = FsSource::new(format!("{mods}/{id}"));
    Arc::new(content::load_mod(&src, &FolderResolver::new(mods)).unwrap())
}

const MANIFEST: &str = r#"
id = "twenty-one"
name = "Twenty-One"
version = "1.0.0"
engine = "0.1"
players = { min = 2, max = 2 }
scripts = ["rules/r.luau"]
[content]
pieces = "pieces.toml"
"#;

const PIECES: &str = r#"
[[counters]]
id = "total"
name = "Total"
scope = "global"
"#;

// Seats take turns adding 1, 2 or 3 to a shared total; whoever brings it to 21 wins. The seat
// that leaves the total at 1, 5, 9, 13 or 17 wins whatever the other does, so a player that
// looks ahead beats one that does not.
const RULES: &str = r#"
return {
  actions = function(g, seat)
    local out = {}
    for k = 1, 3 do
      if game.counter("total") + k <= 21 then table.insert(out, "add " .. k) end
    end
    return out
  end,
  apply = function(g, seat, action)
    local t = game.add_counter("total", tonumber(string.split(action, " ")[2]))
    if t == 21 then
      local places = { 2, 2 }
      places[seat] = 1
      game.finish(places, { 0, 0 }, game.seat_name(seat) .. " reached 21")
    else
      game.end_turn()
    end
  end,
}
"#;

fn twenty_one() -> Arc<GameDef> {
    Arc::new(support::mem_mod(
        "twenty-one",
        &[
            ("mod.toml", MANIFEST),
            ("pieces.toml", PIECES),
            ("rules/r.luau", RULES),
        ],
    ))
}

// Twenty-One with a bot that always adds 1 (a poor player: the mod's first bot, so the search
// plays out with it and takes its choice as the root's prior) and an `evaluate` hook.
const MANIFEST_WITH_BOT: &str = r#"
id = "twenty-one-bot"
name = "Twenty-One"
version = "1.0.0"
engine = "0.1"
players = { min = 2, max = 2 }
scripts = ["rules/r.luau"]
[content]
pieces = "pieces.toml"
[[bots]]
id = "plodder"
name = "Plodder"
description = "Always adds 1 when it may."
script = "bots/plodder.luau"
"#;

const PLODDER: &str = r#"
return {
  choose = function(_game, _seat, actions)
    for i, a in actions do
      if a == "add 1" then return i end
    end
    return 1
  end,
}
"#;

fn twenty_one_with(rules: &str) -> Arc<GameDef> {
    Arc::new(support::mem_mod(
        "twenty-one-bot",
        &[
            ("mod.toml", MANIFEST_WITH_BOT),
            ("pieces.toml", PIECES),
            ("rules/r.luau", rules),
            ("bots/plodder.luau", PLODDER),
        ],
    ))
}

#[test]
fn the_smallest_search_plays_as_the_mods_bot_and_more_playouts_leave_it_for_a_better_move() {
    let def = twenty_one_with(RULES);
    for total in [0, 6, 18] {
        let mut g = Game::new(def.clone(), Setup::new(2, 1)).unwrap();
        g.eval(&format!("game.add_counter('total', {total})"))
            .unwrap();
        let actions = g.legal_actions().unwrap();
        // One playout goes to the bot's own choice, which is then the one visited most.
        let mut one = Agent::from_spec("search:1", &def, 1, 0).unwrap();
        let i = one.choose(&mut g, &actions).unwrap();
        assert_eq!(actions[i], "add 1", "search:1 at {total}");
    }
    // At 18, "add 3" wins at once; the plodder's "add 1" lets the other seat win (with "add
    // 2", which the tree finds). With enough playouts the tree leaves the bot's move for it.
    let mut g = Game::new(def.clone(), Setup::new(2, 1)).unwrap();
    g.eval("game.add_counter('total', 18)").unwrap();
    let actions = g.legal_actions().unwrap();
    let mut many = Agent::from_spec("search:100:plodder:tree", &def, 1, 0).unwrap();
    let i = many.choose(&mut g, &actions).unwrap();
    assert_eq!(actions[i], "add 3");
    // The paired root plays the plodder for both seats, so at 18 it sees "add 1" win as often
    // as "add 3". At 19, "add 2" wins at once and the plodder's "add 1" leaves 20 for the
    // other seat: it leaves the bot's move for it, and at one playout it plays as the bot.
    let mut g = Game::new(def.clone(), Setup::new(2, 1)).unwrap();
    g.eval("game.add_counter('total', 19)").unwrap();
    let actions = g.legal_actions().unwrap();
    let mut one = Agent::from_spec("search:1:plodder:paired", &def, 1, 0).unwrap();
    let i = one.choose(&mut g, &actions).unwrap();
    assert_eq!(actions[i], "add 1");
    let mut many = Agent::from_spec("search:100:plodder:paired", &def, 1, 0).unwrap();
    let i = many.choose(&mut g, &actions).unwrap();
    assert_eq!(actions[i], "add 2");
}

/// Twenty-One with the plodder and `[search]` in its manifest.
fn twenty_one_searching(search: &str) -> Arc<GameDef> {
    let manifest = format!("{MANIFEST_WITH_BOT}[search]\n{search}\n");
    Arc::new(support::mem_mod(
        "twenty-one-bot",
        &[
            ("mod.toml", manifest.as_str()),
            ("pieces.toml", PIECES),
            ("rules/r.luau", RULES),
            ("bots/plodder.luau", PLODDER),
        ],
    ))
}

/// The move a spec chooses with the total at `total`.
fn choice_at(def: &Arc<GameDef>, spec: &str, total: i64) -> String {
    let mut g = Game::new(def.clone(), Setup::new(2, 1)).unwrap();
    g.eval(&format!("game.add_counter('total', {total})"))
        .unwrap();
    let actions = g.legal_actions().unwrap();
    let mut bot = Agent::from_spec(spec, def, 1, 0).unwrap();
    let i = bot.choose(&mut g, &actions).unwrap();
    actions[i].clone()
}

/// A mod's `[search]` says what `search` alone means: its playouts and its root, which a spec
/// that names its own overrides; the Studio's three levels are built on its playouts. At 18
/// the tree finds "add 3" and the paired root, which plays the plodder for both seats and so
/// sees "add 1" win as often, keeps the plodder's move: so the two roots tell apart.
#[test]
fn a_mods_search_section_sets_what_search_alone_means() {
    use farebox::search::{Search, SearchRoot, levels};
    let plain = twenty_one_with(RULES);
    assert_eq!(plain.search.playouts, farebox::search::DEFAULT_PLAYOUTS);
    assert_eq!(plain.search.root, SearchRoot::Paired);
    assert_eq!(choice_at(&plain, "search:100", 18), "add 1");
    assert_eq!(choice_at(&plain, "search:100:plodder:tree", 18), "add 3");
    // Random playouts always grow the tree: the paired root compares a bot's moves.
    assert_eq!(Search::root_of("search:5:random", &plain), SearchRoot::Tree);
    assert_eq!(
        Search::root_of("search:5:random:paired", &plain),
        SearchRoot::Tree
    );
    assert_eq!(Search::root_of("search", &twenty_one()), SearchRoot::Tree);

    let tree = twenty_one_searching("playouts = 100\nroot = \"tree\"");
    assert_eq!(Search::parse_spec("search", &tree).unwrap().0, 100);
    assert_eq!(Search::root_of("search", &tree), SearchRoot::Tree);
    assert_eq!(choice_at(&tree, "search", 18), "add 3");
    assert_eq!(choice_at(&tree, "search:100:plodder:paired", 18), "add 1");
    let specs: Vec<String> = levels(&tree).into_iter().map(|(s, _)| s).collect();
    assert_eq!(specs, ["search:25", "search:100", "search:400"]);
    let names: Vec<String> = levels(&tree).into_iter().map(|(_, n)| n).collect();
    assert_eq!(names[0], "Search bot, quick (25 playouts a move)");

    let small = twenty_one_searching("playouts = 2");
    assert_eq!(Search::parse_spec("search", &small).unwrap().0, 2);
    assert_eq!(Search::root_of("search", &small), SearchRoot::Paired);
    let specs: Vec<String> = levels(&small).into_iter().map(|(s, _)| s).collect();
    assert_eq!(specs, ["search:1", "search:2", "search:8"]);
    assert_eq!(
        farebox::search::describe("search:7:random", &small).as_deref(),
        Some("Search bot (7 playouts a move played out at random)")
    );
}

/// A house rule that says nothing of the search has its game's budget and root.
#[test]
fn a_house_rule_searches_as_its_game_does() {
    let game = bundled("curbside");
    let house = bundled("curbside-gas-station");
    assert_ne!(game.search.playouts, farebox::search::DEFAULT_PLAYOUTS);
    assert_eq!(house.search, game.search);
}

#[test]
fn an_evaluate_hook_values_the_games_a_playout_cuts_short() {
    // The score says seat 2 leads; the mod's own evaluation says seat 1 stands better. A cut
    // playout takes the evaluation when the mod gives one.
    let extra = r#"
  score = function(g, seat) return if seat == 2 then 10 else 0 end,
  evaluate = function(g, seat) return if seat == 1 then 0.75 else 2 end,
}
"#;
    let rules = RULES.trim_end().trim_end_matches('}').to_string() + extra;
    let def = twenty_one_with(&rules);
    let mut g = Game::new(def, Setup::new(2, 1)).unwrap();
    let v = farebox::search::values(&mut g);
    // 0.75 squeezed into [0.1, 0.9]; 2 is clamped to 1 first.
    assert!(
        (v[0] - 0.7).abs() < 1e-9 && (v[1] - 0.9).abs() < 1e-9,
        "{v:?}"
    );
    // Without the hook the score decides, and seat 2 is ahead.
    let def = twenty_one_with(
        &(RULES.trim_end().trim_end_matches('}').to_string()
            + "  score = function(g, seat) return if seat == 2 then 10 else 0 end,\n}\n"),
    );
    let mut g = Game::new(def, Setup::new(2, 1)).unwrap();
    let v = farebox::search::values(&mut g);
    assert!(v[1] > 0.8 && v[0] < 0.2, "{v:?}");
}

// Twenty-One with a planning menu: "plan" opens it and "back" closes it, changing nothing, and
// a bot that always opens it and then always goes back: it would go round for ever.
const MENU_RULES: &str = r#"
local function adds(out)
  for k = 1, 3 do
    if game.counter("total") + k <= 21 then table.insert(out, "add " .. k) end
  end
  return out
end
return {
  actions = function(g, seat)
    if game.get("planning") then return adds({ "back" }) end
    return adds({ "plan" })
  end,
  apply = function(g, seat, action)
    if action == "plan" then game.set("planning", true) return end
    if action == "back" then game.set("planning", false) return end
    game.set("planning", false)
    local t = game.add_counter("total", tonumber(string.split(action, " ")[2]))
    if t == 21 then
      local places = { 2, 2 }
      places[seat] = 1
      game.finish(places, { 0, 0 }, game.seat_name(seat) .. " reached 21")
    else
      game.end_turn()
    end
  end,
}
"#;

const WANDERER: &str = r#"
return {
  choose = function(_game, _seat, actions)
    for i, a in actions do
      if a == "plan" or a == "back" then return i end
    end
    return 1
  end,
}
"#;

#[test]
fn search_does_not_go_back_to_a_position_it_chose_from_in_the_same_turn() {
    let manifest = MANIFEST_WITH_BOT
        .replace("plodder", "wanderer")
        .replace("Plodder", "Wanderer");
    let def = Arc::new(support::mem_mod(
        "twenty-one-bot",
        &[
            ("mod.toml", &manifest),
            ("pieces.toml", PIECES),
            ("rules/r.luau", MENU_RULES),
            ("bots/wanderer.luau", WANDERER),
        ],
    ));
    // One playout follows the bot's choice, which goes "plan", "back", "plan", ... unless the
    // search knows the seat has been here before in this turn.
    for seed in 1..4u64 {
        let g = play(&def, 2, seed, &["search:1", "search:8"], 300);
        assert!(
            g.is_over(),
            "seed {seed}: not over after {} actions: {:?}",
            g.history().len(),
            &g.history()[..12]
        );
        // Once round the menu is all a turn takes: "plan", then an add (or "back" once the
        // menu is known, then an add).
        let plans = g.history().iter().filter(|a| *a == "plan").count();
        let adds = g.history().iter().filter(|a| a.starts_with("add")).count();
        assert!(plans <= adds, "seed {seed}: {:?}", g.history());
    }
}

/// Plays a game of `def` with `specs` per seat, at most `cap` actions; the actions taken.
fn play(def: &Arc<GameDef>, seats: u8, seed: u64, specs: &[&str], cap: usize) -> Game {
    let mut game = Game::new(def.clone(), Setup::new(seats, seed)).unwrap();
    let mut agents: Vec<Agent> = (0..seats)
        .map(|s| Agent::from_spec(specs[s as usize], def, seed, s).unwrap())
        .collect();
    while !game.is_over() && game.history().len() < cap {
        let actions = game.legal_actions().unwrap();
        let seat = game.active() as usize;
        let i = agents[seat].choose(&mut game, &actions).unwrap();
        game.apply_legal(&actions[i]).unwrap();
    }
    game
}

#[test]
fn search_beats_the_random_agent_from_either_seat() {
    let def = twenty_one();
    let mut wins = 0;
    for seed in 0..20u64 {
        let me = (seed % 2) as usize;
        let mut specs = ["random", "random"];
        specs[me] = "search:60";
        let g = play(&def, 2, seed, &specs, 100);
        wins += usize::from(g.result().unwrap().places[me] == 1);
    }
    assert!(wins >= 18, "search won {wins} of 20 against random");
    // The random agent in the same seats wins about half.
    let mut random = 0;
    for seed in 0..20u64 {
        let g = play(&def, 2, seed, &["random", "random"], 100);
        random += usize::from(g.result().unwrap().places[(seed % 2) as usize] == 1);
    }
    assert!(random <= 14, "random won {random} of 20");
}

#[test]
fn search_finds_the_winning_move() {
    let def = twenty_one();
    // At 18 the seat to act wins with "add 3"; at 14, "add 3" leaves 17, which wins.
    for (total, best) in [(18, "add 3"), (14, "add 3"), (11, "add 2")] {
        let mut g = Game::new(def.clone(), Setup::new(2, 1)).unwrap();
        g.eval(&format!("game.add_counter('total', {total})"))
            .unwrap();
        let actions = g.legal_actions().unwrap();
        let mut bot = Agent::from_spec("search:200", &def, 1, 0).unwrap();
        let i = bot.choose(&mut g, &actions).unwrap();
        assert_eq!(actions[i], best, "at {total}");
    }
}

#[test]
fn search_specs_are_checked() {
    let def = twenty_one();
    for bad in [
        "search:0",
        "search:x",
        "search:5:nobody",
        "search:5:random:7",
    ] {
        assert!(Agent::from_spec(bad, &def, 1, 0).is_err(), "{bad}");
    }
    for good in [
        "search",
        "search:5",
        "search:5:random",
        "search:5:random:tree",
    ] {
        assert!(Agent::from_spec(good, &def, 1, 0).is_ok(), "{good}");
    }
    let e = Agent::from_spec("serach", &def, 1, 0).unwrap_err();
    assert!(e.contains("search"), "{e}");
}

/// The actions a game of Taxi Derby takes with a search bot in seat 1, as many times as asked,
/// on as many threads.
fn taxi_games(threads: usize) -> Vec<Vec<String>> {
    let def = bundled("taxi-derby");
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let def = def.clone();
                s.spawn(move || {
                    let _ = t;
                    play(&def, 2, 5, &["search:4:random", "random"], 30)
                        .history()
                        .to_vec()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

#[test]
fn search_decides_the_same_in_every_run_and_on_any_thread() {
    let alone = taxi_games(1);
    let together = taxi_games(2);
    assert_eq!(alone[0].len(), 30);
    assert_eq!(alone[0], together[0]);
    assert_eq!(alone[0], together[1]);
    // Another seed of the agents plays another game: the choices follow the seed.
    let def = bundled("taxi-derby");
    let mut g = Game::new(def.clone(), Setup::new(2, 5)).unwrap();
    let actions = g.legal_actions().unwrap();
    let picks: Vec<usize> = (0..8u64)
        .map(|seed| {
            let mut a = Agent::from_spec("search:3:random", &def, seed, 0).unwrap();
            a.choose(&mut g, &actions).unwrap()
        })
        .collect();
    assert!(
        picks.iter().any(|p| *p != picks[0]),
        "{} actions and the same pick for every seed: {picks:?}",
        actions.len()
    );
}

/// Whether `seat` cannot see everything: a card hidden from it, or a secret.
fn has_secrets(game: &Game, seat: u8) -> bool {
    let s = game.state();
    s.zones
        .iter()
        .any(|z| farebox::game::visible_cards(game.def(), z, Some(seat)) < z.cards.len())
        || s.vars.values().any(|v| !v.seen.by(Some(seat)))
}

/// At points of a random game of `id`, the search bot of the seat to act chooses the same in
/// the real game and in games that differ only in what is hidden from that seat.
fn same_choice_whatever_is_hidden(id: &str, spec: &str, every: usize) -> usize {
    let def = bundled(id);
    let mut checked = 0;
    for seed in 1..3u64 {
        let mut game = Game::new(def.clone(), Setup::new(2, seed)).unwrap();
        let mut random: Vec<Agent> = (0..2)
            .map(|s| Agent::from_spec("random", &def, seed, s).unwrap())
            .collect();
        let mut n = 0;
        while !game.is_over() && n < 60 {
            let actions = game.legal_actions().unwrap();
            let seat = game.active();
            if n % every == 0 && actions.len() > 1 && has_secrets(&game, seat) {
                let mut bot = Agent::from_spec(spec, &def, seed, seat).unwrap();
                let real = bot.choose(&mut game, &actions).unwrap();
                for other in 1..=2u64 {
                    let mut alt = game.alternative(seat, seed * 31 + other).unwrap();
                    let alt_actions = alt.legal_actions().unwrap();
                    assert_eq!(alt_actions, actions, "{id}: the seat's actions differ");
                    let mut bot = Agent::from_spec(spec, &def, seed, seat).unwrap();
                    let chosen = bot.choose(&mut alt, &alt_actions).unwrap();
                    assert_eq!(
                        real,
                        chosen,
                        "{id} seed {seed} after {n} actions: seat {} chose by what it may not see",
                        seat + 1
                    );
                }
                checked += 1;
            }
            let i = random[seat as usize].choose(&mut game, &actions).unwrap();
            game.apply_legal(&actions[i]).unwrap();
            n += 1;
        }
    }
    checked
}

#[test]
fn search_with_the_mods_bot_as_prior_chooses_only_by_what_its_seat_sees() {
    // The default policy: the mod's first bot plays the playouts and gives the root its prior.
    assert!(same_choice_whatever_is_hidden("critter-cab", "search:8", 9) >= 3);
    assert!(same_choice_whatever_is_hidden("critter-cab", "search:4:cabbie:tree", 9) >= 3);
}

#[test]
fn search_beats_random_in_the_bundled_games() {
    // Dicey Curves is left to the bench (`farebox bench dicey-curves --search search:3
    // --against random`): a race against the random agent runs some 700 actions with a
    // Pit Boss playout behind every choice, too long for a test.
    for id in ["curbside", "critter-cab", "taxi-derby"] {
        let def = bundled(id);
        for seed in 1..=2u64 {
            let me = (seed % 2) as usize;
            let mut specs = ["random", "random"];
            // Eight playouts: the paired root's smallest budget that compares moves (below
            // it the search plays as its bot).
            specs[me] = "search:8";
            let g = play(&def, 2, seed, &specs, 3000);
            let r = g
                .result()
                .unwrap_or_else(|| panic!("{id} seed {seed} did not end"));
            assert!(
                r.places[me] < r.places[1 - me],
                "{id} seed {seed}: search placed {:?}",
                r.places
            );
        }
    }
}

#[test]
fn taxi_derby_search_chooses_only_by_what_its_seat_sees() {
    assert!(same_choice_whatever_is_hidden("taxi-derby", "search:6:random", 7) >= 4);
}

#[test]
fn wheres_my_ride_search_chooses_only_by_what_its_seat_sees() {
    assert!(same_choice_whatever_is_hidden("wheres-my-ride", "search:6:random", 3) >= 4);
}

// Edge: each turn a seat takes "plain" or "edge" and then rolls a twenty-sided die into its
// total; "edge" adds one more. After 30 turns each the higher total wins. The mod's bot always
// takes "plain". The one-point edge is small beside the dice, so only games compared on the
// same rolls show it: the search must see it at a small budget.
const EDGE_MANIFEST: &str = r#"
id = "edge"
name = "Edge"
version = "1.0.0"
engine = "0.1"
players = { min = 2, max = 2 }
scripts = ["rules/r.luau"]
[[bots]]
id = "plain"
name = "Plain"
description = "Never takes the edge."
script = "bots/plain.luau"
"#;

const EDGE_RULES: &str = r#"
return {
  setup = function(_g)
    game.set("t1", 0)
    game.set("t2", 0)
    game.set("turns", 0)
  end,
  actions = function(_g, _seat)
    return { "plain", "edge" }
  end,
  apply = function(_g, seat, action)
    local key = "t" .. seat
    local add = game.roll(20) + (if action == "edge" then 1 else 0)
    game.set(key, game.get(key) + add)
    local turns = game.get("turns") + 1
    game.set("turns", turns)
    if turns >= 60 then
      local a, b = game.get("t1"), game.get("t2")
      game.finish({ if a >= b then 1 else 2, if b >= a then 1 else 2 }, { a, b }, "all rolled")
    else
      game.end_turn()
    end
  end,
  evaluate = function(_g, seat)
    local mine, theirs = game.get("t" .. seat), game.get("t" .. (3 - seat))
    return math.clamp(0.5 + (mine - theirs) / 400, 0, 1)
  end,
}
"#;

const PLAIN: &str = r#"
return {
  choose = function(_game, _seat, _actions)
    return 1
  end,
}
"#;

/// The root compares its candidates on the same imagined games (the same rolls), so a
/// one-point edge among twenty-sided dice shows at 20 playouts; compared on different rolls
/// it would be lost in their spread, and the search would keep its bot's "plain".
#[test]
fn the_search_sees_a_small_edge_by_comparing_moves_on_the_same_rolls() {
    let def = Arc::new(support::mem_mod(
        "edge",
        &[
            ("mod.toml", EDGE_MANIFEST),
            ("rules/r.luau", EDGE_RULES),
            ("bots/plain.luau", PLAIN),
        ],
    ));
    for seed in 1..=5 {
        let mut g = Game::new(def.clone(), Setup::new(2, seed)).unwrap();
        let actions = g.legal_actions().unwrap();
        let mut one = Agent::from_spec("search:1", &def, seed, 0).unwrap();
        let i = one.choose(&mut g, &actions).unwrap();
        assert_eq!(
            actions[i], "plain",
            "search:1 plays as its bot (seed {seed})"
        );
        let mut some = Agent::from_spec("search:20:plain:paired", &def, seed, 0).unwrap();
        let i = some.choose(&mut g, &actions).unwrap();
        assert_eq!(actions[i], "edge", "seed {seed}");
    }
}
