//! The load figures: `cargo run --release -p farebox-server --example load -- [TABLES]
//! [ACTIONS] [MOD] [THREADS] [BOT_TABLES] [BOT] [PAUSE_MS]` runs TABLES tables (default 200) of MOD
//! (default curbside: a person driven by the run, a random bot and a spectator each) on one
//! server, each person taking ACTIONS actions (default 30), while BOT_TABLES tables (default
//! 0) of BOT bots alone (default `search:50`) play meanwhile, each person pausing about
//! PAUSE_MS (default 0: as fast as the server answers) before each action; it prints actions a second, the
//! p50/p99 time from a person's action to every client's update, the process's CPU time per
//! action (server and clients: they share the process) and its memory per table.
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
    let bot_tables: usize = args.get(4).and_then(|a| a.parse().ok()).unwrap_or(0);
    let bot = args.get(5).cloned().unwrap_or_else(|| "search:50".into());
    let pause = Duration::from_millis(args.get(6).and_then(|a| a.parse().ok()).unwrap_or(0));
    let server = Server::start(cfg).unwrap();
    let rss_before = rss();
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
    let bot_seats: Vec<String> = vec![bot.clone(); def.players.0.max(2) as usize];
    for _ in 0..bot_tables {
        server
            .create_table(TableSpec {
                mod_id: game.clone(),
                seats: bot_seats.clone(),
                options: Default::default(),
                clock: None,
            })
            .unwrap();
    }
    let per_table = rss().saturating_sub(rss_before) / (tables + bot_tables).max(1) as u64;
    let cpu_before = cpu();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let figures = rt
        .block_on(farebox_server::load::run_paced(
            &server.addr().to_string(),
            codes,
            own,
            pause,
        ))
        .unwrap();
    let cpu_per_action = (cpu() - cpu_before) / figures.actions.max(1) as f64;
    println!(
        "{game}, {threads} game threads, {bot_tables} tables of {bot} meanwhile: {figures}; \
         CPU {:.0} us an action (server and clients), memory {:.2} MB a table",
        cpu_per_action * 1e6,
        per_table as f64 / 1e6
    );
}

/// The process's resident memory in bytes (Linux; 0 elsewhere).
fn rss() -> u64 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok())
        .map_or(0, |pages| pages * 4096)
}

/// The process's CPU time so far, user and system, in seconds (Linux; 0 elsewhere).
fn cpu() -> f64 {
    let Ok(s) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // The fields after the command's closing parenthesis: utime and stime are the 12th and
    // 13th of them, in clock ticks (100 a second on Linux).
    let rest = s.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<f64> = rest
        .split_whitespace()
        .filter_map(|x| x.parse().ok())
        .collect();
    f.get(11)
        .zip(f.get(12))
        .map_or(0.0, |(u, s)| (u + s) / 100.0)
}
