//! From a parsed definition file to a [`Variant`]: each part of the file
//! is checked and compiled by its own step, errors name the key.

use super::def::{
    self, ArmyDef, BoardDef, CastlingDef, PieceDef, PlayerDef, PromotionDef, RulesDef, VariantDef,
};
use super::rule_modules::{self, Names};
use super::{
    display, Army, Attackers, Boundary, Camps, Castling, DoubleStep, Dropout, Elimination,
    PathRules, PerPlayerCells, PieceKind, PieceType, Player, Promotion, RoyalRule, Rules,
    StalemateResult, VResult, Variant, VariantError, MAX_ARMIES, MAX_PLAYERS, MAX_TYPES,
};
use crate::betza::{self, Atom, Reach};
use crate::geometry::{Cell, CellSet, Geometry, Orientation, MAX_SIDE};
use crate::position::Position;
use crate::tables::Tables;
use std::collections::BTreeMap;
use std::sync::Arc;

/// What the steps share: the board and the named regions, once compiled.
#[derive(Default)]
pub(super) struct Compiler {
    geometry: Option<Geometry>,
    regions: BTreeMap<String, CellSet>,
}

impl Compiler {
    pub(super) fn geometry(&self) -> &Geometry {
        self.geometry.as_ref().expect("board compiled first")
    }

    /// A cell list: cells, rectangles `a2-h2` or region names.
    pub(super) fn cells(&self, key: &str, spec: &str) -> VResult<CellSet> {
        let mut set = CellSet::EMPTY;
        for item in spec.split([' ', ',']).filter(|s| !s.is_empty()) {
            if let Some(r) = self.regions.get(item) {
                set = set.union(r);
            } else {
                let s = self
                    .geometry()
                    .parse_cells(item, false)
                    .map_err(|m| VariantError::at(key, m))?;
                if s.is_empty() {
                    return Err(VariantError::at(
                        key,
                        format!("`{item}` names no cell on the board"),
                    ));
                }
                set = set.union(&s);
            }
        }
        Ok(set)
    }

    fn cell(&self, key: &str, name: &str) -> VResult<Cell> {
        self.geometry()
            .parse_cell(name)
            .ok_or_else(|| VariantError::at(key, format!("`{name}` is not a cell of the board")))
    }

    /// One cell list per player, keyed by player name.
    fn per_player(
        &self,
        key: &str,
        names: &Names,
        specs: &BTreeMap<String, String>,
    ) -> VResult<[CellSet; MAX_PLAYERS]> {
        let mut sets: [CellSet; MAX_PLAYERS] = Default::default();
        for (player, spec) in specs {
            let k = format!("{key}.{player}");
            sets[names.player(&k, player)?] = self.cells(&k, spec)?;
        }
        Ok(sets)
    }

