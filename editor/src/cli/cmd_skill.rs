//! `farebox sim MOD --skill-trace` and `farebox sim MOD --hidden-value`: two analyses that
//! pit the search bot against a fixed opponent (two seats, seats alternating, the same seeds
//! for every line, through `farebox::duel`).
//!
//! - The skill trace plays the search bot at rising budgets: a game where more thinking wins
//!   more rewards skill; one where it does not is mostly luck.
//! - The value of hidden information plays the search bot that sees every secret against the
//!   honest one. That bot exists only here: no agent name makes it, so `play`, the server and
//!   the Studio refuse it (see `farebox::agent::SEES_ALL_REFUSED`).

use std::sync::Arc;

use farebox::GameDef;
use farebox::agent::AgentSpec;
use farebox::duel::{Duel, duel, duel_of};

use crate::cli::SimArgs;
use crate::common::{Fail, Io, setup};

/// The budgets of `--budgets`: playouts a decision, 0 for no thinking (the playout bot
/// itself), in the order given; at least two.
fn budgets(list: &str) -> Result<Vec<u32>, Fail> {
    let mut out = Vec::new();
    for word in list.split(',').map(str::trim).filter(|w| !w.is_empty()) {
        match word.parse::<u32>() {
            Ok(n) if n <= farebox::search::MAX_PLAYOUTS => out.push(n),
            _ => {
                return Err(Fail::Usage(format!(
                    "--budgets: `{word}` is not a number of playouts from 0 to {}",
                    farebox::search::MAX_PLAYOUTS
                )));
            }
        }
    }
    if out.len() < 2 {
        return Err(Fail::Usage(
            "--budgets needs at least two budgets, comma separated (e.g. 0,10,50)".into(),
        ));
    }
    Ok(out)
}

/// The two-seat check both analyses share.
fn two_seats(def: &GameDef, what: &str) -> Result<(), Fail> {
    if def.players.0 > 2 || def.players.1 < 2 {
        return Err(Fail::Usage(format!(
            "{what} plays two-seat games, and {} is for {} to {} players",
            def.name, def.players.0, def.players.1
        )));
    }
    Ok(())
}

/// The fixed opponent: `--against`, else the mod's first bot, else the random agent.
fn opponent(def: &GameDef, args: &SimArgs) -> String {
    args.against
        .clone()
        .unwrap_or_else(|| def.bots.first().map_or("random".into(), |b| b.id.clone()))
}

/// The games of a duel, at most `u32::MAX`.
fn games(args: &SimArgs) -> u32 {
    args.games.min(u64::from(u32::MAX)) as u32
}

/// A duel's line: the share won with its interval, and what did not finish.
fn line(d: &Duel) -> String {
    let (lo, hi) = d.interval();
    let mut s = format!(
        "won {} of {} ({:.1}%, 95% interval {:.1}-{:.1}%)",
        half(d.wins, d.ties),
        d.games,
        100.0 * d.share(),
        100.0 * lo,
        100.0 * hi
    );
    if d.unfinished > 0 {
        s.push_str(&format!(", {} unfinished", d.unfinished));
    }
    s
}

/// Wins, ties included (a tie for first counts as a win for each tied seat).
fn half(wins: u32, ties: u32) -> String {
    if ties > 0 {
        format!("{wins} (ties {ties})")
    } else {
        wins.to_string()
    }
}

/// A duel's failure, if any, as the run's error.
fn failed(d: &Duel, io: &mut Io) -> bool {
    if let Some(e) = &d.error {
        io.note(format!("error: {e}"));
    }
    if let Some(e) = &d.playout_failures.first {
        io.note(format!("error in a playout: {e}"));
    }
    d.error.is_some() || d.playout_failures.errors > 0
}

