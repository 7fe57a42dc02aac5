//! Taxi Derby's rule oracles: one or more per rule ID of `mods/taxi-derby/RULES.md` that can
//! be stated as a check of one step (see `oracles.rs` for the framework).
//!
//! They never ask the rules script: what a passenger pays (its tile, a multiplier, the tier
//! bonuses), what a store charges, what a ticket fines, who may pick up whom, when the end
//! begins and what the end-game bonuses pay are worked out here from the state (the zones, the
//! counters, the result) and the content read through the `GameDef` (card fields, tables, the
//! store zones' names, constants for numbers the rules leave to the content). Numbers the
//! rulebook prints (two seats in a taxi, two actions a turn, a cube for seven spaces, one, two
//! or three tokens a store, 1 purple, 2 red, 3 yellow and 3 green a stack) are written here.
//! Money is conserved: a seat's money changes only by a fare delivered, a token bought, a fine
//! paid, or the end-game bonuses, each as worked out here (TD-T5, TD-P4..P6, TD-T6, TD-K1).
//!
//! Not stated as a one-step check: TD-S1 (the sections' shuffle and turns: a property of many
//! deals, and the board is fixed before the first action); TD-S2, TD-S8 and TD-C1..C3 (where a
//! taxi or the patrol car stands and where it may go needs the board's roads and the pieces'
//! places, which the state holds only as space numbers these oracles do not route over);
//! TD-S7 and TD-S9 (a shuffle and a random first seat, properties of many games); TD-T1 and
//! TD-T7 (whether the car moves before the last action or chases a speeding taxi depends on
//! the die and the route); TD-K2 (whether the turn goes on after a paid ticket depends on
//! the patrol; the passengers kept are judged by TD-T5's "passengers leave a cab only to be
//! delivered", which allows only a drop-off or an impound); TD-P1 (a content fact, the five types on the tiles, checked by the content tests).
//! Every other rule ID has at least one oracle below.

use std::collections::BTreeMap;

use farebox::content::def::CardDef;
use farebox::game::Game;
use farebox::state::{CardRef, State};
use farebox::value::Value;

use crate::oracles::{Oracle, Plan, Step, Verdict, all, check};

const STACKS: usize = 5;
const STORES: [&str; 12] = [
    "store-saltair",
    "store-admiral",
    "store-barnacle-bobs",
    "store-midtown-cab",
    "store-discount-dynamo",
    "store-chrome-co",
    "store-hilltop",
    "store-sprocket",
    "store-quarry-road",
    "store-guildhall",
    "store-tinkers-yard",
    "store-velvet-lane",
];

// ---- reading the state -----------------------------------------------------------------

fn cards_in<'s>(st: &Step, s: &'s State, id: &str, seat: Option<u8>) -> &'s [CardRef] {
    st.zone(s, id, seat)
}

fn count(st: &Step, s: &State, id: &str, seat: Option<u8>) -> usize {
    cards_in(st, s, id, seat).len()
}

fn money(st: &Step, s: &State, seat: u8) -> i64 {
    st.counter(s, "money", Some(seat))
}

fn str_field<'c>(c: &'c CardDef, f: &str) -> &'c str {
    c.fields.get(f).and_then(Value::as_str).unwrap_or("")
}

fn int_field(c: &CardDef, f: &str) -> Option<i64> {
    c.fields.get(f).and_then(Value::as_int)
}

fn bool_field(c: &CardDef, f: &str) -> bool {
    c.fields.get(f).and_then(Value::as_bool).unwrap_or(false)
}

fn list_field(c: &CardDef, f: &str) -> Vec<String> {
    match c.fields.get(f) {
        Some(Value::List(items)) => items
            .iter()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect(),
        _ => vec![],
    }
}

/// The cards of `after` not in `before` (as multisets).
fn added(before: &[CardRef], after: &[CardRef]) -> Vec<CardRef> {
    let mut left: Vec<CardRef> = before.to_vec();
    let mut out = Vec::new();
    for c in after {
        if let Some(i) = left.iter().position(|x| x == c) {
            left.swap_remove(i);
        } else {
            out.push(*c);
        }
    }
    out
}

/// The upgrade tokens of each kind a seat holds in `s`.
fn kinds(st: &Step, s: &State, seat: u8) -> BTreeMap<String, i64> {
    let mut out = BTreeMap::new();
    for c in cards_in(st, s, "upgrades", Some(seat)) {
        *out.entry(st.card(*c).id.clone()).or_insert(0) += 1;
    }
    out
}

/// A passenger card by id.
fn passenger<'d>(st: &Step<'d>, id: &str) -> Option<&'d CardDef> {
    let d = st.def.deck("passengers")?;
    st.def.decks[d].cards.iter().find(|c| c.id == id)
}

fn constant(st: &Step, name: &str) -> i64 {
    st.def
        .constants
        .get(name)
        .and_then(Value::as_int)
        .unwrap_or_else(|| panic!("no integer constant `{name}`"))
}

/// The price a store zone's name shows ("Midtown Cab Supply (Midtown, $2)").
fn store_price(st: &Step, zone: &str) -> i64 {
    let d = st
        .def
        .zone(zone)
        .unwrap_or_else(|| panic!("no zone `{zone}`"));
    let name = &st.def.zones[d].name;
    name.rsplit('$')
        .next()
        .map(|t| t.trim_end_matches(')'))
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("no price in the store name `{name}`"))
}

