//! What a call is lent: the game's state, definition and generator ([`CallCtx`]), and what
//! the calling code may do with them ([`Access`]).

use std::sync::Arc;

use crate::content::GameDef;
use crate::rng::Rng;
use crate::state::State;
use crate::state::{Counted, LogEntry};

/// What a call may do to the state, and what it may read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Rules: read everything and change it.
    Rules,
    /// The rules' own questions (the `score` hook): read everything, change nothing.
    ReadOnly,
    /// Whatever chooses for a seat, or speaks to one: bots, the `actions` and `describe`
    /// hooks. Read only, and only what that seat may see (None: a spectator, who sees public
    /// things): a secret it may not see reads as nil, a zone it may not look into lists no
    /// cards (its count stays public), a face-down deck gives no order.
    Seat(Option<u8>),
}

impl Access {
    /// Whether the call may only read (`math.random` then uses a separate generator, so
    /// looking never changes the game).
    pub fn read_only(self) -> bool {
        self != Access::Rules
    }

    /// Whether the call may read something seen by `seen`.
    pub fn may_see(self, seen: crate::state::Seen) -> bool {
        match self {
            Access::Seat(viewer) => seen.by(viewer),
            Access::Rules | Access::ReadOnly => true,
        }
    }

    /// How many cards of `zone`, counted from the top, the call may read.
    pub fn visible_cards(self, def: &GameDef, zone: &crate::state::ZoneState) -> usize {
        match self {
            Access::Seat(viewer) => crate::state::visible_cards(def, zone, viewer),
            Access::Rules | Access::ReadOnly => zone.cards.len(),
        }
    }
}

/// Lent to the VM for one call.
pub struct CallCtx {
    pub state: Box<State>,
    pub def: Arc<GameDef>,
    pub log: Counted<LogEntry>,
    pub access: Access,
    pub bot_rng: Rng,
    /// Whether `game.try` and `game.undo` may be used: only in a bot's `choose`.
    pub lookahead: bool,
    /// What the game's list of actions taken holds, and the snapshots of a bot's tries under
    /// way: memory scripts make the game hold, counted against the memory limit.
    pub actions_bytes: usize,
    pub tries_bytes: usize,
}

impl CallCtx {
    /// What the game holds outside the VM that scripts can make grow (variables, piece
    /// properties, the log, the actions taken, a bot's tries), in bytes: it shares the
    /// memory limit with the VM.
    pub fn held(&self) -> usize {
        self.state.vars_bytes
            + self.state.props_bytes
            + self.log.bytes()
            + self.actions_bytes
            + self.tries_bytes
    }
}
