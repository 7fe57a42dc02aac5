//! Taxi Derby content against its rulebook: the city board, the upgrade tokens, passengers,
//! tickets and tables, checked by rule ID of the Taxi Derby rule list (TD-*) on the bundled mod.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use farebox::GameDef;
use farebox::board::Board;
use farebox::content::def::{
    BoardDef, CardDef, DeckDef, OptionDef, OptionType, Scope, SectionsDef, SpaceDef, TableDef,
    Visibility,
};
use farebox::rng::Rng;
use farebox::value::Value;
use farebox_suite::{Lookup, field, int, list, text};

const KINDS: [&str; 4] = ["stereo", "turbo", "wifi", "luxury"];
const BACKS: [&str; 4] = ["green", "yellow", "red", "purple"];
const TYPES: [&str; 5] = ["commuter", "criminal", "professional", "celebrity", "agent"];

fn def() -> &'static GameDef {
    static DEF: OnceLock<GameDef> = OnceLock::new();
    DEF.get_or_init(|| farebox_suite::load("taxi-derby"))
}

fn deck(id: &str) -> &'static DeckDef {
    def().deck_def(id)
}

fn table(id: &str) -> &'static TableDef {
    def().table_def(id)
}

fn option(id: &str) -> &'static OptionDef {
    def().option_def(id)
}

fn constant(name: &str) -> &'static Value {
    def().constant(name)
}

fn c(name: &str) -> i64 {
    int(constant(name))
}

fn sections() -> &'static SectionsDef {
    match &def().board {
        BoardDef::Sections(s) => s,
        other => panic!("a {} board, not sections", other.kind_name()),
    }
}

/// Every space of every section, with the id of its section.
fn spaces() -> Vec<(&'static str, &'static SpaceDef)> {
    sections()
        .sections
        .iter()
        .flat_map(|s| s.graph.spaces.iter().map(move |sp| (s.id.as_str(), sp)))
        .collect()
}

fn tagged(tag: &str) -> Vec<(&'static str, &'static SpaceDef)> {
    spaces()
        .into_iter()
        .filter(|(_, s)| s.tags.iter().any(|t| t == tag))
        .collect()
}

fn prop<'a>(space: &'a SpaceDef, name: &str) -> &'a Value {
    space
        .props
        .get(name)
        .unwrap_or_else(|| panic!("space `{}` has no prop `{name}`", space.id))
}

fn zone(id: &str) -> &'static farebox::content::def::ZoneDef {
    let d = def();
    &d.zones[d.zone(id).unwrap_or_else(|| panic!("no zone `{id}`"))]
}

/// The city as the engine lays it out for a seed (sections shuffled and turned).
fn city(seed: u64) -> Board {
    Board::new(
        &def().board,
        &def().tiles,
        &BTreeMap::new(),
        &mut Rng::new(seed, 0),
    )
}

fn adjacent(board: &Board, a: &str, b: &str) -> bool {
    let (a, b) = (board.graph.find(a).unwrap(), board.graph.find(b).unwrap());
    board.neighbors(a, &[]).contains(&b)
}

#[test]
fn td_s1_four_sections_in_a_two_by_two_square() {
    // TD-S1
    let s = sections();
    assert_eq!(s.sections.len(), 4);
    assert_eq!((s.columns, s.rows), (2, 2));
    assert!(s.shuffle, "sections are arranged at random");
    assert!(s.rotate, "designed default: sections are turned too");
    // ...unless the `turn-sections` option is off.
    assert_eq!(s.rotate_option.as_deref(), Some("turn-sections"));
    let o = option("turn-sections");
    assert_eq!((o.kind, &o.default), (OptionType::Bool, &Value::Bool(true)));
    let off: BTreeMap<String, Value> = [("turn-sections".to_string(), Value::Bool(false))].into();
    for seed in 0..10 {
        let b = Board::new(&def().board, &def().tiles, &off, &mut Rng::new(seed, 0));
        assert!(b.arrangement.iter().all(|&(_, turns)| turns == 0));
    }
    assert_eq!(def().players, (2, 5));
    // Spaces are road segments: a 4 x 4 block grid without its border road has 24 a section.
    for sec in &s.sections {
        assert_eq!(sec.graph.spaces.len(), 24, "section {}", sec.id);
        for sp in &sec.graph.spaces {
            // A segment's midpoint: one coordinate on a street (even), the other odd.
            let (x, y) = (sp.x as i64, sp.y as i64);
            assert!(
                x % 2 != y % 2,
                "{} at ({x}, {y}) is not a road segment",
                sp.id
            );
            assert!(sp.x > 0.0 && sp.x < s.size && sp.y > 0.0 && sp.y < s.size);
        }
    }
}

