//! Dicey Curves' rule oracles: one or more per rule ID of `mods/dicey-curves/RULES.md` that can
//! be stated as a check of one step (see `oracles.rs` for the framework).
//!
//! They never ask the rules script. Where a car may go with a combo is worked out here from the
//! board graph of the laid track in the state (forward and sideways roads, a gate crossed only
//! by the first step of a combo of its exact size, a step into a gate's space ending the move, a
//! car stopping where it is boxed in, power moves through cars), which combos the unused dice
//! make from the dice in the state, what the leftover dice buy from the `chip-purchase` table
//! of the `GameDef`, where laid cards join from the track's geometry (one card length, 45 and
//! 90 degree bends) and which lanes join from the rule list. The dice a turn rolls are read off
//! the game's seeded generator in the state before the step: five white dice, then every 6
//! rolled again followed by the green die it brings while any are left, in that order. The
//! numbers the rule list gives (2-8 players, two cars each up to four players, 32 chips, 36
//! cards, five white and five green dice, faces 1-5 for a chip's die, combos of two or more,
//! a cap of four chips, a three-dice finish, first + 2 x second) are written here; numbers it
//! leaves to the content (the extra chips by turn order, the Finish's depth, the chips a combo
//! buys, the lining-up order of four seats) come from the `GameDef`.
//!
//! Not stated as a one-step check: whether a discarded card (DC-T1) really would have run off
//! the table or over the track: that is the engine's footprint geometry, checked by
//! `engine/tests/track.rs`; the oracle judges that only the top cards leave the deck, in
//! order, that a laid card was not forced unless it is the Finish, and that a turn lays at most
//! one card. DC-S4's shuffle is a property of many deals; its oracle judges the Finish's depth.

use std::collections::{BTreeMap, BTreeSet};

use farebox::game::Game;
use farebox::state::State;
use farebox::value::Value;

use crate::oracles::{Oracle, Plan, Step, Verdict, all, check};

// ---- The rule list's numbers.
const MIN_SEATS: u8 = 2; // DC-S1
const MAX_SEATS: u8 = 8;
const TWO_CARS_UP_TO: u8 = 4;
const CHIPS_IN_ALL: i64 = 32; // DC-S2
const DECK_CARDS: usize = 36; // DC-S3
const WHITE_DICE: usize = 5; // DC-T2
const GREEN_DICE: usize = 5;
const SIDES: u32 = 6;
const CHIP_DIE: std::ops::RangeInclusive<i64> = 1..=5; // DC-T3
const MIN_COMBO: usize = 2; // DC-T5
const CHIP_CAP: i64 = 4; // DC-T14
const FINISH_GATE: i64 = 3; // DC-E2
const SECOND_CAR_WEIGHT: i64 = 2; // DC-E4

// ---------------------------------------------------------------------------------------------
// Reading the state

fn var<'a>(s: &'a State, name: &str) -> &'a Value {
    static NIL: Value = Value::Nil;
    s.vars.get(name).map_or(&NIL, |v| &v.value)
}
fn list(v: &Value) -> &[Value] {
    match v {
        Value::List(l) => l,
        _ => &[],
    }
}
fn ints(v: &Value) -> Vec<i64> {
    list(v).iter().filter_map(Value::as_int).collect()
}
fn bools(v: &Value) -> Vec<bool> {
    list(v).iter().map(|b| b.as_bool() == Some(true)).collect()
}
fn strs(v: &Value) -> Vec<String> {
    list(v)
        .iter()
        .filter_map(|x| x.as_str().map(str::to_string))
        .collect()
}
/// A map variable keyed by car (`_single`, `_control`): the keys whose value is true.
fn flagged(s: &State, name: &str) -> BTreeSet<String> {
    match var(s, name) {
        Value::Map(m) => m
            .iter()
            .filter(|(_, v)| v.as_bool() == Some(true))
            .map(|(k, _)| k.clone())
            .collect(),
        _ => BTreeSet::new(),
    }
}
fn phase(s: &State) -> String {
    var(s, "_phase").as_str().unwrap_or("").to_string()
}
fn moved(s: &State) -> bool {
    var(s, "_moved").as_bool() == Some(true)
}
/// The chosen combo's values, if one is chosen.
fn combo(s: &State) -> Option<Vec<i64>> {
    match var(s, "_combo") {
        Value::List(l) if !l.is_empty() => Some(l.iter().filter_map(Value::as_int).collect()),
        _ => None,
    }
}

/// The dice in play: (value, green, used).
fn dice(s: &State) -> Vec<(i64, bool, bool)> {
    let (v, g, u) = (
        ints(var(s, "_dice")),
        bools(var(s, "_green")),
        bools(var(s, "_used")),
    );
    v.iter()
        .enumerate()
        .map(|(i, &x)| {
            (
                x,
                g.get(i).copied().unwrap_or(false),
                u.get(i).copied().unwrap_or(false),
            )
        })
        .collect()
}
fn unused(s: &State) -> Vec<i64> {
    let mut out: Vec<i64> = dice(s).into_iter().filter(|d| !d.2).map(|d| d.0).collect();
    out.sort_unstable();
    out
}
fn used(s: &State) -> Vec<i64> {
    let mut out: Vec<i64> = dice(s).into_iter().filter(|d| d.2).map(|d| d.0).collect();
    out.sort_unstable();
    out
}
fn greens(s: &State) -> usize {
    dice(s).iter().filter(|d| d.1).count()
}

/// The seat (from 0) driving `car`.
fn driver(s: &State, car: &str) -> Option<u8> {
    match var(s, "_driver") {
        Value::Map(m) => m.get(car)?.as_int().map(|x| (x - 1) as u8),
        _ => None,
    }
}
/// The cars of a seat (from 0), first car first.
fn cars_of(s: &State, seat: u8) -> Vec<String> {
    match var(s, "_cars") {
        Value::Map(m) => m.get(&(seat + 1).to_string()).map(strs).unwrap_or_default(),
        _ => vec![],
    }
}
/// Every car in the race, in the order colours are handed out.
fn all_cars(st: &Step, s: &State) -> Vec<String> {
    car_order(st)
        .into_iter()
        .filter(|c| driver(s, c).is_some())
        .collect()
}
fn car_order(st: &Step) -> Vec<String> {
    match st.def.constants.get("car_order") {
        Some(Value::List(l)) => l
            .iter()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect(),
        _ => vec![],
    }
}
fn car_at(st: &Step, s: &State, car: &str) -> Option<u32> {
    let d = st.def.piece(car)? as u16;
    s.pieces.iter().find(|p| p.def == d)?.at
}
/// Cars on the track (placed and not finished).
fn racing(st: &Step, s: &State) -> Vec<String> {
    all_cars(st, s)
        .into_iter()
        .filter(|c| car_at(st, s, c).is_some())
        .collect()
}
fn color<'a>(st: &'a Step, car: &str) -> &'a str {
    st.def
        .piece(car)
        .and_then(|i| st.def.pieces[i].props.get("color"))
        .and_then(Value::as_str)
        .unwrap_or("")
}
fn car_of_color(st: &Step, s: &State, col: &str) -> Option<String> {
    all_cars(st, s).into_iter().find(|c| color(st, c) == col)
}
fn car_name<'a>(st: &'a Step, car: &str) -> &'a str {
    st.def
        .piece(car)
        .map_or("", |i| st.def.pieces[i].name.as_str())
}

fn prop(s: &State, sp: u32, key: &str) -> Option<i64> {
    s.board
        .graph
        .spaces
        .get(sp as usize)?
        .props
        .get(key)?
        .as_int()
}
fn gate(s: &State, sp: u32) -> Option<i64> {
    prop(s, sp, "gate")
}
fn tagged(s: &State, sp: u32, tag: &str) -> bool {
    s.board
        .graph
        .spaces
        .get(sp as usize)
        .is_some_and(|x| x.tags.iter().any(|t| t == tag))
}
fn space_id(s: &State, sp: u32) -> &str {
    s.board
        .graph
        .spaces
        .get(sp as usize)
        .map_or("", |x| x.id.as_str())
}
/// How far down the track a space is: its card, then its row.
fn progress(s: &State, sp: u32) -> i64 {
    prop(s, sp, "piece").unwrap_or(0) * 100 + prop(s, sp, "row").unwrap_or(0)
}

fn chips(st: &Step, s: &State, seat: u8) -> i64 {
    st.counter(s, "chips", Some(seat))
}
fn supply(st: &Step, s: &State) -> i64 {
    st.counter(s, "chip-supply", None)
}
fn constant_int(st: &Step, id: &str) -> Option<i64> {
    st.def.constants.get(id).and_then(Value::as_int)
}
fn table_rows<'a>(st: &'a Step, id: &str) -> &'a [BTreeMap<String, Value>] {
    st.def
        .tables
        .iter()
        .find(|t| t.id == id)
        .map_or(&[], |t| t.rows.as_slice())
}
fn row_int(row: &BTreeMap<String, Value>, col: &str) -> i64 {
    row.get(col).and_then(Value::as_int).unwrap_or(0)
}

/// The card ids of a zone, bottom first.
fn ids(st: &Step, s: &State, zone: &str) -> Vec<String> {
    st.zone(s, zone, None)
        .iter()
        .map(|c| st.card(*c).id.clone())
        .collect()
}
fn card_piece(st: &Step, card: &str) -> Option<usize> {
    let d = st.def.deck("track")?;
    let piece = st.def.decks[d]
        .cards
        .iter()
        .find(|c| c.id == card)?
        .fields
        .get("piece")?
        .as_str()?
        .to_string();
    track_def(st)?.pieces.iter().position(|p| p.id == piece)
}
fn track_def<'a>(st: &'a Step) -> Option<&'a farebox::content::def::TrackDef> {
    match &st.def.board {
        farebox::content::def::BoardDef::Track(t) => Some(t),
        _ => None,
    }
}
fn laid(s: &State) -> &[farebox::board::LaidPiece] {
    s.board.track.as_ref().map_or(&[], |t| t.laid.as_slice())
}
fn finish_card(st: &Step) -> Option<String> {
    let d = st.def.deck("track")?;
    st.def.decks[d]
        .cards
        .iter()
        .find(|c| {
            card_piece(st, &c.id).is_some_and(|p| {
                track_def(st)
                    .is_some_and(|t| t.pieces[p].role == farebox::content::def::TrackRole::Finish)
            })
        })
        .map(|c| c.id.clone())
}
fn finish_laid(st: &Step, s: &State) -> bool {
    finish_card(st).is_some_and(|f| strs(var(s, "_laid")).contains(&f))
}

