//! Messages that name the right file and say what to do: settings in a snapshot, a house
//! rule that changes an option, what `farebox new` copies from its base game, numbers out of
//! range, files that are not regular files, byte order marks, and `game.stat` names past what
//! a run keeps.

use super::*;

/// A copy of Curbside whose accepted outcomes have `change` applied to their settings.
fn curbside_with_settings(name: &str, change: impl Fn(&mut serde_json::Value)) -> PathBuf {
    let dir = scratch(name).join("curbside");
    copy_dir(&mod_dir("curbside"), &dir);
    let snap = dir.join("snapshots/outcomes.json");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&snap).unwrap()).unwrap();
    change(&mut v["settings"]);
    std::fs::write(&snap, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    dir
}

/// The 1-based line of the first line of `file` holding `needle`.
fn line_of(file: &Path, needle: &str) -> usize {
    std::fs::read_to_string(file)
        .unwrap()
        .lines()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no `{needle}` in {}", file.display()))
        + 1
}

/// Settings in `snapshots/outcomes.json` the mod cannot play are the file's errors, at the
/// setting's line, before any game: not a command-line flag's, nor an error in every game.
#[test]
fn snapshot_settings_are_reported_in_the_snapshot_file() {
    let cases: Vec<(&str, serde_json::Value, &str, &str)> = vec![
        (
            "forbid",
            serde_json::json!(["no-such-card"]),
            "\"no-such-card\"",
            "`no-such-card`: Curbside has no card, tile, piece or option value of that id",
        ),
        (
            "bots",
            serde_json::json!(["dispatcher", "nobody"]),
            "\"nobody\"",
            "no agent `nobody`",
        ),
        (
            "players",
            serde_json::json!(9),
            "\"players\"",
            "Curbside is for 2 to 4 players, not 9",
        ),
        (
            "options",
            serde_json::json!(["starting-gas=1"]),
            "\"starting-gas=1\"",
            "option `starting-gas` must be between 4 and 40",
        ),
        (
            "options",
            serde_json::json!(["stating-gas=10"]),
            "\"stating-gas=10\"",
            "Curbside has no option `stating-gas`",
        ),
    ];
    for (key, value, at, said) in cases {
        let dir = curbside_with_settings(&format!("settings-{key}"), |s| {
            s[key] = value.clone();
        });
        let snap = dir.join("snapshots/outcomes.json");
        let line = line_of(&snap, at);
        let r = farebox(&["test", &s(&dir)]);
        assert_eq!(r.code, 1, "{key}: {}{}", r.out, r.err);
        assert!(
            r.err.contains(&format!(
                "snapshots/outcomes.json:{line}:{}: error: settings.{key}: {said}",
                std::fs::read_to_string(&snap)
                    .unwrap()
                    .lines()
                    .nth(line - 1)
                    .unwrap()
                    .find(at)
                    .unwrap()
                    + 1
            )),
            "{key}: {}",
            r.err
        );
        assert!(!r.err.contains("--forbid"), "{key}: {}", r.err);
        assert!(!r.out.contains("outcomes changed"), "{key}: {}", r.out);
    }
}