    /// The whole file, step by step.
    pub(super) fn compile(mut self, def: VariantDef) -> VResult<Variant> {
        check_name(&def.name)?;
        let geometry = self.board(&def.board, &def.regions)?;
        let armies = armies(&def.armies)?;
        let players = self.players(&def.players, &armies)?;
        let pieces = pieces(&def.pieces)?;
        let names = Names {
            armies: &armies,
            players: &players,
            pieces: &pieces,
        };
        let rules = self.rules(&def.rules, &names)?;
        let display = display::compile(&def.display, &armies, &pieces, |k, spec| {
            self.cells(k, spec)
        })?;
        let tables = Tables::build(&geometry, &players, &pieces, &rules)
            .map_err(|m| VariantError::at("pieces", m))?;
        let (enemies, hostile_players) = hostility(&armies, &players);
        let mut castling_mask = vec![u16::MAX; geometry.size()];
        for (i, c) in rules.castling.iter().enumerate() {
            castling_mask[c.king as usize] &= !(1 << i);
            castling_mask[c.rook as usize] &= !(1 << i);
        }
        let pawn_types = pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| p.pawn)
            .fold(0, |m, (i, _)| m | 1 << i);
        let variant = Variant {
            name: def.name,
            title: def.title,
            description: def.description,
            geometry,
            regions: self.regions,
            armies,
            players,
            pieces,
            rules,
            display,
            setup: def.setup.trim().to_string(),
            initial_counts: [[0; MAX_TYPES]; MAX_ARMIES],
            enemies,
            hostile_players,
            castling_mask,
            pawn_types,
            tables,
        };
        with_setup(variant)
    }

    /// The board's rectangle, its cells and the named regions.
    fn board(&mut self, b: &BoardDef, regions: &BTreeMap<String, String>) -> VResult<Geometry> {
        if b.files == 0 || b.files > MAX_SIDE || b.ranks == 0 || b.ranks > MAX_SIDE {
            return Err(VariantError::at(
                "board",
                format!("files and ranks must be 1 to {MAX_SIDE}"),
            ));
        }
        if b.first_rank > 1 {
            return Err(VariantError::at("board.first_rank", "must be 0 or 1"));
        }
        let mut geometry = Geometry::rectangle(b.files, b.ranks, b.first_rank);
        if let Some(spec) = &b.cells {
            geometry.cells = geometry
                .parse_cells(spec, true)
                .map_err(|m| VariantError::at("board.cells", m))?;
        }
        self.geometry = Some(geometry.clone());
        for (name, spec) in regions {
            let set = self.cells(&format!("regions.{name}"), spec)?;
            self.regions.insert(name.clone(), set);
        }
        Ok(geometry)
    }

    /// The players in turn order; every army needs one.
    fn players(&self, defs: &[PlayerDef], armies: &[Army]) -> VResult<Vec<Player>> {
        if defs.len() < 2 || defs.len() > MAX_PLAYERS {
            return Err(VariantError::at(
                "players",
                format!("need 2 to {MAX_PLAYERS} players"),
            ));
        }
        let by_name = Names {
            armies,
            players: &[],
            pieces: &[],
        };
        let mut players: Vec<Player> = Vec::new();
        for (i, p) in defs.iter().enumerate() {
            let key = format!("players[{i}]");
            let forward = Orientation::parse(&p.forward).ok_or_else(|| {
                VariantError::at(
                    format!("{key}.forward"),
                    "must be north, east, south or west",
                )
            })?;
            if !p.tag.is_ascii_lowercase() || players.iter().any(|q| q.tag == p.tag) {
                return Err(VariantError::at(
                    format!("{key}.tag"),
                    "must be a distinct lower-case letter",
                ));
            }
            let home = match &p.home {
                Some(spec) => self.cells(&format!("{key}.home"), spec)?,
                None => CellSet::EMPTY,
            };
            players.push(Player {
                name: p.name.clone(),
                tag: p.tag,
                army: by_name.army(&format!("{key}.army"), &p.army)?,
                forward,
                home,
            });
        }
        for i in 0..armies.len() {
            if !players.iter().any(|p| p.army as usize == i) {
                return Err(VariantError::at(
                    format!("armies[{i}]"),
                    "no player moves this army",
                ));
            }
        }
        Ok(players)
    }

    /// The `[rules]` table, module by module.
    fn rules(&self, r: &RulesDef, names: &Names) -> VResult<Rules> {
        let royal = r.royal.as_ref().map(|d| royal(d, names)).transpose()?;
        let promotion = r
            .promotion
            .as_ref()
            .map(|p| self.promotion(p, names))
            .transpose()?;
        let paths = self.paths(r, names)?;
        let players = names.players;
        let royal_presence = match &r.royal_presence {
            None => None,
            Some(d) => {
                if players.iter().any(|p| p.home.is_empty()) {
                    return Err(VariantError::at(
                        "rules.royal_presence",
                        "every player needs a `home`",
                    ));
                }
                Some(names.types("rules.royal_presence.pieces", &d.pieces)?)
            }
        };
        let elimination = r
            .elimination
            .as_ref()
            .map(|e| Elimination {
                capturable_royal: e.capturable_royal,
                empty_army: e.empty_army,
            })
            .unwrap_or_default();
        if elimination.capturable_royal && royal.is_none() {
            return Err(VariantError::at(
                "rules.elimination.capturable_royal",
                "needs rules.royal to say which pieces are royal",
            ));
        }
        let facing = r
            .facing
            .as_ref()
            .map(|d| Compiler::facing(names, d))
            .transpose()?;
        let swap = r
            .swap
            .as_ref()
            .map(|d| Compiler::swap(names, d))
            .transpose()?;
        // A promotion with no fixed choice may leave a piece unable to
        // capture into its zone: attack tests must know (Yang Aikou).
        let empty_choice = promotion.as_ref().is_some_and(|p| {
            (0..players.len()).any(|i| p.choices[i].is_empty() && !p.zone[i].is_empty())
        });
        let players_left = r.players_left.unwrap_or(1);
        if players_left == 0 || players_left as usize >= players.len() {
            return Err(VariantError::at(
                "rules.players_left",
                format!("must be 1 to {}", players.len() - 1),
            ));
        }
        Ok(Rules {
            royal,
            double_step: r
                .double_step
                .as_ref()
                .map(|d| self.double_step(d, names))
                .transpose()?,
            en_passant: r.en_passant,
            castling: self.castlings(&r.castling, names)?,
            promotion,
            stalemate: stalemate(r.stalemate.as_deref())?,
            repetition: r.repetition.unwrap_or(3),
            no_progress_moves: r.no_progress_moves.unwrap_or(50),
            bare_royals_draw: r.bare_royals_draw,
            extended: paths.active || facing.is_some() || swap.is_some() || empty_choice,
            paths,
            royal_presence,
            dropout: r.dropout.as_ref().map(|d| dropout(d, names)).transpose()?,
            elimination,
            capture_needs_choice: empty_choice,
            region_moves: self.region_moves(names, &r.region_moves)?,
            facing,
            swap,
            players_left,
            winner: rule_modules::winner(r.winner.as_deref())?,
            series_score: r.series_score,
        })
    }

    /// The double step: where from, and which types' moves reach it.
    fn double_step(&self, d: &def::DoubleStepDef, names: &Names) -> VResult<DoubleStep> {
        let pieces = names.types("rules.double_step.pieces", &d.pieces)?;
        let twins = (0..names.pieces.len())
            .filter(|&t| {
                pieces >> t & 1 != 0 && names.pieces[t].atoms.iter().any(reaches_double_step)
            })
            .fold(0, |m, t| m | 1 << t);
        Ok(DoubleStep {
            pieces,
            from: self.per_player("rules.double_step.from", names, &d.from)?,
            twins,
        })
    }

    /// Castlings: cells, the cells that must be empty, the king's path.
    fn castlings(&self, defs: &[CastlingDef], names: &Names) -> VResult<Vec<Castling>> {
        let mut castling: Vec<Castling> = Vec::new();
        for (i, c) in defs.iter().enumerate() {
            let key = format!("rules.castling[{i}]");
            let army = names.army(&format!("{key}.army"), &c.army)?;
            let king = self.cell(&format!("{key}.king"), &c.king)?;
            let rook = self.cell(&format!("{key}.rook"), &c.rook)?;
            let king_to = self.cell(&format!("{key}.king_to"), &c.king_to)?;
            let rook_to = self.cell(&format!("{key}.rook_to"), &c.rook_to)?;
            let g = self.geometry();
            if g.rank_of(king) != g.rank_of(rook)
                || g.rank_of(king) != g.rank_of(king_to)
                || g.rank_of(rook) != g.rank_of(rook_to)
            {
                return Err(VariantError::at(
                    key,
                    "king, rook and their targets must share a rank",
                ));
            }
            let span = |a: Cell, b: Cell| (a.min(b)..=a.max(b)).collect::<Vec<Cell>>();
            let mut must_be_empty: CellSet = span(king, rook)
                .into_iter()
                .chain(span(king, king_to))
                .chain(span(rook, rook_to))
                .collect();
            must_be_empty.remove(king);
            must_be_empty.remove(rook);
            let mut king_path = span(king, king_to);
            if king_to < king {
                king_path.reverse();
            }
            if castling.iter().any(|o| o.symbol == c.symbol) {
                return Err(VariantError::at(
                    format!("{key}.symbol"),
                    "castling symbols must be distinct",
                ));
            }
            castling.push(Castling {
                army,
                symbol: c.symbol,
                king,
                rook,
                king_to,
                rook_to,
                pieces: None,
                must_be_empty,
                king_path,
            });
        }
        if castling.len() > 16 {
            return Err(VariantError::at("rules.castling", "at most 16 castlings"));
        }
        Ok(castling)
    }

    /// Promotion: zones, choices per player, liberation.
    fn promotion(&self, p: &PromotionDef, names: &Names) -> VResult<Promotion> {
        let zone = self.per_player("rules.promotion.zone", names, &p.zone)?;
        let optional_zone =
            self.per_player("rules.promotion.optional_zone", names, &p.optional_zone)?;
        let mut choices: [Vec<PieceType>; MAX_PLAYERS] = Default::default();
        for (player, letters) in &p.choices {
            let key = format!("rules.promotion.choices.{player}");
            let m = names.types(&key, letters)?;
            choices[names.player(&key, player)?] = (0..32).filter(|t| m >> t & 1 != 0).collect();
        }
        let any_zone = std::array::from_fn(|i| zone[i].union(&optional_zone[i]));
        Ok(Promotion {
            pieces: names.types("rules.promotion.pieces", &p.pieces)?,
            zone,
            optional_zone,
            any_zone,
            choices,
            liberate: p.liberate,
            liberate_exclude: names
                .types("rules.promotion.liberate_exclude", &p.liberate_exclude)?,
        })
    }

    /// The rules on a move's path: home halves, boundaries, camps,
    /// forbidden captures, confinement and Rivers.
    fn paths(&self, r: &RulesDef, names: &Names) -> VResult<PathRules> {
        let per_player_cells = |key: &str, d: &def::PerPlayerCellsDef| -> VResult<PerPlayerCells> {
            Ok(PerPlayerCells {
                pieces: names.types(&format!("{key}.pieces"), &d.pieces)?,
                cells: self.per_player(&format!("{key}.cells"), names, &d.cells)?,
            })
        };
        let mut paths = PathRules {
            home_moves: r.home_moves,
            ..Default::default()
        };
        if r.home_moves && names.players.iter().any(|p| p.home.is_empty()) {
            return Err(VariantError::at(
                "rules.home_moves",
                "every player needs a `home`",
            ));
        }
        for (i, b) in r.boundary.iter().enumerate() {
            let key = format!("rules.boundary[{i}]");
            paths.boundaries.push(Boundary {
                sides: [
                    self.cells(&format!("{key}.sides[0]"), &b.sides[0])?,
                    self.cells(&format!("{key}.sides[1]"), &b.sides[1])?,
                ],
                require: self.cells(&format!("{key}.require"), &b.require)?,
            });
        }
        if let Some(c) = &r.camps {
            let camps = c
                .camps
                .iter()
                .enumerate()
                .map(|(i, spec)| self.cells(&format!("rules.camps.camps[{i}]"), spec))
                .collect::<VResult<Vec<_>>>()?;
            paths.camps = Some(Camps::new(camps, self.cells("rules.camps.via", &c.via)?));
        }
        for (i, d) in r.no_capture_into.iter().enumerate() {
            paths
                .no_capture_into
                .push(per_player_cells(&format!("rules.no_capture_into[{i}]"), d)?);
        }
        for (i, d) in r.confine.iter().enumerate() {
            paths
                .confine
                .push(per_player_cells(&format!("rules.confine[{i}]"), d)?);
        }
        if let Some(d) = &r.rivers {
            paths.rivers = Some(self.rivers(names, d)?);
        }
        paths.active = paths.home_moves
            || !paths.boundaries.is_empty()
            || paths.camps.is_some()
            || !paths.no_capture_into.is_empty()
            || !paths.confine.is_empty()
            || paths.rivers.is_some();
        Ok(paths)
    }
}

