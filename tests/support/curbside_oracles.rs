//! Curbside's rule oracles: one or more per rule ID of `mods/curbside/RULES.md` that can be
//! stated as a check of one step (see `oracles.rs` for the framework).
//!
//! They never ask the rules script: the road each tile kind has is written here from the
//! rule list (CS-T1 to CS-T8: a crossroads open on every side, a straight with two opposite
//! ends, ...), the drives, placements, lifts, turns, re-routes and potholes a player may be
//! offered are worked out here from the board in the state, and the numbers the rules leave
//! to the content (three actions, the destination board, a canteen's gas, the penalty) are read
//! from the `GameDef`. The piece properties they read (`_active`, `_dest`, `rider`, a trip's
//! `stars` and `gas`) are the state every seat's view shows.
//!
//! Not stated as a one-step check: CS-S1 (the white and red dice each show 1 to 6 evenly: a
//! property of many rolls, not of one step; every rolled cell lying on the 6x6 board is
//! checked by CS-S5's oracle). Every other rule ID has at least one oracle below.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use farebox::state::State;
use farebox::value::Value;

use farebox::game::Game;

use crate::oracles::{Oracle, Plan, Step, Verdict, all, check};

const N: usize = 0;
const E: usize = 1;
const S: usize = 2;
const W: usize = 3;
const SIDE: [&str; 4] = ["N", "E", "S", "W"];

/// The roads of each road tile kind, unturned, as the rule list describes them: (from, to,
/// both ways). A lone side (from == to) is a dead-end stub entered and left by that side.
fn rule_roads(kind: &str) -> &'static [(usize, usize, bool)] {
    const ALL_WAYS: &[(usize, usize, bool)] = &[
        (N, S, true),
        (E, W, true),
        (N, E, true),
        (E, S, true),
        (S, W, true),
        (W, N, true),
    ];
    match kind {
        "cs-t1" | "cs-t2" => ALL_WAYS, // CS-T1, CS-T2: every side
        "cs-t3" => &[(W, E, true), (W, S, true), (E, S, true)], // CS-T3: three sides
        "cs-t4" => &[(N, S, true)],    // CS-T4: opposite ends
        "cs-t5" => &[(N, S, false), (W, E, false)], // CS-T5: arrows only
        "cs-t6" => &[(S, N, false)],   // CS-T6: one arrow
        "cs-t7" => &[(S, S, false)],   // CS-T7: a cul-de-sac
        "cs-t8" => &[(S, E, true)],    // CS-T8: neighbouring sides
        _ => &[],
    }
}

/// `links[from]`: the sides (bits) a vehicle entering by `from` may leave by, turned `rot`
/// quarter turns clockwise.
fn rule_links(kind: &str, rot: u8) -> [u8; 4] {
    let mut l = [0u8; 4];
    let t = |s: usize| (s + rot as usize) % 4;
    for &(a, b, both) in rule_roads(kind) {
        l[t(a)] |= 1 << t(b);
        if both {
            l[t(b)] |= 1 << t(a);
        }
    }
    l
}

fn is_road(kind: &str) -> bool {
    !rule_roads(kind).is_empty()
}

/// The rotations of a tile that lie differently (one when the content says it never turns).
fn rotations(kind: &str, rotatable: bool) -> Vec<u8> {
    if !rotatable {
        return vec![0];
    }
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for r in 0..4u8 {
        let l = rule_links(kind, r);
        if !seen.contains(&l) {
            seen.push(l);
            out.push(r);
        }
    }
    out
}

/// What a state holds, read the Curbside way.
struct Cs<'a> {
    st: &'a Step<'a>,
    s: &'a State,
}

#[derive(Clone, Copy, Debug)]
struct Fare {
    /// 1-based, as actions name them ("p2", "d2").
    i: usize,
    piece: usize,
    dest: usize,
}

