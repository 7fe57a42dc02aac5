//! The Play tab online: a table hosted from the new-game dialog (a server in the Studio's
//! process) played to its end against a bot, and tables of a server started by the test
//! joined by address and code; the seats' status (a person gone, a bot standing in), a stale
//! action and its resync, a copy of the mod with other content, coming back to a seat with
//! its token, the board drawn as the server laid it (Taxi Derby's city, Dicey Curves'
//! track), and an action taken while the Studio joins logged once.

use std::sync::Arc;
use std::time::Duration;

use egui_kittest::kittest::Queryable;
use farebox::GameDef;
use farebox::source::{FolderResolver, FsSource};
use farebox_editor::studio::Studio;
use farebox_editor::studio::play::online::Online;
use farebox_server::client::Client;
use farebox_server::server::{Server, ServerConfig};
use farebox_server::table::TableSpec;

use super::*;

const WAIT: Duration = Duration::from_secs(20);

fn mods_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../mods")
}

fn load(folder: &Path) -> Arc<GameDef> {
    Arc::new(
        farebox::content::load_mod(&FsSource::new(folder), &FolderResolver::new(mods_dir()))
            .unwrap(),
    )
}

/// A server of the bundled Curbside, a person gone `grace` before a bot plays their seat.
fn server(grace: Duration) -> Server {
    server_of("curbside", grace, 9)
}

/// A server of the bundled mod `id`, its tables seeded from `seed`.
fn server_of(id: &str, grace: Duration, seed: u64) -> Server {
    let mut cfg = ServerConfig::new(
        "127.0.0.1:0".parse().unwrap(),
        vec![load(&mods_dir().join(id))],
    );
    cfg.grace = grace;
    cfg.seed = Some(seed);
    Server::start(cfg).unwrap()
}

fn table(server: &Server, seats: &[&str]) -> String {
    table_of(server, "curbside", seats)
}

fn table_of(server: &Server, id: &str, seats: &[&str]) -> String {
    server
        .create_table(TableSpec {
            mod_id: id.into(),
            seats: seats.iter().map(|s| s.to_string()).collect(),
            options: Default::default(),
            clock: None,
        })
        .unwrap()
}

fn online(s: &Studio) -> Option<&Online> {
    s.play.online()
}

fn seated(s: &Studio) -> bool {
    online(s).is_some_and(|o| o.seated().is_some() && o.snapshot().is_some() && !o.busy())
}

/// Types `text` into the field labelled `label`.
fn type_into(h: &mut H, label: &str, text: &str) {
    h.get_by_label(label).click();
    h.step();
    h.get_by_label(label).type_text(text);
    h.step();
}

/// A Studio on `spec` that joined `code` at `server` through the join form, in its first
/// open seat.
fn joined(spec: String, server: &Server, code: &str) -> H {
    let mut h = studio(spec);
    until(&mut h, "the new-game dialog", |s| s.play.in_dialog());
    h.get_by_label("Join online…").click();
    until(&mut h, "the join form", |s| online(s).is_some());
    type_into(&mut h, "Address", &server.addr().to_string());
    type_into(&mut h, "Table code", code);
    type_into(&mut h, "Your name", "Ann");
    h.get_by_label("Look at the table").click();
    until(&mut h, "the table looked at", h_has_join);
    h
}

fn h_has_join(s: &Studio) -> bool {
    online(s).is_some_and(|o| {
        !o.busy()
            && matches!(
                &o.stage,
                farebox_editor::studio::play::online::Stage::Form { looked: Some(_) }
            )
    })
}

fn join_seat(h: &mut H, label: &str) {
    h.get_by_label(label).click();
    until(h, "seated at the table", seated);
}

/// A Studio seated at a new table of `server` (seats as given), in the first seat.
fn seated_studio(server: &Server, seats: &[&str]) -> (H, String) {
    let code = table(server, seats);
    let mut h = joined("curbside".into(), server, &code);
    join_seat(&mut h, "Join as Yellow");
    (h, code)
}

