//! What a server allows each address, so that no stranger can take it down or stall it: how
//! many connections it holds (in all and per address), how many tables an address keeps open,
//! how much of the server's memory budget is spent, and the strikes an address earns by asking
//! for tables that do not exist (guessing codes), which shut it out for a while.
//!
//! Addresses are counted as a person's network is: an IPv4 address alone, an IPv6 address by
//! its /64 (one household or machine is handed a whole /64, so counting each IPv6 address
//! alone would let one attacker open connections without end).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The limits (the defaults are [`Limits::default`]; `farebox serve` flags set each).
#[derive(Debug, Clone)]
pub struct Limits {
    /// Connections the server holds at once, and per address.
    pub conns: usize,
    pub conns_per_addr: usize,
    /// Tables a connection may create, and tables an address may keep open at once.
    pub tables_per_conn: usize,
    pub tables_per_addr: usize,
    /// The memory the server's tables and connections may take, by their measured costs
    /// ([`TABLE_BYTES`], [`CONN_BYTES`]): past it, new tables and connections are refused.
    pub memory: usize,
    /// Codes of tables that do not exist an address may ask for in [`Limits::strike_window`]
    /// before it is shut out for [`Limits::shut_out`].
    pub unknown_codes: u32,
    pub strike_window: Duration,
    pub shut_out: Duration,
}

/// What a table costs the server's memory, measured: 0.7 to 1.1 MB a table (the game, its
/// Luau VM, its history and its recording), rounded up.
pub const TABLE_BYTES: usize = 1_200_000;
/// What an open connection costs, measured: about 134 KB (the WebSocket's buffers and the
/// tasks), rounded up.
pub const CONN_BYTES: usize = 150_000;

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            conns: 2_000,
            conns_per_addr: 16,
            tables_per_conn: 8,
            tables_per_addr: 16,
            memory: 2 << 30,
            unknown_codes: 20,
            strike_window: Duration::from_secs(10 * 60),
            shut_out: Duration::from_secs(15 * 60),
        }
    }
}

/// The address an address is counted as (IPv6 by its /64).
fn key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => {
            let s = v6.segments();
            IpAddr::V6(std::net::Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
        }
    }
}

#[derive(Default)]
struct Addr {
    conns: usize,
    tables: usize,
    strikes: u32,
    strikes_since: Option<Instant>,
    shut_until: Option<Instant>,
}

impl Addr {
    /// Whether nothing about the address need be kept: no connection, no table, no shut-out
    /// and no strike still counting.
    fn idle(&self, now: Instant, window: Duration) -> bool {
        self.conns == 0
            && self.tables == 0
            && self.shut_until.is_none_or(|t| t <= now)
            && self
                .strikes_since
                .is_none_or(|t| now.duration_since(t) > window)
    }
}

#[derive(Default)]
struct State {
    conns: usize,
    tables: usize,
    addrs: HashMap<IpAddr, Addr>,
}

/// The server's accounting of addresses, shared by the network side and the game threads.
pub struct Guard {
    limits: Limits,
    state: Mutex<State>,
}

