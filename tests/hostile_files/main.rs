//! Hostile mods, snapshots, replays and command lines: what a stranger's mod can put in front
//! of the loader and the `farebox` command. Every case must end in a clear error naming the
//! file (and line where there is one), with memory bounded, no panic, and nothing written
//! outside the mod. Special files (FIFOs, links to devices, links out of the mod, huge sparse
//! files) are made at test time in a scratch folder. No test here is timed: a case that hangs
//! or is quadratic hangs the test run instead.
//!
//! The cases are grouped by what the stranger controls: the mod's files (`files.rs`), the
//! command line and what it writes (`commands.rs`), and replays (`replays.rs`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use farebox::content::{self, NoDependencies};
use farebox::source::{FolderResolver, FsSource};

#[path = "../common/run.rs"]
mod run;
use run::{farebox, farebox_with_input, s};

fn scratch(name: &str) -> PathBuf {
    run::scratch_in("hostile", name)
}

/// A content-only mod with `content` as its `[content]` table and the given files.
fn content_mod(dir: &Path, content: &str, files: &[(&str, &str)]) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(
        dir.join("mod.toml"),
        format!(
            "id = \"hostile\"\nname = \"Hostile\"\nversion = \"1.0.0\"\nengine = \"0.1\"\n\n[content]\n{content}\n"
        ),
    )
    .unwrap();
    for (rel, text) in files {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
}

/// Loads a mod folder; the diagnostics as text (empty when it loads).
fn load_errors(dir: &Path) -> String {
    match content::load_mod(&FsSource::new(dir), &NoDependencies) {
        Ok(_) => String::new(),
        Err(d) => d.to_string(),
    }
}

/// A small playable game made by `farebox new`, in `dir/name`.
fn new_game(dir: &Path, name: &str) -> PathBuf {
    let r = farebox(&["new", name, "--dir", &s(dir)]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    dir.join(name)
}

fn pieces_toml(extra: &str) -> String {
    format!("[[pieces]]\nid = \"bomb\"\nname = \"Bomb\"\n{extra}\n")
}

mod commands;
mod files;
mod replays;
