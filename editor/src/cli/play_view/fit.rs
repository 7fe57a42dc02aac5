//! Fitting a turn's screen to a terminal of 100 x 40: what stays in order of need, the news
//! beside a narrow board, one-line panels side by side, lines wrapped or cut, and what was
//! folded away named on one line.

use super::*;

/// Rows and columns of the terminal a turn's screen is made to fit (the 100 x 40).
pub const ROWS: usize = 40;
pub const COLS: usize = 100;

/// A turn's screen fitted to [`ROWS`] x [`COLS`] (the prompt's line included), and what was
/// folded away to fit it.
pub struct Screen {
    pub lines: Vec<String>,
    /// The list of the map's codes (`c` shows it), empty when the board has none.
    pub codes: Vec<String>,
    /// The panels and news left out, in full (`i` shows them), empty when all fit.
    pub more: Vec<String>,
}

/// The screen of a turn: `body` (the game's blocks, or only what changed) above `news` (what
/// happened since the person last chose, headed) above `menu` (the status line and the open
/// level of the menu, already a page long at most). What fits in [`ROWS`] lines stays, in
/// this order of need: the heading, the counters, the menu, the board, the news (its latest
/// lines), then the panels (zones, variables, pieces) in their order; one-line panels share
/// lines side by side. The list of the map's codes is always folded (`c`), and whatever else
/// is left out is named on one line (`i` shows it). Lines wider than [`COLS`] are wrapped.
pub(super) fn fit(body: Vec<Block>, news: &[String], menu: &[String], news_first: bool) -> Screen {
    let loose = fit_as(body.clone(), news, menu, news_first, false);
    if loose.more.is_empty() {
        return loose;
    }
    fit_as(body, news, menu, news_first, true)
}

/// The blocks of the screen's body as [`fit_as`] places them: lines folded to the width, a
/// board's legend as a block of its own, one-line panels side by side when `join`; and the
/// map's codes, taken out (they are always folded).
fn panels(body: Vec<Block>, join: bool) -> (Vec<String>, Vec<Block>) {
    let mut codes = vec![];
    let mut blocks: Vec<Block> = vec![];
    for mut b in body {
        if b.part == Part::Codes {
            codes = b.lines;
            continue;
        }
        b.lines = b.lines.iter().flat_map(|l| fold_wide(l)).collect();
        // A board's legend may be folded on its own when the board only fits without it.
        let legend = b.lines.iter().position(|l| l.starts_with("Legend: "));
        if let (Part::Board, Some(at)) = (b.part, legend.filter(|&at| at > 0)) {
            let rest = b.lines.split_off(at);
            blocks.push(b);
            blocks.push(Block {
                part: Part::Legend,
                lines: rest,
            });
            continue;
        }
        blocks.push(b);
    }
    // One-line panels side by side ("Passenger deck: 48 cards   Movement deck: 34 cards").
    let mut joined: Vec<Block> = vec![];
    for b in blocks {
        let single = join && matches!(b.part, Part::Var | Part::Zone) && b.lines.len() == 1;
        if let Some(last) = joined.last_mut().filter(|l| {
            single
                && matches!(l.part, Part::Var | Part::Zone)
                && l.lines.last().is_some_and(|t| {
                    t.chars().count() + 3 + b.lines[0].trim_start().chars().count() <= COLS
                        && !t.starts_with("    ")
                })
                && l.lines.len() == 1
        }) {
            let t = last.lines.pop().unwrap_or_default();
            last.lines
                .push(format!("{t}   {}", b.lines[0].trim_start()));
            continue;
        }
        joined.push(b);
    }
    (codes, joined)
}

/// The names of the panels not kept (each once, in order), their lines added to `more`.
fn folded(joined: &[Block], keep: &[bool], more: &mut Vec<String>) -> Vec<String> {
    let mut folded_names = vec![];
    for (b, k) in joined.iter().zip(keep) {
        if !k {
            more.extend(b.lines.iter().cloned());
            let name = match b.part {
                Part::Board => "the board".to_string(),
                Part::Legend => "the board's legend".to_string(),
                Part::PiecesHead | Part::Piece => "pieces".to_string(),
                _ => b
                    .lines
                    .first()
                    .map(|l| {
                        let l = l.trim_start();
                        let name = l.split(": ").next().unwrap_or(l);
                        name.trim_end_matches(':').to_string()
                    })
                    .unwrap_or_default(),
            };
            if !name.is_empty() && !folded_names.contains(&name) {
                folded_names.push(name);
            }
        }
    }
    folded_names
}

