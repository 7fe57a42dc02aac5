//! Dicey Curves' bundled content against the counts and numbers of its rulebook (the DC rule
//! list), and the designed defaults of mods/dicey-curves/DESIGN.md that those numbers rest on.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;
use std::sync::OnceLock;

use farebox::GameDef;
use farebox::content::def::{
    BoardDef, CardDef, DeckDef, OptionType, Scope, TrackDef, TrackPieceDef, TrackRole,
};
use farebox::value::Value;
use farebox_suite::{Lookup, int, text};

fn def() -> &'static GameDef {
    static DEF: OnceLock<GameDef> = OnceLock::new();
    DEF.get_or_init(|| farebox_suite::load("dicey-curves"))
}

fn constant(name: &str) -> &'static Value {
    def().constant(name)
}

fn int_constant(name: &str) -> i64 {
    int(constant(name))
}

fn str_constant(name: &str) -> &'static str {
    text(constant(name))
}

fn track() -> &'static TrackDef {
    match &def().board {
        BoardDef::Track(t) => t,
        other => panic!("Dicey Curves has a track board, not {}", other.kind_name()),
    }
}

fn deck() -> &'static DeckDef {
    let d = def();
    &d.decks[d.deck("track").expect("the track deck")]
}

/// The shape a track card is laid as.
fn shape(card: &CardDef) -> &'static TrackPieceDef {
    let id = card
        .fields
        .get("piece")
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("track card `{}` has no piece", card.id));
    track()
        .pieces
        .iter()
        .find(|p| p.id == id)
        .unwrap_or_else(|| panic!("track card `{}` names unknown piece `{id}`", card.id))
}

fn card(id: &str) -> &'static CardDef {
    let d = deck();
    &d.cards[d.card(id).unwrap_or_else(|| panic!("no track card `{id}`"))]
}

/// Cards (with their copies) whose shape passes `keep`.
fn count_where(keep: impl Fn(&TrackPieceDef) -> bool) -> u32 {
    deck()
        .cards
        .iter()
        .filter(|c| keep(shape(c)))
        .map(|c| c.count)
        .sum()
}

fn int_cell(row: &std::collections::BTreeMap<String, Value>, col: &str) -> i64 {
    row.get(col)
        .and_then(Value::as_int)
        .unwrap_or_else(|| panic!("row {row:?} has no integer `{col}`"))
}

fn num_cell(row: &std::collections::BTreeMap<String, Value>, col: &str) -> f64 {
    match row.get(col) {
        Some(Value::Num(n)) => *n,
        Some(Value::Int(i)) => *i as f64,
        other => panic!("row {row:?} has no number `{col}`: {other:?}"),
    }
}

fn choice_ids(option: &str) -> Vec<&'static str> {
    let o = def()
        .option(option)
        .unwrap_or_else(|| panic!("no option `{option}`"));
    assert_eq!(o.kind, OptionType::Choice, "option `{option}`");
    o.choices.iter().map(|(id, _)| id.as_str()).collect()
}

#[test]
fn players_and_cars() {
    // DC-S1: 2-8 players; 8 cars, two each for 2-4 players, one each for 5-8.
    let d = def();
    assert_eq!(d.players, (2, 8));
    let cars: Vec<_> = d
        .pieces
        .iter()
        .filter(|p| p.tags.iter().any(|t| t == "car"))
        .collect();
    assert_eq!(cars.iter().map(|p| p.count).sum::<u32>(), 8);
    assert_eq!(int_constant("cars_total"), 8);
    let colours: BTreeSet<_> = cars
        .iter()
        .map(|p| p.props.get("color").and_then(Value::as_str).unwrap())
        .collect();
    assert_eq!(colours.len(), 8, "every car has its own colour");
    assert!(
        cars.iter().all(|p| !p.per_seat),
        "cars are chosen, not owned"
    );

    assert_eq!(int_constant("two_cars_max_players"), 4);
    assert_eq!(int_constant("cars_each_small_game"), 2);
    assert_eq!(int_constant("cars_each_large_game"), 1);
    // Two cars each at the largest two-car table uses every car, one each at 8 players too.
    assert_eq!(int_constant("two_cars_max_players") * 2, 8);
    assert_eq!(i64::from(d.players.1), 8);
    assert_eq!(
        choice_ids(str_constant("cars_per_player_option")),
        ["auto", "one", "two"]
    );
}

