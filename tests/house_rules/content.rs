//! The content-only house rules: one for each bundled game that has no rule scripts yet
//! (`taxi-derby-learners-permit`, `dicey-curves-sunday-drive`, `critter-cab-no-sitting-out`,
//! `wheres-my-ride-show-dont-tell`). Each replaces an option by id and patches its game's
//! decks, tables or items; every test loads the game and the house rule side by side, checks
//! each change against the game's own values, and checks that what the rule leaves alone is
//! still the game's.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeMap, BTreeSet};

use farebox::GameDef;
use farebox::content::def::{BoardDef, CardDef, OptionDef, TableDef, TrackPieceDef};
use farebox::value::Value;
use farebox_suite::{Lookup, field, int, list, load, text};

/// A card of a deck, if it is there.
fn card<'a>(d: &'a GameDef, deck: &str, id: &str) -> Option<&'a CardDef> {
    let deck = d.deck_def(deck);
    deck.card(id).map(|i| &deck.cards[i])
}

/// Where a card sits in its deck, which must hold it.
fn position(d: &GameDef, deck: &str, id: &str) -> usize {
    d.deck_def(deck)
        .card(id)
        .unwrap_or_else(|| panic!("deck `{deck}` has no card `{id}`"))
}

/// Copies of the cards of a deck whose `name` field is `value`.
fn copies_where(d: &GameDef, deck: &str, name: &str, value: &str) -> u32 {
    d.deck_def(deck)
        .cards
        .iter()
        .filter(|c| c.fields.get(name).and_then(Value::as_str) == Some(value))
        .map(|c| c.count)
        .sum()
}

/// Two cards are the same in every respect.
fn assert_same_card(a: &CardDef, b: &CardDef) {
    assert_eq!(
        (&a.id, &a.name, &a.text, a.count, &a.tags, &a.fields),
        (&b.id, &b.name, &b.text, b.count, &b.tags, &b.fields),
        "card `{}` changed",
        a.id
    );
}

/// Every card of the base game's deck that is not in `changed` is in the house rule's, the
/// same in every respect.
fn assert_rest_of_deck_unchanged(base: &GameDef, hr: &GameDef, deck: &str, changed: &[&str]) {
    let mut kept = 0;
    for b in &base.deck_def(deck).cards {
        if changed.contains(&b.id.as_str()) {
            continue;
        }
        let h = card(hr, deck, &b.id)
            .unwrap_or_else(|| panic!("card `{}` of deck `{deck}` went missing", b.id));
        assert_same_card(h, b);
        kept += 1;
    }
    assert!(kept > 0, "deck `{deck}`: nothing left to compare");
}

/// The row of a keyed table, if there is one.
fn row(t: &TableDef, key: impl Into<Value>) -> Option<&BTreeMap<String, Value>> {
    t.lookup(&key.into())
}

/// Every row of the base game's table whose key is not in `changed` is in the house rule's,
/// unchanged.
fn assert_rest_of_table_unchanged(base: &GameDef, hr: &GameDef, table: &str, changed: &[Value]) {
    let (bt, ht) = (base.table_def(table), hr.table_def(table));
    let key = bt.key.as_deref().expect("a keyed table");
    let mut kept = 0;
    for b in &bt.rows {
        if changed.contains(&b[key]) {
            continue;
        }
        assert_eq!(
            ht.lookup(&b[key]),
            Some(b),
            "table `{table}`: row {:?} changed",
            b[key]
        );
        kept += 1;
    }
    assert!(kept > 0, "table `{table}`: nothing left to compare");
}

/// Two options agree in everything but, possibly, their texts.
fn assert_same_option(a: &OptionDef, b: &OptionDef) {
    assert_eq!(
        (&a.kind, &a.default, a.min, a.max, &a.choices),
        (&b.kind, &b.default, b.min, b.max, &b.choices),
        "option `{}` changed",
        a.id
    );
}

