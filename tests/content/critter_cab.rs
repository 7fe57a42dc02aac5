//! Critter Cab's bundled content against its rulebook (the CC rule list) and the designed
//! defaults of mods/critter-cab/DESIGN.md: board, taxis, passenger, movement and chance cards.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::OnceLock;

use farebox::GameDef;
use farebox::content::def::{BoardDef, CardDef, DeckDef, GraphDef, OptionType, Scope};
use farebox::value::Value;
use farebox_suite::{Lookup, int};

fn def() -> &'static GameDef {
    static DEF: OnceLock<GameDef> = OnceLock::new();
    DEF.get_or_init(|| farebox_suite::load("critter-cab"))
}

fn constant(name: &str) -> &'static Value {
    def().constant(name)
}

fn int_constant(name: &str) -> i64 {
    int(constant(name))
}

fn deck(id: &str) -> &'static DeckDef {
    def().deck_def(id)
}

fn graph() -> &'static GraphDef {
    match &def().board {
        BoardDef::Graph(g) => g,
        other => panic!("Critter Cab has a graph board, not {}", other.kind_name()),
    }
}

fn int_field(c: &CardDef, name: &str) -> i64 {
    c.fields
        .get(name)
        .and_then(Value::as_int)
        .unwrap_or_else(|| panic!("card `{}` has no integer `{name}`", c.id))
}

fn str_field<'a>(c: &'a CardDef, name: &str) -> &'a str {
    c.fields
        .get(name)
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("card `{}` has no string `{name}`", c.id))
}

fn strings(v: Option<&Value>) -> Vec<String> {
    match v {
        Some(Value::List(items)) => items
            .iter()
            .map(|i| i.as_str().expect("a string").to_string())
            .collect(),
        None | Some(Value::Nil) => Vec::new(),
        Some(other) => panic!("not a list: {other:?}"),
    }
}

fn card<'a>(deck: &'a DeckDef, id: &str) -> &'a CardDef {
    &deck.cards[deck
        .card(id)
        .unwrap_or_else(|| panic!("no card `{id}` in {}", deck.id))]
}

/// Space ids carrying `tag`.
fn tagged(tag: &str) -> BTreeSet<&'static str> {
    graph()
        .spaces
        .iter()
        .filter(|s| s.tags.iter().any(|t| t == tag))
        .map(|s| s.id.as_str())
        .collect()
}

/// Edges carrying `tag` (None: untagged roads), as pairs of space ids.
fn edges(tag: Option<&str>) -> Vec<(&'static str, &'static str)> {
    let g = graph();
    g.edges
        .iter()
        .filter(|e| match tag {
            Some(t) => e.tags.iter().any(|x| x == t),
            None => e.tags.is_empty(),
        })
        .map(|e| (g.spaces[e.from].id.as_str(), g.spaces[e.to].id.as_str()))
        .collect()
}

/// Shortest distances from `from` over edges a taxi with `edge_tags` may use (CC-X5).
fn distances(from: &str, edge_tags: &[String]) -> BTreeMap<&'static str, u32> {
    let g = graph();
    let usable = |tags: &[String]| tags.iter().all(|t| edge_tags.contains(t));
    let mut next: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for e in g.edges.iter().filter(|e| usable(&e.tags)) {
        let (a, b) = (g.spaces[e.from].id.as_str(), g.spaces[e.to].id.as_str());
        next.entry(a).or_default().push(b);
        if !e.directed {
            next.entry(b).or_default().push(a);
        }
    }
    let start = g.spaces.iter().find(|s| s.id == from).unwrap().id.as_str();
    let mut dist = BTreeMap::from([(start, 0)]);
    let mut queue = VecDeque::from([start]);
    while let Some(s) = queue.pop_front() {
        let d = dist[s];
        for &n in next.get(s).into_iter().flatten() {
            if !dist.contains_key(n) {
                dist.insert(n, d + 1);
                queue.push_back(n);
            }
        }
    }
    dist
}

