//! A table kept in the store ([`crate::store`]) as it is played: its people and each action
//! written before anyone is told of it, and a table rebuilt from its row when a server
//! starts again.

use super::*;
use crate::store::{ActionRow, TableRow};
use std::rc::Rc;

impl Table {
    /// Keeps this table in `store` from now on.
    pub fn set_store(&mut self, store: Rc<Store>) {
        self.store = Some(store);
    }

    /// Writes a person's seat to the store, if there is one.
    pub(super) fn store_person(&self, seat: u8, name: &str, hash: &[u8; 32]) -> Result<(), String> {
        let Some(store) = &self.store else {
            return Ok(());
        };
        store.person(&self.code, seat, name, hash).map_err(|e| {
            format!(
                "the server could not keep your seat in its table store, so it is not yours: {e}"
            )
        })
    }

    /// Commits the action just taken (number [`Table::number`]) to the store, and marks the
    /// table finished when the game is over. False (and the table stopped, everyone told)
    /// when the store cannot be written: an action nobody can count on is not announced.
    pub(super) fn store_action(&mut self, seat: u8, action: &str, by_bot: bool) -> bool {
        let Some(store) = self.store.clone() else {
            return true;
        };
        let row = ActionRow {
            number: self.number(),
            seat,
            action: action.to_string(),
            by_bot,
        };
        let written = store.action(&self.code, &row).and_then(|()| {
            if self.is_over() {
                store.finish(&self.code)
            } else {
                Ok(())
            }
        });
        match written {
            Ok(()) => true,
            Err(e) => {
                self.stop(format!(
                    "the table stopped: the server could not record action {} in its table store ({e}); the game is kept up to the action before it",
                    row.number
                ));
                false
            }
        }
    }

    /// Rebuilds a table from its row: the game set up as it was, then every action of its
    /// log applied in order (the bot threads let bots choose theirs again, so their
    /// generators are where they were: [`crate::bots`]);
    /// its people's seats empty of connections, as if everyone had dropped out just now.
    /// The row's content hash is checked against `def`'s by the caller.
    pub fn resume(
        row: &TableRow,
        def: Arc<GameDef>,
        cfg: TableConfig,
        store: Rc<Store>,
    ) -> Result<Table, String> {
        let spec = TableSpec {
            mod_id: row.mod_id.clone(),
            seats: row.seat_specs.clone(),
            options: row.options.clone(),
            // The store keeps no table's own clock: a resumed table has the server's.
            clock: None,
        };
        let mut t = Table::new(row.code.clone(), def, &spec, row.seed, row.bot_seed, cfg)?;
        let now = Instant::now();
        for p in &row.people {
            match t.holders.get_mut(p.seat as usize) {
                Some(h @ Holder::Open) => {
                    *h = Holder::Person {
                        name: p.name.clone(),
                        token_hash: p.token_hash,
                        conn: None,
                        left: Some(now),
                        standin: false,
                    }
                }
                _ => {
                    return Err(format!(
                        "seat {} has a person and is not a person's seat",
                        p.seat as u32 + 1
                    ));
                }
            }
        }
        for a in &row.actions {
            let at = format!(
                "action {} (`{}`, seat {})",
                a.number,
                cut(&a.action),
                a.seat as u32 + 1
            );
            if let Some(why) = &t.failed {
                return Err(format!("{at} follows the table's stop: {why}"));
            }
            if t.game.is_over() {
                return Err(format!("{at} follows the end of the game"));
            }
            if t.game.active() != a.seat {
                return Err(format!(
                    "{at}: it is seat {}'s turn",
                    t.game.active() as u32 + 1
                ));
            }
            if !t.legal.contains(&a.action) {
                return Err(format!("{at} is not a legal action there"));
            }
            // The bots' generators are brought to where they were: a random player's here,
            // the others' by the bot threads, which let each bot choose its logged actions
            // again (`Table::bot_actions`).
            if matches!(t.holders.get(a.seat as usize), Some(Holder::Bot { spec }) if spec == RANDOM)
            {
                t.random_choice(a.seat)
                    .map_err(|e| format!("{at}: the random player failed choosing again: {e}"))?;
            }
            if t.advance(a.seat, &a.action, a.by_bot).is_none() {
                let why = t.failed.clone().unwrap_or_default();
                return Err(format!("{at} does not apply again: {why}"));
            }
        }
        t.board_changed = false;
        if t.is_over() {
            store.finish(&t.code)?;
        }
        t.store = Some(store);
        Ok(t)
    }
}
