//! `farebox bench` and `farebox bench-load`: honest timings with `Instant`.

use std::sync::Arc;
use std::time::Instant;

use std::sync::atomic::AtomicBool;

use farebox::batch::Batch;
use farebox::script::{Host, Limits};
use farebox::source::FolderResolver;

use crate::cli::BenchArgs;
use crate::cli::cmd_validate::{DEEP, Depth, QUICK, call_order_problem, trial_games};
use crate::common::{Fail, Io, Located, load_for_play, load_located, mods_dir, setup};

pub fn run(args: BenchArgs, io: &mut Io) -> Result<i32, Fail> {
    if args.load {
        return run_load(args.iterations, io);
    }
    if args.validate {
        let depth = if args.deep { DEEP } else { QUICK };
        return run_validate(args.iterations, depth, io);
    }
    let spec = args
        .game
        .clone()
        .ok_or_else(|| Fail::Usage("bench needs a MOD (or --load)".into()))?;
    let def = load_for_play(&spec, io)?;
    if let Some(search) = &args.search {
        return run_search(&def, search, args.against.as_deref(), &args, io);
    }
    let games = args.games.unwrap_or(200);
    let seats = def.players.0.min(255) as u8;
    let base = setup(&def, seats, args.seed, &[])?;
    let batch = Batch::new(&def, base, &["random".to_string()], 5000)
        .map_err(Fail::Usage)?
        .games(games);
    let start = Instant::now();
    let mut actions = 0u64;
    let mut errors = 0u64;
    batch.play(&AtomicBool::new(false), &|| {}, &mut |o| {
        actions += o.actions as u64;
        if let Some(e) = o.error {
            errors += 1;
            if errors == 1 {
                io.note(format!("error: seed {}: {e}", o.seed));
            }
        }
    });
    let secs = start.elapsed().as_secs_f64();
    let gps = if secs > 0.0 { games as f64 / secs } else { 0.0 };
    let aps = if secs > 0.0 {
        actions as f64 / secs
    } else {
        0.0
    };
    io.say(format!(
        "{}: {} random games ({} players, {actions} actions) in {secs:.3} s: {gps:.1} games/s, {aps:.0} actions/s (1 thread){}",
        def.id,
        games,
        seats,
        if errors > 0 { format!(", {errors} errors") } else { String::new() }
    ));
    Ok(if errors > 0 { 1 } else { 0 })
}

/// `bench MOD --search SPEC`: the search bot against another agent, two seats alternating.
fn run_search(
    def: &Arc<farebox::GameDef>,
    search: &str,
    against: Option<&str>,
    args: &BenchArgs,
    io: &mut Io,
) -> Result<i32, Fail> {
    if def.players.0 > 2 || def.players.1 < 2 {
        return Err(Fail::Usage(format!(
            "bench --search plays two-seat games, and {} is for {} to {} players",
            def.name, def.players.0, def.players.1
        )));
    }
    let other = against
        .map(str::to_string)
        .unwrap_or_else(|| def.bots.first().map_or("random".into(), |b| b.id.clone()));
    let games = args.games.unwrap_or(10).min(u64::from(u32::MAX)) as u32;
    let base = setup(def, 2, args.seed, &[])?;
    let d = farebox::duel::duel(def, &base, search, &other, games, 5000).map_err(Fail::Usage)?;
    io.say(format!("{}: {}", def.id, d.summary(search, &other)));
    if let Some(e) = &d.error {
        io.note(format!("error: {e}"));
    }
    if let Some(e) = &d.playout_failures.first {
        io.note(format!("error in a playout: {e}"));
    }
    Ok(if d.error.is_some() || d.playout_failures.errors > 0 {
        1
    } else {
        0
    })
}

