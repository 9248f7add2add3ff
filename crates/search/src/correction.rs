//! Correction history (Stockfish's, in the moving-average form of Ethereal
//! and Berserk): how far the static score has been from what the search
//! found, in positions with the same pawns, learnt while searching and
//! added to the static score. Pawn structures the evaluation misjudges
//! (blocked chains, weak pawns the tables do not see) are judged again by
//! their searches.

use quadrille_engine::geometry::WIDE;
use quadrille_engine::Position;

/// Entries per side (a power of two).
const SIZE: usize = 1 << 14;
/// Entries are centipawns times this.
const GRAIN: i32 = 256;
/// A search result's weight in its entry is `weight(depth) / SCALE`.
const SCALE: i32 = 1024;

/// The learnt corrections, by side to move and pawn structure.
#[derive(Clone, Default)]
pub(crate) struct Correction {
    table: Vec<i32>,
    /// The variant's pawn types (bit per type), whose cells make the key.
    pawn_types: u32,
}

impl Correction {
    /// Empties the table for a variant whose pawns are `pawn_types`.
    pub fn reset(&mut self, pawn_types: u32) {
        self.pawn_types = pawn_types;
        self.table = vec![0; 2 * SIZE];
    }

    /// The entry for the position: the side to move's half, at its pawns'
    /// hash.
    fn index<const W: usize>(&self, pos: &Position<W>) -> usize {
        let mut h = 0u64;
        for army in 0..pos.variant().armies.len() as u8 {
            let mut types = self.pawn_types;
            while types != 0 {
                let t = types.trailing_zeros() as u8;
                types &= types - 1;
                // Every word of the widest sets (those a narrower one
                // lacks are empty): the same entry at any width.
                let words = pos.type_cells(army, t).0;
                for i in 0..WIDE {
                    let w = words.get(i).copied().unwrap_or(0);
                    h = (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                    h ^= h >> 29;
                }
            }
            h = h.wrapping_add(0xD1B5_4A32_D192_ED03);
        }
        (pos.army_to_move() as usize & 1) * SIZE + (h >> 50) as usize % SIZE
    }

    /// The correction (centipawns) for the side to move.
    pub fn get<const W: usize>(&self, pos: &Position<W>) -> i32 {
        if self.table.is_empty() {
            return 0;
        }
        self.table[self.index(pos)] / GRAIN
    }

    /// A search `depth` plies deep found the position `error` centipawns
    /// above its uncorrected static score: the entry moves toward it, more
    /// for deeper searches, and stays within `max` centipawns.
    pub fn update<const W: usize>(&mut self, pos: &Position<W>, depth: i32, error: i32, max: i32) {
        if self.table.is_empty() {
            return;
        }
        let i = self.index(pos);
        let weight = (depth * depth + 2 * depth + 1).min(128);
        let target = error.clamp(-max, max) * GRAIN;
        let e = &mut self.table[i];
        *e = ((*e as i64 * (SCALE - weight) as i64 + target as i64 * weight as i64) / SCALE as i64)
            as i32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quadrille_engine::embedded;

    #[test]
    fn learns_per_pawn_structure_and_side() {
        let chess = embedded::variant("chess").unwrap();
        let pawn = chess.pieces.iter().position(|p| p.pawn).unwrap();
        let at = |fen: &str| Position::from_string(chess.clone(), fen).unwrap();
        let start = chess.start();
        let mut c = Correction::default();
        c.update(&start, 10, 300, 50);
        assert_eq!(c.get(&start), 0, "no table: no correction");
        c.reset(1 << pawn);
        for _ in 0..200 {
            c.update(&start, 10, 300, 50);
        }
        // Clamped to the largest correction, nearly reached.
        assert!((45..=50).contains(&c.get(&start)), "{}", c.get(&start));
        // The same pawns, the other side to move.
        let nf3 = at("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1");
        assert_eq!(c.get(&nf3), 0);
        // The same side, other pawns.
        let e4 = at("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1");
        assert_eq!(c.get(&e4), 0);
        // The same side and pawns, pieces elsewhere: the same entry.
        let knights = at("rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2");
        assert_eq!(c.get(&knights), c.get(&start));
        // Errors of the other sign pull it back.
        for _ in 0..400 {
            c.update(&start, 10, -20, 50);
        }
        assert!((-20..=-19).contains(&c.get(&start)), "{}", c.get(&start));
    }
}
