//! A variant as JSON for the front end: the board's shape, regions,
//! display hints, armies with colours, players, and every piece with its
//! symbol and its moves in words (from the engine's Betza description).

use quadrille_engine::{betza, CellSet, Geometry, Variant};
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Serialize)]
pub struct VariantView {
    pub name: String,
    pub title: String,
    pub description: String,
    pub setup: String,
    pub board: BoardView,
    pub regions: BTreeMap<String, Vec<String>>,
    pub armies: Vec<ArmyView>,
    pub players: Vec<PlayerView>,
    pub pieces: Vec<PieceView>,
    pub shades: Vec<ShadeView>,
    pub lines: Vec<LineView>,
}

#[derive(Serialize)]
pub struct BoardView {
    pub files: u8,
    pub ranks: u8,
    pub first_rank: u8,
    /// The cells that exist, by name.
    pub cells: Vec<String>,
}

#[derive(Serialize)]
pub struct ArmyView {
    pub name: String,
    pub tag: char,
    /// `#rrggbb`: the variant's `[display]` colour or a default.
    pub colour: String,
}

#[derive(Serialize)]
pub struct PlayerView {
    pub name: String,
    pub tag: char,
    pub army: u8,
    /// north, east, south or west.
    pub forward: String,
    pub home: Vec<String>,
    /// The home as rectangles, e.g. `a0-h4` (empty when none).
    pub home_text: String,
}

#[derive(Serialize)]
pub struct PieceView {
    pub letter: char,
    pub name: String,
    pub betza: String,
    /// The symbol to draw, or `None` for "the letter on a disc".
    pub glyph: Option<String>,
    /// The picture to draw: the variant file's `display.images`, else the
    /// piece's name in lowercase with `-` for spaces (`prince-consort`).
    pub image: String,
    pub value: Option<i32>,
    /// Its moves in words, one line per Betza atom, then a line per other
    /// way of moving it has on some cells (`rules.region_moves`).
    pub moves: Vec<String>,
    /// Some army must keep a piece of this type (check, extinction), or it
    /// counts for royal presence.
    pub royal: bool,
}

#[derive(Serialize)]
pub struct ShadeView {
    pub cells: Vec<String>,
    pub colour: String,
    pub label: String,
}

#[derive(Serialize)]
pub struct LineView {
    /// Pairs of adjacent cells whose shared edge the line follows.
    pub edges: Vec<[String; 2]>,
    pub colour: String,
    pub label: String,
}

/// Default army colours: white and black for two armies, otherwise red,
/// orange, green and blue.
fn default_colour(armies: usize, i: usize) -> &'static str {
    const TWO: [&str; 2] = ["#ffffff", "#1e1e1e"];
    const FOUR: [&str; 4] = ["#d0312d", "#f28c28", "#2e9e44", "#2864c8"];
    if armies <= 2 {
        TWO[i]
    } else {
        FOUR[i % 4]
    }
}

/// The standard chess symbol for a piece that moves exactly like a chess
/// piece.
fn standard_glyph(betza: &str, pawn: bool) -> Option<&'static str> {
    Some(match betza {
        "K" => "\u{265A}",
        "Q" => "\u{265B}",
        "R" => "\u{265C}",
        "B" => "\u{265D}",
        "N" => "\u{265E}",
        "mfWcfF" if pawn => "\u{265F}",
        _ => return None,
    })
}

fn names(g: &Geometry, set: &CellSet) -> Vec<String> {
    set.iter().map(|c| g.name(c)).collect()
}

