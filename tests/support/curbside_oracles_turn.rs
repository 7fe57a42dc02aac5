//! Curbside's oracles for tile cards, a turn, the road rules and the end of the game (the
//! setup and road tile oracles are in `curbside_oracles.rs`).

use std::collections::{BTreeMap, BTreeSet};

use super::*;

fn kind_in_hand(cs: &Cs, seat: u8, kind: &str) -> bool {
    cs.hand_kinds(seat).contains(kind)
}

/// The blocker cells of `kind` in a state.
fn blockers(cs: &Cs, kind: &str) -> BTreeSet<u32> {
    (0..cs.cells())
        .filter(|&c| cs.blocker(c) == Some(kind))
        .collect()
}

pub(super) fn more_oracles() -> Vec<Oracle> {
    vec![
        Oracle::new(
            "CS-T9",
            "a drawn cone goes at once onto a free cell, its card played",
            |st| {
                if st.action != "draw" {
                    return Verdict::Skip;
                }
                let (b, a) = (Cs::new(st, st.before), Cs::new(st, st.after));
                let new: Vec<u32> = blockers(&a, "cs-t9")
                    .difference(&blockers(&b, "cs-t9"))
                    .copied()
                    .collect();
                let top = st.zone(st.before, "deck", None).last().copied();
                let drew_cone = top.is_some_and(|c| b.card_tile(c) == "cs-t9");
                if !drew_cone {
                    return check(new.is_empty(), || {
                        "a cone appeared without one being drawn".into()
                    });
                }
                let Some(&cell) = new.first() else {
                    return fail("a cone was drawn but none was set on the board".into());
                };
                let free = !b.taxi_cells().contains(&cell)
                    && !b.waiting().contains_key(&cell)
                    && !b.dests().contains_key(&cell)
                    && b.blocker(cell).is_none();
                check(
                    new.len() == 1 && free && !kind_in_hand(&a, st.actor, "cs-t9"),
                    || {
                        format!(
                            "the cone went to {} (free: {free}), cones in hand: {}",
                            a.name(cell),
                            kind_in_hand(&a, st.actor, "cs-t9")
                        )
                    },
                )
            },
        ),
        Oracle::new(
            "CS-T9",
            "a cone closes its cell until its drawer's next turn, then goes under the deck",
            |st| lifted_verdict(st, "cs-t9"),
        ),
        Oracle::new(
            "CS-T9",
            "every cone on the board is a played cone card",
            |st| {
                let a = Cs::new(st, st.after);
                let on_board = blockers(&a, "cs-t9").len();
                let played = st
                    .zone(st.after, "used", None)
                    .iter()
                    .filter(|c| a.card_tile(**c) == "cs-t9")
                    .count();
                check(on_board == played, || {
                    format!("{on_board} cones on the board, {played} cone cards played")
                })
            },
        ),
        Oracle::new("CS-T10", "a canteen adds its gas and is used up", |st| {
            let w = words(st.action);
            if w[0] != "canteen" {
                return Verdict::Skip;
            }
            let (b, a) = (Cs::new(st, st.before), Cs::new(st, st.after));
            let gain = st
                .def
                .tile("cs-t10")
                .and_then(|t| st.def.tiles[t].props.get("gas"))
                .and_then(Value::as_int)
                .unwrap_or(0);
            let count = |cs: &Cs| {
                cs.hand(st.actor)
                    .iter()
                    .filter(|c| cs.card_tile(**c) == "cs-t10")
                    .count()
            };
            check(
                a.gas(st.actor) == b.gas(st.actor) + gain && count(&a) + 1 == count(&b),
                || {
                    format!(
                        "gas {} -> {} (+{gain} expected), canteens in hand {} -> {}",
                        b.gas(st.actor),
                        a.gas(st.actor),
                        count(&b),
                        count(&a)
                    )
                },
            )
        }),
        Oracle::new(
            "CS-T11",
            "a re-route is offered for waiting passengers and destinations, never a rival's fare",
            |st| {
                let b = Cs::new(st, st.before);
                if !kind_in_hand(&b, st.actor, "cs-t11") {
                    return Verdict::Skip;
                }
                let mut want = BTreeSet::new();
                for f in b.fares() {
                    if b.at(f.piece).is_some() {
                        want.insert(format!("p{}", f.i));
                    }
                    if b.at(f.dest).is_some() && b.rider(f).is_none_or(|r| r == st.actor) {
                        want.insert(format!("d{}", f.i));
                    }
                }
                let got: BTreeSet<String> = offered_with(st, "reroute")
                    .iter()
                    .filter_map(|a| a.split(' ').nth(2))
                    .map(str::to_string)
                    .collect();
                match set_diff(&want, &got) {
                    Some(d) => fail(format!("re-routes: {d}")),
                    None => Verdict::Pass,
                }
            },
        ),
        Oracle::new(
            "CS-T11",
            "a re-route moves one piece and leaves its partner",
            |st| {
                let w = words(st.action);
                if w[0] != "reroute" {
                    return Verdict::Skip;
                }
                let (b, a) = (Cs::new(st, st.before), Cs::new(st, st.after));
                let target = w.get(2).copied().unwrap_or("");
                let Some(f) = b
                    .fares()
                    .into_iter()
                    .find(|f| target[1..] == f.i.to_string())
                else {
                    return fail(format!("no fare {target}"));
                };
                let (moved, stays) = if target.starts_with('p') {
                    (f.piece, f.dest)
                } else {
                    (f.dest, f.piece)
                };
                let others_still = b
                    .fares()
                    .into_iter()
                    .filter(|g| g.i != f.i)
                    .all(|g| a.at(g.piece) == b.at(g.piece) && a.at(g.dest) == b.at(g.dest));
                // The dice may roll the cell it stood on again (CS-S5 rolls avoid other pieces only).
                check(
                    a.at(moved).is_some() && a.at(stays) == b.at(stays) && others_still,
                    || {
                        format!(
                            "{target}: the piece went {:?} -> {:?}, its partner {:?} -> {:?}, other fares unmoved: {others_still}",
                            b.at(moved),
                            a.at(moved),
                            b.at(stays),
                            a.at(stays)
                        )
                    },
                )
            },
        ),
        Oracle::new(
            "CS-T12",
            "a pothole is offered on every free cell and no other",
            |st| {
                let b = Cs::new(st, st.before);
                if !kind_in_hand(&b, st.actor, "cs-t12") {
                    return Verdict::Skip;
                }
                let (taxis, waiting, dests) = (b.taxi_cells(), b.waiting(), b.dests());
                let want: BTreeSet<String> = (0..b.cells())
                    .filter(|c| {
                        !taxis.contains(c)
                            && !waiting.contains_key(c)
                            && !dests.contains_key(c)
                            && b.blocker(*c).is_none()
                    })
                    .map(|c| b.name(c))
                    .collect();
                let got: BTreeSet<String> = offered_with(st, "pothole")
                    .iter()
                    .filter_map(|a| a.split(' ').nth(2))
                    .map(str::to_string)
                    .collect();
                match set_diff(&want, &got) {
                    Some(d) => fail(format!("potholes: {d}")),
                    None => Verdict::Pass,
                }
            },
        ),
        Oracle::new("CS-T12", "a pothole dropped closes its cell", |st| {
            let w = words(st.action);
            if w[0] != "pothole" {
                return Verdict::Skip;
            }
            let a = Cs::new(st, st.after);
            let cell = w.get(2).and_then(|c| a.parse(c));
            check(cell.is_some_and(|c| a.blocker(c) == Some("cs-t12")), || {
                format!("no pothole on {:?} after dropping it", w.get(2))
            })
        }),
        Oracle::new(
            "CS-T12",
            "a pothole closes its cell until its owner's next turn begins",
            |st| lifted_verdict(st, "cs-t12"),
        ),
        Oracle::new(
            "CS-D1",
            "every waiting fare is priced from the destination board",
            |st| {
                let a = Cs::new(st, st.after);
                all(a
                    .fares()
                    .into_iter()
                    .filter_map(|f| Some((f, a.at(f.piece)?, a.at(f.dest)?)))
                    .map(|(f, p, d)| {
                        let want = price(&a, p, d);
                        let got = a.int(f.piece, "stars").zip(a.int(f.piece, "gas"));
                        check(want.is_some() && want == got, || {
                            format!(
                                "fare {} from {} to {} is priced {got:?}; the board gives {want:?}",
                                f.i,
                                a.name(p),
                                a.name(d)
                            )
                        })
                    }))
            },
        ),
        // ---- a turn
        Oracle::new(
            "CS-A0",
            "three actions a turn; cards from hand cost none",
            |st| {
                if st.ended() {
                    return Verdict::Skip;
                }
                let kind = words(st.action)[0];
                let cost = i64::from(matches!(
                    kind,
                    "draw" | "move" | "rotate" | "remove" | "place"
                ));
                let (b, a) = (
                    st.counter(st.before, "actions", None),
                    st.counter(st.after, "actions", None),
                );
                let per_turn = constant(st, "actions_per_turn");
                if turn_passed(st) {
                    check(
                        (kind == "end" || (cost == 1 && b == 1)) && a == per_turn,
                        || {
                            format!(
                                "the turn passed after `{kind}` with {b} actions left, and the next starts with {a} (not {per_turn})"
                            )
                        },
                    )
                } else {
                    check(kind != "end" && a == b - cost && a >= 1, || {
                        format!("`{kind}` left {a} actions of {b} and the turn did not pass")
                    })
                }
            },
        ),
        Oracle::new(
            "CS-A1",
            "drawing is offered while the deck has tiles",
            |st| {
                let n = st.zone(st.before, "deck", None).len();
                if n == 0 {
                    return Verdict::Skip;
                }
                check(st.offered.iter().any(|a| a == "draw"), || {
                    format!("no draw offered with {n} tiles in the deck")
                })
            },
        ),
        Oracle::new("CS-A1", "no draw from an empty deck", |st| {
            if !st.zone(st.before, "deck", None).is_empty() {
                return Verdict::Skip;
            }
            check(!st.offered.iter().any(|a| a == "draw"), || {
                "a draw is offered from an empty deck".into()
            })
        }),
        Oracle::new("CS-A1", "a draw takes the deck's top tile", |st| {
            if st.action != "draw" {
                return Verdict::Skip;
            }
            let (b, a) = (Cs::new(st, st.before), Cs::new(st, st.after));
            let Some(&top) = st.zone(st.before, "deck", None).last() else {
                return fail("a draw from an empty deck".into());
            };
            let into_hand = b.card_tile(top) != "cs-t9";
            let gained = a.hand(st.actor).iter().filter(|c| **c == top).count() as i64
                - b.hand(st.actor).iter().filter(|c| **c == top).count() as i64;
            check(gained == i64::from(into_hand), || {
                format!(
                    "the top tile {} went {} into the hand",
                    st.card(top).id,
                    gained
                )
            })
        }),
        Oracle::new(
            "CS-A2",
            "tiles may be laid beside the taxi or where it can then drive on this turn",
            |st| {
                let b = Cs::new(st, st.before);
                let kinds: Vec<&str> = b
                    .hand_kinds(st.actor)
                    .into_iter()
                    .filter(|k| is_road(k))
                    .collect();
                if kinds.is_empty() {
                    return Verdict::Skip;
                }
                let cells = placements(st);
                let mut want = BTreeSet::new();
                for k in &kinds {
                    for r in rotations(k, b.rotatable(k)) {
                        let l = rule_links(k, r);
                        for (&c, &sides) in &cells {
                            if sides == 0xF0 || (0..4).any(|s| sides & (1 << s) != 0 && l[s] != 0) {
                                want.insert(format!("{k} {r} {}", b.name(c)));
                            }
                        }
                    }
                }
                let got: BTreeSet<String> = offered_with(st, "place")
                    .iter()
                    .filter_map(|a| {
                        let w = words(a);
                        let card = b.hand(st.actor).iter().find(|c| st.card(**c).id == w[1])?;
                        Some(format!(
                            "{} {} {}",
                            b.card_tile(*card),
                            w.get(2)?,
                            w.get(3)?
                        ))
                    })
                    .collect();
                match set_diff(&want, &got) {
                    Some(d) => fail(format!(
                        "placements (tile, turns, cell) with {} actions and {} gas: {d}",
                        st.counter(st.before, "actions", None),
                        b.gas(st.actor)
                    )),
                    None => Verdict::Pass,
                }
            },
        ),
        Oracle::new(
            "CS-A2",
            "a laid tile lies as named and its card leaves the hand",
            |st| {
                let w = words(st.action);
                if w[0] != "place" {
                    return Verdict::Skip;
                }
                let (b, a) = (Cs::new(st, st.before), Cs::new(st, st.after));
                let cell = w.get(3).and_then(|c| a.parse(c));
                let card = b
                    .hand(st.actor)
                    .iter()
                    .find(|c| st.card(**c).id == w[1])
                    .copied();
                let Some((cell, card)) = cell.zip(card) else {
                    return fail("the card or cell named is not there".into());
                };
                let n = |cs: &Cs| cs.hand(st.actor).iter().filter(|c| **c == card).count();
                check(
                    a.tile(cell) == Some((b.card_tile(card), w[2].parse().unwrap_or(9)))
                        && n(&a) + 1 == n(&b),
                    || format!("{:?} lies on {}", a.tile(cell), a.name(cell)),
                )
            },
        ),
        Oracle::new(
            "CS-A3",
            "a road tile beside the taxi with nothing on it may be lifted",
            |st| {
                let b = Cs::new(st, st.before);
                let Some(here) = b.taxi_at(st.actor) else {
                    return Verdict::Skip;
                };
                let (taxis, waiting, dests) = (b.taxi_cells(), b.waiting(), b.dests());
                let want: BTreeSet<String> = (0..4)
                    .filter_map(|s| b.neighbor(here, s))
                    .filter(|c| {
                        b.tile(*c).is_some()
                            && b.blocker(*c).is_none()
                            && !taxis.contains(c)
                            && !waiting.contains_key(c)
                            && !dests.contains_key(c)
                    })
                    .map(|c| format!("remove {}", b.name(c)))
                    .collect();
                let got: BTreeSet<String> = offered_with(st, "remove")
                    .into_iter()
                    .map(str::to_string)
                    .collect();
                if want.is_empty() && got.is_empty() {
                    return Verdict::Skip;
                }
                match set_diff(&want, &got) {
                    Some(d) => fail(format!("lifts: {d}")),
                    None => Verdict::Pass,
                }
            },
        ),
        Oracle::new("CS-A3", "a lifted tile goes under the deck", |st| {
            let w = words(st.action);
            if w[0] != "remove" {
                return Verdict::Skip;
            }
            let (b, a) = (Cs::new(st, st.before), Cs::new(st, st.after));
            let Some(cell) = w.get(1).and_then(|c| b.parse(c)) else {
                return fail("no cell".into());
            };
            let kind = b.tile(cell).map(|t| t.0);
            // Cones lifted as the turn passes go under the deck too.
            let deck = st.zone(st.after, "deck", None);
            let grew = deck
                .len()
                .saturating_sub(st.zone(st.before, "deck", None).len());
            let bottom: Vec<&str> = deck.iter().take(grew).map(|c| a.card_tile(*c)).collect();
            check(
                a.tile(cell).is_none() && grew >= 1 && kind.is_some_and(|k| bottom.contains(&k)),
                || {
                    format!(
                        "lifting {kind:?}: the deck grew by {grew}, its bottom tiles are {bottom:?}"
                    )
                },
            )
        }),
        Oracle::new(
            "CS-A3",
            "every road tile on the board is a played card of its kind",
            |st| {
                let a = Cs::new(st, st.after);
                let mut board: BTreeMap<&str, i64> = BTreeMap::new();
                for c in 0..a.cells() {
                    if let Some((k, _)) = a.tile(c) {
                        *board.entry(k).or_default() += 1;
                    }
                }
                let mut played: BTreeMap<&str, i64> = BTreeMap::new();
                for c in st.zone(st.after, "used", None) {
                    let k = a.card_tile(*c);
                    if is_road(k) {
                        *played.entry(k).or_default() += 1;
                    }
                }
                check(board == played, || {
                    format!("road tiles on the board {board:?}, road cards played {played:?}")
                })
            },
        ),
        Oracle::new(
            "CS-A4",
            "the taxi's own tile may be turned any way, and turns as named",
            |st| {
                let b = Cs::new(st, st.before);
                let Some(here) = b.taxi_at(st.actor) else {
                    return Verdict::Skip;
                };
                let Some((kind, rot)) = b.tile(here) else {
                    return Verdict::Skip;
                };
                let shared = (0..st.seats).any(|s| s != st.actor && b.taxi_at(s) == Some(here));
                if shared || !b.rotatable(kind) {
                    return Verdict::Skip;
                }
                let want: BTreeSet<String> = rotations(kind, true)
                    .into_iter()
                    .filter(|r| *r != rot)
                    .map(|r| format!("rotate {r}"))
                    .collect();
                let got: BTreeSet<String> = offered_with(st, "rotate")
                    .into_iter()
                    .map(str::to_string)
                    .collect();
                if let Some(d) = set_diff(&want, &got) {
                    return fail(format!("turns of {kind} at {rot}: {d}"));
                }
                let w = words(st.action);
                if w[0] == "rotate" {
                    let a = Cs::new(st, st.after);
                    return check(
                        a.tile(here) == Some((kind, w[1].parse().unwrap_or(9))),
                        || format!("after `{}` the tile lies {:?}", st.action, a.tile(here)),
                    );
                }
                Verdict::Pass
            },
        ),
        Oracle::new(
            "CS-A5",
            "the drives offered are the straight runs the road allows",
            |st| {
                let want: BTreeSet<String> = allowed_drives(st).into_keys().collect();
                let got: BTreeSet<String> = offered_with(st, "move")
                    .into_iter()
                    .map(str::to_string)
                    .collect();
                match set_diff(&want, &got) {
                    Some(d) => fail(format!(
                        "drives with {} gas: {d}",
                        Cs::new(st, st.before).gas(st.actor)
                    )),
                    None => Verdict::Pass,
                }
            },
        ),
        Oracle::new("CS-A5", "a drive takes the taxi where it names", |st| {
            let b = Cs::new(st, st.before);
            let Some((_, cells)) = drive(&b, st.actor, st.action) else {
                return Verdict::Skip;
            };
            let at = Cs::new(st, st.after).taxi_at(st.actor);
            check(at.is_some() && at == cells.last().copied(), || {
                format!("the taxi is on {:?}, not {:?}", at, cells.last())
            })
        }),
        Oracle::new(
            "CS-A6",
            "gas changes only by a drive, a canteen or a drop-off",
            |st| {
                let (b, a) = (Cs::new(st, st.before), Cs::new(st, st.after));
                let mut want: Vec<i64> = (0..st.seats).map(|s| b.gas(s)).collect();
                let me = st.actor as usize;
                if let Some((_, cells)) = drive(&b, st.actor, st.action) {
                    want[me] -= cells.len() as i64;
                }
                if let Some((_, _, gas)) = drop_off(st) {
                    want[me] += gas;
                }
                if st.action.starts_with("canteen ") {
                    want[me] += st
                        .def
                        .tile("cs-t10")
                        .and_then(|t| st.def.tiles[t].props.get("gas"))
                        .and_then(Value::as_int)
                        .unwrap_or(0);
                }
                let got: Vec<i64> = (0..st.seats).map(|s| a.gas(s)).collect();
                check(got == want, || {
                    format!(
                        "gas {:?} -> {got:?}; the rules give {want:?}",
                        (0..st.seats).map(|s| b.gas(s)).collect::<Vec<_>>()
                    )
                })
            },
        ),
        Oracle::new(
            "CS-A6",
            "no drive is longer than the gas in the tank",
            |st| {
                let b = Cs::new(st, st.before);
                let gas = b.gas(st.actor);
                let longest = offered_with(st, "move")
                    .iter()
                    .filter_map(|a| a.split(' ').nth(2)?.parse::<i64>().ok())
                    .max();
                match longest {
                    Some(k) => check(k <= gas, || {
                        format!("a drive of {k} is offered with {gas} gas")
                    }),
                    None => Verdict::Skip,
                }
            },
        ),
        Oracle::new(
            "CS-A7",
            "a drive halts where it picks up or drops off",
            |st| {
                let b = Cs::new(st, st.before);
                let Some((_, cells)) = drive(&b, st.actor, st.action) else {
                    return Verdict::Skip;
                };
                let stops = b.stops(st.actor);
                let early = cells[..cells.len().saturating_sub(1)]
                    .iter()
                    .find(|c| stops.contains(c));
                check(early.is_none(), || {
                    format!(
                        "the drive went past a stop at {}",
                        b.name(*early.unwrap_or(&0))
                    )
                })
            },
        ),
        Oracle::new(
            "CS-A7",
            "picking up and dropping off cost no action",
            |st| {
                if pick_up(st).is_none() && drop_off(st).is_none() || st.ended() || turn_passed(st)
                {
                    return Verdict::Skip;
                }
                let (b, a) = (
                    st.counter(st.before, "actions", None),
                    st.counter(st.after, "actions", None),
                );
                check(a == b - 1, || {
                    format!(
                        "the drive and its pick-up or drop-off took {} actions",
                        b - a
                    )
                })
            },
        ),
        // ---- road rules
        Oracle::new("CS-R1", "a drive may end on another taxi", |st| {
            let b = Cs::new(st, st.before);
            let rivals: BTreeSet<u32> = (0..st.seats)
                .filter(|s| *s != st.actor)
                .filter_map(|s| b.taxi_at(s))
                .collect();
            let onto: Vec<String> = allowed_drives(st)
                .into_iter()
                .filter(|(_, c)| c.last().is_some_and(|l| rivals.contains(l)))
                .map(|(a, _)| a)
                .collect();
            if onto.is_empty() {
                return Verdict::Skip;
            }
            let missing: Vec<&String> = onto.iter().filter(|a| !st.offered.contains(a)).collect();
            check(missing.is_empty(), || {
                format!("drives onto another taxi not offered: {missing:?}")
            })
        }),
        Oracle::new("CS-R2", "no turning a tile another taxi is on", |st| {
            let b = Cs::new(st, st.before);
            let Some(here) = b.taxi_at(st.actor) else {
                return Verdict::Skip;
            };
            if !(0..st.seats).any(|s| s != st.actor && b.taxi_at(s) == Some(here)) {
                return Verdict::Skip;
            }
            check(offered_with(st, "rotate").is_empty(), || {
                format!(
                    "turns offered on a shared tile: {:?}",
                    offered_with(st, "rotate")
                )
            })
        }),
        Oracle::new("CS-R3", "no taxi carries two fares", |st| {
            let a = Cs::new(st, st.after);
            all((0..st.seats).map(|s| {
                let n = a.carried(s).len();
                check(n <= 1, || format!("seat {} carries {n} fares", s + 1))
            }))
        }),
        Oracle::new(
            "CS-R4",
            "an empty taxi ending on a passenger takes them",
            |st| {
                let (b, a) = (Cs::new(st, st.before), Cs::new(st, st.after));
                if drive(&b, st.actor, st.action).is_none() || !b.carried(st.actor).is_empty() {
                    return Verdict::Skip;
                }
                let Some(here) = a.taxi_at(st.actor) else {
                    return Verdict::Skip;
                };
                let Some(f) = b.waiting().get(&here).copied() else {
                    return Verdict::Skip;
                };
                check(
                    a.rider(f) == Some(st.actor) && a.at(f.piece).is_none(),
                    || {
                        format!(
                            "the passenger of fare {} on {} was not picked up",
                            f.i,
                            a.name(here)
                        )
                    },
                )
            },
        ),
        Oracle::new(
            "CS-R5",
            "a drive follows roads joined on both tiles, with the arrows, past no blocker",
            |st| path_verdict(st, None),
        ),
        Oracle::new(
            "CS-R6",
            "a delivered fare and its drop point are rolled anew",
            |st| {
                let Some((f, _, _)) = drop_off(st) else {
                    return Verdict::Skip;
                };
                if st.zone(st.after, "dispatch", None).is_empty() {
                    return Verdict::Skip;
                }
                let a = Cs::new(st, st.after);
                let here = a.taxi_at(st.actor);
                check(
                    a.at(f.piece).is_some()
                        && a.at(f.dest).is_some()
                        && a.at(f.dest) != here
                        && a.at(f.piece) != here,
                    || {
                        format!(
                            "after the drop-off fare {} stands on {:?} with its destination on {:?} (the taxi on {here:?})",
                            f.i,
                            a.at(f.piece),
                            a.at(f.dest)
                        )
                    },
                )
            },
        ),
        Oracle::new(
            "CS-R7",
            "a drop-off pays the fare's stars and a passenger card",
            |st| {
                let Some((_, stars, _)) = drop_off(st) else {
                    return Verdict::Skip;
                };
                let (b, a) = (Cs::new(st, st.before), Cs::new(st, st.after));
                let top = st.zone(st.before, "dispatch", None).last().copied();
                let fares = st.zone(st.after, "fares", Some(st.actor));
                let took = fares.len() == st.zone(st.before, "fares", Some(st.actor)).len() + 1
                    && fares.last().copied() == top;
                check(
                    a.stars(st.actor) == b.stars(st.actor) + stars && took,
                    || {
                        format!(
                            "stars {} -> {} for a fare of {stars}; passenger card taken: {took}",
                            b.stars(st.actor),
                            a.stars(st.actor)
                        )
                    },
                )
            },
        ),
        Oracle::new(
            "CS-R7",
            "stars change only at a drop-off or for running dry",
            |st| {
                let (b, a) = (Cs::new(st, st.before), Cs::new(st, st.after));
                let mut want: Vec<i64> = (0..st.seats).map(|s| b.stars(s)).collect();
                let me = st.actor as usize;
                if let Some((_, stars, _)) = drop_off(st) {
                    want[me] += stars;
                } else if drive(&b, st.actor, st.action).is_some() && a.gas(st.actor) <= 0 {
                    want[me] -= constant(st, "on_purpose_penalty");
                }
                let got: Vec<i64> = (0..st.seats).map(|s| a.stars(s)).collect();
                check(got == want, || {
                    format!(
                        "stars {:?} -> {got:?}; the rules give {want:?}",
                        (0..st.seats).map(|s| b.stars(s)).collect::<Vec<_>>()
                    )
                })
            },
        ),
        // ---- the end
        Oracle::new(
            "CS-E1",
            "play stops with the last passenger card or an empty tank, and only then",
            |st| {
                let a = Cs::new(st, st.after);
                let last_card = st.zone(st.after, "dispatch", None).is_empty();
                let dry = (0..st.seats).any(|s| a.gas(s) <= 0);
                if last_card || dry {
                    return check(st.ended(), || {
                        format!("the game goes on (last card: {last_card}, a tank dry: {dry})")
                    });
                }
                if !st.ended() {
                    return Verdict::Pass;
                }
                check(stalled_for(st) > 0, || {
                    "the game ended with cards left, gas in every tank and taxis moving".into()
                })
            },
        ),
        Oracle::new(
            "CS-E1",
            "a game where no taxi moves for the set rounds ends at the next turn",
            |st| {
                let a = Cs::new(st, st.after);
                let other = st.zone(st.after, "dispatch", None).is_empty()
                    || (0..st.seats).any(|s| a.gas(s) <= 0);
                let limit = constant(st, "stall_rounds") * st.seats as i64;
                let still = turns_still(st);
                if other || still < limit {
                    return Verdict::Skip;
                }
                if st.ended() {
                    check(still == limit + 1, || {
                        format!(
                            "the game ended after {still} turns without a drive (limit {limit})"
                        )
                    })
                } else {
                    check(still <= limit, || {
                        format!(
                            "{still} turns without a drive and the game goes on (limit {limit})"
                        )
                    })
                }
            },
        ),
        Oracle::new(
            "CS-E2",
            "most stars wins, then most gas, then the nearest drop-off",
            |st| ranking(st, 0),
        ),
        Oracle::new("CS-E2", "a tie on stars goes to the most gas", |st| {
            ranking(st, 1)
        }),
        Oracle::new(
            "CS-E2",
            "a tie on stars and gas goes to the nearest drop-off",
            |st| ranking(st, 2),
        ),
        Oracle::new(
            "CS-E3",
            "a drive that empties the tank ends the game, costs the penalty and says so first",
            |st| {
                let (b, a) = (Cs::new(st, st.before), Cs::new(st, st.after));
                if drive(&b, st.actor, st.action).is_none()
                    || drop_off(st).is_some()
                    || a.gas(st.actor) > 0
                {
                    return Verdict::Skip;
                }
                let penalty = constant(st, "on_purpose_penalty");
                check(
                    st.ended()
                        && a.stars(st.actor) == b.stars(st.actor) - penalty
                        && st.label.contains("empties"),
                    || {
                        format!(
                            "ended: {}, stars {} -> {} (penalty {penalty}), label `{}`",
                            st.ended(),
                            b.stars(st.actor),
                            a.stars(st.actor),
                            st.label
                        )
                    },
                )
            },
        ),
    ]
}

