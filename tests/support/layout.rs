//! Checks of the code's layout that CI runs as tests (tests/content/layout.rs): no two modules of a
//! crate use each other (directly or round a longer circle), no product function runs past
//! [`LONG_FN`] lines unless a comment above it says why it is one piece, and every path and
//! item ARCHITECTURE.md names exists.
//!
//! The source is read with a small lexer, not a Rust parser: comments, strings and character
//! literals are blanked out (keeping lines), `#[cfg(test)]` modules are dropped, and what is
//! left is searched for `crate::`, `super::` and `self::` paths (and `use` trees, braces and
//! all). That is enough for code formatted by rustfmt, which is all the project has.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A function longer than this many lines needs a comment saying why it is one piece.
pub const LONG_FN: usize = 150;

/// What a function's comment must say for it to run past [`LONG_FN`] lines: the words "one
/// piece", followed by the reason.
pub const ONE_PIECE: &str = "one piece";

/// One source file of a crate: its module path and its text with comments, strings and test
/// modules blanked out (lines kept).
#[derive(Debug, Clone)]
pub struct SourceFile {
    pub path: PathBuf,
    pub module: Vec<String>,
    pub text: String,
    pub code: String,
}

/// The product source files of the crate whose `src` folder is `src` (test modules left out:
/// files declared with `#[cfg(test)] mod x;`, and anything under a `tests` folder).
pub fn crate_files(src: &Path) -> Vec<SourceFile> {
    let mut files = Vec::new();
    let mut skip = BTreeSet::new();
    let mut paths = Vec::new();
    walk(src, &mut paths);
    paths.sort();
    let mut read = Vec::new();
    for p in paths {
        let Ok(text) = std::fs::read_to_string(&p) else {
            continue;
        };
        let rel = p.strip_prefix(src).unwrap_or(&p).to_path_buf();
        let module = module_of(&rel);
        let code = drop_test_modules(&blank(&text));
        for name in test_module_decls(&blank(&text)) {
            let mut m = module.clone();
            m.push(name);
            skip.insert(m);
        }
        read.push(SourceFile {
            path: p,
            module,
            text,
            code,
        });
    }
    for f in read {
        let in_tests = f.path.components().any(|c| c.as_os_str() == "tests");
        let skipped = skip.iter().any(|s| f.module.starts_with(s));
        if !in_tests && !skipped && f.path.file_name().is_some_and(|n| n != "main.rs") {
            files.push(f);
        }
    }
    files
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// `a/b.rs` and `a/b/mod.rs` are module `a::b`; `lib.rs` is the crate's root.
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if let Some(last) = parts.pop() {
        let stem = last.trim_end_matches(".rs");
        if stem != "mod" && stem != "lib" {
            parts.push(stem.to_string());
        }
    }
    parts
}

