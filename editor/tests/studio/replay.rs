//! Replays: opening a saved or recorded game, stepping and forking, one that does not match
//! its mod, one with hidden information, and a failed game of an outcome run.

use super::*;
use egui_kittest::kittest::NodeT;

#[test]
fn a_saved_game_opens_as_a_replay_steps_back_and_forks() {
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
    until(&mut h, "the mod", |s| {
        s.project.as_ref().is_some_and(|p| p.def.is_some())
    });
    h.state_mut().as_mut().unwrap().tab = Tab::Replay;
    h.step();
    h.state_mut()
        .as_mut()
        .unwrap()
        .replay
        .set_path(&file.display().to_string());
    h.get_by_label("Open replay").click();
    until(&mut h, "the last position drawn", |s| {
        s.replay.position().is_some_and(|(at, total)| {
            at == total && total > 0 && s.replay.showing() == Some(total)
        })
    });
    h.get_by_label("Back").click();
    let total = h.state().as_ref().unwrap().replay.position().unwrap().1;
    until(&mut h, "one action back", |s| {
        s.replay.position() == Some((total - 1, total)) && s.replay.showing() == Some(total - 1)
    });
    h.get_by_label("Fork from here").click();
    // The fork opens the new-game dialog: the replay's setup is kept, the seats are chosen.
    until(&mut h, "the fork's dialog", |s| {
        s.tab == Tab::Play && s.play.in_dialog()
    });
    assert!(h.query_by_label_contains("Continue a replay").is_some());
    assert!(
        h.query_by_label_contains(&format!("from step {}", total - 1))
            .is_some()
    );
    h.get_by_label("Start the game").click();
    until(&mut h, "the forked game", |s| {
        s.tab == Tab::Play && step_of(s) == Some(total - 1)
    });
    // The first seat is a person by default; the rest are the mod's bot.
    let seats = snap(&h).seats.clone();
    assert!(seats[0].is_person());
    assert!(seats[1..].iter().all(|k| !k.is_person()), "{seats:?}");
    let _ = std::fs::remove_dir_all(dir);
}

fn open_replay(h: &mut H, file: &Path) {
    h.state_mut().as_mut().unwrap().tab = Tab::Replay;
    h.step();
    h.state_mut()
        .as_mut()
        .unwrap()
        .replay
        .set_path(&file.display().to_string());
    h.get_by_label("Open replay").click();
    h.step();
}

