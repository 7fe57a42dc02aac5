//! What seeded games show about a mod's content: for every card, tile kind, piece kind and
//! option value, in how many games a seat held it and played it, and how often those seats
//! won against the others; for the game as a whole, how often the seat that moved first won,
//! how long games ran, how the lead changed hands (when a counter is marked `score = true`)
//! and the figures the rules recorded with `game.stat`.
//!
//! A [`Tracker`] follows one game as it is played and leaves a [`Trace`] in the game's
//! outcome; a [`Tally`] adds outcomes up in seed order into [`Stats`], the figures of the
//! games as a whole with the traces' [`Figures`] in them ([`run`]). Everything is worked
//! out from integer counts added in seed order, so the figures are the same on any number of
//! threads. The figures are made after the game, from the full state: nothing here is ever
//! shown to a seat during play.
//!
//! Intervals are 95% intervals: Wilson's score interval for a win rate (it stays inside 0..1
//! and behaves for small counts and rates near 0 or 1, where the textbook `p ± 1.96·se` does
//! not), and `mean ± 1.96·sd/√n` for a mean.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::content::GameDef;
pub use crate::content::catalog::{Catalog, Item, ItemKind};
use crate::state::{GameResult, State};

mod places;
mod run;
pub use places::{PlayFigures, RoadFigure, SpaceFigure, TrackFigure};
pub use run::{
    BLOCK, Block, FailedGame, MAX_ENDINGS, MAX_FAILED, MAX_REASON, OTHER_ENDINGS, Outcome, Stats,
    Tally,
};

/// The z value of a 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wilson's score interval for `k` successes out of `n`, at 95%: (low, high). None for n = 0.
pub fn wilson(k: u64, n: u64) -> Option<[f64; 2]> {
    if n == 0 {
        return None;
    }
    let (n, p, z) = (n as f64, k as f64 / n as f64, Z95);
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).max(0.0).sqrt() / denom;
    Some([(centre - half).max(0.0), (centre + half).min(1.0)])
}

/// The 95% interval of a mean of `n` values whose sample standard deviation is `sd`. Its
/// ends stay within the finite numbers: the interval of a mean near ±1.7e308 ends at the
/// largest finite number rather than at infinity (which JSON cannot hold).
pub fn mean_interval(mean: f64, sd: f64, n: u64) -> Option<[f64; 2]> {
    if n == 0 {
        return None;
    }
    let half = if n < 2 {
        0.0
    } else {
        Z95 * sd / (n as f64).sqrt()
    };
    Some([finite(mean - half), finite(mean + half)])
}

/// Whether `action` names `id` ([`crate::action::names`]).
pub fn names(action: &str, id: &str) -> bool {
    crate::action::names_id(action, id)
}

/// A set of items, one bit each.
type Bits = Vec<u64>;

fn set(bits: &mut Bits, i: u32) {
    if let Some(w) = bits.get_mut(i as usize / 64) {
        *w |= 1 << (i % 64);
    }
}

/// Sets item `i`'s first time to `at` unless it has one.
fn first(firsts: &mut [u32], i: u32, at: u32) {
    if let Some(t) = firsts.get_mut(i as usize)
        && *t == NEVER
    {
        *t = at;
    }
}

/// The third of a game `actions` long that the `at`-th action falls in: 0 (the first third,
/// and the setup), 1 or 2.
fn third(at: u32, actions: u32) -> usize {
    if actions == 0 {
        return 0;
    }
    ((u64::from(at) * 3 / u64::from(actions)) as usize).min(2)
}

fn each(bits: &Bits) -> impl Iterator<Item = u32> + '_ {
    bits.iter().enumerate().flat_map(|(w, &word)| {
        (0..64u32)
            .filter(move |b| word & (1 << b) != 0)
            .map(move |b| w as u32 * 64 + b)
    })
}

/// What one game showed, for the figures: kept in its outcome.
#[derive(Debug, Clone, Default)]
pub struct Trace {
    /// The seat that started the game: the one whose action ended the game's first turn
    /// (`game.end_turn`), so a setup phase before the first turn (Dicey Curves' lining up,
    /// in its own order) does not count; in a game that never ends a turn, the seat that took
    /// the first action.
    pub first_mover: Option<u8>,
    /// Per seat, the items it held at some point (cards in its zones, its pieces, the
    /// game's option values).
    held: Vec<Bits>,
    /// Per seat, the items an action it took named.
    played: Vec<Bits>,
    /// Per seat and item, the number of actions taken when the seat first held it and when
    /// an action of it first named it ([`NEVER`]: not in this game).
    first_held: Vec<Vec<u32>>,
    first_played: Vec<Vec<u32>>,
    /// Per seat, the items it held when the game ended.
    held_at_end: Vec<Bits>,
    /// Times the sole leader on the score counter changed to another seat.
    pub lead_changes: u32,
    /// The sole leader on the score counter at the end, and the number of actions taken
    /// when it last became the sole leader (0: from the start).
    pub leader_since: Option<(u8, u32)>,
    /// The figures the rules recorded with `game.stat`.
    pub stats: BTreeMap<String, f64>,
    /// Where on the board play happened.
    places: places::PlaceTrace,
}

