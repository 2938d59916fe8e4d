//! The engine's judgement of a position from the search's ownership (the share of playouts whose
//! final position gave each point to Black or to White): which stones are dead, alive or in seki,
//! whose each empty point is, and whether the position is settled enough to pass. It answers
//! `final_status_list`, `final_status` and `estimate_score`, and keeps the AI from passing while
//! counting the board as it stands would misjudge it.

use std::collections::HashMap;

use variago_rules::{Board, Color, Point};

/// A point's status, named as GNU Go's `final_status` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// A stone that stays on the board.
    Alive,
    /// A stone the opponent would capture: its points end as the opponent's in most playouts.
    Dead,
    /// A live stone sharing a liberty that neither side fills (the liberty ends neutral).
    Seki,
    /// An empty point that ends as this colour's in most playouts.
    Territory(Color),
    /// An empty point that is no one's.
    Dame,
}

impl Status {
    /// Every status, in GNU Go's order.
    pub const ALL: [Status; 6] = [
        Status::Alive,
        Status::Dead,
        Status::Seki,
        Status::Territory(Color::White),
        Status::Territory(Color::Black),
        Status::Dame,
    ];

    /// Whether it is an empty point's status rather than a stone's.
    pub fn of_empty_point(self) -> bool {
        matches!(self, Status::Territory(_) | Status::Dame)
    }

    /// GNU Go's word for it.
    pub fn name(self) -> &'static str {
        match self {
            Status::Alive => "alive",
            Status::Dead => "dead",
            Status::Seki => "seki",
            Status::Territory(Color::Black) => "black_territory",
            Status::Territory(Color::White) => "white_territory",
            Status::Dame => "dame",
        }
    }
}

/// Share of the playouts that decides a chain's status: a chain whose points end as the
/// opponent's in at least half of them is dead; a live chain with a liberty that ends neutral in
/// at least half of them is in seki.
pub const MAJORITY: f64 = 0.5;

/// Share one outcome (Black, White, neither) must reach for a point to count as settled, and
/// an empty point's owner for it to be that side's territory (else it is dame). Light playouts
/// are noisy: a safe territory's points end as its owner's in 70-95% of them, while a point both
/// sides will fill ends either way about evenly, so the line lies between the two.
pub const SETTLED: f64 = 0.6;

/// The statuses of a position's points, judged from an ownership estimate.
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement {
    /// Every point of the board with its status, in the board's order (rows from the top).
    pub points: Vec<(Point, Status)>,
    /// The points no outcome reaches [`SETTLED`] on.
    pub unsettled: Vec<Point>,
}

impl Judgement {
    /// Judges `board` from `ownership` (per point index, Black's and White's share of the
    /// playouts; see `variago_search::Analysis::ownership`). Stones are judged by chain, from the
    /// shares averaged over the chain's stones.
    pub fn new(board: &Board, ownership: &[[f64; 2]]) -> Judgement {
        let geometry = board.geometry();
        let share = |p: Point| ownership.get(p.index()).copied().unwrap_or([0.0, 0.0]);
        let neutral = |p: Point| {
            let [b, w] = share(p);
            1.0 - b - w
        };
        let mut chain_status: HashMap<Point, Status> = HashMap::new();
        let mut points = Vec::with_capacity(geometry.area());
        let mut unsettled = Vec::new();
        for p in geometry.points() {
            let [b, w] = share(p);
            if b.max(w).max(1.0 - b - w) < SETTLED {
                unsettled.push(p);
            }
            let status = match board.color(p) {
                None if b >= SETTLED => Status::Territory(Color::Black),
                None if w >= SETTLED => Status::Territory(Color::White),
                None => Status::Dame,
                Some(color) => match chain_status.get(&p) {
                    Some(&status) => status,
                    None => {
                        let chain: Vec<Point> = board.chain(p).collect();
                        let against = chain.iter().map(|&q| share(q)[color.opponent() as usize]).sum::<f64>()
                            / chain.len() as f64;
                        let status = if against >= MAJORITY {
                            Status::Dead
                        } else if liberties(board, &chain).into_iter().any(|l| neutral(l) >= MAJORITY) {
                            Status::Seki
                        } else {
                            Status::Alive
                        };
                        chain_status.extend(chain.into_iter().map(|q| (q, status)));
                        status
                    }
                },
            };
            points.push((p, status));
        }
        Judgement { points, unsettled }
    }

