//! Betza notation compiled into move atoms.
//!
//! Supported: leaper atoms W F D N A H C/L Z/J G, compounds K (WF), R (WW),
//! B (FF), Q (RB); a doubled atom is a rider (NN, AA, DD, WW ...), a digit
//! after an atom limits its range (R2); modifiers `m` (move only), `c`
//! (capture only), direction subsets `f b l r s v` (relative to the piece's
//! forward), `p` (cannon-style hop over exactly one screen) and `n` (lame
//! leap: blocked by a piece on its path). Anything else is an error naming
//! the character and its place.

use std::fmt;

/// Whether an atom may move to an empty cell, capture, or both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Modes {
    /// May move to an empty cell.
    pub quiet: bool,
    /// May capture on an occupied cell.
    pub capture: bool,
}

/// How an atom travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reach {
    /// One jump of the vector.
    Leap,
    /// Repeated steps of the vector, each landing before the last empty;
    /// `max` steps at most (0 = unlimited).
    /// Slides along each vector.
    Ride {
        /// The most cells it goes (0: no limit).
        max: u8,
    },
    /// Cannon style: along the rider line, over exactly one occupied cell.
    Hop,
}

/// A compiled move atom: a set of vectors (in the piece's frame, forward =
/// +y, right = +x) with one way of travelling.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Atom {
    /// The step vectors, in the piece's frame (forward = +y).
    pub vectors: Vec<(i32, i32)>,
    /// How far along each vector it goes.
    pub reach: Reach,
    /// Whether it moves, captures or both.
    pub modes: Modes,
    /// Lame leap: the cells (relative to the start, in the piece's frame,
    /// one list per vector) that must be empty.
    pub lame: Option<Vec<Vec<(i32, i32)>>>,
}

/// A Betza string the parser could not understand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BetzaError {
    /// The Betza string that failed.
    pub betza: String,
    /// Byte index of the offending character.
    pub at: usize,
    /// What is wrong, and where in the string.
    pub message: String,
}

impl fmt::Display for BetzaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Betza `{}`, character {}: {}",
            self.betza,
            self.at + 1,
            self.message
        )
    }
}

impl std::error::Error for BetzaError {}

/// The single-leap vectors of an atom letter, as (long, short) components.
fn leap_of(c: char) -> Option<&'static [(i32, i32)]> {
    Some(match c {
        'W' => &[(1, 0)],
        'F' => &[(1, 1)],
        'D' => &[(2, 0)],
        'N' => &[(2, 1)],
        'A' => &[(2, 2)],
        'H' => &[(3, 0)],
        'C' | 'L' => &[(3, 1)],
        'Z' | 'J' => &[(3, 2)],
        'G' => &[(3, 3)],
        'K' => &[(1, 0), (1, 1)],
        'R' => &[(1, 0)],
        'B' => &[(1, 1)],
        'Q' => &[(1, 0), (1, 1)],
        _ => return None,
    })
}

fn is_rider_letter(c: char) -> bool {
    matches!(c, 'R' | 'B' | 'Q')
}

/// The eight (or four) symmetric images of a (long, short) leap.
fn symmetric(long: i32, short: i32) -> Vec<(i32, i32)> {
    let mut v = Vec::with_capacity(8);
    for (a, b) in [(long, short), (short, long)] {
        for sa in [1, -1] {
            for sb in [1, -1] {
                let p = (a * sa, b * sb);
                if !v.contains(&p) {
                    v.push(p);
                }
            }
        }
    }
    v
}

const VERTICAL: &str = "fbv";
const HORIZONTAL: &str = "lrs";

/// Does vector (x, y) satisfy a one- or two-letter direction selector?
fn selects(sel: &str, (x, y): (i32, i32), orthogonal: bool) -> bool {
    let oblique = x != 0 && y != 0 && x.abs() != y.abs();
    let one = |c: char| match c {
        'f' => y > 0,
        'b' => y < 0,
        'l' => x < 0,
        'r' => x > 0,
        'v' if oblique => y.abs() > x.abs(),
        's' if oblique => x.abs() > y.abs(),
        'v' => y != 0,
        's' => x != 0,
        _ => false,
    };
    let mut chars = sel.chars();
    let a = chars.next().unwrap_or(' ');
    match chars.next() {
        None => one(a),
        // Doubled letter: the narrow moves of an oblique atom.
        Some(b) if a == b => {
            one(a)
                && (!oblique
                    || if VERTICAL.contains(a) {
                        y.abs() > x.abs()
                    } else {
                        x.abs() > y.abs()
                    })
        }
        // On orthogonal atoms two letters add up (fsW: forward and sideways).
        Some(b) if orthogonal => one(a) || one(b),
        Some(b) => one(a) && one(b),
    }
}