#[test]
fn control_chips() {
    // DC-S2: 2 chips each at the start, 32 in the box.
    let d = def();
    let chips = &d.counters[d.counter("chips").unwrap()];
    assert_eq!(chips.scope, Scope::Seat);
    assert_eq!(chips.initial, 2);
    assert_eq!(int_constant("starting_chips"), 2);
    // DESIGN.md (DC-S6): every seat after the starter takes 2 more, the starter none.
    assert_eq!(
        constant("extra_chips_by_turn_order"),
        &Value::List(
            [0, 2, 2, 2, 2, 2, 2, 2]
                .into_iter()
                .map(Value::Int)
                .collect()
        )
    );
    // Two seats: the starter gives one back, the second seat takes one (1 and 3 chips).
    assert_eq!(
        constant("extra_chips_by_turn_order_2"),
        &Value::List([-1, 1].into_iter().map(Value::Int).collect())
    );
    // Four seats: one back, none, 1 and 2 more by turn order (1, 2, 3 and 4 chips), and their own lining-up order (DESIGN.md,
    // DC-S6).
    assert_eq!(
        constant("extra_chips_by_turn_order_4"),
        &Value::List([-1, 0, 1, 2].into_iter().map(Value::Int).collect())
    );
    assert_eq!(
        constant("lineup_by_turn_order_4"),
        &Value::List([2, 1, 4, 3].into_iter().map(Value::Int).collect())
    );
    let supply = &d.counters[d.counter("chip-supply").unwrap()];
    assert_eq!(supply.scope, Scope::Global);
    assert_eq!(supply.initial, 32);
    assert_eq!(int_constant("chip_supply"), 32);
    // DC-T14: never more than 4 chips.
    assert_eq!(chips.max, Some(4));
    assert_eq!(chips.min, Some(0));
    assert_eq!(int_constant("chip_cap"), 4);
    // DESIGN.md (DC-S2): full hands at the largest table never need more than the supply.
    assert!(int_constant("chip_cap") * i64::from(d.players.1) <= supply.initial);
    // DC-T3, DC-T4, DC-T9..DC-T12: every chip action costs one chip.
    assert_eq!(int_constant("chip_action_cost"), 1);
}

#[test]
fn dice() {
    // DC-T2: 5 white and 5 green six-sided dice; a 6 explodes.
    let d = def();
    for (id, n) in [("white-die", 5), ("green-die", 5)] {
        let p = &d.pieces[d.piece(id).unwrap_or_else(|| panic!("no piece {id}"))];
        assert_eq!(p.count, n, "{id}");
        assert_eq!(
            p.props.get("sides").and_then(Value::as_int),
            Some(6),
            "{id}"
        );
    }
    let dice: u32 = d
        .pieces
        .iter()
        .filter(|p| p.tags.iter().any(|t| t == "die"))
        .map(|p| p.count)
        .sum();
    assert_eq!(dice, 10);
    assert_eq!(int_constant("white_dice"), 5);
    assert_eq!(int_constant("green_dice"), 5);
    assert_eq!(int_constant("die_sides"), 6);
    assert_eq!(int_constant("explode_on"), 6);
    // DC-T3: a chip-bought green die is set to 1-5.
    assert_eq!(int_constant("chip_die_min"), 1);
    assert_eq!(int_constant("chip_die_max"), 5);
    // DC-T5: a combo is 2 or more dice.
    assert_eq!(int_constant("min_combo"), 2);
}

