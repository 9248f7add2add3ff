//! Rivers: lines along cell edges, in named sections, and which sections a
//! move crosses.
//!
//! A section is the line between two rows of cells (its `sides`): the
//! edges shared by a cell of one side and an orthogonal neighbour on the
//! other. A move crosses a section when the straight segment from the
//! centre of its start cell to the centre of its end cell meets one of
//! those edges, ends included. So a diagonal step through the point where
//! sections meet (the Pass of the Pass games, the corner of e5, f5, e6 and
//! f6) crosses every section that ends there.
//!
//! Precomputed per variant: for every (from, to) the sections crossed
//! (one byte, up to 8 sections) and for every cell the sections it lies
//! beside.

use crate::geometry::{Cell, CellSet, Geometry};
use crate::variant::{PieceType, TypeMask, MAX_PLAYERS};

/// Most sections in a variant (one bit each in a byte).
pub const MAX_SECTIONS: usize = 8;

/// A named section as given in the variant file.
#[derive(Clone, Debug)]
pub struct Section {
    /// The section's name in the variant file.
    pub name: String,
    /// The cells on either side of the line.
    pub sides: [CellSet; 2],
}

/// The Rivers of a variant and the restrictions on crossing them.
#[derive(Clone, Debug)]
pub struct Rivers {
    /// The sections, in file order.
    pub sections: Vec<Section>,
    /// Per player: the sections whose restrictions bind that player (in
    /// the Pass games, those that do not border the player's quarter).
    pub far: [u8; MAX_PLAYERS],
    /// Types that may not cross a far section.
    pub no_cross: TypeMask,
    /// Types that cross a far section only by a move that neither starts
    /// nor ends beside it.
    pub running_jump: TypeMask,
    ncells: usize,
    /// `[from * ncells + to]`: the sections the move crosses.
    crossed: Vec<u8>,
    /// Per cell: the sections it lies beside.
    beside: Vec<u8>,
}

/// A point in doubled coordinates: the centre of cell (f, r) is
/// (2f + 1, 2r + 1), cell corners have even coordinates.
type Point = (i64, i64);

/// Sign of the turn p -> q -> r (0 when collinear).
fn turn(p: Point, q: Point, r: Point) -> i64 {
    ((q.0 - p.0) * (r.1 - p.1) - (q.1 - p.1) * (r.0 - p.0)).signum()
}

/// Is `r`, collinear with p-q, within their bounding box?
fn within(p: Point, q: Point, r: Point) -> bool {
    r.0 >= p.0.min(q.0) && r.0 <= p.0.max(q.0) && r.1 >= p.1.min(q.1) && r.1 <= p.1.max(q.1)
}

/// Do the closed segments a-b and c-d meet?
fn meet((a, b): (Point, Point), (c, d): (Point, Point)) -> bool {
    let (t1, t2) = (turn(c, d, a), turn(c, d, b));
    let (t3, t4) = (turn(a, b, c), turn(a, b, d));
    (t1 * t2 < 0 && t3 * t4 < 0)
        || (t1 == 0 && within(c, d, a))
        || (t2 == 0 && within(c, d, b))
        || (t3 == 0 && within(a, b, c))
        || (t4 == 0 && within(a, b, d))
}

fn centre(g: &Geometry, c: Cell) -> Point {
    (2 * g.file_of(c) as i64 + 1, 2 * g.rank_of(c) as i64 + 1)
}

/// The edges between the two sides of a section, and the cells beside it.
fn edges(g: &Geometry, sides: &[CellSet; 2]) -> (Vec<(Point, Point)>, CellSet) {
    let mut out = Vec::new();
    let mut beside = CellSet::EMPTY;
    for (a, b) in g.edges_between(&sides[0], &sides[1]) {
        // Midpoint of the two centres; the edge runs across the step.
        let (ca, cb) = (centre(g, a), centre(g, b));
        let mid = ((ca.0 + cb.0) / 2, (ca.1 + cb.1) / 2);
        let (ef, er) = ((cb.1 - ca.1) / 2, (cb.0 - ca.0) / 2);
        out.push(((mid.0 - ef, mid.1 - er), (mid.0 + ef, mid.1 + er)));
        beside.insert(a);
        beside.insert(b);
    }
    (out, beside)
}

