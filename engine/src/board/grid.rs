//! `grid` boards: one space per cell, row by row. A cell holds a road tile and maybe a
//! blocker on top; which moves are possible depends on the tiles, so a step reads the roads
//! ([`Board::grid_step`]) instead of fixed edges, and vehicles drive straight along them
//! ([`Board::ray`], [`Board::reach`], [`Board::approach`]).

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;

use super::{Board, Graph, Space};
use crate::content::def::*;

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

/// What [`Board::reach`] and [`Board::approach`] work out together.
struct Explored {
    /// Each reachable cell with the fewest drives it takes.
    reached: Vec<(u32, u32)>,
    /// Each empty cell a further drive could enter, with a bit per side it could enter by.
    entries: Vec<(u32, u8)>,
}

impl Board {
    /// Lays out a grid board: a space per cell, named by its column and row unless the cell
    /// gives an id, and the tiles the cells start with.
    pub(super) fn lay_out_grid(&mut self, g: &GridDef, tiles: &[TileDef]) {
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
        self.graph = Arc::new(graph);
        self.grid = Some(GridState {
            width: g.width,
            height: g.height,
            tiles: tiles_on,
            blockers: vec![None; n],
            tiles_stamp: fresh_stamp(),
            blockers_stamp: fresh_stamp(),
        });
    }

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
}