impl<'a> Cs<'a> {
    fn new(st: &'a Step<'a>, s: &'a State) -> Cs<'a> {
        Cs { st, s }
    }
    fn cells(&self) -> u32 {
        self.s.board.grid.as_ref().map_or(0, |g| g.width * g.height)
    }
    fn xy(&self, c: u32) -> (i64, i64) {
        self.s.board.xy(c).unwrap_or((0, 0))
    }
    fn name(&self, c: u32) -> String {
        let (x, y) = self.xy(c);
        format!("{x},{y}")
    }
    fn parse(&self, w: &str) -> Option<u32> {
        let (x, y) = w.split_once(',')?;
        self.s.board.cell(x.parse().ok()?, y.parse().ok()?)
    }
    fn neighbor(&self, c: u32, side: usize) -> Option<u32> {
        let (x, y) = self.xy(c);
        let (dx, dy) = [(0, -1), (1, 0), (0, 1), (-1, 0)][side];
        self.s.board.cell(x + dx, y + dy)
    }
    fn kind_of(&self, p: Option<farebox::board::Placed>) -> Option<&'a str> {
        p.map(|p| self.st.def.tiles[p.tile as usize].id.as_str())
    }
    fn tile(&self, c: u32) -> Option<(&'a str, u8)> {
        let p = self.s.board.tile_at(c)?;
        Some((self.kind_of(Some(p))?, p.rot))
    }
    fn blocker(&self, c: u32) -> Option<&'a str> {
        self.kind_of(self.s.board.blocker_at(c))
    }
    fn links(&self, c: u32) -> [u8; 4] {
        if self.blocker(c).is_some() {
            return [0; 4];
        }
        self.tile(c).map_or([0; 4], |(k, r)| rule_links(k, r))
    }
    fn exits(&self, c: u32) -> u8 {
        self.links(c).iter().fold(0, |a, m| a | m)
    }
    /// The next cell out of `c` by `side`, if the roads of both tiles join there.
    fn step(&self, c: u32, side: usize) -> Option<u32> {
        if self.exits(c) & (1 << side) == 0 {
            return None;
        }
        let n = self.neighbor(c, side)?;
        (self.links(n)[(side + 2) % 4] != 0).then_some(n)
    }
    /// A straight drive out of `c` by `side` (CS-A5): it stops after `max` cells, on a stop
    /// cell, on an all-way stop (CS-T2) or where the road does not run straight on.
    fn ray(&self, c: u32, side: usize, max: i64, stops: &BTreeSet<u32>) -> Vec<u32> {
        let mut out = Vec::new();
        let mut at = c;
        while (out.len() as i64) < max {
            let Some(n) = self.step(at, side) else { break };
            out.push(n);
            let through = self.links(n)[(side + 2) % 4] & (1 << side) != 0;
            if self.tile(n).is_some_and(|(k, _)| k == "cs-t2") || stops.contains(&n) || !through {
                break;
            }
            at = n;
        }
        out
    }
    fn pieces(&self, kind: &str) -> Vec<usize> {
        let d = self.st.def.piece(kind).unwrap_or(usize::MAX);
        (0..self.s.pieces.len())
            .filter(|&i| self.s.pieces[i].def as usize == d)
            .collect()
    }
    fn at(&self, piece: usize) -> Option<u32> {
        self.s.pieces[piece].at
    }
    fn prop(&self, piece: usize, k: &str) -> Option<&'a Value> {
        self.s.pieces[piece].props.get(k)
    }
    fn int(&self, piece: usize, k: &str) -> Option<i64> {
        self.prop(piece, k).and_then(Value::as_int)
    }
    fn taxi(&self, seat: u8) -> usize {
        self.pieces("taxi")[seat as usize]
    }
    fn taxi_at(&self, seat: u8) -> Option<u32> {
        self.at(self.taxi(seat))
    }
    fn taxi_cells(&self) -> BTreeSet<u32> {
        (0..self.st.seats).filter_map(|s| self.taxi_at(s)).collect()
    }
    fn fares(&self) -> Vec<Fare> {
        self.pieces("passenger")
            .into_iter()
            .filter(|&p| self.prop(p, "_active") == Some(&Value::Bool(true)))
            .enumerate()
            .map(|(i, p)| Fare {
                i: i + 1,
                piece: p,
                dest: self.int(p, "_dest").map_or(usize::MAX, |h| h as usize - 1),
            })
            .collect()
    }
    fn rider(&self, f: Fare) -> Option<u8> {
        self.int(f.piece, "rider").map(|r| r as u8 - 1)
    }
    fn carried(&self, seat: u8) -> Vec<Fare> {
        self.fares()
            .into_iter()
            .filter(|f| self.rider(*f) == Some(seat))
            .collect()
    }
    fn waiting(&self) -> BTreeMap<u32, Fare> {
        self.fares()
            .into_iter()
            .filter_map(|f| Some((self.at(f.piece)?, f)))
            .collect()
    }
    fn dests(&self) -> BTreeMap<u32, Fare> {
        self.fares()
            .into_iter()
            .filter_map(|f| Some((self.at(f.dest)?, f)))
            .collect()
    }
    /// Where a drive of `seat` must stop (CS-A7): its fare's destination, or else the waiting
    /// passengers.
    fn stops(&self, seat: u8) -> BTreeSet<u32> {
        match self.carried(seat).first() {
            Some(f) => self.at(f.dest).into_iter().collect(),
            None => self.waiting().keys().copied().collect(),
        }
    }
    fn gas(&self, seat: u8) -> i64 {
        self.st.counter(self.s, "gas", Some(seat))
    }
    fn stars(&self, seat: u8) -> i64 {
        self.st.counter(self.s, "stars", Some(seat))
    }
    fn hand(&self, seat: u8) -> &'a [farebox::state::CardRef] {
        self.st.zone(self.s, "hand", Some(seat))
    }
    /// The tile kind a card shows (its `tile` field).
    fn card_tile(&self, c: farebox::state::CardRef) -> &'a str {
        self.st.def.decks[c.deck as usize].cards[c.card as usize]
            .fields
            .get("tile")
            .and_then(Value::as_str)
            .unwrap_or("")
    }
    fn hand_kinds(&self, seat: u8) -> BTreeSet<&'a str> {
        self.hand(seat).iter().map(|c| self.card_tile(*c)).collect()
    }
    fn rotatable(&self, kind: &str) -> bool {
        self.st
            .def
            .tile(kind)
            .is_some_and(|t| self.st.def.tiles[t].rotatable)
    }
    /// CS-E2's designed measure: road steps to the carried fare's destination; 100 plus the
    /// straight-line distance with no road; 1000 with no fare.
    fn closeness(&self, seat: u8) -> i64 {
        let Some(f) = self.carried(seat).first().copied() else {
            return 1000;
        };
        let (Some(from), Some(to)) = (self.taxi_at(seat), self.at(f.dest)) else {
            return 1000;
        };
        let mut dist = vec![i64::MAX; self.cells() as usize];
        dist[from as usize] = 0;
        let mut q = VecDeque::from([from]);
        while let Some(c) = q.pop_front() {
            for side in 0..4 {
                if let Some(n) = self.step(c, side)
                    && dist[n as usize] == i64::MAX
                {
                    dist[n as usize] = dist[c as usize] + 1;
                    q.push_back(n);
                }
            }
        }
        if dist[to as usize] != i64::MAX {
            return dist[to as usize];
        }
        let ((ax, ay), (bx, by)) = (self.xy(from), self.xy(to));
        100 + (ax - bx).abs() + (ay - by).abs()
    }
}

