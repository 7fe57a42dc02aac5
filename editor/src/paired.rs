//! Two runs of the same seeds compared game by game. A game depends only on its seed and
//! settings, so two runs of one mod on the same seeds (an edit against the accepted outcomes,
//! a house rule against its game, a run with a card forbidden against the run) deal the same
//! cards and roll the same dice until the rules or the bots' choices part. The difference of
//! a figure that is one number per game is then best measured per seed: the mean of the
//! per-game differences `dᵢ = bᵢ − aᵢ`, with the 95% interval `mean ± 1.96·sd(d)/√n`, over the
//! games both runs finished. The luck both runs share cancels, so the interval is narrower
//! than that of two independent runs, `±√(h_a² + h_b²)` from each side's half-width.
//!
//! The accepted outcomes keep each game's record in a compact form ([`Record`]): per game the
//! seats that won and whether the seat that moved first won (one character for up to four
//! seats), and its length in turns (two characters up to 4,095 turns), a few hundred bytes for
//! the 200 games `farebox test --accept` plays by default.

use farebox::agent::Outcome;
use farebox::figures::{Welford, mean_interval};
use serde::{Deserialize, Serialize};

/// What one game came to, as far as the paired figures need it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Game {
    /// The seats that won (bit `s` for seat `s`; a tie for first is a win for each tied
    /// seat), and whether the seat that moved first won (None when no seat moved first), if
    /// the game finished.
    pub finished: Option<(u32, Option<bool>)>,
    /// Its length in turns, if it ended without an error.
    pub turns: Option<u32>,
}

impl Game {
    /// The record of outcome `o` (of a run that followed the figures, so `o` knows the seat
    /// that moved first).
    pub fn of(o: &Outcome) -> Game {
        let finished = o.result.as_ref().map(|r| {
            let winners = r.winners();
            let mask = winners
                .iter()
                .filter(|s| **s < 32)
                .fold(0u32, |m, s| m | (1 << s));
            let first = o
                .trace
                .as_ref()
                .and_then(|t| t.first_mover)
                .map(|f| winners.contains(&usize::from(f)));
            (mask, first)
        });
        Game {
            finished,
            turns: o.error.is_none().then_some(o.turns),
        }
    }
}

/// The records of a run's games, in seed order.
pub fn games(outcomes: &[Outcome]) -> Vec<Game> {
    outcomes.iter().map(Game::of).collect()
}

/// The per-game record the accepted outcomes keep, to pair a new run with them seed by seed.
/// `wins`: per game a fixed number of characters of the URL-safe base-64 alphabet (one for
/// up to four seats, two up to ten, three up to sixteen), the number `0` for a game that did
/// not finish, else `1 + 3·winners + first` (`winners` the seats that won, bit `s` for seat
/// `s`; `first` 0 when no seat moved first, 1 when it lost, 2 when it won). `turns`: per game
/// the same number of characters each, the number `0` for a game that ended in an error, else
/// its turns plus one.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Record {
    pub wins: String,
    pub turns: String,
}

const DIGITS: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Characters of base 64 needed for numbers up to `max`.
fn width(max: u64) -> usize {
    let mut w = 1;
    while w < 11 && max >= 1u64 << (6 * w) {
        w += 1;
    }
    w
}

fn put(out: &mut String, x: u64, w: usize) {
    for i in (0..w).rev() {
        out.push(char::from(DIGITS[((x >> (6 * i)) & 63) as usize]));
    }
}

/// The numbers of `text`, `w` characters each; None if it holds anything else.
fn take(text: &str, w: usize) -> Option<Vec<u64>> {
    let bytes = text.as_bytes();
    if w == 0 || !bytes.len().is_multiple_of(w) {
        return None;
    }
    bytes
        .chunks(w)
        .map(|c| {
            c.iter().try_fold(0u64, |x, b| {
                let d = DIGITS.iter().position(|d| d == b)? as u64;
                Some((x << 6) | d)
            })
        })
        .collect()
}

