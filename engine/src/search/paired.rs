//! The root of a search whose playouts a scripted bot plays: a few candidates, compared on
//! the same imagined games.
//!
//! With a scripted playout bot the tree search left the bot's own choice in 0 to 6% of
//! decisions and scored what the bot scores: at 20-200 playouts over 10-30 root actions each
//! action got one to a few cut playouts, whose values differ more from one imagined game to
//! the next than from one action to another. So when the playout policy is a bot, the root
//! works as a paired comparison instead:
//!
//! 1. **Candidates.** The bot's choice (the prior), and the [`CANDIDATES`] - 1 other allowed
//!    actions valued highest one action ahead on the first determinization (the game just
//!    after the action, judged as a cut playout is: the `evaluate` hook, else the scores).
//! 2. **Rounds.** Each round takes a fresh determinization and plays every candidate from it:
//!    the action, then the bot for every seat, up to [`super::DEPTH`] actions from the root,
//!    with the same random numbers for each (the determinization's generator and the policy's
//!    are seeded alike for every candidate), then judges the end for the seat. Every
//!    candidate's playout counts against the budget, so `search:N` plays about N playouts, as
//!    the tree search did. A budget of fewer than [`MIN_ROUNDS`] rounds of every candidate
//!    compares fewer candidates (`search:8`: the bot's choice and the best other, four rounds).
//! 3. **Choice.** For each other candidate, the mean and standard error of its value minus the
//!    bot's choice's, round by round. The search leaves the bot's choice only for the
//!    candidate whose mean difference is highest after taking off its one-sided t margin
//!    (5% shared among the candidates it is compared with, see [`t_quantile`]), and only when that
//!    is above 0: a move is played over the bot's only when the same
//!    imagined games say it does better. A budget below two candidates of [`MIN_ROUNDS`]
//!    rounds keeps the bot's choice, so `search:1` to `search:7` play as the bot.
//!
//! Pairing is what makes so few playouts a candidate tell moves apart: the dice, the deal and
//! the other seats' bot choices are the same in both games of a pair until the candidates'
//! effects make them differ, so what differs is mostly the move (issue 43's paired figures
//! work the same way). Measured in `docs/architecture/search-bot.md`.

use super::{DEPTH, Here, Policy, Search, judge, mix};
use crate::game::Game;
use crate::rng::Rng;
use crate::script::Host;

/// Candidates compared at the root, the bot's choice among them.
pub const CANDIDATES: usize = 4;

/// Rounds a comparison needs: a budget too small for this many rounds of every candidate
/// compares fewer candidates, and one too small for two keeps the bot's choice. With two or
/// three rounds the spread of the differences is itself a guess, and Dicey Curves' `search:8`
/// (two rounds of four) left its bot's move in 10% of decisions and won 5 of 20 races against
/// the Racer where the bot's own moves won 8.
pub const MIN_ROUNDS: usize = 4;

/// One candidate: its index in `allowed` and its values round by round.
struct Candidate {
    at: usize,
    values: Vec<f64>,
}

impl Search {
    /// The paired root (see the module): `first` is the first determinization, `allowed` the
    /// indices of `actions` the search may take, `prior` the bot's choice among `allowed`.
    /// Returns the chosen index into `allowed`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn paired(
        &self,
        game: &Game,
        mut first: Game,
        actions: &[String],
        allowed: &[usize],
        prior: usize,
        id: &str,
        here: Here,
    ) -> usize {
        let seat = game.active();
        let room = (self.playouts as usize / MIN_ROUNDS).min(CANDIDATES);
        if room < 2 {
            return prior;
        }
        let mut cands = self.candidates(&mut first, actions, allowed, prior, room, here);
        let rounds = self.playouts as usize / cands.len().max(1);
        let mut vm: Option<Host> = Some(first.into_host());
        for r in 0..rounds {
            let playout = u32::try_from(r).unwrap_or(u32::MAX);
            let seed = mix(mix(self.seed, here.decision), u64::from(playout));
            let here = Here {
                playout: playout.saturating_add(1),
                ..here
            };
            let copy = if self.sees_all {
                game.seen_whole(seed, vm.take())
            } else {
                game.determinized_on(seat, seed, vm.take())
            };
            let mut copy = match copy {
                Ok(c) => c,
                Err(e) => {
                    self.failed(e, here, 0);
                    continue;
                }
            };
            let mut ok = true;
            for c in &mut cands {
                {
                    let mut f = self.failures.borrow_mut();
                    f.playouts = f.playouts.saturating_add(1);
                }
                let mut rng = Rng::new(seed, 7);
                let action = &actions[allowed[c.at]];
                let out = copy.trial(action, |g| self.play_on(g, id, seat, &mut rng, here));
                match out {
                    Ok((v, fine)) => {
                        ok &= fine;
                        c.values.push(v);
                    }
                    Err(e) => {
                        self.failed(e, here, 0);
                        ok = false;
                    }
                }
            }
            // Rounds where a candidate could not be played are left out of every candidate,
            // so the values stay paired.
            let n = cands.iter().map(|c| c.values.len()).min().unwrap_or(0);
            for c in &mut cands {
                c.values.truncate(n);
            }
            if ok {
                vm = Some(copy.into_host());
            }
        }
        choose(&cands, prior)
    }

    /// The bot's choice first, then the other allowed actions valued highest one action ahead
    /// on `first`, up to `room` in all (ties in the order of the actions).
    fn candidates(
        &self,
        first: &mut Game,
        actions: &[String],
        allowed: &[usize],
        prior: usize,
        room: usize,
        here: Here,
    ) -> Vec<Candidate> {
        let seat = first.active();
        let mut valued: Vec<(f64, usize)> = Vec::new();
        for (i, &k) in allowed.iter().enumerate() {
            if i == prior {
                continue;
            }
            let v = first.trial(&actions[k], |g| {
                let v = judge(g, &mut |e| self.failed(e.into(), here, 1));
                v.get(seat as usize).copied().unwrap_or(0.5)
            });
            match v {
                Ok(v) => valued.push((v, i)),
                Err(e) => self.failed(e, here, 0),
            }
        }
        // Highest value first; equal values keep the actions' order (a stable sort).
        valued.sort_by(|a, b| b.0.total_cmp(&a.0));
        std::iter::once(prior)
            .chain(valued.into_iter().map(|(_, i)| i))
            .take(room)
            .map(|at| Candidate {
                at,
                values: Vec::new(),
            })
            .collect()
    }

    /// Plays `game` on with the bot `id` for every seat, up to [`DEPTH`] actions from the root
    /// (the candidate's action was the first), and judges it for `seat`. Returns the value and
    /// false when a call failed (the playout is judged where it stopped, as the tree search
    /// judges one).
    fn play_on(
        &self,
        game: &mut Game,
        id: &str,
        seat: u8,
        rng: &mut Rng,
        here: Here,
    ) -> (f64, bool) {
        let mut ok = true;
        let mut taken = 1;
        while taken < DEPTH && !game.is_over() {
            let Some(acts) = self.legal_or_failed(game, here, taken) else {
                ok = false;
                break;
            };
            let Some(pick) = self.bot_pick(game, id, &acts, rng, here, taken) else {
                ok = false;
                break;
            };
            if let Err(e) = game.apply_legal(&acts[pick]) {
                self.failed(e, here, taken);
                ok = false;
                break;
            }
            taken += 1;
            self.playout_actions
                .set(self.playout_actions.get().saturating_add(1));
        }
        let v = judge(game, &mut |e| self.failed(e.into(), here, taken));
        (v.get(seat as usize).copied().unwrap_or(0.5), ok)
    }

    /// Whether the paired root decides here: it was asked for (`search:N:BOT:paired`) and the
    /// playouts are a scripted bot's.
    pub(super) fn pairs_at_root(&self) -> Option<&str> {
        match &self.policy {
            Policy::Bot(id) if self.paired_root => Some(id),
            _ => None,
        }
    }
}

