//! Board resolution: one function per board kind, each checking its table of `board.toml`.

use std::collections::HashMap;

use super::def::*;
use super::load::{At, Files};
use super::raw::{self, BoardKind, Sp};
use crate::diag::{Diagnostics, suggestion};
use crate::value::Value;

pub struct BoardCtx<'a> {
    pub files: &'a Files,
    pub diags: &'a mut Diagnostics,
    /// Names not found so far: "did you mean" compares with every id, so only the first few
    /// get one.
    pub misses: usize,
}

/// How many names not found get a "did you mean".
const HINTED_MISSES: usize = 100;

impl BoardCtx<'_> {
    fn err(&mut self, file: usize, span: std::ops::Range<usize>, msg: impl Into<String>) {
        let d = self.files.error(file, span, msg);
        self.diags.push(d);
    }

    /// "; did you mean ..." for a name not found, while few have been missed.
    fn hint<'c>(&mut self, wrong: &str, known: impl IntoIterator<Item = &'c str>) -> String {
        self.misses += 1;
        if self.misses > HINTED_MISSES {
            return String::new();
        }
        suggestion(wrong, known)
    }
}

/// A number as board.toml would write it (`nan`, `inf`, and huge ones with an exponent).
fn shown(v: f64) -> String {
    if v.is_nan() {
        "nan".into()
    } else if v.is_infinite() {
        if v > 0.0 { "inf" } else { "-inf" }.into()
    } else if v.abs() >= 1e15 {
        format!("{v:e}")
    } else {
        v.to_string()
    }
}

/// An edge's cost: 1 when not given; a cost outside 1..=[`MAX_EDGE_COST`] is reported (and
/// taken as 1 so the checks go on).
fn edge_cost(cx: &mut BoardCtx, file: usize, cost: Option<&Sp<i64>>) -> u32 {
    let Some(c) = cost else {
        return 1;
    };
    match u32::try_from(*c.get()) {
        Ok(v) if (1..=MAX_EDGE_COST).contains(&v) => v,
        _ => {
            cx.err(
                file,
                c.span(),
                format!(
                    "an edge costs a whole number from 1 to {MAX_EDGE_COST}, not {}",
                    c.get()
                ),
            );
            1
        }
    }
}

pub fn resolve_board(
    cx: &mut BoardCtx,
    b: &At<raw::RawBoard>,
    tiles: &HashMap<String, usize>,
    spaces: &mut HashMap<String, usize>,
    track_pieces: &mut Vec<String>,
) -> BoardDef {
    let file = b.file;
    let r = &b.item;
    let kind = *r.kind.get();
    let present = [
        ("grid", r.grid.is_some(), BoardKind::Grid),
        ("graph", r.graph.is_some(), BoardKind::Graph),
        ("sections", r.sections.is_some(), BoardKind::Sections),
        ("track", r.track.is_some(), BoardKind::Track),
    ];
    for (name, is, k) in present {
        if is && k != kind {
            cx.err(
                file,
                r.kind.span(),
                format!(
                    "board kind is `{}`, but the file has a [{name}] table",
                    kind_name(kind)
                ),
            );
        }
        if !is && k == kind {
            cx.err(
                file,
                r.kind.span(),
                format!("board kind `{name}` needs a [{name}] table"),
            );
        }
    }
    match kind {
        BoardKind::None => BoardDef::None,
        BoardKind::Grid => r.grid.as_ref().map_or(BoardDef::None, |g| {
            BoardDef::Grid(grid(cx, file, g, tiles, spaces))
        }),
        BoardKind::Graph => r.graph.as_ref().map_or(BoardDef::None, |g| {
            BoardDef::Graph(graph(
                cx, file, &g.spaces, &g.edges, &g.paths, spaces, 0, None,
            ))
        }),
        BoardKind::Sections => r.sections.as_ref().map_or(BoardDef::None, |s| {
            BoardDef::Sections(sections(cx, file, s, spaces))
        }),
        BoardKind::Track => r.track.as_ref().map_or(BoardDef::None, |t| {
            BoardDef::Track(track(cx, file, t, track_pieces))
        }),
    }
}

