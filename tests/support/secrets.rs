//! What a seat may not know, for the leak tests (tests/leaks/main.rs on the screen, and
//! tests/leaks/online.rs on the wire): the cards hidden from it and the hidden variables'
//! values, as the content declares them ([`secrets`]), and the secrets of Taxi Derby, Critter
//! Cab and Where's My Ride? by meaning, as the rulebooks say, whatever the content declares:
//! the zones whose cards a seat may not see ([`secret_by_meaning`], [`meant_words`]) and Where's
//! My Ride?'s pickup spot ([`wmr_answer_words`], [`wmr_answer_hidden_from`]).

use std::collections::BTreeSet;

use farebox::game::Game;
use farebox::value::Value;

/// The ids, names and texts of the cards `seat` may not see, less any that a card it may see
/// also carries, and the values of variables hidden from it (with the same exception).
pub fn secrets(g: &Game, seat: u8) -> BTreeSet<String> {
    secrets_for(g, Some(seat))
}

/// [`secrets`] for any viewer (None: a spectator, who may see only what is public): the
/// engine's own search, which `farebox validate` and `farebox test` run on every mod.
pub fn secrets_for(g: &Game, viewer: Option<u8>) -> BTreeSet<String> {
    farebox::leaks::secrets_for(g, viewer)
}

/// Whether the cards of zone `zone` (owned by `owner`) are secret from `seat` by the rules.
pub fn secret_by_meaning(game: &str, zone: &str, owner: Option<u8>, seat: u8) -> bool {
    let rival = owner.is_some_and(|o| o != seat);
    match game {
        "critter-cab" => {
            matches!(zone, "passenger-deck" | "movement-deck" | "chance-deck")
                || (rival && matches!(zone, "movement-hand" | "kept-chance"))
        }
        "wheres-my-ride" | "wheres-my-ride-show-dont-tell" => {
            WMR_FACE_DOWN.contains(&zone) || (rival && WMR_HANDS.contains(&zone))
        }
        "taxi-derby" | "taxi-derby-learners-permit" => {
            matches!(
                zone,
                "stack-1"
                    | "stack-2"
                    | "stack-3"
                    | "stack-4"
                    | "stack-5"
                    | "upgrade-bag"
                    | "ticket-deck"
                    | "box"
                    | "passenger-supply"
            ) || (rival && zone == "delivered")
        }
        _ => false,
    }
}

/// The ids and names of the cards secret from `seat` by meaning, and those of the cards it may
/// see (a word in both is no secret).
pub fn meant_words(g: &Game, game: &str, seat: u8) -> (BTreeSet<String>, BTreeSet<String>) {
    let def = g.def();
    let (mut hidden, mut open) = (BTreeSet::new(), BTreeSet::new());
    for z in &g.state().zones {
        let zdef = &def.zones[z.def as usize];
        let secret = secret_by_meaning(game, &zdef.id, z.owner, seat);
        for c in &z.cards {
            let card = &def.decks[c.deck as usize].cards[c.card as usize];
            for w in [&card.id, &card.name] {
                if w.chars().count() >= 3 {
                    if secret {
                        hidden.insert(w.clone());
                    } else {
                        open.insert(w.clone());
                    }
                }
            }
        }
    }
    (hidden, open)
}

// ---- Where's My Ride? -----------------------------------------------------------------------

/// Where's My Ride?'s zones whose cards nobody sees: the location deck, the text deck, the
/// discarded texts, the emoji bag and the rating stack.
pub const WMR_FACE_DOWN: [&str; 5] = [
    "location-deck",
    "text-deck",
    "text-discard",
    "emoji-bag",
    "rating-stack",
];
/// Its per-seat zones whose cards only their owner sees: the Driver's emojis behind the
/// screen, each Rider's drawn and chosen texts.
pub const WMR_HANDS: [&str; 3] = ["driver-emojis", "text-hand", "text-chosen"];

/// The Driver's answer (a location id), read with the rules' rights.
pub fn wmr_answer(g: &mut Game) -> String {
    match g.eval("return game.get('_answer')") {
        Ok(Value::Str(s)) => s,
        other => panic!("no answer: {other:?}"),
    }
}

/// The Driver's seat (from 0), read with the rules' rights.
pub fn wmr_driver(g: &mut Game) -> u8 {
    match g.eval("return game.get('_driver')") {
        Ok(Value::Int(d)) => (d - 1) as u8,
        other => panic!("no driver: {other:?}"),
    }
}

/// The ways the pickup spot can be written: its location id, its name, and its tags as the
/// Driver's screen lists them (in the card's order and sorted).
pub fn wmr_answer_words(g: &mut Game) -> Vec<String> {
    let answer = wmr_answer(g);
    let (name, tags, sorted) = match g.eval(&format!(
        "local c = data.decks.locations.cards['{answer}']
         local s = table.clone(c.tags)
         table.sort(s)
         return {{ c.name, table.concat(c.tags, ', '), table.concat(s, ', ') }}"
    )) {
        Ok(Value::List(l)) => {
            let w: Vec<String> = l
                .into_iter()
                .map(|v| v.as_str().unwrap_or_default().to_string())
                .collect();
            (w[0].clone(), w[1].clone(), w[2].clone())
        }
        other => panic!("no location: {other:?}"),
    };
    vec![answer, name, tags, sorted]
}

/// The pickup spot's words ([`wmr_answer_words`]) when `viewer` may not know it: a Rider or a
/// watcher, in a game of Where's My Ride? (`game`, or a house rule of it) until a Rider
/// guesses it (the right guess names it to everyone and ends the game). Empty for the Driver
/// and for other games. Every
/// location lies face up, so the words may be shown only where all nine are shown alike (the
/// candidates, the menu of guesses): the caller leaves those out of its search.
pub fn wmr_answer_hidden_from(g: &mut Game, game: &str, viewer: Option<u8>) -> Vec<String> {
    if !game.starts_with("wheres-my-ride") || viewer.is_some_and(|v| v == wmr_driver(g)) {
        return vec![];
    }
    let words = wmr_answer_words(g);
    let found = format!("guess {}", words[0]);
    if g.history().contains(&found) {
        return vec![];
    }
    words
}