fn seat_name(st: &Step, seat: u8) -> String {
    st.def
        .seat_names
        .get(seat as usize)
        .cloned()
        .unwrap_or_else(|| format!("Seat {}", seat + 1))
}

// ---- the game's steps and turns ---------------------------------------------------------

/// The state before step `i` of the game (`i == st.index + 1`: after this step).
fn state_at<'a>(st: &'a Step, i: usize) -> &'a State {
    if i < st.index {
        &st.earlier[i].before
    } else if i == st.index {
        st.before
    } else {
        st.after
    }
}

fn action_at<'a>(st: &'a Step, i: usize) -> &'a str {
    if i < st.index {
        &st.earlier[i].action
    } else {
        st.action
    }
}

/// Whether step `i` (at most this one) ended a turn: not a setup placement, and the next seat
/// is to act (or the game ended).
fn turn_end(st: &Step, i: usize) -> bool {
    if action_at(st, i).starts_with("start ") {
        return false;
    }
    if i == st.index && st.ended() {
        return true;
    }
    state_at(st, i).active != state_at(st, i + 1).active
}

/// The steps of the turn this step belongs to, from its first up to this one.
fn this_turn(st: &Step) -> std::ops::RangeInclusive<usize> {
    let mut first = st.index;
    while first > 0 && !turn_end(st, first - 1) && !action_at(st, first - 1).starts_with("start ") {
        first -= 1;
    }
    first..=st.index
}

fn is_action(a: &str) -> bool {
    a.starts_with("pickup ") || a.starts_with("drop ") || a.starts_with("buy ")
}

/// TD-E1: whether the stacks meet the end condition in `s` (the option's row of the table).
fn stacks_end(st: &Step, s: &State) -> bool {
    let option = st.option("end-stacks").cloned().unwrap_or(Value::Int(4));
    let Some(t) = st.def.table("end-trigger") else {
        return false;
    };
    let Some(row) = st.def.tables[t].lookup(&option) else {
        return false;
    };
    let need_empty = row.get("empty_stacks").and_then(Value::as_int).unwrap_or(0);
    let need_cleared = row
        .get("cleared_stacks")
        .and_then(Value::as_int)
        .unwrap_or(0);
    let (mut empty, mut cleared) = (0, 0);
    for i in 1..=STACKS {
        if count(st, s, &format!("stack-{i}"), None) == 0 {
            empty += 1;
            if count(st, s, &format!("stack-{i}-a"), None) == 0
                && count(st, s, &format!("stack-{i}-b"), None) == 0
            {
                cleared += 1;
            }
        }
    }
    empty >= need_empty || cleared >= need_cleared
}

/// The turn ends of the game up to this step, and the first whose state met TD-E1's stacks.
fn turn_ends_and_trigger(st: &Step) -> (Vec<usize>, Option<usize>) {
    let ends: Vec<usize> = (0..=st.index).filter(|&i| turn_end(st, i)).collect();
    let trigger = ends
        .iter()
        .position(|&i| stacks_end(st, state_at(st, i + 1)));
    (ends, trigger)
}

// ---- money ------------------------------------------------------------------------------

/// What a delivered passenger pays the seat: its tile (TD-P4), times one more than the
/// earlier deliveries of its type for a multiplier tile (TD-P5), plus +1 for each required
/// kind held twice and +3 held three times (TD-P6, the bonuses from the constants).
fn fare(st: &Step, seat: u8, card: &CardDef) -> i64 {
    let mut pay = int_field(card, "payment").unwrap_or(0);
    if bool_field(card, "multiplier") {
        let earlier = cards_in(st, st.before, "delivered", Some(seat))
            .iter()
            .filter(|c| str_field(st.card(**c), "type") == str_field(card, "type"))
            .count() as i64;
        pay *= 1 + earlier;
    }
    let have = kinds(st, st.after, seat);
    for k in list_field(card, "requires") {
        let n = have.get(&k).copied().unwrap_or(0);
        if n >= constant(st, "tier3_tokens") {
            pay += constant(st, "tier3_delivery_bonus");
        } else if n >= constant(st, "tier2_tokens") {
            pay += constant(st, "tier2_delivery_bonus");
        }
    }
    pay
}

/// The parts of the actor's money change at this step: (fares, prices, fines), each with
/// what it was for.
struct Moves {
    fares: Vec<(String, i64)>,
    prices: Vec<(String, i64)>,
    fines: Vec<(String, i64)>,
    /// The careful driver's tip paid as the turn ends (the `careful_tip` constant: 0 in Taxi
    /// Derby, so only a house rule that sets it pays one).
    tip: i64,
}

impl Moves {
    /// What the actor's money changes by.
    fn net(&self) -> i64 {
        self.fares.iter().map(|f| f.1).sum::<i64>()
            - self.prices.iter().map(|f| f.1).sum::<i64>()
            - self.fines.iter().map(|f| f.1).sum::<i64>()
            + self.tip
    }
}

/// Whether `seat` has Overdrive (TD-P6): it held the second token of the kind whose ability
/// it is at some point of the game (an ability outlasts the tokens that unlocked it).
fn overdrive(st: &Step, seat: u8) -> Option<i64> {
    let d = st.def.deck("upgrades")?;
    let card = st.def.decks[d]
        .cards
        .iter()
        .find(|c| str_field(c, "ability") == "overdrive")?;
    let value = int_field(card, "ability_value")?;
    let need = constant(st, "tier2_tokens");
    let held = |s: &State| kinds(st, s, seat).get(&card.id).copied().unwrap_or(0) >= need;
    let ever = st.earlier.iter().any(|e| held(&e.before)) || held(st.before) || held(st.after);
    ever.then_some(value)
}