#[test]
fn td_s1_every_arrangement_is_one_connected_city() {
    // TD-S1: whatever the order and turns, every space can reach every other.
    for seed in 0..40 {
        let board = city(seed);
        assert_eq!(board.space_count(), 96);
        let dist = board.distances(0, &[], &def().tiles);
        let unreachable: Vec<&str> = dist
            .iter()
            .zip(&board.graph.spaces)
            .filter(|(d, _)| d.is_none())
            .map(|(_, s)| s.id.as_str())
            .collect();
        assert!(
            unreachable.is_empty(),
            "seed {seed}: cut off {unreachable:?}"
        );
    }
}

#[test]
fn td_s2_two_start_spaces_per_taxi_color() {
    // TD-S2: five taxi colours, each with two start spaces side by side.
    let d = def();
    assert_eq!(d.seat_names, ["Orange", "Green", "Yellow", "Blue", "Red"]);
    assert_eq!(d.seat_names.len() as u32, d.players.1);
    let mut by_color: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (_, s) in tagged("start") {
        by_color
            .entry(text(prop(s, "color")))
            .or_default()
            .push(s.id.as_str());
    }
    let colors: BTreeSet<String> = d.seat_names.iter().map(|n| n.to_lowercase()).collect();
    assert_eq!(
        by_color
            .keys()
            .map(|k| k.to_string())
            .collect::<BTreeSet<_>>(),
        colors
    );
    let board = city(1);
    for (color, starts) in &by_color {
        assert_eq!(starts.len(), 2, "{color}: {starts:?}");
        assert!(
            adjacent(&board, starts[0], starts[1]),
            "{color}: {starts:?}"
        );
    }
    let taxi = &d.pieces[d.piece("taxi").unwrap()];
    assert!(taxi.per_seat && taxi.count == 1);
}

#[test]
fn td_s3_44_upgrade_tokens_11_of_each_kind() {
    // TD-S3
    let upgrades = deck("upgrades");
    assert_eq!(upgrades.size(), 44);
    let mut by_kind: BTreeMap<&str, u32> = BTreeMap::new();
    let mut abilities = BTreeSet::new();
    for card in &upgrades.cards {
        *by_kind.entry(text(field(card, "kind"))).or_default() += card.count;
        abilities.insert(text(field(card, "ability")));
    }
    assert_eq!(by_kind, KINDS.iter().map(|k| (*k, 11)).collect());
    // TD-P6: each kind unlocks its own ability at tier 2.
    assert_eq!(abilities.len(), 4);
    let bag = zone("upgrade-bag");
    assert_eq!(bag.deck, def().deck("upgrades"));
    assert!(bag.shuffle && bag.visibility == Visibility::Hidden);
    assert_eq!(c("starting_upgrades"), 1);
}

#[test]
fn td_s4_tokens_per_store_by_player_count() {
    // TD-S4: 2 players 1, 3-4 players 2, 5 players 3.
    let t = table("store-tokens");
    assert_eq!(t.key.as_deref(), Some("players"));
    let rows: BTreeMap<i64, i64> = t
        .rows
        .iter()
        .map(|r| (int(&r["players"]), int(&r["tokens"])))
        .collect();
    assert_eq!(rows, BTreeMap::from([(2, 1), (3, 2), (4, 2), (5, 3)]));
    // Even at 5 players the bag holds the starting tokens and every store's stock.
    let stores = tagged("store").len() as i64;
    let (most_players, most_tokens) = (def().players.1 as i64, rows[&5]);
    assert!(most_players * c("starting_upgrades") + stores * most_tokens <= 44);
}