/// Turns begun since the last drive (all of the game's turns when nobody has driven), as of
/// the state after this step.
fn turns_still(st: &Step) -> i64 {
    let last = if st.action.starts_with("move ") {
        st.before.turn
    } else {
        st.earlier
            .iter()
            .rev()
            .find(|e| e.action.starts_with("move "))
            .map_or(0, |e| e.before.turn)
    };
    st.after.turn as i64 - last as i64
}

fn stalled_for(st: &Step) -> i64 {
    let limit = constant(st, "stall_rounds") * st.seats as i64;
    turns_still(st) - limit
}

/// CS-E2 at the end of the game: `depth` 0 judges every ending, 1 only those with a tie on
/// stars, 2 only those with a tie on stars and gas.
fn ranking(st: &Step, depth: usize) -> Verdict {
    let Some(result) = &st.after.result else {
        return Verdict::Skip;
    };
    let a = Cs::new(st, st.after);
    let keys: Vec<[i64; 3]> = (0..st.seats)
        .map(|s| [a.stars(s), a.gas(s), -a.closeness(s)])
        .collect();
    let tie = (0..keys.len()).any(|i| (0..i).any(|j| keys[i][..depth] == keys[j][..depth]));
    if depth > 0 && !tie {
        return Verdict::Skip;
    }
    let want: Vec<u32> = keys
        .iter()
        .map(|k| 1 + keys.iter().filter(|o| *o > k).count() as u32)
        .collect();
    check(result.places == want, || {
        format!(
            "places {:?}; (stars, gas, -closeness) {keys:?} give {want:?}",
            result.places
        )
    })
}