fn constant(st: &Step, name: &str) -> i64 {
    st.def
        .constants
        .get(name)
        .and_then(Value::as_int)
        .unwrap_or(i64::MIN)
}

fn option(st: &Step, id: &str) -> i64 {
    st.option(id)
        .and_then(Value::as_int)
        .or_else(|| st.def.option(id).and_then(|o| o.default.as_int()))
        .unwrap_or(i64::MIN)
}

/// The destination board's (stars, gas) for a trip between two cells (CS-D1).
fn price(cs: &Cs, a: u32, b: u32) -> Option<(i64, i64)> {
    let ((ax, ay), (bx, by)) = (cs.xy(a), cs.xy(b));
    let size = (ax - bx).abs().max((ay - by).abs()) + 1;
    let t = cs.st.def.table("destinations")?;
    let row = cs.st.def.tables[t].lookup(&Value::Int(size))?;
    Some((row.get("stars")?.as_int()?, row.get("gas")?.as_int()?))
}

fn words(a: &str) -> Vec<&str> {
    a.split(' ').collect()
}

/// A drive: (side, cells in order) as the action names it, or None for another action.
fn drive(cs: &Cs, actor: u8, action: &str) -> Option<(usize, Vec<u32>)> {
    let w = words(action);
    if w.first() != Some(&"move") {
        return None;
    }
    let side = SIDE.iter().position(|s| Some(s) == w.get(1))?;
    let k: usize = w.get(2)?.parse().ok()?;
    let mut cells = Vec::new();
    let mut at = cs.taxi_at(actor)?;
    for _ in 0..k {
        at = cs.neighbor(at, side)?;
        cells.push(at);
    }
    Some((side, cells))
}

