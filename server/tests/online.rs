//! Loopback tests of online play: whole games of every bundled game with a person driven by
//! the test, bots and a spectator; the records after the game; a stale action and its resync;
//! a person who drops out, is stood in for by a bot, and comes back with their token; a
//! client with other content; the log of a client that joins late or comes back, and its
//! bound.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::time::Duration;

use common::*;
use farebox::replay::{Replay, seat_transcript, verify};
use farebox_server::client::Event;
use farebox_server::protocol::{
    ClientMsg, DownloadKind, LOG_KEPT, ServerMsg, Sitter, TableBoard, Told,
};

#[test]
fn whole_games_of_every_bundled_game() {
    let games = games();
    let ids: Vec<&str> = games.iter().map(String::as_str).collect();
    let server = start(config(&ids, 11));
    for id in ids {
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
        let result = l.view().unwrap().result.clone().unwrap();
        // The spectator sees the same end, never an offered action.
        wait_until(&watcher, "the watcher's last view", |w| {
            w.number == l.number
        });
        let wl = watcher.latest();
        assert_eq!(wl.view().unwrap().result.as_ref(), Some(&result));
        assert!(wl.offered().is_empty());
        assert_eq!(wl.seats()[0].player.as_deref(), Some("Ada"));
        assert_eq!(wl.seats()[1].kind, Sitter::Bot);
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
    wait_until(&c, "the first offer", |l| !l.offered().is_empty());
    let l = c.latest();
    let stale = l.number + 5;
    c.send(ClientMsg::Act {
        number: stale,
        action: l.offered()[0].action.clone(),
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
    assert_eq!(u.offered, l.offered(), "the same offer again");
    // The game went on from there, untouched: the right number is taken.
    c.act(&l.offered()[0].action);
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
    wait_until(&person, "the person's turn", |l| !l.offered().is_empty());
    let at = person.latest().number;
    let dropped = std::time::Instant::now();
    drop(person);
    // Gone: the watcher sees the seat disconnected, the game waits through the grace period,
    // then a bot plays the seat.
    wait_until(&watcher, "the seat shown disconnected", |l| {
        l.seats().first().is_some_and(|s| !s.connected)
    });
    assert_eq!(watcher.latest().number, at, "the game waits for the person");
    wait_until(&watcher, "a bot standing in", |l| {
        l.seats().first().is_some_and(|s| s.bot.is_some()) || l.number > at
    });
    // Not before the grace period is over (the server heard of the drop after `dropped`).
    let waited = dropped.elapsed();
    assert!(
        waited >= Duration::from_millis(300),
        "a bot stood in after {waited:?}, within the grace period"
    );
    wait_until(&watcher, "the bot playing on", |l| l.number > at + 3);
    // Back with the token: the seat is theirs again, the bot hands it back.
    let back = connect(&server);
    let again = back.rejoin(&code, &token, None, WAIT).unwrap();
    assert_eq!(again.seat, Some(0));
    wait_until(&back, "the seat handed back", |l| {
        l.seats()
            .first()
            .is_some_and(|s| s.connected && s.bot.is_none())
    });
    if back.latest().view().is_some_and(|v| v.result.is_none()) {
        wait_until(&back, "the person's turn again", |l| {
            !l.offered().is_empty() || l.over()
        });
        let n = back.latest().number;
        let wait = std::time::Instant::now();
        while wait.elapsed() < Duration::from_millis(600) {
            back.next_event(Duration::from_millis(50));
        }
        if !back.latest().offered().is_empty() {
            assert_eq!(
                back.latest().number,
                n,
                "no bot plays a seat its person holds"
            );
        }
    }
    // The token from another connection: the seat moves there, the older one is ended.
    let twin = connect(&server);
    assert_eq!(
        twin.rejoin(&code, &token, None, WAIT).unwrap().seat,
        Some(0)
    );
    wait_until(&back, "the older connection ended", |l| {
        l.closed
            .as_deref()
            .is_some_and(|r| r.contains("joined this seat again"))
    });
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
    assert_eq!(seats[0].kind, Sitter::Open);
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
        // Analysis only (`farebox sim --hidden-value`): it would read the person's secrets.
        (vec!["person", "search-sees-all:10"], "never takes a seat"),
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

/// Whether two boards are the same, positions to within a billionth (a number read back from
/// JSON may differ in its last bit).
fn same_board(a: &Option<TableBoard>, b: &Option<TableBoard>) -> bool {
    let near = |x: f64, y: f64| (x - y).abs() < 1e-9;
    let (Some(a), Some(b)) = (a, b) else {
        return a.is_none() && b.is_none();
    };
    let track = match (&a.track, &b.track) {
        (None, None) => true,
        (Some(s), Some(t)) => {
            s.laid.len() == t.laid.len()
                && s.laid.iter().zip(&t.laid).all(|(p, q)| {
                    (p.piece, p.heading, p.lanes, p.rows, p.turn, p.first_space)
                        == (q.piece, q.heading, q.lanes, q.rows, q.turn, q.first_space)
                        && (p.forced, p.removed) == (q.forced, q.removed)
                        && near(p.x, q.x)
                        && near(p.y, q.y)
                })
                && near(s.end.0, t.end.0)
                && near(s.end.1, t.end.1)
                && s.end.2 == t.end.2
                && near(s.table.0, t.table.0)
                && near(s.table.1, t.table.1)
                && near(s.clearance, t.clearance)
        }
        _ => false,
    };
    track
        && a.edges == b.edges
        && a.arrangement == b.arrangement
        && a.spaces.len() == b.spaces.len()
        && a.spaces
            .iter()
            .zip(&b.spaces)
            .all(|(s, t)| s.id == t.id && s.name == t.name && near(s.x, t.x) && near(s.y, t.y))
}

#[test]
fn the_board_a_client_holds_is_the_tables_after_every_action() {
    // Dicey Curves' track grows as the race goes: every update a watcher gets leaves it
    // holding the board as it lies on the table at that action number (sent whole with the
    // first view, again after every action that changed it). A grid's board is never sent
    // (its tiles are in the view), nor one of a game without a board.
    let server = start(config(&["dicey-curves", "curbside", "wheres-my-ride"], 31));
    for id in ["dicey-curves", "curbside", "wheres-my-ride"] {
        let def = load(id);
        let code = table(&server, id, &["person", "random"]);
        let watcher = connect(&server);
        watcher.join(&code, None, "", None, WAIT).unwrap();
        // A whole view asked for at once: from it on, the watcher's updates are followed.
        watcher.resync();
        let person = connect(&server);
        person.join(&code, Some(0), "", None, WAIT).unwrap();
        play_out(&person, spread);
        let end = person.latest().number;
        watcher.resync();
        // The watcher's updates, in order: the board it holds after each.
        let mut held: Option<Option<TableBoard>> = None;
        let mut boards: Vec<(u64, Option<TableBoard>)> = vec![];
        loop {
            match watcher.next_event(WAIT) {
                Some(Event::Msg(ServerMsg::Update(u))) => {
                    if u.resync {
                        if id == "dicey-curves" {
                            assert!(u.board.is_some(), "a whole view carries the board");
                        }
                        held = Some(u.board.clone());
                    } else if let (Some(h), Some(b)) = (held.as_mut(), &u.board) {
                        *h = Some(b.clone());
                    }
                    if let Some(h) = &held {
                        boards.push((u.number, h.clone()));
                    }
                    if u.number == end && u.resync {
                        break;
                    }
                }
                Some(_) => {}
                None => panic!("{id}: the watcher heard nothing"),
            }
        }
        let replay =
            Replay::from_json(&person.download(DownloadKind::Replay, WAIT).unwrap()).unwrap();
        let mut g = farebox::game::Game::new(def.clone(), replay.setup.clone()).unwrap();
        let mut at = 0;
        let mut changed = 0;
        let start = TableBoard::of(&def, &g.state().board);
        for (n, board) in &boards {
            while at < *n {
                g.apply(&replay.steps[at as usize].action).unwrap();
                at += 1;
            }
            let now = TableBoard::of(&def, &g.state().board);
            let laid = |b: &Option<TableBoard>| {
                b.as_ref()
                    .map(|b| (b.spaces.len(), b.track.as_ref().map(|t| t.laid.len())))
            };
            assert!(
                same_board(board, &now),
                "{id}: the board held at action {n} (spaces, laid cards): {:?}, the table's: {:?}",
                laid(board),
                laid(&now)
            );
            if now != start {
                changed += 1;
            }
        }
        match id {
            "dicey-curves" => assert!(changed > 0, "the track never grew: nothing was checked"),
            _ => assert!(boards.iter().all(|(_, b)| b.is_none()), "{id}"),
        }
    }
}

#[test]
fn a_seats_own_record_is_its_own() {
    // The person sits in the second seat: the record it downloads is that seat's transcript,
    // not the first seat's (which shows other cards in hand).
    let server = start(config(&["curbside"], 13));
    let def = load("curbside");
    let code = table(&server, "curbside", &["random", "person"]);
    let person = connect(&server);
    person.join(&code, Some(1), "", None, WAIT).unwrap();
    play_out(&person, spread);
    let text = person.download(DownloadKind::Replay, WAIT).unwrap();
    let replay = Replay::from_json(&text).unwrap();
    let mine = person.download(DownloadKind::Seat, WAIT).unwrap();
    let second = seat_transcript(&def, &replay, 1).unwrap().join("\n") + "\n";
    let first = seat_transcript(&def, &replay, 0).unwrap().join("\n") + "\n";
    assert_ne!(first, second, "the seats' records differ");
    assert_eq!(mine, second);
}

#[test]
fn finished_games_replays_are_saved_whole_on_disk() {
    let dir = std::env::temp_dir().join(format!(
        "farebox-replays-{}",
        farebox_server::table::token()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let mut cfg = config(&["curbside", "critter-cab"], 17);
    cfg.replays = Some(dir.clone());
    let server = start(cfg);
    for id in ["curbside", "critter-cab"] {
        let code = table(&server, id, &["person", "random"]);
        let person = connect(&server);
        person.join(&code, Some(0), "", None, WAIT).unwrap();
        // Nothing is saved while the game runs.
        assert!(
            std::fs::read_dir(&dir)
                .unwrap()
                .flatten()
                .all(|e| !e.file_name().to_string_lossy().contains(&code)),
            "{id}: a replay before the end"
        );
        play_out(&person, spread);
        let downloaded = person.download(DownloadKind::Replay, WAIT).unwrap();
        let files: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                p.file_name()
                    .is_some_and(|n| n.to_string_lossy().contains(&format!("-{code}-")))
            })
            .collect();
        assert_eq!(files.len(), 1, "{id}: {files:?}");
        let name = files[0].file_name().unwrap().to_string_lossy().to_string();
        assert!(name.starts_with(&format!("{id}-{code}-")) && name.ends_with(".json"));
        let text = std::fs::read_to_string(&files[0]).unwrap();
        assert_eq!(
            text, downloaded,
            "{id}: the saved replay is the one downloaded"
        );
        let replay = Replay::from_json(&text).unwrap();
        verify(&load(id), &replay).unwrap();
        assert!(replay.result.is_some());
    }
    // No half-written file is left behind.
    let left: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    drop(server);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Plays the person's seat until the table is at action `n` or more and waits for the
/// person's turn (the table then stands still: the bot waits for the person).
fn play_to(c: &farebox_server::client::Client, n: u64) {
    let mut acted_at = None;
    let mut taken = 0;
    loop {
        let l = c.latest();
        assert!(
            l.view().is_some_and(|v| v.result.is_none()),
            "over before {n}"
        );
        if !l.offered().is_empty() && acted_at != Some(l.number) {
            if l.number >= n {
                return;
            }
            acted_at = Some(l.number);
            c.act(&l.offered()[spread(taken, l.offered().len())].action);
            taken += 1;
        }
        c.next_event(Duration::from_millis(50));
    }
}

/// The actions' lines of a log.
fn actions(log: &[Told]) -> Vec<(u64, u8, String)> {
    log.iter()
        .filter_map(|t| match t {
            Told::Action {
                number,
                seat,
                label,
                ..
            } => Some((*number, *seat, label.clone())),
            Told::Line(_) => None,
        })
        .collect()
}

/// A client that joins a table late, and one that comes back to its seat with its token,
/// hold the log of a client at the table all along: each action's line as their seat was
/// shown it live (the person's own words for its own actions, the public ones for the
/// bot's), the rules' lines after it, in order; and the late one goes on adding to it as the
/// one there all along does.
#[test]
fn a_late_or_returning_client_reads_the_log_of_one_there_all_along() {
    let server = start(config(&["curbside"], 17));
    let code = table(&server, "curbside", &["person", "random"]);
    let watcher = connect(&server);
    watcher.join(&code, None, "", None, WAIT).unwrap();
    let person = connect(&server);
    let token = person
        .join(&code, Some(0), "Ann", None, WAIT)
        .unwrap()
        .token
        .unwrap();
    play_to(&person, 30);
    let at = person.latest().number;
    wait_until(&watcher, "the watcher at the same action", |l| {
        l.number == at
    });
    let (mine, seen) = (
        person.latest().told().to_vec(),
        watcher.latest().told().to_vec(),
    );
    assert_eq!(actions(&seen).len() as u64, at, "every action has its line");
    assert!(
        seen.iter().any(|t| matches!(t, Told::Line(_))),
        "the rules' lines"
    );
    // The person's own words for its own actions differ from what the watcher was told for
    // some of them (Curbside names the card played only to its player).
    let own = actions(&mine)
        .iter()
        .zip(actions(&seen))
        .filter(|(m, s)| m.1 == 0 && m.2 != s.2)
        .count();
    assert!(
        own > 0,
        "no label of the person's own differs from the public one"
    );
    // A watcher joining now.
    let late = connect(&server);
    late.join(&code, None, "", None, WAIT).unwrap();
    assert_eq!(late.latest().number, at);
    assert_eq!(
        late.latest().told().to_vec(),
        seen,
        "the late watcher's log"
    );
    // The person, back on a new connection with the token (the old one is ended).
    let back = connect(&server);
    back.rejoin(&code, &token, None, WAIT).unwrap();
    assert_eq!(back.latest().number, at);
    assert_eq!(
        back.latest().told().to_vec(),
        mine,
        "the returning person's log"
    );
    // The game goes on: the late watcher's log grows as the first watcher's does.
    let taken = play_out(&back, spread);
    assert!(taken > 0);
    let end = back.latest().number;
    wait_until(&watcher, "the end", |l| l.number == end);
    wait_until(&late, "the end", |l| l.number == end);
    assert_eq!(
        late.latest().told().to_vec(),
        watcher.latest().told().to_vec(),
        "after the game"
    );
    assert!(watcher.latest().told().to_vec().len() <= LOG_KEPT);
}

/// A whole view carries at most the newest `LOG_KEPT` entries of the log, and a client there
/// all along keeps the same: a watcher joining after a long game reads the same log as one
/// who watched it all.
#[test]
fn a_long_games_log_is_sent_bounded() {
    let server = start(config(&["taxi-derby"], 29));
    let code = table(
        &server,
        "taxi-derby",
        &["person", "random", "random", "random"],
    );
    let watcher = connect(&server);
    watcher.join(&code, None, "", None, WAIT).unwrap();
    let person = connect(&server);
    person.join(&code, Some(0), "Ann", None, WAIT).unwrap();
    play_out(&person, spread);
    let end = person.latest().number;
    wait_until(&watcher, "the end", |l| l.number == end);
    let seen = watcher.latest().told().to_vec();
    eprintln!("{end} actions, {} entries kept", seen.len());
    assert_eq!(seen.len(), LOG_KEPT, "a game longer than the log keeps");
    let late = connect(&server);
    late.join(&code, None, "", None, WAIT).unwrap();
    assert_eq!(late.latest().told().to_vec(), seen);
    // The whole view itself carries no more.
    late.resync();
    let m = late
        .wait_for(WAIT, |m| matches!(m, ServerMsg::Update(u) if u.resync))
        .unwrap();
    let ServerMsg::Update(u) = m else {
        unreachable!()
    };
    assert_eq!(u.told, seen, "the whole view's log");
    assert!(u.view.log.is_empty());
}
