//! Running the `farebox` command line in-process (through `farebox_editor::run`), shared by the
//! command-line test files (`#[path]`-included, so each test crate gets its own copy).

use std::path::{Path, PathBuf};

pub struct Run {
    pub code: i32,
    pub out: String,
    pub err: String,
}

/// Runs `farebox ARGS` with `input` on standard input.
pub fn farebox_with_input(args: &[&str], input: &str) -> Run {
    let mut all = vec!["farebox".to_string()];
    all.extend(args.iter().map(|s| s.to_string()));
    let mut stdin = input.as_bytes();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = farebox_editor::run(all, &mut stdin, &mut out, &mut err);
    Run {
        code,
        out: String::from_utf8_lossy(&out).into_owned(),
        err: String::from_utf8_lossy(&err).into_owned(),
    }
}

pub fn farebox(args: &[&str]) -> Run {
    farebox_with_input(args, "")
}

/// A fresh scratch folder for one test: `farebox-{group}-{process}-{name}` in the temp dir.
pub fn scratch_in(group: &str, name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("farebox-{group}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display()));
    d
}

pub fn s(p: &Path) -> String {
    p.display().to_string()
}
