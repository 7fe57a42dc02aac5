//! The board at run time: every board kind becomes a graph of spaces joined by edges.
//!
//! - `graph` boards copy their spaces and edges.
//! - `sections` boards arrange (and turn) their sections at setup and join connectors that
//!   meet at the same point.
//! - `grid` boards have one space per cell; which moves are possible depends on the tiles
//!   placed on the cells, so [`Board::grid_step`] reads the tiles instead of fixed edges.
//! - `track` boards start empty and grow a piece at a time ([`Board::lay_track`]), each piece
//!   checked by its footprint ([`CardShape`]) against the table's edge and the pieces already
//!   laid; pieces can be taken off again ([`Board::remove_track`]).
//!
//! The fixed part (spaces, edges) sits behind an `Arc`, so cloning the state for rollback is
//! cheap; only a growing track copies it.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};
use std::sync::Arc;

use serde::Serialize;

use crate::content::def::*;
use crate::rng::Rng;
use crate::value::Value;

#[derive(Debug, Clone, Serialize)]
pub struct Space {
    pub id: String,
    pub name: String,
    pub x: f64,
    pub y: f64,
    pub tags: Vec<String>,
    pub props: BTreeMap<String, Value>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Edge {
    pub from: u32,
    pub to: u32,
    pub directed: bool,
    pub tags: Vec<String>,
    pub cost: u32,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct Graph {
    pub spaces: Vec<Space>,
    pub edges: Vec<Edge>,
    /// space -> (neighbour, edge index), for edges usable from that space.
    #[serde(skip)]
    pub out: Vec<Vec<(u32, u32)>>,
    /// Some edge costs other than 1 (or did: removing edges never clears it). Where none
    /// does, the cheapest move is the one of fewest steps and a breadth-first search finds it.
    #[serde(skip)]
    costly: bool,
}

impl Graph {
    fn add_space(&mut self, s: Space) -> u32 {
        self.spaces.push(s);
        self.out.push(Vec::new());
        (self.spaces.len() - 1) as u32
    }
    fn add_edge(&mut self, e: Edge) {
        let i = self.edges.len() as u32;
        self.costly |= e.cost != 1;
        if let Some(o) = self.out.get_mut(e.from as usize) {
            o.push((e.to, i));
        }
        if !e.directed
            && let Some(o) = self.out.get_mut(e.to as usize)
        {
            o.push((e.from, i));
        }
        self.edges.push(e);
    }
    pub fn find(&self, id: &str) -> Option<u32> {
        self.spaces
            .iter()
            .position(|s| s.id == id)
            .map(|i| i as u32)
    }
}

/// A tile on a grid cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Placed {
    pub tile: u16,
    pub rot: u8,
}

#[derive(Debug, Clone, Serialize)]
pub struct GridState {
    pub width: u32,
    pub height: u32,
    /// Tiles by cell, row by row; a cell may hold a road tile and a blocker on top.
    pub tiles: Vec<Option<Placed>>,
    pub blockers: Vec<Option<Placed>>,
    /// Change with every change of their layer (road tiles, blockers): numbers never used
    /// before in this process, so a rolled-back grid never shares a stamp with a different
    /// one. The script host keys its read-only copies of the layers on them. Not part of the
    /// game (not hashed or saved).
    #[serde(skip)]
    pub tiles_stamp: u64,
    #[serde(skip)]
    pub blockers_stamp: u64,
}

/// A stamp no grid in this process has had.
pub fn fresh_stamp() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// A track piece laid on the table.
#[derive(Debug, Clone, Serialize)]
pub struct LaidPiece {
    /// Index of the piece's shape in the track definition.
    pub piece: u16,
    /// The middle of the entry edge, and the heading there in 45-degree steps (0 = up the
    /// table, toward -y; 2 = right, +x; clockwise; always 0..8).
    pub x: f64,
    pub y: f64,
    pub heading: i32,
    /// The shape's lanes, rows of spaces and turn in degrees, copied from its definition so
    /// the footprint and the spaces can be worked out from the state alone.
    pub lanes: u32,
    pub rows: u32,
    pub turn: i32,
    /// First space of this piece; its `lanes * rows` spaces follow, lane by lane, row by row.
    pub first_space: u32,
    /// Laid by force although it overlapped the track or left the table.
    pub forced: bool,
    /// Taken off the table: it blocks no new piece and its spaces have no edges any more.
    pub removed: bool,
}

impl LaidPiece {
    /// Where the piece lies on the table.
    pub fn shape(&self) -> CardShape {
        CardShape::new(self.x, self.y, self.heading, self.turn, self.lanes)
    }
    /// The piece's spaces (handles from 0).
    pub fn spaces(&self) -> std::ops::Range<u32> {
        self.first_space..self.first_space + self.lanes * self.rows
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct TrackState {
    pub laid: Vec<LaidPiece>,
    /// Where the next piece attaches: the middle of its entry edge and its heading (45-degree
    /// steps as in [`LaidPiece`]). Before the first piece this is where the track starts.
    pub end: (f64, f64, i32),
    /// The table's width and height; it is centred on (0, 0).
    pub table: (f64, f64),
    /// The least gap, in card lengths, a new piece must keep from the footprint of every piece
    /// on the table except the one it attaches to.
    pub clearance: f64,
    /// The board's own start (heading, fraction in from the back edge), placed again when the
    /// table changes size, until the rules set a start of their own.
    pub start: Option<(i32, f64)>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Board {
    pub kind: &'static str,
    /// Derived from the definition, the arrangement and the laid track: not hashed.
    #[serde(skip)]
    pub graph: Arc<Graph>,
    pub grid: Option<GridState>,
    pub track: Option<TrackState>,
    /// For sections boards: (section index, quarter turns) at each layout position.
    pub arrangement: Vec<(u16, u8)>,
}

/// Why a track piece could not be attached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttachError {
    /// It would lie over (or closer than the clearance to) a piece already on the table.
    Overlap,
    /// Part of it would leave the table.
    OffTable,
    /// The board is not a track.
    NoTrack,
    /// The track already has [`MAX_TRACK_PIECES`] pieces.
    Full,
}

impl AttachError {
    /// The word scripts get.
    pub fn word(self) -> &'static str {
        match self {
            AttachError::Overlap => "overlap",
            AttachError::OffTable => "off-table",
            AttachError::NoTrack => "not a track",
            AttachError::Full => "track full",
        }
    }
}

impl Board {
    /// The board a game starts with; `options` are the game's (a sections board may take its
    /// shuffle and rotate from them).
    pub fn new(
        def: &BoardDef,
        tiles: &[TileDef],
        options: &BTreeMap<String, Value>,
        rng: &mut Rng,
    ) -> Board {
        let mut board = Board {
            kind: def.kind_name(),
            graph: Arc::new(Graph::default()),
            grid: None,
            track: None,
            arrangement: vec![],
        };
        match def {
            BoardDef::None => {}
            BoardDef::Graph(g) => {
                let mut graph = Graph::default();
                copy_graph(&mut graph, g, 0.0, 0.0, 0, 1.0);
                board.graph = Arc::new(graph);
            }
            BoardDef::Sections(s) => {
                let flag = |o: &Option<String>, default: bool| {
                    o.as_ref()
                        .and_then(|o| options.get(o))
                        .and_then(|v| match v {
                            Value::Bool(b) => Some(*b),
                            _ => None,
                        })
                        .unwrap_or(default)
                };
                let shuffle = flag(&s.shuffle_option, s.shuffle);
                let rotate = flag(&s.rotate_option, s.rotate);
                board.arrange_sections(s, shuffle, rotate, rng)
            }
            BoardDef::Grid(g) => {
                let mut graph = Graph::default();
                let n = (g.width * g.height) as usize;
                for i in 0..n {
                    let (x, y) = ((i as u32 % g.width) + 1, (i as u32 / g.width) + 1);
                    graph.add_space(Space {
                        id: format!("{x},{y}"),
                        name: format!("({x}, {y})"),
                        x: x as f64,
                        y: y as f64,
                        tags: vec![],
                        props: BTreeMap::new(),
                    });
                }
                let mut tiles_on = vec![None; n];
                for c in &g.cells {
                    let i = ((c.y - 1) * g.width + (c.x - 1)) as usize;
                    if let Some(s) = graph.spaces.get_mut(i) {
                        if let Some(id) = &c.id {
                            s.id = id.clone();
                        }
                        s.tags = c.tags.clone();
                        s.props = c.props.clone();
                    }
                    if let (Some((t, r)), Some(slot)) = (c.tile, tiles_on.get_mut(i))
                        && tiles.get(t).is_some()
                    {
                        *slot = Some(Placed {
                            tile: t as u16,
                            rot: r,
                        });
                    }
                }
                board.graph = Arc::new(graph);
                board.grid = Some(GridState {
                    width: g.width,
                    height: g.height,
                    tiles: tiles_on,
                    blockers: vec![None; n],
                    tiles_stamp: fresh_stamp(),
                    blockers_stamp: fresh_stamp(),
                });
            }
            BoardDef::Track(t) => {
                let mut track = TrackState {
                    laid: vec![],
                    end: (0.0, 0.0, t.start_heading),
                    table: (t.table_width, t.table_height),
                    clearance: t.clearance,
                    start: Some((t.start_heading, t.start_from_back)),
                };
                track.place_start();
                board.track = Some(track);
            }
        }
        board
    }

