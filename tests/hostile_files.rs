//! Hostile mods, snapshots, replays and command lines: what a stranger's mod can put in front
//! of the loader and the `farebox` command. Every case must end in a clear error naming the
//! file (and line where there is one), with memory bounded, no panic, and nothing written
//! outside the mod. Special files (FIFOs, links to devices, links out of the mod, huge sparse
//! files) are made at test time in a scratch folder. No test here is timed: a case that hangs
//! or is quadratic hangs the test run instead.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use farebox::content::{self, NoDependencies};
use farebox::source::{FolderResolver, FsSource};

#[path = "common/run.rs"]
mod run;
use run::{farebox, farebox_with_input, s};

fn scratch(name: &str) -> PathBuf {
    run::scratch_in("hostile", name)
}

/// A content-only mod with `content` as its `[content]` table and the given files.
fn content_mod(dir: &Path, content: &str, files: &[(&str, &str)]) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(
        dir.join("mod.toml"),
        format!(
            "id = \"hostile\"\nname = \"Hostile\"\nversion = \"1.0.0\"\nengine = \"0.1\"\n\n[content]\n{content}\n"
        ),
    )
    .unwrap();
    for (rel, text) in files {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
}

/// Loads a mod folder; the diagnostics as text (empty when it loads).
fn load_errors(dir: &Path) -> String {
    match content::load_mod(&FsSource::new(dir), &NoDependencies) {
        Ok(_) => String::new(),
        Err(d) => d.to_string(),
    }
}