/// What a house rule keeps of its game whatever it changes: players, seats, whether it can be
/// played, and every option and constant it does not name.
fn assert_frame_unchanged(base: &GameDef, hr: &GameDef, options: &[&str], constants: &[&str]) {
    assert_eq!(hr.layers[0].0, base.id, "built on the game");
    assert_eq!(
        hr.playable(),
        base.playable(),
        "playable exactly when its game is"
    );
    assert_eq!(hr.players, base.players);
    assert_eq!(hr.seat_names, base.seat_names);
    assert_eq!(hr.options.len(), base.options.len());
    for o in &base.options {
        if !options.contains(&o.id.as_str()) {
            assert_same_option(hr.option_def(&o.id), o);
        }
    }
    for (name, value) in &base.constants {
        if !constants.contains(&name.as_str()) {
            assert_eq!(hr.constant(name), value, "constant `{name}` changed");
        }
    }
}

#[test]
fn learners_permit_makes_taxi_derby_short_and_forgiving() {
    let base = load("taxi-derby");
    let hr = load("taxi-derby-learners-permit");
    assert_frame_unchanged(&base, &hr, &["end-stacks"], &["careful_tip"]);
    // The careful tip: none in the printed game, $1 a passenger here (paid by Taxi Derby's
    // rules as a careful turn ends).
    assert_eq!(base.constant("careful_tip"), &Value::Int(0));
    assert_eq!(hr.constant("careful_tip"), &Value::Int(1));

    // The option replaced by id: three empty stacks end the game by default, and the end
    // trigger table has a row for that choice.
    let (o, bo) = (hr.option_def("end-stacks"), base.option_def("end-stacks"));
    assert_eq!(o.default, Value::Int(3));
    assert_eq!(int(&bo.default), 4);
    assert_eq!((o.kind, o.min, o.max), (bo.kind, bo.min, bo.max));
    assert!(row(hr.table_def("end-trigger"), o.default.clone()).is_some());

    // The precinct cards become warnings, in their place: a fine of nothing.
    let precinct: Vec<&CardDef> = base
        .deck_def("tickets")
        .cards
        .iter()
        .filter(|c| text(field(c, "effect")) == "police")
        .collect();
    assert_eq!(precinct.len(), 4);
    for b in &precinct {
        let h = card(&hr, "tickets", &b.id).expect("a warning in its place");
        assert_eq!(text(field(h, "effect")), "fine", "{}", h.id);
        assert_eq!(int(field(h, "fine")), 0, "{}", h.id);
        assert_eq!(h.count, b.count);
        assert_eq!(
            position(&hr, "tickets", &b.id),
            position(&base, "tickets", &b.id),
            "replaced in place"
        );
    }
    assert_eq!(copies_where(&hr, "tickets", "effect", "police"), 0);

    // The player's-choice downgrades are gone; the downgrades naming a kind stay.
    let choice = ["parts-seized", "safety-recall"];
    for id in choice {
        let b = card(&base, "tickets", id).expect("in Taxi Derby");
        assert!(
            !b.fields.contains_key("upgrade"),
            "{id} is a player's-choice downgrade"
        );
        assert!(card(&hr, "tickets", id).is_none(), "{id} removed");
    }
    assert_eq!(
        hr.deck_def("tickets").size(),
        base.deck_def("tickets").size() - 2
    );
    assert_eq!(
        copies_where(&hr, "tickets", "effect", "downgrade"),
        copies_where(&base, "tickets", "effect", "downgrade") - 2
    );
    let precinct_ids: Vec<&str> = precinct.iter().map(|c| c.id.as_str()).collect();
    let changed = [precinct_ids.as_slice(), &choice].concat();
    assert_rest_of_deck_unchanged(&base, &hr, "tickets", &changed);

    // A clean record pays more at every place; the row is otherwise the same, and so is every
    // other bonus.
    let key = Value::from("fewest-tickets");
    let h = row(hr.table_def("end-bonus"), key.clone()).unwrap();
    let b = row(base.table_def("end-bonus"), key.clone()).unwrap();
    for place in ["first", "second", "third"] {
        assert!(int(&h[place]) > int(&b[place]), "{place}: {h:?}");
    }
    assert!(int(&h["first"]) > int(&h["second"]) && int(&h["second"]) > int(&h["third"]));
    assert_eq!((&h["name"], &h["measure"]), (&b["name"], &b["measure"]));
    assert_rest_of_table_unchanged(&base, &hr, "end-bonus", &[key]);

    // The passengers and the rest of the tables are Taxi Derby's.
    assert_rest_of_deck_unchanged(&base, &hr, "passengers", &[]);
    assert_rest_of_table_unchanged(&base, &hr, "end-trigger", &[]);
    assert_eq!(
        hr.deck_def("passengers").size(),
        base.deck_def("passengers").size()
    );
}