/// The fare the actor dropped off at this step: (fare, its stars and gas as priced before).
fn drop_off(st: &Step) -> Option<(Fare, i64, i64)> {
    let (b, a) = (Cs::new(st, st.before), Cs::new(st, st.after));
    let f = *b.carried(st.actor).first()?;
    if a.rider(f).is_some() || !st.action.starts_with("move ") {
        return None;
    }
    Some((f, b.int(f.piece, "stars")?, b.int(f.piece, "gas")?))
}

/// A pick-up at this step.
fn pick_up(st: &Step) -> Option<Fare> {
    let (b, a) = (Cs::new(st, st.before), Cs::new(st, st.after));
    b.fares()
        .into_iter()
        .find(|f| b.rider(*f).is_none() && a.rider(*f) == Some(st.actor))
}

fn turn_passed(st: &Step) -> bool {
    st.after.turn > st.before.turn && !st.ended()
}

/// The seat whose action put the blocker of `kind` on `cell` (as it stands before this step),
/// found by going back through the game: None if it was there from the start.
fn placed_by(st: &Step, cell: u32, kind: &str) -> Option<u8> {
    let has = |s: &State| Cs::new(st, s).blocker(cell) == Some(kind);
    for k in (0..st.index).rev() {
        let after = if k + 1 < st.index {
            &st.earlier[k + 1].before
        } else {
            st.before
        };
        if has(after) && !has(&st.earlier[k].before) {
            return Some(st.earlier[k].actor);
        }
    }
    None
}

fn set_diff<T: Ord + Clone + std::fmt::Debug>(
    want: &BTreeSet<T>,
    got: &BTreeSet<T>,
) -> Option<String> {
    let missing: Vec<_> = want.difference(got).cloned().collect();
    let extra: Vec<_> = got.difference(want).cloned().collect();
    if missing.is_empty() && extra.is_empty() {
        return None;
    }
    Some(format!(
        "not offered: {missing:?}; offered but not allowed: {extra:?}"
    ))
}

fn offered_with<'b>(st: &'b Step, kind: &str) -> BTreeSet<&'b str> {
    st.offered
        .iter()
        .filter(|a| a.split(' ').next() == Some(kind))
        .map(String::as_str)
        .collect()
}

/// The drives the rules allow the actor before this step (CS-A5, CS-A6, CS-R5, CS-A7).
fn allowed_drives(st: &Step) -> BTreeMap<String, Vec<u32>> {
    let cs = Cs::new(st, st.before);
    let mut out = BTreeMap::new();
    let Some(here) = cs.taxi_at(st.actor) else {
        return out;
    };
    let stops = cs.stops(st.actor);
    for (side, name) in SIDE.iter().enumerate() {
        let cells = cs.ray(here, side, cs.gas(st.actor), &stops);
        for k in 1..=cells.len() {
            out.insert(format!("move {name} {k}"), cells[..k].to_vec());
        }
    }
    out
}

