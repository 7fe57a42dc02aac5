//! `farebox sim`: many bot games in parallel, with statistics.

use std::io::IsTerminal;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use farebox::GameDef;
use farebox::agent::{Checks, Forbid, Labels};
use farebox::batch::Batch;
use farebox::figures::{Stats, Tally};
use farebox::script::Profile;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use crate::cli::SimArgs;
use crate::common::{Fail, Io, load_for_play, seat_count, setup, split_list};
use crate::runs::{figure_lines, forbid_of, profile_json, profile_lines};
use crate::shards::{self, Settings, ShardFile, share};

/// What `sim --json` prints: the figures `test` compares, and how they were made.
#[derive(Serialize)]
struct Report<'a> {
    #[serde(flatten)]
    stats: &'a Stats,
    /// Left out of a merged run (`farebox merge`): each shard timed only its own part.
    #[serde(skip_serializing_if = "Option::is_none")]
    seconds: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    games_per_second: Option<f64>,
    seed: u64,
    players: u8,
    bots: &'a [String],
    forbid: &'a [String],
    /// Per hook and bot, with `--profile` only.
    #[serde(skip_serializing_if = "Option::is_none")]
    profile: Option<serde_json::Value>,
}

/// How a run was made besides its figures, for the lines that print it: a run played here,
/// or one merged from shard files (no time, no profile).
pub(crate) struct Run<'a> {
    /// The mod as the command line named it.
    pub game: &'a str,
    pub def: &'a GameDef,
    pub seed: u64,
    pub games: u64,
    pub cap: u32,
    pub seats: u8,
    pub bots: &'a [String],
    pub forbid: &'a Forbid,
    pub figures: bool,
    pub profile: Option<&'a Profile>,
    /// Seconds, games a second and threads, for a run played here.
    pub time: Option<(f64, f64, usize)>,
}

