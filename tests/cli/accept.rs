//! `farebox test --accept`: a run whose games fail is not accepted (the accepted outcomes stay
//! byte for byte as they were) unless `--accept-failures` says so, and what is accepted
//! always reads back.

use super::*;

const SNAPSHOT: &str = "snapshots/outcomes.json";

/// A copy of Curbside in a scratch folder, with `line` put first into its `on_turn_start`
/// (the hook that runs at every turn, setup's first turn included). Returns the folder and
/// the line number `line` is on.
fn curbside_with(name: &str, line: &str) -> (PathBuf, usize) {
    let to = scratch(name).join("curbside");
    copy_dir(&mod_dir("curbside"), &to);
    let rules = to.join("rules/curbside.luau");
    let text = std::fs::read_to_string(&rules).unwrap();
    let hook = "local function on_turn_start(seat: number)\n";
    let at = text.find(hook).expect("Curbside has on_turn_start");
    let number = text[..at].lines().count() + 2;
    let text = text.replacen(hook, &format!("{hook}\t{line}\n"), 1);
    std::fs::write(&rules, text).unwrap();
    (to, number)
}

fn snapshot_of(folder: &Path) -> Vec<u8> {
    std::fs::read(folder.join(SNAPSHOT)).unwrap()
}

/// Runs `farebox test FOLDER --accept ARGS` and checks that it is refused, saying how many
/// games failed and how to accept anyway, with the accepted outcomes left byte for byte.
#[track_caller]
fn refused(folder: &Path, args: &[&str]) -> String {
    let before = snapshot_of(folder);
    let mut all = vec!["test", folder.to_str().unwrap(), "--accept"];
    all.extend(args);
    let r = farebox(&all);
    assert_eq!(r.code, 1, "{args:?}: {}{}", r.out, r.err);
    assert!(
        snapshot_of(folder) == before,
        "{args:?}: the accepted outcomes were rewritten"
    );
    assert!(
        r.err
            .contains("curbside: not accepted: 3 of 3 games failed")
            && r.err.contains("is left as it was"),
        "{args:?}: {}",
        r.err
    );
    assert!(
        r.err.contains("farebox test ") && r.err.contains("--accept --accept-failures"),
        "says how to accept anyway: {}",
        r.err
    );
    assert!(!r.out.contains("accepted the outcomes"), "{}", r.out);
    r.err
}

