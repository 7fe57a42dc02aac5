//! What every game's command-line test checks the same way: a game recorded in a child process
//! (this test binary started again, running only `child_records_one_game` with the file named
//! in `var`), the accepted outcomes, and the mods listed as playable. `#[path]`-included beside
//! `run.rs`.

use std::path::Path;
use std::process::Command;

use super::run::farebox;

/// Runs this test binary again as a child that runs only the test `test` (its full name,
/// module path included), which records one game into `file` (named to it by the environment
/// variable `var`), and returns the file's bytes.
pub fn record_in_child(test: &str, var: &str, file: &Path) -> Vec<u8> {
    let status = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", test, "--test-threads", "1"])
        .env(var, file)
        .status()
        .unwrap();
    assert!(status.success(), "the child process failed");
    std::fs::read(file).unwrap()
}

/// `farebox test` finds the accepted outcomes of each mod.
pub fn assert_outcomes_hold(ids: &[&str]) {
    for id in ids {
        let r = farebox(&["test", id]);
        assert_eq!(r.code, 0, "{id}: {}{}", r.out, r.err);
        assert!(
            r.out.contains("outcomes match the accepted ones"),
            "{}",
            r.out
        );
    }
}

/// `farebox list` shows each mod as playable.
pub fn assert_listed_playable(ids: &[&str]) {
    let r = farebox(&["list"]);
    assert_eq!(r.code, 0, "{}", r.err);
    for id in ids {
        let line = r
            .out
            .lines()
            .find(|l| l.starts_with(&format!("{id} ")))
            .unwrap_or_else(|| panic!("{id} missing from:\n{}", r.out));
        assert!(line.contains("playable"), "{line}");
    }
}
