//! Determinism across processes: the same mod, seed and agents give byte-identical replays
//! when recorded by two separate processes. Each recording runs in a child process (this test
//! binary started again, running only `child_records_one_game`), so no memory, hash seed or
//! allocation order is shared between the two runs.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::process::Command;

const OUT_VAR: &str = "FAREBOX_DETERMINISM_OUT";

/// In a child process: records one seeded game (a bot against the random agent, three seats,
/// a non-default option) to the file named by the environment. Does nothing in a normal run.
#[test]
fn child_records_one_game() {
    let Ok(out) = std::env::var(OUT_VAR) else {
        return;
    };
    let args = [
        "farebox",
        "record",
        "curbside",
        "--seed",
        "90210",
        "--players",
        "3",
        "--bots",
        "dispatcher,random,dispatcher",
        "--option",
        "starting-gas=15",
        "--out",
        &out,
    ];
    let (mut o, mut e) = (Vec::new(), Vec::new());
    let code = farebox_editor::run(
        args.iter().map(|s| s.to_string()).collect(),
        &mut &b""[..],
        &mut o,
        &mut e,
    );
    assert_eq!(code, 0, "{}", String::from_utf8_lossy(&e));
}

fn record_in_child(name: &str) -> Vec<u8> {
    let dir = std::env::temp_dir().join(format!("farebox-determinism-{}", std::process::id()));
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
        .status()
        .unwrap();
    assert!(status.success(), "the child process failed");
    std::fs::read(&file).unwrap()
}

#[test]
fn two_processes_record_byte_identical_replays() {
    let a = record_in_child("a.json");
    let b = record_in_child("b.json");
    assert!(a.len() > 1000, "the replay is suspiciously short");
    let text = String::from_utf8_lossy(&a);
    assert!(text.contains("\"steps\""), "{text}");
    assert!(a == b, "two processes recorded different games");
}
