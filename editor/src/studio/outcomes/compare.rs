//! The figures of a run side by side with the accepted ones (and the base game's): one row
//! per figure, how much each changed, and a one-line summary of what changed most.

use farebox::GameDef;

use crate::cmd_sim::Stats;

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
    /// Beyond the tolerance.
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
}

/// The rows for the figures of `now`, with the accepted ones and the base game's beside them
/// when there are any. Seats are named after `def`'s.
pub fn rows(
    def: &GameDef,
    accepted: Option<&Stats>,
    now: Option<&Stats>,
    base: Option<&Stats>,
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
        }
    };
    let seats = sides.iter().flatten().map(|s| s.win_rate.len()).max();
    let seats: Vec<String> = (0..seats.unwrap_or(0)).map(|i| def.seat_name(i)).collect();
    use Kind::{Count, Mean, Rate};
    out.push(row("Games", "games", Count, "", 9, &|s| {
        Some(s.games as f64)
    }));
    out.push(row(
        "Games finished",
        "games finished",
        Count,
        "",
        2,
        &|s| Some(s.finished as f64),
    ));
    out.push(row(
        "Stopped at the action cap",
        "games capped",
        Count,
        "",
        2,
        &|s| Some(s.capped as f64),
    ));
    out.push(row("Errors", "errors", Count, "", 0, &|s| {
        Some(s.errors as f64)
    }));
    for (i, name) in seats.iter().enumerate() {
        let (label, short) = (format!("Win rate: {name}"), format!("{name} win rate"));
        out.push(row(&label, &short, Rate, "", 0, &|s| {
            s.win_rate.get(i).copied()
        }));
    }
    out.push(row(
        "Mean length in turns",
        "mean length",
        Mean,
        " turns",
        1,
        &|s| Some(s.turns_mean),
    ));
    out.push(row(
        "Length in turns: sd",
        "sd of length",
        Mean,
        " turns",
        5,
        &|s| Some(s.turns_sd),
    ));
    out.push(row(
        "Mean length in actions",
        "mean length",
        Mean,
        " actions",
        1,
        &|s| Some(s.actions_mean),
    ));
    out.push(row(
        "Length in actions: sd",
        "sd of length",
        Mean,
        " actions",
        5,
        &|s| Some(s.actions_sd),
    ));
    for (i, name) in seats.iter().enumerate() {
        let (label, short) = (format!("Mean score: {name}"), format!("{name} mean score"));
        out.push(row(&label, &short, Mean, "", 3, &|s| {
            s.score_mean.get(i).copied()
        }));
        let (label, short) = (format!("Score sd: {name}"), format!("{name} score sd"));
        out.push(row(&label, &short, Mean, "", 5, &|s| {
            s.score_sd.get(i).copied()
        }));
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
        });
    }
    for r in reasons {
        let short = format!("games ending \"{}\"", shorten(r, 40));
        out.push(row(r, &short, Kind::Ending, "", 4, &|s| {
            Some(s.endings.get(r).copied().unwrap_or(0) as f64)
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

/// How far `b` moved from `a`, out of `games` games. The tolerance: a point for a share of
/// games, 2% for a mean, 1% of the games for a count (any change for a count that was or
/// becomes zero).
pub fn change(kind: Kind, a: f64, b: f64, games: f64) -> Change {
    let d = (b - a).abs();
    if d <= 1e-9 * a.abs().max(1.0) {
        return Change::Same;
    }
    let big = match kind {
        Kind::Rate => d > 0.01,
        Kind::Mean => d > 0.02 * a.abs().max(0.5),
        Kind::Count | Kind::Ending => d > 0.01 * games.max(1.0) || (a == 0.0) != (b == 0.0),
    };
    if big { Change::Changed } else { Change::Slight }
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

/// The changes beyond the tolerance from `from` to `to` (picked from each row), as one line:
/// "Red win rate 26.0% -> 31.0%, mean length 14.0 -> 19.2 turns". Win rates and errors come
/// first, then lengths, scores and endings, each by how far it moved. None when nothing moved
/// beyond the tolerance.
pub fn summary(
    rows: &[Row],
    games: f64,
    from: impl Fn(&Row) -> Option<f64>,
    to: impl Fn(&Row) -> Option<f64>,
) -> Option<String> {
    let mut moved: Vec<(u8, f64, String)> = rows
        .iter()
        .filter_map(|r| {
            let (kind, a, b) = (r.kind?, from(r)?, to(r)?);
            if change(kind, a, b, games) != Change::Changed {
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
            Some((
                r.rank,
                size,
                format!("{} {shown_a} -> {shown_b}{}", r.short, r.unit),
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
        assert_eq!(change(Kind::Rate, 0.5, 0.5, 100.0), Change::Same);
        assert_eq!(change(Kind::Rate, 0.5, 0.505, 100.0), Change::Slight);
        assert_eq!(change(Kind::Rate, 0.26, 0.31, 100.0), Change::Changed);
        assert_eq!(change(Kind::Mean, 14.0, 14.1, 100.0), Change::Slight);
        assert_eq!(change(Kind::Mean, 14.0, 19.2, 100.0), Change::Changed);
        assert_eq!(change(Kind::Count, 0.0, 1.0, 1000.0), Change::Changed);
        assert_eq!(change(Kind::Count, 500.0, 502.0, 1000.0), Change::Slight);
        assert_eq!(delta(Kind::Rate, 0.26, 0.31), "+5.0 pts");
    }
}
