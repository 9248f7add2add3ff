//! Moves: small `Copy` values, and a fixed-capacity list that never
//! allocates.

use crate::geometry::Cell;
use crate::variant::PieceType;

/// What kind of move, for the parts of `make` that are not "lift, capture,
/// drop".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    Normal,
    /// A double step that may create an en passant target.
    DoubleStep,
    /// Captures the pawn that just double-stepped past `to`.
    EnPassant,
    /// The variant's castling number `n`; `from`/`to` are the king's.
    Castle(u8),
}

/// A move: from, to, an optional promotion and its kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Cell,
    pub to: Cell,
    pub promotion: Option<PieceType>,
    pub kind: MoveKind,
}

impl Move {
    #[inline]
    pub fn new(from: Cell, to: Cell) -> Move {
        Move {
            from,
            to,
            promotion: None,
            kind: MoveKind::Normal,
        }
    }
}

/// Capacity of a [`MoveList`]: more than any position of the supported
/// games can have (a Caïssa Britannia middle game has about 150).
pub const MAX_MOVES: usize = 1024;

/// A list of moves on the stack.
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl MoveList {
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::new(0, 0); MAX_MOVES],
            len: 0,
        }
    }
    #[inline]
    pub fn push(&mut self, m: Move) {
        // Silently dropping moves would make the engine wrong; a position
        // with this many moves cannot arise in the supported games.
        if self.len < MAX_MOVES {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }
    #[inline]
    pub fn truncate(&mut self, n: usize) {
        self.len = self.len.min(n);
    }
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }
    #[inline]
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
    /// Keeps the moves for which `keep` returns true.
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            let m = self.moves[i];
            if keep(m) {
                self.moves[j] = m;
                j += 1;
            }
        }
        self.len = j;
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}
