//! A variant: board, armies, players, pieces and rule modules, compiled
//! from a definition file into plain data and precomputed tables.

pub mod def;
mod display;
pub mod embedded;
mod rule_modules;

pub use display::{Display, Line, Shade};

use crate::betza::{self, Atom};
use crate::geometry::{Cell, CellSet, Geometry, Orientation, MAX_SIDE};
use crate::position::Position;
pub use crate::rivers::{Rivers, Section};
use crate::tables::Tables;
use def::VariantDef;
use rule_modules::Names;
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

#[derive(Default)]
struct Compiler {
    geometry: Option<Geometry>,
    regions: BTreeMap<String, CellSet>,
}

impl Compiler {
    fn geometry(&self) -> &Geometry {
        self.geometry.as_ref().expect("board compiled first")
    }

    /// A cell list: cells, rectangles `a2-h2` or region names.
    fn cells(&self, key: &str, spec: &str) -> VResult<CellSet> {
        let mut set = CellSet::EMPTY;
        for item in spec.split([' ', ',']).filter(|s| !s.is_empty()) {
            if let Some(r) = self.regions.get(item) {
                set = set.union(r);
            } else {
                let s = self
                    .geometry()
                    .parse_cells(item, false)
                    .map_err(|m| VariantError::at(key, m))?;
                if s.is_empty() {
                    return Err(VariantError::at(
                        key,
                        format!("`{item}` names no cell on the board"),
                    ));
                }
                set = set.union(&s);
            }
        }
        Ok(set)
    }

    fn cell(&self, key: &str, name: &str) -> VResult<Cell> {
        self.geometry()
            .parse_cell(name)
            .ok_or_else(|| VariantError::at(key, format!("`{name}` is not a cell of the board")))
    }

