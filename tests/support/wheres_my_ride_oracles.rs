//! Where's My Ride?'s rule oracles: one or more per rule ID of `mods/wheres-my-ride/RULES.md`
//! that can be stated as a check of one step (see `oracles.rs` for the framework), and the
//! oracles of the house rule Show, Don't Tell (`house_rule_oracles`).
//!
//! They never ask the rules script: who texts and who speaks in a round is worked out here
//! from the seats, the Driver and the round counter; the texts of a round, the emojis placed in
//! it and the guesses made are read off the earlier steps (the step that turned the texts up,
//! the Driver's `done`); the tiles a decision turns over are read off the rating stack, top
//! first; the pickup spot is the Driver's secret in the state. The numbers the rule list gives
//! are written here (five stars, four broken stars, five emojis, nine places, two texters who
//! draw two and keep one, four and two with two players, three with Triple Text, one guess a
//! round, one tile for waiting and two for a miss, one emoji at least). Numbers it leaves to
//! the content come from the `GameDef`: the checkmarks among the rating tiles and those each
//! difficulty leaves in the box (the house rule changes both), and the spokesperson's seat
//! (a choice of DESIGN.md). So a mutant of a number the rule list gives is caught here, and
//! one of a number the content chooses is left to the scenario tests.
//!
//! Not stated as a one-step check: WR-B1 (the bots beat random guessing: a property of many
//! games, and a step cannot tell a bot's choice from a person's; every action a bot takes is
//! judged by the other oracles). Shuffles are properties of many deals: the oracles judge only
//! what an unshuffled pile would show at once (the text deck, the emoji bag and the location
//! deck in the order of their files, a rebuilt text deck in the order its discards were piled;
//! a chance of one in many factorials), not the rating stack (two kinds of tile, in order by
//! chance once in a hundred games) nor where the pickup spot lies among the places. What the
//! setup writes to the log comes before the first step, so no oracle reads it; and a game that
//! stops on a script error is reported by the runner, not caught by an oracle.
//!
//! Conservation (what moves only as the rules say): the rating falls by one per broken star
//! turned and by nothing else (WR-R8); rating tiles leave the stack only when the Riders wait
//! or miss, and turned tiles stay turned (WR-R7); places leave the table only by a wrong guess
//! (WR-R6); emojis go from the bag behind the screen only on `done`, from behind the screen to
//! the table only by a placement, and never leave the table, and texts sent stay on it (WR-R5);
//! the round counter moves by one, when the Riders have decided (WR-R1).
//!
//! Show, Don't Tell changes two rules (WR-R4: a Driver holding nothing true of the pickup spot
//! may say done without placing; WR-R5: such a Driver throws the hand back and draws afresh,
//! once a round, as the Driver's part begins) and how WR-R9 tells it (the fresh hand to the
//! Driver only); its constants and content (seven checkmarks, a Patient difficulty, no verdict
//! tokens) reach the other oracles through the `GameDef`. `house_rule_oracles()` is the game's
//! oracles with the two changed ones replaced by oracles of the changed rules, named by the
//! rule IDs they amend, and one more for WR-R9; `house_rule_plans(n)` adds games steered to a
//! hand with nothing true in it. Two functions rather than one taking the mod id: the house
//! rule's plans need the house rule's content (a hand chosen from its smaller bag) and the
//! tests read more plainly naming what they run.

use std::collections::BTreeSet;

use farebox::game::Game;
use farebox::state::{Seen, State};
use farebox::value::Value;

use crate::oracles::{Oracle, Plan, Step, Verdict, all, check};

/// The rule list's numbers.
const STARTING_RATING: i64 = 5; // WR-S2
const BROKEN_STARS: usize = 4; // WR-S2, WR-R8
const EMOJI_HAND: usize = 5; // WR-S4, WR-R5
const PLACES: usize = 9; // WR-S5
const TEXTERS: usize = 2; // WR-R1
const TRIPLE_TEXTERS: usize = 3; // WR-V3
const TWO_PLAYER_TEXTERS: usize = 1; // WR-V1
const DRAWN: usize = 2; // WR-R2, WR-V3
const KEPT: usize = 1;
const TWO_PLAYER_DRAWN: usize = 4; // WR-V1
const TWO_PLAYER_KEPT: usize = 2;
const FIRST_TEXTER_OFFSET: usize = 1; // WR-R1: "starting left of the Driver"
const MIN_EMOJIS: usize = 1; // WR-R4: "one or more"
const GUESSES_A_ROUND: usize = 1; // WR-R6
const TILES_WAIT: usize = 1; // WR-R7
const TILES_MISS: usize = 2;

// ---------------------------------------------------------------------------------------
// Reading the state

fn ids(st: &Step, s: &State, zone: &str, seat: Option<u8>) -> Vec<String> {
    st.zone(s, zone, seat)
        .iter()
        .map(|c| st.card(*c).id.clone())
        .collect()
}
fn count(st: &Step, s: &State, zone: &str, seat: Option<u8>) -> usize {
    st.zone(s, zone, seat).len()
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
fn same_cards(a: &[String], b: &[String]) -> bool {
    let (mut a, mut b) = (a.to_vec(), b.to_vec());
    a.sort();
    b.sort();
    a == b
}
fn var<'s>(s: &'s State, name: &str) -> Option<&'s Value> {
    s.vars.get(name).map(|v| &v.value)
}
fn seen(s: &State, name: &str) -> Option<Seen> {
    s.vars.get(name).map(|v| v.seen)
}
/// The Driver's seat (from 0).
fn driver(s: &State) -> Option<u8> {
    var(s, "_driver")
        .and_then(Value::as_int)
        .and_then(|d| u8::try_from(d - 1).ok())
}
fn answer(s: &State) -> Option<String> {
    var(s, "_answer")
        .and_then(Value::as_str)
        .map(str::to_string)
}
fn field<'a>(st: &'a Step, deck: &str, card: &str, f: &str) -> Option<&'a Value> {
    let d = st.def.deck(deck)?;
    st.def.decks[d]
        .cards
        .iter()
        .find(|c| c.id == card)?
        .fields
        .get(f)
}
fn strings(v: Option<&Value>) -> Vec<String> {
    match v {
        Some(Value::List(l)) => l
            .iter()
            .filter_map(|x| x.as_str().map(str::to_string))
            .collect(),
        _ => vec![],
    }
}
fn name(st: &Step, deck: &str, card: &str) -> String {
    st.def
        .deck(deck)
        .and_then(|d| st.def.decks[d].cards.iter().find(|c| c.id == card))
        .map_or(String::new(), |c| c.name.clone())
}
fn card_def<'a>(
    st: &'a Step,
    deck: &str,
    card: &str,
) -> Option<&'a farebox::content::def::CardDef> {
    let d = st.def.deck(deck)?;
    st.def.decks[d].cards.iter().find(|c| c.id == card)
}
/// A text's message, as the table reads it.
fn message(st: &Step, card: &str) -> String {
    card_def(st, "texts", card).map_or(String::new(), |c| c.text.clone())
}
/// A card's clue tags (locations and texts).
fn tags(st: &Step, deck: &str, card: &str) -> Vec<String> {
    card_def(st, deck, card).map_or(vec![], |c| c.tags.clone())
}
fn broken(st: &Step, tile: &str) -> bool {
    field(st, "ratings", tile, "kind").and_then(Value::as_str) == Some("broken-star")
}
fn opt_bool(st: &Step, id: &str) -> bool {
    st.option(id)
        .or_else(|| st.def.option(id).map(|o| &o.default))
        .and_then(Value::as_bool)
        .unwrap_or(false)
}
fn opt_str(st: &Step, id: &str) -> String {
    st.option(id)
        .or_else(|| st.def.option(id).map(|o| &o.default))
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string()
}
fn constant(st: &Step, id: &str) -> Option<i64> {
    st.def.constants.get(id).and_then(Value::as_int)
}
fn round(st: &Step, s: &State) -> i64 {
    st.counter(s, "round", None)
}
fn rating(st: &Step, s: &State) -> i64 {
    st.counter(s, "rating", None)
}
fn words<'a>(st: &Step<'a>) -> Vec<&'a str> {
    st.action.split(' ').collect()
}
fn kind<'a>(st: &Step<'a>) -> &'a str {
    st.action.split(' ').next().unwrap_or("")
}
fn seat_word(s: Option<u8>) -> String {
    match s {
        Some(s) => format!("seat {}", s + 1),
        None => "a spectator".into(),
    }
}

// ---------------------------------------------------------------------------------------
// Who does what in a round (WR-S1, WR-R1, WR-R6, WR-V1, WR-V3)