    fn arrange_sections(&mut self, s: &SectionsDef, shuffle: bool, rotate: bool, rng: &mut Rng) {
        let mut order: Vec<usize> = (0..s.sections.len()).collect();
        if shuffle {
            rng.shuffle(&mut order);
        }
        let mut graph = Graph::default();
        // (global x, global y, global side, space) for each connector
        let mut ends: Vec<(f64, f64, Side, u32)> = Vec::new();
        for (slot, &si) in order.iter().enumerate() {
            let Some(sec) = s.sections.get(si) else {
                continue;
            };
            let rot = if rotate { rng.below(4) as u8 } else { 0 };
            self.arrangement.push((si as u16, rot));
            let (col, row) = (
                slot as u32 % s.columns.max(1),
                slot as u32 / s.columns.max(1),
            );
            let (ox, oy) = (col as f64 * s.size, row as f64 * s.size);
            let first = graph.spaces.len() as u32;
            let turn = |x: f64, y: f64| -> (f64, f64) {
                let (mut x, mut y) = (x, y);
                for _ in 0..rot {
                    (x, y) = (s.size - y, x);
                }
                (x + ox, y + oy)
            };
            for sp in &sec.graph.spaces {
                let (x, y) = turn(sp.x, sp.y);
                graph.add_space(Space {
                    id: sp.id.clone(),
                    name: sp.name.clone(),
                    x,
                    y,
                    tags: sp.tags.clone(),
                    props: sp.props.clone(),
                });
            }
            for e in &sec.graph.edges {
                graph.add_edge(Edge {
                    from: first + e.from as u32,
                    to: first + e.to as u32,
                    directed: e.directed,
                    tags: e.tags.clone(),
                    cost: e.cost,
                });
            }
            for &(space, side, at) in &sec.connectors {
                // The point on the side, in section coordinates, then turned.
                let (px, py) = match side {
                    Side::N => (at, 0.0),
                    Side::E => (s.size, at),
                    Side::S => (s.size - at, s.size),
                    Side::W => (0.0, s.size - at),
                };
                let (gx, gy) = turn(px, py);
                ends.push((gx, gy, side.turned(rot), first + space as u32));
            }
        }
        let joined: Vec<(usize, usize)> = meeting(&ends);
        for (i, j) in joined {
            if let (Some(a), Some(b)) = (ends.get(i), ends.get(j)) {
                graph.add_edge(Edge {
                    from: a.3,
                    to: b.3,
                    directed: false,
                    tags: vec![],
                    cost: 1,
                });
            }
        }
        self.graph = Arc::new(graph);
    }

    pub fn space_count(&self) -> usize {
        self.graph.spaces.len()
    }

    /// Spaces reachable in one step from `space` over edges whose tags are all in `allowed`
    /// (untagged edges are always usable), whatever the edges cost.
    pub fn neighbors(&self, space: u32, allowed: &[String]) -> Vec<u32> {
        let mut out = Vec::new();
        if let Some(list) = self.graph.out.get(space as usize) {
            for &(to, e) in list {
                let ok = self
                    .graph
                    .edges
                    .get(e as usize)
                    .is_some_and(|e| e.tags.iter().all(|t| allowed.contains(t)));
                if ok && !out.contains(&to) {
                    out.push(to);
                }
            }
        }
        out
    }

    /// The spaces one step from `space` for a walk, each with what the step costs: over the
    /// tiles' roads on a grid (1 a step), else over edges whose tags are all in `allowed` (the
    /// edge's cost). Two edges to one space that cost differently are two different steps.
    fn steps_from(&self, space: u32, allowed: &[String], tiles: &[TileDef]) -> Vec<(u32, u32)> {
        if self.grid.is_some() {
            return Side::ALL
                .iter()
                .filter_map(|&side| self.grid_step(space, side, tiles))
                .map(|to| (to, 1))
                .collect();
        }
        let mut out = Vec::new();
        if let Some(list) = self.graph.out.get(space as usize) {
            for &(to, e) in list {
                if let Some(e) = self.graph.edges.get(e as usize)
                    && e.tags.iter().all(|t| allowed.contains(t))
                    && !out.contains(&(to, e.cost))
                {
                    out.push((to, e.cost));
                }
            }
        }
        out
    }

    /// Where a piece can end a move of exactly `steps` from `from`, a move spending each
    /// edge's cost, that never enters a space twice (the start included) nor a space in
    /// `avoid`; and every space it can reach spending at most `steps`, with the least it
    /// spends. Fails when the walks would take more than `budget` steps of work to list (a
    /// long move on a dense board).
    pub fn walks(
        &self,
        from: u32,
        steps: u32,
        allowed: &[String],
        avoid: &dyn Fn(u32) -> bool,
        tiles: &[TileDef],
        budget: u64,
    ) -> Result<Walks, WalkTooLong> {
        let n = self.space_count();
        let mut out = Walks::default();
        if from as usize >= n {
            return Ok(out);
        }
        // Within: the cheapest moves; a cheapest move never repeats a space.
        let least = self.least_costs(from, allowed, avoid, tiles, steps as u64);
        out.within = least
            .iter()
            .enumerate()
            .filter(|&(_, &d)| d != UNREACHED)
            .map(|(s, &d)| (s as u32, d as u32))
            .collect();
        // Exactly: a depth-first search over simple paths.
        let mut on_path = vec![false; n];
        let mut ends = vec![false; n];
        let mut spent = 0u64;
        on_path[from as usize] = true;
        let mut stack: Vec<Frame> = vec![(from, steps, self.steps_from(from, allowed, tiles))];
        if steps == 0 {
            ends[from as usize] = true;
            stack.clear();
        }
        while let Some(top) = stack.last_mut() {
            let left = top.1;
            match top.2.pop() {
                Some((t, cost)) => {
                    spent += 1;
                    if spent > budget {
                        return Err(WalkTooLong { steps, budget });
                    }
                    if cost > left || on_path[t as usize] || avoid(t) {
                        continue;
                    }
                    if cost == left {
                        ends[t as usize] = true;
                    } else {
                        on_path[t as usize] = true;
                        let more = self.steps_from(t, allowed, tiles);
                        stack.push((t, left - cost, more));
                    }
                }
                None => {
                    let (s, _, _) = stack.pop().unwrap_or((from, 0, Vec::new()));
                    if s != from {
                        on_path[s as usize] = false;
                    }
                }
            }
        }
        out.exactly = (0..n as u32).filter(|&s| ends[s as usize]).collect();
        Ok(out)
    }

    /// The least total cost from `from` to every space (None where unreachable): each edge
    /// costs its `cost`, a grid's road step 1. Where every edge costs 1 that is the number of
    /// steps.
    pub fn distances(&self, from: u32, allowed: &[String], tiles: &[TileDef]) -> Vec<Option<u64>> {
        self.least_costs(from, allowed, &|_| false, tiles, u64::MAX)
            .into_iter()
            .map(|d| (d != UNREACHED).then_some(d))
            .collect()
    }

    /// The least cost of reaching each space from `from` spending at most `limit` and never
    /// entering a space in `avoid` ([`UNREACHED`] where that cannot be done). Breadth-first
    /// where every step costs 1; Dijkstra's search where some edge costs more. Sums cannot
    /// overflow: a cheapest move repeats no space, and no edge costs more than
    /// [`MAX_EDGE_COST`].
    fn least_costs(
        &self,
        from: u32,
        allowed: &[String],
        avoid: &dyn Fn(u32) -> bool,
        tiles: &[TileDef],
        limit: u64,
    ) -> Vec<u64> {
        let mut least = vec![UNREACHED; self.space_count()];
        let Some(start) = least.get_mut(from as usize) else {
            return least;
        };
        *start = 0;
        if self.grid.is_some() || !self.graph.costly {
            let mut frontier = vec![from];
            let mut d = 0u64;
            while !frontier.is_empty() && d < limit {
                d += 1;
                let mut next = Vec::new();
                for &s in &frontier {
                    for (t, _) in self.steps_from(s, allowed, tiles) {
                        if let Some(slot) = least.get_mut(t as usize)
                            && *slot == UNREACHED
                            && !avoid(t)
                        {
                            *slot = d;
                            next.push(t);
                        }
                    }
                }
                frontier = next;
            }
            return least;
        }
        let mut heap = BinaryHeap::from([Reverse((0u64, from))]);
        while let Some(Reverse((d, s))) = heap.pop() {
            if least.get(s as usize).is_none_or(|&best| d > best) {
                continue;
            }
            for (t, cost) in self.steps_from(s, allowed, tiles) {
                let via = d + cost as u64;
                if via > limit {
                    continue;
                }
                if let Some(slot) = least.get_mut(t as usize)
                    && via < *slot
                    && !avoid(t)
                {
                    *slot = via;
                    heap.push(Reverse((via, t)));
                }
            }
        }
        least
    }

    // ---- grids ----------------------------------------------------------------------------

    pub fn cell(&self, x: i64, y: i64) -> Option<u32> {
        let g = self.grid.as_ref()?;
        if x < 1 || y < 1 || x > g.width as i64 || y > g.height as i64 {
            return None;
        }
        Some(((y - 1) * g.width as i64 + (x - 1)) as u32)
    }

    pub fn xy(&self, cell: u32) -> Option<(i64, i64)> {
        let g = self.grid.as_ref()?;
        if cell >= g.width * g.height {
            return None;
        }
        Some(((cell % g.width) as i64 + 1, (cell / g.width) as i64 + 1))
    }

