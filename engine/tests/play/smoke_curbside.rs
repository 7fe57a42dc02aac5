#![allow(clippy::unwrap_used, clippy::expect_used)]
use std::sync::Arc;

use farebox::batch::Batch;
use farebox::content::{self, NoDependencies};
use farebox::game::Setup;
use farebox::source::FsSource;

#[test]
fn random_curbside_games_finish() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../mods/curbside");
    let def = Arc::new(
        content::load_mod(&FsSource::new(dir), &NoDependencies).unwrap_or_else(|e| panic!("{e}")),
    );
    let batch = Batch::new(&def, Setup::new(3, 0), &["random".into()], 3000).unwrap();
    for seed in 0..20 {
        let o = batch.play_one(seed, &mut None, None);
        assert!(o.error.is_none(), "seed {seed}: {:?}", o.error);
        eprintln!(
            "seed {seed}: {} actions capped={} {:?}",
            o.actions,
            o.capped,
            o.result.as_ref().map(|r| &r.reason)
        );
    }
}