pub fn run(args: SimArgs, io: &mut Io) -> Result<i32, Fail> {
    let def = load_for_play(&args.game, io)?;
    if args.skill_trace {
        return crate::cli::cmd_skill::trace(&def, &args, io);
    }
    if args.hidden_value {
        return crate::cli::cmd_skill::hidden_value(&def, &args, io);
    }
    let bots = split_list(&args.bots, "--bots")?;
    if bots.is_empty() {
        return Err(Fail::Usage("--bots needs at least one agent".into()));
    }
    let seats = seat_count(&def, args.players, &bots);
    let mut base = setup(&def, seats, args.seed, &args.options)?;
    let options = serde_json::to_value(&base.options).map_err(|e| Fail::Invalid(e.to_string()))?;
    let settings = Settings {
        seed: args.seed,
        games: args.games,
        block: args.block,
        players: seats,
        bots: bots.clone(),
        options,
        cap: args.cap,
        forbid: args.forbid.clone(),
        forbid_seat: args.forbid_seat,
        figures: !args.no_figures,
    };
    // A shard plays whole blocks of the range: its games are those of its blocks.
    let blocks = match args.shard {
        Some((i, n)) => share(settings.blocks(), i, n),
        None => 0..settings.blocks(),
    };
    let games = settings.games_of(&blocks);
    base.seed = args.seed.wrapping_add(games.start);
    let batch = Batch::new(&def, base, &bots, args.cap)
        .map_err(Fail::Usage)?
        .games(games.end - games.start)
        .forbid(forbid_of(&def, &args.forbid, args.forbid_seat, seats)?);
    if let Some(other) = &args.vs {
        return crate::cli::cmd_vs::run(&batch, &args, &bots, other, io);
    }
    if let Some(deck) = &args.rank {
        return crate::cli::cmd_rank::run(&batch, &args, &bots, deck, io);
    }
    let threads = crate::common::threads_for(args.threads, batch.games);
    let batch = batch.threads(threads).checks(Checks {
        labels: Labels::Never,
        profile: args.profile,
        figures: !args.no_figures,
    });
    let bar = if std::io::stderr().is_terminal() {
        let pb = ProgressBar::new(batch.games);
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
    // the figures, not a million outcomes (a shard holds its blocks' sums, to write them).
    let mut tally = Tally::with_block(&def, seats, args.block);
    if args.shard.is_some() {
        tally = tally.keep_blocks();
    }
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
    if let (Some((i, n)), Some(out)) = (args.shard, &args.out) {
        let file = ShardFile {
            format: shards::FORMAT.into(),
            format_version: shards::FORMAT_VERSION,
            farebox: env!("CARGO_PKG_VERSION").into(),
            build: shards::build_id(),
            game: args.game.clone(),
            mod_id: def.id.clone(),
            mod_version: def.version.clone(),
            content_hash: def.content_hash.clone(),
            settings,
            shard: [i, n],
            first_block: blocks.start,
            blocks: tally.blocks(),
        };
        shards::write(out, &file)?;
        io.say(format!(
            "shard {i}/{n}: {} games, {} (blocks {}..{} of {}), in {seconds:.2} s; wrote {}",
            st.games,
            file.settings.seeds(&games),
            blocks.start,
            blocks.end,
            file.settings.blocks(),
            crate::common::shown_path(out)
        ));
        return Ok(exit_code(&st));
    }
    let gps = if seconds > 0.0 {
        st.games as f64 / seconds
    } else {
        0.0
    };
    let run = Run {
        game: &args.game,
        def: &def,
        seed: args.seed,
        games: args.games,
        cap: args.cap,
        seats,
        bots: &bots,
        forbid: &batch.forbid,
        figures: !args.no_figures,
        profile: args.profile.then_some(&profile),
        time: Some((seconds, gps, threads)),
    };
    show(&run, &st, args.json, io)
}

/// Prints a run's figures (JSON or text) and notes, and gives the exit code.
pub(crate) fn show(run: &Run, st: &Stats, json_out: bool, io: &mut Io) -> Result<i32, Fail> {
    if json_out {
        io.say(json(run, st)?);
    } else {
        text(run, st, io);
    }
    if let Some(note) = crate::runs::left_out_note(&run.def.id, &st.figures) {
        io.note(note);
    }
    Ok(exit_code(st))
}

/// 0 for a run without errors, 1 otherwise.
fn exit_code(st: &Stats) -> i32 {
    if st.errors == 0 && st.playout_errors == 0 {
        0
    } else {
        1
    }
}

/// The run as `--json` prints it (through a JSON value, whose keys are in order of name).
fn json(run: &Run, st: &Stats) -> Result<serde_json::Value, Fail> {
    let report = Report {
        stats: st,
        seconds: run.time.map(|t| t.0),
        games_per_second: run.time.map(|t| t.1),
        seed: run.seed,
        players: run.seats,
        bots: run.bots,
        forbid: &run.forbid.ids,
        profile: run.profile.map(profile_json),
    };
    serde_json::to_value(&report).map_err(|e| Fail::Invalid(e.to_string()))
}

/// The run for people.
fn text(run: &Run, st: &Stats, io: &mut Io) {
    let (def, forbid, bots, seats) = (run.def, run.forbid, run.bots, run.seats);
    io.say(format!(
        "{} ({} players, bots {}), seeds {}..{}",
        def.name,
        seats,
        bots.join(","),
        run.seed,
        run.seed.wrapping_add(run.games.saturating_sub(1))
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
        st.games, st.finished, st.capped, run.cap
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
            crate::common::shown(run.game, crate::common::MAX_SHOWN),
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
    if run.figures {
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
    if let Some((seconds, gps, threads)) = run.time {
        io.say(format!(
            "time      {seconds:.2} s, {gps:.1} games/s on {threads} {}",
            crate::common::plural(threads, "thread")
        ));
    }
    if let Some(profile) = run.profile {
        for line in profile_lines(profile, farebox::script::Limits::default().steps) {
            io.say(line);
        }
    }
}
