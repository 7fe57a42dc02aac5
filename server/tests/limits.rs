//! A stranger cannot take the server down or stall it: each hole a client written from the
//! protocol found is tried here on loopback, a few dozen connections at most, and each test
//! stops by itself. Different addresses are loopback addresses other than 127.0.0.1 (the whole
//! of 127.0.0.0/8 is this machine), which a client binds before it connects.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant};

use common::*;
use farebox_server::protocol::{ClientMsg, ServerMsg, Told};
use futures_util::{SinkExt, StreamExt};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{WebSocketStream, client_async};

type Ws = WebSocketStream<TcpStream>;

/// A TCP connection to the server from the loopback address `from`.
async fn tcp_from(server: SocketAddr, from: &str) -> std::io::Result<TcpStream> {
    let ip: IpAddr = from.parse().unwrap();
    let s = TcpSocket::new_v4()?;
    s.bind(SocketAddr::new(ip, 0))?;
    s.connect(server).await
}

/// A WebSocket connection from `from`, its welcome read; Err when the server refused it.
async fn ws_from(server: SocketAddr, from: &str) -> Result<Ws, String> {
    let tcp = tcp_from(server, from).await.map_err(|e| e.to_string())?;
    let url = format!("ws://{server}/");
    let (mut ws, _) = tokio::time::timeout(Duration::from_secs(10), client_async(url, tcp))
        .await
        .map_err(|_| "no handshake".to_string())?
        .map_err(|e| e.to_string())?;
    match recv(&mut ws).await {
        Some(ServerMsg::Welcome { .. }) => Ok(ws),
        other => Err(format!("no welcome: {other:?}")),
    }
}

async fn send(ws: &mut Ws, msg: &ClientMsg) {
    let text = serde_json::to_string(msg).unwrap();
    let _ = ws.send(Message::text(text)).await;
}

/// The next message of the server (None: closed, or nothing within the wait).
async fn recv(ws: &mut Ws) -> Option<ServerMsg> {
    let read = async {
        loop {
            match ws.next().await? {
                Ok(Message::Text(t)) => return serde_json::from_str(t.as_str()).ok(),
                Ok(Message::Close(_)) | Err(_) => return None,
                Ok(_) => continue,
            }
        }
    };
    tokio::time::timeout(WAIT, read).await.ok().flatten()
}

/// Reads until a message `want` accepts; None if the connection ends first.
async fn until(ws: &mut Ws, want: impl Fn(&ServerMsg) -> bool) -> Option<ServerMsg> {
    loop {
        let m = recv(ws).await?;
        if want(&m) {
            return Some(m);
        }
    }
}

/// Reads until the server says goodbye: its reason.
async fn bye(ws: &mut Ws) -> Option<String> {
    match until(ws, |m| matches!(m, ServerMsg::Bye { .. })).await? {
        ServerMsg::Bye { reason } => Some(reason),
        _ => None,
    }
}

fn create(mod_id: &str, seats: &[&str]) -> ClientMsg {
    ClientMsg::Create {
        mod_id: mod_id.into(),
        seats: seats.iter().map(|s| s.to_string()).collect(),
        options: Default::default(),
        clock: None,
    }
}

/// The answer to a create: the code, or the server's reason.
async fn create_on(ws: &mut Ws, mod_id: &str, seats: &[&str]) -> Result<String, String> {
    send(ws, &create(mod_id, seats)).await;
    match until(ws, |m| {
        matches!(m, ServerMsg::Created { .. } | ServerMsg::Error { .. })
    })
    .await
    {
        Some(ServerMsg::Created { code, .. }) => Ok(code),
        Some(ServerMsg::Error { reason }) => Err(reason),
        _ => Err("closed".into()),
    }
}

