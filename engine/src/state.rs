//! The game state, owned by Rust. Scripts read and change it only through the API of
//! [`crate::script`]; the engine clones it before each action to roll back on any error.
//!
//! The log is kept outside the cloned part (it only grows, so a rollback truncates it).
//!
//! What a script can make the game hold outside its VM (variables, piece properties, the log,
//! the actions taken) is counted as it changes, so the host can hold the VM and all of that
//! together to the game's memory limit without measuring anything at each call.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;

use crate::board::Board;
use crate::rng::Rng;
use crate::value::Value;

/// A card in a zone: (deck index, card index within the deck).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct CardRef {
    pub deck: u16,
    pub card: u16,
}

/// Who may see something.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Seen {
    All,
    Nobody,
    Seat(u8),
}

impl Seen {
    pub fn by(self, seat: Option<u8>) -> bool {
        match self {
            Seen::All => true,
            Seen::Nobody => false,
            Seen::Seat(s) => seat == Some(s),
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct ZoneState {
    /// Index of the zone definition.
    pub def: u16,
    pub owner: Option<u8>,
    /// Bottom first; the top card is the last.
    pub cards: Vec<CardRef>,
}

#[derive(Debug, Clone, Serialize)]
pub struct PieceState {
    /// Index of the piece definition.
    pub def: u16,
    pub owner: Option<u8>,
    /// Space it stands on, if it is on the board.
    pub at: Option<u32>,
    /// Shared with the state snapshots taken before each action until a prop changes.
    pub props: Arc<BTreeMap<String, Value>>,
    /// The footprint of `props` (keys and values), kept so the API bounds a piece's
    /// properties without measuring them all at every change. Not part of the hash.
    #[serde(skip)]
    pub props_bytes: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct Var {
    pub value: Value,
    pub seen: Seen,
    /// The name's and the value's [`Value::footprint`], kept so the API can bound the total
    /// size of the variables without measuring them all at every change. Not part of the
    /// state's hash (it follows from the value).
    #[serde(skip)]
    pub size: usize,
    /// The digest of the value as the hash writes it, made the first time it is asked for
    /// (see [`Var::digest`]) and shared by every state that shares the variable. A value is
    /// never changed in place: `game.set` makes a new `Var`.
    #[serde(skip)]
    digest: std::sync::OnceLock<[u8; 32]>,
}

impl Var {
    pub fn new(value: Value, seen: Seen, size: usize) -> Var {
        Var {
            value,
            seen,
            size,
            digest: std::sync::OnceLock::new(),
        }
    }

    /// The blake3 digest of the value's JSON (what [`State::hash`] writes of it): two values
    /// have the same digest exactly when they hash alike. Made once per value, so comparing
    /// states that share a variable costs nothing per byte it holds.
    pub fn digest(&self) -> [u8; 32] {
        *self.digest.get_or_init(|| {
            let mut h = Hashing::new();
            h.json(&self.value);
            *h.finish().as_bytes()
        })
    }
}

thread_local! {
    /// Bytes this thread has hashed to compare or record states (see [`hashed_bytes`]).
    static HASHED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The bytes this thread has hashed so far to compare or record states: state hashes, the
/// search bot's fingerprints of states and views, and the digests of variables. A counted
/// measure of what comparing positions costs (`farebox bench --search` prints it per playout
/// action), which must not grow with what the game holds but with what changes.
pub fn hashed_bytes() -> u64 {
    HASHED.with(std::cell::Cell::get)
}

/// A blake3 hasher that adds what it hashes to the thread's [`hashed_bytes`].
pub(crate) struct Hashing {
    h: blake3::Hasher,
    n: u64,
}

impl Hashing {
    pub(crate) fn new() -> Hashing {
        Hashing {
            h: blake3::Hasher::new(),
            n: 0,
        }
    }

    pub(crate) fn update(&mut self, bytes: &[u8]) {
        self.h.update(bytes);
        self.n = self.n.saturating_add(bytes.len() as u64);
    }

    /// Adds the JSON of `x` (serde_json of ordered maps is canonical for our types).
    pub(crate) fn json<T: Serialize + ?Sized>(&mut self, x: &T) {
        if let Ok(bytes) = serde_json::to_vec(x) {
            self.update(&bytes);
        }
    }

    pub(crate) fn finish(self) -> blake3::Hash {
        HASHED.with(|c| c.set(c.get().saturating_add(self.n)));
        self.h.finalize()
    }
}

/// How a finished game ended.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct GameResult {
    /// Place of each seat, 1 = first; tied seats share a place.
    pub places: Vec<u32>,
    /// Score of each seat, as the rules count it.
    pub scores: Vec<i64>,
    pub reason: String,
    /// A cooperative ending: `Some(true)` when the table won together (every place is 1),
    /// `Some(false)` when it lost together (nobody placed first; every place is the last).
    /// None for a game of places.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub together: Option<bool>,
}

impl GameResult {
    /// The seats that won: those placed first, or nobody when the table lost together.
    pub fn winners(&self) -> Vec<usize> {
        if self.together == Some(false) {
            return Vec::new();
        }
        self.places
            .iter()
            .enumerate()
            .filter(|(_, p)| **p == 1)
            .map(|(i, _)| i)
            .collect()
    }

    /// Whether the game was a tie: two or more seats placed first in a game of places. A
    /// tie counts as a win for each tied seat (so win rates can add up to more than 100%),
    /// and every figure that counts wins also counts the game as a tie. A cooperative ending
    /// is never a tie.
    pub fn is_tie(&self) -> bool {
        self.together.is_none() && self.places.iter().filter(|p| **p == 1).count() >= 2
    }
}

/// Everything that changes during a game, except the log.
#[derive(Debug, Clone, Serialize)]
pub struct State {
    pub seats: u8,
    /// The seat to act (0-based).
    pub active: u8,
    /// Turns started so far (the first turn is 1).
    pub turn: u32,
    pub board: Board,
    pub pieces: Vec<PieceState>,
    pub zones: Vec<ZoneState>,
    /// zone definition -> zone instance (one per seat for per-seat zones).
    #[serde(skip)]
    pub zone_index: Vec<Vec<u16>>,
    /// counter definition -> values (one per seat, or one).
    pub counters: Vec<Vec<i64>>,
    /// Shared with snapshots until a variable changes (most actions change none); each
    /// variable is shared on its own too, so a change copies the names, not the values.
    pub vars: Arc<BTreeMap<String, Arc<Var>>>,
    pub options: Arc<BTreeMap<String, Value>>,
    pub rng: Rng,
    pub result: Option<GameResult>,
    /// A turn change requested by the rules, processed after the hook returns.
    #[serde(skip)]
    pub pending_turn_start: bool,
    /// The footprint of every piece's properties together (see `PieceState::props_bytes`).
    #[serde(skip)]
    pub props_bytes: usize,
    /// The footprint of every variable together (the sum of their `Var::size`).
    #[serde(skip)]
    pub vars_bytes: usize,
    /// In a game imagined for a seat's lookahead (a bot's `game.try`, a determinized copy):
    /// that seat, and the secret variables taken out because it may not know them. The rules
    /// reading one of them there, unless the `imagine` hook set it anew, is an error. None
    /// in a real game.
    #[serde(skip)]
    pub unknown: Option<Arc<Unknown>>,
    /// The figures the rules recorded with `game.stat` (name -> value, at most
    /// [`crate::script::api::MAX_STATS`]). Read only after the game, by outcome runs; no view, log
    /// or label shows them, and they are not part of the hash (they change nothing that
    /// follows). Shared with snapshots until one changes.
    #[serde(skip)]
    pub stats: Arc<BTreeMap<String, f64>>,
    /// Cards one seat never draws, in restricted play (see [`crate::game::Barred`]); None in
    /// a game played as the rules have it. Not part of the hash.
    #[serde(skip)]
    pub barred: Option<Arc<BarredCards>>,
}

/// [`crate::game::Barred`] resolved: the seat and the cards it never draws.
#[derive(Debug, Clone, PartialEq)]
pub struct BarredCards {
    pub seat: u8,
    pub cards: Vec<CardRef>,
}

impl State {
    /// Which card of zone `from` a move of its top card into zone `to` takes: the top one,
    /// unless `to` belongs to a seat that may not draw it (see [`crate::game::Barred`]).
    /// None when `from` is empty.
    pub fn drawn_from(&self, from: usize, to: usize) -> Option<usize> {
        let cards = &self.zones.get(from)?.cards;
        let top = cards.len().checked_sub(1)?;
        let Some(b) = &self.barred else {
            return Some(top);
        };
        let into = self.zones.get(to).and_then(|z| z.owner);
        let out_of = self.zones.get(from).and_then(|z| z.owner);
        if into != Some(b.seat) || out_of == Some(b.seat) || !b.cards.contains(&cards[top]) {
            return Some(top);
        }
        Some(
            cards
                .iter()
                .rposition(|c| !b.cards.contains(c))
                .unwrap_or(top),
        )
    }
}

/// The secrets taken out of a game imagined for `seat` (see [`State::unknown`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Unknown {
    pub seat: u8,
    pub names: std::collections::BTreeSet<String>,
}

impl State {
    /// A state with nothing in it. A `Game` holds one in place of its real state while a
    /// hook has the real one on loan, so nothing can read a half-lent game; it is never
    /// played.
    pub fn empty() -> State {
        State {
            seats: 0,
            active: 0,
            turn: 0,
            board: Board {
                kind: "none",
                graph: Default::default(),
                grid: None,
                track: None,
                arrangement: vec![],
            },
            pieces: vec![],
            zones: vec![],
            zone_index: vec![],
            counters: vec![],
            vars: Arc::default(),
            options: Arc::default(),
            rng: Rng::new(0, 0),
            result: None,
            pending_turn_start: false,
            props_bytes: 0,
            unknown: None,
            vars_bytes: 0,
            stats: Arc::default(),
            barred: None,
        }
    }

    /// About how many bytes this state holds that `later` (a state that came after it) does
    /// not share with it: its own lists, and its variables and piece properties where they
    /// were changed since. What a snapshot kept for rollback costs.
    pub fn bytes_apart_from(&self, later: &State) -> usize {
        use std::mem::size_of;
        let mut n = size_of::<State>()
            + self.pieces.len() * size_of::<PieceState>()
            + self
                .zones
                .iter()
                .map(|z| size_of::<ZoneState>() + z.cards.len() * size_of::<CardRef>())
                .sum::<usize>()
            + self
                .counters
                .iter()
                .map(|c| 24 + c.len() * size_of::<i64>())
                .sum::<usize>();
        if let Some(g) = &self.board.grid {
            n += (g.tiles.len() + g.blockers.len()) * size_of::<Option<crate::board::Placed>>();
        }
        if let Some(t) = &self.board.track {
            n += t.laid.len() * size_of::<crate::board::LaidPiece>();
        }
        if !Arc::ptr_eq(&self.vars, &later.vars) {
            n += self.vars_bytes;
        }
        for (i, p) in self.pieces.iter().enumerate() {
            if later
                .pieces
                .get(i)
                .is_none_or(|q| !Arc::ptr_eq(&p.props, &q.props))
            {
                n += p.props_bytes;
            }
        }
        n
    }

    /// The zone instance for a zone definition and (for per-seat zones) a seat.
    pub fn zone_of(&self, def: usize, seat: Option<u8>) -> Option<usize> {
        let list = self.zone_index.get(def)?;
        if list.len() == 1 {
            return list.first().map(|&z| z as usize);
        }
        list.get(seat? as usize).map(|&z| z as usize)
    }

    /// A hash of everything that matters for the game's future: replays compare it.
    pub fn hash(&self) -> String {
        let mut h = Hashing::new();
        h.json(self);
        h.finish().to_hex()[..16].to_string()
    }

    /// A fingerprint of the state for telling positions apart within one process (the search
    /// bot's walks): two states have the same fingerprint exactly when they have the same
    /// [`State::hash`], but each variable is read by its digest ([`Var::digest`], made once
    /// per value), so the cost grows with what changed since, not with what the variables
    /// hold. Not the same text as the hash; never recorded.
    pub fn fingerprint(&self) -> String {
        let mut h = Hashing::new();
        h.json(&Print::of(self));
        h.finish().to_hex()[..16].to_string()
    }
}

/// What [`State::fingerprint`] writes: every field [`State::hash`] writes, in its order, the
/// variables as (name, who sees it, digest of the value). A test checks that it has every
/// field the state writes.
#[derive(Serialize)]
struct Print<'a> {
    seats: u8,
    active: u8,
    turn: u32,
    board: &'a Board,
    pieces: &'a [PieceState],
    zones: &'a [ZoneState],
    counters: &'a [Vec<i64>],
    vars: Vec<(&'a str, Seen, [u8; 32])>,
    options: &'a BTreeMap<String, Value>,
    rng: &'a Rng,
    result: &'a Option<GameResult>,
}

impl<'a> Print<'a> {
    fn of(s: &'a State) -> Print<'a> {
        Print {
            seats: s.seats,
            active: s.active,
            turn: s.turn,
            board: &s.board,
            pieces: &s.pieces,
            zones: &s.zones,
            counters: &s.counters,
            vars: s
                .vars
                .iter()
                .map(|(k, v)| (k.as_str(), v.seen, v.digest()))
                .collect(),
            options: &s.options,
            rng: &s.rng,
            result: &s.result,
        }
    }
}

/// One line of the game log, with who may read it.
#[derive(Debug, Clone, Serialize)]
pub struct LogEntry {
    pub turn: u32,
    pub seat: Option<u8>,
    /// Shared: copies of the log (a search bot's determinizations, snapshots) share each
    /// line's text instead of copying it.
    pub text: std::sync::Arc<str>,
    pub seen: Seen,
}

/// What an item of a [`Counted`] list holds, in bytes (about).
pub trait Footprint {
    fn footprint(&self) -> usize;
}

impl Footprint for LogEntry {
    fn footprint(&self) -> usize {
        std::mem::size_of::<LogEntry>() + self.text.len()
    }
}

impl Footprint for String {
    fn footprint(&self) -> usize {
        std::mem::size_of::<String>() + self.len()
    }
}

/// A list that grows at its end and is cut back on rollback (the log, the actions taken),
/// with the bytes its items hold kept up to date, so the game's memory is bounded without
/// measuring the list. Reads like a slice.
#[derive(Debug, Clone)]
pub struct Counted<T> {
    items: Vec<T>,
    bytes: usize,
}

impl<T> Default for Counted<T> {
    fn default() -> Self {
        Counted {
            items: Vec::new(),
            bytes: 0,
        }
    }
}

impl<T: Footprint> Counted<T> {
    pub fn push(&mut self, item: T) {
        self.bytes += item.footprint();
        self.items.push(item);
    }

    /// Keeps the first `len` items.
    pub fn truncate(&mut self, len: usize) {
        if len < self.items.len() {
            let gone: usize = self.items[len..].iter().map(Footprint::footprint).sum();
            self.bytes = self.bytes.saturating_sub(gone);
            self.items.truncate(len);
        }
    }

    /// What the items hold, in bytes (as [`Footprint`] counts).
    pub fn bytes(&self) -> usize {
        self.bytes
    }
}

impl<T> std::ops::Deref for Counted<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.items
    }
}

impl<T: Footprint> FromIterator<T> for Counted<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut out = Counted::default();
        for item in iter {
            out.push(item);
        }
        out
    }
}

