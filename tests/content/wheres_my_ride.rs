//! Where's My Ride? content against its rulebook: every count, option and tag the rule list
//! (WR-*) asks for, checked on the bundled mod as the engine loads it.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use farebox::GameDef;
use farebox::content::def::{BoardDef, DeckDef, OptionDef, OptionType, TableDef, Visibility};
use farebox::value::Value;
use farebox_suite::{Lookup, field, int, list, text};

fn def() -> &'static GameDef {
    static DEF: OnceLock<GameDef> = OnceLock::new();
    DEF.get_or_init(|| farebox_suite::load("wheres-my-ride"))
}

fn deck(id: &str) -> &'static DeckDef {
    def().deck_def(id)
}

fn table(id: &str) -> &'static TableDef {
    def().table_def(id)
}

fn option(id: &str) -> &'static OptionDef {
    def().option_def(id)
}

fn constant(name: &str) -> &'static Value {
    def().constant(name)
}

fn c(name: &str) -> i64 {
    int(constant(name))
}

/// The tag rows of the clue vocabulary, by group (`place` or `meta`).
fn tags(group: &str) -> BTreeSet<&'static str> {
    table("tags")
        .rows
        .iter()
        .filter(|r| r.get("group").map(text) == Some(group))
        .map(|r| text(&r["tag"]))
        .collect()
}

fn zone_deck(zone: &str) -> Option<&'static str> {
    let d = def();
    let z = &d.zones[d.zone(zone).unwrap_or_else(|| panic!("no zone `{zone}`"))];
    z.deck.map(|i| d.decks[i].id.as_str())
}

fn visibility(zone: &str) -> (bool, Visibility) {
    let d = def();
    let z = &d.zones[d.zone(zone).unwrap_or_else(|| panic!("no zone `{zone}`"))];
    (z.per_seat, z.visibility)
}

#[test]
fn wr_s1_cooperative_for_two_to_eight_players() {
    // WR-S1
    let d = def();
    assert_eq!(d.players, (2, 8));
    assert!(matches!(d.board, BoardDef::None));
    let driver = option("driver");
    assert_eq!(driver.kind, OptionType::Choice);
    let choices: Vec<&str> = driver.choices.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(choices, ["first-seat", "random"]);
    assert_eq!(driver.default, Value::Str("first-seat".into()));
    assert_eq!(d.piece("guess-marker").map(|i| d.pieces[i].count), Some(1));
}

#[test]
fn wr_s2_ten_rating_tiles_six_checks_four_broken_stars() {
    // WR-S2
    let ratings = deck("ratings");
    assert_eq!(ratings.size(), 10);
    let mut by_kind: BTreeMap<&str, u32> = BTreeMap::new();
    for card in &ratings.cards {
        *by_kind.entry(text(field(card, "kind"))).or_default() += card.count;
    }
    assert_eq!(by_kind, BTreeMap::from([("broken-star", 4), ("check", 6)]));
    assert_eq!(zone_deck("rating-stack"), Some("ratings"));
    assert_eq!(visibility("rating-stack"), (false, Visibility::Hidden));

    // The rating starts at 5 stars; the 4th broken star (1 star) loses (WR-R8).
    let d = def();
    let rating = &d.counters[d.counter("rating").unwrap()];
    assert_eq!(rating.initial, 5);
    assert_eq!(c("starting_rating"), rating.initial);
    assert_eq!((rating.min, rating.max), (Some(1), Some(5)));
    assert_eq!(c("broken_stars_to_lose"), 4);
    assert_eq!(c("losing_rating"), 1);
    assert_eq!(
        c("starting_rating") - c("broken_stars_to_lose"),
        c("losing_rating")
    );
    assert_eq!(by_kind["broken-star"] as i64, c("broken_stars_to_lose"));
}