fn check_name(name: &str) -> VResult<()> {
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
        return Err(VariantError::at(
            "name",
            "must be non-empty letters, digits and '-'",
        ));
    }
    Ok(())
}

fn armies(defs: &[ArmyDef]) -> VResult<Vec<Army>> {
    if defs.is_empty() || defs.len() > MAX_ARMIES {
        return Err(VariantError::at(
            "armies",
            format!("need 1 to {MAX_ARMIES} armies"),
        ));
    }
    defs.iter()
        .enumerate()
        .map(|(i, a)| {
            if !a.tag.is_ascii_lowercase() {
                return Err(VariantError::at(
                    format!("armies[{i}].tag"),
                    "must be a lower-case letter",
                ));
            }
            Ok(Army {
                name: a.name.clone(),
                tag: a.tag,
            })
        })
        .collect()
}

fn pieces(defs: &[PieceDef]) -> VResult<Vec<PieceKind>> {
    if defs.is_empty() || defs.len() > MAX_TYPES {
        return Err(VariantError::at(
            "pieces",
            format!("need 1 to {MAX_TYPES} piece types"),
        ));
    }
    let mut pieces: Vec<PieceKind> = Vec::new();
    for (i, p) in defs.iter().enumerate() {
        let key = format!("pieces[{i}]");
        if !p.letter.is_ascii_uppercase() || pieces.iter().any(|q| q.letter == p.letter) {
            return Err(VariantError::at(
                format!("{key}.letter"),
                "must be a distinct upper-case letter",
            ));
        }
        let atoms = betza::parse(&p.betza).map_err(|e| {
            VariantError::at(
                format!("{key}.betza"),
                format!("piece {} ({}): {e}", p.letter, p.name),
            )
        })?;
        pieces.push(PieceKind {
            letter: p.letter,
            name: p.name.clone(),
            betza: p.betza.clone(),
            atoms,
            pawn: p.pawn,
            value: p.value,
        });
    }
    Ok(pieces)
}

