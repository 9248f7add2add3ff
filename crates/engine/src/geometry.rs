//! Board geometry: cells of a bounding rectangle up to 16x16, which of them
//! exist, cell names, and cell sets (regions).

use std::fmt;

/// Largest number of files or ranks.
pub const MAX_SIDE: u8 = 16;
/// Largest number of cells in the bounding rectangle.
pub const MAX_CELLS: usize = 256;

/// A cell of the bounding rectangle: `rank_index * files + file_index`.
pub type Cell = u8;

/// A set of cells in `W` words of 64 bits: the default 256 bits hold any
/// board up to 16x16; the search and perft use the narrowest width that
/// holds the board ([`Position::narrowest`](crate::Position::narrowest):
/// one word up to 64 cells, two up to 128), where the upper words would
/// always be empty.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct CellSet<const W: usize = WIDE>(pub [u64; W]);

/// Words of the widest cell set.
pub const WIDE: usize = 4;

impl<const W: usize> Default for CellSet<W> {
    fn default() -> Self {
        CellSet::EMPTY
    }
}

impl<const W: usize> CellSet<W> {
    /// The empty set.
    pub const EMPTY: CellSet<W> = CellSet([0; W]);

    /// Does a set of this width hold every cell of a board of `cells`
    /// cells?
    pub const fn holds(cells: usize) -> bool {
        cells <= 64 * W
    }

    /// The same cells in a set of another width (cells that do not fit a
    /// narrower set are dropped: narrow only what fits).
    #[inline]
    pub fn to_width<const V: usize>(&self) -> CellSet<V> {
        CellSet(std::array::from_fn(|i| if i < W { self.0[i] } else { 0 }))
    }

    /// The word holding cell `c`, which the set must be wide enough for.
    /// Taken modulo the width (a mask), so that no bounds check is left
    /// in the hot loops: with one, two-word sets were slower than four.
    #[inline(always)]
    fn word(c: Cell) -> usize {
        debug_assert!((c as usize) < 64 * W, "cell {c} in a set of {W} words");
        (c >> 6) as usize % W
    }

    /// The set of one cell.
    #[inline]
    pub fn single(c: Cell) -> CellSet<W> {
        let mut s = CellSet::EMPTY;
        s.insert(c);
        s
    }

    #[inline]
    /// Is the cell in the set?
    pub fn contains(&self, c: Cell) -> bool {
        self.0[Self::word(c)] >> (c & 63) & 1 != 0
    }
    #[inline]
    /// Adds a cell.
    pub fn insert(&mut self, c: Cell) {
        self.0[Self::word(c)] |= 1 << (c & 63);
    }
    #[inline]
    /// Removes a cell.
    pub fn remove(&mut self, c: Cell) {
        self.0[Self::word(c)] &= !(1 << (c & 63));
    }
    #[inline]
    /// Number of cells.
    pub fn len(&self) -> u32 {
        // Boards of 64 cells or fewer leave the upper words empty: skip
        // them rather than count their bits (without the POPCNT
        // instruction, counting a word takes a dozen).
        self.0
            .iter()
            .filter(|&&w| w != 0)
            .map(|w| w.count_ones())
            .sum()
    }
    /// Does the set hold exactly one cell? (Cheaper than counting them.)
    #[inline]
    pub fn is_single(&self) -> bool {
        let mut seen = false;
        for w in self.0 {
            if w != 0 {
                if seen || w & (w - 1) != 0 {
                    return false;
                }
                seen = true;
            }
        }
        seen
    }
    #[inline]
    /// Does the set hold no cell?
    pub fn is_empty(&self) -> bool {
        self.0 == [0; W]
    }
    /// The lowest cell of the set, if any.
    #[inline]
    pub fn first(&self) -> Option<Cell> {
        self.iter().next()
    }
    #[inline]
    /// Cells in either set.
    pub fn union(&self, o: &CellSet<W>) -> CellSet<W> {
        CellSet(std::array::from_fn(|i| self.0[i] | o.0[i]))
    }
    #[inline]
    /// Cells in both sets.
    pub fn intersection(&self, o: &CellSet<W>) -> CellSet<W> {
        CellSet(std::array::from_fn(|i| self.0[i] & o.0[i]))
    }
    #[inline]
    /// Cells of this set not in the other.
    pub fn difference(&self, o: &CellSet<W>) -> CellSet<W> {
        CellSet(std::array::from_fn(|i| self.0[i] & !o.0[i]))
    }
    /// Iterates the cells in increasing order.
    #[inline]
    pub fn iter(&self) -> CellSetIter<W> {
        CellSetIter {
            words: self.0,
            word: 0,
        }
    }
}