#[test]
fn wr_s3_thirty_locations_160_texts_30_emojis() {
    // WR-S3
    assert_eq!(deck("locations").size(), 30);
    assert_eq!(deck("texts").size(), 160);
    assert_eq!(deck("emojis").size(), 30);
    for id in ["locations", "texts", "emojis"] {
        let cards = &deck(id).cards;
        // Every card is its own design: one copy each, a name or text, no repeats.
        assert!(
            cards.iter().all(|c| c.count == 1),
            "{id}: a card has copies"
        );
        let words: BTreeSet<&str> = cards.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(words.len(), cards.len(), "{id}: two cards share a text");
        assert!(
            cards.iter().all(|c| !c.text.trim().is_empty()),
            "{id}: a card has no text"
        );
    }
    let names: BTreeSet<&str> = deck("locations")
        .cards
        .iter()
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(names.len(), 30);
    assert!(!names.contains(""));
    let glyphs: BTreeSet<&str> = deck("emojis")
        .cards
        .iter()
        .map(|c| text(field(c, "glyph")))
        .collect();
    assert_eq!(glyphs.len(), 30, "two emoji tokens show the same glyph");

    assert_eq!(zone_deck("location-deck"), Some("locations"));
    assert_eq!(zone_deck("text-deck"), Some("texts"));
    assert_eq!(zone_deck("emoji-bag"), Some("emojis"));
}

#[test]
fn wr_s3_the_clue_vocabulary() {
    // WR-S3, WR-B1: one vocabulary for locations, texts and emojis.
    let place = tags("place");
    let meta = tags("meta");
    assert_eq!(place.len(), 25);
    assert_eq!(
        meta,
        BTreeSet::from(["colder", "no", "opposite", "warmer", "yes"])
    );
    assert_eq!(table("tags").rows.len(), place.len() + meta.len());
    // Opposites come in pairs of place tags.
    let rows = &table("tags").rows;
    let by_tag: BTreeMap<&str, &BTreeMap<String, Value>> =
        rows.iter().map(|r| (text(&r["tag"]), r)).collect();
    for (tag, row) in &by_tag {
        if let Some(o) = row.get("opposite") {
            let o = text(o);
            assert!(place.contains(tag) && place.contains(o), "{tag} <-> {o}");
            assert_eq!(by_tag[o].get("opposite").map(text), Some(*tag));
        }
    }
    // Bot weights: verdicts are signed, every place tag scores.
    let weight = |t: &str| int(&by_tag[t]["weight"]);
    assert!(weight("yes") > weight("warmer") && weight("warmer") > 0);
    assert!(weight("no") < weight("colder") && weight("colder") < 0);
    assert!(place.iter().all(|t| weight(t) > 0));
}

#[test]
fn wr_s3_every_location_is_tagged_and_tellable_apart() {
    // WR-S3, WR-B1
    let place = tags("place");
    let locations = &deck("locations").cards;
    for l in locations {
        let set: BTreeSet<&str> = l.tags.iter().map(String::as_str).collect();
        assert_eq!(set.len(), l.tags.len(), "{}: a tag twice", l.id);
        assert!((4..=6).contains(&set.len()), "{}: {} tags", l.id, set.len());
        assert!(
            set.is_subset(&place),
            "{}: {:?} is not a place tag",
            l.id,
            set.difference(&place)
        );
    }
    // Any two locations differ by at least three tags, so clues can always separate them.
    for (i, a) in locations.iter().enumerate() {
        for b in &locations[i + 1..] {
            let (sa, sb): (BTreeSet<&String>, BTreeSet<&String>) =
                (a.tags.iter().collect(), b.tags.iter().collect());
            let apart = sa.symmetric_difference(&sb).count();
            assert!(apart >= 3, "{} and {} differ by {apart} tags", a.id, b.id);
        }
    }
    // No tag is on almost every location (it would be no clue) or on none.
    for t in &place {
        let n = locations
            .iter()
            .filter(|l| l.tags.iter().any(|x| x == t))
            .count();
        assert!((3..=15).contains(&n), "`{t}` is on {n} locations");
    }
}

#[test]
fn wr_s3_every_text_has_one_to_three_place_tags() {
    // WR-S3: bots read texts by their tags (WR-B1).
    let place = tags("place");
    let texts = &deck("texts").cards;
    for t in texts {
        let set: BTreeSet<&str> = t.tags.iter().map(String::as_str).collect();
        assert_eq!(set.len(), t.tags.len(), "{}: a tag twice", t.id);
        assert!((1..=3).contains(&set.len()), "{}: {} tags", t.id, set.len());
        assert!(
            set.is_subset(&place),
            "{}: {:?} is not a place tag",
            t.id,
            set.difference(&place)
        );
    }
    // Every place tag can be hinted at by several texts.
    for tag in &place {
        let n = texts
            .iter()
            .filter(|t| t.tags.iter().any(|x| x == tag))
            .count();
        assert!(n >= 5, "only {n} texts hint at `{tag}`");
    }
}