/// How many cards of a zone, counted from the top, `seat` may see (None: a spectator): all of a
/// public zone, all of an owner-only zone to its owner, the top card of a `top` zone, none of
/// a hidden one.
pub fn visible_cards(def: &crate::content::GameDef, zone: &ZoneState, seat: Option<u8>) -> usize {
    match def.zones.get(zone.def as usize).map(|d| d.visibility) {
        Some(crate::content::def::Visibility::Public) => zone.cards.len(),
        Some(crate::content::def::Visibility::Owner)
            if zone.owner.is_some() && zone.owner == seat =>
        {
            zone.cards.len()
        }
        Some(crate::content::def::Visibility::Top) => zone.cards.len().min(1),
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_var(s: &State, name: &str, value: Value) -> State {
        let mut s = s.clone();
        let size = value.footprint();
        Arc::make_mut(&mut s.vars).insert(name.into(), Arc::new(Var::new(value, Seen::All, size)));
        s
    }

    #[test]
    fn the_fingerprint_writes_every_field_the_hash_writes() {
        let s = with_var(&State::empty(), "fares", Value::Int(3));
        let keys = |v: serde_json::Value| -> Vec<String> {
            v.as_object()
                .map(|o| o.keys().cloned().collect())
                .unwrap_or_default()
        };
        assert_eq!(
            keys(serde_json::to_value(&s).unwrap_or_default()),
            keys(serde_json::to_value(Print::of(&s)).unwrap_or_default())
        );
    }

    #[test]
    fn fingerprints_are_equal_exactly_when_hashes_are() {
        let empty = State::empty();
        let a = with_var(
            &empty,
            "fares",
            Value::List(vec![Value::Int(1), Value::Int(2)]),
        );
        // The same value in another variable of its own.
        let b = with_var(
            &empty,
            "fares",
            Value::List(vec![Value::Int(1), Value::Int(2)]),
        );
        let c = with_var(
            &empty,
            "fares",
            Value::List(vec![Value::Int(1), Value::Num(2.0)]),
        );
        let mut d = a.clone();
        if let Some(v) = Arc::make_mut(&mut d.vars).get_mut("fares") {
            Arc::make_mut(v).seen = Seen::Nobody;
        }
        for (x, y) in [(&a, &b), (&a, &c), (&a, &d), (&a, &empty), (&c, &d)] {
            assert_eq!(x.hash() == y.hash(), x.fingerprint() == y.fingerprint());
        }
        assert_eq!(a.fingerprint(), b.fingerprint());
        assert_ne!(a.fingerprint(), c.fingerprint());
    }
}
