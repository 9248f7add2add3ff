//! The variants a chess GUI can play with us: the two-player ones (the
//! protocols assume two sides moving in turn), by name or alias.

use quadrille_engine::{embedded, Variant};
use std::sync::Arc;

/// Other names GUIs and engines use: Fairy-Stockfish's section names
/// (tools/fsf/variants.ini) and the protocols' name for chess.
const ALIASES: &[(&str, &str)] = &[
    ("normal", "chess"),
    ("standard", "chess"),
    ("caissa", "caissa-britannia"),
];

/// Two-player variants by name.
#[derive(Clone)]
pub struct Catalog {
    variants: Vec<Arc<Variant>>,
}

impl Catalog {
    /// The embedded two-player variants.
    pub fn embedded() -> Catalog {
        let variants = embedded::names()
            .filter_map(|n| embedded::variant(n).ok())
            .filter(|v| playable(v))
            .collect();
        Catalog { variants }
    }

    /// No variants.
    pub fn empty() -> Catalog {
        Catalog {
            variants: Vec::new(),
        }
    }

    /// Adds (or replaces, by name) a variant if it has two players.
    pub fn with(mut self, variant: Arc<Variant>) -> Catalog {
        if playable(&variant) {
            self.variants.retain(|v| v.name != variant.name);
            self.variants.push(variant);
        }
        self
    }

    /// The variants' names, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> + '_ {
        self.variants.iter().map(|v| v.name.as_str())
    }

    pub fn variants(&self) -> &[Arc<Variant>] {
        &self.variants
    }

    /// A variant by name, ignoring case and hyphens (`magnacarta`), or by
    /// an alias (`normal`, `caissa`).
    pub fn get(&self, name: &str) -> Option<Arc<Variant>> {
        let name = name.trim().to_ascii_lowercase();
        let name = ALIASES
            .iter()
            .find(|(alias, _)| *alias == name)
            .map_or(name.as_str(), |(_, to)| to);
        let bare = |s: &str| s.replace('-', "");
        self.variants
            .iter()
            .find(|v| v.name == name || bare(&v.name) == bare(name))
            .cloned()
    }

    /// The default variant: chess if present, else the first.
    pub fn default_variant(&self) -> Option<Arc<Variant>> {
        self.get("chess").or_else(|| self.variants.first().cloned())
    }
}

/// Two players, two armies: what UCI and XBoard can drive.
pub fn playable(v: &Variant) -> bool {
    v.players.len() == 2 && v.armies.len() == 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_player_variants_by_name_and_alias() {
        let c = Catalog::embedded();
        let names: Vec<&str> = c.names().collect();
        assert_eq!(names, ["chess", "magna-carta", "caissa-britannia"]);
        assert_eq!(c.get("MagnaCarta").unwrap().name, "magna-carta");
        assert_eq!(c.get("caissa").unwrap().name, "caissa-britannia");
        assert_eq!(c.get("normal").unwrap().name, "chess");
        assert!(c.get("avon").is_none());
        assert!(c.get("nonsense").is_none());
    }
}
