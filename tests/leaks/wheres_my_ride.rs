//! Where's My Ride?: the Riders never learn the pickup spot, and its secrets (the answer by
//! id, name and tags, hands, face-down stacks) are found by what they mean.

use super::*;

// ---- Where's My Ride?: the answer is which location is the pickup spot ----------------------
//
// Every location is face up, so the answer's id is no secret word the search above could look
// for: what must stay hidden is which of them it is. So a game is played to its end, then
// played again from the same seed with the same actions, once as dealt and once with the
// Driver's answer moved to another location that nobody guessed (the replay stops before a
// guess of the real answer, which the swap would turn into a miss). Everything a Rider is
// shown must be the same in both, label by label and view by view, and every choice a Rider
// bot makes must be the same: nothing a Rider sees, and nothing a Rider bot reads, depends
// on the answer.

fn wmr_setup(seats: u8, seed: u64, options: &[(&str, Value)]) -> Setup {
    let mut setup = Setup::new(seats, seed);
    for (k, v) in options {
        setup = setup.option(k, v.clone());
    }
    setup
}

/// What `seat` is shown after the action just applied: its view (without the log) and the
/// log lines written since `told` that it may read.
fn wmr_shown(g: &Game, seat: u8, told: usize) -> String {
    let mut view = g.view(Some(seat));
    view.log.clear();
    let lines: Vec<&str> = g.log()[told..]
        .iter()
        .filter(|e| e.seen.by(Some(seat)))
        .map(|e| e.text.as_ref())
        .collect();
    format!(
        "{}\n{}",
        serde_json::to_string(&view).unwrap(),
        lines.join("\n")
    )
}

/// How far a game could be replayed with the answer swapped.
#[derive(Debug, PartialEq)]
enum Replayed {
    /// Every other location was guessed: nothing to swap to.
    NothingToSwap,
    /// Every action up to the end (or to the guess of the real answer).
    Whole,
    /// Up to a Driver's action that the other answer makes impossible (Show, Don't Tell
    /// changes the Driver's hidden emojis by the answer): the Riders were compared until then.
    UntilTheDriverDiffers,
}

