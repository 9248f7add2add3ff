//! # Quadrille rules engine
//!
//! One generic engine for chess variants of two to four players: boards of
//! any shape inside a 16x16 rectangle, pieces in Betza notation, and named
//! rule modules, all selected by a variant definition file. No I/O: callers
//! hand in the file's text.
//!
//! ```
//! use quadrille_engine::{embedded, Position};
//! let chess = embedded::variant("chess").unwrap();
//! let mut pos = chess.start();
//! assert_eq!(pos.perft(2), 400);
//! pos.play("e2e4").unwrap();
//! assert!(pos.to_string().starts_with("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b"));
//! ```

pub mod betza;
mod facing;
pub mod fen;
pub mod geometry;
pub mod mobility;
mod movegen;
pub mod moves;
pub mod notation;
mod null_move;
pub mod outcome;
mod perft;
pub mod position;
pub mod rivers;
mod swap;
mod tables;
pub mod variant;

pub use fen::PositionError;
pub use geometry::{Cell, CellSet, Geometry, Orientation};
pub use mobility::{RayKind, RayView};
pub use moves::{Move, MoveKind, MoveList};
pub use notation::MoveError;
pub use outcome::{EndReason, Outcome};
pub use position::{Piece, Position};
pub use variant::{embedded, Variant, VariantError};
