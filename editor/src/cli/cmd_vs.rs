//! `farebox sim A --vs B`: two mods (a game and a house rule of it, or any two folders)
//! played on the same seeds, seats, agents and options, each figure side by side with the
//! difference B - A and its 95% interval.
//!
//! Where a figure is one number per game (a seat's win, a tie, the length), the difference
//! is paired by seed: the mean of the per-game differences over the games both runs
//! finished (for the length: ended without an error), with `mean ± 1.96·sd/√n`. The same
//! seed deals the same cards and rolls the same dice until the rules differ, so pairing
//! takes out most of the luck both runs share and the interval is far narrower than that of
//! two independent runs. The mean scores and the per-card figures (the win rate of the seats
//! that played the card, else held it, for the cards both mods have) are not one number per
//! game, so they are compared as two independent runs: `±1.96·√(se_A² + se_B²)`.

use std::sync::atomic::AtomicBool;

use farebox::agent::{Checks, Forbid, Labels, Outcome};
use farebox::batch::Batch;
use farebox::figures::{ContentFigure, Stats, Tally, Welford, Z95, mean_interval, wilson};
use serde_json::json;

use crate::cli::SimArgs;
use crate::common::{Fail, Io, load_for_play, plural, setup, shown};
use crate::runs::rate_text;

/// What one game of a run came to, kept to pair it with the same seed of the other run.
struct Game {
    /// The winners (a tie for first is a win for each tied seat), if the game finished.
    finished: Option<(Vec<usize>, bool)>,
    /// Its length in turns and actions, if it ended without an error.
    length: Option<(u32, u32)>,
}

impl Game {
    fn of(o: &Outcome) -> Game {
        Game {
            finished: o.result.as_ref().map(|r| (r.winners(), r.is_tie())),
            length: o.error.is_none().then_some((o.turns, o.actions)),
        }
    }
}

/// One figure on both sides, with the difference.
struct Row {
    name: String,
    /// A share (shown as a percentage, the difference in points) rather than a mean.
    rate: bool,
    a: Option<f64>,
    a_interval: Option<[f64; 2]>,
    b: Option<f64>,
    b_interval: Option<[f64; 2]>,
    diff: Option<f64>,
    diff_interval: Option<[f64; 2]>,
    /// Paired by seed, over this many games; None for independent runs.
    paired: Option<u64>,
    /// The figure of a card both mods have.
    card: bool,
}

/// The paired differences B - A, per game both runs finished (or ended without an error).
#[derive(Default)]
struct Paired {
    wins: Vec<Welford>,
    ties: Welford,
    turns: Welford,
    actions: Welford,
}

/// Plays `a` and `b` (the same seeds, seats and agents on the two mods), the figures of each
/// and the differences paired by seed, taken as B's games come back.
fn play_both(a: &Batch, b: &Batch) -> (Stats, Stats, Paired) {
    let seats = a.setup.seats;
    let play = |batch: &Batch, each: &mut dyn FnMut(&Outcome)| {
        let mut tally = Tally::new(&batch.def, seats);
        batch.play(&AtomicBool::new(false), &|| {}, &mut |o| {
            each(&o);
            tally.add(&o);
        });
        tally.stats()
    };
    let mut games_a = Vec::new();
    let sa = play(a, &mut |o| games_a.push(Game::of(o)));
    let mut p = Paired {
        wins: vec![Welford::default(); usize::from(seats)],
        ..Paired::default()
    };
    let mut next = 0usize;
    let sb = play(b, &mut |o| {
        let (gb, ga) = (Game::of(o), games_a.get(next));
        next += 1;
        let Some(ga) = ga else { return };
        if let (Some((wa, ta)), Some((wb, tb))) = (&ga.finished, &gb.finished) {
            for (s, m) in p.wins.iter_mut().enumerate() {
                m.add(f64::from(u8::from(wb.contains(&s))) - f64::from(u8::from(wa.contains(&s))));
            }
            p.ties
                .add(f64::from(u8::from(*tb)) - f64::from(u8::from(*ta)));
        }
        if let (Some((ta, aa)), Some((tb, ab))) = (ga.length, gb.length) {
            p.turns.add(f64::from(tb) - f64::from(ta));
            p.actions.add(f64::from(ab) - f64::from(aa));
        }
    });
    (sa, sb, p)
}

