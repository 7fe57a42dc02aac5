//! House rules: edits of their game's things land in the house rule's patch and its own
//! files, provenance says who defined and who changed each thing, and a house rule without a
//! patch file gets one.

use super::*;

#[test]
fn a_house_rule_edit_of_a_game_card_lands_in_its_patch_and_reverting_takes_it_out() {
    let s = scratch(&["curbside", "curbside-gas-station"]);
    let game_files: Vec<(PathBuf, String)> = [
        "decks/road-tiles.toml",
        "decks/passengers.toml",
        "tiles.toml",
        "mod.toml",
    ]
    .iter()
    .map(|r| {
        let p = s.0.join("curbside").join(r);
        let t = std::fs::read_to_string(&p).unwrap();
        (p, t)
    })
    .collect();
    let patch0 = read(&s, "curbside-gas-station/patches/station.toml");
    let manifest0 = read(&s, "curbside-gas-station/mod.toml");
    let def = edit_and_load(
        &s,
        "curbside-gas-station",
        &[
            // A card of a deck the patch already changes...
            Edit::set_count("road-tiles", "cs-t4", 9),
            // ...and one of a deck it does not.
            Edit::SetCardField {
                deck: "passengers".into(),
                card: "p01".into(),
                field: "name".into(),
                value: Some(st("Night nurse")),
            },
        ],
    );
    for (p, t) in &game_files {
        assert_eq!(
            &std::fs::read_to_string(p).unwrap(),
            t,
            "{} was written",
            p.display()
        );
    }
    let d = &def.decks[def.deck("road-tiles").unwrap()];
    assert_eq!(d.cards[d.card("cs-t4").unwrap()].count, 9);
    let p = &def.decks[def.deck("passengers").unwrap()];
    assert_eq!(p.cards[p.card("p01").unwrap()].name, "Night nurse");
    let patch = read(&s, "curbside-gas-station/patches/station.toml");
    assert!(patch.contains(
        "[[decks.cards]]\nid = \"cs-t12\"\nname = \"Pothole\"\ntile = \"cs-t12\"\ncount = 5\n\n[[decks.cards]]\nid = \"cs-t4\"\nname = \"Straightaway\"\ntile = \"cs-t4\"\ncount = 9\n"
    ), "{patch}");
    assert!(patch.contains("[[decks]]\nid = \"passengers\"\n\n[[decks.cards]]\nid = \"p01\"\nname = \"Night nurse\""), "{patch}");
    let cat = open(&s, "curbside-gas-station").catalog();
    let o = &cat.card("road-tiles", "cs-t4").unwrap().origin;
    assert_eq!(
        (o.defined_by.as_str(), o.changed_by.as_str()),
        ("curbside", "curbside-gas-station")
    );
    assert_eq!(o.file, "patches/station.toml");

    // Back to the game's values: the patch entries go, and the file is as it was.
    let mut ed = open(&s, "curbside-gas-station");
    ed.apply(&Edit::set_count("road-tiles", "cs-t4", 8))
        .unwrap();
    ed.apply(&Edit::SetCardField {
        deck: "passengers".into(),
        card: "p01".into(),
        field: "name".into(),
        value: Some(st("Night-shift nurse")),
    })
    .unwrap();
    ed.save().unwrap();
    assert_eq!(
        read(&s, "curbside-gas-station/patches/station.toml"),
        patch0
    );
    assert_eq!(read(&s, "curbside-gas-station/mod.toml"), manifest0);
    load(&s, "curbside-gas-station");
}

