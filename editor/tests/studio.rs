//! Interaction tests of Farebox Studio, driven through its widgets by their labels with
//! egui_kittest (no GPU, no window). Work the Studio does in the background (loading, the
//! game worker, the file watcher) is waited for by stepping frames until it shows, with a
//! generous bound; nothing here measures time.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::time::Duration;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use farebox_editor::studio::board_edit::Tool;
use farebox_editor::studio::{Studio, Tab};

type H = Harness<'static, Option<Studio>>;

/// A Studio opening `spec`, in a harness.
fn studio(spec: String) -> H {
    Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .build_ui_state(
            move |ui, s: &mut Option<Studio>| {
                let st =
                    s.get_or_insert_with(|| Studio::without_settings(ui.ctx(), Some(spec.clone())));
                st.frame(ui);
            },
            None,
        )
}

/// Steps frames until `done` holds (at most about 30 s of waiting).
fn until(h: &mut H, what: &str, done: impl Fn(&Studio) -> bool) {
    for _ in 0..3000 {
        h.step();
        if h.state().as_ref().is_some_and(&done) {
            h.step();
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("never happened: {what}");
}

/// A copy of a bundled mod in a fresh temporary folder, so tests may change its files.
fn copy_of(id: &str) -> (PathBuf, PathBuf) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../mods")
        .join(id);
    let n = std::sync::atomic::AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "farebox-studio-{}-{}-{}",
        std::process::id(),
        id,
        n.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + rand_tag()
    ));
    let dest = dir.join(id);
    copy_dir(&src, &dest);
    (dir, dest)
}

fn rand_tag() -> u32 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos())
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).unwrap();
        }
    }
}

/// The game as the Studio last drew it.
fn snap(h: &H) -> &farebox_editor::studio::worker::Snapshot {
    h.state().as_ref().unwrap().play.snapshot().unwrap()
}

fn step_of(s: &Studio) -> Option<usize> {
    s.play.snapshot().map(|snap| snap.step)
}

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
        (cell, snap.step, here)
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
    let first = snap(&h).active;
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