impl<const W: usize> fmt::Debug for CellSet<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl<const W: usize> FromIterator<Cell> for CellSet<W> {
    fn from_iter<T: IntoIterator<Item = Cell>>(iter: T) -> Self {
        let mut s = CellSet::EMPTY;
        for c in iter {
            s.insert(c);
        }
        s
    }
}

/// Iterator over the cells of a [`CellSet`].
pub struct CellSetIter<const W: usize = WIDE> {
    words: [u64; W],
    word: usize,
}

impl<const W: usize> Iterator for CellSetIter<W> {
    type Item = Cell;
    #[inline]
    fn next(&mut self) -> Option<Cell> {
        while self.word < W {
            let w = self.words[self.word];
            if w != 0 {
                self.words[self.word] = w & (w - 1);
                return Some((self.word as u32 * 64 + w.trailing_zeros()) as Cell);
            }
            self.word += 1;
        }
        None
    }
}

/// The shape of a board: its bounding rectangle, which cells exist, and how
/// ranks are numbered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// Width of the bounding rectangle.
    pub files: u8,
    /// Height of the bounding rectangle.
    pub ranks: u8,
    /// Number written for the first rank (0 for Avon, 1 otherwise).
    pub first_rank: u8,
    /// Cells that exist. Rays stop at cells outside this set.
    pub cells: CellSet,
}

impl Geometry {
    /// A full rectangle of `files` x `ranks` cells.
    pub fn rectangle(files: u8, ranks: u8, first_rank: u8) -> Geometry {
        let n = files as usize * ranks as usize;
        Geometry {
            files,
            ranks,
            first_rank,
            cells: (0..n).map(|c| c as Cell).collect(),
        }
    }

    /// Number of cells of the bounding rectangle.
    #[inline]
    pub fn size(&self) -> usize {
        self.files as usize * self.ranks as usize
    }

    #[inline]
    /// File of a cell, 0 = `a`.
    pub fn file_of(&self, c: Cell) -> u8 {
        c % self.files
    }
    #[inline]
    /// Rank of a cell, 0 = the first rank (whatever its number).
    pub fn rank_of(&self, c: Cell) -> u8 {
        c / self.files
    }

    /// King steps from `a` to `b` on an empty board: the larger of the
    /// file and rank distances.
    #[inline]
    pub fn king_steps(&self, a: Cell, b: Cell) -> i32 {
        let files = (self.file_of(a) as i32 - self.file_of(b) as i32).abs();
        let ranks = (self.rank_of(a) as i32 - self.rank_of(b) as i32).abs();
        files.max(ranks)
    }

    /// The cell at zero-based file and rank indices, if it exists.
    pub fn cell(&self, file: i32, rank: i32) -> Option<Cell> {
        if file < 0 || rank < 0 || file >= self.files as i32 || rank >= self.ranks as i32 {
            return None;
        }
        let c = (rank * self.files as i32 + file) as Cell;
        self.cells.contains(c).then_some(c)
    }

    /// The cell reached from `c` by the vector (df, dr), if it exists.
    #[inline]
    pub fn offset(&self, c: Cell, df: i32, dr: i32) -> Option<Cell> {
        self.cell(self.file_of(c) as i32 + df, self.rank_of(c) as i32 + dr)
    }

    /// Name of a cell, e.g. `e4`, `a10`, `h0`.
    pub fn name(&self, c: Cell) -> String {
        format!(
            "{}{}",
            (b'a' + self.file_of(c)) as char,
            self.rank_of(c) as u32 + self.first_rank as u32
        )
    }

