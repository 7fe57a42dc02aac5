//! `farebox sim`: many bot games in parallel, with statistics.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use farebox::agent::{Match, Outcome, play_many_profiled};
use farebox::game::Setup;
use farebox::script::Profile;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;

use crate::cli::SimArgs;
use crate::common::{Fail, Io, load_for_play, seat_count, setup, split_list};

/// Mean and sample standard deviation (0 for fewer than two values).
pub fn mean_sd(xs: &[f64]) -> (f64, f64) {
    if xs.is_empty() {
        return (0.0, 0.0);
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    if xs.len() < 2 {
        return (mean, 0.0);
    }
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, var.sqrt())
}

pub fn run(args: SimArgs, io: &mut Io) -> Result<i32, Fail> {
    let def = load_for_play(&args.game, io)?;
    let bots = split_list(&args.bots, "--bots")?;
    if bots.is_empty() {
        return Err(Fail::Usage("--bots needs at least one agent".into()));
    }
    let seats = seat_count(&def, args.players, &bots);
    let base = setup(&def, seats, args.seed, &args.options)?;
    for (i, b) in bots.iter().enumerate() {
        farebox::agent::Agent::from_spec(b, &def, 0, i as u8).map_err(Fail::Usage)?;
    }
    let threads = args
        .threads
        .map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get()),
            usize::from,
        )
        .clamp(
            1,
            (args.games.max(1) as usize).min(crate::common::MAX_THREADS as usize),
        );
    let bar = if std::io::stderr().is_terminal() {
        let pb = ProgressBar::new(args.games);
        if let Ok(style) =
            ProgressStyle::with_template("{bar:40} {pos}/{len} games {elapsed} (eta {eta})")
        {
            pb.set_style(style);
        }
        pb
    } else {
        ProgressBar::hidden()
    };
    let start = Instant::now();
    let tick = || bar.inc(1);
    let outcomes = play_all_until(
        &def,
        &base,
        args.games,
        &bots,
        args.cap,
        threads,
        &tick,
        &AtomicBool::new(false),
        args.profile,
    );
    let mut profile = Profile::new();
    for o in &outcomes {
        for (name, stats) in &o.profile {
            profile.entry(name.clone()).or_default().merge(stats);
        }
    }
    bar.finish_and_clear();
    let seconds = start.elapsed().as_secs_f64();

    let st = Stats::of(seats, &outcomes);
    let gps = if seconds > 0.0 {
        outcomes.len() as f64 / seconds
    } else {
        0.0
    };

    if args.json {
        // The statistics `test` compares, and how they were made.
        let mut v = serde_json::to_value(&st).map_err(|e| Fail::Invalid(e.to_string()))?;
        if let Some(o) = v.as_object_mut() {
            for (k, x) in [
                ("seconds", json!(seconds)),
                ("games_per_second", json!(gps)),
                ("seed", json!(args.seed)),
                ("players", json!(seats)),
                ("bots", json!(bots)),
            ] {
                o.insert(k.into(), x);
            }
            if args.profile {
                o.insert("profile".into(), profile_json(&profile));
            }
        }
        io.say(v);
    } else {
        io.say(format!(
            "{} ({} players, bots {}), seeds {}..{}",
            def.name,
            seats,
            bots.join(","),
            args.seed,
            args.seed.wrapping_add(args.games.saturating_sub(1))
        ));
        io.say(format!(
            "games     {}  finished {}  capped {} (cap {} actions)  errors {}",
            st.games, st.finished, st.capped, args.cap, st.errors
        ));
        for e in &st.error_messages {
            io.say(format!("  error: {e}"));
        }
        io.say(format!(
            "actions   mean {:.1}  sd {:.1}",
            st.actions_mean, st.actions_sd
        ));
        io.say(format!(
            "turns     mean {:.1}  sd {:.1}",
            st.turns_mean, st.turns_sd
        ));
        for (seat, ((w, m), sd)) in st
            .win_rate
            .iter()
            .zip(&st.score_mean)
            .zip(&st.score_sd)
            .enumerate()
        {
            io.say(format!(
                "{:<10}win {:>5.1}%  score mean {m:.2}  sd {sd:.2}",
                def.seat_name(seat),
                w * 100.0
            ));
        }
        if !st.endings.is_empty() {
            let mut endings: Vec<(&String, &usize)> = st.endings.iter().collect();
            endings.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
            io.say("endings");
            for (reason, count) in endings {
                io.say(format!(
                    "  {count:>6}  {:>5.1}%  {reason}",
                    *count as f64 * 100.0 / st.finished.max(1) as f64
                ));
            }
        }
        io.say(format!(
            "time      {seconds:.2} s, {gps:.1} games/s on {threads} {}",
            crate::common::plural(threads, "thread")
        ));
        if args.profile {
            for line in profile_lines(&profile, args.steps_budget()) {
                io.say(line);
            }
        }
    }
    Ok(if st.errors == 0 { 0 } else { 1 })
}