#[test]
fn td_s4_stores_priced_one_to_three_dollars() {
    // TD-S4, TD-T6: every store has a price of $1, $2 or $3 and its own stock zone.
    let stores = tagged("store");
    assert_eq!(stores.len(), 12);
    let mut prices = BTreeMap::new();
    let mut stock = BTreeSet::new();
    for (_, s) in &stores {
        let price = int(prop(s, "price"));
        assert!((1..=3).contains(&price), "{}: ${price}", s.id);
        *prices.entry(price).or_insert(0) += 1;
        let z = text(prop(s, "zone"));
        assert!(stock.insert(z), "two stores share zone {z}");
        assert_eq!(zone(z).visibility, Visibility::Public);
        assert!(!zone(z).per_seat && zone(z).deck.is_none());
    }
    assert_eq!(prices, BTreeMap::from([(1, 4), (2, 4), (3, 4)]));
    // Designed: every section has one store at each price.
    for sec in &sections().sections {
        let mut here: Vec<i64> = stores
            .iter()
            .filter(|(id, _)| *id == sec.id)
            .map(|(_, s)| int(prop(s, "price")))
            .collect();
        here.sort_unstable();
        assert_eq!(here, [1, 2, 3], "section {}", sec.id);
    }
    assert_eq!(c("upgrades_per_store_per_turn"), 1);
}

#[test]
fn td_s5_56_passengers_in_four_back_colors() {
    // TD-S5
    let passengers = deck("passengers");
    assert_eq!(passengers.size(), 56);
    assert!(passengers.cards.iter().all(|p| p.count == 1));
    let mut by_back: BTreeMap<&str, i64> = BTreeMap::new();
    for p in &passengers.cards {
        *by_back.entry(text(field(p, "back"))).or_default() += 1;
    }
    assert_eq!(
        by_back.keys().copied().collect::<BTreeSet<_>>(),
        BACKS.into_iter().collect()
    );
    // Five stacks of 9, bottom to top: 1 purple, 2 red, 3 yellow, 3 green.
    assert_eq!(c("stacks"), 5);
    let build = list(constant("stack_build"));
    assert_eq!(build.len(), 9);
    assert_eq!(
        build,
        [
            "purple", "red", "red", "yellow", "yellow", "yellow", "green", "green", "green"
        ]
    );
    // There are enough tiles of every back for all five stacks.
    for back in BACKS {
        let per_stack = build.iter().filter(|b| **b == back).count() as i64;
        let need = per_stack * c("stacks");
        assert!(
            by_back[back] >= need,
            "{back}: {} tiles, {need} needed",
            by_back[back]
        );
    }
    assert!(9 * c("stacks") <= passengers.size() as i64);
    let supply = zone("passenger-supply");
    assert_eq!(supply.deck, def().deck("passengers"));
    assert_eq!(supply.visibility, Visibility::Hidden);
}

#[test]
fn td_s6_five_stacks_each_with_two_pick_up_spots() {
    // TD-S6
    assert_eq!(c("pickups_per_stack"), 2);
    let ranks = tagged("stack");
    assert_eq!(ranks.len(), 5);
    let names: BTreeSet<&str> = ranks.iter().map(|(_, s)| text(prop(s, "stack"))).collect();
    let expected: BTreeSet<String> = (1..=5).map(|n| format!("stack-{n}")).collect();
    assert_eq!(
        names.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>(),
        expected
    );
    let board = city(2);
    let pickups = tagged("pickup");
    assert_eq!(pickups.len(), 10);
    for (section, rank) in &ranks {
        let stack = text(prop(rank, "stack"));
        // The stack itself is a face-down zone.
        assert_eq!(zone(stack).visibility, Visibility::Hidden);
        let spots: Vec<&SpaceDef> = pickups
            .iter()
            .filter(|(_, p)| text(prop(p, "stack")) == stack)
            .map(|(sec, p)| {
                assert_eq!(sec, section, "{}: pick-up spot away from its stack", p.id);
                *p
            })
            .collect();
        assert_eq!(spots.len(), 2, "{stack}");
        let mut zones = BTreeSet::new();
        for p in spots {
            assert!(
                adjacent(&board, &rank.id, &p.id),
                "{} is not beside {}",
                p.id,
                rank.id
            );
            let z = text(prop(p, "zone"));
            assert_eq!(zone(z).visibility, Visibility::Public, "{z}: face up");
            zones.insert(z);
        }
        assert_eq!(zones.len(), 2, "{stack}: both spots share a zone");
    }
}