/// `farebox sim A --vs B`: `batch` is A's run as `sim` would play it (without its restricted
/// play), `bots` its agents as given.
pub fn run(
    batch: &Batch,
    args: &SimArgs,
    bots: &[String],
    other: &str,
    io: &mut Io,
) -> Result<i32, Fail> {
    let def = &batch.def;
    let def_b = load_for_play(other, io)?;
    let seats = batch.setup.seats;
    let about_b = |m: String| Fail::Usage(format!("--vs {}: {m}", shown(other, 60)));
    let base_b = setup(&def_b, seats, args.seed, &args.options).map_err(|e| match e {
        Fail::Usage(m) => about_b(m),
        e => e,
    })?;
    let checks = Checks {
        labels: Labels::Never,
        profile: false,
        figures: !args.no_figures,
    };
    let threads = crate::common::threads_for(args.threads, args.games);
    let b = Batch::new(&def_b, base_b, bots, args.cap)
        .map_err(about_b)?
        .games(args.games)
        .checks(checks)
        .threads(threads);
    let a = batch
        .clone()
        .forbid(Forbid::NONE)
        .checks(checks)
        .threads(threads);
    let (sa, sb, p) = play_both(&a, &b);
    let rows = rows(def, &sa, &sb, &p);
    if args.json {
        let figures: Vec<_> = rows
            .iter()
            .map(|r| {
                json!({
                    "figure": r.name.trim(),
                    "rate": r.rate,
                    "a": r.a,
                    "a_interval": r.a_interval,
                    "b": r.b,
                    "b_interval": r.b_interval,
                    "difference": r.diff,
                    "difference_interval": r.diff_interval,
                    "paired_games": r.paired,
                })
            })
            .collect();
        let side = |d: &farebox::GameDef, st: &Stats| {
            json!({
                "mod": d.id,
                "name": d.name,
                "games": st.games,
                "finished": st.finished,
                "capped": st.capped,
                "errors": st.errors,
                "error_messages": st.error_messages,
            })
        };
        io.say(json!({
            "a": side(def, &sa),
            "b": side(&def_b, &sb),
            "games": args.games,
            "seed": args.seed,
            "players": seats,
            "bots": bots,
            "figures": figures,
        }));
    } else {
        io.say(format!(
            "A = {}, B = {}: {} {} each on the same seeds {}..{} ({} players, bots {})",
            def.name,
            def_b.name,
            args.games,
            plural(args.games as usize, "game"),
            args.seed,
            args.seed.wrapping_add(args.games.saturating_sub(1)),
            seats,
            bots.join(",")
        ));
        for (what, d, st) in [("A", def, &sa), ("B", &def_b, &sb)] {
            io.say(format!(
                "{what}: finished {}  capped {}  errors {}",
                st.finished, st.capped, st.errors
            ));
            for e in &st.error_messages {
                io.say(format!("  error in {}: {e}", d.id));
            }
        }
        io.say("B - A: win rates and the tie rate in points; the interval is 95%, paired by seed where the figure is one per game (a tie for first is a win for each tied seat)");
        io.say(format!(
            "{:<40} {:<22} {:<22} {}",
            "figure", "A", "B", "B - A"
        ));
        let mut cards_said = false;
        for r in &rows {
            if r.card && !cards_said {
                io.say("cards both mods have: the win rate of the seats that played each (else held it)");
                cards_said = true;
            }
            io.say(format!(
                "{:<40} {:<22} {:<22} {}",
                crate::common::cut(&r.name, 40),
                value_text(r.rate, r.a, r.a_interval),
                value_text(r.rate, r.b, r.b_interval),
                diff_text(r)
            ));
        }
    }
    Ok(if sa.errors == 0 && sb.errors == 0 {
        0
    } else {
        1
    })
}

