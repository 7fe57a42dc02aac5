//! Resolution: checks merged raw content and builds the [`GameDef`].
//!
//! Every check pushes a diagnostic and carries on with what it can, so one run reports every
//! problem: bad ids, duplicates, out-of-range numbers, wrong field types, and references to
//! tiles, spaces, pieces, cards or rows that do not exist (with "did you mean").

mod decks;
mod fields;
mod options;
mod refs;

use std::collections::{BTreeMap, HashMap};

use super::def::*;
use super::load::{At, Files, Merged, RawScript};
use super::raw::{self, Sp};
use crate::content::def::MAX_EDGE_COST;
use crate::diag::{Diagnostics, suggestion};
use crate::value::Value;
use decks::{resolve_deck, resolve_table};
use options::{check_applies, check_option_ref, resolve_options};
use refs::{Known, PendingRef, check_references, removed};

struct Ctx<'a> {
    files: &'a Files,
    diags: &'a mut Diagnostics,
}

/// The longest id content may give anything, in characters.
pub const MAX_ID: usize = 64;

/// Bot ids the built-in players answer to (`--seats random,search:50,human`).
pub const RESERVED_BOTS: [&str; 3] = ["random", "search", "human"];

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
                format!(
                    "{what} id `{}` should use only lowercase letters, digits and dashes",
                    crate::content::files::cut(s, 64)
                ),
            );
        } else if s.chars().count() > MAX_ID {
            self.err(
                file,
                id.span(),
                format!(
                    "{what} id `{}` is {} characters long; ids are at most {MAX_ID} (they name \
                     things in actions, replays and messages)",
                    crate::content::files::cut(s, 64),
                    s.chars().count()
                ),
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

pub fn resolve(merged: Merged, files: &Files, diags: &mut Diagnostics) -> Option<GameDef> {
    let mut cx = Ctx { files, diags };
    let manifest = merged.manifest.as_ref()?;
    let mf = manifest.file;
    let m = &manifest.item;
    cx.check_id(mf, &m.id, "mod");
    let players = resolve_players(&mut cx, &merged, mf, m);

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
    let tile_index = index_by_id(tiles.iter().map(|t| &t.id));

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
            check_option_ref(
                &mut cx,
                &merged,
                &options,
                (b.file, &b.mod_id),
                o,
                OptionType::Bool,
            );
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
    let pieces = resolve_pieces(&mut cx, &merged, players);

    let mut pending: Vec<PendingRef> = Vec::new();
    let (decks, tables) = resolve_decks_and_tables(&mut cx, &merged, &mut pending);

    let deck_index = index_by_id(decks.iter().map(|d| &d.id));
    let table_index = index_by_id(tables.iter().map(|t| &t.id));

    let counters = resolve_counters(&mut cx, &merged, &options, &constants);

    let zones = resolve_zones(&mut cx, &merged, &deck_index);

    // References, now that every id is known.
    check_references(
        &mut cx,
        &merged,
        &pending,
        Known {
            board: &board,
            tiles: &tiles,
            tile_index: &tile_index,
            pieces: &pieces,
            decks: &decks,
            deck_index: &deck_index,
            tables: &tables,
            table_index: &table_index,
            spaces: &spaces,
            track_pieces: &track_pieces,
        },
    );

    let scripts: Vec<ScriptDef> = merged.scripts.iter().map(script_def).collect();
    let bots = resolve_bots(&mut cx, &merged);

    let index = index_of(
        tile_index,
        deck_index,
        table_index,
        &counters,
        &zones,
        &pieces,
        spaces,
    );
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
        search: resolve_search(&mut cx, &merged),
        bots,
        content_hash: files.hash(),
        print: merged.print.clone(),
        index,
        catalog: Default::default(),
    })
}

/// Each id's place in the order given.
fn index_by_id<'a>(ids: impl Iterator<Item = &'a String>) -> HashMap<String, usize> {
    ids.enumerate().map(|(i, id)| (id.clone(), i)).collect()
}

/// The definition's lookups by id.
fn index_of(
    tiles: HashMap<String, usize>,
    decks: HashMap<String, usize>,
    tables: HashMap<String, usize>,
    counters: &[CounterDef],
    zones: &[ZoneDef],
    pieces: &[PieceDef],
    spaces: HashMap<String, usize>,
) -> super::def::Index {
    super::def::Index {
        tiles: tiles.into_iter().collect(),
        decks: decks.into_iter().collect(),
        tables: tables.into_iter().collect(),
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
        spaces: spaces.into_iter().collect(),
    }
}

/// The seats a game is for (`players`), checked.
fn resolve_players(cx: &mut Ctx, merged: &Merged, mf: usize, m: &raw::RawManifest) -> (u32, u32) {
    match &merged.players {
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
    }
}

/// The pieces, each with its id checked, and the limits on how many a game makes.
fn resolve_pieces(cx: &mut Ctx, merged: &Merged, players: (u32, u32)) -> Vec<PieceDef> {
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
    pieces
}

