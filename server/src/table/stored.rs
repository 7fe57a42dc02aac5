//! A table kept in the store ([`crate::store`]) as it is played: its people and each action
//! written before anyone is told of it, and a table rebuilt from its row when a server
//! starts again.

use super::*;
use crate::route::thread_of;
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

/// What became of a stored table when a server started.
#[derive(Debug, Clone, PartialEq)]
pub enum Resumed {
    /// Playing again, at its last action.
    Table {
        code: String,
        mod_id: String,
        actions: u64,
    },
    /// Left in the store: why (its mod is not served, or has other content).
    Held { code: String, reason: String },
}

impl std::fmt::Display for Resumed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Resumed::Table {
                code,
                mod_id,
                actions,
            } => write!(f, "table {code} ({mod_id}) resumed at action {actions}"),
            Resumed::Held { reason, .. } => write!(f, "{reason}"),
        }
    }
}

/// The unfinished tables of `store` whose codes route to game thread `index` of `threads`,
/// each rebuilt ([`Table::resume`]) when its mod is served with the same content hash; the
/// others stay in the store, untouched, so a server given the right mod resumes them.
pub fn resume_tables(
    store: &Rc<Store>,
    index: usize,
    threads: usize,
    mods: &BTreeMap<String, Arc<GameDef>>,
    cfg: &TableConfig,
) -> (Vec<Table>, Vec<Resumed>) {
    let mut tables = vec![];
    let mut said = vec![];
    let codes = match store.unfinished() {
        Ok(c) => c,
        Err(e) => {
            said.push(Resumed::Held {
                code: String::new(),
                reason: format!("no table is resumed on game thread {index}: {e}"),
            });
            return (tables, said);
        }
    };
    let kept = format!("it stays in {}", store.path().display());
    for code in codes.into_iter().filter(|c| thread_of(c, threads) == index) {
        let held = |reason: String| Resumed::Held {
            code: code.clone(),
            reason: format!("table {code} is not resumed: {reason}"),
        };
        let row = match store.load(&code) {
            Ok(r) => r,
            Err(e) => {
                said.push(held(format!("{e}; {kept}")));
                continue;
            }
        };
        let Some(def) = mods.get(&row.mod_id) else {
            said.push(held(format!(
                "it plays `{}` (content hash {}), which this server does not serve; serve that mod to resume it ({kept})",
                row.mod_id, row.content_hash
            )));
            continue;
        };
        if def.content_hash != row.content_hash {
            said.push(held(format!(
                "it plays `{}` with content hash {}, and the `{}` served now has content hash {}: the mod's files changed since the table was made, and its game would not replay; serve the mod as it was to resume it ({kept})",
                row.mod_id, row.content_hash, row.mod_id, def.content_hash
            )));
            continue;
        }
        match Table::resume(&row, def.clone(), cfg.clone(), store.clone()) {
            Ok(t) => {
                said.push(Resumed::Table {
                    code: code.clone(),
                    mod_id: row.mod_id.clone(),
                    actions: row.actions.len() as u64,
                });
                tables.push(t);
            }
            Err(e) => said.push(held(format!("its game does not replay: {e}; {kept}"))),
        }
    }
    (tables, said)
}