impl Record {
    /// The record of `games`, of a game of `seats` seats.
    pub fn of(games: &[Game], seats: u8) -> Record {
        let ww = width(3u64 << seats.min(32));
        let most = games.iter().filter_map(|g| g.turns).max().unwrap_or(0);
        let wt = width(u64::from(most) + 1);
        let mut wins = String::with_capacity(games.len() * ww);
        let mut turns = String::with_capacity(games.len() * wt);
        for g in games {
            let w = match g.finished {
                None => 0,
                Some((mask, first)) => {
                    let f = match first {
                        None => 0,
                        Some(false) => 1,
                        Some(true) => 2,
                    };
                    1 + 3 * u64::from(mask) + f
                }
            };
            put(&mut wins, w, ww);
            put(&mut turns, g.turns.map_or(0, |t| u64::from(t) + 1), wt);
        }
        Record { wins, turns }
    }

    /// The games this record holds, `games` of them of `seats` seats; why not, when it does
    /// not hold that many or holds something else.
    pub fn games(&self, games: u64, seats: u8) -> Result<Vec<Game>, String> {
        let n = usize::try_from(games).map_err(|_| "too many games".to_string())?;
        let ww = width(3u64 << seats.min(32));
        let bad = |what: &str, len: usize| {
            format!(
                "per_game.{what} holds {len} characters, which are not the record of {games} games of {seats} seats; accept the outcomes again with `farebox test --accept`"
            )
        };
        if self.wins.len() != n.saturating_mul(ww) {
            return Err(bad("wins", self.wins.len()));
        }
        let wins = take(&self.wins, ww).ok_or_else(|| bad("wins", self.wins.len()))?;
        let wt = self.turns.len().checked_div(n).unwrap_or(1).max(1);
        let turns = match take(&self.turns, wt) {
            Some(t) if t.len() == n => t,
            _ => return Err(bad("turns", self.turns.len())),
        };
        wins.iter()
            .zip(&turns)
            .map(|(&w, &t)| {
                let finished = match w {
                    0 => None,
                    w => {
                        let v = w - 1;
                        let mask = u32::try_from(v / 3)
                            .ok()
                            .filter(|m| u64::from(*m) >> seats.min(32) == 0)
                            .ok_or_else(|| bad("wins", self.wins.len()))?;
                        Some((mask, [None, Some(false), Some(true)][(v % 3) as usize]))
                    }
                };
                let turns = match t {
                    0 => None,
                    t => Some(u32::try_from(t - 1).map_err(|_| bad("turns", self.turns.len()))?),
                };
                Ok(Game { finished, turns })
            })
            .collect()
    }
}

/// A paired difference: the mean of the per-game differences (new minus old), its 95%
/// interval, and the games paired.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Diff {
    pub mean: f64,
    pub interval: [f64; 2],
    pub games: u64,
}

impl Diff {
    fn of(w: &Welford) -> Option<Diff> {
        let (mean, sd) = w.mean_sd();
        Some(Diff {
            mean,
            interval: mean_interval(mean, sd, w.count())?,
            games: w.count(),
        })
    }

    /// The interval's half-width.
    pub fn half(&self) -> f64 {
        (self.interval[1] - self.interval[0]) / 2.0
    }

    /// Whether the interval leaves out no change at all.
    pub fn settled(&self) -> bool {
        self.interval[0] > 0.0 || self.interval[1] < 0.0
    }

    /// About how many more games (on both sides) would make the interval leave out 0, if
    /// the difference held: intervals shrink as one over the square root of the games.
    pub fn more_games(&self) -> u64 {
        let n = self.games.max(1) as f64;
        let d = self.mean.abs();
        if d <= 0.0 {
            return 1_000_000_000_000;
        }
        let needed = n * (self.half() / d).powi(2);
        (needed - n).ceil().clamp(1.0, 1e12) as u64
    }
}

/// Which figure a paired difference is of: the names [`crate::compare`] gives them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Which {
    /// A seat's win rate (0-based seat).
    Win(usize),
    /// The win rate of the seat that moved first.
    FirstMover,
    /// The mean length in turns.
    Turns,
}