    pub fn tile_at(&self, cell: u32) -> Option<Placed> {
        self.grid
            .as_ref()?
            .tiles
            .get(cell as usize)
            .copied()
            .flatten()
    }

    pub fn blocker_at(&self, cell: u32) -> Option<Placed> {
        self.grid
            .as_ref()?
            .blockers
            .get(cell as usize)
            .copied()
            .flatten()
    }

    /// Links of the tile on a cell (none when empty or blocked).
    pub fn links(&self, cell: u32, tiles: &[TileDef]) -> [u8; 4] {
        if self.blocker_at(cell).is_some() {
            return [0; 4];
        }
        match self.tile_at(cell) {
            Some(p) => tiles
                .get(p.tile as usize)
                .map_or([0; 4], |t| t.links_turned(p.rot)),
            None => [0; 4],
        }
    }

    /// The cell reached by leaving `cell` through `side`, if the road allows it: the tile here
    /// has an exit on that side and the next tile can be entered from the facing side.
    pub fn grid_step(&self, cell: u32, side: Side, tiles: &[TileDef]) -> Option<u32> {
        let here = self.links(cell, tiles);
        let exits = here.iter().fold(0u8, |a, m| a | m);
        if exits & (1 << side.index()) == 0 {
            return None;
        }
        let (x, y) = self.xy(cell)?;
        let (dx, dy) = side.delta();
        let next = self.cell(x + dx as i64, y + dy as i64)?;
        let there = self.links(next, tiles);
        if there[side.opposite().index()] == 0 {
            return None;
        }
        Some(next)
    }

    /// The cells a vehicle passes driving straight out of `cell` through `side`, in order: it
    /// goes on while the road runs straight through, and stops after `max` cells, on a cell in
    /// `stop`, on a tile that costs more than 1 to enter, or where the road turns or ends.
    pub fn ray(
        &self,
        cell: u32,
        side: Side,
        max: u32,
        stop: &dyn Fn(u32) -> bool,
        tiles: &[TileDef],
    ) -> Vec<u32> {
        let mut out = Vec::new();
        let mut at = cell;
        while (out.len() as u32) < max {
            let Some(next) = self.grid_step(at, side, tiles) else {
                break;
            };
            out.push(next);
            let costly = self
                .tile_at(next)
                .and_then(|p| tiles.get(p.tile as usize))
                .is_some_and(|t| t.move_cost > 1);
            let straight = self.links(next, tiles)[side.opposite().index()] & (1 << side.index());
            if costly || stop(next) || straight == 0 {
                break;
            }
            at = next;
        }
        out
    }

    /// Every cell reachable from `cell` with at most `moves` straight drives (see
    /// [`Board::ray`]) that pass `max` cells in all, with the fewest drives it takes (0 for
    /// `cell` itself).
    pub fn reach(
        &self,
        cell: u32,
        moves: u32,
        max: u32,
        stop: &dyn Fn(u32) -> bool,
        tiles: &[TileDef],
    ) -> Vec<(u32, u32)> {
        self.explore(cell, moves, max, stop, tiles, false).reached
    }

    /// The empty cells (no tile, no blocker) that a vehicle could drive onto from `cell` with
    /// at most `moves` straight drives passing `max` cells in all, if a tile there let it in:
    /// each with the sides of that cell it could be entered by (a bit per [`Side`]). A drive
    /// may enter it as a new drive from a reachable cell with an exit towards it, or run on
    /// into it from a cell the road crosses straight.
    pub fn approach(
        &self,
        cell: u32,
        moves: u32,
        max: u32,
        stop: &dyn Fn(u32) -> bool,
        tiles: &[TileDef],
    ) -> Vec<(u32, u8)> {
        self.explore(cell, moves, max, stop, tiles, true).entries
    }

    /// Drive by drive from `cell`: the fewest drives to each reachable cell, and (when
    /// `approach`) the empty cells a further step could enter. A cell is driven on from again
    /// whenever it is reached with fewer cells passed than before, since that leaves more of
    /// `max` for the drives after it.
    fn explore(
        &self,
        cell: u32,
        moves: u32,
        max: u32,
        stop: &dyn Fn(u32) -> bool,
        tiles: &[TileDef],
        approach: bool,
    ) -> Explored {
        let n = self.space_count();
        let mut drives = vec![u32::MAX; n];
        let mut used = vec![u32::MAX; n];
        let mut entries = vec![0u8; if approach { n } else { 0 }];
        let mut out = Vec::new();
        if (cell as usize) >= n {
            return Explored {
                reached: out,
                entries: Vec::new(),
            };
        }
        drives[cell as usize] = 0;
        used[cell as usize] = 0;
        out.push((cell, 0));
        // Cells to drive on from, with the cells passed to get there.
        let mut frontier = vec![(cell, 0u32)];
        let note = |entries: &mut Vec<u8>, from: u32, side: Side| {
            let Some((x, y)) = self.xy(from) else { return };
            let (dx, dy) = side.delta();
            if let Some(next) = self.cell(x + dx as i64, y + dy as i64)
                && self.tile_at(next).is_none()
                && self.blocker_at(next).is_none()
                && let Some(e) = entries.get_mut(next as usize)
            {
                *e |= 1 << side.opposite().index();
            }
        };
        for n in 1..=moves {
            let mut next = Vec::new();
            for &(c, u) in &frontier {
                let left = max.saturating_sub(u);
                if left == 0 {
                    continue;
                }
                let exits = self.links(c, tiles).iter().fold(0u8, |a, m| a | m);
                for side in Side::ALL {
                    if exits & (1 << side.index()) == 0 {
                        continue;
                    }
                    let cells = self.ray(c, side, left, stop, tiles);
                    if approach {
                        match cells.last() {
                            // A new drive out of `c`.
                            None => note(&mut entries, c, side),
                            // Or the drive runs on, when the road crosses its last cell
                            // straight and nothing there stopped it.
                            Some(&last) => {
                                let k = cells.len() as u32;
                                let straight = self.links(last, tiles)[side.opposite().index()]
                                    & (1 << side.index())
                                    != 0;
                                let costly = self
                                    .tile_at(last)
                                    .and_then(|p| tiles.get(p.tile as usize))
                                    .is_some_and(|t| t.move_cost > 1);
                                if k < left && straight && !costly && !stop(last) {
                                    note(&mut entries, last, side);
                                }
                            }
                        }
                    }
                    for (i, r) in cells.into_iter().enumerate() {
                        let passed = u + i as u32 + 1;
                        let slot = r as usize;
                        if drives[slot] == u32::MAX {
                            drives[slot] = n;
                            out.push((r, n));
                        }
                        if passed < used[slot] {
                            used[slot] = passed;
                            next.push((r, passed));
                        }
                    }
                }
            }
            frontier = next;
        }
        let found = entries
            .iter()
            .enumerate()
            .filter(|(_, e)| **e != 0)
            .map(|(c, e)| (c as u32, *e))
            .collect();
        Explored {
            reached: out,
            entries: found,
        }
    }

    pub fn set_tile(&mut self, cell: u32, placed: Option<Placed>) -> bool {
        let Some(g) = self.grid.as_mut() else {
            return false;
        };
        match g.tiles.get_mut(cell as usize) {
            Some(slot) => {
                *slot = placed;
                g.tiles_stamp = fresh_stamp();
                true
            }
            None => false,
        }
    }

    pub fn set_blocker(&mut self, cell: u32, placed: Option<Placed>) -> bool {
        let Some(g) = self.grid.as_mut() else {
            return false;
        };
        match g.blockers.get_mut(cell as usize) {
            Some(slot) => {
                *slot = placed;
                g.blockers_stamp = fresh_stamp();
                true
            }
            None => false,
        }
    }

    // ---- tracks ---------------------------------------------------------------------------

    /// Sets where the first piece's entry edge lies (its middle, `x`, `y`, on the table
    /// centred at 0, 0) and its heading (45-degree steps, 0 = toward -y, 2 = toward +x), and
    /// optionally the clearance new pieces keep from older ones. Only before the first piece.
    pub fn start_track(
        &mut self,
        x: f64,
        y: f64,
        heading: i32,
        clearance: Option<f64>,
    ) -> Result<(), TrackError> {
        let Some(track) = self.track.as_mut() else {
            return Err(TrackError::NoTrack);
        };
        if !track.laid.is_empty() {
            return Err(TrackError::AlreadyStarted);
        }
        if !(x.is_finite() && y.is_finite()) {
            return Err(TrackError::BadStart);
        }
        if let Some(c) = clearance {
            if !(0.0..=MAX_CLEARANCE).contains(&c) {
                return Err(TrackError::BadClearance);
            }
            track.clearance = c;
        }
        track.end = (x, y, heading.rem_euclid(8));
        track.start = None;
        Ok(())
    }

    /// Whether `piece` would fit at the track's end: not over (or closer than the clearance
    /// to) any piece on the table but the one it attaches to, and wholly on the table.
    pub fn track_fits(&self, piece: &TrackPieceDef) -> Result<(), AttachError> {
        let Some(track) = self.track.as_ref() else {
            return Err(AttachError::NoTrack);
        };
        let (x, y, heading) = track.end;
        track.fits(&CardShape::new(x, y, heading, piece.turn, piece.lanes))
    }

