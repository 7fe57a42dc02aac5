//! The load test: 200 tables of Curbside, each with a person driven by the test, a random bot
//! and a spectator, on one server with two game threads, all on loopback. Every table plays
//! 25 of its person's actions (and the bot's between them); the whole run must end in a time
//! a 2-core CI machine keeps well within. Prints actions a second and the p50/p99 time from a
//! person's action to both clients' updates.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::time::Duration;

use common::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hundred_tables_on_one_server() {
    let mut cfg = config(&["curbside"], 40);
    cfg.grace = Duration::from_secs(3600);
    let server = tokio::task::spawn_blocking(move || {
        let server = start(cfg);
        let codes: Vec<String> = (0..200)
            .map(|_| table(&server, "curbside", &["person", "random"]))
            .collect();
        (server, codes)
    })
    .await
    .unwrap();
    let (server, codes) = server;
    assert_eq!(server.tables(), 200);
    let addr = server.addr().to_string();
    let figures = farebox_server::load::run(&addr, codes, 25).await.unwrap();
    eprintln!("{figures}");
    assert_eq!(figures.tables, 200);
    assert!(figures.timed >= 200 * 20, "{figures}");
    assert!(figures.actions >= 200 * 40, "{figures}");
    assert!(
        figures.elapsed < Duration::from_secs(150),
        "the load run took too long: {figures}"
    );
    assert!(figures.p99 < Duration::from_secs(5), "{figures}");
    tokio::task::spawn_blocking(move || drop(server))
        .await
        .unwrap();
}
