//! The committed editor support files are in step with the engine: the JSON Schemas and Luau
//! stubs and the selene standard library in `schemas/`, the `#:schema` line of every bundled TOML file, and `.taplo.toml`.
//!
//! `FAREBOX_BLESS=1 cargo test -p farebox-suite --test content schemas::` rewrites `schemas/` instead of failing.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use farebox::schema::{LUA_STUBS_FILE, SELENE_STD_FILE, json_schemas, lua_stubs, selene_std};
use farebox_suite::root;

const STALE: &str = "schemas/ is stale: run `cargo run -p farebox-editor -- schema` (or FAREBOX_BLESS=1 cargo test -p farebox-suite --test content schemas::)";

fn schemas_dir() -> PathBuf {
    root().join("schemas")
}

fn blessing() -> bool {
    std::env::var("FAREBOX_BLESS").is_ok_and(|v| v == "1")
}

#[test]
fn committed_schemas_are_current() {
    let dir = schemas_dir();
    if blessing() {
        if let Err(e) = farebox::schema::write_all(&dir) {
            panic!("cannot write {}: {e}", dir.display());
        }
        return;
    }
    let mut expected: Vec<(String, String)> = json_schemas()
        .into_iter()
        .map(|(n, t)| (n.to_string(), t))
        .collect();
    expected.push((LUA_STUBS_FILE.to_string(), lua_stubs()));
    expected.push((SELENE_STD_FILE.to_string(), selene_std()));
    let mut problems = Vec::new();
    for (name, text) in &expected {
        match std::fs::read_to_string(dir.join(name)) {
            Ok(found) if found == *text => {}
            Ok(_) => problems.push(format!("schemas/{name} differs")),
            Err(e) => problems.push(format!("schemas/{name}: {e}")),
        }
    }
    assert!(problems.is_empty(), "{STALE}\n{}", problems.join("\n"));
}

/// Every `.toml` file under `dir`, sorted.
fn toml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            toml_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "toml") {
            out.push(p);
        }
    }
}

/// The schema a content file must name, from where it sits in its mod folder.
fn expected_schema(rel: &Path) -> Option<&'static str> {
    let name = rel.file_name()?.to_str()?;
    let parent = rel
        .parent()
        .and_then(|p| p.file_name())
        .and_then(|p| p.to_str())
        .unwrap_or("");
    // `rel` is mods/<mod>/..., so a top-level file has three components.
    let top = rel.components().count() == 3;
    match (top, parent, name) {
        (true, _, "mod.toml") => Some("mod.schema.json"),
        (true, _, "board.toml") => Some("board.schema.json"),
        (true, _, "pieces.toml") => Some("pieces.schema.json"),
        (true, _, "print.toml") => Some("print.schema.json"),
        (true, _, n) if n.starts_with("tiles") => Some("tiles.schema.json"),
        (false, "decks", _) => Some("deck.schema.json"),
        (false, "tables", _) => Some("table.schema.json"),
        (false, "patches", _) => Some("patch.schema.json"),
        _ => None,
    }
}

#[test]
fn every_mod_file_names_its_schema() {
    let root = root();
    let mut files = Vec::new();
    toml_files(&root.join("mods"), &mut files);
    assert!(!files.is_empty(), "no TOML files under mods/");
    let mut problems = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(&root).unwrap_or(file);
        let Some(want) = expected_schema(rel) else {
            problems.push(format!(
                "{}: not a known file kind (mod, board, tiles*, decks/*, tables/*, pieces, print, patches/*)",
                rel.display()
            ));
            continue;
        };
        let text = std::fs::read_to_string(file).unwrap_or_default();
        let first = text.lines().next().unwrap_or("");
        let Some(path) = first.strip_prefix("#:schema ").map(str::trim) else {
            problems.push(format!(
                "{}:1: the first line must be `#:schema <path to {want}>`",
                rel.display()
            ));
            continue;
        };
        let target = file.parent().unwrap_or(&root).join(path);
        if Path::new(path).file_name().and_then(|n| n.to_str()) != Some(want) {
            problems.push(format!(
                "{}:1: names `{path}`, but this kind of file needs {want}",
                rel.display()
            ));
        } else if !target.is_file() {
            problems.push(format!("{}:1: `{path}` does not exist", rel.display()));
        } else if target.canonicalize().ok() != schemas_dir().join(want).canonicalize().ok() {
            problems.push(format!(
                "{}:1: `{path}` is not schemas/{want}",
                rel.display()
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "bad `#:schema` lines:\n{}",
        problems.join("\n")
    );
}

#[test]
fn taplo_config_maps_every_schema() {
    let path = root().join(".taplo.toml");
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => panic!("{}: {e}", path.display()),
    };
    let missing: Vec<&str> = json_schemas()
        .into_iter()
        .map(|(n, _)| n)
        .filter(|n| !text.contains(&format!("./schemas/{n}")))
        .collect();
    assert!(
        missing.is_empty(),
        ".taplo.toml maps no glob to {}",
        missing.join(", ")
    );
}
