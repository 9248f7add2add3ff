//! Mobility: where a piece's move rays lead, on an empty board (the raw
//! material of derived piece values and piece-square tables) and in a
//! position (an evaluation term). Read straight from the precomputed rays,
//! without path rules, promotion, castling or legality: a cheap measure
//! for an AI, not a move list.

use crate::geometry::{Cell, CellSet, WIDE};
use crate::position::{army_of, Position};
use crate::tables::Travel;
use crate::variant::{PieceType, Variant};

/// How a move ray is travelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RayKind {
    /// One jump to the first cell (lame leaps need their path empty).
    Leap,
    /// Cell after cell up to the first piece.
    Slide,
    /// Over exactly one piece (the screen), then like a slide.
    Hop,
}

/// One move ray of a piece from a cell: the cells it passes in order, how
/// it is travelled, and whether it moves to empty cells, captures, or both.
#[derive(Clone, Copy, Debug)]
pub struct RayView<'a> {
    /// The cells along the ray, nearest first.
    pub cells: &'a [Cell],
    /// How the ray is travelled.
    pub kind: RayKind,
    /// The piece may move along it without capturing.
    pub quiet: bool,
    /// The piece may capture along it.
    pub capture: bool,
}

impl Variant {
    /// The move rays of a piece type standing on `cell`, moved by `player`
    /// (whose forward orients it). Empty for a cell that does not exist.
    pub fn rays(
        &self,
        kind: PieceType,
        player: usize,
        cell: Cell,
    ) -> impl Iterator<Item = RayView<'_>> + '_ {
        let t = &self.tables;
        t.piece_rays(player, kind, cell)
            .iter()
            .map(move |r| RayView {
                cells: &t.cells[r.start as usize..][..r.len as usize],
                kind: match r.travel {
                    Travel::Leap => RayKind::Leap,
                    Travel::Slide => RayKind::Slide,
                    Travel::Hop => RayKind::Hop,
                },
                quiet: r.quiet,
                capture: r.capture,
            })
    }

    /// How many cells a piece type on `cell`, moved by `player`, can expect
    /// to reach when every other cell holds a piece with probability
    /// `density` (0 is an empty board): a slide reaches its k-th cell if the
    /// k - 1 before it are empty, a hopper needs exactly one screen. A ray
    /// that only moves or only captures counts half.
    pub fn cell_mobility(&self, kind: PieceType, player: usize, cell: Cell, density: f64) -> f64 {
        let density = density.clamp(0.0, 1.0);
        let free = 1.0 - density;
        let mut total = 0.0;
        for r in self.rays(kind, player, cell) {
            let weight = if r.quiet && r.capture { 1.0 } else { 0.5 };
            let n = r.cells.len() as i32;
            let reach: f64 = match r.kind {
                RayKind::Leap => 1.0,
                RayKind::Slide => (0..n).map(|k| free.powi(k)).sum(),
                // One screen among the k - 1 cells before the k-th.
                RayKind::Hop => (2..=n)
                    .map(|k| (k - 1) as f64 * density * free.powi(k - 2))
                    .sum(),
            };
            total += weight * reach;
        }
        total
    }

    /// [`Variant::cell_mobility`] averaged over every cell of the board and
    /// every player's orientation: the basis of derived piece values.
    pub fn mobility(&self, kind: PieceType, density: f64) -> f64 {
        let cells = self.geometry.cells.len() as usize;
        if cells == 0 {
            return 0.0;
        }
        let mut total = 0.0;
        for player in 0..self.players.len() {
            for c in self.geometry.cells.iter() {
                total += self.cell_mobility(kind, player, c, density);
            }
        }
        total / (cells * self.players.len()) as f64
    }
}

/// What a piece does from its cell in a position: how many moves it has
/// and which cells it attacks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Activity<const W: usize = WIDE> {
    /// Pseudo-legal destinations (as [`Position::piece_mobility`]).
    pub moves: u32,
    /// Cells its capture rays reach: empty ones and the first piece on
    /// each ray, whoever owns it (a piece defends its own army's pieces).
    pub attacks: CellSet<W>,
}

