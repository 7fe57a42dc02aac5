//! Resolution: checks merged raw content and builds the [`GameDef`].
//!
//! Every check pushes a diagnostic and carries on with what it can, so one run reports every
//! problem: bad ids, duplicates, out-of-range numbers, wrong field types, and references to
//! tiles, spaces, pieces, cards or rows that do not exist (with "did you mean").

use std::collections::{BTreeMap, HashMap, HashSet};

use super::def::*;
use super::load::{At, Files, Merged, RawScript};
use super::raw::{self, RawFieldDef, RawValue, Sp, SpannedMap};
use crate::board::MAX_EDGE_COST;
use crate::diag::{Diagnostics, did_you_mean, suggestion};
use crate::value::Value;

struct Ctx<'a> {
    files: &'a Files,
    diags: &'a mut Diagnostics,
}

impl Ctx<'_> {
    fn err(&mut self, file: usize, span: std::ops::Range<usize>, msg: impl Into<String>) {
        let d = self.files.error(file, span, msg);
        self.diags.push(d);
    }

    /// Ids are lowercase letters, digits and dashes, starting with a letter or digit.
    fn check_id(&mut self, file: usize, id: &Sp<String>, what: &str) {
        let s = id.get();
        let ok = !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            && !s.starts_with('-');
        if !ok {
            self.err(
                file,
                id.span(),
                format!("{what} id `{s}` should use only lowercase letters, digits and dashes"),
            );
        }
    }

    /// Reports the second and later uses of each id.
    fn unique<'i>(&mut self, what: &str, items: impl IntoIterator<Item = (usize, &'i Sp<String>)>) {
        let mut seen: HashMap<&str, usize> = HashMap::new();
        for (file, id) in items {
            if let Some(first) = seen.get(id.get().as_str()) {
                let line = self
                    .files
                    .files
                    .get(*first)
                    .map_or(String::new(), |f| f.path.clone());
                self.err(
                    file,
                    id.span(),
                    format!("{what} `{}` is defined twice (first in {line})", id.get()),
                );
            } else {
                seen.insert(id.get(), file);
            }
        }
    }
}

/// The most copies of one piece (`count`).
pub const MAX_PIECE_COUNT: u32 = 1_000;
/// The most pieces a game may have, every seat's set counted.
pub const MAX_PIECES: u64 = 10_000;
/// The most cards all decks together may have, copies counted.
pub const MAX_CARDS: u64 = 20_000;

/// The ids a kind of target offers: in order (for suggestions) and as a set.
type KnownIds = (Vec<String>, HashSet<String>);

/// A reference to check once every id is known.
struct PendingRef {
    file: usize,
    span: std::ops::Range<usize>,
    target: String,
    id: String,
    context: String,
    /// A tag the thing named must carry.
    tagged: Option<String>,
}

