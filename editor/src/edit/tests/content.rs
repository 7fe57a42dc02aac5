//! Edits of the other content: tables (Dicey Curves), decks, tiles, options and constants
//! (Curbside), a bad edit's diagnostic, and where a new inline card is written.

use super::*;

#[test]
fn table_edits_reach_the_definition() {
    let s = scratch(&["dicey-curves"]);
    let def = edit_and_load(
        &s,
        "dicey-curves",
        &[
            Edit::SetRowCell {
                table: "chip-purchase".into(),
                row: RowRef::Key(i(3)),
                column: "chips".into(),
                value: Some(i(5)),
            },
            Edit::AddRow {
                table: "chip-purchase".into(),
                row: vec![("chips".into(), i(4)), ("combo".into(), i(5))],
            },
            Edit::DuplicateRow {
                table: "chip-purchase".into(),
                row: RowRef::Key(i(2)),
                key: Some(i(6)),
            },
            Edit::DeleteRow {
                table: "finish-depth".into(),
                row: RowRef::Key(st("long")),
            },
        ],
    );
    let t = &def.tables[def.table("chip-purchase").unwrap()];
    let combos: Vec<i64> = t
        .rows
        .iter()
        .map(|r| r["combo"].as_int().unwrap())
        .collect();
    assert_eq!(combos, vec![2, 6, 3, 4, 5]);
    assert_eq!(t.lookup(&Value::Int(3)).unwrap()["chips"], Value::Int(5));
    assert_eq!(t.lookup(&Value::Int(6)).unwrap()["chips"], Value::Int(1));
    let f = &def.tables[def.table("finish-depth").unwrap()];
    assert_eq!(f.rows.len(), 2);
    let text = read(&s, "dicey-curves/tables/chip-purchase.toml");
    // The new row is written like the others: key order and all.
    assert!(text.ends_with("[[rows]]\ncombo = 5\nchips = 4\n"), "{text}");
    // A duplicate key is refused.
    let mut ed = open(&s, "dicey-curves");
    assert!(
        ed.apply(&Edit::AddRow {
            table: "chip-purchase".into(),
            row: vec![("combo".into(), i(5)), ("chips".into(), i(1))],
        })
        .is_err()
    );
    assert!(!ed.is_dirty());
}

#[test]
fn deck_tile_option_and_constant_edits_reach_the_definition() {
    let s = scratch(&["curbside"]);
    let def = edit_and_load(
        &s,
        "curbside",
        &[
            Edit::set_count("road-tiles", "cs-t4", 9),
            Edit::SetCardField {
                deck: "road-tiles".into(),
                card: "cs-t3".into(),
                field: "name".into(),
                value: Some(st("Tee")),
            },
            Edit::AddCard {
                deck: "road-tiles".into(),
                card: vec![
                    ("count".into(), i(2)),
                    ("tile".into(), st("cs-t8")),
                    ("id".into(), st("cs-t8b")),
                    ("name".into(), st("Hairpin bend")),
                ],
            },
            Edit::DuplicateCard {
                deck: "passengers".into(),
                card: "p01".into(),
                new_id: "p01b".into(),
            },
            Edit::DeleteCard {
                deck: "passengers".into(),
                card: "p02".into(),
            },
            Edit::SetTileField {
                tile: "cs-t4".into(),
                field: "move_cost".into(),
                value: Some(i(2)),
            },
            Edit::SetOptionField {
                option: "starting-gas".into(),
                field: "default".into(),
                value: Some(i(15)),
            },
            Edit::SetConstant {
                key: "actions_per_turn".into(),
                value: Some(i(4)),
            },
        ],
    );
    let d = &def.decks[def.deck("road-tiles").unwrap()];
    let card = |id: &str| &d.cards[d.card(id).unwrap()];
    assert_eq!(card("cs-t4").count, 9);
    assert_eq!(card("cs-t3").name, "Tee");
    assert_eq!(card("cs-t8b").count, 2);
    assert_eq!(d.cards.last().unwrap().id, "cs-t8b");
    let p = &def.decks[def.deck("passengers").unwrap()];
    let ids: Vec<&str> = p.cards.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(&ids[..3], &["p01", "p01b", "p03"]);
    assert_eq!(p.cards[1].name, p.cards[0].name);
    assert_eq!(def.tiles[def.tile("cs-t4").unwrap()].move_cost, 2);
    assert_eq!(def.option("starting-gas").unwrap().default, Value::Int(15));
    assert_eq!(def.constants["actions_per_turn"], Value::Int(4));
    let text = read(&s, "curbside/decks/road-tiles.toml");
    assert!(
        text.ends_with(
            "[[cards]]\nid = \"cs-t8b\"\nname = \"Hairpin bend\"\ntile = \"cs-t8\"\ncount = 2\n"
        ),
        "{text}"
    );
    // The constant keeps its comment.
    assert!(read(&s, "curbside/mod.toml").contains("actions_per_turn = 4      # CS-A0"));
}