/// [`fit`], with one-line panels side by side when `join`.
pub(super) fn fit_as(
    body: Vec<Block>,
    news: &[String],
    menu: &[String],
    news_first: bool,
    join: bool,
) -> Screen {
    let (codes, mut joined) = panels(body, join);
    let raw_news = news;
    let news: Vec<String> = news.iter().flat_map(|l| fold_wide(l)).collect();
    let menu: Vec<String> = menu.iter().flat_map(|l| fold_wide(l)).collect();
    // The prompt takes the last line, and one is kept for naming what is folded.
    let mut left = ROWS.saturating_sub(2 + menu.len());
    let mut keep = vec![false; joined.len()];
    let mut more = vec![];
    // The seat's own panels ("Hand (yours)", "Taxi: ... Fox (you): ...") and short variables
    // ("dice = 1 2 2 5", what the turn is played with) come before the rest of the news.
    let need = |b: &Block| match b.part {
        Part::Head | Part::Counters => 0,
        Part::Board => 1,
        Part::Legend => 4,
        Part::Var if b.lines.len() <= 2 => 2,
        _ if b
            .lines
            .iter()
            .any(|l| l.contains("(yours)") || l.contains("(you)")) =>
        {
            2
        }
        _ => 3,
    };
    // The heading and counters, then the board; a few lines kept for the news; then the
    // seat's own panels and the board's legend.
    let take = |joined: &[Block], ranks: &[u8], left: &mut usize, keep: &mut Vec<bool>| {
        for &rank in ranks {
            for (i, b) in joined.iter().enumerate() {
                if need(b) == rank && !keep[i] && b.lines.len() <= *left {
                    keep[i] = true;
                    *left -= b.lines.len();
                }
            }
        }
    };
    take(&joined, &[0, 1], &mut left, &mut keep);
    // When a narrow board leaves too little below it for the seat's own panels and the news's
    // latest lines, they go beside it (Curbside's town leaves no line below it).
    let mut news = news;
    let own: Vec<usize> = (0..joined.len())
        .filter(|&i| !keep[i] && need(&joined[i]) == 2)
        .collect();
    let own_lines: usize = own.iter().map(|&i| joined[i].lines.len()).sum();
    if news.len().min(NEWS_LINES) + own_lines > left
        && let Some(at) = (0..joined.len()).find(|&i| keep[i] && joined[i].part == Part::Board)
    {
        let top: Vec<String> = own
            .iter()
            .flat_map(|&i| joined[i].lines.iter().cloned())
            .collect();
        if let Some(board) = beside(&joined[at].lines, &top, raw_news) {
            more.extend(news.iter().cloned());
            joined[at].lines = board;
            news = vec![];
            for &i in &own {
                keep[i] = true;
                joined[i].lines.clear();
            }
        }
    }
    let reserve = news.len().min(NEWS_LINES).min(left);
    left -= reserve;
    take(&joined, &[2, 4], &mut left, &mut keep);
    left += reserve;
    // The news: its latest lines, under its heading, with one line for the rest.
    let mut news_shown = news.clone();
    let panels: usize = joined
        .iter()
        .zip(&keep)
        .filter(|(_, k)| !**k)
        .map(|(b, _)| b.lines.len())
        .sum();
    // The line kept for naming what was folded is free when nothing is.
    if panels == 0 && codes.is_empty() {
        left += 1;
    }
    if news.len() > left && !news.is_empty() {
        // The heading, a line for the rest, and the latest lines (as many as fit).
        more.extend(news.iter().cloned());
        let latest = left.saturating_sub(2).min(news.len() - 1);
        let cut = news.len() - latest;
        let rest = format!(
            "  … {} earlier {} (i shows them)",
            cut - 1,
            plural(cut - 1, "line")
        );
        news_shown = match left {
            0 => vec![],
            1 => vec![rest],
            _ => {
                let mut v = vec![news[0].clone(), rest];
                v.extend(news[cut..].iter().cloned());
                v
            }
        };
    }
    left = left.saturating_sub(news_shown.len());
    for (i, b) in joined.iter().enumerate() {
        if !keep[i] && b.lines.len() <= left {
            keep[i] = true;
            left -= b.lines.len();
        }
    }
    let folded_names = folded(&joined, &keep, &mut more);
    let mut lines: Vec<String> = joined
        .into_iter()
        .zip(&keep)
        .filter(|(_, k)| **k)
        .flat_map(|(b, _)| b.lines)
        .collect();
    let mut keys = vec![];
    if !codes.is_empty() {
        keys.push("c the map's codes".to_string());
    }
    if !folded_names.is_empty() {
        keys.push(format!(
            "i {} more ({})",
            folded_names.len(),
            folded_names.join(", ")
        ));
    }
    if !keys.is_empty() {
        let line = format!("Also: {}", keys.join(" · "));
        lines.push(cut_to(&line, COLS));
    }
    if news_first {
        news_shown.extend(lines);
        lines = news_shown;
    } else {
        lines.extend(news_shown);
    }
    lines.extend(menu);
    Screen { lines, codes, more }
}

