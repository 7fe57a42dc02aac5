//! The bad-input corpus: every folder of `tests/bad/` is a small mod with something wrong in
//! it (the first line of its `mod.toml` says what). Each must fail to load, to start its
//! scripts, to set up a game, or in play: a few seeded games with random players, making
//! both labels of every action offered, as `farebox validate` plays them. The diagnostics
//! it gets are pinned by an insta snapshot, so a change to any message shows up in review.
//!
//! Paths in the snapshots start with `<repo>` instead of the checkout's absolute path.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use farebox::content;
use farebox::game::{Game, Setup};
use farebox::script::{Host, Limits};
use farebox::source::{FolderResolver, FsSource};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn bad_dir() -> PathBuf {
    root().join("tests").join("bad")
}

/// Runs a case through every stage until one fails; returns the stage and its errors as text.
fn run_case(dir: &Path, case: &str) -> String {
    let resolver = FolderResolver::new(root().join("mods"));
    let (stage, text) = match content::load_mod(&FsSource::new(dir), &resolver) {
        Err(diags) => ("load", diags.to_string()),
        Ok(def) => {
            let def = Arc::new(def);
            match Host::new(def.clone(), Limits::default()) {
                Err(e) => ("scripts", format!("{e}\n")),
                Ok(_) if def.playable() => {
                    let seats = u8::try_from(def.players.0).unwrap_or(u8::MAX);
                    match Game::new(def.clone(), Setup::new(seats, 1)) {
                        Err(e) => ("setup", format!("{e}\n")),
                        Ok(_) => match played(&def, seats) {
                            Some(e) => ("play", format!("{e}\n")),
                            None => panic!(
                                "bad case `{case}` loads, starts its scripts, sets up a game and plays; it should fail"
                            ),
                        },
                    }
                }
                Ok(_) => panic!(
                    "bad case `{case}` loads and has no rule scripts to fail in; it should fail to load"
                ),
            }
        }
    };
    let text = text.replace(&root().display().to_string(), "<repo>");
    format!("stage: {stage}\n{text}")
}

/// The first problem of a few seeded games with random players, every label made.
fn played(def: &Arc<farebox::GameDef>, seats: u8) -> Option<String> {
    let mut vm = None;
    let batch = farebox::batch::Batch::of_specs(
        def,
        Setup::new(seats, 1),
        vec![farebox::agent::AgentSpec::Random],
        300,
    )
    .labels(farebox::agent::Labels::Always);
    (1..=3).find_map(|seed| {
        batch
            .play_one(seed - 1, &mut vm, None)
            .error
            .map(|e| format!("seed {seed}: {e}"))
    })
}

/// The first line of the case's `mod.toml`: `# expect: ...`.
fn expectation(dir: &Path, case: &str) -> String {
    let manifest = std::fs::read_to_string(dir.join("mod.toml")).unwrap_or_default();
    let first = manifest.lines().next().unwrap_or_default();
    match first.strip_prefix("# expect: ") {
        Some(e) => e.to_string(),
        None => panic!("tests/bad/{case}/mod.toml must start with `# expect: <what is wrong>`"),
    }
}

fn check(case: &str) -> Duration {
    let dir = bad_dir().join(case);
    assert!(
        dir.join("mod.toml").is_file(),
        "tests/bad/{case} has no mod.toml"
    );
    let expect = expectation(&dir, case);
    let start = Instant::now();
    let text = run_case(&dir, case);
    let took = start.elapsed();
    insta::with_settings!({ description => expect, omit_expression => true }, {
        insta::assert_snapshot!(case, text);
    });
    took
}

macro_rules! bad_cases {
    ($($name:ident => $case:literal,)*) => {
        $(
            #[test]
            fn $name() {
                check($case);
            }
        )*

        /// Every folder of `tests/bad` has a test above, and every test has a folder.
        #[test]
        fn every_case_folder_has_a_test() {
            let listed: Vec<&str> = vec![$($case),*];
            let mut found: Vec<String> = std::fs::read_dir(bad_dir())
                .map(|rd| rd.flatten().filter(|e| e.path().is_dir()).map(|e| e.file_name().to_string_lossy().to_string()).collect())
                .unwrap_or_default();
            found.sort();
            let mut sorted = listed.clone();
            sorted.sort();
            assert_eq!(found, sorted, "tests/bad and the case list in tests/content/bad_inputs.rs differ");
            assert!(listed.len() >= 32, "the corpus should have at least 32 cases");
        }
    };
}