// ---------------------------------------------------------------------------------------------
// Setup

#[test]
fn players_taxi_cards_and_hands() {
    // CC-S1: 2-4 players (designed: one seat per taxi card), one taxi card each, dealt or
    // chosen; 3 movement cards in hand.
    let d = def();
    assert_eq!(d.players, (2, 4));
    assert_eq!(deck("taxis").size(), 4);
    assert!(i64::from(d.players.1) <= i64::from(deck("taxis").size()));
    let o = d.option("taxi-assignment").unwrap();
    assert_eq!(o.kind, OptionType::Choice);
    let ids: Vec<_> = o.choices.iter().map(|(c, _)| c.as_str()).collect();
    assert_eq!(ids, ["random", "choose"]);
    assert_eq!(int_constant("movement_hand"), 3);
    assert_eq!(int_constant("movement_cards_per_turn"), 1);
    let cab = &d.pieces[d.piece("cab").unwrap()];
    assert!(cab.per_seat);
    assert_eq!(cab.count, 1);
    let taxi = &d.zones[d.zone("taxi").unwrap()];
    assert!(taxi.per_seat);
}

#[test]
fn three_separate_shuffled_decks() {
    // CC-S2: chance, passenger and movement decks, each shuffled on its own; CC-T9: movement
    // and chance decks have discard piles to be rebuilt from.
    let d = def();
    for (zone, deck_id) in [
        ("passenger-deck", "passengers"),
        ("movement-deck", "movement"),
        ("chance-deck", "chance"),
    ] {
        let z = &d.zones[d.zone(zone).unwrap_or_else(|| panic!("no zone {zone}"))];
        assert_eq!(z.deck, d.deck(deck_id), "{zone}");
        assert!(z.shuffle, "{zone} is shuffled");
        assert!(!z.per_seat, "{zone} is shared");
    }
    assert!(d.zone("movement-discard").is_some());
    assert!(d.zone("chance-discard").is_some());
    let supply = &d.zones[d.zone("taxi-supply").unwrap()];
    assert_eq!(supply.deck, d.deck("taxis"));
}

#[test]
fn game_limit_options() {
    // CC-S3: a round limit or a table clock that moves by play (designed: a wall clock cannot
    // replay); the clock's range is the rulebook's timer, 35-60 minutes.
    let d = def();
    let limit = d.option("limit").unwrap();
    let ids: Vec<_> = limit.choices.iter().map(|(c, _)| c.as_str()).collect();
    assert_eq!(ids, ["rounds", "clock"]);
    assert_eq!(limit.default, Value::Str("rounds".into()));
    assert!(d.option("minutes").is_none(), "renamed clock-minutes");
    let minutes = d.option("clock-minutes").unwrap();
    assert_eq!(minutes.kind, OptionType::Int);
    assert_eq!((minutes.min, minutes.max), (Some(35), Some(60)));
    let m = minutes.default.as_int().unwrap();
    assert!((35..=60).contains(&m));
    let turns = d.option("turn-limit").unwrap();
    assert_eq!(turns.kind, OptionType::Int);
    assert_eq!(turns.default, Value::Int(12));
    assert!(turns.min.unwrap() >= 1);
    assert_eq!(int_constant("clock_turn_minutes"), 1);
    assert!(d.counter("clock").is_some());
    // CC-E1: rounds are counted for the limit; the round in progress is finished.
    assert!(d.counter("rounds").is_some());
    assert_eq!(constant("finish_round_at_limit"), &Value::Bool(true));
    assert_eq!(constant("end_when_passengers_run_out"), &Value::Bool(true));
}

// ---------------------------------------------------------------------------------------------
// Board (CC-S4)

