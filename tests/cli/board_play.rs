//! `farebox sim --json` says where play happened on the board (`board_play`), for every board
//! kind, and marks what no game used.

use super::*;

fn sim_json(target: &str, games: &str) -> serde_json::Value {
    let r = farebox(&["sim", target, "--games", games, "--json", "--threads", "2"]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    serde_json::from_str(r.out.trim()).unwrap_or_else(|e| panic!("{e}: {}", r.out))
}

#[test]
fn sim_figures_where_play_happens_on_a_grid() {
    let v = sim_json("curbside", "20");
    let play = &v["board_play"];
    assert_eq!(play["kind"], "grid", "{play}");
    assert_eq!(play["games"], v["finished"]);
    let spaces = play["spaces"].as_object().expect("spaces");
    // Curbside's board is 6 by 6: every cell is listed, keyed by column and row from 1.
    assert_eq!(spaces.len(), 36, "{play}");
    assert!(spaces.contains_key("1,1") && spaces.contains_key("6,6"));
    let games = play["games"].as_u64().unwrap_or(0);
    let mut built = 0;
    for (key, s) in spaces {
        let visited = s["games_visited"].as_u64().unwrap_or(99);
        assert!(visited <= games, "{key}: {s}");
        built += u64::from(s["games_built_on"].as_u64().unwrap_or(0) > 0);
        match s["win_rate_visited"].as_f64() {
            Some(w) => {
                let i = &s["win_rate_visited_interval"];
                let (lo, hi) = (i[0].as_f64().unwrap_or(2.0), i[1].as_f64().unwrap_or(-1.0));
                assert!(lo <= w && w <= hi, "{key}: {s}");
                assert!(s["seats_visited"].as_u64().unwrap_or(0) > 0, "{key}: {s}");
            }
            None => assert_eq!(s["seats_visited"], 0, "{key}: {s}"),
        }
    }
    // Curbside is a game of laying road tiles: tiles are laid on its cells.
    assert!(built > 0, "{play}");
    // The same figures on one thread.
    let again = farebox(&[
        "sim",
        "curbside",
        "--games",
        "20",
        "--json",
        "--threads",
        "1",
    ]);
    let w: serde_json::Value = serde_json::from_str(again.out.trim()).unwrap_or_default();
    assert_eq!(v["board_play"], w["board_play"]);
    // Without figures, none.
    let bare = farebox(&["sim", "curbside", "--games", "5", "--json", "--no-figures"]);
    let b: serde_json::Value = serde_json::from_str(bare.out.trim()).unwrap_or_default();
    assert!(b.get("board_play").is_none(), "{b}");
}

#[test]
fn sim_marks_a_space_no_game_reached_and_counts_roads() {
    let dir = scratch("board-play-lonely");
    let m = dir.join("critter-cab");
    copy_dir(&mod_dir("critter-cab"), &m);
    let board = std::fs::read_to_string(m.join("board.toml")).unwrap_or_default();
    let lonely = "spaces = [\n  { id = \"lonely-lane\", name = \"Lonely Lane\", x = 20.0, \
                  y = 780.0, props = { region = \"town\" } },";
    std::fs::write(
        m.join("board.toml"),
        board.replacen("spaces = [", lonely, 1),
    )
    .unwrap();
    let v = sim_json(&s(&m), "10");
    let play = &v["board_play"];
    assert_eq!(play["kind"], "graph", "{play}");
    let lane = &play["spaces"]["lonely-lane"];
    assert_eq!(lane["games_visited"], 0, "{play}");
    assert_eq!(lane["seats_visited"], 0);
    assert!(lane["win_rate_visited"].is_null(), "{lane}");
    let reached = play["spaces"]
        .as_object()
        .map(|o| o.values().filter(|s| s["games_visited"] != 0).count())
        .unwrap_or(0);
    assert!(reached > 10, "{play}");
    let roads = play["roads"].as_object().expect("roads");
    assert!(
        roads
            .keys()
            .all(|k| k.contains(" -- ") || k.contains(" -> "))
    );
    let used: u64 = roads.values().filter_map(|r| r["moves"].as_u64()).sum();
    assert!(used > 0, "{play}");
}

#[test]
fn sim_figures_sections_spaces_and_track_pieces() {
    let v = sim_json("taxi-derby", "6");
    let play = &v["board_play"];
    assert_eq!(play["kind"], "sections", "{play}");
    let spaces = play["spaces"].as_object().expect("spaces");
    assert!(spaces.keys().all(|k| k.contains('/')), "{play}");
    assert!(spaces.values().any(|s| s["games_visited"] != 0), "{play}");

    let v = sim_json("dicey-curves", "6");
    let play = &v["board_play"];
    assert_eq!(play["kind"], "track", "{play}");
    let finished = v["finished"].as_u64().unwrap_or(0);
    let start = &play["track_pieces"]["start-grid"];
    assert_eq!(start["games_laid"].as_u64(), Some(finished), "{play}");
    assert_eq!(start["games_used"].as_u64(), Some(finished), "{play}");
}

#[test]
fn sim_help_documents_board_play() {
    let r = farebox(&["sim", "--help"]);
    for key in [
        "board_play",
        "games_visited",
        "games_built_on",
        "win_rate_visited",
    ] {
        assert!(r.out.contains(key), "{key} not documented");
    }
}
