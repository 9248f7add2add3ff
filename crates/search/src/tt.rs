//! The transposition table: results of earlier searches by Zobrist key,
//! in buckets of two (one kept for depth, one always replaced), shared by
//! the threads of a search without locks.

use quadrille_engine::{Move, MoveKind};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicU64, AtomicU8};

/// What a stored score says about the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Bound {
    #[default]
    Exact,
    /// At least the score (the search failed high).
    Lower,
    /// At most the score (the search failed low).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug, Default)]
pub struct Entry {
    pub key: u64,
    pub mv: Option<Move>,
    pub score: i32,
    pub depth: i16,
    pub bound: Bound,
    /// The node was on the principal line, or below one that was
    /// (Stockfish's `ttPv`).
    pub pv: bool,
    /// The search that wrote it (older entries are replaced first).
    generation: u8,
}

/// Generations wrap at this (four bits of the packed entry).
const GENERATIONS: u8 = 16;

impl Entry {
    /// The entry as one word: move (32 bits), score (16), depth (8), bound
    /// (2), whether there is a move (1), generation (4), principal line (1).
    fn pack(&self) -> u64 {
        let mv = self.mv.map_or(0, pack_move) as u64;
        let bound = match self.bound {
            Bound::Exact => 0u64,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        mv | (self.score as i16 as u16 as u64) << 32
            | (self.depth as i8 as u8 as u64) << 48
            | bound << 56
            | (self.mv.is_some() as u64) << 58
            | ((self.generation % GENERATIONS) as u64) << 59
            | (self.pv as u64) << 63
    }

    fn unpack(key: u64, data: u64) -> Entry {
        Entry {
            key,
            mv: (data >> 58 & 1 != 0).then(|| unpack_move(data as u32)),
            score: (data >> 32) as u16 as i16 as i32,
            depth: (data >> 48) as u8 as i8 as i16,
            bound: match data >> 56 & 3 {
                1 => Bound::Lower,
                2 => Bound::Upper,
                _ => Bound::Exact,
            },
            pv: data >> 63 != 0,
            generation: (data >> 59) as u8 % GENERATIONS,
        }
    }
}

/// A move in 32 bits: from, to, promotion + 1 (0 for none), kind.
fn pack_move(m: Move) -> u32 {
    let kind = match m.kind {
        MoveKind::Normal => 0u32,
        MoveKind::DoubleStep => 1,
        MoveKind::EnPassant => 2,
        MoveKind::DropOut => 3,
        MoveKind::Swap => 4,
        MoveKind::Castle(n) => 8 + n as u32,
    };
    m.from as u32 | (m.to as u32) << 8 | m.promotion.map_or(0, |t| t as u32 + 1) << 16 | kind << 24
}

fn unpack_move(x: u32) -> Move {
    Move {
        from: x as u8,
        to: (x >> 8) as u8,
        promotion: match (x >> 16) as u8 {
            0 => None,
            t => Some(t - 1),
        },
        kind: match (x >> 24) as u8 {
            0 => MoveKind::Normal,
            1 => MoveKind::DoubleStep,
            2 => MoveKind::EnPassant,
            3 => MoveKind::DropOut,
            4 => MoveKind::Swap,
            n => MoveKind::Castle(n - 8),
        },
    }
}

/// One slot: the entry's word and the key mixed with it, so that a slot
/// torn by two threads writing at once reads as empty, never as another
/// position's entry (the lockless scheme of Hyatt and Mann).
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    fn load(&self) -> (u64, u64) {
        let data = self.data.load(Relaxed);
        (self.check.load(Relaxed) ^ data, data)
    }

    fn save(&self, key: u64, data: u64) {
        self.data.store(data, Relaxed);
        self.check.store(key ^ data, Relaxed);
    }
}

/// A fixed-size table of two-slot buckets, indexed by the low bits of the
/// key, shared by the threads of one search.
pub struct Table {
    buckets: Vec<[Slot; 2]>,
    generation: AtomicU8,
}

impl Table {
    /// A table of about `megabytes` (at least one bucket).
    pub fn new(megabytes: usize) -> Table {
        let bytes = megabytes.max(1) * 1024 * 1024;
        let n = (bytes / std::mem::size_of::<[Slot; 2]>()).max(1);
        // A power of two, so the index is a mask.
        let n = 1usize << (usize::BITS - 1 - n.leading_zeros());
        Table {
            buckets: (0..n).map(|_| Default::default()).collect(),
            generation: AtomicU8::new(0),
        }
    }

    /// Forgets everything (a new game).
    pub fn clear(&self) {
        for b in &self.buckets {
            for s in b {
                s.save(0, 0);
            }
        }
        self.generation.store(0, Relaxed);
    }

