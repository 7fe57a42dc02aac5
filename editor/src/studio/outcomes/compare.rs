//! The figures of a run side by side with the accepted ones (and the base game's): one row
//! per figure, how much each changed, and a one-line summary of what changed most.
//!
//! Win rates and means carry their 95% intervals (Wilson's for a rate, `mean ± 1.96·sd/√n`
//! for a mean), and such a figure counts as changed only when its intervals on the two
//! sides do not overlap, as `farebox test` decides ([`crate::compare`]); the others (counts
//! of games) keep a tolerance. Provisional figures, over the first games of a run (as few as
//! one), are judged by chance instead: a change counts only beyond [`CHANCE`] standard errors
//! of the figure over the games so far, the spread taken from the accepted outcomes where
//! there are some (a few games' own spread says little: one game's is 0).

use farebox::GameDef;

use farebox::figures::Stats;

/// What a figure measures, which decides how it is shown and what counts as a real change.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    /// A number of games.
    Count,
    /// A number of games that ended one way, shown with its share of all games.
    Ending,
    /// A share of games, 0 to 1.
    Rate,
    /// A mean or a standard deviation.
    Mean,
}

/// How far a figure moved from the accepted one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Change {
    /// Equal, as `farebox test` compares them.
    Same,
    /// Different (so `farebox test` fails), but within a small tolerance.
    Slight,
    /// Beyond the tolerance, but provisional figures could be that far off by chance alone
    /// (over the few games played so far).
    Chance,
    /// Moved, but within the 95% intervals: about this many more games would settle it.
    Open(u64),
    /// Beyond the tolerance, or beyond the 95% intervals.
    Changed,
}

/// One line of the grid: a section heading when `kind` is None.
pub struct Row {
    pub label: String,
    /// How the figure reads in the summary ("Red win rate").
    pub short: String,
    pub kind: Option<Kind>,
    pub accepted: Option<f64>,
    pub now: Option<f64>,
    pub base: Option<f64>,
    /// The unit after a mean in the summary (" turns").
    pub unit: &'static str,
    /// Which changes the summary names first: lower first.
    pub rank: u8,
    /// For provisional figures, how far `now` could be off by chance over the games played
    /// so far (its standard error; infinite when nothing tells); 0 for final figures.
    pub noise: f64,
    /// The figures of `now` (and of the base game) are provisional: compared by `noise`.
    pub provisional: bool,
    /// The 95% intervals of the accepted, new and base figures, where the figure has them.
    pub intervals: [Option<[f64; 2]>; 3],
    /// The change from the accepted figure and from the base game's to the new one, paired
    /// by seed, where both sides have each game's record (final figures only).
    pub paired: [Option<crate::paired::Diff>; 2],
}

/// Which side of a row.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Side {
    Accepted = 0,
    Now = 1,
    Base = 2,
}

impl Row {
    fn noise(mut self, noise: f64) -> Row {
        self.noise = noise;
        self
    }

    fn intervals(mut self, f: impl Fn(usize) -> Option<[f64; 2]>) -> Row {
        self.intervals = [f(0), f(1), f(2)];
        self
    }

    pub fn value(&self, side: Side) -> Option<f64> {
        match side {
            Side::Accepted => self.accepted,
            Side::Now => self.now,
            Side::Base => self.base,
        }
    }

    pub fn interval(&self, side: Side) -> Option<[f64; 2]> {
        self.intervals[side as usize]
    }

    /// The change from `from` to `to` paired by seed, where there is one.
    pub fn paired(&self, from: Side, to: Side) -> Option<&crate::paired::Diff> {
        match (from, to) {
            (Side::Accepted, Side::Now) => self.paired[0].as_ref(),
            (Side::Base, Side::Now) => self.paired[1].as_ref(),
            _ => None,
        }
    }

