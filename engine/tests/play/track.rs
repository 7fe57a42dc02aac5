//! Dicey Curves' track laid by the engine over many seeded games, with the numbers the mod
//! ships: the setup of DC-S4 and DC-S5 and the card-a-turn rule of DC-T1, with the Finish
//! never discarded. And the track's Luau API (`game.start_track`, `attach_track`,
//! `track_fits`, `track`, `remove_track`, `clear_track_before`) on the mod's real pieces.
//!
//! `cargo test -p farebox-engine --test track -- --nocapture` prints the figures that
//! mods/dicey-curves/DESIGN.md quotes.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::collections::BTreeMap;
use std::sync::Arc;

use farebox::GameDef;
use farebox::board::{AttachError, Board};
use farebox::content::def::{BoardDef, OptionDef, TrackDef, TrackPieceDef, TrackRole};
use farebox::content::{self};
use farebox::game::{Game, Setup};
use farebox::rng::Rng;
use farebox::source::{FolderResolver, FsSource};
use farebox::value::Value;

const MODS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../mods");
/// Seeded games per setting.
const GAMES: u64 = 2000;

fn load() -> GameDef {
    let src = FsSource::new(format!("{MODS}/dicey-curves"));
    content::load_mod(&src, &FolderResolver::new(MODS)).unwrap_or_else(|e| panic!("{e}"))
}

fn constant<'d>(def: &'d GameDef, name: &str) -> &'d Value {
    def.constants
        .get(name)
        .unwrap_or_else(|| panic!("no constant `{name}`"))
}

fn num(v: &Value) -> f64 {
    match v {
        Value::Num(n) => *n,
        Value::Int(i) => *i as f64,
        other => panic!("not a number: {other:?}"),
    }
}

fn text(v: &Value) -> &str {
    v.as_str().unwrap_or_else(|| panic!("not a string: {v:?}"))
}

fn track_def(def: &GameDef) -> &TrackDef {
    match &def.board {
        BoardDef::Track(t) => t,
        other => panic!("not a track board: {}", other.kind_name()),
    }
}

/// The option a constant names.
fn option<'d>(def: &'d GameDef, constant_name: &str) -> &'d OptionDef {
    let id = text(constant(def, constant_name));
    def.option(id).unwrap_or_else(|| panic!("no option `{id}`"))
}

/// The rows of the table a constant names, by their key.
fn rows<'d>(def: &'d GameDef, constant_name: &str) -> Vec<(String, &'d BTreeMap<String, Value>)> {
    let id = text(constant(def, constant_name));
    let t = &def.tables[def.table(id).unwrap_or_else(|| panic!("no table `{id}`"))];
    let key = t.key.clone().unwrap();
    t.rows
        .iter()
        .map(|r| (text(&r[&key]).to_string(), r))
        .collect()
}

fn row<'d>(def: &'d GameDef, constant_name: &str, key: &str) -> &'d BTreeMap<String, Value> {
    rows(def, constant_name)
        .into_iter()
        .find(|(k, _)| k == key)
        .unwrap_or_else(|| panic!("no row `{key}` in the table of `{constant_name}`"))
        .1
}

fn table_size(def: &GameDef, size: &str) -> (f64, f64) {
    let r = row(def, "table_size_table", size);
    (num(&r["width"]), num(&r["height"]))
}

/// How one seeded game's track came out.
#[derive(Debug, Clone, Copy)]
struct Laid {
    /// Cards on the table when the Finish is down, the Finish included.
    cards: usize,
    /// Cards drawn that did not fit and left the game.
    discarded: usize,
    /// The Finish fitted where it was drawn (otherwise it was laid by force).
    finish_fit: bool,
}

