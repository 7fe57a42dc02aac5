//! Screens that fit a terminal of 100 x 40: every game's screens, what folds away behind a
//! key, a track card laid in a person's turn shown at once, and the bots' turns told on the
//! next screen.

use super::*;
use crate::boards::last_screen;

/// The screens a person saw in `out`, as a terminal of 40 lines shows them: each runs from
/// the first line printed after a prompt (the last heading of it, when a whole screen was
/// drawn) to the next prompt, which takes a line of its own. Leading blank lines are left out.
fn screens<'a>(out: &'a str, prompt: &'a str) -> Vec<Vec<&'a str>> {
    let mut chunks: Vec<&str> = out.split(prompt).collect();
    // What follows the last prompt is the game's goodbye, not a screen.
    chunks.pop();
    chunks
        .into_iter()
        .map(|c| {
            let at = c.rfind("\n== ").map_or(0, |i| i + 1);
            let mut lines: Vec<&str> = c[at..].lines().collect();
            while lines.first().is_some_and(|l| l.trim().is_empty()) {
                lines.remove(0);
            }
            lines.push(prompt);
            lines
        })
        .collect()
}

/// Every screen of each bundled game fits a terminal of 100 x 40 (the size): the
/// whole game when a turn begins, what changed after a person's action, a menu level, with
/// two seats and with four (longer news, more counters). The person takes the first choice
/// of every menu for a while: lining up, driving, drawing, ending turns.
#[test]
fn every_screen_of_each_game_fits_a_terminal_of_100_by_40() {
    for game in farebox_suite::games() {
        let bot = farebox_suite::own_bot(&game);
        let game = game.as_str();
        for seats in [format!("human,{bot}"), format!("human,{bot},{bot},{bot}")] {
            for seed in ["1", "7"] {
                let input = "1\n".repeat(40) + "q\n";
                let r =
                    farebox_with_input(&["play", game, "--seats", &seats, "--seed", seed], &input);
                assert_eq!(r.code, 0, "{game}: {}{}", r.out, r.err);
                let name = r
                    .out
                    .lines()
                    .find_map(|l| l.strip_prefix("== Round 1 · ")?.split("(you are ").nth(1))
                    .and_then(|n| n.strip_suffix(") =="))
                    .unwrap_or_else(|| panic!("{game}: no heading in\n{}", r.out))
                    .to_string();
                let prompt = format!("{name}> ");
                let all = screens(&r.out, &prompt);
                assert!(
                    all.len() >= 10,
                    "{game} {seats}: {} screens\n{}",
                    all.len(),
                    r.out
                );
                for s in all {
                    assert!(
                        s.len() <= 40,
                        "{game} {seats} seed {seed}: a screen of {} lines:\n{}",
                        s.len(),
                        s.join("\n")
                    );
                    for l in &s {
                        assert!(
                            l.chars().count() <= 100,
                            "{game} {seats} seed {seed}: wider than 100 columns: {l}"
                        );
                    }
                }
            }
        }
    }
}

/// What the screen folds away to fit is a key away: `c` lists the map's codes, `i` the panels
/// left out (Critter Cab's chance deck, Taxi Derby's ranks further down the list).
#[test]
fn what_a_screen_folds_away_is_shown_by_its_key() {
    let r = play("critter-cab", "human,cabbie", "c\ni\nq\n");
    let screen = last_screen(&r.out);
    assert!(
        screen.contains("\nAlso: c the map's codes · i "),
        "{screen}"
    );
    let after = &r.out[r.out.find("Fox> ").unwrap()..];
    assert!(
        after.contains("Spaces, by their codes on the map"),
        "{after}"
    );
    assert!(after.contains("HL Hootwood Lookout"), "{after}");
    assert!(after.contains("  Chance deck: 24 cards"), "{after}");
    // The whole screen did not list them.
    let first = &r.out[..r.out.find("Fox> ").unwrap()];
    assert!(!first.contains("HL Hootwood Lookout"), "{first}");
}

/// A Dicey Curves card laid during a person's turn (the race starts once their last car lines
/// up, and the turn's card goes down) is on the screen at once, not only after `?`.
#[test]
fn a_track_card_laid_in_a_persons_turn_is_shown_at_once() {
    let r = play("dicey-curves", "human,racer", "1\n1\nq\n");
    let laid = r
        .out
        .lines()
        .find_map(|l| l.trim().strip_prefix("* Red lays "))
        .unwrap_or_else(|| panic!("no card laid in Red's turn:\n{}", r.out));
    let n: usize = laid.rsplit(' ').next().unwrap().parse().unwrap();
    let after = &r.out[r
        .out
        .find("Changed:")
        .unwrap_or_else(|| panic!("{}", r.out))..];
    let prompt = after.find("Red> ").unwrap();
    let changed = &after[..prompt];
    // The strip heads the new card by its number.
    let strip = changed
        .lines()
        .find(|l| l.starts_with("1 start"))
        .unwrap_or_else(|| panic!("the track is not shown again:\n{changed}"));
    assert!(strip.contains(&format!(" {n} ")), "{strip}\n{changed}");
}

/// The screen of the round's first turn of `out` (heading `== Round {round} ·`), up to its
/// prompt `prompt`.
fn round_screen<'a>(out: &'a str, round: u32, prompt: &str) -> &'a str {
    let at = out
        .find(&format!("\n== Round {round} · "))
        .unwrap_or_else(|| panic!("no round {round} in\n{out}"));
    let rest = &out[at + 1..];
    &rest[..rest.find(prompt).unwrap_or(rest.len())]
}

/// After three bots' turns the screen keeps enough of what they did to follow it: Curbside's
/// board leaves no lines below it, so the news goes beside the board (it was left out whole);
/// Critter Cab keeps the news's latest six lines (it showed one, under its taxi cards).
#[test]
fn the_bots_turns_are_told_on_the_next_screen() {
    let r = farebox_with_input(
        &[
            "play",
            "curbside",
            "--seats",
            "human,dispatcher,dispatcher,dispatcher",
            "--seed",
            "7",
        ],
        "1\nq\n",
    );
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let screen = round_screen(&r.out, 2, "Yellow> ");
    assert!(screen.contains("Since your last choice:"), "{screen}");
    let told = screen
        .lines()
        .filter(|l| ["Red: ", "Blue: ", "Green: "].iter().any(|n| l.contains(n)))
        .count();
    assert!(told >= 5, "{told} lines of the bots' turns:\n{screen}");

    let r = farebox_with_input(
        &[
            "play",
            "critter-cab",
            "--seats",
            "human,cabbie,cabbie,cabbie",
            "--seed",
            "7",
        ],
        "3\n1 1\nq\n",
    );
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let screen = round_screen(&r.out, 2, "Fox> ");
    let news = screen
        .lines()
        .skip_while(|l| !l.starts_with("Since your last choice:"))
        .take_while(|l| !l.starts_with("Fox: Coins"))
        .count();
    assert!(news >= 7, "{news} lines of news:\n{screen}");
}
