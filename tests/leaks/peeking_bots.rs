//! A bot's lookahead never shows it what its seat may not know.
//!
//! A deliberately peeking bot is added to every bundled game: it tries every action offered
//! with `game.try`, reads everything it can after each (the result, every zone's cards, every
//! counter, every variable the game has, every piece), and reports all it saw. At many points
//! of seeded games it is asked to choose twice: in the real game, and in another game its seat
//! could not tell from it (`Game::alternative`: the hidden cards dealt anew, the secrets drawn
//! anew by the rules' `imagine` hook, the generator reseeded). What it saw must be the same,
//! so nothing it could choose by differs. Before lookahead was imagined, a Where's My Ride?
//! Rider's bot could try each guess and see which one won.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use farebox::GameDef;
use farebox::agent::Agent;
use farebox::content::def::{BotDef, Scope, ScriptDef};
use farebox::game::Game;
use farebox::game::Setup;
use farebox::rng::Rng;

/// The peeking bot for `def`: the ids of its zones, counters, variables and pieces are
/// written into the script, since a bot has no call that lists them.
fn peeking_bot(def: &GameDef, vars: &[String]) -> BotDef {
    let quote = |s: &str| format!("{s:?}");
    let zones: Vec<String> = def
        .zones
        .iter()
        .map(|z| format!("{{{}, {}}}", quote(&z.id), z.per_seat))
        .collect();
    let counters: Vec<String> = def
        .counters
        .iter()
        .map(|c| format!("{{{}, {}}}", quote(&c.id), c.scope == Scope::Seat))
        .collect();
    let vars: Vec<String> = vars.iter().map(|v| quote(v)).collect();
    let pieces: Vec<String> = def.pieces.iter().map(|p| quote(&p.id)).collect();
    let source = format!(
        r#"
local ZONES = {{ {zones} }}
local COUNTERS = {{ {counters} }}
local VARS = {{ {vars} }}
local PIECES = {{ {pieces} }}

local function show(v: any): string
    if type(v) == "table" then
        local keys = {{}}
        for k in v do
            table.insert(keys, tostring(k))
        end
        table.sort(keys)
        local parts = {{}}
        for _, k in keys do
            local x = v[k]
            if x == nil then
                x = v[tonumber(k)]
            end
            table.insert(parts, k .. "=" .. show(x))
        end
        return "{{" .. table.concat(parts, ",") .. "}}"
    end
    return tostring(v)
end

local function seen(): string
    local out = {{ "turn " .. game.turn(), "active " .. game.active(), "result " .. show(game.result()) }}
    for _, z in ZONES do
        local owners = if z[2] then game.seats() else 1
        for s = 1, owners do
            local h = game.zone(z[1], if z[2] then s else nil)
            table.insert(out, z[1] .. s .. " " .. game.count(h) .. " " .. table.concat(game.cards(h), ",") .. " top " .. tostring(game.top(h)))
        end
    end
    for _, c in COUNTERS do
        if c[2] then
            for s = 1, game.seats() do
                table.insert(out, c[1] .. s .. " " .. game.counter(c[1], s))
            end
        else
            table.insert(out, c[1] .. " " .. game.counter(c[1]))
        end
    end
    for _, v in VARS do
        table.insert(out, v .. " " .. show(game.get(v)))
    end
    for _, kind in PIECES do
        for _, p in game.pieces(kind) do
            table.insert(out, kind .. " at " .. tostring(game.where_is(p)))
        end
    end
    return table.concat(out, "\n")
end

-- FNV-1a over the bytes, in 32 bits: the report must fit the one line of an error message.
local function digest(s: string): string
    local h = 2166136261
    for i = 1, #s do
        h = bit32.bxor(h, string.byte(s, i))
        h = (h * 16777619) % 4294967296
    end
    return string.format("%08x", h)
end

return {{ choose = function(_g, seat, actions)
    local report = {{ "now " .. digest(seen()) }}
    for i, a in actions do
        if game.try(a) then
            table.insert(report, i .. "=" .. digest(seen()))
            game.undo()
        else
            table.insert(report, i .. "=refused")
        end
    end
    local all = table.concat(report, " ")
    error("SEEN " .. digest(all) .. " " .. all)
end }}
"#,
        zones = zones.join(", "),
        counters = counters.join(", "),
        vars = vars.join(", "),
        pieces = pieces.join(", ")
    );
    BotDef {
        standin: false,
        id: "peek".into(),
        name: "Peek".into(),
        description: "Reports everything its lookahead shows".into(),
        script: ScriptDef {
            mod_id: def.id.clone(),
            path: "bots/peek.luau".into(),
            display: format!("{}/bots/peek.luau", def.id),
            source,
            bytecode: None,
        },
    }
}

