//! The graph every board kind becomes (spaces joined by edges), a `graph` board's copy of its
//! definition, and moves over the graph: one step ([`Board::neighbors`]), walks of an exact
//! cost ([`Board::walks`]) and the least cost to every space ([`Board::distances`]). On a grid
//! a step follows the tiles' roads (see `grid.rs`); on every other kind, the edges.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

use serde::{Deserialize, Serialize};

use super::Board;
use crate::content::def::*;
use crate::value::Value;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Space {
    pub id: String,
    pub name: String,
    pub x: f64,
    pub y: f64,
    pub tags: Vec<String>,
    pub props: BTreeMap<String, Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
    pub(super) costly: bool,
}

impl Graph {
    pub(super) fn add_space(&mut self, s: Space) -> u32 {
        self.spaces.push(s);
        self.out.push(Vec::new());
        (self.spaces.len() - 1) as u32
    }
    pub(super) fn add_edge(&mut self, e: Edge) {
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

/// What [`Board::least_costs`] gives a space it cannot reach.
const UNREACHED: u64 = u64::MAX;

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

pub(super) fn copy_graph(graph: &mut Graph, g: &GraphDef, ox: f64, oy: f64, _rot: u8, _scale: f64) {
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

impl Board {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::space;
    use crate::rng::Rng;

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
}
