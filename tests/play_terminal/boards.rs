//! The boards drawn in the terminal: a graph as a map of its spaces, a sections city as
//! streets, a track card by card with its lanes, gates and cars.

use super::*;

/// The last full screen of `out`: from its last heading.
pub(crate) fn last_screen(out: &str) -> &str {
    let at = out.rfind("\n== ").map_or(0, |i| i + 1);
    &out[at..]
}

/// A map board as the last screen of `out` shows it: its map (the `map_lines` lines above
/// the legend of its marks), and the items of the last list of codes printed (after the
/// legend on the whole game, `?`, or alone, `c`), read as a person reads them: items apart
/// by two spaces or more.
fn map_of(out: &str, map_lines: usize) -> (Vec<String>, Vec<(String, String)>) {
    let screen = last_screen(out);
    let lines: Vec<&str> = screen.lines().collect();
    let head = lines
        .iter()
        .position(|l| l.starts_with("Legend: "))
        .unwrap_or_else(|| panic!("no legend in:\n{screen}"));
    let top = head - map_lines;
    let map = lines[top..head].iter().map(|l| l.to_string()).collect();
    let at = out
        .rfind("Spaces, by their codes on the map")
        .unwrap_or_else(|| panic!("no list of codes in:\n{out}"));
    let mut items = vec![];
    for l in out[at..]
        .lines()
        .skip(1)
        .take_while(|l| !l.trim().is_empty() && !l.contains(':') && !l.contains('…'))
    {
        for item in l.split("  ").map(str::trim).filter(|i| !i.is_empty()) {
            let (code, text) = item.split_once(' ').unwrap();
            // A space's tags and properties follow its name after a dash.
            let name = text.split(" — ").next().unwrap();
            items.push((code.to_string(), name.to_string()));
        }
    }
    (map, items)
}

/// The codes a legend item stands for: "BW1-3" is BW1, BW2, BW3; "ODF,S" is ODF, ODS; "HL"
/// is HL. With the prefix they share ("BW", "OD", "HL").
fn expand(codes: &str) -> (String, Vec<String>) {
    if let Some((a, b)) = codes.split_once('-') {
        let digits = a.find(|c: char| c.is_ascii_digit()).unwrap();
        let (prefix, from) = a.split_at(digits);
        let (from, to): (u32, u32) = (from.parse().unwrap(), b.parse().unwrap());
        return (
            prefix.to_string(),
            (from..=to).map(|n| format!("{prefix}{n}")).collect(),
        );
    }
    let parts: Vec<&str> = codes.split(',').collect();
    if parts.len() == 1 {
        return (codes.to_string(), vec![codes.to_string()]);
    }
    let tag = parts[1].chars().count();
    let cut = parts[0].chars().count() - tag;
    let prefix: String = parts[0].chars().take(cut).collect();
    let mut all = vec![parts[0].to_string()];
    all.extend(parts[1..].iter().map(|t| format!("{prefix}{t}")));
    (prefix, all)
}

/// The code a person finds for the space named `name` by the legend, if they find one: the
/// item with that very name, or the item of its group ("Bramble Way 1-3" for "Bramble Way 2",
/// "Orange Depot, front/side" for "Orange Depot, front") with what tells the space apart (the
/// number in its name, a last capital letter, or the first letter of what follows the comma).
fn code_for(name: &str, items: &[(String, String)]) -> Option<String> {
    if let Some((c, _)) = items.iter().find(|(_, t)| t == name) {
        return Some(c.clone());
    }
    items.iter().find_map(|(codes, text)| {
        let bare = text.trim_end_matches(|c: char| c.is_ascii_digit() || ", -".contains(c));
        let base = bare.split(", ").next().unwrap();
        let rest = name.strip_prefix(base)?;
        let rest = rest.strip_prefix(", ").or_else(|| rest.strip_prefix(' '))?;
        let digits: String = rest
            .chars()
            .skip_while(|c| !c.is_ascii_digit())
            .take_while(|c| c.is_ascii_digit())
            .collect();
        let last = rest.split_whitespace().last().unwrap_or("");
        let tag = if !digits.is_empty() {
            digits
        } else if last.len() == 1 && last.chars().all(char::is_uppercase) {
            last.to_string()
        } else {
            rest.chars().next()?.to_uppercase().collect()
        };
        let (prefix, all) = expand(codes);
        let code = format!("{prefix}{tag}");
        all.contains(&code).then_some(code)
    })
}