/// The text with every comment, string and character literal replaced by spaces (newlines
/// kept), so that what is left is code and line numbers still match.
pub fn blank(text: &str) -> String {
    let b: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let keep = |c: char| if c == '\n' { '\n' } else { ' ' };
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(keep(b[i]));
                    i += 1;
                }
            }
        } else if c == 'r'
            && (next == Some('"') || next == Some('#'))
            && !b
                .get(i.wrapping_sub(1))
                .is_some_and(|p| p.is_alphanumeric() || *p == '_')
            && raw_string_len(&b[i + 1..]).is_some()
        {
            let n = raw_string_len(&b[i + 1..]).unwrap_or(0) + 1;
            for k in 0..n {
                out.push(keep(b[i + k]));
            }
            i += n;
        } else if c == '"' {
            out.push(' ');
            i += 1;
            while i < b.len() && b[i] != '"' {
                if b[i] == '\\' {
                    out.push(keep(b[i]));
                    i += 1;
                }
                if i < b.len() {
                    out.push(keep(b[i]));
                    i += 1;
                }
            }
            out.push(' ');
            i += 1;
        } else if c == '\'' {
            // A character literal ('a', '\n', '\u{1F600}') or a lifetime ('a, 'static).
            let len = char_literal_len(&b[i..]);
            if len > 0 {
                for k in 0..len {
                    out.push(keep(b[i + k]));
                }
                i += len;
            } else {
                out.push(c);
                i += 1;
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// The length after the `r` of a raw string starting `#*"`, if it is one.
fn raw_string_len(b: &[char]) -> Option<usize> {
    let hashes = b.iter().take_while(|c| **c == '#').count();
    if b.get(hashes) != Some(&'"') {
        return None;
    }
    let mut i = hashes + 1;
    while i < b.len() {
        if b[i] == '"'
            && b[i + 1..]
                .iter()
                .take(hashes)
                .filter(|c| **c == '#')
                .count()
                == hashes
        {
            return Some(i + 1 + hashes);
        }
        i += 1;
    }
    Some(b.len())
}

/// The length of the character literal at the start of `b`, or 0 for a lifetime.
fn char_literal_len(b: &[char]) -> usize {
    if b.get(1) == Some(&'\\') {
        let mut i = 2;
        while i < b.len() && i < 14 {
            if b[i] == '\'' {
                return i + 1;
            }
            i += 1;
        }
        0
    } else if b.get(2) == Some(&'\'') {
        3
    } else {
        0
    }
}

/// Names of the modules declared `#[cfg(test)] mod name;` (in files of their own).
fn test_module_decls(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        let after = rest[at + 12..].trim_start();
        if let Some(decl) = after.strip_prefix("mod ") {
            let name: String = decl
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if decl[name.len()..].trim_start().starts_with(';') {
                out.push(name);
            }
        }
        rest = &rest[at + 12..];
    }
    out
}

/// The code with every `#[cfg(test)]` item written inline (a `mod tests { ... }`, a test-only
/// function) blanked out.
fn drop_test_modules(code: &str) -> String {
    let mut out: Vec<char> = code.chars().collect();
    let marker: Vec<char> = "#[cfg(test)]".chars().collect();
    let mut i = 0;
    while i + marker.len() <= out.len() {
        if out[i..i + marker.len()] != marker[..] {
            i += 1;
            continue;
        }
        // The item runs to its matching closing brace, or to a `;` before any brace.
        let mut j = i + marker.len();
        while j < out.len() && out[j] != '{' && out[j] != ';' {
            j += 1;
        }
        if j < out.len() && out[j] == '{' {
            let mut depth = 0;
            while j < out.len() {
                match out[j] {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
        }
        for c in out.iter_mut().take((j + 1).min(code.len())).skip(i) {
            if *c != '\n' {
                *c = ' ';
            }
        }
        i = j + 1;
    }
    out.into_iter().collect()
}

/// Every path the code names that starts at `crate`, `super` or `self`, as written (`use`
/// trees expanded: `use crate::{a::b, c}` gives `crate::a::b` and `crate::c`).
pub fn paths_named(code: &str) -> Vec<Vec<String>> {
    let toks = tokens(code);
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if toks[i] == "use" {
            let end = toks[i..]
                .iter()
                .position(|t| t == ";")
                .map_or(toks.len(), |p| i + p);
            expand_use(&toks[i + 1..end], &[], &mut out);
            i = end + 1;
            continue;
        }
        let t = toks[i].as_str();
        let starts = (t == "crate" || t == "super" || t == "self")
            && toks.get(i + 1).is_some_and(|n| n == "::")
            && !(i > 0 && toks[i - 1] == "::");
        if starts {
            let mut path = vec![t.to_string()];
            let mut j = i + 1;
            while toks.get(j).is_some_and(|n| n == "::")
                && toks.get(j + 1).is_some_and(|n| is_ident(n))
            {
                path.push(toks[j + 1].clone());
                j += 2;
            }
            out.push(path);
            i = j;
            continue;
        }
        i += 1;
    }
    out
}

fn is_ident(t: &str) -> bool {
    t.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
}

/// Identifiers, `::` and single punctuation characters.
fn tokens(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let b: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < b.len() && (b[i].is_alphanumeric() || b[i] == '_') {
                i += 1;
            }
            out.push(b[start..i].iter().collect());
        } else if c == ':' && b.get(i + 1) == Some(&':') {
            out.push("::".into());
            i += 2;
        } else if c.is_whitespace() {
            i += 1;
        } else {
            out.push(c.to_string());
            i += 1;
        }
    }
    out
}

