//! `farebox test`: plays a mod's seeded games again and compares what they came to with the
//! outcomes accepted earlier (`snapshots/outcomes.json` in the mod folder). The same mod,
//! settings and seeds give the same games, so any difference comes from a change to the mod
//! (or to the engine): a rule tweak that shifts win rates shows up here before players see it.
//! Figures are compared by their 95% intervals ([`crate::compare`]): a figure changed only
//! when the intervals do not overlap. The accepted outcomes record the agents that played
//! them (`settings.bots`); accepting defaults to the mod's own bot in every seat. This is the
//! command's arguments and what it prints; reading, writing and playing the accepted outcomes
//! is [`crate::accepted`], which the Studio's Outcomes tab uses too.

use farebox::agent::AgentSpec;
use farebox::figures::Stats;

use crate::accepted::{Accepted, SNAPSHOT, Settings, own_bot, read_snapshot_for, write_snapshot};
use crate::cli::TestArgs;
use crate::common::{Fail, Io, load_located_for_play, locate, plural, seat_count, split_list};

/// How many open figures `test` lists (those the fewest more games would settle first).
const OPEN_SHOWN: usize = 10;

/// What failed in the search bots' playouts of a run: how many calls, in how many games, and
/// the first few failures in full.
fn playout_lines(id: &str, st: &Stats) -> Vec<String> {
    let mut out = vec![format!(
        "{id}: {} {} in the search bot's playouts, in {} {} ({} playouts)",
        st.playout_errors,
        plural(st.playout_errors as usize, "error"),
        st.playout_error_games,
        plural(st.playout_error_games as usize, "game"),
        st.playouts
    )];
    for m in &st.playout_error_messages {
        out.push(format!(
            "  error in a playout: {}",
            crate::common::clean_report(m)
        ));
    }
    out
}

/// The `farebox record` command that plays game `seed` of a run with `settings` again: the
/// same seats, agents, cap and options (restricted play is not recorded).
pub fn record_command(game: &str, settings: &Settings, seed: u64) -> String {
    let mut cmd = format!(
        "farebox record {} --seed {seed} --players {} --bots {} --cap {}",
        crate::common::shown(game, crate::common::MAX_SHOWN),
        settings.players,
        settings.bots.join(","),
        settings.cap
    );
    for o in &settings.options {
        cmd.push_str(&format!(" --option {o}"));
    }
    cmd.push_str(&format!(" --out seed-{seed}.replay.json"));
    cmd
}

/// The settings `test --accept` plays: each one given on the command line, else the one the
/// outcomes accepted before were played with (so accepting again after an edit plays the
/// same games, 500 of them where 500 were accepted), else the default. Says which it kept.
fn accept_settings(
    args: &TestArgs,
    folder: &std::path::Path,
    def: &std::sync::Arc<farebox::GameDef>,
    io: &mut Io,
) -> Result<Settings, Fail> {
    let before = match read_snapshot_for(folder, def) {
        Ok(snap) => snap.map(|s| s.settings),
        Err(e) => {
            io.note(format!(
                "{}\n{}: the accepted outcomes cannot be read, so settings not given take their defaults",
                e.message(),
                def.id
            ));
            None
        }
    };
    let bots = match (&args.bots, &before) {
        (Some(b), _) => split_list(b, "--bots")?,
        (None, Some(s)) => s.bots.clone(),
        (None, None) => vec![own_bot(def)],
    };
    if bots.is_empty() {
        return Err(Fail::Usage("--bots needs at least one agent".into()));
    }
    AgentSpec::parse_all(&bots, def).map_err(Fail::Usage)?;
    // The accepted seat count stays unless new agents name a different number of seats.
    let players = match (args.players, &before) {
        (Some(p), _) => Some(p),
        (None, Some(s)) if bots.len() == 1 || bots.len() == s.players as usize => Some(s.players),
        _ => None,
    };
    let settings = Settings {
        games: args
            .games
            .or(before.as_ref().map(|s| s.games))
            .unwrap_or(200)
            .max(1),
        seed: args.seed.or(before.as_ref().map(|s| s.seed)).unwrap_or(1),
        players: seat_count(def, players, &bots),
        bots,
        cap: args.cap.or(before.as_ref().map(|s| s.cap)).unwrap_or(5000),
        options: if args.options.is_empty() {
            before.as_ref().map_or_else(Vec::new, |s| s.options.clone())
        } else {
            args.options.clone()
        },
        forbid: Vec::new(),
    };
    if let Some(b) = &before {
        let mut kept = Vec::new();
        if args.games.is_none() {
            kept.push(format!("{} {}", b.games, plural(b.games as usize, "game")));
        }
        if args.seed.is_none() {
            kept.push(format!("from seed {}", b.seed));
        }
        if args.players.is_none() && settings.players == b.players {
            kept.push(format!("{} seats", b.players));
        }
        if args.bots.is_none() {
            kept.push(format!("agents {}", b.bots.join(",")));
        }
        if args.cap.is_none() {
            kept.push(format!("cap {}", b.cap));
        }
        if args.options.is_empty() && !b.options.is_empty() {
            kept.push(format!("options {}", b.options.join(" ")));
        }
        if !kept.is_empty() {
            io.note(format!(
                "{}: keeping the accepted settings not given: {}",
                def.id,
                kept.join(", ")
            ));
        }
    }
    Ok(settings)
}

