//! Critter Cab's rule oracles: one or more per rule ID of `mods/critter-cab/RULES.md` that can
//! be stated as a check of one step (see `oracles.rs` for the framework).
//!
//! They never ask the rules script: the moves a cab may make are worked out here from the board
//! graph in the state (every space a walk of exactly the card's number of steps can end on,
//! over untagged roads and the tagged edges the taxi card lists), who a drop-off pays and what
//! a chance card does to the purses are worked out from the cards' fields in the `GameDef`, and
//! the stand a fare was picked up on is read off the earlier steps (where the cab stood when
//! the card got in). The numbers the rule list gives (three movement cards, one drive a turn,
//! two with a Green Wave) are written here; numbers it leaves to the content (a card's fare,
//! the Limousine's bonus, a taxi's seats, a turn's minutes) come from the `GameDef`.
//!
//! Not stated as a one-step check: CC-S4 (the spaces and links drawn in TOML: a property of
//! the content the loader and the scenario tests check, not of a step; every move judged here
//! is worked out over that board). CC-S2's shuffling is a property of many deals; its oracle
//! judges that each pile only ever holds its own deck's cards.

use std::collections::BTreeSet;

use farebox::game::Game;
use farebox::state::State;
use farebox::value::Value;

use crate::oracles::{Oracle, Plan, Step, Verdict, all, check};

/// The rule list's numbers (CC-S1, CC-T4).
const HAND: usize = 3;
const DRIVES_A_TURN: usize = 1;

const PILES: [(&str, &str); 6] = [
    ("passenger-deck", "passengers"),
    ("passenger-discard", "passengers"),
    ("movement-deck", "movement"),
    ("movement-discard", "movement"),
    ("chance-deck", "chance"),
    ("chance-discard", "chance"),
];

fn field<'a>(st: &'a Step, card: &str, deck: &str, f: &str) -> Option<&'a Value> {
    let d = st.def.deck(deck)?;
    st.def.decks[d]
        .cards
        .iter()
        .find(|c| c.id == card)?
        .fields
        .get(f)
}
fn int_of(st: &Step, card: &str, deck: &str, f: &str) -> i64 {
    field(st, card, deck, f)
        .and_then(Value::as_int)
        .unwrap_or(0)
}
fn str_of<'a>(st: &'a Step, card: &str, deck: &str, f: &str) -> &'a str {
    field(st, card, deck, f)
        .and_then(Value::as_str)
        .unwrap_or("")
}
fn strings_of(st: &Step, card: &str, deck: &str, f: &str) -> Vec<String> {
    match field(st, card, deck, f) {
        Some(Value::List(l)) => l
            .iter()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect(),
        _ => vec![],
    }
}
fn name_of<'a>(st: &'a Step, card: &str, deck: &str) -> &'a str {
    st.def
        .deck(deck)
        .and_then(|d| st.def.decks[d].cards.iter().find(|c| c.id == card))
        .map_or("", |c| c.name.as_str())
}
fn constant<'a>(st: &'a Step, id: &str) -> Option<&'a Value> {
    st.def.constants.get(id)
}

/// The ids of the cards in a zone.
fn ids(st: &Step, s: &State, zone: &str, seat: Option<u8>) -> Vec<String> {
    st.zone(s, zone, seat)
        .iter()
        .map(|c| st.card(*c).id.clone())
        .collect()
}
/// `a` less `b`, as multisets.
fn minus(a: &[String], b: &[String]) -> Vec<String> {
    let mut left: Vec<String> = a.to_vec();
    for x in b {
        if let Some(i) = left.iter().position(|y| y == x) {
            left.remove(i);
        }
    }
    left
}
fn phase(s: &State) -> String {
    s.vars
        .get("_phase")
        .and_then(|v| v.value.as_str().map(str::to_string))
        .unwrap_or_default()
}
fn cab(st: &Step, s: &State, seat: u8) -> Option<u32> {
    let d = st.def.piece("cab")? as u16;
    s.pieces
        .iter()
        .find(|p| p.def == d && p.owner == Some(seat))?
        .at
}
fn space_id(s: &State, sp: u32) -> &str {
    s.board
        .graph
        .spaces
        .get(sp as usize)
        .map_or("", |x| x.id.as_str())
}
fn space_named(s: &State, id: &str) -> Option<u32> {
    s.board.graph.find(id)
}
fn tagged(st: &Step, s: &State, sp: u32, tag_constant: &str) -> bool {
    let tag = constant(st, tag_constant)
        .and_then(Value::as_str)
        .unwrap_or("");
    s.board
        .graph
        .spaces
        .get(sp as usize)
        .is_some_and(|x| x.tags.iter().any(|t| t == tag))
}
fn stands(st: &Step, s: &State) -> Vec<u32> {
    (0..s.board.graph.spaces.len() as u32)
        .filter(|&sp| tagged(st, s, sp, "stand_tag"))
        .collect()
}
fn taxi(st: &Step, s: &State, seat: u8) -> Option<String> {
    ids(st, s, "taxi", Some(seat)).into_iter().next()
}
/// The tagged edges a taxi may use: the tags its card lists (CC-X1, CC-X4, CC-X5).
fn edge_tags(st: &Step, s: &State, seat: u8) -> Vec<String> {
    taxi(st, s, seat).map_or(vec![], |t| strings_of(st, &t, "taxis", "edge_tags"))
}
fn capacity(st: &Step, s: &State, seat: u8) -> i64 {
    taxi(st, s, seat).map_or(0, |t| int_of(st, &t, "taxis", "capacity"))
}
fn seats_taken(st: &Step, s: &State, seat: u8) -> i64 {
    ids(st, s, "riding", Some(seat))
        .iter()
        .map(|c| int_of(st, c, "passengers", "passengers"))
        .sum()
}

/// Every space a walk of exactly `k` steps from `from` can end on (turning back allowed, as
/// the content's `moves_may_backtrack` says), over untagged edges and those tagged `tags`.
fn ends(s: &State, from: u32, k: i64, tags: &[String]) -> BTreeSet<u32> {
    let mut set = BTreeSet::from([from]);
    for _ in 0..k {
        set = set
            .iter()
            .flat_map(|&sp| s.board.neighbors(sp, tags))
            .collect();
    }
    set
}

