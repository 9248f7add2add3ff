//! A variant: board, armies, players, pieces and rule modules, compiled
//! from a definition file into plain data and precomputed tables.

mod compile;
pub mod def;
mod display;
pub mod embedded;
mod rule_modules;

pub use display::{Display, Line, Shade};

use crate::betza::Atom;
use crate::geometry::{Cell, CellSet, Geometry, Orientation};
use crate::position::Position;
pub use crate::rivers::{Rivers, Section};
use crate::tables::Tables;
use compile::Compiler;
use def::VariantDef;
pub use rule_modules::{Facing, RegionMove, Swap, Winner};
use std::collections::BTreeMap;
use std::fmt;

/// Most armies in a game.
pub const MAX_ARMIES: usize = 4;
/// Most players in a game.
pub const MAX_PLAYERS: usize = 4;
/// Most piece types in a variant.
pub const MAX_TYPES: usize = 31;

/// Index of a piece type in [`Variant::pieces`].
pub type PieceType = u8;

/// A set of piece types as a bit mask.
pub type TypeMask = u32;

/// An army: a set of pieces on the board, moved by one or more players.
#[derive(Clone, Debug)]
pub struct Army {
    pub name: String,
    pub tag: char,
}

/// A seat at the table.
#[derive(Clone, Debug)]
pub struct Player {
    pub name: String,
    pub tag: char,
    pub army: u8,
    pub forward: Orientation,
    /// Home cells (empty if the variant gives none).
    pub home: CellSet,
}

/// A piece type.
#[derive(Clone, Debug)]
pub struct PieceKind {
    pub letter: char,
    pub name: String,
    pub betza: String,
    pub atoms: Vec<Atom>,
    pub pawn: bool,
    pub value: Option<i32>,
}

/// What a player without a legal move and not in check gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StalemateResult {
    Draw,
    Loss,
    Win,
}

/// Who threatens royal pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attackers {
    /// Every hostile player still in the game.
    Enemies,
    /// Only the player who moves next.
    Next,
}

/// "Must retain" royalty (see [`def::RoyalDef`]).
#[derive(Clone, Debug)]
pub struct RoyalRule {
    /// Per army: the types it must retain.
    pub must_retain: [TypeMask; MAX_ARMIES],
    pub no_passing_attacked: bool,
    pub attackers: Attackers,
}

/// Restrictions on the path of a move, applied as moves are generated.
#[derive(Clone, Debug, Default)]
pub struct PathRules {
    /// Any of the rules below is in force.
    pub active: bool,
    /// A move must start or end in the mover's home while a player of the
    /// same army is still in the game.
    pub home_moves: bool,
    pub boundaries: Vec<Boundary>,
    pub camps: Option<Camps>,
    pub no_capture_into: Vec<PerPlayerCells>,
    pub confine: Vec<PerPlayerCells>,
    /// Far River sections some types may not cross (or only by a running
    /// jump).
    pub rivers: Option<Rivers>,
}

/// A path touching both sides must touch each side inside `require`.
#[derive(Clone, Debug)]
pub struct Boundary {
    pub sides: [CellSet; 2],
    pub require: CellSet,
}

/// Moving from one camp to another only by a slide over a `via` cell.
#[derive(Clone, Debug)]
pub struct Camps {
    pub camps: Vec<CellSet>,
    pub via: CellSet,
}

/// Some piece types with a set of cells per player.
#[derive(Clone, Debug)]
pub struct PerPlayerCells {
    pub pieces: TypeMask,
    pub cells: [CellSet; MAX_PLAYERS],
}

/// Dropping out instead of losing when a player has no legal move.
#[derive(Clone, Debug, Default)]
pub struct Dropout {
    /// Type changes of the army when its remaining player takes over.
    pub promote: Vec<(PieceType, PieceType)>,
    /// The army leaves the board when its last player drops out.
    pub remove_army: bool,
}

/// Removal of players during the game.
#[derive(Clone, Copy, Debug, Default)]
pub struct Elimination {
    pub capturable_royal: bool,
    pub empty_army: bool,
}

/// FIDE-style castling of one king with one rook.
#[derive(Clone, Debug)]
pub struct Castling {
    pub army: u8,
    pub symbol: char,
    pub king: Cell,
    pub rook: Cell,
    pub king_to: Cell,
    pub rook_to: Cell,
    /// The types that stand on `king` and `rook` in the setup (`None`
    /// while the setup itself is being read).
    pub pieces: Option<(PieceType, PieceType)>,
    /// Cells that must be empty (other than the king and rook themselves).
    pub must_be_empty: CellSet,
    /// Cells the king stands on or crosses, which may not be attacked.
    pub king_path: Vec<Cell>,
}

/// Initial double step.
#[derive(Clone, Debug)]
pub struct DoubleStep {
    pub pieces: TypeMask,
    /// Per player: cells from which the double step is allowed.
    pub from: [CellSet; MAX_PLAYERS],
    /// Types whose own moves already include the double step (a `DD` or
    /// `fR` pawn): the generator marks that move instead of adding a twin.
    pub twins: TypeMask,
}

/// Promotion on reaching a zone.
#[derive(Clone, Debug)]
pub struct Promotion {
    pub pieces: TypeMask,
    /// Per player: cells where promotion is compulsory.
    pub zone: [CellSet; MAX_PLAYERS],
    /// Per player: cells where promotion is optional.
    pub optional_zone: [CellSet; MAX_PLAYERS],
    /// Per player: `zone` and `optional_zone` together, the cells where a
    /// move may promote (one test in the move generator's hot loop).
    pub any_zone: [CellSet; MAX_PLAYERS],
    /// Per player: types always available.
    pub choices: [Vec<PieceType>; MAX_PLAYERS],
    pub liberate: bool,
    pub liberate_exclude: TypeMask,
}