fn royal(rd: &def::RoyalDef, names: &Names) -> VResult<RoyalRule> {
    let mut must_retain = [0; MAX_ARMIES];
    for (army, letters) in &rd.must_retain {
        let key = format!("rules.royal.must_retain.{army}");
        must_retain[names.army(&key, army)? as usize] = names.types(&key, letters)?;
    }
    let attackers = match rd.attackers.as_deref() {
        None | Some("enemies") => Attackers::Enemies,
        Some("next") => Attackers::Next,
        Some(o) => {
            return Err(VariantError::at(
                "rules.royal.attackers",
                format!("`{o}`: expected enemies or next"),
            ))
        }
    };
    Ok(RoyalRule {
        must_retain,
        no_passing_attacked: rd.no_passing_attacked,
        attackers,
    })
}

fn stalemate(word: Option<&str>) -> VResult<StalemateResult> {
    match word {
        None | Some("draw") => Ok(StalemateResult::Draw),
        Some("loss") => Ok(StalemateResult::Loss),
        Some("win") => Ok(StalemateResult::Win),
        Some(o) => Err(VariantError::at(
            "rules.stalemate",
            format!("`{o}`: expected draw, loss or win"),
        )),
    }
}

/// Drop-out promotions, `FROM:TO` pairs of one letter each.
fn dropout(d: &def::DropoutDef, names: &Names) -> VResult<Dropout> {
    let key = "rules.dropout.promote";
    let mut promote = Vec::new();
    for pair in d.promote.split_whitespace() {
        let (a, b) = pair
            .split_once(':')
            .ok_or_else(|| VariantError::at(key, format!("`{pair}`: expected FROM:TO")))?;
        let one = |l: &str| -> VResult<PieceType> {
            let m = names.types(key, l)?;
            if m.count_ones() != 1 {
                return Err(VariantError::at(
                    key,
                    format!("`{pair}`: one letter each side"),
                ));
            }
            Ok(m.trailing_zeros() as PieceType)
        };
        promote.push((one(a)?, one(b)?));
    }
    Ok(Dropout {
        promote,
        remove_army: d.remove_army,
    })
}