    /// How the figure moved from `from` to `to` (None when a side lacks it), over runs of
    /// `games` games: for provisional figures by chance, else by the intervals where both
    /// sides have them.
    pub fn change(&self, from: Side, to: Side, games: f64) -> Option<Change> {
        let (kind, a, b) = (self.kind?, self.value(from)?, self.value(to)?);
        if self.provisional {
            // Against the accepted figure only `now` is off by chance; against the base
            // game's, both are (over the same number of games).
            let noise = if from == Side::Accepted || to == Side::Accepted {
                self.noise
            } else {
                self.noise * std::f64::consts::SQRT_2
            };
            let c = change(kind, a, b, games, noise);
            // A share over few games is far from normal: one tie in one game, where the
            // accepted games tied one time in twenty, is a 5% chance, not the four standard
            // errors the normal estimate makes of it. Changed only when that few games
            // coming out so far from the accepted share is as unlikely as three standard
            // errors (about 0.27%).
            if kind == Kind::Rate
                && c == Change::Changed
                && from == Side::Accepted
                && binomial_tail(a, b, games) > 0.0027
            {
                return Some(Change::Chance);
            }
            return Some(c);
        }
        if let Some(p) = self.paired(from, to) {
            return Some(
                if (b - a).abs() <= 1e-9 * a.abs().max(1.0) && p.mean == 0.0 {
                    Change::Same
                } else if p.settled() {
                    Change::Changed
                } else {
                    Change::Open(p.more_games())
                },
            );
        }
        Some(match (self.interval(from), self.interval(to)) {
            (Some(ia), Some(ib)) => {
                let f = crate::compare::Figure {
                    name: String::new(),
                    rate: kind == Kind::Rate,
                    accepted: a,
                    accepted_interval: ia,
                    now: b,
                    now_interval: ib,
                    paired: None,
                };
                match crate::compare::verdict(&f, games.max(1.0) as u64) {
                    crate::compare::Verdict::Same => Change::Same,
                    crate::compare::Verdict::Open { more_games } => Change::Open(more_games),
                    crate::compare::Verdict::Changed => Change::Changed,
                }
            }
            _ => change(kind, a, b, games, self.noise),
        })
    }
}

/// The chance that `games` games with a true share `p` come out at a share `q` or further
/// from `p` (on `q`'s side): the binomial tail. 1 when there are no games.
fn binomial_tail(p: f64, q: f64, games: f64) -> f64 {
    let n = games.round().max(0.0) as u64;
    if n == 0 || !(0.0..=1.0).contains(&p) {
        return 1.0;
    }
    let x = ((q * n as f64).round() as u64).min(n);
    // A share that cannot come out otherwise: only the count it forces has any chance.
    if p <= 0.0 || p >= 1.0 {
        let only = if p <= 0.0 { 0 } else { n };
        let reached = if q >= p { only >= x } else { only <= x };
        return if reached { 1.0 } else { 0.0 };
    }
    let ln_choose = |k: u64| -> f64 { (1..=k).map(|i| ((n - k + i) as f64 / i as f64).ln()).sum() };
    let term = |k: u64| -> f64 {
        let (lp, lq) = (p.ln(), (1.0 - p).ln());
        let t = ln_choose(k) + k as f64 * lp + (n - k) as f64 * lq;
        if t.is_nan() { 0.0 } else { t.exp() }
    };
    let ks: Box<dyn Iterator<Item = u64>> = if q >= p {
        Box::new(x..=n)
    } else {
        Box::new(0..=x)
    };
    ks.map(term).sum::<f64>().min(1.0)
}

/// How many standard errors a provisional figure must move before it counts as changed:
/// three, so that among the grid's dozen or more figures, updated several times a second,
/// chance seldom colours one.
const CHANCE: f64 = 3.0;

/// The standard error of a share `p` of `n` games.
fn share_noise(p: f64, n: usize) -> f64 {
    if n == 0 {
        return 0.0;
    }
    (p * (1.0 - p) / n as f64).max(0.0).sqrt()
}

/// The rows for the figures of `now`, with the accepted ones and the base game's beside them
/// when there are any. Seats are named after `def`'s. For `provisional` figures of `now`
/// (over fewer games than the others) the counts of games are compared as shares of each
/// side's games, the number of games is left out, and each row says how far `now` could be
/// off by chance.
#[cfg(test)]
pub fn rows(
    def: &GameDef,
    accepted: Option<&Stats>,
    now: Option<&Stats>,
    base: Option<&Stats>,
    provisional: bool,
) -> Vec<Row> {
    rows_paired(def, [accepted, now, base], [None, None, None], provisional)
}

/// Each game's record, in seed order, of the accepted run, the new one and the base game's,
/// where a side has them.
pub type Records<'a> = [Option<&'a [crate::paired::Game]>; 3];

