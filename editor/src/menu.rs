//! The action menu, shared by both front ends: `farebox play` (and `--join`) shows it one level
//! at a time in the terminal, the Studio's Play tab as collapsible groups.
//!
//! The `describe` hook may label an action with a menu path (`["Place", "a Straightaway",
//! "at 3,4"]`). The menu is the tree of those paths: actions are grouped by their first part,
//! then by the next, keeping the order the rules listed them in, and shown one level at a
//! time. A group with a single entry is shown folded into its parent ("Place a Straightaway…").
//! People type a number to choose, several numbers to go down several levels at once
//! ("3 1 2"), `b` or `0` to go back up. Every level ends with a one-line reminder of the keys.
//! The top level is headed "Choices:" (not counted: "actions" would be mistaken for a game's
//! own counter of actions); a level inside shows the path chosen so far ("Drive › east").

/// One entry of the tree.
#[derive(Debug, Clone)]
struct Node {
    label: String,
    kind: Kind,
}

#[derive(Debug, Clone)]
enum Kind {
    /// An action, by its index in the list the menu was built from.
    Action(usize),
    /// A group, with its entries (node indices) in order.
    Group(Vec<usize>),
}

/// The tree of actions of one decision.
#[derive(Debug, Clone)]
pub struct Menu {
    /// Node 0 is the root group.
    nodes: Vec<Node>,
}

/// What one line of a level shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub label: String,
    pub target: Target,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// Choosing it takes this action (index into the actions).
    Action(usize),
    /// Choosing it opens this group, which holds this many actions.
    Group(usize, usize),
}

impl Menu {
    /// Builds the tree from each action's menu path (`paths[i]` for action i). Actions whose
    /// whole labels are the same are told apart by their action strings.
    pub fn new(paths: &[Vec<String>], actions: &[String]) -> Menu {
        let mut m = Menu {
            nodes: vec![Node {
                label: String::new(),
                kind: Kind::Group(vec![]),
            }],
        };
        for (i, path) in paths.iter().enumerate() {
            let fallback = [actions.get(i).cloned().unwrap_or_default()];
            let path = if path.is_empty() {
                &fallback[..]
            } else {
                &path[..]
            };
            let mut at = 0;
            for (k, part) in path.iter().enumerate() {
                if k + 1 == path.len() {
                    let id = m.nodes.len();
                    m.nodes.push(Node {
                        label: part.clone(),
                        kind: Kind::Action(i),
                    });
                    m.push_child(at, id);
                } else {
                    let found = m.children(at).iter().copied().find(|&c| {
                        matches!(m.nodes[c].kind, Kind::Group(_)) && m.nodes[c].label == *part
                    });
                    at = match found {
                        Some(c) => c,
                        None => {
                            let id = m.nodes.len();
                            m.nodes.push(Node {
                                label: part.clone(),
                                kind: Kind::Group(vec![]),
                            });
                            m.push_child(at, id);
                            id
                        }
                    };
                }
            }
        }
        // The same label twice in one level could not be told apart: add the action.
        for g in 0..m.nodes.len() {
            let kids = m.children(g).to_vec();
            let twins: Vec<usize> = kids
                .iter()
                .copied()
                .filter(|&c| {
                    matches!(m.nodes[c].kind, Kind::Action(_))
                        && kids.iter().any(|&o| {
                            o != c
                                && matches!(m.nodes[o].kind, Kind::Action(_))
                                && m.nodes[o].label == m.nodes[c].label
                        })
                })
                .collect();
            for c in twins {
                if let Kind::Action(a) = m.nodes[c].kind
                    && let Some(action) = actions.get(a)
                {
                    m.nodes[c].label = format!("{} [{action}]", m.nodes[c].label);
                }
            }
        }
        m
    }

    fn children(&self, node: usize) -> &[usize] {
        match &self.nodes[node].kind {
            Kind::Group(c) => c,
            Kind::Action(_) => &[],
        }
    }

    /// Adds `child` to the entries of `group` (only groups are ever given entries).
    fn push_child(&mut self, group: usize, child: usize) {
        if let Kind::Group(c) = &mut self.nodes[group].kind {
            c.push(child);
        }
    }