    /// Parses a cell name at the start of `s`; returns the cell (which may
    /// not exist on the board, but is inside the bounding rectangle) and the
    /// number of bytes read.
    pub fn parse_cell_prefix(&self, s: &str) -> Option<(Cell, usize)> {
        let b = s.as_bytes();
        let f = *b.first()?;
        if !f.is_ascii_lowercase() || f - b'a' >= self.files {
            return None;
        }
        let digits = b[1..].iter().take_while(|c| c.is_ascii_digit()).count();
        if digits == 0 || digits > 2 {
            return None;
        }
        let n: u32 = s[1..1 + digits].parse().ok()?;
        let r = n.checked_sub(self.first_rank as u32)?;
        if r >= self.ranks as u32 {
            return None;
        }
        Some((r as u8 * self.files + (f - b'a'), 1 + digits))
    }

    /// Parses a whole cell name that must exist on the board.
    pub fn parse_cell(&self, s: &str) -> Option<Cell> {
        match self.parse_cell_prefix(s) {
            Some((c, n)) if n == s.len() && self.cells.contains(c) => Some(c),
            _ => None,
        }
    }

    /// A cell set written as rectangles and cells, e.g. `a0-h4` or
    /// `a8-h8 b7` (`none` when empty): the inverse of [`Self::parse_cells`].
    pub fn describe_cells(&self, set: &CellSet) -> String {
        if set.is_empty() {
            return "none".into();
        }
        // Runs of consecutive cells per rank, merged upwards while the rank
        // above has the same run.
        let runs = |r: u8| -> Vec<(u8, u8)> {
            let mut v = Vec::new();
            let mut f = 0;
            while f < self.files {
                if set.contains(r * self.files + f) {
                    let start = f;
                    while f + 1 < self.files && set.contains(r * self.files + f + 1) {
                        f += 1;
                    }
                    v.push((start, f));
                }
                f += 1;
            }
            v
        };
        let all: Vec<Vec<(u8, u8)>> = (0..self.ranks).map(runs).collect();
        let mut out = Vec::new();
        for (r, list) in all.iter().enumerate() {
            for &run in list {
                // Already covered by the same run one rank lower.
                if r > 0 && all[r - 1].contains(&run) {
                    continue;
                }
                let mut top = r;
                while top + 1 < all.len() && all[top + 1].contains(&run) {
                    top += 1;
                }
                let (a, b) = (r as u8 * self.files + run.0, top as u8 * self.files + run.1);
                out.push(if a == b {
                    self.name(a)
                } else {
                    format!("{}-{}", self.name(a), self.name(b))
                });
            }
        }
        out.join(" ")
    }

    /// The pairs of orthogonally adjacent cells (one in `a`, one in `b`)
    /// whose shared edge lies between the two sets: a River, a drawn line.
    pub fn edges_between(&self, a: &CellSet, b: &CellSet) -> Vec<(Cell, Cell)> {
        let mut out = Vec::new();
        for x in a.iter() {
            for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                if let Some(y) = self.offset(x, df, dr) {
                    if b.contains(y) {
                        out.push((x, y));
                    }
                }
            }
        }
        out
    }

    /// Parses a cell specification: items separated by spaces or commas,
    /// each a cell (`e4`) or a rectangle given by two corners (`a2-h2`).
    /// Cells outside the board's existing cells are kept only if `any` is true
    /// (used when the spec defines the board itself).
    pub fn parse_cells(&self, spec: &str, any: bool) -> Result<CellSet, String> {
        let mut set = CellSet::EMPTY;
        for item in spec.split([' ', ',']).filter(|s| !s.is_empty()) {
            let (a, b) = match item.split_once('-') {
                Some((a, b)) => (a, b),
                None => (item, item),
            };
            let parse = |s: &str| match self.parse_cell_prefix(s) {
                Some((c, n)) if n == s.len() => Ok(c),
                _ => Err(format!("`{s}` is not a cell of this board")),
            };
            let (ca, cb) = (parse(a)?, parse(b)?);
            let (f0, f1) = minmax(self.file_of(ca), self.file_of(cb));
            let (r0, r1) = minmax(self.rank_of(ca), self.rank_of(cb));
            for r in r0..=r1 {
                for f in f0..=f1 {
                    let c = r * self.files + f;
                    if any || self.cells.contains(c) {
                        set.insert(c);
                    }
                }
            }
        }
        Ok(set)
    }
}

fn minmax(a: u8, b: u8) -> (u8, u8) {
    (a.min(b), a.max(b))
}