#[test]
fn td_s7_36_traffic_tickets() {
    // TD-S7
    let tickets = deck("tickets");
    assert_eq!(tickets.size(), 36);
    let ticket_deck = zone("ticket-deck");
    assert_eq!(ticket_deck.deck, def().deck("tickets"));
    assert!(ticket_deck.shuffle && ticket_deck.visibility == Visibility::Hidden);
    // TD-K1: most are fines; some send the taxi to the police station or take an upgrade.
    let mut by_effect: BTreeMap<&str, u32> = BTreeMap::new();
    for t in &tickets.cards {
        let effect = text(field(t, "effect"));
        *by_effect.entry(effect).or_default() += t.count;
        let fine = int(field(t, "fine"));
        match effect {
            "fine" => assert!((1..=5).contains(&fine), "{}: ${fine}", t.id),
            "police" => assert_eq!(fine, 0, "{}", t.id),
            "downgrade" => {
                assert_eq!(fine, 0, "{}", t.id);
                if let Some(k) = t.fields.get("upgrade") {
                    assert!(KINDS.contains(&text(k)), "{}", t.id);
                }
            }
            other => panic!("{}: effect {other}", t.id),
        }
    }
    assert!(
        by_effect["fine"] > 36 / 2,
        "most tickets are fines: {by_effect:?}"
    );
    assert!(by_effect["police"] >= 1 && by_effect["downgrade"] >= 1);
    assert_eq!(by_effect.values().sum::<u32>(), 36);
    // Each player's cube on the speeding track, and the tickets kept in front of them.
    let track = &def().counters[def().counter("furthest-turn").unwrap()];
    assert!(track.scope == Scope::Seat && track.initial == 0);
    let kept = zone("issued-tickets");
    assert!(kept.per_seat && kept.visibility == Visibility::Public);
}

#[test]
fn td_s8_one_police_station_and_one_patrol_car() {
    // TD-S8
    assert_eq!(tagged("police").len(), 1);
    let d = def();
    let car = &d.pieces[d.piece("patrol-car").unwrap()];
    assert!(!car.per_seat && car.count == 1);
}

#[test]
fn td_s9_first_player_option() {
    // TD-S9
    let o = option("first-player");
    assert_eq!(o.kind, OptionType::Choice);
    assert_eq!(o.default, Value::Str("random".into()));
    let ids: BTreeSet<&str> = o.choices.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(ids, BTreeSet::from(["first-seat", "random"]));
}

#[test]
fn td_t5_five_drop_off_locations() {
    // TD-T5: five locations, each with its own drop-off spaces on the board.
    let locations = table("locations");
    assert_eq!(locations.rows.len(), 5);
    let ids: BTreeSet<&str> = locations.rows.iter().map(|r| text(&r["id"])).collect();
    assert_eq!(ids.len(), 5);
    let dropoffs = tagged("dropoff");
    for row in &locations.rows {
        let id = text(&row["id"]);
        let here: Vec<&str> = dropoffs
            .iter()
            .filter(|(_, s)| text(prop(s, "location")) == id)
            .map(|(sec, _)| *sec)
            .collect();
        assert_eq!(here.len(), 2, "{id}: {} drop-off spaces", here.len());
        assert!(
            here.iter().all(|sec| *sec == text(&row["section"])),
            "{id}: drop-off outside section {}",
            text(&row["section"])
        );
    }
    assert!(
        dropoffs
            .iter()
            .all(|(_, s)| ids.contains(text(prop(s, "location"))))
    );
    // Every passenger goes to one of them, and every location gets passengers.
    let mut per_location: BTreeMap<&str, u32> = BTreeMap::new();
    for p in &deck("passengers").cards {
        let dest = text(field(p, "destination"));
        assert!(
            ids.contains(dest),
            "{}: no drop-off location `{dest}`",
            p.id
        );
        *per_location.entry(dest).or_default() += 1;
    }
    assert_eq!(per_location.len(), 5);
    assert!(
        per_location.values().all(|n| (10..=12).contains(n)),
        "{per_location:?}"
    );
}

#[test]
fn td_board_features_do_not_overlap() {
    // A space is at most one of: store, stack, pick-up, drop-off, police, start.
    let features = ["store", "stack", "pickup", "dropoff", "police", "start"];
    for (_, s) in spaces() {
        let n = s
            .tags
            .iter()
            .filter(|t| features.contains(&t.as_str()))
            .count();
        assert!(n <= 1, "{} is {:?}", s.id, s.tags);
    }
    let all: usize = features.iter().map(|f| tagged(f).len()).sum();
    assert_eq!(all, 12 + 5 + 10 + 10 + 1 + 10);
}