/// The action's words.
fn words<'a>(st: &Step<'a>) -> Vec<&'a str> {
    st.action.split(' ').collect()
}
fn kind<'a>(st: &Step<'a>) -> &'a str {
    words(st).first().copied().unwrap_or("")
}
/// Whether a turn began at this step: the dice were rolled afresh (the last car lined up, or
/// a turn passed with `done`).
fn turn_began(st: &Step) -> bool {
    matches!(kind(st), "done" | "place")
        && phase(st.after) == "move"
        && st.after.result.is_none()
        && !dice(st.after).is_empty()
}

// ---------------------------------------------------------------------------------------------
// Dice (DC-T2, DC-T4, DC-T5)

/// DC-T2: every 6 is rolled again, and brings a green die while any are left (five in all),
/// until no die shows a 6: the 6s in the order they lie, then the green dice they bring.
fn explode(rng: &mut farebox::rng::Rng, d: &mut Vec<i64>, g: &mut Vec<bool>) {
    let had = g.iter().filter(|x| **x).count();
    let mut added = 0;
    loop {
        let sixes: Vec<usize> = (0..d.len()).filter(|&i| d[i] == SIDES as i64).collect();
        if sixes.is_empty() {
            break;
        }
        for &i in &sixes {
            d[i] = rng.roll(SIDES) as i64;
        }
        let room = GREEN_DICE.saturating_sub(had + added);
        for _ in 0..sixes.len().min(room) {
            d.push(rng.roll(SIDES) as i64);
            g.push(true);
            added += 1;
        }
    }
}

/// The combos the unused dice make (DC-T5): two or more alike, runs of two or more, then
/// singles; each as its sorted values.
fn combos_of(values: &[i64]) -> BTreeSet<Vec<i64>> {
    let mut count = [0usize; 7];
    for &v in values {
        if (1..=6).contains(&v) {
            count[v as usize] += 1;
        }
    }
    let mut out = BTreeSet::new();
    for (v, &n) in count.iter().enumerate().skip(1) {
        for size in MIN_COMBO..=n {
            out.insert(vec![v as i64; size]);
        }
        if n > 0 {
            out.insert(vec![v as i64]);
        }
    }
    for a in 1..=6 {
        let mut run = vec![];
        let mut b = a;
        while b <= 6 && count[b] > 0 {
            run.push(b as i64);
            if run.len() >= MIN_COMBO {
                out.insert(run.clone());
            }
            b += 1;
        }
    }
    out
}
fn is_combo(values: &[i64]) -> bool {
    let mut v = values.to_vec();
    v.sort_unstable();
    v.len() == 1
        || (v.len() >= MIN_COMBO
            && (v.iter().all(|x| *x == v[0]) || v.windows(2).all(|w| w[1] == w[0] + 1)))
}
/// The most dice in one combo the values make (0 if none).
fn best_combo(values: &[i64]) -> usize {
    combos_of(values)
        .iter()
        .map(Vec::len)
        .filter(|&n| n >= MIN_COMBO)
        .max()
        .unwrap_or(0)
}
fn combo_key(values: &[i64]) -> String {
    values
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join("-")
}
/// `a` less `b`, as multisets; None when `b` is not inside `a`.
fn take(a: &[i64], b: &[i64]) -> Option<Vec<i64>> {
    let mut left = a.to_vec();
    for x in b {
        let i = left.iter().position(|y| y == x)?;
        left.remove(i);
    }
    Some(left)
}

// ---------------------------------------------------------------------------------------------
// Moving (DC-T6 to DC-T12, DC-E2)

/// Where a move of `k` steps from `from` can end: forward or sideways over the track's roads,
/// never into a space twice, never into another car's space unless `power` (and never ending
/// on one); a step into a gate's space ends the move; the first step may cross the gate in
/// front of the car when `k` is the gate's size; a car stops early where no step is open.
fn ends(s: &State, from: u32, k: usize, occ: &BTreeSet<u32>, power: bool) -> BTreeSet<u32> {
    struct Walk<'a> {
        s: &'a State,
        k: usize,
        occ: &'a BTreeSet<u32>,
        power: bool,
        seen: BTreeSet<u32>,
        walked: BTreeSet<(u32, usize)>,
        out: BTreeSet<u32>,
    }
    fn walk(w: &mut Walk, sp: u32, m: usize) {
        let s = w.s;
        if m == w.k || (m > 0 && gate(s, sp).is_some()) {
            if !w.occ.contains(&sp) {
                w.out.insert(sp);
            }
            return;
        }
        let mut next = s.board.neighbors(sp, &[]);
        if m == 0
            && let Some(g) = gate(s, sp)
            && g == w.k as i64
        {
            for t in s.board.neighbors(sp, &[format!("gate-{g}")]) {
                if !next.contains(&t) {
                    next.push(t);
                }
            }
        }
        let mut went = false;
        for t in next {
            if w.seen.contains(&t) || (!w.power && w.occ.contains(&t)) {
                continue;
            }
            went = true;
            let new_row = prop(s, t, "row") != prop(s, sp, "row")
                || prop(s, t, "piece") != prop(s, sp, "piece");
            if new_row && !w.walked.insert((t, m + 1)) {
                continue;
            }
            w.seen.insert(t);
            walk(w, t, m + 1);
            w.seen.remove(&t);
        }
        if !went && m > 0 && !w.occ.contains(&sp) {
            w.out.insert(sp);
        }
    }
    let mut w = Walk {
        s,
        k,
        occ,
        power,
        seen: BTreeSet::from([from]),
        walked: BTreeSet::new(),
        out: BTreeSet::new(),
    };
    walk(&mut w, from, 0);
    w.out
}

/// What a seat may do with one car for a chosen combo: cross the finish, the ends of a plain
/// move, the ends only a power move reaches (space ids).
#[derive(Debug, Default, PartialEq, Eq, Clone)]
struct CarMoves {
    finish: bool,
    plain: BTreeSet<String>,
    power: BTreeSet<String>,
}

/// The chips moving `car` costs `seat` on top of its dice: taking control of a rival car not
/// yet controlled this turn (DC-T10) and going on after a single (DC-T9).
fn car_cost(s: &State, seat: u8, car: &str) -> i64 {
    let rival = driver(s, car) != Some(seat) && !flagged(s, "_control").contains(car);
    let single = flagged(s, "_single").contains(car);
    i64::from(rival) + i64::from(single)
}

/// Every car the seat may move with a combo of `k` dice, and where (worked out from the rules).
fn expected_moves(st: &Step, s: &State, seat: u8, k: usize) -> BTreeMap<String, CarMoves> {
    let mut out = BTreeMap::new();
    let held = chips(st, s, seat);
    let cars = racing(st, s);
    for car in &cars {
        let Some(at) = car_at(st, s, car) else {
            continue;
        };
        let cost = car_cost(s, seat, car);
        if cost > held {
            continue;
        }
        let occ: BTreeSet<u32> = cars
            .iter()
            .filter(|c| *c != car)
            .filter_map(|c| car_at(st, s, c))
            .collect();
        let plain = ends(s, at, k, &occ, false);
        let mut m = CarMoves {
            finish: tagged(s, at, "finish") && gate(s, at) == Some(k as i64),
            plain: plain.iter().map(|&x| space_id(s, x).to_string()).collect(),
            power: BTreeSet::new(),
        };
        if cost < held {
            m.power = ends(s, at, k, &occ, true)
                .difference(&plain)
                .map(|&x| space_id(s, x).to_string())
                .collect();
        }
        if m.finish || !m.plain.is_empty() || !m.power.is_empty() {
            out.insert(car.clone(), m);
        }
    }
    out
}
/// The same, read from the actions offered.
fn offered_moves(st: &Step) -> BTreeMap<String, CarMoves> {
    let mut out: BTreeMap<String, CarMoves> = BTreeMap::new();
    for a in st.offered {
        let w: Vec<&str> = a.split(' ').collect();
        let Some(car) = w.get(1).and_then(|c| car_of_color(st, st.before, c)) else {
            continue;
        };
        match (w[0], w.get(2)) {
            ("finish", _) => out.entry(car).or_default().finish = true,
            ("move", Some(sp)) => {
                out.entry(car).or_default().plain.insert(sp.to_string());
            }
            ("power", Some(sp)) => {
                out.entry(car).or_default().power.insert(sp.to_string());
            }
            _ => {}
        }
    }
    out
}

/// At a step that chooses where a combo moves a car: the moves offered and those the rules
/// give, per car, for the cars `which` picks (car, where it stands, the combo's size).
fn compare_moves(
    st: &Step,
    which: impl Fn(&Step, &str, u32, usize) -> bool,
    part: impl Fn(&CarMoves) -> CarMoves,
) -> Verdict {
    if phase(st.before) != "move" {
        return Verdict::Skip;
    }
    let Some(c) = combo(st.before) else {
        return Verdict::Skip;
    };
    let k = c.len();
    let want = expected_moves(st, st.before, st.actor, k);
    let got = offered_moves(st);
    let mut judged = false;
    for car in racing(st, st.before) {
        let Some(at) = car_at(st, st.before, &car) else {
            continue;
        };
        if !which(st, &car, at, k) {
            continue;
        }
        judged = true;
        let w = part(&want.get(&car).cloned().unwrap_or_default());
        let g = part(&got.get(&car).cloned().unwrap_or_default());
        if w != g {
            return Verdict::Fail(format!(
                "with a combo of {k} ({}) {} at {} is offered {g:?}; the rules give {w:?} (chips {})",
                combo_key(&c),
                car_name(st, &car),
                space_id(st.before, at),
                chips(st, st.before, st.actor)
            ));
        }
    }
    if judged { Verdict::Pass } else { Verdict::Skip }
}
fn plain_part(m: &CarMoves) -> CarMoves {
    CarMoves {
        plain: m.plain.clone(),
        ..CarMoves::default()
    }
}
fn whole(m: &CarMoves) -> CarMoves {
    m.clone()
}

