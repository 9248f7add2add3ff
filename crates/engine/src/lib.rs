#![warn(missing_docs)]
//! # Quadrille rules engine
//!
//! One generic engine for chess variants of two to four players: boards of
//! any shape inside a 16x16 rectangle, pieces in Betza notation, and named
//! rule modules, all selected by a variant definition file. No I/O: callers
//! hand in the file's text.
//!
//! ```
//! use quadrille_engine::{embedded, CellName, MoveError, MoveText, Position};
//!
//! // A variant by name (or `Variant::from_toml` for a file's text).
//! let chess = embedded::variant("chess").unwrap();
//! // A position from a position string (FEN, extended to any board).
//! let mut pos = Position::from_string(
//!     chess.clone(),
//!     "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
//! )
//! .unwrap();
//! // Queries read the position; they never change it.
//! let moves: Vec<String> = pos.legal_moves().iter().map(|&m| pos.move_to_string(m)).collect();
//! assert_eq!(moves.len(), 27);
//! assert!(moves.contains(&"f1b5".to_string()));
//! // A move text is read without a position, then judged by one.
//! let text: MoveText = "f1b5".parse().unwrap();
//! let m = pos.judge(&text).unwrap();
//! pos.make(m); // or pos.play("f1b5"), which does both
//! assert_eq!(pos.to_string(), "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3");
//! // Refusals say why, as an enum each front end maps to its own words.
//! let e1 = CellName { file: 4, rank: 1 };
//! assert_eq!(pos.parse_move("e1g1"), Err(MoveError::NotYourPiece(e1)));
//! assert!(matches!(pos.parse_move("zz"), Err(MoveError::Syntax(_))));
//! assert!(pos.outcome().is_none());
//! ```

pub mod betza;
mod blockers;
mod checking;
mod exchange;
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
mod san;
mod swap;
mod tables;
pub mod variant;

pub use checking::CheckingCells;
pub use fen::PositionError;
pub use geometry::{Cell, CellSet, Geometry, Orientation};
pub use mobility::{Activity, RayKind, RayView};
pub use movegen::Legality;
pub use moves::{Move, MoveKind, MoveList};
pub use notation::{CellName, Illegal, MoveError, MoveText, SyntaxError};
pub use outcome::{EndReason, Outcome};
pub use position::{AtWidth, Piece, Position};
pub use variant::{embedded, Variant, VariantError};
