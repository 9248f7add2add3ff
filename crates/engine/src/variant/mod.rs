//! A variant: board, armies, players, pieces and rule modules, compiled
//! from a definition file into plain data and precomputed tables.

mod compile;
pub(crate) mod def;
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
use serde::Deserialize;
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
    /// Its name in the variant file and in messages.
    pub name: String,
    /// One-letter tag used in position strings.
    pub tag: char,
}

/// A seat at the table.
#[derive(Clone, Debug)]
pub struct Player {
    /// Its name in the variant file and in messages.
    pub name: String,
    /// One-letter tag used in position strings.
    pub tag: char,
    /// The army this moves (index into `Variant::armies`).
    pub army: u8,
    /// The direction of its forward-moving pieces.
    pub forward: Orientation,
    /// Home cells (empty if the variant gives none).
    pub home: CellSet,
}

/// A piece type.
#[derive(Clone, Debug)]
pub struct PieceKind {
    /// Upper-case letter in position strings and moves.
    pub letter: char,
    /// Its name in the variant file and in messages.
    pub name: String,
    /// Its moves in Betza notation, as written.
    pub betza: String,
    /// Its moves, parsed.
    pub atoms: Vec<Atom>,
    /// A pawn: its moves reset the no-progress counter.
    pub pawn: bool,
    /// A value for the AI given in the file (centipawns), if any.
    pub value: Option<i32>,
}

/// What a player without a legal move and not in check gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StalemateResult {
    /// Every player in shares the result.
    Draw,
    /// The player without a move loses.
    Loss,
    /// The player without a move wins.
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

/// "Must retain" royalty (`[rules] royal` in docs/variants.md).
#[derive(Clone, Debug)]
pub struct RoyalRule {
    /// Per army: the types it must retain.
    pub must_retain: [TypeMask; MAX_ARMIES],
    /// A royal piece may not slide over an attacked cell either.
    pub no_passing_attacked: bool,
    /// Who threatens royal pieces.
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
    /// Lines moves cross only at some cells.
    pub boundaries: Vec<Boundary>,
    /// Camps joined only by slides over a `via` cell.
    pub camps: Option<Camps>,
    /// Cells some types of some players may not capture onto.
    pub no_capture_into: Vec<PerPlayerCells>,
    /// Cells some types of some players may not leave.
    pub confine: Vec<PerPlayerCells>,
    /// Far River sections some types may not cross (or only by a running
    /// jump).
    pub rivers: Option<Rivers>,
}

impl PathRules {
    /// May `player` move a piece of type `kind` from `from` over `passed`
    /// to `to` (a slide or hop if `slides`, a capture if `capture`)? A
    /// question of the board's geometry alone, never of the pieces on it;
    /// the home rule, which depends on who is in the game, is the
    /// position's.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn allows(
        &self,
        player: usize,
        kind: PieceType,
        from: Cell,
        passed: &[Cell],
        to: Cell,
        slides: bool,
        capture: bool,
    ) -> bool {
        let r = self;
        let touches = |s: &CellSet| {
            s.contains(from) || s.contains(to) || passed.iter().any(|&c| s.contains(c))
        };
        for b in &r.boundaries {
            if touches(&b.sides[0]) && touches(&b.sides[1]) {
                let inside = |side: &CellSet| touches(&side.intersection(&b.require));
                if !(inside(&b.sides[0]) && inside(&b.sides[1])) {
                    return false;
                }
            }
        }
        if let Some(c) = &r.camps {
            let (a, b) = (c.camp_of[from as usize], c.camp_of[to as usize]);
            if a != b
                && a != Camps::NONE
                && b != Camps::NONE
                && !(slides && passed.iter().any(|&x| c.via.contains(x)))
            {
                return false;
            }
        }
        if r.rivers
            .as_ref()
            .is_some_and(|rv| !rv.allows(player, kind, from, to))
        {
            return false;
        }
        if capture
            && r.no_capture_into
                .iter()
                .any(|n| n.pieces >> kind & 1 != 0 && n.cells[player].contains(to))
        {
            return false;
        }
        !r.confine
            .iter()
            .any(|c| c.pieces >> kind & 1 != 0 && !c.cells[player].contains(to))
    }
}