/// The cells a lame leap passes over, for atoms whose path is defined.
fn lame_path(x: i32, y: i32) -> Option<Vec<(i32, i32)>> {
    let (ax, ay) = (x.abs(), y.abs());
    let (sx, sy) = (x.signum(), y.signum());
    if ax == 0 || ay == 0 || ax == ay {
        // Straight or diagonal: every cell between start and end.
        let n = ax.max(ay);
        Some((1..n).map(|k| (sx * k, sy * k)).collect())
    } else if (ax, ay) == (2, 1) || (ax, ay) == (1, 2) {
        // Xiangqi Horse: the first orthogonal step along the long component.
        Some(vec![if ax > ay { (sx, 0) } else { (0, sy) }])
    } else {
        None
    }
}

/// Parses a Betza string into atoms.
pub fn parse(betza: &str) -> Result<Vec<Atom>, BetzaError> {
    let err = |at: usize, message: String| BetzaError {
        betza: betza.to_string(),
        at,
        message,
    };
    let chars: Vec<(usize, char)> = betza.char_indices().collect();
    let mut atoms = Vec::new();
    let (mut quiet, mut capture, mut hop, mut lame) = (false, false, false, false);
    let mut dirs: Vec<String> = Vec::new();
    let mut pending = false;
    let mut i = 0;
    while i < chars.len() {
        let (at, c) = chars[i];
        match c {
            'm' => quiet = true,
            'c' => capture = true,
            'p' => hop = true,
            'n' => lame = true,
            'f' | 'b' | 'l' | 'r' | 's' | 'v' => {
                let next = chars.get(i + 1).map(|&(_, c)| c);
                let pairs = |n: char| {
                    n == c
                        || (VERTICAL.contains(c) && HORIZONTAL.contains(n))
                        || (HORIZONTAL.contains(c) && VERTICAL.contains(n))
                };
                match next {
                    Some(n) if pairs(n) => {
                        dirs.push(format!("{c}{n}"));
                        i += 1;
                    }
                    _ => dirs.push(c.to_string()),
                }
            }
            _ => {
                let Some(leaps) = leap_of(c) else {
                    return Err(err(
                        at,
                        format!("`{c}` is not a Betza atom or supported modifier"),
                    ));
                };
                let mut reach = if is_rider_letter(c) {
                    Reach::Ride { max: 0 }
                } else {
                    Reach::Leap
                };
                match chars.get(i + 1) {
                    Some(&(_, n)) if n == c && !is_rider_letter(c) => {
                        reach = Reach::Ride { max: 0 };
                        i += 1;
                    }
                    Some(&(dat, d)) if d.is_ascii_digit() => {
                        let max = d as u8 - b'0';
                        if max == 0 {
                            return Err(err(dat, "range 0 is meaningless".into()));
                        }
                        reach = Reach::Ride { max };
                        i += 1;
                    }
                    _ => {}
                }
                if hop {
                    if reach == Reach::Leap {
                        return Err(err(at, format!("`p` needs a rider line, `{c}` is a leap")));
                    }
                    reach = Reach::Hop;
                }
                if lame && reach != Reach::Leap {
                    return Err(err(at, format!("`n` (lame) applies to leaps, `{c}` rides")));
                }
                let modes = if quiet || capture {
                    Modes { quiet, capture }
                } else {
                    Modes {
                        quiet: true,
                        capture: true,
                    }
                };
                for &(long, short) in leaps {
                    let orthogonal = short == 0;
                    let vectors: Vec<(i32, i32)> = symmetric(long, short)
                        .into_iter()
                        .filter(|&v| {
                            dirs.is_empty() || dirs.iter().any(|d| selects(d, v, orthogonal))
                        })
                        .collect();
                    if vectors.is_empty() {
                        return Err(err(
                            at,
                            format!("the direction modifiers leave `{c}` no move"),
                        ));
                    }
                    let lame_paths = if lame {
                        let paths: Option<Vec<_>> =
                            vectors.iter().map(|&(x, y)| lame_path(x, y)).collect();
                        match paths {
                            Some(p) => Some(p),
                            None => {
                                return Err(err(at, format!("a lame `{c}` has no defined path")))
                            }
                        }
                    } else {
                        None
                    };
                    atoms.push(Atom {
                        vectors,
                        reach,
                        modes,
                        lame: lame_paths,
                    });
                }
                (quiet, capture, hop, lame) = (false, false, false, false);
                dirs.clear();
                pending = false;
                i += 1;
                continue;
            }
        }
        pending = true;
        i += 1;
    }
    if pending {
        let at = chars.last().map(|&(a, _)| a).unwrap_or(0);
        return Err(err(at, "modifiers without an atom at the end".into()));
    }
    if atoms.is_empty() {
        return Err(err(0, "no move atoms".into()));
    }
    Ok(atoms)
}