/// Whether `code` is written on the map as a word of its own (pieces may follow in brackets).
fn on_map(map: &[String], code: &str) -> bool {
    map.iter().any(|l| {
        l.match_indices(code).any(|(i, _)| {
            let before = l[..i].chars().last();
            let after = l[i + code.len()..].chars().next();
            !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
        })
    })
}

/// The spaces the last menu's choices lead to: "  4. to Fernway 2 (5 spaces …)" is Fernway 2,
/// "  1. Hootwood Lookout (forest): …" is Hootwood Lookout, "  5. to Rope Walk, 1st block in
/// Harbor (…)" is Rope Walk, 1st block.
fn menu_places(out: &str) -> Vec<String> {
    // The last menu shown.
    let at = ["choices):\n", "Choices:\n"]
        .iter()
        .filter_map(|h| out.rfind(h).map(|i| i + h.len()))
        .max()
        .unwrap_or(0);
    out[at..]
        .lines()
        .take_while(|l| l.starts_with(' '))
        .filter_map(|l| {
            let l = l.trim_start();
            let (n, rest) = l.split_once(". ")?;
            n.parse::<u32>().ok().filter(|&n| n > 0)?;
            let rest = rest
                .strip_prefix("to ")
                .or_else(|| rest.strip_prefix("at "))
                .unwrap_or(rest);
            let end = [" in ", " (", ":", ";"]
                .iter()
                .filter_map(|s| rest.find(s))
                .min()
                .unwrap_or(rest.len());
            Some(rest[..end].to_string())
        })
        .collect()
}

#[test]
fn a_graph_board_is_drawn_as_a_map_of_its_spaces_within_the_width() {
    // Critter Cab: the start menu (the taxi stands), then the stand chosen and a drive menu.
    for input in ["?\nq\n", "3\n2 3\n?\nq\n"] {
        let r = farebox_with_input(
            &[
                "play",
                "critter-cab",
                "--seats",
                "human,cabbie",
                "--seed",
                "3",
            ],
            input,
        );
        assert_eq!(r.code, 0, "{}{}", r.out, r.err);
        let screen = last_screen(&r.out);
        let (map, items) = map_of(&r.out, 19);
        for l in map
            .iter()
            .map(String::as_str)
            .chain(screen.lines().filter(|l| l.starts_with("Legend")))
        {
            assert!(l.chars().count() <= 100, "wider than the terminal: {l}");
        }
        // Roads, the river's lanes and the flight paths are drawn.
        let all = map.concat();
        assert!(
            all.contains('─') && all.contains('≈') && all.contains('·'),
            "{screen}"
        );
        // A space's tags and properties are told after its name in the list of codes.
        assert!(
            r.out
                .contains("Hootwood Lookout — stand, perch; region forest"),
            "{}",
            r.out
        );
        // Every space a choice names is on the map under the code the legend gives it.
        let places = menu_places(&r.out);
        assert!(places.len() >= 8, "{screen}");
        for p in places {
            let code =
                code_for(&p, &items).unwrap_or_else(|| panic!("{p} not in the legend:\n{screen}"));
            assert!(
                on_map(&map, &code),
                "{p} ({code}) not on the map:\n{screen}"
            );
        }
    }
    // The cab stands where the view puts it: its mark after its space's code.
    let r = farebox_with_input(
        &[
            "play",
            "critter-cab",
            "--seats",
            "human,cabbie",
            "--seed",
            "3",
        ],
        "3\n?\nq\n",
    );
    let screen = last_screen(&r.out);
    let (map, items) = map_of(&r.out, 19);
    assert!(
        screen.contains("  Cab figure of Fox at Acorn Square"),
        "{screen}"
    );
    let code = code_for("Acorn Square", &items).unwrap();
    assert!(map.concat().contains(&format!("{code}[F")), "{screen}");
    // Only Fox's cab is on the board.
    assert_eq!(map.concat().matches('[').count(), 1, "{screen}");
}

