//! References: what a field of type ref or refs names (a tile, space, piece, track piece, a
//! deck's card or a table's row), checked once every id is known, with "did you mean" and
//! which patch removed a thing that is gone.

use std::collections::{HashMap, HashSet};

use super::Ctx;
use crate::content::def::*;
use crate::content::load::Merged;
use crate::diag::suggestion;

/// The ids a kind of target offers: in order (for suggestions) and as a set.
type KnownIds = (Vec<String>, HashSet<String>);

/// A reference to check once every id is known.
pub(super) struct PendingRef {
    pub(super) file: usize,
    pub(super) span: std::ops::Range<usize>,
    pub(super) target: String,
    pub(super) id: String,
    pub(super) context: String,
    /// A tag the thing named must carry.
    pub(super) tagged: Option<String>,
}

/// When a patch took out what a reference names: says which, and where.
pub(super) fn removed(merged: &Merged, target: &str, noun: &str, id: &str) -> Option<String> {
    merged
        .removed
        .iter()
        .find(|x| x.target == target && x.id == id)
        .map(|x| {
            format!(
                "{noun} `{id}` was removed by mod `{}` ({}); remove or change this too",
                x.mod_id, x.place
            )
        })
}

/// The tags of every space of a board, by space id.
fn space_tags(board: &BoardDef) -> HashMap<String, Vec<String>> {
    let graph = |g: &GraphDef| {
        g.spaces
            .iter()
            .map(|s| (s.id.clone(), s.tags.clone()))
            .collect::<Vec<_>>()
    };
    match board {
        BoardDef::Graph(g) => graph(g).into_iter().collect(),
        BoardDef::Sections(s) => s.sections.iter().flat_map(|x| graph(&x.graph)).collect(),
        BoardDef::Grid(g) => g
            .cells
            .iter()
            .map(|c| {
                let id = c.id.clone().unwrap_or_else(|| format!("{},{}", c.x, c.y));
                (id, c.tags.clone())
            })
            .collect(),
        BoardDef::Track(_) | BoardDef::None => HashMap::new(),
    }
}

/// What references may name: everything resolved before them.
#[derive(Clone, Copy)]
pub(super) struct Known<'a> {
    pub board: &'a BoardDef,
    pub tiles: &'a [TileDef],
    pub tile_index: &'a HashMap<String, usize>,
    pub pieces: &'a [PieceDef],
    pub decks: &'a [DeckDef],
    pub deck_index: &'a HashMap<String, usize>,
    pub tables: &'a [TableDef],
    pub table_index: &'a HashMap<String, usize>,
    pub spaces: &'a HashMap<String, usize>,
    pub track_pieces: &'a Vec<String>,
}

impl Known<'_> {
    /// The ids a kind of target offers (`pieces` from `piece_ids`). Err: what is wrong with the
    /// target itself (a deck or table that does not exist, a table without a key), said at its
    /// first reference only; None there: reported when the field was defined.
    fn ids_of(&self, piece_ids: &HashSet<&str>, t: &str) -> Result<Vec<String>, Option<String>> {
        let Known {
            tiles,
            spaces,
            track_pieces,
            decks,
            deck_index,
            tables,
            table_index,
            ..
        } = *self;
        Ok(match t {
            "tiles" => tiles.iter().map(|t| t.id.clone()).collect(),
            "spaces" => spaces.keys().cloned().collect(),
            "pieces" => piece_ids.iter().map(|s| s.to_string()).collect(),
            "track-pieces" => track_pieces.clone(),
            t => {
                if let Some(d) = t.strip_prefix("deck:") {
                    let Some(&i) = deck_index.get(d) else {
                        let hint = suggestion(d, deck_index.keys().map(|k| k.as_str()));
                        return Err(Some(format!(
                            "refers to deck `{d}`, which does not exist{hint}"
                        )));
                    };
                    decks[i].cards.iter().map(|c| c.id.clone()).collect()
                } else if let Some(tb) = t.strip_prefix("table:") {
                    let Some(&i) = table_index.get(tb) else {
                        let hint = suggestion(tb, table_index.keys().map(|k| k.as_str()));
                        return Err(Some(format!(
                            "refers to table `{tb}`, which does not exist{hint}"
                        )));
                    };
                    let t = &tables[i];
                    let Some(k) = &t.key else {
                        return Err(Some(format!(
                            "refers to table `{tb}`, which has no `key` column"
                        )));
                    };
                    t.rows
                        .iter()
                        .filter_map(|row| row.get(k))
                        .map(|v| v.to_string())
                        .collect()
                } else {
                    return Err(None);
                }
            }
        })
    }
}