/// The space a cab stood on when `card` got into `seat`'s taxi: the first state of the run of
/// states, back from `s` (the state before this step), in which it rides.
fn pickup(st: &Step, seat: u8, card: &str) -> Option<u32> {
    let states = std::iter::once(st.before).chain(st.earlier.iter().rev().map(|e| &e.before));
    let mut first = None;
    for s in states {
        if ids(st, s, "riding", Some(seat)).iter().any(|c| c == card) {
            first = Some(s);
        } else {
            break;
        }
    }
    cab(st, first?, seat)
}
/// The stands `card` may still be taken to: both of its destinations, less the one it was
/// picked up on (CC-T6).
fn targets(st: &Step, seat: u8, card: &str) -> Vec<u32> {
    let from = pickup(st, seat, card);
    strings_of(st, card, "passengers", "destinations")
        .iter()
        .filter_map(|d| space_named(st.before, d))
        .filter(|&d| Some(d) != from)
        .collect()
}

/// The action's words.
fn words<'a>(st: &Step<'a>) -> Vec<&'a str> {
    st.action.split(' ').collect()
}
/// Where a move (drive, brake, bet) ends, if the action is one.
fn move_end(st: &Step) -> Option<u32> {
    let w = words(st);
    let id = match w.first().copied()? {
        "drive" => w.get(2)?,
        "brake" => w.get(3)?,
        "bet" => w.get(2)?,
        _ => return None,
    };
    space_named(st.before, id)
}
fn turn_passed(st: &Step) -> bool {
    st.after.turn != st.before.turn
}
/// The actor's turn ended at this step (the next began, or the game ended).
fn turn_ended(st: &Step) -> bool {
    turn_passed(st) || st.ended()
}
fn lines_with<'a>(st: &'a Step, text: &'a str) -> impl Iterator<Item = (usize, &'a str)> + 'a {
    st.lines
        .iter()
        .enumerate()
        .filter(move |(_, l)| l.text.contains(text))
        .map(|(i, l)| (i, &*l.text))
}
fn rebuilt(st: &Step, pile: &str) -> Option<usize> {
    let name = st
        .def
        .zone(pile)
        .map_or(String::new(), |z| st.def.zones[z].name.clone());
    lines_with(st, "its discards are shuffled")
        .find(|(_, l)| l.contains(&name))
        .map(|(i, _)| i)
}
fn coins(st: &Step, s: &State, seat: u8) -> i64 {
    st.counter(s, "coins", Some(seat))
}
fn skips(st: &Step, s: &State, seat: u8) -> i64 {
    if st.def.counter("skip-turns").is_none() {
        return 0;
    }
    st.counter(s, "skip-turns", Some(seat))
}
fn ended_by_run_out(st: &Step) -> bool {
    st.after
        .result
        .as_ref()
        .is_some_and(|r| r.reason.contains("passenger"))
}
fn ended_by_limit(st: &Step) -> bool {
    st.ended() && !ended_by_run_out(st)
}
fn clock_mode(st: &Step) -> bool {
    st.option("limit").and_then(Value::as_str) == Some("clock")
}
fn opt(st: &Step, id: &str) -> i64 {
    st.option(id).and_then(Value::as_int).unwrap_or(0)
}

/// The cards delivered at this step (into the actor's delivered pile).
fn delivered_now(st: &Step) -> Vec<String> {
    minus(
        &ids(st, st.after, "delivered", Some(st.actor)),
        &ids(st, st.before, "delivered", Some(st.actor)),
    )
}
/// The cards a move ending on `end` must drop off (CC-T6, CC-T7).
fn due(st: &Step, end: u32) -> Vec<String> {
    ids(st, st.before, "riding", Some(st.actor))
        .into_iter()
        .filter(|c| targets(st, st.actor, c).contains(&end))
        .collect()
}
/// The chance card drawn at this step, when the deck was not rebuilt.
fn chance_drawn(st: &Step) -> Option<String> {
    let gone = minus(
        &ids(st, st.before, "chance-deck", None),
        &ids(st, st.after, "chance-deck", None),
    );
    (gone.len() == 1).then(|| gone[0].clone())
}

/// What the purses should hold after this step, and what moved them: a drop-off with a VIP
/// bonus, a chance card that pays. None when it cannot be told (a chance deck rebuilt).
struct Purse {
    coins: Vec<i64>,
    vip_bonus: bool,
    chance_pays: bool,
}
fn purse(st: &Step) -> Option<Purse> {
    let mut out: Vec<i64> = (0..st.seats).map(|s| coins(st, st.before, s)).collect();
    let mut p = Purse {
        coins: vec![],
        vip_bonus: false,
        chance_pays: false,
    };
    let me = st.actor as usize;
    if let Some(end) = move_end(st) {
        let drop = due(st, end);
        let bonus =
            taxi(st, st.before, st.actor).map_or(0, |t| int_of(st, &t, "taxis", "vip_bonus"));
        for c in &drop {
            out[me] += int_of(st, c, "passengers", "fare");
            if field(st, c, "passengers", "vip").and_then(Value::as_bool) == Some(true) && bonus > 0
            {
                out[me] += bonus;
                p.vip_bonus = true;
            }
        }
        // Generous Tipper: one kept card played by itself with each drop-off while any is kept.
        let tippers: Vec<String> = ids(st, st.before, "kept-chance", Some(st.actor))
            .into_iter()
            .filter(|c| str_of(st, c, "chance", "effect") == "next-fare-bonus")
            .collect();
        for t in tippers.iter().take(drop.len()) {
            out[me] += int_of(st, t, "chance", "amount");
        }
        if tagged(st, st.before, end, "chance_tag") {
            if rebuilt(st, "chance-deck").is_some() {
                return None;
            }
            if let Some(c) = chance_drawn(st)
                && str_of(st, &c, "chance", "play") == "now"
            {
                let amount = int_of(st, &c, "chance", "amount");
                match str_of(st, &c, "chance", "effect") {
                    "gain-coins" => out[me] += amount,
                    "lose-coins" => out[me] -= amount.min(out[me]),
                    "collect-from-each" => {
                        for s in 0..st.seats as usize {
                            if s != me {
                                let paid = amount.min(out[s]);
                                out[s] -= paid;
                                out[me] += paid;
                            }
                        }
                    }
                    _ => {}
                }
                p.chance_pays = ["gain-coins", "lose-coins", "collect-from-each"]
                    .contains(&str_of(st, &c, "chance", "effect"));
            }
        }
    }
    p.coins = out;
    Some(p)
}
fn purse_verdict(st: &Step, p: &Purse) -> Verdict {
    let now: Vec<i64> = (0..st.seats).map(|s| coins(st, st.after, s)).collect();
    check(now == p.coins, || {
        format!(
            "the purses went from {:?} to {:?}; the drop-offs and chance cards of this step make {:?}",
            (0..st.seats)
                .map(|s| coins(st, st.before, s))
                .collect::<Vec<_>>(),
            now,
            p.coins
        )
    })
}