#[test]
fn board_spaces() {
    // CC-S4: named taxi stands and chance spaces (designed: 8 of each, 62 spaces in all).
    let g = graph();
    assert_eq!(g.spaces.len(), 62);
    let stands = tagged("stand");
    let chance = tagged("chance");
    assert_eq!(stands.len(), 8);
    assert_eq!(chance.len(), 8);
    assert!(
        stands.is_disjoint(&chance),
        "a stand is never a chance space"
    );
    let names: BTreeSet<_> = g
        .spaces
        .iter()
        .filter(|s| stands.contains(s.id.as_str()))
        .map(|s| s.name.as_str())
        .collect();
    assert_eq!(names.len(), 8, "every stand has its own name");
    assert!(names.iter().all(|n| !n.is_empty()));
    assert!(
        g.spaces.iter().all(|s| s.props.contains_key("region")),
        "every space has a region to paint"
    );
    // CC-T1, CC-T8: the scripts find stands and chance spaces by these tags.
    assert_eq!(constant("stand_tag"), &Value::Str("stand".into()));
    assert_eq!(constant("chance_tag"), &Value::Str("chance".into()));
}

#[test]
fn board_edges() {
    // CC-S4: roads, river/stream lanes and flight paths (designed: 89, 5 and 2).
    let g = graph();
    assert_eq!(edges(None).len(), 89);
    assert_eq!(edges(Some("river")).len(), 5);
    assert_eq!(edges(Some("flight")).len(), 2);
    assert_eq!(g.edges.len(), 89 + 5 + 2, "no edge carries another tag");
    let mut seen = BTreeSet::new();
    for e in &g.edges {
        assert_ne!(e.from, e.to, "an edge joins two different spaces");
        assert!(!e.directed, "every Critter Cab edge is two-way (CC-T4)");
        assert_eq!(e.cost, 1);
        assert!(e.tags.len() <= 1);
        let key = (e.from.min(e.to), e.from.max(e.to));
        assert!(seen.insert(key), "two edges join the same spaces");
    }
    // Roads alone reach every space, so any taxi can reach every stand.
    assert_eq!(distances(&g.spaces[0].id, &[]).len(), g.spaces.len());
}

#[test]
fn shortcuts_end_where_the_board_says() {
    // CC-X1, CC-X4: river lanes end on landings and flight paths on perches, and the drawing
    // tags mark nothing else.
    for (tag, end_tag) in [("river", "landing"), ("flight", "perch")] {
        let ends: BTreeSet<&str> = edges(Some(tag))
            .into_iter()
            .flat_map(|(a, b)| [a, b])
            .collect();
        assert_eq!(ends, tagged(end_tag), "{tag} edges and {end_tag} spaces");
    }
    // Each shortcut saves road: its ends are at least two road spaces apart.
    for (a, b) in edges(Some("river"))
        .into_iter()
        .chain(edges(Some("flight")))
    {
        let road = distances(a, &[])[b];
        assert!(road >= 2, "{a} - {b} saves nothing ({road} by road)");
    }
}

// ---------------------------------------------------------------------------------------------
// Taxis (CC-X1..CC-X5)

#[test]
fn four_taxis() {
    let taxis = deck("taxis");
    let expect = [
        // CC-X1
        ("river-taxi", 4, vec!["river-edges"], 0, vec!["river"]),
        // CC-X2
        ("family-taxi", 6, vec!["draws-two", "no-top-up"], 0, vec![]),
        // CC-X3
        ("limousine", 4, vec!["vip-bonus"], 2, vec![]),
        // CC-X4
        ("flying-taxi", 4, vec!["flight-edges"], 0, vec!["flight"]),
    ];
    assert_eq!(taxis.cards.len(), expect.len());
    for (id, capacity, abilities, vip_bonus, edge_tags) in expect {
        let c = card(taxis, id);
        assert_eq!(c.count, 1, "{id}");
        assert_eq!(int_field(c, "capacity"), capacity, "{id}");
        assert_eq!(strings(c.fields.get("abilities")), abilities, "{id}");
        assert_eq!(int_field(c, "vip_bonus"), vip_bonus, "{id}");
        assert_eq!(strings(c.fields.get("edge_tags")), edge_tags, "{id}");
        // The card says what it does.
        assert!(
            c.text.contains(&format!("Capacity {capacity}")),
            "{id}: `{}`",
            c.text
        );
    }
    assert!(card(taxis, "limousine").text.contains("2 extra coins"));
    assert!(
        card(taxis, "family-taxi")
            .text
            .contains("two passenger cards")
    );
    // The constants the scripts read agree with the cards.
    assert_eq!(
        int_constant("family_capacity"),
        int_field(card(taxis, "family-taxi"), "capacity")
    );
    assert_eq!(int_constant("family_passenger_draw"), 2);
    assert_eq!(int_constant("passenger_draw"), 1);
    assert_eq!(constant("family_return_reshuffles"), &Value::Bool(true));
    assert_eq!(
        int_constant("limousine_vip_bonus"),
        int_field(card(taxis, "limousine"), "vip_bonus")
    );
}