/// What the peeking bot saw when asked to choose in `game` (it always fails, with its
/// report as the message).
fn seen_by_peek(game: &mut Game, seed: u64) -> String {
    let actions = game.legal_actions().unwrap();

    let mut rng = Rng::new(seed, 77);
    match game.bot_choose("peek", &actions, &mut rng) {
        Ok(i) => panic!("the peeking bot chose {i}"),
        Err(e) => {
            assert!(
                e.message.contains("SEEN"),
                "{}: the peeking bot failed: {e}",
                game.def().id
            );
            e.message
        }
    }
}

/// Whether `seat` cannot see everything: a card hidden from it, or a secret.
fn has_secrets(game: &Game, seat: u8) -> bool {
    let s = game.state();
    s.zones
        .iter()
        .any(|z| farebox::game::visible_cards(game.def(), z, Some(seat)) < z.cards.len())
        || s.vars.values().any(|v| !v.seen.by(Some(seat)))
}

fn check_game(id: &str, bot: &str, seats: u8, seeds: std::ops::Range<u64>, every: usize) -> usize {
    let shipped = farebox_suite::load(id);
    let mut checked = 0;
    for seed in seeds {
        // The variables a game of this seed comes to have, for the bot to ask for.
        let mut def = shipped.clone();
        let probe = Arc::new(shipped.clone());
        let mut game = Game::new(probe.clone(), Setup::new(seats, seed)).unwrap();
        let mut agents: Vec<Agent> = (0..seats)
            .map(|s| Agent::from_spec(bot, &probe, seed, s).unwrap())
            .collect();
        let mut vars: Vec<String> = game.state().vars.keys().cloned().collect();
        let mut points = vec![];
        let mut n = 0;
        while !game.is_over() && n < 400 {
            let actions = game.legal_actions().unwrap();
            if n % every == 0 && has_secrets(&game, game.active()) {
                points.push(game.history().to_vec());
            }
            let seat = game.active() as usize;
            let i = agents[seat].choose(&mut game, &actions).unwrap();
            game.apply_legal(&actions[i]).unwrap();
            for k in game.state().vars.keys() {
                if !vars.contains(k) {
                    vars.push(k.clone());
                }
            }
            n += 1;
        }
        def.bots.push(peeking_bot(&shipped, &vars));
        let def = Arc::new(def);
        for history in points.iter().take(40) {
            let mut real = Game::new(def.clone(), Setup::new(seats, seed)).unwrap();
            for a in history {
                real.apply(a).unwrap();
            }
            let seat = real.active();
            let saw = seen_by_peek(&mut real, seed);
            for other in 1..=2u64 {
                let mut alt = real.alternative(seat, seed * 31 + other).unwrap();
                let alt_saw = seen_by_peek(&mut alt, seed);
                assert!(
                    saw == alt_saw,
                    "{id} seed {seed}, after {} actions: seat {} saw something hidden from it through its lookahead:\n{}",
                    history.len(),
                    seat + 1,
                    first_difference(&saw, &alt_saw)
                );
            }
            checked += 1;
        }
    }
    checked
}

/// The first action whose lookahead showed something else, as the two reports say it.
fn first_difference(a: &str, b: &str) -> String {
    for (x, y) in a.split(' ').zip(b.split(' ')).skip(2) {
        if x != y {
            return format!("real game:  {x}\nother game: {y}");
        }
    }
    "one report is longer".into()
}

#[test]
fn wheres_my_ride_riders_cannot_try_their_way_to_the_answer() {
    assert!(check_game("wheres-my-ride", "regular", 4, 1..6, 1) > 10);
    assert!(check_game("wheres-my-ride-show-dont-tell", "regular", 3, 1..3, 1) > 3);
}

#[test]
fn curbside_lookahead_shows_no_hidden_tile_or_card() {
    assert!(check_game("curbside", "dispatcher", 3, 1..3, 4) > 10);
}

#[test]
fn taxi_derby_lookahead_shows_no_hidden_card() {
    assert!(check_game("taxi-derby", "fare-planner", 3, 1..3, 4) > 10);
}

#[test]
fn critter_cab_lookahead_shows_no_hidden_card() {
    assert!(check_game("critter-cab", "cabbie", 3, 1..3, 2) > 10);
}

#[test]
fn dicey_curves_lookahead_shows_no_card_or_roll_to_come() {
    assert!(check_game("dicey-curves", "racer", 2, 1..3, 3) > 10);
}
