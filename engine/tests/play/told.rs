//! The record of actions taken (`Chronicle`), which the Studio's worker and the online server
//! both keep: each seat is told every action by the label it had when it was taken (its own
//! for its own actions, the public one for everyone else's), with the spaces it changed and
//! the lines it wrote that the seat may read; the news of the last action is the end of the
//! whole log; a bounded record keeps the newest actions, numbered as in the game.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use farebox::GameDef;
use farebox::content;
use farebox::game::{Chronicle, Game, Own, Setup, Told};
use farebox::source::{FolderResolver, FsSource};

fn curbside() -> Arc<GameDef> {
    let mods = concat!(env!("CARGO_MANIFEST_DIR"), "/../mods");
    let src = FsSource::new(format!("{mods}/curbside"));
    Arc::new(content::load_mod(&src, &FolderResolver::new(mods)).unwrap())
}

/// Each action's labels as the game gives them just before it, and where pieces stood.
struct Expected {
    seat: u8,
    own: String,
    public: String,
}

#[test]
fn each_seat_is_told_each_action_by_its_own_label_with_the_spaces_it_changed() {
    let def = curbside();
    let mut g = Game::new(def.clone(), Setup::new(2, 11)).unwrap();
    let mut whole = Chronicle::new(&g, usize::MAX);
    let mut kept = Chronicle::new(&g, 5);
    let mut twin = Game::new(def, Setup::new(2, 11)).unwrap();
    let mut expected = vec![];
    let mut moved = 0;
    let mut placed = 0;
    for i in 0..80usize {
        let legal = g.legal_actions().unwrap();
        // Move whenever the seat can on every other action, else spread the choices.
        let drive = legal
            .iter()
            .find(|a| a.starts_with("move"))
            .filter(|_| i % 2 == 0);
        let Some(a) = drive
            .or_else(|| legal.get((i * 7) % legal.len().max(1)))
            .cloned()
        else {
            break;
        };
        let seat = g.active();
        expected.push(Expected {
            seat,
            own: g.describe(&a),
            public: g.describe_public(&a),
        });
        let before: Vec<Option<u32>> = g.state().pieces.iter().map(|p| p.at).collect();
        // Seat 0 is a person's (its own label is kept); seat 1 a bot's.
        let own = if seat == 0 { Own::Ask } else { Own::Nobody };
        whole.take(&mut g, &a, own, seat == 1).unwrap();
        kept.take(&mut twin, &a, Own::Nobody, false).unwrap();
        let after: Vec<Option<u32>> = g.state().pieces.iter().map(|p| p.at).collect();
        let told = whole.told(&g, Some(0), usize::MAX);
        let Some(Told::Action { spaces, .. }) =
            told.iter().rev().find(|t| matches!(t, Told::Action { .. }))
        else {
            panic!("action {i} not told");
        };
        // A piece that moved is marked at both ends.
        for (b, a) in before.iter().zip(&after) {
            if b != a {
                moved += 1;
                for s in b.iter().chain(a.iter()) {
                    assert!(spaces.contains(s), "action {i}: {spaces:?} lacks {s}");
                }
            }
        }
        if a.starts_with("place") {
            placed += 1;
            assert!(!spaces.is_empty(), "a tile placed marks its cell: {a}");
        }
        // The news of an action is the end of each seat's whole log.
        for viewer in [Some(0), Some(1), None] {
            let all = whole.told(&g, viewer, usize::MAX);
            let (news, before) = whole.told_last(&g, viewer);
            assert_eq!(before + news.len(), all.len(), "action {i}, {viewer:?}");
            assert_eq!(&all[before..], &news[..], "action {i}, {viewer:?}");
        }
    }
    assert!(moved > 3 && placed > 3, "moved {moved}, placed {placed}");
    assert_eq!(whole.number() as usize, g.history().len());
    for viewer in [Some(0), Some(1), None] {
        let actions: Vec<(u64, u8, String, bool)> = whole
            .told(&g, viewer, usize::MAX)
            .into_iter()
            .filter_map(|t| match t {
                Told::Action {
                    number,
                    seat,
                    label,
                    by_bot,
                    ..
                } => Some((number, seat, label, by_bot)),
                Told::Line(_) => None,
            })
            .collect();
        assert_eq!(actions.len(), expected.len());
        for (k, ((number, seat, label, by_bot), e)) in actions.iter().zip(&expected).enumerate() {
            assert_eq!((*number, *seat), (k as u64 + 1, e.seat));
            assert_eq!(*by_bot, e.seat == 1);
            let want = if viewer == Some(0) && e.seat == 0 {
                &e.own
            } else {
                &e.public
            };
            assert_eq!(label, want, "action {number} as {viewer:?} sees it");
        }
    }
    assert!(
        expected.iter().any(|e| e.seat == 0 && e.own != e.public),
        "no action of seat 0 had a label of its own: the test shows nothing"
    );
    // The bounded record keeps the newest five, numbered as in the game, and no lines from
    // before them.
    let told = kept.told(&twin, None, usize::MAX);
    let numbers: Vec<u64> = told
        .iter()
        .filter_map(|t| match t {
            Told::Action { number, .. } => Some(*number),
            Told::Line(_) => None,
        })
        .collect();
    let n = twin.history().len() as u64;
    assert_eq!(numbers, ((n - 4)..=n).collect::<Vec<_>>());
    assert!(matches!(told.first(), Some(Told::Action { .. })));
    assert_eq!(kept.number(), n);
    assert!(kept.own_label(0).is_none() && kept.public_label(n as usize - 1).is_some());
}
