//! # Quadrille protocols
//!
//! The engine side of the two chess GUI protocols, as loops over any
//! reader and writer (the CLI wires them to standard input and output;
//! tests drive them in-process):
//!
//! - [`uci::run`]: UCI, with `UCI_Variant` for the two-player variants;
//! - [`xboard::run`]: XBoard/CECP, announcing the variants and describing
//!   the non-standard ones with `setup` and `piece` (Betza) commands.
//!
//! Both search in a background thread, so `stop`, `?`, `isready` and
//! `ping` are answered while the engine thinks, and both answer a
//! malformed command with an error line and carry on.

pub mod catalog;
mod output;
mod thinker;
pub mod uci;
pub mod uci_client;
pub mod weights_file;
pub mod xboard;
pub mod xboard_board;

pub use catalog::Catalog;