#[test]
fn sunday_drive_takes_the_sting_out_of_dicey_curves() {
    let base = load("dicey-curves");
    let hr = load("dicey-curves-sunday-drive");
    assert_frame_unchanged(&base, &hr, &["finish-depth"], &[]);

    // The option replaced by id: the sprint is the default, the choices are the game's.
    let (o, bo) = (
        hr.option_def("finish-depth"),
        base.option_def("finish-depth"),
    );
    assert_eq!(o.default, Value::from("short"));
    assert_eq!(bo.default, Value::from("middle"));
    assert_eq!((o.kind, &o.choices), (bo.kind, &bo.choices));

    // No hairpins; one more gentle curve each way in their place.
    for id in ["hairpin-left", "hairpin-right"] {
        assert!(card(&base, "track", id).is_some(), "{id} in Dicey Curves");
        assert!(card(&hr, "track", id).is_none(), "{id} removed");
    }
    for id in ["gentle-left", "gentle-right"] {
        let (h, b) = (
            card(&hr, "track", id).unwrap(),
            card(&base, "track", id).unwrap(),
        );
        assert_eq!(h.count, b.count + 1, "{id}");
        assert_eq!(
            (&h.name, &h.text, &h.tags, &h.fields),
            (&b.name, &b.text, &b.tags, &b.fields),
            "{id}: only the count changes"
        );
        assert_eq!(position(&hr, "track", id), position(&base, "track", id));
    }
    assert_rest_of_deck_unchanged(
        &base,
        &hr,
        "track",
        &[
            "hairpin-left",
            "hairpin-right",
            "gentle-left",
            "gentle-right",
        ],
    );
    // Same size of deck, and it still turns as much left as right.
    assert_eq!(hr.deck_def("track").size(), base.deck_def("track").size());
    let BoardDef::Track(track) = &hr.board else {
        panic!("a track board")
    };
    let shape = |c: &CardDef| -> &TrackPieceDef {
        let id = text(field(c, "piece"));
        track.pieces.iter().find(|p| p.id == id).unwrap()
    };
    let net_turn: i64 = hr
        .deck_def("track")
        .cards
        .iter()
        .map(|c| i64::from(shape(c).turn) * i64::from(c.count))
        .sum();
    assert_eq!(net_turn, 0);
    // No gate left asks for five dice.
    let biggest_gate = hr
        .deck_def("track")
        .cards
        .iter()
        .flat_map(|c| shape(c).gates.iter().map(|(_, size)| *size))
        .max();
    assert_eq!(biggest_gate, Some(4));

    // Every leftover combo buys one chip more; the cap stays.
    let (ht, bt) = (
        hr.table_def("chip-purchase"),
        base.table_def("chip-purchase"),
    );
    assert_eq!(ht.rows.len(), bt.rows.len());
    for b in &bt.rows {
        let h = ht.lookup(&b["combo"]).unwrap();
        assert_eq!(
            int(&h["chips"]),
            int(&b["chips"]) + 1,
            "combo {:?}",
            b["combo"]
        );
        assert_eq!(h["or_larger"], b["or_larger"]);
    }
    let cap = |d: &GameDef| d.counters[d.counter("chips").unwrap()].max;
    assert_eq!(cap(&hr), cap(&base));

    // The finish-depth and table-size presets are the game's, and the sprint's Finish still
    // lies below the cards drawn at setup.
    assert_rest_of_table_unchanged(&base, &hr, "finish-depth", &[]);
    assert_rest_of_table_unchanged(&base, &hr, "table-sizes", &[]);
    let short = row(hr.table_def("finish-depth"), o.default.clone()).unwrap();
    assert!(
        int(&short["cards_above"]) - int(&short["spread"]) > int(hr.constant("setup_drawn_cards"))
    );
}

