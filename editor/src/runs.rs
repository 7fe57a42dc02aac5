//! What seeded runs of many games print and share, for `sim`, `test`, `rank` and the
//! Studio's Outcomes tab: the lines that print the figures (worked out by
//! [`farebox::figures::Tally`]), the profile of hook and bot calls, restricted play checked
//! against the content, and the outcome of a game cut to what a person is shown. The games
//! themselves are played by [`farebox::batch::Batch`].

use farebox::agent::{Forbid, Outcome};
use farebox::figures::{ContentFigure, Figures, MAX_REASON, Stats};
use farebox::script::Profile;
use serde_json::json;

use crate::common::{Fail, plural};

/// At which decisions the games `test` plays make the labels of every action offered (the
/// acting seat's and the public one), so a `describe` hook that fails only in play is found:
/// about one in four, which finds a hook that fails often at once, and costs about half as
/// much again as the games alone (every decision would cost three times as much).
pub const LABELS: farebox::agent::Labels = farebox::agent::Labels::OneIn(4);

/// `o` with its error and its ending's reason cut to what a person is shown, for the runs
/// that keep their outcomes (the Studio's): the figures cut them the same way.
pub fn shortened(mut o: Outcome) -> Outcome {
    if let Some(e) = &mut o.error {
        *e = crate::common::cut(e, 500);
    }
    if let Some(r) = &mut o.result
        && r.reason.chars().count() > MAX_REASON
    {
        r.reason = crate::common::cut(&r.reason, MAX_REASON);
    }
    o
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
                "api_calls_mean": s.api_calls as f64 / calls,
            }),
        );
    }
    serde_json::Value::Object(out)
}

/// A profile's hooks and bots, the one with the heaviest single call first (then by name):
/// the order `sim --profile` and the Studio's script profile list them in.
pub fn heaviest_first(p: &Profile) -> Vec<(&String, &farebox::script::CallStats)> {
    let mut rows: Vec<_> = p.iter().collect();
    rows.sort_by(|a, b| b.1.max_steps.cmp(&a.1.max_steps).then(a.0.cmp(b.0)));
    rows
}

/// A profile as a table for people: a line per hook and bot, the heaviest (by worst steps)
/// first, with the worst call's share of the step budget.
pub fn profile_lines(p: &Profile, budget: u64) -> Vec<String> {
    let rows = heaviest_first(p);
    let mut out = vec![format!(
        "{:<24}{:>10}{:>12}{:>12}{:>8}{:>10}{:>10}{:>10}",
        "profile", "calls", "steps mean", "steps max", "budget", "ms mean", "ms max", "api mean"
    )];
    for (name, s) in rows {
        let calls = s.calls.max(1) as f64;
        out.push(format!(
            "{:<24}{:>10}{:>12.0}{:>12}{:>7.1}%{:>10.3}{:>10.2}{:>10.1}",
            crate::common::cut(name, 24),
            s.calls,
            s.steps as f64 / calls,
            s.max_steps,
            s.max_steps as f64 * 100.0 / budget.max(1) as f64,
            s.nanos as f64 / calls / 1e6,
            s.max_nanos as f64 / 1e6,
            s.api_calls as f64 / calls
        ));
    }
    out
}

/// The first of `ids` the content does not have, and a sentence saying so ("Curbside has no
/// card, tile, piece or option value of that id; did you mean ...").
pub fn unknown_id<'i>(def: &farebox::GameDef, ids: &'i [String]) -> Option<(&'i str, String)> {
    let catalog = def.catalog();
    let id = ids.iter().find(|id| !catalog.knows(id))?;
    let near = farebox::diag::suggestion(id, catalog.ids());
    Some((
        id,
        format!(
            "{} has no card, tile, piece or option value of that id{near}",
            def.name
        ),
    ))
}

/// The `--forbid` ids as restricted play, each checked against the content: an id nothing
/// is called is refused with the names nearest to it.
pub fn forbid_of(
    def: &farebox::GameDef,
    ids: &[String],
    seat: Option<u8>,
    seats: u8,
) -> Result<Forbid, Fail> {
    if let Some((id, why)) = unknown_id(def, ids) {
        return Err(Fail::Usage(format!(
            "--forbid {}: {why}",
            crate::common::shown(id, 60)
        )));
    }
    if let Some(s) = seat
        && (s == 0 || s > seats)
    {
        return Err(Fail::Usage(format!(
            "--forbid-seat {s}: the game has seats 1 to {seats}"
        )));
    }
    Ok(Forbid {
        ids: ids.to_vec(),
        seat: seat.map(|s| s - 1),
    })
}