#[test]
fn td_p_passenger_types_requirements_payments() {
    let passengers = &deck("passengers").cards;
    for p in passengers {
        // TD-P1
        let ty = text(field(p, "type"));
        assert!(TYPES.contains(&ty), "{}: type {ty}", p.id);
        // TD-P2: known upgrades, each named once, at most one of each kind.
        let req = list(field(p, "requires"));
        let set: BTreeSet<&str> = req.iter().copied().collect();
        assert_eq!(set.len(), req.len(), "{}: {req:?}", p.id);
        assert!(req.iter().all(|k| KINDS.contains(k)), "{}: {req:?}", p.id);
        // TD-P3
        if let Some(limit) = p.fields.get("ticket_limit") {
            assert!((0..=3).contains(&int(limit)), "{}", p.id);
        }
        // TD-P4
        assert!(int(field(p, "payment")) >= 1, "{}", p.id);
        // TD-P5: only criminals and secret agents multiply.
        if field(p, "multiplier") == &Value::Bool(true) {
            assert!(
                ty == "criminal" || ty == "agent",
                "{}: a {ty} multiplier",
                p.id
            );
        }
        assert!(!p.name.is_empty() && !p.text.is_empty(), "{}", p.id);
    }
    // TD-P1: every type is in the game, and any of them may be a VIP.
    for ty in TYPES {
        let of_type: Vec<&CardDef> = passengers
            .iter()
            .filter(|p| text(field(p, "type")) == ty)
            .collect();
        assert!(!of_type.is_empty(), "no {ty}");
        assert!(
            of_type
                .iter()
                .any(|p| field(p, "vip") == &Value::Bool(true)),
            "no VIP {ty}"
        );
    }
    // TD-P5: both multiplying types have multiplier tiles.
    for ty in ["criminal", "agent"] {
        assert!(
            passengers
                .iter()
                .any(|p| text(field(p, "type")) == ty
                    && field(p, "multiplier") == &Value::Bool(true))
        );
    }
    // TD-P3: some passengers have a ticket limit, some take a taxi with any record.
    assert!(
        passengers
            .iter()
            .any(|p| p.fields.contains_key("ticket_limit"))
    );
    assert!(
        passengers
            .iter()
            .any(|p| !p.fields.contains_key("ticket_limit"))
    );
    // TD-P2: every upgrade kind is asked for, and some riders need none.
    for kind in KINDS {
        assert!(
            passengers
                .iter()
                .any(|p| list(field(p, "requires")).contains(&kind)),
            "{kind}"
        );
    }
    assert!(
        passengers
            .iter()
            .any(|p| list(field(p, "requires")).is_empty())
    );
}

#[test]
fn td_p_deeper_in_the_stack_is_harder_and_pays_more() {
    // Designed (TD-S5): difficulty and pay rise with the back colour, bottom of the stack last.
    let passengers = &deck("passengers").cards;
    let mut last_max_pay = 0;
    for back in BACKS {
        let flat: Vec<i64> = passengers
            .iter()
            .filter(|p| {
                text(field(p, "back")) == back && field(p, "multiplier") != &Value::Bool(true)
            })
            .map(|p| int(field(p, "payment")))
            .collect();
        let (lo, hi) = (*flat.iter().min().unwrap(), *flat.iter().max().unwrap());
        assert!(
            lo >= last_max_pay,
            "{back} pays ${lo}, below the previous color"
        );
        last_max_pay = hi;
        let most_required = passengers
            .iter()
            .filter(|p| text(field(p, "back")) == back)
            .map(|p| list(field(p, "requires")).len() as i64)
            .max()
            .unwrap();
        assert!(most_required <= c("max_upgrades_per_kind"));
    }
}