/// Expands one `use` tree (its tokens, without `use` and `;`) into full paths.
fn expand_use(toks: &[String], prefix: &[String], out: &mut Vec<Vec<String>>) {
    // Split at top-level commas only when inside braces; here the tree is one item.
    let mut i = 0;
    let mut path = prefix.to_vec();
    while i < toks.len() {
        let t = toks[i].as_str();
        match t {
            "{" => {
                // Find the matching brace, then expand each comma-separated part.
                let mut depth = 0;
                let mut j = i;
                let mut parts = Vec::new();
                let mut start = i + 1;
                while j < toks.len() {
                    match toks[j].as_str() {
                        "{" => depth += 1,
                        "}" => {
                            depth -= 1;
                            if depth == 0 {
                                parts.push(&toks[start..j]);
                                break;
                            }
                        }
                        "," if depth == 1 => {
                            parts.push(&toks[start..j]);
                            start = j + 1;
                        }
                        _ => {}
                    }
                    j += 1;
                }
                for p in parts {
                    expand_use(p, &path, out);
                }
                return;
            }
            "::" => {}
            "as" | "*" => break,
            "pub" | "(" | ")" | "in" => {}
            _ if is_ident(t) => path.push(t.to_string()),
            _ => break,
        }
        i += 1;
    }
    if path.len() > prefix.len() || !path.is_empty() {
        out.push(path);
    }
}

/// The module a path names, resolved from `from` (the longest prefix of it that is one of
/// `modules`), or `None` for a path outside the crate.
pub fn resolve(
    from: &[String],
    path: &[String],
    modules: &BTreeSet<Vec<String>>,
) -> Option<Vec<String>> {
    let mut abs: Vec<String> = Vec::new();
    let mut rest = path;
    match path.first().map(String::as_str) {
        Some("crate") => rest = &path[1..],
        Some("self") => {
            abs = from.to_vec();
            rest = &path[1..];
        }
        Some("super") => {
            abs = from.to_vec();
            while rest.first().is_some_and(|s| s == "super") {
                abs.pop();
                rest = &rest[1..];
            }
        }
        _ => return None,
    }
    let mut best = abs.clone();
    for seg in rest {
        abs.push(seg.clone());
        if modules.contains(&abs) {
            best = abs.clone();
        } else {
            break;
        }
    }
    Some(best)
}

/// One use of a module by another: which file, and the path it wrote.
#[derive(Debug, Clone)]
pub struct Use {
    pub file: PathBuf,
    pub path: String,
}

/// The circles among the modules of one crate: at every level of the module tree, the
/// children of one module that use each other round a circle (each circle listed with the
/// uses that close it). A module using its own parent's or child's items is not a circle (a
/// parent whose children add methods to its type is the one pattern allowed).
pub fn circles(files: &[SourceFile]) -> Vec<String> {
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| f.module.clone()).collect();
    // Every module has its ancestors as modules too (a folder with no mod.rs has none).
    let mut all = modules.clone();
    for m in &modules {
        for k in 0..m.len() {
            all.insert(m[..k].to_vec());
        }
    }
    let mut edges: BTreeMap<(Vec<String>, Vec<String>), Vec<Use>> = BTreeMap::new();
    for f in files {
        for p in paths_named(&f.code) {
            if let Some(to) = resolve(&f.module, &p, &all)
                && to != f.module
            {
                edges.entry((f.module.clone(), to)).or_default().push(Use {
                    file: f.path.clone(),
                    path: p.join("::"),
                });
            }
        }
    }
    let mut found = Vec::new();
    for level in &all {
        // Children of `level`, and the uses between two different ones of them.
        let child = |m: &Vec<String>| -> Option<String> {
            (m.len() > level.len() && m.starts_with(level)).then(|| m[level.len()].clone())
        };
        let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (a, b) in edges.keys() {
            if let (Some(ca), Some(cb)) = (child(a), child(b))
                && ca != cb
            {
                graph.entry(ca).or_default().insert(cb);
            }
        }
        for scc in strongly_connected(&graph) {
            if scc.len() < 2 {
                continue;
            }
            let name = |c: &str| {
                let mut m = level.clone();
                m.push(c.to_string());
                m.join("::")
            };
            let mut lines = vec![format!(
                "these modules use each other round a circle: {}",
                scc.iter().map(|c| name(c)).collect::<Vec<_>>().join(", ")
            )];
            for ((a, b), uses) in &edges {
                if let (Some(ca), Some(cb)) = (child(a), child(b))
                    && ca != cb
                    && scc.contains(&ca)
                    && scc.contains(&cb)
                {
                    let u = &uses[0];
                    lines.push(format!(
                        "  {} uses {} ({} names `{}`{})",
                        name(&ca),
                        name(&cb),
                        u.file.display(),
                        u.path,
                        if uses.len() > 1 {
                            format!(" and {} more", uses.len() - 1)
                        } else {
                            String::new()
                        }
                    ));
                }
            }
            found.push(lines.join("\n"));
        }
    }
    found
}