/// The candidate (an index into `allowed`) whose mean gain over the prior's, less its t
/// margin ([`lower_bound`]), is highest and above 0; else the prior.
fn choose(cands: &[Candidate], prior: usize) -> usize {
    let Some(base) = cands.iter().find(|c| c.at == prior) else {
        return prior;
    };
    let others = cands.len().saturating_sub(1);
    let mut best = (0.0, prior);
    for c in cands.iter().filter(|c| c.at != prior) {
        let d: Vec<f64> = c
            .values
            .iter()
            .zip(&base.values)
            .map(|(a, b)| a - b)
            .collect();
        let Some(low) = lower_bound(&d, others) else {
            continue;
        };
        if low > best.0 {
            best = (low, c.at);
        }
    }
    best.1
}

/// The mean of `d` less its one-sided Student's t margin at 5% shared among `others`
/// comparisons (Bonferroni): the false-departure rate a decision allows; None under two
/// values.
fn lower_bound(d: &[f64], others: usize) -> Option<f64> {
    if d.len() < 2 {
        return None;
    }
    let n = d.len() as f64;
    let mean = d.iter().sum::<f64>() / n;
    let var = d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    Some(mean - t_quantile(others, n - 1.0) * (var / n).sqrt())
}

/// Student's t at the one-sided level 5% / `others` with `df` degrees of freedom: the
/// normal quantile (1.645, 1.960 and 2.128 for one to three comparisons) widened by the
/// Cornish-Fisher series in 1/df, within about 1% of the exact value from 3 degrees of freedom.
fn t_quantile(others: usize, df: f64) -> f64 {
    let z: f64 = match others {
        0 | 1 => 1.644_854,
        2 => 1.959_964,
        _ => 2.128_045,
    };
    let (z3, z5, z7) = (z.powi(3), z.powi(5), z.powi(7));
    z + (z3 + z) / (4.0 * df)
        + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * df * df)
        + (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / (384.0 * df * df * df)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cand(at: usize, values: &[f64]) -> Candidate {
        Candidate {
            at,
            values: values.to_vec(),
        }
    }

    #[test]
    fn t_quantiles_are_close_to_the_tables() {
        // One-sided 5% and 2.5%: 2.132 and 2.776 at 4 df, 1.812 and 2.228 at 10, 1.697 at 30.
        for (others, df, want) in [
            (1, 4.0, 2.132),
            (2, 4.0, 2.776),
            (1, 10.0, 1.812),
            (2, 10.0, 2.228),
            (1, 30.0, 1.697),
        ] {
            let t = t_quantile(others, df);
            assert!(
                (t - want).abs() / want < 0.02,
                "{others} {df}: {t} against {want}"
            );
        }
    }

    #[test]
    fn the_prior_stays_unless_a_candidate_gains_beyond_its_noise() {
        let prior = cand(0, &[0.5, 0.5, 0.5, 0.5]);
        // Better in every pair: chosen.
        let steady = cand(1, &[0.6, 0.6, 0.7, 0.6]);
        assert_eq!(choose(&[prior, steady], 0), 1);
        // Better on average, but only by one lucky pair: the prior stays.
        let prior = cand(0, &[0.5, 0.5, 0.5, 0.5]);
        let lucky = cand(2, &[0.4, 0.4, 1.0, 0.45]);
        assert_eq!(choose(&[prior, lucky], 0), 0);
        // One pair is not enough to judge.
        assert_eq!(choose(&[cand(0, &[0.1]), cand(1, &[0.9])], 0), 0);
    }
}