/// Plays one game of `def` with `bots`, then replays it with the answer swapped: the first
/// thing a Rider is shown or chooses differently is the error.
fn wmr_answer_leak(
    def: &Arc<GameDef>,
    bots: &[&str],
    seed: u64,
    options: &[(&str, Value)],
) -> Result<Replayed, String> {
    let seats = bots.len() as u8;
    let agents = |def: &Arc<GameDef>| -> Vec<Agent> {
        bots.iter()
            .enumerate()
            .map(|(i, b)| Agent::from_spec(b, def, seed, i as u8).unwrap())
            .collect()
    };
    // The game as the bots play it.
    let mut g = Game::new(def.clone(), wmr_setup(seats, seed, options)).unwrap();
    let answer = wmr_answer(&mut g);
    let mut players = agents(def);
    while !g.is_over() && g.history().len() < 600 {
        let actions = g.legal_actions().unwrap();
        let i = players[g.active() as usize]
            .choose(&mut g, &actions)
            .unwrap();
        g.apply_legal(&actions[i].clone()).unwrap();
    }
    assert!(g.is_over(), "seed {seed}: the game did not end");
    let history = g.history().to_vec();
    let driver = match g.eval("return game.get('_driver')").unwrap() {
        Value::Int(d) => (d - 1) as u8,
        other => panic!("no driver: {other:?}"),
    };
    let guessed = |loc: &str| history.iter().any(|a| *a == format!("guess {loc}"));
    let other = match g
        .eval("return game.cards(game.zone('candidates'))")
        .unwrap()
    {
        Value::List(l) => l
            .into_iter()
            .filter_map(|v| v.as_str().map(str::to_string))
            .find(|l| *l != answer && !guessed(l)),
        _ => None,
    };
    let Some(other) = other else {
        return Ok(Replayed::NothingToSwap);
    };
    let stop = history
        .iter()
        .position(|a| *a == format!("guess {answer}"))
        .unwrap_or(history.len());

    // The same actions, as dealt and with the answer moved.
    let mut a = Game::new(def.clone(), wmr_setup(seats, seed, options)).unwrap();
    let mut b = Game::new(def.clone(), wmr_setup(seats, seed, options)).unwrap();
    b.eval(&format!(
        "game.set_secret('_answer', '{other}', {})",
        driver + 1
    ))
    .unwrap();
    assert_eq!(wmr_answer(&mut b), other);
    let (mut in_a, mut in_b) = (agents(def), agents(def));
    let riders: Vec<u8> = (0..seats).filter(|s| *s != driver).collect();
    for (step, action) in history[..stop].iter().enumerate() {
        let seat = a.active();
        assert_eq!(
            seat,
            b.active(),
            "seed {seed}, step {step}: the turn differs"
        );
        let (la, lb) = (a.legal_actions().unwrap(), b.legal_actions().unwrap());
        if seat == driver && !lb.contains(action) {
            return Ok(Replayed::UntilTheDriverDiffers);
        }
        if seat != driver {
            if la != lb {
                return Err(format!(
                    "seed {seed}, step {step}: {} is offered {la:?} or {lb:?}",
                    seat + 1
                ));
            }
            // A Rider bot chooses the same with either answer.
            let (ca, cb) = (
                in_a[seat as usize].choose(&mut a, &la).unwrap(),
                in_b[seat as usize].choose(&mut b, &lb).unwrap(),
            );
            if ca != cb {
                return Err(format!(
                    "seed {seed}, step {step}: the Rider in seat {} chooses {} or {}",
                    seat + 1,
                    la[ca],
                    lb[cb]
                ));
            }
        }
        for &r in &riders {
            let (x, y) = (
                a.describe_for(action, Some(r)),
                b.describe_for(action, Some(r)),
            );
            if x != y {
                return Err(format!(
                    "seed {seed}, step {step}: seat {} is told `{x}` or `{y}`",
                    r + 1
                ));
            }
        }
        let (ta, tb) = (a.log().len(), b.log().len());
        a.apply_legal(action).unwrap();
        b.apply_legal(action).unwrap();
        for &r in &riders {
            let (x, y) = (wmr_shown(&a, r, ta), wmr_shown(&b, r, tb));
            if x != y {
                let at = x
                    .char_indices()
                    .zip(y.chars())
                    .find(|((_, p), q)| p != q)
                    .map_or(x.len().min(y.len()), |((i, _), _)| i);
                let around: String = x[at.saturating_sub(80)..].chars().take(160).collect();
                return Err(format!(
                    "seed {seed}, step {step} ({action}): seat {} is shown something else with another answer, at: {around}",
                    r + 1
                ));
            }
        }
    }
    Ok(Replayed::Whole)
}

/// Bots by seat and options of one table.
type WmrTable = (Vec<&'static str>, Vec<(&'static str, Value)>);

/// The table sizes, bots and options the answer test plays.
fn wmr_tables() -> Vec<WmrTable> {
    vec![
        (vec!["regular"; 4], vec![]),
        (vec!["regular", "regular"], vec![]),
        (
            vec!["regular", "regular"],
            vec![("two-player", Value::Bool(false))],
        ),
        (
            vec!["regular", "random", "regular"],
            vec![("driver", Value::Str("random".into()))],
        ),
        (
            vec![
                "regular", "regular", "random", "regular", "regular", "random", "regular",
                "regular",
            ],
            vec![
                ("triple-text", Value::Bool(true)),
                ("driver", Value::Str("random".into())),
            ],
        ),
        (
            vec!["random", "regular", "regular", "regular", "regular"],
            vec![("difficulty", Value::Str("harder".into()))],
        ),
    ]
}

#[test]
fn wheres_my_ride_riders_never_learn_the_answer() {
    // WR-R9, WR-B1
    for id in ["wheres-my-ride", "wheres-my-ride-show-dont-tell"] {
        let def = Arc::new(farebox_suite::load(id));
        let (mut whole, mut part) = (0, 0);
        for (bots, options) in wmr_tables() {
            for seed in 0..6 {
                match wmr_answer_leak(&def, &bots, seed, &options) {
                    Err(leak) => panic!("{id}, {} seats {options:?}: {leak}", bots.len()),
                    Ok(Replayed::Whole) => whole += 1,
                    Ok(Replayed::UntilTheDriverDiffers) => part += 1,
                    Ok(Replayed::NothingToSwap) => {}
                }
            }
        }
        // Only a game where every other location was guessed has nothing to swap to. In the
        // game nothing hidden depends on the answer, so every replay goes to the end; in the
        // house rule a Driver's fresh hand does, and a replay may stop at a placement the
        // other answer's Driver could not make.
        eprintln!("{id}: {whole} games replayed whole, {part} until the Driver's hands differ");
        assert!(
            whole + part >= 30,
            "{id}: only {} of 36 games compared",
            whole + part
        );
        if id == "wheres-my-ride" {
            assert_eq!(part, 0, "{id}: the Driver's choices depend on the answer");
        } else {
            assert!(whole >= 10, "{id}: only {whole} games replayed to the end");
        }
    }
}

