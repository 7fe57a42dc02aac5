//! `farebox sim MOD --rank DECK`: what each card of a deck is worth, from restricted play.
//! The run's games are played as they are, then again once per card of the deck with that
//! card kept from one seat (`--forbid-seat`, default the first): the drop in that seat's
//! win rate is what the card is worth to it. A card whose absence raises the win rate is a
//! trap; one whose absence costs a lot may dominate the game.
//!
//! Two ways to keep the card from the seat. Forbidden (the default): the seat still draws
//! and holds it but never chooses an action naming it, so the card is dead weight in its
//! hand; in a game of small hands that costs a place in the hand whatever the card, and
//! every card looks valuable. Removed (`--remove`): the seat never draws it either
//! ([`farebox::game::Barred`]: it draws the next card down, and the card stays for the
//! others), which is what having the card is worth against never seeing it.
//!
//! Removal works on draws (`game.move_card`). A card the rules hand to the seat by name
//! (`game.take_card`, as Curbside deals each driver's starting gas canteen and re-route) is
//! not drawn, and there is no next card to give instead, so removal leaves it in the seat's
//! hand and the card is only forbidden: its worth is the forbidden one. Such a card is
//! found by setting up the run's first game with it removed and looking in the seat's zones,
//! and said so beside its worth (`held_at_setup`).
//!
//! The same seeds are played every time, so the runs differ only where the card's absence
//! changed the game. The worth's interval is therefore paired by seed: over the games both
//! runs finished, the per-game difference `dᵢ` (1 when the seat won with the card and lost
//! without it, -1 the other way, else 0), `mean ± 1.96·sd(d)/√n` (`worth_paired_interval`).
//! The unpaired 95% Wald interval of two independent proportions,
//! `±1.96·√(p₀q₀/n₀ + p₁q₁/n₁)`, is kept beside it (`worth_interval`): what two runs on
//! different seeds would need, and what the paired one is measured against.

use std::sync::atomic::AtomicBool;

use farebox::agent::{Checks, Forbid, Labels};
use farebox::game::{Barred, Setup};
use serde_json::json;

use crate::cli::SimArgs;
use crate::common::{Fail, Io};
use farebox::batch::Batch;
use farebox::figures::{Stats, Tally, Welford, mean_interval};

/// What forbidding one card did.
struct Ranked {
    card: String,
    name: String,
    /// The seat's win rate without the card.
    without: f64,
    /// How much the seat's win rate dropped without it, and the interval of that.
    worth: f64,
    half: f64,
    /// The paired difference (with the card minus without it, per game both finished): its
    /// mean, its 95% interval and the games paired.
    paired: Option<f64>,
    paired_interval: Option<[f64; 2]>,
    paired_games: u64,
    forced: u64,
    /// Removed, yet the seat holds it when its first game is set up: the rules handed it
    /// over by name, and removal measured the card forbidden.
    held_at_setup: bool,
}

/// Whether seat `seat` holds card `id` once `base`'s game is set up with the card removed
/// from that seat's draws: the rules handed it over by name (`game.take_card`).
fn held_at_setup(def: &std::sync::Arc<farebox::GameDef>, base: &Setup, seat: u8, id: &str) -> bool {
    let mut one = base.clone();
    one.barred = Some(Barred {
        seat,
        ids: vec![id.to_string()],
    });
    let Ok(game) = farebox::game::Game::new(def.clone(), one) else {
        return false;
    };
    let name = |c: &farebox::state::CardRef| {
        def.decks
            .get(usize::from(c.deck))
            .and_then(|d| d.cards.get(usize::from(c.card)))
            .is_some_and(|c| c.id == id)
    };
    game.state()
        .zones
        .iter()
        .filter(|z| z.owner == Some(seat))
        .any(|z| z.cards.iter().any(name))
}

/// Per game of a run, in seed order: whether the seat won, if the game finished.
type Wins = Vec<Option<bool>>;

/// The per-game differences `with - without` of the games both finished.
fn pair(with: &Wins, without: &Wins) -> Welford {
    let mut d = Welford::default();
    for (a, b) in with.iter().zip(without) {
        if let (Some(a), Some(b)) = (a, b) {
            d.add(f64::from(u8::from(*a)) - f64::from(u8::from(*b)));
        }
    }
    d
}

/// The figures of `batch` with every card, and what forbidding (or with `remove`, removing)
/// each card of deck `d` to `seat` (0-based) did to that seat's win rate.
fn rank(
    batch: &Batch,
    d: &farebox::content::def::DeckDef,
    seat: u8,
    remove: bool,
) -> (Stats, Vec<Ranked>) {
    let play = |forbid: &Forbid, base: &Setup| -> (Stats, Wins) {
        let mut tally = Tally::new(&batch.def, base.seats);
        let mut wins = Wins::new();
        let mut one = batch.clone().forbid(forbid.clone());
        one.setup = base.clone();
        one.play(&AtomicBool::new(false), &|| {}, &mut |o| {
            tally.add(&o);
            wins.push(
                o.result
                    .as_ref()
                    .map(|r| r.winners().contains(&usize::from(seat))),
            );
        });
        (tally.stats(), wins)
    };
    let base = &batch.setup;
    let rate = |s: &Stats| s.win_rate.get(seat as usize).copied().unwrap_or(0.0);
    let (all, all_wins) = play(&Forbid::NONE, base);
    let (p0, n0) = (rate(&all), all.finished.max(1) as f64);
    let mut ranked = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for c in &d.cards {
        if !seen.insert(c.id.as_str()) {
            continue;
        }
        let mut without = base.clone();
        if remove {
            without.barred = Some(Barred {
                seat,
                ids: vec![c.id.clone()],
            });
        }
        let (st, wins) = play(
            &Forbid {
                ids: vec![c.id.clone()],
                seat: Some(seat),
            },
            &without,
        );
        let (p1, n1) = (rate(&st), st.finished.max(1) as f64);
        let d = pair(&all_wins, &wins);
        let (mean, sd) = d.mean_sd();
        ranked.push(Ranked {
            paired: d.mean(),
            paired_interval: mean_interval(mean, sd, d.count()),
            paired_games: d.count(),
            card: c.id.clone(),
            name: c.name.clone(),
            without: p1,
            worth: p0 - p1,
            half: farebox::figures::Z95 * (p0 * (1.0 - p0) / n0 + p1 * (1.0 - p1) / n1).sqrt(),
            forced: st.forced,
            held_at_setup: remove && held_at_setup(&batch.def, base, seat, &c.id),
        });
    }
    (all, ranked)
}