/// Lines of news a turn's screen keeps for the news before the seat's own panels: its heading,
/// a line naming the earlier ones, and the latest six, enough to follow a round of bots.
pub(super) const NEWS_LINES: usize = 8;

/// The narrowest column of news worth putting beside the board.
pub(super) const SIDE_NEWS_MIN: usize = 28;

/// `board` with a column to its right: `top` (the seat's own panels), then `news` (its heading,
/// the latest lines that fit and a line naming the earlier ones), each line folded to the
/// column; when the board leaves a column of at least [`SIDE_NEWS_MIN`] characters and is tall
/// enough for `top`, the heading and a line of news (or for `top` alone when there is no news).
pub(super) fn beside(board: &[String], top: &[String], news: &[String]) -> Option<Vec<String>> {
    let width = board.iter().map(|l| l.chars().count()).max()?;
    let side = COLS.checked_sub(width + 3)?;
    if side < SIDE_NEWS_MIN || board.len() < 3 {
        return None;
    }
    let fold = |l: &str| -> Vec<String> {
        let lead = l.chars().take_while(|c| *c == ' ').count();
        let mut out: Vec<String> = vec![];
        let mut cur = " ".repeat(lead);
        let mut empty = true;
        for word in l.trim_start().split(' ') {
            if !empty && cur.chars().count() + 1 + word.chars().count() > side {
                out.push(cur);
                cur = " ".repeat(lead + 2);
                empty = true;
            }
            if !empty {
                cur.push(' ');
            }
            cur.push_str(word);
            empty = false;
        }
        out.push(cur);
        out.into_iter().map(|l| cut_to(&l, side)).collect()
    };
    let mut column: Vec<String> = top.iter().flat_map(|l| fold(l)).collect();
    if news.len() < 2 {
        return (!column.is_empty() && column.len() <= board.len()).then(|| join(board, &column));
    }
    let items: Vec<Vec<String>> = news[1..].iter().map(|l| fold(l)).collect();
    // The heading, then the latest items that fit whole (with a line for the rest).
    let mut room = board.len().checked_sub(column.len() + 1)?;
    let mut shown: Vec<&Vec<String>> = vec![];
    for (i, item) in items.iter().enumerate().rev() {
        let rest = if i > 0 { 1 } else { 0 };
        if item.len() + rest > room {
            break;
        }
        room -= item.len();
        shown.push(item);
    }
    if shown.is_empty() {
        return None;
    }
    let earlier = items.len() - shown.len();
    column.push(cut_to(&news[0], side));
    if earlier > 0 {
        column.push(cut_to(
            &format!("  … {earlier} earlier (i shows them)"),
            side,
        ));
    }
    column.extend(shown.into_iter().rev().flatten().cloned());
    Some(join(board, &column))
}

/// `board`'s lines with `column`'s beside them, three spaces to the right of the widest.
pub(super) fn join(board: &[String], column: &[String]) -> Vec<String> {
    let width = board.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    board
        .iter()
        .enumerate()
        .map(|(i, l)| match column.get(i) {
            Some(c) => {
                let pad = width - l.chars().count();
                format!("{l}{}   {c}", " ".repeat(pad))
            }
            None => l.clone(),
        })
        .collect()
}

/// `line` cut to `width` characters, an ellipsis at the end when it was longer.
pub(super) fn cut_to(line: &str, width: usize) -> String {
    if line.chars().count() <= width {
        return line.to_string();
    }
    let mut out: String = line.chars().take(width.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// A line wider than [`COLS`] as several, broken between words, the rest indented past the
/// line's own indent.
pub fn fold_wide(line: &str) -> Vec<String> {
    if line.chars().count() <= COLS {
        return vec![line.to_string()];
    }
    let lead = line.chars().take_while(|c| *c == ' ').count();
    let pad = " ".repeat(lead + 4);
    let mut out = vec![];
    let mut cur = " ".repeat(lead);
    let mut empty = true;
    for word in line[lead..].split(' ') {
        if !empty && cur.chars().count() + 1 + word.chars().count() > COLS {
            out.push(cur);
            cur = pad.clone();
            empty = true;
        }
        if !empty {
            cur.push(' ');
        }
        cur.push_str(word);
        empty = false;
    }
    out.push(cur);
    // A single word wider than the terminal is cut.
    out.into_iter().map(|l| cut_to(&l, COLS)).collect()
}