impl<const W: usize> Position<W> {
    /// Pseudo-legal destinations of the piece on `cell` if `player` moved
    /// it: empty cells its quiet rays reach and hostile pieces its capture
    /// rays reach (lame leaps blocked, hoppers over one screen). Path rules,
    /// promotion, en passant, castling and legality are ignored. 0 for an
    /// empty cell.
    pub fn piece_mobility(&self, cell: Cell, player: usize) -> u32 {
        self.piece_activity(cell, player).moves
    }

    /// The piece on `cell`'s mobility and attacked cells if `player` moved
    /// it (nothing for an empty cell).
    pub fn piece_activity(&self, cell: Cell, player: usize) -> Activity<W> {
        let code = self.board[cell as usize];
        if code == 0 {
            return Activity::default();
        }
        self.activity_of(crate::position::kind_of(code), army_of(code), player, cell)
    }

    /// The mobility and attacked cells a piece of `kind` would have on
    /// `cell` if `player` moved it, whatever stands there now (a hostile
    /// piece being one of `player`'s army's enemies). For an evaluation:
    /// the cells from which a symmetric piece would attack `cell`.
    pub fn activity_as(&self, kind: PieceType, player: usize, cell: Cell) -> Activity<W> {
        let v = &*self.variant;
        if kind as usize >= v.pieces.len()
            || player >= v.players.len()
            || !v.geometry.cells.contains(cell)
        {
            return Activity::default();
        }
        self.activity_of(kind, v.players[player].army, player, cell)
    }

