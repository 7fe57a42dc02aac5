//! Two runs' figures compared by their 95% intervals, as `farebox test` and the Studio
//! compare a run with the accepted outcomes.
//!
//! A figure has *changed* when its interval in the new run and its interval in the accepted
//! run do not overlap: for two figures of equal spread that is a difference of about 2.8
//! standard errors of either, so among the hundred or more figures of a run with per-card
//! figures, chance alone seldom marks one. A figure that moved less is *open*: more games
//! would settle it. Intervals shrink as one over the square root of the games, so if the
//! difference `d` held, runs of `n·((h₁+h₂)/d)²` games (`h` the intervals' half-widths over
//! `n` games) would no longer overlap; the difference from `n` is the "more games" said.
//! The exact replay of seeded games is a separate check (the transcripts and replays).
//!
//! When the accepted outcomes keep each game's record ([`crate::paired`]) and the new run
//! played the same seeds, the figures that are one number per game (each seat's win rate,
//! the first mover's, the mean length in turns) are compared seed by seed instead: the
//! paired difference and its 95% interval, and a figure has changed when that interval leaves
//! out 0. Pairing takes out the luck both runs share, so the same games settle smaller changes.

use farebox::figures::{ContentFigure, mean_interval, wilson};

use farebox::figures::Stats;

/// One figure on both sides.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    pub name: String,
    /// A share (shown as a percentage) rather than a mean.
    pub rate: bool,
    pub accepted: f64,
    pub accepted_interval: [f64; 2],
    pub now: f64,
    pub now_interval: [f64; 2],
    /// The difference paired by seed, where both runs have each game's record.
    pub paired: Option<crate::paired::Diff>,
}

/// How a figure stands.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Verdict {
    /// Equal (to a billionth).
    Same,
    /// Different, but the intervals overlap: about this many more games (on both sides)
    /// would settle it, if the difference held.
    Open { more_games: u64 },
    /// The intervals do not overlap.
    Changed,
}

/// The verdict on `f`, over runs of `games` games.
pub fn verdict(f: &Figure, games: u64) -> Verdict {
    let d = (f.now - f.accepted).abs();
    if d <= 1e-9 * f.accepted.abs().max(1.0) && f.paired.is_none_or(|p| p.mean == 0.0) {
        return Verdict::Same;
    }
    if let Some(p) = &f.paired {
        return if p.settled() {
            Verdict::Changed
        } else {
            Verdict::Open {
                more_games: p.more_games(),
            }
        };
    }
    let [a_lo, a_hi] = f.accepted_interval;
    let [n_lo, n_hi] = f.now_interval;
    if n_lo > a_hi || a_lo > n_hi {
        return Verdict::Changed;
    }
    let h = (a_hi - a_lo) / 2.0 + (n_hi - n_lo) / 2.0;
    let n = games.max(1) as f64;
    let needed = n * (h / d).powi(2);
    Verdict::Open {
        more_games: (needed - n).ceil().clamp(1.0, 1e12) as u64,
    }
}

impl Figure {
    /// "Red win rate 48.2% (44.0-52.4%) -> 55.0% (50.6-59.3%)".
    pub fn describe(&self) -> String {
        let show = |x: f64, [lo, hi]: [f64; 2]| {
            if self.rate {
                format!("{:.1}% ({:.1}-{:.1}%)", x * 100.0, lo * 100.0, hi * 100.0)
            } else {
                format!("{x:.2} ({lo:.2}-{hi:.2})")
            }
        };
        let mut line = format!(
            "{}: accepted {}, now {}",
            self.name,
            show(self.accepted, self.accepted_interval),
            show(self.now, self.now_interval)
        );
        if let Some(p) = &self.paired {
            let unpaired = self.unpaired_half();
            let d = self.now - self.accepted;
            let (lo, hi, unit) = if self.rate {
                ((d - unpaired) * 100.0, (d + unpaired) * 100.0, " pts")
            } else {
                (d - unpaired, d + unpaired, "")
            };
            let digits = if self.rate { 1 } else { 2 };
            line.push_str(&format!(
                "; change {} paired by seed over {} games, {lo:+.digits$} to {hi:+.digits$}{unit} unpaired",
                crate::paired::text(self.rate, p),
                p.games
            ));
        }
        line
    }