#[test]
fn a_replay_reads_in_public_labels_and_its_list_of_actions_jumps_to_a_step() {
    let (dir, file) = recorded("curbside", 5);
    let replay =
        farebox::replay::Replay::from_json(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let mut h = studio("curbside".into());
    loaded(&mut h);
    open_replay(&mut h, &file);
    until(&mut h, "the labels and the last position", |s| {
        s.replay.labels().is_some()
            && s.replay
                .position()
                .is_some_and(|(at, total)| s.replay.showing() == Some(total) && at == total)
    });
    let labels = h
        .state()
        .as_ref()
        .unwrap()
        .replay
        .labels()
        .unwrap()
        .to_vec();
    assert_eq!(labels.len(), replay.steps.len());
    let total = labels.len();
    // The caption says the last action in its public words, not its id.
    let (seat, said) = &labels[total - 1];
    let seat_name = h
        .state()
        .as_ref()
        .unwrap()
        .project
        .as_ref()
        .unwrap()
        .def
        .as_ref()
        .unwrap()
        .seat_name(*seat as usize);
    assert_ne!(said, &replay.steps[total - 1].action);
    assert!(
        h.query_by_label(&format!("Action {total}: {seat_name} — {said}"))
            .is_some()
    );
    for st in &replay.steps {
        assert!(
            h.query_by_label_contains(&format!("— {}", st.action))
                .is_none(),
            "a caption shows the action id {}",
            st.action
        );
    }
    // Clicking the third action in the list goes to the position after it.
    let (s3, l3) = &labels[2];
    let n3 = h
        .state()
        .as_ref()
        .unwrap()
        .project
        .as_ref()
        .unwrap()
        .def
        .as_ref()
        .unwrap()
        .seat_name(*s3 as usize);
    h.get_by_label(&format!("3. {n3}: {l3}")).scroll_to_me();
    settle(&mut h);
    h.get_by_label(&format!("3. {n3}: {l3}")).click();
    until(&mut h, "the third position", |s| {
        s.replay.position() == Some((3, total)) && s.replay.showing() == Some(3)
    });
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_replay_that_does_not_match_the_mod_says_why_and_shows_no_board() {
    let (dir, file) = recorded("curbside", 5);
    let mut h = studio("curbside".into());
    loaded(&mut h);
    open_replay(&mut h, &file);
    until(&mut h, "the replay drawn", |s| s.replay.showing().is_some());
    // The same game with an action the rules refuse.
    let text = std::fs::read_to_string(&file).unwrap();
    let mut r = farebox::replay::Replay::from_json(&text).unwrap();
    r.steps[2].action = "fly to the moon".into();
    let bad = dir.join("bad.replay.json");
    std::fs::write(&bad, r.to_json()).unwrap();
    open_replay(&mut h, &bad);
    until(&mut h, "the reason", |s| {
        s.replay
            .error()
            .is_some_and(|e| e.contains("does not match"))
    });
    settle(&mut h);
    let s = h.state().as_ref().unwrap();
    assert_eq!(s.replay.showing(), None, "a board is still drawn");
    assert!(s.replay.position().is_none());
    assert!(h.query_by_label("1,1").is_none());
    assert!(
        h.query_by_label_contains("does not match the open mod")
            .is_some()
    );
    // A replay of another game: the reason, and the last replay's board is gone too.
    open_replay(&mut h, &file);
    until(&mut h, "the good replay again", |s| {
        s.replay.showing().is_some()
    });
    let (dir2, other) = recorded("critter-cab", 2);
    open_replay(&mut h, &other);
    settle(&mut h);
    let s = h.state().as_ref().unwrap();
    assert!(s.replay.error().is_some_and(|e| e.contains("critter-cab")));
    assert_eq!(s.replay.showing(), None);
    assert!(h.query_by_label("1,1").is_none());
    let _ = std::fs::remove_dir_all(dir);
    let _ = std::fs::remove_dir_all(dir2);
}

#[test]
fn a_replay_of_a_game_with_hidden_information_warns_that_it_shows_every_seat() {
    let (dir, file) = recorded("critter-cab", 2);
    let mut h = studio("critter-cab".into());
    loaded(&mut h);
    open_replay(&mut h, &file);
    until(&mut h, "the replay drawn", |s| s.replay.showing().is_some());
    assert!(h.state().as_ref().unwrap().replay.warns_hidden());
    assert!(
        h.query_by_label_contains("This game has hidden information")
            .is_some()
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_failed_game_of_an_outcome_run_opens_in_the_replay_tab_just_before_its_failing_action() {
    let (dir, folder) = copy_of("curbside");
    let rules = folder.join("rules/curbside.luau");
    let text = std::fs::read_to_string(&rules).unwrap();
    let failing = text.replacen(
        "\tapply = function(_g, seat: number, action: string)\n",
        "\tapply = function(_g, seat: number, action: string)\n\t\tif game.get(\"_applied\") == 4 then error(\"boom at five\") end\n\t\tgame.set(\"_applied\", (game.get(\"_applied\") or 0) + 1)\n",
        1,
    );
    assert_ne!(failing, text);
    std::fs::write(&rules, failing).unwrap();
    let mut h = studio(folder.display().to_string());
    loaded(&mut h);
    show_tab(&mut h, "Outcomes");
    {
        let o = &mut h.state_mut().as_mut().unwrap().outcomes;
        o.set_games(3);
        o.rerun();
    }
    until_long(&mut h, "the run's end", |s| !s.outcomes.is_running());
    settle(&mut h);
    // The list of failed games comes first, above the figures: brought into view, then clicked.
    h.get_all_by_label("Show in Replay")
        .next()
        .expect("a failed game to show")
        .scroll_to_me();
    settle(&mut h);
    h.get_all_by_label("Show in Replay")
        .next()
        .expect("a failed game to show")
        .click();
    until_long(&mut h, "the failed game in the Replay tab", |s| {
        s.tab == Tab::Replay && s.replay.failure().is_some() && s.replay.position().is_some()
    });
    let s = h.state().as_ref().unwrap();
    // Four actions were taken; the fifth failed, and the board shows the game before it.
    assert_eq!(s.replay.position(), Some((4, 4)));
    let why = s.replay.failure().unwrap();
    assert!(
        why.contains("action 5 failed") && why.contains("boom at five"),
        "{why}"
    );
    settle(&mut h);
    assert!(h.query_by_label_contains("boom at five").is_some());
    let _ = std::fs::remove_dir_all(dir);
}

/// A run with the search bot whose playouts fail (an `evaluate` hook that errors) says so
/// above the figures, with the error in full, and is not accepted by a plain Accept.
#[test]
fn failed_search_playouts_are_shown_above_the_figures_and_hold_accept() {
    let (dir, folder) = copy_of("curbside");
    let rules = folder.join("rules/curbside.luau");
    let text = std::fs::read_to_string(&rules).unwrap();
    // Curbside's own evaluate hook, made to fail.
    let failing = text.replacen(
        "\t\treturn evaluate(seat)",
        "\t\terror(\"the gauge sticks\")",
        1,
    );
    assert_ne!(failing, text);
    std::fs::write(&rules, failing).unwrap();
    let mut h = studio(folder.display().to_string());
    loaded(&mut h);
    show_tab(&mut h, "Outcomes");
    {
        let o = &mut h.state_mut().as_mut().unwrap().outcomes;
        o.set_games(1);
        // Eight playouts: the paired root's smallest budget that plays any.
        o.set_bots(vec!["search:8".into(), "dispatcher".into()]);
        o.rerun();
    }
    until_long(&mut h, "the run's end", |s| !s.outcomes.is_running());
    settle(&mut h);
    assert!(
        h.query_by_label_contains("Errors in the search bot's playouts")
            .is_some()
    );
    assert!(h.query_by_label_contains("the gauge sticks").is_some());
    assert!(
        h.get_by_label("Accept").accesskit_node().is_disabled(),
        "Accept waits"
    );
    let _ = std::fs::remove_dir_all(dir);
}
