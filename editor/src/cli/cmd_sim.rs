//! `farebox sim`: many bot games in parallel, with statistics.

use std::io::IsTerminal;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use farebox::agent::{Checks, Labels};
use farebox::batch::Batch;
use farebox::figures::{Stats, Tally};
use farebox::script::Profile;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use crate::cli::SimArgs;
use crate::common::{Fail, Io, load_for_play, seat_count, setup, split_list};
use crate::runs::{figure_lines, forbid_of, profile_json, profile_lines};

/// What `sim --json` prints: the figures `test` compares, and how they were made.
#[derive(Serialize)]
struct Report<'a> {
    #[serde(flatten)]
    stats: &'a Stats,
    seconds: f64,
    games_per_second: f64,
    seed: u64,
    players: u8,
    bots: &'a [String],
    forbid: &'a [String],
    /// Per hook and bot, with `--profile` only.
    #[serde(skip_serializing_if = "Option::is_none")]
    profile: Option<serde_json::Value>,
}

/// How a run went besides its figures, for the lines that print it.
struct Run<'a> {
    args: &'a SimArgs,
    batch: &'a Batch,
    bots: &'a [String],
    profile: &'a Profile,
    seconds: f64,
    gps: f64,
}

pub fn run(args: SimArgs, io: &mut Io) -> Result<i32, Fail> {
    let def = load_for_play(&args.game, io)?;
    let bots = split_list(&args.bots, "--bots")?;
    if bots.is_empty() {
        return Err(Fail::Usage("--bots needs at least one agent".into()));
    }
    let seats = seat_count(&def, args.players, &bots);
    let base = setup(&def, seats, args.seed, &args.options)?;
    let batch = Batch::new(&def, base, &bots, args.cap)
        .map_err(Fail::Usage)?
        .games(args.games)
        .forbid(forbid_of(&def, &args.forbid, args.forbid_seat, seats)?);
    if let Some(other) = &args.vs {
        return crate::cli::cmd_vs::run(&batch, &args, &bots, other, io);
    }
    if let Some(deck) = &args.rank {
        return crate::cli::cmd_rank::run(&batch, &args, &bots, deck, io);
    }
    let threads = crate::common::threads_for(args.threads, args.games);
    let batch = batch.threads(threads).checks(Checks {
        labels: Labels::Never,
        profile: args.profile,
        figures: !args.no_figures,
    });
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
    // Each game is added to the figures as it comes back, so a run of a million games holds
    // the figures, not a million outcomes.
    let mut tally = Tally::new(&def, seats);
    let mut profile = Profile::new();
    batch.play(&AtomicBool::new(false), &tick, &mut |o| {
        for (name, stats) in &o.profile {
            profile.entry(name.clone()).or_default().merge(stats);
        }
        tally.add(&o)
    });
    bar.finish_and_clear();
    let seconds = start.elapsed().as_secs_f64();
    let st = tally.stats();
    let gps = if seconds > 0.0 {
        st.games as f64 / seconds
    } else {
        0.0
    };
    let run = Run {
        args: &args,
        batch: &batch,
        bots: &bots,
        profile: &profile,
        seconds,
        gps,
    };
    if args.json {
        io.say(json(&run, &st)?);
    } else {
        text(&run, &st, io);
    }
    if let Some(note) = crate::runs::left_out_note(&def.id, &st.figures) {
        io.note(note);
    }
    Ok(if st.errors == 0 && st.playout_errors == 0 {
        0
    } else {
        1
    })
}

/// The run as `--json` prints it (through a JSON value, whose keys are in order of name).
fn json(run: &Run, st: &Stats) -> Result<serde_json::Value, Fail> {
    let report = Report {
        stats: st,
        seconds: run.seconds,
        games_per_second: run.gps,
        seed: run.args.seed,
        players: run.batch.setup.seats,
        bots: run.bots,
        forbid: &run.batch.forbid.ids,
        profile: run.args.profile.then(|| profile_json(run.profile)),
    };
    serde_json::to_value(&report).map_err(|e| Fail::Invalid(e.to_string()))
}

/// The run for people.
fn text(run: &Run, st: &Stats, io: &mut Io) {
    let (args, def, forbid) = (run.args, &run.batch.def, &run.batch.forbid);
    let (bots, seats, seconds, gps) = (run.bots, run.batch.setup.seats, run.seconds, run.gps);
    let threads = run.batch.threads;
    io.say(format!(
        "{} ({} players, bots {}), seeds {}..{}",
        def.name,
        seats,
        bots.join(","),
        args.seed,
        args.seed.wrapping_add(args.games.saturating_sub(1))
    ));
    // Errors in the search bots' playouts are errors too, though the games played on.
    let errors = match (st.errors, st.playout_errors) {
        (e, 0) => e.to_string(),
        (0, p) => format!(
            "{p} in the search bot's playouts, in {} {} ({} playouts; the games played on)",
            st.playout_error_games,
            crate::common::plural(st.playout_error_games as usize, "game"),
            st.playouts
        ),
        (e, p) => format!(
            "{e}, and {p} in the search bot's playouts ({} playouts)",
            st.playouts
        ),
    };
    io.say(format!(
        "games     {}  finished {}  capped {} (cap {} actions)  errors {errors}",
        st.games, st.finished, st.capped, args.cap
    ));
    for e in &st.error_messages {
        io.say(format!("  error: {e}"));
    }
    for e in &st.playout_error_messages {
        io.say(format!("  error in a playout: {e}"));
    }
    for f in st.failed_games.iter().filter(|f| f.capped).take(3) {
        io.say(format!(
            "  capped: seed {} at action {} (`farebox record {} --seed {}` replays it)",
            f.seed,
            f.action,
            crate::common::shown(&args.game, crate::common::MAX_SHOWN),
            f.seed
        ));
    }
    if !forbid.ids.is_empty() {
        io.say(format!(
            "forbidden {}{}: every action offered was forbidden at {} {}, so the bot chose among them all",
            forbid.ids.join(", "),
            forbid
                .seat
                .map_or(String::new(), |s| format!(" to {}", def.seat_name(s.into()))),
            st.forced,
            crate::common::plural(st.forced as usize, "decision")
        ));
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
    if let Some(line) = crate::runs::tie_line(st) {
        io.say(line);
    }
    if !args.no_figures {
        for line in figure_lines(def, st) {
            io.say(line);
        }
    }
    if !st.endings.is_empty() {
        let mut endings: Vec<(&String, &usize)> = st.endings.iter().collect();
        endings.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        io.say("endings");
        for (reason, count) in endings {
            io.say(format!(
                "  {count:>6}  {:>5.1}%  {}",
                *count as f64 * 100.0 / st.finished.max(1) as f64,
                crate::common::clean_line(reason)
            ));
        }
    }
    io.say(format!(
        "time      {seconds:.2} s, {gps:.1} games/s on {threads} {}",
        crate::common::plural(threads, "thread")
    ));
    if args.profile {
        for line in profile_lines(run.profile, args.steps_budget()) {
            io.say(line);
        }
    }
}
