//! The soak: `cargo run --release -p farebox-server --example soak -- [MINUTES] [PEOPLE]` runs
//! a server with a table store for MINUTES (default 10) while PEOPLE people (default 24, each
//! on a thread of their own) play tables of Curbside and Taxi Derby against random players,
//! the mods' bots and each other, think a little between actions, drop their connection now
//! and then and come back with their seat's token, and open a new table when a game ends.
//! Halfway, the server is stopped and started again on the same store (a new port): everyone
//! comes back with their token. At the end it prints the games finished, actions taken, drops,
//! rejoins, and checks that every finished game's replay (saved by the server) verifies and
//! that no table was lost (every rejoin found its table).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use farebox::GameDef;
use farebox_server::client::{Client, Event};
use farebox_server::protocol::ServerMsg;
use farebox_server::server::{Server, ServerConfig};

const WAIT: Duration = Duration::from_secs(30);

/// What the soak's people met, counted across their threads (events of the server, not the
/// figures of games: those are `farebox::figures::Tally`'s).
#[derive(Default)]
struct Events {
    games: AtomicUsize,
    actions: AtomicU64,
    drops: AtomicUsize,
    rejoins: AtomicUsize,
    lost: AtomicUsize,
    errors: Mutex<Vec<String>>,
}

fn load(root: &std::path::Path, id: &str) -> Arc<GameDef> {
    let resolver = farebox::source::FolderResolver::new(root.to_path_buf());
    Arc::new(
        farebox::content::load_mod(&farebox::source::FsSource::new(root.join(id)), &resolver)
            .unwrap(),
    )
}

fn start(mods: &[Arc<GameDef>], store: &std::path::Path, replays: &std::path::Path) -> Server {
    let mut cfg = ServerConfig::new("127.0.0.1:0".parse().unwrap(), mods.to_vec());
    cfg.store = Some(store.to_path_buf());
    cfg.replays = Some(replays.to_path_buf());
    cfg.grace = Duration::from_secs(20);
    cfg.limits.conns_per_addr = 100_000;
    cfg.limits.tables_per_addr = 100_000;
    cfg.limits.tables_per_conn = 100_000;
    Server::start(cfg).unwrap()
}

/// A small generator for the people's choices and pauses (never the games' seeds).
fn next(x: &mut u64) -> u64 {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    *x
}