/// `sim MOD --skill-trace [--budgets 0,10,50] [--against AGENT]`.
pub fn trace(def: &Arc<GameDef>, args: &SimArgs, io: &mut Io) -> Result<i32, Fail> {
    two_seats(def, "--skill-trace")?;
    let budgets = budgets(&args.budgets)?;
    let other = opponent(def, args);
    AgentSpec::parse(&other, def).map_err(Fail::Usage)?;
    let base = setup(def, 2, args.seed, &args.options)?;
    let n = games(args);
    let prior = def
        .bots
        .first()
        .map_or("random".to_string(), |b| b.id.clone());
    let mut rows: Vec<(u32, String, Duel)> = Vec::new();
    let mut bad = false;
    for &b in &budgets {
        let spec = if b == 0 {
            prior.clone()
        } else {
            format!("search:{b}")
        };
        let d = duel(def, &base, &spec, &other, n, args.cap).map_err(Fail::Usage)?;
        bad |= failed(&d, io);
        rows.push((b, spec, d));
    }
    let verdict = verdict(&rows);
    if args.json {
        let lines: Vec<serde_json::Value> = rows
            .iter()
            .map(|(b, spec, d)| {
                let (lo, hi) = d.interval();
                serde_json::json!({
                    "budget": b,
                    "agent": spec,
                    "games": d.games,
                    "wins": d.wins,
                    "ties": d.ties,
                    "unfinished": d.unfinished,
                    "win_rate": d.share(),
                    "win_rate_interval": [lo, hi],
                })
            })
            .collect();
        let v = serde_json::json!({
            "skill_trace": lines,
            "against": other,
            "seed": args.seed,
            "skill_pays": verdict.0,
            "verdict": verdict.1,
        });
        io.say(v.to_string());
    } else {
        io.say(format!(
            "skill trace of {}: the search bot at rising budgets against {other}, two seats alternating, {n} games a budget on seeds {}-{}",
            def.name,
            args.seed,
            args.seed.saturating_add(u64::from(n.max(1)) - 1)
        ));
        for (b, spec, d) in &rows {
            let who = if *b == 0 {
                format!("budget 0 ({spec}, no search)")
            } else {
                format!("budget {b} ({spec})")
            };
            io.say(format!("  {who}: {}", line(d)));
        }
        io.say(verdict.1);
    }
    Ok(if bad { 1 } else { 0 })
}

/// Whether more thinking won more: the highest budget's interval lies above the lowest
/// budget's. Returns that and the sentence saying it.
fn verdict(rows: &[(u32, String, Duel)]) -> (bool, String) {
    let (Some(low), Some(high)) = (
        rows.iter().min_by_key(|r| r.0),
        rows.iter().max_by_key(|r| r.0),
    ) else {
        return (false, String::new());
    };
    let (_, low_hi) = low.2.interval();
    let (high_lo, _) = high.2.interval();
    let (a, b) = (100.0 * low.2.share(), 100.0 * high.2.share());
    if high_lo > low_hi {
        (
            true,
            format!(
                "skill pays: more thinking wins more ({a:.0}% at budget {}, {b:.0}% at {}, intervals apart)",
                low.0, high.0
            ),
        )
    } else {
        (
            false,
            format!(
                "mostly luck: more thinking did not win clearly more ({a:.0}% at budget {}, {b:.0}% at {}, within chance over {} games each)",
                low.0, high.0, high.2.games
            ),
        )
    }
}

/// `sim MOD --hidden-value [--search SPEC]`: the search bot that sees every secret against
/// the honest one.
pub fn hidden_value(def: &Arc<GameDef>, args: &SimArgs, io: &mut Io) -> Result<i32, Fail> {
    two_seats(def, "--hidden-value")?;
    let spec = args.search.as_str();
    let honest = AgentSpec::parse(spec, def).map_err(Fail::Usage)?;
    let seeing = AgentSpec::seeing_every_secret(spec, def).map_err(Fail::Usage)?;
    let base = setup(def, 2, args.seed, &args.options)?;
    let n = games(args);
    let d = duel_of(def, &base, [seeing, honest], n, args.cap).map_err(Fail::Usage)?;
    let bad = failed(&d, io);
    // The difference of the two seats' win rates: with ties counted for both, each game
    // the seeing bot won alone is one it gained, each the honest bot won alone one it lost.
    let finished = d.games.saturating_sub(d.unfinished);
    let honest_wins = finished.saturating_sub(d.wins).saturating_add(d.ties);
    let diff = if d.games == 0 {
        0.0
    } else {
        (f64::from(d.wins) - f64::from(honest_wins)) / f64::from(d.games)
    };
    let (lo, hi) = d.interval();
    if args.json {
        let v = serde_json::json!({
            "hidden_value": {
                "search": spec,
                "games": d.games,
                "seeing_wins": d.wins,
                "honest_wins": honest_wins,
                "ties": d.ties,
                "unfinished": d.unfinished,
                "seeing_win_rate": d.share(),
                "seeing_win_rate_interval": [lo, hi],
                "difference": diff,
            },
            "seed": args.seed,
        });
        io.say(v.to_string());
    } else {
        io.say(format!(
            "value of hidden information in {}: {spec} seeing every secret against {spec} seeing only its seat's, two seats alternating, {n} games on seeds {}-{}",
            def.name,
            args.seed,
            args.seed.saturating_add(u64::from(n.max(1)) - 1)
        ));
        io.say(format!("  the bot that sees every secret {}", line(&d)));
        io.say(format!("  the honest bot won {honest_wins} of {}", d.games));
        let pts = 100.0 * diff;
        io.say(if lo > 0.5 {
            format!(
                "seeing every secret is worth {pts:.0} points of win rate: what is hidden matters in this game"
            )
        } else {
            format!(
                "seeing every secret won {pts:+.0} points of win rate, within chance: what is hidden matters little to this bot here"
            )
        });
    }
    Ok(if bad { 1 } else { 0 })
}