#[test]
fn chip_purchase_table() {
    // DC-T14: best leftover combo of 2 dice = 1 chip, 3 = 2, 4 or more = 3.
    let d = def();
    let t = &d.tables[d.table(str_constant("chip_purchase_table")).unwrap()];
    assert_eq!(t.rows.len(), 3);
    for (combo, chips, or_larger) in [(2, 1, false), (3, 2, false), (4, 3, true)] {
        let row = t
            .lookup(&Value::Int(combo))
            .unwrap_or_else(|| panic!("no row for a {combo}-dice combo"));
        assert_eq!(int_cell(row, "chips"), chips, "{combo}-dice combo");
        assert_eq!(
            row.get("or_larger").and_then(Value::as_bool),
            Some(or_larger),
            "{combo}-dice combo"
        );
    }
}

#[test]
fn thirty_six_track_cards() {
    // DC-S3: 36 track cards.
    assert_eq!(deck().size(), 36);
    // Every card is laid as a shape of board.toml (a broken ref would panic in `shape`).
    for c in &deck().cards {
        let s = shape(c);
        assert!(c.count >= 1, "{}", c.id);
        assert!(
            (2..=3).contains(&s.lanes),
            "{}: {} lanes (track cards have 2 or 3)",
            c.id,
            s.lanes
        );
        assert!(s.rows >= 1, "{}", c.id);
    }
    let d = def();
    let zone = &d.zones[d.zone("track-deck").unwrap()];
    assert_eq!(
        zone.deck,
        d.deck("track"),
        "the track deck zone holds the track cards"
    );
}

#[test]
fn one_start_and_one_finish() {
    // DC-S3, DC-S4: exactly one Start and one Finish card.
    assert_eq!(count_where(|p| p.role == TrackRole::Start), 1);
    assert_eq!(count_where(|p| p.role == TrackRole::Finish), 1);
    assert_eq!(
        shape(card(str_constant("start_card"))).role,
        TrackRole::Start
    );
    assert_eq!(
        shape(card(str_constant("finish_card"))).role,
        TrackRole::Finish
    );
    assert_eq!(card(str_constant("start_card")).count, 1);
    assert_eq!(card(str_constant("finish_card")).count, 1);
}

#[test]
fn start_grid_has_nine_spaces() {
    // DC-S6: 9 grid spaces, 3 rows of 3, no gate to hold the pack back.
    let start = shape(card(str_constant("start_card")));
    assert_eq!((start.lanes, start.rows), (3, 3));
    assert_eq!(start.lanes * start.rows, 9);
    assert_eq!(int_constant("start_grid_spaces"), 9);
    assert_eq!(start.turn, 0);
    assert!(start.gates.is_empty());
}

#[test]
fn finish_is_a_three_dice_gate() {
    // DC-E2: the finish line is one 3-dice gate the cars cross.
    let finish = shape(card(str_constant("finish_card")));
    assert_eq!(finish.turn, 0);
    assert_eq!(finish.gates.len(), 1);
    let (lanes, size) = &finish.gates[0];
    assert_eq!(*size, 3);
    let all: Vec<u32> = (0..finish.lanes).collect();
    assert_eq!(*lanes, all, "the finish gate spans every lane");
    assert_eq!(int_constant("finish_gate"), 3);
}

#[test]
fn straights_with_two_and_three_lanes() {
    // DC-S3: straights of 2 and 3 lanes; they have no gates.
    let straight = |p: &TrackPieceDef| p.role == TrackRole::Normal && p.turn == 0;
    assert!(count_where(|p| straight(p) && p.lanes == 2) > 0);
    assert!(count_where(|p| straight(p) && p.lanes == 3) > 0);
    for c in &deck().cards {
        let s = shape(c);
        if straight(s) {
            assert!(s.gates.is_empty(), "straight `{}` has a gate", c.id);
        }
    }
    // DC-S4, DC-S5: one 3-lane straight is taken out and laid after the Start.
    let opening = card(str_constant("opening_straight_card"));
    let s = shape(opening);
    assert!(straight(s), "the opening card is a straight");
    assert_eq!(s.lanes, 3);
    assert!(opening.count >= 1);
}

