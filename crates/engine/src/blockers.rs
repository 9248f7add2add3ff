//! Which pieces shield a royal piece from a hostile rider: a read-only
//! query for the evaluation (Stockfish's `blockers_for_king`).

use crate::geometry::CellSet;
use crate::position::Position;

impl<const W: usize> Position<W> {
    /// The pieces, of any army, that alone stand between a royal piece of
    /// `army` and a hostile rider in range on the same line: moving one
    /// away would uncover an attack on the royal piece. The army's pinned
    /// pieces and other armies' pieces that could uncover a check alike.
    /// Screens of hoppers and blockers of lame leaps are not counted.
    pub fn royal_blockers(&self, army: u8) -> CellSet<W> {
        let v = &*self.variant;
        let t = &v.tables;
        let mut blockers = CellSet::EMPTY;
        let Some(royals) = self.royal_cells(army) else {
            return blockers;
        };
        let mut hostile = v.hostile_players[army as usize] & !self.out;
        while hostile != 0 {
            let p = hostile.trailing_zeros() as usize;
            hostile &= hostile - 1;
            let rider_army = v.players[p].army;
            for r in royals.iter() {
                for l in &t.attacks[p].lines {
                    let ray = t.ray(l.vector, r);
                    let found = self.first_pieces(ray);
                    let Some(&behind) = ray.get(found[1]) else {
                        continue;
                    };
                    if l.rides(self.type_bit(behind, rider_army), found[1]) {
                        blockers.insert(ray[found[0]]);
                    }
                }
            }
        }
        blockers
    }
}

#[cfg(test)]
mod tests {
    use crate::position::Position;
    use crate::variant::embedded;

    /// The blockers of `army`'s royal pieces, by cell name, sorted.
    fn blockers(fen: &str, army: u8) -> Vec<String> {
        let v = embedded::variant("chess").unwrap();
        let p: Position = Position::from_string(v.clone(), fen).unwrap();
        let mut names: Vec<String> = p
            .royal_blockers(army)
            .iter()
            .map(|c| v.geometry.name(c))
            .collect();
        names.sort();
        names
    }

    #[test]
    fn pinned_pieces_and_discovering_ones_block() {
        // The Rook on e8 pins the Knight on e2, the Bishop on b4 the Pawn
        // on d2; Black's King has none.
        let pins = "4r2k/8/8/8/1b6/8/3PN3/4K3 w - - 0 1";
        assert_eq!(blockers(pins, 0), ["d2", "e2"]);
        assert!(blockers(pins, 1).is_empty());
        // Two pieces on the line: neither alone blocks.
        let two = "4r2k/8/8/8/8/4P3/4N3/4K3 w - - 0 1";
        assert!(blockers(two, 0).is_empty());
        // A White Knight between its Rook and Black's King could uncover
        // a check: it blocks for Black's King.
        let discover = "4k3/8/8/8/8/4N3/8/4RK2 w - - 0 1";
        assert_eq!(blockers(discover, 1), ["e3"]);
        // A Queen out of line, a King's step (no ride): no blockers.
        let none = "8/8/8/8/1q6/4k3/4n3/4K3 w - - 0 1";
        assert!(blockers(none, 0).is_empty());
    }
}
