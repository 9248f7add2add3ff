//! The variant definition file format (TOML), as written by users.
//! `docs/variants.md` documents every key; [`super::Variant::from_toml`]
//! checks and compiles it.

use serde::Deserialize;
use std::collections::BTreeMap;

/// A whole variant file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariantDef {
    /// Short identifier used on the command line, e.g. `magna-carta`.
    pub name: String,
    /// Human title.
    #[serde(default)]
    pub title: String,
    #[serde(default)]
    pub description: String,
    pub board: BoardDef,
    /// Named cell sets usable wherever a cell list is expected.
    #[serde(default)]
    pub regions: BTreeMap<String, String>,
    pub armies: Vec<ArmyDef>,
    pub players: Vec<PlayerDef>,
    pub pieces: Vec<PieceDef>,
    /// The start position, as a position string.
    pub setup: String,
    #[serde(default)]
    pub rules: RulesDef,
    /// Cosmetic hints for front ends; the rules never read them.
    #[serde(default)]
    pub display: DisplayDef,
}

/// `[display]`: colours, shading, lines and glyphs for front ends.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DisplayDef {
    /// Army name -> colour (`#rrggbb` or `#rgb`).
    #[serde(default)]
    pub armies: BTreeMap<String, String>,
    /// Cells to shade (camps, the centre, fortresses), drawn in order.
    #[serde(default)]
    pub shade: Vec<ShadeDef>,
    /// Lines along the edges between two cell lists (rivers, borders).
    #[serde(default)]
    pub lines: Vec<LineDef>,
    /// Piece letter -> the symbol to draw (one to three characters).
    #[serde(default)]
    pub glyphs: BTreeMap<String, String>,
    /// Piece letter -> the name of the picture a front end draws
    /// (`marshal`, `camel`; lowercase letters and `-`).
    #[serde(default)]
    pub images: BTreeMap<String, String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShadeDef {
    /// A cell list (cells, rectangles, region names).
    pub cells: String,
    pub colour: String,
    #[serde(default)]
    pub label: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LineDef {
    /// Two cell lists; the line follows every edge between a cell of the
    /// first and an orthogonally adjacent cell of the second.
    pub between: [String; 2],
    pub colour: Option<String>,
    #[serde(default)]
    pub label: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardDef {
    pub files: u8,
    pub ranks: u8,
    /// Number of the first rank: 0 or 1.
    #[serde(default = "one")]
    pub first_rank: u8,
    /// Cells that exist (default: the whole rectangle).
    pub cells: Option<String>,
}

fn one() -> u8 {
    1
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmyDef {
    pub name: String,
    /// One lower-case letter, used in position strings of games with more
    /// than two armies.
    pub tag: char,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerDef {
    pub name: String,
    /// Letter written for this player in the "to move" field.
    pub tag: char,
    /// The army this player moves.
    pub army: String,
    /// Direction of "forward" for this player's pieces.
    pub forward: String,
    /// The player's home cells (Avon's half of the board), used by
    /// `home_moves` and `royal_presence`.
    pub home: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PieceDef {
    /// One upper-case letter.
    pub letter: char,
    pub name: String,
    pub betza: String,
    /// Pawn-like: its moves reset the no-progress counter.
    #[serde(default)]
    pub pawn: bool,
    /// Optional material value in centipawns (for the AI).
    pub value: Option<i32>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesDef {
    pub royal: Option<RoyalDef>,
    pub double_step: Option<DoubleStepDef>,
    #[serde(default)]
    pub en_passant: bool,
    #[serde(default)]
    pub castling: Vec<CastlingDef>,
    pub promotion: Option<PromotionDef>,
    /// What a player with no legal move and not in check gets:
    /// "draw" (default), "loss" or "win".
    pub stalemate: Option<String>,
    /// Number of occurrences of a position that draws (0 = off, default 3).
    pub repetition: Option<u8>,
    /// Moves per player without capture or pawn move that draw (0 = off,
    /// default 50).
    pub no_progress_moves: Option<u16>,
    /// Draw when every army is reduced to its royal pieces.
    #[serde(default)]
    pub bare_royals_draw: bool,
    /// A move must start or end in the mover's home while another player
    /// of the same army is in the game (Avon).
    #[serde(default)]
    pub home_moves: bool,
    /// Boundaries a move's path may cross only in a required zone (Avon's
    /// d/e line).
    #[serde(default)]
    pub boundary: Vec<BoundaryDef>,
    /// A legal move must end with one of these pieces of the mover's army
    /// in the mover's home; there is no check (Avon).
    pub royal_presence: Option<RoyalPresenceDef>,
    /// A player with no legal move drops out instead of losing the game.
    pub dropout: Option<DropoutDef>,
    /// Removing players during the game (Mini Fivequarters, Aikou).
    pub elimination: Option<EliminationDef>,
    /// Moving between camps only by a slide over the centre.
    pub camps: Option<CampsDef>,
    /// Pieces that may not capture onto some cells, per player.
    #[serde(default)]
    pub no_capture_into: Vec<PerPlayerCellsDef>,
    /// Pieces whose moves must end inside some cells, per player
    /// (fortresses).
    #[serde(default)]
    pub confine: Vec<PerPlayerCellsDef>,
    /// Pieces that move differently in some regions, per player (the Pass
    /// games' Pawns and Soldiers).
    #[serde(default)]
    pub region_moves: Vec<RegionMovesDef>,
    /// Rivers: lines between cells, in named sections, that some pieces
    /// may not cross (or cross only by a running jump).
    pub rivers: Option<RiversDef>,
    /// Pieces that attack each other along open lines (Xiangqi's facing
    /// Generals).
    pub facing: Option<FacingDef>,
    /// A piece that may swap places with a neighbouring piece of its army
    /// (Yang Qi's King).
    pub swap: Option<SwapDef>,
    /// In games where players go out: the game ends when this many
    /// players are left (default 1: the last army standing).
    pub players_left: Option<u8>,
    /// In games where players go out, who ranks first when the game ends:
    /// "last_mover" (default) or "to_move".
    pub winner: Option<String>,
    /// Give each player a series score when the game ends (the Pass games).
    #[serde(default)]
    pub series_score: bool,
}

/// One player's region moves for some piece types.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegionMovesDef {
    /// Letters of the pieces concerned.
    pub pieces: String,
    /// Player name.
    pub player: String,
    /// Per region, how the pieces move there.
    pub moves: Vec<RegionMoveDef>,
}

/// How some pieces move on some cells.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegionMoveDef {
    pub cells: String,
    pub betza: String,
    /// Direction of "forward" for this Betza string.
    pub forward: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RiversDef {
    pub sections: Vec<SectionDef>,
    /// Player name -> names of the sections (separated by spaces) whose
    /// restrictions bind that player.
    pub far: BTreeMap<String, String>,
    /// Letters of the pieces that may not cross those sections.
    #[serde(default)]
    pub no_cross: String,
    /// Letters of the pieces that cross them only by a move that neither
    /// starts nor ends beside the section.
    #[serde(default)]
    pub running_jump: String,
}

/// A River section: the line between two rows of cells.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SectionDef {
    pub name: String,
    /// The cells on either side of the line.
    pub sides: [String; 2],
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FacingDef {
    /// Letters of the pieces that may not face each other.
    pub pieces: String,
    /// The lines along which they face (riders, e.g. `R`).
    pub betza: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SwapDef {
    /// Letters of the pieces that may swap.
    pub pieces: String,
    /// Letters of the pieces of its own army it may swap with.
    pub with: String,
    /// Where the partner may stand, as leaps (default `K`: adjacent).
    pub betza: Option<String>,
    /// No swap while the piece is attacked.
    #[serde(default)]
    pub not_when_attacked: bool,
}

/// A path that contains cells of both `sides` must contain a cell of each
/// side inside `require`. The path is the start, every cell passed over by
/// a slide or hop, and the end.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoundaryDef {
    pub sides: [String; 2],
    pub require: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoyalPresenceDef {
    /// Letters of the royal pieces.
    pub pieces: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DropoutDef {
    /// When a player drops out and a player of the same army remains, the
    /// army's pieces change type: pairs `FROM:TO` (e.g. `S:Q P:W`).
    #[serde(default)]
    pub promote: String,
    /// When no player of the army remains, its pieces leave the board
    /// (Mini Fivequarters); otherwise they stay as they are (Avon).
    #[serde(default)]
    pub remove_army: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EliminationDef {
    /// After every move, a player whose royal piece the next player could
    /// capture is out and their army removed.
    #[serde(default)]
    pub capturable_royal: bool,
    /// A player whose army has no piece left is out.
    #[serde(default)]
    pub empty_army: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CampsDef {
    /// The camps (cell lists or region names).
    pub camps: Vec<String>,
    /// Moving from one camp to another needs a slide passing over one of
    /// these cells.
    pub via: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PerPlayerCellsDef {
    /// Letters of the pieces concerned.
    pub pieces: String,
    /// Player name -> cells.
    pub cells: BTreeMap<String, String>,
}

/// "Must retain" royalty: per army, the piece types it must keep at least
/// one of; a type with exactly one piece left is royal (may not be left
/// attacked). With a single such type of which one exists, this is ordinary
/// check and checkmate.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoyalDef {
    /// Army name -> letters of the types it must retain.
    pub must_retain: BTreeMap<String, String>,
    /// A royal piece may not pass over a cell where it would be attacked
    /// (Caïssa Britannia's Queen).
    #[serde(default)]
    pub no_passing_attacked: bool,
    /// Who must not be able to capture a royal piece: "enemies" (every
    /// hostile player, the default) or "next" (the player who moves next).
    pub attackers: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DoubleStepDef {
    /// Letters of the pieces that may step twice forward to an empty cell.
    pub pieces: String,
    /// Player name -> cells from which the double step is allowed.
    pub from: BTreeMap<String, String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CastlingDef {
    pub army: String,
    /// Letter in the position string's castling field (K, Q, k, q ...).
    pub symbol: char,
    pub king: String,
    pub rook: String,
    pub king_to: String,
    pub rook_to: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PromotionDef {
    /// Letters of the pieces that promote.
    pub pieces: String,
    /// Player name -> cells where promotion is compulsory.
    pub zone: BTreeMap<String, String>,
    /// Player name -> cells where promotion is allowed but not compulsory.
    #[serde(default)]
    pub optional_zone: BTreeMap<String, String>,
    /// Player name -> letters it may promote to (always available).
    pub choices: BTreeMap<String, String>,
    /// Also allow any type of which the army has fewer pieces on the board
    /// than at the start ("liberating a captured piece").
    #[serde(default)]
    pub liberate: bool,
    /// Letters never liberated.
    #[serde(default)]
    pub liberate_exclude: String,
}
