//! The print layout file a mod may name in `mod.toml` (`[content] print = "print.toml"`), as
//! read: card sizes, each deck's template, the board's scale and the player aid. The binary's
//! printer checks and uses it (`editor/src/print/layout.rs`); it lives here so its JSON Schema
//! is generated with the other content files' (`schemas/print.schema.json`).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;
use toml::Spanned;

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PrintFile {
    /// The card size every deck takes unless it says otherwise (`poker`, `bridge`, `tarot`,
    /// `mini` or `WxH` in mm).
    #[schemars(with = "Option<String>")]
    pub card: Option<Spanned<String>>,
    #[serde(default)]
    pub board: BoardScale,
    /// Colour names for `{field}` colours: a field whose value is `red` takes `colors.red`.
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, String>")]
    pub colors: BTreeMap<String, Spanned<String>>,
    pub aid: Option<Aid>,
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, DeckTemplate>")]
    pub decks: BTreeMap<String, Spanned<DeckTemplate>>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BoardScale {
    /// Millimetres for one board unit: a graph's or a section's x/y unit, a grid cell, a track
    /// card's length.
    #[schemars(with = "Option<f32>")]
    pub mm_per_unit: Option<Spanned<f32>>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Aid {
    pub title: String,
    pub lines: Vec<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeckTemplate {
    #[schemars(with = "Option<String>")]
    pub card: Option<Spanned<String>>,
    /// Face colour: `#rrggbb`, a `[colors]` name, or `{field}`.
    #[schemars(with = "Option<String>")]
    pub background: Option<Spanned<String>>,
    #[schemars(with = "Option<String>")]
    pub border: Option<Spanned<String>>,
    #[serde(default)]
    pub back: Back,
    #[serde(default)]
    #[schemars(with = "Vec<Region>")]
    pub regions: Vec<Spanned<Region>>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Back {
    pub title: Option<String>,
    pub subtitle: Option<String>,
    #[schemars(with = "Option<String>")]
    pub background: Option<Spanned<String>>,
    #[schemars(with = "Option<String>")]
    pub color: Option<Spanned<String>>,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Region {
    /// Millimetres from the card's trimmed top left.
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
    /// Text with `{field}` slots (`{name}`, `{text}`, `{id}`, `{count}`, `{tags}` and the
    /// deck's fields).
    pub text: Option<String>,
    /// Points; shrunk to `min` to fit.
    pub size: Option<f32>,
    pub min: Option<f32>,
    #[serde(default)]
    pub bold: bool,
    pub align: Option<String>,
    /// Centre the lines vertically in the region.
    #[serde(default)]
    pub middle: bool,
    pub color: Option<String>,
    pub fill: Option<String>,
    pub stroke: Option<String>,
    /// A PNG or JPEG in the mod's folder, with `{field}` slots.
    pub image: Option<String>,
    /// A tile kind to draw with its roads, usually `{tile}` (a field naming one).
    pub tile: Option<String>,
    /// Only for cards whose slots all have a value (a field the card leaves empty hides it).
    #[serde(default)]
    pub when: Option<String>,
}