/// The rule modules a variant selects, with their parameters.
#[derive(Clone, Debug)]
pub struct Rules {
    pub royal: Option<RoyalRule>,
    pub double_step: Option<DoubleStep>,
    pub en_passant: bool,
    pub castling: Vec<Castling>,
    pub promotion: Option<Promotion>,
    pub stalemate: StalemateResult,
    pub repetition: u8,
    pub no_progress_moves: u16,
    pub bare_royals_draw: bool,
    pub paths: PathRules,
    /// Royal pieces that must stay in the mover's home (Avon).
    pub royal_presence: Option<TypeMask>,
    pub dropout: Option<Dropout>,
    pub elimination: Elimination,
    /// Per player and region, pieces that move as another Betza string.
    pub region_moves: Vec<RegionMove>,
    /// Pieces that attack each other along open lines.
    pub facing: Option<Facing>,
    /// A piece that may swap places with a neighbour of its army.
    pub swap: Option<Swap>,
    /// In games where players go out, the game ends with this many left.
    pub players_left: u8,
    /// Who ranks first at that end.
    pub winner: Winner,
    /// Outcomes carry series scores.
    pub series_score: bool,
    /// Path rules, facing, swap or a promotion without fixed choices in
    /// force: move generation and attack tests take their general (slower)
    /// form.
    pub(crate) extended: bool,
    /// Some player's promotion has no fixed choice: whether a piece may
    /// capture into its zone depends on the types its army has lost.
    pub(crate) capture_needs_choice: bool,
}

/// A compiled variant.
#[derive(Debug)]
pub struct Variant {
    pub name: String,
    pub title: String,
    pub description: String,
    pub geometry: Geometry,
    pub regions: BTreeMap<String, CellSet>,
    pub armies: Vec<Army>,
    pub players: Vec<Player>,
    pub pieces: Vec<PieceKind>,
    pub rules: Rules,
    /// Cosmetic hints for front ends (`[display]`); the rules never read them.
    pub display: Display,
    /// The start position string.
    pub setup: String,
    /// Pieces of each type per army in the start position.
    pub initial_counts: [[u8; MAX_TYPES]; MAX_ARMIES],
    /// Per army: bit set of the armies it may capture.
    pub enemies: [u8; MAX_ARMIES],
    /// Per army: bit set of the players whose army is hostile to it.
    pub hostile_players: [u8; MAX_ARMIES],
    /// Per cell: the castling rights that survive a move touching it.
    pub(crate) castling_mask: Vec<u16>,
    /// Types whose moves reset the no-progress counter.
    pub(crate) pawn_types: TypeMask,
    pub(crate) tables: Tables,
}

/// A problem in a variant file: where (a key path or a line) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantError {
    /// The file, when loaded from disk (set by the caller).
    pub file: Option<String>,
    /// Key path (`pieces[2].betza`) or `line L, column C`.
    pub location: String,
    pub message: String,
}

impl fmt::Display for VariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{file}: ")?;
        }
        write!(f, "{}: {}", self.location, self.message)
    }
}

impl std::error::Error for VariantError {}

impl VariantError {
    fn at(location: impl Into<String>, message: impl Into<String>) -> VariantError {
        VariantError {
            file: None,
            location: location.into(),
            message: message.into(),
        }
    }

    /// Names the file the error came from.
    pub fn in_file(mut self, file: impl Into<String>) -> VariantError {
        self.file = Some(file.into());
        self
    }
}

type VResult<T> = Result<T, VariantError>;

impl Variant {
    /// Parses and compiles a variant definition written in TOML.
    pub fn from_toml(text: &str) -> VResult<Variant> {
        let def: VariantDef = toml::from_str(text).map_err(|e| {
            let location = match e.span() {
                Some(span) => {
                    let before = &text[..span.start.min(text.len())];
                    let line = before.matches('\n').count() + 1;
                    let col = before.len() - before.rfind('\n').map(|i| i + 1).unwrap_or(0) + 1;
                    format!("line {line}, column {col}")
                }
                None => "file".to_string(),
            };
            let message = match e.message().trim() {
                "" => "malformed TOML".to_string(),
                m => m.to_string(),
            };
            VariantError::at(location, message)
        })?;
        Compiler::default().compile(def)
    }

    /// The piece type with this letter (upper case).
    pub fn piece_by_letter(&self, letter: char) -> Option<PieceType> {
        self.pieces
            .iter()
            .position(|p| p.letter == letter)
            .map(|i| i as PieceType)
    }

    /// The start position.
    pub fn start(self: &std::sync::Arc<Self>) -> Position {
        Position::from_string(self.clone(), &self.setup)
            .expect("setup checked when the variant was compiled")
    }

    /// Does the army of `a` capture pieces of army `b`?
    #[inline]
    pub fn hostile(&self, a: u8, b: u8) -> bool {
        self.enemies[a as usize] >> b & 1 != 0
    }

    /// Number of players.
    pub fn player_count(&self) -> usize {
        self.players.len()
    }

    /// King from, rook from, king to, rook to of castling `i`.
    #[inline]
    pub(crate) fn castling_cells(&self, i: u8) -> (Cell, Cell, Cell, Cell) {
        let c = &self.rules.castling[i as usize];
        (c.king, c.rook, c.king_to, c.rook_to)
    }
}
