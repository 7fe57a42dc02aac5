//! The panels of a seat's screen: cards in a few words, piles that ran out, only what changed
//! after a person's own action, the status line, pieces on named spaces, rounds in the
//! heading, and the hot-seat recap of what the others did.

use super::*;

#[test]
fn cards_are_shown_with_their_fields_and_identical_ones_counted() {
    let dir = scratch("cards");
    let r = play(&demo(&dir, "", ""), "human", "q\n");
    // Two riders of one kind and one of another: by name alone all three would be "Rider".
    assert!(
        r.out.contains(
            "  Waiting riders: Rider (to Old Mill, fare 3) ×2;\n                  Rider (to Harbour Gate, fare 5)\n"
        ),
        "{}",
        r.out
    );
    // Taxi Derby: a waiting passenger shows where they are going.
    let r = farebox_with_input(
        &[
            "play",
            "taxi-derby",
            "--seats",
            "human,fare-planner",
            "--seed",
            "5",
        ],
        "q\n",
    );
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let stops: Vec<&str> = r
        .out
        .lines()
        .filter(|l| l.contains(", stop A: ") || l.contains(", stop B: "))
        .collect();
    assert!(!stops.is_empty(), "{}", r.out);
    for l in stops {
        assert!(l.contains(" (to "), "no destination in: {l}");
    }
}

#[test]
fn an_empty_face_down_pile_is_shown_empty_once_it_ran_out() {
    let dir = scratch("empty-pile");
    // Draw the pile's only card, then look at the whole game again.
    let r = play(&demo(&dir, "", ""), "human", "3\n?\nq\n");
    let (before, after) = r.out.split_once("Yellow> ").unwrap();
    assert!(before.contains("  Rider pile: 1 card\n"), "{}", r.out);
    assert!(after.contains("  Rider pile: empty\n"), "{}", r.out);
    // The hand got the card, in a few words.
    assert!(
        after.contains("  Hand (yours): Rider (to Old Mill, fare 3)\n"),
        "{}",
        r.out
    );
    // A face-down zone that never held a card is not worth a line.
    assert!(!r.out.contains("Lost property"), "{}", r.out);
}

#[test]
fn after_a_persons_own_action_only_what_changed_is_shown() {
    let dir = scratch("changes");
    // Draw (the turn goes on), drive (it still goes on), `?`, honk (the turn passes: with
    // one seat it comes straight back, a new turn), then quit.
    let r = play(&demo(&dir, "", ""), "human", "3\n4\n?\n1\nq\n");
    let heads = headings(&r.out);
    assert_eq!(
        heads,
        [
            "== Round 1 · Yellow's turn (you are Yellow) ==",
            // `?`
            "== Round 1 · Yellow's turn (you are Yellow) ==",
            // The next turn.
            "== Round 2 · Yellow's turn (you are Yellow) ==",
        ],
        "{}",
        r.out
    );
    // After the draw: what happened, the parts that changed (both zones; the counters line
    // and the menu), not the rest (the queue did not change).
    let draw = r.out.split("Yellow> ").nth(1).unwrap();
    assert!(
        draw.starts_with(
            "\nSince your last choice:\n    * Yellow draws a rider\nChanged:\n  Rider pile: empty\n  Hand (yours): Rider (to Old Mill, fare 3)\nChoices:\n"
        ),
        "{draw}"
    );
    assert!(!draw.contains("Waiting riders"), "{draw}");
    // After the drive: the taxi's new place.
    let drive = r.out.split("Yellow> ").nth(2).unwrap();
    assert!(
        drive.contains("Changed:\n  Taxi of Yellow at Old Mill\nChoices:\n"),
        "{drive}"
    );
    assert!(!drive.contains("Rider pile"), "{drive}");
}

#[test]
fn the_status_line_is_repeated_after_an_action_in_the_same_turn() {
    let dir = scratch("status");
    let counter = r#"
[[counters]]
id = "gas"
name = "Gas"
scope = "seat"
initial = 4
"#;
    let r = play(&demo(&dir, counter, ""), "human", "3\nq\n");
    let draw = r.out.split("Yellow> ").nth(1).unwrap();
    assert!(draw.contains("\nYellow: Gas 4\nChoices:\n"), "{draw}");
}

