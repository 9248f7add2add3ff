//! The null move: passing the turn without moving, a tool for search
//! (null-move pruning). Not a move of any game.

use crate::moves::Move;
use crate::position::Position;

impl<const W: usize> Position<W> {
    /// Passes the turn: the next player still in the game moves, the en
    /// passant target lapses and the no-progress counter advances. Nothing
    /// else happens: no elimination or drop-out is judged, so a search
    /// should use it only in games without them. [`Position::unmake`]
    /// takes it back (it is recorded like a drop-out that moved nothing).
    /// The move generator never offers it.
    pub fn make_null(&mut self) {
        self.push_undo(Move::DROP_OUT, 0, 0, 0);
        if self.ep.is_some() {
            self.set_ep(None);
        }
        self.halfmove = self.halfmove.saturating_add(1);
        self.pass_turn();
    }
}
