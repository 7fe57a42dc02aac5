//! Two agents over many two-seat games, seats alternating: how the search bot's strength and
//! decision times are measured (`farebox bench MOD --search SPEC`, the `search` bench).
//!
//! Times are taken per decision of the first agent that had a real choice (more than one
//! action): wall time, and the thread's own CPU time where the system tells it
//! (`/proc/thread-self/schedstat` on Linux), which a busy machine disturbs far less. Times
//! only measure: no choice depends on them.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::agent::{Agent, AgentSpec};
use crate::content::GameDef;
use crate::game::{Game, Setup};

/// What a duel found.
#[derive(Debug, Clone, Default)]
pub struct Duel {
    pub games: u32,
    /// Games the first agent won. A tie for first counts as a win for each tied seat, as in
    /// every figure Farebox gives (`GameResult::is_tie`); ties are counted apart too. In a
    /// cooperative game, a game won together.
    pub wins: u32,
    /// Finished games that were ties.
    pub ties: u32,
    /// Games that did not end within the action cap, or failed.
    pub unfinished: u32,
    /// The first agent's decisions with a real choice: wall time and CPU time.
    pub wall: Vec<Duration>,
    pub cpu: Vec<Duration>,
    /// Games that failed (a script error or a limit reached in the game itself, or no legal
    /// action), counted among the unfinished ones, and the first error met.
    pub failed: u32,
    pub error: Option<String>,
    /// What failed in the search bots' playouts (both agents', when both search): the games
    /// played on, and this says so.
    pub playout_failures: crate::search::Failures,
    /// When the first agent is the search bot with a scripted policy: its decisions, and how
    /// many of them left the bot's choice.
    pub departures: Option<(u32, u32)>,
    /// Actions the search bots took in their playouts, and the bytes hashed to tell positions
    /// apart over the whole duel ([`crate::state::hashed_bytes`]): their ratio should not
    /// grow with what the game holds.
    pub playout_actions: u64,
    pub hashed: u64,
}

impl Duel {
    /// Bytes hashed a playout action (0 without playouts).
    pub fn hashed_per_action(&self) -> u64 {
        self.hashed.checked_div(self.playout_actions).unwrap_or(0)
    }

    /// The first agent's score as a share of the games, 0 to 1.
    pub fn share(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            f64::from(self.wins) / f64::from(self.games)
        }
    }

    /// A 95% Wilson interval of the share.
    pub fn interval(&self) -> (f64, f64) {
        let n = f64::from(self.games.max(1));
        let p = self.share();
        let z = 1.96;
        let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
        let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
        ((centre - half).max(0.0), (centre + half).min(1.0))
    }

    /// Median and worst of `times`.
    pub fn median_worst(times: &[Duration]) -> (Duration, Duration) {
        let mut t = times.to_vec();
        t.sort();
        (
            t.get(t.len() / 2).copied().unwrap_or_default(),
            t.last().copied().unwrap_or_default(),
        )
    }

    /// One line: "search:100 vs dispatcher: won 13 of 20 games (65.0%, 95% 43-82%, 2 ties
    /// won by both); 830 decisions, median 210 ms, worst 690 ms (CPU; wall 230 / 910 ms)".
    pub fn summary(&self, first: &str, second: &str) -> String {
        let (lo, hi) = self.interval();
        let (mc, wc) = Duel::median_worst(&self.cpu);
        let (mw, ww) = Duel::median_worst(&self.wall);
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        let cpu = if self.cpu.is_empty() {
            String::new()
        } else {
            format!(
                "median {:.0} ms, worst {:.0} ms of CPU; wall ",
                ms(mc),
                ms(wc)
            )
        };
        let failures = &self.playout_failures;
        let playout_errors = if failures.errors > 0 {
            format!(
                "; {} {} in {} playouts (each ended where it failed)",
                failures.errors,
                if failures.errors == 1 {
                    "error"
                } else {
                    "errors"
                },
                failures.playouts
            )
        } else {
            String::new()
        };
        let hashed = if self.playout_actions > 0 {
            format!(
                "; {} bytes of state hashed a playout action",
                self.hashed_per_action()
            )
        } else {
            String::new()
        };
        let departed = match self.departures {
            Some((d, o)) if d > 0 => format!(
                "; left its playout bot's choice in {o} of {d} decisions ({:.0}%)",
                100.0 * f64::from(o) / f64::from(d)
            ),
            _ => String::new(),
        };
        format!(
            "{first} vs {second}: won {} of {} games ({:.1}%, 95% {:.0}-{:.0}%{}{}); {} decisions, {cpu}median {:.0} ms, worst {:.0} ms{departed}{hashed}{playout_errors}",
            self.wins,
            self.games,
            100.0 * self.share(),
            100.0 * lo,
            100.0 * hi,
            if self.ties > 0 {
                format!(
                    ", {} {} won by both",
                    self.ties,
                    if self.ties == 1 { "tie" } else { "ties" }
                )
            } else {
                String::new()
            },
            match (self.unfinished, self.failed) {
                (0, _) => String::new(),
                (u, 0) => format!(", {u} unfinished"),
                (u, f) => format!(", {u} unfinished, {f} of them failed with an error"),
            },
            self.wall.len(),
            ms(mw),
            ms(ww),
        )
    }
}