/// Follows one game as it is played.
pub struct Tracker {
    catalog: std::sync::Arc<Catalog>,
    score: Option<usize>,
    trace: Trace,
    /// The sole leader now (None while seats tie at the top), and the last seat that led
    /// alone.
    leader: Option<u8>,
    last_sole: Option<u8>,
    /// The turn the game began at, and the seat that took the first action.
    first_turn: u32,
    first_actor: Option<u8>,
    places: places::PlaceTracker,
    /// The number of actions taken so far.
    taken: u32,
}

/// Not held, or not played, in a game ([`Trace`]'s first times).
const NEVER: u32 = u32::MAX;

impl Tracker {
    /// Starts following a game of `def` whose state after setup is `state`.
    pub fn new(def: &GameDef, state: &State) -> Tracker {
        let catalog = def.catalog();
        let seats = state.seats as usize;
        let words = catalog.words();
        let mut t = Tracker {
            score: def.score_counter(),
            trace: Trace {
                held: vec![vec![0; words]; seats],
                played: vec![vec![0; words]; seats],
                first_held: vec![vec![NEVER; catalog.items.len()]; seats],
                first_played: vec![vec![NEVER; catalog.items.len()]; seats],
                held_at_end: vec![vec![0; words]; seats],
                ..Trace::default()
            },
            catalog,
            leader: None,
            last_sole: None,
            first_turn: state.turn,
            first_actor: None,
            places: places::PlaceTracker::new(def, state),
            taken: 0,
        };
        // The game's option values are held by every seat.
        for (id, values) in &t.catalog.options {
            let Some(v) = state.options.get(id) else {
                continue;
            };
            for (value, item) in values {
                if value == v {
                    for bits in &mut t.trace.held {
                        set(bits, *item);
                    }
                    for firsts in &mut t.trace.first_held {
                        first(firsts, *item, 0);
                    }
                }
            }
        }
        t.look(state);
        t.leader = t.sole_leader(state);
        t.last_sole = t.leader;
        t.trace.leader_since = t.leader.map(|s| (s, 0));
        t
    }

    /// After `seat` took `action`, the `taken`-th action of the game, leaving `state`.
    pub fn after(&mut self, seat: u8, action: &str, taken: u32, state: &State) {
        self.first_actor.get_or_insert(seat);
        if self.trace.first_mover.is_none() && state.turn != self.first_turn {
            self.trace.first_mover = Some(seat);
        }
        self.taken = taken;
        if let (Some(bits), Some(firsts)) = (
            self.trace.played.get_mut(seat as usize),
            self.trace.first_played.get_mut(seat as usize),
        ) {
            for w in crate::action::names(action) {
                for &i in self.catalog.named_by(w) {
                    set(bits, i);
                    first(firsts, i, taken);
                }
            }
        }
        self.look(state);
        self.places.after(state);
        let now = self.sole_leader(state);
        if now != self.leader {
            match now {
                Some(s) => {
                    if self.last_sole.is_some_and(|l| l != s) {
                        self.trace.lead_changes += 1;
                    }
                    self.last_sole = Some(s);
                    self.trace.leader_since = Some((s, taken));
                }
                // A tie at the top: whoever leads alone next takes the lead from there.
                None => self.trace.leader_since = None,
            }
            self.leader = now;
        }
    }

    /// The trace, with the figures the rules recorded by the end of the game.
    pub fn finish(mut self, state: &State) -> Trace {
        self.trace.stats = (*state.stats).clone();
        self.trace.places = self.places.finish();
        for z in &state.zones {
            let Some(seat) = z.owner else { continue };
            let Some(bits) = self.trace.held_at_end.get_mut(seat as usize) else {
                continue;
            };
            for c in &z.cards {
                if let Some(start) = self.catalog.deck_start.get(c.deck as usize) {
                    set(bits, start + u32::from(c.card));
                }
            }
        }
        if self.trace.first_mover.is_none() {
            self.trace.first_mover = self.first_actor;
        }
        self.trace
    }

    /// Marks what every seat holds now: the cards in its zones and its pieces.
    fn look(&mut self, state: &State) {
        let at = self.taken;
        for z in &state.zones {
            let Some(seat) = z.owner else { continue };
            let (Some(bits), Some(firsts)) = (
                self.trace.held.get_mut(seat as usize),
                self.trace.first_held.get_mut(seat as usize),
            ) else {
                continue;
            };
            for c in &z.cards {
                if let Some(start) = self.catalog.deck_start.get(c.deck as usize) {
                    set(bits, start + u32::from(c.card));
                    first(firsts, start + u32::from(c.card), at);
                }
            }
        }
        for p in &state.pieces {
            let Some(seat) = p.owner else { continue };
            if let (Some(bits), Some(firsts)) = (
                self.trace.held.get_mut(seat as usize),
                self.trace.first_held.get_mut(seat as usize),
            ) {
                set(bits, self.catalog.piece_start + u32::from(p.def));
                first(firsts, self.catalog.piece_start + u32::from(p.def), at);
            }
        }
    }

