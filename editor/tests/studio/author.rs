//! The author's loop where authors really work: a game in progress, live edits saved from the
//! Studio, and the rules then changed on disk the ways editors save files (`sed -i`, which
//! renames a new file over the old; a write in place; a temporary file renamed over; two saves
//! within the watcher's quiet period), through the real file watcher. Whatever the Studio is
//! doing, every place that speaks of the mod (the top bar, the Diagnostics tab and its count,
//! Play) says what the newest files say, and a message that is no longer true goes away.

use super::*;

/// The Studio's one verdict on the mod, as each place shows it.
struct Said {
    status: String,
    problems: usize,
}

fn said(h: &H) -> Said {
    let p = h.state().as_ref().unwrap().project.as_ref().unwrap();
    Said {
        status: p.status.clone(),
        problems: p.diagnostics.len(),
    }
}

/// How an editor writes a file.
#[derive(Debug, Clone, Copy)]
enum Save {
    /// `sed -i`: a new file beside it, renamed over it.
    SedInPlace,
    /// Truncated and written in place (most editors' plain save).
    InPlace,
    /// Written to a temporary file, then renamed over it (an atomic save).
    TempThenRename,
}

/// Writes `text` to `file` as `how` does: for `sed -i`, the real `sed` replaces the whole
/// file's text with a script that prints `text` (so its own temporary file and rename do the
/// writing).
fn save(how: Save, file: &Path, text: &str) {
    match how {
        Save::SedInPlace => {
            // sed reads the old file and writes `text` in its place: its script deletes every
            // line and, at the last one, reads the new text in from a side file.
            let side = file.with_extension("new~");
            std::fs::write(&side, text).unwrap();
            let status = std::process::Command::new("sed")
                .arg("-i")
                .arg("-e")
                .arg(format!("$r {}", side.display()))
                .arg("-e")
                .arg("d")
                .arg(file)
                .status()
                .expect("sed runs");
            assert!(status.success());
            std::fs::remove_file(&side).unwrap();
            assert_eq!(std::fs::read_to_string(file).unwrap(), text);
        }
        Save::InPlace => {
            use std::io::Write;
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .truncate(true)
                .open(file)
                .unwrap();
            f.write_all(text.as_bytes()).unwrap();
        }
        Save::TempThenRename => {
            let tmp = file.with_file_name(format!(
                "{}.tmp",
                file.file_name().unwrap().to_string_lossy()
            ));
            std::fs::write(&tmp, text).unwrap();
            std::fs::rename(&tmp, file).unwrap();
        }
    }
}

/// Steps frames until the Studio has taken in a change on disk and checked it: the status
/// line names the file, and no load or check is under way.
fn verdict_on(h: &mut H, file: &str, what: &str, done: impl Fn(&Said) -> bool) {
    let file = file.to_string();
    until(h, what, |s| {
        let Some(p) = s.project.as_ref() else {
            return false;
        };
        let seen = Said {
            status: p.status.clone(),
            problems: p.diagnostics.len(),
        };
        p.status.starts_with(&format!("{file} changed")) && !p.checking() && done(&seen)
    });
}

/// Nothing on screen calls the mod fine, and Play says the files have a problem.
fn shows_broken(h: &mut H, how: Save) {
    let s = said(h);
    assert_eq!(s.problems, 1, "{how:?}: {}", s.status);
    assert!(s.status.contains("1 problem"), "{how:?}: {}", s.status);
    assert!(!s.status.contains("no problems"), "{how:?}: {}", s.status);
    assert!(
        h.query_by_label_contains("Diagnostics (1)").is_some(),
        "{how:?}: the Diagnostics tab does not count the problem"
    );
    assert!(
        h.query_by_label_contains("no problems").is_none(),
        "{how:?}: something still says no problems"
    );
    assert!(
        h.query_by_label_contains("The mod's files have 1 problem")
            .is_some(),
        "{how:?}: Play does not say the files have a problem"
    );
}