/// Plays `games` two-seat games of `def` (seeds `first_seed..`), `first` against `second`,
/// `first` in seat 1 in odd games and seat 2 in even ones; at most `cap` actions a game.
/// A game that fails counts as unfinished (and as a loss for nobody).
pub fn duel(
    def: &Arc<GameDef>,
    setup: &Setup,
    first: &str,
    second: &str,
    games: u32,
    cap: u32,
) -> Result<Duel, String> {
    let specs = [
        AgentSpec::parse(first, def)?,
        AgentSpec::parse(second, def)?,
    ];
    duel_of(def, setup, specs, games, cap)
}

/// [`duel`] of two agents already made: `specs[0]` in seat 1 in odd games and seat 2 in even
/// ones. The analyses that need an agent no name makes (the search bot that sees every
/// secret, [`AgentSpec::seeing_every_secret`]) come here.
pub fn duel_of(
    def: &Arc<GameDef>,
    setup: &Setup,
    specs: [AgentSpec; 2],
    games: u32,
    cap: u32,
) -> Result<Duel, String> {
    let mut out = Duel {
        games,
        ..Duel::default()
    };
    let hashed = crate::state::hashed_bytes();
    for g in 0..games {
        let me = (g % 2) as u8;
        let mut su = setup.clone();
        su.seats = 2;
        su.seed = setup.seed.wrapping_add(u64::from(g));
        let mut agents: Vec<Agent> = (0..2u8)
            .map(|s| specs[usize::from(s != me)].agent(su.seed, s))
            .collect();
        let mut game = match Game::new(def.clone(), su) {
            Ok(g) => g,
            Err(e) => return Err(e.to_string()),
        };
        let mut failed = false;
        while !game.is_over() && (game.history().len() as u32) < cap {
            let actions = match game.legal_actions() {
                Ok(a) if !a.is_empty() => a,
                Ok(_) => {
                    out.error.get_or_insert(format!(
                        "seat {} has no legal action, and the game is not over (seed {})",
                        game.active() + 1,
                        game.setup().seed
                    ));
                    failed = true;
                    break;
                }
                Err(e) => {
                    out.error.get_or_insert(e.to_string());
                    failed = true;
                    break;
                }
            };
            let seat = game.active();
            let (wall, cpu) = (Instant::now(), thread_cpu());
            let pick = agents[seat as usize].choose(&mut game, &actions);
            if seat == me && actions.len() > 1 {
                out.wall.push(wall.elapsed());
                if let (Some(a), Some(b)) = (cpu, thread_cpu()) {
                    out.cpu.push(b.saturating_sub(a));
                }
            }
            let applied = match pick {
                Ok(i) if i < actions.len() => {
                    game.apply_legal(&actions[i]).map_err(|e| e.to_string())
                }
                Ok(_) => Err("an agent chose past the list".to_string()),
                Err(e) => Err(e.to_string()),
            };
            if let Err(e) = applied {
                out.error.get_or_insert(e);
                failed = true;
                break;
            }
        }
        out.playout_failures
            .add(&crate::agent::playout_failures(&agents));
        for a in &agents {
            if let Agent::Search(s) = a {
                out.playout_actions = out.playout_actions.saturating_add(s.playout_actions());
            }
        }
        if let Agent::Search(s) = &agents[me as usize]
            && matches!(s.policy(), crate::search::Policy::Bot(_))
        {
            let (d, o) = s.departures();
            let (a, b) = out.departures.unwrap_or((0, 0));
            out.departures = Some((a + d, b + o));
        }
        if failed {
            out.failed += 1;
        }
        match game.result() {
            Some(r) if !failed => {
                out.wins += u32::from(r.winners().contains(&usize::from(me)));
                out.ties += u32::from(r.is_tie());
            }
            _ => out.unfinished += 1,
        }
    }
    out.hashed = crate::state::hashed_bytes().saturating_sub(hashed);
    Ok(out)
}

/// The CPU time this thread has used, where the system says (Linux: the first field of
/// `/proc/thread-self/schedstat`, in nanoseconds).
pub fn thread_cpu() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_interval_holds_the_share_and_narrows_with_games() {
        let few = Duel {
            games: 10,
            wins: 5,
            ..Duel::default()
        };
        let many = Duel {
            games: 1000,
            wins: 500,
            ..Duel::default()
        };
        let (a, b) = few.interval();
        let (c, d) = many.interval();
        assert!(a < 0.5 && 0.5 < b);
        assert!(c < 0.5 && 0.5 < d);
        assert!(d - c < (b - a) / 5.0, "{a} {b} {c} {d}");
    }
}
