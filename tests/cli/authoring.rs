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