impl Guard {
    pub fn new(limits: Limits) -> Guard {
        Guard {
            limits,
            state: Mutex::new(State::default()),
        }
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    fn with<T>(&self, f: impl FnOnce(&mut State) -> T) -> T {
        let mut s = match self.state.lock() {
            Ok(s) => s,
            Err(poisoned) => poisoned.into_inner(),
        };
        f(&mut s)
    }

    fn memory_used(&self, s: &State) -> usize {
        s.tables * TABLE_BYTES + s.conns * CONN_BYTES
    }

    /// Admits a connection from `ip`, or says why not. Every admitted connection is let go
    /// with [`Guard::conn_closed`].
    pub fn admit(&self, ip: IpAddr) -> Result<(), String> {
        let now = Instant::now();
        self.with(|s| {
            let over_memory = self.memory_used(s) + CONN_BYTES > self.limits.memory;
            let a = s.addrs.entry(key(ip)).or_default();
            if let Some(t) = a.shut_until
                && t > now
            {
                return Err(format!(
                    "this address asked for too many tables that do not exist; it may connect again in {} minutes",
                    (t - now).as_secs().div_ceil(60)
                ));
            }
            if a.conns >= self.limits.conns_per_addr {
                return Err(format!(
                    "this address has {} connections open, the most one address may",
                    a.conns
                ));
            }
            if s.conns >= self.limits.conns || over_memory {
                return Err("the server is full; try again later".into());
            }
            a.conns += 1;
            s.conns += 1;
            Ok(())
        })
    }

    pub fn conn_closed(&self, ip: IpAddr) {
        let now = Instant::now();
        self.with(|s| {
            s.conns = s.conns.saturating_sub(1);
            let k = key(ip);
            if let Some(a) = s.addrs.get_mut(&k) {
                a.conns = a.conns.saturating_sub(1);
                if a.idle(now, self.limits.strike_window) {
                    s.addrs.remove(&k);
                }
            }
        });
    }

    /// A table is to be opened for `ip` (None: by the server's own caller): allowed, or why
    /// not. Every table allowed is let go with [`Guard::table_closed`].
    pub fn open_table(&self, ip: Option<IpAddr>) -> Result<(), String> {
        self.with(|s| {
            if self.memory_used(s) + TABLE_BYTES > self.limits.memory {
                return Err(
                    "the server has no room for another table now; try again later".into(),
                );
            }
            if let Some(ip) = ip {
                let a = s.addrs.entry(key(ip)).or_default();
                if a.tables >= self.limits.tables_per_addr {
                    return Err(format!(
                        "this address has {} tables open, the most one address may keep; finish or leave one first",
                        a.tables
                    ));
                }
                a.tables += 1;
            }
            s.tables += 1;
            Ok(())
        })
    }

    pub fn table_closed(&self, ip: Option<IpAddr>) {
        let now = Instant::now();
        self.with(|s| {
            s.tables = s.tables.saturating_sub(1);
            if let Some(ip) = ip {
                let k = key(ip);
                if let Some(a) = s.addrs.get_mut(&k) {
                    a.tables = a.tables.saturating_sub(1);
                    if a.idle(now, self.limits.strike_window) {
                        s.addrs.remove(&k);
                    }
                }
            }
        });
    }

    /// `ip` asked for a table that does not exist: a strike. True when that shuts the address
    /// out (its connections are to be ended).
    pub fn unknown_code(&self, ip: IpAddr) -> bool {
        let now = Instant::now();
        self.with(|s| {
            let a = s.addrs.entry(key(ip)).or_default();
            if a.strikes_since
                .is_none_or(|t| now.duration_since(t) > self.limits.strike_window)
            {
                a.strikes = 0;
                a.strikes_since = Some(now);
            }
            a.strikes += 1;
            if a.strikes > self.limits.unknown_codes {
                a.shut_until = Some(now + self.limits.shut_out);
                return true;
            }
            false
        })
    }

    /// Whether `ip` is shut out now.
    pub fn shut_out(&self, ip: IpAddr) -> bool {
        let now = Instant::now();
        self.with(|s| {
            s.addrs
                .get(&key(ip))
                .and_then(|a| a.shut_until)
                .is_some_and(|t| t > now)
        })
    }

    /// Connections and tables the server holds now.
    pub fn counts(&self) -> (usize, usize) {
        self.with(|s| (s.conns, s.tables))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse()
            .unwrap_or(IpAddr::V4(std::net::Ipv4Addr::LOCALHOST))
    }

    #[test]
    fn an_ipv6_network_counts_as_one_address() {
        let g = Guard::new(Limits {
            conns_per_addr: 2,
            ..Limits::default()
        });
        assert!(g.admit(ip("2001:db8::1")).is_ok());
        assert!(g.admit(ip("2001:db8::2")).is_ok());
        assert!(g.admit(ip("2001:db8::3")).is_err());
        assert!(g.admit(ip("2001:db8:0:1::1")).is_ok());
        g.conn_closed(ip("2001:db8::1"));
        assert!(g.admit(ip("2001:db8::4")).is_ok());
    }

    #[test]
    fn the_memory_budget_counts_tables_and_connections() {
        let g = Guard::new(Limits {
            memory: 2 * TABLE_BYTES + CONN_BYTES,
            ..Limits::default()
        });
        assert!(g.open_table(None).is_ok());
        assert!(g.admit(ip("10.0.0.1")).is_ok());
        assert!(g.open_table(Some(ip("10.0.0.1"))).is_ok());
        assert!(g.open_table(None).is_err());
        assert!(g.admit(ip("10.0.0.2")).is_err());
        g.table_closed(None);
        assert!(g.open_table(None).is_ok());
    }
}
