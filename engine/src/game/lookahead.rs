//! Lookahead: trying actions and rolling them back, bots that look ahead, and the copies of a
//! game a seat could imagine (determinization), which show it nothing it may not know.

use std::sync::Arc;

use super::{Game, GameError, MAX_TRIES, Mark};
use crate::content::GameDef;
use crate::rng::Rng;
use crate::script::{Access, BotStep, Host, ScriptError};
use crate::state::{State, visible_cards};

/// The hidden places (zone, position) holding a card of one deck, and those cards.
type DeckDeal = (Vec<(usize, usize)>, Vec<crate::state::CardRef>);

/// Deals the cards hidden from `seat` again, shuffled by `seed`, into the places hidden from
/// it that held a card of the same deck (every zone keeps its count of each deck's cards,
/// every card the seat can see stays where it is), and seeds
/// the generator anew: the game as the seat might imagine it, for lookahead that must not see
/// the real deal or the real dice to come. The hidden cards are put in a fixed order (by deck
/// and card) before the shuffle, so where each lands depends only on which cards are hidden,
/// which the seat can work out, and never on where they really lie.
fn redeal_hidden(def: &GameDef, state: &mut State, seat: u8, seed: u64) {
    let viewer = Some(seat);
    // Per deck: the hidden places holding one of its cards, and those cards. A card's back
    // shows its deck, so a seat knows how many cards of each deck every hidden place holds;
    // only which card of that deck is where is unknown. (Dealing every hidden card into every
    // hidden place made worlds the rules cannot be in: a starting tile in the draw deck.)
    let mut by_deck: std::collections::BTreeMap<u16, DeckDeal> = std::collections::BTreeMap::new();
    for (z, zone) in state.zones.iter().enumerate() {
        let hidden = zone.cards.len() - visible_cards(def, zone, viewer);
        for (i, card) in zone.cards.iter().enumerate().take(hidden) {
            let (places, cards) = by_deck.entry(card.deck).or_default();
            places.push((z, i));
            cards.push(*card);
        }
    }
    let mut rng = Rng::new(seed, 5);
    for (places, mut cards) in by_deck.into_values() {
        cards.sort_unstable_by_key(|c| c.card);
        rng.shuffle(&mut cards);
        for ((z, i), card) in places.into_iter().zip(cards) {
            state.zones[z].cards[i] = card;
        }
    }
    state.rng = Rng::new(seed, 6);
}

/// Takes out of `state` every variable `seat` may not see, and remembers their names (see
/// [`State::unknown`]).
fn hide_secrets(state: &mut State, seat: u8) {
    let viewer = Some(seat);
    if state.vars.values().all(|v| v.seen.by(viewer)) {
        state.unknown = None;
        return;
    }
    let names = state
        .vars
        .iter()
        .filter(|(_, v)| !v.seen.by(viewer))
        .map(|(k, _)| k.clone())
        .collect();
    Arc::make_mut(&mut state.vars).retain(|_, v| v.seen.by(viewer));
    state.vars_bytes = state.vars.values().map(|v| v.size).sum();
    state.unknown = Some(Arc::new(crate::state::Unknown { seat, names }));
}

impl Game {
    /// Makes this game one `seat` could imagine, for lookahead: the cards hidden from it
    /// dealt again and the generator seeded anew (both from `seed`), the secret variables it
    /// may not read taken out, then the rules' `imagine(game, seat)` hook, if they give one,
    /// run to set those secrets to values the seat could believe (drawn from the new
    /// generator); it is not called when the seat may read every variable. Rules that read
    /// a secret taken out and not set again get an error.
    fn imagine(&mut self, seat: u8, seed: u64) -> Result<(), ScriptError> {
        redeal_hidden(&self.def, &mut self.state, seat, seed);
        self.imagine_secrets(seat)
    }

