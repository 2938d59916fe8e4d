//! Depth-first proof-number search (df-pn, Nagai 2002) of a life-and-death problem, with a
//! transposition table keyed by the position's hash (board, side to move, the rules' memory of
//! the last move) and, after a pass, the position the pass was played from.
//!
//! The side to move at the start is the prover: its nodes are OR nodes (one move that reaches
//! the goal suffices), the opponent's AND nodes. A position decided by the problem's definitions
//! is a proof or a disproof; so is a second pass in a row that leaves the position as it was
//! before the first (the defender's), and a position already on the line searched (a cycle: the
//! prover's failure, as a ko is no solution). Results
//! that rest on such a cycle are stored like the others, so in rare cases a result can depend on
//! the path that found it (the graph-history interaction).

use std::collections::HashMap;
use variago_rules::{AnyGame, Game, Move};

use super::{Decided, Goal, Problem};

/// The outcome of a search for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The side to move reaches its goal whatever the opponent does.
    Success,
    /// The opponent stops it.
    Failure,
    /// Not decided within the node limit.
    Unknown,
}

impl Verdict {
    /// `success`, `failure` or `unknown`, as the output writes it.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Success => "success",
            Verdict::Failure => "failure",
            Verdict::Unknown => "unknown",
        }
    }
}

/// What the search found about a problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The goal searched.
    pub goal: Goal,
    /// Whether the side to move reaches it.
    pub verdict: Verdict,
    /// Every first move that reaches it (when the verdict is a success), in the region's order,
    /// the pass last.
    pub winning_moves: Vec<Move>,
    /// A main line: the winner's quickest way, the loser's longest resistance, to a decided
    /// position.
    pub line: Vec<Move>,
    /// Positions expanded.
    pub nodes: u64,
}

/// Proof and disproof numbers are capped here: "infinite".
const INFINITE: u32 = 1 << 30;

/// What the table keeps of a position.
#[derive(Clone, Copy, Debug)]
struct Entry {
    proof: u32,
    disproof: u32,
    /// When it was proved or disproved (0 while open): a decided position only rests on
    /// positions decided before it, which keeps the main line from going round.
    order: u32,
}

/// A position reached by one move, with what is known of it.
struct Child {
    mv: Move,
    game: AnyGame,
    key: u64,
    decided: Option<bool>,
    /// The hash of `game`'s parent if `mv` is a pass.
    before_pass: Option<u64>,
}

/// The transposition key: the position's hash and, when the last move was a pass, the hash of
/// the position it was played from (a second pass back to that position ends the fight).
fn key(game: &AnyGame, before_pass: Option<u64>) -> u64 {
    game.hash() ^ before_pass.map_or(0, |h| h.rotate_left(23) ^ 0x9e37_79b9_7f4a_7c15)
}

struct Search<'a> {
    problem: &'a Problem,
    table: HashMap<u64, Entry>,
    line: Vec<u64>,
    nodes: u64,
    max_nodes: u64,
    decided_count: u32,
    moves: Vec<Move>,
}