    /// The half-width of the 95% interval of the difference as if the two runs were
    /// independent: `√(h_a² + h_b²)` from each side's half-width.
    pub fn unpaired_half(&self) -> f64 {
        let h = |[lo, hi]: [f64; 2]| (hi - lo) / 2.0;
        h(self.accepted_interval).hypot(h(self.now_interval))
    }
}

/// Every figure the two runs both have, with its interval on each side. Runs are of the
/// same settings, so of the same number of games.
// One piece: a list of figures in the order they are reported, each one or two calls of the
// same `share` and `mean` closures that push onto one list.
pub fn figures(def: &farebox::GameDef, a: &Stats, b: &Stats) -> Vec<Figure> {
    let mut out = Vec::new();
    let mut share = |name: String, ka: usize, na: usize, kb: usize, nb: usize| {
        if let (Some(ia), Some(ib)) = (wilson(ka as u64, na as u64), wilson(kb as u64, nb as u64)) {
            out.push(Figure {
                name,
                rate: true,
                accepted: ka as f64 / na.max(1) as f64,
                accepted_interval: ia,
                now: kb as f64 / nb.max(1) as f64,
                now_interval: ib,
                paired: None,
            });
        }
    };
    share(
        "games finished".into(),
        a.finished,
        a.games,
        b.finished,
        b.games,
    );
    share("games capped".into(), a.capped, a.games, b.capped, b.games);
    share(
        "games with errors".into(),
        a.errors,
        a.games,
        b.errors,
        b.games,
    );
    let seats = a.win_rate.len().min(b.win_rate.len());
    for s in 0..seats {
        let wins = |st: &Stats| (st.win_rate[s] * st.finished as f64).round() as usize;
        share(
            format!("{} win rate", def.seat_name(s)),
            wins(a),
            a.finished,
            wins(b),
            b.finished,
        );
    }
    if let (Some(ta), Some(tb)) = (a.ties, b.ties) {
        share("tie rate".into(), ta, a.finished, tb, b.finished);
    }
    let mut reasons: Vec<&String> = a.endings.keys().chain(b.endings.keys()).collect();
    reasons.sort();
    reasons.dedup();
    for r in reasons {
        let count = |st: &Stats| st.endings.get(r).copied().unwrap_or(0);
        share(
            format!("games ending \"{}\"", crate::common::cut(r, 60)),
            count(a),
            a.finished,
            count(b),
            b.finished,
        );
    }
    let clean = |st: &Stats| st.games.saturating_sub(st.errors) as u64;
    let mut mean = |name: String, ma: f64, sa: f64, na: u64, mb: f64, sb: f64, nb: u64| {
        if let (Some(ia), Some(ib)) = (mean_interval(ma, sa, na), mean_interval(mb, sb, nb)) {
            out.push(Figure {
                name,
                rate: false,
                accepted: ma,
                accepted_interval: ia,
                now: mb,
                now_interval: ib,
                paired: None,
            });
        }
    };
    mean(
        "mean length in turns".into(),
        a.turns_mean,
        a.turns_sd,
        clean(a),
        b.turns_mean,
        b.turns_sd,
        clean(b),
    );
    mean(
        "mean length in actions".into(),
        a.actions_mean,
        a.actions_sd,
        clean(a),
        b.actions_mean,
        b.actions_sd,
        clean(b),
    );
    for s in 0..a.score_mean.len().min(b.score_mean.len()) {
        let sd = |st: &Stats| st.score_sd.get(s).copied().unwrap_or(0.0);
        mean(
            format!("{} mean score", def.seat_name(s)),
            a.score_mean[s],
            sd(a),
            a.finished as u64,
            b.score_mean[s],
            sd(b),
            b.finished as u64,
        );
    }
    let (fa, fb) = (&a.figures, &b.figures);
    let mut interval = |name: String,
                        rate: bool,
                        x: (Option<f64>, Option<[f64; 2]>),
                        y: (Option<f64>, Option<[f64; 2]>)| {
        if let ((Some(va), Some(ia)), (Some(vb), Some(ib))) = (x, y) {
            out.push(Figure {
                name,
                rate,
                accepted: va,
                accepted_interval: ia,
                now: vb,
                now_interval: ib,
                paired: None,
            });
        }
    };
    interval(
        "first mover win rate".into(),
        true,
        (fa.first_mover_win_rate, fa.first_mover_win_rate_interval),
        (fb.first_mover_win_rate, fb.first_mover_win_rate_interval),
    );
    interval(
        "lead changes a game".into(),
        false,
        (fa.lead_changes_mean, fa.lead_changes_interval),
        (fb.lead_changes_mean, fb.lead_changes_interval),
    );
    interval(
        "how far in the winner took the lead for good".into(),
        true,
        (fa.winner_took_lead_at, fa.winner_took_lead_at_interval),
        (fb.winner_took_lead_at, fb.winner_took_lead_at_interval),
    );
    for (name, sa) in &fa.stats {
        if let Some(sb) = fb.stats.get(name) {
            interval(
                format!("stat {name}"),
                false,
                (Some(sa.mean), Some(sa.interval)),
                (Some(sb.mean), Some(sb.interval)),
            );
        }
    }
    for (what, ma, mb) in [
        ("card", &fa.cards, &fb.cards),
        ("tile", &fa.tiles, &fb.tiles),
        ("piece", &fa.pieces, &fb.pieces),
        ("option", &fa.options, &fb.options),
    ] {
        for (key, ca) in ma {
            let Some(cb) = mb.get(key) else { continue };
            let pairs: [(&str, RateOf); 2] = [
                ("held", |c| (c.win_rate_held, c.win_rate_held_interval)),
                ("played", |c| {
                    (c.win_rate_played, c.win_rate_played_interval)
                }),
            ];
            for (how, f) in pairs {
                interval(
                    format!("win rate of seats that {how} {what} {key}"),
                    true,
                    f(ca),
                    f(cb),
                );
            }
        }
    }
    out
}

