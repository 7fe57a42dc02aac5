//! What an action string may be. Actions are invented by a mod's `actions` hook, written into
//! replays and shown to people (as they are, where `describe` gives no label), so every
//! action the hook offers must be one a replay file can hold: the same rules are checked
//! where the hook offers an action ([`crate::script::Host::call_actions`]) and where a
//! replay is read ([`crate::replay::Replay::check`]), so every game that can be played can
//! be replayed.

/// The words of an action that may name something: an action names an id (a card, a tile,
/// a piece, a space, an option value, a grid cell `x,y`) when one of its words, split at
/// ASCII whitespace, equals it. The figures count what each seat played by it, restricted
/// play forbids by it ([`crate::agent::Forbid`]), and the Studio puts an action on the board
/// at every space and card it names by it ([`crate::game::Offer`]).
pub fn names(action: &str) -> std::str::SplitAsciiWhitespace<'_> {
    action.split_ascii_whitespace()
}

/// Whether `action` names `id` (one of its [`names`] is `id`).
pub fn names_id(action: &str, id: &str) -> bool {
    names(action).any(|w| w == id)
}

/// The longest action, in bytes.
pub const MAX_BYTES: usize = 1_000;

/// Why `action` cannot be an action, if it cannot: it is empty, longer than [`MAX_BYTES`], or
/// holds a control character (a line break, a tab, an escape), which would break the one
/// line an action takes in a menu, a transcript or a terminal.
pub fn problem(action: &str) -> Option<String> {
    if action.is_empty() {
        return Some("is empty; an action needs at least one character".into());
    }
    if action.len() > MAX_BYTES {
        return Some(format!(
            "is {} bytes long; an action has at most {MAX_BYTES} bytes",
            action.len()
        ));
    }
    if !may_hold_control(action.as_bytes()) {
        return None;
    }
    if let Some(c) = action.chars().find(|c| c.is_control()) {
        let name = match c {
            '\n' | '\r' => "a line break".to_string(),
            '\t' => "a tab".to_string(),
            c => format!("the control character U+{:04X}", c as u32),
        };
        return Some(format!(
            "holds {name}; an action is one line of printable text"
        ));
    }
    None
}

/// Whether `bytes` may hold a control character: a byte below 0x20, 0x7f, or 0xc2 (which
/// starts U+0080 to U+009F, and a few printable characters). Never false when one is there.
/// Every action offered passes here: one pass with no branch on what it finds, so the length
/// of an action is all the processor has to predict.
fn may_hold_control(bytes: &[u8]) -> bool {
    let mut seen = 0u8;
    for &b in bytes {
        seen |= u8::from(b < 0x20) | u8::from(b == 0x7f) | u8::from(b == 0xc2);
    }
    seen != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_action_names_its_whole_words() {
        assert_eq!(
            names("play  cs-t6 0 1,2").collect::<Vec<_>>(),
            ["play", "cs-t6", "0", "1,2"]
        );
        assert!(names_id("play cs-t6 0 1,2", "cs-t6"));
        assert!(names_id("play cs-t6 0 1,2", "1,2"));
        assert!(!names_id("play cs-t66 0 1,2", "cs-t6"));
        assert!(!names_id("play cs-t6 0 1,2", "cs"));
    }

    #[test]
    fn actions_are_one_short_line_of_text() {
        assert_eq!(problem("move N 2"), None);
        assert_eq!(problem("Pflücke 🌼"), None);
        assert!(problem("").is_some_and(|p| p.contains("empty")));
        assert!(problem(&"x".repeat(1001)).is_some_and(|p| p.contains("1001 bytes")));
        assert_eq!(problem(&"x".repeat(1000)), None);
        assert!(problem("a\nb").is_some_and(|p| p.contains("line break")));
        assert!(problem("a\tb").is_some_and(|p| p.contains("tab")));
        assert!(problem("a\u{1b}[2J").is_some_and(|p| p.contains("U+001B")));
        assert!(problem("a\u{85}").is_some_and(|p| p.contains("U+0085")));
    }

    #[test]
    fn the_quick_look_misses_no_control_character() {
        for len in 0..20 {
            for at in 0..len {
                for c in ['\0', '\n', '\u{1f}', '\u{7f}', '\u{80}', '\u{9f}'] {
                    let mut s: Vec<char> = "é abcdefghijklmnopqrstu".chars().take(len).collect();
                    s[at] = c;
                    let s: String = s.into_iter().collect();
                    assert!(may_hold_control(s.as_bytes()), "{s:?}");
                    assert!(problem(&s).is_some(), "{s:?}");
                }
            }
            let plain: String = "a bcdefghijklmnopqrstu~".chars().take(len).collect();
            assert!(!may_hold_control(plain.as_bytes()), "{plain:?}");
            let accented: String = "é abcdefghijklmnopqrstu~".chars().take(len + 1).collect();
            assert!(problem(&accented).is_none(), "{accented:?}");
        }
    }
}