/// Checks every pending reference: the thing it names exists (else "did you mean", or which
/// patch removed it) and carries the tag the field asks for. A target that is itself wrong
/// (a deck or table that does not exist, a table without a key) is said once, at its first
/// reference.
pub(super) fn check_references(
    cx: &mut Ctx,
    merged: &Merged,
    pending: &[PendingRef],
    known: Known,
) {
    let Known {
        board,
        tiles,
        tile_index,
        pieces,
        decks,
        deck_index,
        ..
    } = known;
    let piece_ids: HashSet<&str> = pieces.iter().map(|p| p.id.as_str()).collect();
    let space_tags = space_tags(board);
    let piece_at: HashMap<&str, usize> = pieces
        .iter()
        .enumerate()
        .rev()
        .map(|(i, p)| (p.id.as_str(), i))
        .collect();
    // Cards by id, per deck, made when a tag is first asked of that deck.
    let mut card_at: HashMap<usize, HashMap<&str, usize>> = HashMap::new();
    let mut tags_of = |target: &str, id: &str| -> Option<Vec<String>> {
        match target {
            "spaces" => Some(space_tags.get(id).cloned().unwrap_or_default()),
            "tiles" => tile_index.get(id).map(|&i| tiles[i].tags.clone()),
            "pieces" => piece_at.get(id).map(|&i| pieces[i].tags.clone()),
            t => {
                let d = *deck_index.get(t.strip_prefix("deck:")?)?;
                let deck = &decks[d];
                let at = card_at.entry(d).or_insert_with(|| {
                    deck.cards
                        .iter()
                        .enumerate()
                        .rev()
                        .map(|(i, c)| (c.id.as_str(), i))
                        .collect()
                });
                at.get(id).map(|&i| deck.cards[i].tags.clone())
            }
        }
    };
    let ids_of = |t: &str| known.ids_of(&piece_ids, t);
    let mut known_ids: HashMap<&str, Option<KnownIds>> = HashMap::new();
    // "Did you mean" compares with every id: only for the first few misses.
    let mut misses = 0usize;
    for r in pending {
        let known = known_ids.entry(r.target.as_str()).or_insert_with(|| {
            ids_of(&r.target)
                .map_err(|problem| {
                    if let Some(p) = problem {
                        cx.err(r.file, r.span.clone(), format!("{} {p}", r.context));
                    }
                })
                .ok()
                .map(|ids| {
                    let set = ids.iter().cloned().collect();
                    (ids, set)
                })
        });
        let Some((known, known_set)) = known else {
            continue;
        };
        if known_set.contains(&r.id) {
            if let Some(tag) = &r.tagged
                && let Some(tags) = tags_of(&r.target, &r.id)
                && !tags.contains(tag)
            {
                let what = if r.target.starts_with("deck:") {
                    "card"
                } else {
                    r.target.trim_end_matches('s')
                };
                cx.err(
                    r.file,
                    r.span.clone(),
                    format!(
                        "{}: {what} `{}` is not tagged `{tag}` (its tags: {})",
                        r.context,
                        r.id,
                        if tags.is_empty() {
                            "none".to_string()
                        } else {
                            tags.join(", ")
                        }
                    ),
                );
            }
        } else {
            misses += 1;
            let hint = if misses <= 100 {
                suggestion(&r.id, known.iter().map(|k| k.as_str()))
            } else {
                String::new()
            };
            let what = r.target.replace(':', " ").trim_end_matches('s').to_string();
            let noun = if r.target.starts_with("deck:") {
                "card"
            } else {
                &what
            };
            if let Some(msg) = removed(merged, &r.target, noun, &r.id) {
                cx.err(r.file, r.span.clone(), format!("{}: {msg}", r.context));
                continue;
            }
            let missing = if let Some(d) = r.target.strip_prefix("deck:") {
                format!("no card `{}` in deck `{d}`", r.id)
            } else if let Some(t) = r.target.strip_prefix("table:") {
                format!("no row `{}` in table `{t}`", r.id)
            } else {
                format!("no {} `{}`", what.replace('-', " "), r.id)
            };
            cx.err(
                r.file,
                r.span.clone(),
                format!("{}: {missing}{hint}", r.context),
            );
        }
    }
}
