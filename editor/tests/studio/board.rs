//! The board in play: every name drawn by the Studio's fonts, the places an action names,
//! hovering, last moves and seats' colours.

use super::*;

#[test]
fn every_card_tile_and_space_name_of_the_bundled_games_is_drawn_by_the_studios_fonts() {
    let mut h = studio("curbside".into());
    loaded(&mut h);
    let mods = Path::new(env!("CARGO_MANIFEST_DIR")).join("../mods");
    let resolver = farebox::source::FolderResolver::new(mods.clone());
    let mut missing = Vec::new();
    for e in std::fs::read_dir(&mods).unwrap().flatten() {
        if !e.path().join("mod.toml").is_file() {
            continue;
        }
        let def = farebox::content::load_mod(&farebox::source::FsSource::new(e.path()), &resolver)
            .unwrap_or_else(|d| panic!("{}: {d}", e.path().display()));
        let mut texts: Vec<String> = Vec::new();
        for d in &def.decks {
            for c in &d.cards {
                texts.push(c.name.clone());
                texts.push(c.text.clone());
                texts.extend(c.fields.values().map(|v| v.to_string()));
            }
        }
        texts.extend(def.tiles.iter().map(|t| t.name.clone()));
        let font = egui::FontId::proportional(14.0);
        h.ctx.fonts_mut(|f| {
            for t in &texts {
                for ch in t.chars().filter(|c| !c.is_whitespace()) {
                    if !f.has_glyph(&font, ch) {
                        missing.push(format!("{:?} (U+{:04X}) in {t:?}", ch, ch as u32));
                    }
                }
            }
        });
    }
    assert!(
        missing.is_empty(),
        "drawn as empty boxes:\n{}",
        missing.join("\n")
    );
}

#[test]
fn every_copy_of_a_card_an_action_names_is_a_place_to_play_it() {
    use farebox_editor::studio::play::spots_of;
    use farebox_editor::studio::worker::Snapshot;
    let mods = Path::new(env!("CARGO_MANIFEST_DIR")).join("../mods");
    let resolver = farebox::source::FolderResolver::new(mods.clone());
    let def = std::sync::Arc::new(
        farebox::content::load_mod(
            &farebox::source::FsSource::new(mods.join("critter-cab")),
            &resolver,
        )
        .unwrap(),
    );
    let setup = farebox::game::Setup::new(2, 1);
    let mut state = farebox::game::initial_state(&def, &setup).unwrap();
    let hand_def = def.zone("movement-hand").unwrap();
    let deck_def = def.zone("movement-deck").unwrap();
    let deck = state
        .zones
        .iter()
        .position(|z| z.def as usize == deck_def)
        .unwrap();
    let card = state.zones[deck].cards[0];
    let hand = state
        .zones
        .iter()
        .position(|z| z.def as usize == hand_def && z.owner == Some(0))
        .unwrap();
    state.zones[hand].cards = vec![card; 3];
    let view = farebox::game::view_of(&def, &state, &[], Some(0));
    let zi = view
        .zones
        .iter()
        .position(|z| z.id == "movement-hand" && z.owner == Some(0))
        .unwrap();
    let id = view.zones[zi].cards[0].clone();
    let table = farebox::game::TableView {
        number: 0,
        viewer: Some(0),
        view,
        seats: vec![],
        offered: vec![],
        told: vec![],
        board: None,
    };
    let snap = Snapshot::new(def.clone(), table, state.board.clone(), None);
    let spots = spots_of(&format!("drive {id} acorn-square"), &snap);
    for index in 0..3 {
        assert!(
            spots.contains(&farebox_editor::studio::board_view::Spot::Card { zone: zi, index }),
            "copy {index} is not playable: {spots:?}"
        );
    }
}