#[test]
fn accept_refuses_games_that_fail_and_keeps_the_accepted_outcomes() {
    // (a) The rules fail in every game: the first failure is given with its seed, where it
    // stopped and the script's file and line.
    let (folder, line) = curbside_with("accept-error", "error(\"the meter broke\")");
    let err = refused(&folder, &["--games", "3"]);
    assert!(
        err.contains("the first: seed 1, setting up the game: ")
            && err.contains(&format!(
                "rules/curbside.luau:{line}: error: the meter broke"
            )),
        "{err}"
    );
    // The command it gives plays that game again, with the run's seats and bots, to the same
    // error (one that fails after setup is saved for the replay tools).
    let cmd = err
        .lines()
        .find_map(|l| {
            l.split_once("to replay and inspect: farebox ")
                .map(|(_, c)| c)
        })
        .unwrap_or_else(|| panic!("no record command in: {err}"));
    assert!(cmd.contains("--bots dispatcher"), "{cmd}");
    // (The file it names is written where the test says, not in the test's working folder.)
    let out_dir = folder.parent().unwrap();
    let out = s(&out_dir.join("seed-1.replay.json"));
    let args: Vec<&str> = cmd
        .split_whitespace()
        .map(|a| {
            if a == "seed-1.replay.json" {
                out.as_str()
            } else {
                a
            }
        })
        .collect();
    let r = farebox(&args);
    assert_ne!(r.code, 0, "{}{}", r.out, r.err);
    assert!(
        format!("{}{}", r.out, r.err)
            .contains(&format!("curbside.luau:{line}: error: the meter broke")),
        "{}{}",
        r.out,
        r.err
    );

    // (b) An option value the mod refuses is a usage error before any game is played, and
    // the accepted outcomes stay as they were (as it is for `sim`).
    let good = scratch("accept-option").join("curbside");
    copy_dir(&mod_dir("curbside"), &good);
    let before = snapshot_of(&good);
    for cmd in ["test", "sim"] {
        let mut args = vec![cmd, good.to_str().unwrap()];
        if cmd == "test" {
            args.push("--accept");
        }
        args.extend(["--games", "3", "--option", "starting-gas=999"]);
        let r = farebox(&args);
        assert_eq!(r.code, 2, "{cmd}: {}{}", r.out, r.err);
        assert!(
            r.err
                .contains("Curbside: option `starting-gas` must be between 4 and 40"),
            "{cmd}: {}",
            r.err
        );
        assert!(
            !r.out.contains("games "),
            "{cmd}: no game is played: {}",
            r.out
        );
    }
    assert!(snapshot_of(&good) == before);

    // (c) Rules that do not load (a syntax error): no game starts.
    let broken = scratch("accept-load").join("curbside");
    copy_dir(&mod_dir("curbside"), &broken);
    let rules = broken.join("rules/curbside.luau");
    let mut text = std::fs::read_to_string(&rules).unwrap();
    let line = text.lines().count() + 1;
    text.push_str("local = 1\n");
    std::fs::write(&rules, text).unwrap();
    let err = refused(&broken, &["--games", "3"]);
    assert!(
        err.contains(&format!("rules/curbside.luau:{line}: error: ")),
        "{err}"
    );

    // Games stopped at the action cap are failures too.
    let err = refused(&good, &["--games", "3", "--cap", "5"]);
    assert!(
        err.contains("3 stopped at the action cap")
            && err.contains("the first: seed 1 was stopped at the action cap, after 5 actions"),
        "{err}"
    );

    // The flag belongs to --accept.
    let r = farebox(&["test", &s(&folder), "--accept-failures"]);
    assert_eq!(r.code, 2, "{}{}", r.out, r.err);

    // Asked for, the failures are accepted, said so, and `farebox test` reads them back.
    let before = snapshot_of(&folder);
    let r = farebox(&[
        "test",
        &s(&folder),
        "--accept",
        "--accept-failures",
        "--games",
        "3",
    ]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(
        r.out.contains("accepted the outcomes of 3 games"),
        "{}",
        r.out
    );
    assert!(
        r.err.contains("3 of 3 games failed (3 with errors)"),
        "{}",
        r.err
    );
    assert!(snapshot_of(&folder) != before, "nothing was written");
    let r = farebox(&["test", &s(&folder)]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
}

#[test]
fn test_help_documents_accepting_failures() {
    let r = farebox(&["test", "--help"]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.out.contains("--accept-failures"), "{}", r.out);
    let readme = std::fs::read_to_string(
        mod_dir("curbside")
            .parent()
            .and_then(Path::parent)
            .unwrap()
            .join("README.md"),
    )
    .unwrap();
    assert!(readme.contains("--accept-failures"), "README.md");
}

/// A `game.stat` of ±1.7e308 (the largest numbers a figure may have) once made a mean and
/// spread that overflowed to NaN, written as `null`, and `farebox test` could not read the
/// file it had accepted.
#[test]
fn a_stat_near_the_largest_number_is_accepted_and_reads_back() {
    let (folder, _) = curbside_with(
        "accept-huge-stat",
        "game.stat(\"huge\", if game.turn() % 2 == 0 then 1.7e308 else -1.7e308)",
    );
    let r = farebox(&["test", &s(&folder), "--accept", "--games", "20"]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let text = std::fs::read_to_string(folder.join(SNAPSHOT)).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let huge = &json["outcomes"]["stats"]["huge"];
    for key in ["mean", "sd"] {
        assert!(huge[key].as_f64().is_some_and(f64::is_finite), "{huge}");
    }
    // Both signs were recorded, so the spread is as large as a number can be.
    assert!(huge["sd"].as_f64().unwrap() > 1e308, "{huge}");
    let r = farebox(&["test", &s(&folder)]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(
        r.out.contains("outcomes match the accepted ones"),
        "{}",
        r.out
    );
}

/// Accepting again keeps the settings the outcomes were accepted with, each one not given on
/// the command line: a bare `--accept` after an edit once played 200 games by the mod's own
/// bot where 12 random games from seed 77 had been accepted, and the paired comparison then
/// had nothing to pair.
#[test]
fn accepting_again_keeps_the_accepted_settings_not_given() {
    let (folder, _) = curbside_with("accept-keeps-settings", "-- nothing changes");
    std::fs::remove_file(folder.join(SNAPSHOT)).unwrap();
    let settings = |folder: &Path| -> serde_json::Value {
        let text = std::fs::read_to_string(folder.join(SNAPSHOT)).unwrap();
        serde_json::from_str::<serde_json::Value>(&text).unwrap()["settings"].clone()
    };
    let first = [
        "--games",
        "12",
        "--seed",
        "77",
        "--bots",
        "random",
        "--players",
        "2",
        "--cap",
        "4000",
    ];
    let mut args = vec!["test", folder.to_str().unwrap(), "--accept"];
    args.extend(first);
    let r = farebox(&args);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let accepted = settings(&folder);
    assert_eq!(accepted["games"], 12, "{accepted}");

    // Nothing given: every setting is kept, and the command says so.
    let r = farebox(&["test", &s(&folder), "--accept"]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert_eq!(settings(&folder), accepted);
    assert!(
        r.out.contains("accepted the outcomes of 12 games"),
        "{}",
        r.out
    );
    assert!(
        r.err.contains("keeping the accepted settings not given: 12 games, from seed 77, 2 seats, agents random, cap 4000"),
        "{}",
        r.err
    );

    // One setting given: it changes, the others stay.
    let r = farebox(&["test", &s(&folder), "--accept", "--games", "5"]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let now = settings(&folder);
    assert_eq!(now["games"], 5, "{now}");
    for key in ["seed", "players", "bots", "cap", "options"] {
        assert_eq!(now[key], accepted[key], "{key}: {now}");
    }
    // `test` itself plays the kept settings and finds them matching.
    let r = farebox(&["test", &s(&folder)]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);

    // An accepted file that cannot be read: the defaults, and a note saying why.
    std::fs::write(folder.join(SNAPSHOT), "{ not json").unwrap();
    let r = farebox(&[
        "test",
        &s(&folder),
        "--accept",
        "--games",
        "3",
        "--bots",
        "random",
    ]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(
        r.err.contains(
            "the accepted outcomes cannot be read, so settings not given take their defaults"
        ),
        "{}",
        r.err
    );
    let now = settings(&folder);
    assert_eq!(
        (now["seed"].clone(), now["cap"].clone()),
        (1.into(), 5000.into()),
        "{now}"
    );
}