/// "52.3% (48.1-56.4%)".
pub fn rate_text(rate: Option<f64>, interval: Option<[f64; 2]>) -> String {
    match (rate, interval) {
        (Some(r), Some([lo, hi])) => {
            format!("{:.1}% ({:.1}-{:.1}%)", r * 100.0, lo * 100.0, hi * 100.0)
        }
        (Some(r), None) => format!("{:.1}%", r * 100.0),
        _ => "-".into(),
    }
}

/// "ties      12.5% (9.9-15.6%) of 400 finished games: a tie for first is a win for each
/// tied seat" (None when no
/// game finished, or the figures predate ties).
pub fn tie_line(st: &Stats) -> Option<String> {
    st.tie_rate?;
    Some(format!(
        "ties      {} of {} finished {}: a tie for first is a win for each tied seat",
        rate_text(st.tie_rate, st.tie_rate_interval),
        st.finished,
        plural(st.finished, "game")
    ))
}

/// A warning when the rules recorded more `game.stat` names than a run summarises: the names
/// past the limit are left out of the figures, and the person should know which.
pub fn left_out_note(game: &str, f: &Figures) -> Option<String> {
    if f.stats_left_out == 0 {
        return None;
    }
    let at_least = if f.stats_left_out as usize >= farebox::figures::MAX_LEFT_OUT {
        "at least "
    } else {
        ""
    };
    let first: Vec<String> = f
        .stats_left_out_first
        .iter()
        .map(|n| format!("`{}`", crate::common::shown(n, 64)))
        .collect();
    Some(format!(
        "{game}: warning: the rules recorded {at_least}{} game.stat {} past the {} a run summarises, and {} left out of these figures ({}{}); record a fixed set of names, and count the rest under one of them",
        f.stats_left_out,
        plural(f.stats_left_out as usize, "name"),
        farebox::figures::MAX_RUN_STATS,
        if f.stats_left_out == 1 {
            "it is"
        } else {
            "they are"
        },
        if f.stats_left_out as usize > first.len() {
            "the first: "
        } else {
            ""
        },
        first.join(", ")
    ))
}