#[test]
fn curves_turn_45_or_90_and_have_gates_of_2_to_5() {
    // DC-G1: gentle curves turn 45 degrees, hard ones 90, to either side.
    for turn in [-90, -45, 45, 90] {
        assert!(
            count_where(|p| p.turn == turn) > 0,
            "no curve turning {turn} degrees"
        );
    }
    let mut sizes = BTreeSet::new();
    for c in &deck().cards {
        let s = shape(c);
        for (_, size) in &s.gates {
            // DC-T8: gates need a combo of 2 to 5 dice.
            assert!((2..=5).contains(size), "`{}` has a {size}-dice gate", c.id);
            sizes.insert(*size);
        }
        if s.turn == 0 {
            continue;
        }
        assert!(
            [45, 90].contains(&s.turn.abs()),
            "`{}` turns {} degrees",
            c.id,
            s.turn
        );
        assert_eq!(s.role, TrackRole::Normal, "`{}`", c.id);
        assert!(!s.gates.is_empty(), "curve `{}` has no gate", c.id);
        // Every lane of a curve meets exactly one gate.
        let mut lanes: Vec<u32> = s.gates.iter().flat_map(|(l, _)| l.clone()).collect();
        lanes.sort_unstable();
        assert_eq!(
            lanes,
            (0..s.lanes).collect::<Vec<_>>(),
            "`{}`: every lane has exactly one gate",
            c.id
        );
    }
    assert_eq!(
        sizes,
        BTreeSet::from([2, 3, 4, 5]),
        "every gate size is used"
    );
}

#[test]
fn designed_track_mix() {
    // DC-S3 (designed default, DESIGN.md): 1 start, 1 finish, 18 straights, 10 gentle and
    // 6 hard curves, left and right exactly balanced so the track wanders instead of spiralling.
    assert_eq!(
        count_where(|p| p.role == TrackRole::Normal && p.turn == 0),
        18
    );
    assert_eq!(count_where(|p| p.turn.abs() == 45), 10);
    assert_eq!(count_where(|p| p.turn.abs() == 90), 6);
    let net: i64 = deck()
        .cards
        .iter()
        .map(|c| i64::from(shape(c).turn) * i64::from(c.count))
        .sum();
    assert_eq!(net, 0, "left and right turns balance");
    // Gentle curves ask for 2 or 3 dice; hard curves 4 or 5 on the harder line and 2 or 3 on
    // the easier one.
    for c in &deck().cards {
        let s = shape(c);
        let max = s.gates.iter().map(|(_, size)| *size).max().unwrap_or(0);
        let min = s.gates.iter().map(|(_, size)| *size).min().unwrap_or(0);
        match s.turn.abs() {
            45 => assert!(max <= 3, "gentle `{}` has a {max}-dice gate", c.id),
            90 => assert!(
                max >= 4 && min <= 3,
                "hard `{}` has gates {min}..{max}",
                c.id
            ),
            _ => {}
        }
    }
}

#[test]
fn opening_track() {
    // DC-S4: Start, Finish and one 3-lane straight are set aside; the rest is shuffled.
    // DC-S5: Start, the 3-lane straight and the top 2 cards make a 4-card track.
    assert_eq!(int_constant("setup_drawn_cards"), 2);
    assert_eq!(int_constant("start_track_length"), 4);
    assert_eq!(str_constant("track_deck"), "track");
    let d = def();
    assert!(d.zone("set-aside").is_some());
}

