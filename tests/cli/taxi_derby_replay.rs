//! Taxi Derby replays: the same seed and agents give byte-identical replays when recorded by
//! two separate processes (each a child process running only `child_records_one_game`, so no
//! memory, hash seed or allocation order is shared), and `farebox replay` verifies the
//! recording, of the game and of its house rule.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::Command;

const OUT_VAR: &str = "FAREBOX_TAXI_DERBY_OUT";
const MOD_VAR: &str = "FAREBOX_TAXI_DERBY_MOD";

fn farebox(args: &[&str]) -> (i32, String, String) {
    let (mut o, mut e) = (Vec::new(), Vec::new());
    let code = farebox_editor::run(
        std::iter::once("farebox")
            .chain(args.iter().copied())
            .map(str::to_string)
            .collect(),
        &mut &b""[..],
        &mut o,
        &mut e,
    );
    (
        code,
        String::from_utf8_lossy(&o).into(),
        String::from_utf8_lossy(&e).into(),
    )
}

/// In a child process: records one seeded game (the Fare Planner against the random agent and
/// itself, four seats, a non-default option) to the file named by the environment. Does
/// nothing in a normal run.
#[test]
fn child_records_one_game() {
    let (Ok(out), Ok(id)) = (std::env::var(OUT_VAR), std::env::var(MOD_VAR)) else {
        return;
    };
    let (code, _, err) = farebox(&[
        "record",
        &id,
        "--seed",
        "4711",
        "--players",
        "4",
        "--bots",
        "fare-planner,random,fare-planner,random",
        "--option",
        "end-stacks=3",
        "--out",
        &out,
    ]);
    assert_eq!(code, 0, "{err}");
}

fn record_in_child(id: &str, name: &str) -> (PathBuf, Vec<u8>) {
    let dir = std::env::temp_dir().join(format!("farebox-taxi-derby-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file: PathBuf = dir.join(name);
    let status = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            &farebox_suite::test_name(module_path!(), "child_records_one_game"),
            "--test-threads",
            "1",
        ])
        .env(OUT_VAR, &file)
        .env(MOD_VAR, id)
        .status()
        .unwrap();
    assert!(status.success(), "the child process failed");
    let bytes = std::fs::read(&file).unwrap();
    (file, bytes)
}

fn verifies(file: &Path) {
    let (code, out, err) = farebox(&["replay", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("verified: "), "{out}");
}

#[test]
fn two_processes_record_byte_identical_replays_that_verify() {
    for id in ["taxi-derby", "taxi-derby-learners-permit"] {
        let (file, a) = record_in_child(id, &format!("{id}-a.json"));
        let (_, b) = record_in_child(id, &format!("{id}-b.json"));
        assert!(a.len() > 1000, "{id}: the replay is suspiciously short");
        assert!(a == b, "{id}: two processes recorded different games");
        verifies(&file);
    }
}