/// The careful driver's tip at this step: when the actor's turn ends within its speed limit
/// (Overdrive's if it has it), `careful_tip` for each passenger it delivered in the turn.
fn careful_tip(st: &Step) -> i64 {
    let per = st
        .def
        .constants
        .get("careful_tip")
        .and_then(Value::as_int)
        .unwrap_or(0);
    if per == 0 || !turn_end(st, st.index) {
        return 0;
    }
    let turn: Vec<usize> = this_turn(st).collect();
    let first = turn.first().copied().unwrap_or(st.index);
    let moved = turn
        .iter()
        .filter(|&&i| action_at(st, i).starts_with("go "))
        .count() as i64;
    let limit = overdrive(st, st.actor).unwrap_or_else(|| constant(st, "speed_limit"));
    let drops = count(st, st.after, "delivered", Some(st.actor)) as i64
        - count(st, state_at(st, first), "delivered", Some(st.actor)) as i64;
    if moved <= limit { per * drops } else { 0 }
}

fn money_moves(st: &Step) -> Moves {
    let seat = st.actor;
    let mut m = Moves {
        fares: vec![],
        prices: vec![],
        fines: vec![],
        tip: careful_tip(st),
    };
    let delivered = added(
        cards_in(st, st.before, "delivered", Some(seat)),
        cards_in(st, st.after, "delivered", Some(seat)),
    );
    for c in delivered {
        let card = st.card(c);
        m.fares.push((card.id.clone(), fare(st, seat, card)));
    }
    for z in STORES {
        let (b, a) = (count(st, st.before, z, None), count(st, st.after, z, None));
        if a < b {
            for _ in a..b {
                m.prices.push((z.to_string(), store_price(st, z)));
            }
        }
    }
    let tickets = added(
        cards_in(st, st.before, "issued-tickets", Some(seat)),
        cards_in(st, st.after, "issued-tickets", Some(seat)),
    );
    for c in tickets {
        let t = st.card(c);
        if str_field(t, "effect") == "fine" {
            let fine = int_field(t, "fine").unwrap_or(0);
            // Paid when the taxi has the coins; otherwise it is impounded instead.
            if money(st, st.before, seat) >= fine {
                m.fines.push((t.id.clone(), fine));
            }
        }
    }
    m
}

/// The money rule: every seat's money changes by what `money_moves` says (others' not at
/// all), except at the end, where the bonuses are paid (judged by TD-B1..B5).
fn money_kept(st: &Step) -> Verdict {
    if st.ended() {
        return Verdict::Skip;
    }
    let m = money_moves(st);
    for seat in 0..st.seats {
        let delta = money(st, st.after, seat) - money(st, st.before, seat);
        let want = if seat == st.actor { m.net() } else { 0 };
        if delta != want {
            return Verdict::Fail(format!(
                "{}'s money went from {} to {} ({delta:+}); the rules give {want:+} (fares {:?}, prices {:?}, fines {:?}, tip {})",
                seat_name(st, seat),
                money(st, st.before, seat),
                money(st, st.after, seat),
                m.fares,
                m.prices,
                m.fines,
                m.tip
            ));
        }
    }
    Verdict::Pass
}

// ---- end-game bonuses -------------------------------------------------------------------

/// The bonuses a row of the end-bonus table pays each seat at the end (TD-B1..B5, ties by
/// TD-B4), and whether any two placed seats tied.
fn row_pay(st: &Step, row: &BTreeMap<String, Value>) -> (Vec<i64>, bool) {
    let s = st.after;
    let get = |k: &str| row.get(k).and_then(Value::as_int);
    let measure = row.get("measure").and_then(Value::as_str).unwrap_or("");
    let mut value: Vec<Option<i64>> = Vec::new();
    for seat in 0..st.seats {
        let v = match measure {
            "most-upgrades" => Some(count(st, s, "upgrades", Some(seat)) as i64),
            "fewest-tickets" => Some(-(count(st, s, "issued-tickets", Some(seat)) as i64)),
            "furthest-turn" => {
                let v = st.counter(s, "furthest-turn", Some(seat));
                (v >= get("min_spaces").unwrap_or(0)).then_some(v)
            }
            "most-delivered" => {
                let ty = row
                    .get("passenger_type")
                    .and_then(Value::as_str)
                    .unwrap_or("");
                let c = cards_in(st, s, "delivered", Some(seat))
                    .iter()
                    .filter(|c| str_field(st.card(**c), "type") == ty)
                    .count() as i64;
                (c >= get("min_count").unwrap_or(0)).then_some(c)
            }
            _ => None,
        };
        value.push(v);
    }
    let amounts = [
        get("first").unwrap_or(0),
        get("second").unwrap_or(0),
        get("third").unwrap_or(0),
    ];
    let mut any_tie = false;
    let pay = value
        .iter()
        .map(|v| {
            let Some(v) = v else { return 0 };
            let rank = 1 + value.iter().flatten().filter(|o| *o > v).count();
            let tied = value.iter().flatten().filter(|o| *o == v).count();
            if tied > 1 {
                any_tie = true;
            }
            // Three or more tied for third get nothing; otherwise the places they fill are
            // summed and shared, rounded up.
            if rank == 3 && tied > 2 {
                return 0;
            }
            let sum: i64 = (rank..rank + tied)
                .map(|p| amounts.get(p - 1).copied().unwrap_or(0))
                .sum();
            (sum + tied as i64 - 1) / tied as i64
        })
        .collect();
    (pay, any_tie)
}