/// The Riders, from the Driver's left (the next seat number, wrapping round).
fn riders(seats: u8, d: u8) -> Vec<u8> {
    (1..seats).map(|i| (d + i) % seats).collect()
}
fn two_player(st: &Step) -> bool {
    st.seats == 2 && opt_bool(st, "two-player")
}
fn triple(st: &Step) -> bool {
    st.seats > 2 && opt_bool(st, "triple-text")
}
/// Which rule sets the texting of this game: WR-V1 (two players, the option on), WR-V3
/// (Triple Text) or WR-R1/WR-R2.
fn case(st: &Step) -> &'static str {
    if two_player(st) {
        "WR-V1"
    } else if triple(st) {
        "WR-V3"
    } else {
        "WR-R"
    }
}
fn texter_count(st: &Step, riders: usize) -> usize {
    let k = if two_player(st) {
        TWO_PLAYER_TEXTERS
    } else if triple(st) {
        TRIPLE_TEXTERS
    } else {
        TEXTERS
    };
    k.min(riders)
}
fn draw_keep(st: &Step) -> (usize, usize) {
    if two_player(st) {
        (TWO_PLAYER_DRAWN, TWO_PLAYER_KEPT)
    } else {
        (DRAWN, KEPT)
    }
}
/// The texters of round `r`, in order: the Riders after last round's, from the first Rider to
/// the Driver's left in round 1.
fn texters(st: &Step, s: &State, r: i64) -> Vec<u8> {
    let Some(d) = driver(s) else { return vec![] };
    let rs = riders(st.seats, d);
    let n = rs.len();
    if n == 0 || r < 1 {
        return vec![];
    }
    let k = texter_count(st, n);
    let start = (FIRST_TEXTER_OFFSET - 1 + (r as usize - 1) * k) % n;
    (0..k).map(|i| rs[(start + i) % n]).collect()
}
/// The spokesperson of round `r`: one Rider a round, clockwise from the first speaker.
fn speaker(st: &Step, s: &State, r: i64) -> Option<u8> {
    let d = driver(s)?;
    let rs = riders(st.seats, d);
    let off = constant(st, "first_speaker_offset").unwrap_or(1).max(1) as usize;
    if rs.is_empty() || r < 1 {
        return None;
    }
    Some(rs[(off - 1 + r as usize - 1) % rs.len()])
}

/// The states of the game so far, oldest first, ending with the state before this step.
fn states<'a>(st: &'a Step) -> Vec<&'a State> {
    st.earlier
        .iter()
        .map(|e| &e.before)
        .chain(std::iter::once(st.before))
        .collect()
}
/// The step, before this one, that turned this round's texts up: the state after it and the
/// texts it turned up, in order.
fn round_texts<'a>(st: &'a Step) -> Option<(&'a State, Vec<String>)> {
    let ss = states(st);
    for i in (0..ss.len().saturating_sub(1)).rev() {
        let (b, a) = (ss[i], ss[i + 1]);
        let (pb, pa) = (
            ids(st, b, "played-texts", None),
            ids(st, a, "played-texts", None),
        );
        if pa.len() > pb.len() {
            return Some((a, pa[pb.len()..].to_vec()));
        }
    }
    None
}
/// The state after the Driver's last `done` before this step (the guessing began there).
fn after_done<'a>(st: &'a Step) -> Option<&'a State> {
    let i = st.earlier.iter().rposition(|e| e.action == "done")?;
    Some(st.earlier.get(i + 1).map_or(st.before, |e| &e.before))
}
/// Wrong guesses made this round before this step.
fn guesses_made(st: &Step) -> usize {
    after_done(st).map_or(0, |s| {
        count(st, st.before, "ruled-out", None).saturating_sub(count(st, s, "ruled-out", None))
    })
}
fn began_round(st: &Step) -> bool {
    round(st, st.after) > round(st, st.before)
}
fn revealed(st: &Step) -> bool {
    count(st, st.after, "played-texts", None) > count(st, st.before, "played-texts", None)
}
fn setup_step(st: &Step) -> bool {
    st.index == 0 && !st.forced
}

// ---------------------------------------------------------------------------------------
// What an emoji says of a place (Show, Don't Tell)

/// Whether one of the token's readings suggests one of the place's tags.
fn true_of(st: &Step, token: &str, place: &str) -> bool {
    let tags: BTreeSet<String> = tags(st, "locations", place).into_iter().collect();
    let Some(t) = st.def.table("meanings") else {
        return false;
    };
    let table = &st.def.tables[t];
    strings(field(st, "emojis", token, "meanings"))
        .iter()
        .filter_map(|m| table.lookup(&Value::Str(m.clone())))
        .any(|row| {
            strings(row.get("suggests"))
                .iter()
                .any(|t| tags.contains(t))
        })
}
fn holds_something_true(st: &Step, hand: &[String], place: &str) -> bool {
    hand.iter().any(|t| true_of(st, t, place))
}

// ---------------------------------------------------------------------------------------
// Setup (WR-S1 - WR-S5, WR-V2)

fn zone_deck(zone: &str) -> Option<&'static str> {
    Some(match zone {
        "location-deck" | "candidates" | "ruled-out" => "locations",
        "text-deck" | "text-hand" | "text-chosen" | "text-discard" | "played-texts" => "texts",
        "emoji-bag" | "driver-emojis" | "placed-emojis" => "emojis",
        "rating-stack" | "rating-removed" | "rating-revealed" | "rating-board" => "ratings",
        _ => return None,
    })
}

fn piles_hold_their_decks(st: &Step) -> Verdict {
    for z in &st.after.zones {
        let zid = &st.def.zones[z.def as usize].id;
        let Some(deck) = zone_deck(zid) else {
            return Verdict::Fail(format!("a zone `{zid}` the rules do not have"));
        };
        let want = st.def.deck(deck);
        if let Some(c) = z.cards.iter().find(|c| Some(c.deck as usize) != want) {
            return Verdict::Fail(format!(
                "`{zid}` holds `{}`, a card of another deck than {deck}",
                st.card(*c).id
            ));
        }
    }
    Verdict::Pass
}

fn texts_sent_are_tagged_with_places(st: &Step) -> Verdict {
    if !revealed(st) {
        return Verdict::Skip;
    }
    let Some(t) = st.def.table("tags") else {
        return Verdict::Fail("no clue table `tags`".into());
    };
    let table = &st.def.tables[t];
    let sent = minus(
        &ids(st, st.after, "played-texts", None),
        &ids(st, st.before, "played-texts", None),
    );
    all(sent.iter().map(|c| {
        let tags = tags(st, "texts", c);
        let bad: Vec<&String> = tags
            .iter()
            .filter(|t| {
                table
                    .lookup(&Value::Str((*t).clone()))
                    .and_then(|r| r.get("group"))
                    .and_then(Value::as_str)
                    != Some("place")
            })
            .collect();
        check(!tags.is_empty() && bad.is_empty(), || {
            format!("the text `{c}` sent has tags {tags:?}; {bad:?} are not place tags")
        })
    }))
}

fn one_driver(st: &Step) -> Verdict {
    let (Some(d), Some(da)) = (driver(st.before), driver(st.after)) else {
        return Verdict::Fail("no Driver (`_driver`) in the state".into());
    };
    if d >= st.seats || da != d {
        return Verdict::Fail(format!(
            "the Driver was seat {} and is seat {} in a game of {}",
            d + 1,
            da + 1,
            st.seats
        ));
    }
    if setup_step(st) && opt_str(st, "driver") == "first-seat" && d != 0 {
        return Verdict::Fail(format!(
            "seat {} drives though the first seat should (option driver = first-seat)",
            d + 1
        ));
    }
    check(
        st.actor == d || ["send", "guess", "wait"].contains(&kind(st)),
        || format!("a Rider, seat {}, may only text or decide", st.actor + 1),
    )
}

fn driver_only_places(st: &Step) -> Verdict {
    let Some(d) = driver(st.before) else {
        return Verdict::Skip;
    };
    if st.actor != d {
        return check(kind(st) != "place" && kind(st) != "done", || {
            "a Rider placed an emoji or said done".into()
        });
    }
    check(["place", "done"].contains(&kind(st)), || {
        format!(
            "the Driver took `{}`: they speak only through emojis",
            st.action
        )
    })
}

fn together(st: &Step) -> Verdict {
    let Some(r) = &st.after.result else {
        return Verdict::Skip;
    };
    let w = words(st);
    let won = w[0] == "guess" && w.get(1).map(|c| c.to_string()) == answer(st.before);
    if r.together != Some(won) {
        return Verdict::Fail(format!(
            "the game ended {:?} together ({}), though the Riders {} the pickup spot",
            r.together,
            r.reason,
            if won { "found" } else { "did not find" }
        ));
    }
    let left = rating(st, st.after);
    check(
        r.places.windows(2).all(|p| p[0] == p[1]) && r.scores.iter().all(|&x| x == left),
        || {
            format!(
                "places {:?} and scores {:?}: every seat should share one place and score the {left} stars left",
                r.places, r.scores
            )
        },
    )
}