/// Whether a gate matters to a move of `k` from `at`: the car stands at one, or a gate's space
/// lies within `k` rows ahead.
fn near_gate(st: &Step, at: u32, k: usize) -> bool {
    let s = st.before;
    if gate(s, at).is_some() {
        return true;
    }
    let here = progress(s, at);
    (0..s.board.graph.spaces.len() as u32).any(|sp| {
        gate(s, sp).is_some() && {
            let p = progress(s, sp);
            p > here && p - here < 100 * (k as i64 + 1)
        }
    })
}

/// The car a move, power move, finish or juke action names first.
fn moved_car(st: &Step) -> Option<String> {
    let w = words(st);
    match w.first().copied()? {
        "move" | "power" | "finish" | "juke" => car_of_color(st, st.before, w.get(1)?),
        _ => None,
    }
}

/// The chips the actor should have spent at this step (before a turn's purchase).
fn chips_spent(st: &Step) -> Option<i64> {
    Some(match kind(st) {
        "add" | "set" | "roll" | "juke" => 1,
        "move" | "finish" => car_cost(st.before, st.actor, &moved_car(st)?),
        "power" => car_cost(st.before, st.actor, &moved_car(st)?) + 1,
        "done" => return None,
        _ => 0,
    })
}
/// A chip-moving step's verdict: the actor spent `want` chips into the supply and no other
/// seat's chips changed.
fn spent_only(st: &Step, want: i64) -> Verdict {
    for seat in 0..st.seats {
        let d = chips(st, st.after, seat) - chips(st, st.before, seat);
        let expect = if seat == st.actor { -want } else { 0 };
        if d != expect {
            return Verdict::Fail(format!(
                "seat {}'s chips went from {} to {}; the rules say {expect:+}",
                seat + 1,
                chips(st, st.before, seat),
                chips(st, st.after, seat)
            ));
        }
    }
    let ds = supply(st, st.after) - supply(st, st.before);
    check(ds == want, || {
        format!("the supply changed by {ds:+}; the seat spent {want}")
    })
}

// ---------------------------------------------------------------------------------------------
// Chips bought at a turn's end (DC-T14) and Sunday Drive's pit crew

/// The chips a combo of `size` dice buys, from the `chip-purchase` table.
fn chips_for(st: &Step, size: usize) -> i64 {
    let size = size as i64;
    table_rows(st, "chip-purchase")
        .iter()
        .filter(|r| {
            let c = row_int(r, "combo");
            size == c || (r.get("or_larger").and_then(Value::as_bool) == Some(true) && size > c)
        })
        .map(|r| row_int(r, "chips"))
        .max()
        .unwrap_or(0)
}

/// What `done` should leave: each seat's chips, the supply, the chips the leftover dice buy
/// and those the pit crew hands out (Sunday Drive: at a turn's start, a chip for each car of
/// the seat to act stopped in front of a gate of `pit_crew_min_gate` dice or more), within
/// the cap and what the supply holds.
struct TurnEnd {
    held: Vec<i64>,
    supply: i64,
    size: usize,
    bought: i64,
    pit: i64,
    waiting: Vec<String>,
}

fn turn_end(st: &Step, pit_crew: bool) -> TurnEnd {
    let mut held: Vec<i64> = (0..st.seats).map(|x| chips(st, st.before, x)).collect();
    let mut sup = supply(st, st.before);
    let size = best_combo(&unused(st.before));
    let a = st.actor as usize;
    let bought = chips_for(st, size).min(CHIP_CAP - held[a]).min(sup).max(0);
    held[a] += bought;
    sup -= bought;
    let mut pit = 0;
    let mut waiting = vec![];
    if pit_crew && turn_began(st) {
        let seat = st.after.active as usize;
        let give = constant_int(st, "pit_crew_chips").unwrap_or(0);
        let least = constant_int(st, "pit_crew_min_gate").unwrap_or(i64::MAX);
        for car in cars_of(st.after, seat as u8) {
            let big = car_at(st, st.after, &car)
                .and_then(|sp| gate(st.after, sp))
                .is_some_and(|g| g >= least);
            if big {
                let m = give.min(CHIP_CAP - held[seat]).min(sup).max(0);
                held[seat] += m;
                sup -= m;
                pit += m;
                if m > 0 {
                    waiting.push(car);
                }
            }
        }
    }
    TurnEnd {
        held,
        supply: sup,
        size,
        bought,
        pit,
        waiting,
    }
}

/// After `done`: each seat's chips and the supply are those of [`turn_end`].
fn turn_end_chips(st: &Step, pit_crew: bool) -> Verdict {
    if kind(st) != "done" {
        return Verdict::Skip;
    }
    let t = turn_end(st, pit_crew);
    let now: Vec<i64> = (0..st.seats).map(|x| chips(st, st.after, x)).collect();
    check(now == t.held && supply(st, st.after) == t.supply, || {
        format!(
            "the leftover dice {:?} (best combo {}) buy {}, the pit crew hands {}: chips should \
             be {:?} with {} in the supply; they are {now:?} with {}",
            unused(st.before),
            t.size,
            t.bought,
            t.pit,
            t.held,
            t.supply,
            supply(st, st.after)
        )
    })
}

// ---------------------------------------------------------------------------------------------
// The end (DC-E2 to DC-E4)

/// Every car's final place: those that crossed in that order, then the rest by how far down
/// the track they stand (ties in colour order).
fn final_order(st: &Step) -> Vec<String> {
    let mut order = strs(var(st.before, "_order"));
    if kind(st) == "finish"
        && let Some(c) = moved_car(st)
    {
        order.push(c);
    }
    // Where every car stood after the move (a finished car is off the board).
    let mut rest: Vec<(i64, usize, String)> = all_cars(st, st.before)
        .into_iter()
        .enumerate()
        .filter(|(_, c)| !order.contains(c))
        .filter_map(|(i, c)| {
            let s = st.after;
            // end_race lifts the cars left off the board: read where they stood from the step
            // (a juke or a move changed it) by replaying the action on the state before.
            let at = landed(st, &c).or_else(|| car_at(st, s, &c))?;
            Some((-progress(st.before, at), i, c))
        })
        .collect();
    rest.sort();
    order.extend(rest.into_iter().map(|(_, _, c)| c));
    order
}
/// Where `car` stands after this step's move or juke (read from the action).
fn landed(st: &Step, car: &str) -> Option<u32> {
    let w = words(st);
    let before = car_at(st, st.before, car);
    match w.first().copied()? {
        "move" | "power" if moved_car(st).as_deref() == Some(car) => {
            st.before.board.graph.find(w.get(2)?)
        }
        "juke" => {
            let a = car_of_color(st, st.before, w.get(1)?)?;
            let b = car_of_color(st, st.before, w.get(2)?)?;
            if a == car {
                car_at(st, st.before, &b)
            } else if b == car {
                car_at(st, st.before, &a)
            } else {
                before
            }
        }
        _ => before,
    }
}

/// The seats' scores and the places the rules give them, from the final order.
fn scores_and_places(st: &Step, order: &[String]) -> (Vec<i64>, Vec<u32>) {
    let n = st.seats as usize;
    let mut mine: Vec<Vec<i64>> = vec![vec![]; n];
    for (i, car) in order.iter().enumerate() {
        if let Some(d) = driver(st.before, car) {
            mine[d as usize].push(i as i64 + 1);
        }
    }
    let scores: Vec<i64> = mine
        .iter()
        .map(|p| match p.as_slice() {
            [one] => *one,
            [a, b, ..] => a + SECOND_CAR_WEIGHT * b,
            [] => 0,
        })
        .collect();
    let mut seats: Vec<usize> = (0..n).collect();
    seats.sort_by_key(|&s| (scores[s], *mine[s].get(1).or(mine[s].first()).unwrap_or(&0)));
    let mut places = vec![0u32; n];
    for (i, s) in seats.iter().enumerate() {
        places[*s] = i as u32 + 1;
    }
    (scores, places)
}

fn is_move(st: &Step) -> bool {
    matches!(kind(st), "move" | "power" | "finish" | "juke")
}
/// The seats with a car still racing after the step (read off the state after, or for the
/// step that ended the race, worked out from the move).
fn seats_racing_after(st: &Step) -> BTreeSet<u8> {
    let mut order = strs(var(st.before, "_order"));
    if kind(st) == "finish"
        && let Some(c) = moved_car(st)
    {
        order.push(c);
    }
    all_cars(st, st.before)
        .iter()
        .filter(|c| !order.contains(c) && car_at(st, st.before, c).is_some())
        .filter_map(|c| driver(st.before, c))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// The track (DC-T1, DC-G1, DC-G2, DC-E1, DC-E5)

/// The new laid pieces of this step (index, piece).
fn new_pieces<'a>(st: &'a Step) -> &'a [farebox::board::LaidPiece] {
    let (b, a) = (laid(st.before), laid(st.after));
    if a.len() > b.len() {
        &a[b.len()..]
    } else {
        &[]
    }
}

/// Where a laid piece's exit edge lies, and its heading there: one card length along a
/// straight, or along an arc of one card length that bends by its turn (DESIGN.md, geometry).
fn exit_of(p: &farebox::board::LaidPiece) -> (f64, f64, i32) {
    let h = f64::from(p.heading) * std::f64::consts::FRAC_PI_4;
    let t = f64::from(p.turn).to_radians();
    let (dir, chord) = if p.turn == 0 {
        (h, 1.0)
    } else {
        (h + t / 2.0, 2.0 * (t / 2.0).sin().abs() / t.abs())
    };
    (
        p.x + chord * dir.sin(),
        p.y - chord * dir.cos(),
        (p.heading + p.turn / 45).rem_euclid(8),
    )
}