/// Per army, the armies it captures (every other army); per army, the
/// players who move those.
fn hostility(armies: &[Army], players: &[Player]) -> ([u8; MAX_ARMIES], [u8; MAX_ARMIES]) {
    let mut enemies = [0u8; MAX_ARMIES];
    for (a, e) in enemies.iter_mut().enumerate().take(armies.len()) {
        *e = ((1u8 << armies.len()) - 1) & !(1 << a);
    }
    let mut hostile_players = [0u8; MAX_ARMIES];
    for (a, h) in hostile_players.iter_mut().enumerate() {
        for (p, pl) in players.iter().enumerate() {
            if enemies[a] >> pl.army & 1 != 0 {
                *h |= 1 << p;
            }
        }
    }
    (enemies, hostile_players)
}

/// Checks the setup, which must parse, and takes from it what the rules
/// need: the piece counts (for liberation) and the castling pieces.
fn with_setup(variant: Variant) -> VResult<Variant> {
    let arc = Arc::new(variant);
    let start = Position::from_string(arc.clone(), &arc.setup)
        .map_err(|e| VariantError::at("setup", e.to_string()))?;
    let counts = start.piece_counts();
    let castling_pieces: Vec<_> = arc
        .rules
        .castling
        .iter()
        .map(|c| (start.piece_at(c.king), start.piece_at(c.rook)))
        .collect();
    drop(start);
    let mut variant = Arc::try_unwrap(arc).expect("no other reference");
    variant.initial_counts = counts;
    for (i, (c, found)) in variant
        .rules
        .castling
        .iter_mut()
        .zip(castling_pieces)
        .enumerate()
    {
        match found {
            (Some(k), Some(r)) if k.army == c.army && r.army == c.army => {
                c.pieces = Some((k.kind, r.kind))
            }
            _ => {
                return Err(VariantError::at(
                    format!("rules.castling[{i}]"),
                    "the setup must have the castling army's king and rook on their cells",
                ))
            }
        }
    }
    Ok(variant)
}

/// Can a quiet move of this atom go two cells straight forward?
fn reaches_double_step(a: &Atom) -> bool {
    a.modes.quiet
        && match a.reach {
            Reach::Leap => a.vectors.contains(&(0, 2)),
            Reach::Ride { max } => {
                (a.vectors.contains(&(0, 1)) && max != 1) || a.vectors.contains(&(0, 2))
            }
            Reach::Hop => false,
        }
}