#[test]
fn the_answer_swap_finds_a_leak() {
    // A Driver who lets slip, as they finish placing, whether the ride is indoors: nothing
    // hidden is named, so only the swap can tell.
    let mut mods = farebox_suite::bundled_in_memory();
    let src = mods.0.get_mut("wheres-my-ride").unwrap();
    let rules = src.files.get_mut("rules/wheres-my-ride.luau").unwrap();
    let before = rules.clone();
    *rules = rules.replacen(
        "\tgame.set(\"_phase\", \"guess\")\n",
        "\tgame.set(\"_phase\", \"guess\")\n\tif table.find(LOCATIONS[game.get(\"_answer\")].tags, \"indoor\") then game.log(\"The Driver looks cosy\") end\n",
        1,
    );
    assert_ne!(*rules, before, "the line to break was not found");
    let src = src.clone();
    let def = Arc::new(content::load_mod(&src, &mods).unwrap());
    let found = (0..10).find_map(|seed| wmr_answer_leak(&def, &["regular"; 4], seed, &[]).err());
    assert!(
        found
            .as_deref()
            .is_some_and(|l| l.contains("something else")),
        "{found:?}"
    );
}

#[test]
fn wheres_my_ride_hides_texts_and_tokens_under_every_option() {
    // The search above plays each game with its default options. Where's My Ride?'s options
    // change who texts and how many texts are drawn and kept, so each is played here as the
    // default of a copy made in memory, with bots and the random agent in every seat, as is
    // the house rule.
    let variants: [(&str, &str, &str); 5] = [
        (
            "wheres-my-ride",
            "default = false\n\n[[options]]\nid = \"driver\"",
            "default = true\n\n[[options]]\nid = \"driver\"",
        ),
        (
            "wheres-my-ride",
            "default = \"first-seat\"",
            "default = \"random\"",
        ),
        (
            "wheres-my-ride",
            "type = \"bool\"\ndefault = true",
            "type = \"bool\"\ndefault = false",
        ),
        (
            "wheres-my-ride",
            "default = \"normal\"",
            "default = \"harder\"",
        ),
        ("wheres-my-ride-show-dont-tell", "", ""),
    ];
    for (id, find, replace) in variants {
        let mut mods = farebox_suite::bundled_in_memory();
        let src = mods.0.get_mut(id).unwrap();
        if !find.is_empty() {
            let manifest = src.files.get_mut("mod.toml").unwrap();
            assert_eq!(manifest.matches(find).count(), 1, "{find}");
            *manifest = manifest.replacen(find, replace, 1);
        }
        let src = src.clone();
        let def = Arc::new(content::load_mod(&src, &mods).unwrap());
        for bots in [
            &[
                "regular", "random", "regular", "regular", "random", "regular", "regular", "random",
            ][..],
            &["random", "regular", "regular"],
            &["regular", "random"],
            &["random", "regular"],
        ] {
            assert_eq!(
                first_leak(&def, bots, 0..3),
                None,
                "{id}: {find} -> {replace}"
            );
        }
    }
}

// ---- Where's My Ride?: its secrets by what they mean ----------------------------------------
//
// The searches above look for the words of hidden cards and the values of variables marked
// secret; a secret that a rules change makes public (a variable set with `game.set`, a line
// logged to everyone) is no longer marked, so they cannot see it go. Here the game's secrets
// are named by meaning, whatever holds them:
//
// - the pickup spot (the Driver's answer): its location id, its name and its tags as the
//   Driver's screen lists them (in the card's order or sorted). Until the Riders guess it, no
//   Rider is shown any of them, in its view (variables, pieces, counters: the zones list all
//   nine places alike and are checked below), in a log line it may read (the setup's lines
//   included) or in the label it is shown for an action;
// - what lies face down or in a hand: the location deck, the text deck, the discarded texts,
//   the emoji bag, the rating stack, the Driver's emojis, and every other seat's drawn and
//   chosen texts. No seat's view shows a card of them.