#[test]
fn a_house_rule_deletes_adds_and_replaces_through_its_own_files() {
    let s = scratch(&["curbside", "curbside-gas-station"]);
    let game0 = read(&s, "curbside/tiles.toml");
    let board0 = read(&s, "curbside/board.toml");
    let def = edit_and_load(
        &s,
        "curbside-gas-station",
        &[
            Edit::DeleteCard {
                deck: "road-tiles".into(),
                card: "cs-t5".into(),
            },
            // A card the patch added is deleted from the patch itself.
            Edit::DeleteCard {
                deck: "road-tiles".into(),
                card: "cs-t12".into(),
            },
            Edit::AddCard {
                deck: "starter".into(),
                card: vec![
                    ("id".into(), st("start-map")),
                    ("name".into(), st("City map")),
                    ("tile".into(), st("cs-t11")),
                ],
            },
            Edit::DuplicateCard {
                deck: "road-tiles".into(),
                card: "cs-t1".into(),
                new_id: "cs-t1-spare".into(),
            },
            Edit::SetRowCell {
                table: "destinations".into(),
                row: RowRef::Key(i(2)),
                column: "stars".into(),
                value: Some(i(2)),
            },
            Edit::SetTileField {
                tile: "cs-t4".into(),
                field: "name".into(),
                value: Some(st("Long straight")),
            },
            Edit::SetOptionField {
                option: "passenger-cards".into(),
                field: "default".into(),
                value: Some(i(6)),
            },
            Edit::SetConstant {
                key: "actions_per_turn".into(),
                value: Some(i(2)),
            },
            Edit::SetCellTile {
                x: 2,
                y: 2,
                tile: Some("cs-t2".into()),
                rotation: 0,
            },
        ],
    );
    assert_eq!(read(&s, "curbside/tiles.toml"), game0);
    assert_eq!(read(&s, "curbside/board.toml"), board0);
    let d = &def.decks[def.deck("road-tiles").unwrap()];
    assert!(d.card("cs-t5").is_none() && d.card("cs-t12").is_none());
    assert_eq!(d.cards[d.card("cs-t1-spare").unwrap()].count, 5);
    let starter = &def.decks[def.deck("starter").unwrap()];
    assert_eq!(starter.cards.last().unwrap().id, "start-map");
    let t = &def.tables[def.table("destinations").unwrap()];
    assert_eq!(t.lookup(&Value::Int(2)).unwrap()["stars"], Value::Int(2));
    assert_eq!(t.lookup(&Value::Int(6)).unwrap()["stars"], Value::Int(6));
    assert_eq!(def.tiles[def.tile("cs-t4").unwrap()].name, "Long straight");
    assert_eq!(
        def.option("passenger-cards").unwrap().default,
        Value::Int(6)
    );
    assert_eq!(def.constants["actions_per_turn"], Value::Int(2));
    assert!(
        grid(&def)
            .cells
            .iter()
            .any(|c| (c.x, c.y) == (2, 2) && c.tile.is_some())
    );
    let patch = read(&s, "curbside-gas-station/patches/station.toml");
    // cs-t5 is the game's; cs-t12 the game's too, replaced by the patch: its replacement
    // goes and the card is taken out.
    assert!(
        patch.contains("remove = [\"cs-t10\", \"cs-t5\", \"cs-t12\"]"),
        "{patch}"
    );
    assert!(!patch.contains("id = \"cs-t12\""), "{patch}");
    assert!(patch.contains("[[decks.cards]]\nid = \"cs-t1-spare\"\nname = \"Crossroads\"\ntile = \"cs-t1\"\ncount = 5\n"), "{patch}");
    let manifest = read(&s, "curbside-gas-station/mod.toml");
    assert!(manifest.contains("tiles = [\"tiles.toml\"]"), "{manifest}");
    assert!(manifest.contains("board = \"board.toml\""), "{manifest}");
    assert!(manifest.contains("actions_per_turn = 2"), "{manifest}");
    let cat = open(&s, "curbside-gas-station").catalog();
    let o = &cat.tile("cs-t4").unwrap().origin;
    assert_eq!(
        (
            o.defined_by.as_str(),
            o.changed_by.as_str(),
            o.file.as_str()
        ),
        ("curbside", "curbside-gas-station", "tiles.toml")
    );

    // Back to the game's values: replacements go again.
    let mut ed = open(&s, "curbside-gas-station");
    ed.apply(&Edit::SetTileField {
        tile: "cs-t4".into(),
        field: "name".into(),
        value: Some(st("Straightaway")),
    })
    .unwrap();
    ed.apply(&Edit::SetOptionField {
        option: "passenger-cards".into(),
        field: "default".into(),
        value: Some(i(10)),
    })
    .unwrap();
    ed.apply(&Edit::SetConstant {
        key: "actions_per_turn".into(),
        value: Some(i(3)),
    })
    .unwrap();
    ed.save().unwrap();
    let def = load(&s, "curbside-gas-station");
    let cat = open(&s, "curbside-gas-station").catalog();
    assert_eq!(cat.tile("cs-t4").unwrap().origin.changed_by, "curbside");
    assert_eq!(
        cat.option("passenger-cards").unwrap().origin.changed_by,
        "curbside"
    );
    assert_eq!(
        cat.constant("actions_per_turn").unwrap().origin.changed_by,
        "curbside"
    );
    assert_eq!(def.constants["actions_per_turn"], Value::Int(3));
    assert!(!read(&s, "curbside-gas-station/mod.toml").contains("passenger-cards"));
}