/// The track of one game, as the rules lay it with the mod's constants: DC-S4 (Start, Finish
/// and one wide straight set aside, the rest shuffled, the Finish put back under
/// `cards_above` +- `spread` cards), DC-S5 (the Start where board.toml's `[track]` puts it,
/// on the table of the chosen size; then the wide straight and the top cards), DC-T1 (a card a turn; one
/// that does not fit leaves the game and the next is drawn) until the Finish, which is never
/// discarded (laid by force when it does not fit).
fn lay(def: &GameDef, seed: u64, size: &str, depth: &str) -> Laid {
    let t = track_def(def);
    let deck = &def.decks[def.deck(text(constant(def, "track_deck"))).unwrap()];
    let piece_of = |card: &str| -> usize {
        let c = &deck.cards[deck.card(card).unwrap()];
        let id = c.fields.get("piece").and_then(Value::as_str).unwrap();
        t.pieces.iter().position(|p| p.id == id).unwrap()
    };
    let (start, finish, opening) = (
        text(constant(def, "start_card")),
        text(constant(def, "finish_card")),
        text(constant(def, "opening_straight_card")),
    );
    let mut cards: Vec<&str> = Vec::new();
    for c in &deck.cards {
        for _ in 0..c.count {
            cards.push(c.id.as_str());
        }
    }
    for out in [start, finish, opening] {
        let i = cards.iter().position(|c| *c == out).unwrap();
        cards.remove(i);
    }
    let mut rng = Rng::new(seed, 0);
    rng.shuffle(&mut cards);
    let r = row(def, "finish_depth_table", depth);
    let spread = r.get("spread").and_then(Value::as_int).unwrap_or(0);
    let above = r["cards_above"].as_int().unwrap() + rng.range(-spread, spread);
    cards.insert(above as usize, finish);

    let table = table_size(def, size);
    let mut board = Board::new(&def.board, &[], &BTreeMap::new(), &mut rng);
    // The start comes from board.toml and follows the table to its new size.
    board.track.as_mut().unwrap().set_table(table.0, table.1);
    let never_discarded = constant(def, "finish_never_discarded") == &Value::Bool(true);
    // A card after which no card of the deck would fit does not fit either (DESIGN.md, DC-T1).
    let dead_end = constant(def, "dead_end_does_not_fit") == &Value::Bool(true);
    let mut go_on: Vec<&TrackPieceDef> = deck
        .cards
        .iter()
        .filter(|c| c.id != start)
        .map(|c| &t.pieces[piece_of(&c.id)])
        .collect();
    go_on.dedup_by_key(|p| p.id.clone());
    let lay = |card: &str, board: &mut Board| -> Result<bool, AttachError> {
        let i = piece_of(card);
        let finish = t.pieces[i].role == TrackRole::Finish;
        let force = never_discarded && finish;
        if dead_end && !finish && !board.track_fits_then(&t.pieces[i], &go_on)? {
            return Err(AttachError::Overlap);
        }
        board
            .lay_track(i, &t.pieces[i], force)
            .map(|(_, misfit)| misfit.is_none())
    };
    for card in [start, opening] {
        assert_eq!(
            lay(card, &mut board),
            Ok(true),
            "seed {seed}, {size}: `{card}` does not fit"
        );
    }
    let mut discarded = 0;
    let mut finish_fit = None;
    for card in cards {
        match lay(card, &mut board) {
            Ok(fit) if card == finish => {
                finish_fit = Some(fit);
                break;
            }
            Ok(_) => {}
            Err(_) => discarded += 1,
        }
    }
    let track = board.track.as_ref().unwrap();
    let last = track.laid.last().unwrap();
    let finish_fit = finish_fit.unwrap_or_else(|| panic!("seed {seed}: the Finish was not laid"));
    assert_eq!(t.pieces[last.piece as usize].role, TrackRole::Finish);
    assert_eq!(
        last.forced, !finish_fit,
        "seed {seed}: a forced Finish says so"
    );
    assert!(
        track.laid[..track.laid.len() - 1].iter().all(|p| !p.forced),
        "seed {seed}: only the Finish is ever forced"
    );
    Laid {
        cards: track.laid.len(),
        discarded,
        finish_fit,
    }
}

/// The `p`th percentile (0..=100) of sorted numbers.
fn percentile(sorted: &[usize], p: usize) -> usize {
    sorted[(sorted.len() - 1) * p / 100]
}

