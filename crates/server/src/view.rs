//! A game as JSON: the public state every viewer sees, plus the legal
//! moves for the caller's seats when one of them is to move.

use crate::game::{Game, SeatKind, Status};
use quadrille_engine::MoveKind;
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
    pub text: String,
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
    let board = geo
        .cells
        .iter()
        .filter_map(|c| {
            g.pos.piece_at(c).map(|p| PieceOnBoard {
                cell: geo.name(c),
                army: p.army,
                letter: v.pieces[p.kind as usize].letter,
            })
        })
        .collect();
    let mut attacked_royals = Vec::new();
    let mut armies_seen = 0u8;
    for p in g.pos.players_in().collect::<Vec<_>>() {
        let army = v.players[p].army;
        if armies_seen >> army & 1 != 0 {
            continue;
        }
        armies_seen |= 1 << army;
        for c in g.pos.royal_cells(army).unwrap_or_default().iter() {
            if g.pos.attacked_by_enemies(c, army) {
                attacked_royals.push(geo.name(c));
            }
        }
    }
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
    // The last move that moved a piece (a drop-out moves none).
    let last_move = g
        .played
        .iter()
        .rev()
        .find(|p| p.mv.kind != MoveKind::DropOut)
        .map(|p| LastMove {
            from: geo.name(p.mv.from),
            to: geo.name(p.mv.to),
        });
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
        moves: g
            .played
            .iter()
            .map(|p| MoveView {
                player: p.player,
                text: p.text.clone(),
            })
            .collect(),
        last_move,
        attacked_royals,
        out: g.pos.out_order().iter().map(|&p| p as usize).collect(),
        outcome,
        your_seats,
        legal_moves,
        ai_thinking: g.ai_busy,
    }
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