    /// The seat alone at the top of the score counter, if the mod names one.
    fn sole_leader(&self, state: &State) -> Option<u8> {
        let values = state.counters.get(self.score?)?;
        let top = *values.iter().max()?;
        let mut at_top = values.iter().enumerate().filter(|(_, v)| **v == top);
        let (seat, _) = at_top.next()?;
        at_top.next().is_none().then_some(seat as u8)
    }
}

/// Figures of one piece of content over a run's finished games. Win rates are shares of
/// seat-games: each seat of each finished game counts once, and a tie for first counts as a
/// win for each tied seat.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ContentFigure {
    /// The deck of a card, the option of an option value; empty otherwise.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub group: String,
    #[serde(default)]
    pub name: String,
    /// Games in which some seat held it, and the seats (over all games) that held it.
    pub games_held: u64,
    pub seats_held: u64,
    /// How often the seats that held it won, and the others.
    pub win_rate_held: Option<f64>,
    pub win_rate_held_interval: Option<[f64; 2]>,
    pub win_rate_not_held: Option<f64>,
    pub win_rate_not_held_interval: Option<[f64; 2]>,
    /// Games in which an action of some seat named it, and the seats that did.
    pub games_played: u64,
    pub seats_played: u64,
    pub win_rate_played: Option<f64>,
    pub win_rate_played_interval: Option<[f64; 2]>,
    pub win_rate_not_played: Option<f64>,
    pub win_rate_not_played_interval: Option<[f64; 2]>,
    /// Cards only: the seats that first held it (drew it, bought it, were dealt it) in the
    /// first, middle and last third of the game (by actions taken; a card dealt in the
    /// setup counts as the first third), and how often they won.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub held_by_third: Vec<ThirdFigure>,
    /// Cards only: the seats that first played it in each third of the game, and how often
    /// they won.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub played_by_third: Vec<ThirdFigure>,
    /// Cards some action plays: the seats that still held it when the game ended without
    /// ever having played it (a dead card), their share of the seats that held it, its 95%
    /// interval, and how often those seats won.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seats_dead: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dead_rate: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dead_rate_interval: Option<[f64; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub win_rate_dead: Option<f64>,
}

/// The seats that first held (or played) a card in one third of the game, and how often they
/// won, with its 95% interval (Wilson's).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ThirdFigure {
    pub seats: u64,
    pub win_rate: Option<f64>,
    pub win_rate_interval: Option<[f64; 2]>,
}

impl ContentFigure {
    /// How much more often a seat that played it won than one that did not (else held it):
    /// the number the Studio and the deck ranking sort by. None when there is nothing to set
    /// against.
    pub fn effect(&self) -> Option<f64> {
        match (self.win_rate_played, self.win_rate_not_played) {
            (Some(a), Some(b)) => Some(a - b),
            _ => match (self.win_rate_held, self.win_rate_not_held) {
                (Some(a), Some(b)) => Some(a - b),
                _ => None,
            },
        }
    }
}

/// A figure the rules recorded with `game.stat`, over the finished games that recorded it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct StatFigure {
    pub games: u64,
    pub mean: f64,
    pub sd: f64,
    pub interval: [f64; 2],
}

/// Lowest, 10th percentile, median, 90th percentile and highest.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Spread5 {
    pub min: f64,
    pub p10: f64,
    pub median: f64,
    pub p90: f64,
    pub max: f64,
}

/// The figures of a run about its content and the game as a whole (see the module).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Figures {
    /// Finished games whose first mover is known, and how often that seat won.
    pub first_mover_games: u64,
    pub first_mover_win_rate: Option<f64>,
    pub first_mover_win_rate_interval: Option<[f64; 2]>,
    /// Game lengths over the games that ended without an error.
    pub turns_spread: Option<Spread5>,
    pub actions_spread: Option<Spread5>,
    /// The counter marked `score = true`, if any, and what it showed over finished games.
    pub score_counter: Option<String>,
    pub lead_changes_mean: Option<f64>,
    pub lead_changes_interval: Option<[f64; 2]>,
    /// Finished games whose winner was alone in the lead from some point to the end, and
    /// how far into those games (a share of their actions, 0 = from the start) it took
    /// that lead for good, on average.
    pub winner_led_for_good_games: u64,
    pub winner_took_lead_at: Option<f64>,
    pub winner_took_lead_at_interval: Option<[f64; 2]>,
    /// Per `game.stat` name.
    pub stats: BTreeMap<String, StatFigure>,
    /// `game.stat` names recorded past the [`MAX_RUN_STATS`] a run summarises, which are left
    /// out of `stats`: how many (counted up to [`MAX_LEFT_OUT`]), and the first few.
    #[serde(skip_serializing_if = "is_zero")]
    pub stats_left_out: u64,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stats_left_out_first: Vec<String>,
    /// Per card (keyed by id, or `deck/card` where two decks share an id), tile kind, piece
    /// kind and option value (`option=value`). Items never held nor played are left out.
    pub cards: BTreeMap<String, ContentFigure>,
    pub tiles: BTreeMap<String, ContentFigure>,
    pub pieces: BTreeMap<String, ContentFigure>,
    pub options: BTreeMap<String, ContentFigure>,
    /// Where on the board play happened; None for a game without a board.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board_play: Option<PlayFigures>,
}

