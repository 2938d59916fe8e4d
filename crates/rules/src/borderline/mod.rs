//! Warhorn: Borderline (`borderline`): a territory war on a board divided in advance, scored live
//! after every move. Deployment in the own zone, limited forces, limited passes, positional
//! superko, no suicide; the score is the live survey's terms plus the cumulative captures, and at
//! the end every ko left on the board is awarded by simulated score gain.
//!
//! The rules file fixes 19x19; other sizes are allowed for study (each colour gets half the rows
//! and an odd middle row is the Border).

mod survey;

use std::fmt;

use crate::board::{Board, EMPTY, code};
use crate::geometry::{Geometry, Point};
use crate::score::{HalfPoints, ScoreSheet};
use crate::spec::{OptionInfo, Options, SpecError};
use crate::stone_game::KeySet;
use crate::zobrist::{WHITE_TO_MOVE, mix};
use crate::{Color, Game, GameResult, Illegal, Move, Stones};

pub use survey::{Counts, StoneStatus, Survey, Zone, Zones};

/// The score weights: what each term is worth per stone or point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Weights {
    /// Each own living stone in the own attack zone.
    pub live: i32,
    /// Each point of the own attack zone inside an own valid enclosure.
    pub enclosed: i32,
    /// Each enemy stone captured on the own defence zone (cumulative).
    pub annihilation: i32,
    /// Each enemy stone besieged on the own defence zone.
    pub siege: i32,
    /// Each own stone ever captured (subtracted).
    pub loss: i32,
}

/// Borderline's settings; the defaults are the rulebook's (v6.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BorderlineRules {
    /// Stones each side may place in the whole game.
    pub forces: u16,
    /// Voluntary passes each player may make in a game (`None`: no cap, as in later rulebooks).
    pub pass_cap: Option<u8>,
    /// Own placements a player must make after a voluntary pass before it may pass again.
    pub cooldown: u8,
    /// Opening placements (B, W, B, W, ...) that must go in the mover's own zone.
    pub deployment: u8,
    /// Added to White's total.
    pub komi: HalfPoints,
    /// The score weights.
    pub weights: Weights,
}

impl Default for BorderlineRules {
    fn default() -> Self {
        BorderlineRules {
            forces: 120,
            pass_cap: Some(2),
            cooldown: 2,
            deployment: 4,
            komi: HalfPoints(1),
            weights: Weights { live: 1, enclosed: 2, annihilation: 2, siege: 1, loss: 1 },
        }
    }
}

/// One line for listings.
pub const ABOUT: &str =
    "19x19 territory war scored live: zones and a Border, deployment, 120 stones each, limited passes";

/// The integer options and their ranges: `(key, lowest, highest)`.
const NUMBERS: [(&str, i32, i32); 8] = [
    ("forces", 0, 10_000),
    ("cooldown", 0, 100),
    ("deployment", 0, 100),
    ("live", -100, 100),
    ("enclosed", -100, 100),
    ("annihilation", -100, 100),
    ("siege", -100, 100),
    ("loss", -100, 100),
];

impl BorderlineRules {
    fn number_mut(&mut self, key: &str) -> Option<NumberField<'_>> {
        Some(match key {
            "forces" => NumberField::U16(&mut self.forces),
            "cooldown" => NumberField::U8(&mut self.cooldown),
            "deployment" => NumberField::U8(&mut self.deployment),
            "live" => NumberField::I32(&mut self.weights.live),
            "enclosed" => NumberField::I32(&mut self.weights.enclosed),
            "annihilation" => NumberField::I32(&mut self.weights.annihilation),
            "siege" => NumberField::I32(&mut self.weights.siege),
            "loss" => NumberField::I32(&mut self.weights.loss),
            _ => return None,
        })
    }

    fn number(&self, key: &str) -> i32 {
        match key {
            "forces" => self.forces as i32,
            "cooldown" => self.cooldown as i32,
            "deployment" => self.deployment as i32,
            "live" => self.weights.live,
            "enclosed" => self.weights.enclosed,
            "annihilation" => self.weights.annihilation,
            "siege" => self.weights.siege,
            _ => self.weights.loss,
        }
    }
}

