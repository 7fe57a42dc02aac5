//! Diagnostics: problems found in a mod, each with a file, line and column.
//!
//! Loading never stops at the first problem. Every stage pushes [`Diagnostic`]s into a
//! [`Diagnostics`] list and goes on where it can, so a person sees everything wrong at once,
//! printed as `path:line:col: error: message` (the format compilers use, which editors and
//! terminals turn into links).

use std::fmt;

/// One problem in a mod's files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Path as shown to people: the mod folder as given, joined with the file.
    pub path: String,
    /// 1-based line and column; 0 when the problem has no position (a missing file).
    pub line: usize,
    pub col: usize,
    pub message: String,
}

impl Diagnostic {
    /// `path:line` (or just the path), for messages that point at a second place.
    pub fn place(&self) -> String {
        if self.line == 0 {
            self.path.clone()
        } else {
            format!("{}:{}", self.path, self.line)
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: error: {}", self.path, self.message)
        } else {
            write!(
                f,
                "{}:{}:{}: error: {}",
                self.path, self.line, self.col, self.message
            )
        }
    }
}

/// A list of problems, in the order they were found.
#[derive(Debug, Default, Clone)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    pub fn push(&mut self, d: Diagnostic) {
        self.0.push(d);
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn iter(&self) -> impl Iterator<Item = &Diagnostic> {
        self.0.iter()
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in &self.0 {
            writeln!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

/// A file's text with a table of line starts, to turn byte offsets into line and column.
pub struct SourceText {
    pub path: String,
    pub text: String,
    line_starts: Vec<usize>,
}

impl SourceText {
    pub fn new(path: impl Into<String>, text: impl Into<String>) -> Self {
        let text = text.into();
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        SourceText {
            path: path.into(),
            text,
            line_starts,
        }
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self.line_starts.partition_point(|&s| s <= offset);
        let start = self
            .line_starts
            .get(line.saturating_sub(1))
            .copied()
            .unwrap_or(0);
        let col = self
            .text
            .get(start..offset)
            .map_or(0, |s| s.chars().count())
            + 1;
        (line, col)
    }

    /// A diagnostic at a byte range of this file.
    pub fn error(&self, span: std::ops::Range<usize>, message: impl Into<String>) -> Diagnostic {
        let (line, col) = self.line_col(span.start);
        Diagnostic {
            path: self.path.clone(),
            line,
            col,
            message: message.into(),
        }
    }
}

/// "did you mean" help: the closest candidate, if it is close enough to be a likely typo.
pub fn did_you_mean<'c>(
    wrong: &str,
    candidates: impl IntoIterator<Item = &'c str>,
) -> Option<&'c str> {
    // A typo of an id is short, and a mod's ids of one kind are few: anything past these
    // bounds gets no suggestion, so a hostile file of many long misses costs little.
    const LONGEST: usize = 64;
    const MOST: usize = 2_000;
    if wrong.len() > LONGEST {
        return None;
    }
    let mut best: Option<(&str, f64)> = None;
    for c in candidates.into_iter().take(MOST) {
        if c.len() > LONGEST {
            continue;
        }
        let score = strsim::jaro_winkler(wrong, c);
        if score > 0.8 && best.is_none_or(|(_, s)| score > s) {
            best = Some((c, score));
        }
    }
    best.map(|(c, _)| c)
}

/// " (did you mean `x`?)" or "".
pub fn suggestion<'c>(wrong: &str, candidates: impl IntoIterator<Item = &'c str>) -> String {
    match did_you_mean(wrong, candidates) {
        Some(c) => format!("; did you mean `{c}`?"),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column_count_characters() {
        let src = SourceText::new("a.toml", "x = 1\ny = \"é\"\nz");
        assert_eq!(src.line_col(0), (1, 1));
        assert_eq!(src.line_col(6), (2, 1));
        assert_eq!(src.line_col(src.text.len() - 1), (3, 1));
        let d = src.error(10..11, "bad");
        assert_eq!(d.to_string(), "a.toml:2:5: error: bad");
    }

    #[test]
    fn suggestions_find_typos_only() {
        assert_eq!(
            did_you_mean("coutn", ["count", "name", "id"]),
            Some("count")
        );
        assert_eq!(did_you_mean("zebra", ["count", "name"]), None);
    }
}