/// Counts for one item.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct Counts {
    games_held: u64,
    seats_held: u64,
    wins_held: u64,
    games_played: u64,
    seats_played: u64,
    wins_played: u64,
    /// Seats (and their wins) that first held, and first played, the item in each third of
    /// the game; seats that held it at the end without playing it (and their wins).
    #[serde(default)]
    held_third: [[u64; 2]; 3],
    #[serde(default)]
    played_third: [[u64; 2]; 3],
    #[serde(default)]
    dead: [u64; 2],
}

impl Counts {
    fn merge(&mut self, o: &Counts) {
        let add = |a: &mut [u64; 2], b: &[u64; 2]| {
            for (x, y) in a.iter_mut().zip(b) {
                *x = x.saturating_add(*y);
            }
        };
        for (a, b) in self.held_third.iter_mut().zip(&o.held_third) {
            add(a, b);
        }
        for (a, b) in self.played_third.iter_mut().zip(&o.played_third) {
            add(a, b);
        }
        add(&mut self.dead, &o.dead);
        self.games_held = self.games_held.saturating_add(o.games_held);
        self.seats_held = self.seats_held.saturating_add(o.seats_held);
        self.wins_held = self.wins_held.saturating_add(o.wins_held);
        self.games_played = self.games_played.saturating_add(o.games_played);
        self.seats_played = self.seats_played.saturating_add(o.seats_played);
        self.wins_played = self.wins_played.saturating_add(o.wins_played);
    }
}

/// Values by name, in the order each name first came (written to a shard file as a list), so
/// that merging blocks of games admits names in the order a single run meets them.
#[derive(Debug, Clone)]
pub(crate) struct Firsts<V> {
    list: Vec<(String, V)>,
    index: std::collections::HashMap<String, usize>,
}

impl<V> Default for Firsts<V> {
    fn default() -> Self {
        Firsts {
            list: Vec::new(),
            index: Default::default(),
        }
    }
}

impl<V: Default> Firsts<V> {
    pub(crate) fn len(&self) -> usize {
        self.list.len()
    }

    pub(crate) fn get_mut(&mut self, name: &str) -> Option<&mut V> {
        let i = *self.index.get(name)?;
        self.list.get_mut(i).map(|(_, v)| v)
    }

    /// The value of `name`, a default one put last when it is new.
    pub(crate) fn entry(&mut self, name: &str) -> &mut V {
        let i = match self.index.get(name) {
            Some(i) => *i,
            None => {
                self.index.insert(name.to_string(), self.list.len());
                self.list.push((name.to_string(), V::default()));
                self.list.len() - 1
            }
        };
        &mut self.list[i].1
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = (&String, &V)> {
        self.list.iter().map(|(k, v)| (k, v))
    }
}

impl<V: Serialize> Serialize for Firsts<V> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.list.serialize(s)
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for Firsts<V> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let list: Vec<(String, V)> = Vec::deserialize(d)?;
        let mut index = std::collections::HashMap::new();
        for (i, (k, _)) in list.iter().enumerate() {
            index.entry(k.clone()).or_insert(i);
        }
        Ok(Firsts { list, index })
    }
}

/// How far [`Welford`] scales its second copy of the values down: by 2^-600, so the largest
/// finite values (about ±1.8e308) become about ±4e127, whose differences and squares summed
/// over any run stay far from overflowing.
const SHRINK: i32 = 600;

/// Any number as a finite one: beyond the largest finite value it is that value, and NaN
/// (which [`Welford`] never gives) is 0.
fn finite(x: f64) -> f64 {
    if x.is_nan() {
        0.0
    } else {
        x.clamp(-f64::MAX, f64::MAX)
    }
}

/// Mean and spread of a figure gathered one value at a time (Welford's method), so the values
/// themselves need not be kept; every figure of a run is gathered this way. Always finite:
/// the values are gathered as they are and also scaled down by 2^-[`SHRINK`] (exactly: a
/// power of two). The plain sums overflow when values near ±1.7e308 meet (their difference,
/// or its square, passes the largest finite number, and the mean becomes NaN); the figures
/// then come from the scaled sums scaled back up, a spread too large to hold being the
/// largest finite number. Otherwise they are the plain sums', so ordinary figures are as they
/// always were. The plain sum is kept too, for the figures that are its mean
/// ([`Welford::sum_mean_sd`]).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(into = "WelfordBits", from = "WelfordBits")]
pub struct Welford {
    n: u64,
    sum: f64,
    mean: f64,
    m2: f64,
    small_mean: f64,
    small_m2: f64,
}

