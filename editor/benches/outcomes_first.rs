//! How long an outcome run takes to its first verdict: from the start of a run of a bundled
//! mod, with the settings of its accepted outcomes (the Studio's defaults for it), to the
//! first figures the Outcomes panel shows (provisional ones, already compared with the
//! accepted outcomes), which is also when the line under the editors stops saying "playing
//! the first games". A house rule's base game is run beside it, as in the Studio. The run
//! has all cores but one, as in the Studio. A benchmark, not a test: nothing is asserted
//! about time.
//!
//! cargo bench -p farebox-editor --bench outcomes_first [-- MOD...]
//!
//! With mod ids, only those; each line gives the time, the games the first figures count
//! and the line the Studio shows under its editors.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use farebox::source::{FolderResolver, FsSource};
use farebox_editor::studio::outcomes::{Outcomes, Target};

fn main() {
    let mods = Path::new(env!("CARGO_MANIFEST_DIR")).join("../mods");
    let asked: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let ids: Vec<String> = if asked.is_empty() {
        FolderResolver::new(&mods)
            .all()
            .into_iter()
            .map(|(id, _)| id)
            .collect()
    } else {
        asked
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!("First verdict of an outcome run, {cores} cores");
    for id in ids {
        let Some(target) = target(&mods, &id) else {
            eprintln!("{id}: does not load");
            std::process::exit(1);
        };
        let base = target
            .def
            .layers
            .first()
            .filter(|_| target.def.layers.len() > 1)
            .and_then(|(base, _)| self::target(&mods, base));
        let mut panel = Outcomes::new();
        panel.set_target(target, base, false);
        let t = Instant::now();
        panel.rerun();
        while panel.figures().is_none() && t.elapsed() < Duration::from_secs(120) {
            std::thread::sleep(Duration::from_millis(1));
            panel.poll();
        }
        let took = t.elapsed();
        let games = panel.figures().map_or(0, |(_, n, _)| n);
        println!(
            "{id:<30}{:>9.0} ms, {games:>3} games: {}",
            took.as_secs_f64() * 1000.0,
            panel.status_line().unwrap_or_default()
        );
    }
}

fn target(mods: &Path, id: &str) -> Option<Target> {
    let folder = mods.join(id);
    let def =
        farebox::content::load_mod(&FsSource::new(&folder), &FolderResolver::new(mods)).ok()?;
    Some(Target {
        name: def.name.clone(),
        def: Arc::new(def),
        folder,
    })
}
