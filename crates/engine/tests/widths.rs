//! Boards are searched in the narrowest cell sets that hold them
//! (`Position::narrowest`: one word up to 64 cells, two up to 128): every
//! query the search asks must answer there as in the widest sets, over
//! random games of every embedded variant.

use quadrille_engine::{embedded, Move, MoveList, Position};

/// Everything the search reads of a position, as text to compare.
fn answers<const W: usize>(pos: &mut Position<W>, values: &[i32]) -> Vec<String> {
    let mut out = Vec::new();
    let mut list = MoveList::new();
    pos.legal_moves_into(&mut list);
    out.push(format!("legal {:?}", list.as_slice()));
    pos.pseudo_legal_moves(&mut list);
    let pseudo: Vec<Move> = list.as_slice().to_vec();
    out.push(format!("pseudo {pseudo:?}"));
    pos.pseudo_legal_tactical_moves(&mut list);
    out.push(format!("tactical {:?}", list.as_slice()));
    out.push(format!(
        "in check {} outcome {:?}",
        pos.in_check(),
        pos.outcome()
    ));
    let legality = pos.legality();
    let checking = pos.checking_cells();
    for &m in &pseudo {
        let see: Vec<bool> = [-300, -100, 0, 100, 300]
            .iter()
            .map(|&t| pos.see_at_least(m, values, t))
            .collect();
        let legal = pos.is_legal(&legality, m);
        out.push(format!(
            "{m:?} legal {legal} may check {} see {see:?}",
            checking.may_check(pos, m)
        ));
    }
    let v = pos.variant().clone();
    for c in v.geometry.cells.iter() {
        for a in 0..v.armies.len() as u8 {
            out.push(format!("{c} {a} {}", pos.attacked_by_enemies(c, a)));
        }
    }
    out
}

#[test]
fn narrow_sets_answer_as_the_widest() {
    let mut seed = 5u64;
    let mut next = |n: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize % n
    };
    let mut boards = 0;
    for name in embedded::names() {
        let v = embedded::variant(name).unwrap();
        let values: Vec<i32> = (0..v.pieces.len() as i32).map(|t| 100 + 50 * t).collect();
        assert_eq!(
            v.start().with_width::<1>().is_some(),
            v.geometry.size() <= 64,
            "{name}: one word holds 64 cells"
        );
        assert_eq!(
            v.start().with_width::<2>().is_some(),
            v.geometry.size() <= 128,
            "{name}: two words hold 128 cells"
        );
        boards += 1;
        for _ in 0..4 {
            let mut pos = v.start();
            for _ in 0..60 {
                let wide = answers(&mut pos, &values);
                if let Some(mut one) = pos.with_width::<1>() {
                    assert_eq!(answers(&mut one, &values), wide, "{name} {pos} (one word)");
                } else if let Some(mut two) = pos.with_width::<2>() {
                    assert_eq!(answers(&mut two, &values), wide, "{name} {pos} (two words)");
                }
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.make(moves.as_slice()[next(moves.len())]);
            }
        }
    }
    assert!(boards >= 16, "only {boards} variants compared");
}