/// DC-G2: the lanes of the next card a lane of `from` lanes leads to, on a card of `to` lanes.
fn lane_join(from: u32, to: u32, lane: u32) -> BTreeSet<u32> {
    match (from, to) {
        (a, b) if a == b => BTreeSet::from([lane]),
        (2, 3) => BTreeSet::from([lane, lane + 1]),
        (3, 2) => match lane {
            0 => BTreeSet::from([0]),
            1 => BTreeSet::from([0, 1]),
            _ => BTreeSet::from([1]),
        },
        _ => BTreeSet::new(),
    }
}

// ---------------------------------------------------------------------------------------------
// The oracles

/// Dicey Curves' oracles, for the game as shipped.
pub fn oracles() -> Vec<Oracle> {
    let mut out = shared();
    out.push(Oracle::new(
        "DC-T14",
        "the best leftover combo buys the chips of the table, to four and what the supply holds",
        |st| turn_end_chips(st, false),
    ));
    out
}

/// Sunday Drive's oracles: Dicey Curves' own wherever the house rule leaves a rule as it is
/// (its changed numbers, the chip purchase table, the deck without hairpins and the sprint as
/// the default race, come from the `GameDef` by themselves), and in place of DC-T14's the
/// amended rule: at a turn's start the pit crew hands the seat a chip for each of its cars
/// stopped in front of a gate of `pit_crew_min_gate` dice or more, within the cap and the
/// supply. Two functions rather than one taking the mod id: the house rule's oracles differ
/// by one rule, and its plans by the option default, which reads more plainly named.
pub fn house_rule_oracles() -> Vec<Oracle> {
    let mut out = shared();
    out.push(Oracle::new(
        "DC-T14",
        "Sunday Drive: leftover dice buy the table's chips, then the pit crew hands a chip per car waiting at a big gate",
        |st| turn_end_chips(st, true),
    ));
    out.push(Oracle::new(
        "DC-T14",
        "Sunday Drive: everyone is told which car the pit crew's chip is for",
        |st| {
            if kind(st) != "done" {
                return Verdict::Skip;
            }
            let t = turn_end(st, true);
            if t.pit == 0 {
                return Verdict::Skip;
            }
            all(st.shown.iter().map(|s| {
                check(
                    t.waiting
                        .iter()
                        .all(|c| s.lines.iter().any(|l| l.contains(car_name(st, c)))),
                    || {
                        format!(
                            "{:?} is not told of the pit crew's chip for {:?}: {:?}",
                            s.viewer, t.waiting, s.lines
                        )
                    },
                )
            }))
        },
    ));
    out
}

/// The oracles of every rule Sunday Drive leaves as it is.
fn shared() -> Vec<Oracle> {
    let mut out = setup_oracles();
    out.extend(dice_oracles());
    out.extend(move_oracles());
    out.extend(track_oracles());
    out.extend(end_oracles());
    out
}

fn setup_oracles() -> Vec<Oracle> {
    vec![
        Oracle::new(
            "DC-S1",
            "two to eight seats; two cars each up to four seats, else one",
            |st| {
                // Forced games keep the cars their setup handed out, so they are judged too.
                if st.index != 0 {
                    return Verdict::Skip;
                }
                let option = st
                    .option("cars-per-player")
                    .and_then(Value::as_str)
                    .unwrap_or("auto");
                let each = if option != "one" && st.seats <= TWO_CARS_UP_TO {
                    2
                } else {
                    1
                };
                if !(MIN_SEATS..=MAX_SEATS).contains(&st.seats) {
                    return Verdict::Fail(format!("a game of {} seats started", st.seats));
                }
                all((0..st.seats).map(|seat| {
                    let n = cars_of(st.before, seat).len();
                    check(n == each, || {
                        format!(
                            "seat {} drives {n} cars ({option}, {} seats); the rule says {each}",
                            seat + 1,
                            st.seats
                        )
                    })
                }))
            },
        ),
        Oracle::new(
            "DC-S1",
            "every car has one driver and a colour of its own",
            |st| {
                if st.index != 0 || st.forced {
                    return Verdict::Skip;
                }
                let cars: Vec<String> = (0..st.seats).flat_map(|s| cars_of(st.before, s)).collect();
                let distinct: BTreeSet<&String> = cars.iter().collect();
                let colours: BTreeSet<&str> = cars.iter().map(|c| color(st, c)).collect();
                check(
                    distinct.len() == cars.len()
                        && colours.len() == cars.len()
                        && cars.iter().all(|c| {
                            (0..st.seats).any(|s| {
                                cars_of(st.before, s).contains(c) && driver(st.before, c) == Some(s)
                            })
                        }),
                    || format!("the seats' cars are {cars:?}"),
                )
            },
        ),
        Oracle::new(
            "DC-S2",
            "32 chips in all: the seats' and the supply's, at every step",
            |st| {
                let total =
                    |s: &State| (0..st.seats).map(|x| chips(st, s, x)).sum::<i64>() + supply(st, s);
                let (b, a) = (total(st.before), total(st.after));
                check(b == CHIPS_IN_ALL && a == CHIPS_IN_ALL, || {
                    format!(
                        "the seats and the supply hold {b} chips before and {a} after; the game has {CHIPS_IN_ALL}"
                    )
                })
            },
        ),
        Oracle::new(
            "DC-S2",
            "two chips each at the start, with the extra chips by turn order",
            |st| {
                if st.index != 0 || st.forced {
                    return Verdict::Skip;
                }
                let Some(first) = var(st.before, "_first_seat").as_int() else {
                    return Verdict::Fail("no seat is named to start".into());
                };
                let n = st.seats as usize;
                let list = st
                    .def
                    .constants
                    .get(&format!("extra_chips_by_turn_order_{n}"))
                    .or_else(|| st.def.constants.get("extra_chips_by_turn_order"))
                    .map(ints)
                    .unwrap_or_default();
                all((0..n).map(|i| {
                let seat = ((first as usize - 1 + i) % n) as u8;
                let extra = list.get(i).copied().unwrap_or(0);
                let want = (2 + extra).clamp(0, CHIP_CAP);
                let got = chips(st, st.before, seat);
                check(got == want, || {
                    format!("seat {} (place {} in the turn order) starts with {got} chips; 2 and its extra {extra} make {want}", seat + 1, i + 1)
                })
            }))
            },
        ),
        Oracle::new(
            "DC-S3",
            "a deck of 36 track cards, one Start and one Finish, all in play",
            |st| {
                if st.index != 0 || st.forced {
                    return Verdict::Skip;
                }
                let Some(d) = st.def.deck("track") else {
                    return Verdict::Fail("no track deck".into());
                };
                let cards = &st.def.decks[d].cards;
                let n: usize = cards.iter().map(|c| c.count as usize).sum();
                let role = |r: farebox::content::def::TrackRole| {
                    cards
                        .iter()
                        .filter(|c| {
                            card_piece(st, &c.id).is_some_and(|p| {
                                track_def(st).is_some_and(|t| t.pieces[p].role == r)
                            })
                        })
                        .map(|c| c.count as usize)
                        .sum::<usize>()
                };
                let placed: usize = ["track-deck", "set-aside", "track", "off-track"]
                    .iter()
                    .map(|z| st.zone(st.before, z, None).len())
                    .sum();
                check(
                    n == DECK_CARDS
                        && role(farebox::content::def::TrackRole::Start) == 1
                        && role(farebox::content::def::TrackRole::Finish) == 1
                        && placed == DECK_CARDS,
                    || format!("the deck has {n} cards ({placed} in the zones)"),
                )
            },
        ),
        Oracle::new(
            "DC-S4",
            "the Finish is buried at the depth the option's row gives",
            |st| {
                if st.index != 0 || st.forced {
                    return Verdict::Skip;
                }
                let Some(fin) = finish_card(st) else {
                    return Verdict::Fail("no Finish card".into());
                };
                let deck = ids(st, st.before, "track-deck");
                let Some(pos) = deck.iter().rposition(|c| *c == fin) else {
                    return Verdict::Fail("the Finish is not in the deck after setup".into());
                };
                let depth = st
                    .option("finish-depth")
                    .and_then(Value::as_str)
                    .unwrap_or("");
                let Some(row) = table_rows(st, "finish-depth")
                    .iter()
                    .find(|r| r.get("depth").and_then(Value::as_str) == Some(depth))
                else {
                    return Verdict::Fail(format!("no finish-depth row {depth}"));
                };
                let (above, spread) = (row_int(row, "cards_above"), row_int(row, "spread"));
                // The cards above it at setup: those above it now, the two drawn and any discarded.
                let drawn =
                    laid(st.before).len() as i64 - 2 + ids(st, st.before, "off-track").len() as i64;
                let was = (deck.len() - 1 - pos) as i64 + drawn;
                check((above - spread..=above + spread).contains(&was), || {
                    format!(
                        "{was} cards lay above the Finish; the {depth} row says {above} +/- {spread}"
                    )
                })
            },
        ),
        Oracle::new("DC-S4", "nothing is left set aside after setup", |st| {
            if st.index != 0 || st.forced {
                return Verdict::Skip;
            }
            let aside = ids(st, st.before, "set-aside");
            check(aside.is_empty(), || format!("still set aside: {aside:?}"))
        }),
        Oracle::new(
            "DC-S5",
            "the track opens with Start, a three-lane straight and the deck's top two cards",
            |st| {
                if st.index != 0 || st.forced {
                    return Verdict::Skip;
                }
                let cards = strs(var(st.before, "_laid"));
                let zone = ids(st, st.before, "track");
                let p = laid(st.before);
                let piece = |i: usize| {
                    p.get(i)
                        .and_then(|x| track_def(st).map(|t| &t.pieces[x.piece as usize]))
                };
                let start =
                    piece(0).is_some_and(|x| x.role == farebox::content::def::TrackRole::Start);
                let straight =
                    piece(1).is_some_and(|x| x.lanes == 3 && x.turn == 0 && x.gates.is_empty());
                let mut sorted = zone.clone();
                sorted.sort();
                let mut want = cards.clone();
                want.sort();
                check(
                    cards.len() == 4 && p.len() == 4 && start && straight && sorted == want,
                    || format!("the opening track is {cards:?} (zone {zone:?})"),
                )
            },
        ),
        Oracle::new(
            "DC-S6",
            "each car lines up in the lining-up order on a free grid space",
            |st| {
                if kind(st) != "place" {
                    return Verdict::Skip;
                }
                let order = list(var(st.before, "_grid"));
                let i = var(st.before, "_grid_next").as_int().unwrap_or(0) as usize;
                let Some(entry) = order.get(i.wrapping_sub(1)).map(strs_and_seat) else {
                    return Verdict::Fail(format!("no {i}th car to line up"));
                };
                let (seat, car) = entry;
                let Some(sp) = st
                    .before
                    .board
                    .graph
                    .find(words(st).get(1).copied().unwrap_or(""))
                else {
                    return Verdict::Fail("no such space".into());
                };
                let free = racing(st, st.before)
                    .iter()
                    .all(|c| car_at(st, st.before, c) != Some(sp));
                check(
                    seat == st.actor as i64 + 1
                        && car_at(st, st.after, &car) == Some(sp)
                        && tagged(st.before, sp, "start")
                        && free,
                    || {
                        format!(
                            "seat {} put {car} (the order names seat {seat}) on {} (free {free})",
                            st.actor + 1,
                            space_id(st.before, sp)
                        )
                    },
                )
            },
        ),
        Oracle::new(
            "DC-S6",
            "first cars line up from the starter round the table, second cars back the other way",
            |st| {
                if st.index != 0 || st.forced {
                    return Verdict::Skip;
                }
                let n = st.seats as i64;
                let Some(first) = var(st.before, "_first_seat").as_int() else {
                    return Verdict::Fail("no seat is named to start".into());
                };
                let places: Vec<i64> = st
                    .def
                    .constants
                    .get(&format!("lineup_by_turn_order_{n}"))
                    .map(ints)
                    .unwrap_or_else(|| (1..=n).collect());
                let seat_of = |k: i64| (first + k - 2).rem_euclid(n) + 1;
                let mut want: Vec<(i64, String)> = places
                    .iter()
                    .map(|&k| {
                        (
                            seat_of(k),
                            cars_of(st.before, (seat_of(k) - 1) as u8)[0].clone(),
                        )
                    })
                    .collect();
                if cars_of(st.before, 0).len() > 1 {
                    want.extend(places.iter().rev().map(|&k| {
                        (
                            seat_of(k),
                            cars_of(st.before, (seat_of(k) - 1) as u8)[1].clone(),
                        )
                    }));
                }
                let got: Vec<(i64, String)> = list(var(st.before, "_grid"))
                    .iter()
                    .map(strs_and_seat)
                    .collect();
                check(
                    got == want && st.before.active as i64 + 1 == want[0].0,
                    || format!("the lining-up order is {got:?}; the rule gives {want:?}"),
                )
            },
        ),
        Oracle::new(
            "DC-S6",
            "the starter takes the first turn once every car is lined up",
            |st| {
                if kind(st) != "place" || !turn_began(st) {
                    return Verdict::Skip;
                }
                let first = var(st.after, "_first_seat").as_int().unwrap_or(0);
                check(st.after.active as i64 + 1 == first, || {
                    format!(
                        "seat {} takes the first turn; seat {first} starts",
                        st.after.active + 1
                    )
                })
            },
        ),
        Oracle::new("DC-S6", "everyone is told where each car lines up", |st| {
            if kind(st) != "place" {
                return Verdict::Skip;
            }
            let order = list(var(st.before, "_grid"));
            let i = var(st.before, "_grid_next").as_int().unwrap_or(0) as usize;
            let Some((_, car)) = order.get(i.wrapping_sub(1)).map(strs_and_seat) else {
                return Verdict::Skip;
            };
            let name = car_name(st, &car);
            all(st.shown.iter().map(|s| {
                check(s.lines.iter().any(|l| l.contains(name)), || {
                    format!(
                        "{:?} is not told that {name} lined up (lines {:?})",
                        s.viewer, s.lines
                    )
                })
            }))
        }),
    ]
}