/// A [`Welford`] as it is written in a shard file: the count and each sum's bits, so it reads
/// back exactly (and a sum that overflowed, which JSON cannot hold as a number, reads back too).
#[derive(Clone, Serialize, Deserialize)]
struct WelfordBits(u64, [u64; 5]);

impl From<Welford> for WelfordBits {
    fn from(w: Welford) -> WelfordBits {
        let bits = [w.sum, w.mean, w.m2, w.small_mean, w.small_m2].map(f64::to_bits);
        WelfordBits(w.n, bits)
    }
}

impl From<WelfordBits> for Welford {
    fn from(WelfordBits(n, b): WelfordBits) -> Welford {
        let [sum, mean, m2, small_mean, small_m2] = b.map(f64::from_bits);
        Welford {
            n,
            sum,
            mean,
            m2,
            small_mean,
            small_m2,
        }
    }
}

/// Two means and sums of squared deviations, of `na` and `nb` values, as one (Chan, Golub and
/// LeVeque's pairwise update).
fn combine(na: u64, a: (f64, f64), nb: u64, b: (f64, f64)) -> (f64, f64) {
    let n = (na + nb) as f64;
    let (na, nb) = (na as f64, nb as f64);
    let d = b.0 - a.0;
    (a.0 + d * (nb / n), a.1 + b.1 + d * d * (na * nb / n))
}

/// One step of Welford's method: the new mean and sum of squared deviations after `x`, the
/// `n`th value.
fn step(n: u64, mean: f64, m2: f64, x: f64) -> (f64, f64) {
    let d = x - mean;
    let mean = mean + d / n as f64;
    (mean, m2 + d * (x - mean))
}

/// The sample standard deviation of `n` values whose squared deviations sum to `m2` (0 for
/// fewer than two).
fn sample_sd(n: u64, m2: f64) -> f64 {
    if n < 2 {
        0.0
    } else {
        (m2.max(0.0) / (n - 1) as f64).sqrt()
    }
}

impl Welford {
    pub fn add(&mut self, x: f64) {
        self.n += 1;
        self.sum += x;
        (self.mean, self.m2) = step(self.n, self.mean, self.m2, x);
        (self.small_mean, self.small_m2) = step(
            self.n,
            self.small_mean,
            self.small_m2,
            x * 2f64.powi(-SHRINK),
        );
    }

    /// Adds the values `other` gathered, as if they came after these. Not the same to the
    /// last bit as adding them one by one, so a run merges whole blocks of games always in the
    /// same order (see [`run::BLOCK`]); merging into an empty one copies `other` exactly.
    pub fn merge(&mut self, other: &Welford) {
        if other.n == 0 {
            return;
        }
        if self.n == 0 {
            *self = other.clone();
            return;
        }
        (self.mean, self.m2) = combine(
            self.n,
            (self.mean, self.m2),
            other.n,
            (other.mean, other.m2),
        );
        (self.small_mean, self.small_m2) = combine(
            self.n,
            (self.small_mean, self.small_m2),
            other.n,
            (other.small_mean, other.small_m2),
        );
        self.n += other.n;
        self.sum += other.sum;
    }

    /// How many values were added.
    pub fn count(&self) -> u64 {
        self.n
    }

    /// Mean and sample standard deviation (0 for fewer than two values), both finite.
    pub fn mean_sd(&self) -> (f64, f64) {
        let (mean, sd) = (self.mean, sample_sd(self.n, self.m2));
        if mean.is_finite() && sd.is_finite() {
            return (mean, sd);
        }
        let up = 2f64.powi(SHRINK);
        (
            finite(self.small_mean * up),
            finite(sample_sd(self.n, self.small_m2) * up),
        )
    }

    /// The sum over the count and the sample standard deviation, as the figures of whole
    /// games (length, score) have always been worked out: (0, 0) before the first value.
    pub fn sum_mean_sd(&self) -> (f64, f64) {
        match self.n {
            0 => (0.0, 0.0),
            1 => (self.sum, 0.0),
            n => (self.sum / n as f64, sample_sd(n, self.m2)),
        }
    }

    /// The mean, once there is a value.
    pub fn mean(&self) -> Option<f64> {
        (self.n > 0).then(|| self.mean_sd().0)
    }

    /// The 95% interval of the mean (see [`mean_interval`]).
    pub fn interval(&self) -> Option<[f64; 2]> {
        let (mean, sd) = self.mean_sd();
        mean_interval(mean, sd, self.n)
    }
}

