//! The variant files shipped inside the binary (from `variants/`).

use super::{Variant, VariantError};
use std::sync::Arc;

/// (name, file text) of every embedded variant.
pub const FILES: &[(&str, &str)] = &[
    ("chess", include_str!("../../../../variants/chess.toml")),
    (
        "magna-carta",
        include_str!("../../../../variants/magna-carta.toml"),
    ),
    (
        "caissa-britannia",
        include_str!("../../../../variants/caissa-britannia.toml"),
    ),
    ("avon", include_str!("../../../../variants/avon.toml")),
    ("ariana", include_str!("../../../../variants/ariana.toml")),
    ("diana", include_str!("../../../../variants/diana.toml")),
    ("electra", include_str!("../../../../variants/electra.toml")),
    (
        "los-alamos",
        include_str!("../../../../variants/los-alamos.toml"),
    ),
    ("minerva", include_str!("../../../../variants/minerva.toml")),
    ("sylvia", include_str!("../../../../variants/sylvia.toml")),
    (
        "xiang-aikou",
        include_str!("../../../../variants/xiang-aikou.toml"),
    ),
    (
        "anglis-aikou",
        include_str!("../../../../variants/anglis-aikou.toml"),
    ),
    (
        "gnu-aikou",
        include_str!("../../../../variants/gnu-aikou.toml"),
    ),
    (
        "caliph-aikou",
        include_str!("../../../../variants/caliph-aikou.toml"),
    ),
    (
        "tor-aikou",
        include_str!("../../../../variants/tor-aikou.toml"),
    ),
    (
        "yang-aikou",
        include_str!("../../../../variants/yang-aikou.toml"),
    ),
];

/// The file text of an embedded variant.
pub fn text(name: &str) -> Option<&'static str> {
    FILES.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// Names of the embedded variants.
pub fn names() -> impl Iterator<Item = &'static str> {
    FILES.iter().map(|(n, _)| *n)
}

/// Compiles an embedded variant by name.
pub fn variant(name: &str) -> Result<Arc<Variant>, VariantError> {
    let (file, text) = FILES
        .iter()
        .find(|(n, _)| *n == name)
        .ok_or_else(|| VariantError {
            file: None,
            location: "variant".into(),
            message: format!(
                "no embedded variant `{name}` (known: {})",
                names().collect::<Vec<_>>().join(", ")
            ),
        })?;
    Variant::from_toml(text)
        .map(Arc::new)
        .map_err(|e| e.in_file(format!("variants/{file}.toml")))
}