/// The moves of the last step worked out: (seed, index, state), and the moves.
type KnownMoves = Option<((u64, usize, usize), Option<BTreeSet<String>>)>;

thread_local! {
    /// The moves worked out for the last step judged (several oracles ask for them), by the
    /// step's seed, index and state.
    static MOVES: std::cell::RefCell<KnownMoves> = const { std::cell::RefCell::new(None) };
}

/// The drives, brakes and bets the rules allow the actor now.
fn allowed_moves(st: &Step) -> Option<BTreeSet<String>> {
    let key = (st.seed, st.index, std::ptr::from_ref(st.before) as usize);
    if let Some(known) = MOVES.with(|m| {
        m.borrow()
            .as_ref()
            .filter(|(k, _)| *k == key)
            .map(|(_, v)| v.clone())
    }) {
        return known;
    }
    let moves = work_out_moves(st);
    MOVES.with(|m| *m.borrow_mut() = Some((key, moves.clone())));
    moves
}

fn work_out_moves(st: &Step) -> Option<BTreeSet<String>> {
    let s = st.before;
    let backtrack = constant(st, "moves_may_backtrack").and_then(Value::as_bool);
    if phase(s) != "drive" || backtrack == Some(false) {
        return None;
    }
    let here = cab(st, s, st.actor)?;
    let tags = edge_tags(st, s, st.actor);
    let hand = ids(st, s, "movement-hand", Some(st.actor));
    let kept = ids(st, s, "kept-chance", Some(st.actor));
    let mut out = BTreeSet::new();
    let first_of = |effect: &str| {
        kept.iter()
            .find(|c| str_of(st, c, "chance", "effect") == effect)
            .cloned()
    };
    let brake = first_of("stop-short");
    for card in &hand {
        let k = int_of(st, card, "movement", "moves");
        let full = ends(s, here, k, &tags);
        for &e in &full {
            out.insert(format!("drive {card} {}", space_id(s, e)));
        }
        if let Some(hb) = &brake {
            for j in 1..k {
                for e in ends(s, here, j, &tags) {
                    if !full.contains(&e) {
                        out.insert(format!("brake {card} {hb} {}", space_id(s, e)));
                    }
                }
            }
        }
    }
    if let Some(bet) = first_of("free-moves") {
        for e in ends(s, here, int_of(st, &bet, "chance", "amount"), &tags) {
            out.insert(format!("bet {bet} {}", space_id(s, e)));
        }
    }
    Some(out)
}
fn is_move(a: &str) -> bool {
    a.starts_with("drive ") || a.starts_with("brake ") || a.starts_with("bet ")
}
/// Earlier steps of the actor in this turn (the same turn number).
fn this_turn<'a>(st: &'a Step) -> impl Iterator<Item = &'a crate::oracles::Earlier> + 'a {
    st.earlier
        .iter()
        .rev()
        .take_while(|e| e.before.turn == st.before.turn)
        .filter(|e| e.actor == st.actor)
}