/// The rows of tables/meanings.toml: each reading an emoji can have, with the tags it suggests.
fn meanings() -> BTreeMap<&'static str, Vec<&'static str>> {
    table("meanings")
        .rows
        .iter()
        .map(|r| (text(&r["meaning"]), list(&r["suggests"])))
        .collect()
}

#[test]
fn wr_s3_every_emoji_means_something() {
    // WR-S3: the Driver's only words (WR-R4, WR-R9). A token has two or three readings,
    // rows of the meanings table, which the table sees beside it; a reading is never a clue
    // tag, word for word, so matching words is no way to read an emoji (DESIGN.md, "What an
    // emoji means").
    let place = tags("place");
    let meta = tags("meta");
    let readings = meanings();
    let emojis = &deck("emojis").cards;
    let mut used: BTreeMap<&str, usize> = BTreeMap::new();
    for e in emojis {
        let ms = list(field(e, "meanings"));
        assert!((2..=3).contains(&ms.len()), "{}: {ms:?}", e.id);
        for m in &ms {
            assert!(readings.contains_key(m), "{}: `{m}`", e.id);
            *used.entry(m).or_default() += 1;
        }
    }
    for (m, suggests) in &readings {
        assert!(
            !place.contains(m) && !meta.contains(m),
            "the reading `{m}` is a clue tag"
        );
        assert!(used.contains_key(m), "no token reads `{m}`");
        // A verdict alone, or two or three place tags: never a pointer to one tag.
        let verdicts = suggests.iter().filter(|t| meta.contains(*t)).count();
        if verdicts > 0 {
            assert_eq!(suggests.len(), 1, "{m}: {suggests:?}");
        } else {
            assert!((2..=3).contains(&suggests.len()), "{m}: {suggests:?}");
            assert!(suggests.iter().all(|t| place.contains(t)), "{m}");
        }
    }
    // Some readings are shared by two tokens, so tokens overlap as well as places.
    assert!(
        used.values().filter(|n| **n > 1).count() >= 4,
        "shared readings: {used:?}"
    );
    // Every place tag is suggested by at least two readings, and every verdict by some token.
    let mut suggested: BTreeMap<&str, usize> = BTreeMap::new();
    for suggests in readings.values() {
        for t in suggests {
            *suggested.entry(t).or_default() += 1;
        }
    }
    for t in &place {
        assert!(
            suggested.get(t).copied().unwrap_or(0) >= 2,
            "`{t}`: {suggested:?}"
        );
    }
    assert!(
        meta.iter().all(|t| suggested.contains_key(t)),
        "{suggested:?}"
    );
    // Two tokens can say yes, two no (a Thumbs Up and a Bullseye; a Thumbs Down and a No Entry).
    let count = |verdict: &str| {
        emojis
            .iter()
            .filter(|e| {
                list(field(e, "meanings"))
                    .iter()
                    .any(|m| readings[m] == [verdict])
            })
            .count()
    };
    assert_eq!((count("yes"), count("no")), (2, 2));
}

#[test]
fn wr_s3_every_reading_fits_several_places() {
    // WR-S3: no reading picks out one location: the tags it suggests are on several of them.
    let readings = meanings();
    let locations = &deck("locations").cards;
    for (m, suggests) in &readings {
        if suggests.len() == 1 {
            continue; // a verdict: it grades a text, not a place
        }
        let fits = locations
            .iter()
            .filter(|l| l.tags.iter().any(|t| suggests.contains(&t.as_str())))
            .count();
        assert!(fits >= 8, "`{m}` fits only {fits} locations");
    }
}

#[test]
fn wr_s3_emoji_ids_match_their_names() {
    // An id is `emoji-` and the words of the name after the glyph, lower case and hyphened, so
    // that a token is known by its id in actions and by its name on the table alike.
    for e in &deck("emojis").cards {
        let glyph = text(field(e, "glyph"));
        let words = e
            .name
            .strip_prefix(glyph)
            .unwrap_or_else(|| panic!("{}: the name does not start with the glyph", e.id))
            .trim();
        let id = format!("emoji-{}", words.to_lowercase().replace(' ', "-"));
        // A long name may be shortened to its last word ("Crescent Moon": emoji-moon).
        let last = words.rsplit(' ').next().unwrap_or(words).to_lowercase();
        let first = words.split(' ').next().unwrap_or(words).to_lowercase();
        assert!(
            e.id == id || e.id == format!("emoji-{last}") || e.id == format!("emoji-{first}"),
            "{} is called {}",
            e.id,
            e.name
        );
    }
}

