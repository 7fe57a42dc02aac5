//! Loopback tests of online play: whole games of every bundled game with a person driven by
//! the test, bots and a spectator; the records after the game; a stale action and its resync;
//! a person who drops out, is stood in for by a bot, and comes back with their token; a
//! client with other content.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::time::Duration;

use common::*;
use farebox::replay::{Replay, seat_transcript, verify};
use farebox_server::protocol::{ClientMsg, DownloadKind, SeatKind, ServerMsg};

#[test]
fn whole_games_of_every_bundled_game() {
    let server = start(config(&GAMES, 11));
    for id in GAMES {
        let def = load(id);
        let n = def.players.0.max(2) as usize;
        let mut seats = vec!["person"];
        seats.extend(std::iter::repeat_n("random", n - 1));
        let code = table(&server, id, &seats);
        let watcher = connect(&server);
        let w = watcher.join(&code, None, "", None, WAIT).unwrap();
        assert_eq!(w.seat, None);
        assert_eq!(w.token, None);
        let person = connect(&server);
        let p = person
            .join(&code, Some(0), "Ada", Some(&def.content_hash), WAIT)
            .unwrap();
        assert_eq!(p.seat, Some(0));
        assert_eq!(p.mod_id, id);
        assert!(p.token.as_ref().is_some_and(|t| t.len() == 32));
        // Before the end there is no record to download.
        person.send(ClientMsg::Download {
            what: DownloadKind::Replay,
        });
        let e = person
            .wait_for(WAIT, |m| matches!(m, ServerMsg::Download { .. }))
            .unwrap_err();
        assert!(e.contains("still being played"), "{e}");
        let taken = play_out(&person, spread);
        assert!(taken > 0, "{id}: the person never acted");
        let l = person.latest();
        let result = l.view.as_ref().unwrap().result.clone().unwrap();
        // The spectator sees the same end, never an offered action.
        wait_until(&watcher, "the watcher's last view", |w| {
            w.number == l.number
        });
        let wl = watcher.latest();
        assert_eq!(wl.view.as_ref().unwrap().result.as_ref(), Some(&result));
        assert!(wl.offered.is_empty());
        assert_eq!(wl.seats[0].player.as_deref(), Some("Ada"));
        assert_eq!(wl.seats[1].kind, SeatKind::Bot);
        // The records: the whole replay verifies and ends the same; the seat's own record is
        // the seat's transcript of that replay.
        let text = person.download(DownloadKind::Replay, WAIT).unwrap();
        let replay = Replay::from_json(&text).unwrap();
        assert_eq!(replay.steps.len() as u64, l.number, "{id}");
        assert_eq!(replay.result.as_ref(), Some(&result));
        verify(&def, &replay).unwrap();
        let mine = person.download(DownloadKind::Seat, WAIT).unwrap();
        assert_eq!(
            mine,
            seat_transcript(&def, &replay, 0).unwrap().join("\n") + "\n"
        );
        let e = watcher.download(DownloadKind::Seat, WAIT).unwrap_err();
        assert!(e.contains("no seat"), "{e}");
        assert_eq!(watcher.download(DownloadKind::Replay, WAIT).unwrap(), text);
        eprintln!(
            "{id}: {} actions, {taken} by the person: {}",
            l.number, result.reason
        );
    }
}

#[test]
fn a_stale_action_is_refused_and_the_view_sent_again() {
    let server = start(config(&["curbside"], 5));
    let code = table(&server, "curbside", &["person", "random"]);
    let c = connect(&server);
    c.join(&code, Some(0), "", None, WAIT).unwrap();
    wait_until(&c, "the first offer", |l| !l.offered.is_empty());
    let l = c.latest();
    let stale = l.number + 5;
    c.send(ClientMsg::Act {
        number: stale,
        action: l.offered[0].action.clone(),
    });
    let refused = c
        .wait_for(WAIT, |m| matches!(m, ServerMsg::Refused { .. }))
        .unwrap();
    let ServerMsg::Refused { reason, number, .. } = refused else {
        unreachable!()
    };
    assert_eq!(number, l.number);
    assert!(
        reason.contains(&format!("sent at action {stale}")),
        "{reason}"
    );
    let resync = c
        .wait_for(WAIT, |m| matches!(m, ServerMsg::Update(_)))
        .unwrap();
    let ServerMsg::Update(u) = resync else {
        unreachable!()
    };
    assert!(u.resync);
    assert_eq!(u.number, l.number);
    assert_eq!(u.offered, l.offered, "the same offer again");
    // The game went on from there, untouched: the right number is taken.
    c.act(&l.offered[0].action);
    wait_until(&c, "the action taken", |x| x.number > l.number);
}