    /// The stones (or empty points) with this status, in the board's order.
    pub fn with(&self, status: Status) -> impl Iterator<Item = Point> + '_ {
        self.points.iter().filter(move |(_, s)| *s == status).map(|&(p, _)| p)
    }

    /// The status of one point.
    pub fn status(&self, p: Point) -> Option<Status> {
        self.points.iter().find(|&&(q, _)| q == p).map(|&(_, s)| s)
    }

    /// The empty points where a move by `mover` helps settle the position before passing: the
    /// unsettled ones, and the liberties of the opponent's dead stones (which counting the board
    /// as it stands would count for the opponent).
    pub fn settling_points(&self, board: &Board, mover: Color) -> Vec<Point> {
        let dead: Vec<Point> =
            self.with(Status::Dead).filter(|&p| board.color(p) == Some(mover.opponent())).collect();
        let mut points: Vec<Point> = liberties(board, &dead);
        for &p in &self.unsettled {
            if board.piece(p).is_none() && !points.contains(&p) {
                points.push(p);
            }
        }
        points
    }

    /// Black's area minus White's by these statuses (komi not included): alive and seki stones
    /// and territory count for their side, dead stones for the opponent, dame for no one. It is
    /// the area count after the stones listed dead are taken off.
    pub fn margin(&self, board: &Board) -> f64 {
        self.points.iter().map(|&(p, status)| side_value(owner(board, p, status))).sum()
    }

    /// [`Judgement::margin`] if every unsettled point went to White, and if every one went to
    /// Black.
    pub fn margin_bounds(&self, board: &Board) -> (f64, f64) {
        let settled: f64 = self
            .points
            .iter()
            .filter(|(p, _)| !self.unsettled.contains(p))
            .map(|&(p, status)| side_value(owner(board, p, status)))
            .sum();
        let open = self.unsettled.len() as f64;
        (settled - open, settled + open)
    }
}

/// Who a point counts for, given its status.
fn owner(board: &Board, p: Point, status: Status) -> Option<Color> {
    match status {
        Status::Alive | Status::Seki => board.color(p),
        Status::Dead => board.color(p).map(Color::opponent),
        Status::Territory(c) => Some(c),
        Status::Dame => None,
    }
}

/// +1 for a Black point, -1 for a White one.
fn side_value(owner: Option<Color>) -> f64 {
    match owner {
        Some(Color::Black) => 1.0,
        Some(Color::White) => -1.0,
        None => 0.0,
    }
}

/// The empty points next to a chain, each once.
fn liberties(board: &Board, chain: &[Point]) -> Vec<Point> {
    let geometry = board.geometry();
    let mut liberties = Vec::new();
    for &p in chain {
        let (x, y) = geometry.coords(p);
        let around = [
            x.checked_sub(1).and_then(|x| geometry.point(x, y)),
            geometry.point(x + 1, y),
            y.checked_sub(1).and_then(|y| geometry.point(x, y)),
            geometry.point(x, y + 1),
        ];
        for n in around.into_iter().flatten() {
            if board.piece(n).is_none() && !liberties.contains(&n) {
                liberties.push(n);
            }
        }
    }
    liberties
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_follow_the_documented_shares() {
        // columns A-D, rows 4 (top) to 1
        let board = Board::from_diagram(&["XO..", "XO..", ".O..", "XO.."]).unwrap();
        let g = board.geometry();
        let at = |v: &str| g.parse_vertex(v).unwrap();
        let mut ownership = vec![[0.0, 0.0]; 64];
        let mut set = |v: &str, shares: [f64; 2]| ownership[at(v).index()] = shares;
        for row in 1..=4 {
            set(&format!("B{row}"), [0.1, 0.9]);
            set(&format!("D{row}"), [0.0, 0.95]);
        }
        set("A4", [0.2, 0.7]); // the opponent's in most playouts: dead, with A3
        set("A3", [0.3, 0.6]);
        set("A2", [0.3, 0.1]); // neutral in 60% of them: a seki's shared liberty
        set("A1", [0.9, 0.05]);
        set("C4", [0.65, 0.3]); // Black's in 65%: territory
        set("C3", [0.55, 0.4]); // no outcome reaches 60%: dame, and unsettled
        set("C2", [0.1, 0.8]);
        set("C1", [0.1, 0.8]);
        let judgement = Judgement::new(&board, &ownership);
        assert_eq!(judgement.with(Status::Dead).collect::<Vec<_>>(), [at("A4"), at("A3")]);
        // the B column shares the neutral A2 with A1: both sides live in seki
        let seki = ["B4", "B3", "B2", "A1", "B1"].map(at);
        assert_eq!(judgement.with(Status::Seki).collect::<Vec<_>>(), seki);
        assert_eq!(judgement.with(Status::Alive).count(), 0);
        assert_eq!(judgement.status(at("A2")), Some(Status::Dame));
        assert_eq!(judgement.status(at("C4")), Some(Status::Territory(Color::Black)));
        assert_eq!(judgement.status(at("C3")), Some(Status::Dame));
        assert_eq!(judgement.status(at("D1")), Some(Status::Territory(Color::White)));
        assert_eq!(judgement.unsettled, [at("C3")]);
        // Black: A1, C4; White: A4 and A3 (dead Black stones), the B column, C2, C1, the D column
        assert_eq!(judgement.margin(&board), 2.0 - 12.0);
        assert_eq!(judgement.margin_bounds(&board), (-11.0, -9.0));
        // White settles by A3's liberty A2 and the open C3; Black has no dead White stones
        assert_eq!(judgement.settling_points(&board, Color::White), [at("A2"), at("C3")]);
        assert_eq!(judgement.settling_points(&board, Color::Black), [at("C3")]);
    }
}