#[test]
fn wr_s4_s5_driver_draws_five_emojis_and_nine_locations() {
    // WR-S4
    assert_eq!(c("emoji_hand"), 5);
    assert_eq!(visibility("driver-emojis"), (true, Visibility::Owner));
    assert_eq!(visibility("emoji-bag"), (false, Visibility::Hidden));
    // WR-S5: 1 answer + 8 more, the 9 shown face up.
    assert_eq!(c("answer_locations"), 1);
    assert_eq!(c("decoy_locations"), 8);
    assert_eq!(c("candidate_locations"), 9);
    assert_eq!(
        c("answer_locations") + c("decoy_locations"),
        c("candidate_locations")
    );
    assert!(c("candidate_locations") <= deck("locations").size() as i64);
    assert_eq!(visibility("location-deck"), (false, Visibility::Hidden));
    assert_eq!(visibility("candidates"), (false, Visibility::Public));
}

#[test]
fn wr_r1_r8_the_numbers_of_a_round() {
    // WR-R1: two texters, starting with the first Rider to the Driver's left.
    assert_eq!(c("texters_per_round"), 2);
    assert_eq!(c("first_texter_offset"), 1);
    // WR-R2: draw 2, keep 1, in hands nobody else sees.
    assert_eq!((c("texts_drawn"), c("texts_kept")), (2, 1));
    assert_eq!(visibility("text-hand"), (true, Visibility::Owner));
    assert_eq!(visibility("text-discard"), (false, Visibility::Hidden));
    // WR-R3, WR-R5: played texts and emojis stay in view.
    assert_eq!(visibility("played-texts"), (false, Visibility::Public));
    assert_eq!(visibility("placed-emojis"), (false, Visibility::Public));
    // WR-R4: at least one emoji.
    assert_eq!(c("min_emojis_placed"), 1);
    // WR-R6, WR-R7: one guess; 1 tile for no guess, 2 for a wrong one.
    assert_eq!(c("max_guesses_per_round"), 1);
    assert_eq!(c("tiles_revealed_no_guess"), 1);
    assert_eq!(c("tiles_revealed_wrong_guess"), 2);
    // WR-R8: broken stars go on the public rating board.
    assert_eq!(visibility("rating-board"), (false, Visibility::Public));
}

#[test]
fn wr_v1_two_player_variant_is_an_option() {
    // WR-V1: one Rider draws 4 texts, discards 2, reveals 2.
    let o = option("two-player");
    assert_eq!(o.kind, OptionType::Bool);
    assert_eq!(o.default, Value::Bool(true));
    assert_eq!(c("two_player_texters"), 1);
    assert_eq!(c("two_player_texts_drawn"), 4);
    assert_eq!(c("two_player_texts_kept"), 2);
}

#[test]
fn wr_v2_difficulty_removes_one_or_two_checkmarks() {
    // WR-V2
    let o = option("difficulty");
    assert_eq!(o.kind, OptionType::Choice);
    assert_eq!(o.default, Value::Str("normal".into()));
    let removed = constant("checks_removed");
    let by_choice: BTreeMap<&str, i64> = o
        .choices
        .iter()
        .map(|(id, _)| {
            let n = removed
                .get(id)
                .unwrap_or_else(|| panic!("checks_removed has no `{id}`"));
            (id.as_str(), int(n))
        })
        .collect();
    assert_eq!(
        by_choice,
        BTreeMap::from([("hard", 1), ("harder", 2), ("normal", 0)])
    );
    // Only checkmarks leave: the broken stars are all still there.
    let checks: u32 = deck("ratings")
        .cards
        .iter()
        .filter(|c| text(field(c, "kind")) == "check")
        .map(|c| c.count)
        .sum();
    assert!(by_choice.values().all(|&n| n <= checks as i64));
}

#[test]
fn wr_v3_triple_text_is_an_option() {
    // WR-V3
    let o = option("triple-text");
    assert_eq!(o.kind, OptionType::Bool);
    assert_eq!(o.default, Value::Bool(false));
    assert_eq!(c("texters_per_round_triple"), 3);
    // Each triple texter still draws 2 and keeps 1.
    assert_eq!((c("texts_drawn"), c("texts_kept")), (2, 1));
}
