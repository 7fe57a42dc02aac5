//! `track` boards: they start empty and grow a card at a time ([`Board::lay_track`]), each
//! card checked by its footprint (see `geometry.rs`) against the table's edge and the cards
//! already laid; cards can be taken off again ([`Board::remove_track`]). Each card adds its
//! lanes' spaces, joined forward, sideways and on to the next card.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::geometry::{CardShape, LANE_WIDTH, too_close};
use super::{Board, Edge, Space};
use crate::content::def::*;
use crate::value::Value;

/// A track piece laid on the table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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

/// Why the track could not be started or changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrackError {
    NoTrack,
    AlreadyStarted,
    BadStart,
    BadClearance,
}

impl TrackState {
    /// The track a board starts with: no piece laid, the start where the board puts it.
    pub(super) fn new(t: &TrackDef) -> TrackState {
        let mut track = TrackState {
            laid: vec![],
            end: (0.0, 0.0, t.start_heading),
            table: (t.table_width, t.table_height),
            clearance: t.clearance,
            start: Some((t.start_heading, t.start_from_back)),
        };
        track.place_start();
        track
    }

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

impl Board {
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

/// A lane as a driver heading down the track names it: left and right (and middle), or by
/// number on a wider piece.
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

#[cfg(test)]
mod tests;