fn strs_and_seat(v: &Value) -> (i64, String) {
    let l = list(v);
    (
        l.first().and_then(Value::as_int).unwrap_or(0),
        l.get(1).and_then(Value::as_str).unwrap_or("").to_string(),
    )
}

fn dice_oracles() -> Vec<Oracle> {
    vec![
        Oracle::new(
            "DC-T2",
            "a turn rolls five white dice, each 6 again with a green die, up to five",
            |st| {
                if !turn_began(st) {
                    return Verdict::Skip;
                }
                let mut rng = st.before.rng.clone();
                let mut d: Vec<i64> = (0..WHITE_DICE).map(|_| rng.roll(SIDES) as i64).collect();
                let mut g = vec![false; WHITE_DICE];
                explode(&mut rng, &mut d, &mut g);
                let got = dice(st.after);
                let want: Vec<(i64, bool, bool)> =
                    d.iter().zip(&g).map(|(&v, &gr)| (v, gr, false)).collect();
                check(got == want && rng == st.after.rng, || {
                    format!("the seeded roll gives {want:?}; the dice in play are {got:?}")
                })
            },
        ),
        Oracle::new("DC-T2", "the roll is told to everyone", |st| {
            if !turn_began(st) {
                return Verdict::Skip;
            }
            let mut v: Vec<String> = dice(st.after).iter().map(|d| d.0.to_string()).collect();
            v.sort();
            let text = v.join(" ");
            all(st.shown.iter().map(|s| {
                check(
                    s.lines.iter().any(|l| l.contains(&format!("rolls {text}"))),
                    || format!("{:?} is not told the roll {text}: {:?}", s.viewer, s.lines),
                )
            }))
        }),
        Oracle::new(
            "DC-T3",
            "a chip adds a green die showing 1 to 5 while fewer than five are out",
            |st| {
                if kind(st) != "add" {
                    return Verdict::Skip;
                }
                let v: i64 = words(st).get(1).and_then(|x| x.parse().ok()).unwrap_or(0);
                let mut want = dice(st.before);
                want.push((v, true, false));
                check(
                    CHIP_DIE.contains(&v)
                        && greens(st.before) < GREEN_DICE
                        && dice(st.after) == want,
                    || {
                        format!(
                            "add {v} with {} green dice out: dice {:?}",
                            greens(st.before),
                            dice(st.after)
                        )
                    },
                )
            },
        ),
        Oracle::new(
            "DC-T3",
            "with all five green dice out a chip turns an unused green die to 1 to 5",
            |st| {
                if kind(st) != "set" {
                    return Verdict::Skip;
                }
                let w = words(st);
                let (from, to): (i64, i64) = (
                    w.get(1).and_then(|x| x.parse().ok()).unwrap_or(0),
                    w.get(2).and_then(|x| x.parse().ok()).unwrap_or(0),
                );
                let (b, a) = (dice(st.before), dice(st.after));
                let changed: Vec<usize> = (0..b.len().max(a.len()))
                    .filter(|&i| b.get(i) != a.get(i))
                    .collect();
                let ok = greens(st.before) == GREEN_DICE
                    && CHIP_DIE.contains(&to)
                    && changed.len() == 1
                    && b[changed[0]] == (from, true, false)
                    && a.get(changed[0]) == Some(&(to, true, false));
                check(ok, || format!("set {from} {to}: dice {b:?} became {a:?}"))
            },
        ),
        Oracle::new(
            "DC-T3",
            "adding or setting a die is offered exactly when the rules allow it",
            |st| {
                if phase(st.before) != "move" || combo(st.before).is_some() {
                    return Verdict::Skip;
                }
                let may = !moved(st.before) && chips(st, st.before, st.actor) >= 1;
                let out = greens(st.before) < GREEN_DICE;
                let mut want: BTreeSet<String> = BTreeSet::new();
                if may && out {
                    want.extend(CHIP_DIE.map(|v| format!("add {v}")));
                }
                if may && !out {
                    let from: BTreeSet<i64> = dice(st.before)
                        .iter()
                        .filter(|d| d.1 && !d.2)
                        .map(|d| d.0)
                        .collect();
                    for f in from {
                        want.extend(CHIP_DIE.filter(|&t| t != f).map(|t| format!("set {f} {t}")));
                    }
                }
                let got: BTreeSet<String> = st
                    .offered
                    .iter()
                    .filter(|a| a.starts_with("add ") || a.starts_with("set "))
                    .cloned()
                    .collect();
                check(got == want, || {
                    format!("offered {got:?}; the rules give {want:?}")
                })
            },
        ),
        Oracle::new(
            "DC-T4",
            "a chip re-rolls the dice picked, before the first move, and no others",
            |st| {
                match kind(st) {
                    "reroll" => {
                        return check(
                            !moved(st.before) && chips(st, st.before, st.actor) >= 1,
                            || "a re-roll after a move or without a chip".into(),
                        );
                    }
                    "roll" => {}
                    _ => return Verdict::Skip,
                }
                let pick = ints(var(st.before, "_pick"));
                let mut rng = st.before.rng.clone();
                let b = dice(st.before);
                let mut d: Vec<i64> = b.iter().map(|x| x.0).collect();
                let mut g: Vec<bool> = b.iter().map(|x| x.1).collect();
                let mut left = pick.clone();
                for (i, x) in b.iter().enumerate() {
                    if !x.2
                        && let Some(at) = left.iter().position(|v| *v == x.0)
                    {
                        left.remove(at);
                        d[i] = rng.roll(SIDES) as i64;
                    }
                }
                explode(&mut rng, &mut d, &mut g);
                let want: Vec<(i64, bool, bool)> = d
                    .iter()
                    .enumerate()
                    .map(|(i, &v)| (v, g[i], b.get(i).is_some_and(|x| x.2)))
                    .collect();
                check(
                    !pick.is_empty()
                        && left.is_empty()
                        && dice(st.after) == want
                        && rng == st.after.rng,
                    || {
                        format!(
                            "re-rolling {pick:?} of {b:?} should give {want:?}; the dice are {:?}",
                            dice(st.after)
                        )
                    },
                )
            },
        ),
        Oracle::new(
            "DC-T4",
            "a re-roll picks unused dice, one or more, one value at a time",
            |st| {
                if phase(st.before) != "reroll" {
                    return Verdict::Skip;
                }
                let pick = ints(var(st.before, "_pick"));
                let left = take(&unused(st.before), &pick).unwrap_or_default();
                let mut want: BTreeSet<String> = left.iter().map(|v| format!("pick {v}")).collect();
                want.extend(pick.iter().map(|v| format!("unpick {v}")));
                if !pick.is_empty() {
                    want.insert("roll".into());
                }
                want.insert("cancel".into());
                let got: BTreeSet<String> = st.offered.iter().cloned().collect();
                check(got == want, || {
                    format!(
                        "picked {pick:?} of {:?}: offered {got:?}; the rules give {want:?}",
                        unused(st.before)
                    )
                })
            },
        ),
        Oracle::new(
            "DC-T5",
            "the combos offered are exactly those of the unused dice some car can move with",
            |st| {
                if phase(st.before) != "move" || combo(st.before).is_some() {
                    return Verdict::Skip;
                }
                let mut want = BTreeSet::new();
                let mut usable: BTreeMap<usize, bool> = BTreeMap::new();
                for c in combos_of(&unused(st.before)) {
                    let k = c.len();
                    let ok = *usable
                        .entry(k)
                        .or_insert_with(|| !expected_moves(st, st.before, st.actor, k).is_empty());
                    if ok {
                        want.insert(format!("use {}", combo_key(&c)));
                    }
                }
                let got: BTreeSet<String> = st
                    .offered
                    .iter()
                    .filter(|a| a.starts_with("use "))
                    .cloned()
                    .collect();
                check(got == want, || {
                    format!(
                        "dice {:?}: offered {got:?}; the rules give {want:?}",
                        unused(st.before)
                    )
                })
            },
        ),
        Oracle::new(
            "DC-T5",
            "a move spends exactly its combo's dice, none used twice",
            |st| {
                if !matches!(kind(st), "move" | "power" | "finish") {
                    return Verdict::Skip;
                }
                let Some(c) = combo(st.before) else {
                    return Verdict::Fail("a car moved with no combo chosen".into());
                };
                let left = take(&unused(st.before), &c);
                let mut now_used = used(st.before);
                now_used.extend(&c);
                now_used.sort_unstable();
                let over = st.after.result.is_some();
                check(
                    is_combo(&c)
                        && left.is_some()
                        && (over || (used(st.after) == now_used && left == Some(unused(st.after)))),
                    || {
                        format!(
                            "combo {c:?} of unused {:?}: used now {:?}",
                            unused(st.before),
                            used(st.after)
                        )
                    },
                )
            },
        ),
    ]
}