impl Search<'_> {
    /// Whether a decided position is the prover's win.
    fn prover_wins(&self, decided: Decided) -> bool {
        (decided == Decided::Defender) == (self.problem.goal == Goal::Live)
    }

    /// Whether the prover has won (`Some(true)`), lost, or neither yet, by the definitions.
    fn judge(&self, game: &AnyGame) -> Option<bool> {
        self.problem.decided(game).map(|d| self.prover_wins(d))
    }

    /// The positions one move from `game`, which a pass reached from the position hashed
    /// `before_pass` if there is one. A second pass in a row that brings back that position
    /// decides for the defender (the fight has stopped with the target standing); one that lifts
    /// a restriction of the rules' memory (Stoical's wait, a ko ban) lets the fight go on.
    fn children(&mut self, game: &AnyGame, before_pass: Option<u64>) -> Vec<Child> {
        let mut moves = std::mem::take(&mut self.moves);
        self.problem.moves(game, &mut moves);
        let children = moves
            .iter()
            .map(|&mv| {
                let child = self.problem.play(game, mv);
                let stopped = mv == Move::Pass && before_pass == Some(child.hash());
                let decided =
                    if stopped { Some(self.prover_wins(Decided::Defender)) } else { self.judge(&child) };
                let child_before_pass = (mv == Move::Pass).then(|| game.hash());
                Child {
                    mv,
                    key: key(&child, child_before_pass),
                    game: child,
                    decided,
                    before_pass: child_before_pass,
                }
            })
            .collect();
        self.moves = moves;
        children
    }

    /// Proof and disproof numbers of a child, and its order once decided.
    fn numbers(&self, child: &Child) -> (u32, u32, u32) {
        match child.decided {
            Some(true) => (0, INFINITE, 0),
            Some(false) => (INFINITE, 0, 0),
            // a cycle: the prover has not reached its goal by force
            None if self.line.contains(&child.key) => (INFINITE, 0, 0),
            None => self.table.get(&child.key).map_or((1, 1, 0), |e| (e.proof, e.disproof, e.order)),
        }
    }

    fn store(&mut self, key: u64, proof: u32, disproof: u32) {
        let decided = proof == 0 || disproof == 0;
        let order = match self.table.get(&key) {
            Some(e) if e.order != 0 => e.order,
            _ if decided => {
                self.decided_count += 1;
                self.decided_count
            }
            _ => 0,
        };
        self.table.insert(key, Entry { proof, disproof, order });
    }

    /// df-pn's multiple iterative deepening at a position not decided yet: search below it
    /// until its proof number reaches `proof_limit` or its disproof number `disproof_limit`.
    fn search(
        &mut self,
        game: &AnyGame,
        key: u64,
        before_pass: Option<u64>,
        proof_limit: u32,
        disproof_limit: u32,
    ) -> (u32, u32) {
        self.nodes += 1;
        let prover = game.to_move() == self.problem.start.to_move();
        let children = self.children(game, before_pass);
        self.line.push(key);
        let (proof, disproof) = loop {
            let numbers: Vec<(u32, u32)> =
                children.iter().map(|c| self.numbers(c)).map(|(p, d, _)| (p, d)).collect();
            // the side to move needs one good child, the other side all of them
            let (mine, theirs): (Vec<u32>, Vec<u32>) =
                numbers.iter().map(|&(p, d)| if prover { (p, d) } else { (d, p) }).unzip();
            let best = (0..children.len()).min_by_key(|&i| mine[i]).expect("a pass is always a move");
            let least = mine[best];
            let second =
                (0..children.len()).filter(|&i| i != best).map(|i| mine[i]).min().unwrap_or(INFINITE);
            let total = theirs.iter().fold(0u32, |sum, &n| sum.saturating_add(n).min(INFINITE));
            let (proof, disproof) = if prover { (least, total) } else { (total, least) };
            if proof >= proof_limit || disproof >= disproof_limit || self.nodes >= self.max_nodes {
                break (proof, disproof);
            }
            // the child's limits: its own number up to the second best's, the other number
            // what the parent's limit leaves after the other children
            let (my_limit, their_limit) =
                if prover { (proof_limit, disproof_limit) } else { (disproof_limit, proof_limit) };
            let child_mine = my_limit.min(second.saturating_add(1));
            let child_theirs = their_limit.saturating_sub(total - theirs[best]).clamp(1, INFINITE);
            let (child_proof, child_disproof) =
                if prover { (child_mine, child_theirs) } else { (child_theirs, child_mine) };
            let child = &children[best];
            let (p, d) = self.search(&child.game, child.key, child.before_pass, child_proof, child_disproof);
            self.store(child.key, p, d);
        };
        self.line.pop();
        (proof, disproof)
    }

    /// The root's verdict from its numbers.
    fn verdict(proof: u32, disproof: u32) -> Verdict {
        match (proof, disproof) {
            (0, _) => Verdict::Success,
            (_, 0) => Verdict::Failure,
            _ => Verdict::Unknown,
        }
    }

    /// The main line from the start: at each position the winner plays its child decided
    /// earliest, the loser its child decided last.
    fn main_line(&mut self, success: bool) -> Vec<Move> {
        let mut game = self.problem.start.clone();
        let mut seen = vec![key(&game, None)];
        let mut line: Vec<Move> = Vec::new();
        let mut before_pass = None;
        while self.judge(&game).is_none() && line.len() < 200 {
            let winner_to_move = (game.to_move() == self.problem.start.to_move()) == success;
            let won = |(p, d, _): (u32, u32, u32)| if success { p == 0 } else { d == 0 };
            let children = self.children(&game, before_pass);
            let candidates = children.iter().map(|c| (c, self.numbers(c))).filter(|&(_, n)| won(n));
            let chosen = if winner_to_move {
                candidates.min_by_key(|&(_, (_, _, order))| order)
            } else {
                candidates.max_by_key(|&(_, (_, _, order))| order)
            };
            let Some((child, _)) = chosen else { break };
            if seen.contains(&child.key) {
                break;
            }
            seen.push(child.key);
            line.push(child.mv);
            if child.decided.is_some() {
                break;
            }
            before_pass = child.before_pass;
            game = child.game.clone();
        }
        line
    }
}

/// Searches a problem with at most `max_nodes` positions expanded: the verdict for the side to
/// move, every winning first move, a main line.
pub fn solve_problem(problem: &Problem, max_nodes: u64) -> Answer {
    let mut search = Search {
        problem,
        table: HashMap::new(),
        line: Vec::new(),
        nodes: 0,
        max_nodes,
        decided_count: 0,
        moves: Vec::new(),
    };
    let start = &problem.start;
    let root = key(start, None);
    let verdict = match search.judge(start) {
        Some(won) => {
            if won {
                Verdict::Success
            } else {
                Verdict::Failure
            }
        }
        None => {
            let (p, d) = search.search(start, root, None, INFINITE, INFINITE);
            search.store(root, p, d);
            Search::verdict(p, d)
        }
    };
    let mut winning_moves = Vec::new();
    if verdict == Verdict::Success && search.judge(start).is_none() {
        // each first move proved or disproved in turn, with what is left of the budget
        search.line.push(root);
        for child in search.children(start, None) {
            let (mut p, mut d, _) = search.numbers(&child);
            if p != 0 && d != 0 && search.nodes < max_nodes {
                (p, d) = search.search(&child.game, child.key, child.before_pass, INFINITE, INFINITE);
                search.store(child.key, p, d);
            }
            if p == 0 {
                winning_moves.push(child.mv);
            }
        }
        search.line.pop();
    }
    let line = match verdict {
        Verdict::Unknown => Vec::new(),
        v => search.main_line(v == Verdict::Success),
    };
    Answer { goal: problem.goal, verdict, winning_moves, line, nodes: search.nodes }
}
