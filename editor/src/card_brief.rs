//! A card in a few words, as a person reads it: its name, then its deck's fields made readable.
//!
//! "Otter Swim Team (passengers 4, to Acorn Square or Otter Wharf, fare 3, VIP)": a reference
//! is shown by the name of what it names (a table row's `name` column, a space's, tile's,
//! piece's, track piece's or card's name), a destination as "to ...", a yes/no field only when
//! yes and then by its name, numbers and words after the field's name ("fare 12"). What adds
//! nothing is left out: a field still at an empty default (no, 0, nothing), a value the card's
//! name already says (an upgrade "Stereo" of kind `stereo`, a tile card named after its tile),
//! and the rules' own fields (names starting with `_`). Identical cards are counted, not
//! repeated: "Round the Corner (1) (moves 1) ×2".
//!
//! No egui here: the terminal (`farebox play`) and the Studio both use it.

use farebox::content::def::{BoardDef, CardDef, DeckDef, FieldDef, FieldType, GameDef};
use farebox::value::Value;

/// One card in words: its name and the readable fields, in the deck's field order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Brief {
    pub name: String,
    pub details: Vec<String>,
}

impl Brief {
    /// "Name (detail, detail)", or just the name.
    pub fn text(&self) -> String {
        if self.details.is_empty() {
            self.name.clone()
        } else {
            format!("{} ({})", self.name, self.details.join(", "))
        }
    }
}

impl std::fmt::Display for Brief {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text())
    }
}

/// Identical cards of a list: the brief they share, how many, and where they were in the list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    pub brief: Brief,
    /// The card id of the first of them.
    pub id: String,
    /// Their positions in the list given, in order.
    pub indices: Vec<usize>,
}

impl Group {
    pub fn count(&self) -> usize {
        self.indices.len()
    }
    /// "Name (details) ×3", or the brief alone for one card.
    pub fn text(&self) -> String {
        match self.count() {
            1 => self.brief.text(),
            n => format!("{} ×{n}", self.brief.text()),
        }
    }
}

/// The deck and card a card id names: from `prefer` (a zone's own deck) first, else any deck.
pub fn find<'d>(
    def: &'d GameDef,
    prefer: Option<usize>,
    id: &str,
) -> Option<(&'d DeckDef, &'d CardDef)> {
    let in_deck = |d: &'d DeckDef| d.card(id).and_then(|i| d.cards.get(i)).map(|c| (d, c));
    prefer
        .and_then(|d| def.decks.get(d))
        .and_then(in_deck)
        .or_else(|| def.decks.iter().find_map(in_deck))
}

/// One card by its id (looked up in every deck); an unknown id is shown as itself.
pub fn card(def: &GameDef, id: &str) -> Brief {
    card_in(def, None, id)
}

/// One card by its id, looked up in deck `prefer` first (a zone's deck), then in every deck.
pub fn card_in(def: &GameDef, prefer: Option<usize>, id: &str) -> Brief {
    match find(def, prefer, id) {
        Some((deck, c)) => of_card(def, deck, c),
        None => Brief {
            name: id.to_string(),
            details: Vec::new(),
        },
    }
}

/// One card of `deck`.
pub fn of_card(def: &GameDef, deck: &DeckDef, c: &CardDef) -> Brief {
    let name = if c.name.is_empty() {
        c.id.clone()
    } else {
        c.name.clone()
    };
    let said = squash(&name);
    // Where the card goes first, yes/no marks last, the rest in the deck's order.
    let mut details: Vec<(u8, String)> = deck
        .fields
        .iter()
        .filter(|f| !f.name.starts_with('_'))
        .filter_map(|f| {
            let v = c.fields.get(&f.name)?;
            let rank = match v {
                _ if is_destination(&f.name) => 0,
                Value::Bool(_) => 2,
                _ => 1,
            };
            field(def, f, v, &name, &said).map(|t| (rank, t))
        })
        .collect();
    details.sort_by_key(|(rank, _)| *rank);
    Brief {
        name,
        details: details.into_iter().map(|(_, t)| t).collect(),
    }
}

/// A list of card ids, identical cards (the same brief) counted, in the order each first
/// appears.
pub fn cards<S: AsRef<str>>(def: &GameDef, ids: &[S]) -> Vec<Group> {
    cards_in(def, None, ids)
}