#[test]
fn pieces_stand_on_spaces_named_as_the_board_names_them() {
    let dir = scratch("names");
    let r = play(&demo(&dir, "", ""), "human", "4\n?\nq\n");
    // A property that only says where the piece is stands for the place.
    assert!(
        r.out
            .contains("  Taxi of Yellow at Harbour Gate by the sea\n"),
        "{}",
        r.out
    );
    assert!(
        r.out.contains("  Taxi of Yellow at Old Mill\n"),
        "{}",
        r.out
    );
    assert!(
        !r.out.contains(" at n1") && !r.out.contains(" at n2"),
        "{}",
        r.out
    );

    // Taxi Derby's sections board and Critter Cab's graph: no raw space ids.
    let r = farebox_with_input(
        &[
            "play",
            "taxi-derby",
            "--seats",
            "human,fare-planner",
            "--seed",
            "5",
        ],
        // The whole game (`?`) before and after Orange starts: the pieces are folded away
        // on a screen of 40 lines.
        "?\n1\n?\nq\n",
    );
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(
        r.out
            .contains("  Taxi of Green at Green Depot, front in Midtown\n"),
        "{}",
        r.out
    );
    assert!(!r.out.contains("mt-h3-3"), "{}", r.out);
    let r = farebox_with_input(
        &[
            "play",
            "critter-cab",
            "--seats",
            "human,cabbie",
            "--seed",
            "5",
        ],
        "1\nq\n",
    );
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(
        r.out.contains("  Cab figure of Fox at Hootwood Lookout ("),
        "{}",
        r.out
    );
    assert!(!r.out.contains("hootwood-lookout"), "{}", r.out);
}

#[test]
fn the_heading_counts_rounds_not_seat_turns() {
    let dir = scratch("rounds");
    let d = demo(&dir, "", "");
    // Three seats: after each has honked once, the fourth turn (it was "Turn 4") is round 2.
    let r = play(&d, "human,human,human", "\n1\n\n1\n\n1\n\nq\n");
    assert_eq!(
        headings(&r.out),
        [
            "== Round 1 · Yellow's turn (you are Yellow) ==",
            "== Round 1 · Red's turn (you are Red) ==",
            "== Round 1 · Blue's turn (you are Blue) ==",
            "== Round 2 · Yellow's turn (you are Yellow) ==",
        ],
        "{}",
        r.out
    );
    // Critter Cab: the human's second turn is in round 2 (it was "Turn 3").
    let r = farebox_with_input(
        &[
            "play",
            "critter-cab",
            "--seats",
            "human,cabbie",
            "--seed",
            "5",
        ],
        "1\n1 1\nq\n",
    );
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let heads = headings(&r.out);
    assert_eq!(
        heads,
        [
            "== Round 1 · Fox's turn (you are Fox) ==",
            "== Round 2 · Fox's turn (you are Fox) ==",
        ],
        "{}",
        r.out
    );
    // A game's own round counter is read as it is.
    let dir = scratch("round-counter");
    let counter = r#"
[[counters]]
id = "round"
name = "Round"
scope = "global"
initial = 0
"#;
    let r = play(
        &demo(&dir, counter, r#"game.set_counter("round", 7)"#),
        "human",
        "q\n",
    );
    assert!(
        r.out
            .contains("== Round 7 · Yellow's turn (you are Yellow) =="),
        "{}",
        r.out
    );
}

#[test]
fn the_hot_seat_recap_lists_the_other_peoples_actions_by_their_public_labels() {
    let dir = scratch("hot-seat");
    let d = demo(&dir, "", "");
    // Yellow takes the keyboard, draws, drives and honks; Red takes it, honks; Yellow takes it
    // back, honks; Red takes it and quits.
    let r = play(&d, "human,human", "\n3\n4\n1\n\n1\n\n1\n\nq\n");
    let reds: Vec<&str> = r.out.split("Pass to Red and press Enter").skip(1).collect();
    assert_eq!(reds.len(), 2, "{}", r.out);
    // Red's first turn: everything so far, Yellow's actions with what they wrote.
    assert!(
        reds[0].contains(
            "So far:\n  Yellow: Draw a rider\n      * Yellow draws a rider\n  Yellow: Drive to the Old Mill\n      * Yellow drives\n  Yellow: Honks\n      * Yellow honks\n"
        ),
        "{}",
        reds[0]
    );
    // Red's second: only what happened since Red honked.
    assert!(
        reds[1].contains("Since your last turn:\n  Yellow: Honks\n      * Yellow honks\n"),
        "{}",
        reds[1]
    );
    assert!(!reds[1].contains("Yellow: Draw a rider"), "{}", reds[1]);
    // Never Yellow's own label (Red's menu has Red's own, "Honk to hide the plan").
    for red in reds {
        assert!(
            red.lines()
                .filter(|l| l.starts_with("  Yellow: "))
                .all(|l| !l.contains("hide the plan")),
            "{red}"
        );
    }
}
