//! Rule modules for moves that depend on where a piece stands or what
//! stands around it: moves by region, Rivers, facing pieces and swaps (the
//! Pass games and their kin), and how a game where players go out ends.
//! Each is plain data compiled from its part of the variant file.

use super::def::{FacingDef, RegionMovesDef, RiversDef, SwapDef};
use super::{Army, Compiler, PieceKind, Player, TypeMask, VResult, VariantError, MAX_PLAYERS};
use crate::betza::{self, Atom, Reach};
use crate::geometry::{CellSet, Orientation};
use crate::rivers::{Rivers, Section};

/// Looks up army names, piece letters and player names while a file is
/// compiled.
pub(super) struct Names<'a> {
    pub armies: &'a [Army],
    pub players: &'a [Player],
    pub pieces: &'a [PieceKind],
}

impl Names<'_> {
    /// The types named by `letters` (spaces ignored).
    pub fn types(&self, key: &str, letters: &str) -> VResult<TypeMask> {
        let mut m = 0;
        for c in letters.chars().filter(|c| !c.is_whitespace()) {
            let t = self
                .pieces
                .iter()
                .position(|p| p.letter == c)
                .ok_or_else(|| VariantError::at(key, format!("no piece with letter `{c}`")))?;
            m |= 1 << t;
        }
        Ok(m)
    }

    /// The index of the army called `name`.
    pub fn army(&self, key: &str, name: &str) -> VResult<u8> {
        self.armies
            .iter()
            .position(|a| a.name == name)
            .map(|i| i as u8)
            .ok_or_else(|| VariantError::at(key, format!("no army named `{name}`")))
    }

    /// The index of the player called `name`.
    pub fn player(&self, key: &str, name: &str) -> VResult<usize> {
        self.players
            .iter()
            .position(|p| p.name == name)
            .ok_or_else(|| VariantError::at(key, format!("no player named `{name}`")))
    }
}

/// On some cells, some piece types of one player move as another Betza
/// string with another forward direction (the Pass games' Pawns, whose
/// direction and moves depend on the quarter they stand in).
#[derive(Clone, Debug)]
pub struct RegionMove {
    /// The piece types concerned.
    pub pieces: TypeMask,
    /// The player whose pieces move so.
    pub player: usize,
    /// Where they move so.
    pub cells: CellSet,
    /// Their moves there, in Betza notation.
    pub betza: String,
    /// The same, parsed.
    pub atoms: Vec<Atom>,
    /// Forward for those moves.
    pub forward: Orientation,
}

/// Pieces that attack each other along open lines (Xiangqi's Generals may
/// not face each other). An attack only: no move comes of it.
#[derive(Clone, Debug)]
pub struct Facing {
    /// The piece types concerned.
    pub pieces: TypeMask,
    /// Their moves there, in Betza notation.
    pub betza: String,
    /// The board vectors of the lines.
    pub vectors: Vec<(i32, i32)>,
}

/// A piece that may, instead of moving, swap places with a piece of its
/// own army (Yang Qi's King).
#[derive(Clone, Debug)]
pub struct Swap {
    /// The piece types concerned.
    pub pieces: TypeMask,
    /// The types it may swap with.
    pub with: TypeMask,
    /// Their moves there, in Betza notation.
    pub betza: String,
    /// Where the partner may stand, as board vectors.
    pub vectors: Vec<(i32, i32)>,
    /// Not while the piece is attacked by a hostile player in the game.
    pub not_when_attacked: bool,
}

/// Who ranks first when a game where players go out ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Winner {
    /// The player whose move ended the game.
    LastMover,
    /// The player about to move: under elimination by the next player,
    /// the one whose threat delivered the last checkmate.
    ToMove,
}

/// The board vectors of symmetric atoms, or an error naming the first
/// atom restricted to some directions (these rules have no "forward").
fn symmetric_vectors(atoms: &[Atom]) -> Result<Vec<(i32, i32)>, String> {
    let mut all = Vec::new();
    for a in atoms {
        for &v in &a.vectors {
            for o in Orientation::ALL {
                let r = o.rotate(v);
                if !a.vectors.contains(&r) {
                    return Err("give whole atoms, without direction modifiers".into());
                }
            }
            if !all.contains(&v) {
                all.push(v);
            }
        }
    }
    Ok(all)
}

