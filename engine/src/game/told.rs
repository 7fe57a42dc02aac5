//! What a table tells each seat about the actions taken: the one record both the Studio's
//! local game and the online server keep ([`Chronicle`]), and the entries of a seat's log it
//! gives ([`Told`]).
//!
//! Each action's labels are made before it is applied (the public one, and the acting seat's
//! own where a person sits or may yet), so every seat reads an action by the label it had when
//! it was taken; the spaces where it changed what everyone sees (a piece's old and new space,
//! a cell whose tiles changed) are worked out as it is applied. A seat's log is then the lines
//! the rules wrote before the first action, and for each action its line and the lines it wrote
//! that the seat may read.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use super::{Game, GameError};
use crate::board::Placed;

/// One entry of a seat's log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Told {
    /// An action, by the label it had for the seat when it was taken (the seat's own label
    /// for its own action, the public one for anyone else's); `number` is the action number
    /// it led to; `spaces` the board spaces where it changed what everyone sees.
    Action {
        number: u64,
        seat: u8,
        label: String,
        by_bot: bool,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        spaces: Vec<u32>,
    },
    /// A line the rules wrote that the seat may read.
    Line(String),
}

/// Whose own label an action keeps, besides the public one everyone else reads.
pub enum Own {
    /// Nobody's: no person sits at the acting seat or ever may (a bot's seat).
    Nobody,
    /// The acting seat's, asked of the rules now.
    Ask,
    /// The acting seat's, already made (the label the action was offered under).
    Given(String),
}

/// An action taken, as the record keeps it.
#[derive(Debug, Clone)]
struct Taken {
    seat: u8,
    own: Option<String>,
    public: String,
    by_bot: bool,
    /// The game's log entries it wrote (from, to).
    wrote: (usize, usize),
    spaces: Vec<u32>,
}

impl Taken {
    /// The label `viewer` is shown: the acting seat its own, everyone else the public one.
    fn label_for(&self, viewer: Option<u8>) -> &str {
        match &self.own {
            Some(own) if viewer == Some(self.seat) => own,
            _ => &self.public,
        }
    }
}

/// The record of the actions a game took, for telling each seat about them. Keeps the newest
/// `keep` actions (an online table keeps a bounded log; the Studio keeps every one).
#[derive(Debug, Clone)]
pub struct Chronicle {
    /// The log entries written before the first action.
    start: usize,
    /// The actions taken before the oldest one kept.
    dropped: u64,
    taken: VecDeque<Taken>,
    keep: usize,
}

impl Chronicle {
    /// The record of `game` from now on, keeping the newest `keep` actions.
    pub fn new(game: &Game, keep: usize) -> Chronicle {
        Chronicle {
            start: game.log().len(),
            dropped: game.history().len() as u64,
            taken: VecDeque::new(),
            keep: keep.max(1),
        }
    }

    /// Applies `action` (one of the legal actions of this very state) to `game` and records
    /// it: its labels made first, the spaces it changed after.
    pub fn take(
        &mut self,
        game: &mut Game,
        action: &str,
        own: Own,
        by_bot: bool,
    ) -> Result<(), GameError> {
        let seat = game.active();
        let own = match own {
            Own::Nobody => None,
            Own::Ask => Some(game.describe(action)),
            Own::Given(label) => Some(label),
        };
        let public = game.describe_public(action);
        let before = Places::of(game);
        let from = game.log().len();
        game.apply_legal(action)?;
        if self.taken.len() >= self.keep {
            self.taken.pop_front();
            self.dropped += 1;
        }
        self.taken.push_back(Taken {
            seat,
            own,
            public,
            by_bot,
            wrote: (from, game.log().len()),
            spaces: before.changed(&Places::of(game)),
        });
        Ok(())
    }

    /// The actions taken, kept or not.
    pub fn number(&self) -> u64 {
        self.dropped + self.taken.len() as u64
    }

    /// The acting seat's own label of action `index` (counted from the game's first), if it
    /// is kept and has one.
    pub fn own_label(&self, index: usize) -> Option<&str> {
        let i = (index as u64).checked_sub(self.dropped)? as usize;
        self.taken.get(i)?.own.as_deref()
    }

