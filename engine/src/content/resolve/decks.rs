//! Decks and tables: their cards and rows, with the keys every card has (id, name, text,
//! count, tags) and a table's key column.

use std::collections::HashSet;

use super::Ctx;
use super::fields::{check_rows, fixed_string, resolve_fields, row_files};
use super::refs::PendingRef;
use crate::content::def::*;
use crate::content::load::At;
use crate::content::raw::{self, RawValue, Sp};
use crate::diag::suggestion;

pub(super) fn resolve_deck(
    cx: &mut Ctx,
    d: &At<raw::RawDeck>,
    pending: &mut Vec<PendingRef>,
) -> DeckDef {
    let r = &d.item;
    let file = d.file;
    cx.check_id(file, &r.id, "deck");
    const FIXED: [&str; 5] = ["id", "name", "text", "count", "tags"];
    let fields = resolve_fields(cx, file, &r.fields, &FIXED);
    let files = row_files(file, r.cards.len(), &r.card_files);
    let values = check_rows(
        cx, &files, "card", &r.fields, &fields, &r.cards, &FIXED, pending,
    );
    let mut cards = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    for ((row, fields), &file) in r.cards.iter().zip(values).zip(&files) {
        let Some((id, span)) = fixed_string(row, "id") else {
            let span = row.keys().next().map_or(0..0, |k| k.span());
            cx.err(file, span, "a card needs an `id` (a string)");
            continue;
        };
        let sp_check = Sp(toml::Spanned::new(span.clone(), id.clone()));
        cx.check_id(file, &sp_check, "card");
        if !seen.insert(id.clone()) {
            cx.err(
                file,
                span.clone(),
                format!(
                    "card `{id}` appears twice in deck `{}`; use `count` for copies",
                    r.id.get()
                ),
            );
        }
        let mut count = 1u32;
        let mut tags = Vec::new();
        for (k, v) in row {
            match (k.get().as_str(), v.get()) {
                ("count", RawValue::Integer(c)) if (0..=1000).contains(c) => count = *c as u32,
                ("count", _) => cx.err(file, v.span(), "`count` is a whole number from 0 to 1000"),
                ("tags", RawValue::Array(a)) if a.iter().all(|t| t.is_str()) => {
                    tags = a
                        .iter()
                        .filter_map(|t| t.as_str().map(String::from))
                        .collect();
                    if let Some(table) = &r.tags_from {
                        for tag in &tags {
                            pending.push(PendingRef {
                                file,
                                span: v.span(),
                                target: format!("table:{}", table.get()),
                                id: tag.clone(),
                                context: format!("card `{id}`, tags"),
                                tagged: None,
                            });
                        }
                    }
                }
                ("tags", _) => cx.err(file, v.span(), "`tags` is a list of strings"),
                ("name" | "text", x) if !x.is_str() => {
                    cx.err(file, v.span(), format!("`{}` is a string", k.get()))
                }
                _ => {}
            }
        }
        cards.push(CardDef {
            name: fixed_string(row, "name").map_or_else(|| id.clone(), |(n, _)| n),
            text: fixed_string(row, "text")
                .map(|(t, _)| t)
                .unwrap_or_default(),
            id,
            count,
            tags,
            fields,
        });
    }
    DeckDef {
        id: r.id.get().clone(),
        name: r.name.clone(),
        description: r.description.clone(),
        fields,
        cards,
    }
}

pub(super) fn resolve_table(
    cx: &mut Ctx,
    t: &At<raw::RawTable>,
    pending: &mut Vec<PendingRef>,
) -> TableDef {
    let r = &t.item;
    let file = t.file;
    cx.check_id(file, &r.id, "table");
    let columns = resolve_fields(cx, file, &r.columns, &[]);
    let files = row_files(file, r.rows.len(), &r.row_files);
    let rows = check_rows(
        cx,
        &files,
        "row",
        &r.columns,
        &columns,
        &r.rows,
        &[],
        pending,
    );
    if let Some(k) = &r.key {
        if !columns.iter().any(|c| &c.name == k.get()) {
            let hint = suggestion(k.get(), columns.iter().map(|c| c.name.as_str()));
            cx.err(
                file,
                k.span(),
                format!("key column `{}` is not among the columns{hint}", k.get()),
            );
        } else {
            let mut seen = HashSet::new();
            for (i, row) in rows.iter().enumerate() {
                match row.get(k.get()) {
                    Some(v) => {
                        if !seen.insert(v.to_string()) {
                            let file = files[i];
                            let span = r
                                .rows
                                .get(i)
                                .and_then(|rw| rw.keys().next())
                                .map_or(0..0, |k| k.span());
                            cx.err(
                                file,
                                span,
                                format!("two rows have the key {} = {v}", k.get()),
                            );
                        }
                    }
                    None => {
                        let file = files[i];
                        let span = r
                            .rows
                            .get(i)
                            .and_then(|rw| rw.keys().next())
                            .map_or(0..0, |k| k.span());
                        cx.err(
                            file,
                            span,
                            format!(
                                "row #{} has no value for the key column `{}`",
                                i + 1,
                                k.get()
                            ),
                        );
                    }
                }
            }
        }
    }
    TableDef {
        id: r.id.get().clone(),
        name: r.name.clone(),
        description: r.description.clone(),
        key: r.key.as_ref().map(|k| k.get().clone()),
        columns,
        rows,
    }
}
