//! Perft: counting move paths, the proof of the move generator.

use crate::moves::{Move, MoveList};
use crate::position::{AtWidth, Position};

impl<const W: usize> Position<W> {
    /// Number of legal move sequences of `depth` plies. The last ply is
    /// bulk-counted (the length of the legal move list).
    pub fn perft(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut list = MoveList::new();
        self.legal_moves_into(&mut list);
        if depth == 1 {
            return list.len() as u64;
        }
        let mut n = 0;
        for &m in list.iter() {
            self.make(m);
            n += self.perft(depth - 1);
            self.unmake();
        }
        n
    }

    /// Perft split by the first move.
    pub fn divide(&mut self, depth: u32) -> Vec<(Move, u64)> {
        let list = self.legal_moves();
        list.iter()
            .map(|&m| {
                self.make(m);
                let n = if depth <= 1 { 1 } else { self.perft(depth - 1) };
                self.unmake();
                (m, n)
            })
            .collect()
    }
}

impl Position {
    /// [`Position::perft`] in the narrowest cell sets that hold the board
    /// ([`Position::narrowest`]): the same count, sooner.
    pub fn perft_narrowed(&self, depth: u32) -> u64 {
        struct Perft(u32);
        impl AtWidth for Perft {
            type Output = u64;
            fn run<const W: usize>(self, mut pos: Position<W>) -> u64 {
                pos.perft(self.0)
            }
        }
        self.narrowest(Perft(depth))
    }

    /// [`Position::divide`] as [`Position::perft_narrowed`] counts.
    pub fn divide_narrowed(&self, depth: u32) -> Vec<(Move, u64)> {
        struct Divide(u32);
        impl AtWidth for Divide {
            type Output = Vec<(Move, u64)>;
            fn run<const W: usize>(self, mut pos: Position<W>) -> Self::Output {
                pos.divide(self.0)
            }
        }
        self.narrowest(Divide(depth))
    }
}
