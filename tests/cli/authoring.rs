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

/// Online, the bot marked `standin` plays for people who dropped out or ran out of time; a mod
/// marks one at most.
#[test]
fn one_bot_stands_in_for_people() {
    let dir = scratch("standin-bot").join("curbside");
    copy_dir(&mod_dir("curbside"), &dir);
    let manifest = dir.join("mod.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::copy(
        dir.join("bots/dispatcher.luau"),
        dir.join("bots/relief.luau"),
    )
    .unwrap();
    let relief = "\n[[bots]]\nid = \"relief\"\nname = \"Relief driver\"\nscript = \"bots/relief.luau\"\nstandin = true\n";
    std::fs::write(&manifest, format!("{text}{relief}")).unwrap();
    let r = farebox(&["validate", &s(&dir)]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let def = farebox::content::load_mod(
        &farebox::source::FsSource::new(&dir),
        &farebox::source::FolderResolver::new(dir.parent().unwrap()),
    )
    .unwrap();
    assert_eq!(def.standin_bot().map(|b| b.id.as_str()), Some("relief"));
    std::fs::write(
        &manifest,
        format!(
            "{}{relief}",
            text.replacen(
                "script = \"bots/dispatcher.luau\"",
                "script = \"bots/dispatcher.luau\"\nstandin = true",
                1
            )
        ),
    )
    .unwrap();
    let r = farebox(&["validate", &s(&dir)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(
        r.out.contains("one bot of a mod stands in for people"),
        "{}",
        r.out
    );
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

/// A choice with a label is still checked by its id: a card giving a label, or an id the
/// field does not list, is an error listing the ids; a choice listed twice is refused.
#[test]
fn labelled_choices_are_checked_by_their_ids() {
    let dir = scratch("labelled-choices").join("taxi-derby");
    copy_dir(&mod_dir("taxi-derby"), &dir);
    let deck = dir.join("decks/passengers.toml");
    let text = std::fs::read_to_string(&deck).unwrap();
    let line = text
        .lines()
        .position(|l| l == "requires = [\"wifi\"]")
        .expect("a passenger requires wi-fi")
        + 1;
    std::fs::write(
        &deck,
        text.replacen("requires = [\"wifi\"]", "requires = [\"Wi-Fi\"]", 1),
    )
    .unwrap();
    let r = farebox(&["validate", &s(&dir)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(
        r.out.contains(&format!("passengers.toml:{line}"))
            && r.out
                .contains("`Wi-Fi` is not one of stereo, turbo, wifi, luxury (`Wi-Fi` is the label of `wifi`: write the id)"),
        "{}",
        r.out
    );
    std::fs::write(
        &deck,
        text.replacen(
            "{ id = \"luxury\", label = \"Luxury\" },",
            "{ id = \"luxury\", label = \"Luxury\" },\n  { id = \"wifi\", label = \"Wireless\" },",
            1,
        ),
    )
    .unwrap();
    let r = farebox(&["validate", &s(&dir)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(
        r.out
            .contains("field `requires` lists the choice `wifi` twice"),
        "{}",
        r.out
    );
}

/// Rules that loop over a table keyed by tables (whose order follows memory addresses) play
/// another game from the same seed in another process; validate finds it and says why.
#[test]
fn an_order_that_follows_memory_addresses_is_found() {
    let dir = scratch("address-order").join("curbside");
    copy_dir(&mod_dir("curbside"), &dir);
    let rules = dir.join("rules/curbside.luau");
    let text = std::fs::read_to_string(&rules).unwrap();
    let shuffled = "\t\tfresh()\n\t\tlocal keyed = {}\n\t\tfor _, a in actions(seat) do\n\t\t\tkeyed[{ a }] = a\n\t\tend\n\t\tlocal out = {}\n\t\tfor _, a in pairs(keyed) do\n\t\t\ttable.insert(out, a)\n\t\tend\n\t\treturn out\n";
    let hook = "\t\tfresh()\n\t\treturn actions(seat)\n";
    assert!(text.contains(hook));
    std::fs::write(&rules, text.replacen(hook, shuffled, 1)).unwrap();
    let r = farebox(&["validate", &s(&dir)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(
        r.out
            .contains("the game depends on where its tables sit in memory")
            && r.out.contains("pairs or next"),
        "{}",
        r.out
    );
    // Setup alone picking by such an order (called once a game, so no extra call shows it).
    // (How many dice it throws follows the whole order, so two orders never agree by chance.)
    let once = "\t\tfresh()\n\t\tlocal keyed = {}\n\t\tfor i = 1, 16 do\n\t\t\tkeyed[{ i }] = i\n\t\tend\n\t\tlocal n, k = 0, 0\n\t\tfor _, i in pairs(keyed) do\n\t\t\tk += 1\n\t\t\tn += i * k * k\n\t\tend\n\t\tfor _ = 1, n do\n\t\t\tgame.roll(6)\n\t\tend\n\t\tsetup()\n";
    let setup = "\t\tfresh()\n\t\tsetup()\n";
    assert!(text.contains(setup));
    std::fs::write(&rules, text.replacen(setup, once, 1)).unwrap();
    let r = farebox(&["validate", &s(&dir)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(
        r.out
            .contains("the game depends on where its tables sit in memory"),
        "{}",
        r.out
    );
    // Keyed by the action's text, the order is the same everywhere.
    std::fs::write(
        &rules,
        text.replacen(hook, &shuffled.replace("keyed[{ a }]", "keyed[a]"), 1),
    )
    .unwrap();
    let r = farebox(&["validate", &s(&dir)]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
}

/// Rules whose own words show a seat what it may not see are refused by validate: a log line
/// naming the passenger card dispatch will send next, and a label naming it for everyone.
#[test]
fn rules_that_name_hidden_cards_to_other_seats_are_found() {
    let dir = scratch("leaky-words").join("curbside");
    copy_dir(&mod_dir("curbside"), &dir);
    let rules = dir.join("rules/curbside.luau");
    let text = std::fs::read_to_string(&rules).unwrap();
    let at = "\tif COSTS_ACTION[kind] then\n";
    assert!(text.contains(at));
    let logged = "\tlocal next = game.top(zone(\"dispatch\"))\n\tif next then\n\t\tgame.log(\"Next fare: \" .. data.decks.passengers.cards[next].name)\n\tend\n";
    std::fs::write(&rules, text.replacen(at, &format!("{logged}{at}"), 1)).unwrap();
    let r = farebox(&["validate", &s(&dir)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(
        r.out
            .contains("curbside/rules/curbside.luau: error: hidden information is shown")
            && r.out.contains("a log line names it")
            && r.out.contains("Next fare: "),
        "{}",
        r.out
    );
    // A label that names what the rules saw while applying the last action (a top-level
    // local, which describe then reads for everyone): the next passenger card.
    let applied = "\t\tfresh()\n\t\tapply(seat, action)\n";
    let public = "\t\tif game.viewer() == nil then\n\t\t\treturn public_label(path)\n";
    assert!(text.contains(applied) && text.contains(public));
    let peeked = text
        .replacen(
            "local C = data.constants\n",
            "local C = data.constants\nlocal peek = \"\"\n",
            1,
        )
        .replacen(
            applied,
            "\t\tfresh()\n\t\tapply(seat, action)\n\t\tlocal top = game.top(game.zone(\"dispatch\"))\n\t\tpeek = if top then data.decks.passengers.cards[top].name else \"\"\n",
            1,
        )
        .replacen(
            public,
            "\t\tif game.viewer() == nil then\n\t\t\treturn public_label(path) .. \" (\" .. peek .. \" waits)\"\n",
            1,
        );
    std::fs::write(&rules, peeked).unwrap();
    let r = farebox(&["validate", &s(&dir)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(
        r.out.contains("hidden information is shown")
            && r.out.contains("its label for the action names it")
            && r.out.contains(" waits)"),
        "{}",
        r.out
    );
    // The game as shipped shows nothing it should not.
    std::fs::write(&rules, &text).unwrap();
    let r = farebox(&["validate", &s(&dir)]);
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

/// A replay of a mod that is neither bundled nor in FAREBOX_MODS says how to name its folder.
#[test]
fn a_replay_of_an_unknown_mod_says_to_give_its_folder() {
    let dir = scratch("replay-folder");
    let folder = dir.join("fare-race");
    copy_dir(&mod_dir("curbside"), &folder);
    let manifest = folder.join("mod.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(
        &manifest,
        text.replacen("id = \"curbside\"", "id = \"fare-race\"", 1),
    )
    .unwrap();
    let file = s(&dir.join("game.json"));
    let r = farebox(&["record", &s(&folder), "--seed", "2", "--out", &file]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let r = farebox(&["replay", &file]);
    assert_eq!(r.code, 2, "{}{}", r.out, r.err);
    assert!(
        r.err.contains(
            "the replay was recorded from the mod `fare-race`: give its folder with --mod PATH"
        ),
        "{}",
        r.err
    );
    let r = farebox(&["replay", &file, "--mod", &s(&folder)]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
}