    /// Takes out the secret variables `seat` may not know and lets the rules' `imagine` hook,
    /// if any, set them anew (see [`Game::imagine`]).
    fn imagine_secrets(&mut self, seat: u8) -> Result<(), ScriptError> {
        hide_secrets(&mut self.state, seat);
        // Nothing to imagine when the seat may read every variable.
        if self.state.unknown.is_none() || !self.host.has_hook("imagine") {
            return Ok(());
        }
        let ctx = self.ctx(Access::Rules, Rng::new(0, 0));
        let (ctx, r) = self.host.call_hook::<()>("imagine", ctx, Some(seat), None);
        self.restore(ctx);
        r?;
        if self.state.pending_turn_start || self.state.result.is_some() {
            return Err(self.host.hook_error(
                "imagine",
                "imagine may only set what the seat cannot know (secret variables); it passed the turn or ended the game".into(),
            ));
        }
        Ok(())
    }

    /// Asks a bot of the mod to choose; returns the index into `actions`. The bot may look
    /// ahead with `game.try`/`game.undo`: each try is applied here as a real action would be
    /// (rules, turn starts and all) on the game as it is, and every try still standing when
    /// the bot chooses (or fails) is rolled back, so the game is exactly as before.
    pub fn bot_choose(
        &mut self,
        bot: &str,
        actions: &[String],
        rng: &mut Rng,
    ) -> Result<usize, ScriptError> {
        let seat = self.state.active;
        let mut ctx = self.ctx(Access::Seat(Some(seat)), rng.clone());
        ctx.lookahead = true;
        let (ctx, mut step) = self.host.start_bot(bot, ctx, seat, actions);
        *rng = self.restore(ctx);
        let standing = self.standing;
        let mut tried: Vec<(Mark, usize)> = Vec::new();
        let mut tries = 0;
        let out = loop {
            let reply = match step {
                Err(e) => break Err(e),
                Ok(BotStep::Chose(i)) => break Ok(i),
                Ok(BotStep::Try(action)) => {
                    tries += 1;
                    if tries > MAX_TRIES {
                        self.host.end_bot();
                        break Err(self.host.hook_error(
                            &format!("bot {bot}"),
                            format!("more than {MAX_TRIES} tries in one choose"),
                        ));
                    }
                    let budget = self.host.budget();
                    let spent = self.host.spent();
                    let before = self.mark();
                    // What follows the action is imagined, not the game's own future: the
                    // hidden cards are dealt again and the generator seeded from the bot's
                    // own, so a try cannot show the next card or the next roll.
                    let seed = (u64::from(rng.next_u32()) << 32) | u64::from(rng.next_u32());
                    if let Err(e) = self.imagine(seat, seed) {
                        self.rewind(before);
                        self.host.end_bot();
                        break Err(e);
                    }
                    let ok = self.apply(&action).is_ok();
                    if ok {
                        let apart = before.state.bytes_apart_from(&self.state);
                        self.standing += apart;
                        tried.push((before, apart));
                    } else {
                        self.rewind(before);
                    }
                    let used = self.host.spent().wrapping_sub(spent);
                    self.host.charge_tries(budget, used, bot);
                    ok
                }
                Ok(BotStep::Undo) => match tried.pop() {
                    Some((mark, apart)) => {
                        self.standing = self.standing.saturating_sub(apart);
                        self.rewind(mark);
                        true
                    }
                    None => false,
                },
            };
            let mut ctx = self.ctx(Access::Seat(Some(seat)), rng.clone());
            ctx.lookahead = true;
            let (ctx, next) = self.host.resume_bot(ctx, reply);
            *rng = self.restore(ctx);
            step = next;
        };
        if let Some((mark, _)) = tried.into_iter().next() {
            self.rewind(mark);
        }
        self.standing = standing;
        out.map_err(|e| self.at(e, self.next_action()))
    }

    /// Lookahead: applies `action` (if legal), lets `look` read the game that follows (it
    /// may try further actions), then puts the state, the log and the history back exactly
    /// as they were. Returns what `look` returned, or the error that refused the action. A
    /// bot looks through its own seat's view (`look` gets the whole game; read it with
    /// [`Game::view`] of that seat).
    pub fn trial<T>(
        &mut self,
        action: &str,
        look: impl FnOnce(&mut Game) -> T,
    ) -> Result<T, GameError> {
        let mark = self.mark();
        let out = self.apply(action).map(|()| look(self));
        self.rewind(mark);
        out
    }

