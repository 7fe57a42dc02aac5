//! The figures of a run per card, tile kind, piece kind and option value, as a sortable
//! table: in how many games a seat held it or played it, how often those seats won against
//! the rest (with 95% intervals), and the same figure in the accepted outcomes. A row offers
//! restricted play ("Without it"): the run again with every action that names it forbidden.
//! Also the column the Decks & tables tab shows beside each card.

use std::collections::BTreeMap;

use egui::{RichText, Ui};
use farebox::GameDef;
use farebox::figures::{ContentFigure, Figures};

/// What the table is sorted by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SortBy {
    Kind,
    Id,
    Name,
    Held,
    WinHeld,
    Played,
    WinPlayed,
    #[default]
    Effect,
    AcceptedEffect,
    /// The widest gap in win rate between the thirds of the game a card was got or played in.
    Timing,
    /// How often it was held to the end unplayed.
    Dead,
}

/// The table's own state: its sort and filter.
#[derive(Debug, Clone)]
pub struct Table {
    pub sort: SortBy,
    /// Largest first (the default for figures), else smallest first.
    pub descending: bool,
    pub filter: String,
}

impl Default for Table {
    /// The largest effects first.
    fn default() -> Table {
        Table {
            sort: SortBy::Effect,
            descending: true,
            filter: String::new(),
        }
    }
}

/// One row: what it is and its figures now and (where accepted) then.
struct Line<'a> {
    kind: &'static str,
    key: &'a str,
    /// The id actions name it by (what "Without it" forbids).
    id: String,
    /// Its name, told apart from another row's of the same name by its deck ("Gas canteen
    /// (Starting tiles)") or its kind.
    name: String,
    now: &'a ContentFigure,
    accepted: Option<&'a ContentFigure>,
}

fn lines<'a>(def: &GameDef, now: &'a Figures, accepted: Option<&'a Figures>) -> Vec<Line<'a>> {
    let mut out = Vec::new();
    let groups: [(
        &'static str,
        &BTreeMap<String, ContentFigure>,
        Option<&BTreeMap<_, _>>,
    ); 4] = [
        ("card", &now.cards, accepted.map(|a| &a.cards)),
        ("tile", &now.tiles, accepted.map(|a| &a.tiles)),
        ("piece", &now.pieces, accepted.map(|a| &a.pieces)),
        ("option", &now.options, accepted.map(|a| &a.options)),
    ];
    for (kind, map, old) in groups {
        for (key, f) in map {
            // A card shared by two decks is keyed `deck/card`; an option value `option=value`.
            let id = match kind {
                "option" => key.split_once('=').map_or(key.as_str(), |(_, v)| v),
                _ => key.rsplit_once('/').map_or(key.as_str(), |(_, c)| c),
            }
            .to_string();
            out.push(Line {
                kind,
                key,
                id,
                name: f.name.clone(),
                now: f,
                accepted: old.and_then(|m| m.get(key)),
            });
        }
    }
    tell_apart(def, &mut out);
    out
}

/// Rows that share a name get what tells them apart: a card its deck's name, anything else
/// its kind; where that is not enough either, the id.
fn tell_apart(def: &GameDef, rows: &mut [Line]) {
    let same = |rows: &[Line], i: usize| {
        let name = rows[i].name.to_lowercase();
        rows.iter()
            .enumerate()
            .any(|(k, r)| k != i && r.name.to_lowercase() == name)
    };
    let shared: Vec<usize> = (0..rows.len()).filter(|&i| same(rows, i)).collect();
    for &i in &shared {
        let r = &rows[i];
        let whose = match r.kind {
            "card" => def
                .deck(&r.now.group)
                .and_then(|d| def.decks.get(d))
                .map_or(r.now.group.clone(), |d| d.name.clone()),
            kind => kind.to_string(),
        };
        rows[i].name = format!("{} ({whose})", r.now.name);
    }
    let still: Vec<usize> = shared.into_iter().filter(|&i| same(rows, i)).collect();
    for i in still {
        let id = rows[i].key.to_string();
        rows[i].name = format!("{} ({id})", rows[i].name);
    }
}

/// "61.0% (55.2-66.5)".
fn rate(r: Option<f64>, i: Option<[f64; 2]>) -> String {
    match (r, i) {
        (Some(r), Some([lo, hi])) => {
            format!("{:.1}% ({:.1}-{:.1})", r * 100.0, lo * 100.0, hi * 100.0)
        }
        (Some(r), None) => format!("{:.1}%", r * 100.0),
        _ => "—".into(),
    }
}

fn effect(f: Option<&ContentFigure>) -> String {
    match f.and_then(ContentFigure::effect) {
        Some(e) => format!("{:+.1} pts", e * 100.0),
        None => "—".into(),
    }
}

/// The widest gap in win rate between a card's best and worst third of the game, got or
/// played.
fn timing(c: &ContentFigure) -> Option<f64> {
    [&c.held_by_third, &c.played_by_third]
        .into_iter()
        .filter_map(|by| crate::runs::timing_spread(by))
        .reduce(f64::max)
}