/// Judges the bonus rows of `measure` (or, for TD-B4, every row with a tie): each seat's
/// bonus line "<Seat> earns $N for <row>" at the end says what the rows pay.
fn bonuses(st: &Step, measure: Option<&str>) -> Verdict {
    if !st.ended() {
        return Verdict::Skip;
    }
    let Some(t) = st.def.table("end-bonus") else {
        return Verdict::Fail("no end-bonus table".into());
    };
    let text: Vec<&str> = st.lines.iter().map(|l| &*l.text).collect();
    let mut judged = false;
    for row in &st.def.tables[t].rows {
        let m = row.get("measure").and_then(Value::as_str).unwrap_or("");
        let (pay, tie) = row_pay(st, row);
        match measure {
            Some(want) if want != m => continue,
            None if !tie => continue,
            _ => {}
        }
        judged = true;
        let rname = row.get("name").and_then(Value::as_str).unwrap_or("");
        for seat in 0..st.seats {
            let line = format!(
                "{} earns ${} for {rname}",
                seat_name(st, seat),
                pay[seat as usize]
            );
            let said: Vec<&&str> = text
                .iter()
                .filter(|l| l.starts_with(&format!("{} earns $", seat_name(st, seat))))
                .filter(|l| l.ends_with(&format!(" for {rname}")))
                .collect();
            let ok = if pay[seat as usize] == 0 {
                said.is_empty()
            } else {
                said.len() == 1 && **said[0] == line
            };
            if !ok {
                return Verdict::Fail(format!(
                    "{rname}: {} should earn ${}; the log says {said:?}",
                    seat_name(st, seat),
                    pay[seat as usize]
                ));
            }
        }
    }
    if judged { Verdict::Pass } else { Verdict::Skip }
}

// ---- the oracles ------------------------------------------------------------------------

