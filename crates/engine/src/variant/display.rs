//! Display hints (`[display]` in a variant file): colours, shaded cells,
//! lines between cells and piece glyphs for front ends. Purely cosmetic:
//! the rules never read them.

use super::def::DisplayDef;
use super::{Army, PieceKind, PieceType, VResult, VariantError};
use crate::geometry::{Cell, CellSet, Geometry};
use std::collections::BTreeMap;

/// The compiled `[display]` table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Display {
    /// Per army (in file order): its colour as `#rrggbb`, if the file gives one.
    pub army_colours: Vec<Option<String>>,
    /// Cells to shade, drawn in file order.
    pub shades: Vec<Shade>,
    /// Lines along the edges between two cell sets (rivers, borders).
    pub lines: Vec<Line>,
    /// Piece type -> the symbol to draw for it.
    pub glyphs: BTreeMap<PieceType, String>,
    /// Piece type -> the name of its picture in a front end.
    pub images: BTreeMap<PieceType, String>,
}

/// Cells shaded in one colour, with an optional label.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shade {
    /// The cells to shade.
    pub cells: CellSet,
    /// A CSS colour.
    pub colour: String,
    /// What a legend calls it.
    pub label: String,
}

/// A line drawn along every edge shared by a cell of `between[0]` and an
/// orthogonally adjacent cell of `between[1]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The line runs along every edge between a cell of the first set and an orthogonally adjacent cell of the second.
    pub between: [CellSet; 2],
    /// A CSS colour.
    pub colour: String,
    /// What a legend calls it.
    pub label: String,
}

/// Colour of a line when the file gives none.
const LINE_COLOUR: &str = "#2f6fd0";

impl Line {
    /// The pairs of orthogonally adjacent cells (a in `between[0]`, b in
    /// `between[1]`) whose shared edge the line follows.
    pub fn edges(&self, g: &Geometry) -> Vec<(Cell, Cell)> {
        g.edges_between(&self.between[0], &self.between[1])
    }
}

/// `#rgb` or `#rrggbb`, normalised to lower case.
fn colour(key: &str, s: &str) -> VResult<String> {
    let hex = s.strip_prefix('#').unwrap_or("");
    if (hex.len() == 3 || hex.len() == 6) && hex.chars().all(|c| c.is_ascii_hexdigit()) {
        Ok(s.to_ascii_lowercase())
    } else {
        Err(VariantError::at(
            key,
            format!("`{s}` is not a colour such as #f4d0c8"),
        ))
    }
}

/// Labels are shown as text; keep them short and on one line.
fn label(key: &str, s: &str) -> VResult<String> {
    if s.chars().count() > 40 || s.chars().any(char::is_control) {
        return Err(VariantError::at(
            key,
            "a label is one line of at most 40 characters",
        ));
    }
    Ok(s.to_string())
}

/// Checks and compiles `[display]`; `cells` reads a cell list.
pub(super) fn compile(
    def: &DisplayDef,
    armies: &[Army],
    pieces: &[PieceKind],
    cells: impl Fn(&str, &str) -> VResult<CellSet>,
) -> VResult<Display> {
    let mut army_colours = vec![None; armies.len()];
    for (name, c) in &def.armies {
        let key = format!("display.armies.{name}");
        let i = armies
            .iter()
            .position(|a| &a.name == name)
            .ok_or_else(|| VariantError::at(&key, format!("no army named `{name}`")))?;
        army_colours[i] = Some(colour(&key, c)?);
    }
    let mut shades = Vec::new();
    for (i, s) in def.shade.iter().enumerate() {
        let key = format!("display.shade[{i}]");
        shades.push(Shade {
            cells: cells(&format!("{key}.cells"), &s.cells)?,
            colour: colour(&format!("{key}.colour"), &s.colour)?,
            label: label(&format!("{key}.label"), &s.label)?,
        });
    }
    let mut lines = Vec::new();
    for (i, l) in def.lines.iter().enumerate() {
        let key = format!("display.lines[{i}]");
        lines.push(Line {
            between: [
                cells(&format!("{key}.between[0]"), &l.between[0])?,
                cells(&format!("{key}.between[1]"), &l.between[1])?,
            ],
            colour: match &l.colour {
                Some(c) => colour(&format!("{key}.colour"), c)?,
                None => LINE_COLOUR.to_string(),
            },
            label: label(&format!("{key}.label"), &l.label)?,
        });
    }
    // The piece type a table's key names.
    let type_of = |table: &str, letter: &str| {
        let key = format!("display.{table}.{letter}");
        pieces
            .iter()
            .position(|p| p.letter.to_string() == *letter)
            .map(|t| (t as PieceType, key.clone()))
            .ok_or_else(|| VariantError::at(&key, format!("no piece with letter `{letter}`")))
    };
    let mut glyphs = BTreeMap::new();
    for (letter, glyph) in &def.glyphs {
        let (t, key) = type_of("glyphs", letter)?;
        let n = glyph.chars().count();
        if n == 0 || n > 3 || glyph.chars().any(|c| c.is_control() || c.is_whitespace()) {
            return Err(VariantError::at(
                &key,
                "a glyph is one to three visible characters",
            ));
        }
        glyphs.insert(t, glyph.clone());
    }
    let mut images = BTreeMap::new();
    for (letter, image) in &def.images {
        let (t, key) = type_of("images", letter)?;
        if image.is_empty()
            || image.len() > 32
            || !image.chars().all(|c| c.is_ascii_lowercase() || c == '-')
        {
            return Err(VariantError::at(
                &key,
                "an image name is 1 to 32 lowercase letters and `-`",
            ));
        }
        images.insert(t, image.clone());
    }
    Ok(Display {
        army_colours,
        shades,
        lines,
        glyphs,
        images,
    })
}