#[test]
fn no_sitting_out_keeps_every_critter_driving() {
    let base = load("critter-cab");
    let hr = load("critter-cab-no-sitting-out");
    assert_frame_unchanged(&base, &hr, &["turn-limit"], &[]);

    // The option replaced by id: one round fewer.
    let (o, bo) = (hr.option_def("turn-limit"), base.option_def("turn-limit"));
    assert_eq!(int(&o.default), int(&bo.default) - 1);
    assert_eq!((o.kind, o.min, o.max), (bo.kind, bo.min, bo.max));

    // The cards that skip turns are gone, with the counter that tracked them.
    for id in ["traffic-jam", "roadworks-sign"] {
        assert!(card(&base, "chance", id).is_some(), "{id} in Critter Cab");
        assert!(card(&hr, "chance", id).is_none(), "{id} removed");
    }
    for effect in ["skip-turn", "give-jam"] {
        assert!(copies_where(&base, "chance", "effect", effect) > 0);
        assert_eq!(copies_where(&hr, "chance", "effect", effect), 0, "{effect}");
    }
    assert!(base.counter("skip-turns").is_some());
    assert!(hr.counter("skip-turns").is_none(), "counter removed");
    assert_eq!(hr.counters.len(), base.counters.len() - 1);
    assert!(hr.counter("coins").is_some() && hr.counter("rounds").is_some());

    // Ducks Crossing costs a coin, once for every Traffic Jam! it stands in for, so as many
    // cards as before cost the drawer something.
    let ducks = card(&hr, "chance", "ducks-crossing").expect("the new card");
    assert!(card(&base, "chance", "ducks-crossing").is_none(), "new");
    assert_eq!(text(field(ducks, "effect")), "lose-coins");
    assert_eq!(int(field(ducks, "amount")), 1);
    assert_eq!(text(field(ducks, "play")), "now");
    assert_eq!(
        ducks.count,
        card(&base, "chance", "traffic-jam").unwrap().count
    );
    assert_eq!(
        copies_where(&hr, "chance", "effect", "lose-coins"),
        copies_where(&base, "chance", "effect", "lose-coins")
            + copies_where(&base, "chance", "effect", "skip-turn")
    );
    let roadworks = card(&base, "chance", "roadworks-sign").unwrap().count;
    assert_eq!(
        hr.deck_def("chance").size(),
        base.deck_def("chance").size() - roadworks
    );
    assert_rest_of_deck_unchanged(&base, &hr, "chance", &["traffic-jam", "roadworks-sign"]);

    // The other decks are Critter Cab's.
    for deck in ["taxis", "passengers", "movement"] {
        assert_rest_of_deck_unchanged(&base, &hr, deck, &[]);
        assert_eq!(
            hr.deck_def(deck).size(),
            base.deck_def(deck).size(),
            "{deck}"
        );
    }
}

