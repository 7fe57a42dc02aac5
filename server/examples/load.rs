//! The load figures: `cargo run --release -p farebox-server --example load -- [TABLES]
//! [ACTIONS] [MOD] [THREADS]` runs TABLES tables (default 200) of MOD (default curbside: a
//! person driven by the run, a random bot and a spectator each) on one server, each person
//! taking ACTIONS actions (default 30), and prints actions a second and the p50/p99 time from
//! a person's action to every client's update.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use farebox_server::server::{Server, ServerConfig};
use farebox_server::table::TableSpec;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let tables: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(200);
    let own: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(30);
    let game = args.get(2).cloned().unwrap_or_else(|| "curbside".into());
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../mods");
    let resolver = farebox::source::FolderResolver::new(root.clone());
    let def = Arc::new(
        farebox::content::load_mod(&farebox::source::FsSource::new(root.join(&game)), &resolver)
            .unwrap(),
    );
    let mut cfg = ServerConfig::new("127.0.0.1:0".parse().unwrap(), vec![def.clone()]);
    if let Some(t) = args.get(3).and_then(|a| a.parse().ok()) {
        cfg.threads = t;
    }
    cfg.grace = Duration::from_secs(3600);
    cfg.rate = 5_000;
    cfg.burst = 10_000;
    let threads = cfg.threads;
    // Every client comes from loopback: one address.
    cfg.limits.conns_per_addr = 100_000;
    cfg.limits.tables_per_addr = 100_000;
    cfg.queue_bytes = 1 << 30;
    let server = Server::start(cfg).unwrap();
    let mut seats = vec!["person".to_string()];
    seats.extend(std::iter::repeat_n(
        "random".to_string(),
        def.players.0.max(2) as usize - 1,
    ));
    let codes: Vec<String> = (0..tables)
        .map(|_| {
            server
                .create_table(TableSpec {
                    mod_id: game.clone(),
                    seats: seats.clone(),
                    options: Default::default(),
                    clock: None,
                })
                .unwrap()
        })
        .collect();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let figures = rt
        .block_on(farebox_server::load::run(
            &server.addr().to_string(),
            codes,
            own,
        ))
        .unwrap();
    println!("{game}, {threads} game threads: {figures}");
}