pub fn oracles() -> Vec<Oracle> {
    vec![
        // ---- setup (games as dealt: forced games skip these)
        Oracle::new(
            "TD-S3",
            "every player starts with one token from the bag",
            |st| {
                if st.index != 0 || st.forced {
                    return Verdict::Skip;
                }
                all((0..st.seats).map(|seat| {
                    let n = count(st, st.before, "upgrades", Some(seat));
                    check(n == 1, || {
                        format!("{} starts with {n} upgrade tokens", seat_name(st, seat))
                    })
                }))
            },
        ),
        Oracle::new(
            "TD-S4",
            "stores hold one, two or three tokens by player count",
            |st| {
                if st.index != 0 || st.forced {
                    return Verdict::Skip;
                }
                let want = match st.seats {
                    2 => 1,
                    3 | 4 => 2,
                    _ => 3,
                };
                all(STORES
                    .iter()
                    .map(|z| {
                        let n = count(st, st.before, z, None);
                        check(n == want, || {
                            format!(
                                "{z} holds {n} tokens in a game of {} (not {want})",
                                st.seats
                            )
                        })
                    })
                    .chain([{
                        let n = count(st, st.before, "upgrade-bag", None);
                        check(n == 0, || {
                            format!("{n} tokens are left in the bag after stocking")
                        })
                    }]))
            },
        ),
        Oracle::new("TD-S4", "stores are never restocked", |st| {
            all(STORES.iter().map(|z| {
                let (b, a) = (count(st, st.before, z, None), count(st, st.after, z, None));
                check(a <= b, || format!("{z} went from {b} to {a} tokens"))
            }))
        }),
        Oracle::new(
            "TD-S5",
            "each stack is 1 purple, 2 red, 3 yellow and 3 green",
            |st| {
                if st.index != 0 || st.forced {
                    return Verdict::Skip;
                }
                all((1..=STACKS).map(|i| {
                    let mut backs: BTreeMap<String, usize> = BTreeMap::new();
                    for z in [
                        format!("stack-{i}"),
                        format!("stack-{i}-a"),
                        format!("stack-{i}-b"),
                    ] {
                        for c in cards_in(st, st.before, &z, None) {
                            *backs
                                .entry(str_field(st.card(*c), "back").into())
                                .or_default() += 1;
                        }
                    }
                    let want: BTreeMap<String, usize> =
                        [("purple", 1), ("red", 2), ("yellow", 3), ("green", 3)]
                            .into_iter()
                            .map(|(k, v)| (k.to_string(), v))
                            .collect();
                    check(backs == want, || {
                        format!("stack {i} and its stops hold {backs:?}")
                    })
                }))
            },
        ),
        Oracle::new(
            "TD-S6",
            "each stack's top two passengers are face up on its stops",
            |st| {
                if st.index != 0 || st.forced {
                    return Verdict::Skip;
                }
                all((1..=STACKS).flat_map(|i| {
                    ["a", "b"].map(|x| {
                        let z = format!("stack-{i}-{x}");
                        let cards = cards_in(st, st.before, &z, None);
                        check(
                            cards.len() == 1 && str_field(st.card(cards[0]), "back") == "green",
                            || format!("stop {z} holds {} cards at the start", cards.len()),
                        )
                    })
                }))
            },
        ),
        // ---- a turn
        Oracle::new("TD-T2", "at most two actions a turn", |st| {
            if !st.offered.iter().any(|a| is_action(a)) {
                return Verdict::Skip;
            }
            let turn = this_turn(st);
            let done = turn
                .clone()
                .filter(|&i| i < st.index && is_action(action_at(st, i)))
                .count();
            check(done < 2, || {
                format!("an action is offered after {done} actions this turn")
            })
        }),
        Oracle::new("TD-T3", "the taxi moves before every action", |st| {
            if !st.offered.iter().any(|a| is_action(a)) {
                return Verdict::Skip;
            }
            let turn: Vec<usize> = this_turn(st).filter(|&i| i < st.index).collect();
            let last_act = turn.iter().rposition(|&i| is_action(action_at(st, i)));
            let moved = turn
                .iter()
                .skip(last_act.map_or(0, |p| p + 1))
                .any(|&i| action_at(st, i).starts_with("go "));
            check(moved, || {
                "an action is offered without a space driven since the last".into()
            })
        }),
        Oracle::new(
            "TD-T4",
            "two seats in a taxi, and a solo rider alone",
            |st| {
                all((0..st.seats).map(|seat| {
                    let cab = cards_in(st, st.after, "cab", Some(seat));
                    let vip = cab.iter().any(|c| bool_field(st.card(*c), "vip"));
                    check(cab.len() <= 2 && (!vip || cab.len() == 1), || {
                        let ids: Vec<&str> = cab.iter().map(|c| st.card(*c).id.as_str()).collect();
                        format!("{}'s taxi carries {ids:?}", seat_name(st, seat))
                    })
                }))
            },
        ),
        Oracle::new(
            "TD-T4",
            "a pick-up is offered only with a seat free",
            |st| {
                let cab = cards_in(st, st.before, "cab", Some(st.actor));
                let cab_vip = cab.iter().any(|c| bool_field(st.card(*c), "vip"));
                all(st
                    .offered
                    .iter()
                    .filter_map(|a| a.strip_prefix("pickup "))
                    .map(|id| {
                        let vip = passenger(st, id).is_some_and(|p| bool_field(p, "vip"));
                        check(
                            cab.len() < 2 && (cab.is_empty() || (!vip && !cab_vip)),
                            || {
                                format!(
                                    "`pickup {id}` is offered to a taxi carrying {} riders",
                                    cab.len()
                                )
                            },
                        )
                    }))
            },
        ),
        Oracle::new(
            "TD-T5",
            "a drop-off pays the fare and keeps the tile",
            |st| {
                if !money_moves(st).fares.is_empty() {
                    money_kept(st)
                } else {
                    Verdict::Skip
                }
            },
        ),
        Oracle::new("TD-T5", "money changes only as the rules say", money_kept),
        Oracle::new(
            "TD-T5",
            "passengers leave a cab only to be delivered",
            |st| {
                let seat = st.actor;
                let (b, a) = (
                    cards_in(st, st.before, "cab", Some(seat)),
                    cards_in(st, st.after, "cab", Some(seat)),
                );
                let left = added(a, b);
                if left.is_empty() {
                    return Verdict::Skip;
                }
                let delivered = added(
                    cards_in(st, st.before, "delivered", Some(seat)),
                    cards_in(st, st.after, "delivered", Some(seat)),
                );
                let boxed = added(
                    cards_in(st, st.before, "box", None),
                    cards_in(st, st.after, "box", None),
                );
                let impounded = !boxed.is_empty() && a.is_empty() && turn_end(st, st.index);
                check(
                    left.iter().all(|c| delivered.contains(c)) || impounded,
                    || {
                        format!(
                            "{} riders left the taxi without a drop-off or an impound",
                            left.len()
                        )
                    },
                )
            },
        ),
        Oracle::new("TD-T6", "a token costs the store's price", |st| {
            if money_moves(st).prices.is_empty() {
                Verdict::Skip
            } else {
                money_kept(st)
            }
        }),
        Oracle::new("TD-T6", "no buying with passengers aboard", |st| {
            if !st.offered.iter().any(|a| a.starts_with("buy ")) {
                return Verdict::Skip;
            }
            let n = count(st, st.before, "cab", Some(st.actor));
            check(n == 0, || {
                format!("a token is offered to a taxi carrying {n} riders")
            })
        }),
        Oracle::new("TD-T6", "one token per store per turn", |st| {
            let here: Vec<&str> = STORES
                .iter()
                .copied()
                .filter(|z| count(st, st.after, z, None) < count(st, st.before, z, None))
                .collect();
            if here.is_empty() {
                return Verdict::Skip;
            }
            let turn: Vec<usize> = this_turn(st).filter(|&i| i < st.index).collect();
            all(here.iter().map(|z| {
                let before = turn.iter().any(|&i| {
                    count(st, state_at(st, i + 1), z, None) < count(st, state_at(st, i), z, None)
                });
                check(!before, || {
                    format!("a second token bought at {z} this turn")
                })
            }))
        }),
        Oracle::new(
            "TD-T8",
            "the speeding cube marks a ticket-free turn of 7+",
            |st| {
                let seat = st.actor;
                let (b, a) = (
                    st.counter(st.before, "furthest-turn", Some(seat)),
                    st.counter(st.after, "furthest-turn", Some(seat)),
                );
                // A taxi caught with the ticket book empty gets no ticket, but the turn was not
                // ticket-free either: left unjudged.
                if (a == b && !turn_end(st, st.index))
                    || count(st, st.after, "ticket-deck", None) == 0
                {
                    return Verdict::Skip;
                }
                let turn: Vec<usize> = this_turn(st).collect();
                let moved = turn
                    .iter()
                    .filter(|&&i| action_at(st, i).starts_with("go "))
                    .count() as i64;
                let first = turn.first().copied().unwrap_or(st.index);
                let ticketed = count(st, st.after, "issued-tickets", Some(seat))
                    > count(st, state_at(st, first), "issued-tickets", Some(seat));
                let want = if turn_end(st, st.index) && !ticketed && moved >= 7 && moved > b {
                    moved
                } else {
                    b
                };
                let others = (0..st.seats).filter(|&s| s != seat).all(|s| {
                    st.counter(st.before, "furthest-turn", Some(s))
                        == st.counter(st.after, "furthest-turn", Some(s))
                });
                check(a == want && others, || {
                    format!(
                        "the furthest turn went from {b} to {a} after {moved} spaces{}",
                        if ticketed { " and a ticket" } else { "" }
                    )
                })
            },
        ),
        // ---- tickets
        Oracle::new("TD-K1", "a ticket comes from the deck and is kept", |st| {
            let mut judged = false;
            for seat in 0..st.seats {
                let (b, a) = (
                    count(st, st.before, "issued-tickets", Some(seat)),
                    count(st, st.after, "issued-tickets", Some(seat)),
                );
                if a < b {
                    return Verdict::Fail(format!(
                        "{} went from {b} to {a} tickets",
                        seat_name(st, seat)
                    ));
                }
                if a > b {
                    judged = true;
                    let deck = count(st, st.before, "ticket-deck", None)
                        - count(st, st.after, "ticket-deck", None);
                    if seat != st.actor || a - b != 1 || deck != 1 {
                        return Verdict::Fail(format!(
                            "{} got {} tickets at seat {}'s step, {deck} from the deck",
                            seat_name(st, seat),
                            a - b,
                            st.actor + 1
                        ));
                    }
                }
            }
            if judged { Verdict::Pass } else { Verdict::Skip }
        }),
        Oracle::new("TD-K1", "a ticket drawn goes to the caught player", |st| {
            let (b, a) = (
                count(st, st.before, "ticket-deck", None),
                count(st, st.after, "ticket-deck", None),
            );
            if a == b {
                return Verdict::Skip;
            }
            let got = count(st, st.after, "issued-tickets", Some(st.actor))
                - count(st, st.before, "issued-tickets", Some(st.actor));
            check(b - a == got, || {
                format!(
                    "{} tickets left the deck and {got} reached {}",
                    b - a,
                    seat_name(st, st.actor)
                )
            })
        }),
        Oracle::new("TD-K1", "a fine is paid", |st| {
            if money_moves(st).fines.is_empty() {
                Verdict::Skip
            } else {
                money_kept(st)
            }
        }),
        Oracle::new(
            "TD-K3",
            "an impounded taxi loses its riders and its turn",
            |st| {
                let seat = st.actor;
                let cab_b = cards_in(st, st.before, "cab", Some(seat));
                let boxed = added(
                    cards_in(st, st.before, "box", None),
                    cards_in(st, st.after, "box", None),
                );
                let lost: Vec<&CardRef> = cab_b.iter().filter(|c| boxed.contains(c)).collect();
                if lost.is_empty() {
                    return Verdict::Skip;
                }
                check(
                    count(st, st.after, "cab", Some(seat)) == 0 && turn_end(st, st.index),
                    || {
                        "riders went to the box but the taxi was not emptied or the turn went on"
                            .into()
                    },
                )
            },
        ),
        // ---- passengers and upgrades
        Oracle::new("TD-P2", "a pick-up needs the upgrades asked for", |st| {
            let have = kinds(st, st.before, st.actor);
            all(st
                .offered
                .iter()
                .filter_map(|a| a.strip_prefix("pickup "))
                .map(|id| {
                    let needs = passenger(st, id)
                        .map(|p| list_field(p, "requires"))
                        .unwrap_or_default();
                    check(
                        needs.iter().all(|k| have.get(k).copied().unwrap_or(0) >= 1),
                        || {
                            format!(
                                "`pickup {id}` offered needing {needs:?} to a taxi holding {have:?}"
                            )
                        },
                    )
                }))
        }),
        Oracle::new(
            "TD-P3",
            "a passenger refuses a taxi over its ticket limit",
            |st| {
                let tickets = count(st, st.before, "issued-tickets", Some(st.actor)) as i64;
                // Velvet Seats (the second token of its kind, held at any time) overlooks some.
                let velvet = st.def.deck("upgrades").and_then(|d| {
                    st.def.decks[d]
                        .cards
                        .iter()
                        .find(|c| str_field(c, "ability") == "velvet-seats")
                        .map(|c| (c.id.clone(), int_field(c, "ability_value").unwrap_or(0)))
                });
                let overlooked = match &velvet {
                    Some((kind, v)) => {
                        let held = (0..=st.index).any(|i| {
                            kinds(st, state_at(st, i), st.actor)
                                .get(kind)
                                .copied()
                                .unwrap_or(0)
                                >= constant(st, "tier2_tokens")
                        });
                        if held { *v } else { 0 }
                    }
                    None => 0,
                };
                all(st.offered.iter().filter_map(|a| a.strip_prefix("pickup ")).map(|id| {
                match passenger(st, id).and_then(|p| int_field(p, "ticket_limit")) {
                    Some(limit) => check(tickets - overlooked <= limit, || {
                        format!("`pickup {id}` (limit {limit}) offered to a taxi with {tickets} tickets")
                    }),
                    None => Verdict::Skip,
                }
            }))
            },
        ),
        Oracle::new("TD-P4", "a passenger pays its tile", |st| {
            let m = money_moves(st);
            if m.fares.is_empty() {
                Verdict::Skip
            } else {
                money_kept(st)
            }
        }),
        Oracle::new(
            "TD-P5",
            "a multiplier tile pays more for each earlier delivery",
            |st| {
                let delivered = added(
                    cards_in(st, st.before, "delivered", Some(st.actor)),
                    cards_in(st, st.after, "delivered", Some(st.actor)),
                );
                if delivered
                    .iter()
                    .any(|c| bool_field(st.card(*c), "multiplier"))
                {
                    money_kept(st)
                } else {
                    Verdict::Skip
                }
            },
        ),
        Oracle::new(
            "TD-P6",
            "a kind held twice or three times adds to a fare",
            |st| {
                let have = kinds(st, st.after, st.actor);
                let delivered = added(
                    cards_in(st, st.before, "delivered", Some(st.actor)),
                    cards_in(st, st.after, "delivered", Some(st.actor)),
                );
                let tiered = delivered.iter().any(|c| {
                    list_field(st.card(*c), "requires")
                        .iter()
                        .any(|k| have.get(k).copied().unwrap_or(0) >= 2)
                });
                if tiered {
                    money_kept(st)
                } else {
                    Verdict::Skip
                }
            },
        ),
        Oracle::new("TD-P6", "at most three tokens of a kind", |st| {
            all((0..st.seats).map(|seat| {
                let have = kinds(st, st.after, seat);
                check(have.values().all(|&n| n <= 3), || {
                    format!("{} holds {have:?}", seat_name(st, seat))
                })
            }))
        }),
        Oracle::new("TD-P7", "empty stops are refilled after the turn", |st| {
            if !turn_end(st, st.index) {
                return Verdict::Skip;
            }
            all((1..=STACKS).flat_map(|i| {
                ["a", "b"].map(|x| {
                    let stop = count(st, st.after, &format!("stack-{i}-{x}"), None);
                    let stack = count(st, st.after, &format!("stack-{i}"), None);
                    check(stop == 1 || (stop == 0 && stack == 0), || {
                        format!(
                            "after the turn stop {i}-{x} holds {stop} with {stack} in its stack"
                        )
                    })
                })
            }))
        }),
        // ---- end of game
        Oracle::new(
            "TD-E1",
            "the last round begins when the stacks run out",
            |st| {
                if !turn_end(st, st.index) {
                    return Verdict::Skip;
                }
                let (ends, trigger) = turn_ends_and_trigger(st);
                let Some(t) = trigger else {
                    return Verdict::Pass;
                };
                let after = ends.len() - 1 - t;
                check(after <= st.seats as usize, || {
                    format!(
                        "the stacks met the end {after} turns ago and the game goes on ({} seats)",
                        st.seats
                    )
                })
            },
        ),
        Oracle::new(
            "TD-E2",
            "everyone plays once more, the trigger last",
            |st| {
                let Some(r) = &st.after.result else {
                    return Verdict::Skip;
                };
                if !r.reason.contains("stacks") {
                    return Verdict::Skip;
                }
                let (ends, trigger) = turn_ends_and_trigger(st);
                let Some(t) = trigger else {
                    return Verdict::Fail(format!(
                        "the game ended ({}) though the stacks never met the end",
                        r.reason
                    ));
                };
                let after = ends.len() - 1 - t;
                let trigger_seat = state_at(st, ends[t]).active;
                check(
                    after == st.seats as usize && st.actor == trigger_seat,
                    || {
                        format!(
                            "the game ended {after} turns after the stacks met the end, with seat {} (the trigger was seat {})",
                            st.actor + 1,
                            trigger_seat + 1
                        )
                    },
                )
            },
        ),
        Oracle::new(
            "TD-E3",
            "richest wins; a money tie goes to fewer tickets",
            |st| {
                let Some(r) = &st.after.result else {
                    return Verdict::Skip;
                };
                let n = st.seats;
                let key = |s: u8| {
                    (
                        money(st, st.after, s),
                        -(count(st, st.after, "issued-tickets", Some(s)) as i64),
                    )
                };
                all((0..n).map(|s| {
                let want = 1 + (0..n).filter(|&o| key(o) > key(s)).count() as u32;
                let place = r.places.get(s as usize).copied().unwrap_or(0);
                let score = r.scores.get(s as usize).copied().unwrap_or(i64::MIN);
                check(place == want && score == money(st, st.after, s), || {
                    format!(
                        "{} has ${} and {} tickets: place {want}, score {}; the result says place {place}, score {score}",
                        seat_name(st, s),
                        money(st, st.after, s),
                        -key(s).1,
                        money(st, st.after, s)
                    )
                })
            }))
            },
        ),
        // ---- end-game bonuses
        Oracle::new("TD-B1", "most tokens: 7, 5, 3", |st| {
            bonuses(st, Some("most-upgrades"))
        }),
        Oracle::new("TD-B2", "least ticketed: 7, 5, 3", |st| {
            bonuses(st, Some("fewest-tickets"))
        }),
        Oracle::new("TD-B3", "most deliveries of each type", |st| {
            bonuses(st, Some("most-delivered"))
        }),
        Oracle::new("TD-B4", "ties share the summed prizes, rounded up", |st| {
            bonuses(st, None)
        }),
        Oracle::new("TD-B5", "longest ticket-free turn: 10, 6, 4", |st| {
            bonuses(st, Some("furthest-turn"))
        }),
        Oracle::new("TD-B4", "the bonuses are all the end pays", |st| {
            if !st.ended() {
                return Verdict::Skip;
            }
            let Some(t) = st.def.table("end-bonus") else {
                return Verdict::Fail("no end-bonus table".into());
            };
            let mut total = vec![0i64; st.seats as usize];
            for row in &st.def.tables[t].rows {
                for (s, p) in row_pay(st, row).0.iter().enumerate() {
                    total[s] += p;
                }
            }
            let m = money_moves(st);
            all((0..st.seats).map(|seat| {
                let delta = money(st, st.after, seat) - money(st, st.before, seat);
                let own = if seat == st.actor { m.net() } else { 0 };
                let want = own + total[seat as usize];
                check(delta == want, || {
                    format!(
                        "{}'s money changed by {delta:+} at the end; the bonuses and the last step give {want:+}",
                        seat_name(st, seat)
                    )
                })
            }))
        }),
    ]
}