#[test]
fn show_dont_tell_leaves_the_driver_only_place_emojis() {
    let base = load("wheres-my-ride");
    let hr = load("wheres-my-ride-show-dont-tell");
    assert_frame_unchanged(&base, &hr, &["difficulty"], &["checks_removed"]);

    // The verdict rows of the clue vocabulary are gone; the place rows are the game's.
    let group = |d: &GameDef, g: &str| -> BTreeSet<String> {
        d.table_def("tags")
            .rows
            .iter()
            .filter(|r| text(&r["group"]) == g)
            .map(|r| text(&r["tag"]).to_string())
            .collect()
    };
    let meta = group(&base, "meta");
    assert_eq!(meta.len(), 5);
    assert!(group(&hr, "meta").is_empty());
    for tag in &meta {
        assert!(row(hr.table_def("tags"), tag.as_str()).is_none(), "{tag}");
    }
    let place = group(&base, "place");
    assert_eq!(group(&hr, "place"), place);
    let meta_keys: Vec<Value> = meta.iter().map(|t| Value::from(t.as_str())).collect();
    assert_rest_of_table_unchanged(&base, &hr, "tags", &meta_keys);

    // ...and so are the tokens that carried them (a token that can be read as a verdict), with
    // the readings only those tokens had; the rest of the readings are the game's. Every place
    // tag is still suggested by a reading of a token left.
    let suggests = |d: &GameDef, m: &str| -> Vec<String> {
        list(&row(d.table_def("meanings"), m).unwrap_or_else(|| panic!("no reading {m}"))["suggests"])
            .iter()
            .map(|t| t.to_string())
            .collect()
    };
    let verdicts: Vec<&CardDef> = base
        .deck_def("emojis")
        .cards
        .iter()
        .filter(|c| {
            list(field(c, "meanings"))
                .iter()
                .any(|m| suggests(&base, m).iter().any(|t| meta.contains(t)))
        })
        .collect();
    assert_eq!(verdicts.len(), 7);
    for v in &verdicts {
        assert!(card(&hr, "emojis", &v.id).is_none(), "{} removed", v.id);
    }
    let left = hr.deck_def("emojis");
    assert_eq!(
        left.size(),
        base.deck_def("emojis").size() - verdicts.iter().map(|c| c.count).sum::<u32>()
    );
    let readings: BTreeSet<String> = left
        .cards
        .iter()
        .flat_map(|c| list(field(c, "meanings")))
        .map(str::to_string)
        .collect();
    let gone: Vec<Value> = base
        .table_def("meanings")
        .rows
        .iter()
        .map(|r| text(&r["meaning"]))
        .filter(|m| !readings.contains(*m))
        .map(Value::from)
        .collect();
    for m in &gone {
        assert!(row(hr.table_def("meanings"), text(m)).is_none(), "{m:?}");
    }
    assert_eq!(hr.table_def("meanings").rows.len(), readings.len());
    assert_rest_of_table_unchanged(&base, &hr, "meanings", &gone);
    let said: BTreeSet<String> = readings.iter().flat_map(|m| suggests(&hr, m)).collect();
    assert_eq!(said, place, "only place readings, and every place tag");
    let verdict_ids: Vec<&str> = verdicts.iter().map(|c| c.id.as_str()).collect();
    assert_rest_of_deck_unchanged(&base, &hr, "emojis", &verdict_ids);

    // One more checkmark; the broken stars are the game's.
    let checks = |d: &GameDef| card(d, "ratings", "check").unwrap().count;
    assert_eq!(checks(&hr), checks(&base) + 1);
    assert_rest_of_deck_unchanged(&base, &hr, "ratings", &["check"]);

    // The option replaced by id: a new Patient level is the default and plays with every
    // checkmark; the game's levels keep the game's ids and play with as many checkmarks as
    // they do in the game.
    let (o, bo) = (hr.option_def("difficulty"), base.option_def("difficulty"));
    assert_eq!(o.default, Value::from("patient"));
    assert_eq!(bo.default, Value::from("normal"));
    assert_eq!(o.kind, bo.kind);
    let ids =
        |o: &OptionDef| -> Vec<String> { o.choices.iter().map(|(id, _)| id.clone()).collect() };
    assert_eq!(
        ids(o)[1..],
        ids(bo)[..],
        "Patient first, then the game's levels"
    );
    let in_play = |d: &GameDef, choice: &str| {
        let removed = d.constant("checks_removed").get(choice);
        i64::from(checks(d)) - int(removed.unwrap_or_else(|| panic!("no `{choice}`")))
    };
    assert_eq!(in_play(&hr, "patient"), i64::from(checks(&hr)));
    for id in ids(bo) {
        assert_eq!(in_play(&hr, &id), in_play(&base, &id), "{id}");
    }
}