fn kind_name(k: BoardKind) -> &'static str {
    match k {
        BoardKind::Grid => "grid",
        BoardKind::Graph => "graph",
        BoardKind::Sections => "sections",
        BoardKind::Track => "track",
        BoardKind::None => "none",
    }
}

fn grid(
    cx: &mut BoardCtx,
    file: usize,
    g: &raw::RawGrid,
    tiles: &HashMap<String, usize>,
    spaces: &mut HashMap<String, usize>,
) -> GridDef {
    let (w, h) = (*g.width.get(), *g.height.get());
    for (v, sp) in [(w, &g.width), (h, &g.height)] {
        if !(1..=64).contains(&v) {
            cx.err(
                file,
                sp.span(),
                format!("grid sides are 1 to 64 cells, not {v}"),
            );
        }
    }
    let mut cells = Vec::new();
    // More descriptions than cells means duplicates or cells off the grid; one error says so
    // instead of one per description.
    let room = u64::from(w) * u64::from(h);
    if g.cells.len() as u64 > room {
        let span = g
            .cells
            .get(room as usize)
            .map_or(g.width.span(), |c| c.x.span());
        cx.err(
            file,
            span.start..span.start,
            format!(
                "the grid has {room} cells, and {} [[grid.cells]] describe cells",
                g.cells.len()
            ),
        );
        return GridDef {
            width: w,
            height: h,
            cells,
        };
    }
    let mut at: HashMap<(u32, u32), ()> = HashMap::new();
    for c in &g.cells {
        let (x, y) = (*c.x.get(), *c.y.get());
        if !(1..=w).contains(&x) {
            cx.err(
                file,
                c.x.span(),
                format!("x = {x} is off the grid (1..{w})"),
            );
            continue;
        }
        if !(1..=h).contains(&y) {
            cx.err(
                file,
                c.y.span(),
                format!("y = {y} is off the grid (1..{h})"),
            );
            continue;
        }
        if at.insert((x, y), ()).is_some() {
            cx.err(
                file,
                c.x.span(),
                format!("cell ({x}, {y}) is described twice"),
            );
        }
        if let Some(id) = &c.id {
            check_space_id(
                cx,
                file,
                id,
                spaces,
                ((y as usize - 1) * w as usize) + (x as usize - 1),
            );
        }
        let tile = c.tile.as_ref().and_then(|t| match tiles.get(t.get()) {
            Some(&i) => Some((i, c.rotation % 4)),
            None => {
                let hint = cx.hint(t.get(), tiles.keys().map(|k| k.as_str()));
                cx.err(file, t.span(), format!("no tile `{}`{hint}", t.get()));
                None
            }
        });
        if c.rotation > 3 {
            cx.err(
                file,
                c.x.span(),
                format!("rotation is 0-3 quarter turns, not {}", c.rotation),
            );
        }
        cells.push(CellDef {
            x,
            y,
            id: c.id.as_ref().map(|i| i.get().clone()),
            tags: c.tags.clone(),
            props: Value::map_from_toml(&c.props),
            tile,
        });
    }
    GridDef {
        width: w,
        height: h,
        cells,
    }
}

fn check_space_id(
    cx: &mut BoardCtx,
    file: usize,
    id: &Sp<String>,
    spaces: &mut HashMap<String, usize>,
    index: usize,
) {
    let s = id.get();
    if s.is_empty()
        || !s
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        cx.err(
            file,
            id.span(),
            format!("space id `{s}` should use only lowercase letters, digits and dashes"),
        );
    }
    if spaces.insert(s.clone(), index).is_some() {
        cx.err(file, id.span(), format!("space `{s}` is defined twice"));
    }
}

