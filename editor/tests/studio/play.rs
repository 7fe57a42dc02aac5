//! Playing in the Studio: starting a game, people and bots taking turns, hand-offs, the end
//! screen, forks, and a game that cannot start.

use super::*;

#[test]
fn open_a_game_start_it_with_a_person_and_a_bot_click_an_action_on_the_board_and_undo() {
    let mut h = studio("curbside".into());
    until(&mut h, "the new-game dialog", |s| s.play.in_dialog());
    h.state_mut().as_mut().unwrap().play.set_seed(7);
    h.get_by_label("Start the game").click();
    until(&mut h, "the person's actions", |s| {
        s.play
            .snapshot()
            .is_some_and(|snap| !snap.offered.is_empty())
    });
    // Curbside starts with placing a tile: the first offered place action names a cell, and
    // that cell on the board takes it.
    let (cell, before, here) = {
        let snap = snap(&h);
        let place = snap
            .offered
            .iter()
            .find(|o| o.action.starts_with("place "))
            .expect("a place action");
        let cell = place.action.split_whitespace().last().unwrap().to_string();
        let here: Vec<String> = snap
            .offered
            .iter()
            .filter(|o| o.action.ends_with(&format!(" {cell}")))
            .map(|o| o.label.clone())
            .collect();
        (cell, snap.step(), here)
    };
    h.get_by_label(&cell).click();
    if here.len() > 1 {
        // Several actions at that cell: the menu there lists them (it opens on the next
        // frame and is laid out on the one after).
        h.step();
        h.step();
        h.get_by_label(&here[0]).click();
    }
    until(&mut h, "the action applied", |s| {
        step_of(s) == Some(before + 1)
    });
    h.get_by_label("Undo").click();
    until(&mut h, "the action undone", |s| step_of(s) == Some(before));
}

#[test]
fn two_people_at_one_screen_pass_it_behind_a_hand_off() {
    let mut h = studio("curbside".into());
    until(&mut h, "the new-game dialog", |s| s.play.in_dialog());
    {
        let play = &mut h.state_mut().as_mut().unwrap().play;
        play.set_seed(3);
        play.set_people(2);
    }
    h.get_by_label("Start the game").click();
    until(&mut h, "the first person's actions", |s| {
        s.play
            .snapshot()
            .is_some_and(|snap| !snap.offered.is_empty())
    });
    let first = snap(&h).active();
    h.get_by_label("End your turn").click();
    until(&mut h, "the hand-off screen", |s| {
        s.play.handing_off().is_some()
    });
    // Nothing of the table shows while the screen waits for the next person.
    assert!(h.query_by_label("End your turn").is_none());
    assert!(h.query_by_label("1,1").is_none());
    assert!(h.query_by_label_contains("show my view").is_some());
    h.get_by_label_contains("show my view").click();
    until(&mut h, "the second person's view", |s| {
        s.play.snapshot().is_some_and(|snap| {
            snap.viewer.is_some() && snap.viewer != Some(first) && !snap.offered.is_empty()
        })
    });
}

