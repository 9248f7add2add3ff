//! Evaluation weights from a file (as `quadrille tune` writes it), for the
//! front ends that let a user choose them: `quadrille match`'s
//! `search:weights=PATH` and UCI's `Weights` option.

use quadrille_engine::Variant;
use quadrille_search::Weights;

/// Reads the weights file at `path` for variant `v`: weights that do not
/// fit it are refused (the evaluation would quietly fall back to the
/// variant's own). The error names the file.
pub fn read(path: &str, v: &Variant) -> Result<Weights, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let w = Weights::from_toml(&text).map_err(|e| format!("{path}: {e}"))?;
    if !w.fits(v) {
        return Err(format!("{path}: these weights do not fit {}", v.name));
    }
    Ok(w)
}