/// [`cards`] with deck `prefer` looked in first (a zone's deck).
pub fn cards_in<S: AsRef<str>>(def: &GameDef, prefer: Option<usize>, ids: &[S]) -> Vec<Group> {
    let mut out: Vec<Group> = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        let id = id.as_ref();
        let brief = card_in(def, prefer, id);
        match out.iter_mut().find(|g| g.brief == brief) {
            Some(g) => g.indices.push(i),
            None => out.push(Group {
                brief,
                id: id.to_string(),
                indices: vec![i],
            }),
        }
    }
    out
}

/// A list of card ids on one line: "Regular passenger (to Opera House) ×3; Turbo".
pub fn list<S: AsRef<str>>(def: &GameDef, ids: &[S]) -> String {
    cards(def, ids)
        .iter()
        .map(Group::text)
        .collect::<Vec<_>>()
        .join("; ")
}

/// A field's name as people read it: with spaces for `_` and `-`, and each word in capitals
/// when the field's description writes it so ("VIP (solo): ..." makes `vip_bonus` "VIP
/// bonus").
pub fn field_label(f: &FieldDef) -> String {
    let shouted = |word: &str| {
        let caps = word.to_uppercase();
        caps != word
            && f.description.match_indices(&caps).any(|(i, _)| {
                let before = f.description[..i].chars().next_back();
                let after = f.description[i + caps.len()..].chars().next();
                !before.is_some_and(char::is_alphanumeric)
                    && !after.is_some_and(char::is_alphanumeric)
            })
    };
    f.name
        .split(['_', '-', ' '])
        .filter(|w| !w.is_empty())
        .map(|w| {
            if shouted(w) {
                w.to_uppercase()
            } else {
                w.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether a field's value says nothing: no, 0, empty, at a default that is itself empty.
fn empty(v: &Value) -> bool {
    match v {
        Value::Nil => true,
        Value::Bool(b) => !b,
        Value::Int(i) => *i == 0,
        Value::Num(n) => *n == 0.0,
        Value::Str(s) => s.is_empty(),
        Value::List(l) => l.is_empty(),
        Value::Map(m) => m.is_empty(),
    }
}

/// Whether a field names where a card goes ("to Opera House").
fn is_destination(name: &str) -> bool {
    let n = name.to_lowercase();
    n.starts_with("dest") || n == "to"
}

/// Letters and digits only, in lower case: "Wi-Fi" and `wifi` say the same.
fn squash(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// One field in words, or None when it adds nothing. `said` is the card's name squashed.
fn field(def: &GameDef, f: &FieldDef, v: &Value, name: &str, said: &str) -> Option<String> {
    if let Value::Bool(b) = v {
        return b.then(|| field_label(f));
    }
    let at_default = f.default.as_ref().is_none_or(|d| d == v);
    if empty(v) && at_default {
        return None;
    }
    let items: Vec<&Value> = match v {
        Value::List(l) => l.iter().collect(),
        one => vec![one],
    };
    let words: Vec<String> = items
        .iter()
        .map(|v| match f.kind {
            FieldType::Ref | FieldType::Refs => v.as_str().map_or_else(
                || v.to_string(),
                |id| ref_name(def, f.to.as_deref().unwrap_or(""), id),
            ),
            FieldType::String | FieldType::Strings => v
                .as_str()
                .map_or_else(|| v.to_string(), |s| f.choice_label(s).to_string()),
            _ => v.to_string(),
        })
        .collect();
    // The card's name already says it: "Stereo" of kind `stereo`, "Clear Road (4)" that
    // moves 4.
    let number = matches!(f.kind, FieldType::Int | FieldType::Number | FieldType::Ints);
    let redundant = if number {
        words.iter().all(|w| name.contains(&format!("({w})")))
    } else {
        words.iter().all(|w| said.contains(&squash(w)))
    };
    if redundant {
        return None;
    }
    if is_destination(&f.name) {
        return Some(format!("to {}", words.join(" or ")));
    }
    Some(format!("{} {}", field_label(f), words.join(", ")))
}

/// The name of what a reference names; `to` is the field's `to` (`tiles`, `spaces`,
/// `pieces`, `track-pieces`, `deck:<id>`, `table:<id>`). An id that names nothing known is
/// shown as itself.
pub fn ref_name(def: &GameDef, to: &str, id: &str) -> String {
    let named = |n: &str| (!n.is_empty()).then(|| n.to_string());
    let found = match to {
        "tiles" => def
            .tile(id)
            .and_then(|i| def.tiles.get(i))
            .and_then(|t| named(&t.name)),
        "pieces" => def
            .piece(id)
            .and_then(|i| def.pieces.get(i))
            .and_then(|p| named(&p.name)),
        "spaces" => space_name(def, id),
        "track-pieces" => match &def.board {
            BoardDef::Track(t) => t
                .pieces
                .iter()
                .find(|p| p.id == id)
                .and_then(|p| named(&p.name)),
            _ => None,
        },
        _ => {
            if let Some(deck) = to.strip_prefix("deck:") {
                def.deck(deck)
                    .and_then(|d| def.decks.get(d))
                    .and_then(|d| d.card(id).and_then(|i| d.cards.get(i)))
                    .and_then(|c| named(&c.name))
            } else if let Some(table) = to.strip_prefix("table:") {
                def.table(table)
                    .and_then(|t| def.tables.get(t))
                    .and_then(|t| t.lookup(&Value::Str(id.to_string())))
                    .and_then(|row| row.get("name"))
                    .and_then(|n| n.as_str())
                    .and_then(named)
            } else {
                None
            }
        }
    };
    found.unwrap_or_else(|| id.to_string())
}

/// A board space's name by its id (graph and sections spaces, named grid cells keep their id).
fn space_name(def: &GameDef, id: &str) -> Option<String> {
    let in_graph = |g: &farebox::content::def::GraphDef| {
        g.spaces
            .iter()
            .find(|s| s.id == id)
            .filter(|s| !s.name.is_empty())
            .map(|s| s.name.clone())
    };
    match &def.board {
        BoardDef::Graph(g) => in_graph(g),
        BoardDef::Sections(s) => s.sections.iter().find_map(|sec| in_graph(&sec.graph)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn load(id: &str) -> GameDef {
        let mods = Path::new(env!("CARGO_MANIFEST_DIR")).join("../mods");
        let resolver = farebox::source::FolderResolver::new(mods.clone());
        farebox::content::load_mod(&farebox::source::FsSource::new(mods.join(id)), &resolver)
            .unwrap_or_else(|d| panic!("{id}: {d}"))
    }

    fn first_card<'d>(def: &'d GameDef, deck: &str, pick: impl Fn(&CardDef) -> bool) -> &'d str {
        let d = &def.decks[def.deck(deck).unwrap()];
        &d.cards.iter().find(|c| pick(c)).unwrap().id
    }

    #[test]
    fn a_reference_reads_as_the_name_of_what_it_names_and_yes_no_only_when_yes() {
        let def = load("taxi-derby");
        let plain = first_card(&def, "passengers", |c| {
            c.fields.get("vip") == Some(&Value::Bool(false))
        });
        let b = card(&def, plain);
        let text = b.text();
        assert!(
            b.details
                .iter()
                .any(|d| d.starts_with("to ") && !d.contains('-')),
            "{text}"
        );
        assert!(!text.contains("destination"), "{text}");
        assert!(!text.contains("vip") && !text.contains("VIP"), "{text}");
        assert!(!text.contains("false"), "{text}");
        assert!(
            b.details.iter().any(|d| d.starts_with("payment ")),
            "{text}"
        );

        let vip = first_card(&def, "passengers", |c| {
            c.fields.get("vip") == Some(&Value::Bool(true))
        });
        let b = card(&def, vip);
        assert!(b.details.contains(&"VIP".to_string()), "{}", b.text());
        assert!(!b.text().contains("true"), "{}", b.text());
    }

    #[test]
    fn the_destination_names_the_tables_row_by_its_name() {
        let def = load("taxi-derby");
        let id = first_card(&def, "passengers", |c| {
            c.fields.get("destination") == Some(&Value::Str("ballpark".into()))
        });
        let b = card(&def, id);
        assert!(
            b.details.contains(&"to Copperfield Ballpark".to_string()),
            "{}",
            b.text()
        );
    }

    #[test]
    fn abilities_read_as_the_names_of_their_table_rows_for_a_list_and_for_one() {
        let def = load("critter-cab");
        let b = card(&def, "family-taxi");
        assert!(
            b.details
                .contains(&"abilities Two fares at once, Everyone off first".to_string()),
            "{}",
            b.text()
        );
        let def = load("taxi-derby");
        let b = card(&def, "stereo");
        assert!(
            b.details.contains(&"ability Police Scanner".to_string()),
            "{}",
            b.text()
        );
    }

    #[test]
    fn a_choice_reads_as_its_label_and_scripts_keep_its_id() {
        let def = load("taxi-derby");
        let id = first_card(&def, "passengers", |c| {
            c.fields.get("requires") == Some(&Value::List(vec![Value::Str("wifi".into())]))
        });
        let b = card(&def, id);
        assert!(
            b.details.contains(&"requires Wi-Fi".to_string()),
            "{}",
            b.text()
        );
        let def = load("critter-cab");
        let b = card(&def, "coin-under-the-seat");
        assert!(!b.text().contains("gain-coins"), "{}", b.text());
        assert!(
            b.details.contains(&"effect gain coins".to_string()),
            "{}",
            b.text()
        );
        // The value the rules read is still the id.
        let (_, c) = find(&def, None, "coin-under-the-seat").unwrap();
        assert_eq!(
            c.fields.get("effect"),
            Some(&Value::Str("gain-coins".into()))
        );
    }

    #[test]
    fn destinations_among_spaces_read_as_one_or_the_other() {
        let def = load("critter-cab");
        let b = card(&def, "squirrel-courier");
        let to = b.details.iter().find(|d| d.starts_with("to ")).unwrap();
        assert!(to.contains(" or "), "{to}");
        assert!(
            !to.contains("acorn-square") && !to.contains("otter-wharf"),
            "{to}"
        );
        assert!(b.details.contains(&"fare 2".to_string()), "{}", b.text());
        assert!(
            b.details.contains(&"passengers 1".to_string()),
            "{}",
            b.text()
        );
    }

    #[test]
    fn what_the_name_already_says_and_empty_defaults_are_left_out() {
        let def = load("taxi-derby");
        // An upgrade "Stereo" of kind `stereo`.
        let b = card(&def, "stereo");
        assert!(
            !b.details.iter().any(|d| d.starts_with("kind")),
            "{}",
            b.text()
        );
        assert!(
            b.details.contains(&"ability value 6".to_string()),
            "{}",
            b.text()
        );
        // A tile card named after its tile.
        let def = load("curbside");
        let b = card(&def, "cs-t1");
        assert_eq!(b.text(), "Crossroads");
        // A chance card whose amount is at its default 0.
        let def = load("critter-cab");
        let d = &def.decks[def.deck("chance").unwrap()];
        let c = d
            .cards
            .iter()
            .find(|c| c.fields.get("amount") == Some(&Value::Int(0)))
            .unwrap();
        let b = of_card(&def, d, c);
        assert!(
            !b.details.iter().any(|d| d.starts_with("amount")),
            "{}",
            b.text()
        );
    }

    #[test]
    fn identical_cards_are_counted_in_the_order_each_first_appears() {
        let def = load("critter-cab");
        let ids = ["move-2", "move-1", "move-2", "move-2", "nope"];
        let groups = cards(&def, &ids);
        assert_eq!(groups.len(), 3);
        assert_eq!(groups[0].indices, [0, 2, 3]);
        assert_eq!(groups[0].id, "move-2");
        assert_eq!(groups[0].text(), "Down the Lane (2) ×3");
        assert_eq!(groups[1].text(), "Round the Corner (1)");
        assert_eq!(groups[2].text(), "nope");
        assert_eq!(
            list(&def, &ids),
            "Down the Lane (2) ×3; Round the Corner (1); nope"
        );
    }

    #[test]
    fn a_field_label_takes_the_descriptions_spelling_only_of_a_whole_word() {
        let f = |name: &str, description: &str| FieldDef {
            name: name.into(),
            kind: FieldType::Bool,
            to: None,
            length: None,
            tagged: None,
            required: false,
            default: None,
            description: description.into(),
            choices: Vec::new(),
            min: None,
            max: None,
        };
        assert_eq!(field_label(&f("vip", "VIP (solo): rides alone")), "VIP");
        assert_eq!(field_label(&f("vip", "A VIP card: pays more")), "VIP");
        assert_eq!(field_label(&f("vip", "Vipers hate it")), "vip");
        assert_eq!(field_label(&f("vip", "VIPERS hate it")), "vip");
        assert_eq!(field_label(&f("back", "Back color")), "back");
        assert_eq!(field_label(&f("ticket_limit", "")), "ticket limit");
        assert_eq!(
            field_label(&f("vip_bonus", "Coins per VIP card")),
            "VIP bonus"
        );
    }
}
