//! Caïssa Britannia promotion by liberation never offers a Pawn, although a
//! side that promotes has always lost Pawns (found by the Fairy-Stockfish
//! cross-check, tools/fsf/crosscheck.py).

use quadrille_engine::{embedded, Position};

#[test]
fn liberation_offers_captured_types_but_never_the_pawn() {
    let v = embedded::variant("caissa-britannia").unwrap();
    // White lacks a Rook, a Lion, the Prince Consort and both Dragons; it
    // has both Unicorns and both Bishops.
    let fen = "1r2q5/2P4P2/3pp5/10/10/10/10/4P5/1L8/RU1BQ1B1U1 w - - 0 1";
    let p = Position::from_string(v, fen).unwrap();
    let list = p.legal_moves();
    let mut c9: Vec<String> = list
        .iter()
        .map(|&m| p.move_to_string(m))
        .filter(|s| s.starts_with("c9"))
        .collect();
    c9.sort();
    let expected: Vec<String> = ["b10", "c10"]
        .iter()
        .flat_map(|to| "dklnr".chars().map(move |t| format!("c9{to}{t}")))
        .collect();
    assert_eq!(c9, expected);
}
