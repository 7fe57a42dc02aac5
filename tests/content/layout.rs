//! The code's layout, checked rather than claimed: no import circles between the modules of
//! any crate, no long function without a reason, and an ARCHITECTURE.md that names only what
//! exists (see `farebox_suite::layout`).

use farebox_suite::layout::{circles, crate_files, long_functions};
use farebox_suite::root;

const CRATES: [&str; 3] = ["engine/src", "editor/src", "server/src"];

#[test]
fn no_module_uses_another_round_a_circle() {
    let mut found = Vec::new();
    for c in CRATES {
        let files = crate_files(&root().join(c));
        assert!(files.len() > 5, "{c} has no source files to check");
        found.extend(circles(&files).into_iter().map(|s| format!("{c}: {s}")));
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn no_function_runs_long_without_a_reason() {
    let mut found = Vec::new();
    for c in CRATES {
        found.extend(long_functions(&crate_files(&root().join(c))));
    }
    assert!(
        found.is_empty(),
        "{} long functions:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn the_architecture_names_only_what_exists() {
    let root = root();
    let mut docs = vec![root.join("ARCHITECTURE.md")];
    if let Ok(rd) = std::fs::read_dir(root.join("docs/architecture")) {
        docs.extend(rd.flatten().map(|e| e.path()));
    }
    let mut found = Vec::new();
    for d in &docs {
        found.extend(farebox_suite::layout::names_missing(d, &root));
    }
    assert!(
        found.is_empty(),
        "{} names that do not exist:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn the_architecture_is_a_map_not_a_book() {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap_or_default();
    let lines = text.lines().count();
    assert!(
        (50..=220).contains(&lines),
        "ARCHITECTURE.md has {lines} lines: keep it a map of about 200 (detail goes in docs/architecture/ and the module docs)"
    );
}
