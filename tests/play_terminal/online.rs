//! The terminal client: `farebox play --join ADDR CODE` plays a whole game at a server's table
//! (a person typing `1` at every menu), `farebox play MOD --host ADDR` opens a table and plays
//! it, a client whose copy of the mod differs is told so, and a person coming back with their
//! token is told what happened while they were gone.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use farebox::GameDef;
use farebox_server::client::Client;
use farebox_server::protocol::Told;
use farebox_server::server::{Server, ServerConfig};
use farebox_server::table::TableSpec;

const WAIT: std::time::Duration = std::time::Duration::from_secs(30);

fn load(id: &str) -> Arc<GameDef> {
    Arc::new(farebox_suite::load(id))
}

fn server(defs: Vec<Arc<GameDef>>) -> Server {
    let mut cfg = ServerConfig::new("127.0.0.1:0".parse().unwrap(), defs);
    cfg.seed = Some(77);
    cfg.rate = 5_000;
    cfg.burst = 10_000;
    Server::start(cfg).unwrap()
}

fn farebox(args: &[&str], input: &str) -> (i32, String, String) {
    let mut args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    args.insert(0, "farebox".into());
    let mut stdin = input.as_bytes();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = farebox_editor::run(args, &mut stdin, &mut out, &mut err);
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

#[test]
fn a_person_plays_a_whole_game_at_a_servers_table_in_the_terminal() {
    let s = server(vec![load("curbside")]);
    let code = s
        .create_table(TableSpec {
            mod_id: "curbside".into(),
            seats: vec!["person".into(), "random".into()],
            options: Default::default(),
            clock: None,
        })
        .unwrap();
    let addr = s.addr().to_string();
    let input = "1\n".repeat(5000);
    let (rc, out, err) = farebox(&["play", "--join", &addr, &code, "--name", "Ada"], &input);
    assert_eq!(rc, 0, "{err}\n{out}");
    assert!(
        out.contains("you are Red") || out.contains("you are "),
        "{out}"
    );
    assert!(out.contains("--token "), "{out}");
    assert!(out.contains("Seats: "), "{out}");
    assert!(out.contains("Ada (you)"), "{out}");
    assert!(out.contains("(bot): "), "the bot's actions are told: {out}");
    assert!(out.contains("Game over: "), "{out}");

    // Watching the finished table: the end is shown at once.
    let (rc, out, err) = farebox(&["play", "--join", &addr, &code, "--watch"], "");
    assert_eq!(rc, 0, "{err}");
    assert!(out.contains("you are watching"), "{out}");
    assert!(out.contains("Game over: "), "{out}");
}

#[test]
fn a_table_is_hosted_from_the_terminal_and_other_content_refused() {
    let s = server(vec![load("curbside"), load("critter-cab")]);
    let addr = s.addr().to_string();
    let input = "1\n".repeat(3000);
    let (rc, out, err) = farebox(
        &[
            "play",
            "critter-cab",
            "--host",
            &addr,
            "--seats",
            "human,random",
            "--clock",
            "90",
        ],
        &input,
    );
    assert_eq!(rc, 0, "{err}\n{out}");
    assert!(out.contains("Table ") && out.contains("is open"), "{out}");
    assert!(out.contains("Game over: "), "{out}");
    // The table's own turn clock, told with each decision.
    assert!(
        out.contains("You have 1:30 for this decision")
            || out.contains("You have 1:29 for this decision"),
        "{out}"
    );

    // A server whose Curbside differs from ours (another file): joining is refused, clearly.
    let mut mods = farebox_suite::bundled_in_memory();
    let src = mods.0.get_mut("curbside").unwrap();
    let (path, text) = src
        .files
        .iter()
        .find(|(p, _)| p.ends_with(".luau"))
        .map(|(p, t)| (p.clone(), t.clone()))
        .unwrap();
    src.files
        .insert(path, text + "\n-- the server's own edit\n");
    let other = farebox::content::load_mod(&mods.0["curbside"], &mods).unwrap();
    let s2 = server(vec![Arc::new(other)]);
    let code = s2
        .create_table(TableSpec {
            mod_id: "curbside".into(),
            seats: vec!["person".into(), "random".into()],
            options: Default::default(),
            clock: None,
        })
        .unwrap();
    let (rc, _, err) = farebox(&["play", "--join", &s2.addr().to_string(), &code], "");
    assert_eq!(rc, 1, "{err}");
    assert!(err.contains("content hash"), "{err}");
}

/// The first screen a person joining a table of `id` (seat 1, a random bot in seat 2) is
/// shown: from its heading to the prompt. They leave at once (`q`).
fn first_joined_screen(s: &Server, id: &str) -> String {
    let code = s
        .create_table(TableSpec {
            mod_id: id.into(),
            seats: vec!["person".into(), "random".into()],
            options: Default::default(),
            clock: None,
        })
        .unwrap();
    let addr = s.addr().to_string();
    let (rc, out, err) = farebox(&["play", "--join", &addr, &code, "--name", "Ada"], "q\n");
    assert_eq!(rc, 0, "{id}: {err}\n{out}");
    let from = out
        .find("\n== Round")
        .unwrap_or_else(|| panic!("{id}: {out}"));
    let to = out.rfind("> Bye.").unwrap_or_else(|| panic!("{id}: {out}"));
    out[from + 1..to + 1].to_string()
}

#[test]
fn a_joined_terminal_draws_every_kind_of_board_as_the_local_game_does() {
    let ids = farebox_suite::games();
    let s = server(ids.iter().map(|id| load(id)).collect());
    for id in ids.iter().map(String::as_str) {
        let screen = first_joined_screen(&s, id);
        // Each board's own marks: a grid's dotted frame and road junctions; a graph's river
        // crossings (≈) and codes; a city's crossings (┼), section names and the patrol car
        // at its precinct (a piece of the view, on the map); a track's cards in order with
        // their lanes; and Where's My Ride?, which has no board, its locations.
        let marks: &[&str] = match id {
            "curbside" => &["·┄┄┄┄┄┄┄┄┄·", "┆", "╋"],
            "critter-cab" => &["≈", "HL", "KH", "Also: c the map's codes"],
            "taxi-derby" => &["┼", "OLD QUARTER", "HARBOR", "[p]", "turn at any crossing"],
            "dicey-curves" => &["1 start", "L ·", "R ·", "Cards: 1 Starting Grid"],
            "wheres-my-ride" => &["Possible locations:", "Rating (stars): 5"],
            other => panic!("a game this test does not know: {other}"),
        };
        for m in marks {
            assert!(
                screen.contains(m),
                "{id}: `{m}` is not on the screen:\n{screen}"
            );
        }
        // The screen fits a terminal of 100 x 40, the prompt's line included.
        let lines: Vec<&str> = screen.lines().collect();
        assert!(lines.len() <= 40, "{id}: {} lines:\n{screen}", lines.len());
        for l in &lines {
            assert!(l.chars().count() <= 100, "{id}: a line too wide: {l}");
        }
    }
}

/// A person who leaves and comes back with their token is told what happened while they were
/// gone, as a client at the table all along tells it: every action since their own last one
/// (the bot that stood in for them, in their seat's own words, and the other bot) with the
/// lines the rules wrote.
#[test]
fn a_person_coming_back_in_the_terminal_is_told_what_happened_meanwhile() {
    let mut cfg = ServerConfig::new("127.0.0.1:0".parse().unwrap(), vec![load("curbside")]);
    cfg.seed = Some(78);
    cfg.grace = std::time::Duration::from_millis(50);
    let s = Server::start(cfg).unwrap();
    let def = load("curbside");
    let code = s
        .create_table(TableSpec {
            mod_id: "curbside".into(),
            seats: vec!["person".into(), "random".into()],
            options: Default::default(),
            clock: None,
        })
        .unwrap();
    let addr = s.addr().to_string();
    let (rc, out, err) = farebox(
        &["play", "--join", &addr, &code, "--name", "Ada"],
        "1\n1\n1\nq\n",
    );
    assert_eq!(rc, 0, "{err}\n{out}");
    let token = out
        .split("--token ")
        .nth(1)
        .and_then(|t| t.split_whitespace().next())
        .unwrap()
        .to_string();
    // The bots play the game out.
    let watcher = Client::connect(&addr, WAIT).unwrap();
    watcher.join(&code, None, "", None, WAIT).unwrap();
    while watcher.latest().view().is_none_or(|v| v.result.is_none()) {
        watcher.next_event(std::time::Duration::from_millis(50));
    }
    let (rc, out, err) = farebox(&["play", "--join", &addr, &code, "--token", &token], "");
    assert_eq!(rc, 0, "{err}\n{out}");
    // What the seat's log holds after its own last action, as the terminal words it.
    let back = Client::connect(&addr, WAIT).unwrap();
    back.rejoin(&code, &token, None, WAIT).unwrap();
    let log = back.latest().told().to_vec();
    let from = log
        .iter()
        .rposition(|t| {
            matches!(
                t,
                Told::Action {
                    seat: 0,
                    by_bot: false,
                    ..
                }
            )
        })
        .unwrap();
    let mut told = vec![];
    let mut stood_in = 0;
    for t in &log[from..] {
        match t {
            Told::Action {
                seat: 0,
                by_bot: false,
                ..
            } => {}
            Told::Action {
                seat,
                label,
                by_bot,
                ..
            } => {
                assert!(by_bot);
                stood_in += usize::from(*seat == 0);
                let name = def.seat_name(*seat as usize);
                told.push(format!("  {name} (bot): {label}"));
            }
            Told::Line(l) => told.push(format!("      * {l}")),
        }
    }
    assert!(stood_in > 0, "the stand-in played");
    let told = told.join("\n");
    assert!(
        out.contains(&format!("Since your last turn:\n{told}\n")),
        "not told what happened:\n{told}\n-- in --\n{out}"
    );
}

/// `farebox serve --store FILE` keeps its tables in the file and takes them up again when it
/// starts on it; a store it cannot open and write stops it at start, naming the file.
#[test]
fn farebox_serve_keeps_its_tables_in_the_store_it_is_given() {
    let dir = std::env::temp_dir().join(format!(
        "farebox-serve-store-{}",
        farebox_server::table::token()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let store = dir.join("tables.sqlite");
    let store_arg = store.to_str().unwrap();
    let serve = |extra: &[&str]| {
        let mut args = vec![
            "serve",
            "curbside",
            "--addr",
            "127.0.0.1:0",
            "--stop-after",
            "0",
        ];
        args.extend_from_slice(extra);
        farebox(&args, "")
    };
    let (rc, out, err) = serve(&["--store", store_arg, "--table", "curbside:human,random"]);
    assert_eq!(rc, 0, "{err}");
    assert!(
        out.contains(&format!("Tables are kept in {store_arg}")),
        "{out}"
    );
    let code = out
        .lines()
        .find_map(|l| l.strip_prefix("table ")?.split(':').next())
        .unwrap()
        .to_string();
    // Started again on the file: the table is back.
    let (rc, out, err) = serve(&["--store", store_arg]);
    assert_eq!(rc, 0, "{err}");
    assert!(
        out.contains(&format!("table {code} (curbside) resumed at action 0")),
        "{out}"
    );
    // Without a store, nothing is kept or resumed.
    let (rc, out, err) = serve(&["--no-store"]);
    assert_eq!(rc, 0, "{err}");
    assert!(out.contains("in memory only"), "{out}");
    assert!(!out.contains("resumed"), "{out}");
    // A store that cannot be made (its folder is a file): the server does not start.
    let bad = dir.join("tables.sqlite").join("inside.sqlite");
    let (rc, out, err) = serve(&["--store", bad.to_str().unwrap()]);
    assert_ne!(rc, 0, "{out}");
    assert!(err.contains(bad.to_str().unwrap()), "{err}");
    assert!(err.contains("cannot be opened and written"), "{err}");
    assert!(!out.contains("Serving"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}
