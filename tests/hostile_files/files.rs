//! Hostile mod folders and content: huge counts and files, special files and links, files named
//! many times, oversized or deeply nested TOML, and dependencies held to their versions.

use super::*;

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
