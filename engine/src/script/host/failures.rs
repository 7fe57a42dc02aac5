//! How a failed call becomes a [`ScriptError`]: the script and line it happened at, the
//! stack, and a message that says what went wrong in plain words.

use super::*;

impl Host {
    /// An error about what a hook returned (rather than one it raised): it names the script
    /// and the line where the function that produced the value starts.
    pub fn hook_error(&self, name: &str, message: String) -> ScriptError {
        let producer = self.producer.borrow().clone();
        let step = producer.or_else(|| hook_index(name).and_then(|i| self.hooks[i].base.clone()));
        let script = step.as_ref().and_then(|h| self.scripts.get(h.script));
        ScriptError {
            mod_id: script.map_or_else(|| self.def.id.clone(), |s| s.mod_id.clone()),
            file: script.map_or_else(|| self.def.id.clone(), |s| s.display.clone()),
            line: step.and_then(|h| h.func.info().line_defined).unwrap_or(0),
            hook: name.into(),
            message,
            ..ScriptError::default()
        }
    }

    /// An error of code typed into a console: in a script's function it points there, else
    /// at the console's own line.
    pub(super) fn console_error(&self, e: mlua::Error) -> ScriptError {
        let mut se = self.error(e, "console");
        if se.line == 0 {
            se.mod_id = self.def.id.clone();
            se.file = "console".into();
            if let Some(rest) = se.message.strip_prefix("console:")
                && let Some((n, msg)) = rest.split_once(": ")
                && let Ok(line) = n.parse()
            {
                se.line = line;
                se.message = msg.to_string();
            }
        }
        se
    }

    pub(super) fn error(&self, e: mlua::Error, hook: &str) -> ScriptError {
        self.error_in(e, hook, None)
    }

    /// Finds the script and line an error points at.
    pub(super) fn error_in(
        &self,
        e: mlua::Error,
        hook: &str,
        script: Option<usize>,
    ) -> ScriptError {
        let mut full = e.to_string();
        let mut message = innermost(&e);
        if is_memory_error(&e) {
            message = format!("memory limit of {} MiB exceeded", self.limits.memory >> 20);
            // The allocator's refusal carries no line; the interrupt kept the last line it saw
            // running with memory near the limit.
            full = format!("{}{message}", self.stopped.last_line.borrow());
        }
        let mut found: Option<(usize, usize)> = None;
        'outer: for (i, s) in self.scripts.iter().enumerate() {
            let pat = format!("{}:", s.display);
            for (pos, _) in full.match_indices(&pat) {
                let rest = &full[pos + pat.len()..];
                let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
                if let Ok(line) = digits.parse() {
                    found = Some((i, line));
                    break 'outer;
                }
            }
        }
        // Strip the location prefix the VM puts before the message.
        if let Some((i, line)) = found {
            let prefix = format!("{}:{line}: ", self.scripts[i].display);
            if let Some(rest) = message.strip_prefix(&prefix) {
                message = rest.to_string();
            }
        }
        let (idx, line) = found.unwrap_or((script.unwrap_or(0), 0));
        let s = self.scripts.get(idx);
        if let Some(plain) = bad_argument(&e, s.zip(found).and_then(|(s, _)| source_line(s, line)))
        {
            message = plain;
        }
        ScriptError {
            mod_id: s.map_or(self.def.id.clone(), |s| s.mod_id.clone()),
            file: s.map_or(self.def.id.clone(), |s| s.display.clone()),
            line,
            hook: hook.to_string(),
            message: shorten(&returns::plain_message(message.trim())),
            context: Box::new(ErrorContext {
                trace: self.trace_of(&e),
                ..ErrorContext::default()
            }),
        }
    }

    /// The mod's own frames of the Luau stack an error came with, innermost first: from the
    /// traceback the VM adds to a raised error or to a failed `game` call, or, for a limit
    /// reached, the one the interrupt took.
    pub(super) fn trace_of(&self, e: &mlua::Error) -> Vec<String> {
        let mut text = String::new();
        let mut e = e;
        loop {
            match e {
                mlua::Error::CallbackError { traceback, cause } => {
                    if text.is_empty() {
                        text = traceback.clone();
                    }
                    e = cause;
                }
                mlua::Error::RuntimeError(m) => {
                    if text.is_empty() {
                        text = m.clone();
                    }
                    break;
                }
                _ => break,
            }
        }
        let mut frames: Vec<String> = text
            .split_once("stack traceback:")
            .map(|(_, t)| t.lines().filter_map(|l| self.frame(l)).collect())
            .unwrap_or_default();
        if frames.is_empty() {
            frames = self.stopped.trace.borrow().clone();
        }
        frames.truncate(MAX_FRAMES);
        frames
    }

    /// One line of a Luau traceback ("\tfile:12: in function 'name'") as a frame of the
    /// mod's ("file:12 in name"); None for native code and the engine's own wrappers.
    pub(super) fn frame(&self, line: &str) -> Option<String> {
        let line = line.trim();
        let (place, what) = line.split_once(": in ").unwrap_or((line, ""));
        let (file, number) = place.rsplit_once(':')?;
        number.parse::<usize>().ok()?;
        if !self.scripts.iter().any(|s| s.display == file) {
            return None;
        }
        let name = what
            .strip_prefix("function ")
            .map(|n| n.trim_matches('\''))
            .filter(|n| !n.is_empty() && *n != "?");
        Some(match name {
            Some(n) => format!("{place} in {n}"),
            None => place.to_string(),
        })
    }
}
