//! What `farebox sim` and `farebox test` report about ties, `sim --rank --remove` and
//! `sim A --vs B`, on tiny mods written for each test.

use super::*;

/// A two-seat mod in `dir/id`: a deck of `cards` (id, power, count), each seat dealt a hand
/// of two, three plays each (a play adds the card's power to the seat's score, discards it
/// and draws one); `finish` is the Luau body that ends the game, given `a` and `b`, the two
/// seats' scores.
pub(super) fn card_mod(dir: &Path, id: &str, cards: &[(&str, i64, u32)], finish: &str) -> PathBuf {
    let folder = dir.join(id);
    std::fs::create_dir_all(folder.join("rules")).unwrap();
    std::fs::create_dir_all(folder.join("decks")).unwrap();
    std::fs::write(
        folder.join("mod.toml"),
        format!(
            r#"id = "{id}"
name = "Tiny {id}"
version = "0.1.0"
engine = "0.1"
description = "A tiny game for the figures' tests."
scripts = ["rules/rules.luau"]

[players]
min = 2
max = 2

[content]
decks = ["decks/cards.toml"]
pieces = "pieces.toml"
"#
        ),
    )
    .unwrap();
    let mut deck = String::from(
        "id = \"cards\"\nname = \"Cards\"\n\n[fields.power]\ntype = \"int\"\nrequired = true\n",
    );
    for (card, power, count) in cards {
        deck += &format!(
            "\n[[cards]]\nid = \"{card}\"\nname = \"Card {card}\"\npower = {power}\ncount = {count}\n"
        );
    }
    std::fs::write(folder.join("decks/cards.toml"), deck).unwrap();
    std::fs::write(
        folder.join("pieces.toml"),
        r#"[[counters]]
id = "score"
name = "Score"
scope = "seat"

[[counters]]
id = "plays"
name = "Plays"
scope = "global"

[[zones]]
id = "deck"
name = "Deck"
visibility = "hidden"
deck = "cards"
shuffle = true

[[zones]]
id = "discard"
name = "Discard"
visibility = "public"

[[zones]]
id = "hand"
name = "Hand"
per_seat = true
visibility = "owner"
"#,
    )
    .unwrap();
    std::fs::write(
        folder.join("rules/rules.luau"),
        format!(
            r#"local function finish()
	local a, b = game.counter("score", 1), game.counter("score", 2)
	{finish}
end

return {{
	setup = function(_g)
		for s = 1, 2 do
			game.move_card(game.zone("deck"), game.zone("hand", s))
			game.move_card(game.zone("deck"), game.zone("hand", s))
		end
	end,
	actions = function(_g, seat: number): {{ string }}
		local out = {{}}
		for _, c in game.cards(game.zone("hand", seat)) do
			table.insert(out, "play " .. c)
		end
		return out
	end,
	apply = function(_g, seat: number, action: string)
		local card = string.sub(action, 6)
		game.take_card(game.zone("hand", seat), card, game.zone("discard"))
		game.add_counter("score", seat, data.decks.cards.cards[card].power)
		game.move_card(game.zone("deck"), game.zone("hand", seat))
		if game.add_counter("plays", 1) >= 6 then
			finish()
			return
		end
		game.end_turn()
	end,
	score = function(_g, seat: number): number
		return game.counter("score", seat)
	end,
}}
"#
        ),
    )
    .unwrap();
    folder
}

/// Ten cards of power 1 or 2 (one each).
pub(super) const PLAIN: &[(&str, i64, u32)] = &[
    ("c1", 1, 1),
    ("c2", 2, 1),
    ("c3", 1, 1),
    ("c4", 2, 1),
    ("c5", 1, 1),
    ("c6", 2, 1),
    ("c7", 1, 1),
    ("c8", 2, 1),
    ("c9", 1, 1),
    ("c10", 2, 1),
];

/// Places by score, equal scores sharing first place.
const BY_SCORE: &str = r#"if a == b then
		game.finish({ 1, 1 }, { a, b }, "level")
	elseif a > b then
		game.finish({ 1, 2 }, { a, b }, "higher")
	else
		game.finish({ 2, 1 }, { a, b }, "higher")
	end"#;

