//! The board at run time: every board kind becomes a graph of spaces joined by edges.
//!
//! - `graph` boards copy their spaces and edges.
//! - `sections` boards arrange (and turn) their sections at setup and join connectors that
//!   meet at the same point.
//! - `grid` boards have one space per cell; which moves are possible depends on the tiles
//!   placed on the cells, so [`Board::grid_step`] reads the tiles instead of fixed edges.
//! - `track` boards start empty and grow a piece at a time ([`Board::attach_track`]), with an
//!   overlap and table-edge check.
//!
//! The fixed part (spaces, edges) sits behind an `Arc`, so cloning the state for rollback is
//! cheap; only a growing track copies it.

use std::collections::{BTreeMap, VecDeque};
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
}

impl Graph {
    fn add_space(&mut self, s: Space) -> u32 {
        self.spaces.push(s);
        self.out.push(Vec::new());
        (self.spaces.len() - 1) as u32
    }
    fn add_edge(&mut self, e: Edge) {
        let i = self.edges.len() as u32;
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
    pub piece: u16,
    /// Entry point and heading (in 45-degree steps, 0 = up/north, clockwise).
    pub x: f64,
    pub y: f64,
    pub heading: i32,
    /// First space of this piece (spaces run lane by lane, row by row).
    pub first_space: u32,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct TrackState {
    pub laid: Vec<LaidPiece>,
    /// Where the next piece attaches.
    pub end: (f64, f64, i32),
    pub table: (f64, f64),
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
    Overlap,
    OffTable,
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
                board.track = Some(TrackState {
                    laid: vec![],
                    end: (0.0, 0.0, 0),
                    table: (t.table_width, t.table_height),
                });
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
        for i in 0..ends.len() {
            for j in i + 1..ends.len() {
                let (a, b) = (ends[i], ends[j]);
                if a.2 == b.2.opposite() && (a.0 - b.0).abs() < 1e-6 && (a.1 - b.1).abs() < 1e-6 {
                    graph.add_edge(Edge {
                        from: a.3,
                        to: b.3,
                        directed: false,
                        tags: vec![],
                        cost: 1,
                    });
                }
            }
        }
        self.graph = Arc::new(graph);
    }

    pub fn space_count(&self) -> usize {
        self.graph.spaces.len()
    }

    /// Spaces reachable in one step from `space` over edges whose tags are all in `allowed`
    /// (untagged edges are always usable).
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

    /// The spaces one step from `space` for a walk: over the tiles' roads on a grid, else over
    /// edges whose tags are all in `allowed`.
    fn steps_from(&self, space: u32, allowed: &[String], tiles: &[TileDef]) -> Vec<u32> {
        if self.grid.is_some() {
            Side::ALL
                .iter()
                .filter_map(|&side| self.grid_step(space, side, tiles))
                .collect()
        } else {
            self.neighbors(space, allowed)
        }
    }

    /// Where a piece can end a move of exactly `steps` steps from `from` that never enters a
    /// space twice (the start included) nor a space in `avoid`; and every space it can reach
    /// in at most `steps`, with the fewest steps. Fails when the walks would take more than
    /// `budget` steps to list (a long move on a dense board).
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
        // Within: a breadth-first search; a shortest path never repeats a space.
        let mut dist = vec![u32::MAX; n];
        dist[from as usize] = 0;
        let mut frontier = vec![from];
        for d in 1..=steps {
            let mut next = Vec::new();
            for &s in &frontier {
                for t in self.steps_from(s, allowed, tiles) {
                    if dist[t as usize] == u32::MAX && !avoid(t) {
                        dist[t as usize] = d;
                        next.push(t);
                    }
                }
            }
            frontier = next;
        }
        out.within = (0..n as u32)
            .filter(|&s| dist[s as usize] != u32::MAX)
            .map(|s| (s, dist[s as usize]))
            .collect();
        // Exactly: a depth-first search over simple paths.
        let mut on_path = vec![false; n];
        let mut ends = vec![false; n];
        let mut spent = 0u64;
        on_path[from as usize] = true;
        // Each frame: a space and the steps left from it.
        let mut stack: Vec<(u32, u32, Vec<u32>)> =
            vec![(from, steps, self.steps_from(from, allowed, tiles))];
        if steps == 0 {
            ends[from as usize] = true;
            stack.clear();
        }
        while let Some(top) = stack.last_mut() {
            let left = top.1;
            match top.2.pop() {
                Some(t) => {
                    spent += 1;
                    if spent > budget {
                        return Err(WalkTooLong { steps, budget });
                    }
                    if on_path[t as usize] || avoid(t) {
                        continue;
                    }
                    if left == 1 {
                        ends[t as usize] = true;
                    } else {
                        on_path[t as usize] = true;
                        let more = self.steps_from(t, allowed, tiles);
                        stack.push((t, left - 1, more));
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

    /// Steps from `from` to every space (None where unreachable). Grids step by their tiles.
    pub fn distances(&self, from: u32, allowed: &[String], tiles: &[TileDef]) -> Vec<Option<u32>> {
        let n = self.space_count();
        let mut dist = vec![None; n];
        let mut q = VecDeque::new();
        if (from as usize) < n {
            dist[from as usize] = Some(0);
            q.push_back(from);
        }
        while let Some(s) = q.pop_front() {
            let d = dist[s as usize].unwrap_or(0);
            for t in self.steps_from(s, allowed, tiles) {
                if let Some(slot) = dist.get_mut(t as usize)
                    && slot.is_none()
                {
                    *slot = Some(d + 1);
                    q.push_back(t);
                }
            }
        }
        dist
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

    /// Lays a track piece at the end of the track. Spaces are added lane by lane; each lane is
    /// joined forward row to row and sideways to its neighbours, and the new piece's first row
    /// to the previous piece's last row (a lane keeps its side; a middle lane may go either way).
    pub fn attach_track(
        &mut self,
        piece_index: usize,
        piece: &TrackPieceDef,
    ) -> Result<u32, AttachError> {
        let Some(track) = self.track.as_mut() else {
            return Err(AttachError::OffTable);
        };
        let (x, y, heading) = track.end;
        let rad = |h: i32| (h as f64) * std::f64::consts::FRAC_PI_4;
        let exit_heading = heading + piece.turn / 45;
        let mid = rad(heading) + (rad(exit_heading) - rad(heading)) / 2.0;
        let (cx, cy) = (x + 0.5 * mid.sin(), y - 0.5 * mid.cos());
        if track.laid.len() > 1 {
            for p in &track.laid[..track.laid.len() - 1] {
                let (pc, pd) = (
                    p.x + 0.5 * rad(p.heading).sin(),
                    p.y - 0.5 * rad(p.heading).cos(),
                );
                if (pc - cx).hypot(pd - cy) < 0.9 {
                    return Err(AttachError::Overlap);
                }
            }
        }
        let (w, h) = track.table;
        if cx.abs() > w / 2.0 || cy.abs() > h / 2.0 {
            return Err(AttachError::OffTable);
        }
        let prev = track.laid.last().cloned();
        let graph = Arc::make_mut(&mut self.graph);
        let first = graph.spaces.len() as u32;
        let n = self.track.as_ref().map_or(0, |t| t.laid.len());
        for lane in 0..piece.lanes {
            for row in 0..piece.rows {
                let f = (row as f64 + 0.5) / piece.rows as f64;
                let across = lane as f64 - (piece.lanes as f64 - 1.0) / 2.0;
                let a = rad(heading) + (rad(exit_heading) - rad(heading)) * f;
                let (sx, sy) = (
                    x + f * a.sin() + 0.25 * across * a.cos(),
                    y - f * a.cos() + 0.25 * across * a.sin(),
                );
                let mut tags = vec![];
                if piece.role == TrackRole::Finish {
                    tags.push("finish".to_string());
                }
                if piece.role == TrackRole::Start {
                    tags.push("start".to_string());
                }
                graph.add_space(Space {
                    id: format!("t{n}-l{lane}-r{row}"),
                    name: format!("piece {} lane {} row {}", n + 1, lane + 1, row + 1),
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
                    // No sideways step across the line between two different gates.
                    let walled = row + 1 == piece.rows
                        && gate_at(lane).is_some()
                        && gate_at(lane) != gate_at(lane + 1);
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
        if let (Some(p), Some(track)) = (prev, self.track.as_ref()) {
            let _ = track;
            let prev_lanes = lanes_of(graph, p.first_space, first);
            let prev_rows = (first - p.first_space).checked_div(prev_lanes).unwrap_or(0);
            let prev_gates: Vec<(u32, u32)> = Vec::new();
            let _ = prev_gates;
            for pl in 0..prev_lanes {
                let from = p.first_space + pl * prev_rows + prev_rows.saturating_sub(1);
                let gate = graph
                    .spaces
                    .get(from as usize)
                    .and_then(|s| s.props.get("gate"))
                    .and_then(|g| g.as_int());
                for nl in lane_map(prev_lanes, piece.lanes, pl) {
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
        let track = self.track.as_mut().ok_or(AttachError::OffTable)?;
        track.laid.push(LaidPiece {
            piece: piece_index as u16,
            x,
            y,
            heading,
            first_space: first,
        });
        let ex = rad(exit_heading);
        track.end = (x + ex.sin(), y - ex.cos(), exit_heading);
        Ok(first)
    }
}

fn lanes_of(graph: &Graph, first: u32, end: u32) -> u32 {
    (first..end)
        .filter_map(|i| {
            graph
                .spaces
                .get(i as usize)
                .and_then(|s| s.props.get("lane"))
                .and_then(|l| l.as_int())
        })
        .max()
        .map_or(0, |m| m as u32 + 1)
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

/// Where walks from a space lead (see [`Board::walks`]).
#[derive(Debug, Default, PartialEq)]
pub struct Walks {
    /// Spaces where a walk of exactly the given steps, never repeating a space, can end.
    pub exactly: Vec<u32>,
    /// Spaces reachable in at most the given steps, with the fewest steps (the start at 0).
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
    fn a_track_that_turns_back_on_itself_overlaps() {
        let piece = |turn| TrackPieceDef {
            id: "p".into(),
            name: "p".into(),
            role: TrackRole::Normal,
            lanes: 2,
            rows: 2,
            turn,
            gates: vec![],
            tags: vec![],
            props: Default::default(),
        };
        let def = TrackDef {
            table_width: 20.0,
            table_height: 20.0,
            pieces: vec![],
        };
        let mut b = Board::new(
            &BoardDef::Track(def),
            &[],
            &Default::default(),
            &mut Rng::new(0, 0),
        );
        assert!(b.attach_track(0, &piece(0)).is_ok());
        assert!(b.attach_track(0, &piece(90)).is_ok());
        assert!(b.attach_track(0, &piece(90)).is_ok());
        assert!(b.attach_track(0, &piece(90)).is_ok());
        // Four right turns close the loop: the next piece lands on the first.
        assert_eq!(b.attach_track(0, &piece(0)), Err(AttachError::Overlap));
        let small = TrackDef {
            table_width: 2.0,
            table_height: 2.0,
            pieces: vec![],
        };
        let mut b = Board::new(
            &BoardDef::Track(small),
            &[],
            &Default::default(),
            &mut Rng::new(0, 0),
        );
        assert!(b.attach_track(0, &piece(0)).is_ok());
        assert_eq!(b.attach_track(0, &piece(0)), Err(AttachError::OffTable));
    }
}
