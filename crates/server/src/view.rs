//! A game as JSON: the public state every viewer sees, plus the legal
//! moves for the caller's seats when one of them is to move.

use crate::game::{Game, SeatKind, Status};
use quadrille_engine::{MoveKind, Position};
use serde::Serialize;

#[derive(Serialize)]
pub struct GameView {
    pub id: String,
    pub variant: String,
    pub title: String,
    pub seats: Vec<SeatView>,
    pub start: String,
    pub position: String,
    pub board: Vec<PieceOnBoard>,
    /// `playing`, `over` or `stuck`.
    pub status: &'static str,
    /// The player to move while the game is on.
    pub to_move: Option<usize>,
    pub ply: usize,
    /// Lines in the game's log when the view was made: of two views, the
    /// one with the smaller number is older (a browser keeps the newer
    /// when answers cross).
    pub version: usize,
    pub moves: Vec<MoveView>,
    pub last_move: Option<LastMove>,
    /// Cells of royal pieces that an enemy attacks now.
    pub attacked_royals: Vec<String>,
    /// Players who are out, in the order they went out.
    pub out: Vec<usize>,
    pub outcome: Option<OutcomeView>,
    /// The seats the caller's tokens hold.
    pub your_seats: Vec<usize>,
    /// The legal moves, only when one of `your_seats` is to move.
    pub legal_moves: Vec<LegalMove>,
    pub ai_thinking: bool,
    /// The clocks, if the game has a time control.
    pub clock: Option<ClockView>,
    /// An offer waiting for the other players' consent.
    pub offer: Option<OfferView>,
    /// The offer last declined, until the next move.
    pub declined: Option<OfferView>,
    /// The rematch's id, once made.
    pub rematch: Option<String>,
}

#[derive(Serialize)]
pub struct ClockView {
    pub control: crate::clock::TimeControl,
    /// Time left per player, in milliseconds, as of this view.
    pub left_ms: Vec<i64>,
    /// The player whose clock runs.
    pub running: Option<usize>,
}

#[derive(Serialize)]
pub struct OfferView {
    pub kind: crate::game::OfferKind,
    pub by: usize,
    /// Who agreed (for a declined offer: who declined).
    pub agreed: Vec<usize>,
}

/// A position of the game, for review: the pieces, the move that led to
/// it and the royal pieces under attack.
#[derive(Serialize)]
pub struct PositionView {
    pub board: Vec<PieceOnBoard>,
    pub last_move: Option<LastMove>,
    pub attacked_royals: Vec<String>,
}

#[derive(Serialize)]
pub struct SeatView {
    pub player: usize,
    pub name: String,
    #[serde(flatten)]
    pub kind: SeatKind,
    /// An invitation to this seat is still open (nobody holds it yet).
    pub invited: bool,
}

#[derive(Serialize)]
pub struct PieceOnBoard {
    pub cell: String,
    pub army: u8,
    pub letter: char,
}

#[derive(Serialize)]
pub struct MoveView {
    pub player: usize,
    /// Coordinates (`e2e4`), or `resign`.
    pub text: String,
    /// Readable notation (`Nf3`).
    pub san: String,
    /// The mover's time left after it, with a clock.
    pub clock_ms: Option<i64>,
}

#[derive(Serialize)]
pub struct LastMove {
    pub from: String,
    pub to: String,
}

#[derive(Serialize)]
pub struct LegalMove {
    pub from: String,
    pub to: String,
    pub promotion: Option<char>,
    pub text: String,
}

#[derive(Serialize)]
pub struct OutcomeView {
    /// Groups of players, best first; one group is a draw.
    pub ranking: Vec<Vec<usize>>,
    pub reason: String,
}