/// The figures about the game as a whole and its content, for people: the first mover, the
/// spread of lengths, the lead, the rules' own figures, and per deck (and for tiles, pieces
/// and options) the items whose players won most and least often against the others.
pub fn figure_lines(def: &farebox::GameDef, st: &Stats) -> Vec<String> {
    let f = &st.figures;
    let mut out = Vec::new();
    out.push(
        "(win rates: ties for first count as a win for each tied seat; 95% intervals in brackets)"
            .to_string(),
    );
    if f.first_mover_games > 0 {
        out.push(format!(
            "first mover wins {} of {} games",
            rate_text(f.first_mover_win_rate, f.first_mover_win_rate_interval),
            f.first_mover_games
        ));
    }
    for (what, s) in [("turns", &f.turns_spread), ("actions", &f.actions_spread)] {
        if let Some(s) = s {
            out.push(format!(
                "length in {what}: shortest {}, 10% under {}, median {}, 90% under {}, longest {}",
                s.min, s.p10, s.median, s.p90, s.max
            ));
        }
    }
    if let (Some(counter), Some(m)) = (&f.score_counter, f.lead_changes_mean) {
        let [lo, hi] = f.lead_changes_interval.unwrap_or([m, m]);
        let mut line =
            format!("lead on `{counter}`: changes {m:.2} times a game ({lo:.2}-{hi:.2})");
        if let Some(at) = f.winner_took_lead_at {
            let [lo, hi] = f.winner_took_lead_at_interval.unwrap_or([at, at]);
            line.push_str(&format!(
                "; in {} games the winner led alone to the end, taking the lead for good {:.0}% of the way in ({:.0}-{:.0}%)",
                f.winner_led_for_good_games,
                at * 100.0,
                lo * 100.0,
                hi * 100.0
            ));
        }
        out.push(line);
    }
    for (name, s) in &f.stats {
        out.push(format!(
            "stat {name}: mean {:.3} ({:.3}-{:.3}), sd {:.3}, in {} games",
            s.mean, s.interval[0], s.interval[1], s.sd, s.games
        ));
    }
    let mut groups: Vec<(String, Vec<(&String, &ContentFigure)>)> = Vec::new();
    for d in &def.decks {
        let cards = f.cards.iter().filter(|(_, c)| c.group == d.id).collect();
        groups.push((format!("deck {}", d.id), cards));
    }
    groups.push(("tiles".into(), f.tiles.iter().collect()));
    groups.push(("pieces".into(), f.pieces.iter().collect()));
    groups.push(("options".into(), f.options.iter().collect()));
    for (title, mut items) in groups {
        items.retain(|(_, c)| c.effect().is_some());
        if items.is_empty() {
            continue;
        }
        items.sort_by(|a, b| {
            let (x, y) = (a.1.effect().unwrap_or(0.0), b.1.effect().unwrap_or(0.0));
            y.abs().total_cmp(&x.abs()).then(a.0.cmp(b.0))
        });
        out.push(format!(
            "{title}: largest effects on win rate (of {}; the seats that played it, else held it, against the rest)",
            items.len()
        ));
        for (key, c) in items.iter().take(5) {
            out.push(format!("  {}", content_line(key, c)));
        }
    }
    for d in &def.decks {
        let cards: Vec<(&String, &ContentFigure)> =
            f.cards.iter().filter(|(_, c)| c.group == d.id).collect();
        let mut timing: Vec<(f64, &String, &ContentFigure)> = cards
            .iter()
            .filter_map(|(k, c)| {
                let spread = [&c.held_by_third, &c.played_by_third]
                    .into_iter()
                    .filter_map(|by| timing_spread(by))
                    .fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.max(x))));
                spread.map(|s| (s, *k, *c))
            })
            .collect();
        timing.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
        if !timing.is_empty() {
            out.push(format!(
                "deck {}: when a card was got and played (thirds of the game by actions; the {} of {} with the widest gap between thirds)",
                d.id,
                timing.len().min(5),
                timing.len()
            ));
            for (_, key, c) in timing.iter().take(5) {
                for line in why_lines(key, c)
                    .into_iter()
                    .filter(|l| !l.contains("held to the end"))
                {
                    out.push(format!("  {line}"));
                }
            }
        }
        let mut dead: Vec<(f64, &String, &ContentFigure)> = cards
            .iter()
            .filter_map(|(k, c)| c.dead_rate.map(|r| (r, *k, *c)))
            .filter(|(r, _, _)| *r > 0.0)
            .collect();
        dead.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
        if !dead.is_empty() {
            out.push(format!(
                "deck {}: dead cards, held to the end and never played (the {} of {} most often)",
                d.id,
                dead.len().min(5),
                dead.len()
            ));
            for (_, key, c) in dead.iter().take(5) {
                for line in why_lines(key, c)
                    .into_iter()
                    .filter(|l| l.contains("held to the end"))
                {
                    out.push(format!("  {line}"));
                }
            }
        }
    }
    out
}

/// One item's figures on a line.
pub fn content_line(key: &str, c: &ContentFigure) -> String {
    let (how, games, rate, interval, other, other_interval) =
        if c.win_rate_played.is_some() && c.win_rate_not_played.is_some() {
            (
                "played",
                c.games_played,
                c.win_rate_played,
                c.win_rate_played_interval,
                c.win_rate_not_played,
                c.win_rate_not_played_interval,
            )
        } else {
            (
                "held",
                c.games_held,
                c.win_rate_held,
                c.win_rate_held_interval,
                c.win_rate_not_held,
                c.win_rate_not_held_interval,
            )
        };
    format!(
        "{:<24} {:+5.1} pts  {how} in {games} games: wins {} against {}",
        crate::common::cut(key, 24),
        c.effect().unwrap_or(0.0) * 100.0,
        rate_text(rate, interval),
        rate_text(other, other_interval)
    )
}

/// The fewest seats a third of the game needs before its win rate is set against another's
/// in words: fewer say too little.
pub const FEWEST_IN_A_THIRD: u64 = 20;

const THIRDS: [&str; 3] = ["first", "middle", "last"];

