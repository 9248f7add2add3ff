//! The `[display]` table: compiled for every embedded variant, refused
//! with the key at fault when wrong, and never read by the rules.

use quadrille_engine::{embedded, Variant};
use std::sync::Arc;

const CHESS: &str = include_str!("../../../variants/chess.toml");

/// The chess file with its `[display]` table replaced.
fn chess_with(display: &str) -> Result<Arc<Variant>, String> {
    let base = CHESS.split("[display]").next().unwrap();
    Variant::from_toml(&format!("{base}[display]\n{display}\n"))
        .map(Arc::new)
        .map_err(|e| e.to_string())
}

#[test]
fn every_embedded_variant_colours_every_army() {
    for name in embedded::names() {
        let v = embedded::variant(name).unwrap();
        assert_eq!(v.display.army_colours.len(), v.armies.len(), "{name}");
        assert!(v.display.army_colours.iter().all(Option::is_some), "{name}");
    }
}

#[test]
fn avon_draws_its_river_and_the_closed_part_of_the_de_line() {
    let v = embedded::variant("avon").unwrap();
    let g = &v.geometry;
    let river = &v.display.lines[0];
    assert_eq!(river.label, "River");
    let edges: Vec<(String, String)> = river
        .edges(g)
        .into_iter()
        .map(|(a, b)| (g.name(a), g.name(b)))
        .collect();
    assert_eq!(edges.len(), 8);
    assert!(
        edges
            .iter()
            .all(|(a, b)| a.ends_with('4') && b.ends_with('5')),
        "{edges:?}"
    );
    // d/e may not be crossed on ranks 0, 1, 8 and 9.
    let de = &v.display.lines[1];
    let mut cells: Vec<String> = de
        .edges(g)
        .into_iter()
        .map(|(a, b)| g.name(a) + &g.name(b))
        .collect();
    cells.sort();
    assert_eq!(cells, ["d0e0", "d1e1", "d8e8", "d9e9"]);
}

#[test]
fn fivequarters_shades_its_camps_and_centre() {
    let v = embedded::variant("ariana").unwrap();
    let labels: Vec<&str> = v.display.shades.iter().map(|s| s.label.as_str()).collect();
    assert_eq!(
        labels,
        [
            "Red camp",
            "Orange camp",
            "Green camp",
            "Blue camp",
            "Centre"
        ]
    );
    assert!(v.display.shades.iter().all(|s| s.cells.len() == 9));
}

#[test]
fn display_is_optional_and_cosmetic() {
    let plain = chess_with("").unwrap();
    assert_eq!(plain.display.army_colours, vec![None, None]);
    let drawn = chess_with(
        "armies = { White = \"#FFF\" }\nglyphs = { N = \"N*\" }\nimages = { N = \"horse\" }\nshade = [{ cells = \"a1-h2\", colour = \"#abcdef\", label = \"home\" }]",
    )
    .unwrap();
    assert_eq!(drawn.display.army_colours[0].as_deref(), Some("#fff"));
    assert_eq!(
        drawn.display.glyphs.values().next().map(String::as_str),
        Some("N*")
    );
    assert_eq!(
        drawn.display.images.values().next().map(String::as_str),
        Some("horse")
    );
    assert_eq!(drawn.display.shades[0].cells.len(), 16);
    // Same rules either way.
    assert_eq!(plain.start().perft(3), drawn.start().perft(3));
}

#[test]
fn bad_display_entries_name_the_key() {
    for (display, key, what) in [
        (
            "armies = { Red = \"#fff\" }",
            "display.armies.Red",
            "no army named",
        ),
        (
            "armies = { White = \"white\" }",
            "display.armies.White",
            "not a colour",
        ),
        (
            "armies = { White = \"#ggg\" }",
            "display.armies.White",
            "not a colour",
        ),
        (
            "shade = [{ cells = \"z9\", colour = \"#fff\" }]",
            "display.shade[0].cells",
            "not a cell",
        ),
        (
            "shade = [{ cells = \"a1\", colour = \"#fff\", label = \"x\\ny\" }]",
            "display.shade[0].label",
            "one line",
        ),
        (
            "lines = [{ between = [\"a1\", \"q1\"] }]",
            "display.lines[0].between[1]",
            "not a cell",
        ),
        (
            "lines = [{ between = [\"a1\", \"a2\"], colour = \"red\" }]",
            "display.lines[0].colour",
            "not a colour",
        ),
        ("glyphs = { X = \"x\" }", "display.glyphs.X", "no piece"),
        ("glyphs = { N = \"\" }", "display.glyphs.N", "one to three"),
        (
            "glyphs = { N = \"long\" }",
            "display.glyphs.N",
            "one to three",
        ),
        ("images = { X = \"camel\" }", "display.images.X", "no piece"),
        (
            "images = { N = \"Camel\" }",
            "display.images.N",
            "lowercase",
        ),
        ("images = { N = \"\" }", "display.images.N", "lowercase"),
        ("colour = 3", "line", "unknown field"),
    ] {
        let e = chess_with(display).unwrap_err();
        assert!(e.contains(key) && e.contains(what), "{display}: {e}");
    }
}