pub fn oracles() -> Vec<Oracle> {
    let mut v = vec![
        // ---- setup
        Oracle::new(
            "CC-S1",
            "two to four seats, each with three movement cards and a taxi card (or one to choose)",
            |st| {
                if st.index != 0 || st.forced {
                    return Verdict::Skip;
                }
                let choose = st.option("taxi-assignment").and_then(Value::as_str) == Some("choose");
                all((0..st.seats).map(|s| {
                    let hand = ids(st, st.before, "movement-hand", Some(s)).len();
                    let taxis = ids(st, st.before, "taxi", Some(s)).len();
                    check(
                        (2..=4).contains(&st.seats)
                            && hand == HAND
                            && taxis == usize::from(!choose),
                        || {
                            format!(
                                "seat {} of {} begins with {hand} movement cards and {taxis} taxi cards",
                                s + 1,
                                st.seats
                            )
                        },
                    )
                }))
            },
        ),
        Oracle::new(
            "CC-S1",
            "taxi cards are chosen from the supply in seat order, one each",
            |st| {
                let w = words(st);
                if w[0] != "taxi" {
                    if phase(st.after) == "choose-taxi" || st.ended() {
                        return Verdict::Skip;
                    }
                    return all((0..st.seats).map(|s| {
                        let n = ids(st, st.after, "taxi", Some(s)).len();
                        check(n == 1, || format!("seat {} drives {n} taxi cards", s + 1))
                    }));
                }
                let had: usize = (0..st.seats)
                    .map(|s| ids(st, st.before, "taxi", Some(s)).len())
                    .sum();
                let supply: BTreeSet<String> = ids(st, st.before, "taxi-supply", None)
                    .into_iter()
                    .map(|c| format!("taxi {c}"))
                    .collect();
                let offered: BTreeSet<String> = st.offered.iter().cloned().collect();
                let mine = ids(st, st.after, "taxi", Some(st.actor));
                check(
                    had == st.actor as usize && offered == supply && mine == vec![w[1].to_string()],
                    || {
                        format!(
                            "seat {} takes a taxi after {had} were taken; offered {offered:?} from a supply of {supply:?}; it drives {mine:?}",
                            st.actor + 1
                        )
                    },
                )
            },
        ),
        Oracle::new("CC-S2", "each pile holds only its own deck's cards", |st| {
            all(PILES.iter().map(|(zone, deck)| {
                let d = st.def.deck(deck).map(|d| d as u16);
                let bad = st
                    .zone(st.after, zone, None)
                    .iter()
                    .find(|c| Some(c.deck) != d);
                check(bad.is_none(), || {
                    format!(
                        "the {zone} holds {}, a card of another deck",
                        bad.map_or(String::new(), |c| st.card(*c).id.clone())
                    )
                })
            }))
        }),
        Oracle::new(
            "CC-S3",
            "the rounds counter counts the rounds played",
            |st| {
                if st.forced || clock_mode(st) || phase(st.before) == "choose-taxi" {
                    return Verdict::Skip;
                }
                let seats = st.seats as u32;
                let r = st.counter(st.after, "rounds", None);
                let played = ((st.after.turn - 1) / seats) as i64;
                let ok = r == played || (ended_by_limit(st) && r == (st.after.turn / seats) as i64);
                check(ok, || {
                    format!(
                        "at turn {} of {} seats the rounds counter shows {r}",
                        st.after.turn, st.seats
                    )
                })
            },
        ),
        Oracle::new(
            "CC-S3",
            "the table clock moves by a turn's minutes for every turn taken, none for one sat out",
            |st| {
                if !clock_mode(st) {
                    return Verdict::Skip;
                }
                let minutes = constant(st, "clock_turn_minutes")
                    .and_then(Value::as_int)
                    .unwrap_or(0);
                let mut begun = (st.after.turn - st.before.turn) as i64;
                if words(st)[0] == "taxi" && phase(st.after) != "choose-taxi" {
                    begun += 1; // the last taxi chosen: the first turn begins
                }
                let sat = lines_with(st, "sits this turn out").count() as i64;
                let moved =
                    st.counter(st.after, "clock", None) - st.counter(st.before, "clock", None);
                check(moved == minutes * (begun - sat), || {
                    format!(
                        "{begun} turns began and {sat} were sat out, and the clock moved {moved} minutes (a turn is {minutes})"
                    )
                })
            },
        ),
        // ---- a turn
        Oracle::new(
            "CC-T1",
            "a cab off the board is offered every stand to start on, and starts there with a fare",
            |st| {
                let here = cab(st, st.before, st.actor);
                let starts: BTreeSet<&String> = st
                    .offered
                    .iter()
                    .filter(|a| a.starts_with("start "))
                    .collect();
                if here.is_some() {
                    return check(starts.is_empty(), || {
                        format!("a cab on the board is offered {starts:?}")
                    });
                }
                if phase(st.before) != "start" {
                    return Verdict::Skip;
                }
                let want: BTreeSet<String> = stands(st, st.before)
                    .iter()
                    .map(|&s| format!("start {}", space_id(st.before, s)))
                    .collect();
                let got: BTreeSet<String> = starts.into_iter().cloned().collect();
                if got != want {
                    return Verdict::Fail(format!(
                        "offered starts {got:?}; the stands are {want:?}"
                    ));
                }
                let at = cab(st, st.after, st.actor).map(|s| space_id(st.after, s).to_string());
                let w = words(st);
                check(
                    at.as_deref() == w.get(1).copied()
                        && (st.ended() || !ids(st, st.after, "riding", Some(st.actor)).is_empty()),
                    || format!("after `{}` the cab is at {at:?} with no fare", st.action),
                )
            },
        ),
        Oracle::new(
            "CC-T2",
            "an empty taxi draws a fare as its turn begins; a taxi with riders draws none",
            |st| {
                if !turn_passed(st) || st.ended() {
                    return Verdict::Skip;
                }
                let a = st.after.active;
                if a == st.actor {
                    return Verdict::Skip; // the turn came round again within the step
                }
                let before = ids(st, st.before, "riding", Some(a));
                let after = ids(st, st.after, "riding", Some(a));
                if cab(st, st.before, a).is_none() {
                    return check(after == before, || {
                        format!("seat {} has no cab on the board yet holds {after:?}", a + 1)
                    });
                }
                if before.is_empty() {
                    check(!after.is_empty(), || {
                        format!(
                            "seat {}'s taxi is empty as its turn begins and draws no fare",
                            a + 1
                        )
                    })
                } else {
                    check(after == before, || {
                        format!(
                            "seat {}'s taxi carries {before:?} as its turn begins and ends with {after:?}",
                            a + 1
                        )
                    })
                }
            },
        ),
        Oracle::new(
            "CC-T3",
            "a fare picked up is told with its riders, fare and VIP",
            |st| {
                let spectator = st.shown.last().map_or(&[][..], |s| &s.lines[..]);
                all((0..st.seats).flat_map(|s| {
                    let new = minus(
                        &ids(st, st.after, "riding", Some(s)),
                        &ids(st, st.before, "riding", Some(s)),
                    );
                    new.into_iter().map(move |c| {
                        let name = name_of(st, &c, "passengers");
                        let n = int_of(st, &c, "passengers", "passengers");
                        let fare = int_of(st, &c, "passengers", "fare");
                        let vip = field(st, &c, "passengers", "vip").and_then(Value::as_bool)
                            == Some(true);
                        let riders = format!("{n} passenger");
                        let pays = format!("{fare} coin");
                        let told = spectator.iter().any(|l| {
                            l.contains(name)
                                && l.contains(&riders)
                                && l.contains(&pays)
                                && l.contains("VIP") == vip
                        });
                        check(told, || {
                            format!(
                                "{name} ({n} riders, {fare} coins, VIP {vip}) got in; the table read {spectator:?}"
                            )
                        })
                    })
                }))
            },
        ),
        Oracle::new(
            "CC-T4",
            "every drive of a card in hand, to every space exactly that far, is offered",
            |st| {
                let Some(allowed) = allowed_moves(st) else {
                    return Verdict::Skip;
                };
                let offered: BTreeSet<&String> = st.offered.iter().collect();
                let missing: Vec<&String> =
                    allowed.iter().filter(|a| !offered.contains(a)).collect();
                check(missing.is_empty(), || {
                    format!("these moves are not offered: {missing:?}")
                })
            },
        ),
        Oracle::new(
            "CC-T4",
            "one drive a turn, a second only after a Green Wave; the hand is topped up to three",
            |st| {
                let mut verdicts = vec![];
                if is_move(st.action) || st.action == "stop" {
                    let drives = this_turn(st).filter(|e| is_move(&e.action)).count()
                        + usize::from(is_move(st.action));
                    let waves = this_turn(st)
                        .filter(|e| e.action.starts_with("wave "))
                        .count();
                    verdicts.push(check(drives <= DRIVES_A_TURN + waves, || {
                        format!("drive {drives} of a turn with {waves} Green Waves")
                    }));
                    if st.action == "stop" {
                        verdicts.push(check(drives >= 1 && waves >= 1, || {
                            format!("`stop` taken after {drives} drives and {waves} Green Waves")
                        }));
                    }
                }
                if st.offered.iter().any(|a| a == "stop") {
                    let drives = this_turn(st).filter(|e| is_move(&e.action)).count();
                    let waves = this_turn(st)
                        .filter(|e| e.action.starts_with("wave "))
                        .count();
                    verdicts.push(check(drives >= 1 && waves >= 1, || {
                        format!(
                            "`stop` offered after {drives} drives and {waves} Green Waves this turn"
                        )
                    }));
                }
                if turn_ended(st) && !ended_by_run_out(st) {
                    let hand = ids(st, st.after, "movement-hand", Some(st.actor)).len();
                    let deck = ids(st, st.after, "movement-deck", None).len();
                    // Short only when the deck and its discards ran dry: the discards then hold
                    // no more than the cards played this turn (they go there after the refill).
                    let played = this_turn(st)
                        .filter(|e| {
                            e.action.starts_with("drive ") || e.action.starts_with("brake ")
                        })
                        .count()
                        + usize::from(
                            st.action.starts_with("drive ") || st.action.starts_with("brake "),
                        );
                    let discards = ids(st, st.after, "movement-discard", None).len();
                    verdicts.push(check(hand == HAND || (deck == 0 && discards <= played), || {
                        format!(
                            "seat {} ends its turn with {hand} movement cards, {deck} left to draw and {discards} discarded",
                            st.actor + 1
                        )
                    }));
                }
                let w = words(st);
                if (w[0] == "drive" || w[0] == "brake") && rebuilt(st, "movement-deck").is_none() {
                    let card = w[1].to_string();
                    let out = [
                        minus(
                            &ids(st, st.after, "movement-discard", None),
                            &ids(st, st.before, "movement-discard", None),
                        ),
                        minus(
                            &ids(st, st.after, "in-play", None),
                            &ids(st, st.before, "in-play", None),
                        ),
                    ];
                    verdicts.push(check(out.iter().any(|z| z.contains(&card)), || {
                        format!(
                            "`{}` leaves {card} out of the discards and the cards in play",
                            st.action
                        )
                    }));
                }
                all(verdicts)
            },
        ),
        Oracle::new(
            "CC-T5",
            "every move offered goes exactly its number of spaces (a Handbrake: fewer)",
            |st| {
                let Some(allowed) = allowed_moves(st) else {
                    return Verdict::Skip;
                };
                let wrong: Vec<&String> = st
                    .offered
                    .iter()
                    .filter(|a| is_move(a) && !allowed.contains(*a))
                    .collect();
                check(wrong.is_empty(), || {
                    format!("these moves break the card's count: {wrong:?}")
                })
            },
        ),
        Oracle::new(
            "CC-T6",
            "a fare is never dropped at the stand it was picked up on",
            |st| {
                let Some(end) = move_end(st) else {
                    return Verdict::Skip;
                };
                let here_first: Vec<String> = ids(st, st.before, "riding", Some(st.actor))
                    .into_iter()
                    .filter(|c| pickup(st, st.actor, c) == Some(end))
                    .collect();
                if here_first.is_empty() {
                    return Verdict::Skip;
                }
                let got = delivered_now(st);
                check(!here_first.iter().any(|c| got.contains(c)), || {
                    format!(
                        "{got:?} dropped at {}, where {here_first:?} got in",
                        space_id(st.before, end)
                    )
                })
            },
        ),
        Oracle::new(
            "CC-T7",
            "a move ending on a destination drops off exactly the fares bound there",
            |st| {
                let got = delivered_now(st);
                let Some(end) = move_end(st) else {
                    return check(got.is_empty(), || {
                        format!("`{}` delivers {got:?}", st.action)
                    });
                };
                let mut want = due(st, end);
                let mut got = got;
                want.sort();
                got.sort();
                check(got == want, || {
                    format!(
                        "ending at {} drops off {got:?}; the fares bound there are {want:?}",
                        space_id(st.before, end)
                    )
                })
            },
        ),
        Oracle::new(
            "CC-T7",
            "coins change only by fares, tips and chance cards",
            |st| match purse(st) {
                Some(p) => purse_verdict(st, &p),
                None => Verdict::Skip,
            },
        ),
        Oracle::new(
            "CC-X3",
            "the Limousine earns its bonus on each VIP card it delivers",
            |st| match purse(st) {
                Some(p) if p.vip_bonus => purse_verdict(st, &p),
                _ => Verdict::Skip,
            },
        ),
        Oracle::new(
            "CC-T8",
            "a chance card that pays moves the purses by its amount",
            |st| match purse(st) {
                Some(p) if p.chance_pays => purse_verdict(st, &p),
                _ => Verdict::Skip,
            },
        ),
        Oracle::new(
            "CC-T8",
            "a chance card is drawn exactly when a move ends on a chance space, and kept or played as it says",
            |st| {
                let on_chance =
                    move_end(st).is_some_and(|e| tagged(st, st.before, e, "chance_tag"));
                let rebuilt = rebuilt(st, "chance-deck").is_some();
                let before = ids(st, st.before, "chance-deck", None).len();
                let after = ids(st, st.after, "chance-deck", None).len();
                if !on_chance {
                    return check(before == after && !rebuilt, || {
                        format!(
                            "`{}` draws from the chance deck ({before} -> {after})",
                            st.action
                        )
                    });
                }
                if rebuilt || before == 0 {
                    return Verdict::Skip;
                }
                let Some(c) = chance_drawn(st) else {
                    return Verdict::Fail(format!(
                        "a move ends on a chance space and the chance deck goes {before} -> {after}"
                    ));
                };
                let kept = minus(
                    &ids(st, st.after, "kept-chance", Some(st.actor)),
                    &ids(st, st.before, "kept-chance", Some(st.actor)),
                );
                let keep = str_of(st, &c, "chance", "play") == "keep";
                check(kept.contains(&c) == keep, || {
                    format!("{c} (play {keep}) drawn; the driver now also keeps {kept:?}")
                })
            },
        ),
        Oracle::new(
            "CC-T8",
            "a seat with a turn to sit out does not take it",
            |st| {
                if !turn_passed(st) || st.ended() {
                    return Verdict::Skip;
                }
                let a = st.after.active;
                let n = skips(st, st.after, a);
                check(n == 0, || {
                    format!(
                        "seat {} begins a turn with {n} turns still to sit out",
                        a + 1
                    )
                })
            },
        ),
        Oracle::new(
            "CC-T8",
            "the Stork Airlift is offered every stand but here and the fares' destinations",
            |st| {
                if phase(st.before) != "stork" {
                    return Verdict::Skip;
                }
                let here = cab(st, st.before, st.actor);
                let avoid: BTreeSet<String> = ids(st, st.before, "riding", Some(st.actor))
                    .iter()
                    .flat_map(|c| strings_of(st, c, "passengers", "destinations"))
                    .collect();
                let want: BTreeSet<String> = stands(st, st.before)
                    .into_iter()
                    .filter(|&s| Some(s) != here && !avoid.contains(space_id(st.before, s)))
                    .map(|s| format!("stork {}", space_id(st.before, s)))
                    .collect();
                let got: BTreeSet<String> = st.offered.iter().cloned().collect();
                check(got == want, || {
                    format!("the stork offers {got:?}; the rule allows {want:?}")
                })
            },
        ),
        Oracle::new(
            "CC-T8",
            "Wrong Cab! sends a fare back into the passenger deck and draws one for it",
            |st| {
                let w = words(st);
                if w[0] != "swap" {
                    return Verdict::Skip;
                }
                let old = w.get(2).map(|c| c.to_string()).unwrap_or_default();
                let (rb, ra) = (
                    ids(st, st.before, "riding", Some(st.actor)),
                    ids(st, st.after, "riding", Some(st.actor)),
                );
                let gone = minus(&rb, &ra);
                let new = minus(&ra, &rb);
                let deck_b = ids(st, st.before, "passenger-deck", None);
                let deck_a = ids(st, st.after, "passenger-deck", None);
                // The deck is shuffled with the card in it: the one drawn may be the same card.
                let same_again = gone.is_empty() && new.is_empty() && ra.contains(&old);
                check(
                    (same_again && deck_a.len() == deck_b.len())
                        || (gone == vec![old.clone()]
                            && new.len() <= 1
                            && deck_a.contains(&old)
                            && deck_a.len() + new.len() == deck_b.len() + 1),
                    || {
                        format!(
                            "sending back {old}: {gone:?} left the taxi, {new:?} got in, the deck went from {} to {} cards",
                            deck_b.len(),
                            deck_a.len()
                        )
                    },
                )
            },
        ),
        Oracle::new(
            "CC-T8",
            "kept chance cards do what they say: a jam, Roadworks, a Green Wave, a Fresh Map",
            |st| {
                let w = words(st);
                let me = st.actor;
                let came_back = turn_passed(st) && st.after.active == me;
                let mut v = vec![];
                if let Some(c) = move_end(st)
                    .filter(|&e| tagged(st, st.before, e, "chance_tag"))
                    .and_then(|_| chance_drawn(st))
                    && str_of(st, &c, "chance", "effect") == "skip-turn"
                    && !came_back
                {
                    let (b, a) = (skips(st, st.before, me), skips(st, st.after, me));
                    v.push(check(a == b + 1, || {
                        format!(
                            "{c} drawn and seat {} has {b} -> {a} turns to sit out",
                            me + 1
                        )
                    }));
                }
                if w[0] == "roadworks" {
                    let target = w.get(2).and_then(|t| t.parse::<u8>().ok()).unwrap_or(0);
                    let t = target.saturating_sub(1);
                    let ok = target >= 1
                        && t != me
                        && skips(st, st.after, t) == skips(st, st.before, t) + 1
                        && skips(st, st.after, me) == skips(st, st.before, me);
                    v.push(check(ok, || {
                        format!(
                            "`{}` leaves the turns to sit out at {:?}",
                            st.action,
                            (0..st.seats)
                                .map(|s| skips(st, st.after, s))
                                .collect::<Vec<_>>()
                        )
                    }));
                }
                let waved = this_turn(st).any(|e| e.action.starts_with("wave "));
                let drove = this_turn(st).any(|e| is_move(&e.action));
                if st.offered.iter().any(|a| a.starts_with("wave ")) {
                    v.push(check(!waved && !drove, || {
                        "a Green Wave is offered after a Green Wave or a drive this turn".into()
                    }));
                }
                if is_move(st.action) && waved && !drove && !st.ended() {
                    v.push(check(!turn_passed(st), || {
                        "the first drive after a Green Wave ends the turn".into()
                    }));
                }
                if w[0] == "map" && rebuilt(st, "movement-deck").is_none() {
                    let mut old = ids(st, st.before, "movement-hand", Some(me));
                    let mut thrown = minus(
                        &ids(st, st.after, "movement-discard", None),
                        &ids(st, st.before, "movement-discard", None),
                    );
                    old.sort();
                    thrown.sort();
                    let n = ids(st, st.after, "movement-hand", Some(me)).len();
                    v.push(check(thrown == old && n == HAND, || {
                        format!(
                            "Fresh Map discards {thrown:?} of the hand {old:?} and leaves {n} cards"
                        )
                    }));
                }
                all(v)
            },
        ),
        Oracle::new(
            "CC-T9",
            "a deck is rebuilt from its discards only when it is empty, and whenever a draw needs it",
            |st| {
                let mut v = vec![];
                let chance_before = ids(st, st.before, "chance-deck", None).len();
                if rebuilt(st, "chance-deck").is_some() {
                    v.push(check(chance_before == 0, || {
                        format!("the chance deck is rebuilt with {chance_before} cards in it")
                    }));
                }
                let deck_before = ids(st, st.before, "movement-deck", None).len();
                let draws: Vec<usize> = lines_with(st, "You draw ").map(|(i, _)| i).collect();
                match rebuilt(st, "movement-deck") {
                    Some(at) => {
                        let first = draws.iter().filter(|&&i| i < at).count();
                        v.push(check(first == deck_before, || {
                            format!(
                                "the movement deck is rebuilt after {first} draws from a deck of {deck_before}"
                            )
                        }));
                    }
                    None => {
                        let discards = ids(st, st.before, "movement-discard", None).len();
                        if !draws.is_empty() {
                            v.push(check(draws.len() <= deck_before || discards == 0, || {
                                format!(
                                    "{} movement cards drawn from a deck of {deck_before} and it was not rebuilt",
                                    draws.len()
                                )
                            }));
                        }
                    }
                }
                all(v)
            },
        ),
        // ---- taxis
        Oracle::new(
            "CC-X1",
            "the River taxi is offered the moves over the river lanes",
            |st| river_or_flight(st, "river"),
        ),
        Oracle::new(
            "CC-X4",
            "the Flying taxi is offered the moves over the flight paths",
            |st| river_or_flight(st, "flight"),
        ),
        Oracle::new(
            "CC-X5",
            "no taxi is offered a move over an edge its card does not list",
            |st| {
                let Some(allowed) = allowed_moves(st) else {
                    return Verdict::Skip;
                };
                let wrong: Vec<&String> = st
                    .offered
                    .iter()
                    .filter(|a| is_move(a) && !allowed.contains(*a))
                    .collect();
                check(wrong.is_empty(), || {
                    format!(
                        "the {:?} (edges {:?}) is offered {wrong:?}",
                        taxi(st, st.before, st.actor),
                        edge_tags(st, st.before, st.actor)
                    )
                })
            },
        ),
        Oracle::new(
            "CC-X2",
            "riders never take more seats than the taxi has (but for a Family draw to choose from)",
            |st| {
                if phase(st.after) == "family" {
                    return Verdict::Skip;
                }
                all((0..st.seats).map(|s| {
                    let (n, cap) = (seats_taken(st, st.after, s), capacity(st, st.after, s));
                    check(n <= cap, || {
                        format!("seat {} carries {n} riders in {cap} seats", s + 1)
                    })
                }))
            },
        ),
        Oracle::new(
            "CC-X2",
            "an empty Family taxi draws two fares and keeps both when they fit",
            |st| {
                let start = words(st)[0] == "start";
                let a = if start { st.actor } else { st.after.active };
                if st.ended() || !(start || (turn_passed(st) && a != st.actor)) {
                    return Verdict::Skip;
                }
                let family = taxi(st, st.before, a).is_some_and(|t| {
                    strings_of(st, &t, "taxis", "abilities")
                        .iter()
                        .any(|x| x == "draws-two")
                });
                if !family
                    || (!start && cab(st, st.before, a).is_none())
                    || skips(st, st.before, a) > 0
                    || !ids(st, st.before, "riding", Some(a)).is_empty()
                {
                    return Verdict::Skip;
                }
                let deck = ids(st, st.before, "passenger-deck", None).len();
                let got = ids(st, st.after, "riding", Some(a));
                let want = deck.min(2);
                let fits = seats_taken(st, st.after, a) <= capacity(st, st.after, a);
                check(
                    got.len() == want && (phase(st.after) == "family") != fits,
                    || {
                        format!(
                            "the Family taxi draws {got:?} from a deck of {deck}, phase {}",
                            phase(st.after)
                        )
                    },
                )
            },
        ),
        Oracle::new(
            "CC-X2",
            "a Family draw that does not fit keeps the chosen card; the other goes back into the deck",
            |st| {
                if phase(st.before) != "family" {
                    return Verdict::Skip;
                }
                let riding = ids(st, st.before, "riding", Some(st.actor));
                let want: BTreeSet<String> = riding.iter().map(|c| format!("keep {c}")).collect();
                let got: BTreeSet<String> = st.offered.iter().cloned().collect();
                if got != want {
                    return Verdict::Fail(format!("offered {got:?} to choose from {riding:?}"));
                }
                let kept = words(st).get(1).map(|s| s.to_string()).unwrap_or_default();
                let now = ids(st, st.after, "riding", Some(st.actor));
                let back = minus(
                    &ids(st, st.after, "passenger-deck", None),
                    &ids(st, st.before, "passenger-deck", None),
                );
                let mut other = minus(&riding, std::slice::from_ref(&kept));
                other.sort();
                let mut back = back;
                back.sort();
                check(now == vec![kept.clone()] && back == other, || {
                    format!(
                        "keeping {kept} leaves {now:?} riding and puts {back:?} back into the deck"
                    )
                })
            },
        ),
        // ---- the end
        Oracle::new(
            "CC-E1",
            "the game ends at the end of the round that reaches the limit, and not before",
            |st| {
                let last = st.actor + 1 == st.seats;
                if !turn_ended(st) || phase(st.before) == "choose-taxi" {
                    return Verdict::Skip;
                }
                if !last {
                    let sat = lines_with(st, "sits this turn out").count();
                    return check(!ended_by_limit(st) || sat > 0, || {
                        format!(
                            "the game ends at the limit after seat {}'s turn",
                            st.actor + 1
                        )
                    });
                }
                let reached = if clock_mode(st) {
                    st.counter(st.before, "clock", None) >= opt(st, "clock-minutes")
                } else {
                    st.counter(st.before, "rounds", None) + 1 >= opt(st, "turn-limit")
                };
                if ended_by_run_out(st) && !reached {
                    return Verdict::Pass;
                }
                check(ended_by_limit(st) == reached, || {
                    format!(
                        "the round ends with the limit {} and the game {}",
                        if reached { "reached" } else { "not reached" },
                        if st.ended() { "ends" } else { "goes on" }
                    )
                })
            },
        ),
        Oracle::new(
            "CC-E1",
            "the game ends when an empty taxi must draw from an empty passenger deck",
            |st| {
                let drawer = if words(st)[0] == "start" {
                    Some(st.actor)
                } else if turn_passed(st) || ended_by_run_out(st) {
                    Some(st.after.active)
                } else {
                    None
                };
                let Some(a) = drawer else {
                    return Verdict::Skip;
                };
                if ended_by_limit(st) || (a == st.actor && words(st)[0] != "start") {
                    return Verdict::Skip;
                }
                let empty_taxi = ids(st, st.before, "riding", Some(a)).is_empty()
                    && (cab(st, st.before, a).is_some() || words(st)[0] == "start");
                let deck = ids(st, st.before, "passenger-deck", None).len();
                if !empty_taxi || skips(st, st.before, a) > 0 {
                    return check(!ended_by_run_out(st), || {
                        format!(
                            "the game ends for want of passengers though seat {} needs none",
                            a + 1
                        )
                    });
                }
                check(ended_by_run_out(st) == (deck == 0), || {
                    format!(
                        "seat {} must draw from a passenger deck of {deck} and the game {}",
                        a + 1,
                        if st.ended() { "ends" } else { "goes on" }
                    )
                })
            },
        ),
        Oracle::new(
            "CC-E2",
            "the top purse wins; equal purses share a place",
            |st| {
                let Some(r) = &st.after.result else {
                    return Verdict::Skip;
                };
                let c: Vec<i64> = (0..st.seats).map(|s| coins(st, st.after, s)).collect();
                let want: Vec<u32> = c
                    .iter()
                    .map(|x| 1 + c.iter().filter(|o| *o > x).count() as u32)
                    .collect();
                check(r.places == want && r.scores == c, || {
                    format!(
                        "purses {c:?} give places {:?} and scores {:?}; the rules want places {want:?}",
                        r.places, r.scores
                    )
                })
            },
        ),
    ];
    v.shrink_to_fit();
    v
}

