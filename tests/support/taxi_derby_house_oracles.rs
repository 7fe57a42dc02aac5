//! The oracles of Taxi Derby's house rule Learner's Permit (`mods/taxi-derby-learners-permit`),
//! which has no rule list of its own: Taxi Derby's oracles, less the one whose rule it takes
//! away, and oracles of the changed rules, named by the Taxi Derby rule ID each amends.
//!
//! What Learner's Permit changes, as its mod.toml says: the game ends on three empty stacks
//! (an option, read by Taxi Derby's oracles); the precinct tickets become warnings of no fine
//! and the two "lose an upgrade of your choice" tickets leave the deck, so no taxi is ever
//! impounded (TD-K3); the Cleanest Record bonus pays more (a table, read); a careful driver's
//! tip (the `careful_tip` constant, which Taxi Derby's money oracles pay as a turn ends within
//! the speed limit); and a taxi at a stop whose passenger needs an upgrade it lacks may wave
//! that passenger on to the bottom of its stack, once a turn (TD-P2: a pick-up needs the
//! upgrades asked for).

use super::*;

/// The Taxi Derby oracles Learner's Permit replaces (by name).
const REPLACED: [&str; 1] = ["an impounded taxi loses its riders and its turn"];

/// The space a seat's taxi stands on in `s`, with its properties.
fn taxi_space<'s>(st: &Step, s: &'s State, seat: u8) -> Option<&'s farebox::board::Space> {
    let d = st.def.piece("taxi")? as u16;
    let at = s
        .pieces
        .iter()
        .find(|p| p.def == d && p.owner == Some(seat))?
        .at?;
    s.board.graph.spaces.get(at as usize)
}

fn prop<'s>(space: &'s farebox::board::Space, key: &str) -> Option<&'s str> {
    space.props.get(key).and_then(Value::as_str)
}

/// The stop and stack zones of the stop the actor's taxi stands on in `s`, and the passenger
/// waiting on top there, when that passenger needs an upgrade the taxi lacks.
fn unfit_passenger(st: &Step, s: &State) -> Option<(String, String, CardRef)> {
    let space = taxi_space(st, s, st.actor)?;
    let (stop, stack) = (prop(space, "zone")?, prop(space, "stack")?);
    let &top = cards_in(st, s, stop, None).last()?;
    let have = kinds(st, s, st.actor);
    let lacks = list_field(st.card(top), "requires")
        .iter()
        .any(|k| !have.contains_key(k));
    lacks.then(|| (stop.to_string(), stack.to_string(), top))
}

/// Whether the actor already waved a passenger on in this turn, before this step.
fn waved_this_turn(st: &Step) -> bool {
    this_turn(st).any(|i| i < st.index && action_at(st, i) == "wave")
}

/// Learner's Permit's oracles.
pub fn learners_permit_oracles() -> Vec<Oracle> {
    let mut v: Vec<Oracle> = oracles()
        .into_iter()
        .filter(|o| !REPLACED.contains(&o.name))
        .collect();
    v.extend([
        Oracle::new("TD-K3", "no taxi is impounded: tickets are warnings", |st| {
            let riders = cards_in(st, st.before, "cab", Some(st.actor));
            if riders.is_empty() {
                return Verdict::Skip;
            }
            let boxed = added(
                cards_in(st, st.before, "box", None),
                cards_in(st, st.after, "box", None),
            );
            check(!riders.iter().any(|c| boxed.contains(c)), || {
                "a rider went to the box: the taxi was impounded".into()
            })
        }),
        Oracle::new(
            "TD-P2",
            "a passenger is waved on only from the taxi's stop, for an upgrade it lacks, once a turn",
            |st| {
                if !st.offered.iter().any(|a| a == "wave") {
                    return Verdict::Skip;
                }
                let unfit = unfit_passenger(st, st.before);
                let next = unfit
                    .as_ref()
                    .map_or(0, |(_, stack, _)| count(st, st.before, stack, None));
                check(unfit.is_some() && next > 0 && !waved_this_turn(st), || {
                    format!(
                        "a wave is offered with {} waiting, {next} tiles to turn up{}",
                        unfit.as_ref().map_or("no unfit passenger".to_string(), |u| st.card(u.2).id.clone()),
                        if waved_this_turn(st) { ", after a wave this turn" } else { "" }
                    )
                })
            },
        ),
        Oracle::new(
            "TD-P2",
            "a passenger the taxi cannot carry may be waved on",
            |st| {
                let Some((_, stack, _)) = unfit_passenger(st, st.before) else {
                    return Verdict::Skip;
                };
                if !st.offered.iter().any(|a| a.starts_with("go ") || a.starts_with("drop ") || a.starts_with("pickup ") || a.starts_with("buy ")) || waved_this_turn(st) || count(st, st.before, &stack, None) == 0 {
                    return Verdict::Skip;
                }
                check(st.offered.iter().any(|a| a == "wave"), || {
                    "no wave is offered for a passenger the taxi cannot carry".into()
                })
            },
        ),
        Oracle::new(
            "TD-P2",
            "a waved passenger goes under its stack and the next is turned up",
            |st| {
                if st.action != "wave" {
                    return Verdict::Skip;
                }
                let Some((stop, stack, top)) = unfit_passenger(st, st.before) else {
                    return Verdict::Fail("a wave with no unfit passenger at the taxi's stop".into());
                };
                let stack_b = cards_in(st, st.before, &stack, None);
                let stack_a = cards_in(st, st.after, &stack, None);
                let stop_b = cards_in(st, st.before, &stop, None);
                let stop_a = cards_in(st, st.after, &stop, None);
                let turned = stack_b.last().copied();
                let mut want_stop = stop_b.to_vec();
                want_stop.pop();
                want_stop.extend(turned);
                let mut want_stack = vec![top];
                want_stack.extend_from_slice(&stack_b[..stack_b.len().saturating_sub(1)]);
                check(stop_a == want_stop.as_slice() && stack_a == want_stack.as_slice(), || {
                    format!(
                        "after waving {} on, the stop holds {:?} and the stack {:?}",
                        st.card(top).id,
                        stop_a.iter().map(|c| &st.card(*c).id).collect::<Vec<_>>(),
                        stack_a.iter().map(|c| &st.card(*c).id).collect::<Vec<_>>()
                    )
                })
            },
        ),
    ]);
    v
}

/// The games Learner's Permit's oracles judge: Taxi Derby's.
pub fn learners_permit_plans(n: u64) -> Vec<Plan> {
    plans(n)
}
