//! What the search's tests share: the variants to play.

use quadrille_engine::{embedded, Variant};
use std::sync::Arc;

/// The worked example of docs/variants.md (a hopper, a lame leaper,
/// missing cells, optional promotion).
const CANNON_COURT: &str = include_str!("../../../cli/tests/fixtures/cannon-court.toml");

/// Every embedded variant and Cannon Court.
pub fn variants() -> Vec<Arc<Variant>> {
    let mut v: Vec<Arc<Variant>> = embedded::names()
        .map(|n| embedded::variant(n).unwrap())
        .collect();
    v.push(Arc::new(Variant::from_toml(CANNON_COURT).unwrap()));
    v
}