fn river_or_flight(st: &Step, tag: &str) -> Verdict {
    if !edge_tags(st, st.before, st.actor).iter().any(|t| t == tag) {
        return Verdict::Skip;
    }
    let Some(allowed) = allowed_moves(st) else {
        return Verdict::Skip;
    };
    let offered: BTreeSet<&String> = st.offered.iter().collect();
    let missing: Vec<&String> = allowed.iter().filter(|a| !offered.contains(a)).collect();
    check(missing.is_empty(), || {
        format!("the {tag} taxi is not offered {missing:?}")
    })
}

/// Seeded games of 2 to 4 seats (random players and the Cabbie, both limits, chosen taxis)
/// and games forced to rare cases.
pub fn plans(n: u64) -> Vec<Plan> {
    let mut out = Vec::new();
    for seed in 0..n {
        out.push(Plan::new(seed, &["random", "random"]));
        out.push(Plan::new(100 + seed, &["cabbie", "random", "cabbie"]));
        out.push(Plan::new(
            200 + seed,
            &["random", "cabbie", "random", "cabbie"],
        ));
        out.push(
            Plan::new(300 + seed, &["cabbie", "cabbie", "random"])
                .text_option("limit", "clock")
                .option("clock-minutes", 36),
        );
        out.push(
            Plan::new(400 + seed, &["random", "random", "random", "random"])
                .text_option("taxi-assignment", "choose")
                .option("turn-limit", 4),
        );
        out.push(
            Plan::new(500 + seed, &["random", "random", "random", "random"])
                .text_option("limit", "clock")
                .option("clock-minutes", 35)
                .prepare(tricks),
        );
        out.push(Plan::new(600 + seed, &["cabbie", "random"]).prepare(last_fares));
    }
    out.push(Plan::new(700, &["random", "random", "random", "random"]).prepare(tie_second));
    out.push(Plan::new(701, &["random", "random", "random", "random"]).prepare(tie_third));
    out.push(Plan::new(702, &["random", "random", "random"]).prepare(tie_all));
    out.push(Plan::new(703, &["random", "random"]).prepare(family_six));
    out.push(Plan::new(705, &["random", "random"]).prepare(wrong_cab));
    out.push(Plan::new(706, &["random", "random"]).prepare(family_last));
    out.push(
        Plan::new(704, &["random", "random", "random"])
            .option("turn-limit", 4)
            .prepare(last_round),
    );
    out
}