pub fn resolve(merged: Merged, files: &Files, diags: &mut Diagnostics) -> Option<GameDef> {
    let mut cx = Ctx { files, diags };
    let manifest = merged.manifest.as_ref()?;
    let mf = manifest.file;
    let m = &manifest.item;
    cx.check_id(mf, &m.id, "mod");
    let players = match &merged.players {
        Some(At {
            file: pf, item: p, ..
        }) => {
            let (lo, hi) = (*p.min.get(), *p.max.get());
            if lo == 0 {
                cx.err(*pf, p.min.span(), "a game needs at least 1 player");
            }
            if hi < lo {
                cx.err(
                    *pf,
                    p.max.span(),
                    format!("players.max ({hi}) is less than players.min ({lo})"),
                );
            }
            if hi > 16 {
                cx.err(*pf, p.max.span(), "at most 16 seats are supported");
            }
            (lo, hi)
        }
        None => {
            if merged.scripts.is_empty() {
                (1, 1)
            } else {
                cx.err(
                    mf,
                    m.id.span(),
                    "a playable mod needs `players = { min = .., max = .. }`",
                );
                (1, 1)
            }
        }
    };

    let options = resolve_options(&mut cx, &merged.options);
    let constants: BTreeMap<String, Value> = merged
        .constants
        .iter()
        .map(|(k, v)| (k.clone(), Value::from_toml(v)))
        .collect();

    // Tiles first: grid cells refer to them.
    cx.unique("tile", merged.tiles.iter().map(|t| (t.file, &t.item.id)));
    let tiles: Vec<TileDef> = merged
        .tiles
        .iter()
        .map(|t| resolve_tile(&mut cx, t))
        .collect();
    let tile_index: HashMap<String, usize> = tiles
        .iter()
        .enumerate()
        .map(|(i, t)| (t.id.clone(), i))
        .collect();

    let mut spaces: HashMap<String, usize> = HashMap::new();
    let mut track_pieces: Vec<String> = Vec::new();
    let board = match &merged.board {
        None => BoardDef::None,
        Some(b) => super::board_def::resolve_board(
            &mut super::board_def::BoardCtx {
                files,
                diags: cx.diags,
                misses: 0,
            },
            b,
            &tile_index,
            &mut spaces,
            &mut track_pieces,
        ),
    };

    // Options that decide how a sections board is laid out.
    if let Some(b) = &merged.board
        && let Some(sec) = &b.item.sections
    {
        for o in [&sec.shuffle_option, &sec.rotate_option]
            .into_iter()
            .flatten()
        {
            check_option_ref(&mut cx, &merged, &options, b.file, o, OptionType::Bool);
        }
    }

    // Pieces file.
    cx.unique("piece", merged.pieces.iter().map(|p| (p.file, &p.item.id)));
    cx.unique(
        "counter",
        merged.counters.iter().map(|p| (p.file, &p.item.id)),
    );
    cx.unique("zone", merged.zones.iter().map(|p| (p.file, &p.item.id)));
    cx.unique("deck", merged.decks.iter().map(|p| (p.file, &p.item.id)));
    cx.unique("table", merged.tables.iter().map(|p| (p.file, &p.item.id)));
    let pieces: Vec<PieceDef> = merged
        .pieces
        .iter()
        .map(|p| {
            cx.check_id(p.file, &p.item.id, "piece");
            let r = &p.item;
            PieceDef {
                id: r.id.get().clone(),
                name: r.name.clone(),
                per_seat: r.per_seat,
                count: r.count,
                tags: r.tags.clone(),
                props: Value::map_from_toml(&r.props),
            }
        })
        .collect();

    // Every piece is made when a game starts: a billion of them would exhaust memory.
    let mut total_pieces = 0u64;
    for (p, def) in merged.pieces.iter().zip(&pieces) {
        if def.count > MAX_PIECE_COUNT {
            cx.err(
                p.file,
                p.item.id.span(),
                format!(
                    "piece `{}` has count = {}; a piece may have at most {MAX_PIECE_COUNT} copies",
                    def.id, def.count
                ),
            );
            continue;
        }
        let sets = if def.per_seat { players.1.max(1) } else { 1 };
        let before = total_pieces;
        total_pieces += def.count as u64 * sets as u64;
        if before <= MAX_PIECES && total_pieces > MAX_PIECES {
            cx.err(
                p.file,
                p.item.id.span(),
                format!(
                    "with piece `{}` the game has more than {MAX_PIECES} pieces (counting every seat's set)",
                    def.id
                ),
            );
        }
    }

    let mut pending: Vec<PendingRef> = Vec::new();
    let decks: Vec<DeckDef> = merged
        .decks
        .iter()
        .map(|d| resolve_deck(&mut cx, d, &mut pending))
        .collect();
    let mut total_cards = 0u64;
    for (d, def) in merged.decks.iter().zip(&decks) {
        let before = total_cards;
        total_cards += def.cards.iter().map(|c| c.count as u64).sum::<u64>();
        if before <= MAX_CARDS && total_cards > MAX_CARDS {
            cx.err(
                d.file,
                d.item.id.span(),
                format!(
                    "with deck `{}` the game has more than {MAX_CARDS} cards (counting copies)",
                    def.id
                ),
            );
        }
    }
    let tables: Vec<TableDef> = merged
        .tables
        .iter()
        .map(|t| resolve_table(&mut cx, t, &mut pending))
        .collect();
    let deck_index: HashMap<String, usize> = decks
        .iter()
        .enumerate()
        .map(|(i, d)| (d.id.clone(), i))
        .collect();
    let table_index: HashMap<String, usize> = tables
        .iter()
        .enumerate()
        .map(|(i, t)| (t.id.clone(), i))
        .collect();

    let mut score_counter: Option<&str> = None;
    let counters: Vec<CounterDef> = merged
        .counters
        .iter()
        .map(|c| {
            let r = &c.item;
            cx.check_id(c.file, &r.id, "counter");
            if *r.score.get() {
                if r.scope != Scope::Seat {
                    cx.err(
                        c.file,
                        r.score.span(),
                        "only a seat counter can be the score (`scope = \"seat\"`)",
                    );
                }
                match score_counter {
                    Some(first) => cx.err(
                        c.file,
                        r.score.span(),
                        format!("counter `{first}` is already the score; a game has one score counter"),
                    ),
                    None => score_counter = Some(r.id.get()),
                }
            }
            if let Some(o) = &r.initial_option {
                check_option_ref(&mut cx, &merged, &options, c.file, o, OptionType::Int);
            }
            let mut initial = r.initial;
            if let Some(k) = &r.initial_constant {
                if r.initial_option.is_some() || r.initial != 0 {
                    cx.err(
                        c.file,
                        k.span(),
                        "give one starting value: `initial`, `initial_option` or `initial_constant`",
                    );
                }
                match constants.get(k.get()) {
                    Some(Value::Int(v)) => initial = *v,
                    Some(other) => cx.err(
                        c.file,
                        k.span(),
                        format!(
                            "constant `{}` is {}, not a whole number",
                            k.get(),
                            other.type_name()
                        ),
                    ),
                    None => {
                        let hint = suggestion(k.get(), constants.keys().map(String::as_str));
                        cx.err(c.file, k.span(), format!("no constant `{}`{hint}", k.get()));
                    }
                }
            }
            if let Some(w) = &r.applies_when {
                check_applies(&mut cx, c.file, w.get(), None, &options);
            }
            CounterDef {
                id: r.id.get().clone(),
                name: r.name.clone(),
                scope: r.scope,
                initial,
                initial_option: r.initial_option.as_ref().map(|o| o.get().clone()),
                min: r.min,
                max: r.max,
                applies_when: r.applies_when.as_ref().map(|w| {
                    let w = w.get();
                    (w.option.get().clone(), Value::from_toml(w.is.get()))
                }),
                score: *r.score.get(),
            }
        })
        .collect();
    let zones: Vec<ZoneDef> = merged
        .zones
        .iter()
        .map(|z| {
            let r = &z.item;
            cx.check_id(z.file, &r.id, "zone");
            let deck = r.deck.as_ref().and_then(|d| match deck_index.get(d.get()) {
                Some(&i) => Some(i),
                None => {
                    let msg = removed(&merged, "decks", "deck", d.get()).unwrap_or_else(|| {
                        let hint = suggestion(d.get(), deck_index.keys().map(|k| k.as_str()));
                        format!("no deck `{}`{hint}", d.get())
                    });
                    cx.err(z.file, d.span(), msg);
                    None
                }
            });
            ZoneDef {
                id: r.id.get().clone(),
                name: r.name.clone(),
                per_seat: r.per_seat,
                visibility: r.visibility,
                deck,
                shuffle: r.shuffle,
                shown: r.shown,
            }
        })
        .collect();

    // References, now that every id is known.
    let piece_ids: HashSet<&str> = pieces.iter().map(|p| p.id.as_str()).collect();
    let space_tags = space_tags(&board);
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
    // The ids each kind of target offers, worked out once per target. Err: what is wrong
    // with the target itself (a deck or table that does not exist, a table without a key),
    // said at its first reference only; None there: reported when the field was defined.
    let ids_of = |t: &str| -> Result<Vec<String>, Option<String>> {
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
    };
    let mut known_ids: HashMap<&str, Option<KnownIds>> = HashMap::new();
    // "Did you mean" compares with every id: only for the first few misses.
    let mut misses = 0usize;
    for r in &pending {
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
            if let Some(msg) = removed(&merged, &r.target, noun, &r.id) {
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

    let scripts: Vec<ScriptDef> = merged.scripts.iter().map(script_def).collect();
    let mut bot_ids = Vec::new();
    let mut bots = Vec::new();
    for (b, script) in &merged.bots {
        cx.check_id(b.file, &b.item.id, "bot");
        bot_ids.push((b.file, &b.item.id));
        if let Some(s) = script {
            bots.push(BotDef {
                id: b.item.id.get().clone(),
                name: b.item.name.clone(),
                description: b.item.description.clone(),
                script: script_def(s),
            });
        }
    }
    cx.unique("bot", bot_ids);

    let index = super::def::Index {
        tiles: tile_index,
        decks: deck_index,
        tables: table_index,
        counters: counters
            .iter()
            .enumerate()
            .map(|(i, c)| (c.id.clone(), i))
            .collect(),
        zones: zones
            .iter()
            .enumerate()
            .map(|(i, c)| (c.id.clone(), i))
            .collect(),
        pieces: pieces
            .iter()
            .enumerate()
            .map(|(i, c)| (c.id.clone(), i))
            .collect(),
        spaces,
    };
    Some(GameDef {
        id: m.id.get().clone(),
        name: m.name.clone(),
        version: m.version.get().clone(),
        description: m.description.clone(),
        credits: m.credits.clone(),
        players,
        seat_names: merged.seat_names.clone(),
        layers: merged.layers.clone(),
        options,
        constants,
        board,
        tiles,
        decks,
        tables,
        pieces,
        counters,
        zones,
        scripts,
        bots,
        content_hash: files.hash(),
        index,
        catalog: Default::default(),
    })
}

fn script_def(s: &RawScript) -> ScriptDef {
    ScriptDef {
        mod_id: s.mod_id.clone(),
        path: s.path.clone(),
        display: s.display.clone(),
        source: s.source.clone(),
        bytecode: crate::luau::compile(&s.source),
    }
}

fn resolve_options(cx: &mut Ctx, raw: &[At<raw::RawOption>]) -> Vec<OptionDef> {
    cx.unique("option", raw.iter().map(|o| (o.file, &o.item.id)));
    let defs: Vec<OptionDef> = raw
        .iter()
        .map(|o| {
            let r = &o.item;
            cx.check_id(o.file, &r.id, "option");
            let default = Value::from_toml(r.default.get());
            let kind = *r.kind.get();
            let choices: Vec<(String, String)> = r
                .choices
                .iter()
                .map(|c| (c.id.get().clone(), c.label.clone()))
                .collect();
            let ok = match kind {
                OptionType::Int => default.as_int().is_some(),
                OptionType::Bool => default.as_bool().is_some(),
                OptionType::Choice => default.as_str().is_some(),
            };
            if !ok {
                cx.err(
                    o.file,
                    r.default.span(),
                    format!(
                        "default of a {} option cannot be {}",
                        format!("{kind:?}").to_lowercase(),
                        default.type_name()
                    ),
                );
            }
            match kind {
                OptionType::Choice => {
                    if choices.is_empty() {
                        cx.err(
                            o.file,
                            r.id.span(),
                            format!("choice option `{}` lists no `choices`", r.id.get()),
                        );
                    } else if let Some(d) = default.as_str()
                        && !choices.iter().any(|(c, _)| c == d)
                    {
                        let hint = suggestion(d, choices.iter().map(|(c, _)| c.as_str()));
                        cx.err(
                            o.file,
                            r.default.span(),
                            format!("default `{d}` is not one of the choices{hint}"),
                        );
                    }
                    for c in &r.choices {
                        cx.check_id(o.file, &c.id, "choice");
                    }
                }
                OptionType::Int => {
                    if let Some(d) = default.as_int()
                        && (r.min.is_some_and(|m| d < m) || r.max.is_some_and(|m| d > m))
                    {
                        cx.err(
                            o.file,
                            r.default.span(),
                            format!("default {d} is outside min..max"),
                        );
                    }
                    if !r.choices.is_empty() {
                        cx.err(o.file, r.id.span(), "only choice options have `choices`");
                    }
                }
                OptionType::Bool => {
                    if !r.choices.is_empty() || r.min.is_some() || r.max.is_some() {
                        cx.err(
                            o.file,
                            r.id.span(),
                            "a bool option takes no `choices`, `min` or `max`",
                        );
                    }
                }
            }
            OptionDef {
                id: r.id.get().clone(),
                label: r.label.clone(),
                description: r.description.clone(),
                kind,
                default,
                min: r.min,
                max: r.max,
                choices,
                applies_when: r.applies_when.as_ref().map(|w| {
                    let w = w.get();
                    (w.option.get().clone(), Value::from_toml(w.is.get()))
                }),
            }
        })
        .collect();
    check_applies_when(cx, raw, &defs);
    defs
}

/// Checks every `applies_when` once all options are known: it names another option, a choice
/// or bool one, and a value that option can take.
fn check_applies_when(cx: &mut Ctx, raw: &[At<raw::RawOption>], defs: &[OptionDef]) {
    for o in raw {
        if let Some(w) = &o.item.applies_when {
            check_applies(cx, o.file, w.get(), Some(o.item.id.get()), defs);
        }
    }
}

/// One `applies_when` (of an option, or of a counter when `own` is None).
fn check_applies(
    cx: &mut Ctx,
    file: usize,
    w: &raw::RawAppliesWhen,
    own: Option<&String>,
    defs: &[OptionDef],
) {
    let name = w.option.get();
    let Some(other) = defs.iter().find(|d| &d.id == name) else {
        let hint = suggestion(name, defs.iter().map(|d| d.id.as_str()));
        cx.err(file, w.option.span(), format!("no option `{name}`{hint}"));
        return;
    };
    if own == Some(&other.id) {
        cx.err(file, w.option.span(), "an option cannot depend on itself");
        return;
    }
    let is = Value::from_toml(w.is.get());
    let fits = match other.kind {
        OptionType::Bool => is.as_bool().is_some(),
        OptionType::Choice => is
            .as_str()
            .is_some_and(|v| other.choices.iter().any(|(c, _)| c == v)),
        OptionType::Int => {
            cx.err(
                file,
                w.option.span(),
                format!(
                    "`applies_when` names `{name}`, an int option: name a choice or bool option"
                ),
            );
            return;
        }
    };
    if !fits {
        let hint = match is.as_str() {
            Some(v) => suggestion(v, other.choices.iter().map(|(c, _)| c.as_str())),
            None => String::new(),
        };
        let shown = match is.as_str() {
            Some(v) => format!("`{v}`"),
            None => is.to_string(),
        };
        cx.err(
            file,
            w.is.span(),
            format!("`{name}` cannot be {shown}{hint}"),
        );
    }
}

fn resolve_tile(cx: &mut Ctx, t: &At<raw::RawTile>) -> TileDef {
    let r = &t.item;
    cx.check_id(t.file, &r.id, "tile");
    let mut links = [0u8; 4];
    for road in &r.roads {
        let s = road.get().replace(' ', "");
        let bad = |cx: &mut Ctx| {
            cx.err(t.file, road.span(), format!("road `{}` should look like \"N-S\" (both ways), \"W>E\" (one way) or \"S\" (dead end)", road.get()));
        };
        if let Some((a, b)) = s.split_once('-') {
            match (Side::parse(a), Side::parse(b)) {
                (Some(a), Some(b)) if a != b => {
                    links[a.index()] |= 1 << b.index();
                    links[b.index()] |= 1 << a.index();
                }
                _ => bad(cx),
            }
        } else if let Some((a, b)) = s.split_once('>') {
            match (Side::parse(a), Side::parse(b)) {
                (Some(a), Some(b)) if a != b => links[a.index()] |= 1 << b.index(),
                _ => bad(cx),
            }
        } else if let Some(a) = Side::parse(&s) {
            links[a.index()] |= 1 << a.index();
        } else {
            bad(cx);
        }
    }
    let move_cost = match &r.move_cost {
        None => 1,
        Some(c) => match u32::try_from(*c.get()) {
            Ok(v) if (1..=MAX_EDGE_COST).contains(&v) => v,
            _ => {
                cx.err(
                    t.file,
                    c.span(),
                    format!(
                        "tile `{}`: move_cost is a whole number from 1 to {MAX_EDGE_COST}, not {}",
                        r.id.get(),
                        c.get()
                    ),
                );
                1
            }
        },
    };
    TileDef {
        id: r.id.get().clone(),
        name: r.name.clone(),
        text: r.text.clone(),
        links,
        move_cost,
        rotatable: r.rotatable,
        blocks: r.blocks,
        tags: r.tags.clone(),
        props: Value::map_from_toml(&r.props),
    }
}

fn resolve_fields(
    cx: &mut Ctx,
    file: usize,
    raw: &BTreeMap<Sp<String>, RawFieldDef>,
    reserved: &[&str],
) -> Vec<FieldDef> {
    let mut out = Vec::new();
    for (name, f) in raw {
        if reserved.contains(&name.get().as_str()) {
            cx.err(
                file,
                name.span(),
                format!(
                    "`{}` is a fixed key of every card; it cannot be declared as a field",
                    name.get()
                ),
            );
            continue;
        }
        let kind = *f.kind.get();
        let is_ref = matches!(kind, FieldType::Ref | FieldType::Refs);
        match (&f.to, is_ref) {
            (None, true) => cx.err(
                file,
                f.kind.span(),
                format!(
                    "field `{}` is a reference; say what it refers to with `to`",
                    name.get()
                ),
            ),
            (Some(to), false) => cx.err(file, to.span(), "`to` is only for ref and refs fields"),
            (Some(to), true) => {
                let t = to.get();
                let valid = ["tiles", "spaces", "pieces", "track-pieces"].contains(&t.as_str())
                    || t.strip_prefix("deck:").is_some_and(|s| !s.is_empty())
                    || t.strip_prefix("table:").is_some_and(|s| !s.is_empty());
                if !valid {
                    let hint = suggestion(t, ["tiles", "spaces", "pieces", "track-pieces"]);
                    cx.err(file, to.span(), format!("`to = \"{t}\"` is not a kind of thing: use tiles, spaces, pieces, track-pieces, deck:<id> or table:<id>{hint}"));
                }
            }
            (None, false) => {}
        }
        if !f.choices.is_empty() && !matches!(kind, FieldType::String | FieldType::Strings) {
            cx.err(file, f.kind.span(), "only string fields have `choices`");
        }
        if let Some(n) = &f.length
            && !matches!(kind, FieldType::Ints | FieldType::Strings | FieldType::Refs)
        {
            cx.err(
                file,
                n.span(),
                "only list fields (ints, strings, refs) have a `length`",
            );
        }
        if let Some(tag) = &f.tagged {
            let taggable = f.to.as_ref().is_some_and(|t| {
                ["spaces", "tiles", "pieces"].contains(&t.get().as_str())
                    || t.get().starts_with("deck:")
            });
            if !is_ref || !taggable {
                cx.err(
                    file,
                    tag.span(),
                    "`tagged` is only for ref and refs fields naming spaces, tiles, pieces or the cards of a deck",
                );
            }
        }
        let fd = FieldDef {
            name: name.get().clone(),
            kind,
            to: f.to.as_ref().map(|t| t.get().clone()),
            length: f.length.as_ref().map(|n| *n.get()),
            tagged: f.tagged.as_ref().map(|t| t.get().clone()),
            required: f.required,
            default: None,
            description: f.description.clone(),
        };
        let default = f
            .default
            .as_ref()
            .and_then(|d| match check_value(f, d.get()) {
                Ok(v) => Some(v),
                Err(e) => {
                    cx.err(
                        file,
                        d.span(),
                        format!("default of field `{}`: {e}", name.get()),
                    );
                    None
                }
            });
        out.push(FieldDef { default, ..fd });
    }
    out
}

/// Checks that `o` names an option of the given kind (with "did you mean", or which patch
/// removed it).
fn check_option_ref(
    cx: &mut Ctx,
    merged: &Merged,
    options: &[OptionDef],
    file: usize,
    o: &Sp<String>,
    kind: OptionType,
) {
    match options.iter().find(|x| &x.id == o.get()) {
        Some(opt) if opt.kind == kind => {}
        Some(_) => {
            let want = match kind {
                OptionType::Int => "an int",
                OptionType::Bool => "a bool",
                OptionType::Choice => "a choice",
            };
            cx.err(
                file,
                o.span(),
                format!("option `{}` is not {want} option", o.get()),
            )
        }
        None => {
            let msg = removed(merged, "options", "option", o.get()).unwrap_or_else(|| {
                let hint = suggestion(o.get(), options.iter().map(|x| x.id.as_str()));
                format!("no option `{}`{hint}", o.get())
            });
            cx.err(file, o.span(), msg);
        }
    }
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

/// Checks one value against its field type; returns the typed value.
fn check_value(f: &RawFieldDef, v: &RawValue) -> Result<Value, String> {
    let int_in_range = |i: i64| -> Result<i64, String> {
        if let Some(m) = f.min.filter(|&m| i < m) {
            return Err(format!("{i} is less than the minimum {m}"));
        }
        if let Some(m) = f.max.filter(|&m| i > m) {
            return Err(format!("{i} is more than the maximum {m}"));
        }
        Ok(i)
    };
    let string_choice = |s: &str| -> Result<String, String> {
        if f.choices.is_empty() || f.choices.iter().any(|c| c == s) {
            Ok(s.to_string())
        } else {
            let hint = suggestion(s, f.choices.iter().map(|c| c.as_str()));
            Err(format!(
                "`{s}` is not one of {}{hint}",
                f.choices.join(", ")
            ))
        }
    };
    let wrong = |want: &str| {
        Err(format!(
            "expected {want}, found {}",
            Value::from_toml(v).type_name()
        ))
    };
    if let (Some(n), RawValue::Array(a)) = (&f.length, v)
        && a.len() != *n.get() as usize
    {
        let n = *n.get();
        return Err(format!(
            "expected exactly {n} {}, found {}",
            if n == 1 { "item" } else { "items" },
            a.len()
        ));
    }
    match (f.kind.get(), v) {
        (FieldType::Int, RawValue::Integer(i)) => Ok(Value::Int(int_in_range(*i)?)),
        (FieldType::Int, _) => wrong("an integer"),
        (FieldType::Number, RawValue::Integer(i)) => Ok(Value::Num(*i as f64)),
        (FieldType::Number, RawValue::Float(x)) => Ok(Value::Num(*x)),
        (FieldType::Number, _) => wrong("a number"),
        (FieldType::Bool, RawValue::Boolean(b)) => Ok(Value::Bool(*b)),
        (FieldType::Bool, _) => wrong("true or false"),
        (FieldType::String | FieldType::Ref, RawValue::String(s)) => {
            Ok(Value::Str(string_choice(s)?))
        }
        (FieldType::String | FieldType::Ref, _) => wrong("a string"),
        (FieldType::Ints, RawValue::Array(a)) => a
            .iter()
            .map(|x| match x {
                RawValue::Integer(i) => int_in_range(*i).map(Value::Int),
                other => Err(format!(
                    "expected a list of integers, found {} in it",
                    Value::from_toml(other).type_name()
                )),
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Value::List),
        (FieldType::Strings | FieldType::Refs, RawValue::Array(a)) => a
            .iter()
            .map(|x| match x {
                RawValue::String(s) => string_choice(s).map(Value::Str),
                other => Err(format!(
                    "expected a list of strings, found {} in it",
                    Value::from_toml(other).type_name()
                )),
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Value::List),
        (FieldType::Ints | FieldType::Strings | FieldType::Refs, _) => wrong("a list"),
    }
}

/// Checks the rows of a deck or table against its fields; `fixed` are keys every row may have.
#[allow(clippy::too_many_arguments)]
fn check_rows(
    cx: &mut Ctx,
    files: &[usize],
    what: &str,
    defs: &BTreeMap<Sp<String>, RawFieldDef>,
    fields: &[FieldDef],
    rows: &[SpannedMap],
    fixed: &[&str],
    pending: &mut Vec<PendingRef>,
) -> Vec<BTreeMap<String, Value>> {
    let mut out = Vec::new();
    let by_name: HashMap<&str, &RawFieldDef> =
        defs.iter().map(|(n, d)| (n.get().as_str(), d)).collect();
    for (i, row) in rows.iter().enumerate() {
        let file = files[i];
        let label = row
            .iter()
            .find(|(k, _)| k.get() == "id")
            .and_then(|(_, v)| v.get().as_str().map(|s| format!("{what} `{s}`")))
            .unwrap_or_else(|| format!("{what} #{}", i + 1));
        let mut values = BTreeMap::new();
        // Fields a misspelt key was taken to mean: their absence is not news.
        let mut meant: Vec<&str> = vec![];
        for (k, v) in row {
            let key = k.get().as_str();
            if fixed.contains(&key) {
                continue;
            }
            let Some(&def) = by_name.get(key) else {
                let known: Vec<&str> = fixed
                    .iter()
                    .copied()
                    .chain(fields.iter().map(|f| f.name.as_str()))
                    .collect();
                meant.extend(did_you_mean(key, known.iter().copied()));
                let hint = suggestion(key, known.iter().copied());
                let hint = if hint.is_empty() {
                    format!("; declare it under [fields.{key}] or [columns.{key}]")
                } else {
                    hint
                };
                cx.err(
                    file,
                    k.span(),
                    format!("{label} has unknown field `{key}`{hint}"),
                );
                continue;
            };
            match check_value(def, v.get()) {
                Ok(val) => {
                    if let Some(to) = &def.to {
                        let ids: Vec<String> = match &val {
                            Value::Str(s) => vec![s.clone()],
                            Value::List(l) => l
                                .iter()
                                .filter_map(|x| x.as_str().map(String::from))
                                .collect(),
                            _ => vec![],
                        };
                        for id in ids {
                            pending.push(PendingRef {
                                file,
                                span: v.span(),
                                target: to.get().clone(),
                                id,
                                context: format!("{label}, field `{key}`"),
                                tagged: def.tagged.as_ref().map(|t| t.get().clone()),
                            });
                        }
                    }
                    values.insert(key.to_string(), val);
                }
                Err(e) => {
                    // Given, though wrong: not also "missing".
                    meant.push(key);
                    cx.err(file, v.span(), format!("{label}, field `{key}`: {e}"))
                }
            }
        }
        for f in fields {
            if values.contains_key(&f.name) {
                continue;
            }
            if let Some(d) = &f.default {
                values.insert(f.name.clone(), d.clone());
            } else if f.required && !meant.contains(&f.name.as_str()) {
                let span = row.keys().next().map_or(0..0, |k| k.span());
                cx.err(
                    file,
                    span,
                    format!("{label} is missing required field `{}`", f.name),
                );
            }
        }
        out.push(values);
    }
    out
}

fn fixed_string(row: &SpannedMap, key: &str) -> Option<(String, std::ops::Range<usize>)> {
    row.iter()
        .find(|(k, _)| k.get() == key)
        .and_then(|(_, v)| v.get().as_str().map(|s| (s.to_string(), v.span())))
}

/// When a patch took out what a reference names: says which, and where.
fn removed(merged: &Merged, target: &str, noun: &str, id: &str) -> Option<String> {
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

/// The file of each of `n` cards or rows: where a patch put it, else the deck's or table's.
fn row_files(file: usize, n: usize, patched: &[Option<usize>]) -> Vec<usize> {
    (0..n)
        .map(|i| patched.get(i).copied().flatten().unwrap_or(file))
        .collect()
}

fn resolve_deck(cx: &mut Ctx, d: &At<raw::RawDeck>, pending: &mut Vec<PendingRef>) -> DeckDef {
    let r = &d.item;
    let file = d.file;
    cx.check_id(file, &r.id, "deck");
    const FIXED: [&str; 5] = ["id", "name", "text", "count", "tags"];
    let fields = resolve_fields(cx, file, &r.fields, &FIXED);
    let files = row_files(file, r.cards.len(), &r.card_files);
    let values = check_rows(
        cx, &files, "card", &r.fields, &fields, &r.cards, &FIXED, pending,
    );
    let mut cards = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    for ((row, fields), &file) in r.cards.iter().zip(values).zip(&files) {
        let Some((id, span)) = fixed_string(row, "id") else {
            let span = row.keys().next().map_or(0..0, |k| k.span());
            cx.err(file, span, "a card needs an `id` (a string)");
            continue;
        };
        let sp_check = Sp(toml::Spanned::new(span.clone(), id.clone()));
        cx.check_id(file, &sp_check, "card");
        if !seen.insert(id.clone()) {
            cx.err(
                file,
                span.clone(),
                format!(
                    "card `{id}` appears twice in deck `{}`; use `count` for copies",
                    r.id.get()
                ),
            );
        }
        let mut count = 1u32;
        let mut tags = Vec::new();
        for (k, v) in row {
            match (k.get().as_str(), v.get()) {
                ("count", RawValue::Integer(c)) if (0..=1000).contains(c) => count = *c as u32,
                ("count", _) => cx.err(file, v.span(), "`count` is a whole number from 0 to 1000"),
                ("tags", RawValue::Array(a)) if a.iter().all(|t| t.is_str()) => {
                    tags = a
                        .iter()
                        .filter_map(|t| t.as_str().map(String::from))
                        .collect();
                    if let Some(table) = &r.tags_from {
                        for tag in &tags {
                            pending.push(PendingRef {
                                file,
                                span: v.span(),
                                target: format!("table:{}", table.get()),
                                id: tag.clone(),
                                context: format!("card `{id}`, tags"),
                                tagged: None,
                            });
                        }
                    }
                }
                ("tags", _) => cx.err(file, v.span(), "`tags` is a list of strings"),
                ("name" | "text", x) if !x.is_str() => {
                    cx.err(file, v.span(), format!("`{}` is a string", k.get()))
                }
                _ => {}
            }
        }
        cards.push(CardDef {
            name: fixed_string(row, "name").map_or_else(|| id.clone(), |(n, _)| n),
            text: fixed_string(row, "text")
                .map(|(t, _)| t)
                .unwrap_or_default(),
            id,
            count,
            tags,
            fields,
        });
    }
    DeckDef {
        id: r.id.get().clone(),
        name: r.name.clone(),
        description: r.description.clone(),
        fields,
        cards,
    }
}

fn resolve_table(cx: &mut Ctx, t: &At<raw::RawTable>, pending: &mut Vec<PendingRef>) -> TableDef {
    let r = &t.item;
    let file = t.file;
    cx.check_id(file, &r.id, "table");
    let columns = resolve_fields(cx, file, &r.columns, &[]);
    let files = row_files(file, r.rows.len(), &r.row_files);
    let rows = check_rows(
        cx,
        &files,
        "row",
        &r.columns,
        &columns,
        &r.rows,
        &[],
        pending,
    );
    if let Some(k) = &r.key {
        if !columns.iter().any(|c| &c.name == k.get()) {
            let hint = suggestion(k.get(), columns.iter().map(|c| c.name.as_str()));
            cx.err(
                file,
                k.span(),
                format!("key column `{}` is not among the columns{hint}", k.get()),
            );
        } else {
            let mut seen = HashSet::new();
            for (i, row) in rows.iter().enumerate() {
                match row.get(k.get()) {
                    Some(v) => {
                        if !seen.insert(v.to_string()) {
                            let file = files[i];
                            let span = r
                                .rows
                                .get(i)
                                .and_then(|rw| rw.keys().next())
                                .map_or(0..0, |k| k.span());
                            cx.err(
                                file,
                                span,
                                format!("two rows have the key {} = {v}", k.get()),
                            );
                        }
                    }
                    None => {
                        let file = files[i];
                        let span = r
                            .rows
                            .get(i)
                            .and_then(|rw| rw.keys().next())
                            .map_or(0..0, |k| k.span());
                        cx.err(
                            file,
                            span,
                            format!(
                                "row #{} has no value for the key column `{}`",
                                i + 1,
                                k.get()
                            ),
                        );
                    }
                }
            }
        }
    }
    TableDef {
        id: r.id.get().clone(),
        name: r.name.clone(),
        description: r.description.clone(),
        key: r.key.as_ref().map(|k| k.get().clone()),
        columns,
        rows,
    }
}