/// A blocker of `kind` is lifted at the start of the next turn of the seat that put it down,
/// and stays until then; a lifted cone goes to the bottom of the deck.
fn lifted_verdict(st: &Step, kind: &str) -> Verdict {
    let (b, a) = (Cs::new(st, st.before), Cs::new(st, st.after));
    if st.ended() {
        return Verdict::Skip;
    }
    let mut lifted = 0;
    let mut verdicts = vec![];
    for cell in blockers(&b, kind) {
        let Some(owner) = placed_by(st, cell, kind) else {
            continue;
        };
        let due = turn_passed(st) && st.after.active == owner;
        let gone = a.blocker(cell) != Some(kind);
        lifted += usize::from(gone);
        verdicts.push(check(due == gone, || {
            format!(
                "the {kind} seat {} put on {} is {} as seat {} is to act (turn {} -> {})",
                owner + 1,
                b.name(cell),
                if gone { "gone" } else { "still there" },
                st.after.active + 1,
                st.before.turn,
                st.after.turn
            )
        }));
    }
    if kind == "cs-t9" && lifted > 0 {
        let deck = st.zone(st.after, "deck", None);
        let bottom = deck.iter().take(lifted).all(|c| a.card_tile(*c) == "cs-t9");
        verdicts.push(check(bottom, || {
            format!("{lifted} cones lifted, but the deck's bottom {lifted} tiles are not all cones")
        }));
    }
    all(verdicts)
}