    /// Determinization, for search bots: a copy of the game as `seat` might imagine it. The
    /// cards hidden from the seat are dealt again, shuffled by `seed`, into the places hidden
    /// from it (every zone keeps its count, every card the seat can see stays where it is,
    /// and all hidden cards stay in play, so the deal is consistent with what the seat
    /// knows). Variables hidden from the seat are taken out and the rules' `imagine` hook,
    /// if any, sets them to values the seat could believe; log lines it may not read are
    /// dropped, and the copy's random generator is seeded anew, so nothing in the copy tells
    /// what the seat may not know. The copy has a VM of its own and can be played on.
    pub fn determinized(&self, seat: u8, seed: u64) -> Result<Game, GameError> {
        self.determinized_on(seat, seed, None)
    }

    /// [`Game::determinized`] on `host`, a VM an earlier copy of this game's mod gave back
    /// ([`Game::into_host`]), when it is one of this mod (a new VM otherwise). The VM is not
    /// reset: its rule scripts keep the top-level locals they had (the same as a real game
    /// keeps between hooks; see "scripts keep nothing between calls" in ARCHITECTURE.md), and
    /// it has only ever run imagined games of this seat, so it holds nothing hidden from it.
    /// A new VM costs about 1.8 ms, which a search bot pays once a decision this way instead
    /// of once a playout.
    pub fn determinized_on(
        &self,
        seat: u8,
        seed: u64,
        host: Option<Host>,
    ) -> Result<Game, GameError> {
        let state = Box::new((*self.state).clone());
        let viewer = Some(seat);
        let host = match host {
            Some(h) if Arc::ptr_eq(h.def(), &self.def) => h,
            _ => Host::new(self.def.clone(), self.host.limits())?,
        };
        let mut copy = Game {
            def: self.def.clone(),
            host,
            state,
            log: self
                .log
                .iter()
                .filter(|e| e.seen.by(viewer))
                .cloned()
                .collect(),
            history: self.history.clone(),
            setup: self.setup.clone(),
            spare: None,
            standing: 0,
            setting_up: false,
        };
        copy.imagine(seat, seed)?;
        Ok(copy)
    }

    /// For analysis only, never for a seat in play: a copy of the game with every card where
    /// it really lies and every secret as it really is, the whole log kept, and only the
    /// generator seeded anew from `seed` (so the dice to come stay unknown). The search bot
    /// that sees every secret (`farebox sim --hidden-value`) plays on these where the honest
    /// one plays on [`Game::determinized_on`]; `host` as there.
    pub fn seen_whole(&self, seed: u64, host: Option<Host>) -> Result<Game, GameError> {
        let mut state = Box::new((*self.state).clone());
        state.rng = Rng::new(seed, 6);
        let host = match host {
            Some(h) if Arc::ptr_eq(h.def(), &self.def) => h,
            _ => Host::new(self.def.clone(), self.host.limits())?,
        };
        Ok(Game {
            def: self.def.clone(),
            host,
            state,
            log: self.log.clone(),
            history: self.history.clone(),
            setup: self.setup.clone(),
            spare: None,
            standing: 0,
            setting_up: false,
        })
    }

    /// Another game `seat` could not tell from this one: everything it may see is the same,
    /// everything hidden from it is dealt or drawn anew from `seed` (the hidden cards, the
    /// generator, and the secret variables it may not know, which the rules' `imagine` hook
    /// sets; without one they are gone). Unlike [`Game::determinized`] the copy is played as a
    /// real game: it is what tests use to show that a seat's choices do not depend on what it
    /// cannot see. The copy has a VM of its own.
    pub fn alternative(&self, seat: u8, seed: u64) -> Result<Game, GameError> {
        let host = Host::new(self.def.clone(), self.host.limits())?;
        let mut copy = Game {
            def: self.def.clone(),
            host,
            state: Box::new((*self.state).clone()),
            log: self.log.clone(),
            history: self.history.clone(),
            setup: self.setup.clone(),
            spare: None,
            standing: 0,
            setting_up: false,
        };
        redeal_hidden(&copy.def, &mut copy.state, seat, seed);
        copy.imagine_secrets(seat)?;
        copy.state.unknown = None;
        Ok(copy)
    }
}