/// A server with the default limits per address (the test config lifts them).
fn strict(mods: &[&str]) -> farebox_server::server::ServerConfig {
    let mut cfg = config(mods, 5);
    cfg.limits = farebox_server::guard::Limits::default();
    cfg
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tables_are_limited_per_connection_and_per_address() {
    let mut cfg = strict(&["curbside"]);
    cfg.limits.tables_per_conn = 3;
    cfg.limits.tables_per_addr = 5;
    let server = start(cfg);
    let addr = server.addr();

    let mut a = ws_from(addr, "127.0.0.2").await.unwrap();
    for _ in 0..3 {
        create_on(&mut a, "curbside", &["person", "random"])
            .await
            .unwrap();
    }
    let why = create_on(&mut a, "curbside", &["person", "random"])
        .await
        .unwrap_err();
    assert!(why.contains("may create 3 tables"), "{why}");

    // A second connection from the same address has the address's two tables left.
    let mut b = ws_from(addr, "127.0.0.2").await.unwrap();
    for _ in 0..2 {
        create_on(&mut b, "curbside", &["person", "random"])
            .await
            .unwrap();
    }
    let why = create_on(&mut b, "curbside", &["person", "random"])
        .await
        .unwrap_err();
    assert!(why.contains("5 tables open"), "{why}");

    // Another address is not held back by it.
    let mut c = ws_from(addr, "127.0.0.3").await.unwrap();
    create_on(&mut c, "curbside", &["person", "random"])
        .await
        .unwrap();
    assert_eq!(server.tables(), 6);
    tokio::task::spawn_blocking(move || drop(server))
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_are_limited_per_address_and_in_all() {
    let mut cfg = strict(&["curbside"]);
    cfg.limits.conns_per_addr = 4;
    cfg.limits.conns = 6;
    let server = start(cfg);
    let addr = server.addr();

    let mut held = vec![];
    for _ in 0..4 {
        held.push(ws_from(addr, "127.0.0.4").await.unwrap());
    }
    // The fifth from that address is closed before its WebSocket opens.
    assert!(ws_from(addr, "127.0.0.4").await.is_err());
    // Others still come in, up to the server's total.
    held.push(ws_from(addr, "127.0.0.5").await.unwrap());
    held.push(ws_from(addr, "127.0.0.6").await.unwrap());
    assert!(ws_from(addr, "127.0.0.7").await.is_err());
    // A connection that closes makes room again.
    let one = held.pop().unwrap();
    drop(one);
    let mut again = None;
    for _ in 0..50 {
        tokio::time::sleep(Duration::from_millis(20)).await;
        if let Ok(ws) = ws_from(addr, "127.0.0.7").await {
            again = Some(ws);
            break;
        }
    }
    assert!(again.is_some(), "no room after a connection closed");
    tokio::task::spawn_blocking(move || drop(server))
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silent_and_half_sent_connections_are_ended() {
    let mut cfg = strict(&["curbside"]);
    cfg.handshake = Duration::from_millis(500);
    cfg.idle = Duration::from_secs(2);
    let server = start(cfg);
    let addr = server.addr();

    // A socket that never opens its WebSocket is closed after the handshake deadline.
    let mut silent = tcp_from(addr, "127.0.0.8").await.unwrap();
    let t = Instant::now();
    let mut buf = [0u8; 64];
    let n = tokio::time::timeout(Duration::from_secs(10), silent.read(&mut buf))
        .await
        .expect("the server kept a silent socket open");
    assert!(matches!(n, Ok(0) | Err(_)), "{n:?}");
    assert!(t.elapsed() < Duration::from_secs(5));

    // Half a handshake: the same.
    let mut half = tcp_from(addr, "127.0.0.8").await.unwrap();
    half.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    let n = tokio::time::timeout(Duration::from_secs(10), half.read(&mut buf))
        .await
        .expect("the server kept a half handshake open");
    assert!(matches!(n, Ok(0) | Err(_)), "{n:?}");

    // A frame begun and never finished: the header of a 100-byte masked text frame and ten
    // bytes of it. The connection is ended once it has gone the idle time without a whole
    // message (its pings go unanswered behind the unfinished frame).
    let mut ws = ws_from(addr, "127.0.0.8").await.unwrap();
    let tcp = ws.get_mut();
    tcp.write_all(&[0x81, 0x80 | 100, 1, 2, 3, 4])
        .await
        .unwrap();
    tcp.write_all(&[0u8; 10]).await.unwrap();
    let reason = bye(&mut ws).await.expect("no goodbye");
    assert!(reason.contains("no whole message in 2 s"), "{reason}");

    // A client that reads (so answers pings) but sends nothing stays.
    let mut quiet = ws_from(addr, "127.0.0.9").await.unwrap();
    let stays = tokio::time::timeout(Duration::from_secs(5), recv(&mut quiet)).await;
    assert!(stays.is_err(), "a quiet reader was ended: {stays:?}");
    tokio::task::spawn_blocking(move || drop(server))
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_never_reads_is_ended_by_the_bytes_it_leaves() {
    let mut cfg = strict(&["curbside"]);
    cfg.queue = 100_000; // by count it could go on for ever
    cfg.queue_bytes = 256 * 1024;
    let server = start(cfg);
    let addr = server.addr();
    let code = table(&server, "curbside", &["person", "random"]);

    // Joins, then asks for the whole game again and again without reading a byte: the
    // socket's buffers fill, then the server's queue, and it is ended by its bytes.
    let tcp = tcp_from(addr, "127.0.0.10").await.unwrap();
    tcp.set_nodelay(true).unwrap();
    let (mut ws, _) = client_async(format!("ws://{addr}/"), tcp).await.unwrap();
    send(
        &mut ws,
        &ClientMsg::Join {
            code: code.clone(),
            seat: None,
            name: String::new(),
            content_hash: None,
        },
    )
    .await;
    let text = serde_json::to_string(&ClientMsg::Resync).unwrap();
    let mut ended = false;
    for _ in 0..20_000 {
        if ws.send(Message::text(text.clone())).await.is_err() {
            ended = true;
            break;
        }
        tokio::time::sleep(Duration::from_micros(200)).await;
    }
    assert!(
        ended,
        "the server kept queueing for a client that never reads"
    );
    // Meanwhile the server answers others.
    let mut other = ws_from(addr, "127.0.0.11").await.unwrap();
    send(&mut other, &ClientMsg::Look { code }).await;
    assert!(matches!(
        until(&mut other, |m| matches!(m, ServerMsg::Table { .. })).await,
        Some(ServerMsg::Table { .. })
    ));
    tokio::task::spawn_blocking(move || drop(server))
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guessing_codes_shuts_an_address_out() {
    let mut cfg = strict(&["curbside"]);
    cfg.limits.unknown_codes = 10;
    let server = start(cfg);
    let addr = server.addr();
    let code = table(&server, "curbside", &["person", "random"]);

    // Spreading the guesses over connections does not help: the strikes are the address's.
    let mut guesses = 0;
    let mut shut = None;
    'outer: for _ in 0..4 {
        let mut ws = ws_from(addr, "127.0.0.12").await.unwrap();
        for _ in 0..4 {
            guesses += 1;
            send(
                &mut ws,
                &ClientMsg::Look {
                    code: format!("ZZZZ{guesses:02}"),
                },
            )
            .await;
            match until(&mut ws, |m| {
                matches!(m, ServerMsg::Error { .. } | ServerMsg::Bye { .. })
            })
            .await
            {
                Some(ServerMsg::Bye { reason }) => {
                    shut = Some(reason);
                    break 'outer;
                }
                Some(_) => {}
                None => break 'outer,
            }
        }
    }
    let reason = shut.expect("no shut-out after many unknown codes");
    assert!(
        reason.contains("more than 10 tables that do not exist"),
        "{reason}"
    );
    // The eleventh guess is answered, then the goodbye follows (read at the twelfth).
    assert!((11..=12).contains(&guesses), "{guesses} guesses");
    // Shut out: its new connections are closed, even to a real table.
    assert!(ws_from(addr, "127.0.0.12").await.is_err());
    // Another address is not.
    let mut other = ws_from(addr, "127.0.0.13").await.unwrap();
    send(&mut other, &ClientMsg::Look { code }).await;
    assert!(
        until(&mut other, |m| matches!(m, ServerMsg::Table { .. }))
            .await
            .is_some()
    );
    tokio::task::spawn_blocking(move || drop(server))
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_connection_takes_one_seat() {
    let server = start(strict(&["curbside"]));
    let addr = server.addr();
    let code = table(&server, "curbside", &["person", "person"]);
    let mut ws = ws_from(addr, "127.0.0.14").await.unwrap();
    for seat in [0, 1] {
        send(
            &mut ws,
            &ClientMsg::Join {
                code: code.clone(),
                seat: Some(seat),
                name: String::new(),
                content_hash: None,
            },
        )
        .await;
    }
    let m = until(&mut ws, |m| matches!(m, ServerMsg::Error { .. }))
        .await
        .unwrap();
    let ServerMsg::Error { reason } = m else {
        unreachable!()
    };
    assert!(reason.contains("already sits in seat 1"), "{reason}");
    // The second seat is still open for someone else.
    let mut other = ws_from(addr, "127.0.0.15").await.unwrap();
    send(
        &mut other,
        &ClientMsg::Join {
            code,
            seat: Some(1),
            name: String::new(),
            content_hash: None,
        },
    )
    .await;
    assert!(
        until(&mut other, |m| matches!(m, ServerMsg::Joined { .. }))
            .await
            .is_some()
    );
    tokio::task::spawn_blocking(move || drop(server))
        .await
        .unwrap();
}

/// A person who never acts: when the turn clock runs out the stand-in bot takes the decision,
/// and every seat is shown the clock.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_who_never_acts_is_played_for_when_the_clock_runs_out() {
    let mut cfg = strict(&["curbside"]);
    cfg.clock = Some(Duration::from_millis(800));
    let server = start(cfg);
    let addr = server.addr();
    let code = table(&server, "curbside", &["person", "person"]);
    let mut idle = ws_from(addr, "127.0.0.16").await.unwrap();
    let mut other = ws_from(addr, "127.0.0.17").await.unwrap();
    for (ws, seat) in [(&mut idle, 0), (&mut other, 1)] {
        send(
            ws,
            &ClientMsg::Join {
                code: code.clone(),
                seat: Some(seat),
                name: String::new(),
                content_hash: None,
            },
        )
        .await;
    }
    // The other seat sees seat 1's clock running.
    let seen = until(&mut other, |m| match m {
        ServerMsg::Update(u) => u.seats[0].to_act && u.seats[0].clock_ms.is_some(),
        ServerMsg::Seats { seats, .. } => seats[0].to_act && seats[0].clock_ms.is_some(),
        _ => false,
    })
    .await;
    assert!(seen.is_some(), "no clock shown");
    // Seat 1 never acts; the game goes on without them.
    let moved = until(&mut other, |m| match m {
        ServerMsg::Update(u) => {
            u.number >= 1
                && matches!(
                    u.last(),
                    Some(Told::Action {
                        seat: 0,
                        by_bot: true,
                        ..
                    })
                )
        }
        _ => false,
    })
    .await;
    assert!(
        moved.is_some(),
        "the stand-in did not take the idle person's decision"
    );
    tokio::task::spawn_blocking(move || drop(server))
        .await
        .unwrap();
}

/// A table of slow bots delays no person at another table on the same game thread: its bots
/// think on a bot thread while the person plays.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_bots_at_one_table_do_not_hold_up_a_person_at_another() {
    let mut cfg = config(&["dicey-curves", "curbside"], 11);
    cfg.threads = 1;
    cfg.bot_threads = 1;
    cfg.grace = Duration::from_secs(3600);
    let server = start(cfg);
    let busy = table(&server, "dicey-curves", &["search:30", "search:30"]);
    let mut watcher = farebox_server::client::AsyncConn::connect(&server.addr().to_string())
        .await
        .unwrap();
    let quiet = table(&server, "curbside", &["person", "random"]);
    let person = connect(&server);
    person.join(&quiet, Some(0), "", None, WAIT).unwrap();
    watcher
        .send(&ClientMsg::Join {
            code: busy.clone(),
            seat: None,
            name: String::new(),
            content_hash: None,
        })
        .await
        .unwrap();
    // The person takes 30 actions (the random bot answering between them).
    let before = busy_number(&mut watcher).await;
    let taken = 30;
    let person = tokio::task::spawn_blocking(move || {
        take_actions(&person, taken);
        person
    });
    let person = person.await.unwrap();
    let after = busy_number(&mut watcher).await;
    // A search bot's decision in Dicey Curves takes far longer than 30 of a person's actions:
    // had the game thread worked out the bots' moves between the person's, the busy table
    // would have moved about once per person's action.
    assert!(
        after - before < taken / 3,
        "the bots' table took {} actions while the person took {taken}",
        after - before
    );
    drop(person);
    tokio::task::spawn_blocking(move || drop(server))
        .await
        .unwrap();
}

/// The person takes `n` actions (each as soon as it is offered), or plays out the game.
fn take_actions(c: &farebox_server::client::Client, n: u64) {
    let mut taken = 0;
    let mut acted_at = None;
    while taken < n {
        let l = c.latest();
        if l.over() {
            return;
        }
        if let Some(o) = l.offered().first()
            && acted_at != Some(l.number)
        {
            acted_at = Some(l.number);
            c.act(&o.action);
            taken += 1;
        }
        c.next_event(WAIT).expect("no message");
    }
}

/// The newest action number the watcher has been told of (reads what is waiting, briefly).
async fn busy_number(w: &mut farebox_server::client::AsyncConn) -> u64 {
    let mut n = 0;
    while let Ok(Some(m)) = tokio::time::timeout(Duration::from_millis(200), w.recv()).await {
        if let ServerMsg::Update(u) = m {
            n = n.max(u.number);
        }
    }
    n
}

#[test]
fn a_replays_folder_that_cannot_be_written_stops_the_start() {
    let file = std::env::temp_dir().join(format!(
        "farebox-not-a-folder-{}",
        farebox_server::table::token()
    ));
    std::fs::write(&file, b"").unwrap();
    let mut cfg = config(&["curbside"], 3);
    cfg.replays = Some(file.join("replays"));
    let err = match farebox_server::server::Server::start(cfg) {
        Ok(_) => panic!("the server started with a replays folder it cannot write"),
        Err(e) => e.to_string(),
    };
    assert!(err.contains("cannot be written to"), "{err}");
    let _ = std::fs::remove_file(&file);
}

#[test]
fn tables_of_bots_nobody_came_to_save_no_replay() {
    let dir = std::env::temp_dir().join(format!(
        "farebox-replays-bots-{}",
        farebox_server::table::token()
    ));
    let mut cfg = config(&["curbside"], 21);
    cfg.replays = Some(dir.clone());
    let server = start(cfg);
    let bots = table(&server, "curbside", &["random", "random"]);
    let watched = table(&server, "curbside", &["random", "random"]);
    let saved = |code: &str| {
        std::fs::read_dir(&dir).unwrap().flatten().any(|e| {
            e.file_name()
                .to_string_lossy()
                .contains(&format!("-{code}-"))
        })
    };
    // Both games play to their end (no seat is to act once a game is over) before anyone
    // comes: random bots can finish before any join arrives, so the watcher comes late on
    // purpose, and a table someone came to keeps its replay however late they came.
    let look = connect(&server);
    let t = Instant::now();
    for code in [&bots, &watched] {
        while look.look(code, WAIT).unwrap().2.iter().any(|s| s.to_act) {
            assert!(t.elapsed() < WAIT, "{code} did not finish");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    assert!(!saved(&watched), "a replay saved before anyone came");
    let c = connect(&server);
    c.join(&watched, None, "", None, WAIT).unwrap();
    while !saved(&watched) && t.elapsed() < WAIT {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(saved(&watched), "the watched table's replay was not saved");
    assert!(!saved(&bots), "a replay of a table nobody came to");
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_memory_budget_refuses_tables_past_it() {
    let mut cfg = strict(&["curbside"]);
    cfg.limits.memory =
        3 * farebox_server::guard::TABLE_BYTES + 2 * farebox_server::guard::CONN_BYTES;
    let server = start(cfg);
    let mut a = ws_from(server.addr(), "127.0.0.18").await.unwrap();
    for _ in 0..3 {
        create_on(&mut a, "curbside", &["person", "random"])
            .await
            .unwrap();
    }
    let why = create_on(&mut a, "curbside", &["person", "random"])
        .await
        .unwrap_err();
    assert!(why.contains("no room for another table"), "{why}");
    tokio::task::spawn_blocking(move || drop(server))
        .await
        .unwrap();
}
