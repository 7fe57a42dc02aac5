#![allow(clippy::unwrap_used, clippy::expect_used)]
use std::sync::Arc;

use farebox::agent;
use farebox::content::{self, NoDependencies};
use farebox::game::Setup;
use farebox::source::FsSource;

#[test]
fn random_curbside_games_finish() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../mods/curbside");
    let def = Arc::new(
        content::load_mod(&FsSource::new(dir), &NoDependencies).unwrap_or_else(|e| panic!("{e}")),
    );
    for seed in 0..20 {
        let o = agent::play(&def, Setup::new(3, seed), &["random".into()], 3000);
        assert!(o.error.is_none(), "seed {seed}: {:?}", o.error);
        eprintln!(
            "seed {seed}: {} actions capped={} {:?}",
            o.actions,
            o.capped,
            o.result.as_ref().map(|r| &r.reason)
        );
    }
}
