//! Dicey Curves' house rule Sunday Drive changes the rules through a hook as well as the
//! content: its pit crew hands a control chip to a driver whose car starts the turn waiting at
//! a gate of three dice or more, where Dicey Curves gives nothing. Its patched deck (no
//! hairpins) and chip table play with Dicey Curves' rules, and the bots play it
//! (tests/games/dicey_curves_bot.rs holds the bot's margin).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use farebox::batch::Batch;
use farebox::game::{Game, Setup};
use farebox::value::Value;

/// A two-seat game of `id` with the cars lined up, seat 1 to act; seat 2's blue car waits at
/// the 3-dice gate of a Hard Left and its green car at the 2-dice gate of an Off-Camber Left,
/// and seat 2 holds no chips.
fn blue_at_a_gate(id: &str) -> Game {
    let def = Arc::new(farebox_suite::load(id));
    let mut g = Game::new(def, Setup::new(2, 21)).unwrap();
    while g.eval("return game.get('_phase')").unwrap() == Value::Str("grid".into()) {
        let a = g.legal_actions().unwrap()[0].clone();
        g.apply(&a).unwrap();
    }
    g.eval(
        r#"
        local function lay(card)
          local first = game.attach_track(data.decks.track.cards[card].piece, { force = true })
          local laid, f = game.get("_laid"), game.get("_first")
          table.insert(laid, card); table.insert(f, first)
          game.set("_laid", laid); game.set("_first", f)
          return #laid - 1
        end
        local hl = lay("hard-left")
        local oc = lay("off-camber-left")
        game.move_piece(game.pieces("car-blue")[1], game.space("t" .. hl .. "-l1-r1"))
        game.move_piece(game.pieces("car-green")[1], game.space("t" .. oc .. "-l0-r1"))
        game.set_active(1)
        game.set_counter("chips", 2, 0)
    "#,
    )
    .unwrap();
    g
}

/// Seat 2's chips once its turn has started, and the chips that left the supply meanwhile
/// beyond what seat 1 bought at the end of its turn.
fn chips_after_seat_2s_turn_starts(id: &str) -> (i64, i64) {
    let mut g = blue_at_a_gate(id);
    let count = |g: &mut Game, code: &str| g.eval(code).unwrap().as_int().unwrap();
    let supply = count(&mut g, "return game.counter('chip-supply')");
    let seat1 = count(&mut g, "return game.counter('chips', 1)");
    g.apply("done").unwrap();
    assert_eq!(g.active(), 1, "seat 2 to act");
    let bought = count(&mut g, "return game.counter('chips', 1)") - seat1;
    let chips = count(&mut g, "return game.counter('chips', 2)");
    let taken = supply - count(&mut g, "return game.counter('chip-supply')") - bought;
    (chips, taken)
}

#[test]
fn the_pit_crew_hands_a_chip_to_a_car_waiting_at_a_big_gate() {
    let (chips, taken) = chips_after_seat_2s_turn_starts("dicey-curves-sunday-drive");
    assert_eq!(
        (chips, taken),
        (1, 1),
        "one chip from the supply for blue at the 3-dice gate, none for green at the 2-dice one"
    );
    let (chips, taken) = chips_after_seat_2s_turn_starts("dicey-curves");
    assert_eq!((chips, taken), (0, 0), "Dicey Curves has no pit crew");
}

#[test]
fn the_pit_crew_keeps_the_chip_cap() {
    let mut g = blue_at_a_gate("dicey-curves-sunday-drive");
    g.eval("game.set_counter('chips', 2, 4)").unwrap();
    g.apply("done").unwrap();
    assert_eq!(
        g.eval("return game.counter('chips', 2)").unwrap(),
        Value::Int(4)
    );
}

#[test]
fn the_bots_play_sunday_drive_to_the_end() {
    let def = Arc::new(farebox_suite::load("dicey-curves-sunday-drive"));
    for seed in 0..6 {
        let agents = vec![
            "random".to_string(),
            "random".to_string(),
            "random".to_string(),
        ];
        let out = Batch::new(&def, Setup::new(3, seed), &agents, 6000)
            .unwrap()
            .play_one(0, &mut None, None);
        assert!(out.error.is_none(), "seed {seed}: {:?}", out.error);
        assert!(out.result.is_some(), "seed {seed}: not finished");
    }
}

/// Every leftover combo buys one chip more in Sunday Drive than in Dicey Curves, and never
/// more than the four-chip cap (its patch: "every leftover combo buys one more control chip").
#[test]
fn every_leftover_combo_buys_one_chip_more_up_to_four() {
    let chips = |id: &str, combo: i64| -> Option<i64> {
        let def = farebox_suite::load(id);
        let t = def.table("chip-purchase").expect("no chip-purchase table");
        // The row of that many dice, or the largest smaller one that covers every larger
        // combo (`or_larger`), as the table's description says.
        let int = |row: &std::collections::BTreeMap<String, Value>, k: &str| {
            row.get(k).and_then(Value::as_int)
        };
        let rows = &def.tables[t].rows;
        rows.iter()
            .find(|r| int(r, "combo") == Some(combo))
            .or_else(|| {
                rows.iter()
                    .filter(|r| {
                        r.get("or_larger").and_then(Value::as_bool) == Some(true)
                            && int(r, "combo").is_some_and(|c| c < combo)
                    })
                    .max_by_key(|r| int(r, "combo"))
            })
            .and_then(|r| int(r, "chips"))
    };
    for combo in 1..=8 {
        let (game, house) = (
            chips("dicey-curves", combo),
            chips("dicey-curves-sunday-drive", combo),
        );
        if let Some(g) = game {
            assert_eq!(
                house,
                Some((g + 1).min(4)),
                "a leftover of {combo} dice: Dicey Curves buys {g}, Sunday Drive {house:?}"
            );
        }
    }
}