fn starting_tiles(st: &Step) -> Verdict {
    if !tiles_as_dealt(st) {
        return Verdict::Skip;
    }
    let s = st.before;
    let Some(d) = st.def.deck("ratings") else {
        return Verdict::Fail("no deck `ratings`".into());
    };
    let mut every: Vec<String> = st.def.decks[d]
        .cards
        .iter()
        .flat_map(|c| std::iter::repeat_n(c.id.clone(), c.count as usize))
        .collect();
    every.sort();
    let stack = ids(st, s, "rating-stack", None);
    let removed = ids(st, s, "rating-removed", None);
    let mut both = [stack.clone(), removed].concat();
    both.sort();
    let broken_in_deck = every.iter().filter(|t| broken(st, t)).count();
    all([
        check(rating(st, s) == STARTING_RATING, || {
            format!(
                "the rating starts at {} stars, not {STARTING_RATING}",
                rating(st, s)
            )
        }),
        check(broken_in_deck == BROKEN_STARS, || {
            format!("the rating tiles hold {broken_in_deck} broken stars, not {BROKEN_STARS}")
        }),
        check(both == every, || {
            format!("the stack and the box hold {both:?}; the rating tiles are {every:?}")
        }),
        check(
            count(st, s, "rating-revealed", None) + count(st, s, "rating-board", None) == 0,
            || "tiles are turned over before the first round".into(),
        ),
    ])
}

/// The first action of a game whose rating tiles are as setup left them: every game not
/// forced, and forced games whose `prepare` turned no tile (no plan's `prepare` moves the
/// tiles unless it turns some onto the rating board).
fn tiles_as_dealt(st: &Step) -> bool {
    st.index == 0
        && count(st, st.before, "rating-board", None) == 0
        && count(st, st.before, "rating-revealed", None) == 0
}

fn checks_left_in_the_box(st: &Step) -> Verdict {
    if !tiles_as_dealt(st) {
        return Verdict::Skip;
    }
    let level = opt_str(st, "difficulty");
    let want = st
        .def
        .constants
        .get("checks_removed")
        .and_then(|m| m.get(level.as_str()))
        .and_then(Value::as_int)
        .unwrap_or(0) as usize;
    let removed = ids(st, st.before, "rating-removed", None);
    let stack = ids(st, st.before, "rating-stack", None);
    all([
        check(
            removed.len() == want && removed.iter().all(|t| !broken(st, t)),
            || format!("difficulty {level} leaves {removed:?} in the box, not {want} checkmarks"),
        ),
        check(
            stack.iter().filter(|t| broken(st, t)).count() == BROKEN_STARS,
            || format!("the stack {stack:?} does not hold all {BROKEN_STARS} broken stars"),
        ),
    ])
}

fn five_emojis(st: &Step) -> Verdict {
    if !setup_step(st) {
        return Verdict::Skip;
    }
    let Some(d) = driver(st.before) else {
        return Verdict::Fail("no Driver".into());
    };
    all((0..st.seats).map(|s| {
        let n = count(st, st.before, "driver-emojis", Some(s));
        let want = if s == d { EMOJI_HAND } else { 0 };
        check(n == want, || {
            format!(
                "seat {} starts with {n} emojis behind a screen, not {want}",
                s + 1
            )
        })
    }))
}

/// How a zone lies: face down to everyone, seen by its owner only, or face up.
#[derive(Clone, Copy, PartialEq)]
enum Face {
    Down,
    Owner,
    Up,
}

/// Every viewer's view shows the cards of each zone listed as it lies, and no more.
fn zones_lie(st: &Step, zones: &[(&str, Face)]) -> Verdict {
    all(st.shown.iter().map(|s| {
        let view: serde_json::Value = match serde_json::from_str(&s.view) {
            Ok(v) => v,
            Err(e) => return Verdict::Fail(format!("a view that is not JSON: {e}")),
        };
        let Some(list) = view.get("zones").and_then(serde_json::Value::as_array) else {
            return Verdict::Fail("a view without zones".into());
        };
        for z in list {
            let id = z
                .get("id")
                .and_then(serde_json::Value::as_str)
                .unwrap_or("");
            let Some(&(_, face)) = zones.iter().find(|(zid, _)| *zid == id) else {
                continue;
            };
            let owner = z
                .get("owner")
                .and_then(serde_json::Value::as_u64)
                .and_then(|o| u8::try_from(o).ok());
            let count = z
                .get("count")
                .and_then(serde_json::Value::as_u64)
                .unwrap_or(0) as usize;
            let cards = z
                .get("cards")
                .and_then(serde_json::Value::as_array)
                .map_or(0, Vec::len);
            let want = match face {
                Face::Down => 0,
                Face::Up => count,
                Face::Owner if owner.is_some() && owner == s.viewer => count,
                Face::Owner => 0,
            };
            if cards != want {
                return Verdict::Fail(format!(
                    "{} sees {cards} of the {count} cards of `{id}`{}",
                    seat_word(s.viewer),
                    owner.map_or(String::new(), |o| format!(" of seat {}", o + 1))
                ));
            }
        }
        Verdict::Pass
    }))
}

/// At the start, the text deck, the emoji bag and the location deck are not in the order of
/// their files (an unshuffled pile is, less the cards drawn from its top).
fn piles_are_shuffled(st: &Step) -> Verdict {
    if !setup_step(st) {
        return Verdict::Skip;
    }
    all(["text-deck", "emoji-bag", "location-deck"].map(|z| {
        let order: Vec<u16> = st.zone(st.before, z, None).iter().map(|c| c.card).collect();
        let sorted =
            order.windows(2).all(|w| w[0] <= w[1]) || order.windows(2).all(|w| w[0] >= w[1]);
        check(order.len() < 8 || !sorted, || {
            format!("`{z}` lies in the order of its file: it was not shuffled")
        })
    }))
}

fn nine_places(st: &Step) -> Verdict {
    if !setup_step(st) {
        return Verdict::Skip;
    }
    let s = st.before;
    let cands = ids(st, s, "candidates", None);
    let (Some(a), Some(d)) = (answer(s), driver(s)) else {
        return Verdict::Fail("no pickup spot (`_answer`) or no Driver".into());
    };
    let spot = var(s, "pickup spot").and_then(Value::as_str).unwrap_or("");
    let nm = name(st, "locations", &a);
    all([
        check(cands.len() == PLACES, || {
            format!("{} places on the table, not {PLACES}", cands.len())
        }),
        check(cands.contains(&a), || {
            format!("the pickup spot `{a}` is not among the places {cands:?}")
        }),
        check(count(st, s, "ruled-out", None) == 0, || {
            "places are ruled out before the first round".into()
        }),
        check(
            spot.starts_with(&format!("{nm}:")) && seen(s, "pickup spot") == Some(Seen::Seat(d)),
            || format!("the Driver's screen says `{spot}`; the pickup spot is {nm}"),
        ),
    ])
}

fn the_answer_stays_face_up(st: &Step) -> Verdict {
    let Some(a) = answer(st.after) else {
        return Verdict::Fail("no pickup spot (`_answer`)".into());
    };
    check(
        answer(st.before).as_deref() == Some(a.as_str())
            && ids(st, st.after, "candidates", None).contains(&a),
        || format!("the pickup spot `{a}` changed or left the places face up"),
    )
}

// ---------------------------------------------------------------------------------------
// A round: texting (WR-R1 - WR-R3, WR-V1, WR-V3)

fn texters_of_the_round(st: &Step, s: &State) -> Verdict {
    let r = round(st, s);
    let want = texters(st, s, r);
    let have: Vec<u8> = (0..st.seats)
        .filter(|&x| count(st, s, "text-hand", Some(x)) > 0)
        .collect();
    let mut sorted = want.clone();
    sorted.sort();
    sorted.dedup();
    let listed: Vec<i64> = match var(s, "_texters") {
        Some(Value::List(l)) => l.iter().filter_map(Value::as_int).collect(),
        _ => vec![],
    };
    let want_listed: Vec<i64> = want.iter().map(|&x| x as i64 + 1).collect();
    all([
        check(have == sorted && sorted.len() == want.len(), || {
            format!(
                "round {r}: seats {:?} drew texts; the texters are seats {:?}",
                have.iter().map(|x| x + 1).collect::<Vec<_>>(),
                want_listed
            )
        }),
        check(listed == want_listed, || {
            format!("round {r}: the texters are listed as {listed:?}, not {want_listed:?}")
        }),
        check(want.first() == Some(&s.active), || {
            format!(
                "round {r}: seat {} is to act, not the first texter",
                s.active + 1
            )
        }),
    ])
}

fn texters_oracle(st: &Step, rule: &str) -> Verdict {
    if case(st) != rule {
        return Verdict::Skip;
    }
    let mut v = vec![];
    // The first round is judged before the first action in forced games too: no plan's
    // `prepare` touches the texters' hands.
    if st.index == 0 {
        v.push(texters_of_the_round(st, st.before));
    }
    if began_round(st) && !st.ended() {
        v.push(texters_of_the_round(st, st.after));
    }
    all(v)
}

fn draws_of_the_round(st: &Step, s: &State, from: &State) -> Verdict {
    let r = round(st, s);
    let want = texters(st, s, r);
    let (drawn, _) = draw_keep(st);
    let had = count(st, from, "text-deck", None) + count(st, from, "text-discard", None);
    let need = drawn * want.len();
    let got: usize = want
        .iter()
        .map(|&t| count(st, s, "text-hand", Some(t)))
        .sum();
    all(want
        .iter()
        .map(|&t| {
            let n = count(st, s, "text-hand", Some(t));
            check(n == drawn || (had < need && got == had), || {
                format!(
                    "round {r}: texter seat {} holds {n} texts, not {drawn}",
                    t + 1
                )
            })
        })
        .chain([check(
            (0..st.seats)
                .filter(|x| !want.contains(x))
                .all(|x| count(st, s, "text-hand", Some(x)) == 0),
            || format!("round {r}: a seat that does not text holds texts"),
        )]))
}