/// The figures about the content and the game as a whole, added up from the traces of a
/// run's games in seed order: the part of a [`Tally`] that follows traces. What it holds
/// grows with the content and the distinct game lengths, not with the number of games. A
/// block of games ([`run::BLOCK`]) keeps every `game.stat` name it met; the run they are
/// merged into keeps the first [`MAX_RUN_STATS`].
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct Content {
    #[serde(skip)]
    catalog: Option<std::sync::Arc<Catalog>>,
    #[serde(skip)]
    score_counter: Option<String>,
    counts: Vec<Counts>,
    seat_games: u64,
    seat_wins: u64,
    first_games: u64,
    first_wins: u64,
    turns: BTreeMap<u32, u64>,
    actions: BTreeMap<u32, u64>,
    lead_changes: Welford,
    took_lead: Welford,
    stats: Firsts<Welford>,
    /// Names past `MAX_RUN_STATS`, kept only to count them (at most `MAX_LEFT_OUT`).
    #[serde(default, skip_serializing_if = "std::collections::BTreeSet::is_empty")]
    left_out: std::collections::BTreeSet<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    left_out_first: Vec<String>,
    places: places::PlaceTally,
}

/// The most `game.stat` names a run summarises (a mod whose every game records other names
/// cannot make the figures grow with the games). The names past it are counted and said
/// (`Figures::stats_left_out`), never summarised.
pub const MAX_RUN_STATS: usize = 100;

/// The most names left out that a run counts one by one; past it, "at least" this many.
pub const MAX_LEFT_OUT: usize = 10_000;

