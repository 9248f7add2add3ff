//! # Quadrille search
//!
//! A computer player for every Quadrille variant, built only on the
//! engine's public interface:
//!
//! - an evaluation for any variant ([`eval`], [`values`]): piece values
//!   from each piece's mobility on the variant's board (the variant file's
//!   `value` overrides), piece-square terms, mobility, royal safety and
//!   royal presence; where a variant ships learnt weights ([`weights`]),
//!   also passed and supported pawns, threats and attacks near royal
//!   pieces;
//! - iterative deepening with a transposition table ([`tt`]) shared by the
//!   threads of a search (Lazy SMP), move ordering (table move, captures by
//!   victim value, killers, history) and a quiescence search;
//! - two sides (two armies, however many players move them): PVS with
//!   null-move pruning and late move reductions;
//! - more sides: Best-Reply Search (BRS+), Paranoid or MaxN ([`maxn`]),
//!   by default the one measured the stronger for the variant's family;
//! - time management by clock, time per move, depth or nodes ([`Limits`]);
//! - baseline players and self-play matches with an Elo estimate
//!   ([`arena`]).
//!
//! ```
//! use quadrille_engine::embedded;
//! use quadrille_search::{Limits, Searcher};
//! let chess = embedded::variant("chess").unwrap();
//! let mut ai = Searcher::default();
//! let result = ai.best_move(&chess.start(), &Limits::depth(3));
//! assert!(result.best.is_some());
//! ```

pub mod arena;
mod correction;
pub mod eval;
pub mod families;
pub mod limits;
mod maxn;
mod multi;
mod ordering;
pub mod params;
pub mod score;
mod searcher;
pub mod stats;
pub mod tt;
pub mod tune;
mod two;
pub mod values;
pub mod weights;

pub use arena::{Contender, Elo, GameRecord, MatchReport};
pub use eval::{Eval, Terms};
pub use limits::{Clock, Level, Limits, LEVELS, LEVEL_MOVETIME_MS, LEVEL_TABLE};
pub use params::Params;
pub use searcher::{result_for, Algorithm, MultiAlgorithm, Options, SearchResult, Searcher};
pub use weights::Weights;