/// Hosting from the dialog: the table's code and address show, the bot's seat is marked as
/// the bot's, and a whole game is played through the widgets to its end, whose records are
/// saved where the fields say.
#[test]
fn a_table_hosted_from_the_play_tab_is_played_to_its_end_against_a_bot() {
    let (dir, _) = copy_of("curbside");
    let mut h = studio("curbside".into());
    until(&mut h, "the new-game dialog", |s| s.play.in_dialog());
    h.get_by_label("Host online").click();
    until(&mut h, "the hosted table", seated);
    let (code, addr) = {
        let o = online(h.state().as_ref().unwrap()).unwrap();
        assert!(o.hosting());
        (o.seated().unwrap().code.clone(), o.addr.clone())
    };
    assert_eq!(code.len(), 6, "{code}");
    assert!(h.query_by_label(&code).is_some(), "the code is shown");
    assert!(h.query_by_label(&addr).is_some(), "the address is shown");
    assert!(
        addr.starts_with("127.0.0.1:") && !addr.ends_with(":0"),
        "{addr}"
    );
    assert!(h.query_by_label("Copy code").is_some());
    assert!(
        h.query_by_label_contains("you (").is_some(),
        "the seat played here is marked"
    );
    assert!(
        h.query_by_label_contains("played by the bot").is_some(),
        "the bot's seat is marked as a bot's"
    );
    let mut decisions = 0usize;
    for _ in 0..200_000 {
        h.step();
        let o = online(h.state().as_ref().unwrap()).unwrap();
        let Some(snap) = o.snapshot() else { continue };
        if snap.result().is_some() {
            break;
        }
        if snap.offered.is_empty() {
            std::thread::sleep(Duration::from_millis(1));
            continue;
        }
        let labels: Vec<String> = snap.offered.iter().map(|o| o.label.clone()).collect();
        let number = o.number();
        let pick = if decisions % 3 == 2 {
            labels.iter().find(|l| l.as_str() == "End your turn")
        } else {
            None
        }
        .or_else(|| {
            labels
                .iter()
                .cycle()
                .skip(decisions % labels.len())
                .take(labels.len())
                .find(|l| h.query_by_label(l).is_some())
        })
        .cloned()
        .expect("an offered action shown as a widget");
        // The button may lie below the list's visible part: clicked as a screen reader
        // would, after the pointer moved (a click on a list that just changed waits for it).
        let button = h.get_by_label(&pick);
        button.hover();
        button.click_accesskit();
        decisions += 1;
        until(&mut h, "the action taken", |s| {
            online(s).is_some_and(|o| o.number() > number)
        });
    }
    let result = {
        let o = online(h.state().as_ref().unwrap()).unwrap();
        o.snapshot()
            .unwrap()
            .result()
            .cloned()
            .expect("the game ended")
    };
    assert!(decisions > 5, "only {decisions} decisions");
    // Where moves changed the board comes with each action told, for the board to mark.
    let marked = online(h.state().as_ref().unwrap())
        .unwrap()
        .snapshot()
        .unwrap()
        .moves
        .iter()
        .filter(|m| !m.spaces.is_empty())
        .count();
    assert!(marked > 0, "no move marked on the board");
    settle(&mut h);
    assert!(h.query_by_label("Game over").is_some());
    assert!(h.query_by_label(&result.reason).is_some());
    // The records: this seat's view and the whole replay, saved where the fields say.
    let mine = dir.join("mine.txt");
    let replay = dir.join("all.replay.json");
    {
        let o = h.state_mut().as_mut().unwrap().play.online_mut().unwrap();
        o.seat_path = mine.display().to_string();
        o.replay_path = replay.display().to_string();
    }
    settle(&mut h);
    assert!(h.query_by_label("My view file").is_some());
    h.get_by_label("Save my view of the game").click();
    until(&mut h, "my view saved", |s| {
        online(s).is_some_and(|o| o.saved.len() == 1 && !o.busy())
    });
    settle(&mut h);
    assert!(
        h.query_by_label(&format!("Saved to {}", mine.display()))
            .is_some()
    );
    h.get_by_label("Save the whole replay").click();
    until(&mut h, "the replay saved", |s| {
        online(s).is_some_and(|o| {
            !o.busy()
                && o.saved.len() == 2
                && o.saved
                    .last()
                    .is_some_and(|p| p.ends_with("all.replay.json"))
        })
    });
    settle(&mut h);
    for f in [&mine, &replay] {
        assert!(
            h.query_by_label(&format!("Saved to {}", f.display()))
                .is_some(),
            "where {} went is said",
            f.display()
        );
    }
    let text = std::fs::read_to_string(&mine).unwrap();
    assert!(text.lines().count() > 5, "{text}");
    let code = farebox_editor::run(
        vec![
            "farebox".into(),
            "replay".into(),
            replay.display().to_string(),
        ],
        &mut std::io::empty(),
        &mut std::io::sink(),
        &mut std::io::sink(),
    );
    assert_eq!(code, 0, "the downloaded replay does not replay");
    // Leaving stops the server here: nothing answers at its address any more.
    h.get_by_label("Leave the table").click();
    until(&mut h, "the dialog again", |s| {
        online(s).is_none() && s.play.in_dialog()
    });
    let mut refused = false;
    for _ in 0..300 {
        if Client::connect(&addr, Duration::from_secs(1)).is_err() {
            refused = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(refused, "the server still answers after leaving");
    let _ = std::fs::remove_dir_all(dir);
}

/// Joining by address and code: the seats are shown as the server tells them, who is to act
/// and which seat is this Studio's; another person's seat shows them connected, then gone,
/// then played by a bot until they return.
#[test]
fn a_table_is_joined_by_address_and_code_and_a_seat_a_bot_took_over_shows_so() {
    let server = server(Duration::from_millis(300));
    let (mut h, code) = seated_studio(&server, &["person", "person"]);
    let other = Client::connect(&server.addr().to_string(), WAIT).unwrap();
    other.join(&code, Some(1), "Tess", None, WAIT).unwrap();
    until(&mut h, "Tess shown connected", |s| {
        online(s).is_some_and(|o| o.seats().get(1).is_some_and(|t| t.connected))
    });
    settle(&mut h);
    assert!(h.query_by_label(&code).is_some());
    assert!(h.query_by_label("Tess, connected").is_some());
    assert!(h.query_by_label("you (Ann, connected)").is_some());
    assert!(h.query_by_label("to act").is_some());
    drop(other);
    until(&mut h, "a bot standing in for Tess", |s| {
        online(s).is_some_and(|o| o.seats().get(1).is_some_and(|t| t.bot.is_some()))
    });
    settle(&mut h);
    let shown = h
        .query_by_label_contains("Tess dropped out: played by")
        .expect("the stand-in bot shown");
    let text = format!("{shown:?}");
    assert!(text.contains("until they return"), "{text}");
    assert!(h.query_by_label("Tess, connected").is_none());
}

/// An action sent from a screen older than the table is refused, and the screen says so and
/// shows the game as it is now.
#[test]
fn a_stale_action_shows_the_resync() {
    let server = server(Duration::from_secs(30));
    let (mut h, _) = seated_studio(&server, &["person", "random"]);
    until(&mut h, "actions offered", |s| {
        online(s).is_some_and(|o| !o.offered().is_empty())
    });
    // One action through the screen; then one sent as if from the screen before it.
    let (label, before) = {
        let o = online(h.state().as_ref().unwrap()).unwrap();
        let snap = o.snapshot().unwrap();
        (snap.offered[0].label.clone(), o.number())
    };
    h.get_by_label(&label).click();
    until(&mut h, "the action taken", |s| {
        online(s).is_some_and(|o| o.number() > before && !o.offered().is_empty())
    });
    let now = online(h.state().as_ref().unwrap()).unwrap().number();
    {
        let o = h.state_mut().as_mut().unwrap().play.online_mut().unwrap();
        let action = o.offered()[0].action.clone();
        o.act_at(before, &action);
    }
    until(&mut h, "the resync", |s| {
        online(s).is_some_and(|o| {
            o.resynced
                .as_deref()
                .is_some_and(|r| r.contains("Resynced"))
        })
    });
    settle(&mut h);
    let shown = h
        .query_by_label_contains("The server refused your action")
        .expect("the refusal shown");
    let text = format!("{shown:?}");
    assert!(text.contains(&format!("sent at action {before}")), "{text}");
    assert!(
        text.contains(&format!(
            "Resynced: the game is shown as it is now, at action {now}"
        )),
        "{text}"
    );
    assert_eq!(online(h.state().as_ref().unwrap()).unwrap().number(), now);
    // A game online is a game in progress: opening another mod or forking asks first.
    assert_eq!(
        h.state().as_ref().unwrap().play.in_progress(),
        Some(now as usize)
    );
}

/// A Studio whose copy of the mod differs from the server's is told so, in words naming the
/// mod, and is not seated.
#[test]
fn a_copy_of_the_mod_with_other_content_is_told_so() {
    let server = server(Duration::from_secs(30));
    let code = table(&server, &["person", "random"]);
    let (dir, folder) = copy_of("curbside");
    let manifest = folder.join("mod.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(
        &manifest,
        text.replace("name = \"Curbside\"", "name = \"Curbside (my edit)\""),
    )
    .unwrap();
    let mut h = joined(folder.display().to_string(), &server, &code);
    assert!(
        h.query_by_label_contains("is not the copy open here")
            .is_some()
    );
    h.get_by_label("Join as Yellow").click();
    until(&mut h, "the refusal", |s| {
        online(s).is_some_and(|o| !o.busy() && o.problem.is_some())
    });
    settle(&mut h);
    let shown = h
        .query_by_label_contains("its files differ from the server's")
        .expect("the mismatch shown");
    let text = format!("{shown:?}");
    assert!(text.contains("(mod `curbside`)"), "{text}");
    assert!(
        online(h.state().as_ref().unwrap())
            .unwrap()
            .seated()
            .is_none()
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// A dropped connection offers to come back to the seat with its token, and does.
#[test]
fn a_dropped_seat_is_taken_back_with_rejoin() {
    let server = server(Duration::from_secs(30));
    let (mut h, code) = seated_studio(&server, &["person", "random"]);
    let token = online(h.state().as_ref().unwrap())
        .unwrap()
        .seated()
        .unwrap()
        .token
        .clone()
        .unwrap();
    // The seat taken from another connection ends this one.
    let other = Client::connect(&server.addr().to_string(), WAIT).unwrap();
    other.rejoin(&code, &token, None, WAIT).unwrap();
    until(&mut h, "the drop", |s| {
        online(s).is_some_and(|o| o.closed.is_some())
    });
    settle(&mut h);
    assert!(
        h.query_by_label_contains("Disconnected from the table")
            .is_some()
    );
    h.get_by_label("Rejoin").click();
    until(&mut h, "back at the seat", |s| {
        seated(s) && online(s).is_some_and(|o| o.closed.is_none())
    });
    settle(&mut h);
    assert!(h.query_by_label_contains("Disconnected").is_none());
    assert!(h.query_by_label("you (Ann, connected)").is_some());
    for _ in 0..500 {
        if other.latest().closed.is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(
        other.latest().closed.is_some(),
        "the other connection was not ended"
    );
}

/// Waits until this Studio's seat has actions online, and checks the board is drawn as the
/// local game draws it: no banner saying the layout is missing, every space an offered action
/// names is a button on the board named as the action names it, and written on the board (a
/// track's by the plate of its card). Returns how many spaces were checked.
fn board_drawn_online(h: &mut H, game: &str) -> usize {
    until(h, "the seat's actions", |s| {
        online(s).is_some_and(|o| !o.offered().is_empty())
    });
    settle(h);
    assert!(
        h.query_by_label_contains("board's layout").is_none(),
        "{game}: the banner of a board not sent shows"
    );
    let s = h.state().as_ref().unwrap();
    let snap = online(s).unwrap().snapshot().unwrap();
    let named = s.play.named_on_board().to_vec();
    let track = snap.board.kind == "track";
    let mut spaces = Vec::new();
    for o in &snap.offered {
        for spot in farebox_editor::studio::play::spots_of(&o.action, snap) {
            let farebox_editor::studio::board_view::Spot::Space(sp) = spot else {
                continue;
            };
            let name = farebox_editor::studio::board_view::board_space_name(&snap.board, sp);
            assert!(
                o.label.contains(&name),
                "{game}: the board calls it {name}, and the action says `{}`",
                o.label
            );
            if track {
                let (card, _) = name.split_once("), ").expect("a card in the name");
                let (card_name, number) = card.split_once(" (card ").expect("a card number");
                let plate = format!("card {number} · {card_name}");
                assert!(
                    named.iter().any(|(_, text)| *text == plate),
                    "{game}: no plate says {plate:?}: {named:?}"
                );
            } else {
                assert!(
                    named.iter().any(|(n, text)| *n == sp && *text == name),
                    "{game}: `{}` names {name}, which the board does not write (it writes {:?})",
                    o.label,
                    named.iter().filter(|(n, _)| *n == sp).collect::<Vec<_>>()
                );
            }
            spaces.push(name);
        }
    }
    for name in &spaces {
        assert!(
            h.query_all_by_role_and_label(egui::accesskit::Role::Button, name)
                .next()
                .is_some(),
            "{game}: no place on the board to click for {name}"
        );
    }
    spaces.len()
}

/// Taxi Derby hosted from the Play tab: its sections city is drawn as the server laid it
/// (the sections' squares, the roads, the spaces marked by what they are: the legend names the
/// police station and the stores), the start spaces offered are places on the board.
#[test]
fn a_hosted_taxi_derby_table_draws_its_city_as_the_local_game_does() {
    let mut h = studio("taxi-derby".into());
    until(&mut h, "the new-game dialog", |s| s.play.in_dialog());
    h.get_by_label("Host online").click();
    until(&mut h, "the hosted table", seated);
    let n = board_drawn_online(&mut h, "taxi-derby");
    assert!(n > 0, "no space offered");
    {
        let s = h.state().as_ref().unwrap();
        let board = &online(s).unwrap().snapshot().unwrap().board;
        assert_eq!(board.kind, "sections");
        assert!(!board.arrangement.is_empty());
    }
    if h.query_by_label("police station").is_none() {
        h.get_by_label("Legend").click();
        settle(&mut h);
    }
    for mark in [
        "police station",
        "store, with its price",
        "city section, named in its corner",
    ] {
        assert!(
            h.query_by_label(mark).is_some(),
            "the legend has no {mark:?}: the spaces are not marked by what they are"
        );
    }
    assert!(
        h.query_all_by_label_contains("start of ").count() >= 2,
        "the start spaces are not marked in their seats' colours"
    );
}

/// Dicey Curves joined at a server's table: the track laid at setup is drawn card by card,
/// each card's plate written, the spaces its actions name places on the board; a track
/// space says its card when hovered (its card, lane and row come from the mod).
#[test]
fn a_joined_dicey_curves_table_draws_its_track_as_the_local_game_does() {
    let server = server_of("dicey-curves", Duration::from_secs(30), 3);
    let code = table_of(&server, "dicey-curves", &["person", "racer"]);
    let mut h = joined("dicey-curves".into(), &server, &code);
    join_seat(&mut h, "Join as Red");
    let n = board_drawn_online(&mut h, "dicey-curves");
    assert!(n >= 4, "only {n} spaces checked");
    let (name, card) = {
        let s = h.state().as_ref().unwrap();
        let snap = online(s).unwrap().snapshot().unwrap();
        assert_eq!(snap.board.kind, "track");
        let track = snap.board.track.as_ref().expect("the track");
        assert!(!track.laid.is_empty(), "no card laid");
        let sp = snap
            .offered
            .iter()
            .flat_map(|o| farebox_editor::studio::play::spots_of(&o.action, snap))
            .find_map(|s| match s {
                farebox_editor::studio::board_view::Spot::Space(sp) => Some(sp),
                _ => None,
            })
            .unwrap();
        let name = farebox_editor::studio::board_view::board_space_name(&snap.board, sp);
        let (card, _) = name.split_once("), ").unwrap();
        let (card_name, number) = card.split_once(" (card ").unwrap();
        (name.clone(), format!("Card {number}: {card_name}"))
    };
    h.query_all_by_role_and_label(egui::accesskit::Role::Button, &name)
        .next()
        .unwrap()
        .hover();
    settle(&mut h);
    assert!(
        h.query_by_label(&card).is_some(),
        "hovering {name} does not say {card:?}"
    );
}

/// An action taken at the table while this Studio's join is under way (the server's first
/// view already in, the screen not yet built from it) is in the log once, not twice: its
/// line came both in the view the screen starts from and as an event after it. Dicey Curves'
/// grid, where the other seat lines up a car just as this one sits down.
#[test]
fn an_action_taken_while_joining_is_logged_once() {
    let server = server_of("dicey-curves", Duration::from_secs(30), 5);
    let code = table_of(&server, "dicey-curves", &["person", "person"]);
    let other = Client::connect(&server.addr().to_string(), WAIT).unwrap();
    let (_, _, seats) = other.look(&code, WAIT).unwrap();
    // The other connection takes the seat that lines up first; the Studio the other one.
    let first = seats.iter().find(|s| s.to_act).unwrap().seat;
    let mine = 1 - first;
    other.join(&code, Some(first), "Bo", None, WAIT).unwrap();
    let def = load(&mods_dir().join("dicey-curves"));
    let mut h = joined("dicey-curves".into(), &server, &code);
    h.get_by_label(&format!("Join as {}", def.seat_name(mine as usize)))
        .click();
    h.step();
    // The Studio's connection is seated (its join answered) before its screen is built.
    other
        .wait_for(WAIT, |m| {
            matches!(m, farebox_server::protocol::ServerMsg::Seats { seats, .. }
                if seats[mine as usize].connected)
        })
        .unwrap();
    let action = other.latest().offered()[0].action.clone();
    other.act(&action);
    other
        .wait_for(
            WAIT,
            |m| matches!(m, farebox_server::protocol::ServerMsg::Update(u) if u.number == 1),
        )
        .unwrap();
    // Time for the Studio's connection to take the same update in.
    std::thread::sleep(Duration::from_millis(500));
    until(&mut h, "seated at the table", seated);
    settle(&mut h);
    let log: Vec<String> = {
        let s = h.state().as_ref().unwrap();
        let snap = online(s).unwrap().snapshot().unwrap();
        snap.log.iter().map(|l| l.text.clone()).collect()
    };
    let lined: Vec<&String> = log.iter().filter(|l| l.contains(" lines up ")).collect();
    assert_eq!(lined.len(), 1, "the line up is logged once: {log:#?}");
    // Its action's line is there too, once, before it.
    let labels = log.iter().filter(|l| l.contains(": Line up ")).count();
    assert_eq!(labels, 1, "the action's own line once: {log:#?}");
}

/// The turn clock of the seat to act is shown beside it, counting down from the server's
/// ten minutes a decision.
#[test]
fn the_turn_clock_of_the_seat_to_act_is_shown() {
    let server = server(Duration::from_secs(30));
    let (mut h, _) = seated_studio(&server, &["person", "random"]);
    until(&mut h, "actions offered", |s| {
        online(s).is_some_and(|o| !o.offered().is_empty())
    });
    settle(&mut h);
    let clocks = h
        .query_all_by_label_contains(" left")
        .filter(|n| {
            let t = format!("{n:?}");
            t.contains("\"9:5") || t.contains("\"10:00 left")
        })
        .count();
    assert_eq!(clocks, 1, "the seat to act's clock is not shown once");
}

/// A table online is the same screen as a game played here: an action is chosen with the arrow
/// keys (its spots lit on the board) and taken with Enter.
#[test]
fn an_online_seat_chooses_with_the_keys_as_a_local_one_does() {
    let server = server(Duration::from_secs(30));
    let (mut h, _) = seated_studio(&server, &["person", "random"]);
    until(&mut h, "the seat's turn", |s| {
        online(s).is_some_and(|o| !o.offered().is_empty())
    });
    settle(&mut h);
    let number = online(h.state().as_ref().unwrap()).unwrap().number();
    let mut keyed = String::new();
    for _ in 0..40 {
        h.key_press(egui::Key::ArrowDown);
        h.step();
        let s = h.state().as_ref().unwrap();
        keyed = s
            .play
            .keyed_action()
            .map(|o| o.label.clone())
            .expect("an action chosen with the keys");
        if keyed.starts_with("Place") {
            assert!(!s.play.lit().is_empty(), "{keyed}: its cell is lit");
            break;
        }
    }
    assert!(keyed.starts_with("Place"), "{keyed}");
    h.key_press(egui::Key::Enter);
    until(&mut h, "the action taken", |s| {
        online(s).is_some_and(|o| o.number() > number)
    });
    let s = h.state().as_ref().unwrap();
    let snap = online(s).unwrap().snapshot().unwrap();
    assert_eq!(
        snap.moves.first().map(|m| m.label.as_str()),
        Some(keyed.as_str())
    );
}