/// A path touching both sides must touch each side inside `require`.
#[derive(Clone, Debug)]
pub struct Boundary {
    /// The cells on either side.
    pub sides: [CellSet; 2],
    /// A path touching both sides must touch each inside this set.
    pub require: CellSet,
}

/// Moving from one camp to another only by a slide over a `via` cell.
#[derive(Clone, Debug)]
pub struct Camps {
    /// The camps.
    pub camps: Vec<CellSet>,
    /// The cells a move between camps must slide over.
    pub via: CellSet,
    /// Per cell (all 256): the index of the first camp holding it, or
    /// `Camps::NONE`. Path tests read it instead of searching the camps.
    pub camp_of: Vec<u8>,
}

impl Camps {
    /// `camp_of` of a cell in no camp.
    pub const NONE: u8 = u8::MAX;

    /// Camps and the cells between them, with the per-cell index.
    pub fn new(camps: Vec<CellSet>, via: CellSet) -> Camps {
        let camp_of = (0..=255)
            .map(|c| {
                let i = camps.iter().position(|s| s.contains(c));
                i.map_or(Camps::NONE, |i| i as u8)
            })
            .collect();
        Camps {
            camps,
            via,
            camp_of,
        }
    }
}

/// Some piece types with a set of cells per player.
#[derive(Clone, Debug)]
pub struct PerPlayerCells {
    /// The piece types concerned.
    pub pieces: TypeMask,
    /// The cells, per player.
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
    /// The checkmate ruling: players whose royal piece the next player could capture are out (docs/variants.md).
    pub capturable_royal: bool,
    /// A player whose army has no piece left is out.
    pub empty_army: bool,
}

/// FIDE-style castling of one king with one rook.
#[derive(Clone, Debug)]
pub struct Castling {
    /// The army this moves (index into `Variant::armies`).
    pub army: u8,
    /// The army's letter in castling rights.
    pub symbol: char,
    /// Where the king stands.
    pub king: Cell,
    /// Where the rook stands.
    pub rook: Cell,
    /// Where the king goes.
    pub king_to: Cell,
    /// Where the rook goes.
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
    /// The piece types concerned.
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
    /// The piece types concerned.
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
    /// Promotion only to a type the player has lost.
    pub liberate: bool,
    /// Types never counted as lost.
    pub liberate_exclude: TypeMask,
}