fn eval(g: &mut Game, code: &str) {
    g.eval(code).unwrap_or_else(|e| panic!("{e}"));
}

/// Every seat keeps one of each chance card that is played later (a Handbrake, The Bet!, a
/// Green Wave, ...), and the chance deck is down to two cards, so it runs out and is rebuilt.
fn tricks(g: &mut Game) {
    eval(
        g,
        r#"
        local deck, discard = game.zone("chance-deck"), game.zone("chance-discard")
        local want = { "handbrake", "the-bet", "green-wave", "generous-tipper", "wrong-cab", "fresh-map", "roadworks-sign" }
        for s = 1, game.seats() do
          local kept = game.zone("kept-chance", s)
          for _, c in want do
            if not game.take_card(deck, c, kept) then game.take_card(discard, c, kept) end
          end
        end
        -- Seat 1 holds both Generous Tippers (a drop-off uses one of them) and both Green Waves
        -- (one a turn).
        game.take_card(game.zone("kept-chance", 2), "generous-tipper", game.zone("kept-chance", 1))
        game.take_card(game.zone("kept-chance", 2), "green-wave", game.zone("kept-chance", 1))
        while game.count(deck) > 2 do game.move_card(deck, discard) end
        "#,
    );
}

/// The passenger deck down to three cards: the last is drawn and the game ends for want of one.
fn last_fares(g: &mut Game) {
    eval(
        g,
        r#"
        local deck = game.zone("passenger-deck")
        while game.count(deck) > 3 do game.move_card(deck, game.zone("passenger-discard")) end
        "#,
    );
}