fn draws_oracle(st: &Step, rule: &str) -> Verdict {
    if case(st) != rule {
        return Verdict::Skip;
    }
    let mut v = vec![];
    // The first round is judged before the first action in forced games too: no plan's
    // `prepare` touches the texters' hands.
    if st.index == 0 {
        v.push(draws_of_the_round(st, st.before, st.before));
    }
    if began_round(st) && !st.ended() {
        v.push(draws_of_the_round(st, st.after, st.before));
    }
    all(v)
}

/// A texter keeps a text: it goes face down to them; with the last kept, the rest of the hand
/// is discarded and the next texter chooses (or the texts are turned up: WR-R3).
fn send_oracle(st: &Step, rule: &str) -> Verdict {
    if case(st) != rule || kind(st) != "send" {
        return Verdict::Skip;
    }
    let card = words(st).get(1).copied().unwrap_or("").to_string();
    let a = st.actor;
    let hand_b = ids(st, st.before, "text-hand", Some(a));
    let hand_a = ids(st, st.after, "text-hand", Some(a));
    let chosen_b = ids(st, st.before, "text-chosen", Some(a));
    let chosen_a = ids(st, st.after, "text-chosen", Some(a));
    let disc_b = ids(st, st.before, "text-discard", None);
    let disc_a = ids(st, st.after, "text-discard", None);
    let (_, kept) = draw_keep(st);
    let ts = texters(st, st.before, round(st, st.before));
    let Some(i) = ts.iter().position(|&t| t == a) else {
        return Verdict::Fail(format!("seat {} texts but is not a texter", a + 1));
    };
    if !hand_b.contains(&card) {
        return Verdict::Fail(format!("`{card}` was not in the texter's hand"));
    }
    let finished = chosen_b.len() + 1 >= kept || hand_b.len() == 1;
    let rest = minus(&hand_b, std::slice::from_ref(&card));
    if !finished {
        return all([
            check(
                same_cards(&hand_a, &rest)
                    && same_cards(&chosen_a, &[chosen_b.clone(), vec![card.clone()]].concat()),
                || format!("`{card}` did not go from the hand to the texter's kept texts"),
            ),
            check(disc_a == disc_b, || {
                "texts were discarded before the texter had kept all they send".into()
            }),
            check(st.after.active == a, || {
                format!(
                    "the texter has kept {} of {kept} texts, yet seat {} is to act",
                    chosen_b.len() + 1,
                    st.after.active + 1
                )
            }),
        ]);
    }
    let discarded = minus(&disc_a, &disc_b);
    let mut v = vec![
        check(hand_a.is_empty(), || {
            format!("the texter still holds {hand_a:?} after keeping {kept}")
        }),
        check(
            same_cards(&discarded, &rest) && disc_a.len() == disc_b.len() + rest.len(),
            || {
                format!(
                    "the texts not sent, {rest:?}, were not discarded (discarded {discarded:?})"
                )
            },
        ),
    ];
    if i + 1 < ts.len() {
        v.push(check(
            same_cards(&chosen_a, &[chosen_b, vec![card.clone()]].concat()),
            || format!("`{card}` is not face down with the texter"),
        ));
        v.push(check(st.after.active == ts[i + 1], || {
            format!(
                "seat {} is to act, not the next texter, seat {}",
                st.after.active + 1,
                ts[i + 1] + 1
            )
        }));
    }
    all(v)
}

fn turned_up_together(st: &Step) -> Verdict {
    if kind(st) != "send" {
        return Verdict::Skip;
    }
    let card = words(st).get(1).copied().unwrap_or("").to_string();
    let pb = ids(st, st.before, "played-texts", None);
    let pa = ids(st, st.after, "played-texts", None);
    let ts = texters(st, st.before, round(st, st.before));
    let (_, kept) = draw_keep(st);
    let last = ts.last() == Some(&st.actor)
        && (count(st, st.before, "text-chosen", Some(st.actor)) + 1 >= kept
            || count(st, st.before, "text-hand", Some(st.actor)) == 1);
    if !last {
        return check(pa == pb, || {
            format!(
                "texts were turned up ({:?}) before the last texter chose",
                &pa[pb.len().min(pa.len())..]
            )
        });
    }
    // Every kept text, in the texters' order, the one kept now last of its texter's.
    let mut want: Vec<String> = vec![];
    for &t in &ts {
        want.extend(ids(st, st.before, "text-chosen", Some(t)));
        if t == st.actor {
            want.push(card.clone());
        }
    }
    let public: Vec<&String> = st
        .shown
        .iter()
        .find(|s| s.viewer.is_none())
        .map(|s| s.lines.iter().collect())
        .unwrap_or_default();
    let d = driver(st.before);
    all([
        check(
            pa.len() >= pb.len() && pa[..pb.len()] == pb[..] && pa[pb.len()..] == want[..],
            || {
                format!(
                    "the texts turned up are {:?}, not the kept {want:?} in the texters' order",
                    &pa[pb.len().min(pa.len())..]
                )
            },
        ),
        check(
            (0..st.seats).all(|s| count(st, st.after, "text-chosen", Some(s)) == 0),
            || "a kept text stays face down after the last texter chose".into(),
        ),
        check(
            want.iter()
                .all(|c| public.iter().any(|l| l.contains(&message(st, c)))),
            || "the table is not told every text sent".into(),
        ),
        check(Some(st.after.active) == d || st.ended(), || {
            "the Driver is not to act once the texts are turned up".into()
        }),
    ])
}

fn nobody_is_told_the_text(st: &Step) -> Verdict {
    if kind(st) != "send" {
        return Verdict::Skip;
    }
    let card = words(st).get(1).copied().unwrap_or("");
    let (msg, nm) = (message(st, card), name(st, "texts", card));
    let reveal = revealed(st);
    all(st
        .shown
        .iter()
        .filter(|s| s.viewer != Some(st.actor))
        .map(|s| {
            let told = |l: &str| l.contains(&msg) || l.contains(&nm);
            let shown = |v: &str| {
                farebox::leaks::find_word(v, card).is_some()
                    || farebox::leaks::find_word(v, &nm).is_some()
            };
            check(
                !told(&s.label)
                    && (reveal || (!s.lines.iter().any(|l| told(l)) && !shown(&s.view))),
                || format!("{} is told the text `{card}` kept", seat_word(s.viewer)),
            )
        }))
}

/// The text deck is made again from the discards only when it is empty, its last card drawn
/// first; a rebuilt deck is shuffled.
fn deck_rebuilt_when_empty(st: &Step, need_rebuild: bool) -> Verdict {
    if !began_round(st) || st.ended() {
        return Verdict::Skip;
    }
    let deck_b = ids(st, st.before, "text-deck", None);
    let deck_a = ids(st, st.after, "text-deck", None);
    let disc_b = ids(st, st.before, "text-discard", None);
    let disc_a = ids(st, st.after, "text-discard", None);
    let drawn: Vec<String> = (0..st.seats)
        .flat_map(|s| ids(st, st.after, "text-hand", Some(s)))
        .collect();
    let rebuild = drawn.len() > deck_b.len() && !disc_b.is_empty();
    if rebuild != need_rebuild {
        return Verdict::Skip;
    }
    if !rebuild {
        let top = &deck_b[deck_b.len() - drawn.len().min(deck_b.len())..];
        return all([
            check(disc_a == disc_b, || {
                format!(
                    "the discards went back into the text deck while it held {} texts for {} draws",
                    deck_b.len(),
                    drawn.len()
                )
            }),
            check(
                same_cards(&drawn, top) && deck_a == deck_b[..deck_b.len() - top.len()],
                || "the texts drawn are not the top of the text deck".into(),
            ),
        ]);
    }
    let missing: Vec<&String> = deck_b.iter().filter(|c| !drawn.contains(c)).collect();
    // The rebuilt deck (what is left of it) in the order the discards were piled onto it, top
    // card first: not shuffled.
    let piled: Vec<String> = disc_b.iter().rev().cloned().collect();
    let unshuffled = deck_a.len() >= 3 && piled.starts_with(&deck_a);
    all([
        check(missing.is_empty(), || {
            format!("the last texts of the deck, {missing:?}, were shuffled away instead of drawn")
        }),
        check(disc_a.is_empty(), || {
            "discards were left out of the rebuilt deck".into()
        }),
        check(!unshuffled, || {
            "the rebuilt text deck was not shuffled".into()
        }),
    ])
}

// ---------------------------------------------------------------------------------------
// The Driver's emojis (WR-R4, WR-R5)