/// One person: opens tables and plays them until `end`, dropping and coming back now and
/// then. The server's address is read from `addr` each time it connects (it changes when the
/// server starts again).
fn person(i: usize, addr: Arc<Mutex<String>>, end: Instant, tally: Arc<Events>) {
    let mut r = 0x9e37_79b9_7f4a_7c15u64 ^ ((i as u64 + 1) * 0x2545_f491);
    let seatings: [(&str, &[&str]); 3] = [
        ("curbside", &["person", "random"]),
        ("curbside", &["person", "dispatcher", "random"]),
        ("taxi-derby", &["person", "fare-planner", "random"]),
    ];
    let connect = || loop {
        let a = addr.lock().unwrap().clone();
        match Client::connect(&a, WAIT) {
            Ok(c) => return c,
            Err(_) => std::thread::sleep(Duration::from_millis(200)),
        }
    };
    while Instant::now() < end {
        let (m, seats) = seatings[(next(&mut r) % 3) as usize];
        let mut c = connect();
        let Ok(code) = c.create(m, seats, WAIT) else {
            std::thread::sleep(Duration::from_millis(200));
            continue;
        };
        let Ok(seated) = c.join(&code, Some(0), &format!("p{i}"), None, WAIT) else {
            continue;
        };
        let token = seated.token.clone().unwrap_or_default();
        let mut acted_at = None;
        loop {
            if Instant::now() >= end {
                return;
            }
            let l = c.latest();
            if l.over() {
                tally.games.fetch_add(1, Ordering::Relaxed);
                break;
            }
            let gone = l.closed.is_some();
            // Now and then the connection drops (or the server went away): come back with
            // the token.
            if gone || next(&mut r).is_multiple_of(400) {
                if !gone {
                    tally.drops.fetch_add(1, Ordering::Relaxed);
                }
                drop(c);
                std::thread::sleep(Duration::from_millis(next(&mut r) % 1500));
                c = connect();
                match c.rejoin(&code, &token, None, WAIT) {
                    Ok(_) => {
                        tally.rejoins.fetch_add(1, Ordering::Relaxed);
                        acted_at = None;
                        continue;
                    }
                    Err(e) => {
                        if e.contains("no table") {
                            tally.lost.fetch_add(1, Ordering::Relaxed);
                        }
                        tally
                            .errors
                            .lock()
                            .unwrap()
                            .push(format!("{code}: rejoin: {e}"));
                        break;
                    }
                }
            }
            if !l.offered().is_empty() && acted_at != Some(l.number) {
                std::thread::sleep(Duration::from_millis(next(&mut r) % 120));
                let o = &l.offered()[(next(&mut r) % l.offered().len() as u64) as usize];
                acted_at = Some(l.number);
                c.act(&o.action);
                tally.actions.fetch_add(1, Ordering::Relaxed);
            }
            match c.next_event(Duration::from_millis(500)) {
                Some(Event::Msg(ServerMsg::Error { reason })) if reason.contains("stopped") => {
                    tally
                        .errors
                        .lock()
                        .unwrap()
                        .push(format!("{code}: {reason}"));
                    break;
                }
                _ => {}
            }
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let minutes: f64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(10.0);
    let people: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(24);
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../mods");
    let mods = vec![load(&root, "curbside"), load(&root, "taxi-derby")];
    let dir = std::env::temp_dir().join(format!("farebox-soak-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (store, replays) = (dir.join("tables.sqlite"), dir.join("replays"));
    let server = start(&mods, &store, &replays);
    let addr = Arc::new(Mutex::new(server.addr().to_string()));
    let tally = Arc::new(Events::default());
    let t0 = Instant::now();
    let total = Duration::from_secs_f64(minutes * 60.0);
    let end = t0 + total;
    let threads: Vec<_> = (0..people)
        .map(|i| {
            let (addr, tally) = (addr.clone(), tally.clone());
            std::thread::spawn(move || person(i, addr, end, tally))
        })
        .collect();
    std::thread::sleep(total / 2);
    let before = (
        tally.games.load(Ordering::Relaxed),
        tally.actions.load(Ordering::Relaxed),
    );
    server.stop();
    let server = start(&mods, &store, &replays);
    *addr.lock().unwrap() = server.addr().to_string();
    println!(
        "restarted at {:.0} s ({} games, {} actions before)",
        t0.elapsed().as_secs_f64(),
        before.0,
        before.1
    );
    for t in threads {
        let _ = t.join();
    }
    drop(server);
    // Every finished game's replay verifies.
    let mut verified = 0;
    let mut bad = vec![];
    for e in std::fs::read_dir(&replays).into_iter().flatten().flatten() {
        let text = std::fs::read_to_string(e.path()).unwrap_or_default();
        let ok = farebox::replay::Replay::from_json(&text).and_then(|r| {
            let def = mods
                .iter()
                .find(|d| d.id == r.mod_id)
                .ok_or_else(|| format!("no mod {}", r.mod_id))?;
            farebox::replay::verify(def, &r)
                .map(|_| ())
                .map_err(|m| format!("{m:?}"))
        });
        match ok {
            Ok(()) => verified += 1,
            Err(why) => bad.push(format!("{}: {why}", e.path().display())),
        }
    }
    let errors = tally.errors.lock().unwrap().clone();
    println!(
        "{:.1} min, {people} people: {} games finished, {} actions by people, {} drops, {} rejoins, {} tables lost; {verified} replays verified, {} failed; {} other errors",
        t0.elapsed().as_secs_f64() / 60.0,
        tally.games.load(Ordering::Relaxed),
        tally.actions.load(Ordering::Relaxed),
        tally.drops.load(Ordering::Relaxed),
        tally.rejoins.load(Ordering::Relaxed),
        tally.lost.load(Ordering::Relaxed),
        bad.len(),
        errors.len()
    );
    for b in bad.iter().chain(&errors).take(20) {
        println!("  {b}");
    }
    let _ = std::fs::remove_dir_all(&dir);
    if !bad.is_empty() || tally.lost.load(Ordering::Relaxed) > 0 {
        std::process::exit(1);
    }
}