/// Sorts the rows as the table's heading asks. Rows without the figure sort after every
/// row with it, either way round.
fn sort_rows(rows: &mut [Line], t: &Table) {
    let key = |r: &Line| -> Option<f64> {
        match t.sort {
            SortBy::Held => Some(r.now.games_held as f64),
            SortBy::Played => Some(r.now.games_played as f64),
            SortBy::WinHeld => r.now.win_rate_held,
            SortBy::WinPlayed => r.now.win_rate_played,
            SortBy::AcceptedEffect => r.accepted.and_then(ContentFigure::effect).map(f64::abs),
            SortBy::Timing => timing(r.now),
            SortBy::Dead => r.now.dead_rate,
            _ => r.now.effect().map(f64::abs),
        }
    };
    rows.sort_by(|a, b| {
        let o = match t.sort {
            SortBy::Kind => a.kind.cmp(b.kind).then(a.key.cmp(b.key)),
            SortBy::Id => a.key.cmp(b.key),
            SortBy::Name => a
                .name
                .to_lowercase()
                .cmp(&b.name.to_lowercase())
                .then(a.key.cmp(b.key)),
            _ => match (key(a), key(b)) {
                (Some(x), Some(y)) => x.total_cmp(&y).then(b.key.cmp(a.key)),
                (Some(_), None) => return std::cmp::Ordering::Less,
                (None, Some(_)) => return std::cmp::Ordering::Greater,
                (None, None) => b.key.cmp(a.key),
            },
        };
        if t.descending { o.reverse() } else { o }
    });
}

/// How wide the "In words" column is, in points.
const WORDS_WIDTH: f32 = 320.0;

/// Draws the table; returns the id the person asked to forbid ("Without it"), if any.
pub fn table_ui(
    ui: &mut Ui,
    t: &mut Table,
    def: &GameDef,
    now: &Figures,
    accepted: Option<&Figures>,
    can_forbid: bool,
) -> Option<String> {
    let mut rows = lines(def, now, accepted);
    if rows.is_empty() {
        ui.weak("No card, tile, piece or option was held or played in these games.");
        return None;
    }
    ui.horizontal(|ui| {
        let l = ui.label("Filter");
        ui.add(egui::TextEdit::singleline(&mut t.filter).desired_width(160.0))
            .labelled_by(l.id);
    });
    let needle = t.filter.trim().to_lowercase();
    if !needle.is_empty() {
        rows.retain(|r| {
            r.key.to_lowercase().contains(&needle) || r.name.to_lowercase().contains(&needle)
        });
    }
    sort_rows(&mut rows, t);
    let mut forbid = None;
    egui::ScrollArea::horizontal()
        .id_salt("outcomes-content-scroll")
        .show(ui, |ui| {
            egui::Grid::new("outcomes-content")
                .striped(true)
                .num_columns(12)
                .show(ui, |ui| {
                    let mut head = |ui: &mut Ui, text: &str, by: SortBy, hint: &str| {
                        // Plain arrows: every font the Studio may fall back on has them.
                        let arrow = match (t.sort == by, t.descending) {
                            (true, true) => " v",
                            (true, false) => " ^",
                            _ => "",
                        };
                        let r = ui
                            .add(
                                egui::Button::new(RichText::new(format!("{text}{arrow}")).strong())
                                    .frame(false),
                            )
                            .on_hover_text(format!("{hint}. Click to sort"));
                        if r.clicked() {
                            if t.sort == by {
                                t.descending = !t.descending;
                            } else {
                                t.sort = by;
                                t.descending =
                                    !matches!(by, SortBy::Kind | SortBy::Id | SortBy::Name);
                            }
                        }
                    };
                    head(ui, "Kind", SortBy::Kind, "Card, tile, piece or option value");
                    head(ui, "Id", SortBy::Id, "The id actions name it by");
                    head(ui, "Name", SortBy::Name, "Its name");
                    head(ui, "Held in", SortBy::Held, "Games in which a seat held it");
                    head(
                        ui,
                        "Win rate when held (95%)",
                        SortBy::WinHeld,
                        "How often the seats that held it won; in brackets, the 95% interval",
                    );
                    head(
                        ui,
                        "Played in",
                        SortBy::Played,
                        "Games in which an action of a seat named it",
                    );
                    head(
                        ui,
                        "Win rate when played (95%)",
                        SortBy::WinPlayed,
                        "How often the seats that played it won; against them, the seats that did not",
                    );
                    head(
                        ui,
                        "Effect",
                        SortBy::Effect,
                        "How many points more often a seat that played it (else held it) won than one that did not; sorted by size",
                    );
                    head(
                        ui,
                        "Accepted effect",
                        SortBy::AcceptedEffect,
                        "The effect in the accepted outcomes; sorted by size",
                    );
                    head(
                        ui,
                        "Timing",
                        SortBy::Timing,
                        "Cards: how many points more often the seats that got (or played) it in its best third of the game won than those in its worst",
                    );
                    head(
                        ui,
                        "Dead",
                        SortBy::Dead,
                        "Cards: the share of the seats holding it that still held it at the end without ever playing it",
                    );
                    ui.label("");
                    ui.strong("In words");
                    ui.end_row();
                    for r in &rows {
                        if row_ui(ui, r, can_forbid) {
                            forbid = Some(r.id.clone());
                        }
                        ui.end_row();
                    }
                });
        });
    forbid
}