/// The empty cells a road tile could go on and the sides a tile there must let the taxi in by
/// (CS-A2): every empty cell beside the taxi (any side), and cells the taxi could drive onto
/// with the drives left after placing and the gas in its tank.
fn placements(st: &Step) -> BTreeMap<u32, u8> {
    let cs = Cs::new(st, st.before);
    let mut out = BTreeMap::new();
    let Some(here) = cs.taxi_at(st.actor) else {
        return out;
    };
    let empty = |c: u32| cs.tile(c).is_none() && cs.blocker(c).is_none();
    let left = st.counter(st.before, "actions", None);
    let gas = cs.gas(st.actor);
    let stops = cs.stops(st.actor);
    if left >= 2 {
        let mut used = vec![i64::MAX; cs.cells() as usize];
        used[here as usize] = 0;
        let mut frontier = vec![(here, 0i64)];
        for _ in 0..left - 1 {
            let mut next = Vec::new();
            for &(c, u) in &frontier {
                let budget = gas - u;
                if budget <= 0 {
                    continue;
                }
                for side in 0..4 {
                    if cs.exits(c) & (1 << side) == 0 {
                        continue;
                    }
                    let cells = cs.ray(c, side, budget, &stops);
                    // A new drive out of c into an empty cell, or one running on into it.
                    let (from, k) = match cells.last() {
                        None => (Some(c), 0),
                        Some(&last) => {
                            let k = cells.len() as i64;
                            let on = cs.links(last)[(side + 2) % 4] & (1 << side) != 0
                                && cs.tile(last).is_none_or(|(t, _)| t != "cs-t2")
                                && !stops.contains(&last);
                            (on.then_some(last), k)
                        }
                    };
                    if let Some(f) = from
                        && k < budget
                        && let Some(n) = cs.neighbor(f, side)
                        && empty(n)
                    {
                        *out.entry(n).or_insert(0) |= 1 << ((side + 2) % 4);
                    }
                    for (i, r) in cells.into_iter().enumerate() {
                        let passed = u + i as i64 + 1;
                        if passed < used[r as usize] {
                            used[r as usize] = passed;
                            next.push((r, passed));
                        }
                    }
                }
            }
            frontier = next;
        }
    }
    for side in 0..4 {
        if let Some(n) = cs.neighbor(here, side)
            && empty(n)
        {
            out.insert(n, 0xF0);
        }
    }
    out
}

fn fail(msg: String) -> Verdict {
    Verdict::Fail(msg)
}

