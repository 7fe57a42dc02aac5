//! Short codes for the spaces of a map: "HL" for Hootwood Lookout, "BW2" for Bramble Way 2,
//! unique on the board, with the spaces of one group sharing a prefix.

use std::collections::HashMap;

/// Splits a space's name into a group name and what tells it from the rest of its group:
/// "Bramble Way 2" is ("Bramble Way", "2", "2"), "Rope Walk, 1st block" is ("Rope Walk", "1",
/// "1st block"), "Anchor Street Rank, stop A" is (.., "A", "stop A"), "Green Depot, side" is
/// (.., "S", "side"). A name with neither a comma nor a number at its end has no group.
fn split_name(name: &str) -> Option<(String, String, String)> {
    if let Some((base, rest)) = name.split_once(", ") {
        let digits: String = rest
            .chars()
            .skip_while(|c| !c.is_ascii_digit())
            .take_while(char::is_ascii_digit)
            .collect();
        let last = rest.split_whitespace().last().unwrap_or("");
        let tag = if !digits.is_empty() {
            digits
        } else if last.chars().count() == 1 && last.chars().all(char::is_uppercase) {
            last.to_string()
        } else {
            rest.chars()
                .find(|c| c.is_alphanumeric())?
                .to_uppercase()
                .collect()
        };
        return Some((base.to_string(), tag, rest.to_string()));
    }
    let (base, n) = name.rsplit_once(' ')?;
    (!n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
        .then(|| (base.to_string(), n.to_string(), n.to_string()))
}

/// The words of a name that make its code: letters and digits, small words left out.
fn code_words(name: &str) -> Vec<String> {
    let words: Vec<String> = name
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| w.starts_with(char::is_alphabetic))
        .map(|w| w.replace('\'', ""))
        .collect();
    let big: Vec<String> = words
        .iter()
        .filter(|w| {
            !["of", "the", "and", "at", "on", "in", "co"].contains(&w.to_lowercase().as_str())
        })
        .cloned()
        .collect();
    if big.is_empty() { words } else { big }
}

/// Ways to abbreviate a name, shortest first: its initials (at most `max`), then with a
/// second letter of the first word, then the first word's first letters.
fn code_choices(name: &str, max: usize) -> Vec<String> {
    let words = code_words(name);
    let initials: String = words
        .iter()
        .filter_map(|w| w.chars().next())
        .flat_map(char::to_uppercase)
        .collect();
    let mut out = vec![];
    let first: Vec<char> = words
        .first()
        .map(|w| w.chars().collect())
        .unwrap_or_default();
    if words.len() == 1 {
        let up: String = first
            .iter()
            .take(max)
            .flat_map(|c| c.to_uppercase())
            .collect();
        out.push(up);
    } else {
        out.push(initials.chars().take(max).collect());
    }
    if first.len() > 1 {
        let rest: String = initials.chars().skip(1).collect();
        let two: String = first[..2].iter().flat_map(|c| c.to_uppercase()).collect();
        out.push(format!("{two}{rest}").chars().take(max + 1).collect());
        let three: String = first
            .iter()
            .take(3)
            .flat_map(|c| c.to_uppercase())
            .collect();
        out.push(three);
    }
    out.retain(|c| !c.is_empty());
    if out.is_empty() {
        out.push("S".into());
    }
    out
}

