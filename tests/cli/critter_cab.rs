//! Critter Cab through the command line: a game recorded in two separate processes is byte
//! for byte the same and `farebox replay` verifies it; `farebox test` finds the outcomes
//! accepted in mods/critter-cab/snapshots/outcomes.json. Each recording runs in a child
//! process (this test binary started again, running only `child_records_one_game`), so no
//! memory, hash seed or allocation order is shared between the two runs.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::process::Command;

const OUT_VAR: &str = "FAREBOX_CRITTER_CAB_OUT";

struct Run {
    code: i32,
    out: String,
    err: String,
}

fn farebox(args: &[&str]) -> Run {
    let (mut o, mut e) = (Vec::new(), Vec::new());
    let mut argv = vec!["farebox".to_string()];
    argv.extend(args.iter().map(|s| s.to_string()));
    let code = farebox_editor::run(argv, &mut &b""[..], &mut o, &mut e);
    Run {
        code,
        out: String::from_utf8_lossy(&o).into(),
        err: String::from_utf8_lossy(&e).into(),
    }
}

/// In a child process: records one seeded game (the Cabbie, the random agent and the Cabbie
/// again, three seats, the table clock and chosen taxis) to the file named by the environment.
/// Does nothing in a normal run.
#[test]
fn child_records_one_game() {
    let Ok(out) = std::env::var(OUT_VAR) else {
        return;
    };
    let r = farebox(&[
        "record",
        "critter-cab",
        "--seed",
        "4711",
        "--players",
        "3",
        "--bots",
        "cabbie,random,cabbie",
        "--option",
        "limit=clock",
        "--option",
        "taxi-assignment=choose",
        "--out",
        &out,
    ]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
}

fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("farebox-critter-cab-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn record_in_child(file: &PathBuf) -> Vec<u8> {
    let status = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            &farebox_suite::test_name(module_path!(), "child_records_one_game"),
            "--test-threads",
            "1",
        ])
        .env(OUT_VAR, file)
        .status()
        .unwrap();
    assert!(status.success(), "the child process failed");
    std::fs::read(file).unwrap()
}

#[test]
fn two_processes_record_byte_identical_games_that_replay() {
    let dir = scratch();
    let (fa, fb) = (dir.join("a.json"), dir.join("b.json"));
    let a = record_in_child(&fa);
    let b = record_in_child(&fb);
    assert!(a.len() > 1000, "the replay is suspiciously short");
    assert!(String::from_utf8_lossy(&a).contains("\"steps\""));
    assert!(a == b, "two processes recorded different games");
    let r = farebox(&["replay", fa.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(r.out.starts_with("verified: "), "{}", r.out);
}

#[test]
fn the_accepted_outcomes_still_hold() {
    for id in ["critter-cab", "critter-cab-no-sitting-out"] {
        let r = farebox(&["test", id]);
        assert_eq!(r.code, 0, "{id}: {}{}", r.out, r.err);
        assert!(
            r.out.contains("outcomes match the accepted ones"),
            "{}",
            r.out
        );
    }
}