fn json_of(r: &run::Run) -> serde_json::Value {
    assert!(r.code == 0, "exit {}: {}{}", r.code, r.out, r.err);
    serde_json::from_str(&r.out).unwrap_or_else(|e| panic!("{e}: {}", r.out))
}

fn sim_json(folder: &Path, more: &[&str]) -> serde_json::Value {
    let mut args = vec!["sim", "--games", "200", "--json", "--threads", "2"];
    let f = s(folder);
    args.insert(1, &f);
    args.extend_from_slice(more);
    json_of(&farebox(&args))
}

/// A game that always ties has a tie rate of 100% with both seats winning every game; one
/// that never ties, 0% with win rates adding up to 100%; the text says so too.
#[test]
fn sim_and_test_count_ties() {
    let dir = scratch("ties");
    let always = card_mod(
        &dir,
        "always-ties",
        PLAIN,
        r#"game.finish({ 1, 1 }, { a, b }, "shared")"#,
    );
    let never = card_mod(
        &dir,
        "never-ties",
        PLAIN,
        r#"game.finish(if a >= b then { 1, 2 } else { 2, 1 }, { a, b }, "decided")"#,
    );
    let all = sim_json(&always, &[]);
    assert_eq!(all["ties"], 200, "{all}");
    assert_eq!(all["tie_rate"], 1.0, "{all}");
    let [lo, hi] = [
        all["tie_rate_interval"][0].as_f64().unwrap(),
        all["tie_rate_interval"][1].as_f64().unwrap(),
    ];
    assert!(lo > 0.98 && lo < 1.0 && hi == 1.0, "{all}");
    assert_eq!(all["win_rate"], serde_json::json!([1.0, 1.0]), "{all}");
    let none = sim_json(&never, &[]);
    assert_eq!(none["ties"], 0, "{none}");
    assert_eq!(none["tie_rate"], 0.0, "{none}");
    let hi = none["tie_rate_interval"][1].as_f64().unwrap();
    assert!(hi > 0.0 && hi < 0.02, "{none}");
    let sum: f64 = none["win_rate"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_f64().unwrap())
        .sum();
    assert!((sum - 1.0).abs() < 1e-9, "{none}");
    // The text gives the rate with its interval and says how a tie counts.
    let r = farebox(&["sim", &s(&always), "--games", "50"]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(
        r.out.contains(
            "ties      100.0% (92.9-100.0%) of 50 finished games: a tie for first is a win for each tied seat"
        ),
        "{}",
        r.out
    );
    // `test` keeps the tie rate with the accepted outcomes and compares it.
    let r = farebox(&[
        "test",
        &s(&always),
        "--accept",
        "--games",
        "40",
        "--bots",
        "random",
    ]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(r.out.contains("ties      100.0%"), "{}", r.out);
    let r = farebox(&["test", &s(&always)]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(
        r.out.contains(
            "tie rate: accepted 100.0% (91.2-100.0%), now 100.0% (91.2-100.0%) of 40 finished games"
        ),
        "{}",
        r.out
    );
    // A game that stops tying is a changed outcome, named as such.
    std::fs::write(
        always.join("rules/rules.luau"),
        std::fs::read_to_string(never.join("rules/rules.luau")).unwrap(),
    )
    .unwrap();
    let r = farebox(&["test", &s(&always)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(
        r.out
            .contains("  tie rate: accepted 100.0% (91.2-100.0%), now 0.0% (0.0-8.8%)"),
        "{}",
        r.out
    );
}

/// One card worth ten times the others: forbidden only, it stays in the hand; removed from
/// the first seat's draws, it ranks first with an interval clear of every other card's.
#[test]
fn rank_with_remove_finds_the_dominant_card() {
    let dir = scratch("rank-remove");
    let mut cards = PLAIN.to_vec();
    cards[0] = ("ace", 20, 1);
    let folder = card_mod(&dir, "one-ace", &cards, BY_SCORE);
    let rank = |remove: bool| {
        let f = s(&folder);
        let mut args = vec![
            "sim",
            &f,
            "--rank",
            "cards",
            "--games",
            "300",
            "--json",
            "--threads",
            "2",
        ];
        if remove {
            args.push("--remove");
        }
        json_of(&farebox(&args))
    };
    let removed = rank(true);
    assert_eq!(removed["without"], "removed", "{removed}");
    let list = removed["cards"].as_array().unwrap();
    assert_eq!(list[0]["card"], "ace", "{removed}");
    let ace_low = list[0]["worth_interval"][0].as_f64().unwrap();
    for c in &list[1..] {
        let high = c["worth_interval"][1].as_f64().unwrap();
        assert!(
            ace_low > high,
            "the ace's interval meets {}'s: {removed}",
            c["card"]
        );
    }
    // Every card of this deck is drawn, so removal keeps each from the seat.
    assert!(
        list.iter().all(|c| c["held_at_setup"] == false),
        "{removed}"
    );
    let forbidden = rank(false);
    assert_eq!(forbidden["without"], "forbidden", "{forbidden}");
    // The text and the help say what each measures.
    let r = farebox(&[
        "sim",
        &s(&folder),
        "--rank",
        "cards",
        "--games",
        "20",
        "--remove",
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(
        r.out
            .contains("removed from that seat's game: it never draws the card"),
        "{}",
        r.out
    );
    let r = farebox(&["sim", &s(&folder), "--rank", "cards", "--games", "20"]);
    assert!(
        r.out.contains("though it still draws and holds it"),
        "{}",
        r.out
    );
    let r = farebox(&["sim", "--help"]);
    assert!(
        r.out.contains("--remove") && r.out.contains("draws the next card down instead"),
        "{}",
        r.out
    );
    // --remove without --rank is a usage error.
    let r = farebox(&["sim", &s(&folder), "--games", "2", "--remove"]);
    assert_eq!(r.code, 2, "{}{}", r.out, r.err);
}

/// Curbside deals each driver's starting canteen and re-route by name (`game.take_card`), not
/// from a draw, so `--remove` cannot keep them from the seat: it holds them and may only not
/// play them, and the worth is the forbidden one. The rank says so rather than passing the
/// forbidden figures off as removed ones; the starting crossroads goes under the taxi, not
/// into the seat's hand, and is not flagged.
#[test]
fn rank_with_remove_says_which_cards_the_rules_hand_over_by_name() {
    let f = s(&mod_dir("curbside"));
    let args = [
        "sim", &f, "--rank", "starter", "--remove", "--games", "4", "--bots", "random",
    ];
    let r = farebox(&args);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(
        r.err
            .contains("start-canteen, start-reroute are dealt to Yellow by name")
            && r.err.contains("the worth shown is the forbidden one"),
        "{}",
        r.err
    );
    let mut json = args.to_vec();
    json.push("--json");
    let v = json_of(&farebox(&json));
    let held = |id: &str| {
        v["cards"]
            .as_array()
            .and_then(|l| l.iter().find(|c| c["card"] == id))
            .map(|c| c["held_at_setup"].clone())
    };
    assert_eq!(held("start-canteen"), Some(serde_json::json!(true)), "{v}");
    assert_eq!(held("start-reroute"), Some(serde_json::json!(true)), "{v}");
    assert_eq!(
        held("start-crossroads"),
        Some(serde_json::json!(false)),
        "{v}"
    );
}

/// `sim A --vs B` plays both on the same seeds and agents: two mods that differ only in how
/// a level game ends play the same games, so the lengths differ by exactly nothing (paired
/// by seed, the interval is a point), and the tie rate by all of it.
#[test]
fn sim_vs_compares_two_mods_on_the_same_seeds() {
    let dir = scratch("vs");
    let a = card_mod(&dir, "by-score", PLAIN, BY_SCORE);
    let b = card_mod(
        &dir,
        "all-tie",
        PLAIN,
        r#"game.finish({ 1, 1 }, { a, b }, "shared")"#,
    );
    let v = sim_json(&a, &["--vs", &s(&b)]);
    assert_eq!(v["a"]["mod"], "by-score", "{v}");
    assert_eq!(v["b"]["mod"], "all-tie", "{v}");
    assert_eq!(v["b"]["finished"], 200, "{v}");
    let figure = |name: &str| -> &serde_json::Value {
        v["figures"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["figure"] == name)
            .unwrap_or_else(|| panic!("no {name}: {v}"))
    };
    let length = figure("mean length in actions");
    assert_eq!(length["a"], 6.0, "{v}");
    assert_eq!(length["difference"], 0.0, "{v}");
    assert_eq!(length["difference_interval"], serde_json::json!([0.0, 0.0]));
    assert_eq!(length["paired_games"], 200, "{v}");
    let ties = figure("tie rate");
    assert_eq!(ties["b"], 1.0, "{v}");
    let (ta, d) = (
        ties["a"].as_f64().unwrap(),
        ties["difference"].as_f64().unwrap(),
    );
    assert!(ta > 0.0 && ta < 1.0, "{v}");
    assert!((d - (1.0 - ta)).abs() < 1e-9, "{v}");
    let [lo, hi] = [
        ties["difference_interval"][0].as_f64().unwrap(),
        ties["difference_interval"][1].as_f64().unwrap(),
    ];
    assert!(lo > 0.0 && lo < d && d < hi, "{v}");
    let win = figure("Seat 1 win rate");
    assert_eq!(win["b"], 1.0, "{v}");
    assert_eq!(win["paired_games"], 200, "{v}");
    // A card both mods have is compared as two independent runs.
    let card = figure("c1 (played)");
    assert!(
        card["difference"].is_number() && card["paired_games"].is_null(),
        "{v}"
    );
    // The text puts them side by side.
    let r = farebox(&["sim", &s(&a), "--vs", &s(&b), "--games", "40"]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(
        r.out.starts_with(
            "A = Tiny by-score, B = Tiny all-tie: 40 games each on the same seeds 1..40"
        ),
        "{}",
        r.out
    );
    let line = r
        .out
        .lines()
        .find(|l| l.starts_with("mean length in actions"))
        .unwrap_or_else(|| panic!("{}", r.out));
    assert!(
        line.ends_with("+0.00 (+0.00 to +0.00), paired over 40 games"),
        "{line}"
    );
    // A game and a house rule of it.
    let r = farebox(&[
        "sim",
        "critter-cab",
        "--vs",
        "critter-cab-no-sitting-out",
        "--games",
        "6",
        "--json",
    ]);
    let v = json_of(&r);
    assert_eq!(v["b"]["mod"], "critter-cab-no-sitting-out", "{v}");
    // A B that is not a mod is a usage error.
    let r = farebox(&["sim", &s(&a), "--vs", "no-such-mod", "--games", "2"]);
    assert_eq!(r.code, 2, "{}{}", r.out, r.err);
}

/// `sim A --vs B --until-settled` stops at the first look where every seat's paired win-rate
/// change is settled, and says so: at once for a change of everything (seat 1 always wins),
/// at once for no change at all (within the width), and never for a change too small to
/// settle in the games allowed, which plays them all.
#[test]
fn sim_vs_until_settled_stops_when_the_change_is_settled() {
    let dir = scratch("vs-settled");
    let a = card_mod(&dir, "by-score", PLAIN, BY_SCORE);
    let seat_one = card_mod(
        &dir,
        "seat-one",
        PLAIN,
        r#"game.finish({ 1, 2 }, { a, b }, "seat one")"#,
    );
    let settled = |b: &Path, more: &[&str]| {
        let (a, b) = (s(&a), s(b));
        let mut args = vec!["sim", &a, "--vs", &b, "--until-settled", "--json"];
        args.extend_from_slice(more);
        json_of(&farebox(&args))
    };
    let v = settled(&seat_one, &["--games", "2000"]);
    let u = &v["until_settled"];
    assert_eq!(u["settled"], true, "{v}");
    assert_eq!(u["games_played"], 200, "{v}");
    assert_eq!(u["looks"], 1, "{v}");
    assert_eq!(u["looks_at_most"], 10, "{v}");
    assert_eq!(u["seats"][0]["verdict"], "changed", "{v}");
    assert_eq!(v["b"]["games"], 200, "{v}");
    // z for 5% over 10 looks and 2 seats: the 1 - 0.05/40 quantile.
    assert!((u["z"].as_f64().unwrap() - 3.023).abs() < 1e-3, "{v}");
    // The same game on both sides: nothing differs, within ±2 points after one look.
    let same = card_mod(&dir, "same", PLAIN, BY_SCORE);
    let v = settled(&same, &["--games", "2000"]);
    assert_eq!(v["until_settled"]["games_played"], 200, "{v}");
    assert_eq!(
        v["until_settled"]["seats"][1]["verdict"], "within the width",
        "{v}"
    );
    // One card worth 2 instead of 1: a change of a few games either way, too small to
    // settle in 300.
    let mut stronger = PLAIN.to_vec();
    stronger[0] = ("c1", 2, 1);
    let level = card_mod(&dir, "stronger-c1", &stronger, BY_SCORE);
    let v = settled(&level, &["--games", "300", "--look", "100"]);
    let u = &v["until_settled"];
    assert_eq!(u["settled"], false, "{v}");
    assert_eq!(u["games_played"], 300, "{v}");
    assert_eq!(u["looks"], 3, "{v}");
    // The text says how many games it took, and why it stopped.
    let r = farebox(&[
        "sim",
        &s(&a),
        "--vs",
        &s(&seat_one),
        "--until-settled",
        "--games",
        "1000",
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(
        r.out
            .contains("settled after 200 of at most 1000 games (1 of at most 5 looks"),
        "{}",
        r.out
    );
    assert!(r.out.contains("changed"), "{}", r.out);
    // Without --vs it is a usage error.
    let r = farebox(&["sim", &s(&a), "--until-settled"]);
    assert_eq!(r.code, 2, "{}{}", r.out, r.err);
}

/// A planted over-strong card (power 5 among cards of 1 and 2), removed from the first
/// seat's draws, ranks first in at least 19 of 20 independent seed ranges, and its worth's
/// interval, paired by seed, leaves out 0 as often and is narrower than the unpaired one in
/// every range: the games with and without it share their seeds.
#[test]
fn rank_finds_a_planted_card_in_nineteen_of_twenty_seed_ranges() {
    let dir = scratch("rank-planted");
    let mut cards = PLAIN.to_vec();
    cards[3] = ("planted", 5, 1);
    let folder = card_mod(&dir, "planted", &cards, BY_SCORE);
    let f = s(&folder);
    let games = 150u64;
    let (mut first, mut clear) = (0, 0);
    for range in 0..20u64 {
        let seed = (range * games + 1).to_string();
        let n = games.to_string();
        let v = json_of(&farebox(&[
            "sim",
            &f,
            "--rank",
            "cards",
            "--remove",
            "--games",
            &n,
            "--seed",
            &seed,
            "--json",
            "--threads",
            "2",
        ]));
        let list = v["cards"].as_array().unwrap();
        first += usize::from(list[0]["card"] == "planted");
        let planted = list.iter().find(|c| c["card"] == "planted").unwrap();
        let end = |k: &str, i: usize| planted[k][i].as_f64().unwrap();
        let (lo, hi) = (
            end("worth_paired_interval", 0),
            end("worth_paired_interval", 1),
        );
        clear += usize::from(lo > 0.0);
        let (ulo, uhi) = (end("worth_interval", 0), end("worth_interval", 1));
        assert!(
            hi - lo < uhi - ulo,
            "seed {seed}: the paired interval is not narrower than the unpaired one: {planted}"
        );
        let mean = planted["worth_paired"].as_f64().unwrap();
        assert!(lo <= mean && mean <= hi, "{planted}");
        assert_eq!(planted["paired_games"], games, "{planted}");
    }
    assert!(
        first >= 19,
        "the planted card ranked first in only {first} of 20 ranges"
    );
    assert!(
        clear >= 19,
        "its paired interval left out 0 in only {clear} of 20 ranges"
    );
}
