//! The debug channel and the console: `print` reaches a listener with its file, line and
//! place in the game, and never changes a game; `Game::inspect` reads and cannot write.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::sync::{Arc, Mutex};

use farebox::game::{Game, Setup};
use farebox::script::debug::{DebugLine, DebugSink};
use farebox::script::{Host, Limits};

const RULES: &str = r#"
local function note(what)
  print("note", what, { 1, 2, three = 3 })
end
return {
  setup = function(g)
    print("setting up with", game.seats(), "seats")
    game.set("seen", 0)
  end,
  actions = function(g, seat)
    print("listing for seat", seat)
    return { "a", "b" }
  end,
  apply = function(g, seat, action)
    note(action)
    game.add_counter("score", 1)
    print(nil, true, 2.5, "tab\there", "bell\7")
    if action == "b" then game.finish({ 1 }, { 0 }, "done") end
  end,
}
"#;

/// A VM for the probe mod with `sink` listening.
fn game(sink: Option<DebugSink>, seed: u64) -> Game {
    let def = Arc::new(support::probe(RULES));
    let host = Host::new(def, Limits::default()).unwrap();
    host.set_debug(sink);
    Game::with_host(Setup::new(1, seed), host).unwrap()
}

fn listener() -> (DebugSink, Arc<Mutex<Vec<DebugLine>>>) {
    let heard = Arc::new(Mutex::new(vec![]));
    let into = heard.clone();
    (
        Arc::new(move |l: DebugLine| into.lock().unwrap().push(l)),
        heard,
    )
}

#[test]
fn print_reaches_the_listener_with_its_file_line_and_place_in_the_game() {
    let (sink, heard) = listener();
    let mut g = game(Some(sink), 9);
    g.legal_actions().unwrap();
    g.apply("a").unwrap();
    let lines = heard.lock().unwrap().clone();
    let setup = lines
        .iter()
        .find(|l| l.text.starts_with("setting up"))
        .expect("setup's print");
    assert_eq!(setup.text, "setting up with\t1\tseats");
    assert_eq!(
        (setup.action, setup.seed, setup.line),
        (Some(0), Some(9), 7)
    );
    assert!(setup.file.ends_with("r.luau"), "{}", setup.file);
    assert_eq!(
        setup.heading(),
        format!("seed 9, setup, {}:7 in setup", setup.file)
    );
    let listing = lines
        .iter()
        .find(|l| l.text.starts_with("listing"))
        .expect("the actions hook's print");
    assert_eq!((listing.action, listing.line), (Some(1), 11));
    // A print in a local function names it; tables are written out, lists as lists.
    let note = lines
        .iter()
        .find(|l| l.text.starts_with("note"))
        .expect("apply's print");
    assert_eq!(note.function.as_deref(), Some("note"));
    assert_eq!(note.line, 3);
    assert!(note.text == "note\ta\t{1, 2, three = 3}", "{:?}", note.text);
    let values = lines
        .iter()
        .find(|l| l.text.starts_with("nil"))
        .expect("the values");
    assert_eq!(values.text, "nil\ttrue\t2.5\ttab\there\tbell\\u{7}");
}

#[test]
fn printing_changes_nothing_in_the_game_nor_its_cost() {
    let (sink, heard) = listener();
    let mut loud = game(Some(sink), 4);
    let mut quiet = game(None, 4);
    for g in [&mut loud, &mut quiet] {
        g.host().set_profiling(true);
        g.apply("a").unwrap();
        g.apply("a").unwrap();
        g.apply("b").unwrap();
    }
    assert!(heard.lock().unwrap().len() >= 6);
    assert_eq!(loud.state().hash(), quiet.state().hash());
    assert_eq!(format!("{:?}", loud.log()), format!("{:?}", quiet.log()));
    assert_eq!(loud.history(), quiet.history());
    // The same steps of the budget: printing is native work, charged the same either way.
    let steps = |g: &Game| {
        g.host()
            .take_profile()
            .iter()
            .map(|(k, v)| (k.clone(), v.steps))
            .collect::<Vec<_>>()
    };
    assert_eq!(steps(&loud), steps(&quiet));
    // Nothing printed is in the log or the view.
    let view = format!("{:?}", loud.view(Some(0)));
    assert!(!view.contains("listing for seat"));
}

#[test]
fn a_huge_print_is_cut() {
    let rules = r#"return {
      actions = function(g, seat) return { "go" } end,
      apply = function(g, seat, action)
        local t = {}
        for i = 1, 100 do t[i] = string.rep("x", 1000) end
        print(table.unpack(t))
        game.finish({ 1 }, { 0 }, "done")
      end,
    }"#;
    let (sink, heard) = listener();
    let def = Arc::new(support::probe(rules));
    let host = Host::new(def, Limits::default()).unwrap();
    host.set_debug(Some(sink));
    let mut g = Game::with_host(Setup::new(1, 1), host).unwrap();
    g.apply("go").unwrap();
    let lines = heard.lock().unwrap();
    assert_eq!(lines.len(), 1);
    assert!(lines[0].text.len() <= farebox::script::debug::MAX_PRINTED + 4);
    assert!(lines[0].text.ends_with('…'));
}

#[test]
fn the_console_reads_everything_and_changes_nothing() {
    let mut g = game(None, 3);
    g.apply("a").unwrap();
    let hash = g.state().hash();
    assert_eq!(g.inspect("game.counter('score')").unwrap(), "1");
    assert_eq!(
        g.inspect("local x = game.counter('score') return x + 1, 'more'")
            .unwrap(),
        "2\tmore"
    );
    assert_eq!(g.inspect("data.id").unwrap(), "probe");
    let e = g.inspect("game.add_counter('score', 5)").unwrap_err();
    assert!(e.to_string().contains("cannot be used here"), "{e}");
    assert!(e.to_string().contains("the console only read"), "{e}");
    assert_eq!(e.file, "console");
    let e = g.inspect("return (").unwrap_err();
    assert_eq!(e.hook, "console");
    assert_eq!(e.file, "console");
    let e = g.inspect("local x = nil\nreturn x.y").unwrap_err();
    assert_eq!((e.file.as_str(), e.line), ("console", 2), "{e}");
    assert_eq!(g.state().hash(), hash);
    assert_eq!(g.inspect("game.counter('score')").unwrap(), "1");
}