/// The rule modules a variant selects, with their parameters.
#[derive(Clone, Debug)]
pub struct Rules {
    /// Royal pieces and check.
    pub royal: Option<RoyalRule>,
    /// The pawns' first double step.
    pub double_step: Option<DoubleStep>,
    /// Double steps may be taken en passant.
    pub en_passant: bool,
    /// The castling moves.
    pub castling: Vec<Castling>,
    /// Promotion zones and choices.
    pub promotion: Option<Promotion>,
    /// What a player without a move and not in check gets.
    pub stalemate: StalemateResult,
    /// Occurrences of a position that draw (0 or 1: off).
    pub repetition: u8,
    /// Moves per player without progress that draw (0: off).
    pub no_progress_moves: u16,
    /// Only royal pieces left on every side draws.
    pub bare_royals_draw: bool,
    /// Restrictions on where moves may go.
    pub paths: PathRules,
    /// Royal pieces that must stay in the mover's home (Avon).
    pub royal_presence: Option<TypeMask>,
    /// What happens to a player without a legal move.
    pub dropout: Option<Dropout>,
    /// Who is out after a move.
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
    /// Its name in the variant file and in messages.
    pub name: String,
    /// Human title.
    pub title: String,
    /// One paragraph for a lobby.
    pub description: String,
    /// The board.
    pub geometry: Geometry,
    /// Named cell sets.
    pub regions: BTreeMap<String, CellSet>,
    /// The armies (sets of pieces).
    pub armies: Vec<Army>,
    /// The players, in turn order.
    pub players: Vec<Player>,
    /// The piece types.
    pub pieces: Vec<PieceKind>,
    /// The rule modules.
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
    /// What is wrong.
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

/// A TOML parse error with its line and column.
fn toml_error(text: &str, e: &toml::de::Error) -> VariantError {
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
}

/// Reads a variant file as a plain TOML table.
fn parse_table(text: &str) -> VResult<toml::Table> {
    text.parse::<toml::Table>()
        .map_err(|e| toml_error(text, &e))
}

/// Resolves `base` (recursively) and overlays `table` on it. `chain`
/// holds the names met so far, for cycles and for error messages.
fn inherit(
    mut table: toml::Table,
    resolve: &dyn Fn(&str) -> Option<String>,
    chain: &mut Vec<String>,
) -> VResult<toml::Table> {
    let Some(base) = table.remove("base") else {
        return Ok(table);
    };
    let name = base
        .as_str()
        .ok_or_else(|| VariantError::at("base", "expected the name of a variant"))?
        .to_string();
    if chain.contains(&name) {
        chain.push(name);
        return Err(VariantError::at(
            "base",
            format!("a cycle of bases: {}", chain.join(" -> ")),
        ));
    }
    let text = resolve(&name)
        .ok_or_else(|| VariantError::at("base", format!("no variant `{name}` to inherit from")))?;
    chain.push(name.clone());
    let parent = parse_table(&text).map_err(|e| VariantError {
        location: format!("base `{name}`, {}", e.location),
        ..e
    })?;
    let mut merged = inherit(parent, resolve, chain)?;
    overlay(&mut merged, table);
    Ok(merged)
}

/// Puts `over`'s keys into `into`: tables merge key by key, anything else
/// replaces.
fn overlay(into: &mut toml::Table, over: toml::Table) {
    for (key, value) in over {
        match (into.get_mut(&key), value) {
            (Some(toml::Value::Table(a)), toml::Value::Table(b)) => overlay(a, b),
            (_, v) => {
                into.insert(key, v);
            }
        }
    }
}

impl Variant {
    /// Parses and compiles a variant definition written in TOML. A file
    /// with `base = "name"` inherits everything from that embedded variant
    /// and lists only what differs ([`Variant::from_toml_with`]).
    pub fn from_toml(text: &str) -> VResult<Variant> {
        Variant::from_toml_with(text, &|name| embedded::text(name).map(str::to_string))
    }