#[test]
fn every_default_game_lays_its_finish() {
    let def = load();
    let size = text(&option(&def, "table_size_option").default).to_string();
    let depth = text(&option(&def, "finish_depth_option").default).to_string();
    let games: Vec<Laid> = (0..GAMES).map(|s| lay(&def, s, &size, &depth)).collect();
    let fit = games.iter().filter(|g| g.finish_fit).count();
    let mean = games.iter().map(|g| g.cards).sum::<usize>() as f64 / games.len() as f64;
    println!(
        "{size} table, {depth} Finish: the Finish laid in {} of {GAMES} games, fitting in {fit} \
         ({:.1}%); {mean:.2} cards on average",
        games.len(),
        100.0 * fit as f64 / games.len() as f64
    );
    assert_eq!(games.len() as u64, GAMES);
    // DESIGN.md, DC-T1: on the default table the Finish fits where it falls in at least 90%
    // of default races.
    assert!(
        fit * 10 >= games.len() * 9,
        "the Finish fits in only {fit} of {GAMES} default races"
    );
    // The race-length option gives the lengths its labels promise on the default table: about
    // 13 / 19 / 26 cards, Start and Finish included, and few cards thrown away on the way.
    for (depth, promise) in [("short", 13.0), ("middle", 19.0), ("long", 26.0)] {
        let games: Vec<Laid> = (0..GAMES).map(|s| lay(&def, s, &size, depth)).collect();
        let n = games.len() as f64;
        let mean = games.iter().map(|g| g.cards).sum::<usize>() as f64 / n;
        let discarded = games.iter().map(|g| g.discarded).sum::<usize>() as f64 / n;
        println!("{depth}: {mean:.2} cards on average, {discarded:.2} discarded");
        assert!(
            (mean - promise).abs() <= 1.0,
            "{depth}: {mean:.2} cards on average, not about {promise}"
        );
        assert!(
            discarded <= 2.0,
            "{depth}: {discarded:.2} cards discarded on average"
        );
    }
}

#[test]
fn track_length_by_table_size_and_finish_depth() {
    let def = load();
    let sizes: Vec<String> = rows(&def, "table_size_table")
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    let depths: Vec<String> = rows(&def, "finish_depth_table")
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    assert!(sizes.len() >= 2 && depths.len() >= 2);
    println!(
        "| table | Finish | mean cards | min / 10% / median / 90% / max | mean discarded | Finish fits |"
    );
    println!("| --- | --- | --- | --- | --- | --- |");
    // (fit rate, by size) per depth
    let mut rate: BTreeMap<&str, Vec<(f64, f64)>> = BTreeMap::new();
    for size in &sizes {
        let mut by_depth: Vec<Vec<Laid>> = Vec::new();
        for depth in &depths {
            let games: Vec<Laid> = (0..GAMES).map(|s| lay(&def, s, size, depth)).collect();
            let mut cards: Vec<usize> = games.iter().map(|g| g.cards).collect();
            cards.sort_unstable();
            let n = games.len() as f64;
            let mean = cards.iter().sum::<usize>() as f64 / n;
            let discarded = games.iter().map(|g| g.discarded).sum::<usize>() as f64 / n;
            let fit = games.iter().filter(|g| g.finish_fit).count() as f64 / n;
            println!(
                "| {size} | {depth} | {mean:.1} | {} / {} / {} / {} / {} | {discarded:.1} | {:.1}% |",
                cards[0],
                percentile(&cards, 10),
                percentile(&cards, 50),
                percentile(&cards, 90),
                cards[cards.len() - 1],
                100.0 * fit
            );
            let (w, h) = table_size(&def, size);
            rate.entry(depth.as_str()).or_default().push((w * h, fit));
            by_depth.push(games);
        }
        // The same seed shuffles the same deck at every depth, and a deeper Finish only lets
        // more of it be drawn first: the track never gets shorter.
        for seed in 0..GAMES as usize {
            let lengths: Vec<usize> = by_depth.iter().map(|g| g[seed].cards).collect();
            assert!(
                lengths.windows(2).all(|w| w[0] <= w[1]),
                "{size}, seed {seed}: {lengths:?} cards from the shallowest Finish to the deepest"
            );
        }
    }
    // More table, more room: the Finish fits at least as often on every larger table (a
    // short race fits on the smallest tables already, so those can tie).
    for (depth, mut by_area) in rate {
        by_area.sort_by(|a, b| a.0.total_cmp(&b.0));
        assert!(
            by_area.windows(2).all(|w| w[0].1 <= w[1].1)
                && by_area[0].1 < by_area[by_area.len() - 1].1,
            "{depth}: the Finish fits in {by_area:?} (area, share) of games"
        );
    }
}