/// Purses set and no passenger left: the first seat's start ends the game on them.
const END_NOW: &str = r#"
local function end_with(purses)
  local deck = game.zone("passenger-deck")
  while game.move_card(deck, game.zone("passenger-discard")) do end
  for s = 1, game.seats() do game.set_counter("coins", s, purses[s]) end
end
"#;

/// A tie for second place.
fn tie_second(g: &mut Game) {
    eval(g, &format!("{END_NOW} end_with({{ 9, 4, 4, 1 }})"));
}
/// A tie for third place, below a tie for first.
fn tie_third(g: &mut Game) {
    eval(g, &format!("{END_NOW} end_with({{ 5, 5, 2, 2 }})"));
}
/// Everybody tied.
fn tie_all(g: &mut Game) {
    eval(g, &format!("{END_NOW} end_with({{ 3, 3, 3 }})"));
}

/// Seat 1 drives the Family taxi and its first two fares fill its six seats exactly; seat 2's
/// two do not fit (4 + 3).
fn family_six(g: &mut Game) {
    eval(
        g,
        r#"
        local function z(id, s) return game.zone(id, s) end
        local supply = z("taxi-supply")
        for s = 1, 2 do while game.move_card(z("taxi", s), supply) do end end
        game.take_card(supply, "family-taxi", z("taxi", 1))
        game.take_card(supply, "limousine", z("taxi", 2))
        local deck = z("passenger-deck")
        -- the last put on top is drawn first: Moth Choir (4) and Mayor Marmot (2) fill seat 1's
        -- six seats exactly; seat 2's Limousine then draws Lady Swan, a VIP
        for _, c in { "badger-elders", "lady-swan", "mayor-marmot", "moth-choir" } do
          game.take_card(deck, c, deck, "top")
        end
        "#,
    );
}

