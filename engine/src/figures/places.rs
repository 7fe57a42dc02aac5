//! Where play happens on the board: per space (a grid cell is a space) in how many games a
//! piece stood on it and a tile was laid or a piece placed on it, and how often the seats
//! whose pieces stood on it won; per road (an edge the board defines) and per track piece
//! kind, how often it was used.
//!
//! Everything is keyed by the board's definition ([`Places`]), so what a run holds is
//! bounded by the board's size: a grid cell by `x,y` (from 1), a map space by its id, a
//! space of a sections board by `section/space` (wherever the section was laid this game),
//! a road by its ends' keys (`a -- b`, or `a -> b` one way), a track piece by its id.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use super::{Bits, each, rate, set, wilson};
use crate::content::GameDef;
use crate::content::def::{BoardDef, GraphDef};
use crate::state::State;

/// The places of a board that the figures follow, from its definition.
#[derive(Debug, Clone, Default)]
pub(super) struct Places {
    kind: String,
    spaces: Vec<String>,
    space_of: HashMap<String, u32>,
    roads: Vec<String>,
    /// (from place, to place) -> road; a two-way road is there both ways.
    road_of: HashMap<(u32, u32), u32>,
    track: Vec<String>,
}

fn road_key(a: &str, b: &str, directed: bool) -> String {
    format!("{a} {} {b}", if directed { "->" } else { "--" })
}

impl Places {
    pub(super) fn of(def: &GameDef) -> Places {
        let mut p = Places {
            kind: def.board.kind_name().to_string(),
            ..Places::default()
        };
        match &def.board {
            BoardDef::None => {}
            BoardDef::Grid(g) => {
                for y in 1..=g.height {
                    for x in 1..=g.width {
                        p.add_space(format!("{x},{y}"));
                    }
                }
            }
            BoardDef::Graph(g) => p.add_graph(g, ""),
            BoardDef::Sections(s) => {
                for sec in &s.sections {
                    p.add_graph(&sec.graph, &format!("{}/", sec.id));
                }
            }
            BoardDef::Track(t) => p.track = t.pieces.iter().map(|x| x.id.clone()).collect(),
        }
        p
    }

    fn add_space(&mut self, key: String) -> u32 {
        let i = self.spaces.len() as u32;
        self.space_of.entry(key.clone()).or_insert(i);
        self.spaces.push(key);
        i
    }

    fn add_graph(&mut self, g: &GraphDef, prefix: &str) {
        let first = self.spaces.len() as u32;
        for s in &g.spaces {
            self.add_space(format!("{prefix}{}", s.id));
        }
        for e in &g.edges {
            let (from, to) = (first + e.from as u32, first + e.to as u32);
            let (Some(a), Some(b)) = (self.spaces.get(from as usize), self.spaces.get(to as usize))
            else {
                continue;
            };
            let r = self.roads.len() as u32;
            self.roads.push(road_key(a, b, e.directed));
            self.road_of.entry((from, to)).or_insert(r);
            if !e.directed {
                self.road_of.entry((to, from)).or_insert(r);
            }
        }
    }

    /// Per space of `state`'s board, its place (None for a space the definition does not
    /// hold, such as a track's).
    fn map(&self, def: &GameDef, state: &State) -> Vec<Option<u32>> {
        let spaces = &state.board.graph.spaces;
        match &def.board {
            BoardDef::Grid(_) => (0..spaces.len() as u32)
                .map(|i| (i < self.spaces.len() as u32).then_some(i))
                .collect(),
            BoardDef::Graph(_) => spaces
                .iter()
                .map(|s| self.space_of.get(&s.id).copied())
                .collect(),
            BoardDef::Sections(s) => {
                let mut out = Vec::with_capacity(spaces.len());
                for &(si, _) in &state.board.arrangement {
                    let Some(sec) = s.sections.get(si as usize) else {
                        continue;
                    };
                    for sp in &sec.graph.spaces {
                        let key = format!("{}/{}", sec.id, sp.id);
                        out.push(self.space_of.get(&key).copied());
                    }
                }
                out
            }
            BoardDef::Track(_) | BoardDef::None => vec![None; spaces.len()],
        }
    }
}