/// Spaces and edges; `offset` numbers the spaces after those of earlier sections.
#[allow(clippy::too_many_arguments)]
fn graph(
    cx: &mut BoardCtx,
    file: usize,
    raw_spaces: &[raw::RawSpace],
    edges: &[raw::RawEdge],
    paths: &[raw::RawPath],
    spaces: &mut HashMap<String, usize>,
    offset: usize,
    bounds: Option<f64>,
) -> GraphDef {
    let mut local: HashMap<String, usize> = HashMap::new();
    let mut out = GraphDef::default();
    for (i, s) in raw_spaces.iter().enumerate() {
        check_space_id(cx, file, &s.id, spaces, offset + i);
        local.insert(s.id.get().clone(), i);
        let (x, y) = (*s.x.get(), *s.y.get());
        let mut placed = true;
        for (v, axis) in [(&s.x, "x"), (&s.y, "y")] {
            let n = *v.get();
            if !(n.is_finite() && n.abs() <= MAX_COORDINATE) {
                placed = false;
                cx.err(
                    file,
                    v.span(),
                    format!(
                        "space `{}`: {axis} must be a number from -{} to {}, not {}",
                        s.id.get(),
                        shown(MAX_COORDINATE),
                        shown(MAX_COORDINATE),
                        shown(n)
                    ),
                );
            }
        }
        if let Some(size) = bounds
            && placed
            && (!(0.0..=size).contains(&x) || !(0.0..=size).contains(&y))
        {
            cx.err(
                file,
                s.id.span(),
                format!(
                    "space `{}` at ({x}, {y}) lies outside its section (0..{size})",
                    s.id.get(),
                ),
            );
        }
        out.spaces.push(SpaceDef {
            id: s.id.get().clone(),
            name: if s.name.is_empty() {
                s.id.get().clone()
            } else {
                s.name.clone()
            },
            x,
            y,
            tags: s.tags.clone(),
            props: Value::map_from_toml(&s.props),
        });
    }
    let find = |cx: &mut BoardCtx, id: &Sp<String>| -> Option<usize> {
        match local.get(id.get()) {
            Some(&i) => Some(i),
            None => {
                let hint = cx.hint(id.get(), local.keys().map(|k| k.as_str()));
                cx.err(
                    file,
                    id.span(),
                    format!("no space `{}` here{hint}", id.get()),
                );
                None
            }
        }
    };
    for e in edges {
        let (a, b) = (find(cx, &e.from), find(cx, &e.to));
        if let (Some(a), Some(b)) = (a, b) {
            if a == b {
                cx.err(file, e.to.span(), "an edge must join two different spaces");
            }
            let cost = edge_cost(cx, file, e.cost.as_ref());
            out.edges.push(EdgeDef {
                from: a,
                to: b,
                directed: e.directed,
                tags: e.tags.clone(),
                cost,
            });
        }
    }
    for p in paths {
        if p.spaces.len() < 2 {
            let span = p.spaces.first().map_or(0..0, |s| s.span());
            cx.err(file, span, "a path joins at least two spaces");
        }
        let ids: Vec<Option<usize>> = p.spaces.iter().map(|s| find(cx, s)).collect();
        let cost = edge_cost(cx, file, p.cost.as_ref());
        for (w, next) in ids.windows(2).zip(p.spaces.iter().skip(1)) {
            if let [Some(a), Some(b)] = w {
                if a == b {
                    cx.err(
                        file,
                        next.span(),
                        format!(
                            "a path must join two different spaces at each step, and `{}` follows itself",
                            next.get()
                        ),
                    );
                }
                out.edges.push(EdgeDef {
                    from: *a,
                    to: *b,
                    directed: p.directed,
                    tags: p.tags.clone(),
                    cost,
                });
            }
        }
    }
    out
}