#[test]
fn finish_depth_option() {
    // DC-S4: the Finish goes back in at a chosen depth, the middle by default.
    let o = def().option(str_constant("finish_depth_option")).unwrap();
    assert_eq!(o.default, Value::Str("middle".into()));
    let d = def();
    let t = &d.tables[d.table(str_constant("finish_depth_table")).unwrap()];
    let shuffled = i64::from(deck().size()) - 3;
    assert_eq!(shuffled, 33);
    let mut above = Vec::new();
    for id in choice_ids(str_constant("finish_depth_option")) {
        let row = t
            .lookup(&Value::Str(id.into()))
            .unwrap_or_else(|| panic!("no finish-depth row for `{id}`"));
        let (cards_above, spread) = (int_cell(row, "cards_above"), int_cell(row, "spread"));
        // Never laid during setup, never below the bottom of the deck.
        assert!(
            cards_above - spread > int_constant("setup_drawn_cards"),
            "{id}: the Finish could come out at setup"
        );
        assert!(
            cards_above + spread <= shuffled,
            "{id}: deeper than the deck"
        );
        above.push((id, cards_above));
    }
    assert_eq!(above.len(), 3);
    let depth = |id: &str| above.iter().find(|(i, _)| *i == id).unwrap().1;
    // Higher in the deck for a shorter race, lower for a longer one.
    assert!(depth("short") < depth("middle") && depth("middle") < depth("long"));
    assert!(
        (depth("middle") * 2 - shuffled).abs() <= 1,
        "middle is the middle of the deck"
    );
}

#[test]
fn table_size_option() {
    // DC-T1: the table size is an option; the default is the board's own table.
    let o = def().option(str_constant("table_size_option")).unwrap();
    assert_eq!(o.default, Value::Str("standard".into()));
    let d = def();
    let t = &d.tables[d.table(str_constant("table_size_table")).unwrap()];
    let ids = choice_ids(str_constant("table_size_option"));
    assert_eq!(ids.len(), t.rows.len());
    for id in &ids {
        let row = t
            .lookup(&Value::Str((*id).into()))
            .unwrap_or_else(|| panic!("no table-size row for `{id}`"));
        let (w, h) = (num_cell(row, "width"), num_cell(row, "height"));
        assert!(w >= h && h >= 3.0, "{id}: {w} x {h}");
        // The option's label states the size it picks.
        let label = &o.choices.iter().find(|(c, _)| c == id).unwrap().1;
        assert!(
            label.contains(&format!("{w} x {h}")),
            "{id}: label `{label}` does not say {w} x {h}"
        );
    }
    let standard = t.lookup(&Value::Str("standard".into())).unwrap();
    assert_eq!(num_cell(standard, "width"), track().table_width);
    assert_eq!(num_cell(standard, "height"), track().table_height);
    // DC-T1, DC-E1: the Finish is always laid, a card that leaves no room for any card after
    // it does not fit; a new card must keep this gap (in card lengths) from every card but the
    // one it joins; the Start runs along the long side, 0.3 of the width in (DESIGN.md).
    assert_eq!(constant("finish_never_discarded"), &Value::Bool(true));
    assert_eq!(constant("dead_end_does_not_fit"), &Value::Bool(true));
    assert_eq!(track().clearance, 0.1);
    assert_eq!(track().start_heading, 2, "90 degrees, in 45-degree steps");
    assert_eq!(track().start_from_back, 0.3);
    assert_eq!((track().table_width, track().table_height), (32.0, 28.0));
    assert!(d.zone("off-track").is_some());
}

#[test]
fn remove_track_behind_option() {
    // DC-E5: clearing track behind the last car is an option, off by default.
    let o = def()
        .option(str_constant("remove_track_option"))
        .expect("remove-track option");
    assert_eq!(o.kind, OptionType::Bool);
    assert_eq!(o.default, Value::Bool(false));
}

#[test]
fn scoring() {
    // DC-E4: first car's place + 2 x second car's place, lowest wins.
    assert_eq!(int_constant("score_weight_first_car"), 1);
    assert_eq!(int_constant("score_weight_second_car"), 2);
    assert_eq!(constant("low_score_wins"), &Value::Bool(true));
    // The rulebook's example: 1st and 4th score 9, 2nd and 3rd score 8 and win.
    let score = |first: i64, second: i64| {
        int_constant("score_weight_first_car") * first
            + int_constant("score_weight_second_car") * second
    };
    assert_eq!(score(1, 4), 9);
    assert_eq!(score(2, 3), 8);
    // DC-E2, DC-E3 (designed default): the race stops once the cars left are one seat's;
    // DC-E4 ties.
    assert_eq!(int_constant("seats_left_at_end"), 1);
    assert_eq!(str_constant("tie_break"), "better-second-car");
}