/// The third of the game with the highest win rate and the one with the lowest, among those
/// with at least [`FEWEST_IN_A_THIRD`] seats: (best, worst), None with fewer than two such
/// thirds.
pub fn best_and_worst_third(by: &[farebox::figures::ThirdFigure]) -> Option<(usize, usize)> {
    let known: Vec<(usize, f64)> = by
        .iter()
        .enumerate()
        .filter(|(_, t)| t.seats >= FEWEST_IN_A_THIRD)
        .filter_map(|(i, t)| t.win_rate.map(|r| (i, r)))
        .collect();
    if known.len() < 2 {
        return None;
    }
    let best = known
        .iter()
        .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))?;
    let worst = known
        .iter()
        .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)))?;
    Some((best.0, worst.0))
}

/// How much more often the seats that got a card (or played it) in its best third won than
/// those in its worst: the number the Studio's timing column sorts by.
pub fn timing_spread(by: &[farebox::figures::ThirdFigure]) -> Option<f64> {
    let (best, worst) = best_and_worst_third(by)?;
    Some(by.get(best)?.win_rate? - by.get(worst)?.win_rate?)
}

/// What a card's timing and dead-card figures say, in sentences: "Turbo wins most when got in
/// the first third of the game: 45.0% (40.1-49.9%), against 20.0% (15.2-25.8%) in the last
/// third", and "Canteen is held to the end unplayed by 41.0% (37.2-44.9%) of the seats that
/// hold it; those seats win 12.0%". `name` is how the card is called. Nothing is said of a
/// figure with too few seats to say it.
pub fn why_lines(name: &str, c: &ContentFigure) -> Vec<String> {
    let mut out = Vec::new();
    for (by, how) in [(&c.held_by_third, "got"), (&c.played_by_third, "played")] {
        let Some((best, worst)) = best_and_worst_third(by) else {
            continue;
        };
        let (Some(b), Some(w)) = (by.get(best), by.get(worst)) else {
            continue;
        };
        if best == worst || b.win_rate == w.win_rate {
            out.push(format!(
                "{name} wins as often whenever it is {how} ({})",
                rate_text(b.win_rate, b.win_rate_interval)
            ));
            continue;
        }
        // Intervals that meet: the difference may be chance.
        let apart = match (b.win_rate_interval, w.win_rate_interval) {
            (Some([lo, _]), Some([_, hi])) => lo > hi,
            _ => false,
        };
        out.push(format!(
            "{name} wins most when {how} in the {} third of the game: {} of {} seats, against {} of {} in the {} third{}",
            THIRDS[best],
            rate_text(b.win_rate, b.win_rate_interval),
            b.seats,
            rate_text(w.win_rate, w.win_rate_interval),
            w.seats,
            THIRDS[worst],
            if apart { "" } else { " (the intervals meet: it may be chance)" }
        ));
    }
    if let (Some(dead), Some(rate)) = (c.seats_dead, c.dead_rate) {
        let then = match c.win_rate_dead {
            Some(w) if dead > 0 => format!("; those seats win {:.1}%", w * 100.0),
            _ => String::new(),
        };
        out.push(format!(
            "{name} is held to the end unplayed by {} of the {} seats that hold it{then}",
            rate_text(Some(rate), c.dead_rate_interval),
            c.seats_held
        ));
    }
    out
}

/// What the game-wide figures of `st` say, in sentences: the tie rate, and how early the
/// result is decided.
pub fn game_why_lines(st: &Stats) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(t) = st.tie_rate {
        out.push(if st.ties == Some(0) {
            format!("No game of {} ended in a tie.", st.finished)
        } else {
            format!(
                "{} of the games end in a tie for first.",
                rate_text(Some(t), st.tie_rate_interval)
            )
        });
    }
    let f = &st.figures;
    if let (Some(at), Some(counter)) = (f.winner_took_lead_at, &f.score_counter) {
        let [lo, hi] = f.winner_took_lead_at_interval.unwrap_or([at, at]);
        let when = match at {
            a if a < 1.0 / 3.0 => "early: the result is mostly decided in the first third",
            a if a < 2.0 / 3.0 => "midway",
            _ => "late: the result stays open into the last third",
        };
        out.push(format!(
            "The winner leads alone on `{counter}` for good from {:.0}% of the way in ({:.0}-{:.0}%, over the {} games it did), {when}.",
            at * 100.0,
            lo * 100.0,
            hi * 100.0,
            f.winner_led_for_good_games
        ));
    }
    out
}