/// Short, unique codes for the spaces, by space index, and the legend items that explain
/// them, in the order of the spaces. Spaces whose names share a group ("Bramble Way 1", "2",
/// "3") share a code and add what tells them apart ("BW1"); the legend says "BW1-3 Bramble Way
/// 1-3". Each item is (code shown first, the text after it).
pub fn space_codes(shown: &[String]) -> (Vec<String>, Vec<(String, String)>) {
    // Groups of two or more names, by group name.
    let parts: Vec<Option<(String, String, String)>> =
        shown.iter().map(|n| split_name(n)).collect();
    let mut group_size: HashMap<&str, usize> = HashMap::new();
    for (b, _, _) in parts.iter().flatten() {
        *group_size.entry(b.as_str()).or_default() += 1;
    }
    // A name of a group of one is a group all the same when a number tells it ("Anchor
    // Street, 4th block": AS4, like its street's other blocks).
    let grouped = |i: usize| -> Option<&(String, String, String)> {
        parts[i].as_ref().filter(|(b, t, _)| {
            group_size.get(b.as_str()).copied().unwrap_or(0) > 1
                || t.chars().all(|c| c.is_ascii_digit())
        })
    };
    let mut taken: Vec<String> = vec![];
    let mut codes = vec![String::new(); shown.len()];
    let mut prefix_of: HashMap<String, String> = HashMap::new();
    let mut items: Vec<(String, String)> = vec![];
    for i in 0..shown.len() {
        if !codes[i].is_empty() {
            continue;
        }
        if let Some((base, _, _)) = grouped(i) {
            let members: Vec<usize> = (i..shown.len())
                .filter(|&k| grouped(k).is_some_and(|(b, _, _)| b == base))
                .collect();
            let tags: Vec<String> = members
                .iter()
                .filter_map(|&k| grouped(k).map(|(_, t, _)| t.clone()))
                .collect();
            let fits = |p: &str| {
                let mut all: Vec<String> = tags.iter().map(|t| format!("{p}{t}")).collect();
                all.sort();
                all.dedup();
                all.len() == tags.len() && all.iter().all(|c| !taken.contains(c))
            };
            let prefix = code_choices(base, 2)
                .into_iter()
                .find(|p| fits(p))
                .or_else(|| {
                    (2..99)
                        .map(|k| format!("{}{k}_", code_choices(base, 2)[0]))
                        .find(|p| fits(p))
                })
                .unwrap_or_default();
            for (&k, t) in members.iter().zip(&tags) {
                codes[k] = format!("{prefix}{t}");
                taken.push(codes[k].clone());
            }
            prefix_of.insert(base.clone(), prefix.clone());
            let rests: Vec<String> = members
                .iter()
                .filter_map(|&k| grouped(k).map(|(_, _, r)| r.clone()))
                .collect();
            let numbers: Option<Vec<u32>> = tags.iter().map(|t| t.parse().ok()).collect();
            let run = numbers
                .as_ref()
                .is_some_and(|ns| ns.len() > 2 && ns.windows(2).all(|w| w[1] == w[0] + 1));
            let code_list = if run {
                format!("{prefix}{}-{}", tags[0], tags[tags.len() - 1])
            } else {
                format!("{prefix}{}", tags.join(","))
            };
            let plain_numbers = rests.iter().zip(&tags).all(|(r, t)| r == t);
            // Numbered ones ("Rope Walk, 1st block") read well enough by the group's name;
            // lettered ones keep what the letter stands for ("Green Depot, front/side").
            let text = if plain_numbers && run {
                format!("{base} {}-{}", tags[0], tags[tags.len() - 1])
            } else if plain_numbers {
                format!("{base} {}", tags.join(", "))
            } else if numbers.is_some() {
                // "Rope Walk, 1st block" is RW1: the number says which block.
                base.clone()
            } else {
                // "stop A/stop B" reads "stop A/B".
                let firsts: Vec<&str> = rests
                    .iter()
                    .filter_map(|r| r.split_once(' ').map(|(a, _)| a))
                    .collect();
                if firsts.len() == rests.len() && firsts.windows(2).all(|w| w[0] == w[1]) {
                    let tails: Vec<&str> = rests
                        .iter()
                        .filter_map(|r| r.split_once(' ').map(|(_, b)| b))
                        .collect();
                    format!("{base}, {} {}", firsts[0], tails.join("/"))
                } else {
                    format!("{base}, {}", rests.join("/"))
                }
            };
            items.push((code_list, text));
        } else {
            let name = &shown[i];
            let code = code_choices(name, 3)
                .into_iter()
                .find(|c| !taken.contains(c))
                .or_else(|| {
                    let c = code_choices(name, 2)[0].clone();
                    (2..999)
                        .map(|k| format!("{c}{k}"))
                        .find(|x| !taken.contains(x))
                })
                .unwrap_or_default();
            taken.push(code.clone());
            codes[i] = code.clone();
            items.push((code, name.clone()));
        }
    }
    (codes, items)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_split_into_group_and_tag() {
        assert_eq!(
            split_name("Bramble Way 2"),
            Some(("Bramble Way".into(), "2".into(), "2".into()))
        );
        assert_eq!(
            split_name("Rope Walk, 1st block"),
            Some(("Rope Walk".into(), "1".into(), "1st block".into()))
        );
        assert_eq!(
            split_name("Anchor Street Rank, stop A"),
            Some(("Anchor Street Rank".into(), "A".into(), "stop A".into()))
        );
        assert_eq!(
            split_name("Green Depot, side"),
            Some(("Green Depot".into(), "S".into(), "side".into()))
        );
        assert_eq!(split_name("Hootwood Lookout"), None);
    }

    #[test]
    fn codes_are_unique_and_groups_share_a_prefix() {
        let names: Vec<String> = [
            "Hootwood Lookout",
            "Bramble Way 1",
            "Bramble Way 2",
            "Bramble Way 3",
            "Hazelnut Lane",
            "Hill",
            "Rope Walk, 1st block",
            "Rope Walk, 3rd block",
            "Ferry Terminal, Quay Gate",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let (codes, items) = space_codes(&names);
        let mut sorted = codes.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), codes.len(), "{codes:?}");
        assert_eq!(codes[0], "HL");
        assert_eq!(&codes[1..4], ["BW1", "BW2", "BW3"]);
        assert_ne!(codes[4], "HL");
        assert_eq!(codes[6], "RW1");
        assert!(
            items.contains(&("BW1-3".into(), "Bramble Way 1-3".into())),
            "{items:?}"
        );
        assert!(
            items.contains(&("RW1,3".into(), "Rope Walk".into())),
            "{items:?}"
        );
        // A group of one is a plain name.
        assert!(
            items.iter().any(|(_, t)| t == "Ferry Terminal, Quay Gate"),
            "{items:?}"
        );
    }
}