bad_cases! {
    board_kind_table_mismatch => "board-kind-table-mismatch",
    board_unknown_kind => "board-unknown-kind",
    bot_without_choose => "bot-without-choose",
    deck_defined_twice => "deck-defined-twice",
    deck_several_syntax_errors => "deck-several-syntax-errors",
    deck_duplicate_card => "deck-duplicate-card",
    describe_fails_for_spectators => "describe-fails-for-spectators",
    describe_fails_late => "describe-fails-late",
    actions_offers_a_line_break => "actions-offers-a-line-break",
    deck_ref_unknown_card => "deck-ref-unknown-card",
    deck_ref_unknown_deck => "deck-ref-unknown-deck",
    deck_value_not_in_choices => "deck-value-not-in-choices",
    graph_duplicate_space => "graph-duplicate-space",
    graph_edge_unknown_space => "graph-edge-unknown-space",
    graph_edge_cost_out_of_range => "graph-edge-cost-out-of-range",
    graph_self_loop => "graph-self-loop",
    graph_coordinates_not_finite => "graph-coordinates-not-finite",
    grid_dangling_tile => "grid-dangling-tile",
    grid_rotation_out_of_range => "grid-rotation-out-of-range",
    grid_size_out_of_range => "grid-size-out-of-range",
    lua_call_nil_at_load => "lua-call-nil-at-load",
    lua_infinite_loop_at_load => "lua-infinite-loop-at-load",
    lua_house_rule_bad_wrap => "lua-house-rule-bad-wrap",
    lua_io_open => "lua-io-open",
    lua_memory_bomb_at_load => "lua-memory-bomb-at-load",
    lua_os_time => "lua-os-time",
    lua_require => "lua-require",
    lua_returns_non_table => "lua-returns-non-table",
    lua_setup_hook_error => "lua-setup-hook-error",
    lua_syntax_error => "lua-syntax-error",
    lua_unknown_hook => "lua-unknown-hook",
    many_errors_content => "many-errors-content",
    many_errors_manifest => "many-errors-manifest",
    mod_bad_id => "mod-bad-id",
    mod_dependency_not_installed => "mod-dependency-not-installed",
    mod_missing_engine => "mod-missing-engine",
    mod_syntax_error => "mod-syntax-error",
    mod_unknown_key => "mod-unknown-key",
    mod_wrong_type => "mod-wrong-type",
    mod_versions_not_versions => "mod-versions-not-versions",
    option_choice_not_in_choices => "option-choice-not-in-choices",
    option_applies_when_unknown => "option-applies-when-unknown",
    patch_several_mistakes => "patch-several-mistakes",
    option_default_outside_range => "option-default-outside-range",
    option_default_wrong_type => "option-default-wrong-type",
    path_absolute => "path-absolute",
    path_leaves_mod_folder => "path-leaves-mod-folder",
    path_missing_file => "path-missing-file",
    pieces_bad_ids => "pieces-bad-ids",
    pieces_counter_unknown_option => "pieces-counter-unknown-option",
    pieces_counter_bad_constant => "pieces-counter-bad-constant",
    deck_field_length_and_tag => "deck-field-length-and-tag",
    deck_tags_from_table => "deck-tags-from-table",
    sections_layout_options => "sections-layout-options",
    pieces_unknown_scope => "pieces-unknown-scope",
    pieces_wrong_type => "pieces-wrong-type",
    pieces_zone_unknown_deck => "pieces-zone-unknown-deck",
    script_not_luau => "script-not-luau",
    search_settings_out_of_range => "search-settings-out-of-range",
    search_paired_without_bot => "search-paired-without-bot",
    sections_count_mismatch => "sections-count-mismatch",
    sections_numbers_out_of_range => "sections-numbers-out-of-range",
    sections_connectors_at_one_place => "sections-connectors-at-one-place",
    table_duplicate_key => "table-duplicate-key",
    table_ref_unknown_row => "table-ref-unknown-row",
    table_ref_unknown_table => "table-ref-unknown-table",
    table_wrong_cell_type => "table-wrong-cell-type",
    tiles_bad_road_syntax => "tiles-bad-road-syntax",
    tiles_defined_twice => "tiles-defined-twice",
    tiles_missing_name => "tiles-missing-name",
    tiles_several_mistakes => "tiles-several-mistakes",
    tiles_unknown_key => "tiles-unknown-key",
    tiles_move_cost_out_of_range => "tiles-move-cost-out-of-range",
    track_duplicate_piece => "track-duplicate-piece",
    track_gate_size_out_of_range => "track-gate-size-out-of-range",
    track_turn_out_of_range => "track-turn-out-of-range",
    track_start_out_of_range => "track-start-out-of-range",
    track_table_not_finite => "track-table-not-finite",
}

/// Runaway scripts are stopped by the limits, quickly: this checks the limits, it is no
/// benchmark.
#[test]
fn runaway_load_time_scripts_stop_within_a_second() {
    for case in ["lua-infinite-loop-at-load", "lua-memory-bomb-at-load"] {
        let dir = bad_dir().join(case);
        let start = Instant::now();
        let text = run_case(&dir, case);
        let took = start.elapsed();
        assert!(
            text.starts_with("stage: scripts"),
            "{case} should fail when its scripts load:\n{text}"
        );
        assert!(
            took < Duration::from_secs(1),
            "{case} took {took:?} to be stopped"
        );
    }
}
