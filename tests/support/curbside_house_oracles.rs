//! The oracles of Curbside's house rule Gas Station (`mods/curbside-gas-station`), which has no
//! rule list of its own: Curbside's oracles, less the three whose rule it changes, and oracles
//! of the changed rules, named by the Curbside rule ID each amends.
//!
//! What Gas Station changes, as its mod.toml says: the canteens leave the draw deck and a
//! fifth pothole joins it (CS-S9); a taxi with nobody aboard may spend its whole turn filling
//! up (`refuel`, the first action of a turn: CS-A0) for the `refuel_gas` constant (CS-A6); the
//! longest trips pay a star more and tanks start lower (content and an option, which the
//! Curbside oracles read from the `GameDef` and so follow unchanged).

use super::*;

/// The Curbside oracles Gas Station's rules replace (by name).
const REPLACED: [&str; 1] = ["fifty tiles of twelve kinds make the deck"];

/// The Curbside oracles that judge every action but the fill-up, which they know nothing of
/// (the fill-up has oracles of its own below).
const NOT_OF_REFUEL: [&str; 2] = [
    "three actions a turn; cards from hand cost none",
    "gas changes only by a drive, a canteen or a drop-off",
];

fn carrying(st: &Step, s: &State, seat: u8) -> bool {
    Cs::new(st, s).carried(seat).into_iter().next().is_some()
}

/// Gas Station's oracles.
pub fn gas_station_oracles() -> Vec<Oracle> {
    let mut v: Vec<Oracle> = oracles()
        .into_iter()
        .filter(|o| !REPLACED.contains(&o.name))
        .map(|o| {
            if NOT_OF_REFUEL.contains(&o.name) {
                o.only_when(|st| st.action != "refuel")
            } else {
                o
            }
        })
        .collect();
    v.extend([
        Oracle::new(
            "CS-S9",
            "the deck is Curbside's less its canteens, with a fifth pothole",
            |st| {
                if st.index != 0 || st.forced {
                    return Verdict::Skip;
                }
                let Some(d) = st.def.deck("road-tiles") else {
                    return fail("no road-tiles deck".into());
                };
                let cards = &st.def.decks[d].cards;
                let of = |kind: &str| -> u32 {
                    cards
                        .iter()
                        .filter(|c| c.fields.get("tile").and_then(Value::as_str) == Some(kind))
                        .map(|c| c.count)
                        .sum()
                };
                let total: u32 = cards.iter().map(|c| c.count).sum();
                let cs = Cs::new(st, st.before);
                let in_play = st.zone(st.before, "deck", None).len()
                    + (0..st.seats)
                        .map(|s| cs.hand(s).iter().filter(|c| c.deck as usize == d).count())
                        .sum::<usize>();
                check(
                    total == 48 && of("cs-t10") == 0 && of("cs-t12") == 5 && in_play == 48,
                    || {
                        format!(
                            "the deck has {total} tiles ({} canteens, {} potholes), {in_play} of them in the deck and hands",
                            of("cs-t10"),
                            of("cs-t12")
                        )
                    },
                )
            },
        ),
        Oracle::new(
            "CS-A0",
            "a fill-up is offered as a turn's first action to a taxi with nobody aboard",
            |st| {
                if st.ended() || st.before.result.is_some() {
                    return Verdict::Skip;
                }
                let first = st.counter(st.before, "actions", None) == constant(st, "actions_per_turn");
                let may = first && !carrying(st, st.before, st.actor);
                let offered = st.offered.iter().any(|a| a == "refuel");
                check(offered == may, || {
                    format!(
                        "a fill-up {} with {} actions left and {} aboard",
                        if offered { "is offered" } else { "is not offered" },
                        st.counter(st.before, "actions", None),
                        if carrying(st, st.before, st.actor) { "a passenger" } else { "nobody" }
                    )
                })
            },
        ),
        Oracle::new("CS-A0", "a fill-up takes the whole turn", |st| {
            if st.action != "refuel" || st.ended() {
                return Verdict::Skip;
            }
            let per_turn = constant(st, "actions_per_turn");
            let left = st.counter(st.after, "actions", None);
            check(turn_passed(st) && left == per_turn, || {
                format!(
                    "after a fill-up the turn {} and the next starts with {left} actions",
                    if turn_passed(st) { "passed" } else { "went on" }
                )
            })
        }),
        Oracle::new("CS-A6", "a fill-up adds the station's gas to the tank", |st| {
            if st.action != "refuel" {
                return Verdict::Skip;
            }
            let (b, a) = (Cs::new(st, st.before), Cs::new(st, st.after));
            let add = constant(st, "refuel_gas");
            all((0..st.seats).map(|s| {
                let want = b.gas(s) + if s == st.actor { add } else { 0 };
                check(a.gas(s) == want, || {
                    format!(
                        "seat {}'s gas went {} -> {} at a fill-up; the station gives {want}",
                        s + 1,
                        b.gas(s),
                        a.gas(s)
                    )
                })
            }))
        }),
    ]);
    v
}

/// The games Gas Station's oracles judge: Curbside's, and one whose deck is drawn dry (with
/// fill-ups, tanks rarely run dry first, so Curbside's nearly empty deck is not enough).
pub fn gas_station_plans(n: u64) -> Vec<Plan> {
    let mut out = plans(n);
    for seed in 0..n {
        out.push(Plan::new(700 + seed, &["random", "random"]).prepare(empty_deck));
    }
    out
}

/// Every tile of the deck dealt into the hands, the cones put back in the box: the deck is
/// empty.
fn empty_deck(g: &mut Game) {
    g.eval(
        r#"
        local deck = game.zone("deck")
        local s = 1
        for _ = 1, 200 do
          if game.count(deck) == 0 then break end
          local hand = game.zone("hand", s)
          local card = game.move_card(deck, hand)
          if card == "cs-t9" then game.take_card(hand, card, game.zone("supply")) end
          s = s % game.seats() + 1
        end
        "#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
}