/// What one game showed about the board.
#[derive(Debug, Clone, Default)]
pub(super) struct PlaceTrace {
    /// Per seat, the spaces its pieces stood on.
    visited: Vec<Bits>,
    /// The spaces any piece stood on, owned or not.
    visited_any: Bits,
    /// The spaces a tile was laid or a piece placed on.
    built: Bits,
    /// Per road, the moves along it.
    roads: Vec<u32>,
    /// Per track piece kind, the pieces of it laid, and whether a piece stood on one.
    laid: Vec<u32>,
    stood: Bits,
}

fn words(n: usize) -> usize {
    n.div_ceil(64)
}

/// Follows the board through one game.
pub(super) struct PlaceTracker {
    places: Places,
    /// The current board's space -> place.
    map: Vec<Option<u32>>,
    /// Each piece's space after the last action.
    at: Vec<Option<u32>>,
    /// The grid's layers after the last action, with their stamps.
    tiles: (u64, u64),
    layers: Vec<(Option<crate::board::Placed>, Option<crate::board::Placed>)>,
    /// Per track space, the kind of its laid piece, and how many pieces that was made for.
    track_of: Vec<Option<u32>>,
    laid_seen: usize,
    trace: PlaceTrace,
}

impl PlaceTracker {
    pub(super) fn new(def: &GameDef, state: &State) -> PlaceTracker {
        let places = Places::of(def);
        let n = words(places.spaces.len());
        let mut t = PlaceTracker {
            map: places.map(def, state),
            at: Vec::new(),
            tiles: (0, 0),
            layers: Vec::new(),
            track_of: Vec::new(),
            laid_seen: 0,
            trace: PlaceTrace {
                visited: vec![vec![0; n]; state.seats as usize],
                visited_any: vec![0; n],
                built: vec![0; n],
                roads: vec![0; places.roads.len()],
                laid: vec![0; places.track.len()],
                stood: vec![0; words(places.track.len())],
            },
            places,
        };
        t.at = state.pieces.iter().map(|p| p.at).collect();
        t.remember_layers(state);
        t.look(state);
        t
    }

    fn remember_layers(&mut self, state: &State) {
        if let Some(g) = &state.board.grid {
            self.tiles = (g.tiles_stamp, g.blockers_stamp);
            self.layers = g
                .tiles
                .iter()
                .zip(&g.blockers)
                .map(|(a, b)| (*a, *b))
                .collect();
        }
    }

    /// After an action that left `state`. Only a track's graph grows, and its spaces are
    /// followed by their pieces' kinds instead.
    pub(super) fn after(&mut self, state: &State) {
        self.map.resize(state.board.graph.spaces.len(), None);
        self.track_pieces(state);
        for (i, p) in state.pieces.iter().enumerate() {
            let before = self.at.get(i).copied().flatten();
            match (before, p.at) {
                (None, Some(now)) => self.mark_built(now),
                (Some(a), Some(b)) if a != b => self.mark_road(a, b),
                _ => {}
            }
        }
        self.at.clear();
        self.at.extend(state.pieces.iter().map(|p| p.at));
        if let Some(g) = &state.board.grid
            && (g.tiles_stamp, g.blockers_stamp) != self.tiles
        {
            for (i, (a, b)) in g.tiles.iter().zip(&g.blockers).enumerate() {
                let was = self.layers.get(i).copied().unwrap_or((None, None));
                if (a.is_some() && *a != was.0) || (b.is_some() && *b != was.1) {
                    self.mark_built(i as u32);
                }
            }
            self.remember_layers(state);
        }
        self.look(state);
    }

    fn place(&self, space: u32) -> Option<u32> {
        self.map.get(space as usize).copied().flatten()
    }

    fn mark_built(&mut self, space: u32) {
        if let Some(p) = self.place(space) {
            set(&mut self.trace.built, p);
        }
    }

