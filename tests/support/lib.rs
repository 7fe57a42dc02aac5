//! Helpers shared by the workspace-level tests in `tests/`: where the bundled mods are, and
//! how to load them.

use std::path::PathBuf;

use farebox::content::{self, GameDef};

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The folder of a bundled mod.
pub fn mod_dir(id: &str) -> PathBuf {
    root().join("mods").join(id)
}

/// Loads a bundled mod, panicking with its diagnostics if it does not load.
pub fn load(id: &str) -> GameDef {
    let resolver = farebox::source::FolderResolver::new(root().join("mods"));
    match content::load_mod(&farebox::source::FsSource::new(mod_dir(id)), &resolver) {
        Ok(d) => d,
        Err(e) => panic!("{id} does not load:\n{e}"),
    }
}

/// The five bundled games.
pub const GAMES: [&str; 5] = [
    "curbside",
    "wheres-my-ride",
    "taxi-derby",
    "dicey-curves",
    "critter-cab",
];