// The zones, the pickup spot's words and who drives are read by `farebox_suite::secrets`,
// which the wire's leak test (tests/leaks/online.rs) shares.

/// What `seat` is shown of a secret in its view, if anything: a card of a face-down zone or
/// of another seat's hand, or (for a Rider) one of `answer`'s words outside the zones.
fn wmr_view_leak(g: &Game, seat: u8, driver: u8, answer: &[String]) -> Option<String> {
    let mut view = g.view(Some(seat));
    view.log.clear();
    for z in &view.zones {
        let hidden = WMR_FACE_DOWN.contains(&z.id.as_str())
            || (WMR_HANDS.contains(&z.id.as_str()) && z.owner != Some(seat));
        if hidden && !z.cards.is_empty() {
            return Some(format!(
                "the cards of {} ({:?}): {:?}",
                z.id, z.owner, z.cards
            ));
        }
    }
    if seat == driver {
        return None;
    }
    view.zones.clear();
    let shown = serde_json::to_string(&view).unwrap();
    answer
        .iter()
        .find(|w| shown.contains(w.as_str()))
        .map(|w| format!("the pickup spot, `{w}`, in its view: {shown}"))
}

/// Plays one game of `def` with `bots` and returns the first secret a seat is shown.
fn wmr_secret_leak(
    def: &Arc<GameDef>,
    bots: &[&str],
    seed: u64,
    options: &[(&str, Value)],
) -> Option<String> {
    let seats = bots.len() as u8;
    let mut g = Game::new(def.clone(), wmr_setup(seats, seed, options)).unwrap();
    let answer = wmr_answer_words(&mut g);
    let driver = wmr_driver(&mut g);
    let mut agents: Vec<Agent> = bots
        .iter()
        .enumerate()
        .map(|(i, b)| Agent::from_spec(b, def, seed, i as u8).unwrap())
        .collect();
    let named = |text: &str| answer.iter().find(|w| text.contains(w.as_str())).cloned();
    // The setup: every line a Rider may read, and its view.
    for s in 0..seats {
        if let Some(leak) = wmr_view_leak(&g, s, driver, &answer) {
            return Some(format!(
                "seed {seed}, at setup: seat {} is shown {leak}",
                s + 1
            ));
        }
        if s == driver {
            continue;
        }
        for e in g.log().iter().filter(|e| e.seen.by(Some(s))) {
            if let Some(w) = named(&e.text) {
                return Some(format!(
                    "seed {seed}, at setup: seat {} reads `{w}` in: {}",
                    s + 1,
                    e.text
                ));
            }
        }
    }
    let mut step = 0;
    while !g.is_over() && step < 600 {
        let actions = g.legal_actions().unwrap();
        let i = agents[g.active() as usize]
            .choose(&mut g, &actions)
            .unwrap();
        let action = actions[i].clone();
        // The right guess names the pickup spot to everyone, and ends the game.
        let found = action == format!("guess {}", answer[0]);
        let labels: Vec<String> = (0..seats)
            .map(|s| g.describe_for(&action, Some(s)))
            .collect();
        let told = g.log().len();
        g.apply_legal(&action).unwrap();
        step += 1;
        for s in 0..seats {
            if let Some(leak) = wmr_view_leak(&g, s, driver, &answer)
                && !found
            {
                return Some(format!(
                    "seed {seed}, action {step} ({action}): seat {} is shown {leak}",
                    s + 1
                ));
            }
            if s == driver || found {
                continue;
            }
            let lines = g.log()[told..]
                .iter()
                .filter(|e| e.seen.by(Some(s)))
                .map(|e| e.text.as_ref())
                .chain([labels[s as usize].as_str()]);
            for line in lines {
                if let Some(w) = named(line) {
                    return Some(format!(
                        "seed {seed}, action {step} ({action}): seat {} is told `{w}` in: {line}",
                        s + 1
                    ));
                }
            }
        }
    }
    None
}