#[test]
fn a_sections_city_is_drawn_as_streets_with_its_spaces_and_pieces() {
    // Taxi Derby: the start menu, then a drive menu once the taxi stands at its depot.
    for input in ["?\nq\n", "1\n1\n?\nq\n"] {
        let r = farebox_with_input(
            &[
                "play",
                "taxi-derby",
                "--seats",
                "human,fare-planner",
                "--seed",
                "5",
            ],
            input,
        );
        assert_eq!(r.code, 0, "{}{}", r.out, r.err);
        let screen = last_screen(&r.out);
        let (map, items) = map_of(&r.out, 17);
        for l in &map {
            assert!(l.chars().count() <= 100, "wider than the terminal: {l}");
        }
        // Streets cross at intersections; each section is named.
        assert!(map.concat().contains('┼'), "{screen}");
        for name in ["HARBOR", "MIDTOWN", "HILLSIDE", "OLD QUARTER"] {
            assert!(map.concat().contains(name), "{name} missing:\n{screen}");
        }
        let places = menu_places(&r.out);
        assert!(!places.is_empty(), "{screen}");
        for p in places {
            let code =
                code_for(&p, &items).unwrap_or_else(|| panic!("{p} not in the legend:\n{screen}"));
            assert!(
                on_map(&map, &code),
                "{p} ({code}) not on the map:\n{screen}"
            );
        }
        // The pieces stand where the view puts them: Green's taxi (G) and the patrol car (p).
        for l in screen
            .lines()
            .filter(|l| l.starts_with("  Taxi of Green at ") || l.starts_with("  Patrol Car at "))
        {
            let (who, at) = l.trim_start().split_once(" at ").unwrap();
            let place = at.split(" in ").next().unwrap();
            let code = code_for(place, &items).unwrap();
            let mark = if who.starts_with("Taxi") { "G" } else { "p" };
            assert!(
                map.iter()
                    .any(|m| m.contains(&format!("{code}[")) && m.contains(mark)),
                "{who} not at {code}:\n{screen}"
            );
        }
    }
}

#[test]
fn a_track_is_drawn_card_by_card_with_lanes_gates_and_cars() {
    // Dicey Curves: the line-up menu, then after Red lines up a car in the left lane's back row.
    let r = farebox_with_input(
        &[
            "play",
            "dicey-curves",
            "--seats",
            "human,racer",
            "--seed",
            "3",
        ],
        "1\n?\nq\n",
    );
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let screen = last_screen(&r.out);
    let lines: Vec<&str> = screen.lines().collect();
    let top = lines
        .iter()
        .position(|l| l.starts_with("1 start"))
        .unwrap_or_else(|| panic!("{screen}"));
    let end = lines.iter().position(|l| l.starts_with("Pieces:")).unwrap();
    let board = &lines[top..end];
    for l in board {
        assert!(l.chars().count() <= 100, "wider than the terminal: {l}");
    }
    // Every laid card is headed by its number and named by it in the legend.
    let cards = screen
        .lines()
        .find(|l| l.starts_with("  The Track: "))
        .unwrap();
    let laid = cards
        .split("; ")
        .map(|c| c.split(" ×").nth(1).map_or(1, |n| n.parse().unwrap()))
        .sum::<usize>();
    assert!(laid >= 2, "{screen}");
    let legend = board.join("\n");
    for n in 1..=laid {
        assert!(
            board
                .iter()
                .any(|l| l.starts_with(&format!("{n} ")) || l.contains(&format!(" {n} "))),
            "card {n} not headed:\n{legend}"
        );
    }
    assert!(legend.contains("Cards: 1 Starting Grid, 2 "), "{legend}");
    // Gates show their dice on the exit edge.
    assert!(legend.contains("gate on the exit"), "{legend}");
    // The car Red lined up, at the back of the left lane of card 1, named with its driver:
    // the first cell of the card's L line holds the red car's mark.
    assert!(
        screen.contains(
            "  Red Racer of Red at Starting Grid (card 1), left lane, 3rd row from the front"
        ),
        "{screen}"
    );
    let left = board.iter().find(|l| l.starts_with("L ")).unwrap();
    assert!(left.starts_with("L cr "), "{left}\n{legend}");
    // What the line-up menu names (card 1, its lanes) is on the strip.
    assert!(
        board.iter().any(|l| l.starts_with("M ")) && board.iter().any(|l| l.starts_with("R ")),
        "{legend}"
    );
}
