//! The oracles of Critter Cab's house rule No Sitting Out (`mods/critter-cab-no-sitting-out`),
//! which has no rule list of its own: Critter Cab's oracles, less the ones whose rule it
//! changes, and oracles of the changed rules, named by the Critter Cab rule ID each amends.
//!
//! What No Sitting Out changes, as its mod.toml says: the chance cards that make a driver sit
//! out leave the deck and three Ducks Crossing cards (pay a coin) join it, which Critter Cab's
//! oracles judge from the cards' fields unchanged; and when the passenger deck runs out the
//! game no longer ends at once (CC-E1): an empty taxi with no passenger left to draw still
//! drives (CC-T2), and the game ends as the next round would begin, so every driver has the
//! round's last turn.

use super::*;

/// Critter Cab's oracle of drawing a fare at a turn's start, which No Sitting Out keeps while
/// the passenger deck has a card.
const DRAWS: &str = "an empty taxi draws a fare as its turn begins; a taxi with riders draws none";

/// Critter Cab's oracle of the game's end for want of passengers, which No Sitting Out keeps
/// only for a cab's first placing (`start`): a taxi placed with no passenger to draw ends the
/// game there as in Critter Cab, since the house rule hooks only the turns of cabs on the board.
const ONLY_AT_START: &str =
    "the game ends when an empty taxi must draw from an empty passenger deck";

/// The state before step `i` of the game (`st.index + 1`: after this step).
fn state_at<'a>(st: &'a Step, i: usize) -> &'a State {
    match i.cmp(&st.index) {
        std::cmp::Ordering::Less => &st.earlier[i].before,
        std::cmp::Ordering::Equal => st.before,
        std::cmp::Ordering::Greater => st.after,
    }
}

/// Whether seat `a`'s turn, beginning in state `s`, finds no passenger to draw: its cab is on
/// the board with nobody aboard and the passenger deck is empty.
fn starts_dry(st: &Step, s: &State, a: u8) -> bool {
    ids(st, s, "passenger-deck", None).is_empty()
        && ids(st, s, "riding", Some(a)).is_empty()
        && cab(st, s, a).is_some()
}

/// The seat whose turn began at step `i` (the turn passed), if one did.
fn began_at(st: &Step, i: usize) -> Option<u8> {
    let (b, a) = (state_at(st, i), state_at(st, i + 1));
    (b.turn != a.turn && a.result.is_none()).then_some(a.active)
}

/// Whether, in the round ending at this step, some empty taxi found no passenger to draw as
/// its turn began (going back to the step that began the first seat's turn).
fn ran_dry_this_round(st: &Step) -> bool {
    for i in (0..st.index).rev() {
        if let Some(a) = began_at(st, i) {
            if starts_dry(st, state_at(st, i), a) {
                return true;
            }
            if a == 0 {
                return false;
            }
        }
    }
    false
}

/// No Sitting Out's oracles.
pub fn no_sitting_out_oracles() -> Vec<Oracle> {
    let mut v: Vec<Oracle> = oracles()
        .into_iter()
        .map(|o| match o.name {
            // Drawing a fare: only while the deck has one (an empty taxi then drives on,
            // judged by the CC-E1 oracle below).
            DRAWS => o.only_when(|st| !ids(st, st.before, "passenger-deck", None).is_empty()),
            ONLY_AT_START => o.only_when(|st| words(st)[0] == "start"),
            _ => o,
        })
        .collect();
    v.extend([
        Oracle::new(
            "CC-E1",
            "with no passenger left, an empty taxi still drives; the game ends as the next round would begin",
            |st| {
                if ended_by_limit(st) || phase(st.before) == "choose-taxi" || words(st)[0] == "start" {
                    return Verdict::Skip;
                }
                // The seat whose turn begins now, or would have begun had the game not ended.
                let next = if st.ended() {
                    (st.actor + 1) % st.seats
                } else if let Some(a) = began_at(st, st.index) {
                    a
                } else {
                    return Verdict::Skip;
                };
                let dry = ran_dry_this_round(st);
                let new_round = next == 0;
                if new_round && (dry || starts_dry(st, st.before, st.actor) && st.actor == st.seats - 1) {
                    return check(ended_by_run_out(st), || {
                        "the passengers ran out in this round, and the next round begins".into()
                    });
                }
                check(!ended_by_run_out(st), || {
                    format!(
                        "the game ends for want of passengers as seat {}'s turn would begin, though no taxi this round has yet found the deck empty and driven on",
                        next + 1
                    )
                })
            },
        ),
    ]);
    v
}

/// The games No Sitting Out's oracles judge: Critter Cab's (with its last fares and the
/// passenger deck run out at every seat count).
pub fn no_sitting_out_plans(n: u64) -> Vec<Plan> {
    let mut out = plans(n);
    for seed in 0..n {
        out.push(Plan::new(800 + seed, &["random", "random", "random"]).prepare(last_fares));
        out.push(
            Plan::new(900 + seed, &["cabbie", "random", "cabbie", "random"]).prepare(last_fares),
        );
    }
    out
}
