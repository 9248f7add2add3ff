//! The `swap` rule module: a piece (Yang Qi's King) may, instead of
//! moving, change places with a piece of its own army within reach,
//! unless it is attacked when the rule says so.

use crate::moves::{Move, MoveKind, MoveList};
use crate::position::Position;
use crate::variant::Swap;

impl<const W: usize> Position<W> {
    /// Pushes the swaps of the army to move. Under path rules both pieces'
    /// moves must be allowed as quiet moves.
    pub(crate) fn push_swaps(&self, list: &mut MoveList, s: &Swap) {
        let v = &*self.variant;
        let player = self.to_move as usize;
        let army = v.players[player].army;
        let paths = v.rules.paths.active;
        for kind in (0..v.pieces.len() as u8).filter(|k| s.pieces >> k & 1 != 0) {
            for from in self.type_cells[army as usize][kind as usize].iter() {
                if s.not_when_attacked && self.attacked_by_enemies(from, army) {
                    continue;
                }
                for &to in v.tables.swap_targets(from) {
                    let partner = self.type_bit(to, army);
                    if partner & s.with == 0 {
                        continue;
                    }
                    if paths
                        && !(self.path_allowed(player, false, kind, from, &[], to, false, false)
                            && self.path_allowed(
                                player,
                                false,
                                partner.trailing_zeros() as u8,
                                to,
                                &[],
                                from,
                                false,
                                false,
                            ))
                    {
                        continue;
                    }
                    list.push(Move {
                        from,
                        to,
                        promotion: None,
                        kind: MoveKind::Swap,
                    });
                }
            }
        }
    }
}