/// The paired differences `new − old` of every figure that is one number per game, seed by
/// seed over the games both runs finished (for the length: ended without an error). The two
/// lists are of the same seeds in the same order.
pub fn diffs(old: &[Game], new: &[Game], seats: u8) -> Vec<(Which, Diff)> {
    let mut win = vec![Welford::default(); usize::from(seats)];
    let (mut first, mut turns) = (Welford::default(), Welford::default());
    let one = |b: bool| f64::from(u8::from(b));
    for (a, b) in old.iter().zip(new) {
        if let (Some((ma, fa)), Some((mb, fb))) = (a.finished, b.finished) {
            for (s, w) in win.iter_mut().enumerate() {
                let won = |m: u32| s < 32 && m & (1 << s) != 0;
                w.add(one(won(mb)) - one(won(ma)));
            }
            if let (Some(fa), Some(fb)) = (fa, fb) {
                first.add(one(fb) - one(fa));
            }
        }
        if let (Some(ta), Some(tb)) = (a.turns, b.turns) {
            turns.add(f64::from(tb) - f64::from(ta));
        }
    }
    let mut out: Vec<(Which, Diff)> = win
        .iter()
        .enumerate()
        .filter_map(|(s, w)| Some((Which::Win(s), Diff::of(w)?)))
        .collect();
    out.extend(Diff::of(&first).map(|d| (Which::FirstMover, d)));
    out.extend(Diff::of(&turns).map(|d| (Which::Turns, d)));
    out
}

/// "+3.5 pts (-2.1 to +9.1)" for a rate, "+1.20 (-0.31 to +2.71)" for a mean.
pub fn text(rate: bool, d: &Diff) -> String {
    let [lo, hi] = d.interval;
    if rate {
        format!(
            "{:+.1} pts ({:+.1} to {:+.1})",
            d.mean * 100.0,
            lo * 100.0,
            hi * 100.0
        )
    } else {
        format!("{:+.2} ({lo:+.2} to {hi:+.2})", d.mean)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(mask: u32, first: Option<bool>, turns: u32) -> Game {
        Game {
            finished: Some((mask, first)),
            turns: Some(turns),
        }
    }

    #[test]
    fn a_record_reads_back_as_its_games() {
        let games = vec![
            g(0b01, Some(true), 12),
            g(0b10, Some(false), 4_000),
            g(0b11, None, 0),
            Game {
                finished: None,
                turns: None,
            },
        ];
        for seats in [2u8, 4, 5, 11, 16] {
            let r = Record::of(&games, seats);
            assert_eq!(r.games(4, seats), Ok(games.clone()), "{seats} seats: {r:?}");
        }
        // One character of wins and two of turns per game, at up to four seats.
        let r = Record::of(&games, 4);
        assert_eq!((r.wins.len(), r.turns.len()), (4, 8));
        assert!(r.games(5, 4).is_err());
        let broken = Record {
            wins: "A*AA".into(),
            ..r.clone()
        };
        assert!(broken.games(4, 4).is_err());
        // A mask with a seat the game does not have is refused.
        let wide = Record::of(&[g(0b100, None, 1)], 3);
        assert!(wide.games(1, 2).is_err());
    }

    #[test]
    fn differences_are_per_seed() {
        // Seat 1 wins every game before and after but one: the paired change is small and
        // its interval leaves out nothing but a change of one game in four.
        let old = vec![g(1, Some(true), 10); 4];
        let mut new = old.clone();
        new[0] = g(2, Some(false), 12);
        let d = diffs(&old, &new, 2);
        let win0 = d.iter().find(|(w, _)| *w == Which::Win(0)).map(|x| x.1);
        assert_eq!(win0.map(|d| d.mean), Some(-0.25));
        let turns = d.iter().find(|(w, _)| *w == Which::Turns).map(|x| x.1);
        assert_eq!(turns.map(|d| (d.mean, d.games)), Some((0.5, 4)));
        // The same games on both sides: no change, settled at nothing.
        let same = diffs(&old, &old, 2);
        assert!(same.iter().all(|(_, d)| d.mean == 0.0 && d.half() == 0.0));
    }
}