#[test]
fn provenance_names_who_defined_and_who_changed_each_thing() {
    let s = scratch(&["curbside", "curbside-gas-station"]);
    let ed = open(&s, "curbside-gas-station");
    let cat = ed.catalog();
    let o = |e: &Entry| (e.origin.defined_by.clone(), e.origin.changed_by.clone());
    let pair = |a: &str, b: &str| (a.to_string(), b.to_string());
    assert_eq!(
        o(cat.card("road-tiles", "cs-t1").unwrap()),
        pair("curbside", "curbside")
    );
    assert_eq!(
        o(cat.card("road-tiles", "cs-t12").unwrap()),
        pair("curbside", "curbside-gas-station")
    );
    assert!(
        cat.card("road-tiles", "cs-t10").is_none(),
        "the patch takes it out"
    );
    assert_eq!(o(cat.tile("cs-t1").unwrap()), pair("curbside", "curbside"));
    assert_eq!(
        o(cat.option("starting-gas").unwrap()),
        pair("curbside", "curbside-gas-station")
    );
    let t = cat.table("destinations").unwrap();
    let six = t.rows.iter().find(|(k, _)| *k == Some(i(6))).unwrap();
    assert_eq!(o(&six.1), pair("curbside", "curbside-gas-station"));
    assert_eq!(
        o(cat.constant("refuel_gas").unwrap()),
        pair("curbside-gas-station", "curbside-gas-station")
    );
    // The engine's definition agrees with the catalog on what is there.
    let def = ed.validate().unwrap();
    let deck = &def.decks[def.deck("road-tiles").unwrap()];
    let ids: Vec<&str> = deck.cards.iter().map(|c| c.id.as_str()).collect();
    let cat_ids: Vec<&str> = cat
        .deck("road-tiles")
        .unwrap()
        .cards
        .iter()
        .map(|(i, _)| i.as_str())
        .collect();
    assert_eq!(ids, cat_ids);
    // Hooks: the house rule wraps apply and actions, and leaves score alone.
    let hooks = hook_origins(std::sync::Arc::new(def)).unwrap();
    let h = |n: &str| {
        hooks
            .iter()
            .find(|(k, _)| k == n)
            .map(|(_, o)| (o.defined_by.as_str(), o.changed_by.as_str()))
    };
    assert_eq!(h("apply"), Some(("curbside", "curbside-gas-station")));
    assert_eq!(h("actions"), Some(("curbside", "curbside-gas-station")));
    assert_eq!(h("score"), Some(("curbside", "curbside")));
}

#[test]
fn a_house_rule_without_a_patch_file_gets_one() {
    let s = scratch(&["dicey-curves"]);
    let dir = s.0.join("dc-mini");
    std::fs::create_dir_all(&dir).unwrap();
    let manifest = "id = \"dc-mini\"\nname = \"Mini\"\nversion = \"1.0.0\"\nengine = \"0.1\"\ndepends = [{ id = \"dicey-curves\", version = \"1.0\" }]\n";
    std::fs::write(dir.join("mod.toml"), manifest).unwrap();
    let mut ed = open(&s, "dc-mini");
    assert!(ed.docs().is_house_rule());
    ed.apply(&Edit::set_count("track", "long-straight", 3))
        .unwrap();
    let report = ed.save().unwrap();
    assert_eq!(report.written.len(), 2, "{:?}", report.written);
    let patch = read(&s, "dc-mini/patches/dc-mini.toml");
    assert!(
        patch.starts_with("#:schema ../../../schemas/patch.schema.json\n[[decks]]\nid = \"track\"\n\n[[decks.cards]]\nid = \"long-straight\"\n"),
        "{patch}"
    );
    assert!(
        read(&s, "dc-mini/mod.toml")
            .ends_with("\n[content]\npatches = [\"patches/dc-mini.toml\"]\n")
    );
    let def = load(&s, "dc-mini");
    let d = &def.decks[def.deck("track").unwrap()];
    assert_eq!(d.cards[d.card("long-straight").unwrap()].count, 3);
    // Undo takes the new file back out of the model; the manifest is as it was.
    ed.undo().unwrap();
    assert!(ed.docs().open_mod().file("patches/dc-mini.toml").is_none());
    assert_eq!(
        ed.docs().open_mod().file("mod.toml").unwrap().text(),
        manifest
    );
}