/// Curbside's oracles, in rule-list order.
pub fn oracles() -> Vec<Oracle> {
    let mut v = vec![
        // ---- setup: judged on the state before the first action of an unforced game
        Oracle::new(
            "CS-S2",
            "every taxi starts in its own corner on a crossroads",
            |st| {
                if st.index != 0 || st.forced {
                    return Verdict::Skip;
                }
                let cs = Cs::new(st, st.before);
                all((0..st.seats).map(|s| {
                    let corner = st.before.board.graph.find(&format!("start-{}", s + 1));
                    let at = cs.taxi_at(s);
                    check(
                        at.is_some()
                            && at == corner
                            && at.and_then(|c| cs.tile(c)).is_some_and(|t| t.0 == "cs-t1"),
                        || {
                            format!(
                                "seat {} starts on {:?} ({:?}), not its corner's crossroads",
                                s + 1,
                                at.map(|c| cs.name(c)),
                                at.and_then(|c| cs.tile(c))
                            )
                        },
                    )
                }))
            },
        ),
        Oracle::new(
            "CS-S3",
            "gas starts at the option's value and stars at zero",
            |st| {
                if st.index != 0 || st.forced {
                    return Verdict::Skip;
                }
                let cs = Cs::new(st, st.before);
                let gas = option(st, "starting-gas");
                all((0..st.seats).map(|s| {
                    check(cs.gas(s) == gas && cs.stars(s) == 0, || {
                        format!(
                            "seat {} starts with {} gas and {} stars (the option says {gas} gas)",
                            s + 1,
                            cs.gas(s),
                            cs.stars(s)
                        )
                    })
                }))
            },
        ),
        Oracle::new(
            "CS-S4",
            "one passenger more than there are players, each with a destination",
            |st| {
                if st.index != 0 || st.forced {
                    return Verdict::Skip;
                }
                let cs = Cs::new(st, st.before);
                let want = st.seats as usize + constant(st, "extra_passengers") as usize;
                let placed = cs
                    .fares()
                    .iter()
                    .filter(|f| cs.at(f.piece).is_some() && cs.at(f.dest).is_some())
                    .count();
                check(cs.fares().len() == want && placed == want, || {
                    format!(
                        "{} passengers in play, {placed} of them placed with a destination; {want} wanted",
                        cs.fares().len()
                    )
                })
            },
        ),
        Oracle::new(
            "CS-S5",
            "a rolled passenger or destination lands on a free cell, apart from its partner",
            |st| {
                let (b, a) = (Cs::new(st, st.before), Cs::new(st, st.after));
                let first = st.index == 0 && !st.forced;
                let taxis = a.taxi_cells();
                let mut verdicts = vec![];
                for f in a.fares() {
                    for (piece, partner, what) in [
                        (f.piece, f.dest, "passenger"),
                        (f.dest, f.piece, "destination"),
                    ] {
                        let now = a.at(piece);
                        let rolled = if first {
                            b.at(piece)
                        } else {
                            now.filter(|c| b.at(piece) != Some(*c))
                        };
                        let Some(cell) = rolled else { continue };
                        let s = if first { st.before } else { st.after };
                        let cs = Cs::new(st, s);
                        let others = cs
                            .fares()
                            .into_iter()
                            .filter(|g| g.i != f.i)
                            .flat_map(|g| [cs.at(g.piece), cs.at(g.dest)])
                            .flatten()
                            .any(|c| c == cell);
                        let on_taxi = if first {
                            cs.taxi_cells().contains(&cell)
                        } else {
                            taxis.contains(&cell)
                        };
                        let ok = cell < cs.cells()
                            && !on_taxi
                            && !others
                            && cs.blocker(cell).is_none()
                            && cs.at(partner) != Some(cell);
                        verdicts.push(check(ok, || format!("the {what} of fare {} was rolled onto {}, which holds a taxi, another marker, a blocker or its partner", f.i, cs.name(cell))));
                    }
                }
                all(verdicts)
            },
        ),
        Oracle::new(
            "CS-S6",
            "a trip is priced as soon as it is placed, on both its pieces",
            |st| {
                let (b, a) = (Cs::new(st, st.before), Cs::new(st, st.after));
                all(a.fares().into_iter().filter(|f| a.at(f.piece).is_some() && (a.at(f.piece) != b.at(f.piece) || a.at(f.dest) != b.at(f.dest) || st.index == 0)).map(|f| {
                let (Some(p), Some(d)) = (a.at(f.piece), a.at(f.dest)) else { return fail(format!("fare {} has no destination", f.i)) };
                let want = price(&a, p, d);
                let on = |piece| Some((a.int(piece, "stars")?, a.int(piece, "gas")?));
                check(want.is_some() && on(f.piece) == want && on(f.dest) == want, || {
                    format!("fare {} from {} to {} shows {:?} on the passenger and {:?} on the destination; the destination board gives {want:?}", f.i, a.name(p), a.name(d), on(f.piece), on(f.dest))
                })
            }))
            },
        ),
        Oracle::new(
            "CS-S7",
            "a hand starts with three tiles from the deck, no cone, a canteen and a re-route",
            |st| {
                if st.index != 0 || st.forced {
                    return Verdict::Skip;
                }
                let cs = Cs::new(st, st.before);
                let deck = st.def.deck("road-tiles").unwrap_or(usize::MAX) as u16;
                all((0..st.seats).map(|s| {
                let hand = cs.hand(s);
                let dealt = hand.iter().filter(|c| c.deck == deck).count() as i64;
                let cone = hand.iter().any(|c| cs.card_tile(*c) == "cs-t9");
                let starter = |k: &str| hand.iter().filter(|c| c.deck != deck && cs.card_tile(**c) == k).count();
                check(dealt == constant(st, "starting_hand") && !cone && starter("cs-t10") == 1 && starter("cs-t11") == 1, || {
                    format!("seat {} starts with {dealt} deck tiles (cone: {cone}), {} canteens and {} re-routes", s + 1, starter("cs-t10"), starter("cs-t11"))
                })
            }))
            },
        ),
        Oracle::new(
            "CS-S8",
            "the passenger cards in play are the option's number, none taken",
            |st| {
                if st.index != 0 || st.forced {
                    return Verdict::Skip;
                }
                let n = st.zone(st.before, "dispatch", None).len() as i64;
                let taken: usize = (0..st.seats)
                    .map(|s| st.zone(st.before, "fares", Some(s)).len())
                    .sum();
                check(n == option(st, "passenger-cards") && taken == 0, || {
                    format!("{n} passenger cards to claim and {taken} taken at the start")
                })
            },
        ),
        Oracle::new("CS-S9", "fifty tiles of twelve kinds make the deck", |st| {
            if st.index != 0 || st.forced {
                return Verdict::Skip;
            }
            let Some(d) = st.def.deck("road-tiles") else {
                return fail("no road-tiles deck".into());
            };
            let cards = &st.def.decks[d].cards;
            let total: u32 = cards.iter().map(|c| c.count).sum();
            let kinds: BTreeSet<&str> = cards
                .iter()
                .filter_map(|c| c.fields.get("tile").and_then(Value::as_str))
                .collect();
            let cs = Cs::new(st, st.before);
            let in_play = st.zone(st.before, "deck", None).len()
                + (0..st.seats)
                    .map(|s| cs.hand(s).iter().filter(|c| c.deck as usize == d).count())
                    .sum::<usize>();
            check(total == 50 && kinds.len() == 12 && in_play == 50, || {
                format!(
                    "the deck has {total} tiles of {} kinds, {in_play} of them in the deck and hands",
                    kinds.len()
                )
            })
        }),
    ];
    // ---- tiles: a drive taken over a tile of each kind follows that kind's road
    for (rule, kind, name) in [
        ("CS-T1", "cs-t1", "a drive over a crossroads may go any way"),
        ("CS-T2", "cs-t2", "a drive ends on entering an all-way stop"),
        (
            "CS-T3",
            "cs-t3",
            "a drive over a T-junction uses its three open sides",
        ),
        ("CS-T4", "cs-t4", "a drive over a straight runs end to end"),
        (
            "CS-T5",
            "cs-t5",
            "a drive over a one-way crossing follows its arrows",
        ),
        (
            "CS-T6",
            "cs-t6",
            "a drive over a one-way street follows its arrow",
        ),
        (
            "CS-T7",
            "cs-t7",
            "a broken road is entered and left by its one side",
        ),
        (
            "CS-T8",
            "cs-t8",
            "a drive over a bend enters or leaves by its two sides",
        ),
    ] {
        v.push(Oracle::new(rule, name, move |st| {
            path_verdict(st, Some(kind))
        }));
    }
    v.extend(more_oracles());
    v
}