    fn actions_under(&self, node: usize) -> usize {
        match &self.nodes[node].kind {
            Kind::Action(_) => 1,
            Kind::Group(c) => c.iter().map(|&k| self.actions_under(k)).sum(),
        }
    }

    /// Follows groups of a single entry down from `node`: the node reached, and the labels
    /// passed on the way.
    fn fold(&self, mut node: usize) -> (usize, Vec<&str>) {
        let mut labels = vec![];
        while let [only] = self.children(node) {
            node = *only;
            labels.push(self.nodes[node].label.as_str());
        }
        (node, labels)
    }

    /// The entries of a level, each folded through groups of a single entry.
    pub fn entries(&self, group: usize) -> Vec<Entry> {
        self.children(group)
            .iter()
            .map(|&c| {
                let (end, more) = self.fold(c);
                let mut label = self.nodes[c].label.clone();
                for l in more {
                    label.push(' ');
                    label.push_str(l);
                }
                let target = match self.nodes[end].kind {
                    Kind::Action(a) => Target::Action(a),
                    Kind::Group(_) => Target::Group(end, self.actions_under(end)),
                };
                Entry { label, target }
            })
            .collect()
    }

    /// Where choosing starts: the root, or, when everything is in one group, that group.
    pub fn start(&self) -> Nav {
        let (node, labels) = self.fold(0);
        let node = match self.nodes[node].kind {
            Kind::Group(_) => node,
            // A single action: still shown as a list of one.
            Kind::Action(_) => 0,
        };
        let crumb = if node == 0 {
            String::new()
        } else {
            labels.join(" ")
        };
        Nav {
            stack: vec![(node, crumb)],
        }
    }
}

/// Where a person is in the menu: the groups entered, each with the words that led there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Nav {
    stack: Vec<(usize, String)>,
}

/// What a line typed at the menu did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Chosen {
    /// Take this action (index into the actions).
    Action(usize),
    /// Another level is open now.
    Moved,
}

impl Nav {
    /// The group open now.
    pub fn group(&self) -> usize {
        self.stack.last().map_or(0, |(g, _)| *g)
    }

    /// Whether the open level is where choosing started.
    pub fn at_top(&self) -> bool {
        self.stack.len() <= 1
    }

    /// The path chosen to the open level, a level to a part ("Place › a Bend"), empty at
    /// the root.
    pub fn crumb(&self) -> String {
        self.stack
            .iter()
            .map(|(_, c)| c.as_str())
            .filter(|c| !c.is_empty())
            .collect::<Vec<_>>()
            .join(" › ")
    }

    /// Carries out a line of numbers (several go down several levels) and `b`/`0` (back up a
    /// level). Nothing changes unless the whole line makes sense; the error says why not.
    pub fn choose(&mut self, menu: &Menu, line: &str) -> Result<Chosen, String> {
        let words: Vec<&str> = line
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .collect();
        if words.is_empty() {
            return Ok(Chosen::Moved);
        }
        let mut stack = self.stack.clone();
        for (k, w) in words.iter().enumerate() {
            let last = k + 1 == words.len();
            if matches!(*w, "b" | "back" | "0") {
                if stack.len() <= 1 {
                    return Err("You are at the top of the menu already.".into());
                }
                stack.pop();
                continue;
            }
            let group = stack.last().map_or(0, |(g, _)| *g);
            let entries = menu.entries(group);
            let Some(e) = w
                .parse::<usize>()
                .ok()
                .and_then(|n| n.checked_sub(1))
                .and_then(|n| entries.get(n))
            else {
                return Err(format!(
                    "`{w}` is not one of the choices here: type a number from 1 to {}{}.",
                    entries.len(),
                    if stack.len() > 1 {
                        ", b to go back"
                    } else {
                        ""
                    }
                ));
            };
            match e.target {
                Target::Action(a) if last => {
                    self.stack = stack;
                    return Ok(Chosen::Action(a));
                }
                Target::Action(_) => {
                    return Err(format!(
                        "{w} ({}) is an action, not a group: there is nothing to choose after it.",
                        e.label
                    ));
                }
                Target::Group(g, _) => stack.push((g, e.label.clone())),
            }
        }
        self.stack = stack;
        Ok(Chosen::Moved)
    }
}

/// The lines that show the open level: a heading (the path inside a group), the numbered
/// entries (in columns when there are many), inside a group the way back, and a line with the
/// keys.
pub fn level_lines(menu: &Menu, nav: &Nav) -> Vec<String> {
    level_page(menu, nav, 0).0
}