fn move_oracles() -> Vec<Oracle> {
    vec![
        Oracle::new(
            "DC-T6",
            "a combo's plain moves end where its steps reach, ahead or across into free spaces",
            |st| compare_moves(st, |_, _, _, k| k >= MIN_COMBO, plain_part),
        ),
        Oracle::new("DC-T6", "the car moves to the end chosen", |st| {
            if !matches!(kind(st), "move" | "power") {
                return Verdict::Skip;
            }
            let Some(car) = moved_car(st) else {
                return Verdict::Fail("no such car".into());
            };
            let to = st
                .before
                .board
                .graph
                .find(words(st).get(2).copied().unwrap_or(""));
            let over = st.after.result.is_some();
            check(over || car_at(st, st.after, &car) == to, || {
                format!("{car} is not on the end chosen")
            })
        }),
        Oracle::new("DC-T6", "everyone is told which car moved", |st| {
            if !matches!(kind(st), "move" | "power" | "finish" | "juke") {
                return Verdict::Skip;
            }
            let Some(car) = moved_car(st) else {
                return Verdict::Skip;
            };
            let name = car_name(st, &car);
            all(st.shown.iter().map(|s| {
                check(s.lines.iter().any(|l| l.contains(name)), || {
                    format!(
                        "{:?} is not told that {name} moved: {:?}",
                        s.viewer, s.lines
                    )
                })
            }))
        }),
        Oracle::new(
            "DC-T7",
            "a single moves a car one space, and marks it done for the turn",
            |st| {
                let singles = compare_moves(st, |_, _, _, k| k == 1, plain_part);
                if !matches!(kind(st), "move" | "power")
                    || combo(st.before).map(|c| c.len()) != Some(1)
                {
                    return singles;
                }
                let Some(car) = moved_car(st) else {
                    return Verdict::Fail("no such car".into());
                };
                let over = st.after.result.is_some();
                all([
                    singles,
                    check(over || flagged(st.after, "_single").contains(&car), || {
                        format!("{car} moved on a single and is not marked")
                    }),
                ])
            },
        ),
        Oracle::new(
            "DC-T7",
            "a car moved by a combo is not marked as on a single",
            |st| {
                if !matches!(kind(st), "move" | "power")
                    || combo(st.before).map(|c| c.len()).unwrap_or(0) < 2
                {
                    return Verdict::Skip;
                }
                let Some(car) = moved_car(st) else {
                    return Verdict::Skip;
                };
                check(
                    st.after.result.is_some() || !flagged(st.after, "_single").contains(&car),
                    || format!("{car} moved with a combo but is marked as on a single"),
                )
            },
        ),
        Oracle::new(
            "DC-T8",
            "near a gate, the moves offered halt before it and cross it only with its exact size",
            |st| compare_moves(st, |st, _, at, k| near_gate(st, at, k), whole),
        ),
        Oracle::new(
            "DC-T8",
            "a car never crosses a gate but on the first step of its exact size",
            |st| {
                if !matches!(kind(st), "move" | "power") {
                    return Verdict::Skip;
                }
                let (Some(car), Some(c)) = (moved_car(st), combo(st.before)) else {
                    return Verdict::Skip;
                };
                let s = st.before;
                let to = s.board.graph.find(words(st).get(2).copied().unwrap_or(""));
                let (Some(from), Some(to)) = (car_at(st, s, &car), to) else {
                    return Verdict::Skip;
                };
                let (pf, pt) = (
                    prop(s, from, "piece").unwrap_or(0),
                    prop(s, to, "piece").unwrap_or(0),
                );
                // A card gated across every lane cannot be left but through a gate.
                let gated = |i: i64| {
                    laid(s).get(i as usize).is_some_and(|p| {
                        (0..p.lanes)
                            .all(|l| gate(s, p.first_space + l * p.rows + p.rows - 1).is_some())
                    })
                };
                let start_gate = gate(s, from);
                let passed_from = if start_gate.is_some() { pf + 1 } else { pf };
                if pt == pf || (start_gate.is_none() && !(pf..pt).any(gated)) {
                    return Verdict::Skip;
                }
                let crossed_ok = start_gate.is_none_or(|g| g == c.len() as i64);
                let through: Vec<i64> = (passed_from..pt).filter(|&i| gated(i)).collect();
                check(crossed_ok && through.is_empty(), || {
                    format!(
                        "{car} went from {} (gate {start_gate:?}) to {} with {} dice, through the gated cards {through:?}",
                        space_id(s, from),
                        space_id(s, to),
                        c.len()
                    )
                })
            },
        ),
        Oracle::new(
            "DC-T9",
            "a car that moved on a single goes on only for a chip",
            |st| {
                let r = compare_moves(
                    st,
                    |st, car, _, _| flagged(st.before, "_single").contains(car),
                    whole,
                );
                if !matches!(kind(st), "move" | "power" | "finish") {
                    return r;
                }
                let Some(car) = moved_car(st) else {
                    return r;
                };
                if !flagged(st.before, "_single").contains(&car) {
                    return r;
                }
                all([r, spent_only(st, chips_spent(st).unwrap_or(0))])
            },
        ),
        Oracle::new(
            "DC-T10",
            "a rival's car is driven for a chip, once a turn",
            |st| {
                let r = compare_moves(
                    st,
                    |st, car, _, _| driver(st.before, car) != Some(st.actor),
                    whole,
                );
                if !matches!(kind(st), "move" | "power" | "finish") {
                    return r;
                }
                let Some(car) = moved_car(st) else {
                    return r;
                };
                if driver(st.before, &car) == Some(st.actor) {
                    return r;
                }
                let marked =
                    st.after.result.is_some() || flagged(st.after, "_control").contains(&car);
                all([
                    r,
                    spent_only(st, chips_spent(st).unwrap_or(0)),
                    check(marked, || format!("{car} is not marked as controlled")),
                ])
            },
        ),
        Oracle::new(
            "DC-T11",
            "a chip jukes two cars side by side, one of them the seat's",
            |st| {
                if phase(st.before) != "move" || combo(st.before).is_some() {
                    return Verdict::Skip;
                }
                let s = st.before;
                let mut want = BTreeSet::new();
                if chips(st, s, st.actor) >= 1 {
                    let cars = racing(st, s);
                    let control = flagged(s, "_control");
                    for (i, a) in cars.iter().enumerate() {
                        for b in &cars[i + 1..] {
                            let (Some(sa), Some(sb)) = (car_at(st, s, a), car_at(st, s, b)) else {
                                continue;
                            };
                            let mine = [a, b]
                                .iter()
                                .any(|c| driver(s, c) == Some(st.actor) || control.contains(*c));
                            let abreast = prop(s, sa, "piece") == prop(s, sb, "piece")
                                && prop(s, sa, "row") == prop(s, sb, "row");
                            if mine && abreast && s.board.neighbors(sa, &[]).contains(&sb) {
                                want.insert(format!("juke {} {}", color(st, a), color(st, b)));
                            }
                        }
                    }
                }
                let got: BTreeSet<String> = st
                    .offered
                    .iter()
                    .filter(|a| a.starts_with("juke "))
                    .cloned()
                    .collect();
                check(got == want, || {
                    format!("offered {got:?}; the rules give {want:?}")
                })
            },
        ),
        Oracle::new("DC-T11", "a juke swaps the two cars for one chip", |st| {
            if kind(st) != "juke" {
                return Verdict::Skip;
            }
            let w = words(st);
            let (Some(a), Some(b)) = (
                car_of_color(st, st.before, w[1]),
                w.get(2).and_then(|c| car_of_color(st, st.before, c)),
            ) else {
                return Verdict::Fail("no such cars".into());
            };
            let over = st.after.result.is_some();
            let swapped = over
                || (car_at(st, st.after, &a) == car_at(st, st.before, &b)
                    && car_at(st, st.after, &b) == car_at(st, st.before, &a));
            all([
                check(swapped, || format!("{a} and {b} did not swap")),
                spent_only(st, 1),
            ])
        }),
        Oracle::new(
            "DC-T12",
            "a power move, for a chip, passes through cars to an empty space plain moves miss",
            |st| {
                let r = compare_moves(
                    st,
                    |_, _, _, _| true,
                    |m| CarMoves {
                        power: m.power.clone(),
                        ..CarMoves::default()
                    },
                );
                if kind(st) != "power" {
                    return r;
                }
                all([r, spent_only(st, chips_spent(st).unwrap_or(1))])
            },
        ),
        Oracle::new("DC-T3", "adding or setting a die costs one chip", |st| {
            if !matches!(kind(st), "add" | "set") {
                return Verdict::Skip;
            }
            spent_only(st, 1)
        }),
        Oracle::new(
            "DC-T4",
            "a re-roll costs one chip, choosing the dice costs nothing",
            |st| match kind(st) {
                "roll" => spent_only(st, 1),
                "reroll" | "pick" | "unpick" | "cancel" => spent_only(st, 0),
                _ => Verdict::Skip,
            },
        ),
        Oracle::new(
            "DC-T6",
            "a move of the seat's own car with no single behind it costs no chip",
            |st| {
                if !matches!(kind(st), "move" | "finish") {
                    return Verdict::Skip;
                }
                let Some(car) = moved_car(st) else {
                    return Verdict::Skip;
                };
                if car_cost(st.before, st.actor, &car) != 0 {
                    return Verdict::Skip;
                }
                spent_only(st, 0)
            },
        ),
        Oracle::new(
            "DC-T13",
            "no car need move: the seat may always stop, or choose another combo",
            |st| {
                if phase(st.before) != "move" {
                    return Verdict::Skip;
                }
                let want = if combo(st.before).is_some() {
                    "back"
                } else {
                    "done"
                };
                check(st.offered.iter().any(|a| a == want), || {
                    format!("`{want}` is not offered: {:?}", st.offered)
                })
            },
        ),
        Oracle::new("DC-T14", "a seat never holds more than four chips", |st| {
            all((0..st.seats).map(|seat| {
                let c = chips(st, st.after, seat);
                check((0..=CHIP_CAP).contains(&c), || {
                    format!("seat {} holds {c} chips", seat + 1)
                })
            }))
        }),
        Oracle::new(
            "DC-T14",
            "chips move only by the chip actions, a purchase and (house rules) a turn's start",
            |st| match chips_spent(st) {
                Some(n) if kind(st) != "move" && kind(st) != "power" && kind(st) != "finish" => {
                    spent_only(st, n)
                }
                _ => Verdict::Skip,
            },
        ),
    ]
}