#[test]
fn only_river_and_flying_taxis_take_shortcuts() {
    // CC-X5: each restricted tag belongs to exactly one taxi, the one the rulebook names.
    let taxis = deck("taxis");
    let restricted = strings(Some(constant("restricted_edge_tags")));
    assert_eq!(restricted, ["river", "flight"]);
    for tag in &restricted {
        let users: Vec<_> = taxis
            .cards
            .iter()
            .filter(|c| strings(c.fields.get("edge_tags")).contains(tag))
            .map(|c| c.id.as_str())
            .collect();
        let owner = if tag == "river" {
            "river-taxi"
        } else {
            "flying-taxi"
        };
        assert_eq!(users, [owner], "who may use {tag} edges");
    }
    // The shortcuts really shorten trips: mean stand-to-stand distance drops for their taxi.
    let stands: Vec<_> = tagged("stand").into_iter().collect();
    let mean = |tags: &[String]| {
        let mut total = 0;
        let mut n = 0;
        for (i, a) in stands.iter().enumerate() {
            let d = distances(a, tags);
            for b in &stands[i + 1..] {
                total += d[b];
                n += 1;
            }
        }
        f64::from(total) / f64::from(n)
    };
    let road = mean(&[]);
    let river = mean(&strings(card(taxis, "river-taxi").fields.get("edge_tags")));
    let flight = mean(&strings(card(taxis, "flying-taxi").fields.get("edge_tags")));
    assert!(
        river < road && flight < road,
        "road {road}, river {river}, flight {flight}"
    );
}

// ---------------------------------------------------------------------------------------------
// Passenger cards (CC-T3, CC-T6, CC-X2, CC-X3)

#[test]
fn passenger_cards() {
    // CC-T3: a passenger count, two destination stands, a fare; some are VIP.
    let p = deck("passengers");
    // Designed: 48 different cards.
    assert_eq!(p.size(), 48);
    assert!(p.cards.iter().all(|c| c.count == 1));
    let stands = tagged("stand");
    let small_cab = deck("taxis")
        .cards
        .iter()
        .map(|c| int_field(c, "capacity"))
        .min()
        .unwrap();
    let mut pairs = BTreeMap::new();
    let mut named = BTreeMap::new();
    let mut vip = 0;
    for c in &p.cards {
        let n = int_field(c, "passengers");
        assert!(
            (1..=small_cab).contains(&n),
            "`{}`: {n} passengers do not fit every cab",
            c.id
        );
        // CC-T3, CC-T6: exactly two different stands, so "the other one" always exists.
        let dest = strings(c.fields.get("destinations"));
        assert_eq!(dest.len(), 2, "`{}` names {} stands", c.id, dest.len());
        assert_ne!(dest[0], dest[1], "`{}` names one stand twice", c.id);
        for s in &dest {
            assert!(
                stands.contains(s.as_str()),
                "`{}`: {s} is not a taxi stand",
                c.id
            );
            *named.entry(s.clone()).or_insert(0) += 1;
        }
        let mut pair = dest.clone();
        pair.sort();
        *pairs.entry(pair).or_insert(0) += 1;
        // CC-T7: a fare in coins (designed 2-6).
        let fare = int_field(c, "fare");
        assert!((2..=6).contains(&fare), "`{}` pays {fare}", c.id);
        if c.fields.get("vip").and_then(Value::as_bool) == Some(true) {
            vip += 1;
        }
    }
    // CC-X3: the Limousine's VIP cards (designed: 17).
    assert_eq!(vip, 17);
    // Designed: every pair of stands appears, and every stand is named equally often.
    assert_eq!(pairs.len(), 8 * 7 / 2);
    assert_eq!(named.len(), 8);
    assert!(named.values().all(|&n| n == 12), "{named:?}");
}