#[test]
fn a_saved_edit_reloads_and_a_broken_one_keeps_the_last_good_version() {
    let (dir, folder) = copy_of("curbside");
    let mut h = studio(folder.display().to_string());
    until(&mut h, "the mod loaded and watched", |s| {
        s.project
            .as_ref()
            .is_some_and(|p| p.def.is_some() && p.watching())
    });
    // Loading reads the files; reading is not a change, so nothing reloads by itself.
    for _ in 0..60 {
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    let p = h.state().as_ref().unwrap().project.as_ref().unwrap();
    assert_eq!(p.reloads, 0, "reloaded with no change: {}", p.status);
    let mod_toml = folder.join("mod.toml");
    let text = std::fs::read_to_string(&mod_toml).unwrap();
    // A good edit: the game's name changes, saved by writing a new file and renaming it
    // over the old one, as many editors do.
    let renamed = text.replacen("name = \"Curbside\"", "name = \"Curbside Redux\"", 1);
    assert_ne!(renamed, text);
    let tmp = folder.join(".mod.toml.swp");
    std::fs::write(&tmp, &renamed).unwrap();
    std::fs::rename(&tmp, &mod_toml).unwrap();
    until(&mut h, "the new version live", |s| {
        s.project
            .as_ref()
            .and_then(|p| p.def.as_ref())
            .is_some_and(|d| d.name == "Curbside Redux")
    });
    // A broken edit: the last good version stays, and the diagnostics name the file and line.
    std::fs::write(&mod_toml, renamed.replacen("name =", "name = = ", 1)).unwrap();
    until(&mut h, "the diagnostics", |s| {
        s.project
            .as_ref()
            .is_some_and(|p| !p.diagnostics.is_empty())
    });
    {
        let p = h.state().as_ref().unwrap().project.as_ref().unwrap();
        assert_eq!(p.def.as_ref().unwrap().name, "Curbside Redux");
        let d = &p.diagnostics[0];
        assert!(d.path.ends_with("mod.toml"), "{d}");
        assert!(d.line > 0, "{d}");
        assert!(p.status.contains("last good version"), "{}", p.status);
    }
    h.get_by_label_contains("Diagnostics (").click();
    h.step();
    h.step();
    assert_eq!(h.state().as_ref().unwrap().tab, Tab::Diagnostics);
    assert!(h.query_by_label_contains("mod.toml:").is_some());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_broken_script_or_setup_is_a_problem_and_the_last_good_version_stays() {
    let (dir, folder) = copy_of("critter-cab");
    let mut h = studio(folder.display().to_string());
    until(&mut h, "the mod loaded and watched", |s| {
        s.project
            .as_ref()
            .is_some_and(|p| p.def.is_some() && p.watching())
    });
    let rules = folder.join("rules/critter-cab.luau");
    let good = std::fs::read_to_string(&rules).unwrap();
    // A syntax error on line 10: the Diagnostics tab says so, with the file and line, and the
    // status line names the problem, while the last good version keeps running.
    let mut lines: Vec<&str> = good.lines().collect();
    lines.insert(9, "local broken = = 1");
    std::fs::write(&rules, lines.join("\n")).unwrap();
    until(&mut h, "the script's problem", |s| {
        s.project
            .as_ref()
            .is_some_and(|p| !p.diagnostics.is_empty())
    });
    {
        let p = h.state().as_ref().unwrap().project.as_ref().unwrap();
        let d = &p.diagnostics[0];
        assert!(d.path.ends_with("critter-cab.luau"), "{d}");
        assert_eq!(d.line, 10, "{d}");
        assert!(p.def.is_some(), "the last good version stays");
        assert!(p.status.contains("last good version"), "{}", p.status);
    }
    h.get_by_label_contains("Diagnostics (").click();
    h.step();
    h.step();
    assert!(h.query_by_label_contains("critter-cab.luau:10").is_some());
    assert!(h.query_by_label_contains("No problems").is_none());
    // A script that compiles but fails in setup is a problem too.
    let failing = good.replacen(
        "\tsetup = function(_g)",
        "\tsetup = function(_g)\n\t\terror(\"no table for this game\")",
        1,
    );
    assert_ne!(failing, good, "the rules have a setup hook to break");
    std::fs::write(&rules, &failing).unwrap();
    until(&mut h, "the setup problem", |s| {
        s.project.as_ref().is_some_and(|p| {
            p.diagnostics
                .iter()
                .any(|d| d.message.contains("no table for this game"))
        })
    });
    {
        let p = h.state().as_ref().unwrap().project.as_ref().unwrap();
        let d = &p.diagnostics[0];
        assert!(d.message.contains("in setup"), "{d}");
        assert!(d.line > 0, "{d}");
    }
    // Fixed again: no problems.
    std::fs::write(&rules, &good).unwrap();
    until(&mut h, "the fix", |s| {
        s.project
            .as_ref()
            .is_some_and(|p| p.diagnostics.is_empty() && p.def.is_some())
    });
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_mod_that_does_not_load_still_opens_with_its_diagnostics() {
    let (dir, folder) = copy_of("curbside");
    let mod_toml = folder.join("mod.toml");
    let text = std::fs::read_to_string(&mod_toml).unwrap();
    std::fs::write(&mod_toml, format!("{text}\nplayers = \"many\"\n")).unwrap();
    let mut h = studio(folder.display().to_string());
    until(&mut h, "the diagnostics", |s| {
        s.project
            .as_ref()
            .is_some_and(|p| !p.diagnostics.is_empty())
    });
    assert_eq!(h.state().as_ref().unwrap().tab, Tab::Diagnostics);
    assert!(h.query_by_label_contains("mod.toml:").is_some());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_content_only_game_shows_its_table() {
    // Dicey Curves with its rule scripts and bots taken out: content, nothing to play it.
    let (_dir, game) = copy_of("dicey-curves");
    let manifest = std::fs::read_to_string(game.join("mod.toml")).unwrap();
    let mut kept = Vec::new();
    let mut in_bots = false;
    for line in manifest.lines() {
        in_bots = (in_bots || line == "[[bots]]") && !line.is_empty();
        if !in_bots && !line.starts_with("scripts = ") {
            kept.push(line);
        }
    }
    std::fs::write(game.join("mod.toml"), kept.join("\n") + "\n").unwrap();
    let _ = std::fs::remove_dir_all(game.join("rules"));
    let _ = std::fs::remove_dir_all(game.join("bots"));
    let mut h = studio(game.display().to_string());
    until(&mut h, "the table", |s| s.play.content_only());
    assert!(h.query_by_label_contains("Content only").is_some());
}

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

#[test]
fn a_reload_during_a_game_replays_it_on_the_new_rules() {
    let (dir, folder) = copy_of("curbside");
    let mut h = studio(folder.display().to_string());
    until(&mut h, "the new-game dialog", |s| {
        s.play.in_dialog() && s.project.as_ref().is_some_and(|p| p.watching())
    });
    h.state_mut().as_mut().unwrap().play.set_seed(11);
    h.get_by_label("Start the game").click();
    until(&mut h, "the person's actions", |s| {
        s.play
            .snapshot()
            .is_some_and(|snap| !snap.offered.is_empty())
    });
    let first = snap(&h).offered[0].label.clone();
    h.get_by_label(&first).click();
    until(&mut h, "one action played", |s| step_of(s) == Some(1));
    // A change that leaves the game as it was: it goes on under the new version by itself.
    let mod_toml = folder.join("mod.toml");
    let text = std::fs::read_to_string(&mod_toml).unwrap();
    std::fs::write(
        &mod_toml,
        text.replacen("name = \"Curbside\"", "name = \"Curbside Redux\"", 1),
    )
    .unwrap();
    until(&mut h, "the game on the new version", |s| {
        s.play
            .snapshot()
            .is_some_and(|snap| snap.def.name == "Curbside Redux")
    });
    assert!(
        h.query_by_label_contains("still follows the new rules")
            .is_some()
    );
    assert_eq!(step_of(h.state().as_ref().unwrap()), Some(1));
    // A change of the dice: the set-up rolls differ, and the Studio asks what to do.
    let text = std::fs::read_to_string(&mod_toml).unwrap();
    let five = text.replacen("die_sides = 6", "die_sides = 5", 1);
    assert_ne!(five, text);
    std::fs::write(&mod_toml, five).unwrap();
    until(&mut h, "the choice after the reload", |s| {
        s.project.as_ref().is_some_and(|p| p.reloads >= 2)
    });
    for _ in 0..3000 {
        h.step();
        if h.query_by_label("Keep the old game").is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    h.get_by_label("Keep the old game").click();
    h.step();
    h.step();
    assert!(h.query_by_label("Keep the old game").is_none());
    assert_eq!(step_of(h.state().as_ref().unwrap()), Some(1));
    let _ = std::fs::remove_dir_all(dir);
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
        if snap.result.is_some() {
            break;
        }
        if snap.offered.is_empty() {
            std::thread::sleep(Duration::from_millis(1));
            continue;
        }
        // Some of every kind of decision, then mostly ending the turn, so the game ends.
        let labels: Vec<String> = snap.offered.iter().map(|o| o.label.clone()).collect();
        let step = snap.step;
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
            s.play.snapshot().is_some_and(|snap| snap.step > step)
        });
    }
    let result = snap(&h).result.clone().expect("the game ended");
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

/// The spreadsheet of a deck: a card's field changed in its cell, undone and made again,
/// saved into the TOML with its comments, and a bad value shown at its row while the last
/// good version keeps playing.
#[test]
fn a_card_field_is_edited_in_the_spreadsheet_saved_and_a_bad_one_is_shown_at_its_row() {
    let (dir, folder) = copy_of("curbside");
    let mut h = studio(folder.display().to_string());
    until(&mut h, "the mod loaded", |s| {
        s.project
            .as_ref()
            .is_some_and(|p| p.def.is_some() && p.watching())
    });
    h.get_by_label("Decks & tables").click();
    h.step();
    h.step();
    h.get_by_label_contains("passengers (").click();
    h.step();
    h.step();
    let file = folder.join("decks/passengers.toml");
    let before = std::fs::read_to_string(&file).unwrap();
    // The first passenger's name, typed over in its cell.
    h.query_all_by_value("Night-shift nurse")
        .next()
        .expect("the name cell")
        .click();
    h.step();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.step();
    h.query_all_by_value("Night-shift nurse")
        .next()
        .expect("the name cell")
        .type_text("Night-shift nurse on call");
    h.step();
    h.step();
    until(&mut h, "the edit checked and live", |s| {
        s.project
            .as_ref()
            .and_then(|p| p.def.as_ref())
            .is_some_and(|d| {
                d.decks
                    .iter()
                    .flat_map(|x| &x.cards)
                    .any(|c| c.name == "Night-shift nurse on call")
            })
    });
    assert!(h.state().as_ref().unwrap().unsaved());
    // Saved: the change is in the file, and so is every comment that was there.
    h.state_mut()
        .as_mut()
        .unwrap()
        .apply(farebox_editor::studio::Command::Save);
    let after = std::fs::read_to_string(&file).unwrap();
    assert!(
        after.contains("name = \"Night-shift nurse on call\""),
        "{after}"
    );
    for comment in before.lines().filter(|l| l.trim_start().starts_with('#')) {
        assert!(after.contains(comment), "lost the comment {comment:?}");
    }
    assert!(!h.state().as_ref().unwrap().unsaved());
    // A count that makes no sense: the row says what is wrong, the game keeps its version.
    h.state_mut()
        .as_mut()
        .unwrap()
        .apply(farebox_editor::studio::Command::Edit(
            farebox_editor::studio::edit::Edit::SetCardField {
                deck: "passengers".into(),
                card: "p02".into(),
                field: "tags".into(),
                value: Some(farebox::content::raw::RawValue::Integer(7)),
            },
        ));
    until(&mut h, "the problem found", |s| {
        s.project
            .as_ref()
            .is_some_and(|p| !p.diagnostics.is_empty())
    });
    h.step();
    h.step();
    assert!(
        h.query_by_label_contains("line ").is_some(),
        "no problem shown at the row"
    );
    let live = h.state().as_ref().unwrap().project.as_ref().unwrap();
    assert!(live.def.is_some());
    assert!(live.status.contains("last good version"), "{}", live.status);
    // Undo takes the bad edit back, and the content is valid again.
    h.state_mut()
        .as_mut()
        .unwrap()
        .apply(farebox_editor::studio::Command::Undo);
    until(&mut h, "valid again", |s| {
        s.project.as_ref().is_some_and(|p| p.diagnostics.is_empty())
    });
    let _ = std::fs::remove_dir_all(dir);
}

/// The live version's definition (the last that loaded or checked valid).
fn live(s: &Studio) -> Option<&farebox::GameDef> {
    s.project.as_ref()?.def.as_deref()
}

/// The live version's map, for a graph board.
fn live_graph(s: &Studio) -> Option<&farebox::content::def::GraphDef> {
    match &live(s)?.board {
        farebox::content::def::BoardDef::Graph(g) => Some(g),
        _ => None,
    }
}

/// Waits for the open mod to load.
fn loaded(h: &mut H) {
    until(h, "the mod loaded", |s| live(s).is_some());
}

/// Shows a tab by clicking its name.
fn show_tab(h: &mut H, tab: &str) {
    h.get_by_label(tab).click();
    h.step();
    h.step();
}

/// Presses the primary button at `from`, moves to `to` and lets go there.
fn drag(h: &mut H, from: egui::Pos2, to: egui::Pos2) {
    h.hover_at(from);
    h.step();
    h.drag_at(from);
    h.step();
    h.hover_at(to);
    h.step();
    h.drop_at(to);
    h.step();
}

/// The preset tile on cell `x`, `y` of the live version's grid, by tile id.
fn live_cell_tile(s: &Studio, x: u32, y: u32) -> Option<String> {
    let def = live(s)?;
    let farebox::content::def::BoardDef::Grid(g) = &def.board else {
        return None;
    };
    let cell = g.cells.iter().find(|c| c.x == x && c.y == y)?;
    let (t, _) = cell.tile?;
    def.tiles.get(t).map(|t| t.id.clone())
}

#[test]
fn a_tile_stroke_is_painted_on_the_grid_and_undone_as_one_step() {
    let (dir, folder) = copy_of("curbside");
    let mut h = studio(folder.display().to_string());
    loaded(&mut h);
    show_tab(&mut h, "Board");
    // Picking a tile in the palette takes up the Paint tool.
    h.get_by_label("T-junction").click();
    h.step();
    h.step();
    assert_eq!(h.state().as_ref().unwrap().board.tool, Tool::Paint);
    // One stroke over two cells.
    let a = h.get_by_label("3,3").rect().center();
    let b = h.get_by_label("4,3").rect().center();
    drag(&mut h, a, b);
    until(&mut h, "both cells painted and live", |s| {
        live_cell_tile(s, 3, 3).as_deref() == Some("cs-t3")
            && live_cell_tile(s, 4, 3).as_deref() == Some("cs-t3")
    });
    // R turns the tile of the selected cell with the Select tool.
    h.get_by_label("Select").click();
    h.step();
    h.get_by_label("4,3").click();
    h.step();
    h.key_press(egui::Key::R);
    h.step();
    until(&mut h, "the tile turned", |s| {
        live(s).is_some_and(|d| match &d.board {
            farebox::content::def::BoardDef::Grid(g) => g
                .cells
                .iter()
                .any(|c| c.x == 4 && c.y == 3 && c.tile.is_some_and(|t| t.1 == 1)),
            _ => false,
        })
    });
    // Undo the turn, then the stroke: one step takes both cells back.
    for _ in 0..2 {
        h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
        h.step();
    }
    until(&mut h, "the stroke undone", |s| {
        live_cell_tile(s, 3, 3).is_none() && live_cell_tile(s, 4, 3).is_none()
    });
    assert!(!h.state().as_ref().unwrap().unsaved());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_space_is_added_to_the_map_and_joined_to_another_by_dragging() {
    let (dir, folder) = copy_of("critter-cab");
    let mut h = studio(folder.display().to_string());
    loaded(&mut h);
    show_tab(&mut h, "Board");
    h.get_by_label("Add space").click();
    h.step();
    // Hootwood Lookout is at (120, 110) on the map and Badger Heights at (1060, 110): the
    // new space goes 80 map units left of Hootwood, where the map is empty.
    let hoot = h.get_by_label("Hootwood Lookout").rect().center();
    let badger = h.get_by_label("Badger Heights").rect().center();
    let per_unit = (badger.x - hoot.x) / 940.0;
    let spot = hoot - egui::vec2(80.0 * per_unit, 0.0);
    drag(&mut h, spot, spot);
    until(&mut h, "the space added", |s| {
        live_graph(s).is_some_and(|g| {
            g.spaces
                .iter()
                .any(|sp| sp.id == "space-1" && (sp.x - 40.0).abs() < 2.0)
        })
    });
    // Connect: a drag from the new space to Hootwood Lookout.
    h.get_by_label("Connect").click();
    h.step();
    let from = h.get_by_label("space-1").rect().center();
    let to = h.get_by_label("Hootwood Lookout").rect().center();
    drag(&mut h, from, to);
    until(&mut h, "the road added", |s| {
        live_graph(s).is_some_and(|g| {
            let at = |id: &str| g.spaces.iter().position(|sp| sp.id == id);
            let (a, b) = (at("space-1"), at("hootwood-lookout"));
            g.edges.iter().any(|e| {
                (Some(e.from), Some(e.to)) == (a, b) || (Some(e.from), Some(e.to)) == (b, a)
            })
        })
    });
    // The road is selected: the inspector names it and makes it one way.
    assert!(h.query_by_label_contains("Road space-1").is_some());
    h.get_by_label_contains("One way").click();
    h.step();
    until(&mut h, "the road one way", |s| {
        live_graph(s).is_some_and(|g| {
            g.edges
                .iter()
                .any(|e| e.directed && g.spaces.get(e.from).is_some_and(|sp| sp.id == "space-1"))
        })
    });
    // Saved: the map file has the space and the road, and its comments.
    let file = folder.join("board.toml");
    let before = std::fs::read_to_string(&file).unwrap();
    h.state_mut()
        .as_mut()
        .unwrap()
        .apply(farebox_editor::studio::Command::Save);
    let after = std::fs::read_to_string(&file).unwrap();
    assert!(after.contains("id = \"space-1\""), "{after}");
    for comment in before.lines().filter(|l| l.trim_start().starts_with('#')) {
        assert!(after.contains(comment), "lost the comment {comment:?}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn editing_a_base_card_with_a_house_rule_open_writes_the_house_rules_patch() {
    let (dir, base) = copy_of("curbside");
    let house = dir.join("curbside-gas-station");
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../mods/curbside-gas-station"),
        &house,
    );
    let base_deck = std::fs::read_to_string(base.join("decks/passengers.toml")).unwrap();
    let mut h = studio(house.display().to_string());
    until(&mut h, "the house rule loaded", |s| {
        s.project.as_ref().is_some_and(|p| p.def.is_some())
    });
    show_tab(&mut h, "Decks & tables");
    h.get_by_label_contains("passengers (").click();
    h.step();
    h.step();
    // The base game's card says where it comes from.
    h.query_all_by_value("Night-shift nurse")
        .next()
        .expect("the name cell")
        .click();
    h.step();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.step();
    h.query_all_by_value("Night-shift nurse")
        .next()
        .expect("the name cell")
        .type_text("Night-shift nurse, tired");
    h.step();
    h.step();
    until(&mut h, "the edit live", |s| {
        s.project
            .as_ref()
            .and_then(|p| p.def.as_ref())
            .is_some_and(|d| {
                d.decks
                    .iter()
                    .flat_map(|x| &x.cards)
                    .any(|c| c.name == "Night-shift nurse, tired")
            })
    });
    h.state_mut()
        .as_mut()
        .unwrap()
        .apply(farebox_editor::studio::Command::Save);
    let patch = std::fs::read_to_string(house.join("patches/station.toml")).unwrap();
    assert!(patch.contains("Night-shift nurse, tired"), "{patch}");
    assert_eq!(
        std::fs::read_to_string(base.join("decks/passengers.toml")).unwrap(),
        base_deck,
        "the base game's file was written"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_new_house_rule_is_made_from_the_start_screen_and_opened() {
    let dir = std::env::temp_dir().join(format!(
        "farebox-studio-new-{}-{}",
        std::process::id(),
        rand_tag()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let mut h: H = Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .build_ui_state(
            |ui, s: &mut Option<Studio>| {
                s.get_or_insert_with(|| Studio::without_settings(ui.ctx(), None))
                    .frame(ui);
            },
            None,
        );
    for _ in 0..200 {
        h.step();
        if h.query_by_label("A house rule for").is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    h.get_by_label("A house rule for").click();
    h.step();
    h.step();
    // The id, then the folder it goes in.
    let field = |h: &H, label: &str| {
        h.query_all_by_label(label)
            .find(|n| {
                egui_kittest::kittest::NodeT::accesskit_node(n).role()
                    == egui::accesskit::Role::TextInput
            })
            .expect("the field")
            .rect()
            .center()
    };
    for (label, text) in [
        ("New mod's id", "late-fares".to_string()),
        ("In folder", dir.display().to_string()),
    ] {
        let at = field(&h, label);
        h.hover_at(at);
        h.drag_at(at);
        h.drop_at(at);
        h.step();
        h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
        h.step();
        h.event(egui::Event::Text(text));
        h.step();
    }
    h.get_by_label("Create and open").click();
    until(&mut h, "the new house rule open and loaded", |s| {
        s.project
            .as_ref()
            .and_then(|p| p.def.as_ref())
            .is_some_and(|d| d.id == "late-fares")
    });
    let manifest = std::fs::read_to_string(dir.join("late-fares/mod.toml")).unwrap();
    assert!(manifest.contains("late-fares"), "{manifest}");
    // It builds on a game: the game is one of its layers.
    let def = h
        .state()
        .as_ref()
        .unwrap()
        .project
        .as_ref()
        .unwrap()
        .def
        .clone()
        .unwrap();
    assert!(def.layers.len() >= 2, "{:?}", def.layers);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_bad_cell_is_marked_at_its_cell_while_the_last_good_board_stays() {
    let (dir, folder) = copy_of("curbside");
    let mut h = studio(folder.display().to_string());
    loaded(&mut h);
    show_tab(&mut h, "Board");
    // A tile id that names no tile, on cell 2,5.
    h.state_mut()
        .as_mut()
        .unwrap()
        .apply(farebox_editor::studio::Command::Edit(
            farebox_editor::studio::edit::Edit::SetCellTile {
                x: 2,
                y: 5,
                tile: Some("cs-t99".into()),
                rotation: 0,
            },
        ));
    until(&mut h, "the problem found", |s| {
        s.project
            .as_ref()
            .is_some_and(|p| !p.diagnostics.is_empty())
    });
    h.step();
    // The board says it has a problem; the cell's inspector names it.
    assert!(
        h.query_by_label_contains("The edited board has 1 problem")
            .is_some()
    );
    let listed = h.query_all_by_label_contains("cs-t99").count();
    assert!(listed >= 1, "the problem is listed over the board");
    h.get_by_label("2,5").click();
    h.step();
    h.step();
    assert!(
        h.query_all_by_label_contains("cs-t99").count() > listed,
        "the cell's inspector does not name its problem"
    );
    // The last good version still plays: its cell 2,5 has no tile.
    assert!(live_cell_tile(h.state().as_ref().unwrap(), 2, 5).is_none());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_house_rules_hooks_and_constants_say_which_mod_gives_them() {
    let mut h = studio("curbside-gas-station".into());
    until(&mut h, "the house rule loaded", |s| {
        s.project.as_ref().is_some_and(|p| p.def.is_some())
    });
    show_tab(&mut h, "Decks & tables");
    h.get_by_label("Rule hooks").click();
    until(&mut h, "the hooks read", |_| true);
    for _ in 0..500 {
        h.step();
        if h.query_by_label("Changed last by").is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    // Some hook is the game's, wrapped by the house rule's script.
    assert!(
        h.query_all_by_label_contains("curbside-gas-station (rules/")
            .next()
            .is_some(),
        "no hook changed by the house rule"
    );
    assert!(h.query_all_by_label("curbside").next().is_some());
    // Constants list their mod too.
    h.get_by_label_contains("Constants (").click();
    h.step();
    h.step();
    assert!(
        h.query_all_by_label_contains("from curbside (mod.toml)")
            .next()
            .is_some()
    );
}

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

/// Steps frames (sleeping a little between them) until `done` holds, for games played by
/// bots, which take many more frames than `until` allows.
fn until_long(h: &mut H, what: &str, done: impl Fn(&Studio) -> bool) {
    for _ in 0..200_000 {
        h.step();
        if h.state().as_ref().is_some_and(&done) {
            h.step();
            return;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    panic!("never happened: {what}");
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
        s.play.snapshot().is_some_and(|snap| snap.result.is_some())
    });
    let (scores, newest) = {
        let snap = snap(&h);
        let r = snap.result.clone().unwrap();
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
        (o.path[1..].join(" "), snap.step)
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
            snap.step > step && snap.offered.iter().any(|o| o.path[0] == "Drive")
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
        (o.path[1..].join(" "), snap.step)
    };
    let at = h.get_by_label(&label).rect().center();
    h.get_by_label(&label).click();
    until(&mut h, "the next list", |s| {
        s.play
            .snapshot()
            .is_some_and(|snap| snap.step > step && !snap.offered.is_empty())
    });
    let step = snap(&h).step;
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
        snap(&h).step,
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
        s.play.snapshot().is_some_and(|snap| snap.step > step)
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
fn every_copy_of_a_card_an_action_names_is_a_place_to_play_it() {
    use farebox_editor::studio::play::spots_of;
    use farebox_editor::studio::worker::{SeatKind, Snapshot};
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
    let snap = Snapshot {
        def: def.clone(),
        setup,
        seats: vec![SeatKind::Person, SeatKind::Bot("random".into())],
        viewer: Some(0),
        board: state.board.clone(),
        view,
        active: 0,
        result: None,
        offered: vec![],
        step: 0,
        history: vec![],
        undo_to: vec![None, None],
        undo_what: vec![None, None],
        moves: vec![],
        log: vec![],
        secret: false,
    };
    let spots = spots_of(&format!("drive {id} acorn-square"), &snap);
    for index in 0..3 {
        assert!(
            spots.contains(&farebox_editor::studio::board_view::Spot::Card { zone: zi, index }),
            "copy {index} is not playable: {spots:?}"
        );
    }
}

/// Steps a few frames: a modal is laid out on the frame after it is asked for, and drawn on
/// the next.
fn settle(h: &mut H) {
    for _ in 0..4 {
        h.step();
    }
}

/// An unsaved edit of a passenger's name, made as the spreadsheet makes it.
fn edit_a_passenger(h: &mut H) {
    h.state_mut()
        .as_mut()
        .unwrap()
        .apply(farebox_editor::studio::Command::Edit(
            farebox_editor::studio::edit::Edit::SetCardField {
                deck: "passengers".into(),
                card: "p02".into(),
                field: "name".into(),
                value: Some(farebox::content::raw::RawValue::String("Renamed".into())),
            },
        ));
    h.step();
    assert!(h.state().as_ref().unwrap().unsaved());
}

/// The last edit's label, if any.
fn last_edit(s: &Studio) -> Option<String> {
    let c = s.project.as_ref()?.content.as_ref()?;
    c.editor.history().undo_label().map(str::to_string)
}

#[test]
fn all_games_with_unsaved_edits_asks_and_cancel_keeps_them_and_discard_drops_them() {
    let (dir, folder) = copy_of("curbside");
    let mut h = studio(folder.display().to_string());
    loaded(&mut h);
    show_tab(&mut h, "Decks & tables");
    edit_a_passenger(&mut h);
    h.get_by_label("All games").click();
    settle(&mut h);
    assert!(
        h.query_by_label_contains("nsaved edits in decks/passengers.toml")
            .is_some(),
        "the question does not name what would be lost"
    );
    assert!(h.state().as_ref().unwrap().project.is_some());
    h.get_by_label("Cancel").click();
    settle(&mut h);
    let s = h.state().as_ref().unwrap();
    assert!(s.project.is_some() && s.unsaved() && !s.asking());
    h.get_by_label("All games").click();
    settle(&mut h);
    h.get_by_label("Discard and go on").click();
    settle(&mut h);
    let s = h.state().as_ref().unwrap();
    assert!(s.project.is_none() && !s.asking());
    let text = std::fs::read_to_string(folder.join("decks/passengers.toml")).unwrap();
    assert!(!text.contains("Renamed"));
    let _ = std::fs::remove_dir_all(dir);
}

/// Starts a game of Curbside with seed 7 (bots paused) and takes the person's first action;
/// returns the step before it.
fn play_one_move(h: &mut H) -> usize {
    until(h, "the new-game dialog", |s| s.play.in_dialog());
    h.state_mut().as_mut().unwrap().play.set_seed(7);
    h.get_by_label("Start the game").click();
    until(h, "the person's actions", |s| {
        s.play
            .snapshot()
            .is_some_and(|snap| !snap.offered.is_empty())
    });
    h.state_mut().as_mut().unwrap().play.paused = true;
    let (label, before) = {
        let snap = snap(h);
        (snap.offered[0].label.clone(), snap.step)
    };
    h.get_by_label(&label).click();
    until(h, "the move taken and undoable", |s| {
        step_of(s) == Some(before + 1) && s.play.undo_label().is_ok()
    });
    before
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
fn ctrl_z_undoes_the_move_in_play_and_the_edit_in_decks_and_tables() {
    let (dir, folder) = copy_of("curbside");
    let mut h = studio(folder.display().to_string());
    loaded(&mut h);
    show_tab(&mut h, "Decks & tables");
    edit_a_passenger(&mut h);
    let edit = last_edit(h.state().as_ref().unwrap()).expect("the edit in the history");
    show_tab(&mut h, "Play");
    let before = play_one_move(&mut h);
    // The Edit menu names the move Undo takes back here.
    h.get_by_label("Edit •").click();
    settle(&mut h);
    assert!(h.query_by_label_contains("Undo move: ").is_some());
    h.key_press(egui::Key::Escape);
    h.step();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    until(&mut h, "the move undone", |s| step_of(s) == Some(before));
    let s = h.state().as_ref().unwrap();
    assert_eq!(last_edit(s), Some(edit));
    assert!(s.unsaved());
    // In Decks & tables the same keys undo the edit, and leave the game alone.
    show_tab(&mut h, "Decks & tables");
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    until(&mut h, "the edit undone", |s| last_edit(s).is_none());
    assert_eq!(step_of(h.state().as_ref().unwrap()), Some(before));
    let _ = std::fs::remove_dir_all(dir);
}

/// Types `code` into the console and runs it; returns its answer.
fn ask_console(h: &mut H, code: &str) -> Result<String, String> {
    let before = h.state().as_ref().unwrap().console.entries.len();
    h.state_mut().as_mut().unwrap().console.input = code.to_string();
    h.step();
    h.get_by_label("Run").click();
    until(h, "the console's answer", |s| {
        s.console.entries.len() > before
    });
    let s = h.state().as_ref().unwrap();
    s.console.entries.last().unwrap().answer.clone()
}

#[test]
fn the_console_reads_the_game_in_play_and_the_printed_panel_shows_what_scripts_print() {
    let (dir, folder) = copy_of("curbside");
    let rules = folder.join("rules/curbside.luau");
    let text = std::fs::read_to_string(&rules).unwrap();
    let loud = text.replacen(
        "\tsetup = function(_g)\n",
        "\tsetup = function(_g)\n\t\tprint(\"console check: setting up\", game.seats(), { seats = game.seats() })\n",
        1,
    );
    assert_ne!(loud, text);
    let print_line = loud
        .lines()
        .position(|l| l.contains("console check"))
        .unwrap()
        + 1;
    std::fs::write(&rules, loud).unwrap();
    let mut h = studio(folder.display().to_string());
    loaded(&mut h);
    play_one_move(&mut h);
    show_tab(&mut h, "Console");
    // An expression reads the game as it is after the move, with the rules' rights.
    let step = step_of(h.state().as_ref().unwrap()).unwrap();
    let answer = ask_console(&mut h, "game.seats() * 10").unwrap();
    assert_eq!(answer, "20");
    let gas = ask_console(&mut h, "game.counter(\"gas\", 1)").unwrap();
    assert!(gas.parse::<i64>().is_ok(), "{gas}");
    // Changing the game is refused, and the game in play is untouched.
    let refused = ask_console(&mut h, "game.add_counter(\"gas\", 1, 5)").unwrap_err();
    assert!(refused.contains("cannot be used here"), "{refused}");
    assert_eq!(
        ask_console(&mut h, "game.counter(\"gas\", 1)").unwrap(),
        gas
    );
    assert_eq!(step_of(h.state().as_ref().unwrap()), Some(step));
    // The entry says which game it read.
    assert_eq!(
        h.query_all_by_label_contains(&format!(
            "Play, after action {step} of the game with seed 7"
        ))
        .count(),
        4
    );
    // What setup printed is in the Printed panel, with its seed, file and line (the game's
    // setup, and the Studio's own checks of the scripts, print it).
    settle(&mut h);
    assert!(
        h.query_all_by_label_contains("console check: setting up\t2\t{seats = 2}")
            .count()
            >= 1,
        "the print is not in the Printed panel"
    );
    let heard: Vec<String> = farebox_editor::studio::console::printed()
        .lock()
        .unwrap()
        .lines
        .iter()
        .filter(|l| l.seed == Some(7) && l.text.starts_with("console check"))
        .map(|l| l.heading())
        .collect();
    // Once: the console's own rebuild of the game is quiet.
    assert_eq!(heard.len(), 1, "{heard:?}");
    let heading = heard[0].clone();
    assert!(
        heading.starts_with("seed 7, setup, ")
            && heading.contains(&format!("curbside.luau:{print_line}")),
        "{heading}"
    );
    assert!(h.query_all_by_label_contains(&heading).count() >= 1);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_status_line_names_the_file_that_changed_and_what_it_did() {
    let (dir, folder) = copy_of("critter-cab");
    let mut h = studio(folder.display().to_string());
    until(&mut h, "the mod loaded and watched", |s| {
        s.project
            .as_ref()
            .is_some_and(|p| p.def.is_some() && p.watching())
    });
    let rules = folder.join("rules/critter-cab.luau");
    let good = std::fs::read_to_string(&rules).unwrap();
    std::fs::write(&rules, good.replacen("return {", "return = {", 1)).unwrap();
    until(&mut h, "the script's problem", |s| {
        s.project
            .as_ref()
            .is_some_and(|p| !p.diagnostics.is_empty())
    });
    let status = h
        .state()
        .as_ref()
        .unwrap()
        .project
        .as_ref()
        .unwrap()
        .status
        .clone();
    assert!(
        status.starts_with("rules/critter-cab.luau changed: 1 problem"),
        "{status}"
    );
    assert!(
        h.query_by_label_contains("rules/critter-cab.luau changed: 1 problem")
            .is_some()
    );
    std::fs::write(&rules, &good).unwrap();
    until(&mut h, "the fix", |s| {
        s.project.as_ref().is_some_and(|p| p.diagnostics.is_empty())
    });
    let status = h
        .state()
        .as_ref()
        .unwrap()
        .project
        .as_ref()
        .unwrap()
        .status
        .clone();
    assert!(
        status.starts_with("rules/critter-cab.luau changed: reloaded, no problems"),
        "{status}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_game_that_cannot_start_says_why_and_goes_back_to_the_new_game_dialog() {
    // Setup fails only with three players: the mod loads (its check sets up the fewest).
    let (dir, folder) = copy_of("critter-cab");
    let rules = folder.join("rules/critter-cab.luau");
    let good = std::fs::read_to_string(&rules).unwrap();
    let failing = good.replacen(
        "\tsetup = function(_g)",
        "\tsetup = function(_g)\n\t\tif game.seats() == 3 then error(\"three cabs do not fit\") end",
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
    // The dialog kept the choices: two players start.
    h.state_mut().as_mut().unwrap().play.set_players(2);
    h.step();
    h.get_by_label("Start the game").click();
    until(&mut h, "the game", |s| s.play.snapshot().is_some());
    let _ = std::fs::remove_dir_all(dir);
}

/// Opens the Decks & tables tab on one deck.
fn open_deck(h: &mut H, deck: &str) {
    h.get_by_label("Decks & tables").click();
    settle(h);
    h.get_by_label_contains(&format!("{deck} (")).click();
    settle(h);
}

#[test]
fn the_spreadsheet_holds_still_adds_a_card_in_view_and_commits_numbers_on_enter() {
    let (dir, folder) = copy_of("critter-cab");
    let mut h = studio(folder.display().to_string());
    loaded(&mut h);
    open_deck(&mut h, "passengers");
    let first_row = |h: &H| {
        h.query_all_by_value("Squirrel Courier")
            .next()
            .expect("the first card's name")
            .rect()
    };
    let header = |h: &H| h.get_by_label("fare").rect();
    let (row0, head0) = (first_row(&h), header(&h));
    // Each column's header stands over its cells.
    let name_head = h.get_by_label("name").rect();
    assert!(
        (name_head.min.x - row0.min.x).abs() < 12.0,
        "the header `name` is at {name_head:?}, its cells at {row0:?}"
    );
    // A problem appears: the grid does not move.
    h.state_mut()
        .as_mut()
        .unwrap()
        .apply(farebox_editor::studio::Command::Edit(
            farebox_editor::studio::edit::Edit::SetCardField {
                deck: "passengers".into(),
                card: "otter-swim-team".into(),
                field: "fare".into(),
                value: Some(farebox::content::raw::RawValue::String("lots".into())),
            },
        ));
    until(&mut h, "the problem found", |s| {
        s.project
            .as_ref()
            .is_some_and(|p| !p.diagnostics.is_empty())
    });
    settle(&mut h);
    assert!(h.query_by_label_contains("(row 2)").is_some());
    assert_eq!(first_row(&h), row0, "a problem moved the rows");
    h.state_mut()
        .as_mut()
        .unwrap()
        .apply(farebox_editor::studio::Command::Undo);
    until(&mut h, "valid again", |s| {
        s.project.as_ref().is_some_and(|p| p.diagnostics.is_empty())
    });
    settle(&mut h);
    // Saved: the message comes in its strip, and the grid does not move.
    h.state_mut()
        .as_mut()
        .unwrap()
        .apply(farebox_editor::studio::Command::Save);
    settle(&mut h);
    assert!(
        h.query_by_label_contains("Nothing to save").is_some()
            || h.query_by_label_contains("Saved").is_some()
    );
    assert_eq!(first_row(&h), row0, "a message moved the rows");
    // The rows scroll under the header, which stays.
    for _ in 0..10 {
        h.get_by_label("fare").scroll_down();
        h.step();
    }
    settle(&mut h);
    assert!(
        h.query_all_by_value("Squirrel Courier")
            .next()
            .is_none_or(|n| n.rect().min.y < head0.max.y),
        "the rows did not scroll"
    );
    assert_eq!(header(&h), head0, "the header scrolled away");
    // Add a card: the new row is scrolled into view, its required fields empty (not 0).
    h.get_by_label("Add a card").click();
    settle(&mut h);
    let id_cell = h
        .query_all_by_value("passengers-new-1")
        .next()
        .expect("the new card's id")
        .rect();
    assert!(
        id_cell.min.y > head0.max.y && id_cell.max.y < 900.0,
        "the new row is not in view: {id_cell:?}"
    );
    let same_row: Vec<String> = h
        .query_all_by_role(egui::accesskit::Role::TextInput)
        .filter(|n| (n.rect().center().y - id_cell.center().y).abs() < 4.0)
        .filter_map(|n| n.value())
        .collect();
    assert!(!same_row.iter().any(|v| v == "0"), "{same_row:?}");
    until(&mut h, "the missing fields reported", |s| {
        s.project.as_ref().is_some_and(|p| {
            p.diagnostics
                .iter()
                .any(|d| d.message.contains("passengers"))
        })
    });
    // A number typed into a cell is written on Enter.
    let fare_cells: Vec<egui::Rect> = h
        .query_all_by_role(egui::accesskit::Role::TextInput)
        .filter(|n| (n.rect().center().y - id_cell.center().y).abs() < 4.0)
        .filter(|n| n.value().as_deref() == Some(""))
        .map(|n| n.rect())
        .collect();
    let fare_x = header(&h).center().x;
    let fare = fare_cells
        .iter()
        .find(|r| r.min.x <= fare_x && fare_x <= r.max.x)
        .copied()
        .expect("the new card's fare cell");
    h.hover_at(fare.center());
    h.event(egui::Event::PointerButton {
        pos: fare.center(),
        button: egui::PointerButton::Primary,
        pressed: true,
        modifiers: egui::Modifiers::NONE,
    });
    h.event(egui::Event::PointerButton {
        pos: fare.center(),
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: egui::Modifiers::NONE,
    });
    h.step();
    h.event(egui::Event::Text("3".into()));
    h.step();
    h.key_press(egui::Key::Enter);
    settle(&mut h);
    let fare_of_new = |s: &Studio| {
        let c = s.project.as_ref()?.content.as_ref()?;
        let d = c.catalog.deck("passengers")?;
        let (_, e) = d.cards.iter().find(|(i, _)| i == "passengers-new-1")?;
        e.value.get("fare").and_then(|v| v.as_integer())
    };
    assert_eq!(fare_of_new(h.state().as_ref().unwrap()), Some(3));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn each_deck_keeps_its_own_filter_and_an_empty_result_says_no_matches() {
    let (dir, folder) = copy_of("critter-cab");
    let mut h = studio(folder.display().to_string());
    loaded(&mut h);
    open_deck(&mut h, "passengers");
    h.get_by_label("Filter").click();
    h.step();
    h.get_by_label("Filter").type_text("zebra");
    settle(&mut h);
    assert!(
        h.query_by_label_contains("No matches for “zebra”")
            .is_some()
    );
    assert!(h.query_all_by_value("Squirrel Courier").next().is_none());
    // Another deck has its own filter, empty.
    h.get_by_label_contains("taxis (").click();
    settle(&mut h);
    assert_eq!(h.get_by_label("Filter").value().as_deref(), Some(""));
    assert!(h.query_by_label_contains("No matches").is_none());
    // Back: the passengers' filter is still there.
    h.get_by_label_contains("passengers (").click();
    settle(&mut h);
    assert_eq!(h.get_by_label("Filter").value().as_deref(), Some("zebra"));
    let _ = std::fs::remove_dir_all(dir);
}

/// A game of `id` started with a person in the first seat and the mod's bot in the others,
/// shown once the person has actions.
fn started(id: &str, seed: u64) -> H {
    let mut h = studio(id.into());
    until(&mut h, "the new-game dialog", |s| s.play.in_dialog());
    h.state_mut().as_mut().unwrap().play.set_seed(seed);
    h.get_by_label("Start the game").click();
    until(&mut h, "the person's actions", |s| {
        s.play
            .snapshot()
            .is_some_and(|snap| !snap.offered.is_empty())
    });
    settle(&mut h);
    h
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
    let before = snap(&h).step;
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
            s.play.snapshot().is_some_and(|snap| snap.result.is_some())
        });
        settle(&mut h);
        assert!(h.query_by_label(heading).is_some(), "no `{heading}`");
        assert!(h.query_by_label("1st").is_none());
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// A seeded game of `id` recorded to a file in a fresh folder.
fn recorded(id: &str, seed: u64) -> (PathBuf, PathBuf) {
    let (dir, _) = copy_of(id);
    let file = dir.join("game.replay.json");
    let code = farebox_editor::run(
        vec![
            "farebox".into(),
            "record".into(),
            id.into(),
            "--seed".into(),
            seed.to_string(),
            "--out".into(),
            file.display().to_string(),
        ],
        &mut std::io::empty(),
        &mut std::io::sink(),
        &mut std::io::sink(),
    );
    assert_eq!(code, 0);
    (dir, file)
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
    // The list of failed games is below the figures: scrolled into view, then clicked.
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