#[test]
fn a_bad_edit_gets_the_engines_diagnostic_with_file_and_line() {
    let s = scratch(&["curbside"]);
    let mut ed = open(&s, "curbside");
    ed.apply(&Edit::SetCardField {
        deck: "road-tiles".into(),
        card: "cs-t4".into(),
        field: "tile".into(),
        value: Some(st("cs-t99")),
    })
    .unwrap();
    let diags = ed.validate().unwrap_err();
    let d = diags
        .iter()
        .find(|d| d.message.contains("cs-t99"))
        .unwrap_or_else(|| panic!("{diags:?}"));
    assert!(
        d.path.ends_with("curbside/decks/road-tiles.toml"),
        "{}",
        d.path
    );
    let text = ed
        .docs()
        .open_mod()
        .file("decks/road-tiles.toml")
        .unwrap()
        .text();
    let line = text.lines().position(|l| l == "tile = \"cs-t99\"").unwrap() + 1;
    assert_eq!(d.line, line);
    assert!(d.col > 0);
    // Nothing was saved: the file on disk still loads.
    load(&s, "curbside");
}

#[test]
fn inline_cards_get_inline_neighbours() {
    let s = scratch(&[]);
    let dir = s.0.join("tiny");
    std::fs::create_dir_all(dir.join("decks")).unwrap();
    std::fs::write(
        dir.join("mod.toml"),
        "id = \"tiny\"\nname = \"Tiny\"\nversion = \"1.0.0\"\nengine = \"0.1\"\nplayers = { min = 1, max = 2 }\n\n[content]\ndecks = [\"decks/d.toml\"]\n",
    )
    .unwrap();
    let deck = "id = \"d\"\nname = \"D\"\ncards = [\n  # the first\n  { id = \"a\", name = \"A\" },\n  { id = \"b\", name = \"B\", count = 2 }, # two of these\n  { id = \"c\", name = \"C\" },\n]\n";
    std::fs::write(dir.join("decks/d.toml"), deck).unwrap();
    let mut ed = open(&s, "tiny");
    ed.apply(&Edit::AddCard {
        deck: "d".into(),
        card: vec![("name".into(), st("E")), ("id".into(), st("e"))],
    })
    .unwrap();
    ed.apply(&Edit::DuplicateCard {
        deck: "d".into(),
        card: "a".into(),
        new_id: "a2".into(),
    })
    .unwrap();
    ed.apply(&Edit::DeleteCard {
        deck: "d".into(),
        card: "b".into(),
    })
    .unwrap();
    let text = ed.docs().open_mod().file("decks/d.toml").unwrap().text();
    assert_eq!(
        text,
        "id = \"d\"\nname = \"D\"\ncards = [\n  # the first\n  { id = \"a\", name = \"A\" },\n  { id = \"a2\", name = \"A\" },\n  { id = \"c\", name = \"C\" },\n  { id = \"e\", name = \"E\" },\n]\n"
    );
    ed.save().unwrap();
    let def = load(&s, "tiny");
    let ids: Vec<&str> = def.decks[0].cards.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, vec!["a", "a2", "c", "e"]);
    for _ in 0..3 {
        ed.undo().unwrap();
    }
    assert_eq!(
        ed.docs().open_mod().file("decks/d.toml").unwrap().text(),
        deck
    );
}
