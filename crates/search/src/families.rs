//! The families of the shipped four-player games, by variant name: what
//! the choices measured per family (the level table) are keyed on. A
//! variant loaded from a user's file is in none.

/// The six Pass (Aikou) games.
pub const PASS: &[&str] = &[
    "anglis-aikou",
    "caliph-aikou",
    "gnu-aikou",
    "tor-aikou",
    "xiang-aikou",
    "yang-aikou",
];

/// The six Mini Fivequarters games (a cross of five 3x3 blocks).
pub const MINI_FIVEQUARTERS: &[&str] = &[
    "ariana",
    "diana",
    "electra",
    "los-alamos",
    "minerva",
    "sylvia",
];

#[cfg(test)]
mod tests {
    use super::*;
    use quadrille_engine::embedded;

    /// Every name is an embedded game of four armies, in one family only.
    #[test]
    fn families_name_four_player_games() {
        for name in PASS.iter().chain(MINI_FIVEQUARTERS) {
            let v = embedded::variant(name).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(v.armies.len(), 4, "{name}");
            assert!(!(PASS.contains(name) && MINI_FIVEQUARTERS.contains(name)));
        }
    }
}