/// What the Driver should be offered: every token behind the screen on every text of this
/// round, and done once enough are placed, none are held, or (`house`) nothing held is true.
fn emoji_offers(st: &Step, house: bool) -> Verdict {
    let Some(d) = driver(st.before) else {
        return Verdict::Skip;
    };
    if st.actor != d {
        return Verdict::Skip;
    }
    let Some((start, texts)) = round_texts(st) else {
        return Verdict::Skip;
    };
    let hand = ids(st, st.before, "driver-emojis", Some(d));
    let placed = count(st, st.before, "placed-emojis", None).saturating_sub(count(
        st,
        start,
        "placed-emojis",
        None,
    ));
    let mut want: BTreeSet<String> = hand
        .iter()
        .flat_map(|t| texts.iter().map(move |x| format!("place {t} {x}")))
        .collect();
    let nothing_true = answer(st.before).is_some_and(|a| !holds_something_true(st, &hand, &a));
    if placed >= MIN_EMOJIS || hand.is_empty() || (house && nothing_true) {
        want.insert("done".into());
    }
    let have: BTreeSet<String> = st.offered.iter().cloned().collect();
    check(have == want, || {
        let extra: Vec<&String> = have.difference(&want).collect();
        let lacking: Vec<&String> = want.difference(&have).collect();
        format!(
            "with {placed} placed this round and {} held, the Driver is offered {extra:?} too many and lacks {lacking:?}",
            hand.len()
        )
    })
}

fn placed_on_a_text(st: &Step) -> Verdict {
    if kind(st) != "place" {
        return Verdict::Skip;
    }
    let w = words(st);
    let (token, text) = (
        w.get(1).copied().unwrap_or(""),
        w.get(2).copied().unwrap_or(""),
    );
    let a = st.actor;
    let hand_b = ids(st, st.before, "driver-emojis", Some(a));
    let hand_a = ids(st, st.after, "driver-emojis", Some(a));
    let pb = ids(st, st.before, "placed-emojis", None);
    let pa = ids(st, st.after, "placed-emojis", None);
    let texts = round_texts(st).map(|(_, t)| t).unwrap_or_default();
    let token_name = name(st, "emojis", token);
    let msg = message(st, text);
    let shown = st.after.vars.values().any(|v| {
        v.seen == Seen::All
            && v.value
                .as_str()
                .is_some_and(|s| s.contains(&msg) && s.contains(&token_name))
    });
    let public = st.shown.iter().find(|s| s.viewer.is_none());
    all([
        check(texts.iter().any(|t| t == text), || {
            format!("`{text}` is not a text of this round ({texts:?})")
        }),
        check(
            hand_b.iter().any(|t| t == token)
                && same_cards(&hand_a, &minus(&hand_b, &[token.to_string()])),
            || format!("`{token}` did not leave the Driver's screen"),
        ),
        check(
            pa.len() == pb.len() + 1 && pa.last().map(String::as_str) == Some(token),
            || format!("`{token}` is not on the table"),
        ),
        check(shown, || {
            format!("no public line of the conversation shows {token_name} on the text")
        }),
        check(
            public.is_some_and(|p| p.lines.iter().any(|l| l.contains(&token_name))),
            || format!("the table is not told that {token_name} was placed"),
        ),
    ])
}

fn refill_on_done(st: &Step) -> Verdict {
    if kind(st) != "done" {
        return Verdict::Skip;
    }
    let a = st.actor;
    let hand_b = ids(st, st.before, "driver-emojis", Some(a));
    let hand_a = ids(st, st.after, "driver-emojis", Some(a));
    let bag_b = ids(st, st.before, "emoji-bag", None);
    let bag_a = ids(st, st.after, "emoji-bag", None);
    let want = if hand_b.len() >= EMOJI_HAND {
        hand_b.len()
    } else {
        EMOJI_HAND.min(hand_b.len() + bag_b.len())
    };
    let drawn = minus(&hand_a, &hand_b);
    let k = drawn.len().min(bag_b.len());
    all([
        check(hand_a.len() == want, || {
            format!(
                "the Driver holds {} after done, from {} held and {} in the bag; {want} expected",
                hand_a.len(),
                hand_b.len(),
                bag_b.len()
            )
        }),
        check(
            minus(&hand_b, &hand_a).is_empty()
                && bag_a[..] == bag_b[..bag_b.len() - k]
                && same_cards(&drawn, &bag_b[bag_b.len() - k..]),
            || "the tokens drawn are not the top of the bag".into(),
        ),
    ])
}

/// Emojis move only as the rules say; `house` lets the Show, Don't Tell fresh hand pass (its
/// own oracle judges it).
fn emojis_move_as_the_rules_say(st: &Step, house: bool) -> Verdict {
    let pb = ids(st, st.before, "placed-emojis", None);
    let pa = ids(st, st.after, "placed-emojis", None);
    let bag_b = ids(st, st.before, "emoji-bag", None);
    let bag_a = ids(st, st.after, "emoji-bag", None);
    let hands = |s: &State| -> Vec<Vec<String>> {
        (0..st.seats)
            .map(|x| ids(st, s, "driver-emojis", Some(x)))
            .collect()
    };
    let (hb, ha) = (hands(st.before), hands(st.after));
    let k = kind(st);
    let fresh = house && fresh_hand_due(st).is_some();
    let mut v = vec![
        check(minus(&pb, &pa).is_empty(), || {
            format!("tokens left the table: {:?}", minus(&pb, &pa))
        }),
        check(pa.len() == pb.len() + usize::from(k == "place"), || {
            format!(
                "{} tokens were placed by `{}`",
                pa.len() as i64 - pb.len() as i64,
                st.action
            )
        }),
    ];
    if k != "done" && !fresh {
        v.push(check(bag_a == bag_b, || {
            format!("the emoji bag changed at `{}`", st.action)
        }));
    }
    if k != "done" && k != "place" && !fresh {
        v.push(check(ha == hb, || {
            format!("the emojis behind the screen changed at `{}`", st.action)
        }));
    }
    if k == "done" {
        v.push(check(minus(&bag_a, &bag_b).is_empty(), || {
            "tokens went back into the bag on done".into()
        }));
    }
    all(v)
}

fn texts_stay_on_the_table(st: &Step) -> Verdict {
    let pb = ids(st, st.before, "played-texts", None);
    let pa = ids(st, st.after, "played-texts", None);
    check(pa.len() >= pb.len() && pa[..pb.len()] == pb[..], || {
        format!("texts sent left the table: {:?}", minus(&pb, &pa))
    })
}

// ---------------------------------------------------------------------------------------
// Guessing (WR-R6 - WR-R8)

fn the_spokesperson_decides(st: &Step) -> Verdict {
    let r = round(st, st.before);
    let Some(sp) = speaker(st, st.before, r) else {
        return Verdict::Skip;
    };
    match kind(st) {
        "guess" | "wait" => check(st.actor == sp, || {
            format!(
                "seat {} decides in round {r}; the spokesperson is seat {}",
                st.actor + 1,
                sp + 1
            )
        }),
        "done" if !st.ended() => check(st.after.active == sp, || {
            format!(
                "seat {} is to decide in round {r}; the spokesperson is seat {}",
                st.after.active + 1,
                sp + 1
            )
        }),
        _ => Verdict::Skip,
    }
}

fn guess_offers(st: &Step) -> Verdict {
    if kind(st) != "guess" && kind(st) != "wait" {
        return Verdict::Skip;
    }
    let made = guesses_made(st);
    let mut want: BTreeSet<String> = BTreeSet::from(["wait".to_string()]);
    if made < GUESSES_A_ROUND {
        want.extend(
            ids(st, st.before, "candidates", None)
                .iter()
                .map(|c| format!("guess {c}")),
        );
    }
    let have: BTreeSet<String> = st.offered.iter().cloned().collect();
    check(have == want, || {
        let extra: Vec<&String> = have.difference(&want).collect();
        let lacking: Vec<&String> = want.difference(&have).collect();
        format!(
            "after {made} guesses this round the spokesperson is offered {extra:?} too many and lacks {lacking:?}"
        )
    })
}

fn a_guess_wins_or_rules_out(st: &Step) -> Verdict {
    if kind(st) != "guess" {
        return Verdict::Skip;
    }
    let card = words(st).get(1).copied().unwrap_or("").to_string();
    let cb = ids(st, st.before, "candidates", None);
    let ca = ids(st, st.after, "candidates", None);
    let rb = ids(st, st.before, "ruled-out", None);
    let ra = ids(st, st.after, "ruled-out", None);
    if Some(&card) == answer(st.before).as_ref() {
        return check(
            st.after.result.as_ref().and_then(|r| r.together) == Some(true) && ca == cb,
            || "a right guess did not win the game at once".into(),
        );
    }
    all([
        check(
            cb.contains(&card)
                && ca == minus(&cb, std::slice::from_ref(&card))
                && ra.len() == rb.len() + 1
                && ra.last() == Some(&card),
            || {
                format!(
                    "the wrong guess `{card}` was not turned face down with the ruled-out places"
                )
            },
        ),
        check(
            st.ended() || guesses_made(st) + 1 < GUESSES_A_ROUND || began_round(st),
            || "the round goes on after its one guess".into(),
        ),
    ])
}