/// `farebox sim --rank DECK`: `batch` is the run as `sim` would play it, `bots` its agents
/// as given.
pub fn run(
    batch: &Batch,
    args: &SimArgs,
    bots: &[String],
    deck: &str,
    io: &mut Io,
) -> Result<i32, Fail> {
    let def = &batch.def;
    let Some(d) = def.deck(deck).and_then(|i| def.decks.get(i)) else {
        let hint = farebox::diag::suggestion(deck, def.decks.iter().map(|d| d.id.as_str()));
        return Err(Fail::Usage(format!(
            "--rank {}: {} has no deck of that id{hint}",
            crate::common::shown(deck, 60),
            def.name
        )));
    };
    let seats = batch.setup.seats;
    let seat = args.forbid_seat.unwrap_or(1);
    if seat == 0 || seat > seats {
        return Err(Fail::Usage(format!(
            "--forbid-seat {seat}: the game has seats 1 to {seats}"
        )));
    }
    let seat = seat - 1;
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, crate::common::MAX_THREADS as usize);
    let threads = args.threads.map_or(threads, usize::from);
    let batch = batch.clone().threads(threads).checks(Checks {
        labels: Labels::Never,
        profile: false,
        figures: false,
    });
    let (all, mut ranked) = rank(&batch, d, seat, args.remove);
    let p0 = all.win_rate.get(seat as usize).copied().unwrap_or(0.0);
    ranked.sort_by(|a, b| b.worth.total_cmp(&a.worth).then(a.card.cmp(&b.card)));
    let who = def.seat_name(seat as usize);
    let how = if args.remove { "removed" } else { "forbidden" };
    if args.json {
        io.say(json!({
            "deck": d.id,
            "seat": seat + 1,
            "without": how,
            "games": args.games,
            "seed": args.seed,
            "bots": bots,
            "win_rate": p0,
            "errors": all.errors,
            "cards": ranked.iter().map(|r| json!({
                "card": r.card,
                "name": r.name,
                "win_rate_without": r.without,
                "worth": r.worth,
                "worth_interval": [r.worth - r.half, r.worth + r.half],
                "worth_paired": r.paired,
                "worth_paired_interval": r.paired_interval,
                "paired_games": r.paired_games,
                "forced": r.forced,
                "held_at_setup": r.held_at_setup,
            })).collect::<Vec<_>>(),
        }));
    } else {
        io.say(format!(
            "{}: the cards of deck {} ranked by what each is worth to {who} ({} games each, bots {}); {who} wins {:.1}% with every card",
            def.name,
            d.id,
            args.games,
            bots.join(","),
            p0 * 100.0
        ));
        io.say(if args.remove {
            "worth = how much the win rate drops when the card is removed from that seat's game: it never draws the card (it draws the next one instead) nor plays it (negative: the card is a trap); its 95% interval paired by seed in brackets (the same seeds are played with and without the card, so the luck both share cancels), then the unpaired one of two independent runs"
        } else {
            "worth = how much the win rate drops when that seat may never play the card, though it still draws and holds it (a dead card in the hand: every card of a small hand looks valuable; --remove takes the card out of the seat's draws instead); its 95% interval paired by seed in brackets (the same seeds are played with and without the card, so the luck both share cancels), then the unpaired one of two independent runs"
        });
        for r in &ranked {
            let mut forced = if r.forced > 0 {
                format!(", forced {} times", r.forced)
            } else {
                String::new()
            };
            if r.held_at_setup {
                forced.push_str(", held from setup (only forbidden)");
            }
            let paired = match r.paired_interval {
                Some([lo, hi]) => format!("({:+.1} to {:+.1} paired, ", lo * 100.0, hi * 100.0),
                None => "(no game paired, ".to_string(),
            };
            io.say(format!(
                "  {:<24} {:+6.1} pts {paired}{:+.1} to {:+.1} unpaired)  without it {:.1}%{forced}  {}",
                crate::common::cut(&r.card, 24),
                r.worth * 100.0,
                (r.worth - r.half) * 100.0,
                (r.worth + r.half) * 100.0,
                r.without * 100.0,
                crate::common::clean_line(&r.name)
            ));
        }
    }
    let kept: Vec<&str> = ranked
        .iter()
        .filter(|r| r.held_at_setup)
        .map(|r| r.card.as_str())
        .collect();
    if !kept.is_empty() && !args.json {
        io.note(format!(
            "{}: {} {} dealt to {who} by name when the game is set up (game.take_card in the rules), not drawn, so --remove cannot keep {} from the seat: it holds {} but may not play {}, and the worth shown is the forbidden one",
            def.id,
            kept.join(", "),
            if kept.len() == 1 { "is" } else { "are" },
            if kept.len() == 1 { "it" } else { "them" },
            if kept.len() == 1 { "it" } else { "them" },
            if kept.len() == 1 { "it" } else { "them" },
        ));
    }
    Ok(if all.errors == 0 { 0 } else { 1 })
}
