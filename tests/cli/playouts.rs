//! The search bot's playouts through the command line: what fails in them is reported by
//! `sim`, `bench` and `record` (the games play on), and what they cost does not grow with what
//! the game's variables hold. Each test writes a small game with `farebox new` and changes it.

use super::*;

/// A new game `id` in a scratch folder, its rules script changed by `edit`; returns the
/// mod's folder and the rules' text as written.
fn new_game(id: &str, edit: impl Fn(&str) -> String) -> (PathBuf, String) {
    let dir = scratch(&format!("playouts-{id}"));
    let r = farebox(&["new", id, "--dir", &s(&dir)]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let folder = dir.join(id);
    let rules = folder.join(format!("rules/{id}.luau"));
    let text = edit(&std::fs::read_to_string(&rules).unwrap());
    std::fs::write(&rules, &text).unwrap();
    (folder, text)
}

/// The 1-based line of `text` holding `needle`.
fn line_of(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no `{needle}` in the script"))
        + 1
}

/// The new game's rules with an `evaluate` hook whose body is `body`.
fn with_evaluate(body: &str) -> impl Fn(&str) -> String + '_ {
    move |text: &str| {
        let hook = "\tscore = function(_g, seat: number): number";
        assert!(text.contains(hook), "the new game has a score hook");
        text.replacen(
            hook,
            &format!("\tevaluate = function(_g, seat: number): number\n{body}\n\tend,\n\n{hook}"),
            1,
        )
    }
}

