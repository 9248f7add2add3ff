//! Moves: small `Copy` values, and a fixed-capacity list that never
//! allocates.

use crate::geometry::Cell;
use crate::variant::PieceType;
use std::mem::MaybeUninit;

/// What kind of move, for the parts of `make` that are not "lift, capture,
/// drop".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// Any other move: a step, leap, slide or hop, a capture or not.
    Normal,
    /// A double step that may create an en passant target.
    DoubleStep,
    /// Captures the pawn that just double-stepped past `to`.
    EnPassant,
    /// The variant's castling number `n`; `from`/`to` are the king's.
    Castle(u8),
    /// The player to move has no legal move and leaves the game (only in
    /// variants with the `dropout` rule; `from` and `to` are meaningless).
    DropOut,
    /// The piece on `from` and the piece of its own army on `to` change
    /// places (the `swap` rule).
    Swap,
}

/// A move: from, to, an optional promotion and its kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The cell the piece leaves (the King's for castling and swaps).
    pub from: Cell,
    /// The cell it goes to.
    pub to: Cell,
    /// The type a promoting piece becomes.
    pub promotion: Option<PieceType>,
    /// What kind of move it is.
    pub kind: MoveKind,
}

impl Move {
    #[inline]
    /// A normal move without promotion.
    pub fn new(from: Cell, to: Cell) -> Move {
        Move {
            from,
            to,
            promotion: None,
            kind: MoveKind::Normal,
        }
    }

    /// The forced "move" of a player without a legal move who drops out.
    pub const DROP_OUT: Move = Move {
        from: 0,
        to: 0,
        promotion: None,
        kind: MoveKind::DropOut,
    };
}

/// Capacity of a [`MoveList`]: more than any position of the supported
/// games can have (a Caïssa Britannia middle game has about 150).
pub const MAX_MOVES: usize = 1024;

/// A list of moves on the stack. Its storage is left uninitialised: making
/// one costs nothing, which matters when perft makes one per node.
pub struct MoveList {
    moves: [MaybeUninit<Move>; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl MoveList {
    /// An empty list.
    pub fn new() -> MoveList {
        MoveList {
            // SAFETY: an array of `MaybeUninit` needs no initialisation.
            moves: unsafe { MaybeUninit::<[MaybeUninit<Move>; MAX_MOVES]>::uninit().assume_init() },
            len: 0,
        }
    }
    #[inline]
    /// Appends a move (the list holds up to its capacity; generators never exceed it).
    pub fn push(&mut self, m: Move) {
        // A position with this many moves cannot arise in the supported
        // games (the most mobile has under 300); stop rather than overflow.
        debug_assert!(self.len < MAX_MOVES, "move list overflow");
        if self.len < MAX_MOVES {
            self.moves[self.len] = MaybeUninit::new(m);
            self.len += 1;
        }
    }
    #[inline]
    /// Number of moves.
    pub fn len(&self) -> usize {
        self.len
    }
    #[inline]
    /// Is the list empty?
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    #[inline]
    /// Removes every move.
    pub fn clear(&mut self) {
        self.len = 0;
    }
    #[inline]
    /// Keeps the first `n` moves.
    pub fn truncate(&mut self, n: usize) {
        self.len = self.len.min(n);
    }
    #[inline]
    /// The moves as a slice.
    pub fn as_slice(&self) -> &[Move] {
        // SAFETY: the first `len` entries were written by `push`, and
        // `MaybeUninit<Move>` has the layout of `Move`.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast::<Move>(), self.len) }
    }
    #[inline]
    /// The moves as a mutable slice (for sorting).
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        // SAFETY: as for `as_slice`.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr().cast::<Move>(), self.len) }
    }
    #[inline]
    /// Iterates over the moves.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
    /// Keeps the moves for which `keep` returns true.
    #[inline(always)]
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            let m = self.as_slice()[i];
            if keep(m) {
                self.moves[j] = MaybeUninit::new(m);
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