/// A rate and its interval, read from a content figure.
type RateOf = fn(&ContentFigure) -> (Option<f64>, Option<[f64; 2]>);

/// What a comparison came to: the changed figures and the open ones (with the games that
/// would settle each), each as a line for people.
#[derive(Debug, Default)]
pub struct Comparison {
    pub changed: Vec<String>,
    pub open: Vec<(String, u64)>,
    /// Figures only one side has (an old snapshot has no per-card figures, say).
    pub one_sided: usize,
    /// The games the figures that are one number per game were paired over, seed by seed
    /// (None: compared as two independent runs).
    pub paired: Option<u64>,
    /// Each figure compared seed by seed, as a line for people with its verdict (the changed
    /// and open ones are in `changed` and `open` too).
    pub paired_lines: Vec<String>,
}

/// Compares `now` with `accepted` (runs of `games` games each). Errors that appear where
/// there were none count as a change however few. With `pairs`, each game's record of the
/// two runs (the same seeds in the same order), the figures that are one number per game are
/// judged by their difference paired by seed.
pub fn compare(
    def: &farebox::GameDef,
    accepted: &Stats,
    now: &Stats,
    games: u64,
    pairs: Option<(&[crate::paired::Game], &[crate::paired::Game])>,
) -> Comparison {
    let mut c = Comparison::default();
    let errors_appear = (accepted.errors == 0) != (now.errors == 0);
    if errors_appear {
        c.changed.push(format!(
            "errors: accepted {}, now {}",
            accepted.errors, now.errors
        ));
    }
    let mut figs = figures(def, accepted, now);
    if let Some((a, b)) = pairs {
        let seats = accepted.win_rate.len().min(now.win_rate.len());
        let diffs = crate::paired::diffs(a, b, seats as u8);
        c.paired = Some(a.len().min(b.len()) as u64);
        pair_figures(def, &mut figs, &diffs);
    }
    for f in figs
        .iter()
        .filter(|f| !(errors_appear && f.name == "games with errors"))
    {
        match verdict(f, games) {
            Verdict::Same => {}
            Verdict::Changed => c.changed.push(f.describe()),
            Verdict::Open { more_games } => c.open.push((f.describe(), more_games)),
        }
    }
    c.paired_lines = figs
        .iter()
        .filter(|f| f.paired.is_some())
        .map(|f| match verdict(f, games) {
            Verdict::Changed => format!("{} (changed)", f.describe()),
            Verdict::Open { more_games } => {
                format!(
                    "{} (about {more_games} more games would settle it)",
                    f.describe()
                )
            }
            Verdict::Same => format!("{} (the same)", f.describe()),
        })
        .collect();
    c.open.sort_by_key(|(_, more)| *more);
    let content = |st: &Stats| {
        st.figures.cards.len()
            + st.figures.tiles.len()
            + st.figures.pieces.len()
            + st.figures.options.len()
    };
    c.one_sided = content(accepted).abs_diff(content(now));
    c
}

