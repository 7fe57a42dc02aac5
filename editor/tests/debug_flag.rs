//! `farebox --debug`: what scripts print goes to standard error, headed by seed, action and
//! place, and never changes the game (the recorded replay is the same byte for byte).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// A copy of a bundled mod in a fresh temporary folder.
fn copy_of(id: &str) -> (PathBuf, PathBuf) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../mods")
        .join(id);
    let dir = std::env::temp_dir().join(format!("farebox-debug-{}-{id}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let dest = dir.join(id);
    copy_dir(&src, &dest);
    (dir, dest)
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

fn record(folder: &Path, out: &Path, debug: bool) -> (i32, String) {
    let mut args: Vec<String> = vec![];
    if debug {
        args.push("--debug".into());
    }
    args.extend([
        "record".into(),
        folder.display().to_string(),
        "--seed".into(),
        "5".into(),
        "--out".into(),
        out.display().to_string(),
    ]);
    let o = Command::new(env!("CARGO_BIN_EXE_farebox"))
        .args(&args)
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stderr).to_string(),
    )
}

#[test]
fn debug_prints_what_scripts_print_and_changes_nothing() {
    let (dir, folder) = copy_of("curbside");
    let rules = folder.join("rules/curbside.luau");
    let text = std::fs::read_to_string(&rules).unwrap();
    let loud = text
        .replacen(
            "\tsetup = function(_g)\n",
            "\tsetup = function(_g)\n\t\tprint(\"setting up\", game.seats())\n",
            1,
        )
        .replacen(
            "\tapply = function(_g, seat: number, action: string)\n",
            "\tapply = function(_g, seat: number, action: string)\n\t\tprint(\"apply\", seat, action, \"\\27[31mred\")\n",
            1,
        );
    assert_eq!(loud.matches("print(").count(), 2, "the hooks moved");
    let setup_line = loud
        .lines()
        .position(|l| l.contains("\"setting up\""))
        .unwrap()
        + 1;
    std::fs::write(&rules, loud).unwrap();

    let (quiet_code, quiet_err) = record(&folder, &dir.join("quiet.json"), false);
    assert_eq!(quiet_code, 0, "{quiet_err}");
    assert!(!quiet_err.contains("[debug"), "{quiet_err}");
    let (code, err) = record(&folder, &dir.join("loud.json"), true);
    assert_eq!(code, 0, "{err}");
    let setup = err
        .lines()
        .find(|l| l.contains("setting up"))
        .expect("setup's print");
    assert!(
        setup.starts_with("[debug seed 5, setup, ")
            && setup.contains(&format!("curbside.luau:{setup_line} in setup]"))
            && setup.ends_with("] setting up  2"),
        "{setup}"
    );
    // Each action's print says which action it was; control characters are escaped.
    let first = err
        .lines()
        .find(|l| l.contains("] apply"))
        .expect("apply's print");
    assert!(first.starts_with("[debug seed 5, action 1, "), "{first}");
    assert!(!err.contains('\u{1b}'), "an escape reached the terminal");
    assert!(first.contains("\\u{1b}[31mred"), "{first}");
    // The game is the same, printed or not.
    assert_eq!(
        std::fs::read(dir.join("quiet.json")).unwrap(),
        std::fs::read(dir.join("loud.json")).unwrap()
    );
    let _ = std::fs::remove_dir_all(dir);
}