    /// Like [`Variant::from_toml`], with `resolve` giving the text of a
    /// base variant by name (embedded ones, or files the caller loaded).
    ///
    /// Inheritance (as Fairy-Stockfish's `[name:base]`): the base's file,
    /// itself resolved, is overlaid with this file's keys. Tables merge key
    /// by key, at every depth (`[rules]`, inline tables such as
    /// `promotion = { ... }`); any other value (a string, a number, an
    /// array such as `[[pieces]]`) replaces the base's whole. A key cannot
    /// be removed: pick as base a variant that lacks it. Unknown bases and
    /// cycles are errors.
    pub fn from_toml_with(
        text: &str,
        resolve: &dyn Fn(&str) -> Option<String>,
    ) -> VResult<Variant> {
        let table = parse_table(text)?;
        if !table.contains_key("base") {
            // No inheritance: read the text itself, for errors with lines.
            let def: VariantDef = toml::from_str(text).map_err(|e| toml_error(text, &e))?;
            return Compiler::default().compile(def);
        }
        let mut chain: Vec<String> = table
            .get("name")
            .and_then(|n| n.as_str())
            .map(|n| vec![n.to_string()])
            .unwrap_or_default();
        let merged = inherit(table, resolve, &mut chain)?;
        let def = VariantDef::deserialize(toml::Value::Table(merged)).map_err(|e| {
            VariantError::at(
                format!("file (with base `{}`)", chain[1..].join("` <- `")),
                e.message().trim().to_string(),
            )
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

    /// The armies whose pieces the army of `a` captures.
    pub fn hostile_armies(&self, a: u8) -> impl Iterator<Item = usize> + '_ {
        (0..self.armies.len()).filter(move |&b| self.hostile(a, b as u8))
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

#[cfg(test)]
mod inheritance_tests {
    use super::*;

    /// A resolver over a few named texts.
    fn files<'a>(list: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            list.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, t)| t.to_string())
        }
    }

    #[test]
    fn a_child_lists_only_what_differs() {
        // Chess with the Queen renamed and castling left alone: `[rules]`
        // keys merge, `[[pieces]]` would replace; `title` replaces.
        let text =
            "base = \"chess\"\nname = \"my-chess\"\ntitle = \"Mine\"\n[rules]\nrepetition = 5\n";
        let v = Variant::from_toml(text).unwrap();
        let chess = embedded::variant("chess").unwrap();
        assert_eq!(v.name, "my-chess");
        assert_eq!(v.rules.repetition, 5);
        assert_eq!(v.pieces.len(), chess.pieces.len());
        assert_eq!(v.rules.castling.len(), chess.rules.castling.len());
        assert!(v.rules.royal.is_some(), "royal inherited beside repetition");
    }

    #[test]
    fn the_embedded_children_equal_their_old_full_files_in_play() {
        // Diana inherits from Ariana: same board, rules and promotion zones,
        // its own pieces and promotion choices.
        let d = embedded::variant("diana").unwrap();
        let a = embedded::variant("ariana").unwrap();
        assert_eq!(d.geometry.cells.len(), a.geometry.cells.len());
        assert!(d.piece_by_letter('Q').is_none() && d.piece_by_letter('N').is_some());
        let mut p = d.start();
        assert_eq!(p.perft(1), 5);
        p.play("e3e4").unwrap();
    }

    #[test]
    fn unknown_bases_and_cycles_are_refused() {
        let e = Variant::from_toml("base = \"nowhere\"\nname = \"x\"\n").unwrap_err();
        assert_eq!(e.location, "base");
        assert!(e.message.contains("no variant `nowhere`"), "{e}");
        let a = "base = \"b\"\nname = \"a\"\n";
        let b = "base = \"a\"\nname = \"b\"\n";
        let list = [("a", a), ("b", b)];
        let e = Variant::from_toml_with(a, &files(&list)).unwrap_err();
        assert!(e.message.contains("a cycle of bases: a -> b -> a"), "{e}");
        let selfish = "base = \"s\"\nname = \"s\"\n";
        let e = Variant::from_toml_with(selfish, &files(&[("s", selfish)])).unwrap_err();
        assert!(e.message.contains("cycle"), "{e}");
        let e = Variant::from_toml("base = 3\nname = \"x\"\n").unwrap_err();
        assert!(e.message.contains("name of a variant"), "{e}");
    }

    #[test]
    fn errors_name_the_base_they_come_from() {
        let broken = "name = \"broken\"\nfiles = [\n";
        let child = "base = \"broken\"\nname = \"c\"\n";
        let e = Variant::from_toml_with(child, &files(&[("broken", broken)])).unwrap_err();
        assert!(e.location.starts_with("base `broken`, line"), "{e}");
        // A merged file that does not compile says which bases it used.
        let e = Variant::from_toml("base = \"chess\"\nname = \"c\"\nbogus = 1\n").unwrap_err();
        assert!(e.location.contains("with base `chess`"), "{e}");
        assert!(e.message.contains("bogus"), "{e}");
    }
}