impl Compiler {
    pub(super) fn region_moves(
        &self,
        names: &Names,
        defs: &[RegionMovesDef],
    ) -> VResult<Vec<RegionMove>> {
        let mut out: Vec<RegionMove> = Vec::new();
        for (i, d) in defs.iter().enumerate() {
            let key = format!("rules.region_moves[{i}]");
            let pieces = names.types(&format!("{key}.pieces"), &d.pieces)?;
            let player = names.player(&format!("{key}.player"), &d.player)?;
            // Attack tests look riders up along lines from the target, the
            // same from every cell: only leapers may change by region.
            for t in (0..names.pieces.len()).filter(|t| pieces >> t & 1 != 0) {
                let p = &names.pieces[t];
                if p.atoms.iter().any(|a| a.reach != Reach::Leap) {
                    return Err(VariantError::at(
                        format!("{key}.pieces"),
                        format!(
                            "{} ({}) rides or hops; only leapers may move by region",
                            p.letter, p.name
                        ),
                    ));
                }
            }
            for (j, m) in d.moves.iter().enumerate() {
                let mkey = format!("{key}.moves[{j}]");
                let atoms = betza::parse(&m.betza)
                    .map_err(|e| VariantError::at(format!("{mkey}.betza"), e.to_string()))?;
                if atoms.iter().any(|a| a.reach != Reach::Leap) {
                    return Err(VariantError::at(
                        format!("{mkey}.betza"),
                        format!("`{}`: region moves must be leaps", m.betza),
                    ));
                }
                let forward = Orientation::parse(&m.forward).ok_or_else(|| {
                    VariantError::at(
                        format!("{mkey}.forward"),
                        "must be north, east, south or west",
                    )
                })?;
                let cells = self.cells(&format!("{mkey}.cells"), &m.cells)?;
                for o in out
                    .iter()
                    .filter(|o| o.player == player && o.pieces & pieces != 0)
                {
                    if let Some(c) = o.cells.intersection(&cells).first() {
                        return Err(VariantError::at(
                            format!("{mkey}.cells"),
                            format!(
                                "`{}` already has region moves for these pieces of {}",
                                self.geometry().name(c),
                                d.player
                            ),
                        ));
                    }
                }
                out.push(RegionMove {
                    pieces,
                    player,
                    cells,
                    betza: m.betza.clone(),
                    atoms,
                    forward,
                });
            }
        }
        Ok(out)
    }

    pub(super) fn rivers(&self, names: &Names, d: &RiversDef) -> VResult<Rivers> {
        let mut sections: Vec<Section> = Vec::new();
        for (i, s) in d.sections.iter().enumerate() {
            let key = format!("rules.rivers.sections[{i}]");
            if sections.iter().any(|o| o.name == s.name) {
                return Err(VariantError::at(
                    format!("{key}.name"),
                    format!("`{}` is named twice", s.name),
                ));
            }
            sections.push(Section {
                name: s.name.clone(),
                sides: [
                    self.cells(&format!("{key}.sides[0]"), &s.sides[0])?,
                    self.cells(&format!("{key}.sides[1]"), &s.sides[1])?,
                ],
            });
        }
        let mut far = [0u8; MAX_PLAYERS];
        for (player, list) in &d.far {
            let key = format!("rules.rivers.far.{player}");
            let p = names.player(&key, player)?;
            for name in list.split([' ', ',']).filter(|s| !s.is_empty()) {
                let i = sections
                    .iter()
                    .position(|s| s.name == name)
                    .ok_or_else(|| VariantError::at(&key, format!("no section named `{name}`")))?;
                far[p] |= 1 << i;
            }
        }
        Rivers::build(
            self.geometry(),
            sections,
            far,
            names.types("rules.rivers.no_cross", &d.no_cross)?,
            names.types("rules.rivers.running_jump", &d.running_jump)?,
        )
        .map_err(|m| VariantError::at("rules.rivers.sections", m))
    }

    pub(super) fn facing(names: &Names, d: &FacingDef) -> VResult<Facing> {
        let key = "rules.facing.betza";
        let atoms = betza::parse(&d.betza).map_err(|e| VariantError::at(key, e.to_string()))?;
        if atoms.iter().any(|a| a.reach != Reach::Ride { max: 0 }) {
            return Err(VariantError::at(
                key,
                format!(
                    "`{}`: facing lines must be unlimited riders (R, B, Q)",
                    d.betza
                ),
            ));
        }
        Ok(Facing {
            pieces: names.types("rules.facing.pieces", &d.pieces)?,
            betza: d.betza.clone(),
            vectors: symmetric_vectors(&atoms).map_err(|m| VariantError::at(key, m))?,
        })
    }

    pub(super) fn swap(names: &Names, d: &SwapDef) -> VResult<Swap> {
        let key = "rules.swap.betza";
        let text = d.betza.clone().unwrap_or_else(|| "K".into());
        let atoms = betza::parse(&text).map_err(|e| VariantError::at(key, e.to_string()))?;
        if atoms
            .iter()
            .any(|a| a.reach != Reach::Leap || a.lame.is_some())
        {
            return Err(VariantError::at(
                key,
                format!("`{text}`: a swap reaches its partner by a plain leap"),
            ));
        }
        Ok(Swap {
            pieces: names.types("rules.swap.pieces", &d.pieces)?,
            with: names.types("rules.swap.with", &d.with)?,
            betza: text,
            vectors: symmetric_vectors(&atoms).map_err(|m| VariantError::at(key, m))?,
            not_when_attacked: d.not_when_attacked,
        })
    }
}

/// The `winner` key.
pub(super) fn winner(text: Option<&str>) -> VResult<Winner> {
    match text {
        None | Some("last_mover") => Ok(Winner::LastMover),
        Some("to_move") => Ok(Winner::ToMove),
        Some(o) => Err(VariantError::at(
            "rules.winner",
            format!("`{o}`: expected last_mover or to_move"),
        )),
    }
}