// ---- plans ------------------------------------------------------------------------------

/// The games the oracles judge: `n` seeds of each kind. Random players and the Fare Planner
/// at two to five seats, each end-stacks option, and games forced to the rare cases: two
/// stacks cleared at the start (the end by cleared stacks), the ticket deck down to its last
/// two tickets, and everyone tied on everything at the end.
pub fn plans(n: u64) -> Vec<Plan> {
    let fp = "fare-planner";
    let mut out = Vec::new();
    for seed in 0..n {
        out.push(Plan::new(seed, &[fp, fp]));
        out.push(Plan::new(100 + seed, &[fp, "random", fp]).option("end-stacks", 3));
        out.push(Plan::new(200 + seed, &["random", "random"]).option("end-stacks", 3));
        out.push(Plan::new(300 + seed, &[fp, fp, fp]).prepare(two_cleared));
        out.push(Plan::new(400 + seed, &["random", "random", "random"]).prepare(last_tickets));
        out.push(Plan::new(500 + seed, &[fp, fp, fp, fp]).prepare(all_tied));
        out.push(Plan::new(600 + seed, &[fp, fp, fp, fp, fp]).prepare(three_tied_third));
    }
    out
}

/// The games a mutation run plays on each broken mod (`taxi_derby_rules.rs`): one seed of each
/// kind but the random two-seat game, which catches nothing the others miss.
pub fn mutation_plans() -> Vec<Plan> {
    plans(1).into_iter().filter(|p| p.seed != 200).collect()
}

