//! What every game's outcome tests share: the transcript of one seeded game as the table hears
//! it, statistics over many seeded games, and a bot's margin over a rival with seats
//! alternating. Each returns text or figures; the tests snapshot or assert them.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Arc;

use farebox::GameDef;
use farebox::agent::Agent;
use farebox::batch::Batch;
use farebox::game::{Game, Setup};

/// Worker threads for the long simulations (outcomes do not depend on it).
pub fn threads() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get())
}

/// One seeded game of `agents` (one per seat), as everyone at the table is told it: each
/// action's public label and the public log lines it wrote (with `setup_log`, those written
/// at setup first), then the result and the final state hash. At most `max` actions; whether
/// the game ended is returned beside the text.
pub fn transcript(
    def: &Arc<GameDef>,
    agents: &[&str],
    seed: u64,
    max: usize,
    setup_log: bool,
) -> (String, bool) {
    let mut game = Game::new(def.clone(), Setup::new(agents.len() as u8, seed))
        .unwrap_or_else(|e| panic!("the game does not start: {e}"));
    let mut agents: Vec<Agent> = agents
        .iter()
        .enumerate()
        .map(|(s, a)| {
            Agent::from_spec(a, def, seed, s as u8).unwrap_or_else(|e| panic!("agent {a}: {e}"))
        })
        .collect();
    let mut out = String::new();
    let public = |out: &mut String, game: &Game, from: usize| {
        for entry in &game.log()[from..] {
            if entry.seen.by(None) {
                let _ = writeln!(out, "           * {}", entry.text);
            }
        }
    };
    if setup_log {
        public(&mut out, &game, 0);
    }
    let mut n = 0;
    while !game.is_over() && n < max {
        let actions = game
            .legal_actions()
            .unwrap_or_else(|e| panic!("actions: {e}"));
        let seat = game.active();
        let i = agents[seat as usize]
            .choose(&mut game, &actions)
            .unwrap_or_else(|e| panic!("choose: {e}"));
        let label = game.describe_public(&actions[i]);
        let told = game.log().len();
        game.apply_legal(&actions[i])
            .unwrap_or_else(|e| panic!("apply: {e}"));
        let _ = writeln!(
            out,
            "{:>3} {:<6} {}",
            n + 1,
            def.seat_name(seat as usize),
            label
        );
        public(&mut out, &game, told);
        n += 1;
    }
    let _ = writeln!(out, "result: {:?}", game.result());
    let _ = writeln!(out, "final state hash: {}", game.state().hash());
    (out, game.is_over())
}

fn mean_sd(xs: &[f64]) -> (f64, f64) {
    let n = xs.len().max(1) as f64;
    let m = xs.iter().sum::<f64>() / n;
    let v = xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / n;
    (m, v.sqrt())
}

/// Figures over 1,000 seeded games (seeds 0 to 999) of `seats` seats played by `agents` (one
/// for every seat, or one for all): win rate per seat, ties, game length, each seat's score (called
/// `score`, e.g. "stars") and how games ended. No game may fail.
pub fn statistics(def: &Arc<GameDef>, seats: usize, agents: &[&str], score: &str) -> String {
    let (mut wins, mut ties) = (vec![0u32; seats], 0u32);
    let (mut lengths, mut scores, mut capped) = (Vec::new(), vec![Vec::new(); seats], 0);
    let mut endings = BTreeMap::<String, u32>::new();
    let agents: Vec<String> = agents.iter().map(|a| a.to_string()).collect();
    let games = Batch::new(def, Setup::new(seats as u8, 0), &agents, 5000)
        .unwrap_or_else(|e| panic!("{e}"))
        .games(1000)
        .threads(threads());
    for o in games.outcomes() {
        assert!(o.error.is_none(), "seed {}: {:?}", o.seed, o.error);
        let Some(r) = o.result.filter(|_| !o.capped) else {
            capped += 1;
            continue;
        };
        *endings.entry(r.reason.clone()).or_default() += 1;
        ties += u32::from(r.is_tie());
        for s in r.winners() {
            wins[s] += 1;
        }
        lengths.push(o.actions as f64);
        for (list, score) in scores.iter_mut().zip(&r.scores) {
            list.push(*score as f64);
        }
    }
    let (lm, ls) = mean_sd(&lengths);
    let mut out = format!(
        "games: 1000, seats: {seats}, agents: {}, capped: {capped}\n",
        agents.join(",")
    );
    let rates: Vec<String> = wins
        .iter()
        .map(|w| format!("{:.3}", *w as f64 / 1000.0))
        .collect();
    let _ = writeln!(out, "win rate per seat: {rates:?}");
    let _ = writeln!(
        out,
        "ties: {ties} (a tie for first is a win for each tied seat)"
    );
    let _ = writeln!(out, "game length (actions): mean {lm:.1}, sd {ls:.1}");
    for (s, sc) in scores.iter().enumerate() {
        let (m, sd) = mean_sd(sc);
        let _ = writeln!(out, "seat {} {score}: mean {m:.2}, sd {sd:.2}", s + 1);
    }
    for (reason, count) in &endings {
        let _ = writeln!(out, "ended: {count} x {reason}");
    }
    out
}

/// 500 two-seat games of `bot` against `rival` from `first_seed` on, `bot` in seat 1 in the
/// even games and seat 2 in the odd ones, so that neither side keeps the first move.
pub fn alternating(def: &Arc<GameDef>, bot: &str, rival: &str, first_seed: u64) -> Batch {
    let agents = [bot.to_string(), rival.to_string()];
    Batch::new(def, Setup::new(2, first_seed), &agents, 5000)
        .unwrap_or_else(|e| panic!("{e}"))
        .games(500)
        .threads(threads())
        .vary(|i, _, seats| {
            if i % 2 == 1 {
                seats.swap(0, 1);
            }
        })
}

/// How a bot fared against a rival over [`alternating`] games.
#[derive(Debug)]
pub struct Margin {
    /// Games the bot won outright (a shared first place is not a win).
    pub bot_wins: u32,
    /// Games the rival placed first in.
    pub rival_wins: u32,
    /// Games stopped at the action cap.
    pub capped: u32,
    /// The bot's score less the rival's, summed over the finished games.
    pub score_margin: i64,
}

/// Plays [`alternating`] games of `bot` against `rival` on `def`; no game may fail.
pub fn margin(def: &Arc<GameDef>, bot: &str, rival: &str, first_seed: u64) -> Margin {
    let games = alternating(def, bot, rival, first_seed);
    let mut m = Margin {
        bot_wins: 0,
        rival_wins: 0,
        capped: 0,
        score_margin: 0,
    };
    for (i, o) in games.outcomes().iter().enumerate() {
        assert!(o.error.is_none(), "{:?}", o.error);
        let me = i % 2;
        let Some(r) = &o.result else {
            m.capped += 1;
            continue;
        };
        m.score_margin += r.scores[me] - r.scores[1 - me];
        if r.places[me] == 1 && r.places[1 - me] != 1 {
            m.bot_wins += 1;
        } else if r.places[1 - me] == 1 {
            m.rival_wins += 1;
        }
    }
    m
}