/// [`rows`], with the changes from the accepted figures and from the base game's paired by
/// seed where both sides have each game's record (of the same seeds) and the figures are
/// final: each seat's win rate, the first mover's and the mean length in turns.
pub fn rows_paired(
    def: &GameDef,
    [accepted, now, base]: [Option<&Stats>; 3],
    records: Records<'_>,
    provisional: bool,
) -> Vec<Row> {
    let mut out = unpaired_rows(def, accepted, now, base, provisional);
    if provisional {
        return out;
    }
    let seats = now.map_or(0, |s| s.win_rate.len()) as u8;
    for (k, from) in [records[0], records[2]].into_iter().enumerate() {
        let (Some(a), Some(b)) = (from, records[1]) else {
            continue;
        };
        if a.len() != b.len() {
            continue;
        }
        for (which, d) in crate::paired::diffs(a, b, seats) {
            let label = match which {
                crate::paired::Which::Win(s) => format!("Win rate: {}", def.seat_name(s)),
                crate::paired::Which::FirstMover => {
                    "Win rate of the seat that moved first".to_string()
                }
                crate::paired::Which::Turns => "Mean length in turns".to_string(),
            };
            if let Some(r) = out.iter_mut().find(|r| r.label == label) {
                r.paired[k] = Some(d);
            }
        }
    }
    out
}