impl Rivers {
    /// Compiles the sections: each needs at least one cell of one side
    /// orthogonally next to a cell of the other.
    pub(crate) fn build(
        g: &Geometry,
        sections: Vec<Section>,
        far: [u8; MAX_PLAYERS],
        no_cross: TypeMask,
        running_jump: TypeMask,
    ) -> Result<Rivers, String> {
        if sections.is_empty() || sections.len() > MAX_SECTIONS {
            return Err(format!("need 1 to {MAX_SECTIONS} sections"));
        }
        let n = g.size();
        let mut beside = vec![0u8; n];
        let mut lines = Vec::new();
        for (i, s) in sections.iter().enumerate() {
            let (e, cells) = edges(g, &s.sides);
            if e.is_empty() {
                return Err(format!(
                    "section `{}`: no cell of one side is next to a cell of the other",
                    s.name
                ));
            }
            for c in cells.iter() {
                beside[c as usize] |= 1 << i;
            }
            lines.push(e);
        }
        let mut crossed = vec![0u8; n * n];
        for from in g.cells.iter() {
            for to in g.cells.iter().filter(|&t| t != from) {
                let seg = (centre(g, from), centre(g, to));
                for (i, e) in lines.iter().enumerate() {
                    if e.iter().any(|&edge| meet(seg, edge)) {
                        crossed[from as usize * n + to as usize] |= 1 << i;
                    }
                }
            }
        }
        Ok(Rivers {
            sections,
            far,
            no_cross,
            running_jump,
            ncells: n,
            crossed,
            beside,
        })
    }

    /// The sections (bit i: section i) a move from `from` to `to` crosses.
    #[inline]
    pub fn crossed(&self, from: Cell, to: Cell) -> u8 {
        self.crossed[from as usize * self.ncells + to as usize]
    }

    /// The sections a cell lies beside.
    #[inline]
    pub fn beside(&self, c: Cell) -> u8 {
        self.beside[c as usize]
    }

    /// May `player` move a piece of type `kind` from `from` to `to`?
    #[inline]
    pub(crate) fn allows(&self, player: usize, kind: PieceType, from: Cell, to: Cell) -> bool {
        let far = self.crossed(from, to) & self.far[player];
        if far == 0 {
            return true;
        }
        if self.no_cross >> kind & 1 != 0 {
            return false;
        }
        self.running_jump >> kind & 1 == 0 || (self.beside(from) | self.beside(to)) & far == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Pass board: 10x10, Rivers between ranks 5|6 and files e|f.
    fn pass() -> (Geometry, Rivers) {
        let g = Geometry::rectangle(10, 10, 1);
        let s = |name: &str, a: &str, b: &str| Section {
            name: name.into(),
            sides: [
                g.parse_cells(a, false).unwrap(),
                g.parse_cells(b, false).unwrap(),
            ],
        };
        let sections = vec![
            s("west", "a5-e5", "a6-e6"),
            s("east", "f5-j5", "f6-j6"),
            s("south", "e1-e5", "f1-f5"),
            s("north", "e6-e10", "f6-f10"),
        ];
        let r = Rivers::build(&g, sections, [0b1010, 0, 0, 0], 1, 2).unwrap();
        (g, r)
    }

    fn cross(g: &Geometry, r: &Rivers, a: &str, b: &str) -> u8 {
        r.crossed(g.parse_cell(a).unwrap(), g.parse_cell(b).unwrap())
    }

    #[test]
    fn straight_and_oblique_crossings() {
        let (g, r) = pass();
        assert_eq!(cross(&g, &r, "c5", "c6"), 0b0001, "west");
        assert_eq!(
            cross(&g, &r, "a1", "a10"),
            0b0001,
            "a rook slide crosses west"
        );
        assert_eq!(cross(&g, &r, "e3", "f3"), 0b0100, "south");
        assert_eq!(cross(&g, &r, "a1", "d4"), 0, "inside the quarter");
        // A knight from e4 to f6 crosses the file line below rank 5|6 and
        // the rank line east of it.
        assert_eq!(cross(&g, &r, "e4", "f6"), 0b0110);
    }

    #[test]
    fn the_pass_counts_as_every_section_ending_there() {
        let (g, r) = pass();
        assert_eq!(cross(&g, &r, "e5", "f6"), 0b1111);
        assert_eq!(cross(&g, &r, "f5", "e6"), 0b1111);
        assert_eq!(cross(&g, &r, "a1", "j10"), 0b1111);
        // Missing the Pass by a little: only the sections really crossed.
        assert_eq!(cross(&g, &r, "d5", "e6"), 0b0001);
    }

    #[test]
    fn far_sections_bind_only_the_listed_types() {
        let (g, r) = pass();
        let c = |s: &str| g.parse_cell(s).unwrap();
        // Player 0's far sections: east and north. Type 0 may not cross,
        // type 1 only by a running jump, type 2 freely.
        assert!(r.allows(0, 0, c("c5"), c("c6")), "west is not far");
        assert!(!r.allows(0, 0, c("g5"), c("g6")), "east is far");
        assert!(r.allows(0, 2, c("g5"), c("g6")));
        assert!(!r.allows(0, 1, c("d4"), c("f6")), "ends beside east");
        assert!(r.allows(0, 1, c("d4"), c("g7")), "a running jump");
        assert!(!r.allows(0, 1, c("f4"), c("h6")), "ends beside east");
        assert!(r.allows(0, 1, c("h4"), c("h7")), "neither end beside east");
        assert!(!r.allows(0, 1, c("h5"), c("h7")), "starts beside east");
    }
}