// ---- the Luau API ---------------------------------------------------------------------------

/// A one-seat game on Dicey Curves' own board (its table and every track piece), with the
/// probe rules; the API is driven through `Game::eval`.
fn api_game() -> Game {
    let board = std::fs::read_to_string(format!("{MODS}/dicey-curves/board.toml")).unwrap();
    let pieces = format!(
        "{}\n[[pieces]]\nid = \"car\"\nname = \"Car\"\n",
        support::PIECES
    );
    let manifest = support::MANIFEST.replace("[content]\n", "[content]\nboard = \"board.toml\"\n");
    let rules = r#"return {
  actions = function(g, seat) return { "pass" } end,
  apply = function(g, seat, action) end,
}"#;
    let def = support::mem_mod(
        "probe",
        &[
            ("mod.toml", &manifest),
            ("pieces.toml", &pieces),
            ("board.toml", &board),
            ("rules/r.luau", rules),
        ],
    );
    Game::new(Arc::new(def), Setup::new(1, 1)).unwrap_or_else(|e| panic!("{e}"))
}

fn eval(g: &mut Game, code: &str) -> Value {
    g.eval(code).unwrap_or_else(|e| panic!("{code}\n{e}"))
}

fn eval_err(g: &mut Game, code: &str) -> String {
    match g.eval(code) {
        Ok(v) => panic!("{code} returned {v:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn luau_lays_reads_and_removes_the_track() {
    let mut g = api_game();
    // Along the long side from near the left end, as DC-S5 asks.
    eval(
        &mut g,
        "game.start_track{x = -6, y = 0, heading = 90, clearance = 0.1}",
    );
    assert_eq!(
        eval(&mut g, "return game.attach_track('start-grid')"),
        Value::Int(1)
    );
    assert_eq!(
        eval(&mut g, "return game.attach_track('straight-3-long')"),
        Value::Int(10)
    );
    assert_eq!(
        eval(&mut g, "return game.track_fits('hard-left')"),
        Value::Bool(true)
    );
    eval(&mut g, "assert(game.attach_track('hard-left') == 19)");
    let state = g.state().hash();
    // A dry run reads the same as the real thing and changes nothing.
    eval(
        &mut g,
        "assert(game.track_fits('straight-2-long') == true)
         local t, e = game.track()
         assert(#t == 3 and t[3].piece == 'hard-left' and t[3].heading == 90)
         assert(t[3].exit_heading == 0 and e.heading == 0)
         assert(t[1].x == -6 and t[1].y == 0 and t[2].x == -5)
         assert(t[1].first_space == 1 and #t[1].spaces == 9 and t[2].spaces[9] == 18)
         assert(t[3].lanes == 2 and t[3].rows == 2 and t[3].spaces[4] == 22)
         assert(not t[1].removed and not t[1].forced)
         -- the hard curve's middle is 0.45 ahead and 0.19 to the left of its entry
         assert(math.abs(t[3].cx - (-3.55)) < 0.01 and math.abs(t[3].cy - (-0.19)) < 0.01)
         assert(math.abs(e.x - (-3.363)) < 0.001 and math.abs(e.y - (-0.637)) < 0.001)",
    );
    assert_eq!(g.state().hash(), state);
    // DC-T1: a piece that does not fit is refused; forced, it is laid and says why.
    eval(&mut g, "game.set_track_table(8, 2)");
    assert_eq!(
        eval(
            &mut g,
            "local ok, why = game.track_fits('straight-2-long'); return tostring(ok) .. ' ' .. why"
        ),
        Value::Str("false off-table".into())
    );
    assert_eq!(
        eval(
            &mut g,
            "local s, why = game.attach_track('straight-2-long'); return tostring(s) .. ' ' .. why"
        ),
        Value::Str("nil off-table".into())
    );
    assert_eq!(g.state().board.track.as_ref().unwrap().laid.len(), 3);
    assert_eq!(
        eval(
            &mut g,
            "local s, why = game.attach_track('finish-line', {force = true}); return s .. ' ' .. why"
        ),
        Value::Str("23 off-table".into())
    );
    eval(
        &mut g,
        "local t = game.track(); assert(t[4].forced and t[4].piece == 'finish-line')
         local s, why = game.attach_track('straight-2-long', {force = false})
         assert(s == nil and why == 'off-table')",
    );
    // DC-E5: the cards before the third leave the table; their spaces keep their ids but lead
    // nowhere and cannot be entered.
    eval(&mut g, "game.set_track_table(20, 12)");
    assert_eq!(
        eval(&mut g, "return game.clear_track_before(3)"),
        Value::Int(2)
    );
    eval(
        &mut g,
        "local t = game.track()
         assert(t[1].removed and t[2].removed and not t[3].removed)
         assert(game.space_info(10).id == 't1-l0-r0')
         assert(table.find(game.space_info(10).tags, 'removed'))
         for _, s in t[2].spaces do assert(#game.neighbors(s) == 0) end
         assert(next(game.distances(19)) ~= nil and game.distances(19)[10] == nil)
         assert(game.clear_track_before(3) == 0)
         assert(game.remove_track(3) == true and game.remove_track(3) == false)",
    );
}

/// DC-T1 (DESIGN.md): `game.track_fits(piece, {followed_by = ...})` says "dead-end" for a
/// piece that fits but would leave room for none of the pieces listed after it, and changes
/// nothing.
#[test]
fn a_dead_end_is_seen_one_piece_ahead() {
    let mut g = api_game();
    // The track runs toward the right edge of an 8-wide table (x = 4): after the Start and the
    // wide straight its end is at x = 2.7, so a long straight fits (to 3.7) but leaves 0.3.
    eval(
        &mut g,
        "game.set_track_table(8, 12)
         game.start_track{x = 0.7, y = 0, heading = 90}
         game.attach_track('start-grid'); game.attach_track('straight-3-long')",
    );
    let state = g.state().hash();
    eval(
        &mut g,
        "local all = { 'straight-2-long', 'straight-2-short', 'gentle-left', 'gentle-right', 'hard-left', 'hard-right' }
         assert(game.track_fits('straight-2-long') == true)
         local ok, why = game.track_fits('straight-2-long', { followed_by = all })
         assert(ok == false and why == 'dead-end', tostring(ok) .. ' ' .. tostring(why))
         assert(game.track_fits('straight-2-long', { followed_by = {} }) == true)
         -- a hard left turns away from the edge: the road goes on after it
         assert(game.track_fits('hard-left', { followed_by = all }) == true)
         -- a piece that does not fit itself says why, as without followed_by
         game.attach_track('straight-2-long')
         local ok2, why2 = game.track_fits('straight-2-long', { followed_by = all })
         assert(ok2 == false and why2 == 'off-table', tostring(why2))",
    );
    assert_eq!(g.state().board.track.as_ref().unwrap().laid.len(), 3);
    assert_ne!(
        g.state().hash(),
        state,
        "the one attach_track call laid a piece"
    );
}

/// DC-T8: "no sideways move across the solid line between gates". Two separate gates are
/// two gates even when they ask for the same number of dice: the Wide Sweeper's two outside
/// 2-dice gates have a solid line between them, as its 3-dice inside gate has from the middle
/// lane; the Finish's one gate across all three lanes has none. Away from the gate row every
/// lane change stays open.
#[test]
fn a_solid_line_stands_between_any_two_gates() {
    let mut g = api_game();
    eval(
        &mut g,
        "game.start_track{x = -6, y = 0, heading = 90, clearance = 0.1}
         game.attach_track('start-grid'); game.attach_track('straight-3-long')",
    );
    // The sweepers: lanes 0 / 1 / 2 each behind their own gate (3-2-2 on the left one, 2-2-3
    // on the right one). Spaces are numbered lane by lane, two rows each.
    for piece in ["sweeper-left", "sweeper-right"] {
        eval(
            &mut g,
            &format!(
                "local first = game.attach_track('{piece}')
                 local function side(a, b)
                   return table.find(game.neighbors(a), b) ~= nil and table.find(game.neighbors(b), a) ~= nil
                 end
                 -- row 1 (no gate): every lane change is open
                 assert(side(first, first + 2), '{piece}: lanes 0-1 in row 1')
                 assert(side(first + 2, first + 4), '{piece}: lanes 1-2 in row 1')
                 -- row 2, in front of the gates: a solid line between every two gates
                 assert(not side(first + 1, first + 3), '{piece}: a line between lanes 0 and 1 at the gates')
                 assert(not side(first + 3, first + 5), '{piece}: a line between lanes 1 and 2 at the gates')"
            ),
        );
    }
    // The Finish: one gate over every lane, so no line at all.
    eval(
        &mut g,
        "local first = game.attach_track('finish-line')
         assert(table.find(game.neighbors(first + 1), first + 3), 'finish: lanes 0-1 at the flag')
         assert(table.find(game.neighbors(first + 3), first + 5), 'finish: lanes 1-2 at the flag')",
    );
}

#[test]
fn luau_track_calls_refuse_bad_arguments_in_plain_words() {
    let mut g = api_game();
    for (code, says) in [
        (
            "game.start_track{heading = 30}",
            "heading is in degrees and a multiple of 45",
        ),
        (
            "game.start_track{clearance = 2}",
            "clearance must be from 0 to 1 card lengths, not 2",
        ),
        (
            "game.start_track{x = 'left'}",
            "game.start_track: x must be a number, not string",
        ),
        (
            "game.start_track{x = 0/0}",
            "game.start_track: x and y must be numbers",
        ),
        (
            "game.start_track{hedding = 90}",
            "unknown option `hedding` (the options are x, y, heading, clearance)",
        ),
        (
            "game.attach_track('straight-2-lng')",
            "no track piece `straight-2-lng`",
        ),
        (
            "game.attach_track('start-grid', {force = 'yes'})",
            "game.attach_track: force is true or false, not string",
        ),
        (
            "game.attach_track('start-grid', {forse = true})",
            "unknown option `forse` (the options are force)",
        ),
        (
            "game.track_fits('nope')",
            "game.track_fits: no track piece `nope`",
        ),
        ("game.remove_track(1)", "no track piece has been laid yet"),
        (
            "game.track_fits('start-grid', {followed_by = 3})",
            "game.track_fits: followed_by is a list of track piece ids, not integer",
        ),
        (
            "game.track_fits('start-grid', {followed_by = {1}})",
            "game.track_fits: followed_by lists track piece ids, not integer",
        ),
        (
            "game.track_fits('start-grid', {followed_by = {'nope'}})",
            "game.track_fits: no track piece `nope`",
        ),
        (
            "game.track_fits('start-grid', {folowed_by = {}})",
            "unknown option `folowed_by` (the options are followed_by)",
        ),
    ] {
        let e = eval_err(&mut g, code);
        assert!(e.contains(says), "{code}: {e}");
    }
    let e = eval_err(&mut g, "game.attach_track('straight-2-lng')");
    assert!(e.contains("did you mean"), "{e}");
    eval(
        &mut g,
        "game.attach_track('start-grid'); game.attach_track('straight-3-long')",
    );
    for (code, says) in [
        (
            "game.start_track{x = 1}",
            "the track has pieces already; it can only be started before the first",
        ),
        (
            "game.remove_track(3)",
            "3 is not a laid track piece (they are 1..2)",
        ),
        ("game.clear_track_before(0)", "0 is not a laid track piece"),
        ("game.clear_track_before(1.5)", "a whole number"),
        (
            "game.move_piece(game.pieces('car')[1], 5); game.clear_track_before(2)",
            "piece 1 (car) stands on track piece 1; move it off first",
        ),
    ] {
        let e = eval_err(&mut g, code);
        assert!(e.contains(says), "{code}: {e}");
    }
    // Nothing of it happened: the failed calls changed nothing.
    assert!(
        !g.state().board.track.as_ref().unwrap().laid[0].removed,
        "a refused removal removes nothing"
    );
    // A board that is not a track says so.
    let mut plain = Game::new(
        Arc::new(support::probe(
            "return { actions = function() return {'pass'} end, apply = function() end }",
        )),
        Setup::new(1, 1),
    )
    .unwrap();
    for code in [
        "game.track()",
        "game.track_fits('x')",
        "game.attach_track('x')",
        "game.start_track{}",
        "game.remove_track(1)",
        "game.clear_track_before(1)",
    ] {
        let e = eval_err(&mut plain, code);
        assert!(e.contains("this board is not a track"), "{code}: {e}");
    }
}
