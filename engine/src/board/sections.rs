//! `sections` boards: at setup the sections are laid out in their columns (shuffled and
//! turned when the board or the game's options say so), and connectors of neighbouring
//! sections that meet at the same point are joined by an edge.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::{Board, Edge, Graph, Space};
use crate::content::def::*;
use crate::rng::Rng;
use crate::value::Value;

impl Board {
    /// Lays out a sections board, taking its shuffle and rotate from the game's `options`
    /// where the board names an option for them.
    pub(super) fn lay_out_sections(
        &mut self,
        s: &SectionsDef,
        options: &BTreeMap<String, Value>,
        rng: &mut Rng,
    ) {
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
        self.arrange_sections(s, shuffle, rotate, rng)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::space;

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
}
