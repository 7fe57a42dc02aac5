//! A one-script mod built in memory, for tests that probe the Luau host.
#![allow(dead_code)]

use farebox::content::{self, GameDef, NoDependencies};
use farebox::source::MemSource;

/// Manifest of the probe mod: one rule script, one global counter `score`.
pub const MANIFEST: &str = r#"
id = "probe"
name = "Probe"
version = "1.0.0"
engine = "0.1"
players = { min = 1, max = 2 }
scripts = ["rules/r.luau"]
[content]
pieces = "pieces.toml"
"#;

pub const PIECES: &str = r#"
[[counters]]
id = "score"
name = "Score"
scope = "global"
"#;

/// Loads the probe mod with `script` as its rules; panics with the loader's message.
pub fn probe(script: &str) -> GameDef {
    probe_with_pieces(script, "")
}

/// The probe mod with more pieces, counters or zones (`pieces.toml` lines) after its own.
pub fn probe_with_pieces(script: &str, pieces: &str) -> GameDef {
    let pieces = format!("{PIECES}\n{pieces}");
    mem_mod(
        "probe",
        &[
            ("mod.toml", MANIFEST),
            ("pieces.toml", &pieces),
            ("rules/r.luau", script),
        ],
    )
}

/// Loads a mod held in memory (path, text); panics with the loader's message.
pub fn mem_mod(id: &str, files: &[(&str, &str)]) -> GameDef {
    let mut src = MemSource::new(id);
    for (path, text) in files {
        src = src.with(path, text);
    }
    content::load_mod(&src, &NoDependencies).unwrap_or_else(|e| panic!("{e}"))
}