#[test]
fn td_t_c_turn_and_patrol_numbers() {
    // TD-T1: speed limit 4, speeding at 5.
    assert_eq!(c("speed_limit"), 4);
    // TD-T2
    assert_eq!(c("actions_per_turn"), 2);
    // TD-T4: two seats.
    assert_eq!(c("taxi_seats"), 2);
    // TD-T8, TD-B5: 7 spaces for the speeding track.
    assert_eq!(c("speeding_track_threshold"), 7);
    // TD-C1: patrol up to 4 spaces; TD-C2: a 4-sided pursuit die.
    assert_eq!(c("patrol_moves"), 4);
    assert_eq!(c("pursuit_die_sides"), 4);
    // TD-P6: three tiers; +1 coin at tier 2, +3 at tier 3.
    assert_eq!(c("max_upgrades_per_kind"), 3);
    assert_eq!(c("tier2_delivery_bonus"), 1);
    assert_eq!(c("tier3_delivery_bonus"), 3);
    // Designed starting money (TD-T6, TD-K3): the constant and the counter agree.
    let money = &def().counters[def().counter("money").unwrap()];
    assert_eq!(money.scope, Scope::Seat);
    assert_eq!(money.initial, c("starting_money"));
    assert_eq!(money.min, Some(0));
    // The coins in the box: 32 x $1, 22 x $5, 12 x $10.
    let coins = constant("coin_supply");
    let count = |k: &str| int(coins.get(k).unwrap_or_else(|| panic!("coin_supply.{k}")));
    assert_eq!((count("ones"), count("fives"), count("tens")), (32, 22, 12));
    // The player mat's zones.
    for z in ["upgrades", "cab", "delivered", "issued-tickets"] {
        assert!(zone(z).per_seat, "{z}");
    }
}

#[test]
fn td_e1_end_trigger_option_and_table() {
    // TD-E1: four empty stacks (or two cleared) as printed; 3 or 5 as variants.
    let o = option("end-stacks");
    assert_eq!(o.kind, OptionType::Int);
    assert_eq!(o.default, Value::Int(4));
    assert_eq!((o.min, o.max), (Some(3), Some(5)));
    let t = table("end-trigger");
    let rows: BTreeMap<i64, i64> = t
        .rows
        .iter()
        .map(|r| (int(&r["empty_stacks"]), int(&r["cleared_stacks"])))
        .collect();
    assert_eq!(rows.keys().copied().collect::<Vec<_>>(), [3, 4, 5]);
    assert_eq!(rows[&4], 2);
    assert!(rows.iter().all(|(e, cl)| cl < e && *e <= c("stacks")));
}

#[test]
fn td_b_end_game_bonus_table() {
    let t = table("end-bonus");
    let by_category: BTreeMap<&str, &BTreeMap<String, Value>> =
        t.rows.iter().map(|r| (text(&r["category"]), r)).collect();
    let amounts = |cat: &str| {
        let r = by_category
            .get(cat)
            .unwrap_or_else(|| panic!("no bonus row `{cat}`"));
        (int(&r["first"]), int(&r["second"]), int(&r["third"]))
    };
    // TD-B1, TD-B2
    assert_eq!(amounts("most-upgrades"), (7, 5, 3));
    assert_eq!(amounts("fewest-tickets"), (7, 5, 3));
    // TD-B5: 10 / 6 / 4, at least 7 spaces.
    assert_eq!(amounts("furthest-turn"), (10, 6, 4));
    assert_eq!(int(&by_category["furthest-turn"]["min_spaces"]), 7);
    assert_eq!(
        int(&by_category["furthest-turn"]["min_spaces"]),
        c("speeding_track_threshold")
    );
    // TD-B3: one row per passenger type, with the board's five value sets.
    let mut by_type: BTreeMap<&str, (i64, i64, i64)> = BTreeMap::new();
    for r in &t.rows {
        if text(&r["measure"]) == "most-delivered" {
            let ty = text(&r["passenger_type"]);
            assert!(
                by_type.insert(ty, amounts(text(&r["category"]))).is_none(),
                "{ty} twice"
            );
        }
    }
    assert_eq!(
        by_type.keys().copied().collect::<BTreeSet<_>>(),
        TYPES.into_iter().collect()
    );
    let mut values: Vec<(i64, i64, i64)> = by_type.values().copied().collect();
    values.sort_unstable();
    assert_eq!(
        values,
        [(4, 2, 1), (4, 2, 1), (6, 4, 2), (6, 4, 2), (8, 6, 4)]
    );
    // Designed mapping (TD-B3): commuters earn the biggest majority bonus.
    assert_eq!(by_type["commuter"], (8, 6, 4));
    assert_eq!(t.rows.len(), 2 + 5 + 1);
}