/// Tarjan's strongly connected components of a small graph.
fn strongly_connected(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<BTreeSet<String>> {
    struct State<'a> {
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        out: Vec<BTreeSet<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on.insert(v);
        if let Some(next) = s.graph.get(v) {
            for w in next {
                let w = w.as_str();
                if !s.index.contains_key(w) {
                    visit(s, w);
                    let lw = s.low[w];
                    let lv = s.low[v];
                    s.low.insert(v, lv.min(lw));
                } else if s.on.contains(w) {
                    let iw = s.index[w];
                    let lv = s.low[v];
                    s.low.insert(v, lv.min(iw));
                }
            }
        }
        if s.low[v] == s.index[v] {
            let mut comp = BTreeSet::new();
            while let Some(w) = s.stack.pop() {
                s.on.remove(w);
                comp.insert(w.to_string());
                if w == v {
                    break;
                }
            }
            s.out.push(comp);
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    let nodes: BTreeSet<&str> = graph
        .iter()
        .flat_map(|(k, v)| std::iter::once(k.as_str()).chain(v.iter().map(String::as_str)))
        .collect();
    for v in nodes {
        if !s.index.contains_key(v) {
            visit(&mut s, v);
        }
    }
    s.out
}

/// A function of the product code: where it starts and how many lines it runs.
#[derive(Debug, Clone)]
pub struct Function {
    pub file: PathBuf,
    pub name: String,
    pub line: usize,
    pub lines: usize,
    /// Whether the comment lines just above it (doc comments, `//` comments, attributes
    /// between) say it is [`ONE_PIECE`].
    pub one_piece: bool,
}

/// Every function with a body in a file (nested ones too), with its length in lines from its
/// `fn` line to its closing brace.
pub fn functions(f: &SourceFile) -> Vec<Function> {
    let code: Vec<char> = f.code.chars().collect();
    let line_of = |pos: usize| code[..pos].iter().filter(|c| **c == '\n').count() + 1;
    let src_lines: Vec<&str> = f.text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i + 3 < code.len() {
        let word_start = i == 0 || !(code[i - 1].is_alphanumeric() || code[i - 1] == '_');
        if !(word_start && code[i] == 'f' && code[i + 1] == 'n' && code[i + 2] == ' ') {
            i += 1;
            continue;
        }
        let name: String = code[i + 3..]
            .iter()
            .take_while(|c| c.is_alphanumeric() || **c == '_')
            .collect();
        // The body opens at the first `{` outside the signature's parentheses and angle
        // brackets; a `;` first means a declaration without a body.
        let mut j = i + 3 + name.len();
        let mut paren = 0i32;
        while j < code.len() {
            match code[j] {
                '(' | '[' => paren += 1,
                ')' | ']' => paren -= 1,
                '{' if paren == 0 => break,
                ';' if paren == 0 => break,
                _ => {}
            }
            j += 1;
        }
        if j >= code.len() || code[j] == ';' || name.is_empty() {
            i += 3;
            continue;
        }
        let mut depth = 0;
        let mut k = j;
        while k < code.len() {
            match code[k] {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            k += 1;
        }
        let (start, end) = (line_of(i), line_of(k.min(code.len() - 1)));
        // The comment block above: lines that are comments or attributes, going up.
        let mut one_piece = false;
        let mut l = start.saturating_sub(1);
        while l > 0 {
            let t = src_lines.get(l - 1).map_or("", |s| s.trim());
            let is_note = t.starts_with("//") || t.starts_with("#[") || t.starts_with("#!");
            if !is_note {
                break;
            }
            if t.to_lowercase().contains(ONE_PIECE) {
                one_piece = true;
            }
            l -= 1;
        }
        out.push(Function {
            file: f.path.clone(),
            name,
            line: start,
            lines: end - start + 1,
            one_piece,
        });
        i += 3;
    }
    out
}

/// The functions of `files` over [`LONG_FN`] lines whose comment does not say why they are
/// one piece, each as `file:line: name runs N lines`.
pub fn long_functions(files: &[SourceFile]) -> Vec<String> {
    let mut out = Vec::new();
    for f in files {
        for func in functions(f) {
            if func.lines > LONG_FN && !func.one_piece {
                out.push(format!(
                    "{}:{}: `{}` runs {} lines (split it, or say above it why it is one piece)",
                    func.file.display(),
                    func.line,
                    func.name,
                    func.lines
                ));
            }
        }
    }
    out
}

/// What a document names that does not exist: every path in backquotes or in the map's code
/// block (a file or folder of the repository, or of a crate's `src`, or under the folder a
/// map line sits in), and every item in backquotes written as a Rust path (`Game::apply`,
/// `cmd_sim::Stats`, `farebox::batch::Batch`) or as one CamelCase name (`GameDef`): a path's
/// module must exist and hold the item (or a `pub use` of it), a type's member must be
/// defined beside an `impl` of the type; a CamelCase name must be a type, trait or variant
/// somewhere in the code.
pub fn names_missing(doc: &Path, root: &Path) -> Vec<String> {
    let Ok(text) = std::fs::read_to_string(doc) else {
        return vec![format!("{} cannot be read", doc.display())];
    };
    let code = CodeIndex::new(root);
    let mut out = Vec::new();
    let mut in_block = false;
    let mut in_shell = false;
    // The map's folders: (indent, path) of the enclosing folder lines.
    let mut stack: Vec<(usize, String)> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let at = format!("{}:{}", doc.display(), n + 1);
        if let Some(tag) = line.trim_start().strip_prefix("```") {
            // Only an untagged block is a map; a `sh` block holds commands.
            if in_block || in_shell {
                (in_block, in_shell) = (false, false);
            } else if tag.trim().is_empty() {
                in_block = true;
            } else {
                in_shell = true;
            }
            stack.clear();
            continue;
        }
        if in_shell {
            continue;
        }
        if in_block {
            let indent = line.len() - line.trim_start().len();
            while stack.last().is_some_and(|(i, _)| *i >= indent) {
                stack.pop();
            }
            let base = stack.last().map(|(_, p)| p.clone()).unwrap_or_default();
            let first = line.split_whitespace().next().unwrap_or("");
            for word in line.split_whitespace().take_while(|w| !w.is_empty()) {
                let w = word.trim_matches(|c: char| ",;:()".contains(c));
                if !looks_like_path(w) {
                    // The map's description column starts at the first word that is no path.
                    if w != first {
                        break;
                    }
                    continue;
                }
                if !path_exists(root, &base, w) {
                    out.push(format!("{at}: the map names `{w}`, which does not exist"));
                }
            }
            if first.ends_with('/') && looks_like_path(first) {
                stack.push((indent, format!("{base}{first}")));
            }
            continue;
        }
        for span in backquoted(line) {
            if looks_like_path(&span) {
                if !path_exists(root, "", &span) {
                    out.push(format!("{at}: `{span}` names no file or folder"));
                }
            } else if let Some(why) = code.missing_item(&span) {
                out.push(format!("{at}: `{span}`: {why}"));
            }
        }
    }
    out
}

fn backquoted(line: &str) -> Vec<String> {
    line.split('`')
        .enumerate()
        .filter(|(i, _)| i % 2 == 1)
        .map(|(_, s)| s.to_string())
        .collect()
}

/// A word that names a file or folder: it has a slash or a known file ending, and nothing a
/// path would not (spaces, globs such as `*`, angle brackets such as `<mod>`).
fn looks_like_path(w: &str) -> bool {
    let plain = !w.is_empty()
        && w.chars().all(|c| c.is_alphanumeric() || "_-./".contains(c))
        && !w.starts_with('-')
        && !w.contains("//")
        && !w.starts_with("http");
    let ext = [".rs", ".md", ".toml", ".luau", ".json", ".py", ".sh"]
        .iter()
        .any(|e| w.ends_with(e));
    plain && (w.contains('/') || ext) && !w.starts_with('.') || w == ".ci/run"
}

/// Whether `w` exists under the map folder `base`, at the root, or (for a path written
/// inside a section about one part) as the end of some file or folder of the repository.
fn path_exists(root: &Path, base: &str, w: &str) -> bool {
    let w = w.trim_end_matches('/');
    if root.join(format!("{base}{w}")).exists() || root.join(w).exists() {
        return true;
    }
    let tail = format!("/{w}");
    repo_paths(root)
        .iter()
        .any(|p| p.ends_with(&tail) || p.as_str() == w)
}

/// Every file and folder of the repository (relative, `/`-separated), build output and git's
/// folder left out.
fn repo_paths(root: &Path) -> Vec<String> {
    fn go(dir: &Path, rel: &str, out: &mut Vec<String>) {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return;
        };
        for e in rd.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name == "target" || name == ".git" {
                continue;
            }
            let r = if rel.is_empty() {
                name.clone()
            } else {
                format!("{rel}/{name}")
            };
            out.push(r.clone());
            if e.path().is_dir() {
                go(&e.path(), &r, out);
            }
        }
    }
    let mut out = Vec::new();
    go(root, "", &mut out);
    out
}