/// Plays `count` games like `base` (seeded from its seed upward) a batch at a time, so the
/// games asked for are never all made up front; error messages are kept short.
pub fn play_all(
    def: &std::sync::Arc<farebox::GameDef>,
    base: &Setup,
    count: u64,
    agents: &[String],
    cap: u32,
    threads: usize,
    done: &(dyn Fn() + Sync),
) -> Vec<Outcome> {
    play_all_until(
        def,
        base,
        count,
        agents,
        cap,
        threads,
        done,
        &AtomicBool::new(false),
        false,
    )
}

/// [`play_all`] that starts no more games once `stop` is set, for a run that can be
/// cancelled: the outcomes are then only those of the games played before it was.
#[allow(clippy::too_many_arguments)]
pub fn play_all_until(
    def: &std::sync::Arc<farebox::GameDef>,
    base: &Setup,
    count: u64,
    agents: &[String],
    cap: u32,
    threads: usize,
    done: &(dyn Fn() + Sync),
    stop: &AtomicBool,
    profile: bool,
) -> Vec<Outcome> {
    const BATCH: u64 = 4_096;
    let mut out = Vec::new();
    let mut first = 0u64;
    while first < count && !stop.load(Ordering::Relaxed) {
        let n = (count - first).min(BATCH);
        let mut batch_base = base.clone();
        batch_base.seed = base.seed.wrapping_add(first);
        let games = matches(&batch_base, n, agents);
        for mut o in play_many_profiled(def, &games, cap, threads, done, stop, profile) {
            if let Some(e) = &mut o.error {
                *e = crate::common::cut(e, 500);
            }
            out.push(o);
        }
        first += n;
    }
    out
}

/// A profile as JSON: for each hook and bot, its calls and the steps and milliseconds of a
/// call on average and at most.
pub fn profile_json(p: &Profile) -> serde_json::Value {
    let mut out = serde_json::Map::new();
    for (name, s) in p {
        let calls = s.calls.max(1) as f64;
        out.insert(
            name.clone(),
            json!({
                "calls": s.calls,
                "steps_mean": s.steps as f64 / calls,
                "steps_max": s.max_steps,
                "ms_mean": s.nanos as f64 / calls / 1e6,
                "ms_max": s.max_nanos as f64 / 1e6,
            }),
        );
    }
    serde_json::Value::Object(out)
}

/// A profile as a table for people: a line per hook and bot, the heaviest (by worst steps)
/// first, with the worst call's share of the step budget.
pub fn profile_lines(p: &Profile, budget: u64) -> Vec<String> {
    let mut rows: Vec<_> = p.iter().collect();
    rows.sort_by(|a, b| b.1.max_steps.cmp(&a.1.max_steps).then(a.0.cmp(b.0)));
    let mut out = vec![format!(
        "{:<24}{:>10}{:>12}{:>12}{:>8}{:>10}{:>10}",
        "profile", "calls", "steps mean", "steps max", "budget", "ms mean", "ms max"
    )];
    for (name, s) in rows {
        let calls = s.calls.max(1) as f64;
        out.push(format!(
            "{:<24}{:>10}{:>12.0}{:>12}{:>7.1}%{:>10.3}{:>10.2}",
            crate::common::cut(name, 24),
            s.calls,
            s.steps as f64 / calls,
            s.max_steps,
            s.max_steps as f64 * 100.0 / budget.max(1) as f64,
            s.nanos as f64 / calls / 1e6,
            s.max_nanos as f64 / 1e6
        ));
    }
    out
}