/// A whole game played through the Studio's widgets: a person against Curbside's bot, every
/// decision clicked in the list of actions, to the end screen; the game saved there as a
/// replay, which `farebox replay` then verifies.
#[test]
fn a_person_plays_a_whole_game_against_the_bot_and_saves_it() {
    let (dir, _) = copy_of("curbside");
    let mut h = studio("curbside".into());
    until(&mut h, "the new-game dialog", |s| s.play.in_dialog());
    {
        let play = &mut h.state_mut().as_mut().unwrap().play;
        play.set_seed(21);
        play.pace = Duration::ZERO;
    }
    h.get_by_label("Start the game").click();
    let mut decisions = 0usize;
    for _ in 0..200_000 {
        h.step();
        let Some(snap) = h.state().as_ref().unwrap().play.snapshot() else {
            continue;
        };
        if snap.result().is_some() {
            break;
        }
        if snap.offered.is_empty() {
            std::thread::sleep(Duration::from_millis(1));
            continue;
        }
        // Some of every kind of decision, then mostly ending the turn, so the game ends.
        let labels: Vec<String> = snap.offered.iter().map(|o| o.label.clone()).collect();
        let step = snap.step();
        let pick = if decisions % 4 == 3 {
            labels.iter().find(|l| l.as_str() == "End your turn")
        } else {
            None
        }
        .or_else(|| {
            labels
                .iter()
                .cycle()
                .skip(decisions % labels.len())
                .take(labels.len())
                .find(|l| h.query_by_label(l).is_some())
        })
        .cloned()
        .expect("an offered action shown as a widget");
        h.get_by_label(&pick).click();
        decisions += 1;
        until(&mut h, "the decision taken", |s| {
            s.play.snapshot().is_some_and(|snap| snap.step() > step)
        });
    }
    let result = snap(&h).result().cloned().expect("the game ended");
    assert!(decisions > 5, "only {decisions} decisions");
    assert!(h.query_by_label("Game over").is_some());
    assert!(h.query_by_label(&result.reason).is_some());
    let file = dir.join("mine.replay.json");
    h.get_by_label("Replay file").click();
    h.step();
    h.get_by_label("Replay file")
        .type_text(&file.display().to_string());
    h.step();
    h.get_by_label("Save replay").click();
    for _ in 0..3000 {
        h.step();
        if h.query_by_label_contains("Saved to").is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(h.query_by_label_contains("Saved to").is_some());
    let code = farebox_editor::run(
        vec![
            "farebox".into(),
            "replay".into(),
            file.display().to_string(),
        ],
        &mut std::io::empty(),
        &mut std::io::sink(),
        &mut std::io::sink(),
    );
    assert_eq!(code, 0, "the saved game does not replay");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_game_over_screen_keeps_the_log_and_names_what_the_score_counts() {
    use farebox_editor::studio::worker::SeatKind;
    let mut h = studio("curbside".into());
    until(&mut h, "the new-game dialog", |s| s.play.in_dialog());
    {
        let play = &mut h.state_mut().as_mut().unwrap().play;
        play.set_seed(5);
        play.set_seat(0, SeatKind::Bot("random".into()));
        play.set_seat(1, SeatKind::Bot("random".into()));
        play.pace = Duration::ZERO;
    }
    h.get_by_label("Start the game").click();
    until_long(&mut h, "the end of the game", |s| {
        s.play
            .snapshot()
            .is_some_and(|snap| snap.result().is_some())
    });
    let (scores, newest) = {
        let snap = snap(&h);
        let r = snap.result().cloned().unwrap();
        (r.scores, snap.view.log.last().cloned().expect("a log"))
    };
    assert!(h.query_by_label("Game over").is_some());
    // The log is still there, newest line first.
    assert!(
        h.query_by_label(&newest).is_some(),
        "the log is gone at the end: no `{newest}`"
    );
    // Curbside's score is its Stars counter: "12 stars", never "points".
    for s in &scores {
        assert!(
            h.query_all_by_label(&format!("{s} stars")).next().is_some(),
            "no `{s} stars` (scores {scores:?}, counters {:?})",
            snap(&h).view.counters
        );
    }
    assert!(h.query_by_label_contains(" points").is_none());
}

#[test]
fn critter_cabs_many_drives_are_grouped_by_the_card_played_with_their_counts() {
    let mut h = studio("critter-cab".into());
    until(&mut h, "the new-game dialog", |s| s.play.in_dialog());
    {
        let play = &mut h.state_mut().as_mut().unwrap().play;
        play.set_seed(11);
        play.pace = Duration::ZERO;
    }
    h.get_by_label("Start the game").click();
    until(&mut h, "Fox's first choice", |s| {
        s.play
            .snapshot()
            .is_some_and(|snap| !snap.offered.is_empty())
    });
    // Fox starts at a stand (in the open group "Start at a taxi stand (8)").
    let (start, step) = {
        let snap = snap(&h);
        let o = snap
            .offered
            .iter()
            .find(|o| o.path.len() == 2)
            .expect("a start at a stand");
        (o.path[1..].join(" "), snap.step())
    };
    if h.query_by_label(&start).is_none() {
        // Its group is closed: open it, as a person would.
        h.get_by_label_contains("Start at a taxi stand (").click();
        h.step();
        h.step();
    }
    let fit = h.get_by_label("Fit").rect();
    h.get_by_label(&start).click();
    until(&mut h, "Fox's drive", |s| {
        s.play.snapshot().is_some_and(|snap| {
            snap.step() > step && snap.offered.iter().any(|o| o.path[0] == "Drive")
        })
    });
    let drives: Vec<Vec<String>> = snap(&h)
        .offered
        .iter()
        .filter(|o| o.path[0] == "Drive")
        .map(|o| o.path.clone())
        .collect();
    assert!(drives.len() > 8, "only {} drives", drives.len());
    assert!(
        h.query_by_label(&format!("Drive ({})", drives.len()))
            .is_some(),
        "no group Drive ({})",
        drives.len()
    );
    // Inside it, a group per card played, each with its count.
    let mut cards: Vec<(String, usize)> = Vec::new();
    for d in &drives {
        match cards.iter_mut().find(|(c, _)| *c == d[1]) {
            Some((_, n)) => *n += 1,
            None => cards.push((d[1].clone(), 1)),
        }
    }
    assert!(cards.len() > 1);
    for (card, n) in &cards {
        if *n > 1 {
            assert!(
                h.query_by_label(&format!("{card} ({n})")).is_some(),
                "no group {card} ({n})"
            );
        }
    }
    // The side panel kept its width: the board did not move.
    assert_eq!(h.get_by_label("Fit").rect(), fit, "the board moved");
}

#[test]
fn a_click_that_lands_on_a_list_of_actions_that_just_changed_is_not_taken() {
    let mut h = studio("critter-cab".into());
    until(&mut h, "the new-game dialog", |s| s.play.in_dialog());
    {
        let play = &mut h.state_mut().as_mut().unwrap().play;
        play.set_seed(11);
        play.pace = Duration::ZERO;
    }
    h.get_by_label("Start the game").click();
    until(&mut h, "Fox's first choice", |s| {
        s.play
            .snapshot()
            .is_some_and(|snap| !snap.offered.is_empty())
    });
    // The pointer rests on the first stand's button; clicking it changes the list under it.
    let (label, step) = {
        let snap = snap(&h);
        let o = snap.offered.iter().find(|o| o.path.len() == 2).unwrap();
        (o.path[1..].join(" "), snap.step())
    };
    let at = h.get_by_label(&label).rect().center();
    h.get_by_label(&label).click();
    until(&mut h, "the next list", |s| {
        s.play
            .snapshot()
            .is_some_and(|snap| snap.step() > step && !snap.offered.is_empty())
    });
    let step = snap(&h).step();
    // Something to click lies under the pointer now.
    let under = h
        .get_all_by_role(egui::accesskit::Role::Button)
        .any(|n| n.rect().contains(at));
    assert!(
        under,
        "no button under the pointer: the test needs another seed"
    );
    // A press and release where the pointer stood still since the list changed: dropped.
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
    }
    for _ in 0..20 {
        h.step();
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(
        snap(&h).step(),
        step,
        "a click meant for the old list was taken"
    );
    // Once the pointer has moved, a click counts.
    h.event(egui::Event::PointerMoved(at + egui::vec2(1.0, 0.0)));
    h.step();
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos: at + egui::vec2(1.0, 0.0),
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
    }
    until(&mut h, "the click after a move taken", |s| {
        s.play.snapshot().is_some_and(|snap| snap.step() > step)
    });
}

#[test]
fn an_option_that_applies_only_with_another_choice_is_greyed_until_it_is_chosen() {
    use egui_kittest::kittest::NodeT;
    let mut h = studio("critter-cab".into());
    until(&mut h, "the new-game dialog", |s| s.play.in_dialog());
    // Game limit: Rounds, so the table clock's minutes do not apply.
    assert!(
        h.get_by_label("Table clock (minutes)")
            .accesskit_node()
            .is_disabled()
    );
    assert!(!h.get_by_label("Rounds").accesskit_node().is_disabled());
    h.state_mut()
        .as_mut()
        .unwrap()
        .play
        .set_option("limit", "clock");
    h.step();
    h.step();
    assert!(
        !h.get_by_label("Table clock (minutes)")
            .accesskit_node()
            .is_disabled()
    );
    assert!(h.get_by_label("Rounds").accesskit_node().is_disabled());
    // An option that says nothing of the kind is never greyed.
    assert!(!h.get_by_label("Taxi cards").accesskit_node().is_disabled());
}

#[test]
fn the_drivers_secret_pickup_spot_stands_at_the_top_of_the_drivers_screen_only() {
    use farebox_editor::studio::worker::SeatKind;
    for driver_is_person in [true, false] {
        let mut h = studio("wheres-my-ride".into());
        until(&mut h, "the new-game dialog", |s| s.play.in_dialog());
        {
            let play = &mut h.state_mut().as_mut().unwrap().play;
            play.set_seed(3);
            if !driver_is_person {
                play.set_seat(0, SeatKind::Bot("random".into()));
                play.set_seat(1, SeatKind::Person);
            }
        }
        h.get_by_label("Start the game").click();
        until(&mut h, "the first decision of a person", |s| {
            s.play
                .snapshot()
                .is_some_and(|snap| !snap.offered.is_empty())
        });
        let spot = snap(&h).view.vars.get("pickup spot").map(|v| v.to_string());
        if driver_is_person {
            let spot = spot.expect("the Driver sees the pickup spot");
            assert!(h.query_by_label("Pickup spot:").is_some());
            assert!(h.query_by_label(&spot).is_some(), "`{spot}` not shown");
        } else {
            assert!(spot.is_none());
            assert!(h.query_by_label("Pickup spot:").is_none());
            // The Rider holds no emojis: the zone is named once, as empty.
            assert!(
                h.query_by_label_contains("Emojis behind the screen (empty)")
                    .is_some()
            );
            assert!(h.query_by_label_contains("(yours): none").is_none());
        }
    }
}

#[test]
fn fork_with_a_game_in_progress_asks_before_leaving_it() {
    let (dir, _) = copy_of("curbside");
    let file = dir.join("game.replay.json");
    let code = farebox_editor::run(
        vec![
            "farebox".into(),
            "record".into(),
            "curbside".into(),
            "--seed".into(),
            "5".into(),
            "--out".into(),
            file.display().to_string(),
        ],
        &mut std::io::empty(),
        &mut std::io::sink(),
        &mut std::io::sink(),
    );
    assert_eq!(code, 0);
    let mut h = studio("curbside".into());
    let before = play_one_move(&mut h);
    show_tab(&mut h, "Replay");
    h.state_mut()
        .as_mut()
        .unwrap()
        .replay
        .set_path(&file.display().to_string());
    h.get_by_label("Open replay").click();
    until(&mut h, "the replay", |s| {
        s.replay.position().is_some_and(|(_, total)| total > 0)
    });
    h.get_by_label("Fork from here").click();
    settle(&mut h);
    assert!(
        h.query_by_label_contains(&format!("game in progress at action {}", before + 1))
            .is_some()
    );
    h.get_by_label("Cancel").click();
    settle(&mut h);
    let s = h.state().as_ref().unwrap();
    assert_eq!(s.tab, Tab::Replay);
    assert_eq!(step_of(s), Some(before + 1));
    h.get_by_label("Fork from here").click();
    settle(&mut h);
    h.get_by_label("Leave the game").click();
    until(&mut h, "the fork's dialog", |s| {
        s.tab == Tab::Play && s.play.in_dialog() && s.play.in_progress().is_none()
    });
    // The game was given up once: starting the fork does not ask again.
    h.get_by_label("Start the game").click();
    h.step();
    assert!(!h.state().as_ref().unwrap().asking());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_game_that_cannot_start_says_why_and_goes_back_to_the_new_game_dialog() {
    // Setup fails only with a game limit of five rounds: the mod loads (its check sets up
    // every seat count with the default options).
    let (dir, folder) = copy_of("critter-cab");
    let rules = folder.join("rules/critter-cab.luau");
    let good = std::fs::read_to_string(&rules).unwrap();
    let failing = good.replacen(
        "\tsetup = function(_g)",
        "\tsetup = function(_g)\n\t\tif game.option(\"turn-limit\") == 5 then error(\"three cabs do not fit\") end",
        1,
    );
    assert_ne!(failing, good);
    std::fs::write(&rules, &failing).unwrap();
    let mut h = studio(folder.display().to_string());
    until(&mut h, "the new-game dialog", |s| s.play.in_dialog());
    {
        let play = &mut h.state_mut().as_mut().unwrap().play;
        play.set_seed(5);
        play.set_players(3);
        play.set_option("turn-limit", "5");
    }
    // The dialog lays the third seat out first.
    h.step();
    h.get_by_label("Start the game").click();
    until(&mut h, "the dialog again, with the reason", |s| {
        s.play.in_dialog() && s.play.error().is_some()
    });
    let e = h
        .state()
        .as_ref()
        .unwrap()
        .play
        .error()
        .unwrap()
        .to_string();
    assert!(e.starts_with("The game could not start"), "{e}");
    assert!(e.contains("three cabs do not fit"), "{e}");
    let line = failing
        .lines()
        .position(|l| l.contains("three cabs do not fit"))
        .unwrap()
        + 1;
    assert!(e.contains(&format!("critter-cab.luau:{line}")), "{e}");
    assert!(h.query_by_label_contains("three cabs do not fit").is_some());
    assert!(h.query_by_label_contains("Starting the game").is_none());
    // The dialog kept the choices: with another limit the game starts.
    h.state_mut()
        .as_mut()
        .unwrap()
        .play
        .set_option("turn-limit", "6");
    h.step();
    h.get_by_label("Start the game").click();
    until(&mut h, "the game", |s| s.play.snapshot().is_some());
    let _ = std::fs::remove_dir_all(dir);
}

/// A two-seat game that ends at once, together: won or lost as the action says.
fn cooperative_mod() -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!(
        "farebox-studio-coop-{}-{}",
        std::process::id(),
        rand_tag()
    ));
    let folder = dir.join("coop");
    std::fs::create_dir_all(folder.join("rules")).unwrap();
    std::fs::write(
        folder.join("mod.toml"),
        format!(
            "id = \"coop\"\nname = \"Coop\"\nversion = \"0.1.0\"\nengine = \"{}\"\nplayers = {{ min = 2, max = 2 }}\nscripts = [\"rules/coop.luau\"]\n",
            farebox::content::ENGINE_VERSION
        ),
    )
    .unwrap();
    std::fs::write(
        folder.join("rules/coop.luau"),
        "return {\n\tsetup = function(_g) end,\n\tactions = function(_g, _seat: number): { string }\n\t\treturn { \"win\", \"lose\" }\n\tend,\n\tapply = function(_g, _seat: number, action: string)\n\t\tgame.finish_together(action == \"win\", 3, \"The ride was found\")\n\tend,\n}\n",
    )
    .unwrap();
    (dir, folder)
}