#[test]
fn family_draws_can_fit_or_overflow() {
    // CC-X2: two cards fit the Family taxi when their passengers sum to 6 or less; both cases
    // must occur in the deck for the rule to matter.
    let p = deck("passengers");
    let cap = int_constant("family_capacity");
    assert_eq!(cap, 6);
    let sizes: Vec<i64> = p.cards.iter().map(|c| int_field(c, "passengers")).collect();
    let mut fit = 0;
    let mut overflow = 0;
    for (i, a) in sizes.iter().enumerate() {
        for b in &sizes[i + 1..] {
            if a + b <= cap {
                fit += 1;
            } else {
                overflow += 1;
            }
        }
    }
    assert!(fit > 0 && overflow > 0);
    // Designed: overflow is the exception (about one draw in ten).
    let share = f64::from(overflow) / f64::from(fit + overflow);
    assert!((0.05..0.15).contains(&share), "{share}");
}

// ---------------------------------------------------------------------------------------------
// Movement cards (CC-T4, CC-T5)

#[test]
fn movement_cards() {
    let m = deck("movement");
    // Designed: 40 cards.
    assert_eq!(m.size(), 40);
    let mut values = BTreeSet::new();
    for c in &m.cards {
        let moves = int_field(c, "moves");
        assert!((1..=6).contains(&moves), "`{}` moves {moves}", c.id);
        values.insert(moves);
        // CC-T5: the card says the moves are exact.
        let unit = if moves == 1 { "space" } else { "spaces" };
        assert!(
            c.text.contains(&format!("exactly {moves} {unit}")),
            "`{}`: `{}`",
            c.id,
            c.text
        );
    }
    assert_eq!(values, (1..=6).collect());
    assert_eq!(constant("moves_may_backtrack"), &Value::Bool(true));
}

// ---------------------------------------------------------------------------------------------
// Chance cards (CC-T8)

#[test]
fn chance_cards_from_the_rulebook() {
    // CC-T8: Traffic Jam (skip your next turn, played at once) and The Bet (3 free moves that
    // must all be used).
    let c = deck("chance");
    let jam = card(c, "traffic-jam");
    assert_eq!(str_field(jam, "effect"), "skip-turn");
    assert_eq!(str_field(jam, "play"), "now");
    let bet = card(c, "the-bet");
    assert_eq!(str_field(bet, "effect"), "free-moves");
    assert_eq!(int_field(bet, "amount"), 3);
    assert!(bet.text.contains("All 3 moves must be used"));
    assert_eq!(int_constant("chance_draw"), 1);
    let kept = &def().zones[def().zone("kept-chance").unwrap()];
    assert!(kept.per_seat);
}