fn sections(
    cx: &mut BoardCtx,
    file: usize,
    s: &raw::RawSections,
    spaces: &mut HashMap<String, usize>,
) -> SectionsDef {
    let (cols, rows) = (*s.columns.get(), *s.rows.get());
    let size = *s.size.get();
    // Without a size, where spaces and connectors lie in their section cannot be checked.
    let sized = size > 0.0 && size <= MAX_COORDINATE;
    if !sized {
        cx.err(
            file,
            s.size.span(),
            format!(
                "section size must be a number above 0 and at most {}, not {}",
                shown(MAX_COORDINATE),
                shown(size)
            ),
        );
    }
    let needed = cols as u64 * rows as u64;
    if needed != s.pieces.len() as u64 {
        cx.err(
            file,
            s.columns.span(),
            format!(
                "{cols} x {rows} layout needs {needed} sections, and {} are given",
                s.pieces.len()
            ),
        );
    }
    let mut ids: HashMap<String, ()> = HashMap::new();
    let mut out = Vec::new();
    let mut offset = 0;
    for p in &s.pieces {
        if ids.insert(p.id.get().clone(), ()).is_some() {
            cx.err(
                file,
                p.id.span(),
                format!("section `{}` is defined twice", p.id.get()),
            );
        }
        let g = graph(
            cx,
            file,
            &p.spaces,
            &p.edges,
            &p.paths,
            spaces,
            offset,
            sized.then_some(size),
        );
        let mut connectors = Vec::new();
        let local: HashMap<&str, usize> = g
            .spaces
            .iter()
            .enumerate()
            .rev()
            .map(|(i, sp)| (sp.id.as_str(), i))
            .collect();
        for c in &p.connectors {
            match local.get(c.space.get().as_str()).copied() {
                Some(i) => {
                    if sized && !(0.0..=size).contains(&c.at) {
                        cx.err(
                            file,
                            c.space.span(),
                            format!("connector at {} is off the side (0..{size})", shown(c.at)),
                        );
                    } else if !c.at.is_finite() {
                        cx.err(
                            file,
                            c.space.span(),
                            format!(
                                "connector at {}: `at` is a distance along the side",
                                shown(c.at)
                            ),
                        );
                    }
                    connectors.push((i, c.side, c.at));
                }
                None => {
                    let hint = cx.hint(c.space.get(), g.spaces.iter().map(|s| s.id.as_str()));
                    cx.err(
                        file,
                        c.space.span(),
                        format!(
                            "no space `{}` in section `{}`{hint}",
                            c.space.get(),
                            p.id.get()
                        ),
                    );
                }
            }
        }
        one_connector_a_place(cx, file, p);
        offset += g.spaces.len();
        out.push(SectionDef {
            id: p.id.get().clone(),
            name: p.name.clone(),
            graph: g,
            connectors,
        });
    }
    SectionsDef {
        size,
        columns: cols,
        rows,
        shuffle: s.shuffle,
        rotate: s.rotate,
        shuffle_option: s.shuffle_option.as_ref().map(|o| o.get().clone()),
        rotate_option: s.rotate_option.as_ref().map(|o| o.get().clone()),
        sections: out,
    }
}

/// Reports a second connector at the same place on a side of a section: every pair of
/// connectors that meet becomes a road, so a thousand at one place would join a thousand
/// times a thousand.
fn one_connector_a_place(cx: &mut BoardCtx, file: usize, p: &raw::RawSection) {
    let mut placed: Vec<&raw::RawConnector> =
        p.connectors.iter().filter(|c| c.at.is_finite()).collect();
    placed.sort_by(|a, b| {
        (a.side as u8)
            .cmp(&(b.side as u8))
            .then(a.at.total_cmp(&b.at))
    });
    // Each connector is compared with the first of the run of connectors at its place.
    let mut first: Option<&raw::RawConnector> = None;
    for b in placed {
        let same = first.is_some_and(|a| a.side == b.side && (b.at - a.at).abs() < 1e-6);
        if !same {
            first = Some(b);
            continue;
        }
        if let Some(a) = first {
            cx.err(
                file,
                b.space.span(),
                format!(
                    "section `{}` has a connector on side {:?} at {} already (`{}`); one place on a side joins one connector",
                    p.id.get(),
                    b.side,
                    shown(b.at),
                    a.space.get()
                ),
            );
        }
    }
}