/// Where each item of the code is defined: names of functions, types, traits, constants,
/// modules, variants and fields, by file; the crates' module trees.
struct CodeIndex {
    /// name -> files defining it.
    defined: BTreeMap<String, BTreeSet<PathBuf>>,
    /// Each file's text (blanked).
    files: Vec<(PathBuf, Vec<String>, String)>,
}

impl CodeIndex {
    fn new(root: &Path) -> CodeIndex {
        let mut defined: BTreeMap<String, BTreeSet<PathBuf>> = BTreeMap::new();
        let mut files = Vec::new();
        for (krate, src) in [
            ("farebox", "engine/src"),
            ("farebox_editor", "editor/src"),
            ("farebox_server", "server/src"),
            ("farebox_suite", "tests/support"),
            ("tests", "tests"),
            ("engine_tests", "engine/tests"),
            ("editor_tests", "editor/tests"),
            ("server_tests", "server/tests"),
        ] {
            let mut paths = Vec::new();
            walk(&root.join(src), &mut paths);
            for p in paths {
                let Ok(text) = std::fs::read_to_string(&p) else {
                    continue;
                };
                let code = blank(&text);
                let rel = p.strip_prefix(root.join(src)).unwrap_or(&p).to_path_buf();
                let mut module = vec![krate.to_string()];
                module.extend(module_of(&rel));
                for name in item_names(&code) {
                    defined.entry(name).or_default().insert(p.clone());
                }
                files.push((p, module, code));
            }
        }
        CodeIndex { defined, files }
    }

