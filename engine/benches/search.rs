//! The search bot's bench: two-seat games of a bundled mod, the search bot against another
//! agent with the seats alternating; prints its score and the median and worst time of its
//! decisions (one thread).
//!
//! `cargo bench -p farebox-engine --bench search` plays a short default set (two games of
//! each competitive bundled game at `search:25` against the game's own bot);
//! `cargo bench -p farebox-engine --bench search -- MOD SEARCH OTHER GAMES` one duel, e.g.
//! `-- curbside search:100 dispatcher 20`; `-- MOD SEARCH OTHER GAMES SEED` from seed SEED
//! (default 1). MOD is a bundled id or a mod's folder. `farebox bench MOD --search SPEC` does
//! the same from the command line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

use std::sync::Arc;

use farebox::content;
use farebox::duel::duel;
use farebox::game::Setup;
use farebox::source::{FolderResolver, FsSource};

fn main() {
    // cargo passes `--bench` (and any filter flags) to a bench without a harness.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let mut seed = 1;
    let runs: Vec<(String, String, String, u32)> = match args.as_slice() {
        [] => [
            ("curbside", "dispatcher"),
            ("taxi-derby", "fare-planner"),
            ("critter-cab", "cabbie"),
            ("dicey-curves", "racer"),
        ]
        .iter()
        .map(|(m, b)| (m.to_string(), "search:25".to_string(), b.to_string(), 2))
        .collect(),
        [id, search, other, games, ..] if args.len() <= 5 => {
            if let Some(s) = args.get(4) {
                seed = s.parse().expect("SEED is a number");
            }
            vec![(
                id.clone(),
                search.clone(),
                other.clone(),
                games.parse().expect("GAMES is a number"),
            )]
        }
        _ => {
            eprintln!("usage: search [MOD SEARCH OTHER GAMES [SEED]]");
            std::process::exit(2);
        }
    };
    let mods = concat!(env!("CARGO_MANIFEST_DIR"), "/../mods");
    for (id, search, other, games) in runs {
        let folder = if std::path::Path::new(&id).is_dir() {
            id.clone()
        } else {
            format!("{mods}/{id}")
        };
        let src = FsSource::new(folder);
        let def = Arc::new(content::load_mod(&src, &FolderResolver::new(mods)).unwrap());
        let d = duel(&def, &Setup::new(2, seed), &search, &other, games, 5000).unwrap();
        println!("{id}: {}", d.summary(&search, &other));
    }
}
