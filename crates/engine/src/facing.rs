//! The `facing` rule module: pieces of some types (Xiangqi's Generals)
//! attack each other along open lines. An attack only, never a move: it
//! makes a move that leaves two of them facing illegal for the player the
//! attacker threatens, and puts out a player whose one is faced by the
//! next player's.

use crate::geometry::{Cell, CellSet};
use crate::position::{army_of, kind_of, Position};
use crate::variant::TypeMask;

impl<const W: usize> Position<W> {
    /// The first piece along facing line `l` from `cell`, if any.
    fn first_on_line(&self, l: u16, cell: Cell) -> Option<(usize, Cell)> {
        let t = &self.variant.tables;
        t.ray(l, cell)
            .iter()
            .enumerate()
            .find(|&(_, &c)| self.board[c as usize] != 0)
            .map(|(i, &c)| (i, c))
    }

    /// Does a facing piece of `player` see the facing piece on `cell`
    /// along an open line?
    pub(crate) fn faced(&self, cell: Cell, player: usize, pieces: TypeMask) -> bool {
        let code = self.board[cell as usize];
        if code == 0 || pieces >> kind_of(code) & 1 == 0 {
            return false;
        }
        let v = &*self.variant;
        let army = v.players[player].army;
        v.tables.facing_lines.iter().any(|&l| {
            self.first_on_line(l, cell)
                .is_some_and(|(_, c)| self.type_bit(c, army) & pieces != 0)
        })
    }

    /// Adds to `leave` the own piece that alone stands between the royal
    /// piece on `royal` (of `army`) and a facing piece of `enemy`: moving
    /// it away would leave the two facing.
    pub(crate) fn facing_exposure(
        &self,
        royal: Cell,
        army: u8,
        enemy: u8,
        pieces: TypeMask,
        leave: &mut CellSet<W>,
    ) {
        if pieces >> kind_of(self.board[royal as usize]) & 1 == 0 {
            return;
        }
        for &l in &self.variant.tables.facing_lines {
            let Some((_, first)) = self.first_on_line(l, royal) else {
                continue;
            };
            if army_of(self.board[first as usize]) != army {
                continue;
            }
            if self
                .first_on_line(l, first)
                .is_some_and(|(_, c)| self.type_bit(c, enemy) & pieces != 0)
            {
                leave.insert(first);
            }
        }
    }
}