fn track(cx: &mut BoardCtx, file: usize, t: &raw::RawTrack, ids: &mut Vec<String>) -> TrackDef {
    for v in [&t.table_width, &t.table_height] {
        if !(2.0..=MAX_TRACK_TABLE).contains(v.get()) {
            cx.err(
                file,
                v.span(),
                format!(
                    "the table must be from 2 to {MAX_TRACK_TABLE} track lengths on each side, not {}",
                    shown(*v.get())
                ),
            );
        }
    }
    let mut pieces = Vec::new();
    let mut seen: std::collections::HashSet<String> = ids.iter().cloned().collect();
    for p in &t.pieces {
        if !seen.insert(p.id.get().clone()) {
            cx.err(
                file,
                p.id.span(),
                format!("track piece `{}` is defined twice", p.id.get()),
            );
        }
        ids.push(p.id.get().clone());
        let lanes = *p.lanes.get();
        if !(1..=4).contains(&lanes) {
            cx.err(
                file,
                p.lanes.span(),
                format!("a track piece has 1 to 4 lanes, not {lanes}"),
            );
        }
        if *p.rows.get() == 0 || *p.rows.get() > 8 {
            cx.err(
                file,
                p.rows.span(),
                "a track piece has 1 to 8 rows of spaces",
            );
        }
        let turn = *p.turn.get();
        if ![-90, -45, 0, 45, 90].contains(&turn) {
            cx.err(
                file,
                p.turn.span(),
                format!("turn is one of -90, -45, 0, 45, 90 degrees, not {turn}"),
            );
        }
        let mut gates = Vec::new();
        for g in &p.gates {
            let size = *g.size.get();
            if !(2..=5).contains(&size) {
                cx.err(
                    file,
                    g.size.span(),
                    format!("a gate needs a combo of 2 to 5 dice, not {size}"),
                );
            }
            if g.lanes.is_empty() || g.lanes.iter().any(|&l| l >= lanes) {
                cx.err(
                    file,
                    g.size.span(),
                    format!(
                        "gate lanes must be between 0 and {}",
                        lanes.saturating_sub(1)
                    ),
                );
            }
            gates.push((g.lanes.clone(), size));
        }
        pieces.push(TrackPieceDef {
            id: p.id.get().clone(),
            name: p.name.clone(),
            role: p.role,
            lanes,
            rows: *p.rows.get(),
            turn,
            gates,
            tags: p.tags.clone(),
            props: Value::map_from_toml(&p.props),
        });
    }
    let mut start_heading = 0;
    if let Some(h) = &t.start_heading {
        if h.get() % 45 == 0 {
            start_heading = (h.get() / 45).rem_euclid(8) as i32;
        } else {
            cx.err(
                file,
                h.span(),
                format!(
                    "the start heading must be a multiple of 45 degrees, not {}",
                    h.get()
                ),
            );
        }
    }
    let fraction = |v: &Option<raw::Sp<f64>>, default: f64, what: &str, cx: &mut BoardCtx| match v {
        Some(v) if (0.0..=1.0).contains(v.get()) => *v.get(),
        Some(v) => {
            cx.err(
                file,
                v.span(),
                format!("{what} must be from 0 to 1, not {}", shown(*v.get())),
            );
            default
        }
        None => default,
    };
    let start_from_back = fraction(&t.start_from_back, 0.5, "`start_from_back`", cx);
    let clearance = fraction(
        &t.clearance,
        super::def::DEFAULT_CLEARANCE,
        "the clearance (in card lengths)",
        cx,
    );
    TrackDef {
        table_width: *t.table_width.get(),
        table_height: *t.table_height.get(),
        start_heading,
        start_from_back,
        clearance,
        pieces,
    }
}
