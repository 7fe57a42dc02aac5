//! `farebox test` pairs an edit with the accepted outcomes seed by seed: the accepted file
//! keeps a compact record of each game, and the figures that are one number per game are
//! compared by their paired difference, whose interval is narrower than that of two
//! independent runs. Outcomes accepted before the record was kept still read, compared
//! unpaired, and say so.

use super::*;

const SNAPSHOT: &str = "snapshots/outcomes.json";

/// The paired and the unpaired interval of the change in `figure`, from the line `test`
/// prints for it: "...; change +0.05 (-0.03 to +0.13) paired by seed over 200 games, -0.26
/// to +0.36 unpaired".
fn intervals(out: &str, figure: &str) -> Option<([f64; 2], [f64; 2])> {
    let line = out
        .lines()
        .find(|l| l.trim_start().starts_with(&format!("{figure}:")))?;
    let (_, change) = line.split_once("; change ")?;
    let (_, rest) = change.split_once(" (")?;
    let (paired, rest) = rest.split_once(") paired by seed over ")?;
    let (_, unpaired) = rest.split_once(" games, ")?;
    let unpaired = unpaired.split(" unpaired").next()?;
    let two = |t: &str| -> Option<[f64; 2]> {
        let (lo, hi) = t.split_once(" to ")?;
        let num = |x: &str| x.trim().trim_end_matches(" pts").parse::<f64>().ok();
        Some([num(lo)?, num(hi)?])
    };
    Some((two(paired)?, two(unpaired)?))
}

#[test]
fn test_pairs_an_edit_with_the_accepted_games_and_reads_old_files_unpaired() {
    let folder = scratch("paired").join("wheres-my-ride");
    copy_dir(&mod_dir("wheres-my-ride"), &folder);
    let r = farebox(&["test", &s(&folder), "--accept", "--games", "200"]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    // The record of each game is small: a character of wins a game, and of length one (for
    // games under 63 turns, as these are) or two.
    let text = std::fs::read_to_string(folder.join(SNAPSHOT)).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let wins = json["per_game"]["wins"].as_str().unwrap_or_default();
    let turns = json["per_game"]["turns"].as_str().unwrap_or_default();
    assert_eq!(
        (wins.len(), turns.len()),
        (200, 200),
        "{}",
        json["per_game"]
    );

    // An edit of one card: the Fire emoji means less to the bots, so some games go
    // otherwise and the rest are played exactly as before.
    let emojis = folder.join("decks/emojis.toml");
    let deck = std::fs::read_to_string(&emojis).unwrap();
    let edited = deck.replace(
        "meanings = [\"getting warm\", \"hot spot\", \"grill\"]",
        "meanings = [\"grill\"]",
    );
    assert_ne!(
        deck, edited,
        "the Fire emoji's meanings are where the test expects"
    );
    std::fs::write(&emojis, edited).unwrap();
    let r = farebox(&["test", &s(&folder)]);
    assert!(r.code <= 1, "{}{}", r.out, r.err);
    assert!(
        r.out.contains("compared seed by seed over 200 games"),
        "{}",
        r.out
    );
    let (paired, unpaired) = intervals(&r.out, "mean length in turns")
        .unwrap_or_else(|| panic!("no paired change of the length in:\n{}", r.out));
    let width = |[lo, hi]: [f64; 2]| hi - lo;
    assert!(
        width(paired) * 2.0 < width(unpaired),
        "the paired interval {paired:?} is not less than half the unpaired {unpaired:?}"
    );

    // The same file without the record (as outcomes accepted before it was kept): read,
    // compared as two independent runs, and said so.
    json_without_record(&folder);
    let r2 = farebox(&["test", &s(&folder)]);
    assert_eq!(r2.code, r.code, "{}{}", r2.out, r2.err);
    assert!(
        r2.err.contains("keep no record of each game") && r2.err.contains("accept again"),
        "{}",
        r2.err
    );
    assert!(!r2.out.contains("paired by seed"), "{}", r2.out);
    // And a bundled game's file without it still passes as it did.
    let old = scratch("paired-old").join("wheres-my-ride");
    copy_dir(&mod_dir("wheres-my-ride"), &old);
    json_without_record(&old);
    let r = farebox(&["test", &s(&old)]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(
        r.out.contains("outcomes match the accepted ones"),
        "{}",
        r.out
    );
}

/// Takes the per-game record out of the accepted outcomes in `folder`.
fn json_without_record(folder: &Path) {
    let path = folder.join(SNAPSHOT);
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    json.as_object_mut().unwrap().remove("per_game");
    std::fs::write(&path, serde_json::to_string_pretty(&json).unwrap()).unwrap();
}