    fn activity_of(&self, kind: PieceType, army: u8, player: usize, cell: Cell) -> Activity<W> {
        let mut out = Activity::default();
        let v = &*self.variant;
        let t = &v.tables;
        let enemies = v.enemies[army as usize];
        let hostile = |c: Cell| {
            let x = self.board[c as usize];
            x != 0 && enemies >> army_of(x) & 1 != 0
        };
        let (leaps, rays) = t.activity_rays(player, kind, cell);
        if let Some(leaps) = leaps {
            // The empty cells and the hostile pieces among them are moves.
            let mut occupied = CellSet::EMPTY;
            let mut hostile_cells = CellSet::EMPTY;
            for (a, s) in self.army_cells.iter().enumerate().take(v.armies.len()) {
                occupied = occupied.union(s);
                if enemies >> a & 1 != 0 {
                    hostile_cells = hostile_cells.union(s);
                }
            }
            let leaps = self.sets.leaps(leaps);
            out.attacks = *leaps;
            out.moves =
                leaps.difference(&occupied).len() + leaps.intersection(&hostile_cells).len();
        }
        for r in rays {
            let cells = &t.cells[r.start as usize..][..r.len as usize];
            match r.travel {
                Travel::Leap => {
                    let lame = &t.cells[r.lame_start as usize..][..r.lame_len as usize];
                    if lame.iter().any(|&c| self.board[c as usize] != 0) {
                        continue;
                    }
                    let to = cells[0];
                    if r.capture {
                        out.attacks.insert(to);
                    }
                    if self.board[to as usize] == 0 {
                        out.moves += r.quiet as u32;
                    } else {
                        out.moves += (r.capture && hostile(to)) as u32;
                    }
                }
                Travel::Slide | Travel::Hop => {
                    let mut screens = if r.travel == Travel::Hop { 1 } else { 0 };
                    for &to in cells {
                        let empty = self.board[to as usize] == 0;
                        if r.capture && screens == 0 {
                            out.attacks.insert(to);
                        }
                        if empty {
                            out.moves += (r.quiet && screens == 0) as u32;
                        } else if screens > 0 {
                            screens -= 1;
                        } else {
                            out.moves += (r.capture && hostile(to)) as u32;
                            break;
                        }
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embedded;

    /// Every ray walked cell by cell, the plain leaps too: what
    /// `piece_activity` computed before it gathered those into a set.
    fn walked(pos: &Position, cell: Cell, player: usize) -> Activity {
        let mut out = Activity::default();
        let code = pos.board[cell as usize];
        if code == 0 {
            return out;
        }
        let t = &pos.variant.tables;
        let enemies = pos.variant.enemies[army_of(code) as usize];
        let hostile = |c: Cell| {
            let x = pos.board[c as usize];
            x != 0 && enemies >> army_of(x) & 1 != 0
        };
        let kind = crate::position::kind_of(code);
        for r in t.piece_rays(player, kind, cell) {
            let cells = &t.cells[r.start as usize..][..r.len as usize];
            let lame = &t.cells[r.lame_start as usize..][..r.lame_len as usize];
            let mut screens = (r.travel == Travel::Hop) as u32;
            for &to in cells {
                if r.travel == Travel::Leap && lame.iter().any(|&c| pos.board[c as usize] != 0) {
                    break;
                }
                if r.capture && screens == 0 {
                    out.attacks.insert(to);
                }
                if pos.board[to as usize] == 0 {
                    out.moves += (r.quiet && screens == 0) as u32;
                } else if screens > 0 {
                    screens -= 1;
                } else {
                    out.moves += (r.capture && hostile(to)) as u32;
                    break;
                }
                if r.travel == Travel::Leap {
                    break;
                }
            }
        }
        out
    }

    #[test]
    fn activity_is_the_walk_of_every_ray_in_every_variant() {
        let mut seed = 7u64;
        let mut narrow_boards = 0;
        for name in embedded::names() {
            let v = embedded::variant(name).unwrap();
            let mut pos = v.start();
            let mut checked = 0;
            for _ in 0..60 {
                // The same in one-word sets where the board fits them.
                let narrow = pos.with_width::<1>();
                for c in v.geometry.cells.iter() {
                    for player in 0..v.players.len() {
                        let walk = walked(&pos, c, player);
                        let at = || {
                            format!(
                                "{name}: {} seen by player {player} in {}",
                                v.geometry.name(c),
                                pos.to_string_fen()
                            )
                        };
                        assert_eq!(pos.piece_activity(c, player), walk, "{}", at());
                        if let Some(narrow) = &narrow {
                            let a = narrow.piece_activity(c, player);
                            assert_eq!(a.moves, walk.moves, "{} (one word)", at());
                            assert_eq!(a.attacks.to_width(), walk.attacks, "{} (one word)", at());
                        }
                        checked += (pos.board[c as usize] != 0) as u32;
                    }
                }
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let i = (crate::tables::splitmix(&mut seed) % moves.len() as u64) as usize;
                pos.make(moves.as_slice()[i]);
            }
            assert!(checked > 100, "{name}: only {checked} pieces compared");
            narrow_boards += (v.geometry.size() <= 64) as u32;
        }
        assert!(
            narrow_boards >= 2,
            "one-word sets compared on {narrow_boards} boards"
        );
    }

    #[test]
    fn activity_as_a_type_is_that_piece_activity() {
        // Where a piece of the type stands, its own activity.
        for name in embedded::names() {
            let v = embedded::variant(name).unwrap();
            let pos = v.start();
            for c in v.geometry.cells.iter() {
                let Some(piece) = pos.piece_at(c) else {
                    continue;
                };
                for (player, pl) in v.players.iter().enumerate() {
                    if pl.army == piece.army {
                        let own = pos.piece_activity(c, player);
                        assert_eq!(pos.activity_as(piece.kind, player, c), own, "{name}");
                    }
                }
            }
        }
        // Elsewhere, the cells it would attack: a Knight on Black's g8 (the
        // cells a White Knight would check from), a Queen on e4 stopped
        // by the pawns of rank 2 and 7.
        let v = embedded::variant("chess").unwrap();
        let pos = v.start();
        let at = |s: &str| v.geometry.parse_cell(s).unwrap();
        let kind = |s: &str| pos.piece_at(at(s)).unwrap().kind;
        let knight = pos.activity_as(kind("b1"), 0, at("g8")).attacks;
        let names: Vec<_> = knight.iter().map(|c| v.geometry.name(c)).collect();
        assert_eq!(names.len(), 3, "{names:?}");
        for s in ["e7", "f6", "h6"] {
            assert!(knight.contains(at(s)), "{s}");
        }
        let queen = pos.activity_as(kind("d1"), 0, at("e4"));
        assert!(queen.attacks.contains(at("e2")) && queen.attacks.contains(at("e7")));
        assert!(!queen.attacks.contains(at("e1")) && !queen.attacks.contains(at("e8")));
        // A type or player the variant lacks: nothing.
        assert_eq!(pos.activity_as(30, 0, at("e4")), Activity::default());
        assert_eq!(
            pos.activity_as(kind("d1"), 5, at("e4")),
            Activity::default()
        );
    }
}