fn track_oracles() -> Vec<Oracle> {
    vec![
        Oracle::new(
            "DC-T1",
            "a turn lays the top card; cards that do not fit leave the race in order",
            |st| {
                if !turn_began(st) {
                    return Verdict::Skip;
                }
                let (db, da) = (
                    ids(st, st.before, "track-deck"),
                    ids(st, st.after, "track-deck"),
                );
                let (lb, la) = (strs(var(st.before, "_laid")), strs(var(st.after, "_laid")));
                if finish_laid(st, st.before) {
                    return Verdict::Skip;
                }
                if db.is_empty() {
                    return check(la == lb, || "a card was laid from an empty deck".into());
                }
                let taken = db.len().saturating_sub(da.len());
                if taken == 0 || da[..] != db[..db.len() - taken] {
                    return Verdict::Fail(format!(
                        "the deck went from {} to {} cards, not from its top",
                        db.len(),
                        da.len()
                    ));
                }
                // The top first: every card but the last taken left the race; the last is laid.
                let top: Vec<String> = db[db.len() - taken..].iter().rev().cloned().collect();
                let (ob, oa) = (
                    ids(st, st.before, "off-track"),
                    ids(st, st.after, "off-track"),
                );
                let new_off: Vec<String> = oa
                    .get(ob.len()..)
                    .map(<[String]>::to_vec)
                    .unwrap_or_default();
                let p = new_pieces(st);
                let forced_ok = p.len() == 1
                    && (!p[0].forced || Some(&top[taken - 1]) == finish_card(st).as_ref());
                check(
                    la.len() == lb.len() + 1
                        && la.last() == top.last()
                        && new_off[..] == top[..taken - 1]
                        && forced_ok
                        && card_piece(st, &top[taken - 1]) == p.first().map(|x| x.piece as usize),
                    || {
                        format!(
                            "drew {top:?}: laid {:?}, out of the race {new_off:?}",
                            la.get(lb.len()..)
                        )
                    },
                )
            },
        ),
        Oracle::new(
            "DC-T1",
            "the track zone holds exactly the cards laid",
            |st| {
                let mut zone = ids(st, st.after, "track");
                let mut cards = strs(var(st.after, "_laid"));
                for (i, p) in laid(st.after).iter().enumerate() {
                    if p.removed && i < cards.len() {
                        cards[i].clear();
                    }
                }
                cards.retain(|c| !c.is_empty());
                zone.sort();
                cards.sort();
                check(
                    zone == cards && laid(st.after).len() == strs(var(st.after, "_laid")).len(),
                    || {
                        format!(
                            "the track zone holds {zone:?}; the cards on the table are {cards:?}"
                        )
                    },
                )
            },
        ),
        Oracle::new(
            "DC-G1",
            "each card joins the last one's end, bending 0, 45 or 90 degrees",
            |st| {
                let (b, a) = (laid(st.before), laid(st.after));
                if a.len() <= b.len() || b.is_empty() {
                    return Verdict::Skip;
                }
                all((b.len()..a.len()).map(|i| {
                let (prev, p) = (&a[i - 1], &a[i]);
                let (x, y, h) = exit_of(prev);
                let def_turn = track_def(st).map(|t| t.pieces[p.piece as usize].turn);
                check(
                    (x - p.x).abs() < 1e-6
                        && (y - p.y).abs() < 1e-6
                        && h == p.heading
                        && [0, 45, -45, 90, -90].contains(&p.turn)
                        && def_turn == Some(p.turn),
                    || format!("card {} starts at ({:.3}, {:.3}) heading {}; the last card ends at ({x:.3}, {y:.3}) heading {h}", i + 1, p.x, p.y, p.heading),
                )
            }))
            },
        ),
        Oracle::new(
            "DC-G2",
            "lanes join lane to lane, two to three by side or middle, three to two the middle either way",
            |st| {
                let (b, a) = (laid(st.before), laid(st.after));
                if a.len() <= b.len() || b.is_empty() {
                    return Verdict::Skip;
                }
                let s = st.after;
                all((b.len()..a.len()).map(|i| {
                let (prev, p) = (&a[i - 1], &a[i]);
                if prev.removed {
                    return Verdict::Skip;
                }
                let gates: Vec<String> = (1..=10).map(|g| format!("gate-{g}")).collect();
                all((0..prev.lanes).map(|lane| {
                    let from = prev.first_space + lane * prev.rows + prev.rows - 1;
                    let to: BTreeSet<u32> = s
                        .board
                        .neighbors(from, &gates)
                        .into_iter()
                        .filter(|&t| (p.first_space..p.first_space + p.lanes * p.rows).contains(&t))
                        .filter(|&t| prop(s, t, "row") == Some(0))
                        .filter_map(|t| prop(s, t, "lane").map(|l| l as u32))
                        .collect();
                    let want = lane_join(prev.lanes, p.lanes, lane);
                    check(to == want, || {
                        format!("lane {lane} of a {}-lane card leads to lanes {to:?} of a {}-lane card; the rule says {want:?}", prev.lanes, p.lanes)
                    })
                }))
            }))
            },
        ),
        Oracle::new(
            "DC-E1",
            "once the Finish is down no card is laid and the deck is not drawn",
            |st| {
                if !finish_laid(st, st.before) {
                    return Verdict::Skip;
                }
                check(
                    laid(st.after).len() == laid(st.before).len()
                        && ids(st, st.after, "track-deck") == ids(st, st.before, "track-deck"),
                    || "a card was drawn or laid after the Finish".into(),
                )
            },
        ),
        Oracle::new("DC-E1", "the Finish is never put out of the race", |st| {
            let Some(f) = finish_card(st) else {
                return Verdict::Fail("no Finish card".into());
            };
            check(!ids(st, st.after, "off-track").contains(&f), || {
                "the Finish left the race".into()
            })
        }),
        Oracle::new(
            "DC-E5",
            "with the option on, every card behind the last car is cleared to Out of the Race",
            |st| {
                if !is_move(st) || st.after.result.is_some() {
                    return Verdict::Skip;
                }
                let on = st.option("remove-track-behind").and_then(Value::as_bool) == Some(true);
                let s = st.after;
                let last = racing(st, s)
                    .iter()
                    .filter_map(|c| car_at(st, s, c))
                    .filter_map(|sp| prop(s, sp, "piece"))
                    .min();
                let Some(last) = last else {
                    return Verdict::Skip;
                };
                let cards = strs(var(s, "_laid"));
                let off = ids(st, s, "off-track");
                all(laid(s).iter().enumerate().map(|(i, p)| {
                    let behind = (i as i64) < last;
                    let want = on && behind;
                    let card_off = cards.get(i).is_some_and(|c| off.contains(c));
                    check(p.removed == want && (!want || card_off), || {
                        format!(
                            "card {} (last car on card {}) removed: {}; the option is {on}",
                            i + 1,
                            last + 1,
                            p.removed
                        )
                    })
                }))
            },
        ),
    ]
}