/// One of the four directions "forward" can point to, as a unit vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Orientation {
    /// Toward higher ranks.
    North = 0,
    /// Toward higher files.
    East = 1,
    /// Toward lower ranks.
    South = 2,
    /// Toward lower files.
    West = 3,
}

impl Orientation {
    /// The four, in order.
    pub const ALL: [Orientation; 4] = [
        Orientation::North,
        Orientation::East,
        Orientation::South,
        Orientation::West,
    ];

    /// Rotates a vector given in the piece's frame (forward = +y, right =
    /// +x) into board coordinates (file, rank).
    #[inline]
    pub fn rotate(self, (x, y): (i32, i32)) -> (i32, i32) {
        match self {
            Orientation::North => (x, y),
            Orientation::East => (y, -x),
            Orientation::South => (-x, -y),
            Orientation::West => (-y, x),
        }
    }

    /// Reads `north`, `east`, `south` or `west`.
    pub fn parse(s: &str) -> Option<Orientation> {
        Some(match s {
            "north" => Orientation::North,
            "east" => Orientation::East,
            "south" => Orientation::South,
            "west" => Orientation::West,
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_on_ten_ranks_from_zero() {
        let g = Geometry::rectangle(8, 10, 0);
        for c in g.cells.iter() {
            assert_eq!(g.parse_cell(&g.name(c)), Some(c));
        }
        assert_eq!(g.name(0), "a0");
        assert_eq!(g.name(79), "h9");
        assert_eq!(g.parse_cell("a10"), None);
    }

    #[test]
    fn single_cells_in_any_word() {
        assert!(!CellSet::<4>::EMPTY.is_single());
        for c in [0, 63, 64, 130, 255] {
            let one = CellSet::<4>::single(c);
            assert!(one.is_single(), "{c}");
            for d in [1, 62, 65, 200] {
                if d != c {
                    let two = one.union(&CellSet::single(d));
                    assert!(!two.is_single(), "{c} and {d}");
                    assert_eq!(two.len(), 2);
                }
            }
        }
    }

    /// A set of one word holds the cells below 64 as the widest does.
    #[test]
    fn one_word_sets_agree_with_the_widest() {
        let mut seed = 3u64;
        for _ in 0..200 {
            let mut draw = || crate::tables::splitmix(&mut seed);
            let (a, b) = (draw(), draw());
            let wide = |w: u64| CellSet::<4>([w, 0, 0, 0]);
            let (na, nb) = (CellSet::<1>([a]), CellSet::<1>([b]));
            assert_eq!(wide(a).to_width::<1>(), na);
            assert_eq!(na.to_width::<4>(), wide(a));
            assert_eq!(na.union(&nb).to_width(), wide(a).union(&wide(b)));
            assert_eq!(
                na.intersection(&nb).to_width(),
                wide(a).intersection(&wide(b))
            );
            assert_eq!(na.difference(&nb).to_width(), wide(a).difference(&wide(b)));
            assert_eq!(na.len(), wide(a).len());
            assert_eq!(na.is_single(), wide(a).is_single());
            assert!(na.iter().eq(wide(a).iter()));
            assert_eq!(na.first(), wide(a).first());
        }
        assert!(CellSet::<1>::holds(64) && !CellSet::<1>::holds(65));
        assert!(CellSet::<4>::holds(256));
    }

    #[test]
    fn rectangles_and_holes() {
        let mut g = Geometry::rectangle(9, 9, 1);
        g.cells = g.parse_cells("d1-f9 a4-i6", true).unwrap();
        assert_eq!(g.cells.len(), 45);
        assert_eq!(g.cell(0, 0), None, "a1 is not on the cross");
        assert!(g.parse_cell("e5").is_some());
        assert!(g.parse_cells("z9", false).is_err());
    }

    #[test]
    fn rotation_keeps_right_hand_side() {
        // Forward-right in the piece frame is (1,1).
        assert_eq!(Orientation::North.rotate((1, 1)), (1, 1));
        assert_eq!(Orientation::South.rotate((1, 1)), (-1, -1));
        assert_eq!(Orientation::East.rotate((0, 1)), (1, 0));
        assert_eq!(Orientation::West.rotate((0, 1)), (-1, 0));
    }
}