    fn compile(mut self, def: VariantDef) -> VResult<Variant> {
        if def.name.is_empty()
            || !def
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-')
        {
            return Err(VariantError::at(
                "name",
                "must be non-empty letters, digits and '-'",
            ));
        }
        // Board.
        let b = &def.board;
        if b.files == 0 || b.files > MAX_SIDE || b.ranks == 0 || b.ranks > MAX_SIDE {
            return Err(VariantError::at(
                "board",
                format!("files and ranks must be 1 to {MAX_SIDE}"),
            ));
        }
        if b.first_rank > 1 {
            return Err(VariantError::at("board.first_rank", "must be 0 or 1"));
        }
        let mut geometry = Geometry::rectangle(b.files, b.ranks, b.first_rank);
        if let Some(spec) = &b.cells {
            geometry.cells = geometry
                .parse_cells(spec, true)
                .map_err(|m| VariantError::at("board.cells", m))?;
        }
        self.geometry = Some(geometry.clone());
        for (name, spec) in &def.regions {
            let set = self.cells(&format!("regions.{name}"), spec)?;
            self.regions.insert(name.clone(), set);
        }

        // Armies and players.
        if def.armies.is_empty() || def.armies.len() > MAX_ARMIES {
            return Err(VariantError::at(
                "armies",
                format!("need 1 to {MAX_ARMIES} armies"),
            ));
        }
        let armies: Vec<Army> = def
            .armies
            .iter()
            .enumerate()
            .map(|(i, a)| {
                if !a.tag.is_ascii_lowercase() {
                    return Err(VariantError::at(
                        format!("armies[{i}].tag"),
                        "must be a lower-case letter",
                    ));
                }
                Ok(Army {
                    name: a.name.clone(),
                    tag: a.tag,
                })
            })
            .collect::<VResult<_>>()?;
        let army_index = |key: &str, name: &str| -> VResult<u8> {
            armies
                .iter()
                .position(|a| a.name == name)
                .map(|i| i as u8)
                .ok_or_else(|| VariantError::at(key, format!("no army named `{name}`")))
        };
        if def.players.len() < 2 || def.players.len() > MAX_PLAYERS {
            return Err(VariantError::at(
                "players",
                format!("need 2 to {MAX_PLAYERS} players"),
            ));
        }
        let mut players = Vec::new();
        for (i, p) in def.players.iter().enumerate() {
            let key = format!("players[{i}]");
            let forward = Orientation::parse(&p.forward).ok_or_else(|| {
                VariantError::at(
                    format!("{key}.forward"),
                    "must be north, east, south or west",
                )
            })?;
            if !p.tag.is_ascii_lowercase() || players.iter().any(|q: &Player| q.tag == p.tag) {
                return Err(VariantError::at(
                    format!("{key}.tag"),
                    "must be a distinct lower-case letter",
                ));
            }
            let home = match &p.home {
                Some(spec) => self.cells(&format!("{key}.home"), spec)?,
                None => CellSet::EMPTY,
            };
            players.push(Player {
                name: p.name.clone(),
                tag: p.tag,
                army: army_index(&format!("{key}.army"), &p.army)?,
                forward,
                home,
            });
        }
        for (i, _) in armies.iter().enumerate() {
            if !players.iter().any(|p| p.army as usize == i) {
                return Err(VariantError::at(
                    format!("armies[{i}]"),
                    "no player moves this army",
                ));
            }
        }
        // Pieces.
        if def.pieces.is_empty() || def.pieces.len() > MAX_TYPES {
            return Err(VariantError::at(
                "pieces",
                format!("need 1 to {MAX_TYPES} piece types"),
            ));
        }
        let mut pieces: Vec<PieceKind> = Vec::new();
        for (i, p) in def.pieces.iter().enumerate() {
            let key = format!("pieces[{i}]");
            if !p.letter.is_ascii_uppercase() || pieces.iter().any(|q| q.letter == p.letter) {
                return Err(VariantError::at(
                    format!("{key}.letter"),
                    "must be a distinct upper-case letter",
                ));
            }
            let atoms = betza::parse(&p.betza).map_err(|e| {
                VariantError::at(
                    format!("{key}.betza"),
                    format!("piece {} ({}): {e}", p.letter, p.name),
                )
            })?;
            pieces.push(PieceKind {
                letter: p.letter,
                name: p.name.clone(),
                betza: p.betza.clone(),
                atoms,
                pawn: p.pawn,
                value: p.value,
            });
        }
        let names = Names {
            players: &players,
            pieces: &pieces,
        };
        let types = |key: &str, letters: &str| names.types(key, letters);
        let player_index = |key: &str, name: &str| names.player(key, name);

        // Rules.
        let r = &def.rules;
        let royal = match &r.royal {
            None => None,
            Some(rd) => {
                let mut must_retain = [0; MAX_ARMIES];
                for (army, letters) in &rd.must_retain {
                    let key = format!("rules.royal.must_retain.{army}");
                    must_retain[army_index(&key, army)? as usize] = types(&key, letters)?;
                }
                let attackers = match rd.attackers.as_deref() {
                    None | Some("enemies") => Attackers::Enemies,
                    Some("next") => Attackers::Next,
                    Some(o) => {
                        return Err(VariantError::at(
                            "rules.royal.attackers",
                            format!("`{o}`: expected enemies or next"),
                        ))
                    }
                };
                Some(RoyalRule {
                    must_retain,
                    no_passing_attacked: rd.no_passing_attacked,
                    attackers,
                })
            }
        };
        let double_step = match &r.double_step {
            None => None,
            Some(d) => {
                let mut from: [CellSet; MAX_PLAYERS] = Default::default();
                for (player, spec) in &d.from {
                    let key = format!("rules.double_step.from.{player}");
                    from[player_index(&key, player)?] = self.cells(&key, spec)?;
                }
                Some(DoubleStep {
                    pieces: types("rules.double_step.pieces", &d.pieces)?,
                    from,
                    twins: 0,
                })
            }
        };
        let mut castling = Vec::new();
        for (i, c) in r.castling.iter().enumerate() {
            let key = format!("rules.castling[{i}]");
            let army = army_index(&format!("{key}.army"), &c.army)?;
            let king = self.cell(&format!("{key}.king"), &c.king)?;
            let rook = self.cell(&format!("{key}.rook"), &c.rook)?;
            let king_to = self.cell(&format!("{key}.king_to"), &c.king_to)?;
            let rook_to = self.cell(&format!("{key}.rook_to"), &c.rook_to)?;
            let g = self.geometry();
            if g.rank_of(king) != g.rank_of(rook)
                || g.rank_of(king) != g.rank_of(king_to)
                || g.rank_of(rook) != g.rank_of(rook_to)
            {
                return Err(VariantError::at(
                    key,
                    "king, rook and their targets must share a rank",
                ));
            }
            let span = |a: Cell, b: Cell| (a.min(b)..=a.max(b)).collect::<Vec<Cell>>();
            let mut must_be_empty: CellSet = span(king, rook)
                .into_iter()
                .chain(span(king, king_to))
                .chain(span(rook, rook_to))
                .collect();
            must_be_empty.remove(king);
            must_be_empty.remove(rook);
            let mut king_path = span(king, king_to);
            if king_to < king {
                king_path.reverse();
            }
            if castling.iter().any(|o: &Castling| o.symbol == c.symbol) {
                return Err(VariantError::at(
                    format!("{key}.symbol"),
                    "castling symbols must be distinct",
                ));
            }
            castling.push(Castling {
                army,
                symbol: c.symbol,
                king,
                rook,
                king_to,
                rook_to,
                pieces: None,
                must_be_empty,
                king_path,
            });
        }
        if castling.len() > 16 {
            return Err(VariantError::at("rules.castling", "at most 16 castlings"));
        }
        let promotion = match &r.promotion {
            None => None,
            Some(p) => {
                let mut zone: [CellSet; MAX_PLAYERS] = Default::default();
                for (player, spec) in &p.zone {
                    let key = format!("rules.promotion.zone.{player}");
                    zone[player_index(&key, player)?] = self.cells(&key, spec)?;
                }
                let mut optional_zone: [CellSet; MAX_PLAYERS] = Default::default();
                for (player, spec) in &p.optional_zone {
                    let key = format!("rules.promotion.optional_zone.{player}");
                    optional_zone[player_index(&key, player)?] = self.cells(&key, spec)?;
                }
                let mut choices: [Vec<PieceType>; MAX_PLAYERS] = Default::default();
                for (player, letters) in &p.choices {
                    let key = format!("rules.promotion.choices.{player}");
                    let m = types(&key, letters)?;
                    choices[player_index(&key, player)?] =
                        (0..32).filter(|t| m >> t & 1 != 0).collect();
                }
                let any_zone = std::array::from_fn(|i| zone[i].union(&optional_zone[i]));
                Some(Promotion {
                    pieces: types("rules.promotion.pieces", &p.pieces)?,
                    zone,
                    optional_zone,
                    any_zone,
                    choices,
                    liberate: p.liberate,
                    liberate_exclude: types(
                        "rules.promotion.liberate_exclude",
                        &p.liberate_exclude,
                    )?,
                })
            }
        };
        let stalemate = match r.stalemate.as_deref() {
            None | Some("draw") => StalemateResult::Draw,
            Some("loss") => StalemateResult::Loss,
            Some("win") => StalemateResult::Win,
            Some(o) => {
                return Err(VariantError::at(
                    "rules.stalemate",
                    format!("`{o}`: expected draw, loss or win"),
                ))
            }
        };
        let per_player_cells = |key: &str, d: &def::PerPlayerCellsDef| -> VResult<PerPlayerCells> {
            let mut cells: [CellSet; MAX_PLAYERS] = Default::default();
            for (player, spec) in &d.cells {
                let k = format!("{key}.cells.{player}");
                cells[player_index(&k, player)?] = self.cells(&k, spec)?;
            }
            Ok(PerPlayerCells {
                pieces: types(&format!("{key}.pieces"), &d.pieces)?,
                cells,
            })
        };
        let mut paths = PathRules {
            home_moves: r.home_moves,
            ..Default::default()
        };
        if r.home_moves && players.iter().any(|p| p.home.is_empty()) {
            return Err(VariantError::at(
                "rules.home_moves",
                "every player needs a `home`",
            ));
        }
        for (i, b) in r.boundary.iter().enumerate() {
            let key = format!("rules.boundary[{i}]");
            paths.boundaries.push(Boundary {
                sides: [
                    self.cells(&format!("{key}.sides[0]"), &b.sides[0])?,
                    self.cells(&format!("{key}.sides[1]"), &b.sides[1])?,
                ],
                require: self.cells(&format!("{key}.require"), &b.require)?,
            });
        }
        if let Some(c) = &r.camps {
            let camps = c
                .camps
                .iter()
                .enumerate()
                .map(|(i, spec)| self.cells(&format!("rules.camps.camps[{i}]"), spec))
                .collect::<VResult<Vec<_>>>()?;
            paths.camps = Some(Camps {
                camps,
                via: self.cells("rules.camps.via", &c.via)?,
            });
        }
        for (i, d) in r.no_capture_into.iter().enumerate() {
            paths
                .no_capture_into
                .push(per_player_cells(&format!("rules.no_capture_into[{i}]"), d)?);
        }
        for (i, d) in r.confine.iter().enumerate() {
            paths
                .confine
                .push(per_player_cells(&format!("rules.confine[{i}]"), d)?);
        }
        if let Some(d) = &r.rivers {
            paths.rivers = Some(self.rivers(&names, d)?);
        }
        paths.active = paths.home_moves
            || !paths.boundaries.is_empty()
            || paths.camps.is_some()
            || !paths.no_capture_into.is_empty()
            || !paths.confine.is_empty()
            || paths.rivers.is_some();
        let royal_presence = match &r.royal_presence {
            None => None,
            Some(d) => {
                if players.iter().any(|p| p.home.is_empty()) {
                    return Err(VariantError::at(
                        "rules.royal_presence",
                        "every player needs a `home`",
                    ));
                }
                Some(types("rules.royal_presence.pieces", &d.pieces)?)
            }
        };
        let dropout = match &r.dropout {
            None => None,
            Some(d) => {
                let mut promote = Vec::new();
                for pair in d.promote.split_whitespace() {
                    let key = "rules.dropout.promote";
                    let (a, b) = pair.split_once(':').ok_or_else(|| {
                        VariantError::at(key, format!("`{pair}`: expected FROM:TO"))
                    })?;
                    let one = |l: &str| -> VResult<PieceType> {
                        let m = types(key, l)?;
                        if m.count_ones() != 1 {
                            return Err(VariantError::at(
                                key,
                                format!("`{pair}`: one letter each side"),
                            ));
                        }
                        Ok(m.trailing_zeros() as PieceType)
                    };
                    promote.push((one(a)?, one(b)?));
                }
                Some(Dropout {
                    promote,
                    remove_army: d.remove_army,
                })
            }
        };
        let elimination = r
            .elimination
            .as_ref()
            .map(|e| Elimination {
                capturable_royal: e.capturable_royal,
                empty_army: e.empty_army,
            })
            .unwrap_or_default();
        if elimination.capturable_royal && royal.is_none() {
            return Err(VariantError::at(
                "rules.elimination.capturable_royal",
                "needs rules.royal to say which pieces are royal",
            ));
        }
        let region_moves = self.region_moves(&names, &r.region_moves)?;
        let facing = r
            .facing
            .as_ref()
            .map(|d| Compiler::facing(&names, d))
            .transpose()?;
        let swap = r
            .swap
            .as_ref()
            .map(|d| Compiler::swap(&names, d))
            .transpose()?;
        // A promotion with no fixed choice may leave a piece unable to
        // capture into its zone: attack tests must know (Yang Aikou).
        let empty_choice = promotion.as_ref().is_some_and(|p| {
            (0..players.len()).any(|i| p.choices[i].is_empty() && !p.zone[i].is_empty())
        });
        let extended = paths.active || facing.is_some() || swap.is_some() || empty_choice;
        let capture_needs_choice = empty_choice;
        let players_left = r.players_left.unwrap_or(1);
        if players_left == 0 || players_left as usize >= players.len() {
            return Err(VariantError::at(
                "rules.players_left",
                format!("must be 1 to {}", players.len() - 1),
            ));
        }
        let double_step = double_step.map(|mut d| {
            d.twins = (0..pieces.len())
                .filter(|&t| {
                    d.pieces >> t & 1 != 0 && pieces[t].atoms.iter().any(reaches_double_step)
                })
                .fold(0, |m, t| m | 1 << t);
            d
        });
        let rules = Rules {
            royal,
            double_step,
            en_passant: r.en_passant,
            castling,
            promotion,
            stalemate,
            repetition: r.repetition.unwrap_or(3),
            no_progress_moves: r.no_progress_moves.unwrap_or(50),
            bare_royals_draw: r.bare_royals_draw,
            paths,
            royal_presence,
            dropout,
            elimination,
            extended,
            capture_needs_choice,
            region_moves,
            facing,
            swap,
            players_left,
            winner: rule_modules::winner(r.winner.as_deref())?,
            series_score: r.series_score,
        };

        // Armies are hostile unless they are the same army.
        let mut enemies = [0u8; MAX_ARMIES];
        for (a, e) in enemies.iter_mut().enumerate().take(armies.len()) {
            *e = ((1u8 << armies.len()) - 1) & !(1 << a);
        }
        let mut hostile_players = [0u8; MAX_ARMIES];
        for (a, h) in hostile_players.iter_mut().enumerate() {
            for (p, pl) in players.iter().enumerate() {
                if enemies[a] >> pl.army & 1 != 0 {
                    *h |= 1 << p;
                }
            }
        }
        let mut castling_mask = vec![u16::MAX; geometry.size()];
        for (i, c) in rules.castling.iter().enumerate() {
            castling_mask[c.king as usize] &= !(1 << i);
            castling_mask[c.rook as usize] &= !(1 << i);
        }
        let pawn_types = pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| p.pawn)
            .fold(0, |m, (i, _)| m | 1 << i);
        let display = display::compile(&def.display, &armies, &pieces, |k, spec| {
            self.cells(k, spec)
        })?;
        let tables = Tables::build(&geometry, &players, &pieces, &rules)
            .map_err(|m| VariantError::at("pieces", m))?;
        let mut variant = Variant {
            name: def.name,
            title: def.title,
            description: def.description,
            geometry,
            regions: self.regions,
            armies,
            players,
            pieces,
            rules,
            display,
            setup: def.setup.trim().to_string(),
            initial_counts: [[0; MAX_TYPES]; MAX_ARMIES],
            enemies,
            hostile_players,
            castling_mask,
            pawn_types,
            tables,
        };
        // The setup must parse; its piece counts feed liberation.
        let arc = std::sync::Arc::new(variant);
        let start = Position::from_string(arc.clone(), &arc.setup)
            .map_err(|e| VariantError::at("setup", e.to_string()))?;
        let counts = start.piece_counts();
        let castling_pieces: Vec<_> = arc
            .rules
            .castling
            .iter()
            .map(|c| (start.piece_at(c.king), start.piece_at(c.rook)))
            .collect();
        drop(start);
        variant = std::sync::Arc::try_unwrap(arc).expect("no other reference");
        variant.initial_counts = counts;
        for (i, (c, found)) in variant
            .rules
            .castling
            .iter_mut()
            .zip(castling_pieces)
            .enumerate()
        {
            match found {
                (Some(k), Some(r)) if k.army == c.army && r.army == c.army => {
                    c.pieces = Some((k.kind, r.kind))
                }
                _ => {
                    return Err(VariantError::at(
                        format!("rules.castling[{i}]"),
                        "the setup must have the castling army's king and rook on their cells",
                    ))
                }
            }
        }
        Ok(variant)
    }
}

/// Can a quiet move of this atom go two cells straight forward?
fn reaches_double_step(a: &crate::betza::Atom) -> bool {
    a.modes.quiet
        && match a.reach {
            crate::betza::Reach::Leap => a.vectors.contains(&(0, 2)),
            crate::betza::Reach::Ride { max } => {
                (a.vectors.contains(&(0, 1)) && max != 1) || a.vectors.contains(&(0, 2))
            }
            crate::betza::Reach::Hop => false,
        }
}