/// Everything says the mod is fine again, and nothing said of the broken version stays.
fn shows_fixed(h: &mut H, how: Save) {
    let s = said(h);
    assert_eq!(s.problems, 0, "{how:?}: {}", s.status);
    assert!(s.status.contains("no problems"), "{how:?}: {}", s.status);
    assert!(h.query_by_label_contains("Diagnostics (").is_none());
    assert!(h.query_by_label_contains("The mod's files have").is_none());
    assert!(h.query_by_label_contains("cannot start").is_none());
}

/// A game of Curbside in progress, a card renamed in Decks & tables and saved with the
/// Studio's save; then the rules broken and fixed again on disk in each way editors save. The
/// editor being open sends every change through its check of the unsaved content, which must
/// compile the scripts and run a setup as a reload does.
#[test]
fn a_broken_script_is_never_called_fine_however_it_is_saved() {
    let (dir, folder) = copy_of("curbside");
    let mut h = studio(folder.display().to_string());
    until(&mut h, "the mod loaded and watched", |s| {
        s.play.in_dialog() && s.project.as_ref().is_some_and(|p| p.watching())
    });
    play_one_move(&mut h);
    // A live edit in Decks & tables, then Ctrl+S.
    show_tab(&mut h, "Decks & tables");
    let studio = h.state_mut().as_mut().unwrap();
    studio.apply(farebox_editor::studio::Command::Edit(
        farebox_editor::edit::Edit::SetCardField {
            deck: "passengers".into(),
            card: "p04".into(),
            field: "name".into(),
            value: Some(farebox::content::raw::RawValue::String("Head chef".into())),
        },
    ));
    until(&mut h, "the edit live", |s| {
        live(s).is_some_and(|d| {
            d.decks
                .iter()
                .flat_map(|d| &d.cards)
                .any(|c| c.name == "Head chef")
        })
    });
    h.state_mut()
        .as_mut()
        .unwrap()
        .apply(farebox_editor::studio::Command::Save);
    assert!(!h.state().as_ref().unwrap().unsaved());
    show_tab(&mut h, "Play");
    let rules = folder.join("rules/curbside.luau");
    let good = std::fs::read_to_string(&rules).unwrap();
    let mut lines: Vec<&str> = good.lines().collect();
    lines.insert(9, "local broken = = 1");
    let syntax = lines.join("\n");
    for how in [Save::SedInPlace, Save::InPlace, Save::TempThenRename] {
        save(how, &rules, &syntax);
        verdict_on(&mut h, "rules/curbside.luau", "the syntax error", |s| {
            s.problems > 0
        });
        settle(&mut h);
        shows_broken(&mut h, how);
        let d = &h
            .state()
            .as_ref()
            .unwrap()
            .project
            .as_ref()
            .unwrap()
            .diagnostics[0];
        assert!(d.path.ends_with("curbside.luau") && d.line == 10, "{d}");
        save(how, &rules, &good);
        verdict_on(&mut h, "rules/curbside.luau", "the fix", |s| {
            s.problems == 0
        });
        settle(&mut h);
        shows_fixed(&mut h, how);
    }
    // A script that compiles but fails in its setup is a problem of the mod too.
    let failing = good.replacen(
        "\tsetup = function(_g)",
        "\tsetup = function(_g)\n\t\terror(\"the depot is closed\")",
        1,
    );
    assert_ne!(failing, good);
    save(Save::InPlace, &rules, &failing);
    verdict_on(&mut h, "rules/curbside.luau", "the setup error", |s| {
        s.problems > 0
    });
    settle(&mut h);
    shows_broken(&mut h, Save::InPlace);
    {
        let p = h.state().as_ref().unwrap().project.as_ref().unwrap();
        let d = &p.diagnostics[0];
        assert!(d.message.contains("the depot is closed"), "{d}");
        assert!(d.message.contains("in setup"), "{d}");
    }
    // Two saves within the watcher's quiet period: the newest text decides. Broken then
    // fixed: fine.
    save(Save::InPlace, &rules, &syntax);
    save(Save::TempThenRename, &rules, &good);
    verdict_on(
        &mut h,
        "rules/curbside.luau",
        "the last of two saves",
        |s| s.problems == 0,
    );
    settle(&mut h);
    shows_fixed(&mut h, Save::TempThenRename);
    // Fixed then broken: broken.
    save(
        Save::TempThenRename,
        &rules,
        &good.replacen("--!strict", "--!strict\n", 1),
    );
    save(Save::InPlace, &rules, &syntax);
    verdict_on(
        &mut h,
        "rules/curbside.luau",
        "the last of two saves",
        |s| s.problems > 0,
    );
    // Nothing arrives later to call it fine.
    for _ in 0..40 {
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    shows_broken(&mut h, Save::InPlace);
    let _ = std::fs::remove_dir_all(dir);
}

/// With the Studio asking what to do with a game the new version changes, a broken save of
/// the rules is still reported everywhere, and its fix clears it.
#[test]
fn a_pending_question_does_not_hide_a_broken_save() {
    let (dir, folder) = copy_of("curbside");
    let mut h = studio(folder.display().to_string());
    until(&mut h, "the mod loaded and watched", |s| {
        s.play.in_dialog() && s.project.as_ref().is_some_and(|p| p.watching())
    });
    play_one_move(&mut h);
    // A change of the dice: the game goes elsewhere, and the Studio asks.
    let mod_toml = folder.join("mod.toml");
    let text = std::fs::read_to_string(&mod_toml).unwrap();
    save(
        Save::SedInPlace,
        &mod_toml,
        &text.replacen("die_sides = 6", "die_sides = 5", 1),
    );
    until_shown(&mut h, "Keep the old game");
    assert!(h.query_by_label("Keep the old game").is_some());
    let rules = folder.join("rules/curbside.luau");
    let good = std::fs::read_to_string(&rules).unwrap();
    save(
        Save::InPlace,
        &rules,
        &good.replacen("local C =", "local C = =", 1),
    );
    verdict_on(&mut h, "rules/curbside.luau", "the syntax error", |s| {
        s.problems > 0
    });
    settle(&mut h);
    shows_broken(&mut h, Save::InPlace);
    save(Save::InPlace, &rules, &good);
    verdict_on(&mut h, "rules/curbside.luau", "the fix", |s| {
        s.problems == 0
    });
    settle(&mut h);
    shows_fixed(&mut h, Save::InPlace);
    let _ = std::fs::remove_dir_all(dir);
}

/// A card renamed in Decks & tables while a game runs: the state is the same, but the
/// person's hand would read differently, so the Studio says what changed, in words, and asks;
/// keeping the old game keeps exactly the game that was on screen.
#[test]
fn a_live_edit_that_changes_what_a_seat_saw_asks_and_keeping_keeps_it() {
    let (dir, folder) = copy_of("curbside");
    let mut h = studio(folder.display().to_string());
    until(&mut h, "the mod loaded and watched", |s| {
        s.play.in_dialog() && s.project.as_ref().is_some_and(|p| p.watching())
    });
    play_one_move(&mut h);
    let (deck, card, name, step, viewer) = {
        let s = snap(&h);
        let viewer = s.viewer.expect("a person views the game");
        let id = s
            .view
            .zones
            .iter()
            .find(|z| z.owner == Some(viewer) && !z.cards.is_empty())
            .map(|z| z.cards[0].clone())
            .expect("the person holds a card");
        let deck = s
            .def
            .decks
            .iter()
            .find(|d| d.cards.iter().any(|c| c.id == id))
            .unwrap();
        let name = deck.cards.iter().find(|c| c.id == id).unwrap().name.clone();
        (deck.id.clone(), id, name, s.step(), viewer)
    };
    let renamed = format!("{name} (renamed)");
    show_tab(&mut h, "Decks & tables");
    h.state_mut()
        .as_mut()
        .unwrap()
        .apply(farebox_editor::studio::Command::Edit(
            farebox_editor::edit::Edit::SetCardField {
                deck: deck.clone(),
                card: card.clone(),
                field: "name".into(),
                value: Some(farebox::content::raw::RawValue::String(renamed.clone())),
            },
        ));
    show_tab(&mut h, "Play");
    until_shown(&mut h, "Keep the old game");
    let question = h
        .query_by_label_contains("in place of")
        .expect("the question names what changed")
        .value()
        .unwrap_or_default();
    assert!(question.contains(&renamed), "{question:?} {renamed:?}");
    assert!(question.contains(&name), "{question}");
    // Only what the person at the screen may see is named: never the bot's hand.
    let bot = snap(&h).def.seat_name(1 - viewer as usize);
    assert!(!question.contains(&format!("{bot}'s")), "{question}");
    // Actions are named as players read them, never by their action strings.
    assert!(!question.contains('`'), "{question}");
    assert!(!question.contains(&format!(" {card} ")), "{question}");
    // The game stands still while the Studio asks.
    assert_eq!(step_of(h.state().as_ref().unwrap()), Some(step));
    h.get_by_label("Keep the old game").click();
    settle(&mut h);
    assert!(h.query_by_label("Keep the old game").is_none());
    let s = snap(&h);
    assert_eq!(s.step(), step);
    assert_eq!(s.viewer, Some(viewer));
    let held = s
        .def
        .decks
        .iter()
        .flat_map(|d| &d.cards)
        .find(|c| c.id == card)
        .unwrap();
    assert_eq!(held.name, name, "the old game's cards keep their names");
    assert!(h.query_by_label_contains(&renamed).is_none());
    let _ = std::fs::remove_dir_all(dir);
}

/// A setup that fails only for one seat count is a problem of the mod, found on the save.
#[test]
fn a_setup_that_fails_for_one_seat_count_is_a_problem_of_the_mod() {
    let (dir, folder) = copy_of("critter-cab");
    let mut h = studio(folder.display().to_string());
    until(&mut h, "the mod loaded and watched", |s| {
        s.play.in_dialog() && s.project.as_ref().is_some_and(|p| p.watching())
    });
    let rules = folder.join("rules/critter-cab.luau");
    let good = std::fs::read_to_string(&rules).unwrap();
    let failing = good.replacen(
        "\tsetup = function(_g)",
        "\tsetup = function(_g)\n\t\tif game.seats() == 3 then error(\"three cabs do not fit\") end",
        1,
    );
    assert_ne!(failing, good);
    save(Save::TempThenRename, &rules, &failing);
    verdict_on(&mut h, "rules/critter-cab.luau", "the problem", |s| {
        s.problems > 0
    });
    let p = h.state().as_ref().unwrap().project.as_ref().unwrap();
    assert!(
        p.diagnostics[0].message.contains("three cabs do not fit"),
        "{}",
        p.diagnostics[0]
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// Play offers to leave a game once it runs; leaving a game in progress, or closing the
/// window on it, asks first.
#[test]
fn leaving_or_closing_on_a_game_in_progress_asks_first() {
    let mut h = started("curbside", 7);
    h.state_mut().as_mut().unwrap().play.paused = true;
    // Before any action nothing is lost: leaving goes straight to the dialog.
    h.get_by_label("Leave game").click();
    until(&mut h, "the dialog", |s| s.play.in_dialog());
    assert!(!h.state().as_ref().unwrap().asking());
    h.get_by_label("Start the game").click();
    until(&mut h, "the person's actions", |s| {
        s.play
            .snapshot()
            .is_some_and(|snap| !snap.offered.is_empty())
    });
    h.state_mut().as_mut().unwrap().play.paused = true;
    let label = snap(&h).offered[0].label.clone();
    h.get_by_label(&label).click();
    until(&mut h, "one action taken", |s| step_of(s) == Some(1));
    h.get_by_label("Leave game").click();
    settle(&mut h);
    assert!(h.state().as_ref().unwrap().asking());
    assert!(
        h.query_by_label_contains("A game in progress at action 1")
            .is_some()
    );
    h.get_by_label("Cancel").click();
    settle(&mut h);
    assert_eq!(step_of(h.state().as_ref().unwrap()), Some(1));
    // The window's close button asks too, and the window stays open meanwhile.
    h.event(egui::Event::WindowFocused(true));
    h.input_mut()
        .viewports
        .entry(egui::ViewportId::ROOT)
        .or_default()
        .events
        .push(egui::ViewportEvent::Close);
    settle(&mut h);
    assert!(h.state().as_ref().unwrap().asking());
    assert!(h.query_by_label("Leave the game and close").is_some());
    h.get_by_label("Cancel").click();
    settle(&mut h);
    assert!(!h.state().as_ref().unwrap().asking());
    assert_eq!(step_of(h.state().as_ref().unwrap()), Some(1));
    // Leaving for good: back to the dialog with the seats kept.
    h.get_by_label("Leave game").click();
    settle(&mut h);
    h.get_by_label("Leave the game").click();
    until(&mut h, "the dialog", |s| s.play.in_dialog());
}

/// Leaving a table hosted here while another person sits at it names them first.
#[test]
fn leaving_a_hosted_table_with_another_person_seated_asks_first() {
    use farebox_editor::studio::worker::SeatKind;
    use farebox_server::client::Client;
    let mut h = studio("curbside".into());
    until(&mut h, "the new-game dialog", |s| s.play.in_dialog());
    {
        let play = &mut h.state_mut().as_mut().unwrap().play;
        play.set_players(2);
        play.set_seat(0, SeatKind::Person);
        play.set_seat(1, SeatKind::Person);
    }
    settle(&mut h);
    h.get_by_label("Host online").click();
    until(&mut h, "the hosted table", |s| {
        s.play.online().is_some_and(|o| o.seated().is_some())
    });
    let (code, addr) = {
        let o = h.state().as_ref().unwrap().play.online().unwrap();
        (o.seated().unwrap().code.clone(), o.addr.clone())
    };
    let wait = Duration::from_secs(10);
    let other = Client::connect(&addr, wait).unwrap();
    other.join(&code, Some(1), "Tess", None, wait).unwrap();
    until(&mut h, "the other person seated", |s| {
        s.play.hosted_for() == 1 && s.play.in_progress().is_some()
    });
    settle(&mut h);
    h.get_by_label("Leave the table").click();
    settle(&mut h);
    assert!(h.state().as_ref().unwrap().asking());
    assert!(
        h.query_by_label_contains("stops the game for the 1 other person seated")
            .is_some()
    );
    h.get_by_label("Cancel").click();
    settle(&mut h);
    assert!(h.state().as_ref().unwrap().play.online().is_some());
    assert!(
        Client::connect(&addr, wait).is_ok(),
        "the server still runs"
    );
    h.get_by_label("Leave the table").click();
    settle(&mut h);
    h.get_by_label("Leave the game").click();
    until(&mut h, "the dialog again", |s| {
        s.play.online().is_none() && s.play.in_dialog()
    });
}

/// A move chosen while a new version's replay is out is taken once the replay is back (the
/// game on screen is still at that step and still offers it), not lost: under load the
/// replay of a live edit can still be out when the person clicks.
#[test]
fn a_move_chosen_during_a_reload_is_taken_after_it() {
    let mut h = started("curbside", 7);
    h.state_mut().as_mut().unwrap().play.paused = true;
    let (before, def) = {
        let snap = snap(&h);
        (snap.step(), snap.def.clone())
    };
    // An action picked with the arrow keys (the keys, unlike a pointer, do not depend on
    // where the list is laid out while the replay is out)…
    h.key_press(egui::Key::ArrowDown);
    h.step();
    assert!(
        h.state().as_ref().unwrap().play.keyed_action().is_some(),
        "an action picked"
    );
    // …and taken with Enter just after the same content is sent again, as a save of an
    // unchanged file does: the replay is out when the choice is made.
    h.state_mut().as_mut().unwrap().play.rebase(def);
    h.key_press(egui::Key::Enter);
    until(&mut h, "the move taken after the replay", |s| {
        step_of(s) == Some(before + 1)
    });
}