    fn mark_road(&mut self, a: u32, b: u32) {
        if let (Some(a), Some(b)) = (self.place(a), self.place(b))
            && let Some(&r) = self.places.road_of.get(&(a, b))
            && let Some(n) = self.trace.roads.get_mut(r as usize)
        {
            *n += 1;
        }
    }

    /// Counts the track pieces laid since the last look, and maps their spaces to kinds.
    fn track_pieces(&mut self, state: &State) {
        let Some(track) = &state.board.track else {
            return;
        };
        if track.laid.len() == self.laid_seen {
            return;
        }
        for piece in track.laid.iter().skip(self.laid_seen) {
            if let Some(n) = self.trace.laid.get_mut(piece.piece as usize) {
                *n += 1;
            }
            let spaces = (piece.lanes * piece.rows) as usize;
            let first = piece.first_space as usize;
            if self.track_of.len() < first + spaces {
                self.track_of.resize(first + spaces, None);
            }
            for s in &mut self.track_of[first..first + spaces] {
                *s = Some(u32::from(piece.piece));
            }
        }
        self.laid_seen = track.laid.len();
    }

    /// Marks the spaces pieces stand on now.
    fn look(&mut self, state: &State) {
        for p in &state.pieces {
            let Some(space) = p.at else { continue };
            if let Some(k) = self.track_of.get(space as usize).copied().flatten() {
                set(&mut self.trace.stood, k);
            }
            let Some(place) = self.place(space) else {
                continue;
            };
            set(&mut self.trace.visited_any, place);
            if let Some(bits) = p.owner.and_then(|s| self.trace.visited.get_mut(s as usize)) {
                set(bits, place);
            }
        }
    }

    pub(super) fn finish(self) -> PlaceTrace {
        self.trace
    }
}

/// Figures of one space over a run's finished games.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SpaceFigure {
    /// Games in which a piece stood on it, and in which a tile was laid or a piece placed
    /// on it.
    pub games_visited: u64,
    pub games_built_on: u64,
    /// Seats (over all games) whose pieces stood on it, and how often they won.
    pub seats_visited: u64,
    pub win_rate_visited: Option<f64>,
    pub win_rate_visited_interval: Option<[f64; 2]>,
}

/// Figures of one road over a run's finished games.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RoadFigure {
    /// Games in which a piece moved along it, and the moves along it in all.
    pub games_used: u64,
    pub moves: u64,
}

/// Figures of one track piece kind over a run's finished games.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TrackFigure {
    /// Games in which one was laid, the pieces of it laid in all, and games in which a
    /// piece stood on one.
    pub games_laid: u64,
    pub laid: u64,
    pub games_used: u64,
}

/// Where play happened on the board over a run's finished games (see the module). Every
/// space, road and track piece of the board is there, those never used with zeros.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PlayFigures {
    /// The board's kind (`grid`, `graph`, `sections`, `track`).
    pub kind: String,
    /// The finished games counted.
    pub games: u64,
    pub spaces: BTreeMap<String, SpaceFigure>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub roads: BTreeMap<String, RoadFigure>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub track_pieces: BTreeMap<String, TrackFigure>,
}

impl PlayFigures {
    /// The spaces no piece stood on in any game, in key order.
    pub fn never_visited(&self) -> impl Iterator<Item = &str> {
        self.spaces
            .iter()
            .filter(|(_, f)| f.games_visited == 0)
            .map(|(k, _)| k.as_str())
    }
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct SpaceCounts {
    visited: u64,
    built: u64,
    seats: u64,
    wins: u64,
}

/// The board figures added up from the traces of a run's finished games: one count per
/// space, road and track piece kind.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(super) struct PlaceTally {
    #[serde(skip)]
    places: Places,
    games: u64,
    spaces: Vec<SpaceCounts>,
    roads: Vec<(u64, u64)>,
    track: Vec<(u64, u64, u64)>,
}