    /// Why `span` (a Rust path or a CamelCase name) names nothing, if it names nothing.
    fn missing_item(&self, span: &str) -> Option<String> {
        let s = span.trim_end_matches("()");
        let mut segs: Vec<&str> = s.split("::").collect();
        if segs.len() > 1 && matches!(segs[0], "crate" | "self" | "super") {
            segs.remove(0);
        }
        let ident = |t: &str| {
            t.chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_')
                && t.chars().all(|c| c.is_alphanumeric() || c == '_')
        };
        if !segs.iter().all(|t| ident(t)) {
            return None;
        }
        // Names from the standard library and other crates are not the code's to hold.
        const OUTSIDE: [&str; 17] = [
            "Arc", "Rc", "Send", "Sync", "Vec", "Option", "Result", "String", "HashMap",
            "BTreeMap", "Box", "Cell", "RefCell", "Mutex", "Instant", "Duration", "Display",
        ];
        if OUTSIDE.contains(&segs[0])
            || (segs.len() > 1
                && !self.defined.contains_key(segs[0])
                && !self
                    .files
                    .iter()
                    .any(|(_, m, _)| m.iter().any(|x| x == segs[0])))
        {
            return None;
        }
        if segs.len() == 1 {
            let s = segs[0];
            let camel = s.chars().next().is_some_and(char::is_uppercase)
                && s.chars().any(char::is_lowercase)
                && !s.contains('_');
            return (camel && !self.defined.contains_key(s))
                .then(|| "no type, trait or variant of that name in the code".to_string());
        }
        let last = segs[segs.len() - 1];
        if !self.defined.contains_key(last) {
            return Some(format!("nothing named `{last}` is defined in the code"));
        }
        // The longest leading run of segments that is a module (by its last names).
        let mut module_end = 0;
        for k in (1..segs.len()).rev() {
            let want: Vec<&str> = segs[..k].to_vec();
            if self.files.iter().any(|(_, m, _)| ends_with(m, &want)) {
                module_end = k;
                break;
            }
        }
        if module_end == 0 {
            // `Type::member`: the member is defined in a file that has the type or an impl.
            let ty = segs[segs.len() - 2];
            let ok = self.files.iter().any(|(p, _, code)| {
                (code.contains(&format!("impl {ty}"))
                    || code.contains(&format!("for {ty} "))
                    || code.contains(&format!("enum {ty} "))
                    || code.contains(&format!("impl<'_> {ty}"))
                    || code.contains(&format!("struct {ty}")))
                    && self.defined.get(last).is_some_and(|fs| fs.contains(p))
            });
            return (!ok).then(|| format!("`{ty}` has no `{last}` beside it"));
        }
        let want: Vec<&str> = segs[..module_end].to_vec();
        let item = segs[module_end];
        let held = self.files.iter().any(|(p, m, code)| {
            let inside = (1..=m.len()).any(|k| ends_with(&m[..k], &want));
            inside
                && (self.defined.get(item).is_some_and(|fs| fs.contains(p))
                    || (code.contains("pub use") && code.contains(item)))
        });
        (!held).then(|| format!("module `{}` has no `{item}`", want.join("::")))
    }
}