/// A numeric setting reached by its option key.
enum NumberField<'a> {
    U8(&'a mut u8),
    U16(&'a mut u16),
    I32(&'a mut i32),
}

impl Options for BorderlineRules {
    const INFO: &'static [OptionInfo] = &[
        OptionInfo { key: "forces", values: "stones per side, 0..10000", default: "120" },
        OptionInfo { key: "pass-cap", values: "passes per player, or off", default: "2" },
        OptionInfo { key: "cooldown", values: "own placements after a pass, 0..100", default: "2" },
        OptionInfo { key: "deployment", values: "opening placements in the own zone", default: "4" },
        OptionInfo { key: "komi", values: "any multiple of 0.5", default: "0.5" },
        OptionInfo { key: "live", values: "points per living stone in the attack zone", default: "1" },
        OptionInfo { key: "enclosed", values: "points per enclosed point", default: "2" },
        OptionInfo { key: "annihilation", values: "points per enemy stone captured", default: "2" },
        OptionInfo { key: "siege", values: "points per besieged enemy stone", default: "1" },
        OptionInfo { key: "loss", values: "points lost per own stone captured", default: "1" },
    ];

    fn set(&mut self, key: &str, value: &str) -> Result<bool, SpecError> {
        let bad = |expected: &str| SpecError::BadValue {
            key: key.to_string(),
            value: value.to_string(),
            expected: expected.to_string(),
        };
        match key {
            "komi" => self.komi = HalfPoints::parse(value).ok_or_else(|| bad("any multiple of 0.5"))?,
            "pass-cap" => {
                self.pass_cap = match value {
                    "off" => None,
                    _ => Some(value.parse().map_err(|_| bad("0..255 or off"))?),
                }
            }
            _ => {
                let Some(&(_, low, high)) = NUMBERS.iter().find(|(k, _, _)| *k == key) else {
                    return Ok(false);
                };
                let n: i32 = value
                    .parse()
                    .ok()
                    .filter(|n| (low..=high).contains(n))
                    .ok_or_else(|| bad(&format!("an integer {low}..{high}")))?;
                match self.number_mut(key).expect("every listed number has a field") {
                    NumberField::U8(f) => *f = n as u8,
                    NumberField::U16(f) => *f = n as u16,
                    NumberField::I32(f) => *f = n,
                }
            }
        }
        Ok(true)
    }

    fn written(&self) -> Vec<(&'static str, String)> {
        let defaults = BorderlineRules::default();
        let mut out = Vec::new();
        for (key, _, _) in NUMBERS.iter().take(3) {
            if self.number(key) != defaults.number(key) {
                out.push((*key, self.number(key).to_string()));
            }
        }
        if self.pass_cap != defaults.pass_cap {
            out.push(("pass-cap", self.pass_cap.map_or("off".to_string(), |n| n.to_string())));
        }
        if self.komi != defaults.komi {
            out.push(("komi", self.komi.to_string()));
        }
        for (key, _, _) in NUMBERS.iter().skip(3) {
            if self.number(key) != defaults.number(key) {
                out.push((*key, self.number(key).to_string()));
            }
        }
        out
    }
}

/// One side's score: each term already weighted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Breakdown {
    /// Living stones in the attack zone.
    pub live: i32,
    /// Enclosed points of the attack zone.
    pub enclosed: i32,
    /// Enemy stones captured on the defence zone (cumulative).
    pub annihilation: i32,
    /// Enemy stones besieged on the defence zone.
    pub siege: i32,
    /// Own stones captured (cumulative), subtracted from the total.
    pub loss: i32,
}

impl Breakdown {
    /// Occupation plus defence minus loss.
    pub fn total(&self) -> i32 {
        self.live + self.enclosed + self.annihilation + self.siege - self.loss
    }
}