fn eval(g: &mut Game, code: &str) {
    g.eval(code).unwrap_or_else(|e| panic!("{e}"));
}

/// Stacks 1 and 2 and their stops emptied into the box: the last round begins at the end of
/// the first turn by two cleared stacks (TD-E1), with four stacks still face down.
fn two_cleared(g: &mut Game) {
    eval(
        g,
        r#"
        local box = game.zone("box")
        for _, id in { "stack-1", "stack-1-a", "stack-1-b", "stack-2", "stack-2-a", "stack-2-b" } do
          while game.move_card(game.zone(id), box) do end
        end
        "#,
    );
}

/// The ticket deck down to its last ticket, a $1 fine (the rest in the box): the first taxi
/// caught gets the deck's last card, and later ones find the book empty.
fn last_tickets(g: &mut Game) {
    eval(
        g,
        r#"
        local deck = game.zone("ticket-deck")
        local box = game.zone("box")
        while game.move_card(deck, box) do end
        game.take_card(box, "honked-at-swans", deck)
        "#,
    );
}

/// Every stack emptied at the start (the last round begins after the first turn) and every
/// seat given one token and no money (so nobody buys another): the bonuses and the money tie.
fn all_tied(g: &mut Game) {
    eval(
        g,
        r#"
        local function give(box, up)
          for _, kind in { "stereo", "turbo", "wifi", "luxury" } do
            if game.take_card(box, kind, up) then return end
          end
          error("no token left in the box")
        end
        local box = game.zone("box")
        for i = 1, 5 do
          for _, id in { "stack-" .. i, "stack-" .. i .. "-a", "stack-" .. i .. "-b" } do
            while game.move_card(game.zone(id), box) do end
          end
        end
        for s = 1, game.seats() do
          local up = game.zone("upgrades", s)
          while game.move_card(up, box) do end
          give(box, up)
          game.set_counter("money", s, 0)
        end
        "#,
    );
}

/// Every stack emptied at the start, Orange given three tokens, Green two and the three others
/// one each, and no money: three tied for third place on tokens get nothing (TD-B4).
fn three_tied_third(g: &mut Game) {
    eval(
        g,
        r#"
        local function give(box, up)
          for _, kind in { "stereo", "turbo", "wifi", "luxury" } do
            if game.take_card(box, kind, up) then return end
          end
          error("no token left in the box")
        end
        local box = game.zone("box")
        for i = 1, 5 do
          for _, id in { "stack-" .. i, "stack-" .. i .. "-a", "stack-" .. i .. "-b" } do
            while game.move_card(game.zone(id), box) do end
          end
        end
        for s = 1, game.seats() do
          local up = game.zone("upgrades", s)
          while game.move_card(up, box) do end
          local n = if s == 1 then 3 elseif s == 2 then 2 else 1
          for _ = 1, n do give(box, up) end
          game.set_counter("money", s, 0)
        end
        "#,
    );
}

#[path = "taxi_derby_house_oracles.rs"]
mod house;
pub use house::{learners_permit_oracles, learners_permit_plans};