fn places_leave_only_by_a_miss(st: &Step) -> Verdict {
    let rb = ids(st, st.before, "ruled-out", None);
    let ra = ids(st, st.after, "ruled-out", None);
    let miss = kind(st) == "guess" && ra.len() > rb.len();
    all([
        check(
            ids(st, st.before, "location-deck", None) == ids(st, st.after, "location-deck", None),
            || "the location deck changed during play".into(),
        ),
        check(ra.len() >= rb.len() && ra[..rb.len()] == rb[..], || {
            "a ruled-out place came back".into()
        }),
        check(
            miss || ids(st, st.before, "candidates", None) == ids(st, st.after, "candidates", None),
            || format!("the places on the table changed at `{}`", st.action),
        ),
    ])
}

/// The tiles this decision turns, top first, if the stack lost only from its top.
fn tiles_turned(st: &Step) -> Option<Vec<String>> {
    let sb = ids(st, st.before, "rating-stack", None);
    let sa = ids(st, st.after, "rating-stack", None);
    if sa.len() > sb.len() || sb[..sa.len()] != sa[..] {
        return None;
    }
    Some(sb[sa.len()..].iter().rev().cloned().collect())
}

fn tiles_for_a_decision(st: &Step) -> Verdict {
    let k = kind(st);
    let card = words(st).get(1).map(|c| c.to_string());
    let wrong = k == "guess" && card != answer(st.before);
    let n = match k {
        "wait" if guesses_made(st) == 0 => TILES_WAIT,
        "wait" => 0,
        _ if wrong => TILES_MISS,
        _ => return Verdict::Skip,
    };
    let Some(turned) = tiles_turned(st) else {
        return Verdict::Fail("tiles left the rating stack from below its top".into());
    };
    let mut stars = count(st, st.before, "rating-board", None);
    for (i, t) in turned.iter().enumerate() {
        if stars >= BROKEN_STARS {
            return Verdict::Fail(format!(
                "tile {} of {n} was turned after the fourth broken star had ended the ride",
                i + 1
            ));
        }
        if broken(st, t) {
            stars += 1;
        }
    }
    let stack_b = count(st, st.before, "rating-stack", None);
    let cut_short = st.ended() && (stars >= BROKEN_STARS || stack_b < n);
    let rev_new = minus(
        &ids(st, st.after, "rating-revealed", None),
        &ids(st, st.before, "rating-revealed", None),
    );
    let board_new = minus(
        &ids(st, st.after, "rating-board", None),
        &ids(st, st.before, "rating-board", None),
    );
    let checks: Vec<String> = turned.iter().filter(|t| !broken(st, t)).cloned().collect();
    let stars_turned: Vec<String> = turned.iter().filter(|t| broken(st, t)).cloned().collect();
    all([
        check(turned.len() == n || (turned.len() < n && cut_short), || {
            format!(
                "`{}` turned {} rating tiles, not {n}",
                st.action,
                turned.len()
            )
        }),
        check(
            same_cards(&rev_new, &checks) && same_cards(&board_new, &stars_turned),
            || {
                format!(
                    "of the tiles turned {turned:?}, {rev_new:?} went to the checkmarks and {board_new:?} to the rating board"
                )
            },
        ),
    ])
}

fn tiles_move_only_on_decisions(st: &Step) -> Verdict {
    let decision = kind(st) == "wait" || kind(st) == "guess";
    let grew = |z: &str| {
        let (b, a) = (ids(st, st.before, z, None), ids(st, st.after, z, None));
        a.len() >= b.len() && a[..b.len()] == b[..]
    };
    all([
        check(grew("rating-revealed") && grew("rating-board"), || {
            "a turned tile was turned back".into()
        }),
        check(
            ids(st, st.before, "rating-removed", None) == ids(st, st.after, "rating-removed", None),
            || "the tiles in the box changed during play".into(),
        ),
        check(
            decision
                || ids(st, st.before, "rating-stack", None)
                    == ids(st, st.after, "rating-stack", None),
            || format!("rating tiles moved at `{}`", st.action),
        ),
    ])
}

fn stars_follow_the_board(st: &Step) -> Verdict {
    let (bb, ba) = (
        count(st, st.before, "rating-board", None),
        count(st, st.after, "rating-board", None),
    );
    let (rb, ra) = (rating(st, st.before), rating(st, st.after));
    let lost = st.after.result.as_ref().and_then(|r| r.together) == Some(false);
    all([
        check(ra == rb - (ba as i64 - bb as i64), || {
            format!(
                "the rating went from {rb} to {ra} with {} broken stars turned",
                ba as i64 - bb as i64
            )
        }),
        check(ra == STARTING_RATING - ba as i64, || {
            format!("{ba} broken stars on the board and {ra} stars")
        }),
        check(ba < BROKEN_STARS || lost, || {
            "the fourth broken star is turned and the game goes on".into()
        }),
        check(
            !lost || ba >= BROKEN_STARS || count(st, st.after, "rating-stack", None) == 0,
            || format!("the ride was lost with {ba} broken stars turned"),
        ),
    ])
}

// ---------------------------------------------------------------------------------------
// What the table is shown (WR-R9)

fn the_answer_is_the_drivers_secret(st: &Step) -> Verdict {
    let Some(d) = driver(st.after) else {
        return Verdict::Skip;
    };
    all(["_answer", "pickup spot"].map(|v| {
        check(seen(st.after, v) == Some(Seen::Seat(d)), || {
            format!(
                "`{v}` is seen by {:?}, not the Driver's seat only",
                seen(st.after, v)
            )
        })
    }))
}

fn riders_are_not_told_the_spot(st: &Step) -> Verdict {
    let (Some(a), Some(d)) = (answer(st.before), driver(st.before)) else {
        return Verdict::Skip;
    };
    let w = words(st);
    if w[0] == "guess" && w.get(1) == Some(&a.as_str()) {
        return Verdict::Skip;
    }
    let nm = name(st, "locations", &a);
    all(st.shown.iter().filter(|s| s.viewer != Some(d)).map(|s| {
        let told = s.label.contains(&nm) || s.lines.iter().any(|l| l.contains(&nm));
        check(!told && !s.view.contains("pickup spot"), || {
            format!(
                "{} is told the pickup spot, {nm} (label `{}`, lines {:?})",
                seat_word(s.viewer),
                s.label,
                s.lines
            )
        })
    }))
}

// ---------------------------------------------------------------------------------------
// Show, Don't Tell

/// At the step that turns the texts up (the Driver's part begins), the Driver's hand if it
/// holds nothing true of the pickup spot and a fresh one can be drawn.
fn fresh_hand_due(st: &Step) -> Option<Vec<String>> {
    if !revealed(st) || st.ended() {
        return None;
    }
    let d = driver(st.before)?;
    let a = answer(st.before)?;
    let hand = ids(st, st.before, "driver-emojis", Some(d));
    let bag = count(st, st.before, "emoji-bag", None);
    (!hand.is_empty() && bag > 0 && !holds_something_true(st, &hand, &a)).then_some(hand)
}

/// A hand with nothing true is thrown back and a fresh one drawn, at the reveal only.
fn fresh_hand(st: &Step) -> Verdict {
    let Some(old) = fresh_hand_due(st) else {
        return Verdict::Skip;
    };
    let Some(d) = driver(st.before) else {
        return Verdict::Skip;
    };
    let bag_b = ids(st, st.before, "emoji-bag", None);
    let bag_a = ids(st, st.after, "emoji-bag", None);
    let new = ids(st, st.after, "driver-emojis", Some(d));
    let pool = [old.clone(), bag_b.clone()].concat();
    all([
        check(new.len() == EMOJI_HAND.min(pool.len()), || {
            format!(
                "the fresh hand holds {} tokens, from {} held and {} in the bag",
                new.len(),
                old.len(),
                bag_b.len()
            )
        }),
        check(same_cards(&[new.clone(), bag_a].concat(), &pool), || {
            "the fresh hand did not come from the old hand and the bag together".into()
        }),
        check(new != old, || {
            "the Driver kept a hand with nothing true of the pickup spot".into()
        }),
    ])
}

/// Emojis move only as the house rule says: as the game's rule, and at the reveal a fresh
/// hand when (and only when) nothing held is true.
fn house_emojis(st: &Step) -> Verdict {
    let base = emojis_move_as_the_rules_say(st, true);
    if fresh_hand_due(st).is_some() || !revealed(st) {
        return base;
    }
    // A reveal with something true in hand (or nothing to draw): the hand stays.
    let Some(d) = driver(st.before) else {
        return base;
    };
    all([
        base,
        check(
            ids(st, st.before, "driver-emojis", Some(d))
                == ids(st, st.after, "driver-emojis", Some(d))
                && ids(st, st.before, "emoji-bag", None) == ids(st, st.after, "emoji-bag", None),
            || "the Driver drew a fresh hand while holding something true".into(),
        ),
    ])
}