/// Both seats keep a Wrong Cab! and hold three one-space cards, so a random player has few
/// drives to choose from besides sending a fare back.
fn wrong_cab(g: &mut Game) {
    eval(
        g,
        r#"
        local function z(id, s) return game.zone(id, s) end
        local deck = z("movement-deck")
        for s = 1, 2 do
          while game.move_card(z("movement-hand", s), deck) do end
          for _ = 1, 3 do game.take_card(deck, "move-1", z("movement-hand", s)) end
          if not game.take_card(z("chance-deck"), "wrong-cab", z("kept-chance", s)) then
            game.take_card(z("chance-discard"), "wrong-cab", z("kept-chance", s))
          end
        end
        "#,
    );
}

/// Seat 1 drives the Family taxi and one passenger card is left: it takes what there is.
fn family_last(g: &mut Game) {
    eval(
        g,
        r#"
        local function z(id, s) return game.zone(id, s) end
        local supply = z("taxi-supply")
        while game.move_card(z("taxi", 1), supply) do end
        if not game.take_card(supply, "family-taxi", z("taxi", 1)) then
          game.take_card(z("taxi", 2), "family-taxi", z("taxi", 1))
          game.move_card(supply, z("taxi", 2))
        end
        local deck = z("passenger-deck")
        while game.count(deck) > 1 do game.move_card(deck, z("passenger-discard")) end
        "#,
    );
}

/// The last round is next: the limit is reached exactly at its end.
fn last_round(g: &mut Game) {
    eval(g, r#"game.set_counter("rounds", 3)"#);
}

#[path = "critter_cab_house_oracles.rs"]
mod house;
pub use house::{no_sitting_out_oracles, no_sitting_out_plans};