    /// Whether `piece` fits at the track's end (see [`Board::track_fits`]) and, laid there,
    /// leaves room for at least one of `then` after it: `Ok(false)` when it fits but would
    /// end the track in a dead end. With `then` empty this is [`Board::track_fits`]. Changes
    /// nothing.
    pub fn track_fits_then(
        &self,
        piece: &TrackPieceDef,
        then: &[&TrackPieceDef],
    ) -> Result<bool, AttachError> {
        let Some(track) = self.track.as_ref() else {
            return Err(AttachError::NoTrack);
        };
        let (x, y, heading) = track.end;
        let shape = CardShape::new(x, y, heading, piece.turn, piece.lanes);
        track.fits(&shape)?;
        if then.is_empty() {
            return Ok(true);
        }
        let mut ahead = track.clone();
        ahead.laid.push(LaidPiece {
            piece: 0,
            x,
            y,
            heading,
            lanes: piece.lanes,
            rows: piece.rows,
            turn: piece.turn,
            first_space: 0,
            forced: false,
            removed: false,
        });
        let (ex, ey) = shape.exit();
        let next = (heading + piece.turn / 45).rem_euclid(8);
        Ok(then.iter().any(|p| {
            ahead
                .fits(&CardShape::new(ex, ey, next, p.turn, p.lanes))
                .is_ok()
        }))
    }

    /// Lays a track piece at the end of the track if it fits (see [`Board::track_fits`]);
    /// returns its first space.
    pub fn attach_track(
        &mut self,
        piece_index: usize,
        piece: &TrackPieceDef,
    ) -> Result<u32, AttachError> {
        self.lay_track(piece_index, piece, false)
            .map(|(first, _)| first)
    }

    /// Lays a track piece at the end of the track. Unless `force`, a piece that does not fit
    /// is refused; with `force` it is laid all the same, and the reason it did not fit comes
    /// back beside its first space. Spaces are added lane by lane; each lane is joined forward
    /// row to row and sideways to its neighbours, and the new piece's first row to the previous
    /// piece's last row (a lane keeps its side; a middle lane may go either way).
    pub fn lay_track(
        &mut self,
        piece_index: usize,
        piece: &TrackPieceDef,
        force: bool,
    ) -> Result<(u32, Option<AttachError>), AttachError> {
        let Some(track) = self.track.as_ref() else {
            return Err(AttachError::NoTrack);
        };
        if track.laid.len() >= MAX_TRACK_PIECES {
            return Err(AttachError::Full);
        }
        let (x, y, heading) = track.end;
        let shape = CardShape::new(x, y, heading, piece.turn, piece.lanes);
        let misfit = track.fits(&shape).err();
        if let Some(why) = misfit
            && !force
        {
            return Err(why);
        }
        let prev = track.laid.last().filter(|p| !p.removed).cloned();
        let n = track.laid.len();
        let graph = Arc::make_mut(&mut self.graph);
        let first = graph.spaces.len() as u32;
        for lane in 0..piece.lanes {
            for row in 0..piece.rows {
                let f = (row as f64 + 0.5) / piece.rows as f64;
                let across = lane as f64 - (piece.lanes as f64 - 1.0) / 2.0;
                let (sx, sy) = shape.at(f, LANE_WIDTH * across);
                let mut tags = vec![];
                if piece.role == TrackRole::Finish {
                    tags.push("finish".to_string());
                }
                if piece.role == TrackRole::Start {
                    tags.push("start".to_string());
                }
                graph.add_space(Space {
                    id: format!("t{n}-l{lane}-r{row}"),
                    name: track_space_name(piece, n, lane, row),
                    x: sx,
                    y: sy,
                    tags,
                    props: BTreeMap::from([
                        ("piece".into(), Value::Int(n as i64)),
                        ("lane".into(), Value::Int(lane as i64)),
                        ("row".into(), Value::Int(row as i64)),
                    ]),
                });
            }
        }
        let sp = |lane: u32, row: u32| first + lane * piece.rows + row;
        let gate_at = |lane: u32| {
            piece
                .gates
                .iter()
                .find(|(ls, _)| ls.contains(&lane))
                .map(|(_, s)| *s)
        };
        // Which gate a lane runs into: two gates of the same size are still two gates.
        let gate_index = |lane: u32| piece.gates.iter().position(|(ls, _)| ls.contains(&lane));
        for lane in 0..piece.lanes {
            for row in 0..piece.rows {
                if row + 1 < piece.rows {
                    graph.add_edge(Edge {
                        from: sp(lane, row),
                        to: sp(lane, row + 1),
                        directed: true,
                        tags: vec![],
                        cost: 1,
                    });
                }
                if lane + 1 < piece.lanes {
                    // No sideways step across the solid line between two gates (DC-T8), even
                    // two of the same size, nor between a gated lane and an open one.
                    let walled = row + 1 == piece.rows
                        && (gate_index(lane).is_some() || gate_index(lane + 1).is_some())
                        && gate_index(lane) != gate_index(lane + 1);
                    if !walled {
                        graph.add_edge(Edge {
                            from: sp(lane, row),
                            to: sp(lane + 1, row),
                            directed: false,
                            tags: vec![],
                            cost: 1,
                        });
                    }
                }
            }
        }
        if let Some(p) = prev {
            for pl in 0..p.lanes {
                let from = p.first_space + pl * p.rows + p.rows.saturating_sub(1);
                let gate = graph
                    .spaces
                    .get(from as usize)
                    .and_then(|s| s.props.get("gate"))
                    .and_then(|g| g.as_int());
                for nl in lane_map(p.lanes, piece.lanes, pl) {
                    let mut tags = vec![];
                    if let Some(g) = gate {
                        tags.push(format!("gate-{g}"));
                    }
                    graph.add_edge(Edge {
                        from,
                        to: sp(nl, 0),
                        directed: true,
                        tags,
                        cost: 1,
                    });
                }
            }
        }
        // Remember each lane's exit gate on its last space, for the edge to the next piece.
        for lane in 0..piece.lanes {
            if let Some(g) = gate_at(lane)
                && let Some(s) = graph.spaces.get_mut(sp(lane, piece.rows - 1) as usize)
            {
                s.props.insert("gate".into(), Value::Int(g as i64));
            }
        }
        let track = self.track.as_mut().ok_or(AttachError::NoTrack)?;
        track.laid.push(LaidPiece {
            piece: piece_index as u16,
            x,
            y,
            heading,
            lanes: piece.lanes,
            rows: piece.rows,
            turn: piece.turn,
            first_space: first,
            forced: misfit.is_some(),
            removed: false,
        });
        let (ex, ey) = shape.exit();
        track.end = (ex, ey, (heading + piece.turn / 45).rem_euclid(8));
        Ok((first, misfit))
    }

    /// Takes the laid pieces `from..to` (0-based, `to` excluded) off the table: they block no
    /// new piece, and every edge into, out of or within their spaces is cut, so the spaces
    /// cannot be entered; they keep their ids and handles and get the tag `removed`. Returns
    /// how many were on the table before.
    pub fn remove_track(&mut self, from: usize, to: usize) -> Result<usize, TrackError> {
        let Some(track) = self.track.as_mut() else {
            return Err(TrackError::NoTrack);
        };
        let to = to.min(track.laid.len());
        let mut cut: Vec<std::ops::Range<u32>> = Vec::new();
        for p in track.laid.get_mut(from..to).into_iter().flatten() {
            if !p.removed {
                p.removed = true;
                cut.push(p.spaces());
            }
        }
        if cut.is_empty() {
            return Ok(0);
        }
        let gone = |s: u32| cut.iter().any(|r| r.contains(&s));
        let graph = Arc::make_mut(&mut self.graph);
        graph.edges.retain(|e| !gone(e.from) && !gone(e.to));
        graph.out = vec![Vec::new(); graph.spaces.len()];
        for (i, e) in graph.edges.iter().enumerate() {
            if let Some(o) = graph.out.get_mut(e.from as usize) {
                o.push((e.to, i as u32));
            }
            if !e.directed
                && let Some(o) = graph.out.get_mut(e.to as usize)
            {
                o.push((e.from, i as u32));
            }
        }
        for r in &cut {
            for s in r.clone() {
                if let Some(sp) = graph.spaces.get_mut(s as usize) {
                    sp.tags.push("removed".into());
                }
            }
        }
        Ok(cut.len())
    }
}

/// The most one edge may cost (`cost` in board.toml; the least is 1). A cheapest move never
/// repeats a space, so its total stays far below what the sums are kept in, and exact in a
/// Luau number, however many spaces the board has.
pub const MAX_EDGE_COST: u32 = 1_000_000;
/// How far from 0 a space may lie, either way, in board units (board.toml's `x` and `y`;
/// also the largest section size). Positions are for drawing: this keeps them finite after a
/// sections board is arranged and turned.
pub const MAX_COORDINATE: f64 = 1e9;
/// The largest side of a track's table, in card lengths (a track of [`MAX_TRACK_PIECES`]
/// cards laid straight is half as long).
pub const MAX_TRACK_TABLE: f64 = 1_000.0;
/// What [`Board::least_costs`] gives a space it cannot reach.
const UNREACHED: u64 = u64::MAX;

/// Width of one lane, in card lengths; the lanes' middle lines are this far apart.
pub const LANE_WIDTH: f64 = 0.25;
/// How much wider a card is than its lanes (half of it on each side): the verge.
pub const CARD_MARGIN: f64 = 0.1;
/// The clearance a track keeps when the rules set none (card lengths). `game.start_track`'s
/// documentation in `script/api/board.rs` states it, and [`MAX_CLEARANCE`].
pub const DEFAULT_CLEARANCE: f64 = 0.1;
/// The largest clearance the rules may ask for (card lengths). Beyond about a quarter the
/// cards on either side of a 90-degree bend count as overlapping (see DESIGN.md of Dicey
/// Curves), so a real track wants far less; this only bounds nonsense.
pub const MAX_CLEARANCE: f64 = 1.0;
/// The most pieces a track may have (laid and removed together). A deck of cards never comes
/// near it; it bounds the work and memory a script can make the engine spend on the track.
pub const MAX_TRACK_PIECES: usize = 500;
/// Angle (radians) of one quadrilateral of a curve's footprint: 90 degrees take 8.
const FOOTPRINT_STEP: f64 = std::f64::consts::PI / 16.0;

/// Why the track could not be started or changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrackError {
    NoTrack,
    AlreadyStarted,
    BadStart,
    BadClearance,
}

/// Where one card lies on the table, and its footprint.
///
/// A card is one card length long along its middle line and `lanes * LANE_WIDTH +
/// CARD_MARGIN` wide. A straight's middle line is a segment; a curve's is a circular arc one
/// card length long that turns by the card's turn (so a 90-degree card bends on a radius of
/// 2/pi, about 0.64, and its exit edge lies 0.64 ahead and 0.64 to the side of its entry).
/// Points are named by `f`, the fraction of the way along the middle line, and `off`, the
/// distance to the right of it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CardShape {
    /// Middle of the entry edge.
    pub x: f64,
    pub y: f64,
    /// Heading at the entry, in radians clockwise from -y.
    pub heading: f64,
    /// Change of heading from entry to exit, in radians; positive turns right.
    pub turn: f64,
    pub lanes: u32,
}