/// Most lines the choices of a level take on a screen: a longer level is shown a page at a
/// time (`m` turns the page), so the menu fits a terminal of 40 lines with the board above.
pub const PAGE_ROWS: usize = 12;

/// Page `page` (from 0, counted round) of the open level, as [`level_lines`] shows it, and
/// how many pages the level has. The numbers are the level's, whatever the page.
pub fn level_page(menu: &Menu, nav: &Nav, page: usize) -> (Vec<String>, usize) {
    let entries = menu.entries(nav.group());
    let total: usize = entries
        .iter()
        .map(|e| match e.target {
            Target::Action(_) => 1,
            Target::Group(_, n) => n,
        })
        .sum();
    let items: Vec<String> = entries
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let label = match e.target {
                Target::Action(_) => e.label.clone(),
                Target::Group(_, n) => format!("{}… ({n} {})", e.label, choices(n)),
            };
            format!("{:>2}. {label}", i + 1)
        })
        .collect();
    let per = if columns(&items).len() <= PAGE_ROWS {
        items.len().max(1)
    } else {
        PAGE_ROWS * across(&items)
    };
    let pages = items.len().div_ceil(per).max(1);
    let page = page % pages;
    let mut out = vec![];
    let of = if pages > 1 {
        format!(", page {} of {pages}", page + 1)
    } else {
        String::new()
    };
    let crumb = nav.crumb();
    if crumb.is_empty() && pages == 1 {
        out.push("Choices:".into());
    } else if crumb.is_empty() {
        out.push(format!("Choices ({total} {}{of}):", choices(total)));
    } else {
        out.push(format!("{crumb}… ({total} {}{of}):", choices(total)));
    }
    let shown: Vec<String> = items.iter().skip(page * per).take(per).cloned().collect();
    out.extend(columns(&shown));
    if !nav.at_top() {
        out.push("  0. back".into());
    }
    out.push(keys_line(&entries, nav.at_top(), pages > 1));
    (out, pages)
}

/// The keys, in short: going several levels down only where there is a group, back only
/// inside one.
fn keys_line(entries: &[Entry], at_top: bool, pages: bool) -> String {
    let mut keys = vec!["number to choose"];
    if pages {
        keys.push("m more choices");
    }
    if entries
        .iter()
        .any(|e| matches!(e.target, Target::Group(..)))
    {
        keys.push("several at once (3 1 2)");
    }
    if !at_top {
        keys.push("b back");
    }
    keys.extend(["? board", "q quit"]);
    keys.join(" · ")
}

fn choices(n: usize) -> &'static str {
    if n == 1 { "choice" } else { "choices" }
}

/// Lays items out in columns (down, then across) when there are many and they are short, so
/// a long level still fits on a screen; one per line otherwise.
fn columns(items: &[String]) -> Vec<String> {
    const MIN_ROWS: usize = 10;
    let widest = items.iter().map(|i| i.chars().count()).max().unwrap_or(0) + 3;
    let across = across(items);
    if items.len() <= MIN_ROWS || across == 1 {
        return items.iter().map(|i| format!(" {i}")).collect();
    }
    let rows = items.len().div_ceil(across).max(MIN_ROWS.min(items.len()));
    let across = items.len().div_ceil(rows);
    (0..rows)
        .map(|r| {
            let mut line = String::new();
            for c in 0..across {
                if let Some(it) = items.get(c * rows + r) {
                    let pad = widest - it.chars().count();
                    line.push(' ');
                    line.push_str(it);
                    line.push_str(&" ".repeat(pad.saturating_sub(1)));
                }
            }
            line.trim_end().to_string()
        })
        .collect()
}