/// The rows, every change judged by each side's own interval.
// One piece: every row is made by the same few closures over the three sides (`row`, `games`
// and the noise estimates), which hold the sides and the provisional flag; the rows are listed
// in the order the table shows them.
fn unpaired_rows(
    def: &GameDef,
    accepted: Option<&Stats>,
    now: Option<&Stats>,
    base: Option<&Stats>,
    provisional: bool,
) -> Vec<Row> {
    let sides = [accepted, now, base];
    let mut out = Vec::new();
    let row = |label: &str, short: &str, kind, unit, rank, f: &dyn Fn(&Stats) -> Option<f64>| {
        let [a, n, b] = sides.map(|s| s.and_then(f));
        Row {
            label: label.into(),
            short: short.into(),
            kind: Some(kind),
            accepted: a,
            now: n,
            base: b,
            unit,
            rank,
            noise: 0.0,
            provisional,
            intervals: [None; 3],
            paired: [None; 2],
        }
    };
    // How far a figure of `now` could be off by chance (provisional figures only).
    let noise = |f: &dyn Fn(&Stats) -> f64| match now {
        Some(s) if provisional => f(s),
        _ => 0.0,
    };
    // The same for a share `p` of `n` of `now`'s games. The share is the accepted one where
    // there is one: how far `now` could be from it by chance if nothing had changed (a
    // share that was 0, such as errors, then has no noise: any game moves it).
    let share_se = |p: &dyn Fn(&Stats) -> f64, n: &dyn Fn(&Stats) -> usize| {
        noise(&|s| share_noise(accepted.map_or_else(|| p(s), p), n(s)))
    };
    // The same for a mean, given each side's spread (standard deviation) and number of
    // values: over `now`'s values, with the widest spread known. The accepted outcomes'
    // comes from many games; a few games' own spread says little (one game's is 0), and with
    // fewer than two values and no other side to go by, the mean could be anywhere.
    let mean_se = |spread: &dyn Fn(&Stats) -> Option<(f64, u64)>| {
        noise(&|s| {
            let (sd, n) = spread(s).unwrap_or((0.0, 0));
            let known = [accepted, base]
                .into_iter()
                .flatten()
                .chain((n >= 2).then_some(s))
                .filter_map(spread)
                .filter(|&(_, m)| m >= 2)
                .map(|(sd, _)| sd)
                .reduce(f64::max);
            match known {
                Some(k) if n > 0 => k.max(sd) / (n as f64).sqrt(),
                _ => f64::INFINITY,
            }
        })
    };
    // A spread from a 95% interval of a mean of `n` values.
    let spread_of = |interval: Option<[f64; 2]>, n: u64| {
        interval.map(|[lo, hi]| {
            (
                (hi - lo) / 2.0 * (n as f64).sqrt() / farebox::figures::Z95,
                n,
            )
        })
    };
    // Games without errors, over which the lengths are worked out.
    let clean = |s: &Stats| s.games.saturating_sub(s.errors);
    let seats = sides.iter().flatten().map(|s| s.win_rate.len()).max();
    let seats: Vec<String> = (0..seats.unwrap_or(0)).map(|i| def.seat_name(i)).collect();
    use Kind::{Count, Mean, Rate};
    // A number of games, or its share of the side's games.
    let games = |label: &str, short: &str, kind, rank, f: &dyn Fn(&Stats) -> usize| {
        if provisional {
            let share = |s: &Stats| f(s) as f64 / s.games.max(1) as f64;
            row(label, short, Rate, "", rank, &|s| {
                (s.games > 0).then(|| share(s))
            })
            .noise(share_se(&share, &|s| s.games))
        } else {
            row(label, short, kind, "", rank, &|s| Some(f(s) as f64))
        }
    };
    if !provisional {
        out.push(games("Games", "games", Count, 9, &|s| s.games));
    }
    out.push(games("Games finished", "games finished", Count, 2, &|s| {
        s.finished
    }));
    out.push(games(
        "Stopped at the action cap",
        "games capped",
        Count,
        2,
        &|s| s.capped,
    ));
    out.push(games("Errors", "errors", Count, 0, &|s| s.errors));
    for (i, name) in seats.iter().enumerate() {
        let (label, short) = (format!("Win rate: {name}"), format!("{name} win rate"));
        out.push(
            row(&label, &short, Rate, "", 0, &|s| s.win_rate.get(i).copied())
                .noise(share_se(
                    &|s| s.win_rate.get(i).copied().unwrap_or(0.0),
                    &|s| s.finished,
                ))
                .intervals(|k| {
                    let s = sides[k]?;
                    let wins = (s.win_rate.get(i)? * s.finished as f64).round() as u64;
                    farebox::figures::wilson(wins, s.finished as u64)
                }),
        );
    }
    {
        let f = |s: &Stats| s.tie_rate;
        out.push(
            row("Tie rate", "tie rate", Rate, "", 0, &f)
                .noise(share_se(&|s| f(s).unwrap_or(0.0), &|s| s.finished))
                .intervals(|k| sides[k]?.tie_rate_interval),
        );
    }
    {
        let f = |s: &Stats| s.figures.first_mover_win_rate;
        out.push(
            row(
                "Win rate of the seat that moved first",
                "first mover win rate",
                Rate,
                "",
                0,
                &f,
            )
            .noise(share_se(&|s| f(s).unwrap_or(0.0), &|s| {
                s.figures.first_mover_games as usize
            }))
            .intervals(|k| sides[k]?.figures.first_mover_win_rate_interval),
        );
    }
    out.push(
        row(
            "Mean length in turns",
            "mean length",
            Mean,
            " turns",
            1,
            &|s| Some(s.turns_mean),
        )
        .noise(mean_se(&|s| Some((s.turns_sd, clean(s) as u64))))
        .intervals(|k| {
            let s = sides[k]?;
            farebox::figures::mean_interval(s.turns_mean, s.turns_sd, clean(s) as u64)
        }),
    );
    out.push(
        row(
            "Mean length in actions",
            "mean length",
            Mean,
            " actions",
            1,
            &|s| Some(s.actions_mean),
        )
        .noise(mean_se(&|s| Some((s.actions_sd, clean(s) as u64))))
        .intervals(|k| {
            let s = sides[k]?;
            farebox::figures::mean_interval(s.actions_mean, s.actions_sd, clean(s) as u64)
        }),
    );
    for (i, name) in seats.iter().enumerate() {
        let (label, short) = (format!("Mean score: {name}"), format!("{name} mean score"));
        let sd = |s: &Stats| s.score_sd.get(i).copied().unwrap_or(0.0);
        out.push(
            row(&label, &short, Mean, "", 3, &|s| {
                s.score_mean.get(i).copied()
            })
            .noise(mean_se(&|s| Some((sd(s), s.finished as u64))))
            .intervals(|k| {
                let s = sides[k]?;
                farebox::figures::mean_interval(*s.score_mean.get(i)?, sd(s), s.finished as u64)
            }),
        );
    }
    let stat_names: std::collections::BTreeSet<&String> = sides
        .iter()
        .flatten()
        .flat_map(|s| s.figures.stats.keys())
        .collect();
    for name in stat_names {
        let (label, short) = (
            format!("Mean {name} (the rules' figure)"),
            format!("mean {name}"),
        );
        out.push(
            row(&label, &short, Mean, "", 3, &|s| {
                s.figures.stats.get(name).map(|f| f.mean)
            })
            .noise(mean_se(&|s| {
                s.figures.stats.get(name).map(|f| (f.sd, f.games))
            }))
            .intervals(|k| Some(sides[k]?.figures.stats.get(name)?.interval)),
        );
    }
    if sides
        .iter()
        .flatten()
        .any(|s| s.figures.lead_changes_mean.is_some())
    {
        out.push(
            row("Lead changes a game", "lead changes", Mean, "", 4, &|s| {
                s.figures.lead_changes_mean
            })
            .noise(mean_se(&|s| {
                spread_of(s.figures.lead_changes_interval, s.finished as u64)
            }))
            .intervals(|k| sides[k]?.figures.lead_changes_interval),
        );
        out.push(
            row(
                "How far in the winner took the lead for good",
                "winner's lead taken",
                Rate,
                "",
                4,
                &|s| s.figures.winner_took_lead_at,
            )
            .noise(mean_se(&|s| {
                spread_of(
                    s.figures.winner_took_lead_at_interval,
                    s.figures.winner_led_for_good_games,
                )
            }))
            .intervals(|k| sides[k]?.figures.winner_took_lead_at_interval),
        );
    }
    // The endings, commonest first (now, else in whichever side has them).
    let mut reasons: Vec<&String> = sides
        .iter()
        .flatten()
        .flat_map(|s| s.endings.keys())
        .collect();
    reasons.sort();
    reasons.dedup();
    let count = |s: Option<&Stats>, r: &String| s.and_then(|s| s.endings.get(r)).copied();
    reasons.sort_by_key(|r| {
        std::cmp::Reverse(count(now, r).or(count(accepted, r)).or(count(base, r)))
    });
    if !reasons.is_empty() {
        out.push(Row {
            label: "How the games ended".into(),
            short: String::new(),
            kind: None,
            accepted: None,
            now: None,
            base: None,
            unit: "",
            rank: 9,
            noise: 0.0,
            provisional,
            intervals: [None; 3],
            paired: [None; 2],
        });
    }
    for r in reasons {
        let short = format!("games ending \"{}\"", shorten(r, 40));
        out.push(games(r, &short, Kind::Ending, 4, &|s| {
            s.endings.get(r).copied().unwrap_or(0)
        }));
    }
    out
}

