//! `farebox new`: a new game or a house rule of a bundled game, and the names and folders it
//! refuses.

use super::*;

#[test]
fn new_makes_a_game_that_validates_and_plays() {
    let dir = scratch("new-game");
    let r = farebox(&["new", "night-shift", "--dir", &s(&dir)]);
    assert_eq!(r.code, 0, "{}", r.err);
    let folder = dir.join("night-shift");
    for f in ["mod.toml", "pieces.toml", "rules/night-shift.luau"] {
        assert!(folder.join(f).is_file(), "{f}\n{}", r.out);
    }
    assert!(
        r.err.contains("farebox validate"),
        "says what to do next: {}",
        r.err
    );
    // The mod carries its own editor support: the schemas its TOML files point at (relative
    // to themselves, so the folder can move), the Luau stubs luau-lsp is pointed at, and
    // selene's and StyLua's settings.
    for f in [
        "types/farebox.d.luau",
        "types/farebox.yml",
        "selene.toml",
        "stylua.toml",
        ".vscode/settings.json",
    ] {
        assert!(folder.join(f).is_file(), "{f}");
    }
    // A new mod lints as the bundled games do: an idiom copied from them (`while
    // game.move_card(a, b) do end`) passes its selene too.
    let selene = std::fs::read_to_string(folder.join("selene.toml")).unwrap();
    assert!(
        selene.contains("[lints]\nempty_loop = \"allow\"")
            || selene.contains("empty_loop = \"allow\""),
        "{selene}"
    );
    let settings = std::fs::read_to_string(folder.join(".vscode/settings.json")).unwrap();
    let settings: serde_json::Value = serde_json::from_str(&settings).unwrap();
    let stubs = settings["luau-lsp.types.definitionFiles"]["@farebox"]
        .as_str()
        .unwrap();
    assert!(folder.join(stubs).is_file(), "{stubs}");
    let manifest = std::fs::read_to_string(folder.join("mod.toml")).unwrap();
    let line = manifest.lines().next().unwrap();
    let rel = line.strip_prefix("#:schema ").expect(line);
    assert!(!Path::new(rel).is_absolute(), "{rel}");
    assert!(
        folder.join(rel).is_file(),
        "{rel} from {}",
        folder.display()
    );
    assert_eq!(farebox(&["validate", &s(&folder)]).code, 0);
    let r = farebox(&["sim", &s(&folder), "--games", "50", "--json"]);
    assert_eq!(r.code, 0, "{}", r.err);
    let v: serde_json::Value = serde_json::from_str(&r.out).unwrap();
    assert_eq!(v["finished"], 50, "{}", r.out);
    assert_eq!(v["errors"], 0, "{}", r.out);
    // Its action labels come from its describe hook.
    let r = farebox_with_input(&["play", &s(&folder), "--seats", "human,random"], "q\n");
    assert!(r.out.contains("Keep driving"), "{}", r.out);
}

#[test]
fn a_house_rule_named_after_its_game_is_not_named_twice() {
    let dir = scratch("new-house-rule-name");
    let r = farebox(&[
        "new",
        "curbside-long-shift",
        "--from",
        "curbside",
        "--dir",
        &s(&dir),
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    let manifest = std::fs::read_to_string(dir.join("curbside-long-shift/mod.toml")).unwrap();
    assert!(
        manifest.contains(r#"name = "Curbside: Long Shift""#),
        "{manifest}"
    );
}

#[test]
fn new_from_a_game_makes_a_house_rule_that_changes_nothing_yet() {
    let dir = scratch("new-house-rule");
    let r = farebox(&["new", "siesta", "--from", "curbside", "--dir", &s(&dir)]);
    assert_eq!(r.code, 0, "{}", r.err);
    let folder = dir.join("siesta");
    let manifest = std::fs::read_to_string(folder.join("mod.toml")).unwrap();
    assert!(manifest.contains(r#"depends = [{ id = "curbside", version = "1.0" }]"#));
    assert!(
        manifest.contains(r#"name = "Curbside: Siesta""#),
        "{manifest}"
    );
    assert!(folder.join("patches/siesta.toml").is_file());
    assert!(folder.join("rules/siesta.luau").is_file());
    assert_eq!(farebox(&["validate", &s(&folder)]).code, 0);
    // Same seed, same game as Curbside itself: nothing is changed until the author says so.
    let a = farebox(&[
        "record",
        &s(&folder),
        "--seed",
        "4",
        "--out",
        &s(&dir.join("a.json")),
    ]);
    let b = farebox(&[
        "record",
        "curbside",
        "--seed",
        "4",
        "--out",
        &s(&dir.join("b.json")),
    ]);
    assert_eq!((a.code, b.code), (0, 0), "{}{}", a.err, b.err);
    let actions = |f: &str| {
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join(f)).unwrap()).unwrap();
        v["actions"].clone()
    };
    assert_eq!(actions("a.json"), actions("b.json"));
    // The commented examples use Curbside's real ids: uncommented, they load.
    let patch = std::fs::read_to_string(folder.join("patches/siesta.toml")).unwrap();
    let live: String = patch
        .lines()
        .map(|l| {
            let example = [
                "# [[decks",
                "# id ",
                "# remove ",
                "# name ",
                "# tile ",
                "# count ",
            ];
            if example.iter().any(|e| l.starts_with(e)) {
                l.trim_start_matches("# ").to_string()
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(folder.join("patches/siesta.toml"), live).unwrap();
    let r = farebox(&["validate", &s(&folder)]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
}

#[test]
fn new_refuses_bad_names_existing_folders_and_unknown_games() {
    let dir = scratch("new-refusals");
    let r = farebox(&["new", "Night Shift", "--dir", &s(&dir)]);
    assert_eq!(r.code, 2);
    assert!(r.err.contains("cannot be a mod id"), "{}", r.err);
    std::fs::create_dir_all(dir.join("taken")).unwrap();
    std::fs::write(dir.join("taken/notes.txt"), "mine").unwrap();
    let r = farebox(&["new", "taken", "--dir", &s(&dir)]);
    assert_eq!(r.code, 2);
    assert!(r.err.contains("already exists"), "{}", r.err);
    assert_eq!(
        std::fs::read_to_string(dir.join("taken/notes.txt")).unwrap(),
        "mine",
        "nothing overwritten"
    );
    let r = farebox(&["new", "extra", "--from", "curbsde", "--dir", &s(&dir)]);
    assert_eq!(r.code, 2);
    assert!(r.err.contains("did you mean `curbside`"), "{}", r.err);
    assert!(!dir.join("extra").exists(), "nothing written");
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(left.len(), 1, "no temporary folders left: {left:?}");
}