/// Whether the drive taken at this step follows the roads (over tiles of `kind` only, or all).
fn path_verdict(st: &Step, kind: Option<&str>) -> Verdict {
    let cs = Cs::new(st, st.before);
    let Some((side, cells)) = drive(&cs, st.actor, st.action) else {
        return Verdict::Skip;
    };
    let Some(start) = cs.taxi_at(st.actor) else {
        return Verdict::Skip;
    };
    let mut judged = false;
    let opp = (side + 2) % 4;
    let mine = |c: u32| kind.is_none_or(|k| cs.tile(c).is_some_and(|t| t.0 == k));
    if mine(start) {
        judged = true;
        if cs.exits(start) & (1 << side) == 0 {
            return fail(format!(
                "the taxi left {} ({:?}) by its {} side, which has no road out",
                cs.name(start),
                cs.tile(start),
                SIDE[side]
            ));
        }
    }
    for (i, &c) in cells.iter().enumerate() {
        let last = i + 1 == cells.len();
        if !mine(c) && cs.tile(c).is_some() {
            continue;
        }
        judged = true;
        let l = cs.links(c);
        if l[opp] == 0 {
            return fail(format!(
                "the drive entered {} ({:?}, blocked: {}) by its {} side, where no road comes in",
                cs.name(c),
                cs.tile(c),
                cs.blocker(c).is_some(),
                SIDE[opp]
            ));
        }
        if !last && l[opp] & (1 << side) == 0 {
            return fail(format!(
                "the drive ran straight through {} ({:?}), whose road does not go straight on",
                cs.name(c),
                cs.tile(c)
            ));
        }
        if !last && cs.tile(c).is_some_and(|t| t.0 == "cs-t2") {
            return fail(format!(
                "the drive ran through the all-way stop at {}",
                cs.name(c)
            ));
        }
    }
    if judged { Verdict::Pass } else { Verdict::Skip }
}