/// One row of the table; true when its "Without it" was clicked.
fn row_ui(ui: &mut Ui, r: &Line, can_forbid: bool) -> bool {
    ui.label(r.kind);
    ui.label(r.key);
    ui.label(crate::common::cut(&r.name, 48));
    ui.label(r.now.games_held.to_string());
    ui.label(rate(r.now.win_rate_held, r.now.win_rate_held_interval))
        .on_hover_text(format!(
            "Seats that did not hold it: {}",
            rate(r.now.win_rate_not_held, r.now.win_rate_not_held_interval)
        ));
    ui.label(r.now.games_played.to_string());
    ui.label(rate(r.now.win_rate_played, r.now.win_rate_played_interval))
        .on_hover_text(format!(
            "Seats that did not play it: {}",
            rate(
                r.now.win_rate_not_played,
                r.now.win_rate_not_played_interval
            )
        ));
    ui.label(effect(Some(r.now)));
    ui.label(effect(r.accepted));
    ui.label(match timing(r.now) {
        Some(x) => format!("{:.1} pts", x * 100.0),
        None => "—".into(),
    });
    ui.label(rate(r.now.dead_rate, r.now.dead_rate_interval));
    let without = ui
        .add_enabled(can_forbid, egui::Button::new("Without it").small())
        .on_hover_text(format!(
            "Run again with every action that names `{}` forbidden to the bots: the change in the figures is what it is worth",
            r.id
        ))
        .clicked();
    // The sentences sit last, cut to the column's width so every row stays one line and its
    // figures and button stay in view; the whole of them on hover (and in `farebox sim`).
    let words = crate::runs::why_lines(&r.name, r.now);
    if words.is_empty() {
        ui.label("—");
    } else {
        let text = format!("{}.", words.join(". "));
        let size = egui::vec2(WORDS_WIDTH, ui.spacing().interact_size.y);
        ui.add_sized(size, egui::Label::new(text.as_str()).truncate())
            .on_hover_text(text);
    }
    without
}

/// For the Decks & tables tab: per card id, its win rate when played now and in the
/// accepted outcomes ("61.0% (accepted 58.2%)").
pub fn card_column(now: Option<&Figures>, accepted: Option<&Figures>) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let short = |c: &ContentFigure| {
        c.win_rate_played
            .or(c.win_rate_held)
            .map(|r| format!("{:.1}%", r * 100.0))
    };
    let keys: std::collections::BTreeSet<&String> = now
        .into_iter()
        .chain(accepted)
        .flat_map(|f| f.cards.keys())
        .collect();
    for key in keys {
        let n = now.and_then(|f| f.cards.get(key)).and_then(short);
        let a = accepted.and_then(|f| f.cards.get(key)).and_then(short);
        let text = match (n, a) {
            (Some(n), Some(a)) => format!("{n} (accepted {a})"),
            (Some(n), None) => n,
            (None, Some(a)) => format!("— (accepted {a})"),
            (None, None) => continue,
        };
        let card = key.rsplit_once('/').map_or(key.as_str(), |(_, c)| c);
        out.insert(card.to_string(), text);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::lines;
    use farebox::figures::{ContentFigure, Figures};

    #[test]
    fn rows_of_the_same_name_are_told_apart_by_their_deck() {
        let mods = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../mods");
        let resolver = farebox::source::FolderResolver::new(mods.clone());
        let def = farebox::content::load_mod(
            &farebox::source::FsSource::new(mods.join("curbside")),
            &resolver,
        )
        .unwrap_or_else(|d| panic!("{d}"));
        let fig = |group: &str, name: &str| ContentFigure {
            group: group.into(),
            name: name.into(),
            ..ContentFigure::default()
        };
        let mut f = Figures::default();
        f.cards
            .insert("start-canteen".into(), fig("starter", "Gas canteen"));
        f.cards
            .insert("cs-t10".into(), fig("road-tiles", "Gas canteen"));
        f.cards
            .insert("cs-t4".into(), fig("road-tiles", "Straightaway"));
        f.pieces.insert("taxi".into(), fig("", "Taxi"));
        f.tiles.insert("cs-t99".into(), fig("", "taxi"));
        let rows = lines(&def, &f, None);
        let name = |key: &str| {
            rows.iter()
                .find(|r| r.key == key)
                .map(|r| r.name.clone())
                .unwrap_or_default()
        };
        assert_eq!(name("start-canteen"), "Gas canteen (Starting tiles)");
        assert_eq!(name("cs-t10"), "Gas canteen (Tile deck)");
        assert_eq!(name("cs-t4"), "Straightaway");
        assert_eq!(name("taxi"), "Taxi (piece)");
        assert_eq!(name("cs-t99"), "taxi (tile)");
    }
}
