//! The files a mod load has read, in order: diagnostics point into them by index, and their
//! hash names the exact content a game ran on.

use crate::diag::{Diagnostic, SourceText};

/// How long a diagnostic message may be; longer ones (a huge key echoed back) are cut.
pub const MAX_MESSAGE_CHARS: usize = 300;

/// `text` cut to at most `max` characters, with `…` where it was cut.
pub fn cut(text: &str, max: usize) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(max) {
        None => std::borrow::Cow::Borrowed(text),
        Some((i, _)) => std::borrow::Cow::Owned(format!("{}… ({} bytes)", &text[..i], text.len())),
    }
}

/// All files read so far; items point into it by index for their diagnostics.
#[derive(Default)]
pub struct Files {
    pub files: Vec<SourceText>,
    pub(crate) hasher: blake3::Hasher,
}

impl Files {
    pub fn error(
        &self,
        file: usize,
        span: std::ops::Range<usize>,
        msg: impl Into<String>,
    ) -> Diagnostic {
        let msg = msg.into();
        let msg = match cut(&msg, MAX_MESSAGE_CHARS) {
            std::borrow::Cow::Borrowed(_) => msg,
            std::borrow::Cow::Owned(c) => c,
        };
        match self.files.get(file) {
            Some(f) => f.error(span, msg),
            None => Diagnostic {
                path: String::new(),
                line: 0,
                col: 0,
                message: msg,
            },
        }
    }
    pub fn hash(&self) -> String {
        self.hasher.finalize().to_hex()[..16].to_string()
    }
}
