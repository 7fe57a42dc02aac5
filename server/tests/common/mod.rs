//! Helpers of the server's loopback tests: the bundled mods, a server on a free port, and a
//! person driven by the test (who takes the offered actions in a fixed pattern).
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use farebox::GameDef;
use farebox::content;
use farebox::source::{FolderResolver, FsSource};
use farebox_server::client::{Client, Event};
use farebox_server::protocol::ServerMsg;
use farebox_server::server::{Server, ServerConfig};
use farebox_server::table::TableSpec;

/// The bundled games: every mod in `mods/` that depends on no other (its mod.toml has no
/// `depends` line), found rather than listed, so a new game is played here by existing.
pub fn games() -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(mods_dir())
        .unwrap()
        .flatten()
        .filter(|e| {
            std::fs::read_to_string(e.path().join("mod.toml"))
                .is_ok_and(|t| !t.lines().any(|l| l.trim_start().starts_with("depends")))
        })
        .map(|e| e.file_name().to_string_lossy().to_string())
        .collect();
    out.sort();
    assert!(out.len() >= 5, "the bundled games were not found: {out:?}");
    out
}

pub const WAIT: Duration = Duration::from_secs(60);

pub fn mods_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../mods")
}

pub fn load(id: &str) -> Arc<GameDef> {
    let resolver = FolderResolver::new(mods_dir());
    Arc::new(
        content::load_mod(&FsSource::new(mods_dir().join(id)), &resolver)
            .unwrap_or_else(|e| panic!("{id}: {e}")),
    )
}

pub fn config(mods: &[&str], seed: u64) -> ServerConfig {
    let mut cfg = ServerConfig::new(
        "127.0.0.1:0".parse().unwrap(),
        mods.iter().map(|m| load(m)).collect(),
    );
    cfg.seed = Some(seed);
    cfg.threads = 2;
    // The test's scripted people act as fast as the server answers; the rate limit has a
    // test of its own (hostile.rs).
    cfg.rate = 5_000;
    cfg.burst = 10_000;
    // Every client of a test comes from loopback, one address: the limits per address have
    // tests of their own (limits.rs).
    cfg.limits.conns_per_addr = 100_000;
    cfg.limits.tables_per_addr = 100_000;
    cfg.limits.tables_per_conn = 100_000;
    cfg
}

pub fn start(cfg: ServerConfig) -> Server {
    Server::start(cfg).unwrap()
}

pub fn table(server: &Server, mod_id: &str, seats: &[&str]) -> String {
    server
        .create_table(TableSpec {
            mod_id: mod_id.into(),
            seats: seats.iter().map(|s| s.to_string()).collect(),
            options: Default::default(),
            clock: None,
        })
        .unwrap()
}

pub fn connect(server: &Server) -> Client {
    Client::connect(&server.addr().to_string(), WAIT).unwrap()
}

/// Plays the person's seat until the game is over: at each turn takes the offered action
/// `pick(turn, offered)`. Returns how many actions the person took.
pub fn play_out(c: &Client, mut pick: impl FnMut(usize, usize) -> usize) -> usize {
    let mut taken = 0;
    let mut acted_at = None;
    loop {
        let l = c.latest();
        if l.over() {
            return taken;
        }
        assert!(l.number < 20_000, "the game runs past 20,000 actions");
        if !l.offered().is_empty() && acted_at != Some(l.number) {
            let i = pick(taken, l.offered().len()) % l.offered().len();
            acted_at = Some(l.number);
            c.act(&l.offered()[i].action);
            taken += 1;
        }
        match c.next_event(WAIT) {
            Some(Event::Closed(r)) => panic!("connection closed: {r}"),
            Some(Event::Msg(ServerMsg::Refused { reason, .. })) => panic!("refused: {reason}"),
            Some(Event::Msg(ServerMsg::Error { reason })) => panic!("error: {reason}"),
            Some(_) => {}
            None => panic!("no message for {WAIT:?} (number {})", c.latest().number),
        }
    }
}

/// Waits until the client's latest state satisfies `ok`.
pub fn wait_until(c: &Client, what: &str, ok: impl Fn(&farebox_server::client::Latest) -> bool) {
    let end = std::time::Instant::now() + WAIT;
    while !ok(&c.latest()) {
        assert!(
            std::time::Instant::now() < end,
            "waited too long for {what}"
        );
        c.next_event(Duration::from_millis(50));
    }
}

/// A pick that looks random and is the same every run: the `t`-th choice among `n`.
pub fn spread(t: usize, n: usize) -> usize {
    let mut z = (t as u64)
        .wrapping_add(1)
        .wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z ^= z >> 31;
    (z % n.max(1) as u64) as usize
}