/// Checks that every space the offered actions name is written on the board, by the name
/// the board gives it, and that the action's label says that name.
fn every_named_space_is_labelled(h: &H, game: &str) -> usize {
    let s = h.state().as_ref().unwrap();
    let snap = s.play.snapshot().unwrap();
    let named = s.play.named_on_board();
    let mut checked = 0;
    for o in &snap.offered {
        for spot in farebox_editor::studio::play::spots_of(&o.action, snap) {
            let farebox_editor::studio::board_view::Spot::Space(sp) = spot else {
                continue;
            };
            let name = farebox_editor::studio::board_view::board_space_name(&snap.board, sp);
            assert!(
                named.iter().any(|(n, text)| *n == sp && *text == name),
                "{game}: `{}` names {name}, which the board does not write (it writes {:?})",
                o.label,
                named.iter().filter(|(n, _)| *n == sp).collect::<Vec<_>>()
            );
            assert!(
                o.label.contains(&name),
                "{game}: the board calls it {name}, and the action says `{}`",
                o.label
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn every_space_an_action_names_is_written_on_the_board_by_the_name_the_action_uses() {
    // Taxi Derby: the start spaces; Curbside: the cells a tile may go on.
    for (game, seed) in [("taxi-derby", 3), ("curbside", 4)] {
        let h = started(game, seed);
        assert!(every_named_space_is_labelled(&h, game) > 0, "{game}");
    }
    // Critter Cab: after the start, drives to road spaces that share a name ("Fernway 2").
    let mut h = started("critter-cab", 5);
    let first = snap(&h).offered[0].path.last().unwrap().clone();
    h.get_by_label(&first).click();
    until_long(&mut h, "the drives", |s| {
        s.play
            .snapshot()
            .is_some_and(|snap| snap.offered.iter().any(|o| o.label.starts_with("Drive")))
    });
    settle(&mut h);
    let n = every_named_space_is_labelled(&h, "critter-cab");
    assert!(n > 10, "only {n} spaces checked");
    // Dicey Curves: a track space is named by its card ("Starting Grid (card 1)"), its lane and
    // its row, as the rules' actions name it; the board writes the card on a plate beside it.
    let h = started("dicey-curves", 3);
    let s = h.state().as_ref().unwrap();
    let snap = s.play.snapshot().unwrap();
    let named = s.play.named_on_board();
    let mut checked = 0;
    for o in &snap.offered {
        for spot in farebox_editor::studio::play::spots_of(&o.action, snap) {
            let farebox_editor::studio::board_view::Spot::Space(sp) = spot else {
                continue;
            };
            let name = farebox_editor::studio::board_view::board_space_name(&snap.board, sp);
            assert!(
                o.label.contains(&name),
                "the board calls it {name}, and the action says `{}`",
                o.label
            );
            let (card, _) = name.split_once("), ").expect("a card in the name");
            let (card_name, number) = card.split_once(" (card ").expect("a card number");
            let plate = format!("card {number} · {card_name}");
            assert!(
                named.iter().any(|(_, text)| *text == plate),
                "no plate says {plate:?}: {named:?}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 8, "only {checked} spaces checked");
}

#[test]
fn hovering_an_action_lights_its_spaces_and_a_space_names_itself_and_its_actions() {
    let mut h = started("taxi-derby", 3);
    let (label, spots) = {
        let snap = snap(&h);
        let o = &snap.offered[0];
        (
            o.label.clone(),
            farebox_editor::studio::play::spots_of(&o.action, snap),
        )
    };
    assert!(h.state().as_ref().unwrap().play.lit().is_empty());
    // The list shows the action's last part ("at Orange Depot, front").
    let shown = label.trim_start_matches("Start ").to_string();
    h.get_by_label(&shown).hover();
    settle(&mut h);
    assert_eq!(h.state().as_ref().unwrap().play.lit(), spots.as_slice());
    // A space's tooltip names it and lists what may be done there.
    let space = shown.trim_start_matches("at ").to_string();
    h.get_by_role_and_label(egui::accesskit::Role::Button, &space)
        .hover();
    for _ in 0..40 {
        h.step();
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        h.query_by_label_contains("You can:").is_some(),
        "no list of actions in the space's tooltip"
    );
    assert!(h.query_by_label(&format!("• {label}")).is_some());
}

#[test]
fn each_seats_last_move_is_marked_and_the_log_says_what_every_seat_did() {
    let mut h = started("curbside", 7);
    let before = snap(&h).step();
    // The person places a tile, chosen with the arrow keys and taken with Enter…
    let mut keyed = String::new();
    for _ in 0..snap(&h).offered.len() {
        h.key_press(egui::Key::ArrowDown);
        h.step();
        keyed = h
            .state()
            .as_ref()
            .unwrap()
            .play
            .keyed_action()
            .map(|o| o.label.clone())
            .expect("an action chosen with the keys");
        if keyed.starts_with("Place") {
            break;
        }
    }
    assert!(keyed.starts_with("Place"), "{keyed}");
    h.key_press(egui::Key::Enter);
    until(&mut h, "the action taken", |s| step_of(s) > Some(before));
    settle(&mut h);
    // …ends the turn, and the bot plays its turn.
    until(&mut h, "the end of the turn offered", |s| {
        s.play
            .snapshot()
            .is_some_and(|snap| snap.offered.iter().any(|o| o.label == "End your turn"))
    });
    settle(&mut h);
    h.get_by_label("End your turn").click();
    until_long(&mut h, "the bot's turn played", |s| {
        s.play
            .snapshot()
            .is_some_and(|snap| snap.moves.iter().any(|m| m.seat == 1) && !snap.offered.is_empty())
    });
    settle(&mut h);
    let snap = snap(&h);
    assert_eq!(
        snap.moves[before].label, keyed,
        "Enter took the chosen action"
    );
    let last = snap.last_moves();
    for (seat, m) in last.iter().enumerate() {
        let m = m
            .as_ref()
            .unwrap_or_else(|| panic!("seat {seat} has no last move"));
        assert!(
            !m.spaces.is_empty(),
            "seat {seat}'s last move marks nothing"
        );
    }
    // The log has a line for each of the bot's actions, under its name.
    let red = snap.def.seat_name(1);
    let bot_lines = snap
        .log
        .iter()
        .filter(|l| l.seat == Some(1) && l.text.starts_with(&format!("{red}: ")))
        .count();
    assert_eq!(bot_lines, snap.moves.iter().filter(|m| m.seat == 1).count());
    assert!(h.query_all_by_label_contains(&format!("{red}: ")).count() >= bot_lines);
    // The legend names each seat's last move.
    if h.query_by_label_contains("you can act here").is_none() {
        h.get_by_label("Legend").click();
        settle(&mut h);
    }
    assert!(
        h.query_by_label_contains(&format!("{red}'s last move"))
            .is_some()
    );
}

#[test]
fn dicey_curves_seats_are_shown_by_the_name_and_colour_of_their_cars() {
    let mut h = started("dicey-curves", 5);
    assert!(h.query_by_label_contains("Seat 1").is_none());
    let s = h.state().as_ref().unwrap();
    let snap = s.play.snapshot().unwrap();
    assert_eq!(snap.def.seat_name(0), "Red");
    assert_eq!(snap.def.seat_name(1), "Blue");
    assert_eq!(
        farebox_editor::studio::board_view::seat_color(&snap.def, 0),
        farebox_editor::studio::board_view::name_color("red").unwrap()
    );
    h.step();
    assert!(h.query_by_label("Showing what Red may see").is_some());
}

/// A place on the board with several actions opens its menu beside the click: the place stays
/// in sight, and the menu covers neither the list of actions on the left nor the top bar
/// (it used to open in the window's top left corner, over both).
#[test]
fn the_menu_of_a_place_with_several_actions_opens_beside_the_click() {
    let mut h = started("curbside", 7);
    h.state_mut().as_mut().unwrap().play.paused = true;
    let (cell, choices) = {
        let snap = snap(&h);
        let mut count: std::collections::BTreeMap<String, Vec<String>> = Default::default();
        for o in snap
            .offered
            .iter()
            .filter(|o| o.action.starts_with("place "))
        {
            let cell = o.action.split_whitespace().last().unwrap().to_string();
            count.entry(cell).or_default().push(o.label.clone());
        }
        count
            .into_iter()
            .find(|(_, labels)| labels.len() > 1)
            .expect("a cell with several place actions")
    };
    let cell_rect = h.get_by_label(&cell).rect();
    h.get_by_label(&cell).click();
    settle(&mut h);
    let item = h.get_by_label(&choices[0]).rect();
    let side = h.get_by_label("Your actions").rect();
    // Beside the cell clicked: its top left corner is just below and right of the click (the
    // cell's middle), so the cell's own top left quarter stays in sight.
    let click = cell_rect.center();
    assert!(
        item.left() > click.x && item.left() < click.x + 120.0,
        "the menu's first choice at {item:?}, the cell clicked at {cell_rect:?}"
    );
    assert!(
        item.top() > click.y && item.top() < click.y + 120.0,
        "the menu's first choice at {item:?}, the cell clicked at {cell_rect:?}"
    );
    // Not over the side panel's list of actions, nor the top bar.
    assert!(
        item.left() > side.right(),
        "the menu ({item:?}) covers the list of actions ({side:?})"
    );
    assert!(item.top() > h.get_by_label("Outcomes").rect().bottom());
    // And it still takes the action chosen.
    let before = snap(&h).step();
    h.get_by_label(&choices[0]).click();
    until(&mut h, "the action chosen in the menu", |s| {
        step_of(s) == Some(before + 1)
    });
}

/// What a piece carries (Curbside's taxi with its fare, its `carrying` property) shows on the
/// board, not only in a tooltip: the token has a dot in the fare's colour and the legend says
/// what each taxi carries, as the terminal's `Y+p` does. A taxi carrying nothing has no line.
#[test]
fn what_a_taxi_carries_is_on_the_board_and_in_the_legend() {
    use farebox_editor::studio::worker::SeatKind;
    let mut h = studio("curbside".into());
    until(&mut h, "the new-game dialog", |s| s.play.in_dialog());
    {
        let play = &mut h.state_mut().as_mut().unwrap().play;
        play.set_seed(11);
        play.set_seat(0, SeatKind::Bot("dispatcher".into()));
        play.set_seat(1, SeatKind::Bot("dispatcher".into()));
        play.pace = Duration::ZERO;
    }
    h.get_by_label("Start the game").click();
    let carried = |snap: &farebox_editor::studio::worker::Snapshot| -> Vec<(String, String)> {
        snap.view
            .pieces
            .iter()
            .filter_map(|p| {
                let load = p.props.get("carrying")?.as_str()?.to_string();
                let seat = snap.def.seat_name(p.owner? as usize);
                (!load.is_empty()).then_some((seat, load))
            })
            .collect()
    };
    let mut checked = false;
    for _ in 0..40 {
        until_long(&mut h, "a taxi carrying a fare", |s| {
            s.play.snapshot().is_some_and(|snap| {
                snap.view.pieces.iter().any(|p| {
                    p.props
                        .get("carrying")
                        .and_then(|v| v.as_str())
                        .is_some_and(|c| !c.is_empty())
                })
            })
        });
        h.state_mut().as_mut().unwrap().play.paused = true;
        for _ in 0..20 {
            h.step();
        }
        let (now, idle) = {
            let snap = snap(&h);
            (
                carried(snap),
                snap.view.pieces.iter().filter(|p| p.kind == "taxi").count(),
            )
        };
        if now.is_empty() {
            h.state_mut().as_mut().unwrap().play.paused = false;
            continue;
        }
        if h.query_by_label("start cell of Yellow").is_none() {
            h.get_by_label("Legend").click();
            settle(&mut h);
        }
        for (seat, load) in &now {
            let line = format!("{seat}'s taxi carries: {load}");
            assert!(
                h.query_by_label(&line).is_some(),
                "no legend line `{line}` for a taxi carrying a fare"
            );
        }
        let lines = h.query_all_by_label_contains("'s taxi carries: ").count();
        assert_eq!(
            lines,
            now.len(),
            "one line per taxi carrying, of {idle} taxis"
        );
        checked = true;
        break;
    }
    assert!(checked, "no taxi was ever seen carrying a fare");
}

/// A Studio opening `game` in a window of 1600 x 1000 points, as the Studio's own window.
fn studio_window(game: &'static str) -> H {
    Harness::builder()
        .with_size(egui::vec2(1600.0, 1000.0))
        .build_ui_state(
            move |ui, s: &mut Option<Studio>| {
                let st =
                    s.get_or_insert_with(|| Studio::without_settings(ui.ctx(), Some(game.into())));
                st.frame(ui);
            },
            None,
        )
}

/// No name written on the board lies over another, nor under the legend.
fn names_apart(h: &H, what: &str) {
    let s = h.state().as_ref().unwrap();
    let (written, legend, _) = s.play.written_on_board();
    let named = s.play.named_on_board();
    for (i, a) in written.iter().enumerate() {
        for (j, b) in written.iter().enumerate().skip(i + 1) {
            assert!(
                !a.intersects(*b),
                "{what}: `{}` at {a:?} and `{}` at {b:?} are written over each other",
                named.get(i).map_or("?", |n| n.1.as_str()),
                named.get(j).map_or("?", |n| n.1.as_str()),
            );
        }
        if let Some(l) = legend {
            assert!(
                !a.intersects(l),
                "{what}: a name at {a:?} is under the legend"
            );
        }
    }
}

/// Taxi Derby: when the turn ends the person moves the patrol car, to any of some two dozen
/// places, each a place to act on. Their names piled up over each other; now each is written
/// where it covers no other name (and not under the legend), or left to its tooltip, with the
/// places lit by the action list's heading the first to be written.
#[test]
fn a_crowd_of_places_to_act_on_writes_no_name_over_another() {
    let mut h = studio_window("taxi-derby");
    until(&mut h, "the new-game dialog", |s| s.play.in_dialog());
    h.state_mut().as_mut().unwrap().play.set_seed(161434);
    h.get_by_label("Start the game").click();
    until(&mut h, "the person's start", |s| {
        s.play
            .snapshot()
            .is_some_and(|snap| snap.offered.iter().any(|o| o.action.starts_with("start")))
    });
    let start = snap(&h).offered[0].action.clone();
    let space = {
        let snap = snap(&h);
        let spot = farebox_editor::studio::play::spots_of(&start, snap)[0];
        let farebox_editor::studio::board_view::Spot::Space(sp) = spot else {
            panic!("{start} names no space");
        };
        farebox_editor::studio::board_view::board_space_name(&snap.board, sp)
    };
    h.get_by_role_and_label(egui::accesskit::Role::Button, &space)
        .click();
    until_long(&mut h, "the end of the person's turn offered", |s| {
        s.play
            .snapshot()
            .is_some_and(|snap| snap.offered.iter().any(|o| o.action == "end"))
    });
    let end = snap(&h)
        .offered
        .iter()
        .find(|o| o.action == "end")
        .unwrap()
        .label
        .clone();
    h.get_by_label(&end).click();
    until(&mut h, "the patrol car's places", |s| {
        s.play.snapshot().is_some_and(|snap| {
            snap.offered
                .iter()
                .filter(|o| o.action.starts_with("patrol"))
                .count()
                > 20
        })
    });
    h.state_mut().as_mut().unwrap().play.paused = true;
    settle(&mut h);
    let places = snap(&h).offered.len();
    names_apart(&h, &format!("{places} places to move the patrol car to"));
    let named = h.state().as_ref().unwrap().play.named_on_board().len();
    assert!(
        named >= places / 2,
        "only {named} names for {places} places"
    );
    // The places of the heading under the pointer, lit, are written first.
    h.get_by_label_contains("Move the patrol car").hover();
    settle(&mut h);
    let lit = h.state().as_ref().unwrap().play.lit().len();
    assert!(lit > 20, "only {lit} places lit");
    names_apart(&h, &format!("{lit} lit places"));
}

/// The names written on the board keep off the legend drawn over its top right corner: a
/// name that would run under it goes to another side of its space, is shortened, or is left
/// to its tooltip, rather than being cut by the legend (Taxi Derby's "Ashgrove University,
/// Library Loop" at the city's right edge was).
#[test]
fn names_on_the_board_keep_off_the_legend() {
    for (game, seed) in [("taxi-derby", 74157), ("taxi-derby", 3), ("critter-cab", 5)] {
        // The Studio's window at 1600 x 1000, where the city's right edge met the legend.
        let mut h: H = Harness::builder()
            .with_size(egui::vec2(1600.0, 1000.0))
            .build_ui_state(
                move |ui, s: &mut Option<Studio>| {
                    let st = s.get_or_insert_with(|| {
                        Studio::without_settings(ui.ctx(), Some(game.to_string()))
                    });
                    st.frame(ui);
                },
                None,
            );
        until(&mut h, "the new-game dialog", |s| s.play.in_dialog());
        h.state_mut().as_mut().unwrap().play.set_seed(seed);
        h.get_by_label("Start the game").click();
        until(&mut h, "the person's actions", |s| {
            s.play
                .snapshot()
                .is_some_and(|snap| !snap.offered.is_empty())
        });
        h.state_mut().as_mut().unwrap().play.paused = true;
        settle(&mut h);
        let s = h.state().as_ref().unwrap();
        let (written, legend, _) = s.play.written_on_board();
        let legend = legend.unwrap_or_else(|| panic!("{game}: no legend over the board"));
        assert!(!written.is_empty(), "{game}: no names written");
        for r in written {
            assert!(
                !r.intersects(legend),
                "{game} (seed {seed}): a name at {r:?} runs under the legend at {legend:?}"
            );
        }
    }
}

/// Plays a game of `id` with random bots in two seats, without pauses, and calls `check` once
/// for every step, on the frame that drew it, until the game is over or `check` says stop.
fn each_step_of_a_random_game(id: &str, seed: u64, mut check: impl FnMut(&Studio) -> bool) {
    use farebox_editor::studio::worker::SeatKind;
    let mut h = studio(id.into());
    until(&mut h, "the new-game dialog", |s| s.play.in_dialog());
    {
        let play = &mut h.state_mut().as_mut().unwrap().play;
        play.set_seed(seed);
        play.set_seat(0, SeatKind::Bot("random".into()));
        play.set_seat(1, SeatKind::Bot("random".into()));
        play.pace = Duration::ZERO;
    }
    h.get_by_label("Start the game").click();
    let mut last = usize::MAX;
    for _ in 0..20_000 {
        h.step();
        let Some(snap) = h.state().as_ref().unwrap().play.snapshot() else {
            continue;
        };
        if snap.result().is_some() {
            return;
        }
        if snap.step() == last {
            continue;
        }
        // One frame more, so the board drawn is this step's.
        h.step();
        let s = h.state().as_ref().unwrap();
        let Some(snap) = s.play.snapshot() else {
            continue;
        };
        last = snap.step();
        if !check(s) {
            return;
        }
    }
}

/// A laid card's plate ("card 3 · Banked Right") keeps off the cars on the track: a car drawn
/// over the plate hid the card's name. Checked through a race of Dicey Curves played by
/// random bots, at every step.
#[test]
fn a_track_cards_name_is_never_under_a_car() {
    let mut checked = 0;
    each_step_of_a_random_game("dicey-curves", 266330, |s| {
        let step = s.play.snapshot().map_or(0, |snap| snap.step());
        let (plates, _, cars) = s.play.written_on_board();
        for car in cars {
            for r in plates {
                assert!(
                    !r.intersects(*car),
                    "step {step}: a card's plate at {r:?} lies under a car at {car:?}"
                );
            }
            checked += 1;
        }
        true
    });
    assert!(checked > 0, "no car was ever on the track");
}

/// Critter Cab: each cab's last drive is ringed in its colour on the space it reached, with
/// the cab on it; the space's name goes beyond the ring (it ran under it). Checked through a
/// game of random bots, at every step.
#[test]
fn a_spaces_name_is_written_beyond_the_ring_of_a_last_move() {
    let mut checked = 0;
    each_step_of_a_random_game("critter-cab", 709034, |s| {
        let step = s.play.snapshot().map_or(0, |snap| snap.step());
        let named = s.play.named_on_board();
        let (written, _, _) = s.play.written_on_board();
        assert_eq!(named.len(), written.len(), "a name for every place written");
        for &(space, c, reach) in s.play.move_rings_on_board() {
            for ((at, name), r) in named.iter().zip(written) {
                if *at != space {
                    continue;
                }
                let nearest = r.clamp(c);
                assert!(
                    nearest.distance(c) >= reach - 0.5,
                    "step {step}: `{name}` at {r:?} lies under its ring (centre {c:?}, out to {reach})"
                );
                checked += 1;
            }
        }
        checked <= 200
    });
    assert!(checked > 0, "no ringed space had its name written");
}

/// How much of the board's view the board's extent covers, as fitted (0 to 1).
fn share_of_view(h: &H) -> f32 {
    let (view, board, _) = h.state().as_ref().unwrap().play.frame_on_board();
    board.intersect(view).area() / view.area()
}

/// Critter Cab's map is wider than the view: it was fitted beside a column kept free for the
/// legend down the whole height, and took about a third of the view. It is fitted across
/// the view's width below the legend, its spaces clear of the legend.
#[test]
fn a_wide_map_is_fitted_to_the_whole_width_of_its_view() {
    let mut h = studio_window("critter-cab");
    until(&mut h, "the new-game dialog", |s| s.play.in_dialog());
    h.state_mut().as_mut().unwrap().play.set_seed(5);
    h.get_by_label("Start the game").click();
    until(&mut h, "the person's actions", |s| {
        s.play
            .snapshot()
            .is_some_and(|snap| !snap.offered.is_empty())
    });
    settle(&mut h);
    let share = share_of_view(&h);
    assert!(
        share > 0.5,
        "the map covers {:.0}% of its view",
        share * 100.0
    );
    let (view, board, _) = h.state().as_ref().unwrap().play.frame_on_board();
    assert!(
        board.width() > (view.width() - 48.0) * 0.95,
        "the map is {} wide in a view {} wide",
        board.width(),
        view.width()
    );
    names_apart(&h, "Critter Cab's start");
}

/// Dicey Curves: the track is fitted to the view as large as the legend leaves it (a
/// straight start across the whole width, not beside a column kept for the legend), and the
/// cards' plates are never over a gate (a bar or its badge) nor off the view. Checked through
/// a race of random bots, at every step. The window is wide enough that, before the legend
/// was measured, a column was kept free for it beside the track.
#[test]
fn a_track_fills_its_view_and_its_plates_keep_off_the_gates_and_inside_the_view() {
    let h = started_sized("dicey-curves", 3, egui::vec2(1800.0, 900.0));
    let (view, board, _) = h.state().as_ref().unwrap().play.frame_on_board();
    assert!(view.width() > 1000.0, "a wide view: {view:?}");
    // As large as the view lets it be: across its width, or down its height (less the
    // margins, and the bar above the board, whose height this leaves as slack).
    let fill = (board.width() / (view.width() - 48.0)).max(board.height() / (view.height() - 48.0));
    assert!(
        fill > 0.9,
        "the track is {board:?} in a view {view:?}: it fills {:.0}% of it",
        fill * 100.0
    );
    let mut gates_seen = 0;
    each_step_of_a_random_game("dicey-curves", 266330, |s| {
        let step = s.play.snapshot().map_or(0, |snap| snap.step());
        let (plates, _, _) = s.play.written_on_board();
        let (view, _, gates) = s.play.frame_on_board();
        for r in plates {
            assert!(
                view.contains_rect(*r),
                "step {step}: a card's plate at {r:?} runs off the view {view:?}"
            );
            for g in gates {
                assert!(
                    !r.intersects(*g),
                    "step {step}: a card's plate at {r:?} covers a gate at {g:?}"
                );
            }
        }
        gates_seen += gates.len();
        true
    });
    assert!(gates_seen > 0, "no gate was ever on the track");
}

/// The legend names the starts of the seats in the game only: a two-seat game of Curbside
/// has four start cells on its board and Taxi Derby a depot per colour, but only two seats.
#[test]
fn the_legend_lists_the_starts_of_the_seats_in_the_game_only() {
    for (game, starts) in [("curbside", "start cell of "), ("taxi-derby", "start of ")] {
        let mut h = started(game, 7);
        let (names, seats) = {
            let snap = snap(&h);
            (snap.def.seat_names.clone(), snap.view.seats as usize)
        };
        assert_eq!(seats, 2, "{game}");
        assert!(names.len() > 2, "{game}");
        if h.query_by_label_contains("you can act here").is_none() {
            h.get_by_label("Legend").click();
            settle(&mut h);
        }
        for (k, name) in names.iter().enumerate() {
            let listed = h
                .query_by_label_contains(&format!("{starts}{name}"))
                .is_some();
            assert_eq!(listed, k < seats, "{game}: the start of {name}");
        }
    }
}

/// In a two-seat race each seat drives two cars and the second is of another colour (Red
/// drives the Yellow Racer): the legend names every car by its driver and its colour.
#[test]
fn each_dicey_curves_car_is_named_by_the_seat_that_drives_it() {
    use farebox_editor::studio::worker::SeatKind;
    let mut h = studio("dicey-curves".into());
    until(&mut h, "the new-game dialog", |s| s.play.in_dialog());
    {
        let play = &mut h.state_mut().as_mut().unwrap().play;
        play.set_seed(5);
        play.set_seat(0, SeatKind::Bot("racer".into()));
        play.set_seat(1, SeatKind::Bot("racer".into()));
        play.pace = Duration::ZERO;
    }
    h.get_by_label("Start the game").click();
    until_long(&mut h, "all four cars lined up", |s| {
        s.play.snapshot().is_some_and(|snap| {
            snap.view
                .pieces
                .iter()
                .filter(|p| p.kind.starts_with("car-") && p.at.is_some())
                .count()
                == 4
        })
    });
    h.state_mut().as_mut().unwrap().play.paused = true;
    settle(&mut h);
    if h.query_by_label_contains("edge of the table").is_none() {
        h.get_by_label("Legend").click();
        settle(&mut h);
    }
    for car in [
        "Red's Red Racer",
        "Red's Yellow Racer",
        "Blue's Blue Racer",
        "Blue's Green Racer",
    ] {
        assert!(h.query_by_label(car).is_some(), "no {car} in the legend");
    }
    assert!(h.query_by_label_contains("(in its own colour)").is_none());
}