/// The moves a piece type makes instead of its own on some cells (the Pass
/// games' Pawns), one line per Betza string: its words, then where and for
/// whom, each region facing its own forward.
fn region_moves(v: &Variant, kind: usize) -> Vec<String> {
    let mut by_betza: BTreeMap<&str, (Vec<String>, Vec<String>)> = BTreeMap::new();
    for m in v
        .rules
        .region_moves
        .iter()
        .filter(|m| m.pieces >> kind & 1 != 0)
    {
        let (words, wheres) = by_betza.entry(&m.betza).or_default();
        if words.is_empty() {
            *words = betza::describe(&m.atoms);
        }
        // A named region with exactly these cells, else the cells.
        let place = v.regions.iter().find(|(_, s)| **s == m.cells).map_or_else(
            || names(&v.geometry, &m.cells).join(" "),
            |(k, _)| k.replace('_', " "),
        );
        let forward = format!("{:?}", m.forward).to_lowercase();
        wheres.push(format!(
            "{} on {place} (forward {forward})",
            v.players[m.player].name
        ));
    }
    by_betza
        .into_iter()
        .map(|(b, (words, wheres))| format!("As {b} ({}): {}", words.join("; "), wheres.join(", ")))
        .collect()
}

/// Describes a variant for the front end.
pub fn variant_view(v: &Variant) -> VariantView {
    let g = &v.geometry;
    let royal_mask = v
        .rules
        .royal
        .as_ref()
        .map_or(0, |r| r.must_retain.iter().fold(0, |m, x| m | x))
        | v.rules.royal_presence.unwrap_or(0);
    // Each symbol once: the variant's own glyphs, then standard ones.
    let mut used: Vec<String> = v.display.glyphs.values().cloned().collect();
    let pieces = v
        .pieces
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let glyph = v.display.glyphs.get(&(i as u8)).cloned().or_else(|| {
                let s = standard_glyph(&p.betza, p.pawn)?.to_string();
                (!used.contains(&s)).then(|| {
                    used.push(s.clone());
                    s
                })
            });
            PieceView {
                letter: p.letter,
                name: p.name.clone(),
                betza: p.betza.clone(),
                glyph,
                image: v
                    .display
                    .images
                    .get(&(i as u8))
                    .cloned()
                    .unwrap_or_else(|| {
                        p.name
                            .to_lowercase()
                            .split_whitespace()
                            .collect::<Vec<_>>()
                            .join("-")
                    }),
                value: p.value,
                moves: betza::describe(&p.atoms)
                    .into_iter()
                    .chain(region_moves(v, i))
                    .collect(),
                royal: royal_mask >> i & 1 != 0,
            }
        })
        .collect();
    VariantView {
        name: v.name.clone(),
        title: v.title.clone(),
        description: v.description.clone(),
        setup: v.setup.clone(),
        board: BoardView {
            files: g.files,
            ranks: g.ranks,
            first_rank: g.first_rank,
            cells: names(g, &g.cells),
        },
        regions: v
            .regions
            .iter()
            .map(|(k, s)| (k.clone(), names(g, s)))
            .collect(),
        armies: v
            .armies
            .iter()
            .enumerate()
            .map(|(i, a)| ArmyView {
                name: a.name.clone(),
                tag: a.tag,
                colour: v.display.army_colours[i]
                    .clone()
                    .unwrap_or_else(|| default_colour(v.armies.len(), i).to_string()),
            })
            .collect(),
        players: v
            .players
            .iter()
            .map(|p| PlayerView {
                name: p.name.clone(),
                tag: p.tag,
                army: p.army,
                forward: format!("{:?}", p.forward).to_lowercase(),
                home: names(g, &p.home),
                home_text: if p.home.is_empty() {
                    String::new()
                } else {
                    g.describe_cells(&p.home)
                },
            })
            .collect(),
        pieces,
        shades: v
            .display
            .shades
            .iter()
            .map(|s| ShadeView {
                cells: names(g, &s.cells),
                colour: s.colour.clone(),
                label: s.label.clone(),
            })
            .collect(),
        lines: v
            .display
            .lines
            .iter()
            .map(|l| LineView {
                edges: l
                    .edges(g)
                    .into_iter()
                    .map(|(a, b)| [g.name(a), g.name(b)])
                    .collect(),
                colour: l.colour.clone(),
                label: l.label.clone(),
            })
            .collect(),
    }
}
