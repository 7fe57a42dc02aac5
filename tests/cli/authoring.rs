//! Authoring without silent failures, through the command line: what an author's mistakes
//! read like.

use super::*;

/// A misspelt constant is an error naming the key, the nearest constant and the line, not a
/// nil the rules go on with.
#[test]
fn a_misspelt_constant_is_an_error_with_a_near_match() {
    let dir = scratch("misspelt-constant").join("curbside");
    copy_dir(&mod_dir("curbside"), &dir);
    let rules = dir.join("rules/curbside.luau");
    let text = std::fs::read_to_string(&rules).unwrap();
    let line = text
        .lines()
        .position(|l| l.contains("C.start_tile"))
        .expect("the rules read the start tile")
        + 1;
    std::fs::write(&rules, text.replacen("C.start_tile", "C.start_tiel", 1)).unwrap();
    let r = farebox(&["validate", &s(&dir)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(
        r.out
            .contains("data.constants has no `start_tiel`; did you mean `start_tile`?"),
        "{}",
        r.out
    );
    assert!(
        r.out.contains(&format!("curbside.luau:{line}")),
        "{}",
        r.out
    );
    // A constant that may be missing on purpose is read with rawget, which says nil.
    std::fs::write(
        &rules,
        text.replacen(
            "local C = data.constants",
            "local C = data.constants\nassert(rawget(C, \"no_such_constant\") == nil)",
            1,
        ),
    )
    .unwrap();
    let r = farebox(&["validate", &s(&dir)]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
}

/// A mod's bot may not take the name of a built-in player (`random`, `search`, `human`),
/// and an id may not run to thousands of letters.
#[test]
fn reserved_bot_ids_and_endless_ids_are_refused() {
    let dir = scratch("reserved-bot").join("curbside");
    copy_dir(&mod_dir("curbside"), &dir);
    let manifest = dir.join("mod.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    for reserved in ["random", "search", "human"] {
        std::fs::write(
            &manifest,
            text.replacen("id = \"dispatcher\"", &format!("id = \"{reserved}\""), 1),
        )
        .unwrap();
        let r = farebox(&["validate", &s(&dir)]);
        assert_eq!(r.code, 1, "{reserved}: {}{}", r.out, r.err);
        assert!(
            r.out.contains(&format!(
                "bot id `{reserved}` is taken by the built-in player"
            )),
            "{}",
            r.out
        );
        assert!(r.out.contains("mod.toml:16:"), "{}", r.out);
    }
    std::fs::write(&manifest, &text).unwrap();
    let deck = dir.join("decks/passengers.toml");
    let cards = std::fs::read_to_string(&deck).unwrap();
    let long = "p".repeat(100_000);
    std::fs::write(
        &deck,
        cards.replacen("id = \"p01\"", &format!("id = \"{long}\""), 1),
    )
    .unwrap();
    let r = farebox(&["validate", &s(&dir)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(
        r.out.contains("characters long; ids are at most 64"),
        "{}",
        r.out
    );
    assert!(r.out.len() < 5_000, "the id is not echoed whole");
}

/// A deck's `tags_from` naming no table is an error even while no card has tags.
#[test]
fn tags_from_a_table_the_mod_does_not_have_is_an_error() {
    let dir = scratch("tags-from").join("curbside");
    copy_dir(&mod_dir("curbside"), &dir);
    let deck = dir.join("decks/passengers.toml");
    let text = std::fs::read_to_string(&deck).unwrap();
    std::fs::write(
        &deck,
        text.replacen(
            "name = \"Passenger cards\"",
            "name = \"Passenger cards\"\ntags_from = \"destinatons\"",
            1,
        ),
    )
    .unwrap();
    let r = farebox(&["validate", &s(&dir)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(
        r.out.contains(
            "deck `passengers` takes its tags from table `destinatons`, which the mod does not have; did you mean `destinations`?"
        ),
        "{}",
        r.out
    );
    assert!(r.out.contains("passengers.toml:6:"), "{}", r.out);
}

/// `game:place_tile(...)` (a colon for a dot) says what happened and how to fix it.
#[test]
fn a_game_call_with_a_colon_says_use_a_dot() {
    let dir = scratch("colon-call").join("curbside");
    copy_dir(&mod_dir("curbside"), &dir);
    let rules = dir.join("rules/curbside.luau");
    let text = std::fs::read_to_string(&rules).unwrap();
    let broken = text.replacen("game.place_tile(corner", "game:place_tile(corner", 1);
    assert_ne!(broken, text);
    std::fs::write(&rules, broken).unwrap();
    let r = farebox(&["validate", &s(&dir)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(
        r.out
            .contains("`game:place_tile(...)` passes the `game` table itself as argument 1")
            && r.out.contains("call it with a dot: `game.place_tile(...)`"),
        "{}",
        r.out
    );
}

/// `farebox record` of a seed whose game fails saves the game up to the failure, which
/// `farebox replay` plays back; the error prints its stack as lines, not a literal `\n`.
#[test]
fn record_keeps_a_failing_game_up_to_its_failure() {
    let dir = scratch("record-fails").join("curbside");
    copy_dir(&mod_dir("curbside"), &dir);
    let rules = dir.join("rules/curbside.luau");
    let text = std::fs::read_to_string(&rules).unwrap();
    let hook = "\tapply = function(_g, seat: number, action: string)";
    assert!(text.contains(hook));
    std::fs::write(
        &rules,
        text.replacen(
            hook,
            &format!(
                "{hook}\n\t\tlocal function jam()\n\t\t\terror(\"the meter jammed\")\n\t\tend\n\t\tif action == \"end\" then\n\t\t\tjam()\n\t\tend"
            ),
            1,
        ),
    )
    .unwrap();
    let file = dir.join("../failed.replay.json");
    let r = farebox(&["record", &s(&dir), "--seed", "3", "--out", &s(&file)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(r.err.contains("the meter jammed"), "{}", r.err);
    assert!(!r.err.contains("\\n"), "a literal \\n in: {}", r.err);
    assert!(
        r.err.contains("\n    at "),
        "the stack on lines of its own: {}",
        r.err
    );
    assert!(r.err.contains("is saved to"), "{}", r.err);
    let r = farebox(&["replay", &s(&file), "--mod", &s(&dir)]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(r.out.starts_with("verified: "), "{}", r.out);
}

/// `farebox validate` prints a script error's stack as lines of its own.
#[test]
fn validate_prints_a_stack_as_lines() {
    let dir = scratch("stack-lines").join("curbside");
    copy_dir(&mod_dir("curbside"), &dir);
    let rules = dir.join("rules/curbside.luau");
    let text = std::fs::read_to_string(&rules).unwrap();
    std::fs::write(
        &rules,
        text.replacen("C.start_tile", "(nil :: any).start_tile", 1),
    )
    .unwrap();
    let r = farebox(&["validate", &s(&dir)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(!r.out.contains("\\n"), "a literal \\n in: {}", r.out);
    assert!(r.out.contains("\n    at "), "{}", r.out);
}

/// `--forbid-seat` says whose play is restricted: alone, with nothing to restrict, it is a
/// usage error rather than a run that ignores it.
#[test]
fn forbid_seat_alone_is_refused() {
    let r = farebox(&["sim", "curbside", "--games", "2", "--forbid-seat", "2"]);
    assert_eq!(r.code, 2, "{}{}", r.out, r.err);
    assert!(r.err.contains("--forbid-seat"), "{}", r.err);
    assert!(
        r.err.contains("--forbid") || r.err.contains("--rank"),
        "{}",
        r.err
    );
    let r = farebox(&[
        "sim",
        "curbside",
        "--games",
        "2",
        "--forbid",
        "cs-t12",
        "--forbid-seat",
        "2",
    ]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
}

/// An error value a report cannot show as it is (a message of megabytes, an object whose
/// `__tostring` fails) is reported at the line of the `error(...)` call, its message bounded,
/// rather than as "error in error handling" with no line.
#[test]
fn an_error_that_cannot_be_shown_still_names_its_line() {
    let dir = scratch("unshowable-error").join("curbside");
    copy_dir(&mod_dir("curbside"), &dir);
    let rules = dir.join("rules/curbside.luau");
    let text = std::fs::read_to_string(&rules).unwrap();
    let setup = "\tsetup = function(_g)\n";
    let line = text[..text.find(setup).expect("the rules have a setup")]
        .lines()
        .count()
        + 2;
    for (raised, said) in [
        (
            "error(string.rep(\"x\", 16 * 1024 * 1024))",
            format!("… ({} bytes more)", 16 * 1024 * 1024 - 1968),
        ),
        (
            "error(setmetatable({}, { __tostring = function() error(\"no words\") end }))",
            "the error value could not be turned into text: its __tostring failed".to_string(),
        ),
        (
            "error(setmetatable({}, { __tostring = function() return {} end }))",
            "the error value could not be turned into text".to_string(),
        ),
    ] {
        std::fs::write(
            &rules,
            text.replacen(setup, &format!("{setup}\t\t{raised}\n"), 1),
        )
        .unwrap();
        let r = farebox(&["validate", &s(&dir)]);
        assert_eq!(r.code, 1, "{}{}", r.out, r.err);
        assert!(!r.out.contains("error in error handling"), "{}", r.out);
        assert!(
            r.out
                .contains(&format!("rules/curbside.luau:{line}: error: ")),
            "{raised}: {}",
            &r.out[..r.out.len().min(600)]
        );
        assert!(r.out.contains(&said), "{raised}: {}", r.out);
        assert!(r.out.len() < 5000, "{raised}: {} bytes", r.out.len());
    }
    // A value that can be shown is raised unchanged, so a `pcall` still catches the table.
    std::fs::write(
        &rules,
        text.replacen(
            setup,
            &format!(
                "{setup}\t\tlocal _, e = pcall(error, {{ code = 7 }})\n\t\terror(\"caught \" .. e.code)\n"
            ),
            1,
        ),
    )
    .unwrap();
    let r = farebox(&["validate", &s(&dir)]);
    assert!(
        r.out.contains(&format!(
            "rules/curbside.luau:{}: error: caught 7",
            line + 1
        )),
        "{}",
        r.out
    );
}
