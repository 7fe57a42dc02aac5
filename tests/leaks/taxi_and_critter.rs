//! Taxi Derby and Critter Cab: their secrets (hands, face-down decks, stacks and the bag)
//! found by what they mean, so a secret made public is still caught.

use super::*;

// ---- Taxi Derby and Critter Cab: their secrets by meaning --------------------------------
//
// The search above takes each zone's declared visibility at its word, so a zone made public
// by mistake would hide its own leak. Here the secrets are written down from the rulebooks,
// by what they are: for Critter Cab, a driver's movement cards and kept chance cards (seen by
// their owner only) and the three face-down decks; for Taxi Derby, the face-down passenger
// stacks, the upgrade bag, the ticket deck, the box and the passengers delivered under a
// rival's mat. Every card in them is looked for, by id and by name, in everything a seat is
// shown (unless a card it may see carries the same word), whatever the content declares.

/// Plays seeded games of `def` (the game `game`, or a house rule of it) with `bots`; the first
/// secret by meaning that a seat is shown, if any.
fn first_meant_leak(
    def: &Arc<GameDef>,
    game: &str,
    bots: &[&str],
    seeds: std::ops::Range<u64>,
) -> Option<String> {
    let seats = bots.len() as u8;
    for seed in seeds {
        let mut g = Game::new(def.clone(), Setup::new(seats, seed)).unwrap();
        let mut agents: Vec<Agent> = bots
            .iter()
            .enumerate()
            .map(|(i, b)| Agent::from_spec(b, def, seed, i as u8).unwrap())
            .collect();
        let mut step = 0;
        while !g.is_over() && step < 400 {
            let actions = g.legal_actions().unwrap();
            let i = agents[g.active() as usize]
                .choose(&mut g, &actions)
                .unwrap();
            let action = actions[i].clone();
            let labels: Vec<String> = (0..seats)
                .map(|s| g.describe_for(&action, Some(s)))
                .collect();
            // What each seat saw face up before the action stays known to it: a passenger
            // waved on to the bottom of a stack (Learner's Permit) was on show a moment ago.
            let seen_before: Vec<BTreeSet<String>> =
                (0..seats).map(|s| meant_words(&g, game, s).1).collect();
            let told = g.log().len();
            g.apply_legal(&action).unwrap();
            step += 1;
            for s in 0..seats {
                let (hidden, open) = meant_words(&g, game, s);
                let secrets: BTreeSet<&String> = hidden
                    .iter()
                    .filter(|w| !open.contains(*w) && !seen_before[s as usize].contains(*w))
                    .collect();
                let mut view = g.view(Some(s));
                view.log.clear();
                let lines: Vec<&str> = g.log()[told..]
                    .iter()
                    .filter(|e| e.seen.by(Some(s)))
                    .map(|e| e.text.as_ref())
                    .collect();
                let shown = format!(
                    "{}\n{}\n{}",
                    serde_json::to_string(&view).unwrap(),
                    lines.join("\n"),
                    labels[s as usize]
                );
                let said = format!("{}\n{}", lines.join("\n"), labels[s as usize]);
                if let Some(secret) = secrets
                    .into_iter()
                    .find(|w| shown.contains(&format!("\"{w}\"")) || said.contains(w.as_str()))
                {
                    return Some(format!(
                        "{game} seed {seed}, action {step} ({action}): seat {} is shown `{secret}`",
                        s + 1
                    ));
                }
            }
        }
    }
    None
}

#[test]
fn taxi_derby_and_critter_cab_keep_their_secrets_by_meaning() {
    for (id, game) in [
        ("critter-cab", "critter-cab"),
        ("critter-cab-no-sitting-out", "critter-cab"),
        ("taxi-derby", "taxi-derby"),
        ("taxi-derby-learners-permit", "taxi-derby"),
    ] {
        let def = Arc::new(farebox_suite::load(id));
        let bot = def.bots[0].id.clone();
        let four = [bot.as_str(), "random", bot.as_str(), "random"];
        assert_eq!(first_meant_leak(&def, game, &four, 0..2), None, "{id}");
        assert_eq!(first_meant_leak(&def, game, &four[..2], 2..4), None, "{id}");
    }
}

#[test]
fn a_secret_made_public_is_found_by_meaning() {
    // Each game with one of its secrets declared public by mistake: the generic search takes
    // the declaration at its word, the search by meaning does not.
    for (game, file, find, replace, bots) in [
        (
            "critter-cab",
            "pieces.toml",
            "id = \"movement-hand\"\nname = \"Movement cards\"\nper_seat = true\nvisibility = \"owner\"",
            "id = \"movement-hand\"\nname = \"Movement cards\"\nper_seat = true\nvisibility = \"public\"",
            ["cabbie", "random"],
        ),
        (
            "critter-cab",
            "pieces.toml",
            "id = \"passenger-deck\"\nname = \"Passenger deck\"\nvisibility = \"hidden\"",
            "id = \"passenger-deck\"\nname = \"Passenger deck\"\nvisibility = \"public\"",
            ["cabbie", "random"],
        ),
        (
            "taxi-derby",
            "pieces.toml",
            "face-down stack\"\nvisibility = \"hidden\"",
            "face-down stack\"\nvisibility = \"public\"",
            ["fare-planner", "random"],
        ),
    ] {
        let mut mods = farebox_suite::bundled_in_memory();
        let src = mods.0.get_mut(game).unwrap();
        let text = src.files.get_mut(file).unwrap();
        let before = text.clone();
        *text = text.replacen(find, replace, 1);
        assert_ne!(
            *text, before,
            "{game}: the declaration to change was not found"
        );
        let src = src.clone();
        let def = match content::load_mod(&src, &mods) {
            Ok(def) => Arc::new(def),
            Err(e) => panic!("{game}: {e}"),
        };
        let leak = first_meant_leak(&def, game, &bots, 0..1);
        assert!(
            leak.as_deref().is_some_and(|l| l.contains("is shown")),
            "{game} {replace}: {leak:?}"
        );
    }
}
