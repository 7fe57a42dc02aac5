//! Curbside's bundled content against the counts of its rulebook (the CS rule list): the tile
//! deck, the grid, the destination table, the passenger cards and the starting tiles.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
use std::sync::OnceLock;

use farebox::GameDef;
use farebox::content::def::{BoardDef, DeckDef, GridDef};
use farebox::value::Value;
use farebox_suite::Lookup;

fn def() -> &'static GameDef {
    static DEF: OnceLock<GameDef> = OnceLock::new();
    DEF.get_or_init(|| farebox_suite::load("curbside"))
}

fn deck(id: &str) -> &'static DeckDef {
    def().deck_def(id)
}

/// Copies of each tile kind in a deck.
fn tile_counts(deck: &DeckDef) -> BTreeMap<String, u32> {
    let mut out = BTreeMap::new();
    for c in &deck.cards {
        let tile = c
            .fields
            .get("tile")
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("card `{}` names no tile", c.id));
        *out.entry(tile.to_string()).or_insert(0) += c.count;
    }
    out
}

fn grid() -> &'static GridDef {
    match &def().board {
        BoardDef::Grid(g) => g,
        other => panic!("Curbside has a grid board, not {}", other.kind_name()),
    }
}

#[test]
fn twelve_tile_kinds() {
    // CS-T1..CS-T12: the twelve kinds of tile.
    let d = def();
    assert_eq!(d.tiles.len(), 12);
    for n in 1..=12 {
        assert!(
            d.tile(&format!("cs-t{n}")).is_some(),
            "no tile kind cs-t{n}"
        );
    }
}

#[test]
fn fifty_tile_deck_of_every_kind() {
    // CS-S9: 50 tiles of the kinds CS-T1..CS-T12.
    let deck = deck("road-tiles");
    assert_eq!(deck.size(), 50);
    let counts = tile_counts(deck);
    for n in 1..=12 {
        let kind = format!("cs-t{n}");
        assert!(
            counts.get(&kind).is_some_and(|&c| c > 0),
            "the deck has no {kind}"
        );
    }
    assert_eq!(counts.len(), 12, "the deck holds only the twelve kinds");
    let d = def();
    let zone = &d.zones[d.zone("deck").unwrap()];
    assert_eq!(zone.deck, d.deck("road-tiles"));
    assert!(zone.shuffle);
}

#[test]
fn six_by_six_grid_with_corner_starts() {
    // CS-S1: a 6x6 grid addressed by two six-sided dice.
    let g = grid();
    assert_eq!((g.width, g.height), (6, 6));
    assert_eq!(def().constants.get("die_sides"), Some(&Value::Int(6)));
    // CS-S2: each taxi starts in its own corner.
    let mut starts: Vec<(u32, u32)> = g
        .cells
        .iter()
        .filter(|c| c.tags.iter().any(|t| t == "start"))
        .map(|c| (c.x, c.y))
        .collect();
    starts.sort_unstable();
    assert_eq!(starts, [(1, 1), (1, 6), (6, 1), (6, 6)]);
    assert_eq!(
        def().constants.get("start_tile"),
        Some(&Value::Str("cs-t1".into()))
    );
}

#[test]
fn destination_table() {
    // CS-D1: 2x2 = 1 star / 2 gas ... 6x6 = 5 stars / 6 gas.
    let d = def();
    let t = &d.tables[d.table("destinations").unwrap()];
    assert_eq!(t.rows.len(), 5);
    for (size, stars, gas) in [(2, 1, 2), (3, 2, 3), (4, 3, 4), (5, 4, 5), (6, 5, 6)] {
        let row = t
            .lookup(&Value::Int(size))
            .unwrap_or_else(|| panic!("no row for a {size}x{size} trip"));
        assert_eq!(row.get("stars"), Some(&Value::Int(stars)), "{size}x{size}");
        assert_eq!(row.get("gas"), Some(&Value::Int(gas)), "{size}x{size}");
    }
}

#[test]
fn ten_passenger_cards() {
    // CS-S8, CS-E1: 10 passenger cards, the game ends with the last.
    assert_eq!(deck("passengers").size(), 10);
    let d = def();
    let o = d.option("passenger-cards").unwrap();
    assert_eq!(o.default, Value::Int(10));
    assert_eq!(o.max, Some(10));
}

#[test]
fn starting_tiles() {
    // CS-S2: a crossroads under each of the 4 taxis; CS-S7: a gas canteen and a re-route per
    // player, besides 3 tiles from the deck.
    let d = def();
    assert_eq!(d.players, (2, 4));
    let seats = d.players.1;
    let counts = tile_counts(deck("starter"));
    let expect = BTreeMap::from([
        ("cs-t1".to_string(), seats),
        ("cs-t10".to_string(), seats),
        ("cs-t11".to_string(), seats),
    ]);
    assert_eq!(counts, expect);
    assert_eq!(d.constants.get("starting_hand"), Some(&Value::Int(3)));
    // CS-T10: a canteen adds 3 gas.
    let canteen = &d.tiles[d.tile("cs-t10").unwrap()];
    assert_eq!(canteen.props.get("gas"), Some(&Value::Int(3)));
}