impl CardShape {
    /// A card entering at (`x`, `y`) with `heading` in 45-degree steps and `turn` in degrees.
    pub fn new(x: f64, y: f64, heading: i32, turn: i32, lanes: u32) -> CardShape {
        CardShape {
            x,
            y,
            heading: heading as f64 * std::f64::consts::FRAC_PI_4,
            turn: (turn as f64).to_radians(),
            lanes,
        }
    }

    /// The heading `f` of the way along.
    pub fn heading_at(&self, f: f64) -> f64 {
        self.heading + self.turn * f
    }

    /// The point `f` of the way along the middle line, `off` to the right of it.
    pub fn at(&self, f: f64, off: f64) -> (f64, f64) {
        let a = self.heading_at(f);
        let (mx, my) = if self.turn == 0.0 {
            (self.x + f * a.sin(), self.y - f * a.cos())
        } else {
            // The integral of the heading's direction (sin, -cos) along the arc.
            (
                self.x + (self.heading.cos() - a.cos()) / self.turn,
                self.y + (self.heading.sin() - a.sin()) / self.turn,
            )
        };
        (mx + off * a.cos(), my + off * a.sin())
    }

    /// Half the card's width.
    pub fn half_width(&self) -> f64 {
        (self.lanes as f64 * LANE_WIDTH + CARD_MARGIN) / 2.0
    }

    /// The middle of the card: halfway along its middle line.
    pub fn centre(&self) -> (f64, f64) {
        self.at(0.5, 0.0)
    }

    /// The middle of the exit edge.
    pub fn exit(&self) -> (f64, f64) {
        self.at(1.0, 0.0)
    }

    /// A radius around [`CardShape::centre`] that holds the whole footprint: no point of the
    /// middle line is more than half a length from its middle, and the footprint reaches half
    /// a width (and a little, see [`CardShape::footprint`]) beyond the middle line.
    pub fn reach(&self) -> f64 {
        0.5 + self.half_width() + 0.02
    }

    /// The card's footprint as convex quadrilaterals, each four corners in order: one for a
    /// straight, one per 11.25 degrees of a curve. Together they hold the whole card: on a
    /// curve the outer corners sit a little beyond the outer edge, so that each quadrilateral's
    /// outer side touches the arc instead of cutting across it (at most 0.006 card lengths out,
    /// never in); the inner side cuts across the inner arc, which only adds area.
    pub fn footprint(&self) -> Vec<[(f64, f64); 4]> {
        let hw = self.half_width();
        let steps = (self.turn.abs() / FOOTPRINT_STEP).round().max(1.0) as usize;
        let (left, right) = if self.turn == 0.0 {
            (hw, hw)
        } else {
            let r = 1.0 / self.turn.abs();
            let half = self.turn.abs() / steps as f64 / 2.0;
            let outer = (r + hw) / half.cos() - r;
            // A right turn bends around a centre on the right: its outer edge is the left.
            if self.turn > 0.0 {
                (outer, hw)
            } else {
                (hw, outer)
            }
        };
        (0..steps)
            .map(|k| {
                let (f0, f1) = (k as f64 / steps as f64, (k + 1) as f64 / steps as f64);
                [
                    self.at(f0, -left),
                    self.at(f1, -left),
                    self.at(f1, right),
                    self.at(f0, right),
                ]
            })
            .collect()
    }
}

impl TrackState {
    /// Puts the track's start where the board says, on the table as it is now (nothing is
    /// done once a piece is laid or the rules chose a start): on the middle line, `fraction`
    /// of the table's extent along the heading in from the edge behind it.
    fn place_start(&mut self) {
        let Some((heading, fraction)) = self.start else {
            return;
        };
        if !self.laid.is_empty() {
            return;
        }
        let a = heading as f64 * std::f64::consts::FRAC_PI_4;
        let (dx, dy) = (a.sin(), -a.cos());
        let (w, h) = self.table;
        let half = dx.abs() * w / 2.0 + dy.abs() * h / 2.0;
        let back = -half + fraction * 2.0 * half;
        self.end = (dx * back, dy * back, heading);
    }

    /// Changes the table's size; a start the board gave follows the new table.
    pub fn set_table(&mut self, w: f64, h: f64) {
        self.table = (w, h);
        self.place_start();
    }

    /// Whether a card would fit: see [`Board::track_fits`]. An overlap is reported before
    /// leaving the table.
    fn fits(&self, card: &CardShape) -> Result<(), AttachError> {
        let quads = card.footprint();
        let (cx, cy) = card.centre();
        let attached_to = self.laid.len().checked_sub(1);
        for (i, p) in self.laid.iter().enumerate() {
            if p.removed || Some(i) == attached_to {
                continue;
            }
            let other = p.shape();
            let (ox, oy) = other.centre();
            if (ox - cx).hypot(oy - cy) >= card.reach() + other.reach() + self.clearance {
                continue;
            }
            let theirs = other.footprint();
            for a in &quads {
                for b in &theirs {
                    if too_close(a, b, self.clearance) {
                        return Err(AttachError::Overlap);
                    }
                }
            }
        }
        let (w, h) = (self.table.0 / 2.0, self.table.1 / 2.0);
        let on_table = quads
            .iter()
            .flatten()
            .all(|&(x, y)| x.abs() <= w + 1e-9 && y.abs() <= h + 1e-9);
        if !on_table {
            return Err(AttachError::OffTable);
        }
        Ok(())
    }
}

/// Whether two convex quadrilaterals overlap (more than touching) or come closer than
/// `clearance`.
fn too_close(a: &[(f64, f64); 4], b: &[(f64, f64); 4], clearance: f64) -> bool {
    if !separated(a, b) {
        return true;
    }
    // Two convex shapes apart are nearest at a corner of one and a side of the other.
    let mut gap = f64::INFINITY;
    for (p, q) in [(a, b), (b, a)] {
        for &c in p {
            for k in 0..4 {
                gap = gap.min(point_segment(c, q[k], q[(k + 1) % 4]));
            }
        }
    }
    gap < clearance
}

/// Separating-axis test: some side of either quadrilateral has the other wholly on its far
/// side or touching it.
fn separated(a: &[(f64, f64); 4], b: &[(f64, f64); 4]) -> bool {
    [a, b].iter().any(|poly| {
        (0..4).any(|k| {
            let (p, q) = (poly[k], poly[(k + 1) % 4]);
            let axis = (q.1 - p.1, p.0 - q.0);
            let span = |s: &[(f64, f64); 4]| {
                s.iter()
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                        let d = v.0 * axis.0 + v.1 * axis.1;
                        (lo.min(d), hi.max(d))
                    })
            };
            let ((alo, ahi), (blo, bhi)) = (span(a), span(b));
            let eps = 1e-12 * (axis.0.abs() + axis.1.abs());
            ahi <= blo + eps || bhi <= alo + eps
        })
    })
}

