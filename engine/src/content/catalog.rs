//! The content of a mod as outcome figures count it: every card, tile kind, piece kind and
//! option value (an [`Item`]), and which word of an action names which items. Made once per
//! mod and kept with it ([`GameDef::catalog`]); the figures (`crate::figures`) read it.

use std::collections::HashMap;

use std::sync::Arc;

use super::GameDef;

impl GameDef {
    /// Every card, tile kind, piece kind and option value, as outcome figures follow them:
    /// made on first use and kept with the definition.
    pub fn catalog(&self) -> Arc<Catalog> {
        let any = self
            .catalog
            .get_or_init(|| Arc::new(Catalog::of(self)))
            .clone();
        // Only a Catalog is ever put in the slot (just above), so this always succeeds; were
        // it ever not one, a fresh catalog is as good.
        any.downcast::<Catalog>()
            .unwrap_or_else(|_| Arc::new(Catalog::of(self)))
    }
}

/// What a piece of content is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemKind {
    Card,
    Tile,
    Piece,
    OptionValue,
}

/// One piece of content the figures follow.
#[derive(Debug, Clone)]
pub struct Item {
    pub kind: ItemKind,
    /// The id actions name it by (a card's, tile's or piece's id; an option's choice id, or
    /// `true`/`false` for a yes/no option).
    pub id: String,
    /// The key of its figures: the id, or `deck/card` when two decks share a card id, and
    /// `option=value` for an option value.
    pub key: String,
    /// The deck of a card, the option of an option value; empty otherwise.
    pub group: String,
    pub name: String,
}

/// The content of a mod as the figures see it: every item, and which word of an action
/// names which items. Made once per mod ([`GameDef::catalog`]).
#[derive(Debug, Default)]
pub struct Catalog {
    pub items: Vec<Item>,
    /// Item index of each deck's first card.
    pub(crate) deck_start: Vec<u32>,
    pub(crate) piece_start: u32,
    /// Per option of the mod: its id and its values' items ((value, item) pairs).
    pub(crate) options: Vec<(String, Vec<(crate::value::Value, u32)>)>,
    /// An action's word -> the items it names (a card id may be in several decks).
    pub(crate) words: HashMap<String, Vec<u32>>,
}

impl Catalog {
    pub fn of(def: &GameDef) -> Catalog {
        let mut c = Catalog::default();
        let mut card_ids: HashMap<&str, u32> = HashMap::new();
        for d in &def.decks {
            for card in &d.cards {
                *card_ids.entry(card.id.as_str()).or_default() += 1;
            }
        }
        for d in &def.decks {
            c.deck_start.push(c.items.len() as u32);
            for card in &d.cards {
                let shared = card_ids.get(card.id.as_str()).is_some_and(|n| *n > 1);
                c.push(Item {
                    kind: ItemKind::Card,
                    id: card.id.clone(),
                    key: if shared {
                        format!("{}/{}", d.id, card.id)
                    } else {
                        card.id.clone()
                    },
                    group: d.id.clone(),
                    name: card.name.clone(),
                });
            }
        }
        for t in &def.tiles {
            c.push(Item {
                kind: ItemKind::Tile,
                id: t.id.clone(),
                key: t.id.clone(),
                group: String::new(),
                name: t.name.clone(),
            });
        }
        c.piece_start = c.items.len() as u32;
        for p in &def.pieces {
            c.push(Item {
                kind: ItemKind::Piece,
                id: p.id.clone(),
                key: p.id.clone(),
                group: String::new(),
                name: p.name.clone(),
            });
        }
        use crate::content::def::OptionType;
        use crate::value::Value;
        for o in &def.options {
            let values: Vec<(Value, String, String)> = match o.kind {
                OptionType::Choice => o
                    .choices
                    .iter()
                    .map(|(id, label)| (Value::Str(id.clone()), id.clone(), label.clone()))
                    .collect(),
                OptionType::Bool => [true, false]
                    .iter()
                    .map(|b| (Value::Bool(*b), b.to_string(), format!("{}: {b}", o.label)))
                    .collect(),
                // A number option has no list of values to follow.
                OptionType::Int => Vec::new(),
            };
            let mut list = Vec::new();
            for (v, id, name) in values {
                list.push((v, c.items.len() as u32));
                c.push(Item {
                    kind: ItemKind::OptionValue,
                    key: format!("{}={id}", o.id),
                    id,
                    group: o.id.clone(),
                    name,
                });
            }
            c.options.push((o.id.clone(), list));
        }
        c
    }

    /// Adds an item, and the word actions name it by. Cards come first ([`Catalog::of`]): a
    /// tile kind, piece kind or option value whose id is also a card's is not named by that
    /// word, because the card is what a seat holds and plays (Curbside's card `cs-t4` shows
    /// the tile `cs-t4`: "place cs-t4 ..." plays the card, and counting the tile too would
    /// list one piece of content twice, under two kinds).
    fn push(&mut self, item: Item) {
        let i = self.items.len() as u32;
        // Yes/no values are not words an action names content by.
        let yes_no =
            item.kind == ItemKind::OptionValue && (item.id == "true" || item.id == "false");
        let items = &self.items;
        let card_named = |named: &Vec<u32>| {
            named.iter().any(|&k| {
                items
                    .get(k as usize)
                    .is_some_and(|x| x.kind == ItemKind::Card)
            })
        };
        let named_by_a_card =
            item.kind != ItemKind::Card && self.words.get(&item.id).is_some_and(card_named);
        if !yes_no && !named_by_a_card {
            self.words.entry(item.id.clone()).or_default().push(i);
        }
        self.items.push(item);
    }

    /// The items named by a word of an action.
    pub fn named_by(&self, word: &str) -> &[u32] {
        self.words.get(word).map_or(&[], Vec::as_slice)
    }

    /// Whether `id` names something the figures follow (for `--forbid`), and the ids there
    /// are, for "did you mean".
    pub fn knows(&self, id: &str) -> bool {
        self.words.contains_key(id)
    }

    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.words.keys().map(String::as_str)
    }

    pub(crate) fn words(&self) -> usize {
        self.items.len().div_ceil(64).max(1)
    }
}