/// Describes compiled atoms in words, one phrase per atom, e.g. "moves or
/// captures: slides orthogonally, forward".
pub fn describe(atoms: &[Atom]) -> Vec<String> {
    atoms
        .iter()
        .map(|a| {
            let mode = match (a.modes.quiet, a.modes.capture) {
                (true, true) => "moves or captures",
                (true, false) => "moves (no capture)",
                _ => "captures only",
            };
            let (x, y) = a.vectors[0];
            let (long, short) = (x.abs().max(y.abs()), x.abs().min(y.abs()));
            let shape = match (long, short) {
                (1, 0) => "orthogonally".to_string(),
                (1, 1) => "diagonally".to_string(),
                (l, 0) => format!("{l} cells orthogonally"),
                (l, s) if l == s => format!("{l} cells diagonally"),
                (l, s) => format!("as a ({l},{s}) leaper"),
            };
            let reach = match a.reach {
                Reach::Leap if a.lame.is_some() => {
                    format!("leaps {shape} unless blocked on the way")
                }
                Reach::Leap if long == 1 => format!("steps {shape}"),
                Reach::Leap => format!("jumps {shape}"),
                Reach::Ride { max: 0 } if long == 1 => format!("slides {shape}"),
                Reach::Ride { max: 0 } => {
                    format!("rides {shape}, repeatedly over empty landing cells")
                }
                Reach::Ride { max } => format!("slides {shape} up to {max} steps"),
                Reach::Hop => format!("hops {shape} over exactly one piece"),
            };
            let n = symmetric(long, short).len();
            let dirs = if a.vectors.len() == n {
                String::new()
            } else {
                let f = a.vectors.iter().all(|v| v.1 > 0);
                let b = a.vectors.iter().all(|v| v.1 < 0);
                let which = if f {
                    "forward"
                } else if b {
                    "backward"
                } else {
                    "in some directions"
                };
                format!(", {which} ({} of {n} directions)", a.vectors.len())
            };
            format!("{mode}: {reach}{dirs}")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(betza: &str) -> usize {
        parse(betza).unwrap().iter().map(|a| a.vectors.len()).sum()
    }

    #[test]
    fn atoms_and_compounds() {
        assert_eq!(count("K"), 8);
        assert_eq!(count("N"), 8);
        assert_eq!(count("Q"), 8);
        assert_eq!(count("RN"), 12);
        assert_eq!(count("AADD"), 8);
        assert_eq!(parse("NN").unwrap()[0].reach, Reach::Ride { max: 0 });
        assert_eq!(parse("R2").unwrap()[0].reach, Reach::Ride { max: 2 });
    }

    #[test]
    fn direction_modifiers() {
        let pawn = parse("mfWcfF").unwrap();
        assert_eq!(pawn[0].vectors, vec![(0, 1)]);
        assert!(pawn[0].modes.quiet && !pawn[0].modes.capture);
        let mut caps = pawn[1].vectors.clone();
        caps.sort();
        assert_eq!(caps, vec![(-1, 1), (1, 1)]);
        assert_eq!(count("fQ"), 3, "Avon Princess: three forward directions");
        assert_eq!(count("fsW"), 3, "soldier after the river");
        assert_eq!(count("fN"), 4);
        assert_eq!(count("ffN"), 2);
        assert_eq!(count("fBfW"), 3);
    }

    #[test]
    fn hoppers_and_lame_leapers() {
        let cannon = parse("mRcpR").unwrap();
        assert_eq!(cannon[1].reach, Reach::Hop);
        let horse = parse("nN").unwrap();
        assert_eq!(horse[0].lame.as_ref().unwrap().len(), 8);
        let i = horse[0].vectors.iter().position(|&v| v == (1, 2)).unwrap();
        assert_eq!(horse[0].lame.as_ref().unwrap()[i], vec![(0, 1)]);
        let elephant = parse("nA").unwrap();
        assert_eq!(elephant[0].lame.as_ref().unwrap()[0].len(), 1);
    }

    #[test]
    fn errors_name_the_character() {
        let e = parse("mQx").unwrap_err();
        assert_eq!(e.at, 2);
        assert!(e.to_string().contains("`x`"));
        assert!(parse("").is_err());
        assert!(parse("fm").is_err());
        assert!(parse("pN").is_err());
        assert!(parse("nR").is_err());
        assert!(parse("nC").is_err());
        assert!(parse("W0").is_err());
    }
}