/// The decks and tables (their references left in `pending`), the limit on cards, and each
/// deck's `tags_from` table.
fn resolve_decks_and_tables(
    cx: &mut Ctx,
    merged: &Merged,
    pending: &mut Vec<PendingRef>,
) -> (Vec<DeckDef>, Vec<TableDef>) {
    let decks: Vec<DeckDef> = merged
        .decks
        .iter()
        .map(|d| resolve_deck(cx, d, pending))
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
        .map(|t| resolve_table(cx, t, pending))
        .collect();
    // A deck's `tags_from` names a table whether or not any card has tags yet.
    for d in &merged.decks {
        if let Some(from) = &d.item.tags_from
            && !tables.iter().any(|t| &t.id == from.get())
        {
            let near = crate::diag::suggestion(from.get(), tables.iter().map(|t| t.id.as_str()));
            cx.err(
                d.file,
                from.span(),
                format!(
                    "deck `{}` takes its tags from table `{}`, which the mod does not have{near}",
                    d.item.id.get(),
                    crate::content::files::cut(from.get(), 64)
                ),
            );
            // Said once, here: not again for every tag of every card.
            let target = format!("table:{}", from.get());
            pending.retain(|p| p.target != target || !p.context.ends_with(", tags"));
        }
    }
    (decks, tables)
}

/// The counters: one score counter at most, and each start from `initial`,
/// `initial_option` or `initial_constant`.
fn resolve_counters(
    cx: &mut Ctx,
    merged: &Merged,
    options: &[OptionDef],
    constants: &BTreeMap<String, Value>,
) -> Vec<CounterDef> {
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
                check_option_ref(cx, merged, options, (c.file, &c.mod_id), o, OptionType::Int);
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
                check_applies(cx, &merged.options, (c.file, &c.mod_id), w.get(), None, options);
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
    counters
}

/// The zones, each with the deck it holds.
fn resolve_zones(
    cx: &mut Ctx,
    merged: &Merged,
    deck_index: &HashMap<String, usize>,
) -> Vec<ZoneDef> {
    let zones: Vec<ZoneDef> = merged
        .zones
        .iter()
        .map(|z| {
            let r = &z.item;
            cx.check_id(z.file, &r.id, "zone");
            let deck = r.deck.as_ref().and_then(|d| match deck_index.get(d.get()) {
                Some(&i) => Some(i),
                None => {
                    let msg = removed(merged, "decks", "deck", d.get()).unwrap_or_else(|| {
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
    zones
}

/// The bots: ids not taken by the built-in players, one stand-in at most.
fn resolve_bots(cx: &mut Ctx, merged: &Merged) -> Vec<BotDef> {
    let mut bot_ids = Vec::new();
    let mut bots = Vec::new();
    for (b, script) in &merged.bots {
        cx.check_id(b.file, &b.item.id, "bot");
        // The command line and the Studio name the built-in players by these words: a bot
        // of the same id would shadow one (and `human` is a person in `play`).
        if RESERVED_BOTS.contains(&b.item.id.get().as_str()) {
            cx.err(
                b.file,
                b.item.id.span(),
                format!(
                    "bot id `{}` is taken by the built-in player of that name (the reserved ids \
                     are {}); give the bot another id",
                    b.item.id.get(),
                    RESERVED_BOTS.map(|r| format!("`{r}`")).join(", ")
                ),
            );
        }
        bot_ids.push((b.file, &b.item.id));
        if let Some(s) = script {
            bots.push(BotDef {
                id: b.item.id.get().clone(),
                name: b.item.name.clone(),
                description: b.item.description.clone(),
                script: script_def(s),
                standin: b.item.standin,
            });
        }
    }
    let standins: Vec<_> = merged.bots.iter().filter(|(b, _)| b.item.standin).collect();
    if let [_, more @ ..] = standins.as_slice() {
        for (b, _) in more {
            cx.err(
                b.file,
                b.item.id.span(),
                format!(
                    "bot `{}` is marked `standin`, and so is `{}`: one bot of a mod stands in for people",
                    b.item.id.get(),
                    standins[0].0.item.id.get()
                ),
            );
        }
    }
    cx.unique("bot", bot_ids);
    bots
}

/// `[search]`: the playouts within bounds, the root one the search knows, and a paired root
/// only where a bot of the mod can play the playouts.
fn resolve_search(cx: &mut Ctx, merged: &Merged) -> SearchDef {
    let mut search = SearchDef::default();
    if let Some(p) = &merged.search_playouts {
        let n = *p.item.get();
        const _: () = assert!(MAX_SEARCH_PLAYOUTS == 100_000, "say the new bound below");
        if (1..=MAX_SEARCH_PLAYOUTS).contains(&n) {
            search.playouts = n;
        } else {
            cx.err(
                p.file,
                p.item.span(),
                format!(
                    "search.playouts is {n}: give a number of playouts a decision from 1 to 100,000"
                ),
            );
        }
    }
    if let Some(r) = &merged.search_root {
        let word = r.item.get();
        match SearchRoot::from_word(word) {
            Some(root) => search.root = root,
            None => cx.err(
                r.file,
                r.item.span(),
                format!(
                    "search.root is `{word}`: write `paired` (compare the playout bot's best moves on the same imagined games) or `tree`{}",
                    crate::diag::suggestion(word, ["paired", "tree"])
                ),
            ),
        }
        if search.root == SearchRoot::Paired && merged.bots.is_empty() && word == "paired" {
            cx.err(
                r.file,
                r.item.span(),
                "search.root is `paired`, which compares the moves a bot of the mod likes best, and this mod has no bot: write `tree`, or add a bot under [[bots]]",
            );
        }
    }
    search
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
