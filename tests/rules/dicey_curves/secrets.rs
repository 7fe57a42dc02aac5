//! Dicey Curves' hidden information, by what it means rather than by what is marked secret:
//! the track deck is a face-down stack (DC-S4: shuffled, the Finish put back at a depth no
//! one knows). No seat may learn which card comes next or where the Finish lies: the deck's
//! cards never show in any seat's view of its zone, and no card still in the deck whose name
//! nothing face up carries (the Finish above all) is named in what a seat is shown — its view
//! (zones, variables, pieces, counters), the log lines it may read and the labels of the
//! actions it is offered. Read from the cards' ids and names, so making the deck public, or a
//! rule that announces the next card, fails here even though no variable is marked secret.

use std::collections::BTreeSet;
use std::sync::Arc;

use farebox::GameDef;
use farebox::game::Game;
use farebox_suite::rule_kit::{game_with, legal};

/// The ids and names of the cards in `zone` (in the game's own state, not any view).
fn cards_in(g: &Game, zone: &str) -> Vec<(String, String)> {
    let def = g.def();
    let s = g.state();
    let z = def
        .zones
        .iter()
        .position(|z| z.id == zone)
        .unwrap_or_else(|| panic!("no zone `{zone}`"));
    s.zones[z]
        .cards
        .iter()
        .map(|c| {
            let card = &def.decks[c.deck as usize].cards[c.card as usize];
            (card.id.clone(), card.name.clone())
        })
        .collect()
}

/// Everything `seat` is shown after an action: its view, the log lines written since `told`
/// that it may read, and the labels of the actions offered now.
fn shown(g: &mut Game, seat: u8, told: usize) -> String {
    let mut view = g.view(Some(seat));
    view.log.clear();
    let lines: Vec<String> = g.log()[told..]
        .iter()
        .filter(|e| e.seen.by(Some(seat)))
        .map(|e| e.text.to_string())
        .collect();
    let labels: Vec<String> = legal(g)
        .iter()
        .map(|a| g.describe_for(a, Some(seat)))
        .collect();
    format!(
        "{}\n{}\n{}",
        serde_json::to_string(&view).unwrap(),
        lines.join("\n"),
        labels.join("\n")
    )
}

/// Plays seeded games with random choices and checks, after every action and for every seat,
/// that the track deck stays face down and that no card in it is named to anyone.
pub fn track_deck_stays_face_down(def: &Arc<GameDef>) {
    let mut rng = farebox::rng::Rng::new(3, 9);
    for (seats, seed) in [(2u8, 21u64), (3, 22), (5, 23)] {
        let mut g = game_with(def, seats, seed, &[]);
        let mut told = 0;
        let mut step = 0;
        while !g.is_over() && step < 160 {
            let deck = cards_in(&g, "track-deck");
            // Names carried by a face-up card are no secret (there are several of most cards).
            let mut open: BTreeSet<String> = BTreeSet::new();
            for zone in ["track", "off-track", "set-aside"] {
                for (id, name) in cards_in(&g, zone) {
                    open.insert(id);
                    open.insert(name);
                }
            }
            for seat in 0..seats {
                let view = g.view(Some(seat));
                let z = view
                    .zones
                    .iter()
                    .find(|z| z.id == "track-deck")
                    .expect("the track deck is in every view");
                assert!(
                    z.cards.is_empty(),
                    "seed {seed}, action {step}: seat {} sees the track deck: {:?}",
                    seat + 1,
                    z.cards
                );
                assert_eq!(z.count, deck.len(), "the deck's size is public");
                let text = shown(&mut g, seat, told);
                for (id, name) in &deck {
                    for word in [format!("\"{id}\""), name.clone()] {
                        let word_open = open.contains(word.trim_matches('"'));
                        assert!(
                            word_open || !text.contains(&word),
                            "seed {seed}, action {step}: seat {} is shown `{word}`, a card still in the face-down deck",
                            seat + 1
                        );
                    }
                }
            }
            told = g.log().len();
            let acts = legal(&mut g);
            let a = acts[rng.below(acts.len() as u32) as usize].clone();
            g.apply_legal(&a).unwrap_or_else(|e| panic!("{a}: {e}"));
            step += 1;
        }
        // The Finish was in the deck at the start of every game: the check above had
        // something to hide.
        assert!(
            cards_in(&game_with(def, seats, seed, &[]), "track-deck")
                .iter()
                .any(|(id, _)| id == "finish"),
            "seed {seed}: the Finish is not in the deck after setup"
        );
    }
}