/// `farebox test --accept`: plays the games and writes their outcomes as the accepted ones
/// of the mod in `folder`, unless a game failed (and failures are not accepted).
fn accept(
    args: &TestArgs,
    folder: &std::path::Path,
    def: &std::sync::Arc<farebox::GameDef>,
    io: &mut Io,
) -> Result<i32, Fail> {
    let path = folder.join(SNAPSHOT);
    let shown = crate::common::shown_path(&path);
    // Refused before any game is played: the file is replaced only when it is a regular
    // file (or not there yet).
    if let Some(why) = farebox::source::not_a_regular_file(&path) {
        return Err(Fail::Invalid(format!(
            "{shown}: error: {why}; accepted outcomes are written only over a regular file, so nothing was played or written"
        )));
    }
    let settings = accept_settings(args, folder, def, io)?;
    let (outcomes, games) = crate::accepted::stats(def, &settings)?;
    if let Some(note) = crate::runs::left_out_note(&def.id, &outcomes.figures) {
        io.note(note);
    }
    // Failed games are not an outcome to keep by accident: a mod whose scripts do not
    // load, or settings it refuses, fail every game, and accepting that would put a
    // run of errors where the good outcomes were.
    if outcomes.playout_errors > 0 && !args.accept_failures {
        for line in playout_lines(&def.id, &outcomes) {
            io.note(line);
        }
        io.note(format!(
            "{}: not accepted; {shown} is left as it was (fix what fails, or accept anyway with --accept-failures)",
            def.id
        ));
        return Ok(1);
    }
    if outcomes.failed() > 0 && !args.accept_failures {
        io.note(format!(
            "{}: not accepted: {}; {shown} is left as it was",
            def.id,
            outcomes.failed_line()
        ));
        if let Some(first) = outcomes.first_failure() {
            let mut lines = first.lines();
            if let Some(line) = lines.next() {
                io.note(format!("  the first: {}", crate::common::clean_line(line)));
            }
            for line in lines {
                io.note(format!(
                    "    {}",
                    crate::common::clean_line(line.trim_start())
                ));
            }
        }
        if let Some(g) = outcomes.failed_games.first() {
            io.note(format!(
                "  play it again, to replay and inspect: {}",
                record_command(&args.game, &settings, g.seed)
            ));
        }
        io.note(format!(
            "  fix what fails and accept again, or record these outcomes failures and all: farebox test {} --accept --accept-failures (with the same settings)",
            crate::common::shown(&args.game, crate::common::MAX_SHOWN)
        ));
        return Ok(1);
    }
    let per_game = Some(crate::paired::Record::of(&games, settings.players));
    let snap = Accepted {
        mod_version: def.version.clone(),
        settings,
        outcomes,
        per_game,
    };
    write_snapshot(folder, &snap)?;
    io.say(format!(
        "{}: accepted the outcomes of {} {} -> {shown}",
        def.id,
        snap.settings.games,
        plural(snap.settings.games as usize, "game")
    ));
    if let Some(line) = crate::runs::tie_line(&snap.outcomes) {
        io.say(line);
    }
    if snap.outcomes.failed() > 0 {
        io.note(format!(
            "{}: {}, and `farebox test` now expects them to",
            def.id,
            snap.outcomes.failed_line()
        ));
    }
    Ok(0)
}