    /// Marks the start of a new search.
    pub fn new_search(&self) {
        let g = self.generation.load(Relaxed);
        self.generation.store((g + 1) % GENERATIONS, Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &[Slot; 2] {
        &self.buckets[key as usize & (self.buckets.len() - 1)]
    }

    fn entries(&self, key: u64) -> [Entry; 2] {
        self.bucket(key).each_ref().map(|s| {
            let (k, data) = s.load();
            Entry::unpack(k, data)
        })
    }

    /// The entry stored for this key, if any (key 0 marks an empty slot).
    pub fn probe(&self, key: u64) -> Option<Entry> {
        if key == 0 {
            return None;
        }
        self.entries(key).into_iter().find(|e| e.key == key)
    }

    /// Stores a result (`pv`: see [`Entry::pv`]). The first slot keeps the
    /// deepest result of the current search; the second takes whatever the
    /// first does not.
    pub fn store(
        &self,
        key: u64,
        mv: Option<Move>,
        score: i32,
        (depth, bound): (i32, Bound),
        pv: bool,
    ) {
        let generation = self.generation.load(Relaxed);
        let old = self.entries(key);
        let depth = depth.clamp(i8::MIN as i32, i8::MAX as i32) as i16;
        // Keep the old best move when the new result has none.
        let mv = mv.or_else(|| old.iter().find(|e| e.key == key).and_then(|e| e.mv));
        let entry = Entry {
            key,
            mv,
            score: score.clamp(i16::MIN as i32, i16::MAX as i32),
            depth,
            bound,
            pv,
            generation,
        };
        let slots = self.bucket(key);
        let first = &old[0];
        if first.key == key || first.generation != generation || depth >= first.depth {
            if first.key != key {
                slots[1].save(first.key, first.pack());
            }
            slots[0].save(key, entry.pack());
        } else {
            slots[1].save(key, entry.pack());
        }
    }

    /// Per mille of the first slots written by the current search (UCI's
    /// `hashfull`), from a sample.
    pub fn permille_full(&self) -> u32 {
        let generation = self.generation.load(Relaxed);
        let sample = self.buckets.len().min(1000);
        let used = self.buckets[..sample]
            .iter()
            .filter(|b| {
                let (k, data) = b[0].load();
                k != 0 && Entry::unpack(k, data).generation == generation
            })
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds() {
        let t = Table::new(1);
        let m = Move::new(12, 28);
        t.store(0xABCD, Some(m), 35, (4, Bound::Lower), true);
        let e = t.probe(0xABCD).expect("stored");
        assert_eq!(
            (e.mv, e.score, e.depth, e.bound, e.pv),
            (Some(m), 35, 4, Bound::Lower, true)
        );
        assert!(t.probe(0xABCE).is_none());
        // A result without a move keeps the old move.
        t.store(0xABCD, None, -10, (6, Bound::Upper), false);
        let e = t.probe(0xABCD).unwrap();
        assert_eq!((e.mv, e.pv), (Some(m), false));
        t.clear();
        assert!(t.probe(0xABCD).is_none());
    }

    #[test]
    fn deep_results_survive_shallow_ones_in_the_same_bucket() {
        let t = Table::new(1);
        let n = t.buckets.len() as u64;
        let (a, b, c) = (5, 5 + n, 5 + 2 * n);
        t.store(a, None, 1, (9, Bound::Exact), false);
        t.store(b, None, 2, (1, Bound::Exact), false);
        t.store(c, None, 3, (1, Bound::Exact), false);
        assert_eq!(t.probe(a).unwrap().score, 1);
        assert_eq!(t.probe(c).unwrap().score, 3);
        assert!(t.probe(b).is_none());
    }

    #[test]
    fn every_kind_of_move_and_score_survives_packing() {
        let t = Table::new(1);
        let moves = [
            Move::new(0, 255),
            Move {
                from: 200,
                to: 3,
                promotion: Some(0),
                kind: MoveKind::Normal,
            },
            Move {
                from: 7,
                to: 9,
                promotion: Some(31),
                kind: MoveKind::EnPassant,
            },
            Move {
                from: 4,
                to: 6,
                promotion: None,
                kind: MoveKind::Castle(3),
            },
            Move {
                promotion: None,
                kind: MoveKind::DoubleStep,
                ..Move::new(12, 28)
            },
            Move::DROP_OUT,
            Move {
                promotion: None,
                kind: MoveKind::Swap,
                ..Move::new(1, 2)
            },
        ];
        for (i, m) in moves.into_iter().enumerate() {
            let key = 0x1234_5678_0000 + i as u64;
            let score = [-31_000, -1, 0, 1, 30_999, 77, -500][i];
            let depth = [-1, 0, 1, 20, 63, 100, 5][i];
            let pv = i % 2 == 0;
            t.store(key, Some(m), score, (depth, Bound::Upper), pv);
            let e = t.probe(key).expect("stored");
            assert_eq!(
                (e.mv, e.score, e.depth as i32, e.bound, e.pv),
                (Some(m), score, depth, Bound::Upper, pv)
            );
        }
    }
}