fn point_segment(c: (f64, f64), p: (f64, f64), q: (f64, f64)) -> f64 {
    let (dx, dy) = (q.0 - p.0, q.1 - p.1);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 {
        (((c.0 - p.0) * dx + (c.1 - p.1) * dy) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (c.0 - p.0 - t * dx).hypot(c.1 - p.1 - t * dy)
}

/// How near two connectors' points must be to meet (board units).
const MEET: f64 = 1e-6;

/// The pairs (i < j, in order) of connector ends (x, y, side, space) that meet: at the same
/// point, on opposite sides. Each end looks only at the ends in its own square of a coarse
/// grid and the eight around it, so a board of many connectors is joined in about linear
/// time; the loader allows one connector per place on a side of a section, so no point has
/// more than a few.
fn meeting(ends: &[(f64, f64, Side, u32)]) -> Vec<(usize, usize)> {
    const CELL: f64 = 1e-3;
    let key = |x: f64, y: f64| ((x / CELL).round() as i64, (y / CELL).round() as i64);
    let mut cells: std::collections::HashMap<(i64, i64), Vec<usize>> = Default::default();
    for (i, e) in ends.iter().enumerate() {
        cells.entry(key(e.0, e.1)).or_default().push(i);
    }
    let mut pairs = Vec::new();
    for (i, a) in ends.iter().enumerate() {
        let (kx, ky) = key(a.0, a.1);
        for dx in -1..=1 {
            for dy in -1..=1 {
                let near = cells.get(&(kx.saturating_add(dx), ky.saturating_add(dy)));
                for &j in near.into_iter().flatten() {
                    let Some(b) = ends.get(j) else { continue };
                    if j > i
                        && a.2 == b.2.opposite()
                        && (a.0 - b.0).abs() < MEET
                        && (a.1 - b.1).abs() < MEET
                    {
                        pairs.push((i, j));
                    }
                }
            }
        }
    }
    pairs.sort_unstable();
    pairs
}

/// A lane as a driver heading down the track names it: left and right (and middle), or by
/// number on a wider piece.
/// A track space's name, as people and rules say it: the card's name and place in the track,
/// the lane, then the row: "at the 3-dice gate" for the last row of a lane with a gate, rows
/// counted from the front on the starting grid ("front row", "2nd row from the front"), else
/// "row 1 of 2" from the card's entry.
fn track_space_name(piece: &TrackPieceDef, n: usize, lane: u32, row: u32) -> String {
    let gate = piece
        .gates
        .iter()
        .find(|(lanes, _)| lanes.contains(&lane))
        .map(|(_, size)| *size)
        .filter(|_| row + 1 == piece.rows);
    let row = match (gate, piece.role) {
        (Some(size), _) => format!("at the {size}-dice gate"),
        (None, TrackRole::Start) => match piece.rows.saturating_sub(row) {
            0 | 1 => "front row".into(),
            back => format!("{} row from the front", ordinal(back)),
        },
        (None, _) => format!("row {} of {}", row + 1, piece.rows),
    };
    format!(
        "{} (card {}), {}, {row}",
        piece.name,
        n + 1,
        lane_word(lane, piece.lanes)
    )
}

/// 1st, 2nd, 3rd, 4th… 11th, 12th, 13th, 21st.
fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

fn lane_word(lane: u32, lanes: u32) -> String {
    match (lanes, lane) {
        (2, 0) | (3, 0) => "left lane".into(),
        (2, 1) | (3, 2) => "right lane".into(),
        (3, 1) => "middle lane".into(),
        _ => format!("lane {}", lane + 1),
    }
}

/// Lanes of the next piece a car in lane `l` of `from` lanes may enter.
fn lane_map(from: u32, to: u32, l: u32) -> Vec<u32> {
    match (from, to) {
        (a, b) if a == b => vec![l],
        (2, 3) => vec![if l == 0 { 0 } else { 2 }, 1],
        (3, 2) => match l {
            0 => vec![0],
            1 => vec![0, 1],
            _ => vec![1],
        },
        (_, b) => vec![l.min(b.saturating_sub(1))],
    }
}

fn copy_graph(graph: &mut Graph, g: &GraphDef, ox: f64, oy: f64, _rot: u8, _scale: f64) {
    let first = graph.spaces.len() as u32;
    for s in &g.spaces {
        graph.add_space(Space {
            id: s.id.clone(),
            name: s.name.clone(),
            x: s.x + ox,
            y: s.y + oy,
            tags: s.tags.clone(),
            props: s.props.clone(),
        });
    }
    for e in &g.edges {
        graph.add_edge(Edge {
            from: first + e.from as u32,
            to: first + e.to as u32,
            directed: e.directed,
            tags: e.tags.clone(),
            cost: e.cost,
        });
    }
}

/// A frame of the search for walks: a space, what the move has left to spend from it, and
/// the steps from it not tried yet (each a space and its cost).
type Frame = (u32, u32, Vec<(u32, u32)>);

/// Where walks from a space lead (see [`Board::walks`]).
#[derive(Debug, Default, PartialEq)]
pub struct Walks {
    /// Spaces where a walk spending exactly the given cost, never repeating a space, can end.
    pub exactly: Vec<u32>,
    /// Spaces reachable spending at most the given cost, with the least it takes (the start
    /// at 0).
    pub within: Vec<(u32, u32)>,
}

/// Listing the walks would take more than the budget allows.
#[derive(Debug, PartialEq)]
pub struct WalkTooLong {
    pub steps: u32,
    pub budget: u64,
}

/// What [`Board::reach`] and [`Board::approach`] work out together.
struct Explored {
    /// Each reachable cell with the fewest drives it takes.
    reached: Vec<(u32, u32)>,
    /// Each empty cell a further drive could enter, with a bit per side it could enter by.
    entries: Vec<(u32, u8)>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn space(id: &str, x: f64, y: f64) -> SpaceDef {
        SpaceDef {
            id: id.into(),
            name: id.into(),
            x,
            y,
            tags: vec![],
            props: BTreeMap::new(),
        }
    }

    #[test]
    fn sections_join_at_matching_connectors_in_any_arrangement() {
        // Two 2x2 sections, each one space in the middle with a connector on every side.
        let sec = |id: &str| SectionDef {
            id: id.into(),
            name: id.into(),
            graph: GraphDef {
                spaces: vec![space(&format!("{id}-c"), 1.0, 1.0)],
                edges: vec![],
            },
            connectors: Side::ALL.iter().map(|&s| (0, s, 1.0)).collect(),
        };
        let def = SectionsDef {
            size: 2.0,
            columns: 2,
            rows: 1,
            shuffle: true,
            rotate: true,
            shuffle_option: None,
            rotate_option: Some("turn".into()),
            sections: vec![sec("a"), sec("b")],
        };
        let no_options = BTreeMap::new();
        for seed in 0..20 {
            let board = Board::new(
                &BoardDef::Sections(def.clone()),
                &[],
                &no_options,
                &mut Rng::new(seed, 0),
            );
            assert_eq!(board.space_count(), 2);
            assert_eq!(board.neighbors(0, &[]), vec![1], "seed {seed}");
        }
        // The `turn` option decides the rotation: off, no section is turned.
        let off: BTreeMap<String, Value> = [("turn".to_string(), Value::Bool(false))].into();
        let mut turned = 0;
        for seed in 0..20 {
            let def = BoardDef::Sections(def.clone());
            let on = Board::new(&def, &[], &no_options, &mut Rng::new(seed, 0));
            let still = Board::new(&def, &[], &off, &mut Rng::new(seed, 0));
            assert!(
                still.arrangement.iter().all(|&(_, r)| r == 0),
                "seed {seed}"
            );
            turned += on.arrangement.iter().filter(|&&(_, r)| r != 0).count();
        }
        assert!(turned > 0, "with the option unset, sections are turned");
    }

    #[test]
    fn connectors_meet_as_when_every_pair_was_compared() {
        // Ends on a lattice a little off the grid's squares, some nudged by less than the
        // tolerance and some by more, every side: the pairs found are those, in the order,
        // that comparing every pair finds.
        let mut ends = Vec::new();
        let mut k = 0u32;
        for x in 0..12 {
            for y in 0..12 {
                for side in Side::ALL {
                    let nudge = match k % 5 {
                        0 => 4e-7,
                        1 => -4e-7,
                        2 => 3e-6,
                        _ => 0.0,
                    };
                    ends.push((x as f64 * 0.0005 + nudge, y as f64 * 0.0015, side, k));
                    k += 1;
                }
            }
        }
        let mut every = Vec::new();
        for i in 0..ends.len() {
            for j in i + 1..ends.len() {
                let (a, b) = (ends[i], ends[j]);
                if a.2 == b.2.opposite() && (a.0 - b.0).abs() < MEET && (a.1 - b.1).abs() < MEET {
                    every.push((i, j));
                }
            }
        }
        assert!(every.len() > 100, "{}", every.len());
        assert_eq!(meeting(&ends), every);
    }

    #[test]
    fn graph_edges_respect_tags_and_direction() {
        let g = GraphDef {
            spaces: vec![
                space("a", 0.0, 0.0),
                space("b", 1.0, 0.0),
                space("c", 2.0, 0.0),
            ],
            edges: vec![
                EdgeDef {
                    from: 0,
                    to: 1,
                    directed: false,
                    tags: vec![],
                    cost: 1,
                },
                EdgeDef {
                    from: 1,
                    to: 2,
                    directed: true,
                    tags: vec!["river".into()],
                    cost: 1,
                },
            ],
        };
        let b = Board::new(
            &BoardDef::Graph(g),
            &[],
            &Default::default(),
            &mut Rng::new(0, 0),
        );
        assert_eq!(b.neighbors(1, &[]), vec![0]);
        assert_eq!(b.neighbors(1, &["river".into()]), vec![0, 2]);
        assert_eq!(b.neighbors(2, &["river".into()]), Vec::<u32>::new());
        let d = b.distances(0, &["river".into()], &[]);
        assert_eq!(d, vec![Some(0), Some(1), Some(2)]);
    }

    #[test]
    fn a_sections_board_counts_its_edges_costs_and_its_seams_as_1() {
        // Two sections side by side: in each a crossing `c` joined to a yard `y` by a road
        // costing 5; the crossings meet at the seam.
        let sec = |id: &str| SectionDef {
            id: id.into(),
            name: id.into(),
            graph: GraphDef {
                spaces: vec![
                    space(&format!("{id}-c"), 1.0, 1.0),
                    space(&format!("{id}-y"), 1.0, 0.5),
                ],
                edges: vec![EdgeDef {
                    from: 0,
                    to: 1,
                    directed: false,
                    tags: vec![],
                    cost: 5,
                }],
            },
            connectors: vec![(0, Side::E, 1.0), (0, Side::W, 1.0)],
        };
        let def = SectionsDef {
            size: 2.0,
            columns: 2,
            rows: 1,
            shuffle: false,
            rotate: false,
            shuffle_option: None,
            rotate_option: None,
            sections: vec![sec("a"), sec("b")],
        };
        let b = Board::new(
            &BoardDef::Sections(def),
            &[],
            &BTreeMap::new(),
            &mut Rng::new(0, 0),
        );
        assert_eq!(
            b.distances(0, &[], &[]),
            vec![Some(0), Some(5), Some(1), Some(6)]
        );
        let w = b.walks(0, 5, &[], &|_| false, &[], 1_000).unwrap();
        assert_eq!(w.exactly, vec![1]);
        assert_eq!(w.within, vec![(0, 0), (1, 5), (2, 1)]);
        let w = b.walks(0, 6, &[], &|_| false, &[], 1_000).unwrap();
        assert_eq!(w.exactly, vec![3]);
    }

    fn track_piece(lanes: u32, turn: i32) -> TrackPieceDef {
        TrackPieceDef {
            id: "p".into(),
            name: "p".into(),
            role: TrackRole::Normal,
            lanes,
            rows: 2,
            turn,
            gates: vec![],
            tags: vec![],
            props: Default::default(),
        }
    }

    fn track_board(width: f64, height: f64) -> Board {
        let def = TrackDef {
            table_width: width,
            table_height: height,
            start_heading: 0,
            start_from_back: 0.5,
            clearance: DEFAULT_CLEARANCE,
            pieces: vec![],
        };
        Board::new(
            &BoardDef::Track(def),
            &[],
            &Default::default(),
            &mut Rng::new(0, 0),
        )
    }

    fn close(a: (f64, f64), b: (f64, f64)) -> bool {
        (a.0 - b.0).abs() < 1e-9 && (a.1 - b.1).abs() < 1e-9
    }

    #[test]
    fn the_boards_start_follows_the_table_until_the_rules_choose_one() {
        let def = TrackDef {
            table_width: 20.0,
            table_height: 12.0,
            start_heading: 2,
            start_from_back: 0.2,
            clearance: 0.3,
            pieces: vec![],
        };
        let mut b = Board::new(
            &BoardDef::Track(def),
            &[],
            &Default::default(),
            &mut Rng::new(0, 0),
        );
        let t = b.track.as_mut().unwrap();
        // Heading right, a fifth of the width in from the left end, on the middle line.
        assert!(
            close((t.end.0, t.end.1), (-6.0, 0.0)) && t.end.2 == 2,
            "{:?}",
            t.end
        );
        assert_eq!(t.clearance, 0.3);
        t.set_table(10.0, 8.0);
        assert!(close((t.end.0, t.end.1), (-3.0, 0.0)), "{:?}", t.end);
        // A start the rules set stays where they put it.
        b.start_track(1.0, 2.0, 4, None).unwrap();
        let t = b.track.as_mut().unwrap();
        t.set_table(30.0, 20.0);
        assert!(
            close((t.end.0, t.end.1), (1.0, 2.0)) && t.end.2 == 4,
            "{:?}",
            t.end
        );
    }

    #[test]
    fn a_track_that_turns_back_on_itself_overlaps() {
        let piece = |turn| track_piece(2, turn);
        let mut b = track_board(20.0, 20.0);
        assert!(b.attach_track(0, &piece(0)).is_ok());
        assert!(b.attach_track(0, &piece(90)).is_ok());
        assert!(b.attach_track(0, &piece(90)).is_ok());
        assert!(b.attach_track(0, &piece(90)).is_ok());
        // Four right turns close the loop: the next piece lands on the first.
        assert_eq!(b.attach_track(0, &piece(0)), Err(AttachError::Overlap));
        let mut b = track_board(2.0, 2.0);
        assert!(b.attach_track(0, &piece(0)).is_ok());
        assert_eq!(b.attach_track(0, &piece(0)), Err(AttachError::OffTable));
    }

    #[test]
    fn a_hard_curve_lies_along_its_arc() {
        let mut b = track_board(20.0, 20.0);
        b.attach_track(0, &track_piece(2, 90)).unwrap();
        let t = b.track.as_ref().unwrap();
        let shape = t.laid[0].shape();
        // A right angle bent over one card length: radius 2/pi, centre of the bend at (r, 0).
        let r = 2.0 / std::f64::consts::PI;
        let half = std::f64::consts::FRAC_PI_4;
        assert!(close(shape.exit(), (r, -r)));
        assert_eq!(t.end.2, 2, "it leaves heading right");
        assert!(close((t.end.0, t.end.1), (r, -r)));
        // Its middle is halfway round the bend, about 0.19 right of the entry line and 0.45
        // ahead: not half a length straight ahead (0, -0.5).
        assert!(close(shape.centre(), (r - r * half.cos(), -r * half.sin())));
        // Spaces sit on the bend at their lane's distance from its centre (lane 0 outside).
        for (lane, radius) in [(0, r + 0.125), (1, r - 0.125)] {
            for row in 0..2 {
                let s = &b.graph.spaces[(lane * 2 + row) as usize];
                assert!(((s.x - r).hypot(s.y) - radius).abs() < 1e-9, "{}", s.id);
            }
        }
        // The footprint holds the whole card and not much more: every point of the card is in
        // it, and a point a little outside the outer edge is not.
        let quads = shape.footprint();
        assert_eq!(quads.len(), 8);
        let inside = |p: (f64, f64)| {
            quads
                .iter()
                .any(|q| !separated(q, &[p, p, p, p]) || point_in(q, p))
        };
        let hw = shape.half_width();
        for k in 0..=20 {
            let f = k as f64 / 20.0;
            for off in [-hw, -hw / 2.0, 0.0, hw / 2.0, hw] {
                assert!(inside(shape.at(f, off * 0.999)), "f {f} off {off}");
            }
            if (0.05..0.95).contains(&f) {
                assert!(!inside(shape.at(f, -hw - 0.01)), "f {f} outside");
            }
        }
        // Straight ahead of the entry, where a straight card would have been, is free:
        // a card can pass there.
        assert!(!inside((0.0, -0.9)));
    }

    fn point_in(q: &[(f64, f64); 4], p: (f64, f64)) -> bool {
        let side =
            |a: (f64, f64), b: (f64, f64)| (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0);
        let s: Vec<f64> = (0..4).map(|k| side(q[k], q[(k + 1) % 4])).collect();
        s.iter().all(|&v| v >= 0.0) || s.iter().all(|&v| v <= 0.0)
    }

    #[test]
    fn leaving_the_table_is_judged_by_the_footprint() {
        // A 2-lane straight heading right along a table 2 high: 0.6 wide, so its middle line
        // may come no nearer than 0.3 to the edge at y = 1.
        let straight = track_piece(2, 0);
        let mut b = track_board(4.0, 2.0);
        b.start_track(-1.0, 0.8, 2, None).unwrap();
        // Its centre (-0.5, 0.8) is on the table; its lower side (y = 1.1) is not.
        assert_eq!(b.track_fits(&straight), Err(AttachError::OffTable));
        assert_eq!(b.attach_track(0, &straight), Err(AttachError::OffTable));
        let mut b = track_board(4.0, 2.0);
        b.start_track(-1.0, 0.65, 2, None).unwrap();
        assert_eq!(b.attach_track(0, &straight), Ok(0));
        // The far end counts too: from x = 1.2 the card would reach 2.2, past the edge at 2.
        let mut b = track_board(4.0, 2.0);
        b.start_track(1.2, 0.0, 2, None).unwrap();
        assert_eq!(b.track_fits(&straight), Err(AttachError::OffTable));
        // A curve's outer side swings out beyond its middle line's end: a hard left heading
        // right reaches 2/pi + 0.3 = 0.94 ahead, though its exit's middle is only 0.64 ahead.
        let hard_left = track_piece(2, -90);
        let mut b = track_board(4.0, 2.0);
        b.start_track(1.1, 0.0, 2, None).unwrap();
        assert_eq!(b.track_fits(&hard_left), Err(AttachError::OffTable));
        let shape = CardShape::new(1.1, 0.0, 2, -90, 2);
        assert!(shape.exit().0 < 1.8 && shape.centre().0 < 1.8);
        b.start_track(1.0, 0.0, 2, None).unwrap();
        assert_eq!(b.track_fits(&hard_left), Ok(()));
    }

    /// A straight up the table from (0, 0) and a U-turn of two hard right curves about
    /// (2/pi, -1), with the clearance set afterwards: the track's end heads back down beside
    /// the straight, 2 x 2/pi = 1.27 to its right.
    fn u_turn(clearance: f64) -> Board {
        let mut b = track_board(20.0, 20.0);
        b.start_track(0.0, 0.0, 0, Some(0.0)).unwrap();
        for turn in [0, 90, 90] {
            b.attach_track(0, &track_piece(2, turn)).unwrap();
        }
        b.track.as_mut().unwrap().clearance = clearance;
        b
    }

    #[test]
    fn overlap_is_judged_by_the_footprints_and_the_clearance() {
        let r = 2.0 / std::f64::consts::PI;
        // A 2-lane straight down from the U-turn (0.6 wide) would be 2r - 0.6 = 0.67 from the
        // first straight, and nearer still to the first bend: its corner (2r - 0.3, -1) is
        // r - 0.3 from the bend's centre, and the bend's inside at its exit, (r, -1 - (r -
        // 0.3)), lies r - 0.3 above that centre: sqrt(2) (r - 0.3) = 0.476 apart. The centres
        // of the two cards are more than a card length apart.
        let gap = std::f64::consts::SQRT_2 * (r - 0.3);
        let straight = track_piece(2, 0);
        assert_eq!(u_turn(gap - 0.005).attach_track(0, &straight), Ok(12));
        assert_eq!(
            u_turn(gap + 0.005).attach_track(0, &straight),
            Err(AttachError::Overlap)
        );
        let b = u_turn(0.0);
        let t = b.track.as_ref().unwrap();
        let new = CardShape::new(t.end.0, t.end.1, t.end.2, 0, 2);
        let (a, c) = (new.centre(), t.laid[1].shape().centre());
        assert!((a.0 - c.0).hypot(a.1 - c.1) > 1.0);
        // A 4-lane straight (1.1 wide) reaches further in: its corner (2r - 0.55, -1) is
        // r - 0.55 from the bend's centre.
        let gap4 = (r - 0.3).hypot(r - 0.55);
        let wide = track_piece(4, 0);
        assert_eq!(u_turn(gap4 - 0.005).track_fits(&wide), Ok(()));
        assert_eq!(
            u_turn(gap4 + 0.005).track_fits(&wide),
            Err(AttachError::Overlap)
        );
        // Lying over the track is an overlap even with no clearance: two more right bends
        // bring the track back to (0, 0), heading up, onto the first straight.
        let mut c = u_turn(0.0);
        for turn in [0, 90, 90] {
            c.attach_track(0, &track_piece(2, turn)).unwrap();
        }
        assert!(close(
            (
                c.track.as_ref().unwrap().end.0,
                c.track.as_ref().unwrap().end.1
            ),
            (0.0, 0.0)
        ));
        assert_eq!(c.attach_track(0, &straight), Err(AttachError::Overlap));
        // The piece a new one attaches to never counts, though they touch: with the clearance
        // set from the start, each piece joins the one before it.
        let mut d = track_board(20.0, 20.0);
        d.start_track(0.0, 0.0, 0, Some(gap - 0.005)).unwrap();
        for turn in [0, 90, 90, 0] {
            d.attach_track(0, &track_piece(2, turn)).unwrap();
        }
    }

    #[test]
    fn a_forced_piece_is_laid_and_says_why_it_did_not_fit() {
        let mut b = track_board(2.0, 2.0);
        let straight = track_piece(2, 0);
        b.attach_track(0, &straight).unwrap();
        let before = serde_json::to_string(&b).unwrap();
        assert_eq!(b.lay_track(0, &straight, false), Err(AttachError::OffTable));
        assert_eq!(
            serde_json::to_string(&b).unwrap(),
            before,
            "a refusal changes nothing"
        );
        assert_eq!(b.graph.spaces.len(), 4);
        assert_eq!(
            b.lay_track(0, &straight, true),
            Ok((4, Some(AttachError::OffTable)))
        );
        let t = b.track.as_ref().unwrap();
        assert_eq!(t.laid.len(), 2);
        assert!(t.laid[1].forced && !t.laid[0].forced);
        assert!(close((t.end.0, t.end.1), (0.0, -2.0)));
        // Its spaces are joined to the track like any other piece's.
        let mut next = b.neighbors(1, &[]);
        next.sort_unstable();
        assert_eq!(next, vec![3, 4]);
        // A piece that fits is laid by force as usual, with nothing to report.
        let mut b = track_board(20.0, 20.0);
        assert_eq!(b.lay_track(0, &straight, true), Ok((0, None)));
        assert!(!b.track.as_ref().unwrap().laid[0].forced);
    }

    #[test]
    fn a_dry_run_agrees_with_laying_and_changes_nothing() {
        // Beside the U-turn, where some pieces fit and some overlap; and at the top of a
        // narrow table, where some leave it.
        let beside = u_turn(0.45);
        let mut edge = track_board(20.0, 3.0);
        edge.start_track(0.0, -0.55, 0, None).unwrap();
        let mut seen = Vec::new();
        for b in [&beside, &edge] {
            for (lanes, turn) in [
                (2, 0),
                (2, 90),
                (2, -90),
                (3, 45),
                (4, -45),
                (4, 0),
                (2, 45),
            ] {
                let piece = track_piece(lanes, turn);
                let before = serde_json::to_string(b).unwrap();
                let edges = b.graph.edges.len();
                let dry = b.track_fits(&piece);
                assert_eq!(serde_json::to_string(b).unwrap(), before);
                assert_eq!(b.graph.edges.len(), edges);
                let mut real = b.clone();
                let laid = real.attach_track(0, &piece).map(|_| ());
                assert_eq!(laid, dry, "{lanes} lanes, turn {turn}");
                seen.push(dry);
            }
        }
        for outcome in [
            Ok(()),
            Err(AttachError::Overlap),
            Err(AttachError::OffTable),
        ] {
            assert!(seen.contains(&outcome), "no piece gave {outcome:?}");
        }
    }

    #[test]
    fn removed_pieces_free_their_room_and_lose_their_edges() {
        // The loop of four right turns again: the fifth piece would lie on the first.
        let mut b = track_board(20.0, 20.0);
        for turn in [0, 90, 90, 90] {
            b.attach_track(0, &track_piece(2, turn)).unwrap();
        }
        let straight = track_piece(2, 0);
        assert_eq!(b.track_fits(&straight), Err(AttachError::Overlap));
        let ids: Vec<String> = b.graph.spaces.iter().map(|s| s.id.clone()).collect();
        // Piece 0's spaces 0..4; piece 1's 4..8, entered from 1 and 3.
        assert!(b.neighbors(1, &[]).contains(&4));
        assert_eq!(b.remove_track(0, 1), Ok(1));
        assert_eq!(b.remove_track(0, 1), Ok(0), "already removed");
        assert_eq!(b.track_fits(&straight), Ok(()));
        for s in 0..4 {
            assert!(
                b.neighbors(s, &[]).is_empty(),
                "space {s} still leads somewhere"
            );
            assert!(
                b.graph.spaces[s as usize]
                    .tags
                    .contains(&"removed".to_string())
            );
        }
        for s in 4..16 {
            assert!(
                !b.graph.spaces[s as usize]
                    .tags
                    .contains(&"removed".to_string())
            );
            assert!(b.graph.out[s as usize].iter().all(|&(to, _)| to >= 4));
        }
        // No edge anywhere reaches a removed space, and the rest of the track still joins up.
        assert!(b.graph.edges.iter().all(|e| e.from >= 4 && e.to >= 4));
        assert_eq!(b.distances(4, &[], &[])[15], Some(6));
        // Ids and handles stay as they were.
        let after: Vec<String> = b.graph.spaces.iter().map(|s| s.id.clone()).collect();
        assert_eq!(ids, after);
        b.attach_track(0, &straight).unwrap();
        assert_eq!(b.graph.spaces[16].id, "t4-l0-r0");
        // Removing the track's last piece: the next attaches to nothing and is not joined.
        assert_eq!(b.remove_track(4, 99), Ok(1));
        assert_eq!(b.track.as_ref().unwrap().laid.len(), 5);
        let first = b.attach_track(0, &track_piece(2, -45)).unwrap();
        assert!(b.graph.edges.iter().all(|e| e.to != first));
    }

    #[test]
    fn the_start_is_set_only_before_the_first_piece() {
        let mut b = track_board(20.0, 12.0);
        assert_eq!(
            b.start_track(-6.0, 1.0, 2, Some(1.5)),
            Err(TrackError::BadClearance)
        );
        assert_eq!(
            b.start_track(f64::NAN, 1.0, 2, None),
            Err(TrackError::BadStart)
        );
        assert_eq!(b.start_track(-6.0, 1.0, 10, Some(0.25)), Ok(()));
        let t = b.track.as_ref().unwrap();
        assert_eq!((t.end, t.clearance), ((-6.0, 1.0, 2), 0.25));
        b.attach_track(0, &track_piece(3, 0)).unwrap();
        assert!(close(
            (
                b.track.as_ref().unwrap().end.0,
                b.track.as_ref().unwrap().end.1
            ),
            (-5.0, 1.0)
        ));
        assert_eq!(
            b.start_track(0.0, 0.0, 0, None),
            Err(TrackError::AlreadyStarted)
        );
        let mut g = Board::new(
            &BoardDef::None,
            &[],
            &Default::default(),
            &mut Rng::new(0, 0),
        );
        assert_eq!(g.start_track(0.0, 0.0, 0, None), Err(TrackError::NoTrack));
        assert_eq!(
            g.attach_track(0, &track_piece(2, 0)),
            Err(AttachError::NoTrack)
        );
    }
}