#[test]
fn wheres_my_ride_secrets_by_meaning_stay_hidden() {
    // WR-R9, WR-S4, WR-S5, WR-R2: the game and its house rule, at every table the answer
    // swap plays, bots and random agents.
    for id in ["wheres-my-ride", "wheres-my-ride-show-dont-tell"] {
        let def = Arc::new(farebox_suite::load(id));
        for (bots, options) in wmr_tables() {
            for seed in 0..4 {
                if let Some(leak) = wmr_secret_leak(&def, &bots, seed, &options) {
                    panic!("{id}, {} seats {options:?}: {leak}", bots.len());
                }
            }
        }
    }
}

/// A leaky copy: what it leaks, the file changed, and the edits (find, replace).
type LeakyCopy = (
    &'static str,
    &'static str,
    &'static [(&'static str, &'static str)],
);

#[test]
fn the_secret_search_finds_each_kind_of_leak() {
    // Deliberately leaky copies of Where's My Ride?, each making one secret public in a way
    // nothing marks as secret any more: the search above must find every one.
    const RULES: &str = "rules/wheres-my-ride.luau";
    let leaks: [LeakyCopy; 7] = [
        (
            "the Driver's screen is a public variable",
            RULES,
            &[(
                "game.set_secret(\"pickup spot\", spot.name .. \": \" .. table.concat(spot.tags, \", \"), d)",
                "game.set(\"pickup spot\", spot.name .. \": \" .. table.concat(spot.tags, \", \"))",
            )],
        ),
        (
            "the answer is a public variable",
            RULES,
            &[(
                "game.set_secret(\"_answer\", answer, d)",
                "game.set(\"_answer\", answer)",
            )],
        ),
        (
            "the Driver's setup line is logged to everyone",
            RULES,
            &[(".. \")\",\n\t\td\n\t)", ".. \")\"\n\t)")],
        ),
        (
            "the answer is written into a public log line",
            RULES,
            &[(
                "game.log(game.seat_name(seat) .. \" is done, \" .. how",
                "game.log(game.seat_name(seat) .. \" is done (\" .. LOCATIONS[game.get(\"_answer\")].name .. \"), \" .. how",
            )],
        ),
        (
            // A label cannot read the secret for a seat that may not (game.get answers nil),
            // so the leaky rules keep the answer's tags where labels can reach them.
            "the answer's tags are written into the label everyone is shown",
            RULES,
            &[
                (
                    "local ZONES: { [string]: number } = {}",
                    "local ZONES: { [string]: number } = {}\nlocal KEPT = { tags = {} }",
                ),
                (
                    "game.set_secret(\"_answer\", answer, d)",
                    "game.set_secret(\"_answer\", answer, d)\n\tKEPT.tags = LOCATIONS[answer].tags",
                ),
                (
                    "return { \"Puts \" .. emoji_said(token) .. \" on \" .. sender .. \"'s text\" }",
                    "return { \"Puts \" .. emoji_said(token) .. \" on \" .. sender .. \"'s text (\" .. table.concat(KEPT.tags, \", \") .. \")\" }",
                ),
            ],
        ),
        (
            "the Driver's emojis lie face up",
            "pieces.toml",
            &[(
                "name = \"Emojis behind the screen\"\nper_seat = true\nvisibility = \"owner\"",
                "name = \"Emojis behind the screen\"\nper_seat = true\nvisibility = \"public\"",
            )],
        ),
        (
            "the rating stack lies face up",
            "pieces.toml",
            &[(
                "id = \"rating-stack\"\nname = \"Rating tiles\"\nvisibility = \"hidden\"",
                "id = \"rating-stack\"\nname = \"Rating tiles\"\nvisibility = \"public\"",
            )],
        ),
    ];
    for (what, file, edits) in leaks {
        let mut mods = farebox_suite::bundled_in_memory();
        let src = mods.0.get_mut("wheres-my-ride").unwrap();
        let text = src.files.get_mut(file).unwrap();
        for (find, replace) in edits {
            assert_eq!(text.matches(find).count(), 1, "{what}: {find}");
            *text = text.replacen(find, replace, 1);
        }
        let src = src.clone();
        let def = Arc::new(content::load_mod(&src, &mods).unwrap());
        let found = (0..4).find_map(|seed| wmr_secret_leak(&def, &["regular"; 4], seed, &[]));
        assert!(found.is_some(), "{what}: not found");
        eprintln!(
            "{what}: {}",
            found.unwrap().chars().take(200).collect::<String>()
        );
    }
}
