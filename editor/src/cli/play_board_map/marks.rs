//! The pieces' marks on a map: [`piece_mark`]'s, except that pieces of no seat whose marks
//! would be the same though they differ (the Blue and the Black Racer both "cb") are told
//! apart, so every piece on the map can be found by its mark.

use std::collections::HashMap;

use farebox::content::GameDef;
use farebox::game::PieceView;
use farebox::value::Value;

use crate::cli::play_board::piece_mark;

/// The marks of one map.
pub(super) struct MapMarks<'a> {
    seats: &'a [String],
    /// (kind, color) -> mark, for the pieces whose usual mark another one already has.
    moved: HashMap<(String, String), String>,
    /// Those moved, in order: (their mark, what they are, the usual mark they give up).
    notes: Vec<(String, String, String, String)>,
}

/// The lower-case first letter of a word.
fn first(s: &str) -> String {
    s.chars()
        .next()
        .map_or(String::new(), |c| c.to_lowercase().collect())
}

/// A piece with a color (a seat's or no seat's): its kind and color.
fn colored(p: &PieceView) -> Option<(String, String)> {
    match p.props.get("color") {
        Some(Value::Str(c)) if !c.is_empty() => Some((p.kind.clone(), c.clone())),
        _ => None,
    }
}

impl<'a> MapMarks<'a> {
    /// Marks for `pieces` (already given their kind's color) of a game of `def`. Who keeps the
    /// usual mark does not depend on where the pieces are: the mod's pieces in the order of
    /// its pieces file come first, then pieces coloured on their own in view order. One who
    /// must give it up takes its color's last letter, else its next letter not taken, else a
    /// number ("ck" for the Black Racer beside the Blue Racer's "cb").
    pub(super) fn new(def: &GameDef, pieces: &[PieceView], seats: &'a [String]) -> MapMarks<'a> {
        let mut pairs: Vec<(String, String)> = vec![];
        for d in &def.pieces {
            if let Some(Value::Str(c)) = d.props.get("color")
                && !c.is_empty()
            {
                pairs.push((d.id.clone(), c.clone()));
            }
        }
        for p in pieces {
            if let Some(pair) = colored(p)
                && !pairs.contains(&pair)
            {
                pairs.push(pair);
            }
        }
        // Marks no colored piece may take: the seats' and those of the pieces without color.
        let mut taken: Vec<String> = seats.iter().map(|s| s.to_lowercase()).collect();
        for p in pieces {
            if colored(p).is_none() && p.owner.is_none_or(|o| (o as usize) >= seats.len()) {
                taken.push(first(&p.kind));
            }
        }
        let mut moved = HashMap::new();
        let mut notes = vec![];
        for (kind, color) in pairs {
            let k = first(&kind);
            let usual = format!("{k}{}", first(&color));
            if !taken.contains(&usual) {
                taken.push(usual);
                continue;
            }
            let letters: Vec<String> = color.chars().map(|c| c.to_lowercase().collect()).collect();
            let mut tries: Vec<String> = letters.last().into_iter().cloned().collect();
            tries.extend(letters.iter().skip(1).cloned());
            let mark = tries
                .iter()
                .map(|l| format!("{k}{l}"))
                .chain((2..).map(|n| format!("{k}{n}")))
                .find(|m| !taken.contains(m))
                .unwrap_or(usual.clone());
            taken.push(mark.clone());
            let name = def
                .piece(&kind)
                .and_then(|i| def.pieces.get(i))
                .map_or(kind.clone(), |d| d.name.clone());
            notes.push((mark.clone(), name, color.clone(), usual));
            moved.insert((kind, color), mark);
        }
        MapMarks {
            seats,
            moved,
            notes,
        }
    }

    /// A piece's mark on the map.
    pub(super) fn mark(&self, p: &PieceView) -> String {
        let m = piece_mark(p, self.seats);
        match colored(p).and_then(|pair| self.moved.get(&pair)) {
            // piece_mark's colored mark is two letters, then "+x" when it carries something.
            Some(alt) => format!("{alt}{}", m.chars().skip(2).collect::<String>()),
            None => m,
        }
    }

    /// Legend items for the moved marks of the pieces on the board ("ck  Black Racer (black:
    /// cb is taken)").
    pub(super) fn legend(&self, on_board: &[&PieceView]) -> Vec<String> {
        self.notes
            .iter()
            .filter(|(mark, _, _, _)| on_board.iter().any(|p| self.mark(p) == *mark))
            .map(|(mark, name, color, usual)| format!("{mark}  {name} ({color}: {usual} is taken)"))
            .collect()
    }
}