/// The names left out that a run names.
const LEFT_OUT_NAMED: usize = 3;

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Content {
    fn new(def: &GameDef) -> Content {
        let catalog = def.catalog();
        Content {
            counts: vec![Counts::default(); catalog.items.len()],
            catalog: Some(catalog),
            score_counter: def.score_counter().map(|i| def.counters[i].id.clone()),
            places: places::PlaceTally::new(def),
            ..Content::default()
        }
    }

    /// Adds the length of a game that ended without an error.
    fn add_length(&mut self, turns: u32, actions: u32) {
        *self.turns.entry(turns).or_default() += 1;
        *self.actions.entry(actions).or_default() += 1;
    }

    /// Adds a finished game's trace, `actions` long.
    fn add(&mut self, t: &Trace, r: &GameResult, actions: u32) {
        let winners = r.winners();
        let won = |s: usize| winners.contains(&s);
        let seats = t.held.len();
        self.seat_games += seats as u64;
        self.seat_wins += (0..seats).filter(|s| won(*s)).count() as u64;
        if let Some(f) = t.first_mover {
            self.first_games += 1;
            self.first_wins += u64::from(won(f as usize));
        }
        self.places.add(&t.places, &won);
        for (seat, (held, played)) in t.held.iter().zip(&t.played).enumerate() {
            let w = u64::from(won(seat));
            for i in each(held) {
                if let Some(c) = self.counts.get_mut(i as usize) {
                    c.seats_held += 1;
                    c.wins_held += w;
                }
            }
            for i in each(played) {
                if let Some(c) = self.counts.get_mut(i as usize) {
                    c.seats_played += 1;
                    c.wins_played += w;
                }
            }
            let firsts = [t.first_held.get(seat), t.first_played.get(seat)];
            for (which, times) in firsts.into_iter().enumerate() {
                for (c, at) in self.counts.iter_mut().zip(times.into_iter().flatten()) {
                    if *at == NEVER {
                        continue;
                    }
                    let by = if which == 0 {
                        &mut c.held_third
                    } else {
                        &mut c.played_third
                    };
                    let cell = &mut by[third(*at, actions)];
                    cell[0] += 1;
                    cell[1] += w;
                }
            }
            if let Some(end) = t.held_at_end.get(seat) {
                for i in each(end) {
                    if played
                        .get(i as usize / 64)
                        .is_some_and(|w| w & (1 << (i % 64)) != 0)
                    {
                        continue;
                    }
                    if let Some(c) = self.counts.get_mut(i as usize) {
                        c.dead[0] += 1;
                        c.dead[1] += w;
                    }
                }
            }
        }
        let any = |sets: &[Bits]| -> Bits {
            let mut out = sets.first().cloned().unwrap_or_default();
            for s in sets.iter().skip(1) {
                for (o, x) in out.iter_mut().zip(s) {
                    *o |= x;
                }
            }
            out
        };
        for i in each(&any(&t.held)) {
            if let Some(c) = self.counts.get_mut(i as usize) {
                c.games_held += 1;
            }
        }
        for i in each(&any(&t.played)) {
            if let Some(c) = self.counts.get_mut(i as usize) {
                c.games_played += 1;
            }
        }
        if self.score_counter.is_some() {
            self.lead_changes.add(f64::from(t.lead_changes));
            if let (Some((leader, since)), [winner]) = (t.leader_since, winners.as_slice())
                && usize::from(leader) == *winner
            {
                self.took_lead
                    .add(f64::from(since) / f64::from(actions.max(1)));
            }
        }
        for (name, v) in &t.stats {
            self.stats.entry(name).add(*v);
        }
    }

    /// Adds the figures of the block of games that came next, `b`: every count, the
    /// spreads merged, and its `game.stat` names in the order it met them, each kept while
    /// fewer than [`MAX_RUN_STATS`] are (its values merged whole), else counted as left out.
    fn merge(&mut self, b: &Content) {
        for (c, o) in self.counts.iter_mut().zip(&b.counts) {
            c.merge(o);
        }
        self.seat_games = self.seat_games.saturating_add(b.seat_games);
        self.seat_wins = self.seat_wins.saturating_add(b.seat_wins);
        self.first_games = self.first_games.saturating_add(b.first_games);
        self.first_wins = self.first_wins.saturating_add(b.first_wins);
        for (mine, theirs) in [(&mut self.turns, &b.turns), (&mut self.actions, &b.actions)] {
            for (k, n) in theirs {
                let c = mine.entry(*k).or_default();
                *c = c.saturating_add(*n);
            }
        }
        self.lead_changes.merge(&b.lead_changes);
        self.took_lead.merge(&b.took_lead);
        for (name, w) in b.stats.iter() {
            if let Some(mine) = self.stats.get_mut(name) {
                mine.merge(w);
            } else if self.stats.len() < MAX_RUN_STATS {
                self.stats.entry(name).merge(w);
            } else if self.left_out.len() < MAX_LEFT_OUT
                && self.left_out.insert(name.clone())
                && self.left_out_first.len() < LEFT_OUT_NAMED
            {
                self.left_out_first.push(name.clone());
            }
        }
        self.places.merge(&b.places);
    }

    /// Whether `b` was gathered for the same content as this: the same number of items and
    /// places (a shard file's block, before it is merged).
    fn fits(&self, b: &Content) -> bool {
        self.counts.len() == b.counts.len() && self.places.fits(&b.places)
    }

    fn figures(&self) -> Figures {
        let mut f = Figures {
            first_mover_games: self.first_games,
            first_mover_win_rate: rate(self.first_wins, self.first_games),
            first_mover_win_rate_interval: wilson(self.first_wins, self.first_games),
            turns_spread: spread(&self.turns),
            actions_spread: spread(&self.actions),
            score_counter: self.score_counter.clone(),
            lead_changes_mean: self.lead_changes.mean(),
            lead_changes_interval: self.lead_changes.interval(),
            winner_led_for_good_games: self.took_lead.count(),
            winner_took_lead_at: self.took_lead.mean(),
            winner_took_lead_at_interval: self.took_lead.interval(),
            stats: self
                .stats
                .iter()
                .take(MAX_RUN_STATS)
                .map(|(k, w)| {
                    let (mean, sd) = w.mean_sd();
                    (
                        k.clone(),
                        StatFigure {
                            games: w.count(),
                            mean,
                            sd,
                            interval: w.interval().unwrap_or([mean, mean]),
                        },
                    )
                })
                .collect(),
            stats_left_out: self.left_out.len() as u64,
            stats_left_out_first: self.left_out_first.clone(),
            board_play: self.places.figures(),
            ..Figures::default()
        };
        let Some(catalog) = &self.catalog else {
            return f;
        };
        for (item, c) in catalog.items.iter().zip(&self.counts) {
            if c.games_held == 0 && c.games_played == 0 {
                continue;
            }
            let other_seats = |n: u64| self.seat_games.saturating_sub(n);
            let other_wins = |w: u64| self.seat_wins.saturating_sub(w);
            let fig = ContentFigure {
                group: item.group.clone(),
                name: item.name.clone(),
                games_held: c.games_held,
                seats_held: c.seats_held,
                win_rate_held: rate(c.wins_held, c.seats_held),
                win_rate_held_interval: wilson(c.wins_held, c.seats_held),
                win_rate_not_held: rate(other_wins(c.wins_held), other_seats(c.seats_held)),
                win_rate_not_held_interval: wilson(
                    other_wins(c.wins_held),
                    other_seats(c.seats_held),
                ),
                games_played: c.games_played,
                seats_played: c.seats_played,
                win_rate_played: rate(c.wins_played, c.seats_played),
                win_rate_played_interval: wilson(c.wins_played, c.seats_played),
                win_rate_not_played: rate(other_wins(c.wins_played), other_seats(c.seats_played)),
                win_rate_not_played_interval: wilson(
                    other_wins(c.wins_played),
                    other_seats(c.seats_played),
                ),
                ..ContentFigure::default()
            };
            let mut fig = fig;
            if item.kind == ItemKind::Card {
                let thirds = |by: &[[u64; 2]; 3]| -> Vec<ThirdFigure> {
                    by.iter()
                        .map(|[n, w]| ThirdFigure {
                            seats: *n,
                            win_rate: rate(*w, *n),
                            win_rate_interval: wilson(*w, *n),
                        })
                        .collect()
                };
                fig.held_by_third = thirds(&c.held_third);
                if c.seats_played > 0 {
                    fig.played_by_third = thirds(&c.played_third);
                    // Only a card some seat played can be left unplayed.
                    fig.seats_dead = Some(c.dead[0]);
                    fig.dead_rate = rate(c.dead[0], c.seats_held);
                    fig.dead_rate_interval = wilson(c.dead[0], c.seats_held);
                    fig.win_rate_dead = rate(c.dead[1], c.dead[0]);
                }
            }
            let map = match item.kind {
                ItemKind::Card => &mut f.cards,
                ItemKind::Tile => &mut f.tiles,
                ItemKind::Piece => &mut f.pieces,
                ItemKind::OptionValue => &mut f.options,
            };
            map.insert(item.key.clone(), fig);
        }
        f
    }
}