/// A house rule that replaces an option with one of another type is told so at its own file,
/// not at the base game's file that uses the option.
#[test]
fn a_house_rule_changing_an_option_is_reported_in_its_own_file() {
    let dir = scratch("option-type");
    let rule = dir.join("curbside-gas-station");
    copy_dir(&mod_dir("curbside-gas-station"), &rule);
    let manifest = rule.join("mod.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let changed = text.replacen(
        "type = \"int\"\ndefault = 8\nmin = 4\nmax = 40",
        "type = \"bool\"\ndefault = true",
        1,
    );
    assert_ne!(changed, text);
    std::fs::write(&manifest, changed).unwrap();
    let line = line_of(&manifest, "type = \"bool\"");
    let r = farebox(&["validate", &s(&rule)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    let first = r.out.lines().next().unwrap_or_default();
    assert!(
        first.starts_with(&format!("{}:{line}:", s(&manifest))),
        "{}",
        r.out
    );
    assert!(
        first.contains("option `starting-gas` is a bool option here")
            && first.contains("curbside/pieces.toml:")
            && first.contains("uses it as an int option"),
        "{}",
        r.out
    );

    // An option other options and counters of the game name in `applies_when`, replaced by
    // an int one: each is reported at the house rule's option.
    let rule = dir.join("cab-limits");
    std::fs::create_dir_all(&rule).unwrap();
    let manifest = rule.join("mod.toml");
    std::fs::write(
        &manifest,
        "id = \"cab-limits\"\nname = \"Cab limits\"\nversion = \"0.1.0\"\nengine = \"0.1\"\ndepends = [{ id = \"critter-cab\", version = \"1.0\" }]\n\n[[options]]\nid = \"limit\"\nlabel = \"Game limit\"\ntype = \"int\"\ndefault = 1\n",
    )
    .unwrap();
    let r = farebox(&["validate", &s(&rule)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    let errors: Vec<&str> = r.out.lines().filter(|l| l.contains(": error: ")).collect();
    assert!(!errors.is_empty(), "{}", r.out);
    for e in &errors {
        assert!(
            e.starts_with(&format!("{}:", s(&manifest))),
            "reported elsewhere: {e}"
        );
        assert!(
            e.contains("option `limit` is an int option here")
                && e.contains("critter-cab/")
                && e.contains("applies_when"),
            "{e}"
        );
    }
}

/// A base game whose name, option labels and card names hold quotes, backslashes and line
/// breaks: `farebox new --from` writes them escaped, so the house rule loads and validates,
/// and its commented examples are valid TOML once uncommented.
#[test]
fn new_from_a_game_with_awkward_texts_escapes_them() {
    let dir = scratch("new-awkward");
    let base = dir.join("awkward-cab");
    copy_dir(&mod_dir("curbside"), &base);
    let manifest = base.join("mod.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let changed = text
        .replacen("id = \"curbside\"", "id = \"awkward-cab\"", 1)
        .replacen(
            "name = \"Curbside\"",
            r#"name = "Cab \"Co\" \\ 1\nid = \"x\"\r\n-- end\u0007""#,
            1,
        )
        .replacen(
            "label = \"Starting gas\"",
            r#"label = "Gas \"now\"\n[[bots]]\\""#,
            1,
        );
    std::fs::write(&manifest, &changed).unwrap();
    for deck in std::fs::read_dir(base.join("decks")).unwrap().flatten() {
        let text = std::fs::read_to_string(deck.path()).unwrap();
        let at = text.find("[[cards]]").unwrap();
        let name = at + text[at..].find("\nname = ").unwrap() + "\nname = ".len();
        let end = name + text[name..].find('\n').unwrap();
        let changed = format!(
            "{}{}{}",
            &text[..name],
            r#""Card \"q\" \\ \nname = 1\u2028--x""#,
            &text[end..]
        );
        std::fs::write(deck.path(), changed).unwrap();
    }
    let r = farebox(&["validate", &s(&base)]);
    assert_eq!(r.code, 0, "the base itself loads: {}{}", r.out, r.err);

    let r = farebox(&["new", "siesta", "--from", &s(&base), "--dir", &s(&dir)]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let rule = dir.join("siesta");
    let r = farebox(&["validate", &s(&rule)]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    // The name is the base's with the rule's, read back exactly.
    let def = farebox::content::load_mod(
        &farebox::source::FsSource::new(&rule),
        &farebox::source::FolderResolver::new(&dir),
    )
    .unwrap_or_else(|d| panic!("{d}"));
    assert_eq!(
        def.name,
        "Cab \"Co\" \\ 1\nid = \"x\"\r\n-- end\u{7}: Siesta"
    );
    // Every comment stays one comment: no line of the new files is live text from the base.
    for f in ["mod.toml", "patches/siesta.toml", "rules/siesta.luau"] {
        let text = std::fs::read_to_string(rule.join(f)).unwrap();
        for line in text.lines() {
            assert!(
                !line.starts_with("id = \"x\"")
                    && !line.starts_with("[[bots]]")
                    && !line.starts_with("name = 1")
                    && !line.starts_with("-- end"),
                "{f}: {line}"
            );
        }
    }
    // Uncommented, the examples are the base's values, still valid TOML.
    let uncomment = |f: &str, from: &str| {
        let path = rule.join(f);
        let text = std::fs::read_to_string(&path).unwrap();
        let at = text.find(from).unwrap();
        let tail: String = text[at..]
            .lines()
            .map(|l| {
                let l = l.strip_prefix("# ").unwrap_or(l);
                // The notes after a value are comments again.
                match l.find("   #") {
                    Some(i) => l[..i].to_string(),
                    None => l.to_string(),
                }
            })
            .map(|l| l + "\n")
            .collect();
        std::fs::write(&path, format!("{}{tail}", &text[..at])).unwrap();
    };
    uncomment("mod.toml", "# [[options]]");
    uncomment("patches/siesta.toml", "# [[decks]]");
    let r = farebox(&["validate", &s(&rule)]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
}

/// A number too large for its place says the range, and a whole number written with a decimal
/// point says how to write it; a snapshot's error is in the project's words, not Rust's.
#[test]
fn numbers_out_of_range_say_the_limit() {
    let dir = curbside_with_settings("players-300", |s| s["players"] = serde_json::json!(300));
    let r = farebox(&["test", &s(&dir)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(
        r.err
            .contains("wrong value: `300`, expected a whole number from 0 to 255"),
        "{}",
        r.err
    );
    let dir = curbside_with_settings("games-float", |s| s["games"] = serde_json::json!(12.0));
    let r = farebox(&["test", &s(&dir)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(
        r.err.contains("`12.0`") && r.err.contains("write 12"),
        "{}",
        r.err
    );

    // A figure of the rules that is not a table of figures.
    let snap = dir.join("snapshots/outcomes.json");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&snap).unwrap()).unwrap();
    v["settings"]["games"] = serde_json::json!(12);
    v["outcomes"]["stats"]["deliveries"] = serde_json::json!("many");
    std::fs::write(&snap, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    let r = farebox(&["test", &s(&dir)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(
        r.err
            .contains("wrong type: string \"many\", expected a table"),
        "{}",
        r.err
    );
    assert!(!r.err.contains("struct"), "{}", r.err);

    // The same words for a mod's own TOML.
    let dir = scratch("count-too-large").join("curbside");
    copy_dir(&mod_dir("curbside"), &dir);
    let pieces = dir.join("pieces.toml");
    let text = std::fs::read_to_string(&pieces).unwrap();
    std::fs::write(&pieces, text.replacen("count = 5", "count = 5000000000", 1)).unwrap();
    let r = farebox(&["validate", &s(&dir)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(
        r.out
            .contains("expected a whole number from 0 to 4294967295"),
        "{}",
        r.out
    );
}

/// A replay: a whole number written 12.0 says "write 12", for a field and for an option.
#[test]
fn a_replay_with_a_whole_number_written_as_a_fraction_says_how_to_write_it() {
    let dir = scratch("replay-floats");
    let file = dir.join("game.json");
    let r = farebox(&["record", "curbside", "--out", &s(&file)]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let mut seed = v.clone();
    seed["setup"]["seed"] = serde_json::json!(12.0);
    let bad = dir.join("seed.json");
    std::fs::write(&bad, serde_json::to_string(&seed).unwrap()).unwrap();
    let r = farebox(&["replay", &s(&bad)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(r.err.contains("write 12"), "{}", r.err);
    let mut option = v.clone();
    option["setup"]["options"] = serde_json::json!({ "starting-gas": 12.0 });
    std::fs::write(&bad, serde_json::to_string(&option).unwrap()).unwrap();
    let r = farebox(&["replay", &s(&bad)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(
        r.out
            .contains("option `starting-gas` takes a whole number: write 12, not 12.0"),
        "{}",
        r.out
    );
}

/// Files that start with a UTF-8 byte order mark read as if it were not there: a replay, a
/// snapshot, a script, and the mod's TOML.
#[test]
fn a_byte_order_mark_is_not_part_of_the_text() {
    let bom = |p: &Path| {
        let text = std::fs::read(p).unwrap();
        let mut with = "\u{feff}".as_bytes().to_vec();
        with.extend(text);
        std::fs::write(p, with).unwrap();
    };
    let dir = scratch("bom").join("curbside");
    copy_dir(&mod_dir("curbside"), &dir);
    for f in [
        "mod.toml",
        "pieces.toml",
        "decks/passengers.toml",
        "rules/curbside.luau",
        "snapshots/outcomes.json",
    ] {
        bom(&dir.join(f));
    }
    let r = farebox(&["validate", &s(&dir)]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let file = dir.parent().unwrap().join("game.json");
    let r = farebox(&["record", &s(&dir), "--out", &s(&file)]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    bom(&file);
    let r = farebox(&["replay", &s(&file), "--mod", &s(&dir)]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(r.out.starts_with("verified: "), "{}", r.out);
    // The snapshot reads (and is compared: a few games, so that the run is short).
    let snap = dir.join("snapshots/outcomes.json");
    let text = std::fs::read_to_string(&snap).unwrap();
    assert!(text.starts_with('\u{feff}'));
    let r = farebox(&["test", &s(&dir)]);
    assert!(!r.err.contains("outcomes.json:1:1"), "{}", r.err);
    assert!(r.out.contains("outcomes match"), "{}{}", r.out, r.err);
}

/// A mod.toml that is a FIFO or a link to a device is said to be no regular file (and is never
/// read, so nothing blocks); so is an outcomes file `test --accept` would replace.
#[cfg(unix)]
#[test]
fn files_that_are_not_regular_files_are_named_so() {
    let dir = scratch("not-regular");
    let fifo_mod = dir.join("fifo");
    std::fs::create_dir_all(&fifo_mod).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(fifo_mod.join("mod.toml"))
        .status()
        .is_ok_and(|s| s.success());
    let null_mod = dir.join("null");
    std::fs::create_dir_all(&null_mod).unwrap();
    std::os::unix::fs::symlink("/dev/null", null_mod.join("mod.toml")).unwrap();
    let mut mods = vec![(null_mod.clone(), "a device")];
    if made {
        mods.push((fifo_mod.clone(), "a named pipe (FIFO)"));
    }
    for (m, what) in mods {
        let r = farebox(&["validate", &s(&m)]);
        assert_eq!(r.code, 1, "{}{}", r.out, r.err);
        assert!(
            r.out.contains(&format!(
                "{}: error: it is {what}, not a regular file",
                s(&m.join("mod.toml"))
            )),
            "{}{}",
            r.out,
            r.err
        );
        assert!(!r.err.contains("skipped"), "{}", r.err);
        let r = farebox(&["sim", &s(&m), "--games", "1"]);
        assert_eq!(r.code, 1, "{}{}", r.out, r.err);
        assert!(r.err.contains("not a regular file"), "{}", r.err);
    }

    let game = dir.join("curbside");
    copy_dir(&mod_dir("curbside"), &game);
    let snap = game.join("snapshots/outcomes.json");
    std::fs::remove_file(&snap).unwrap();
    if std::process::Command::new("mkfifo")
        .arg(&snap)
        .status()
        .is_ok_and(|s| s.success())
    {
        let r = farebox(&["test", &s(&game), "--accept", "--games", "2"]);
        assert_eq!(r.code, 1, "{}{}", r.out, r.err);
        assert!(
            r.err
                .contains("it is a named pipe (FIFO), not a regular file; accepted outcomes"),
            "{}",
            r.err
        );
        assert!(r.err.contains("nothing was played"), "{}", r.err);
    }
}

/// `game.stat` names past the 100 a run summarises are left out with a warning that says how
/// many and which, in `sim` and `test`.
#[test]
fn game_stat_names_past_the_run_limit_are_said() {
    let (dir, _) = curbside_with_hooks(
        "stat-names",
        "local first = hooks.setup\nhooks.setup = function(g)\n  for i = 1, 30 do game.stat(\"n\" .. math.random(1, 1000000), i) end\n  return first(g)\nend",
    );
    let r = farebox(&["sim", &s(&dir), "--games", "10"]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(
        r.err.contains("curbside: warning: the rules recorded ")
            && r.err
                .contains(" game.stat names past the 100 a run summarises, and they are left out"),
        "{}",
        r.err
    );
    let r = farebox(&["sim", &s(&dir), "--games", "10", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&r.out).unwrap();
    let left = v["stats_left_out"].as_u64().unwrap_or(0);
    assert!(left > 150, "{}", r.out);
    assert_eq!(v["stats"].as_object().map(|m| m.len()), Some(100));
    let r = farebox(&["test", &s(&dir), "--accept", "--games", "10"]);
    assert!(r.err.contains("game.stat names past the 100"), "{}", r.err);
    // A game that keeps to its names gets no warning.
    let r = farebox(&["sim", "curbside", "--games", "3"]);
    assert!(!r.err.contains("warning"), "{}", r.err);
}