/// Puts each paired difference on the figure of its name in `figs`.
pub fn pair_figures(
    def: &farebox::GameDef,
    figs: &mut [Figure],
    diffs: &[(crate::paired::Which, crate::paired::Diff)],
) {
    use crate::paired::Which;
    for (which, d) in diffs {
        let name = match which {
            Which::Win(s) => format!("{} win rate", def.seat_name(*s)),
            Which::FirstMover => "first mover win rate".to_string(),
            Which::Turns => "mean length in turns".to_string(),
        };
        if let Some(f) = figs.iter_mut().find(|f| f.name == name) {
            f.paired = Some(*d);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fig(a: f64, ia: [f64; 2], b: f64, ib: [f64; 2]) -> Figure {
        Figure {
            name: "x".into(),
            rate: true,
            accepted: a,
            accepted_interval: ia,
            now: b,
            now_interval: ib,
            paired: None,
        }
    }

    #[test]
    fn changed_only_beyond_the_intervals() {
        assert_eq!(
            verdict(&fig(0.5, [0.4, 0.6], 0.5, [0.4, 0.6]), 100),
            Verdict::Same
        );
        assert_eq!(
            verdict(&fig(0.5, [0.45, 0.55], 0.7, [0.65, 0.75]), 100),
            Verdict::Changed
        );
        // 0.1 apart, half-widths 0.1 each: (0.2 / 0.1)^2 = 4 times the games, 300 more.
        assert_eq!(
            verdict(&fig(0.5, [0.4, 0.6], 0.6, [0.5, 0.7]), 100),
            Verdict::Open { more_games: 300 }
        );
    }

    #[test]
    fn wilson_intervals_of_real_counts_decide() {
        // 260 of 500 against 300 of 500: 52% (47.6-56.4%) and 60% (55.6-64.2%) overlap.
        let a = wilson(260, 500).unwrap();
        let b = wilson(300, 500).unwrap();
        assert!(matches!(
            verdict(&fig(0.52, a, 0.6, b), 500),
            Verdict::Open { .. }
        ));
        // 200 of 500 against 300 of 500 do not.
        let a = wilson(200, 500).unwrap();
        assert_eq!(verdict(&fig(0.4, a, 0.6, b), 500), Verdict::Changed);
    }
}
