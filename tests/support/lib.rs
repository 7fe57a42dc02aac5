//! Helpers shared by the workspace-level tests in `tests/`: where the bundled mods are, and
//! how to load them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use farebox::content::def::{CardDef, DeckDef, OptionDef, TableDef};
use farebox::content::{self, GameDef};
use farebox::source::{MemMods, MemSource};
use farebox::value::Value;

pub mod critter_cab_oracles;
pub mod curbside_oracles;
pub mod dicey_curves_oracles;
pub mod layout;
pub mod oracles;
pub mod outcomes;
pub mod rule_kit;
pub mod rule_mutants;
pub mod secrets;
pub mod taxi_derby_oracles;
pub mod wheres_my_ride_oracles;

/// The repository root, or the checkout `FAREBOX_SUITE_ROOT` names: a copy of the project
/// with a rule broken on purpose, which `tests/breaks/measure.py` points the built tests at to
/// see which of them catch the break.
pub fn root() -> PathBuf {
    match std::env::var_os("FAREBOX_SUITE_ROOT") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => PathBuf::from(env!("CARGO_MANIFEST_DIR")),
    }
}

/// The full name libtest gives the test `name` of the module whose `module_path!()` is
/// `module`: the path without the test binary's own name (`cli::determinism` gives
/// `determinism::NAME`), as `--exact` wants it when a test runs its binary again as a child.
pub fn test_name(module: &str, name: &str) -> String {
    match module.split_once("::") {
        Some((_, inner)) => format!("{inner}::{name}"),
        None => name.to_string(),
    }
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

/// Every bundled mod, read into memory (its `.toml` and `.luau` files): tests change files
/// there without touching the disk.
pub fn bundled_in_memory() -> MemMods {
    let mut mods = BTreeMap::new();
    let mut dirs: Vec<_> = std::fs::read_dir(root().join("mods"))
        .unwrap_or_else(|e| panic!("mods/: {e}"))
        .flatten()
        .filter(|e| e.path().join("mod.toml").is_file())
        .collect();
    dirs.sort_by_key(|e| e.file_name());
    for e in dirs {
        let id = e.file_name().to_string_lossy().to_string();
        let mut src = MemSource::new(id.clone());
        read_tree(&e.path(), "", &mut src);
        mods.insert(id, src);
    }
    MemMods(mods)
}

fn read_tree(dir: &Path, rel: &str, out: &mut MemSource) {
    let mut entries: Vec<_> = std::fs::read_dir(dir.join(rel))
        .unwrap_or_else(|e| panic!("{}: {e}", dir.join(rel).display()))
        .flatten()
        .collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let name = e.file_name().to_string_lossy().to_string();
        let path = if rel.is_empty() {
            name.clone()
        } else {
            format!("{rel}/{name}")
        };
        if e.path().is_dir() {
            read_tree(dir, &path, out);
        } else if name.ends_with(".toml") || name.ends_with(".luau") {
            let text = std::fs::read_to_string(e.path())
                .unwrap_or_else(|err| panic!("{}: {err}", e.path().display()));
            out.files.insert(path, text);
        }
    }
}

/// The bundled mods, read from `mods/*/mod.toml` (never listed by hand, so a new game or
/// house rule gets every test that goes over them all by existing): (id, whether it is built
/// on another mod), sorted by id.
fn bundled() -> Vec<(String, bool)> {
    let mut out = vec![];
    let dir = root().join("mods");
    for e in std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
    {
        let Ok(text) = std::fs::read_to_string(e.path().join("mod.toml")) else {
            continue;
        };
        let manifest: toml::Table =
            toml::from_str(&text).unwrap_or_else(|err| panic!("{}: {err}", e.path().display()));
        let built_on = manifest
            .get("depends")
            .and_then(toml::Value::as_array)
            .is_some_and(|d| !d.is_empty());
        out.push((e.file_name().to_string_lossy().to_string(), built_on));
    }
    out.sort();
    out
}

/// The bundled games: every mod in `mods/` built on no other.
pub fn games() -> Vec<String> {
    bundled()
        .into_iter()
        .filter(|(_, on)| !on)
        .map(|(id, _)| id)
        .collect()
}

/// The bundled house rules: every mod in `mods/` built on one of [`games`].
pub fn house_rules() -> Vec<String> {
    bundled()
        .into_iter()
        .filter(|(_, on)| *on)
        .map(|(id, _)| id)
        .collect()
}

/// The first bot of a bundled mod's own (`[[bots]]` in its `mod.toml`, or its game's for a
/// house rule), read from its content: the bot a test plays a game it did not list with.
pub fn own_bot(id: &str) -> String {
    match load(id).bots.first() {
        Some(b) => b.id.clone(),
        None => panic!("{id} has no bot of its own (no [[bots]] in mods/{id}/mod.toml)"),
    }
}

/// Lookups by id on a loaded mod that panic with a clear message: what content tests want.
pub trait Lookup {
    fn deck_def(&self, id: &str) -> &DeckDef;
    fn table_def(&self, id: &str) -> &TableDef;
    fn option_def(&self, id: &str) -> &OptionDef;
    fn constant(&self, name: &str) -> &Value;
}

impl Lookup for GameDef {
    fn deck_def(&self, id: &str) -> &DeckDef {
        &self.decks[self.deck(id).unwrap_or_else(|| panic!("no deck `{id}`"))]
    }
    fn table_def(&self, id: &str) -> &TableDef {
        &self.tables[self.table(id).unwrap_or_else(|| panic!("no table `{id}`"))]
    }
    fn option_def(&self, id: &str) -> &OptionDef {
        self.option(id)
            .unwrap_or_else(|| panic!("no option `{id}`"))
    }
    fn constant(&self, name: &str) -> &Value {
        self.constants
            .get(name)
            .unwrap_or_else(|| panic!("no constant `{name}`"))
    }
}

pub fn int(v: &Value) -> i64 {
    v.as_int()
        .unwrap_or_else(|| panic!("not an integer: {v:?}"))
}

pub fn text(v: &Value) -> &str {
    v.as_str().unwrap_or_else(|| panic!("not a string: {v:?}"))
}

pub fn list(v: &Value) -> Vec<&str> {
    match v {
        Value::List(items) => items.iter().map(text).collect(),
        _ => panic!("not a list: {v:?}"),
    }
}

/// A field of a card, which must be there.
pub fn field<'a>(card: &'a CardDef, name: &str) -> &'a Value {
    card.fields
        .get(name)
        .unwrap_or_else(|| panic!("card `{}` has no `{name}`", card.id))
}

#[cfg(test)]
mod found {
    /// The games and house rules are found, not listed: the five of each bundled now.
    #[test]
    fn the_bundled_games_and_house_rules_are_found() {
        let games = super::games();
        for g in [
            "curbside",
            "wheres-my-ride",
            "taxi-derby",
            "dicey-curves",
            "critter-cab",
        ] {
            assert!(games.iter().any(|x| x == g), "{g} not found: {games:?}");
        }
        let house = super::house_rules();
        assert_eq!(house.len(), 5, "{house:?}");
        assert!(
            house
                .iter()
                .all(|h| games.iter().any(|g| h.starts_with(g.as_str())))
        );
    }
}