/// `count` games like `base`, seeded from its seed upward, one per game.
pub fn matches(base: &Setup, count: u64, agents: &[String]) -> Vec<Match> {
    (0..count)
        .map(|i| {
            let mut setup = base.clone();
            setup.seed = base.seed.wrapping_add(i);
            Match {
                setup,
                agents: agents.to_vec(),
            }
        })
        .collect()
}

/// What a batch of games came to: the figures `sim` prints and `test` compares.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct Stats {
    pub games: usize,
    /// Games that reached a result.
    pub finished: usize,
    /// Games stopped at the action cap.
    pub capped: usize,
    pub errors: usize,
    /// The first few errors, with their seeds.
    pub error_messages: Vec<String>,
    /// Per seat: the share of finished games where the seat placed first (ties count for each).
    pub win_rate: Vec<f64>,
    pub actions_mean: f64,
    pub actions_sd: f64,
    pub turns_mean: f64,
    pub turns_sd: f64,
    pub score_mean: Vec<f64>,
    pub score_sd: Vec<f64>,
    /// How the finished games ended: each reason the rules gave, with how many games gave it.
    #[serde(default)]
    pub endings: std::collections::BTreeMap<String, usize>,
}

impl Stats {
    pub fn of(seats: u8, outcomes: &[Outcome]) -> Stats {
        let n = seats as usize;
        let finished: Vec<&Outcome> = outcomes.iter().filter(|o| o.result.is_some()).collect();
        let errors: Vec<String> = outcomes
            .iter()
            .filter_map(|o| o.error.as_ref().map(|e| format!("seed {}: {e}", o.seed)))
            .collect();
        let clean: Vec<&Outcome> = outcomes.iter().filter(|o| o.error.is_none()).collect();
        let mut wins = vec![0u64; n];
        let mut endings = std::collections::BTreeMap::new();
        let mut scores = vec![Vec::new(); n];
        for o in &finished {
            if let Some(r) = &o.result {
                *endings.entry(r.reason.clone()).or_insert(0) += 1;
                for w in r.winners() {
                    if let Some(count) = wins.get_mut(w) {
                        *count += 1;
                    }
                }
                for (list, s) in scores.iter_mut().zip(&r.scores) {
                    list.push(*s as f64);
                }
            }
        }
        let win_rate = wins
            .iter()
            .map(|w| {
                if finished.is_empty() {
                    0.0
                } else {
                    *w as f64 / finished.len() as f64
                }
            })
            .collect();
        let (actions_mean, actions_sd) =
            mean_sd(&clean.iter().map(|o| o.actions as f64).collect::<Vec<_>>());
        let (turns_mean, turns_sd) =
            mean_sd(&clean.iter().map(|o| o.turns as f64).collect::<Vec<_>>());
        let score_stats: Vec<(f64, f64)> = scores.iter().map(|s| mean_sd(s)).collect();
        Stats {
            games: outcomes.len(),
            finished: finished.len(),
            capped: outcomes.iter().filter(|o| o.capped).count(),
            errors: errors.len(),
            error_messages: errors.into_iter().take(5).collect(),
            win_rate,
            actions_mean,
            actions_sd,
            turns_mean,
            turns_sd,
            score_mean: score_stats.iter().map(|s| s.0).collect(),
            score_sd: score_stats.iter().map(|s| s.1).collect(),
            endings,
        }
    }
}