fn ends_with(module: &[String], want: &[&str]) -> bool {
    module.len() >= want.len()
        && module[module.len() - want.len()..]
            .iter()
            .zip(want)
            .all(|(a, b)| a == b)
}

/// The names a file defines: after `fn`, `struct`, `enum`, `trait`, `type`, `const`, `static`,
/// `mod`, `macro_rules!`, and the variants and fields (a name at the start of a line followed
/// by `,`, `(`, `{` or `:`).
fn item_names(code: &str) -> Vec<String> {
    let toks = tokens(code);
    let mut out = Vec::new();
    for w in toks.windows(2) {
        if matches!(
            w[0].as_str(),
            "fn" | "struct" | "enum" | "trait" | "type" | "const" | "static" | "mod" | "union"
        ) && is_ident(&w[1])
        {
            out.push(w[1].clone());
        }
    }
    for w in toks.windows(3) {
        if w[0] == "macro_rules" && w[1] == "!" {
            out.push(w[2].clone());
        }
    }
    for line in code.lines() {
        let t = line.trim_start();
        let t = t
            .strip_prefix("pub(crate) ")
            .or_else(|| t.strip_prefix("pub(super) "))
            .or_else(|| t.strip_prefix("pub "))
            .unwrap_or(t)
            .trim_start();
        let name: String = t
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let rest = t[name.len()..].trim_start();
        if !name.is_empty()
            && (rest.starts_with(',')
                || rest.starts_with('(')
                || rest.starts_with('{')
                || (rest.starts_with(':') && !rest.starts_with("::"))
                || rest.is_empty())
        {
            out.push(name);
        }
    }
    out
}