/// How many columns of `items` fit across the menu's width.
fn across(items: &[String]) -> usize {
    const WIDTH: usize = 78;
    let widest = items.iter().map(|i| i.chars().count()).max().unwrap_or(0) + 3;
    (WIDTH / widest.max(1)).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(parts: &[&str]) -> Vec<String> {
        parts.iter().map(|s| s.to_string()).collect()
    }

    fn menu() -> (Menu, Vec<String>) {
        let actions: Vec<String> = ["end", "draw", "p1", "p2", "p3", "r1", "x"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let paths = vec![
            p(&["End your turn"]),
            p(&["Draw a tile"]),
            p(&["Place", "a Bend", "┗", "at 1,2"]),
            p(&["Place", "a Bend", "┏", "at 1,2"]),
            p(&["Place", "a Straightaway", "━", "at 2,1"]),
            p(&["Re-route", "the yellow passenger"]),
            p(&["Place", "a Bend", "┗", "at 2,2"]),
        ];
        (Menu::new(&paths, &actions), actions)
    }

    #[test]
    fn groups_keep_the_order_actions_came_in_and_fold_single_entries() {
        let (m, _) = menu();
        let nav = m.start();
        let top = m.entries(nav.group());
        let labels: Vec<&str> = top.iter().map(|e| e.label.as_str()).collect();
        assert_eq!(
            labels,
            [
                "End your turn",
                "Draw a tile",
                "Place",
                "Re-route the yellow passenger"
            ]
        );
        assert_eq!(top[0].target, Target::Action(0));
        assert!(matches!(top[2].target, Target::Group(_, 4)));
        assert_eq!(top[3].target, Target::Action(5));
        let Target::Group(place, _) = top[2].target else {
            unreachable!()
        };
        let inside: Vec<String> = m.entries(place).into_iter().map(|e| e.label).collect();
        assert_eq!(inside, ["a Bend", "a Straightaway ━ at 2,1"]);
    }

    #[test]
    fn several_numbers_go_down_at_once_and_back_goes_up() {
        let (m, _) = menu();
        let mut nav = m.start();
        assert_eq!(nav.choose(&m, "3 1"), Ok(Chosen::Moved));
        assert_eq!(nav.crumb(), "Place › a Bend");
        assert_eq!(nav.choose(&m, "1 2"), Ok(Chosen::Action(6)));
        let mut nav = m.start();
        assert_eq!(nav.choose(&m, "3 1 1"), Ok(Chosen::Moved));
        assert_eq!(nav.choose(&m, "b"), Ok(Chosen::Moved));
        assert_eq!(nav.crumb(), "Place › a Bend");
        assert_eq!(nav.choose(&m, "0 0"), Ok(Chosen::Moved));
        assert!(nav.at_top());
        assert!(nav.choose(&m, "b").is_err());
        // A bad line changes nothing.
        assert!(nav.choose(&m, "3 9").is_err());
        assert!(nav.at_top());
        assert!(nav.choose(&m, "1 1").is_err(), "nothing after an action");
        assert_eq!(nav.choose(&m, "3 2"), Ok(Chosen::Action(4)));
        assert_eq!(m.start().choose(&m, "2"), Ok(Chosen::Action(1)));
    }

    #[test]
    fn one_group_for_everything_opens_at_once() {
        let actions = vec!["a".to_string(), "b".to_string()];
        let m = Menu::new(
            &[p(&["Move", "north", "1"]), p(&["Move", "north", "2"])],
            &actions,
        );
        let nav = m.start();
        assert_eq!(nav.crumb(), "Move north");
        assert_eq!(level_lines(&m, &nav)[0], "Move north… (2 choices):");
        let m = Menu::new(&[p(&["Pass"])], &actions[..1]);
        let mut nav = m.start();
        assert_eq!(nav.choose(&m, "1"), Ok(Chosen::Action(0)));
    }

    #[test]
    fn twins_are_told_apart_by_their_actions() {
        let actions = vec!["a".to_string(), "b".to_string()];
        let m = Menu::new(&[p(&["Go"]), p(&["Go"])], &actions);
        let labels: Vec<String> = m.entries(0).into_iter().map(|e| e.label).collect();
        assert_eq!(labels, ["Go [a]", "Go [b]"]);
    }

    #[test]
    fn long_levels_are_laid_out_in_columns() {
        let items: Vec<String> = (1..=30).map(|i| format!("{i:>2}. at {i},1")).collect();
        let lines = columns(&items);
        assert_eq!(lines.len(), 10, "{lines:#?}");
        assert!(lines[0].contains(" 1. at 1,1") && lines[0].contains("11. at 11,1"));
        assert!(lines.iter().all(|l| l.chars().count() <= 78));
        assert_eq!(columns(&items[..5]).len(), 5);
    }
}