/// A ko given away by the end-of-game award.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KoAward {
    /// The single stone in atari that the ko is about.
    pub stone: Point,
    /// The empty point where it could be taken.
    pub ko_point: Point,
    /// Who won it.
    pub winner: Color,
    /// The winner's simulated gain (its total minus the opponent's, compared with before).
    pub gain: i32,
}

/// A ko award with the board its resolution leads to, so that the next round starts from it
/// without surveying it again.
struct SettledKo {
    award: KoAward,
    position: Borderline,
    survey: Survey,
}

/// Borderline's score: both breakdowns, the komi, and any kos the end-of-game award resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BorderlineScore {
    /// Black's and White's breakdowns.
    pub sides: [Breakdown; 2],
    /// White's komi.
    pub komi: HalfPoints,
    /// Kos awarded before scoring, in the order they were resolved (empty for the live score).
    pub kos: Vec<(KoAward, String)>,
}

impl ScoreSheet for BorderlineScore {
    fn totals(&self) -> [HalfPoints; 2] {
        self.sides.map(|s| HalfPoints::points(s.total()))
    }

    fn komi(&self) -> HalfPoints {
        self.komi
    }
}

impl fmt::Display for BorderlineScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (award, vertex) in &self.kos {
            writeln!(f, "ko at {vertex} awarded to {} (gain {})", award.winner, award.gain)?;
        }
        for c in [Color::Black, Color::White] {
            let s = self.sides[c as usize];
            write!(
                f,
                "{c}: live {} + enclosed {} + annihilation {} + siege {} - loss {} = {}",
                s.live,
                s.enclosed,
                s.annihilation,
                s.siege,
                s.loss,
                s.total()
            )?;
            if c == Color::White {
                write!(f, " (komi {})", self.komi)?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// A position of Borderline with everything its legality and score depend on.
#[derive(Clone, Debug)]
pub struct Borderline {
    rules: BorderlineRules,
    zones: Zones,
    board: Board,
    to_move: Color,
    /// Stones each side has placed (its forces used).
    placed: [u16; 2],
    /// Placements of the deployment still to come.
    deployment_left: u8,
    /// Voluntary passes each side has made.
    passes_used: [u8; 2],
    /// Own placements since each side's last voluntary pass; `None` if it never passed.
    since_pass: [Option<u8>; 2],
    /// Passes in a row just before this position.
    passes_in_row: u8,
    /// Enemy stones each side captured on its own defence zone.
    annihilated: [u16; 2],
    /// Own stones each side has had captured.
    lost: [u16; 2],
    /// Every earlier board (positional superko).
    seen: KeySet,
    /// The point of the last move when it was a placement: the search's move features and
    /// playouts answer it.
    last_placed: Option<Point>,
}

/// Why a pass would be forced rather than chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PassKind {
    /// The player has no legal placement: the pass uses no allowance.
    Forced,
    /// A pass the player chose: counts against the cap and starts the cooldown.
    Voluntary,
}

impl Borderline {
    /// A new game on the empty board, Black to deploy first.
    pub fn new(rules: BorderlineRules, geometry: Geometry) -> Self {
        Self::from_setup(rules, Board::new(geometry), Color::Black)
    }

    /// A position set up from a board (a record's setup stones): zero counters, superko history
    /// starting at this board, and past deployment as soon as any stone stands on it.
    pub fn from_setup(rules: BorderlineRules, board: Board, to_move: Color) -> Self {
        let deployment_left =
            if board.empties().len() == board.geometry().area() { rules.deployment } else { 0 };
        let mut seen = KeySet::default();
        seen.reserve(2 * rules.forces as usize + 8);
        seen.insert(board.hash());
        Borderline {
            rules,
            zones: Zones::of(board.geometry()),
            board,
            to_move,
            placed: [0; 2],
            deployment_left,
            passes_used: [0; 2],
            since_pass: [None; 2],
            passes_in_row: 0,
            annihilated: [0; 2],
            lost: [0; 2],
            seen,
            last_placed: None,
        }
    }

    /// The rules.
    pub fn rules(&self) -> &BorderlineRules {
        &self.rules
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The zones of this board.
    pub fn zones(&self) -> &Zones {
        &self.zones
    }

    /// Stones `c` may still place.
    pub fn stones_left(&self, c: Color) -> u16 {
        self.rules.forces.saturating_sub(self.placed[c as usize])
    }

    /// Voluntary passes `c` may still make (`None`: no cap).
    pub fn passes_left(&self, c: Color) -> Option<u8> {
        self.rules.pass_cap.map(|cap| cap.saturating_sub(self.passes_used[c as usize]))
    }

    /// Placements of the deployment still to come.
    pub fn deployment_left(&self) -> u8 {
        self.deployment_left
    }

    /// While opening placements are left, the deployment's rule for `c` as its refusal words it
    /// ("Black's first two stones must be in rows 6-9"): one wording, for the refusal and the
    /// pages.
    pub fn deployment_rule(&self, c: Color) -> Option<Illegal> {
        if self.deployment_left == 0 {
            return None;
        }
        // rows as the vertices number them, from the bottom
        let (top, bottom) = self.zones.own_rows(c);
        let height = self.board.geometry().height();
        let (first_row, last_row) = (height + 1 - bottom, height + 1 - top);
        let placements = self.rules.deployment as u32;
        let stones = if c == Color::Black { placements.div_ceil(2) } else { placements / 2 };
        Some(Illegal::Deployment { color: c, stones, first_row, last_row })
    }

    /// Enemy stones `c` captured on its defence zone, and own stones `c` lost, so far.
    pub fn captures(&self, c: Color) -> (u16, u16) {
        (self.annihilated[c as usize], self.lost[c as usize])
    }

    /// The statuses and enclosures of the board as it stands.
    pub fn survey(&self) -> Survey {
        Survey::of(&self.board, &self.zones)
    }

    /// The live score: the survey of the board as it stands and the cumulative terms, without
    /// the end-of-game ko award.
    pub fn live_score(&self) -> BorderlineScore {
        self.score_of(&self.survey(), self.annihilated, self.lost, Vec::new())
    }

    fn score_of(
        &self,
        survey: &Survey,
        annihilated: [u16; 2],
        lost: [u16; 2],
        kos: Vec<(KoAward, String)>,
    ) -> BorderlineScore {
        let w = self.rules.weights;
        let sides = [Color::Black, Color::White].map(|c| {
            let counts = survey.counts[c as usize];
            Breakdown {
                live: w.live * counts.live_stones as i32,
                enclosed: w.enclosed * counts.enclosed_points as i32,
                annihilation: w.annihilation * annihilated[c as usize] as i32,
                siege: w.siege * counts.besieged_enemies as i32,
                loss: w.loss * lost[c as usize] as i32,
            }
        });
        BorderlineScore { sides, komi: self.rules.komi, kos }
    }

    /// The score as the game would end now: every ko on the board awarded by simulated gain
    /// (largest gain first, one at a time), then the survey of the resulting board. Each board
    /// is surveyed once: a settled ko's simulation is kept as the next board with its survey.
    pub fn final_score(&self) -> BorderlineScore {
        let mut position = self.without_history();
        let mut survey = position.survey();
        let mut kos = Vec::new();
        for _ in 0..self.board.geometry().area() {
            let Some(settled) = position.best_ko_award(&survey) else { break };
            kos.push((settled.award, self.board.geometry().vertex(settled.award.stone).to_string()));
            (position, survey) = (settled.position, settled.survey);
        }
        position.score_of(&survey, position.annihilated, position.lost, kos)
    }

    /// A copy without the superko history, which scoring never reads: the ko award's simulations
    /// copy positions many times, and the history is most of a position's weight.
    fn without_history(&self) -> Borderline {
        Borderline {
            rules: self.rules,
            zones: self.zones,
            board: self.board.clone(),
            to_move: self.to_move,
            placed: self.placed,
            deployment_left: self.deployment_left,
            passes_used: self.passes_used,
            since_pass: self.since_pass,
            passes_in_row: self.passes_in_row,
            annihilated: self.annihilated,
            lost: self.lost,
            seen: KeySet::default(),
            last_placed: self.last_placed,
        }
    }

    /// Black's total minus White's, komi aside, of this position's score given its survey.
    fn margin(&self, survey: &Survey) -> i32 {
        let score = self.score_of(survey, self.annihilated, self.lost, Vec::new());
        score.sides[0].total() - score.sides[1].total()
    }

    /// The kos on the board: a single stone with one liberty whose capture takes exactly that
    /// stone and leaves the capturer a single stone with one liberty. Returns `(stone, ko point)`.
    fn kos(&self) -> Vec<(Point, Point)> {
        let mut out = Vec::new();
        for p in self.board.geometry().points() {
            let Some(owner) = self.board.color(p) else { continue };
            if self.board.chain_size(self.board.chain_head(p)) != 1 {
                continue;
            }
            let Some(e) = self.board.sole_liberty(p) else { continue };
            // every other neighbour of the ko point is the owner's: the taker's stone would stand
            // alone with the captured stone's point as its one liberty
            let surrounded = self.board.geometry().neighbours(e).into_iter().all(|n| {
                n == p || self.board.cell(n) == crate::board::BORDER || self.board.cell(n) & 3 == code(owner)
            });
            if surrounded && self.board.preview(e, owner.opponent()).captured_stones == 1 {
                out.push((p, e));
            }
        }
        out
    }

    /// The ko with the largest simulated gain for either side (the first in board order among
    /// equals), who wins it, and the board after the winner's resolution (the owner connects, the
    /// taker captures and fills) with its survey.
    fn best_ko_award(&self, survey: &Survey) -> Option<SettledKo> {
        let kos = self.kos();
        if kos.is_empty() {
            return None;
        }
        let before = self.margin(survey);
        let mut best: Option<SettledKo> = None;
        for (stone, ko_point) in kos {
            let owner = self.board.color(stone).expect("a ko stone");
            let taker = owner.opponent();
            let resolve = |winner: Color, stones: &[(Point, Color)]| {
                let position = self.simulated(stones);
                let survey = position.survey();
                let after = position.margin(&survey);
                let gain = if winner == Color::Black { after - before } else { before - after };
                SettledKo { award: KoAward { stone, ko_point, winner, gain }, position, survey }
            };
            let held = resolve(owner, &[(ko_point, owner)]);
            let taken = resolve(taker, &[(ko_point, taker), (stone, taker)]);
            // a tie goes to the owner, whose stone holds the ko
            let settled = if taken.award.gain > held.award.gain { taken } else { held };
            if best.as_ref().is_none_or(|b| settled.award.gain > b.award.gain) {
                best = Some(settled);
            }
        }
        best
    }

    /// This position after stones placed outside the turn order (for the ko award): captures
    /// counted as in play; a stone whose point is taken or that would be suicide is skipped.
    fn simulated(&self, stones: &[(Point, Color)]) -> Borderline {
        let mut position = self.clone();
        for &(p, c) in stones {
            if position.board.cell(p) == EMPTY && !position.board.preview(p, c).suicide {
                position.place_stone(p, c);
            }
        }
        position
    }

    /// Places a stone of `c` on the empty point `p` and books its captures.
    #[inline(always)]
    fn place_stone(&mut self, p: Point, c: Color) {
        let mut on_defence = 0;
        let mut dead: [Point; 4] = [p; 4];
        for (k, n) in self.board.geometry().neighbours(p).into_iter().enumerate() {
            if self.board.cell(n) & 3 == code(c.opponent()) {
                let head = self.board.chain_head(n);
                if self.board.only_liberty_is(head, p) && !dead.contains(&head) {
                    dead[k] = head;
                    on_defence +=
                        self.board.chain_stones(head).filter(|&s| self.zones.in_defence_zone(c, s)).count();
                }
            }
        }
        let placement = self.board.place(p, c);
        self.annihilated[c as usize] += on_defence as u16;
        self.lost[c.opponent() as usize] += placement.captured_stones;
    }

    /// Whether `c` may place on the empty point `p` (forces, deployment, suicide, superko).
    #[inline(always)]
    fn judge_free_point(&self, p: Point, c: Color) -> Result<(), Illegal> {
        if self.stones_left(c) == 0 {
            return Err(Illegal::NoStonesLeft);
        }
        if !self.zones.in_own_zone(c, p)
            && let Some(rule) = self.deployment_rule(c)
        {
            return Err(rule);
        }
        let preview = self.board.preview(p, c);
        if preview.suicide {
            return Err(Illegal::Suicide);
        }
        if self.seen.contains(&self.board.hash_after(p, c, &preview, false)) {
            return Err(Illegal::PositionalSuperko);
        }
        Ok(())
    }

    fn judge_placement(&self, p: Point) -> Result<(), Illegal> {
        if self.is_over() {
            return Err(Illegal::GameOver);
        }
        let geometry = self.board.geometry();
        if !geometry.contains(p) {
            return Err(Illegal::OffBoard);
        }
        if self.board.cell(p) != EMPTY {
            return Err(Illegal::Occupied(geometry.vertex(p)));
        }
        self.judge_free_point(p, self.to_move)
    }

    /// A legal placement of the side to move, if it has one.
    fn any_placement(&self) -> Option<Point> {
        self.board.empties().iter().copied().find(|&p| self.judge_free_point(p, self.to_move).is_ok())
    }

    /// Whether the side to move may pass, and whether the pass would be forced or chosen.
    fn judge_pass(&self) -> Result<PassKind, Illegal> {
        if self.is_over() {
            return Err(Illegal::GameOver);
        }
        let c = self.to_move;
        if self.stones_left(c) == 0 || self.any_placement().is_none() {
            return Ok(PassKind::Forced);
        }
        self.voluntary_pass().map(|()| PassKind::Voluntary)
    }

    /// Whether the side to move may choose to pass (deployment, cap, cooldown).
    fn voluntary_pass(&self) -> Result<(), Illegal> {
        let c = self.to_move as usize;
        if self.deployment_left > 0 {
            return Err(Illegal::PassDuringDeployment);
        }
        if let Some(cap) = self.rules.pass_cap
            && self.passes_used[c] >= cap
        {
            return Err(Illegal::PassCapReached { used: self.passes_used[c], cap });
        }
        if let Some(since) = self.since_pass[c]
            && since < self.rules.cooldown
        {
            return Err(Illegal::PassCooldown { turns: self.rules.cooldown - since });
        }
        Ok(())
    }

    /// Plays a placement already judged legal.
    #[inline(always)]
    fn apply_placement(&mut self, p: Point) {
        let c = self.to_move;
        self.place_stone(p, c);
        self.placed[c as usize] += 1;
        self.deployment_left = self.deployment_left.saturating_sub(1);
        self.since_pass[c as usize] = self.since_pass[c as usize].map(|n| n.saturating_add(1));
        self.passes_in_row = 0;
        self.seen.insert(self.board.hash());
        self.last_placed = Some(p);
        self.to_move = c.opponent();
    }

    fn apply_pass(&mut self, kind: PassKind) {
        let c = self.to_move as usize;
        if kind == PassKind::Voluntary {
            self.passes_used[c] += 1;
            self.since_pass[c] = Some(0);
        }
        self.passes_in_row += 1;
        self.last_placed = None;
        self.to_move = self.to_move.opponent();
    }
}

impl Game for Borderline {
    type Move = Move;
    type Score = BorderlineScore;
    const PASS: Move = Move::Pass;

    fn to_move(&self) -> Color {
        self.to_move
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.is_over() {
            return;
        }
        self.board.placements(out, |p| self.judge_free_point(p, self.to_move).is_ok());
        if out.is_empty() || self.voluntary_pass().is_ok() {
            out.push(Move::Pass);
        }
    }

    fn check(&self, mv: Move) -> Result<(), Illegal> {
        match mv {
            Move::Pass => self.judge_pass().map(|_| ()),
            Move::Place(p) => self.judge_placement(p),
        }
    }

    fn play(&mut self, mv: Move) -> Result<(), Illegal> {
        match mv {
            Move::Pass => {
                let kind = self.judge_pass()?;
                self.apply_pass(kind);
            }
            Move::Place(p) => {
                self.judge_placement(p)?;
                self.apply_placement(p);
            }
        }
        Ok(())
    }

    fn is_over(&self) -> bool {
        self.passes_in_row >= 2
            || (self.stones_left(Color::Black) == 0 && self.stones_left(Color::White) == 0)
    }

    fn outcome(&self) -> Option<GameResult> {
        self.is_over().then(|| self.final_score().result())
    }

    fn score(&self) -> BorderlineScore {
        self.final_score()
    }

    fn hash(&self) -> u64 {
        let side = if self.to_move == Color::White { WHITE_TO_MOVE } else { 0 };
        let code = |n: Option<u8>| n.map_or(0xFF, |n| n.min(0xFE)) as u64;
        let turns = self.deployment_left as u64
            | (self.passes_used[0] as u64) << 8
            | (self.passes_used[1] as u64) << 16
            | code(self.since_pass[0]) << 24
            | code(self.since_pass[1]) << 32
            | (self.passes_in_row as u64) << 40;
        let tallies = self.placed[0] as u64
            | (self.placed[1] as u64) << 16
            | (self.annihilated[0] as u64) << 32
            | (self.annihilated[1] as u64) << 48;
        self.board.hash()
            ^ side
            ^ mix(turns)
            ^ mix(tallies).rotate_left(17)
            ^ mix(self.lost[0] as u64 | (self.lost[1] as u64) << 16).rotate_left(31)
    }

    fn playout_cap(&self) -> usize {
        crate::playout::MAX_MOVES_PER_POINT * self.board.geometry().area()
    }

    /// The live score is the game: every point of margin is worth having. Twenty points is a
    /// few stones and enclosures, where the margin's value is about three quarters spent.
    fn score_scale(&self) -> Option<f64> {
        Some(20.0)
    }

    fn stones(&self) -> Option<Stones<'_>> {
        Some(Stones { board: &self.board, last: self.last_placed })
    }

    /// Answers the last placement first, as Go's playouts do ([`Board::atari_answers`]: capture
    /// its chain in atari, else save a chain it put in atari): a capture here swings the score by
    /// the annihilation and loss terms at once. Otherwise a light move.
    #[inline(always)]
    fn play_playout_move<R: rand::Rng + ?Sized>(&mut self, rng: &mut R) -> Move {
        if let Some(last) = self.last_placed.filter(|_| !self.is_over()) {
            let mover = self.to_move;
            let answer =
                self.board.atari_answers(last, mover).find(|&p| self.judge_free_point(p, mover).is_ok());
            if let Some(p) = answer {
                self.apply_placement(p);
                return Move::Place(p);
            }
        }
        self.play_light_move(rng)
    }

    /// Draws empty points uniformly without replacement until one is a legal placement that does
    /// not fill the mover's own eye; without one, passes if it may, else fills an eye.
    #[inline(always)]
    fn play_light_move<R: rand::Rng + ?Sized>(&mut self, rng: &mut R) -> Move {
        if self.is_over() {
            return Move::Pass;
        }
        let c = self.to_move;
        if self.stones_left(c) > 0 {
            let mut candidates = self.board.empties().len();
            while candidates > 0 {
                let i = crate::playout::below(rng, candidates);
                let p = self.board.empties()[i];
                if !self.board.is_eye(p, c) && self.judge_free_point(p, c).is_ok() {
                    self.apply_placement(p);
                    return Move::Place(p);
                }
                candidates -= 1;
                self.board.swap_empties(i, candidates);
            }
        }
        match (self.voluntary_pass(), self.any_placement()) {
            (Err(_), Some(p)) => {
                self.apply_placement(p);
                Move::Place(p)
            }
            (_, placement) => {
                self.apply_pass(if placement.is_some() { PassKind::Voluntary } else { PassKind::Forced });
                Move::Pass
            }
        }
    }
}