#[test]
fn a_person_who_drops_out_is_stood_in_for_and_comes_back() {
    let mut cfg = config(&["curbside"], 21);
    cfg.grace = Duration::from_millis(300);
    let server = start(cfg);
    let code = table(&server, "curbside", &["person", "random"]);
    let watcher = connect(&server);
    watcher.join(&code, None, "", None, WAIT).unwrap();
    let person = connect(&server);
    let seated = person.join(&code, Some(0), "Bo", None, WAIT).unwrap();
    let token = seated.token.unwrap();
    wait_until(&person, "the person's turn", |l| !l.offered.is_empty());
    let at = person.latest().number;
    drop(person);
    // Gone: the watcher sees the seat disconnected, the game waits through the grace period,
    // then a bot plays the seat.
    wait_until(&watcher, "the seat shown disconnected", |l| {
        l.seats.first().is_some_and(|s| !s.connected)
    });
    assert_eq!(watcher.latest().number, at, "the game waits for the person");
    wait_until(&watcher, "a bot standing in", |l| {
        l.seats.first().is_some_and(|s| s.bot.is_some()) || l.number > at
    });
    wait_until(&watcher, "the bot playing on", |l| l.number > at + 3);
    // Back with the token: the seat is theirs again, the bot hands it back.
    let back = connect(&server);
    let again = back.rejoin(&code, &token, None, WAIT).unwrap();
    assert_eq!(again.seat, Some(0));
    wait_until(&back, "the seat handed back", |l| {
        l.seats
            .first()
            .is_some_and(|s| s.connected && s.bot.is_none())
    });
    if back
        .latest()
        .view
        .as_ref()
        .is_some_and(|v| v.result.is_none())
    {
        wait_until(&back, "the person's turn again", |l| {
            !l.offered.is_empty() || l.view.as_ref().is_some_and(|v| v.result.is_some())
        });
        let n = back.latest().number;
        let wait = std::time::Instant::now();
        while wait.elapsed() < Duration::from_millis(600) {
            back.next_event(Duration::from_millis(50));
        }
        if !back.latest().offered.is_empty() {
            assert_eq!(
                back.latest().number,
                n,
                "no bot plays a seat its person holds"
            );
        }
    }
    // A wrong token is refused.
    let stranger = connect(&server);
    let e = stranger
        .rejoin(&code, "0123456789abcdef0123456789abcdef", None, WAIT)
        .unwrap_err();
    assert!(e.contains("no seat"), "{e}");
}

#[test]
fn a_client_with_other_content_is_told_so() {
    let server = start(config(&["curbside"], 3));
    let code = table(&server, "curbside", &["person", "random"]);
    let c = connect(&server);
    let e = c
        .join(&code, Some(0), "", Some("00ff00ff"), WAIT)
        .unwrap_err();
    assert!(e.contains("content hash"), "{e}");
    assert!(e.contains(&load("curbside").content_hash), "{e}");
    // And the seat is still open for the right content.
    let (mod_id, hash, seats) = c.look(&code, WAIT).unwrap();
    assert_eq!(mod_id, "curbside");
    assert_eq!(seats[0].kind, SeatKind::Open);
    c.join(&code, Some(0), "", Some(&hash), WAIT).unwrap();
}

#[test]
fn tables_are_made_over_the_wire_and_bad_requests_answered() {
    let server = start(config(&["curbside"], 3));
    let c = connect(&server);
    assert_eq!(c.latest().mods[0].id, "curbside");
    let code = c.create("curbside", &["person", "person"], WAIT).unwrap();
    assert_eq!(code.len(), 6);
    for (seats, says) in [
        (vec!["person"], "for 2 to"),
        (vec!["person", "search"], "playouts"),
        (vec!["person", "search:100000"], "at most"),
        (vec!["person", "nobot"], "no agent"),
    ] {
        let e = c.create("curbside", &seats, WAIT).unwrap_err();
        assert!(e.contains(says), "{seats:?}: {e}");
    }
    let e = c.create("chess", &["person", "person"], WAIT).unwrap_err();
    assert!(e.contains("does not serve"), "{e}");
    let e = c.join("NOPE42", Some(0), "", None, WAIT).unwrap_err();
    assert!(e.contains("no table"), "{e}");
    c.join(&code, Some(1), "", None, WAIT).unwrap();
    let other = connect(&server);
    let e = other.join(&code, Some(1), "", None, WAIT).unwrap_err();
    assert!(e.contains("taken"), "{e}");
    // Code letters are read aloud: any case joins.
    other
        .join(&code.to_lowercase(), Some(0), "", None, WAIT)
        .unwrap();
}
