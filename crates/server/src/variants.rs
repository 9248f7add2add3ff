//! The variants the server offers: the embedded ones and those loaded from
//! files at start-up (`--variant-file`). A game keeps the text of a
//! variant that is not embedded, so it reloads without the file.

use quadrille_engine::{embedded, Variant};
use std::collections::BTreeMap;
use std::sync::Arc;

/// A variant and, unless it is embedded, its definition file's text.
#[derive(Clone)]
pub struct Source {
    pub variant: Arc<Variant>,
    pub file: Option<Arc<str>>,
}

/// Variants by name.
#[derive(Clone, Default)]
pub struct Variants {
    map: BTreeMap<String, Source>,
}

/// Largest variant file accepted from a request or a record.
pub const MAX_VARIANT_FILE: usize = 64 * 1024;

impl Variants {
    /// Every embedded variant.
    pub fn embedded() -> Result<Variants, String> {
        let mut map = BTreeMap::new();
        for name in embedded::names() {
            let variant = embedded::variant(name).map_err(|e| e.to_string())?;
            map.insert(
                name.to_string(),
                Source {
                    variant,
                    file: None,
                },
            );
        }
        Ok(Variants { map })
    }

    /// Adds a variant from a definition file; `origin` names it in errors.
    pub fn add_file(&mut self, origin: &str, text: &str) -> Result<String, String> {
        let src = compile(text).map_err(|e| format!("{origin}: {e}"))?;
        let name = src.variant.name.clone();
        if self.map.contains_key(&name) {
            return Err(format!(
                "{origin}: a variant named `{name}` is already loaded"
            ));
        }
        self.map.insert(name.clone(), src);
        Ok(name)
    }

    pub fn get(&self, name: &str) -> Option<&Source> {
        self.map.get(name)
    }

    /// Names in alphabetical order, embedded first in file order.
    pub fn list(&self) -> Vec<&Source> {
        let mut v: Vec<&Source> = self.map.values().collect();
        let order = |s: &Source| {
            embedded::names()
                .position(|n| n == s.variant.name)
                .unwrap_or(usize::MAX)
        };
        v.sort_by_key(|s| (order(s), s.variant.name.clone()));
        v
    }

    /// The variant a game uses: its own file if it has one, else by name.
    pub fn resolve(&self, name: &str, file: Option<&str>) -> Result<Source, String> {
        match file {
            Some(text) => compile(text),
            None => self
                .get(name)
                .cloned()
                .ok_or_else(|| format!("no variant named `{name}`")),
        }
    }
}

/// Compiles a variant file's text, keeping the text.
pub fn compile(text: &str) -> Result<Source, String> {
    if text.len() > MAX_VARIANT_FILE {
        return Err(format!(
            "the variant file has {} bytes; at most {MAX_VARIANT_FILE} are accepted",
            text.len()
        ));
    }
    let variant = Variant::from_toml(text).map_err(|e| e.to_string())?;
    Ok(Source {
        variant: Arc::new(variant),
        file: Some(text.into()),
    })
}