fn fresh_hand_told_to_the_driver_only(st: &Step) -> Verdict {
    if fresh_hand_due(st).is_none() {
        return Verdict::Skip;
    }
    let Some(d) = driver(st.before) else {
        return Verdict::Skip;
    };
    let new = ids(st, st.after, "driver-emojis", Some(d));
    let public: Vec<String> = st
        .shown
        .iter()
        .find(|s| s.viewer.is_none())
        .map(|s| s.lines.clone())
        .unwrap_or_default();
    let Some(mine) = st.shown.iter().find(|s| s.viewer == Some(d)) else {
        return Verdict::Skip;
    };
    // What the Driver alone was told at this step.
    let private: Vec<&String> = mine.lines.iter().filter(|l| !public.contains(l)).collect();
    // Why the hand changed is a secret too (nothing held was true of the pickup spot): the
    // Driver alone is told it, in a line that names no token of the fresh hand.
    let why = private
        .iter()
        .any(|l| !new.iter().any(|t| l.contains(&name(st, "emojis", t))));
    all([
        check(
            new.iter()
                .all(|t| private.iter().any(|l| l.contains(&name(st, "emojis", t)))),
            || "the Driver is not told each token of the fresh hand".into(),
        ),
        check(why, || {
            "the Driver is not told alone why the hand is drawn afresh (the table may have heard it)"
                .into()
        }),
        all(st.shown.iter().filter(|s| s.viewer != Some(d)).map(|s| {
            let heard: Vec<&&String> = private.iter().filter(|l| s.lines.contains(l)).collect();
            check(heard.is_empty(), || {
                format!("{} is told {heard:?} too", seat_word(s.viewer))
            })
        })),
    ])
}

// ---------------------------------------------------------------------------------------
// The lists

fn base(house: bool) -> Vec<Oracle> {
    let mut v = vec![
        Oracle::new(
            "WR-S1",
            "one Driver all game (seat 1 unless drawn); Riders only text or decide",
            one_driver,
        ),
        Oracle::new(
            "WR-S1",
            "the table wins or loses together, every seat scoring the stars left",
            together,
        ),
        Oracle::new(
            "WR-S2",
            "five stars over the face-down rating tiles, four of them broken stars",
            starting_tiles,
        ),
        Oracle::new(
            "WR-S3",
            "each pile holds only its own deck's cards",
            piles_hold_their_decks,
        ),
        Oracle::new(
            "WR-S3",
            "every text sent is tagged with place tags of the clue table",
            texts_sent_are_tagged_with_places,
        ),
        Oracle::new(
            "WR-S4",
            "the Driver starts with five emojis behind the screen, nobody else any",
            five_emojis,
        ),
        Oracle::new(
            "WR-S2",
            "the rating tiles lie face down until turned, and face up after",
            |st| {
                zones_lie(
                    st,
                    &[
                        ("rating-stack", Face::Down),
                        ("rating-removed", Face::Up),
                        ("rating-revealed", Face::Up),
                        ("rating-board", Face::Up),
                    ],
                )
            },
        ),
        Oracle::new(
            "WR-S4",
            "the emojis behind the screen are seen by the Driver only, the bag by nobody",
            |st| {
                zones_lie(
                    st,
                    &[("driver-emojis", Face::Owner), ("emoji-bag", Face::Down)],
                )
            },
        ),
        Oracle::new(
            "WR-S5",
            "the places lie face up, the location deck face down",
            |st| {
                zones_lie(
                    st,
                    &[
                        ("candidates", Face::Up),
                        ("ruled-out", Face::Up),
                        ("location-deck", Face::Down),
                    ],
                )
            },
        ),
        Oracle::new(
            "WR-R2",
            "texts drawn and kept are seen by their texter only, the deck and discards by nobody",
            |st| {
                zones_lie(
                    st,
                    &[
                        ("text-hand", Face::Owner),
                        ("text-chosen", Face::Owner),
                        ("text-deck", Face::Down),
                        ("text-discard", Face::Down),
                    ],
                )
            },
        ),
        Oracle::new("WR-R3", "the texts sent lie face up", |st| {
            zones_lie(st, &[("played-texts", Face::Up)])
        }),
        Oracle::new("WR-R5", "the emojis placed lie face up", |st| {
            zones_lie(st, &[("placed-emojis", Face::Up)])
        }),
        Oracle::new(
            "WR-S3",
            "the text deck, the emoji bag and the location deck are shuffled",
            piles_are_shuffled,
        ),
        Oracle::new(
            "WR-S5",
            "nine places face up, the pickup spot among them, on the Driver's screen",
            nine_places,
        ),
        Oracle::new(
            "WR-S5",
            "the pickup spot never changes and stays face up",
            the_answer_stays_face_up,
        ),
        Oracle::new(
            "WR-R1",
            "two texters a round, rotating from the Driver's left",
            |st| texters_oracle(st, "WR-R"),
        ),
        Oracle::new(
            "WR-R1",
            "the round counter moves by one, when the Riders have decided",
            |st| {
                let d = round(st, st.after) - round(st, st.before);
                let decided = kind(st) == "wait" || kind(st) == "guess";
                check(d == 0 || (d == 1 && decided), || {
                    format!("the round counter moved by {d} at `{}`", st.action)
                })
            },
        ),
        Oracle::new(
            "WR-R2",
            "each texter draws two texts, nobody else any",
            |st| draws_oracle(st, "WR-R"),
        ),
        Oracle::new(
            "WR-R2",
            "a text kept goes face down to its texter, the other discarded, then the next texter",
            |st| send_oracle(st, "WR-R"),
        ),
        Oracle::new(
            "WR-R2",
            "nobody else is told which text was kept",
            nobody_is_told_the_text,
        ),
        Oracle::new(
            "WR-R2",
            "the text deck is not rebuilt while it holds texts, and is drawn from the top",
            |st| deck_rebuilt_when_empty(st, false),
        ),
        Oracle::new(
            "WR-R2",
            "an empty text deck is rebuilt from the discards, after its last card is drawn, and shuffled",
            |st| deck_rebuilt_when_empty(st, true),
        ),
        Oracle::new(
            "WR-R3",
            "the kept texts are turned up together, in the texters' order, once the last has chosen",
            turned_up_together,
        ),
        Oracle::new(
            "WR-R4",
            "a token goes from behind the screen onto a text of this round, shown in the conversation",
            placed_on_a_text,
        ),
        Oracle::new(
            "WR-R5",
            "on done the Driver draws back up to five from the top of the bag",
            refill_on_done,
        ),
        Oracle::new(
            "WR-R5",
            "texts sent stay on the table",
            texts_stay_on_the_table,
        ),
        Oracle::new(
            "WR-R6",
            "the round's spokesperson decides: one Rider a round, clockwise",
            the_spokesperson_decides,
        ),
        Oracle::new(
            "WR-R6",
            "the spokesperson is offered every place face up once a round, and waiting",
            guess_offers,
        ),
        Oracle::new(
            "WR-R6",
            "a right guess wins at once; a wrong one turns the place face down and ends the round",
            a_guess_wins_or_rules_out,
        ),
        Oracle::new(
            "WR-R6",
            "places leave the table only by a wrong guess, and never come back",
            places_leave_only_by_a_miss,
        ),
        Oracle::new(
            "WR-R7",
            "waiting turns one tile, a miss two, from the top, one at a time",
            tiles_for_a_decision,
        ),
        Oracle::new(
            "WR-R7",
            "rating tiles move only when the Riders decide, and stay turned",
            tiles_move_only_on_decisions,
        ),
        Oracle::new(
            "WR-R8",
            "each broken star costs a star and nothing else does; the fourth loses",
            stars_follow_the_board,
        ),
        Oracle::new(
            "WR-R9",
            "the Driver only places emojis and says done",
            driver_only_places,
        ),
        Oracle::new(
            "WR-R9",
            "the pickup spot and the Driver's screen are the Driver's secrets",
            the_answer_is_the_drivers_secret,
        ),
        Oracle::new(
            "WR-R9",
            "no Rider is told the pickup spot before it is found",
            riders_are_not_told_the_spot,
        ),
        Oracle::new(
            "WR-V1",
            "two players: the lone Rider texts every round",
            |st| texters_oracle(st, "WR-V1"),
        ),
        Oracle::new(
            "WR-V1",
            "two players: the lone Rider draws four texts",
            |st| draws_oracle(st, "WR-V1"),
        ),
        Oracle::new(
            "WR-V1",
            "two players: the lone Rider sends two, one at a time",
            |st| send_oracle(st, "WR-V1"),
        ),
        Oracle::new(
            "WR-V2",
            "the difficulty leaves checkmarks, never broken stars, in the box",
            checks_left_in_the_box,
        ),
        Oracle::new(
            "WR-V3",
            "Triple Text: three texters a round, rotating",
            |st| texters_oracle(st, "WR-V3"),
        ),
        Oracle::new("WR-V3", "Triple Text: each texter draws two", |st| {
            draws_oracle(st, "WR-V3")
        }),
        Oracle::new("WR-V3", "Triple Text: each texter keeps one", |st| {
            send_oracle(st, "WR-V3")
        }),
    ];
    if house {
        v.push(Oracle::new(
            "WR-R4",
            "(Show, Don't Tell) every token on every text of this round; done once one is placed, none are held or nothing held is true",
            |st| emoji_offers(st, true),
        ));
        v.push(Oracle::new(
            "WR-R5",
            "(Show, Don't Tell) emojis move as the game says, and a fresh hand only at the reveal, when nothing held is true",
            house_emojis,
        ));
        v.push(Oracle::new(
            "WR-R5",
            "(Show, Don't Tell) a hand with nothing true goes back into the bag for a fresh one",
            fresh_hand,
        ));
        v.push(Oracle::new(
            "WR-R9",
            "(Show, Don't Tell) the fresh hand is told to the Driver only",
            fresh_hand_told_to_the_driver_only,
        ));
    } else {
        v.push(Oracle::new(
            "WR-R4",
            "the Driver is offered every token on every text of this round, and done once one is placed or none are held",
            |st| emoji_offers(st, false),
        ));
        v.push(Oracle::new(
            "WR-R5",
            "emojis leave the bag only on done, reach the table only by a placement, and stay there",
            |st| emojis_move_as_the_rules_say(st, false),
        ));
    }
    v
}

