//! People at a table: looking at its seats, joining one (or watching), content that does not
//! match, coming back with a seat's token, dropping out, and the bots that stand in after the
//! grace period and hand the seat back.

use super::*;

impl Table {
    pub fn look(&self, conn: &Conn) {
        conn.send(&ServerMsg::Table {
            code: self.code.clone(),
            number: self.number(),
            mod_id: self.def.id.clone(),
            content_hash: self.def.content_hash.clone(),
            seats: self.seats(),
            over: self.is_over(),
        });
    }

    /// Refuses a client whose content differs from the table's. True when refused.
    pub(super) fn mismatch(&self, conn: &Conn, hash: &Option<String>) -> bool {
        let Some(h) = hash else { return false };
        if *h == self.def.content_hash {
            return false;
        }
        conn.send(&ServerMsg::ContentMismatch {
            code: self.code.clone(),
            mod_id: self.def.id.clone(),
            table_hash: self.def.content_hash.clone(),
            your_hash: cut(h),
            message: format!(
                "this table plays {} {} (mod `{}`) with content hash {}, and your copy's content hash is {}: its files differ from the server's, so you cannot join; get the server's version of the mod",
                self.def.name,
                self.def.version,
                self.def.id,
                self.def.content_hash,
                cut(h)
            ),
        });
        true
    }

    pub(super) fn joined(&mut self, conn: &Conn, seat: Option<u8>, token: Option<String>) {
        conn.send(&ServerMsg::Joined {
            code: self.code.clone(),
            number: self.number(),
            mod_id: self.def.id.clone(),
            mod_name: self.def.name.clone(),
            version: self.def.version.clone(),
            content_hash: self.def.content_hash.clone(),
            seat,
            token,
        });
        self.send_update(conn, seat);
        self.send_seats();
    }

    pub fn join(&mut self, conn: &Conn, seat: Option<u8>, name: &str, hash: &Option<String>) {
        if self.mismatch(conn, hash) {
            return;
        }
        let name = cut(name.trim());
        // One seat a connection: a connection in two seats would be offered the second
        // seat's moves and refused them, and the table would be stuck.
        if let Some(mine) = self.seat_of(conn) {
            conn.send(&ServerMsg::Error {
                reason: format!(
                    "this connection already sits in seat {}: one seat a connection (open another connection to play another seat)",
                    mine as u32 + 1
                ),
            });
            return;
        }
        if seat.is_none() && self.watchers.iter().any(|w| w.id == conn.id) {
            conn.send(&ServerMsg::Error {
                reason: "this connection is already watching this table".into(),
            });
            return;
        }
        match seat {
            None => {
                self.watchers.push(conn.clone());
                self.people_played = true;
                self.keep_replay();
                self.joined(conn, None, None);
            }
            Some(s) => match self.holders.get_mut(s as usize) {
                Some(Holder::Open) => {
                    let token = token();
                    let token_hash = crate::store::token_hash(&token);
                    let name = if name.is_empty() {
                        format!("Player {}", s as u32 + 1)
                    } else {
                        name
                    };
                    // The seat is the person's once the store has it (never the token).
                    if let Err(reason) = self.store_person(s, &name, &token_hash) {
                        conn.send(&ServerMsg::Error { reason });
                        return;
                    }
                    if let Some(h) = self.holders.get_mut(s as usize) {
                        *h = Holder::Person {
                            name,
                            token_hash,
                            conn: Some(conn.clone()),
                            left: None,
                            standin: false,
                        };
                    }
                    self.last_activity = Instant::now();
                    self.people_played = true;
                    self.joined(conn, Some(s), Some(token));
                }
                Some(Holder::Bot { .. }) => {
                    conn.send(&ServerMsg::Error {
                        reason: format!("seat {} is played by a bot", s as u32 + 1),
                    });
                }
                Some(Holder::Person { .. }) => {
                    conn.send(&ServerMsg::Error {
                        reason: format!(
                            "seat {} is taken (its person comes back with their token)",
                            s as u32 + 1
                        ),
                    });
                }
                None => {
                    conn.send(&ServerMsg::Error {
                        reason: format!(
                            "the table has {} seats; there is no seat {}",
                            self.holders.len(),
                            s as u32 + 1
                        ),
                    });
                }
            },
        }
    }

    /// A person comes back with their token: the seat is theirs again (a stand-in bot hands
    /// it back), and an older connection holding it is ended.
    pub fn rejoin(&mut self, conn: &Conn, token: &str, hash: &Option<String>) -> bool {
        if self.mismatch(conn, hash) {
            return false;
        }
        let found = self
            .holders
            .iter()
            .position(|h| matches!(h, Holder::Person { token_hash, .. } if crate::store::token_matches(token, token_hash)));
        let Some(s) = found else {
            conn.send(&ServerMsg::Error {
                reason: "no seat at this table has that token".into(),
            });
            return false;
        };
        if let Some(Holder::Person {
            conn: c,
            left,
            standin,
            ..
        }) = self.holders.get_mut(s)
        {
            if let Some(old) = c.take()
                && old.id != conn.id
            {
                old.end("you joined this seat again from another connection");
            }
            *c = Some(conn.clone());
            *left = None;
            *standin = false;
            self.last_activity = Instant::now();
            self.joined(conn, Some(s as u8), Some(token.to_string()));
        }
        true
    }

    /// A connection left or dropped.
    pub fn gone(&mut self, conn_id: u64) {
        self.watchers.retain(|w| w.id != conn_id);
        let mut changed = false;
        for h in &mut self.holders {
            if let Holder::Person { conn, left, .. } = h
                && conn.as_ref().is_some_and(|c| c.id == conn_id)
            {
                *conn = None;
                *left = Some(Instant::now());
                changed = true;
            }
        }
        self.strikes.remove(&conn_id);
        if changed {
            self.send_seats();
        }
    }

    /// Puts the stand-in bot on the seats of people gone longer than the grace period, and
    /// lets it take the decision of a person whose clock ran out. True when a seat changed
    /// hands.
    pub fn tick(&mut self, now: Instant) -> bool {
        let mut changed = false;
        if self.is_over() {
            return false;
        }
        for h in &mut self.holders {
            if let Holder::Person {
                conn: None,
                left: Some(t),
                standin,
                ..
            } = h
                && !*standin
                && now.duration_since(*t) >= self.cfg.grace
            {
                *standin = true;
                changed = true;
            }
        }
        if let Some(clock) = self.clock
            && !self.timed_out
            && !self.legal.is_empty()
            && matches!(
                self.holders.get(self.game.active() as usize),
                Some(Holder::Person { standin: false, .. })
            )
            && now.duration_since(self.decision_since) >= clock
        {
            self.timed_out = true;
            changed = true;
        }
        if changed {
            self.send_seats();
        }
        changed
    }

    /// When the next grace period or the clock of the decision now ends, if any runs.
    pub fn next_deadline(&self) -> Option<Instant> {
        if self.is_over() {
            return None;
        }
        let clock = self.clock.filter(|_| {
            !self.timed_out
                && matches!(
                    self.holders.get(self.game.active() as usize),
                    Some(Holder::Person { standin: false, .. })
                )
        });
        self.holders
            .iter()
            .filter_map(|h| match h {
                Holder::Person {
                    left: Some(t),
                    standin: false,
                    conn: None,
                    ..
                } => Some(*t + self.cfg.grace),
                _ => None,
            })
            .chain(clock.map(|c| self.decision_since + c))
            .min()
    }
}