#[test]
fn chance_card_texts_match_their_effects() {
    // CC-T8: every card's text names what its effect does, with its number, and says
    // "Keep this card" exactly when it is kept.
    let c = deck("chance");
    // Designed: 24 cards.
    assert_eq!(c.size(), 24);
    // effect -> (uses an amount, is kept, words its text must contain; {n} is the amount)
    let expect: BTreeMap<&str, (bool, bool, &[&str])> = BTreeMap::from([
        ("skip-turn", (false, false, &["next turn"][..])),
        (
            "free-moves",
            (
                true,
                true,
                &["{n} spaces", "instead of playing a movement card"][..],
            ),
        ),
        ("gain-coins", (true, false, &["take {n} coin"][..])),
        ("lose-coins", (true, false, &["pay {n} coin"][..])),
        (
            "collect-from-each",
            (true, false, &["every other driver", "{n} coin"][..]),
        ),
        (
            "next-fare-bonus",
            (true, true, &["deliver", "{n} extra coins"][..]),
        ),
        ("double-move", (false, true, &["two movement cards"][..])),
        (
            "redraw-hand",
            (
                false,
                true,
                &["discard your movement cards", "new hand"][..],
            ),
        ),
        ("stop-short", (false, true, &["stop before"][..])),
        (
            "swap-card",
            (false, true, &["passenger card", "draw another"][..]),
        ),
        (
            "hop-to-stand",
            (
                false,
                false,
                &["taxi stand", "not one of your passengers"][..],
            ),
        ),
        ("give-jam", (false, true, &["skip their next turn"][..])),
    ]);
    let mut used = BTreeSet::new();
    for card in &c.cards {
        let effect = str_field(card, "effect");
        let (needs_amount, kept, words) = expect
            .get(effect)
            .unwrap_or_else(|| panic!("`{}`: unknown effect {effect}", card.id));
        used.insert(effect);
        let amount = int_field(card, "amount");
        assert_eq!(amount > 0, *needs_amount, "`{}` amount {amount}", card.id);
        assert_eq!(
            str_field(card, "play") == "keep",
            *kept,
            "`{}` play = {}",
            card.id,
            str_field(card, "play")
        );
        let text = card.text.to_lowercase();
        assert_eq!(
            text.contains("keep this card"),
            *kept,
            "`{}`: `{}`",
            card.id,
            card.text
        );
        for w in *words {
            let w = w.replace("{n}", &amount.to_string()).to_lowercase();
            assert!(
                text.contains(&w),
                "`{}` does not say `{w}`: `{}`",
                card.id,
                card.text
            );
        }
    }
    assert_eq!(used.len(), expect.len(), "every effect is on some card");
}

// ---------------------------------------------------------------------------------------------
// Coins (CC-T7, CC-E2)

#[test]
fn coins() {
    let d = def();
    let coins = &d.counters[d.counter("coins").unwrap()];
    assert_eq!(coins.scope, Scope::Seat);
    assert_eq!(coins.initial, 0);
    assert_eq!(coins.min, Some(0), "chance cards never take coins below 0");
    assert_eq!(int_constant("starting_coins"), coins.initial);
    let delivered = &d.zones[d.zone("delivered").unwrap()];
    assert!(delivered.per_seat);
}

// ---------------------------------------------------------------------------------------------
// Options and counters that apply only with one game limit (CC-S3)

#[test]
fn the_table_clock_is_shown_only_with_the_clock_limit() {
    let d = std::sync::Arc::new(farebox_suite::load("critter-cab"));
    let limit_of = |id: &str| {
        d.options
            .iter()
            .find(|o| o.id == id)
            .unwrap()
            .applies_when
            .clone()
    };
    assert_eq!(
        limit_of("turn-limit"),
        Some(("limit".into(), Value::Str("rounds".into())))
    );
    assert_eq!(
        limit_of("clock-minutes"),
        Some(("limit".into(), Value::Str("clock".into())))
    );
    for (limit, shown) in [("rounds", false), ("clock", true)] {
        let setup = farebox::game::Setup::new(2, 1).option("limit", Value::Str(limit.into()));
        let g = farebox::game::Game::new(d.clone(), setup).unwrap();
        let view = g.view(Some(0));
        let has_clock = view.counters.iter().any(|(id, _)| id == "clock");
        assert_eq!(has_clock, shown, "limit {limit}");
        assert!(view.counters.iter().any(|(id, _)| id == "coins"));
    }
}