fn end_oracles() -> Vec<Oracle> {
    vec![
        Oracle::new(
            "DC-E2",
            "a car at the finish line crosses with a three-dice combo and is ranked in crossing order",
            |st| {
                if kind(st) != "finish" {
                    return Verdict::Skip;
                }
                let (Some(car), Some(c)) = (moved_car(st), combo(st.before)) else {
                    return Verdict::Fail("no car or combo".into());
                };
                let at = car_at(st, st.before, &car);
                let at_line = at.is_some_and(|sp| {
                    tagged(st.before, sp, "finish") && gate(st.before, sp) == Some(FINISH_GATE)
                });
                let mut order = strs(var(st.before, "_order"));
                order.push(car.clone());
                let now = strs(var(st.after, "_order"));
                check(
                    at_line
                        && c.len() as i64 == FINISH_GATE
                        && car_at(st, st.after, &car).is_none()
                        && now.starts_with(&order),
                    || {
                        format!(
                            "{car} crossed from {:?} with {c:?}; the order is {now:?}",
                            at.map(|sp| space_id(st.before, sp))
                        )
                    },
                )
            },
        ),
        Oracle::new(
            "DC-E2",
            "crossing the line is offered exactly at a finish space with its gate's size",
            |st| {
                compare_moves(
                    st,
                    |_, _, _, _| true,
                    |m| CarMoves {
                        finish: m.finish,
                        ..CarMoves::default()
                    },
                )
            },
        ),
        Oracle::new(
            "DC-E2",
            "the race stops as soon as the cars left all belong to one seat, and not before",
            |st| {
                if phase(st.before) == "grid" || phase(st.before) == "over" {
                    return Verdict::Skip;
                }
                let over = st.after.result.is_some();
                if !is_move(st) {
                    return check(!over, || format!("the race ended at `{}`", st.action));
                }
                let left = seats_racing_after(st).len();
                check(over == (left <= 1), || {
                    format!("{left} seats still race and the race ended: {over}")
                })
            },
        ),
        Oracle::new(
            "DC-E2",
            "cars left at the end take the last places in the order they stand",
            |st| {
                if st.after.result.is_none() {
                    return Verdict::Skip;
                }
                let want = final_order(st);
                let got = strs(var(st.after, "_order"));
                check(got == want, || {
                    format!("the final order is {got:?}; the rules give {want:?}")
                })
            },
        ),
        Oracle::new(
            "DC-E3",
            "a seat whose cars have all finished takes no more turns",
            |st| {
                if !turn_began(st) {
                    return Verdict::Skip;
                }
                let seat = st.after.active;
                check(
                    cars_of(st.after, seat)
                        .iter()
                        .any(|c| car_at(st, st.after, c).is_some()),
                    || format!("seat {} starts a turn with every car finished", seat + 1),
                )
            },
        ),
        Oracle::new(
            "DC-E3",
            "one car each: the crossing order is the result",
            |st| {
                let Some(r) = &st.after.result else {
                    return Verdict::Skip;
                };
                if cars_of(st.before, 0).len() != 1 {
                    return Verdict::Skip;
                }
                let order = final_order(st);
                let want: Vec<u32> = (0..st.seats)
                    .map(|s| {
                        order
                            .iter()
                            .position(|c| driver(st.before, c) == Some(s))
                            .map_or(0, |i| i as u32 + 1)
                    })
                    .collect();
                check(
                    r.places == want
                        && r.scores == want.iter().map(|&p| p as i64).collect::<Vec<_>>(),
                    || {
                        format!(
                            "places {:?}, scores {:?}; the crossing order gives {want:?}",
                            r.places, r.scores
                        )
                    },
                )
            },
        ),
        Oracle::new(
            "DC-E4",
            "two cars each: first car's place plus twice the second's, lowest wins, ties to the better second car",
            |st| {
                let Some(r) = &st.after.result else {
                    return Verdict::Skip;
                };
                if cars_of(st.before, 0).len() != 2 {
                    return Verdict::Skip;
                }
                let (scores, places) = scores_and_places(st, &final_order(st));
                check(r.scores == scores && r.places == places, || {
                    format!(
                        "scores {:?} places {:?}; the rules give scores {scores:?} places {places:?}",
                        r.scores, r.places
                    )
                })
            },
        ),
    ]
}

// ---------------------------------------------------------------------------------------------
// Plans

/// The games the oracles judge: random players and Pit Bosses, two to five seats, one car each
/// (chosen, and by the number of seats) and two, short and long races, the track cleared behind the pack on a small table, and
/// games steered to the rare cases (the Finish the deck's last card, five green dice and no
/// chips to spare, ties at first, second and third place, a leftover five-dice combo).
pub fn plans(n: u64) -> Vec<Plan> {
    let r = "random";
    let pb = "racer";
    let mut out = Vec::new();
    for seed in 0..n {
        out.push(Plan::new(seed, &[pb, pb]));
        out.push(
            Plan::new(100 + seed, &[r, pb, r])
                .text_option("finish-depth", "short")
                .text_option("cars-per-player", "one"),
        );
        out.push(
            Plan::new(200 + seed, &[r, r])
                .text_option("finish-depth", "short")
                .text_option("table-size", "small")
                .prepare(finish_last),
        );
        out.push(
            Plan::new(300 + seed, &[pb, r, pb, r, pb])
                .text_option("finish-depth", "short")
                .text_option("table-size", "small")
                .option_bool("remove-track-behind", true),
        );
        out.push(Plan::new(400 + seed, &[r, r, r]).prepare(tie_first));
        out.push(Plan::new(500 + seed, &[r, r, r, r]).prepare(tie_second));
        out.push(Plan::new(600 + seed, &[r, r, r, r]).prepare(tie_third));
        out.push(Plan::new(700 + seed, &[r, r]).prepare(leftover_five));
    }
    out
}

/// Sunday Drive's games: those of [`plans`] (whose options name the race length where it
/// matters, so the house rule's sprint default changes only the ones that do not).
pub fn house_rule_plans(n: u64) -> Vec<Plan> {
    plans(n)
}

trait BoolOption {
    fn option_bool(self, id: &'static str, v: bool) -> Plan;
}
impl BoolOption for Plan {
    fn option_bool(mut self, id: &'static str, v: bool) -> Plan {
        self.options.push((id, Value::Bool(v)));
        self
    }
}

/// Forces state through the script API. A mod broken by a mutation run may refuse it (a car
/// missing, say); the game is then played as it is, and the oracles judge what it does.
fn eval(g: &mut Game, code: &str) {
    let _ = g.eval(code);
}

/// Lines every car up on the first grid space offered.
fn line_up(g: &mut Game) {
    while let Ok(acts) = g.legal_actions() {
        let Some(a) = acts.iter().find(|a| a.starts_with("place ")).cloned() else {
            break;
        };
        if g.apply_legal(&a).is_err() {
            break;
        }
    }
}

/// The Finish moved to the bottom of the deck: the last card drawn.
fn finish_last(g: &mut Game) {
    eval(
        g,
        r#"
        local deck = game.zone("track-deck")
        game.take_card(deck, "finish", deck, "bottom")
        "#,
    );
}

/// Every car but one of the seat to act has crossed the line in the order `places` gives (by
/// seat: 0 the seat to act, 1, 2, ... the others by number; and car: 1 first car, 2 second),
/// the last car left racing: its first move ends the race with the scores the order makes.
/// Of two seats tied on score the one with the higher number is the one the tie-break favours,
/// so a tie broken by seat order is broken wrongly.
fn finished_in_order(g: &mut Game, places: &str) {
    line_up(g);
    eval(
        g,
        &format!(
            r#"
        local n, me = game.seats(), game.active()
        local cars = game.get("_cars")
        local order, others = {{}}, {{}}
        for s = 1, n do
          if s ~= me then table.insert(others, s) end
        end
        for _, p in {places} do
          local seat = if p[1] == 0 then me else others[p[1]]
          local car = seat and (cars[tostring(seat)] or {{}})[p[2]]
          -- A mod broken by a mutation run may hand out fewer cars: then nothing is forced.
          if not car then return end
          table.insert(order, car)
        end
        for _, car in order do
          game.move_piece(game.pieces(car)[1], nil)
        end
        game.set("_order", order)
        "#
        ),
    );
}

/// Three seats: the seat to act (its second car still racing, so sixth) 2nd + 6th = 14, the
/// others 1st + 5th = 11 and 3rd + 4th = 11: a tie for first, the better second car wins.
fn tie_first(g: &mut Game) {
    finished_in_order(g, "{ {1, 1}, {0, 1}, {2, 1}, {2, 2}, {1, 2} }");
}

/// Four seats: 1st + 2nd = 5, 3rd + 7th = 17, 4th + 8th (the seat to act) = 20, 5th + 6th =
/// 17: a tie for second, won by 5th + 6th.
fn tie_second(g: &mut Game) {
    finished_in_order(
        g,
        "{ {1, 1}, {1, 2}, {2, 1}, {0, 1}, {3, 1}, {3, 2}, {2, 2} }",
    );
}

/// Four seats: 1st + 2nd = 5, 3rd + 5th = 13, 4th + 8th (the seat to act) = 20, 6th + 7th =
/// 20: a tie for third.
fn tie_third(g: &mut Game) {
    finished_in_order(
        g,
        "{ {1, 1}, {1, 2}, {2, 1}, {0, 1}, {2, 2}, {3, 1}, {3, 2} }",
    );
}

/// The seat to act holds no chip and five 3s: the few things it may do (a combo, or stop)
/// make a leftover of five dice, which buys the table's last row, likely.
fn leftover_five(g: &mut Game) {
    line_up(g);
    eval(
        g,
        r#"
        game.set("_dice", { 3, 3, 3, 3, 3 })
        game.set("_green", { false, false, false, false, false })
        game.set("_used", { false, false, false, false, false })
        local seat = game.active()
        game.add_counter("chip-supply", game.counter("chips", seat))
        game.set_counter("chips", seat, 0)
        "#,
    );
}