/// An `evaluate` hook that fails at every call: `sim` (text and JSON), `bench` and `record`
/// report it with its file:line, hook, seed and actions, exit 1, and nothing says `errors 0`.
#[test]
fn an_evaluate_that_fails_in_playouts_is_reported_by_sim_bench_and_record() {
    let (dir, text) = new_game(
        "broken-gauge",
        with_evaluate("\t\terror(\"the gauge is broken at \" .. game.counter(\"meter\"))"),
    );
    let at = format!(
        "broken-gauge.luau:{}: error: the gauge is broken at",
        line_of(&text, "the gauge is broken")
    );
    let game = s(&dir);
    let bots = ["--bots", "search:3:random,random", "--players", "2"];

    let mut args = vec!["sim", &game, "--games", "2", "--no-figures"];
    args.extend(bots);
    let r = farebox(&args);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(!r.out.contains("errors 0"), "{}", r.out);
    assert!(
        r.out.contains("in the search bot's playouts, in 2 games"),
        "{}",
        r.out
    );
    let first = r
        .out
        .lines()
        .find(|l| l.starts_with("  error in a playout: seed 1: "))
        .unwrap_or_else(|| panic!("no playout error line:\n{}", r.out));
    assert!(first.contains(&at), "{first}");
    assert!(first.contains("in evaluate"), "{first}");
    assert!(
        first.contains("at action 2 of the game with seed 1, in the search bot's playout 1 of that decision, after 24 playout actions"),
        "{first}"
    );

    args.push("--json");
    let r = farebox(&args);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    let v: serde_json::Value = serde_json::from_str(&r.out).unwrap();
    assert_eq!(v["errors"], 0, "the games themselves played on");
    assert!(v["playout_errors"].as_u64().unwrap() > 0, "{v}");
    assert_eq!(v["playout_error_games"], 2, "{v}");
    assert!(v["playouts"].as_u64().unwrap() > 0, "{v}");
    let m = v["playout_error_messages"][0].as_str().unwrap();
    assert!(m.starts_with("seed 1: ") && m.contains(&at), "{m}");

    let r = farebox(&[
        "bench",
        &game,
        "--search",
        "search:3:random",
        "--against",
        "random",
        "--games",
        "2",
    ]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(
        r.out.contains(" playouts (each ended where it failed)"),
        "{}",
        r.out
    );
    assert!(r.err.contains("error in a playout: "), "{}", r.err);
    assert!(
        r.err.contains(&at) && r.err.contains("in evaluate"),
        "{}",
        r.err
    );

    let replay = dir.join("../game.replay.json");
    let mut args = vec!["record", &game, "--seed", "3"];
    args.extend(bots);
    let out = s(&replay);
    args.extend(["--out", &out]);
    let r = farebox(&args);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(
        r.out.starts_with("recorded broken-gauge (seed 3)"),
        "{}",
        r.out
    );
    assert!(
        r.err.contains("error: the search bot met ") && r.err.contains(&at),
        "{}",
        r.err
    );
    assert!(
        r.err.contains("with seed 3, in the search bot's playout"),
        "{}",
        r.err
    );
}

/// The playout bot's `choose` failing (when asked for the search's prior and in playouts) is
/// reported with the bot's file and line.
#[test]
fn a_playout_bot_that_fails_is_reported() {
    let (dir, _) = new_game("stalling", |t| t.to_string());
    let manifest = dir.join("mod.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(
        &manifest,
        text.replacen(
            "\n[[options]]",
            "\n[[bots]]\nid = \"staller\"\nname = \"Staller\"\ndescription = \"Stalls.\"\nscript = \"bots/staller.luau\"\n\n[[options]]",
            1,
        ),
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("bots")).unwrap();
    std::fs::write(
        dir.join("bots/staller.luau"),
        "return {\n\tchoose = function(_g, _seat, actions)\n\t\tif #actions > 1 then\n\t\t\terror(\"the engine stalled\")\n\t\tend\n\t\treturn 1\n\tend,\n}\n",
    )
    .unwrap();
    let game = s(&dir);
    let r = farebox(&[
        "sim",
        &game,
        "--games",
        "1",
        "--players",
        "2",
        "--bots",
        "search:2,random",
        "--no-figures",
    ]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(!r.out.contains("errors 0"), "{}", r.out);
    let first = r
        .out
        .lines()
        .find(|l| l.starts_with("  error in a playout: seed 1: "))
        .unwrap_or_else(|| panic!("no playout error line:\n{}", r.out));
    assert!(
        first.contains("staller.luau:4: error: the engine stalled"),
        "{first}"
    );
    assert!(first.contains("in bot staller"), "{first}");
}

/// An `evaluate` that never returns says which limit stopped it, and where.
#[test]
fn an_endless_evaluate_says_which_limit_stopped_it() {
    let (dir, text) = new_game(
        "endless-gauge",
        with_evaluate(
            "\t\tlocal m = game.counter(\"meter\")\n\t\twhile m >= 0 do\n\t\t\tm = m + 1\n\t\tend\n\t\treturn 0.5",
        ),
    );
    let game = s(&dir);
    let r = farebox(&[
        "sim",
        &game,
        "--games",
        "1",
        "--players",
        "2",
        "--bots",
        "search:1:random,random",
        "--cap",
        "4",
        "--no-figures",
    ]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(!r.out.contains("errors 0"), "{}", r.out);
    let want = format!(
        "endless-gauge.luau:{}: error: step budget exceeded (an endless loop?)",
        line_of(&text, "while m >= 0 do")
    );
    assert!(r.out.contains(&want), "{want} in:\n{}", r.out);
    assert!(r.out.contains("in evaluate"), "{}", r.out);
}

/// The bytes hashed to tell positions apart, per playout action: with about 9 MB of script
/// variables the search hashes each value once, not at every step (it hashed the whole state
/// at every step of the tree walk, some 800 KB a playout action here), and it plays the same
/// games as without them.
#[test]
fn search_cost_does_not_grow_with_what_the_variables_hold() {
    let fill = "\tsetup = function(_g)\n\t\tgame.set_counter(\"meter\", 0)";
    let (big, _) = new_game("big-ledger", |t| {
        assert!(t.contains(fill));
        t.replacen(
            fill,
            &format!(
                "{fill}\n\t\tlocal row = string.rep(\"x\", 80)\n\t\tfor v = 1, 5 do\n\t\t\tlocal list = {{}}\n\t\t\tfor i = 1, 20000 do\n\t\t\t\tlist[i] = row .. i\n\t\t\tend\n\t\t\tgame.set(\"ledger\" .. v, list)\n\t\tend"
            ),
            1,
        )
    });
    let (small, _) = new_game("small-ledger", |t| t.to_string());
    let bench = |dir: &Path| {
        let r = farebox(&[
            "bench",
            &s(dir),
            "--search",
            "search:4:random",
            "--against",
            "random",
            "--games",
            "2",
        ]);
        assert_eq!(r.code, 0, "{}{}", r.out, r.err);
        let hashed: u64 = r
            .out
            .trim_end()
            .split("; ")
            .find_map(|p| p.strip_suffix(" bytes of state hashed a playout action"))
            .unwrap_or_else(|| panic!("no bytes hashed in:\n{}", r.out))
            .trim()
            .parse()
            .unwrap();
        // The games: who won and how many decisions, before the times.
        let games = r.out[..r.out.find(" decisions").unwrap()]
            .split_once(": ")
            .unwrap()
            .1
            .to_string();
        (hashed, games)
    };
    let (big_hashed, big_games) = bench(&big);
    let (small_hashed, small_games) = bench(&small);
    assert_eq!(big_games, small_games, "the variables change no choice");
    assert!(
        small_hashed < 1_000,
        "{small_hashed} bytes a playout action"
    );
    assert!(
        big_hashed < 100_000,
        "{big_hashed} bytes hashed a playout action with 9 MB of variables"
    );
}

/// The search bot's playouts run clean in every bundled game, against the game's own bot:
/// imagined games keep each deck's cards in the places of that deck (a starting tile dealt
/// into Curbside's draw deck broke most playouts), and bots and rules that keep what they
/// read of the board forget it when a playout goes back.
#[test]
fn search_playouts_run_clean_in_every_bundled_game() {
    for game in games() {
        let bot = farebox_suite::own_bot(&game);
        let game = game.as_str();
        let r = farebox(&[
            "sim",
            game,
            "--games",
            "1",
            "--seed",
            "11",
            "--bots",
            // Eight playouts: below that the paired root plays as its bot and plays none.
            &format!("search:8,{bot}"),
        ]);
        assert_eq!(r.code, 0, "{game}: {}{}", r.out, r.err);
        assert!(r.out.contains("errors 0"), "{game}: {}", r.out);
    }
}

/// `farebox test` with a search bot whose playouts fail: accepting is refused (the figures
/// are those of another bot) unless asked for, and a test of accepted outcomes fails saying
/// what failed in the playouts.
#[test]
fn test_refuses_and_fails_outcomes_whose_playouts_fail() {
    let (dir, text) = new_game(
        "broken-dial",
        with_evaluate("\t\terror(\"the dial is broken\")"),
    );
    let at = format!(
        "broken-dial.luau:{}: error: the dial is broken",
        line_of(&text, "the dial is broken")
    );
    let game = s(&dir);
    let run = [
        "--games",
        "2",
        "--bots",
        "search:3:random,random",
        "--players",
        "2",
    ];
    let mut args = vec!["test", &game, "--accept"];
    args.extend(run);
    let r = farebox(&args);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(
        r.err.contains("in the search bot's playouts") && r.err.contains(&at),
        "{}",
        r.err
    );
    assert!(r.err.contains("not accepted"), "{}", r.err);
    assert!(!dir.join("snapshots/outcomes.json").exists());
    args.push("--accept-failures");
    let r = farebox(&args);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let r = farebox(&["test", &game]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(
        r.out.contains("in the search bot's playouts") && r.out.contains(&at),
        "{}",
        r.out
    );
}