/// The view of `g` for a caller holding `your_seats`.
pub fn game_view(g: &Game, your_seats: Vec<usize>) -> GameView {
    let v = g.source.variant.clone();
    let geo = &v.geometry;
    let status = g.status().clone();
    let to_move = (status == Status::Playing).then(|| g.pos.to_move());
    let (board, attacked_royals) = pieces_and_checks(&g.pos);
    let legal_moves = match to_move {
        Some(p) if your_seats.contains(&p) => g
            .legal_moves()
            .iter()
            .filter(|m| m.kind != MoveKind::DropOut)
            .map(|&m| LegalMove {
                from: geo.name(m.from),
                to: geo.name(m.to),
                promotion: m
                    .promotion
                    .map(|t| v.pieces[t as usize].letter.to_ascii_lowercase()),
                text: g.pos.move_to_string(m),
            })
            .collect(),
        _ => Vec::new(),
    };
    let last_move = last_move(&g.pos, g.played.iter().map(|p| p.mv));
    let (status_word, outcome) = match status {
        Status::Playing => ("playing", None),
        Status::Stuck => ("stuck", None),
        Status::Over(o) => (
            "over",
            Some(OutcomeView {
                ranking: o.ranking.clone(),
                reason: o.reason.to_string(),
            }),
        ),
    };
    GameView {
        id: g.id.clone(),
        variant: v.name.clone(),
        title: v.title.clone(),
        seats: g
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| SeatView {
                player: i,
                name: v.players[i].name.clone(),
                kind: s.kind,
                invited: s.invite_hash.is_some(),
            })
            .collect(),
        start: g.start.clone(),
        position: g.pos.to_string(),
        board,
        status: status_word,
        to_move,
        ply: g.played.len(),
        version: g.log_len,
        moves: g
            .played
            .iter()
            .map(|p| MoveView {
                player: p.player,
                text: p.text.clone(),
                san: p.san.clone(),
                clock_ms: p.clock_ms,
            })
            .collect(),
        last_move,
        attacked_royals,
        out: g.pos.out_order().iter().map(|&p| p as usize).collect(),
        outcome,
        your_seats,
        legal_moves,
        ai_thinking: g.ai_busy,
        clock: g.clocks.as_ref().map(|c| {
            let now = std::time::Instant::now();
            ClockView {
                control: c.control,
                left_ms: (0..c.left.len()).map(|p| c.left_at(p, now)).collect(),
                running: c.running.map(|(p, _)| p),
            }
        }),
        offer: g.offer.as_ref().map(|o| OfferView {
            kind: o.kind,
            by: o.by,
            agreed: o.agreed.clone(),
        }),
        declined: g.declined.map(|(kind, by)| OfferView {
            kind,
            by,
            agreed: vec![by],
        }),
        rematch: g.rematch.clone(),
    }
}

/// The pieces on the board, and the cells of royal pieces that an enemy
/// attacks.
fn pieces_and_checks(pos: &Position) -> (Vec<PieceOnBoard>, Vec<String>) {
    let v = pos.variant().clone();
    let geo = &v.geometry;
    let board = geo
        .cells
        .iter()
        .filter_map(|c| {
            pos.piece_at(c).map(|p| PieceOnBoard {
                cell: geo.name(c),
                army: p.army,
                letter: v.pieces[p.kind as usize].letter,
            })
        })
        .collect();
    let mut attacked_royals = Vec::new();
    let mut armies_seen = 0u8;
    for p in pos.players_in().collect::<Vec<_>>() {
        let army = v.players[p].army;
        if armies_seen >> army & 1 != 0 {
            continue;
        }
        armies_seen |= 1 << army;
        for c in pos.royal_cells(army).unwrap_or_default().iter() {
            if pos.attacked_by_enemies(c, army) {
                attacked_royals.push(geo.name(c));
            }
        }
    }
    (board, attacked_royals)
}

/// The last of `moves` that moved a piece (a drop-out moves none).
fn last_move(
    pos: &Position,
    moves: impl DoubleEndedIterator<Item = quadrille_engine::Move>,
) -> Option<LastMove> {
    let geo = &pos.variant().geometry;
    moves
        .rev()
        .find(|m| m.kind != MoveKind::DropOut)
        .map(|m| LastMove {
            from: geo.name(m.from),
            to: geo.name(m.to),
        })
}

/// Every position of the game, from the start to now, for review.
pub fn positions(g: &Game) -> Result<Vec<PositionView>, String> {
    let mut pos = Position::from_string(g.source.variant.clone(), &g.start)
        .map_err(|e| format!("the start position: {e}"))?;
    let mut out = Vec::with_capacity(g.played.len() + 1);
    let view = |pos: &Position, upto: usize| {
        let (board, attacked_royals) = pieces_and_checks(pos);
        PositionView {
            board,
            last_move: last_move(pos, g.played[..upto].iter().map(|p| p.mv)),
            attacked_royals,
        }
    };
    out.push(view(&pos, 0));
    for (i, p) in g.played.iter().enumerate() {
        if p.is_resignation() {
            pos.resign();
        } else {
            pos.make(p.mv);
        }
        out.push(view(&pos, i + 1));
    }
    Ok(out)
}

/// One line of the game list.
#[derive(Serialize)]
pub struct GameSummary {
    pub id: String,
    pub variant: String,
    pub title: String,
    pub players: Vec<String>,
    pub ply: usize,
    pub status: &'static str,
    pub to_move: Option<usize>,
    pub created: i64,
    pub updated: i64,
}

pub fn summary(g: &Game) -> GameSummary {
    let v = g.source.variant.clone();
    let status = g.status().clone();
    GameSummary {
        id: g.id.clone(),
        variant: v.name.clone(),
        title: v.title.clone(),
        players: g
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| match s.kind {
                SeatKind::Human => v.players[i].name.clone(),
                SeatKind::Ai { level, .. } => format!("{} (AI {level})", v.players[i].name),
            })
            .collect(),
        ply: g.played.len(),
        status: match status {
            Status::Playing => "playing",
            Status::Over(_) => "over",
            Status::Stuck => "stuck",
        },
        to_move: (status == Status::Playing).then(|| g.pos.to_move()),
        created: g.created,
        updated: g.updated,
    }
}