/// Where's My Ride?'s oracles.
pub fn oracles() -> Vec<Oracle> {
    base(false)
}

/// Show, Don't Tell's oracles: the game's, with those of WR-R4 and WR-R5 replaced by oracles
/// of the rules as the house rule changes them, and one more of WR-R9.
pub fn house_rule_oracles() -> Vec<Oracle> {
    base(true)
}

// ---------------------------------------------------------------------------------------
// Plans

fn with(mut p: Plan, id: &'static str, v: Value) -> Plan {
    p.options.push((id, v));
    p
}
fn on(p: Plan, id: &'static str) -> Plan {
    with(p, id, Value::Bool(true))
}
fn off(p: Plan, id: &'static str) -> Plan {
    with(p, id, Value::Bool(false))
}

/// The seeded and forced games that reach every oracle's case: two, three, four and eight
/// seats (five and six too when `n` > 1), random players and the App Regular in both roles,
/// every difficulty, Triple Text where it leaves fewer Riders than texters, both two-player
/// textings, a Driver drawn at random, and forced states: the text deck's last card, a deck
/// holding exactly one round's draws, the emoji bag's last token, the fourth broken star on
/// the first or the second tile of a miss, one place left. The leak invariant reads every
/// seat's view at every step, most of the run's time, so the quick run keeps tables small.
pub fn plans(n: u64) -> Vec<Plan> {
    let mut out = Vec::new();
    for seed in 0..n {
        // A table of three first: a mutation run stops at the first catch, and a break of the
        // texting of WR-R2 is caught there by its own oracles rather than by WR-V1's.
        out.push(
            Plan::new(200 + seed, &["regular", "random", "random"])
                .text_option("difficulty", "hard")
                .prepare(last_text),
        );
        out.push(Plan::new(seed, &["random", "random"]));
        out.push(off(
            Plan::new(100 + seed, &["random", "regular"]).text_option("difficulty", "hard"),
            "two-player",
        ));
        out.push(
            on(Plan::new(300 + seed, &["random"; 3]), "triple-text")
                .text_option("driver", "random")
                .text_option("difficulty", "hard")
                .prepare(last_emojis),
        );
        out.push(
            Plan::new(400 + seed, &["random", "regular", "random", "regular"])
                .text_option("difficulty", "harder")
                .prepare(texts_for_one_round),
        );
        out.push(
            Plan::new(500 + seed, &["regular"; 8])
                .text_option("driver", "random")
                .text_option("difficulty", "harder"),
        );
        out.push(
            on(Plan::new(600 + seed, &["random"; 4]), "triple-text").prepare(fourth_star_next),
        );
        out.push(Plan::new(700 + seed, &["random"; 3]).prepare(fourth_star_second));
        out.push(
            Plan::new(800 + seed, &["random", "random"])
                .text_option("difficulty", "harder")
                .prepare(one_place_left),
        );
        if n > 1 {
            out.push(
                on(Plan::new(900 + seed, &["random"; 5]), "triple-text")
                    .text_option("driver", "random"),
            );
            out.push(
                Plan::new(
                    1000 + seed,
                    &["random", "regular", "random", "regular", "random", "random"],
                )
                .prepare(last_text),
            );
            out.push(Plan::new(1100 + seed, &["regular"; 4]));
        }
    }
    out
}

/// Show, Don't Tell's plans: the game's, and games whose Driver holds nothing true of the
/// pickup spot as the first round's texts are turned up.
pub fn house_rule_plans(n: u64) -> Vec<Plan> {
    let mut out = plans(n);
    for seed in 0..n {
        out.push(Plan::new(2000 + seed, &["random"; 4]).prepare(nothing_true));
        out.push(Plan::new(2100 + seed, &["regular", "random", "random"]).prepare(nothing_true));
        out.push(Plan::new(2200 + seed, &["random"; 3]).prepare(nothing_true_last_tokens));
    }
    out
}

fn eval(g: &mut Game, code: &str) {
    if let Err(e) = g.eval(code) {
        panic!("{e}");
    }
}

/// The text deck down to one text: the second round's first draw takes it, the next rebuilds.
fn last_text(g: &mut Game) {
    eval(
        g,
        r#"local deck = game.zone("text-deck")
        while game.count(deck) > 1 do game.move_card(deck, game.zone("text-discard")) end"#,
    );
}

/// The text deck holds exactly what the second round draws (two texters, two each): no
/// rebuild then, one in the third round with the deck empty.
fn texts_for_one_round(g: &mut Game) {
    eval(
        g,
        r#"local deck = game.zone("text-deck")
        while game.count(deck) > 4 do game.move_card(deck, game.zone("text-discard")) end"#,
    );
}

/// One token left in the bag: the first refill takes it, and the Driver runs out of emojis.
fn last_emojis(g: &mut Game) {
    eval(
        g,
        r#"local bag = game.zone("emoji-bag")
        while game.count(bag) > 1 do game.move_card(bag, game.zone("placed-emojis")) end"#,
    );
}

/// Three broken stars turned (two stars left) and the fourth on top of the stack.
fn fourth_star_next(g: &mut Game) {
    stars_turned(g, "broken-star");
}

/// Three broken stars turned, a checkmark on top and the fourth under it: a miss ends the ride
/// on its second tile exactly.
fn fourth_star_second(g: &mut Game) {
    stars_turned(g, "check");
}

fn stars_turned(g: &mut Game, top: &str) {
    eval(
        g,
        &format!(
            r#"local stack, board = game.zone("rating-stack"), game.zone("rating-board")
            for _ = 1, 3 do game.take_card(stack, "broken-star", board) end
            game.add_counter("rating", -3)
            game.take_card(stack, "broken-star", game.zone("rating-removed"))
            game.take_card(game.zone("rating-removed"), "broken-star", stack)
            if "{top}" == "check" then
              game.take_card(stack, "check", game.zone("rating-removed"))
              game.take_card(game.zone("rating-removed"), "check", stack)
            end"#
        ),
    );
}

/// Every place but the pickup spot ruled out: the only guess left is the right one.
fn one_place_left(g: &mut Game) {
    eval(
        g,
        r#"local c, out = game.zone("candidates"), game.zone("ruled-out")
        local a = game.get("_answer")
        for _, id in game.cards(c) do if id ~= a then game.take_card(c, id, out) end end"#,
    );
}

/// The Lua that tells whether a token says something true of the pickup spot, as the house
/// rule reads it (the plans may use the script's ideas; the oracles may not).
const TRUE_OF: &str = r#"
local LOC, EMO, MEAN = data.decks.locations.cards, data.decks.emojis.cards, data.tables.meanings.by_key
local function true_of(token, place)
  local has = {}
  for _, t in LOC[place].tags do has[t] = true end
  for _, m in EMO[token].meanings do
    for _, t in (if MEAN[m] then MEAN[m].suggests else {}) do if has[t] then return true end end
  end
  return false
end
local d = game.get("_driver")
local hand, bag = game.zone("driver-emojis", d), game.zone("emoji-bag")
while game.move_card(hand, bag) do end
local answer = game.get("_answer")
"#;

/// The Driver's hand: five tokens with nothing true of the pickup spot.
fn nothing_true(g: &mut Game) {
    eval(
        g,
        &format!(
            r#"{TRUE_OF}
            for _, t in game.cards(bag) do
              if game.count(hand) < 5 and not true_of(t, answer) then game.take_card(bag, t, hand) end
            end"#
        ),
    );
}

/// Nothing true in hand, and only two tokens left in the bag (one of them true): the fresh
/// hand is short, and later the Driver holds nothing at all.
fn nothing_true_last_tokens(g: &mut Game) {
    eval(
        g,
        &format!(
            r#"{TRUE_OF}
            local placed, kept_true = game.zone("placed-emojis"), 0
            for _, t in game.cards(bag) do
              if game.count(hand) < 5 and not true_of(t, answer) then game.take_card(bag, t, hand) end
            end
            for _, t in game.cards(bag) do
              if true_of(t, answer) and kept_true < 1 then kept_true += 1
              elseif game.count(bag) > 2 then game.take_card(bag, t, placed) end
            end"#
        ),
    );
}