#[test]
fn a_cooperative_ending_reads_as_one_result_for_the_table() {
    for (action, heading) in [
        ("win", "Game over: everyone wins"),
        ("lose", "Game over: everyone loses"),
    ] {
        let (dir, folder) = cooperative_mod();
        let mut h = studio(folder.display().to_string());
        until(&mut h, "the new-game dialog", |s| s.play.in_dialog());
        h.get_by_label("Start the game").click();
        until(&mut h, "the actions", |s| {
            s.play
                .snapshot()
                .is_some_and(|snap| !snap.offered.is_empty())
        });
        settle(&mut h);
        h.get_by_label(action).click();
        until(&mut h, "the end", |s| {
            s.play
                .snapshot()
                .is_some_and(|snap| snap.result().is_some())
        });
        settle(&mut h);
        assert!(h.query_by_label(heading).is_some(), "no `{heading}`");
        assert!(h.query_by_label("1st").is_none());
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[test]
fn a_long_list_of_many_groups_starts_closed_so_its_end_is_in_sight() {
    // The Driver of Where's My Ride? (the first seat, a person) puts emojis on the Riders'
    // texts: a "Put" group per emoji, a text or more in each, and "Done" after them all.
    let mut h = started("wheres-my-ride", 3);
    h.state_mut().as_mut().unwrap().play.pace = Duration::ZERO;
    let long = |s: &Studio| {
        s.play.snapshot().is_some_and(|snap| {
            let mut groups: Vec<&str> = snap
                .offered
                .iter()
                .filter(|o| o.path.len() > 1)
                .map(|o| o.path[0].as_str())
                .collect();
            groups.dedup();
            groups.len() > 2 && snap.offered.len() > 8
        })
    };
    // Until the Driver puts emojis, it takes the first action it is offered.
    for _ in 0..10 {
        until(&mut h, "the Driver's choice", |s| {
            s.play
                .snapshot()
                .is_some_and(|snap| !snap.offered.is_empty())
        });
        if long(h.state().as_ref().unwrap()) {
            break;
        }
        let (first, step) = {
            let snap = snap(&h);
            (snap.offered[0].path.last().unwrap().clone(), snap.step())
        };
        h.get_by_label(&first).click();
        until(&mut h, "the action taken", |s| {
            s.play.snapshot().is_some_and(|snap| snap.step() > step)
        });
    }
    let snap = snap(&h).clone();
    let mut groups: Vec<&str> = snap
        .offered
        .iter()
        .filter(|o| o.path.len() > 1)
        .map(|o| o.path[0].as_str())
        .collect();
    groups.dedup();
    assert!(
        groups.len() > 2 && snap.offered.len() > 8,
        "not a long list of many groups: {:?}",
        snap.offered.iter().map(|o| &o.path).collect::<Vec<_>>()
    );
    // The rows of the list: each group by its name and count, and the actions not in a
    // group ("Done", once an emoji is down).
    let mut rows: Vec<String> = snap
        .offered
        .iter()
        .filter(|o| o.path.len() == 1)
        .map(|o| o.path[0].clone())
        .collect();
    // Each group is there by its name and count, closed: none of its actions is listed.
    for g in &groups {
        let n = snap.offered.iter().filter(|o| o.path[0] == *g).count();
        assert!(
            h.query_by_label(&format!("{g} ({n})")).is_some(),
            "no group {g} ({n})"
        );
        rows.push(format!("{g} ({n})"));
    }
    for o in snap.offered.iter().filter(|o| o.path.len() > 1) {
        assert!(
            h.query_by_label(&o.path[1..].join(" ")).is_none(),
            "`{}` is listed though its group should start closed",
            o.path.join(" ")
        );
    }
    // Every row of the list is above the end of its panel (the replay file's row under it).
    let under = h.get_by_label("Save replay").rect();
    for a in &rows {
        let end = h.get_by_label(a).rect();
        assert!(
            end.bottom() < under.top(),
            "`{a}` at {end:?}, below the list's end"
        );
    }
    // A group still opens with a click, as a person would.
    h.get_by_label_contains(&format!("{} (", groups[0])).click();
    h.step();
    h.step();
    let first = snap
        .offered
        .iter()
        .find(|o| o.path[0] == groups[0])
        .unwrap();
    assert!(h.query_by_label(&first.path[1..].join(" ")).is_some());
}

/// The new-game dialog offers the search bot at the mod's own strengths: Curbside's
/// `[search] playouts` is 50, so quick, normal and strong are 12, 50 and 200 playouts a move,
/// and a seat chosen so starts the game with that budget.
#[test]
fn the_search_bot_is_offered_at_the_strengths_the_mod_names() {
    use farebox_editor::studio::worker::SeatKind;
    let mut h = studio("curbside".into());
    until(&mut h, "the new-game dialog", |s| s.play.in_dialog());
    h.state_mut().as_mut().unwrap().play.set_seed(5);
    // Red, the second seat, is the Dispatcher's: open its picker.
    h.get_by_role_and_label(egui::accesskit::Role::ComboBox, "Red")
        .click();
    h.step();
    h.step();
    for level in [
        "Search bot, quick (12 playouts a move)",
        "Search bot, strong (200 playouts a move)",
    ] {
        assert!(h.query_by_label(level).is_some(), "{level} is not offered");
    }
    assert!(h.query_by_label_contains("(25 playouts a move)").is_none());
    h.get_by_label("Search bot (50 playouts a move)").click();
    h.step();
    h.step();
    assert_eq!(
        h.state().as_ref().unwrap().play.dialog_seats(),
        Some(vec![SeatKind::Person, SeatKind::Bot("search:50".into())])
    );
}

/// A search bot stronger than a server allows cannot be hosted online: the dialog says so and
/// Host online waits for a lighter one.
#[test]
fn hosting_online_waits_for_a_search_bot_a_server_allows() {
    use egui_kittest::kittest::NodeT;
    use farebox_editor::studio::worker::SeatKind;
    let mut h = studio("curbside".into());
    until(&mut h, "the new-game dialog", |s| s.play.in_dialog());
    let cap = farebox_server::protocol::MAX_SEARCH_PLAYOUTS;
    let heavy = format!("search:{}", cap + 1);
    h.state_mut()
        .as_mut()
        .unwrap()
        .play
        .set_seat(1, SeatKind::Bot(heavy));
    h.step();
    h.step();
    assert!(h.get_by_label("Host online").accesskit_node().is_disabled());
    assert!(
        h.query_by_label_contains(&format!("an online table allows at most {cap}"))
            .is_some()
    );
    h.state_mut()
        .as_mut()
        .unwrap()
        .play
        .set_seat(1, SeatKind::Bot(format!("search:{cap}")));
    h.step();
    h.step();
    assert!(!h.get_by_label("Host online").accesskit_node().is_disabled());
}