/// `text` cut to `max` characters, with "…" where cut.
fn shorten(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

/// How far `b` moved from `a`, out of `games` games, `noise` being how far `b` could be off
/// by chance (its standard error; 0 for final figures). The tolerance: a point for a share of
/// games, 2% for a mean, 1% of the games for a count (any change for a count that was or
/// becomes zero); and for provisional figures, [`CHANCE`] times the noise.
pub fn change(kind: Kind, a: f64, b: f64, games: f64, noise: f64) -> Change {
    let d = (b - a).abs();
    if d <= 1e-9 * a.abs().max(1.0) {
        return Change::Same;
    }
    let big = match kind {
        Kind::Rate => d > 0.01,
        Kind::Mean => d > 0.02 * a.abs().max(0.5),
        Kind::Count | Kind::Ending => d > 0.01 * games.max(1.0) || (a == 0.0) != (b == 0.0),
    };
    if !big {
        Change::Slight
    } else if d <= CHANCE * noise {
        Change::Chance
    } else {
        Change::Changed
    }
}

/// A figure of a run of `games` games as the grid shows it.
pub fn show(kind: Kind, x: f64, games: f64) -> String {
    match kind {
        Kind::Count => format!("{x:.0}"),
        Kind::Ending => format!("{x:.0} ({:.0}%)", x / games.max(1.0) * 100.0),
        Kind::Rate => format!("{:.1}%", x * 100.0),
        Kind::Mean => format!("{x:.2}"),
    }
}

/// The difference `b - a` as the grid shows it.
pub fn delta(kind: Kind, a: f64, b: f64) -> String {
    let d = b - a;
    match kind {
        Kind::Count | Kind::Ending => format!("{d:+.0}"),
        Kind::Rate => format!("{:+.1} pts", d * 100.0),
        Kind::Mean if a.abs() > 1e-9 => format!("{d:+.2} ({:+.0}%)", d / a.abs() * 100.0),
        Kind::Mean => format!("{d:+.2}"),
    }
}

/// The changes beyond the tolerance (and, for provisional figures, beyond chance) from `from`
/// to `to` (picked from each row), as one line:
/// "Red win rate 26.0% -> 31.0%, mean length 14.0 -> 19.2 turns". Win rates and errors come
/// first, then lengths, scores and endings, each by how far it moved. None when nothing moved
/// beyond the tolerance.
pub fn summary(rows: &[Row], games: f64, from: Side, to: Side) -> Option<String> {
    let mut moved: Vec<(u8, f64, String)> = rows
        .iter()
        .filter_map(|r| {
            let (kind, a, b) = (r.kind?, r.value(from)?, r.value(to)?);
            if r.change(from, to, games) != Some(Change::Changed) {
                return None;
            }
            let (shown_a, shown_b, size) = match kind {
                Kind::Mean => (
                    format!("{a:.1}"),
                    format!("{b:.1}"),
                    (b - a).abs() / a.abs().max(0.5),
                ),
                Kind::Rate => (show(kind, a, games), show(kind, b, games), (b - a).abs()),
                Kind::Count | Kind::Ending => (
                    format!("{a:.0}"),
                    format!("{b:.0}"),
                    (b - a).abs() / games.max(1.0),
                ),
            };
            let paired = r.paired(from, to).map_or(String::new(), |p| {
                format!(
                    " ({} paired by seed)",
                    crate::paired::text(kind == Kind::Rate, p)
                )
            });
            Some((
                r.rank,
                size,
                format!("{} {shown_a} -> {shown_b}{}{paired}", r.short, r.unit),
            ))
        })
        .collect();
    if moved.is_empty() {
        return None;
    }
    moved.sort_by(|x, y| x.0.cmp(&y.0).then(y.1.total_cmp(&x.1)));
    let more = moved.len().saturating_sub(4);
    let mut line: Vec<String> = moved.into_iter().take(4).map(|m| m.2).collect();
    if more > 0 {
        line.push(format!("and {more} more"));
    }
    Some(line.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_are_graded() {
        assert_eq!(change(Kind::Rate, 0.5, 0.5, 100.0, 0.0), Change::Same);
        assert_eq!(change(Kind::Rate, 0.5, 0.505, 100.0, 0.0), Change::Slight);
        assert_eq!(change(Kind::Rate, 0.26, 0.31, 100.0, 0.0), Change::Changed);
        assert_eq!(change(Kind::Mean, 14.0, 14.1, 100.0, 0.0), Change::Slight);
        assert_eq!(change(Kind::Mean, 14.0, 19.2, 100.0, 0.0), Change::Changed);
        assert_eq!(change(Kind::Count, 0.0, 1.0, 1000.0, 0.0), Change::Changed);
        assert_eq!(
            change(Kind::Count, 500.0, 502.0, 1000.0, 0.0),
            Change::Slight
        );
        // Over 24 games a win rate of 50% is off by 10 points a third of the time.
        let noise = share_noise(0.5, 24);
        assert_eq!(change(Kind::Rate, 0.5, 0.6, 24.0, noise), Change::Chance);
        assert_eq!(change(Kind::Rate, 0.5, 0.9, 24.0, noise), Change::Changed);
        assert_eq!(delta(Kind::Rate, 0.26, 0.31), "+5.0 pts");
    }

    /// Provisional figures over one game are judged by chance, with the accepted outcomes'
    /// spread: one of the accepted games shows no change (its own spread is 0, and judged by
    /// intervals every mean of it had changed), while the same game four times as long does.
    #[test]
    fn one_game_shows_no_change_by_chance_alone_but_a_real_change_still_shows() {
        let mods = concat!(env!("CARGO_MANIFEST_DIR"), "/../mods");
        let def = farebox::content::load_mod(
            &farebox::source::FsSource::new(std::path::Path::new(mods).join("curbside")),
            &farebox::source::FolderResolver::new(mods),
        )
        .unwrap_or_else(|e| panic!("curbside does not load: {e:?}"));
        let settings = crate::accepted::Settings {
            games: 60,
            seed: 1,
            players: 2,
            bots: vec!["random".into(); 2],
            cap: 5000,
            options: Vec::new(),
            forbid: Vec::new(),
        };
        let stop = std::sync::atomic::AtomicBool::new(false);
        let def = std::sync::Arc::new(def);
        let games = crate::accepted::play_games(&def, &settings, 1, &|| {}, &stop, false)
            .unwrap_or_else(|f| panic!("{}", f.message()));
        let accepted = Stats::of(&def, 2, &games);
        let verdict = |one: &farebox::agent::Outcome| {
            let now = Stats::of(&def, 2, std::slice::from_ref(one));
            let rows = rows(&def, Some(&accepted), Some(&now), None, true);
            summary(&rows, 1.0, Side::Accepted, Side::Now)
        };
        for one in &games[..5] {
            assert_eq!(verdict(one), None, "seed {}", one.seed);
        }
        let mut long = games[0].clone();
        long.actions *= 4;
        long.turns *= 4;
        let line = verdict(&long).unwrap_or_default();
        assert!(line.contains("mean length"), "{line}");
    }
}