    /// The public label of action `index` (counted from the game's first), if it is kept.
    pub fn public_label(&self, index: usize) -> Option<&str> {
        let i = (index as u64).checked_sub(self.dropped)? as usize;
        Some(self.taken.get(i)?.public.as_str())
    }

    /// `viewer`'s log as a client at the table since the start holds it: the lines written
    /// before the first action, then each action's entry and the lines it wrote that `viewer`
    /// may read; the newest `most` entries.
    pub fn told(&self, game: &Game, viewer: Option<u8>, most: usize) -> Vec<Told> {
        let mut out = vec![];
        if self.dropped == 0 {
            lines(game, viewer, (0, self.start), &mut out);
        }
        for i in 0..self.taken.len() {
            self.tell(game, viewer, i, &mut out);
        }
        if out.len() > most {
            out.drain(..out.len() - most);
        }
        out
    }

    /// The entries the last action added to `viewer`'s log (its own, then its lines), and
    /// how many entries that log held before them (all of them, unbounded).
    pub fn told_last(&self, game: &Game, viewer: Option<u8>) -> (Vec<Told>, usize) {
        let mut out = vec![];
        let Some(last) = self.taken.len().checked_sub(1) else {
            return (out, 0);
        };
        self.tell(game, viewer, last, &mut out);
        let seen = |(from, to): (usize, usize)| {
            let log = game.log();
            let to = to.min(log.len());
            log.get(from.min(to)..to)
                .unwrap_or_default()
                .iter()
                .filter(|e| e.seen.by(viewer))
                .count()
        };
        let mut before: usize = self
            .taken
            .iter()
            .take(last)
            .map(|t| 1 + seen(t.wrote))
            .sum();
        if self.dropped == 0 {
            before += seen((0, self.start));
        }
        (out, before)
    }

    /// Action `i` of those kept, as `viewer` is told it, with the lines it wrote.
    fn tell(&self, game: &Game, viewer: Option<u8>, i: usize, out: &mut Vec<Told>) {
        let Some(t) = self.taken.get(i) else {
            return;
        };
        out.push(Told::Action {
            number: self.dropped + i as u64 + 1,
            seat: t.seat,
            label: t.label_for(viewer).to_string(),
            by_bot: t.by_bot,
            spaces: t.spaces.clone(),
        });
        lines(game, viewer, t.wrote, out);
    }
}

/// The log entries `from..to` of `game` that `viewer` may read.
fn lines(game: &Game, viewer: Option<u8>, (from, to): (usize, usize), out: &mut Vec<Told>) {
    let log = game.log();
    let to = to.min(log.len());
    for e in log.get(from.min(to)..to).unwrap_or_default() {
        if e.seen.by(viewer) {
            out.push(Told::Line(e.text.to_string()));
        }
    }
}

/// Where the pieces stand and which tiles lie on the grid: what a move changes that everyone
/// sees.
struct Places {
    pieces: Vec<Option<u32>>,
    tiles: Vec<(Option<Placed>, Option<Placed>)>,
}

impl Places {
    fn of(g: &Game) -> Places {
        let s = g.state();
        Places {
            pieces: s.pieces.iter().map(|p| p.at).collect(),
            tiles: s.board.grid.as_ref().map_or_else(Vec::new, |g| {
                g.tiles
                    .iter()
                    .copied()
                    .zip(g.blockers.iter().copied())
                    .collect()
            }),
        }
    }

    /// The spaces where `after` differs from `self`: a piece's old and new space, a cell
    /// whose tiles changed.
    fn changed(&self, after: &Places) -> Vec<u32> {
        let mut out = Vec::new();
        let n = self.pieces.len().max(after.pieces.len());
        for k in 0..n {
            let (a, b) = (
                self.pieces.get(k).copied().flatten(),
                after.pieces.get(k).copied().flatten(),
            );
            if a != b {
                out.extend(a);
                out.extend(b);
            }
        }
        for (i, (a, b)) in self.tiles.iter().zip(&after.tiles).enumerate() {
            if a != b {
                out.push(i as u32);
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}
