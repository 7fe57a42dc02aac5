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

/// The whole error rate the early stop spends over every look and seat (`--until-settled`).
pub const ALPHA: f64 = 0.05;

/// When to stop a comparison early (`--until-settled`): a look every `look` games, at most
/// `looks` of them, each seat's paired win-rate difference settled once its interval at `z`
/// excludes 0 or is no wider than ±`width`.
#[derive(Debug, Clone, Copy)]
pub struct Settle {
    pub look: u64,
    pub looks: u64,
    pub width: f64,
    pub z: f64,
}

impl Settle {
    /// The rule for at most `games` games of `seats` seats, looking every `look` games: the
    /// z of a two-sided interval at ALPHA / (looks · seats) (Bonferroni over the looks,
    /// fixed in advance, and the seats).
    pub fn new(games: u64, look: u64, seats: u8, width: f64) -> Settle {
        let looks = games.div_ceil(look.max(1)).max(1);
        let each = ALPHA / (looks as f64 * f64::from(seats.max(1)));
        Settle {
            look: look.max(1),
            looks,
            width,
            z: normal_quantile(1.0 - each / 2.0),
        }
    }

    /// The interval of a paired difference at this rule's z, its spread held at least at
    /// that of one game in `n` differing by one (so a run where no game differed yet is not
    /// taken as certain).
    pub fn interval(&self, m: &Welford) -> Option<[f64; 2]> {
        let n = m.count();
        let mean = m.mean()?;
        let (_, sd) = m.mean_sd();
        let sd = sd.max((1.0 / n as f64).sqrt());
        let half = self.z * sd / (n as f64).sqrt();
        Some([mean - half, mean + half])
    }

    /// Whether the interval says enough: it leaves out 0, or is no wider than ±width.
    pub fn settled(&self, m: &Welford) -> bool {
        self.interval(m)
            .is_some_and(|[lo, hi]| lo > 0.0 || hi < 0.0 || (hi - lo) / 2.0 <= self.width)
    }
}

/// The quantile of the standard normal distribution at `p` (0 < p < 1): Acklam's rational
/// approximation (relative error under 1.2e-9).
pub fn normal_quantile(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] = [
        7.784_695_709_041_462e-3,
        3.224_671_290_700_398e-1,
        2.445_134_137_142_996,
        3.754_408_661_907_416,
    ];
    let p = p.clamp(1e-300, 1.0 - 1e-16);
    let tail = |q: f64| {
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    if p < 0.024_25 {
        tail((-2.0 * p.ln()).sqrt())
    } else if p > 1.0 - 0.024_25 {
        -tail((-2.0 * (1.0 - p).ln()).sqrt())
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    }
}