fn rate(k: u64, n: u64) -> Option<f64> {
    (n > 0).then(|| k as f64 / n as f64)
}

/// The five-number spread of a distribution of counts (value -> how many).
fn spread(counts: &BTreeMap<u32, u64>) -> Option<Spread5> {
    let n: u64 = counts.values().fold(0u64, |a, c| a.saturating_add(*c));
    if n == 0 {
        return None;
    }
    // The value at rank ceil(q·n) (the nearest-rank percentile).
    let at = |q: f64| {
        let rank = ((q * n as f64).ceil() as u64).clamp(1, n);
        let mut seen = 0;
        for (v, c) in counts {
            seen = c.saturating_add(seen);
            if seen >= rank {
                return f64::from(*v);
            }
        }
        0.0
    };
    Some(Spread5 {
        min: f64::from(*counts.keys().next()?),
        p10: at(0.1),
        median: at(0.5),
        p90: at(0.9),
        max: f64::from(*counts.keys().next_back()?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_the_published_values() {
        // Newcombe (1998), table I: 81 of 263 -> 0.2553 to 0.3662.
        let [lo, hi] = wilson(81, 263).unwrap();
        assert!((lo - 0.2553).abs() < 5e-4, "{lo}");
        assert!((hi - 0.3662).abs() < 5e-4, "{hi}");
        // 0 of 10 stays at 0 below and is not empty above.
        let [lo, hi] = wilson(0, 10).unwrap();
        assert_eq!(lo, 0.0);
        assert!((hi - 0.2775).abs() < 5e-4, "{hi}");
        assert_eq!(wilson(0, 0), None);
    }

    #[test]
    fn spread_takes_nearest_ranks() {
        let counts: BTreeMap<u32, u64> = (1..=10).map(|v| (v, 1)).collect();
        let s = spread(&counts).unwrap();
        assert_eq!(
            (s.min, s.p10, s.median, s.p90, s.max),
            (1.0, 1.0, 5.0, 9.0, 10.0)
        );
    }

    #[test]
    fn figures_of_values_near_the_largest_number_stay_finite() {
        // Values of ±1.7e308 overflow the plain sums (their difference is infinite).
        let mut w = Welford::default();
        for x in [1.7e308, -1.7e308, 1.7e308, 0.0, -1.7e308] {
            w.add(x);
        }
        let (mean, sd) = w.mean_sd();
        let [lo, hi] = w.interval().unwrap();
        for x in [mean, sd, lo, hi] {
            assert!(x.is_finite(), "{mean} {sd} {lo} {hi}");
        }
        // The mean is that of the values (0.0), to the precision of the scaled sums.
        assert!(mean.abs() < 1e300, "{mean}");
        assert!((sd / 1.7e308 - 1.0).abs() < 1e-12, "{sd}");
        // A spread beyond the largest number (2.4e308 here) is the largest.
        let mut two = Welford::default();
        two.add(1.7e308);
        two.add(-1.7e308);
        assert_eq!(two.mean_sd(), (0.0, f64::MAX));
        assert_eq!(two.interval(), Some([-f64::MAX, f64::MAX]));
        // One value alone, and equal values, keep their exact mean.
        let mut one = Welford::default();
        one.add(-1.7e308);
        one.add(-1.7e308);
        assert_eq!(one.mean_sd(), (-1.7e308, 0.0));
        // Ordinary values are summed as they always were.
        let mut w = Welford::default();
        let xs = [3.0, 1.5, 4.25, 1e-200, 9.75e12];
        for x in xs {
            w.add(x);
        }
        let (mut mean, mut m2) = (0.0, 0.0);
        for (i, x) in xs.iter().enumerate() {
            let d = x - mean;
            mean += d / (i + 1) as f64;
            m2 += d * (x - mean);
        }
        let sd = (m2 / (xs.len() - 1) as f64).sqrt();
        assert_eq!(w.mean_sd(), (mean, sd));
        assert_eq!(w.sum_mean_sd(), (xs.iter().sum::<f64>() / 5.0, sd));
    }

    #[test]
    fn thirds_split_a_game_by_its_actions() {
        let at: Vec<usize> = [0, 2, 3, 5, 6, 9].iter().map(|a| third(*a, 9)).collect();
        assert_eq!(at, [0, 0, 1, 1, 2, 2]);
        assert_eq!(third(0, 0), 0);
        assert_eq!(third(u32::MAX - 1, u32::MAX), 2);
    }

    #[test]
    fn names_are_whole_words() {
        assert!(names("play cs-t6 0 1,2", "cs-t6"));
        assert!(!names("play cs-t66 0 1,2", "cs-t6"));
    }
}
