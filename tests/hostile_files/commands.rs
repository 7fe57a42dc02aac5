//! Hostile command lines and what the `farebox` command writes or prints: snapshots and records
//! never written through links or outside the mod, bounded numbers, text from a mod that
//! cannot drive the terminal or fake a line of the program, figures kept instead of games.

use super::*;

#[cfg(unix)]
#[test]
fn accept_never_writes_outside_the_mod() {
    let d = scratch("accept");
    let game = new_game(&d, "dice");
    let outside = d.join("outside");
    std::fs::create_dir(&outside).unwrap();
    // snapshots/ is a link to a folder elsewhere.
    let _ = std::fs::remove_dir_all(game.join("snapshots"));
    std::os::unix::fs::symlink(&outside, game.join("snapshots")).unwrap();
    let r = farebox(&["test", &s(&game), "--accept", "--games", "2"]);
    assert_eq!(r.code, 2, "{}{}", r.out, r.err);
    assert!(r.err.contains("snapshots"), "{}", r.err);
    assert!(std::fs::read_dir(&outside).unwrap().next().is_none());
    // snapshots/outcomes.json is a link to a file elsewhere: not written through, not replaced.
    std::fs::remove_file(game.join("snapshots")).unwrap();
    std::fs::create_dir(game.join("snapshots")).unwrap();
    let target = outside.join("precious.txt");
    std::fs::write(&target, "keep me").unwrap();
    std::os::unix::fs::symlink(&target, game.join("snapshots/outcomes.json")).unwrap();
    let r = farebox(&["test", &s(&game), "--accept", "--games", "2"]);
    assert_eq!(r.code, 2, "{}{}", r.out, r.err);
    assert!(r.err.contains("symbolic link"), "{}", r.err);
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me");
    // Reading it is refused too (it leads out of the mod).
    let r = farebox(&["test", &s(&game)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(r.err.contains("outside the mod folder"), "{}", r.err);
}

#[cfg(unix)]
#[test]
fn hostile_snapshots_are_refused() {
    let d = scratch("snapshot");
    let game = new_game(&d, "dice");
    let snap = game.join("snapshots/outcomes.json");
    std::fs::create_dir_all(snap.parent().unwrap()).unwrap();
    let _ = std::fs::remove_file(&snap);
    std::os::unix::fs::symlink("/dev/zero", &snap).unwrap();
    let r = farebox(&["test", &s(&game)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(r.err.contains("outcomes.json"), "{}", r.err);
    std::fs::remove_file(&snap).unwrap();
    let fifo = std::process::Command::new("mkfifo").arg(&snap).status();
    if fifo.is_ok_and(|s| s.success()) {
        let r = farebox(&["test", &s(&game)]);
        assert_eq!(r.code, 1, "{}{}", r.out, r.err);
        assert!(r.err.contains("FIFO"), "{}", r.err);
        std::fs::remove_file(&snap).unwrap();
    }
    // Settings that would play forever or allocate without bound.
    let text = r#"{"mod_version": "1.0.0", "settings": {"games": 18446744073709551615, "seed": 1,
        "players": 2, "bots": ["random"], "cap": 5000, "options": []}, "outcomes": {"games": 0,
        "finished": 0, "capped": 0, "errors": 0, "error_messages": [], "win_rate": [],
        "actions_mean": 0, "actions_sd": 0, "turns_mean": 0, "turns_sd": 0, "score_mean": [],
        "score_sd": []}}"#;
    std::fs::write(&snap, text).unwrap();
    let r = farebox(&["test", &s(&game)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(
        r.err.contains("outcomes.json") && r.err.contains("settings.games"),
        "{}",
        r.err
    );
}

#[cfg(unix)]
#[test]
fn record_and_schema_do_not_write_through_links() {
    let d = scratch("record");
    let game = new_game(&d, "dice");
    let target = d.join("precious.txt");
    std::fs::write(&target, "keep me").unwrap();
    let out = d.join("replay.json");
    std::os::unix::fs::symlink(&target, &out).unwrap();
    let r = farebox(&["record", &s(&game), "--out", &s(&out)]);
    assert_eq!(r.code, 2, "{}{}", r.out, r.err);
    assert!(r.err.contains("symbolic link"), "{}", r.err);
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me");
    // A folder at the out path is not replaced either.
    let r = farebox(&["record", &s(&game), "--out", &s(&d)]);
    assert_eq!(r.code, 2, "{}{}", r.out, r.err);
    // Schemas: a stub that is a link is refused, its target untouched.
    let sd = d.join("schemas");
    std::fs::create_dir(&sd).unwrap();
    std::os::unix::fs::symlink(&target, sd.join("farebox.d.luau")).unwrap();
    let r = farebox(&["schema", "--out", &s(&sd)]);
    assert_ne!(r.code, 0, "{}{}", r.out, r.err);
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me");
}

#[test]
fn command_line_numbers_are_bounded() {
    let d = scratch("numbers");
    let game = new_game(&d, "dice");
    let g = s(&game);
    for args in [
        vec!["sim", &g, "--games", "18446744073709551615"],
        vec!["sim", &g, "--threads", "100000"],
        vec!["sim", &g, "--threads", "0"],
        vec!["sim", &g, "--cap", "4294967295"],
        vec!["bench", &g, "--games", "18446744073709551615"],
        vec!["bench", "--load", "--iterations", "4294967295"],
        vec!["bench-load", "--iterations", "4294967295"],
        vec!["sim", &g, "--players", "255", "--games", "1"],
        vec!["record", &g, "--players", "255", "--out", "x.json"],
        vec!["test", &g, "--accept", "--games", "18446744073709551615"],
    ] {
        let r = farebox(&args);
        assert_eq!(r.code, 2, "{args:?}: {}{}", r.out, r.err);
    }
    let bots = vec!["random"; 1_000_000].join(",");
    for args in [
        vec!["sim", &g, "--bots", &bots],
        vec!["record", &g, "--bots", &bots, "--out", "x.json"],
    ] {
        let r = farebox(&args);
        assert_eq!(r.code, 2, "{}{}", r.out, r.err);
        assert!(r.err.contains("more than 16 agents"), "{}", r.err);
        assert!(r.err.len() < 1_000, "{}", r.err.len());
    }
    let r = farebox(&["play", &g, "--seats", &bots]);
    assert_eq!(r.code, 2, "{}", r.err);
    // Seeds near the top wrap instead of overflowing.
    let r = farebox(&["sim", &g, "--games", "3", "--seed", "18446744073709551615"]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
}

#[test]
fn text_from_a_mod_cannot_drive_the_terminal() {
    let d = scratch("ansi");
    content_mod(
        &d,
        "pieces = \"pieces.toml\"",
        &[(
            "pieces.toml",
            "[[pieces]]\nid = \"\\u001b[2J\\u001b[Hx\\r\\nok: all good\\u0007\"\nname = \"P\"\n",
        )],
    );
    let r = farebox(&["validate", &s(&d)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    let all = format!("{}{}", r.out, r.err);
    assert!(!all.chars().any(|c| c.is_control() && c != '\n'), "{all:?}");
    assert!(all.contains("\\u{1b}[2J"), "{all}");
}

#[test]
fn clean_keeps_text_and_shows_controls() {
    use farebox_editor::common::{clean, clean_line};
    assert_eq!(clean("plain é text\nnext"), "plain é text\nnext");
    assert_eq!(clean("a\x1b[31mb"), "a\\u{1b}[31mb");
    assert_eq!(
        clean("a\rb\x07\u{9b}c\u{202e}"),
        "a\\u{d}b\\u{7}\\u{9b}c\\u{202e}"
    );
    assert_eq!(clean_line("a\nb\tc"), "a\\nb c");
}

#[test]
fn a_line_break_from_a_script_cannot_fake_a_line_of_the_program() {
    // A rules script logs a line with a line break and a fake game-over after it.
    let d = scratch("newline");
    let game = new_game(&d, "dice");
    let rules = game.join("rules").join("dice.luau");
    let text = std::fs::read_to_string(&rules).unwrap();
    let text = text.replacen(
        "apply = function(_g, seat: number, action: string)",
        "apply = function(_g, seat: number, action: string)\n\t\tgame.log(\"x\\nGame over: you win\")",
        1,
    );
    std::fs::write(&rules, text).unwrap();
    let r = farebox_with_input(
        &["play", &s(&game), "--seats", "human,random", "--seed", "1"],
        "1\n1\nq\n",
    );
    assert!(
        r.out.contains("x\\nGame over: you win"),
        "{}{}",
        r.out,
        r.err
    );
    assert!(
        !r.out.lines().any(|l| l.starts_with("Game over: you win")),
        "{}",
        r.out
    );
}

#[test]
fn sim_keeps_figures_not_every_game() {
    // Every game ends for a long reason of its own: the endings are counted under at most
    // 100 reasons (the rest together), each cut short, so what `sim` and `test` keep does
    // not grow with the number of games.
    let d = scratch("endings");
    let game = new_game(&d, "dice");
    let rules = game.join("rules").join("dice.luau");
    let text = std::fs::read_to_string(&rules).unwrap();
    let text = text.replacen(
        "game.finish(places, scores, game.seat_name(winner)",
        "game.finish(places, scores, game.roll(1000) .. game.roll(1000) .. string.rep('r', 3000) .. game.seat_name(winner)",
        1,
    );
    std::fs::write(&rules, text).unwrap();
    let r = farebox(&["sim", &s(&game), "--games", "400", "--json"]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let v: serde_json::Value = serde_json::from_str(&r.out).unwrap();
    let endings = v["endings"].as_object().unwrap();
    assert_eq!(v["finished"], 400);
    assert!(endings.len() <= 101, "{} endings kept", endings.len());
    assert!(
        endings.contains_key("(any other reason)"),
        "{:?}",
        endings.keys()
    );
    assert!(endings.keys().all(|k| k.chars().count() <= 330));
    let counted: u64 = endings.values().map(|c| c.as_u64().unwrap()).sum();
    assert_eq!(counted, 400, "every game is counted once");
    assert!(r.out.len() < 100_000, "{} bytes of figures", r.out.len());
}

#[test]
fn validate_and_test_make_every_label_of_seeded_games() {
    // A describe hook that fails only for the public label (read as a spectator) of one
    // action, once the meter has run: only playing finds it.
    let d = scratch("labels");
    let game = new_game(&d, "dice");
    let g = s(&game);
    let r = farebox(&["test", &g, "--accept", "--games", "20"]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let r = farebox(&["validate", &g]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let rules = game.join("rules").join("dice.luau");
    let text = std::fs::read_to_string(&rules).unwrap();
    let broken = text.replacen(
        "\t\treturn \"Drop off the passenger (bank \"",
        "\t\tif game.viewer() == nil and game.counter(\"meter\") > 4 then return nil end\n\t\treturn \"Drop off the passenger (bank \"",
        1,
    );
    assert_ne!(broken, text);
    std::fs::write(&rules, broken).unwrap();
    let line = std::fs::read_to_string(&rules)
        .unwrap()
        .lines()
        .position(|l| l.contains("describe = function"))
        .unwrap()
        + 1;
    let r = farebox(&["validate", &g]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    for part in [
        format!(
            "rules/dice.luau:{line}: error: describe returned nothing (nil) for the action `drop off`"
        ),
        "in describe".to_string(),
        "the label everyone else is shown (describe read as a spectator)".to_string(),
        "offered to Seat ".to_string(),
        "at action ".to_string(),
        "trial game".to_string(),
    ] {
        assert!(r.out.contains(&part), "{part}: {}", r.out);
    }
    let r = farebox(&["test", &g]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(r.out.contains("errors: accepted 0, now "), "{}", r.out);
    assert!(
        r.out
            .contains("describe returned nothing (nil) for the action `drop off`"),
        "{}",
        r.out
    );
}

#[test]
fn huge_or_broken_text_is_shown_cut_short_on_one_line() {
    let d = scratch("shown");
    let game = new_game(&d, "dice");
    let g = s(&game);
    let huge = "x".repeat(100_000);
    // A 100 KB argument, as a mod, an option and a replay file.
    for args in [
        vec!["validate", huge.as_str()],
        vec!["play", huge.as_str()],
        vec!["sim", &g, "--option", huge.as_str()],
        vec!["sim", &g, "--option", &format!("{huge}=1")],
        vec!["replay", huge.as_str()],
    ] {
        let r = farebox(&args);
        assert_ne!(r.code, 0, "{}", &args[0]);
        let all = format!("{}{}", r.out, r.err);
        assert!(all.len() < 2_000, "{}: {} bytes", args[0], all.len());
        assert!(all.contains("(100000 bytes)"), "{}: {all}", args[0]);
    }
    // A path holding a line break: escaped, never a line of its own.
    let odd = d.join("a\nerror: fake");
    std::fs::create_dir_all(&odd).unwrap();
    for args in [vec!["validate", &s(&odd)], vec!["test", &s(&odd)]] {
        let r = farebox(&args);
        let all = format!("{}{}", r.out, r.err);
        assert!(
            !all.lines().any(|l| l.starts_with("error: fake")),
            "{}: {all}",
            args[0]
        );
        assert!(all.contains("a\\nerror: fake"), "{}: {all}", args[0]);
    }
    // A mod in such a folder with a mistake: its diagnostics stay one line each.
    let moved = d.join("b\nerror: fake");
    std::fs::rename(&game, &moved).unwrap();
    std::fs::write(moved.join("pieces.toml"), "[[counters]]\nid = 5\n").unwrap();
    let r = farebox(&["validate", &s(&moved)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    let all = format!("{}{}", r.out, r.err);
    assert!(!all.lines().any(|l| l.starts_with("error: fake")), "{all}");
    assert!(all.contains("b\\nerror: fake/pieces.toml:2:"), "{all}");
    std::fs::rename(&moved, &game).unwrap();
    // A label of 100 KB in `farebox play`: cut short, with its length.
    let game = new_game(&d, "labels");
    let rules = game.join("rules").join("labels.luau");
    let text = std::fs::read_to_string(&rules).unwrap();
    let text = text.replacen(
        "describe = function(_g, _seat: number, action: string): string\n",
        "describe = function(_g, _seat: number, action: string): string\n\t\tif action == \"drive\" then return string.rep(\"label\", 20000) .. \"\\nGame over\" end\n",
        1,
    );
    assert!(text.contains("string.rep(\"label\""));
    std::fs::write(&rules, text).unwrap();
    let r = farebox_with_input(
        &["play", &s(&game), "--seats", "human,random", "--seed", "1"],
        "q\n",
    );
    assert!(r.out.contains("(100010 bytes)"), "{}{}", r.out, r.err);
    assert!(r.out.len() < 20_000, "{} bytes", r.out.len());
    assert!(
        !r.out.lines().any(|l| l.starts_with("Game over")),
        "{}",
        r.out
    );
}
