//! A hostile client: malformed and huge messages, actions out of turn or for another seat, a
//! flood of messages, a reader that does not read. Each offender is disconnected with a reason
//! it is told, the server stays up, and a game at another table goes on untouched meanwhile.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::time::Duration;

use common::*;
use farebox_server::client::AsyncConn;
use farebox_server::protocol::{ClientMsg, ServerMsg};

/// Reads until the server says goodbye (its reason) or closes without one (None).
async fn bye(c: &mut AsyncConn) -> Option<String> {
    let read = async {
        while let Some(t) = c.recv_text().await {
            if let Ok(ServerMsg::Bye { reason }) = serde_json::from_str(&t) {
                return Some(reason);
            }
        }
        None
    };
    tokio::time::timeout(WAIT, read)
        .await
        .expect("the server did not end the connection")
}

/// Reads messages until one `want` accepts.
async fn until(c: &mut AsyncConn, want: impl Fn(&ServerMsg) -> bool) -> ServerMsg {
    let read = async {
        loop {
            let m = c.recv().await.expect("closed");
            if want(&m) {
                return m;
            }
        }
    };
    tokio::time::timeout(WAIT, read).await.expect("no answer")
}

async fn conn(addr: &str) -> AsyncConn {
    let mut c = AsyncConn::connect(addr).await.unwrap();
    until(&mut c, |m| matches!(m, ServerMsg::Welcome { .. })).await;
    c
}