pub fn run(args: TestArgs, io: &mut Io) -> Result<i32, Fail> {
    let located = locate(&args.game)?;
    let def = load_located_for_play(&located, &args.game, io)?;
    let path = located.folder.join(SNAPSHOT);
    let shown = crate::common::shown_path(&path);
    if args.accept {
        return accept(&args, &located.folder, &def, io);
    }
    // Outcomes mean little if the rules remember something between hook calls: the same
    // seeds would play otherwise on a screen that asks for labels, or under a bot that looks
    // ahead. Checked before the outcomes, as `validate --deep` does.
    if let Some(line) = crate::cli::cmd_validate::call_order_problem(
        &def,
        crate::cli::cmd_validate::DEEP,
        &mut None,
    ) {
        io.say(line);
        return Ok(1);
    }
    // Nor may a seat be shown what is hidden from it, in a label or a log line.
    if let Some(line) =
        crate::cli::cmd_validate::leak_problem(&def, crate::cli::cmd_validate::DEEP, &mut None)
    {
        io.say(line);
        return Ok(1);
    }
    let Some(snap) = read_snapshot_for(&located.folder, &def)? else {
        io.note(format!(
            "{}: no accepted outcomes yet ({shown} does not exist); run `farebox test {} --accept` to record them",
            def.id,
            crate::common::shown(&args.game, crate::common::MAX_SHOWN)
        ));
        return Ok(1);
    };
    let (now, games) = crate::accepted::stats(&def, &snap.settings)?;
    if let Some(note) = crate::runs::left_out_note(&def.id, &now.figures) {
        io.note(note);
    }
    // Figures of a search bot whose playouts fail are figures of another bot: a failure.
    if now.playout_errors > 0 {
        for line in playout_lines(&def.id, &now) {
            io.say(line);
        }
        return Ok(1);
    }
    let accepted_games = snap.games();
    let cmp = crate::compare::compare(
        &def,
        &snap.outcomes,
        &now,
        snap.settings.games,
        accepted_games.as_deref().map(|a| (a, games.as_slice())),
    );
    let s = &snap.settings;
    let what = format!(
        "{} {} (seeds {}..{}, {} players, bots {})",
        s.games,
        plural(s.games as usize, "game"),
        s.seed,
        s.seed.wrapping_add(s.games.saturating_sub(1)),
        s.players,
        s.bots.join(",")
    );
    if cmp.one_sided > 0 {
        io.note(format!(
            "{}: {} figures per card, tile, piece or option are on one side only (outcomes accepted before they were kept?); accept again to compare them",
            def.id, cmp.one_sided
        ));
    }
    match cmp.paired {
        Some(n) => {
            io.say(format!(
                "{}: win rates, the first mover's and the length compared seed by seed over {n} {} (paired: the luck both runs share cancels); a figure changed when its paired 95% interval leaves out 0:",
                def.id,
                plural(n as usize, "game")
            ));
            for line in &cmp.paired_lines {
                io.say(format!("  {}", crate::common::clean_line(line)));
            }
        }
        None => io.note(format!(
            "{}: the accepted outcomes keep no record of each game (accepted before it was kept), so every figure is compared as two independent runs; accept again to compare win rates and lengths seed by seed, which settles smaller changes",
            def.id
        )),
    }
    let ties = tie_comparison(&snap.outcomes, &now);
    if cmp.changed.is_empty() {
        if cmp.open.is_empty() {
            io.say(format!(
                "{}: outcomes match the accepted ones, {what}",
                def.id
            ));
            io.say(ties);
        } else {
            io.say(format!(
                "{}: outcomes match the accepted ones within their 95% intervals, {what}; {} {} moved but not beyond chance:",
                def.id,
                cmp.open.len(),
                plural(cmp.open.len(), "figure")
            ));
            for (line, more) in cmp.open.iter().take(OPEN_SHOWN) {
                io.say(format!(
                    "  {} (about {more} more games would settle it)",
                    crate::common::clean_line(line)
                ));
            }
            if cmp.open.len() > OPEN_SHOWN {
                io.say(format!("  and {} more", cmp.open.len() - OPEN_SHOWN));
            }
            io.say(ties);
        }
        return Ok(0);
    }
    io.say(format!(
        "{}: outcomes changed from the accepted ones beyond their 95% intervals, {what}:",
        def.id
    ));
    for d in &cmp.changed {
        io.say(format!("  {}", crate::common::clean_line(d)));
    }
    for e in &now.error_messages {
        io.say(format!("  error: {}", crate::common::clean_report(e)));
    }
    if !cmp.open.is_empty() {
        io.say(format!(
            "  and {} more {} moved but not beyond chance",
            cmp.open.len(),
            plural(cmp.open.len(), "figure")
        ));
    }
    io.say(ties);
    io.note(format!(
        "if the change is meant, accept the new outcomes: farebox test {} --accept (with the same settings)",
        crate::common::shown(&args.game, crate::common::MAX_SHOWN)
    ));
    Ok(1)
}

/// The tie rate now beside the accepted one: "  tie rate: accepted 12.5% (9.9-15.6%), now
/// 11.0% (8.6-14.0%) of 400 finished games" (a tie for first is a win for each tied seat).
fn tie_comparison(accepted: &Stats, now: &Stats) -> String {
    let now_text = crate::runs::rate_text(now.tie_rate, now.tie_rate_interval);
    let of = format!(
        "of {} finished {} (a tie for first is a win for each tied seat)",
        now.finished,
        plural(now.finished, "game")
    );
    if accepted.ties.is_none() {
        return format!(
            "  tie rate: now {now_text} {of}; the accepted outcomes predate the tie rate, so accept again to compare it"
        );
    }
    format!(
        "  tie rate: accepted {}, now {now_text} {of}",
        crate::runs::rate_text(accepted.tie_rate, accepted.tie_rate_interval)
    )
}
