//! Walking the engine and an independent reference generator in lockstep
//! (the Avon, Mini Fivequarters and Pass comparisons): at every node the
//! positions both reached and their sorted legal move lists must agree.

use quadrille_engine::Position;

/// A reference generator's position, as the walk needs it.
pub trait Reference: Sized {
    type Move;
    /// The legal moves.
    fn legal_moves(&self) -> Vec<Self::Move>;
    /// A move written as the engine writes it.
    fn text(m: &Self::Move) -> String;
    /// The position after a legal move.
    fn after(&self, m: &Self::Move) -> Self;
    /// How the engine's position differs from this one; `None` when they
    /// are the same.
    fn differs_from(&self, eng: &Position) -> Option<String>;

    /// The legal moves as sorted texts.
    fn legal_texts(&self) -> Vec<String> {
        let mut v: Vec<String> = self.legal_moves().iter().map(Self::text).collect();
        v.sort();
        v
    }

    /// The position after the legal move written `text`, if there is one.
    fn play(&self, text: &str) -> Option<Self> {
        self.legal_moves()
            .iter()
            .find(|m| Self::text(m) == text)
            .map(|m| self.after(m))
    }

    /// Number of legal move sequences of `depth` plies.
    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|m| self.after(m).perft(depth - 1)).sum()
    }
}

/// Compares the positions and the legal moves at one node; `None` when
/// they agree.
pub fn node_difference<R: Reference>(eng: &mut Position, rp: &R) -> Option<String> {
    let fen = eng.to_string();
    if let Some(d) = rp.differs_from(eng) {
        return Some(format!("at `{fen}`: positions differ\n{d}"));
    }
    let em = super::legal(eng);
    let rm = rp.legal_texts();
    if em != rm {
        return Some(format!(
            "at `{fen}`:\n  engine only:    {:?}\n  reference only: {:?}",
            em.iter().filter(|m| !rm.contains(m)).collect::<Vec<_>>(),
            rm.iter().filter(|m| !em.contains(m)).collect::<Vec<_>>()
        ));
    }
    None
}

/// Walks both trees to `depth`, comparing every node; returns the move
/// path to the first difference and the difference. Counts the nodes
/// compared in `nodes`.
pub fn first_difference<R: Reference>(
    eng: &mut Position,
    rp: &R,
    depth: u32,
    nodes: &mut u64,
) -> Option<String> {
    *nodes += 1;
    if let Some(d) = node_difference(eng, rp) {
        return Some(d);
    }
    if depth <= 1 {
        return None;
    }
    for m in rp.legal_moves() {
        let text = R::text(&m);
        eng.play(&text)
            .unwrap_or_else(|e| panic!("{text} in {eng}: {e}"));
        let d = first_difference(eng, &rp.after(&m), depth - 1, nodes);
        eng.unmake();
        if let Some(d) = d {
            return Some(format!("{text} {d}"));
        }
    }
    None
}

/// SplitMix64: a small deterministic generator for random games.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}