/// Plays `a` and `b` (the same seeds, seats and agents on the two mods), the figures of each
/// and the differences paired by seed. With `settle`, the games are played a look at a time
/// (A's, then B's, paired as B's come back) and the play stops at the first look where
/// every seat's difference is settled; gives the looks taken too.
fn play_both(a: &Batch, b: &Batch, settle: Option<Settle>) -> (Stats, Stats, Paired, u64) {
    let seats = a.setup.seats;
    let mut tally_a = Tally::new(&a.def, seats);
    let mut tally_b = Tally::new(&b.def, seats);
    let mut p = Paired {
        wins: vec![Welford::default(); usize::from(seats)],
        ..Paired::default()
    };
    let look = settle.map_or(a.games, |s| s.look).max(1);
    let (mut first, mut looks) = (0u64, 0u64);
    while first < a.games {
        let n = look.min(a.games - first);
        let part = |batch: &Batch| {
            let mut part = batch.clone().games(n);
            part.setup.seed = batch.setup.seed.wrapping_add(first);
            part
        };
        let mut games_a = Vec::new();
        part(a).play(&AtomicBool::new(false), &|| {}, &mut |o| {
            games_a.push(Game::of(&o));
            tally_a.add(&o);
        });
        let mut next = 0usize;
        part(b).play(&AtomicBool::new(false), &|| {}, &mut |o| {
            tally_b.add(&o);
            let (gb, ga) = (Game::of(&o), games_a.get(next));
            next += 1;
            let Some(ga) = ga else { return };
            if let (Some((wa, ta)), Some((wb, tb))) = (&ga.finished, &gb.finished) {
                for (s, m) in p.wins.iter_mut().enumerate() {
                    m.add(
                        f64::from(u8::from(wb.contains(&s))) - f64::from(u8::from(wa.contains(&s))),
                    );
                }
                p.ties
                    .add(f64::from(u8::from(*tb)) - f64::from(u8::from(*ta)));
            }
            if let (Some((ta, aa)), Some((tb, ab))) = (ga.length, gb.length) {
                p.turns.add(f64::from(tb) - f64::from(ta));
                p.actions.add(f64::from(ab) - f64::from(aa));
            }
        });
        first += n;
        looks += 1;
        if let Some(rule) = settle
            && p.wins.iter().all(|m| rule.settled(m))
        {
            break;
        }
    }
    (tally_a.stats(), tally_b.stats(), p, looks)
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
    let settle = args
        .until_settled
        .then(|| Settle::new(args.games, args.look, seats, args.settle_width / 100.0));
    let (sa, sb, p, looks) = play_both(&a, &b, settle);
    let rows = rows(def, &sa, &sb, &p);
    let played = sa.games as u64;
    let settled = settle.map(|rule| verdicts(rule, &p));
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
        let until_settled = settled
            .as_ref()
            .map(|v| settle_json(def, v, played, looks, args.games));
        io.say(json!({
            "a": side(def, &sa),
            "b": side(&def_b, &sb),
            "until_settled": until_settled,
            "games": played,
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
            played,
            plural(played as usize, "game"),
            args.seed,
            args.seed.wrapping_add(played.saturating_sub(1)),
            seats,
            bots.join(",")
        ));
        if let Some(v) = &settled {
            for line in settle_lines(def, v, played, looks, args.games) {
                io.say(line);
            }
        }
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

/// Each seat's paired win-rate change at the early stop's z, with its verdict.
type Verdicts = (
    Settle,
    Vec<(usize, Option<f64>, Option<[f64; 2]>, &'static str)>,
);

fn verdicts(rule: Settle, p: &Paired) -> Verdicts {
    let seats = p
        .wins
        .iter()
        .enumerate()
        .map(|(s, m)| {
            let interval = rule.interval(m);
            let verdict = match interval {
                Some([lo, hi]) if lo > 0.0 || hi < 0.0 => "changed",
                Some(_) if rule.settled(m) => "within the width",
                _ => "open",
            };
            (s, m.mean(), interval, verdict)
        })
        .collect();
    (rule, seats)
}

/// The early stop as `--json` gives it (`until_settled`).
fn settle_json(
    def: &farebox::GameDef,
    (rule, seats): &Verdicts,
    played: u64,
    looks: u64,
    most: u64,
) -> serde_json::Value {
    json!({
        "settled": seats.iter().all(|x| x.3 != "open"),
        "games_played": played,
        "games_at_most": most,
        "looks": looks,
        "looks_at_most": rule.looks,
        "look": rule.look,
        "z": rule.z,
        "width": rule.width,
        "alpha": ALPHA,
        "seats": seats.iter().map(|(s, d, i, v)| json!({
            "seat": def.seat_name(*s),
            "difference": d,
            "interval": i,
            "verdict": v,
        })).collect::<Vec<_>>(),
    })
}

/// The early stop for people: whether and when it settled, and each seat's verdict.
fn settle_lines(
    def: &farebox::GameDef,
    (rule, seats): &Verdicts,
    played: u64,
    looks: u64,
    most: u64,
) -> Vec<String> {
    let all = seats.iter().all(|x| x.3 != "open");
    let mut out = vec![format!(
        "{} after {played} of at most {most} games ({looks} of at most {} looks, one every {}): each seat's win-rate change B - A, paired by seed, at z = {:.2} (a {:.0}% interval over all looks and seats: Bonferroni), settled when its interval leaves out 0 or is within ±{:.1} pts",
        if all { "settled" } else { "not settled" },
        rule.looks,
        rule.look,
        rule.z,
        (1.0 - ALPHA) * 100.0,
        rule.width * 100.0
    )];
    for (s, d, i, v) in seats {
        let (d, [lo, hi]) = (d.unwrap_or(0.0), i.unwrap_or([0.0, 0.0]));
        out.push(format!(
            "  {:<10}{:+.1} pts ({:+.1} to {:+.1}): {v}",
            def.seat_name(*s),
            d * 100.0,
            lo * 100.0,
            hi * 100.0
        ));
    }
    out
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