async fn join(c: &mut AsyncConn, code: &str, seat: Option<u8>) -> ServerMsg {
    c.send(&ClientMsg::Join {
        code: code.into(),
        seat,
        name: String::new(),
        content_hash: None,
    })
    .await
    .unwrap();
    until(c, |m| matches!(m, ServerMsg::Update(_))).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_clients_are_cut_off_and_nobody_else_notices() {
    let mut cfg = config(&["curbside"], 9);
    // The defaults' limits, but a short outbound queue, so a reader that does not read
    // is found soon.
    let defaults = farebox_server::server::ServerConfig::new(cfg.addr, vec![]);
    cfg.rate = defaults.rate;
    cfg.burst = defaults.burst;
    cfg.queue = 8;
    let server = start(cfg);
    let addr = server.addr().to_string();

    // A person plays a whole game at a table of their own meanwhile, at a person's pace.
    let quiet = table(&server, "curbside", &["person", "random"]);
    let a2 = addr.clone();
    let bystander = std::thread::spawn(move || {
        let c = farebox_server::client::Client::connect(&a2, WAIT).unwrap();
        c.join(&quiet, Some(0), "", None, WAIT).unwrap();
        let mut t = 0;
        play_out(&c, |_, n| {
            t += 1;
            std::thread::sleep(Duration::from_millis(8));
            spread(t, n)
        })
    });

    // Malformed messages: each answered, the fifth ends the connection.
    let mut c = conn(&addr).await;
    for bad in [
        "{",
        "[1,2,3]",
        r#"{"type":"fly"}"#,
        r#"{"type":"act","number":"x","action":1}"#,
        r#"{"type":"act","number":1,"action":"a","seat":1}"#,
    ] {
        c.send_text(bad.into()).await.unwrap();
    }
    for _ in 0..4 {
        let m = until(&mut c, |m| matches!(m, ServerMsg::Error { .. })).await;
        let ServerMsg::Error { reason } = m else {
            unreachable!()
        };
        assert!(reason.starts_with("not a Farebox message"), "{reason}");
    }
    let why = bye(&mut c).await.unwrap();
    assert!(why.contains("malformed"), "{why}");

    // A huge message.
    let mut c = conn(&addr).await;
    let huge = format!(r#"{{"type":"join","code":"{}"}}"#, "A".repeat(100 * 1024));
    let _ = c.send_text(huge).await;
    let why = bye(&mut c).await.unwrap();
    assert!(why.contains("larger than 16 KiB"), "{why}");

    // Actions out of turn, for another seat, and with no seat.
    let code = table(&server, "curbside", &["person", "person"]);
    let mut first = conn(&addr).await;
    let mut second = conn(&addr).await;
    let mut watcher = conn(&addr).await;
    let ServerMsg::Update(u) = join(&mut first, &code, Some(0)).await else {
        unreachable!()
    };
    let ServerMsg::Update(u2) = join(&mut second, &code, Some(1)).await else {
        unreachable!()
    };
    assert!(
        u2.offered.is_empty(),
        "seat 2 is shown no actions of seat 1"
    );
    join(&mut watcher, &code, None).await;
    // Seat 1 is to act; seat 2 sends seat 1's own action (it learned it somehow).
    let theirs = u.offered[0].action.clone();
    for (c, says) in [(&mut second, "not your turn"), (&mut watcher, "no seat")] {
        c.send(&ClientMsg::Act {
            number: u.number,
            action: theirs.clone(),
        })
        .await
        .unwrap();
        let ServerMsg::Refused { reason, .. } =
            until(c, |m| matches!(m, ServerMsg::Refused { .. })).await
        else {
            unreachable!()
        };
        assert!(reason.contains(says), "{reason}");
        let ServerMsg::Update(again) = until(c, |m| matches!(m, ServerMsg::Update(_))).await else {
            unreachable!()
        };
        assert!(again.resync && again.offered.is_empty());
    }
    // An action never offered, by the seat to act.
    first
        .send(&ClientMsg::Act {
            number: u.number,
            action: "take everything".into(),
        })
        .await
        .unwrap();
    let ServerMsg::Refused { reason, .. } =
        until(&mut first, |m| matches!(m, ServerMsg::Refused { .. })).await
    else {
        unreachable!()
    };
    assert!(reason.contains("not among the actions offered"), "{reason}");
    // Seat 2 keeps at it: cut off at its eighth refusal (it has had one).
    for _ in 0..6 {
        second
            .send(&ClientMsg::Act {
                number: u.number,
                action: theirs.clone(),
            })
            .await
            .unwrap();
        until(
            &mut second,
            |m| matches!(m, ServerMsg::Update(x) if x.resync),
        )
        .await;
    }
    second
        .send(&ClientMsg::Act {
            number: u.number,
            action: theirs.clone(),
        })
        .await
        .unwrap();
    let why = bye(&mut second).await.unwrap();
    assert!(why.contains("refused"), "{why}");
    // The table goes on for its first seat.
    first
        .send(&ClientMsg::Act {
            number: u.number,
            action: theirs.clone(),
        })
        .await
        .unwrap();
    until(
        &mut first,
        |m| matches!(m, ServerMsg::Update(x) if x.number == u.number + 1),
    )
    .await;

    // A flood (of messages the server answers with nothing, so that it is the rate limit
    // and not the outbound queue that ends it).
    let mut c = conn(&addr).await;
    join(&mut c, &code, None).await;
    for _ in 0..2000 {
        if c.send(&ClientMsg::Leave).await.is_err() {
            break;
        }
    }
    let why = bye(&mut c).await.unwrap();
    assert!(why.contains("messages a second"), "{why}");

    // A reader that does not read: it asks for the whole view again and again (slowly
    // enough for the rate limit) and reads nothing, until its queue overflows.
    let mut c = conn(&addr).await;
    join(&mut c, &code, None).await;
    let mut ended = false;
    for _ in 0..4000 {
        if c.send(&ClientMsg::Resync).await.is_err() {
            ended = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(11)).await;
    }
    let why = bye(&mut c).await;
    assert!(
        ended || why.as_ref().is_some_and(|w| w.contains("too slowly")),
        "{why:?}"
    );
    if let Some(why) = why {
        assert!(why.contains("too slowly"), "{why}");
    }

    // The server is up and the bystander's game was untouched.
    let taken = tokio::task::spawn_blocking(move || bystander.join().unwrap())
        .await
        .unwrap();
    assert!(taken > 0);
    let mut c = conn(&addr).await;
    join(&mut c, &code, None).await;
}