/// A small playable game made by `farebox new`, in `dir/name`.
fn new_game(dir: &Path, name: &str) -> PathBuf {
    let r = farebox(&["new", name, "--dir", &s(dir)]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    dir.join(name)
}

fn pieces_toml(extra: &str) -> String {
    format!("[[pieces]]\nid = \"bomb\"\nname = \"Bomb\"\n{extra}\n")
}

#[test]
fn a_billion_pieces_are_refused_at_load() {
    let d = scratch("pieces");
    content_mod(
        &d,
        "pieces = \"pieces.toml\"",
        &[("pieces.toml", &pieces_toml("count = 1000000000"))],
    );
    let e = load_errors(&d);
    assert!(
        e.contains("pieces.toml:2:") && e.contains("at most 1000 copies"),
        "{e}"
    );
    // Many pieces of an allowed count still add up to too many.
    let mut many = String::new();
    for i in 0..20 {
        many.push_str(&format!(
            "[[pieces]]\nid = \"p{i}\"\nname = \"P\"\ncount = 1000\n"
        ));
    }
    content_mod(&d, "pieces = \"pieces.toml\"", &[("pieces.toml", &many)]);
    let e = load_errors(&d);
    assert!(e.contains("more than 10000 pieces"), "{e}");
}

#[test]
fn too_many_cards_are_refused_at_load() {
    let d = scratch("cards");
    let mut deck = String::from("id = \"big\"\nname = \"Big\"\n");
    for i in 0..21 {
        deck.push_str(&format!("[[cards]]\nid = \"c{i}\"\ncount = 1000\n"));
    }
    content_mod(&d, "decks = [\"deck.toml\"]", &[("deck.toml", &deck)]);
    let e = load_errors(&d);
    assert!(
        e.contains("deck.toml:1:") && e.contains("more than 20000 cards"),
        "{e}"
    );
    deck = "id = \"big\"\nname = \"Big\"\n[[cards]]\nid = \"c\"\ncount = 1000000000\n".into();
    content_mod(&d, "decks = [\"deck.toml\"]", &[("deck.toml", &deck)]);
    let e = load_errors(&d);
    assert!(e.contains("deck.toml:5:") && e.contains("0 to 1000"), "{e}");
}

#[test]
fn a_huge_grid_and_a_huge_sections_layout_are_refused() {
    let d = scratch("grid");
    let board = "kind = \"grid\"\n[grid]\nwidth = 4000000000\nheight = 4000000000\n[[grid.cells]]\nx = 4000000000\ny = 4000000000\nid = \"far\"\n";
    content_mod(&d, "board = \"board.toml\"", &[("board.toml", board)]);
    let e = load_errors(&d);
    assert!(
        e.contains("board.toml:3:") && e.contains("grid sides are 1 to 64"),
        "{e}"
    );
    // columns x rows overflowed 32 bits and wrapped to 0 sections, which "matched".
    let board =
        "kind = \"sections\"\n[sections]\nsize = 8.0\ncolumns = 65536\nrows = 65536\npieces = []\n";
    content_mod(&d, "board = \"board.toml\"", &[("board.toml", board)]);
    let e = load_errors(&d);
    assert!(e.contains("needs 4294967296 sections"), "{e}");
}

#[test]
fn a_500_mib_file_is_refused_without_reading_it() {
    let d = scratch("huge");
    content_mod(&d, "pieces = \"pieces.toml\"", &[]);
    // Sparse: no disk is used, but the loader would read 500 MiB.
    let f = std::fs::File::create(d.join("pieces.toml")).unwrap();
    f.set_len(500 << 20).unwrap();
    let e = load_errors(&d);
    assert!(
        e.contains("mod.toml:7:")
            && e.contains("cannot read `pieces.toml`")
            && e.contains("at most 8 MiB"),
        "{e}"
    );
}

#[cfg(unix)]
#[test]
fn a_fifo_a_device_and_a_folder_are_refused() {
    let d = scratch("special");
    content_mod(
        &d,
        "pieces = \"pieces.toml\"\ntiles = [\"tiles.toml\"]\ndecks = [\"deck.toml\"]",
        &[],
    );
    // A FIFO with no writer: opening it for reading would block forever.
    let fifo = std::process::Command::new("mkfifo")
        .arg(d.join("pieces.toml"))
        .status();
    let have_fifo = fifo.is_ok_and(|s| s.success());
    // A link to /dev/zero: reading it never ends.
    std::os::unix::fs::symlink("/dev/zero", d.join("tiles.toml")).unwrap();
    // A folder where a file should be.
    std::fs::create_dir(d.join("deck.toml")).unwrap();
    let e = load_errors(&d);
    if have_fifo {
        assert!(
            e.contains("mod.toml:7:") && e.contains("named pipe (FIFO)"),
            "{e}"
        );
    }
    assert!(
        e.contains("mod.toml:8:") && e.contains("outside the mod folder"),
        "{e}"
    );
    assert!(
        e.contains("mod.toml:9:") && e.contains("it is a folder"),
        "{e}"
    );
}

#[cfg(unix)]
#[test]
fn a_link_out_of_the_mod_is_refused() {
    let d = scratch("link-out");
    let secret = d.join("secret.toml");
    std::fs::write(&secret, "[[pieces]]\nid = \"secret\"\nname = \"Secret\"\n").unwrap();
    let m = d.join("mod");
    content_mod(&m, "pieces = \"pieces.toml\"", &[]);
    std::os::unix::fs::symlink(&secret, m.join("pieces.toml")).unwrap();
    let e = load_errors(&m);
    assert!(
        e.contains("mod.toml:7:") && e.contains("outside the mod folder"),
        "{e}"
    );
    // A linked folder leading out is refused the same way.
    std::fs::create_dir(d.join("elsewhere")).unwrap();
    std::fs::write(d.join("elsewhere/p.toml"), pieces_toml("")).unwrap();
    std::os::unix::fs::symlink(d.join("elsewhere"), m.join("sub")).unwrap();
    content_mod(&m, "pieces = \"sub/p.toml\"", &[]);
    let e = load_errors(&m);
    assert!(e.contains("outside the mod folder"), "{e}");
}

#[test]
fn a_file_named_many_times_is_read_once() {
    let d = scratch("named-twice");
    let big = pieces_toml("");
    let list: Vec<&str> = std::iter::repeat_n("\"p.toml\"", 5_000).collect();
    content_mod(
        &d,
        &format!("tiles = [{}]", list.join(", ")),
        &[("p.toml", "")],
    );
    let e = load_errors(&d);
    assert!(e.contains("is named twice"), "{e}");
    // Different spellings of one path are one file.
    content_mod(
        &d,
        "decks = [\"d.toml\", \"./d.toml\", \".//d.toml\"]",
        &[("d.toml", "id = \"d\"\nname = \"D\"\n"), ("x", &big)],
    );
    let e = load_errors(&d);
    assert_eq!(e.matches("is named twice").count(), 2, "{e}");
}

#[test]
fn many_items_load_in_near_linear_time() {
    let d = scratch("many");
    // 45,000 records in all, under the 50,000 a load may hold.
    let n = 15_000;
    let mut tiles = String::new();
    let mut pieces = String::new();
    let mut deck =
        String::from("id = \"d\"\nname = \"D\"\n[fields.tile]\ntype = \"ref\"\nto = \"tiles\"\n");
    for i in 0..n {
        tiles.push_str(&format!("[[tiles]]\nid = \"t{i}\"\nname = \"T\"\n"));
        pieces.push_str(&format!(
            "[[pieces]]\nid = \"p{i}\"\nname = \"P\"\ncount = 0\n"
        ));
        deck.push_str(&format!(
            "[[cards]]\nid = \"c{i}\"\ntile = \"t{i}\"\ncount = 0\n"
        ));
    }
    content_mod(
        &d,
        "tiles = [\"tiles.toml\"]\npieces = \"pieces.toml\"\ndecks = [\"deck.toml\"]",
        &[
            ("tiles.toml", &tiles),
            ("pieces.toml", &pieces),
            ("deck.toml", &deck),
        ],
    );
    let e = load_errors(&d);
    assert!(e.is_empty(), "{e}");
}

/// `count` tiles, one `[[tiles]]` table of three lines each, numbered from `from`.
fn tiles_toml(from: usize, count: usize) -> String {
    let mut t = String::new();
    for i in from..from + count {
        t.push_str(&format!("[[tiles]]\nid = \"t{i}\"\nname = \"T\"\n"));
    }
    t
}

#[test]
fn oversized_content_is_refused_before_it_is_parsed() {
    // 150,000 tile kinds in one file: refused at the first record past 50,000, one error, and
    // nothing else of the file is reported. mod.toml's `[content]` is the load's first
    // record, so the tile that passes 50,000 is the 50,000th (index 49,999, at line
    // 3 x 49,999 + 1).
    let d = scratch("oversized");
    content_mod(
        &d,
        "tiles = [\"tiles.toml\"]",
        &[("tiles.toml", &tiles_toml(0, 150_000))],
    );
    let e = load_errors(&d);
    assert!(
        e.contains("tiles.toml:149998:1:") && e.contains("more than 50000 records"),
        "{}",
        &e[..e.len().min(500)]
    );
    assert_eq!(e.lines().count(), 1, "{}", &e[..e.len().min(500)]);
    // Split over several files, the records add up: a load holds 50,000 in all. The files
    // that fit are read, the one that does not is refused, and the next that fits again is
    // read.
    content_mod(
        &d,
        "tiles = [\"a.toml\", \"b.toml\", \"c.toml\", \"d.toml\"]",
        &[
            ("a.toml", &tiles_toml(0, 30_000)),
            ("b.toml", &tiles_toml(30_000, 30_000)),
            ("c.toml", &tiles_toml(60_000, 19_000)),
            ("d.toml", &tiles_toml(79_000, 2_000)),
        ],
    );
    let e = load_errors(&d);
    assert!(
        e.contains("b.toml:59998:1:") && e.contains("more than 50000 records"),
        "{e}"
    );
    assert!(e.contains("d.toml:2998:1:"), "{e}");
    assert_eq!(e.lines().count(), 2, "{e}");
    // 150,000 cells on a grid of 64 x 64: `[content]` and `[grid]` come first, so the cell
    // that passes 50,000 has index 49,998, at line 5 + 4 x 49,998.
    let mut board = String::from("kind = \"grid\"\n[grid]\nwidth = 64\nheight = 64\n");
    for i in 0..150_000 {
        board.push_str(&format!(
            "[[grid.cells]]\nx = {}\ny = {}\ntile = \"x{i}\"\n",
            i % 64 + 1,
            i / 64 % 64 + 1
        ));
    }
    content_mod(&d, "board = \"board.toml\"", &[("board.toml", &board)]);
    let e = load_errors(&d);
    assert!(
        e.contains("board.toml:199997:1:") && e.contains("more than 50000 records"),
        "{}",
        &e[..e.len().min(500)]
    );
    assert_eq!(e.lines().count(), 1, "{}", &e[..e.len().min(500)]);
    // Values count too: one tile with 600,000 roads.
    let roads = vec!["\"N-S\""; 600_000].join(", ");
    content_mod(
        &d,
        "tiles = [\"tiles.toml\"]",
        &[(
            "tiles.toml",
            &format!("[[tiles]]\nid = \"t\"\nname = \"T\"\nroads = [{roads}]\n"),
        )],
    );
    let e = load_errors(&d);
    assert!(
        e.contains("tiles.toml:4:") && e.contains("more than 500000 values"),
        "{}",
        &e[..e.len().min(500)]
    );
}

#[test]
fn a_grid_with_more_cells_described_than_it_has_is_refused_once() {
    let d = scratch("cells");
    let mut board = String::from("kind = \"grid\"\n[grid]\nwidth = 4\nheight = 4\n");
    for i in 0..5_000 {
        board.push_str(&format!(
            "[[grid.cells]]\nx = {}\ny = {}\ntile = \"x{i}\"\n",
            i % 4 + 1,
            i / 4 % 4 + 1
        ));
    }
    content_mod(&d, "board = \"board.toml\"", &[("board.toml", &board)]);
    let e = load_errors(&d);
    // Reported at the first description too many, the 17th (its `x` at line 5 + 4 x 16 + 1).
    assert!(
        e.contains("board.toml:70:5:")
            && e.contains("the grid has 16 cells, and 5000 [[grid.cells]] describe cells"),
        "{e}"
    );
    assert_eq!(e.lines().count(), 1, "{e}");
}

#[test]
fn a_dependency_is_held_to_the_same_versions() {
    // A house rule whose game says it is version "banana", for engine 9.0: both are reported
    // at the game's own mod.toml, and the requirement is not compared with a version that is
    // not one.
    let d = scratch("dep-versions");
    for (id, head) in [
        ("game", "version = \"banana\"\nengine = \"9.0\"\n"),
        (
            "rule",
            "version = \"1.0.0\"\nengine = \"0.1\"\n[[depends]]\nid = \"game\"\nversion = \"1.0\"\n",
        ),
    ] {
        std::fs::create_dir_all(d.join(id)).unwrap();
        std::fs::write(
            d.join(id).join("mod.toml"),
            format!("id = \"{id}\"\nname = \"X\"\n{head}"),
        )
        .unwrap();
    }
    let e = match content::load_mod(&FsSource::new(d.join("rule")), &FolderResolver::new(&d)) {
        Ok(_) => String::new(),
        Err(e) => e.to_string(),
    };
    assert!(
        e.contains("game/mod.toml:3:11: error: version `banana` is not a version"),
        "{e}"
    );
    assert!(
        e.contains("game/mod.toml:4:10: error: this mod is for engine 9.0"),
        "{e}"
    );
    assert_eq!(e.lines().count(), 2, "{e}");
}

/// Mods `l{level}-{a,b}`, each depending on both mods of the next level; the last level's
/// mods are broken (so they never become layers, and were read again on every path).
#[test]
fn a_diamond_of_dependencies_is_read_once_per_mod() {
    let d = scratch("diamond");
    let levels = 24;
    let write = |id: &str, deps: &[String], broken: bool| {
        let dir = d.join(id);
        std::fs::create_dir_all(&dir).unwrap();
        let mut t = format!("id = \"{id}\"\nname = \"X\"\nversion = \"1.0.0\"\nengine = \"0.1\"\n");
        if broken {
            t.push_str("oops = \n");
        }
        for dep in deps {
            t.push_str(&format!("[[depends]]\nid = \"{dep}\"\nversion = \"1.0\"\n"));
        }
        std::fs::write(dir.join("mod.toml"), t).unwrap();
    };
    for level in 0..levels {
        let next: Vec<String> = if level + 1 < levels {
            vec![format!("l{}-a", level + 1), format!("l{}-b", level + 1)]
        } else {
            vec![]
        };
        for side in ["a", "b"] {
            write(&format!("l{level}-{side}"), &next, level + 1 == levels);
        }
    }
    let resolver = FolderResolver::new(&d);
    let e = match content::load_mod(&FsSource::new(d.join("l0-a")), &resolver) {
        Ok(_) => String::new(),
        Err(e) => e.to_string(),
    };
    // Each broken mod is reported once, not once per path to it.
    assert_eq!(e.matches("l23-a/mod.toml").count(), 1, "{e}");
    // A chain longer than the limit on mods is cut with an error.
    let dd = scratch("chain");
    for i in 0..40 {
        let dir = dd.join(format!("c{i}"));
        std::fs::create_dir_all(&dir).unwrap();
        let dep = if i < 39 {
            format!("[[depends]]\nid = \"c{}\"\nversion = \"1.0\"\n", i + 1)
        } else {
            String::new()
        };
        std::fs::write(
            dir.join("mod.toml"),
            format!("id = \"c{i}\"\nname = \"C\"\nversion = \"1.0.0\"\nengine = \"0.1\"\n{dep}"),
        )
        .unwrap();
    }
    let e = match content::load_mod(&FsSource::new(dd.join("c0")), &FolderResolver::new(&dd)) {
        Ok(_) => String::new(),
        Err(e) => e.to_string(),
    };
    assert!(e.contains("at most 32 mods"), "{e}");
}

#[cfg(unix)]
#[test]
fn accept_never_writes_outside_the_mod() {
    let d = scratch("accept");
    let game = new_game(&d, "dice");
    let outside = d.join("outside");
    std::fs::create_dir(&outside).unwrap();
    // snapshots/ is a link to a folder elsewhere.
    let _ = std::fs::remove_dir_all(game.join("snapshots"));
    std::os::unix::fs::symlink(&outside, game.join("snapshots")).unwrap();
    let r = farebox(&["test", &s(&game), "--accept", "--games", "2"]);
    assert_eq!(r.code, 2, "{}{}", r.out, r.err);
    assert!(r.err.contains("snapshots"), "{}", r.err);
    assert!(std::fs::read_dir(&outside).unwrap().next().is_none());
    // snapshots/outcomes.json is a link to a file elsewhere: not written through, not replaced.
    std::fs::remove_file(game.join("snapshots")).unwrap();
    std::fs::create_dir(game.join("snapshots")).unwrap();
    let target = outside.join("precious.txt");
    std::fs::write(&target, "keep me").unwrap();
    std::os::unix::fs::symlink(&target, game.join("snapshots/outcomes.json")).unwrap();
    let r = farebox(&["test", &s(&game), "--accept", "--games", "2"]);
    assert_eq!(r.code, 2, "{}{}", r.out, r.err);
    assert!(r.err.contains("symbolic link"), "{}", r.err);
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me");
    // Reading it is refused too (it leads out of the mod).
    let r = farebox(&["test", &s(&game)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(r.err.contains("outside the mod folder"), "{}", r.err);
}

#[cfg(unix)]
#[test]
fn hostile_snapshots_are_refused() {
    let d = scratch("snapshot");
    let game = new_game(&d, "dice");
    let snap = game.join("snapshots/outcomes.json");
    std::fs::create_dir_all(snap.parent().unwrap()).unwrap();
    let _ = std::fs::remove_file(&snap);
    std::os::unix::fs::symlink("/dev/zero", &snap).unwrap();
    let r = farebox(&["test", &s(&game)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(r.err.contains("outcomes.json"), "{}", r.err);
    std::fs::remove_file(&snap).unwrap();
    let fifo = std::process::Command::new("mkfifo").arg(&snap).status();
    if fifo.is_ok_and(|s| s.success()) {
        let r = farebox(&["test", &s(&game)]);
        assert_eq!(r.code, 1, "{}{}", r.out, r.err);
        assert!(r.err.contains("FIFO"), "{}", r.err);
        std::fs::remove_file(&snap).unwrap();
    }
    // Settings that would play forever or allocate without bound.
    let text = r#"{"mod_version": "1.0.0", "settings": {"games": 18446744073709551615, "seed": 1,
        "players": 2, "bots": ["random"], "cap": 5000, "options": []}, "outcomes": {"games": 0,
        "finished": 0, "capped": 0, "errors": 0, "error_messages": [], "win_rate": [],
        "actions_mean": 0, "actions_sd": 0, "turns_mean": 0, "turns_sd": 0, "score_mean": [],
        "score_sd": []}}"#;
    std::fs::write(&snap, text).unwrap();
    let r = farebox(&["test", &s(&game)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(
        r.err.contains("outcomes.json") && r.err.contains("settings.games"),
        "{}",
        r.err
    );
}

#[cfg(unix)]
#[test]
fn record_and_schema_do_not_write_through_links() {
    let d = scratch("record");
    let game = new_game(&d, "dice");
    let target = d.join("precious.txt");
    std::fs::write(&target, "keep me").unwrap();
    let out = d.join("replay.json");
    std::os::unix::fs::symlink(&target, &out).unwrap();
    let r = farebox(&["record", &s(&game), "--out", &s(&out)]);
    assert_eq!(r.code, 2, "{}{}", r.out, r.err);
    assert!(r.err.contains("symbolic link"), "{}", r.err);
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me");
    // A folder at the out path is not replaced either.
    let r = farebox(&["record", &s(&game), "--out", &s(&d)]);
    assert_eq!(r.code, 2, "{}{}", r.out, r.err);
    // Schemas: a stub that is a link is refused, its target untouched.
    let sd = d.join("schemas");
    std::fs::create_dir(&sd).unwrap();
    std::os::unix::fs::symlink(&target, sd.join("farebox.d.luau")).unwrap();
    let r = farebox(&["schema", "--out", &s(&sd)]);
    assert_ne!(r.code, 0, "{}{}", r.out, r.err);
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me");
}

#[test]
fn command_line_numbers_are_bounded() {
    let d = scratch("numbers");
    let game = new_game(&d, "dice");
    let g = s(&game);
    for args in [
        vec!["sim", &g, "--games", "18446744073709551615"],
        vec!["sim", &g, "--threads", "100000"],
        vec!["sim", &g, "--threads", "0"],
        vec!["sim", &g, "--cap", "4294967295"],
        vec!["bench", &g, "--games", "18446744073709551615"],
        vec!["bench", "--load", "--iterations", "4294967295"],
        vec!["bench-load", "--iterations", "4294967295"],
        vec!["sim", &g, "--players", "255", "--games", "1"],
        vec!["record", &g, "--players", "255", "--out", "x.json"],
        vec!["test", &g, "--accept", "--games", "18446744073709551615"],
    ] {
        let r = farebox(&args);
        assert_eq!(r.code, 2, "{args:?}: {}{}", r.out, r.err);
    }
    let bots = vec!["random"; 1_000_000].join(",");
    for args in [
        vec!["sim", &g, "--bots", &bots],
        vec!["record", &g, "--bots", &bots, "--out", "x.json"],
    ] {
        let r = farebox(&args);
        assert_eq!(r.code, 2, "{}{}", r.out, r.err);
        assert!(r.err.contains("more than 16 agents"), "{}", r.err);
        assert!(r.err.len() < 1_000, "{}", r.err.len());
    }
    let r = farebox(&["play", &g, "--seats", &bots]);
    assert_eq!(r.code, 2, "{}", r.err);
    // Seeds near the top wrap instead of overflowing.
    let r = farebox(&["sim", &g, "--games", "3", "--seed", "18446744073709551615"]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
}

#[test]
fn text_from_a_mod_cannot_drive_the_terminal() {
    let d = scratch("ansi");
    content_mod(
        &d,
        "pieces = \"pieces.toml\"",
        &[(
            "pieces.toml",
            "[[pieces]]\nid = \"\\u001b[2J\\u001b[Hx\\r\\nok: all good\\u0007\"\nname = \"P\"\n",
        )],
    );
    let r = farebox(&["validate", &s(&d)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    let all = format!("{}{}", r.out, r.err);
    assert!(!all.chars().any(|c| c.is_control() && c != '\n'), "{all:?}");
    assert!(all.contains("\\u{1b}[2J"), "{all}");
}

#[test]
fn clean_keeps_text_and_shows_controls() {
    use farebox_editor::common::{clean, clean_line};
    assert_eq!(clean("plain é text\nnext"), "plain é text\nnext");
    assert_eq!(clean("a\x1b[31mb"), "a\\u{1b}[31mb");
    assert_eq!(
        clean("a\rb\x07\u{9b}c\u{202e}"),
        "a\\u{d}b\\u{7}\\u{9b}c\\u{202e}"
    );
    assert_eq!(clean_line("a\nb\tc"), "a\\nb c");
}

#[test]
fn hostile_replays_are_refused_with_the_file_named() {
    let d = scratch("replay");
    let game = new_game(&d, "dice");
    let good = d.join("good.json");
    let r = farebox(&["record", &s(&game), "--out", &s(&good)]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let text = std::fs::read_to_string(&good).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let huge = "x".repeat(5_000_000);
    let cases: Vec<(&str, serde_json::Value, &str)> = vec![
        ("format", serde_json::json!(99), "format 99"),
        ("mod", serde_json::json!(huge), "not a mod id"),
        (
            "layers",
            serde_json::json!([["dice", huge]]),
            "versions are numbers",
        ),
        ("content_hash", serde_json::json!("zz"), "not a hash"),
        (
            "setup",
            serde_json::json!({"seats": 200, "seed": 1}),
            "1 to 16 seats",
        ),
        (
            "steps",
            serde_json::json!([{"seat": 0, "action": huge, "hash": "00"}]),
            "1 to 1000 bytes",
        ),
        (
            "steps",
            serde_json::json!([{"seat": 9, "action": "x", "hash": "00"}]),
            "by seat 10",
        ),
    ];
    for (key, value, expect) in cases {
        let mut bad = v.clone();
        bad[key] = value;
        let f = d.join(format!("bad-{key}.json"));
        std::fs::write(&f, serde_json::to_string(&bad).unwrap()).unwrap();
        let r = farebox(&["replay", &s(&f), "--mod", &s(&game)]);
        assert_eq!(
            r.code,
            1,
            "{key}: {}{}",
            r.out,
            &r.err[..r.err.len().min(500)]
        );
        assert!(r.err.contains(&s(&f)), "{key}: {}", r.err.len());
        assert!(
            r.err.contains(expect),
            "{key}: {}",
            &r.err[..r.err.len().min(500)]
        );
        assert!(r.err.len() < 1_000, "{key}: error of {} bytes", r.err.len());
    }
    // JSON errors name the line, and echo no more than a short piece.
    let f = d.join("bad-json.json");
    std::fs::write(&f, format!("{{\"format\": 1,\n\"{huge}\": 1}}")).unwrap();
    let r = farebox(&["replay", &s(&f), "--mod", &s(&game)]);
    assert_eq!(r.code, 1);
    assert!(
        r.err.contains(&format!("{}:2:", s(&f))),
        "{}",
        &r.err[..r.err.len().min(500)]
    );
    assert!(r.err.len() < 1_000, "{}", r.err.len());
    // A replay that is a FIFO, a device or a folder.
    let r = farebox(&["replay", &s(&d), "--mod", &s(&game)]);
    assert_eq!(r.code, 2);
    assert!(r.err.contains("folder"), "{}", r.err);
    #[cfg(unix)]
    {
        let z = d.join("zero.json");
        std::os::unix::fs::symlink("/dev/zero", &z).unwrap();
        let r = farebox(&["replay", &s(&z), "--mod", &s(&game)]);
        assert_eq!(r.code, 2);
        assert!(r.err.contains("device"), "{}", r.err);
    }
}

#[test]
fn a_line_break_from_a_script_cannot_fake_a_line_of_the_program() {
    // A rules script logs a line with a line break and a fake game-over after it.
    let d = scratch("newline");
    let game = new_game(&d, "dice");
    let rules = game.join("rules").join("dice.luau");
    let text = std::fs::read_to_string(&rules).unwrap();
    let text = text.replacen(
        "apply = function(_g, seat: number, action: string)",
        "apply = function(_g, seat: number, action: string)\n\t\tgame.log(\"x\\nGame over: you win\")",
        1,
    );
    std::fs::write(&rules, text).unwrap();
    let r = farebox_with_input(
        &["play", &s(&game), "--seats", "human,random", "--seed", "1"],
        "1\n1\nq\n",
    );
    assert!(
        r.out.contains("x\\nGame over: you win"),
        "{}{}",
        r.out,
        r.err
    );
    assert!(
        !r.out.lines().any(|l| l.starts_with("Game over: you win")),
        "{}",
        r.out
    );
}

#[test]
fn sim_keeps_figures_not_every_game() {
    // Every game ends for a long reason of its own: the endings are counted under at most
    // 100 reasons (the rest together), each cut short, so what `sim` and `test` keep does
    // not grow with the number of games.
    let d = scratch("endings");
    let game = new_game(&d, "dice");
    let rules = game.join("rules").join("dice.luau");
    let text = std::fs::read_to_string(&rules).unwrap();
    let text = text.replacen(
        "game.finish(places, scores, game.seat_name(winner)",
        "game.finish(places, scores, game.roll(1000) .. game.roll(1000) .. string.rep('r', 3000) .. game.seat_name(winner)",
        1,
    );
    std::fs::write(&rules, text).unwrap();
    let r = farebox(&["sim", &s(&game), "--games", "400", "--json"]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let v: serde_json::Value = serde_json::from_str(&r.out).unwrap();
    let endings = v["endings"].as_object().unwrap();
    assert_eq!(v["finished"], 400);
    assert!(endings.len() <= 101, "{} endings kept", endings.len());
    assert!(
        endings.contains_key("(any other reason)"),
        "{:?}",
        endings.keys()
    );
    assert!(endings.keys().all(|k| k.chars().count() <= 330));
    let counted: u64 = endings.values().map(|c| c.as_u64().unwrap()).sum();
    assert_eq!(counted, 400, "every game is counted once");
    assert!(r.out.len() < 100_000, "{} bytes of figures", r.out.len());
}

#[test]
fn a_replay_of_other_mod_versions_does_not_verify() {
    let d = scratch("replay-versions");
    let game = new_game(&d, "dice");
    let good = d.join("good.json");
    let r = farebox(&["record", &s(&game), "--out", &s(&good)]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&good).unwrap()).unwrap();
    let replay = |name: &str, edit: &dyn Fn(&mut serde_json::Value)| {
        let mut bad = v.clone();
        edit(&mut bad);
        let f = d.join(name);
        std::fs::write(&f, serde_json::to_string(&bad).unwrap()).unwrap();
        farebox(&["replay", &s(&f), "--mod", &s(&game)])
    };
    let r = replay("same.json", &|_| {});
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    // The version edited: the content is the same, the replay is not of this mod.
    let r = replay("version.json", &|b| b["layers"][0][1] = "9.9.9".into());
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(
        r.out
            .contains("`dice` was 9.9.9 when recorded, and 0.1.0 is loaded"),
        "{}",
        r.out
    );
    // A mod more, or another one.
    let r = replay("more.json", &|b| {
        b["layers"] = serde_json::json!([["base", "2.0.0"], ["dice", "0.1.0"]])
    });
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(
        r.out
            .contains("`base` 2.0.0 was part of the recorded game, and is not loaded"),
        "{}",
        r.out
    );
    // An action no `actions` hook may offer is refused as the file is read.
    let r = replay("newline.json", &|b| {
        b["steps"][0]["action"] = "drive\nGame over".into()
    });
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(
        r.err.contains("action 1 (15 bytes) holds a line break"),
        "{}",
        r.err
    );
}

#[test]
fn deep_nesting_and_huge_numbers_are_reported_where_they_are() {
    let d = scratch("deep");
    let deep = |line: &str| {
        content_mod(
            &d,
            "pieces = \"pieces.toml\"",
            &[(
                "pieces.toml",
                &format!("[[pieces]]\nid = \"a\"\nname = \"A\"\n\n{line}\n"),
            )],
        );
        load_errors(&d)
    };
    for line in [
        format!("props = {{ x = {}{} }}", "[".repeat(5000), "]".repeat(5000)),
        format!("props = {}1{}", "{ a = ".repeat(3000), " }".repeat(3000)),
        format!("props.{} = 1", vec!["a"; 3000].join(".")),
        format!("[{}]", vec!["a"; 3000].join(".")),
    ] {
        let e = deep(&line);
        assert!(e.contains("pieces.toml:5:"), "{}: {e}", &line[..40]);
        assert!(!e.contains(":1:1:"), "{e}");
    }
    let e = deep(&format!("props.{} = 1", vec!["a"; 3000].join(".")));
    assert!(e.contains("a key nested too deeply"), "{e}");
    // A whole number past 64 bits is told as a number out of range, not in Rust's words.
    let e = deep("count = 99999999999999999999");
    assert!(
        e.contains("pieces.toml:5:") && e.contains("99999999999999999999 is out of range"),
        "{e}"
    );
    assert!(!e.contains("i128") && !e.contains("u128"), "{e}");
    let e = deep("props = 5\ntags = \"x\"");
    assert!(
        e.contains("expected a table") && e.contains("expected a list"),
        "{e}"
    );
}

#[test]
fn validate_and_test_make_every_label_of_seeded_games() {
    // A describe hook that fails only for the public label (read as a spectator) of one
    // action, once the meter has run: only playing finds it.
    let d = scratch("labels");
    let game = new_game(&d, "dice");
    let g = s(&game);
    let r = farebox(&["test", &g, "--accept", "--games", "20"]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let r = farebox(&["validate", &g]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let rules = game.join("rules").join("dice.luau");
    let text = std::fs::read_to_string(&rules).unwrap();
    let broken = text.replacen(
        "\t\treturn \"Drop off the passenger (bank \"",
        "\t\tif game.viewer() == nil and game.counter(\"meter\") > 4 then return nil end\n\t\treturn \"Drop off the passenger (bank \"",
        1,
    );
    assert_ne!(broken, text);
    std::fs::write(&rules, broken).unwrap();
    let line = std::fs::read_to_string(&rules)
        .unwrap()
        .lines()
        .position(|l| l.contains("describe = function"))
        .unwrap()
        + 1;
    let r = farebox(&["validate", &g]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    for part in [
        format!(
            "rules/dice.luau:{line}: error: describe returned nothing (nil) for the action `drop off`"
        ),
        "in describe".to_string(),
        "the label everyone else is shown (describe read as a spectator)".to_string(),
        "offered to Seat ".to_string(),
        "at action ".to_string(),
        "trial game".to_string(),
    ] {
        assert!(r.out.contains(&part), "{part}: {}", r.out);
    }
    let r = farebox(&["test", &g]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(r.out.contains("errors: accepted 0, now "), "{}", r.out);
    assert!(
        r.out
            .contains("describe returned nothing (nil) for the action `drop off`"),
        "{}",
        r.out
    );
}

#[test]
fn huge_or_broken_text_is_shown_cut_short_on_one_line() {
    let d = scratch("shown");
    let game = new_game(&d, "dice");
    let g = s(&game);
    let huge = "x".repeat(100_000);
    // A 100 KB argument, as a mod, an option and a replay file.
    for args in [
        vec!["validate", huge.as_str()],
        vec!["play", huge.as_str()],
        vec!["sim", &g, "--option", huge.as_str()],
        vec!["sim", &g, "--option", &format!("{huge}=1")],
        vec!["replay", huge.as_str()],
    ] {
        let r = farebox(&args);
        assert_ne!(r.code, 0, "{}", &args[0]);
        let all = format!("{}{}", r.out, r.err);
        assert!(all.len() < 2_000, "{}: {} bytes", args[0], all.len());
        assert!(all.contains("(100000 bytes)"), "{}: {all}", args[0]);
    }
    // A path holding a line break: escaped, never a line of its own.
    let odd = d.join("a\nerror: fake");
    std::fs::create_dir_all(&odd).unwrap();
    for args in [vec!["validate", &s(&odd)], vec!["test", &s(&odd)]] {
        let r = farebox(&args);
        let all = format!("{}{}", r.out, r.err);
        assert!(
            !all.lines().any(|l| l.starts_with("error: fake")),
            "{}: {all}",
            args[0]
        );
        assert!(all.contains("a\\nerror: fake"), "{}: {all}", args[0]);
    }
    // A mod in such a folder with a mistake: its diagnostics stay one line each.
    let moved = d.join("b\nerror: fake");
    std::fs::rename(&game, &moved).unwrap();
    std::fs::write(moved.join("pieces.toml"), "[[counters]]\nid = 5\n").unwrap();
    let r = farebox(&["validate", &s(&moved)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    let all = format!("{}{}", r.out, r.err);
    assert!(!all.lines().any(|l| l.starts_with("error: fake")), "{all}");
    assert!(all.contains("b\\nerror: fake/pieces.toml:2:"), "{all}");
    std::fs::rename(&moved, &game).unwrap();
    // A label of 100 KB in `farebox play`: cut short, with its length.
    let game = new_game(&d, "labels");
    let rules = game.join("rules").join("labels.luau");
    let text = std::fs::read_to_string(&rules).unwrap();
    let text = text.replacen(
        "describe = function(_g, _seat: number, action: string): string\n",
        "describe = function(_g, _seat: number, action: string): string\n\t\tif action == \"drive\" then return string.rep(\"label\", 20000) .. \"\\nGame over\" end\n",
        1,
    );
    assert!(text.contains("string.rep(\"label\""));
    std::fs::write(&rules, text).unwrap();
    let r = farebox_with_input(
        &["play", &s(&game), "--seats", "human,random", "--seed", "1"],
        "q\n",
    );
    assert!(r.out.contains("(100010 bytes)"), "{}{}", r.out, r.err);
    assert!(r.out.len() < 20_000, "{} bytes", r.out.len());
    assert!(
        !r.out.lines().any(|l| l.starts_with("Game over")),
        "{}",
        r.out
    );
}

#[test]
fn json_files_are_refused_in_plain_words() {
    let d = scratch("json-words");
    let game = new_game(&d, "dice");
    let rep = d.join("r.json");
    let r = farebox(&["record", &s(&game), "--out", &s(&rep)]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&rep).unwrap()).unwrap();
    v["setup"]["seats"] = serde_json::json!(300);
    std::fs::write(&rep, v.to_string()).unwrap();
    let r = farebox(&["replay", &s(&rep), "--mod", &s(&game)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(r.err.contains("expected a whole number"), "{}", r.err);
    assert!(!r.err.contains("u8"), "{}", r.err);
    let r = farebox(&["test", &s(&game), "--accept", "--games", "3"]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let snap = game.join("snapshots").join("outcomes.json");
    let text = std::fs::read_to_string(&snap).unwrap();
    std::fs::write(&snap, text.replacen("\"games\": 3", "\"games\": -3", 1)).unwrap();
    let r = farebox(&["test", &s(&game)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(
        r.err.contains("expected a whole number, 0 or more"),
        "{}",
        r.err
    );
    assert!(!r.err.contains("u64"), "{}", r.err);
}