/// Loads (and, for playable mods, compiles the scripts of) every bundled mod, `rounds` times.
pub fn run_load(rounds: u32, io: &mut Io) -> Result<i32, Fail> {
    let dir = mods_dir();
    let all = FolderResolver::new(&dir).all();
    if all.is_empty() {
        return Err(Fail::Usage(format!(
            "no mods found in {}",
            crate::common::shown_path(&dir)
        )));
    }
    let rounds = rounds.max(1);
    let mut per_mod = vec![0f64; all.len()];
    let mut failed = Vec::new();
    let start = Instant::now();
    for _ in 0..rounds {
        for (i, (id, folder)) in all.iter().enumerate() {
            let t = Instant::now();
            let l = Located {
                folder: folder.clone(),
                resolver: FolderResolver::new(&dir),
                name: id.clone(),
            };
            let ok = match load_located(&l) {
                Ok(def) => !def.playable() || Host::new(Arc::new(def), Limits::default()).is_ok(),
                Err(_) => false,
            };
            per_mod[i] += t.elapsed().as_secs_f64();
            if !ok && !failed.contains(id) {
                failed.push(id.clone());
            }
        }
    }
    let total_ms = start.elapsed().as_secs_f64() * 1000.0 / rounds as f64;
    let w = all.iter().map(|(id, _)| id.len()).max().unwrap_or(0);
    for ((id, _), t) in all.iter().zip(&per_mod) {
        io.say(format!("{id:<w$}{:>9.2} ms", t * 1000.0 / rounds as f64));
    }
    io.say(format!(
        "all {} mods: {total_ms:.2} ms mean cold load+validate over {rounds} rounds",
        all.len()
    ));
    if !failed.is_empty() {
        io.note(format!("error: did not validate: {}", failed.join(", ")));
        return Ok(1);
    }
    Ok(0)
}

/// `bench --validate`: what `farebox validate` of each bundled mod costs, part by part, over
/// `rounds` rounds, each mod from its files and on a new VM as a `validate` process does
/// (milliseconds, means over the rounds). A mod that fails any part is named at the end.
fn run_validate(rounds: u32, depth: Depth, io: &mut Io) -> Result<i32, Fail> {
    let dir = mods_dir();
    let all = FolderResolver::new(&dir).all();
    if all.is_empty() {
        return Err(Fail::Usage(format!(
            "no mods found in {}",
            crate::common::shown_path(&dir)
        )));
    }
    let rounds = rounds.max(1);
    // Per mod: loading, a new VM, the trial games, the replays with extra calls.
    let mut parts = vec![[0f64; 4]; all.len()];
    let mut failed = Vec::new();
    for _ in 0..rounds {
        for (i, (id, folder)) in all.iter().enumerate() {
            let l = Located {
                folder: folder.clone(),
                resolver: FolderResolver::new(&dir),
                name: id.clone(),
            };
            let mut t = Instant::now();
            let mut lap = |part: usize| {
                parts[i][part] += t.elapsed().as_secs_f64();
                t = Instant::now();
            };
            let ok = match load_located(&l) {
                Ok(def) if def.playable() => {
                    let def = Arc::new(def);
                    lap(0);
                    match Host::new(def.clone(), Limits::default()) {
                        Ok(host) => {
                            lap(1);
                            let mut vm = Some(host);
                            let trial = trial_games(&def, &mut vm, depth);
                            lap(2);
                            let order = call_order_problem(&def, depth, &mut vm);
                            lap(3);
                            trial.is_none() && order.is_none()
                        }
                        Err(_) => false,
                    }
                }
                Ok(_) => {
                    lap(0);
                    true
                }
                Err(_) => false,
            };
            if !ok && !failed.contains(id) {
                failed.push(id.clone());
            }
        }
    }
    let ms = |s: f64| s * 1000.0 / rounds as f64;
    let w = all.iter().map(|(id, _)| id.len()).max().unwrap_or(0).max(3);
    io.say(format!(
        "farebox validate{} of each bundled mod: milliseconds, means over {rounds} {}, one thread",
        if depth == DEEP { " --deep" } else { "" },
        crate::common::plural(rounds as usize, "round")
    ));
    io.say(format!(
        "  {:<w$}{:>9}{:>9}{:>9}{:>9}{:>9}",
        "mod", "load", "vm", "trials", "replays", "total"
    ));
    let mut sum = [0f64; 4];
    for ((id, _), p) in all.iter().zip(&parts) {
        for (s, x) in sum.iter_mut().zip(p) {
            *s += x;
        }
        io.say(format!(
            "  {id:<w$}{:>9.2}{:>9.2}{:>9.2}{:>9.2}{:>9.2}",
            ms(p[0]),
            ms(p[1]),
            ms(p[2]),
            ms(p[3]),
            ms(p.iter().sum())
        ));
    }
    io.say(format!(
        "  {:<w$}{:>9.2}{:>9.2}{:>9.2}{:>9.2}{:>9.2}",
        format!("all {}", all.len()),
        ms(sum[0]),
        ms(sum[1]),
        ms(sum[2]),
        ms(sum[3]),
        ms(sum.iter().sum())
    ));
    if !failed.is_empty() {
        io.note(format!("error: did not validate: {}", failed.join(", ")));
        return Ok(1);
    }
    Ok(0)
}