/// The games the oracles judge, with `n` seeds of each kind: random players and the Dispatcher,
/// two to four seats, short tanks, one passenger card, the deck near its end, and one stalled
/// game tied on stars and gas.
pub fn plans(n: u64) -> Vec<Plan> {
    let mut out = Vec::new();
    for seed in 0..n {
        out.push(Plan::new(seed, &["random", "random"]));
        out.push(Plan::new(
            100 + seed,
            &["dispatcher", "random", "dispatcher"],
        ));
        out.push(Plan::new(
            200 + seed,
            &["random", "dispatcher", "random", "random"],
        ));
        out.push(Plan::new(300 + seed, &["dispatcher", "dispatcher"]).option("starting-gas", 4));
        out.push(Plan::new(400 + seed, &["dispatcher", "dispatcher"]).option("passenger-cards", 1));
        out.push(Plan::new(500 + seed, &["random", "random", "random"]).prepare(last_tiles));
    }
    out.push(Plan::new(600, &["random", "random", "random"]).prepare(stalled_tie));
    out
}

/// The deck down to its last two tiles (the rest dealt into the hands, cones left in the
/// deck), so the last tile is drawn and the deck runs empty.
fn last_tiles(g: &mut Game) {
    g.eval(
        r#"
        local deck = game.zone("deck")
        local s = 1
        for _ = 1, 200 do
          if game.count(deck) <= 2 then break end
          local hand = game.zone("hand", s)
          local card = game.move_card(deck, hand)
          if card == "cs-t9" then game.take_card(hand, card, deck, "bottom") end
          s = s % game.seats() + 1
        end
        "#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
}

/// No taxi can ever move (a blocker nobody lifts under each), nobody can gain gas (no
/// canteens), and seat 1 carries a fare: the game stalls with every seat tied on stars and
/// gas, seat 1 nearest a drop-off and the others tied for second place.
fn stalled_tie(g: &mut Game) {
    g.eval(
        r#"
        local used = game.zone("used")
        for s = 1, game.seats() do
          game.set_blocker(game.where_is(game.pieces("taxi", s)[1]), "cs-t12")
          local hand = game.zone("hand", s)
          while game.take_card(hand, "start-canteen", used) do end
          while game.take_card(hand, "cs-t10", used) do end
        end
        while game.take_card(game.zone("deck"), "cs-t10", used) do end
        local p = game.pieces("passenger")[1]
        game.move_piece(p, nil)
        game.set_prop(p, "rider", 1)
        "#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
}

#[path = "curbside_oracles_turn.rs"]
mod turn;
use turn::more_oracles;

#[path = "curbside_house_oracles.rs"]
mod house;
pub use house::{gas_station_oracles, gas_station_plans};