/// Every figure of the comparison, in the order they are printed.
fn rows(def: &farebox::GameDef, sa: &Stats, sb: &Stats, p: &Paired) -> Vec<Row> {
    let (wins, ties, turns, actions) = (&p.wins, &p.ties, &p.turns, &p.actions);
    let mut out = Vec::new();
    let paired = |m: &Welford| m.mean();
    let share = |k: f64, st: &Stats| (k.round() as u64, st.finished as u64);
    for (s, m) in wins.iter().enumerate() {
        let rate = |st: &Stats| st.win_rate.get(s).copied().filter(|_| st.finished > 0);
        let interval = |st: &Stats| {
            let (k, n) = share(rate(st).unwrap_or(0.0) * st.finished as f64, st);
            wilson(k, n)
        };
        out.push(Row {
            name: format!("{} win rate", def.seat_name(s)),
            rate: true,
            a: rate(sa),
            a_interval: interval(sa),
            b: rate(sb),
            b_interval: interval(sb),
            diff: paired(m),
            diff_interval: m.interval(),
            paired: Some(m.count()),
            card: false,
        });
    }
    out.push(Row {
        name: "tie rate".into(),
        rate: true,
        a: sa.tie_rate,
        a_interval: sa.tie_rate_interval,
        b: sb.tie_rate,
        b_interval: sb.tie_rate_interval,
        diff: paired(ties),
        diff_interval: ties.interval(),
        paired: Some(ties.count()),
        card: false,
    });
    let clean = |st: &Stats| st.games.saturating_sub(st.errors) as u64;
    for (name, m, of) in [
        (
            "mean length in turns",
            turns,
            (|st: &Stats| (st.turns_mean, st.turns_sd)) as fn(&Stats) -> (f64, f64),
        ),
        ("mean length in actions", actions, |st: &Stats| {
            (st.actions_mean, st.actions_sd)
        }),
    ] {
        let side = |st: &Stats| {
            let (mean, sd) = of(st);
            (clean(st) > 0).then_some((mean, mean_interval(mean, sd, clean(st))))
        };
        let (a, b) = (side(sa), side(sb));
        out.push(Row {
            name: name.into(),
            rate: false,
            a: a.map(|x| x.0),
            a_interval: a.and_then(|x| x.1),
            b: b.map(|x| x.0),
            b_interval: b.and_then(|x| x.1),
            diff: paired(m),
            diff_interval: m.interval(),
            paired: Some(m.count()),
            card: false,
        });
    }
    // Independent runs from here on.
    for s in 0..sa.score_mean.len().min(sb.score_mean.len()) {
        let side = |st: &Stats| {
            let (mean, sd, n) = (
                st.score_mean[s],
                st.score_sd.get(s).copied().unwrap_or(0.0),
                st.finished as u64,
            );
            (n > 0).then(|| (mean, sd / (n as f64).sqrt(), mean_interval(mean, sd, n)))
        };
        let (a, b) = (side(sa), side(sb));
        out.push(unpaired(
            format!("{} mean score", def.seat_name(s)),
            false,
            a,
            b,
        ));
    }
    for (key, ca) in &sa.figures.cards {
        let Some(cb) = sb.figures.cards.get(key) else {
            continue;
        };
        // Played where both runs can tell, else held.
        let played = ca.win_rate_played.is_some() && cb.win_rate_played.is_some();
        let side = |c: &ContentFigure| {
            let (rate, interval) = if played {
                (c.win_rate_played, c.win_rate_played_interval)
            } else {
                (c.win_rate_held, c.win_rate_held_interval)
            };
            Some((rate?, interval?))
        };
        let (a, b) = (side(ca), side(cb));
        // Newcombe's interval for a difference of two proportions, from each side's Wilson
        // interval: it stays sensible for small counts and rates of 0 or 1.
        let diff = a.zip(b).map(|((pa, [la, ua]), (pb, [lb, ub]))| {
            let d = pb - pa;
            (
                d,
                [
                    d - ((pb - lb).powi(2) + (ua - pa).powi(2)).sqrt(),
                    d + ((ub - pb).powi(2) + (pa - la).powi(2)).sqrt(),
                ],
            )
        });
        out.push(Row {
            name: format!("  {key} ({})", if played { "played" } else { "held" }),
            rate: true,
            a: a.map(|x| x.0),
            a_interval: a.map(|x| x.1),
            b: b.map(|x| x.0),
            b_interval: b.map(|x| x.1),
            diff: diff.map(|x| x.0),
            diff_interval: diff.map(|x| x.1),
            paired: None,
            card: true,
        });
    }
    out
}

/// A figure of two independent runs: each side's value, standard error and interval.
fn unpaired(
    name: String,
    rate: bool,
    a: Option<(f64, f64, Option<[f64; 2]>)>,
    b: Option<(f64, f64, Option<[f64; 2]>)>,
) -> Row {
    let (diff, diff_interval) = match (a, b) {
        (Some((va, ea, _)), Some((vb, eb, _))) => {
            let d = vb - va;
            let half = Z95 * (ea * ea + eb * eb).sqrt();
            (Some(d), Some([d - half, d + half]))
        }
        _ => (None, None),
    };
    Row {
        name,
        rate,
        a: a.map(|x| x.0),
        a_interval: a.and_then(|x| x.2),
        b: b.map(|x| x.0),
        b_interval: b.and_then(|x| x.2),
        diff,
        diff_interval,
        paired: None,
        card: false,
    }
}

fn value_text(rate: bool, v: Option<f64>, interval: Option<[f64; 2]>) -> String {
    if rate {
        return rate_text(v, interval);
    }
    match (v, interval) {
        (Some(v), Some([lo, hi])) => format!("{v:.2} ({lo:.2}-{hi:.2})"),
        (Some(v), None) => format!("{v:.2}"),
        _ => "-".into(),
    }
}

/// "+3.5 pts (-2.1 to +9.1), paired over 200 games".
fn diff_text(r: &Row) -> String {
    let (Some(d), Some([lo, hi])) = (r.diff, r.diff_interval) else {
        return "-".into();
    };
    let how = match r.paired {
        Some(n) => format!(", paired over {n} {}", plural(n as usize, "game")),
        None => String::new(),
    };
    if r.rate {
        format!(
            "{:+.1} pts ({:+.1} to {:+.1}){how}",
            d * 100.0,
            lo * 100.0,
            hi * 100.0
        )
    } else {
        format!("{d:+.2} ({lo:+.2} to {hi:+.2}){how}")
    }
}