impl PlaceTally {
    pub(super) fn new(def: &GameDef) -> PlaceTally {
        let places = Places::of(def);
        PlaceTally {
            games: 0,
            spaces: vec![SpaceCounts::default(); places.spaces.len()],
            roads: vec![(0, 0); places.roads.len()],
            track: vec![(0, 0, 0); places.track.len()],
            places,
        }
    }

    /// Adds the counts of the block of games that came next.
    pub(super) fn merge(&mut self, b: &PlaceTally) {
        let add = |a: &mut u64, b: u64| *a = a.saturating_add(b);
        add(&mut self.games, b.games);
        for (c, o) in self.spaces.iter_mut().zip(&b.spaces) {
            add(&mut c.visited, o.visited);
            add(&mut c.built, o.built);
            add(&mut c.seats, o.seats);
            add(&mut c.wins, o.wins);
        }
        for (c, o) in self.roads.iter_mut().zip(&b.roads) {
            add(&mut c.0, o.0);
            add(&mut c.1, o.1);
        }
        for (c, o) in self.track.iter_mut().zip(&b.track) {
            add(&mut c.0, o.0);
            add(&mut c.1, o.1);
            add(&mut c.2, o.2);
        }
    }

    /// Whether `b` counts the same places as this.
    pub(super) fn fits(&self, b: &PlaceTally) -> bool {
        (self.spaces.len(), self.roads.len(), self.track.len())
            == (b.spaces.len(), b.roads.len(), b.track.len())
    }

    /// Adds a finished game's trace; `won` says whether a seat placed first.
    pub(super) fn add(&mut self, t: &PlaceTrace, won: &dyn Fn(usize) -> bool) {
        self.games += 1;
        for i in each(&t.visited_any) {
            if let Some(c) = self.spaces.get_mut(i as usize) {
                c.visited += 1;
            }
        }
        for i in each(&t.built) {
            if let Some(c) = self.spaces.get_mut(i as usize) {
                c.built += 1;
            }
        }
        for (seat, bits) in t.visited.iter().enumerate() {
            let w = u64::from(won(seat));
            for i in each(bits) {
                if let Some(c) = self.spaces.get_mut(i as usize) {
                    c.seats += 1;
                    c.wins += w;
                }
            }
        }
        for (c, &n) in self.roads.iter_mut().zip(&t.roads) {
            c.0 += u64::from(n > 0);
            c.1 += u64::from(n);
        }
        for (c, &n) in self.track.iter_mut().zip(&t.laid) {
            c.0 += u64::from(n > 0);
            c.1 += u64::from(n);
        }
        for k in each(&t.stood) {
            if let Some(c) = self.track.get_mut(k as usize) {
                c.2 += 1;
            }
        }
    }

    /// The figures; None for a game without a board, or when no finished game was followed
    /// (a run without figures).
    pub(super) fn figures(&self) -> Option<PlayFigures> {
        let p = &self.places;
        if (p.spaces.is_empty() && p.track.is_empty()) || self.games == 0 {
            return None;
        }
        let spaces = p.spaces.iter().zip(&self.spaces).map(|(k, c)| {
            let fig = SpaceFigure {
                games_visited: c.visited,
                games_built_on: c.built,
                seats_visited: c.seats,
                win_rate_visited: rate(c.wins, c.seats),
                win_rate_visited_interval: wilson(c.wins, c.seats),
            };
            (k.clone(), fig)
        });
        let roads = p.roads.iter().zip(&self.roads).map(|(k, &(g, n))| {
            let fig = RoadFigure {
                games_used: g,
                moves: n,
            };
            (k.clone(), fig)
        });
        let track = p.track.iter().zip(&self.track).map(|(k, &(g, n, u))| {
            let fig = TrackFigure {
                games_laid: g,
                laid: n,
                games_used: u,
            };
            (k.clone(), fig)
        });
        Some(PlayFigures {
            kind: p.kind.clone(),
            games: self.games,
            spaces: spaces.collect(),
            roads: roads.collect(),
            track_pieces: track.collect(),
        })
    }
}
