//! Depth-first proof-number search (df-pn, Nagai 2002) of a life-and-death problem, with a
//! transposition table keyed by the position's hash (board, side to move, the rules' memory of
//! the last move) and, after a pass, the position the pass was played from.
//!
//! The side to move at the start is the prover: its nodes are OR nodes (one move that reaches
//! the goal suffices), the opponent's AND nodes. A position decided by the problem's definitions
//! is a proof or a disproof; so is a second pass in a row that leaves the position as it was
//! before the first (the defender's), and a position already on the line searched (a cycle: the
//! prover's failure, as a ko fought for ever is no solution). The prover's opponent is given a
//! ko threat at every turn where the rules restrict it ([`Problem::threat`]), so that the goal is
//! reached whatever threats it has; where that fails, the search is made again with the threats
//! the prover's, and a success there is a success by ko (the prover wins if it wins the kos). A
//! failure that rests on a cycle is stored with the position the cycle goes back to, and used
//! only while that position is on the line (the graph-history interaction). A superko ban is
//! met the same way: a prover's move that a superko bans is a cycle back to the position it
//! would bring back, and a proof that rests on an opponent's move banned holds only while that
//! position is on the line with no pass since (a pass starts the history again).

use std::cell::Cell;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::rc::Rc;
use variago_rules::stone_game::ZobristHasher;
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
    /// After a success, the first moves the budget left undecided (neither proved to reach the
    /// goal nor to miss it): `winning_moves` is complete when this is empty.
    pub undecided_moves: Vec<Move>,
    /// A main line: the winner's quickest way, the loser's longest resistance, to a decided
    /// position.
    pub line: Vec<Move>,
    /// Positions expanded.
    pub nodes: u64,
    /// Whether the success needs a ko won: the goal is out of reach when the opponent has ko
    /// threats, in reach when the side to move has them (and the opponent none).
    pub ko: bool,
    /// For a success by ko, how the opponent refutes the goal with its ko threats (a threat
    /// answered is two passes).
    pub refutation: Vec<Move>,
    /// Whether the main line holds a snapback ([`Problem::snapback_in`]).
    pub snapback: bool,
}

/// Proof and disproof numbers are capped here: "infinite".
const INFINITE: u32 = 1 << 30;

/// The sum of two proof or disproof numbers: infinite only if one of them is (a decided child),
/// else at most one below. Numbers summed over a graph with transpositions and cycles count
/// some positions many times over and can grow past any bound; a sum that reached "infinite"
/// passed for a decided position (a disproof number of infinity with a proof number of one),
/// and the search stopped with neither verdict.
fn add_numbers(a: u32, b: u32) -> u32 {
    if a >= INFINITE || b >= INFINITE { INFINITE } else { a.saturating_add(b).min(INFINITE - 1) }
}

/// What the table keeps of a position.
#[derive(Clone, Copy, Debug)]
struct Entry {
    proof: u32,
    disproof: u32,
    /// When it was proved or disproved (0 while open): a decided position only rests on
    /// positions decided before it, which keeps the main line from going round.
    order: u32,
    /// For a result that rests on a cycle or a superko ban, the key of the position of the line
    /// it rests on ([`Rest`]), and whether by a ban.
    rests_on: Option<(u64, bool)>,
}

/// What a result that holds on some lines only rests on: the position of the line that a cycle
/// goes back to (the result holds while that position is on the line), or that a superko ban
/// would bring back (the ban holds while that position is on the line since the last pass or
/// threat, which start the history again).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rest {
    /// The position's index in the line.
    at: usize,
    /// Whether it is a superko ban's.
    ban: bool,
}

impl Rest {
    /// Of the results `rests` that a result needs all of, the one it is kept with: the
    /// shallowest (a ban before a cycle at the same position, as it holds on fewer lines).
    fn all(rests: impl Iterator<Item = Rest>) -> Option<Rest> {
        rests.min_by_key(|r| (r.at, !r.ban))
    }

    /// Of results (`known`) any one of which a result needs, the one it is kept with: none
    /// if one rests on nothing, else the deepest.
    fn any<'k>(known: impl Iterator<Item = &'k Known> + Clone) -> Option<Rest> {
        if known.clone().any(|k| k.rests_on.is_none()) {
            return None;
        }
        known.filter_map(|k| k.rests_on).max_by_key(|r| (r.at, r.ban))
    }
}

/// What is known of a child where the search stands.
#[derive(Clone, Copy, Debug)]
struct Known {
    proof: u32,
    disproof: u32,
    order: u32,
    /// For a result resting on a cycle or a superko ban, the position of the line it rests on.
    rests_on: Option<Rest>,
}

impl Known {
    const OPEN: Known = Known { proof: 1, disproof: 1, order: 0, rests_on: None };
    const PROVED: Known = Known { proof: 0, disproof: INFINITE, order: 0, rests_on: None };
    const DISPROVED: Known = Known { proof: INFINITE, disproof: 0, order: 0, rests_on: None };
}

/// A move from a position, and once the search has first gone to the position it reaches, what
/// is known of that position. Children are made when the search first selects them, not when
/// their parent is expanded: a region of forty empty points gives forty children, and making
/// each (a copy of the position, the move, Benson's test) for every position expanded was most
/// of the search's time, while most of them are never selected. Until it is made a child counts
/// as open (proof and disproof numbers 1).
#[derive(Clone, Copy)]
struct Child {
    mv: Move,
    /// Whether this is a ko threat, answered: two passes in the line.
    threat: bool,
    made: Option<Made>,
}

/// What the search knows of a child's position from making it once.
#[derive(Clone, Copy)]
struct Made {
    /// The position's transposition key.
    key: u64,
    /// Whether the position is the prover's win or loss by the definitions, if it is decided.
    decided: Option<bool>,
    /// The hash of the parent if the move is a pass.
    before_pass: Option<u64>,
    /// Whether the move starts the superko history again (a pass or a threat): no ban below
    /// it rests on a position above.
    restarts: bool,
}

impl Child {
    /// What is known of a child already made.
    fn made(&self) -> Made {
        self.made.expect("the child has been made")
    }
}

/// The children of a position: each made in place when it is first selected.
type Children = Rc<[Cell<Child>]>;

/// The superko keys of the positions that the moves a superko bans would bring back
/// ([`Problem::moves`]), if there are any.
type Bans = Option<Rc<[u64]>>;

/// A position's children as [`Search::expanded`] keeps them.
struct Expanded {
    children: Children,
    /// The moves banned by a superko under the history the children were found legal under:
    /// the same moves under another history (the same legal moves) bring back the same
    /// positions.
    bans: Bans,
    /// The history key ([`AnyGame::history_key`]) they were last found legal under: the same
    /// position with the same history has the same moves, which need not be judged again.
    legal_under: Option<u64>,
}

/// The transposition key: the position's hash and, when the last move was a pass, the hash of
/// the position it was played from (a second pass back to that position ends the fight).
fn key(game: &AnyGame, before_pass: Option<u64>) -> u64 {
    game.hash() ^ before_pass.map_or(0, |h| h.rotate_left(23) ^ 0x9e37_79b9_7f4a_7c15)
}

/// A map keyed by Zobrist hashes, which are random already: taken as they are, not hashed again.
type ByHash<V> = HashMap<u64, V, BuildHasherDefault<ZobristHasher>>;

/// The positions from the start to the one searched: their keys, which a cycle or a result
/// resting on one is looked for among, and what a superko ban is looked for among.
#[derive(Default)]
struct Line {
    keys: Vec<u64>,
    /// Each position's key in the superko history ([`AnyGame::superko_key`]).
    superko: Vec<Option<u64>>,
    /// For each position, where the superko history it stands under starts: at the start, or
    /// at the last position reached by a pass or a threat.
    history_from: Vec<usize>,
}

impl Line {
    /// Adds `game` (its key `key`) to the line; `restarts` if the move to it starts the superko
    /// history again.
    fn push(&mut self, key: u64, game: &AnyGame, restarts: bool) {
        let from = match self.history_from.last() {
            Some(&from) if !restarts => from,
            _ => self.keys.len(),
        };
        self.keys.push(key);
        self.superko.push(game.superko_key());
        self.history_from.push(from);
    }

    fn pop(&mut self) {
        self.keys.pop();
        self.superko.pop();
        self.history_from.pop();
    }

    fn clear(&mut self) {
        self.keys.clear();
        self.superko.clear();
        self.history_from.clear();
    }

    fn len(&self) -> usize {
        self.keys.len()
    }

    fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Where a position (its key) stands on the line.
    fn position(&self, key: u64) -> Option<usize> {
        self.keys.iter().position(|&k| k == key)
    }

    /// Where a position (its key) stands in the superko history of a child of the line's last
    /// position, if the move to that child keeps the history.
    fn position_in_history(&self, key: u64) -> Option<usize> {
        let from = *self.history_from.last()?;
        self.keys[from..].iter().position(|&k| k == key).map(|i| from + i)
    }

    /// The shallowest position of the last one's superko history among those a ban brings
    /// back ([`Bans`]).
    fn banned(&self, bans: &Bans) -> Option<usize> {
        let from = *self.history_from.last()?;
        let bans = bans.as_deref()?;
        self.superko[from..].iter().position(|k| k.is_some_and(|k| bans.contains(&k))).map(|i| from + i)
    }
}

struct Search<'a> {
    problem: &'a Problem,
    table: ByHash<Entry>,
    line: Line,
    nodes: u64,
    max_nodes: u64,
    decided_count: u32,
    moves: Vec<Move>,
    bans: Vec<u64>,
    /// Which side has ko threats ([`Problem::threat`]).
    threats: ThreatHolder,
    /// Whether the target lives unconditionally, by the board's hash, for the boards Benson's
    /// test was run on.
    judged: ByHash<bool>,
    /// The children of each position expanded, by its key, with what was learnt of those made:
    /// df-pn comes back to a position many times, and making its children's positions again
    /// each time was most of the search's work.
    expanded: ByHash<Expanded>,
    /// Positions the search is done with, whose room the next positions made reuse.
    spare: Vec<AnyGame>,
    /// Lists of what is known of a position's children, likewise.
    spare_known: Vec<Vec<Known>>,
}

/// Positions a simulation ([`Search::simulate`]) may go through, its own searches' included,
/// before it gives up: a win that does not carry over is found out early, and the search takes
/// the answer on (on 38 slow elementary problems, 10 positions left more undecided, 100 took
/// longer).
const SIMULATION_BUDGET: u32 = 30;

/// Positions whose children [`Search::expanded`] keeps before it is emptied, which bounds its
/// memory (about half a kilobyte a position).
const EXPANDED_KEPT: usize = 400_000;

impl Search<'_> {
    /// Starts the search by ko from what the unconditional search (`done`) proved: a prover's
    /// win against an opponent with ko threats is a win when the threats are the prover's
    /// instead (the opponent has fewer moves, the prover more), and the boards judged are the
    /// same. A ko problem's second search otherwise proved again every line that needs no ko.
    fn take_proofs(&mut self, done: &Search) {
        self.table.extend(done.table.iter().filter(|(_, e)| e.proof == 0).map(|(&k, &e)| (k, e)));
        self.decided_count = done.decided_count;
        self.judged.clone_from(&done.judged);
    }

    /// Whether a decided position is the prover's win.
    fn prover_wins(&self, decided: Decided) -> bool {
        (decided == Decided::Defender) == (self.problem.goal == Goal::Live)
    }

    /// Whether the prover has won (`Some(true)`), lost, or neither yet, by the definitions
    /// ([`Problem::decided`]). Life depends on the board alone and the search meets each board
    /// many times: each that passes the cheap test is judged by Benson's once.
    fn judge(&mut self, game: &AnyGame) -> Option<bool> {
        if self.problem.target_captured(game) {
            return Some(self.prover_wins(Decided::Attacker));
        }
        let board = game.board();
        // the cheap test first: most boards fail it, and looking them up in a table grown to
        // every board judged cost more than the test
        if !self.problem.may_be_alive(board) {
            return None;
        }
        let alive = match self.judged.get(&board.hash()) {
            Some(&alive) => alive,
            None => {
                let alive = self.problem.target_alive(board);
                self.judged.insert(board.hash(), alive);
                alive
            }
        };
        alive.then(|| self.prover_wins(Decided::Defender))
    }

    /// [`Self::judge`], and then for a position below the start, the death of a target that can
    /// never make two eyes ([`Problem::target_cannot_make_two_eyes`]), but right after the
    /// attacker's pass (`after_pass`), when the defender's pass back ends the fight in its
    /// favour, and where the defender has the ko threats: a ko inside the area, fought for
    /// ever, is the attacker's failure (a cycle), and the rule's way to capture does not
    /// count with it (three lone stones of the defender's round a bent three: after the vital
    /// point each of the attacker's captures is a ko). The start is judged without it: its
    /// first moves are the answer, and a target dead already would have none.
    fn judge_below_start(&mut self, game: &AnyGame, after_pass: bool) -> Option<bool> {
        let judged = self.judge(game);
        let defender_has_threats =
            (self.threats == ThreatHolder::Prover) == (self.problem.goal == Goal::Live);
        if judged.is_some()
            || (after_pass && game.to_move() == self.problem.defender())
            || defender_has_threats
        {
            return judged;
        }
        self.problem.target_cannot_make_two_eyes(game.board()).then(|| self.prover_wins(Decided::Attacker))
    }

    /// The moves from `game` (its key `at`), as children not made yet but a threat's
    /// ([`Child`]), and the moves a superko bans; kept, so that a position the search comes
    /// back to keeps what it learnt of its children.
    fn children(&mut self, game: &AnyGame, at: u64) -> (Children, Bans) {
        // the same position by another path may have other legal moves (a superko), so the
        // kept children serve only for the same moves: taken as they are under the history
        // they were checked under, compared with the legal moves under another
        let history = game.history_key();
        // one probe of the map for a position kept, and one more to keep a new one
        if let Some(kept) = self.expanded.get_mut(&at) {
            if history.is_some() && kept.legal_under == history {
                return (Rc::clone(&kept.children), kept.bans.clone());
            }
            self.problem.moves(game, &mut self.moves, &mut self.bans);
            let moves = kept.children.iter().map(Cell::get).filter(|c| !c.threat).map(|c| c.mv);
            if moves.eq(self.moves.iter().copied()) {
                kept.legal_under = history;
                return (Rc::clone(&kept.children), kept.bans.clone());
            }
        } else {
            self.problem.moves(game, &mut self.moves, &mut self.bans);
        }
        if self.expanded.len() >= EXPANDED_KEPT {
            self.expanded.clear();
        }
        let mut children: Vec<Cell<Child>> =
            self.moves.iter().map(|&mv| Cell::new(Child { mv, threat: false, made: None })).collect();
        // the threat is one side's only, and the lifted board is never decided: its parent
        // was not
        let prover = game.to_move() == self.problem.start.to_move();
        let has_threats = prover == (self.threats == ThreatHolder::Prover);
        if let Some(lifted) = has_threats.then(|| self.problem.threat(game)).flatten() {
            let made = Made { key: key(&lifted, None), decided: None, before_pass: None, restarts: true };
            children.push(Cell::new(Child { mv: Move::Pass, threat: true, made: Some(made) }));
        }
        let children: Children = children.into();
        let bans: Bans = (!self.bans.is_empty()).then(|| self.bans.as_slice().into());
        let expanded = Expanded { children: Rc::clone(&children), bans: bans.clone(), legal_under: history };
        self.expanded.insert(at, expanded);
        (children, bans)
    }

    /// Makes a child of `game` not made yet, `game` being reached by a pass from the position
    /// hashed `before_pass` if there is one: the position it reaches, and what is known of it at
    /// once. A second pass in a row that brings back that position decides for the defender (the
    /// fight has stopped with the target standing); one that lifts a restriction of the rules'
    /// memory (Stoical's wait, a ko ban) lets the fight go on. Benson's test is made at once
    /// after the defender's moves, which are the ones that make life; after the attacker's it
    /// waits until the child is searched.
    fn make(&mut self, game: &AnyGame, child: &Cell<Child>, before_pass: Option<u64>) -> AnyGame {
        let known = child.get();
        let reached = self.child_game(game, &known);
        let stopped = known.mv == Move::Pass && before_pass == Some(reached.hash());
        let decided = if stopped {
            Some(self.prover_wins(Decided::Defender))
        } else if game.to_move() == self.problem.defender() {
            self.judge_below_start(&reached, false)
        } else {
            self.problem.target_captured(&reached).then(|| self.prover_wins(Decided::Attacker))
        };
        let before_pass = (known.mv == Move::Pass).then(|| game.hash());
        let restarts = known.mv == Move::Pass;
        child.set(Child {
            made: Some(Made { key: key(&reached, before_pass), decided, before_pass, restarts }),
            ..known
        });
        reached
    }

    /// Makes every child of `game` not made yet.
    fn make_all(&mut self, game: &AnyGame, children: &[Cell<Child>], before_pass: Option<u64>) {
        for child in children.iter().filter(|c| c.get().made.is_none()) {
            let reached = self.make(game, child, before_pass);
            self.spare.push(reached);
        }
    }

    /// The position a child of `game` stands for, made in a spare position's room
    /// ([`Self::spare`]).
    fn child_game(&mut self, game: &AnyGame, child: &Child) -> AnyGame {
        if child.threat {
            return self.problem.threat(game).expect("a threat child lifts a restriction");
        }
        let mut reached = self.spare.pop().unwrap_or_else(|| game.clone());
        self.problem.play_into(game, child.mv, &mut reached);
        reached
    }

    /// What is known of a child: its proof and disproof numbers, its order once decided, and
    /// the cycle or superko ban a result rests on. A stored result whose cycle went back to a
    /// position no longer on the line, or whose ban brought back one no longer in the child's
    /// superko history, is not known here (the graph-history interaction).
    fn numbers(&self, made: Option<Made>) -> Known {
        let Some(made) = made else { return Known::OPEN };
        if let Some(won) = made.decided {
            return if won { Known::PROVED } else { Known::DISPROVED };
        }
        // a cycle: the prover has not reached its goal by force, on this line
        if let Some(at) = self.line.position(made.key) {
            return Known { rests_on: Some(Rest { at, ban: false }), ..Known::DISPROVED };
        }
        match self.table.get(&made.key) {
            None => Known::OPEN,
            Some(e) => match e.rests_on {
                None => Known { proof: e.proof, disproof: e.disproof, order: e.order, rests_on: None },
                Some((k, ban)) => {
                    let at = match ban {
                        false => self.line.position(k),
                        true if made.restarts => None,
                        true => self.line.position_in_history(k),
                    };
                    let decided = if e.proof == 0 { Known::PROVED } else { Known::DISPROVED };
                    at.map_or(Known::OPEN, |at| Known { rests_on: Some(Rest { at, ban }), ..decided })
                }
            },
        }
    }

    /// Keeps what the search found of a position; `rests_on`, a position of the line, for a
    /// result resting on a cycle back to it or a superko ban of it.
    ///
    /// A position decided on every line stays so: the search can go down again to a child that
    /// a transposition decided meanwhile (what it knows of the siblings is looked up once a
    /// visit), and what it finds there on this line, resting on the line, would replace what
    /// holds on every line (Prob0722: the winning first move's proof replaced by one resting on
    /// a superko ban, and the move left undecided).
    fn store(&mut self, key: u64, (proof, disproof, rests_on): (u32, u32, Option<Rest>)) {
        let rests_on = rests_on.map(|r| (self.line.keys[r.at], r.ban));
        let decided = proof == 0 || disproof == 0;
        let order = match self.table.get(&key) {
            Some(e) if e.rests_on.is_none() && (e.proof == 0 || e.disproof == 0) => return,
            Some(e) if e.order != 0 => e.order,
            _ if decided => {
                self.decided_count += 1;
                self.decided_count
            }
            _ => 0,
        };
        self.table.insert(key, Entry { proof, disproof, order, rests_on });
    }

    /// df-pn's multiple iterative deepening at a position not decided yet: search below it
    /// until its proof number reaches `proof_limit` or its disproof number `disproof_limit`.
    /// `restarts` if the move to it started the superko history again (a pass or a threat).
    fn search(
        &mut self,
        game: &AnyGame,
        key: u64,
        before_pass: Option<u64>,
        restarts: bool,
        proof_limit: u32,
        disproof_limit: u32,
    ) -> (u32, u32, Option<Rest>) {
        self.nodes += 1;
        // a position the defender has just moved to was judged when it was made a child
        // ([`Self::make`]); the attacker's moves are judged when they are searched
        if game.to_move() == self.problem.defender() {
            let judged = if self.line.is_empty() {
                self.judge(game)
            } else {
                self.judge_below_start(game, before_pass.is_some())
            };
            if let Some(won) = judged {
                return if won { (0, INFINITE, None) } else { (INFINITE, 0, None) };
            }
        }
        let prover = game.to_move() == self.problem.start.to_move();
        let (children, bans) = self.children(game, key);
        let depth = self.line.len();
        self.line.push(key, game, restarts);
        // the shallowest position of the line a move banned here would bring back
        let banned = self.line.banned(&bans);
        let mut known = self.spare_known.pop().unwrap_or_default();
        // the child made last, and its position: the search goes down to it next unless what is
        // known of it once made sends the search elsewhere
        let mut fresh: Option<(usize, AnyGame)> = None;
        // what is known of each child, looked up once and then kept up to date for the child
        // searched or made: looking every child up in the table at each turn of the loop was
        // most of the loop's time (a sibling that a transposition decided meanwhile is seen at
        // the next visit)
        known.clear();
        known.extend(children.iter().map(|c| self.numbers(c.get().made)));
        let result = loop {
            // the side to move needs one good child, the other side all of them: "mine" is the
            // mover's number of a child, "theirs" the other
            let split = |k: &Known| if prover { (k.proof, k.disproof) } else { (k.disproof, k.proof) };
            let (mut best, mut least, mut second, mut total) = (0, INFINITE, INFINITE, 0u32);
            for (i, k) in known.iter().enumerate() {
                let (mine, theirs) = split(k);
                if mine < least || i == 0 {
                    (best, second, least) = (i, if i == 0 { INFINITE } else { least }, mine);
                } else if mine < second {
                    second = mine;
                }
                total = add_numbers(total, theirs);
            }
            let (proof, disproof) = if prover { (least, total) } else { (total, least) };
            // making a child is no position expanded: the budget stops the search before it goes
            // down, not before it makes the child it selected
            let out_of_nodes = self.nodes >= self.max_nodes && children[best].get().made.is_some();
            if proof >= proof_limit || disproof >= disproof_limit || out_of_nodes {
                break (proof, disproof, Self::rests_on(&known, banned, prover, (proof, disproof), depth));
            }
            // the child's limits: its own number up to the second best's, the other number
            // what the parent's limit leaves after the other children
            let (my_limit, their_limit) =
                if prover { (proof_limit, disproof_limit) } else { (disproof_limit, proof_limit) };
            // (the 1+ε trick: a little above the second best, so that the search does not
            // switch back and forth between two children of nearly equal numbers)
            let child_mine = my_limit.min(second.saturating_add(1).max(second.saturating_add(second / 4)));
            let child_theirs = their_limit.saturating_sub(total - split(&known[best]).1).clamp(1, INFINITE);
            let (child_proof, child_disproof) =
                if prover { (child_mine, child_theirs) } else { (child_theirs, child_mine) };
            let cell = &children[best];
            if cell.get().made.is_none() {
                // made only now: its numbers may be known already (decided, a cycle, the table)
                let reached = self.make(game, cell, before_pass);
                known[best] = self.numbers(cell.get().made);
                if let Some((_, done)) = fresh.replace((best, reached)) {
                    self.spare.push(done);
                }
                continue;
            }
            let child = cell.get();
            let child_game = match fresh.take() {
                Some((i, reached)) if i == best => reached,
                other => {
                    self.spare.extend(other.map(|(_, reached)| reached));
                    self.child_game(game, &child)
                }
            };
            let made = child.made();
            let found = self.search(
                &child_game,
                made.key,
                made.before_pass,
                made.restarts,
                child_proof,
                child_disproof,
            );
            self.spare.push(child_game);
            self.store(made.key, found);
            known[best] = self.numbers(Some(made));
            // an opponent's answer proved, or a prover's move refuted without a cycle: the same
            // play may decide the siblings too (a refutation resting on a cycle is not tried:
            // the simulation takes no such failure as the opponent's win, [`Winner::wins`], so
            // it could not carry it, and that rule, not this test, keeps the simulation sound)
            let proved_answer = !prover && found.0 == 0;
            let refuted_move = prover && found.1 == 0 && found.2.is_none();
            if (proved_answer || refuted_move) && child.mv != Move::Pass {
                self.carry_over(game, &children, before_pass, child, Winner::of(proved_answer));
                known.clear();
                known.extend(children.iter().map(|c| self.numbers(c.get().made)));
            }
        };
        self.spare.extend(fresh.map(|(_, reached)| reached));
        self.spare_known.push(known);
        self.line.pop();
        result
    }

    /// After a child's win for `winner` is found by search (`model`: an opponent's answer
    /// proved, or a prover's move refuted), whether it carries over to each of its siblings
    /// still open ([`Self::simulate`]).
    fn carry_over(
        &mut self,
        game: &AnyGame,
        children: &[Cell<Child>],
        before_pass: Option<u64>,
        model: Child,
        winner: Winner,
    ) {
        for cell in children {
            let child = cell.get();
            if child.mv == model.mv && child.threat == model.threat {
                continue;
            }
            let reached = match child.made {
                None => self.make(game, cell, before_pass),
                Some(_) => self.child_game(game, &child),
            };
            let made = cell.get().made();
            let known = self.numbers(Some(made));
            if made.decided.is_none() && known.proof != 0 && known.disproof != 0 {
                self.simulate(game, &reached, made, &model, winner);
            }
            self.spare.push(reached);
        }
    }

    /// Simulation (Kawano 1996): tries whether `winner`'s win after `model`, a sibling decided
    /// already, carries over to the move that reached `game` (`made`) from `parent`, and stores
    /// what it decides. An opponent's answers that lose often lose the same way, and so do a
    /// prover's moves that fail (a defender's wrong first moves meet the same kill), and a
    /// search decides each anew. The check is itself a search, within [`SIMULATION_BUDGET`]
    /// positions, that tries only the model's moves: sound, as every position it decides has
    /// its proof.
    fn simulate(&mut self, parent: &AnyGame, game: &AnyGame, made: Made, model: &Child, winner: Winner) {
        let model_game = self.child_game(parent, model);
        let mut simulation = Simulation { winner, budget: SIMULATION_BUDGET };
        self.verify(game, made, &model_game, model.made(), &mut simulation);
        self.spare.push(model_game);
    }

    /// Whether `game` (its child record `made`) is `winner`'s win the way `model`, decided, is:
    /// where the winner moves, by the move that won there (decided earliest); where the loser
    /// does, every move by the same move's proof there. The positions decided on the way are
    /// stored, so that the main line goes through them. The opponent's wins are taken only
    /// where they rest on no cycle, which holds on one line only.
    fn verify(
        &mut self,
        game: &AnyGame,
        made: Made,
        model: &AnyGame,
        model_made: Made,
        simulation: &mut Simulation,
    ) -> bool {
        let winner = simulation.winner;
        if let Some(won) = made.decided {
            return winner.takes(won);
        }
        let known = self.numbers(Some(made));
        if known.proof == 0 || known.disproof == 0 || simulation.budget == 0 {
            return winner.wins(known);
        }
        if model_made.decided.is_some() {
            // the model ends here and this position does not: its own search decides it
            return self.search_within(game, made, simulation);
        }
        simulation.budget -= 1;
        self.nodes += 1;
        let carried = if game.to_move() == self.problem.defender()
            && let Some(won) = self.judge_below_start(game, made.before_pass.is_some())
        {
            winner.takes(won)
        } else {
            let (children, bans) = self.children(game, made.key);
            let (model_children, _) = self.children(model, model_made.key);
            self.line.push(made.key, game, made.restarts);
            let prover_to_move = game.to_move() == self.problem.start.to_move();
            let carried = if prover_to_move == (winner == Winner::Prover) {
                // each model child's numbers looked up once: the winner's move decided earliest
                let won = model_children
                    .iter()
                    .map(Cell::get)
                    .filter_map(|m| {
                        Some(self.numbers(m.made)).filter(|&k| winner.wins(k)).map(|k| (m, k.order))
                    })
                    .min_by_key(|&(_, order)| order)
                    .map(|(m, _)| m);
                let mine = won
                    .and_then(|m| children.iter().find(|c| c.get().mv == m.mv && c.get().threat == m.threat));
                mine.zip(won).is_some_and(|(cell, m)| {
                    self.verify_child(game, cell, made.before_pass, model, Some(m), simulation)
                })
            } else {
                // a move the model has no counterpart of (the point the model's move took, or
                // freed by a capture there) is decided by a search of its own; where a superko
                // bans one of the loser's moves, the win would hold on some lines only, and
                // the simulation stores only wins that hold on every line
                bans.is_none()
                    && children.iter().all(|cell| {
                        let c = cell.get();
                        let counterpart = model_children
                            .iter()
                            .map(Cell::get)
                            .find(|m| m.mv == c.mv && m.threat == c.threat);
                        match counterpart {
                            Some(m) if !winner.wins(self.numbers(m.made)) => false,
                            m => self.verify_child(game, cell, made.before_pass, model, m, simulation),
                        }
                    })
            };
            self.line.pop();
            carried
        };
        if carried {
            let decided = match winner {
                Winner::Prover => (0, INFINITE, None),
                Winner::Opponent => (INFINITE, 0, None),
            };
            self.store(made.key, decided);
        }
        carried
    }

    /// [`Self::verify`] of a child of `game`, made if it was not yet, against its counterpart
    /// `model_child`, a child of `model`, or without one by a search of its own
    /// ([`Self::search_within`]).
    fn verify_child(
        &mut self,
        game: &AnyGame,
        cell: &Cell<Child>,
        before_pass: Option<u64>,
        model: &AnyGame,
        model_child: Option<Child>,
        simulation: &mut Simulation,
    ) -> bool {
        let reached = match cell.get().made {
            None => self.make(game, cell, before_pass),
            Some(_) => self.child_game(game, &cell.get()),
        };
        let made = cell.get().made();
        let carried = match made.decided {
            Some(won) => simulation.winner.takes(won),
            None => match model_child {
                Some(model_child) => {
                    let model_game = self.child_game(model, &model_child);
                    let carried = self.verify(&reached, made, &model_game, model_child.made(), simulation);
                    self.spare.push(model_game);
                    carried
                }
                None => self.search_within(&reached, made, simulation),
            },
        };
        self.spare.push(reached);
        carried
    }

    /// Whether a df-pn search of `game` (its child record `made`) within what is left of the
    /// simulation's budget finds it the simulation's winner's: where the model's play does not
    /// reach, a few positions searched often finish the proof.
    fn search_within(&mut self, game: &AnyGame, made: Made, simulation: &mut Simulation) -> bool {
        let (before, limit) = (self.nodes, self.max_nodes);
        self.max_nodes = limit.min(before + u64::from(simulation.budget));
        let found = self.search(game, made.key, made.before_pass, made.restarts, INFINITE, INFINITE);
        self.max_nodes = limit;
        let spent = u32::try_from(self.nodes - before).unwrap_or(u32::MAX);
        simulation.budget = simulation.budget.saturating_sub(spent);
        self.store(made.key, found);
        simulation.winner.wins(self.numbers(Some(made)))
    }

    /// For a result at a position `depth` deep in the line (its `numbers`), what it rests on
    /// above it: the cycles and superko bans its children's results rest on, and `banned`, the
    /// shallowest position a move banned there would bring back. The prover's failure needs
    /// every child's where the prover moves (its banned moves are as cycles back), one where
    /// the opponent does; its success one child's where it moves, every child's where the
    /// opponent does (with the opponent's moves banned).
    fn rests_on(
        known: &[Known],
        banned: Option<usize>,
        prover: bool,
        (proof, disproof): (u32, u32),
        depth: usize,
    ) -> Option<Rest> {
        let ban = banned.map(|at| Rest { at, ban: true });
        let rest = if disproof == 0 {
            let failures = known.iter().filter(|k| k.disproof == 0);
            if prover {
                Rest::all(failures.filter_map(|k| k.rests_on).chain(ban))
            } else {
                Rest::any(failures)
            }
        } else if proof == 0 {
            let proofs = known.iter().filter(|k| k.proof == 0);
            if prover { Rest::any(proofs) } else { Rest::all(proofs.filter_map(|k| k.rests_on).chain(ban)) }
        } else {
            None
        };
        rest.filter(|r| r.at < depth)
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
        // the line walked stands as the line searched, so that results resting on a cycle back
        // to it or a superko ban of it are known
        self.line.clear();
        self.line.push(key(&game, None), &game, true);
        let mut line: Vec<Move> = Vec::new();
        let mut before_pass = None;
        loop {
            let judged = if line.is_empty() {
                self.judge(&game)
            } else {
                self.judge_below_start(&game, before_pass.is_some())
            };
            if judged.is_some() || line.len() >= 200 {
                break;
            }
            let winner_to_move = (game.to_move() == self.problem.start.to_move()) == success;
            let won = |k: Known| if success { k.proof == 0 } else { k.disproof == 0 };
            let (children, _) =
                self.children(&game, *self.line.keys.last().expect("the line holds the position"));
            self.make_all(&game, &children, before_pass);
            let candidates = children
                .iter()
                .map(Cell::get)
                .filter(|c| self.line.position(c.made().key).is_none())
                .map(|c| (c, self.numbers(c.made)))
                .filter(|&(_, k)| won(k));
            let chosen = if winner_to_move {
                candidates.min_by_key(|&(_, k)| k.order)
            } else {
                candidates.max_by_key(|&(_, k)| k.order)
            };
            let Some((child, _)) = chosen else { break };
            let made = child.made();
            if child.threat {
                line.push(Move::Pass);
            }
            line.push(child.mv);
            if made.decided.is_some() {
                break;
            }
            before_pass = made.before_pass;
            game = self.child_game(&game, &child);
            self.line.push(made.key, &game, made.restarts);
        }
        self.line.clear();
        line
    }
}

/// A simulation under way ([`Search::simulate`]): whose win it carries over, and the positions
/// it may still go through.
struct Simulation {
    winner: Winner,
    budget: u32,
}

/// Whose win a simulation carries over ([`Search::simulate`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Winner {
    Prover,
    Opponent,
}

impl Winner {
    /// The prover for an opponent's answer proved, the opponent for a prover's move refuted.
    fn of(proved: bool) -> Winner {
        if proved { Winner::Prover } else { Winner::Opponent }
    }

    /// Whether a position decided by the definitions (`prover_wins`: the prover's win or not)
    /// is this side's win.
    fn takes(self, prover_wins: bool) -> bool {
        prover_wins == (self == Winner::Prover)
    }

    /// Whether what is known of a position is this side's win, resting on no cycle and no
    /// superko ban (such a result holds on some lines only).
    fn wins(self, known: Known) -> bool {
        let won = match self {
            Winner::Prover => known.proof == 0,
            Winner::Opponent => known.disproof == 0,
        };
        won && known.rests_on.is_none()
    }
}

/// Which side may make a ko threat (lift the rules' restriction) at every turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ThreatHolder {
    /// The prover's opponent: a success is unconditional.
    Opponent,
    /// The prover: a success needs the kos won, as a book's "ko" answer does.
    Prover,
}

/// Searches a problem with at most `max_nodes` positions expanded: the verdict for the side to
/// move, every winning first move, a main line ([`Solver`] in one go).
pub fn solve_problem(problem: &Problem, max_nodes: u64) -> Answer {
    let mut solver = Solver::new(problem);
    solver.advance(max_nodes);
    solver.answer()
}

/// A problem's search that can be taken further: [`Solver::advance`] with a larger budget goes
/// on from the transposition table it has, so that growing budgets (the goal found by
/// [`super::solve`]) cost no more than the last one. The goal is searched first against an
/// opponent with ko threats at every turn; if that fails, with the threats the side to move's
/// (a success then needs a ko won, and says so: the books count such a ko as the answer when
/// nothing better exists), with a budget of its own.
pub struct Solver<'a> {
    unconditional: Attempt<'a>,
    by_ko: Attempt<'a>,
}

/// One search of a problem, with the ko threats given to one side.
struct Attempt<'a> {
    search: Search<'a>,
    verdict: Verdict,
}

impl<'a> Attempt<'a> {
    fn new(problem: &'a Problem, threats: ThreatHolder) -> Self {
        let mut search = Search {
            problem,
            table: ByHash::default(),
            judged: ByHash::default(),
            line: Line::default(),
            nodes: 0,
            max_nodes: 0,
            decided_count: 0,
            moves: Vec::new(),
            bans: Vec::new(),
            threats,
            expanded: ByHash::default(),
            spare: Vec::new(),
            spare_known: Vec::new(),
        };
        let verdict = match search.judge(&problem.start) {
            Some(true) => Verdict::Success,
            Some(false) => Verdict::Failure,
            None => Verdict::Unknown,
        };
        Attempt { search, verdict }
    }

    /// Searches on until the verdict is known or `max_nodes` positions have been expanded in all.
    fn advance(&mut self, max_nodes: u64) -> Verdict {
        // a decided search keeps the budget for proving every winning first move
        self.search.max_nodes = max_nodes;
        if self.verdict == Verdict::Unknown && self.search.nodes < max_nodes {
            let search = &mut self.search;
            let start = &search.problem.start;
            let root = key(start, None);
            let found = search.search(start, root, None, true, INFINITE, INFINITE);
            search.store(root, found);
            self.verdict = Search::verdict(found.0, found.1);
        }
        self.verdict
    }

    /// The answer as far as the search has gone: after a success every first move is proved or
    /// disproved with what is left of the budget, those it does not decide named as undecided.
    fn answer(&mut self) -> Answer {
        let search = &mut self.search;
        let start = &search.problem.start;
        let root = key(start, None);
        let (mut winning_moves, mut undecided_moves) = (Vec::new(), Vec::new());
        if self.verdict == Verdict::Success && search.judge(start).is_none() {
            search.line.push(root, start, true);
            // a threat is no first move: the start has no restriction to lift
            let (all, _) = search.children(start, root);
            search.make_all(start, &all, None);
            let mut open: Vec<Child> = all.iter().map(Cell::get).filter(|c| !c.threat).collect();
            // with as many nodes again as the verdict took, and at least a tenth of the budget: a
            // losing first move can take far longer to refute than the winning one took to prove,
            // and the answer is known already
            let spent = search.nodes;
            search.max_nodes = search.max_nodes.min(spent + spent.max(search.max_nodes / 10));
            // in rounds of doubling proof and disproof limits, so that a first move hard to
            // decide does not keep the easy ones after it from being decided
            let mut limit = 2u32;
            loop {
                open.retain(|c| {
                    let known = search.numbers(c.made);
                    known.proof != 0 && known.disproof != 0
                });
                if open.is_empty() || search.nodes >= search.max_nodes {
                    break;
                }
                for child in &open {
                    let child_game = search.child_game(start, child);
                    let made = child.made();
                    let found =
                        search.search(&child_game, made.key, made.before_pass, made.restarts, limit, limit);
                    search.spare.push(child_game);
                    search.store(made.key, found);
                }
                limit = limit.saturating_mul(2).min(INFINITE);
            }
            for child in all.iter().map(Cell::get).filter(|c| !c.threat) {
                match search.numbers(child.made) {
                    Known { proof: 0, .. } => winning_moves.push(child.mv),
                    Known { disproof: 0, .. } => {}
                    _ => undecided_moves.push(child.mv),
                }
            }
            search.line.pop();
        }
        let line = match self.verdict {
            Verdict::Unknown => Vec::new(),
            v => search.main_line(v == Verdict::Success),
        };
        Answer {
            goal: search.problem.goal,
            verdict: self.verdict,
            winning_moves,
            undecided_moves,
            snapback: search.problem.snapback_in(&line),
            line,
            nodes: search.nodes,
            ko: false,
            refutation: Vec::new(),
        }
    }
}

impl<'a> Solver<'a> {
    /// A solver of `problem` that has searched nothing yet.
    pub fn new(problem: &'a Problem) -> Self {
        Solver {
            unconditional: Attempt::new(problem, ThreatHolder::Opponent),
            by_ko: Attempt::new(problem, ThreatHolder::Prover),
        }
    }

    /// Searches on until the verdict is known or each search has expanded `max_nodes` positions
    /// in all (the search by ko, made only after the unconditional one fails, has a budget of its
    /// own).
    pub fn advance(&mut self, max_nodes: u64) -> Verdict {
        match self.unconditional.advance(max_nodes) {
            Verdict::Failure => {
                if self.by_ko.search.table.is_empty() {
                    self.by_ko.search.take_proofs(&self.unconditional.search);
                }
                self.by_ko.advance(max_nodes)
            }
            verdict => verdict,
        }
    }

    /// Positions expanded so far.
    pub fn nodes(&self) -> u64 {
        self.unconditional.search.nodes + self.by_ko.search.nodes
    }

    /// The answer as far as the search has gone.
    pub fn answer(&mut self) -> Answer {
        let unconditional = self.unconditional.answer();
        if unconditional.verdict != Verdict::Failure {
            return unconditional;
        }
        let by_ko = self.by_ko.answer();
        let nodes = self.nodes();
        match by_ko.verdict {
            Verdict::Success => Answer { ko: true, refutation: unconditional.line, nodes, ..by_ko },
            Verdict::Unknown => Answer { nodes, ..by_ko },
            // the unconditional failure's refutation is the line to show
            Verdict::Failure => Answer { nodes, ..unconditional },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Attempt, INFINITE, Known, Rest, Search, ThreatHolder, add_numbers};
    use crate::life::{Goal, Problem};
    use variago_rules::{Board, Color};

    const PROVED: Known = Known::PROVED;
    const DISPROVED: Known = Known::DISPROVED;

    /// White's three points in the corner shut in by Black, Black to kill, under `go`'s superko.
    fn shut_in_corner() -> Problem {
        let board = Board::from_diagram(&[". . . O X", "O O O O X", "X X X X X"]).unwrap();
        Problem::new(&"go".parse().unwrap(), board, Color::Black, Goal::Kill).unwrap()
    }

    fn resting(known: Known, at: usize, ban: bool) -> Known {
        Known { rests_on: Some(Rest { at, ban }), ..known }
    }

    /// A success and a failure rest on the cycles and bans they need: all the children's (and
    /// the banned moves') where the loser moves, one child's where the winner does.
    #[test]
    fn a_result_rests_on_what_it_needs_of_its_children_and_its_banned_moves() {
        let rests_on =
            |known: &[Known], banned, prover, numbers| Search::rests_on(known, banned, prover, numbers, 9);
        let (success, failure) = ((0, INFINITE), (INFINITE, 0));
        // the prover fails where every move fails: a banned move is one more that fails on this line
        assert_eq!(rests_on(&[DISPROVED], Some(4), true, failure), Some(Rest { at: 4, ban: true }));
        let cycle = resting(DISPROVED, 2, false);
        assert_eq!(rests_on(&[cycle, DISPROVED], Some(4), true, failure), Some(Rest { at: 2, ban: false }));
        // the opponent refutes with one answer: its banned moves do not matter
        assert_eq!(rests_on(&[DISPROVED, PROVED], Some(4), false, failure), None);
        assert_eq!(
            rests_on(&[cycle, resting(DISPROVED, 5, true)], None, false, failure),
            Some(Rest { at: 5, ban: true })
        );
        // the prover succeeds with one move: its banned moves do not matter
        assert_eq!(rests_on(&[PROVED, DISPROVED], Some(4), true, success), None);
        assert_eq!(rests_on(&[resting(PROVED, 3, true), PROVED], None, true, success), None);
        // the opponent's answers all lose, its banned moves are missing on this line only
        assert_eq!(rests_on(&[PROVED, PROVED], Some(4), false, success), Some(Rest { at: 4, ban: true }));
        assert_eq!(
            rests_on(&[PROVED, resting(PROVED, 6, true)], Some(7), false, success),
            Some(Rest { at: 6, ban: true })
        );
        // what rests on the position itself or below holds above it
        assert_eq!(Search::rests_on(&[PROVED], Some(9), false, success, 9), None);
        // an open position rests on nothing
        assert_eq!(rests_on(&[Known::OPEN], Some(4), true, (1, 1)), None);
    }

    /// A pass or a threat starts the superko history again: a ban of a board before it, and a
    /// result resting on one, do not hold after it, where a cycle back to it does.
    #[test]
    fn a_pass_ends_what_a_ban_rests_on_but_not_what_a_cycle_does() {
        let problem = shut_in_corner();
        let start = &problem.start;
        let placed = problem.play(start, variago_rules::Move::Place(problem.region_points()[0]));
        let passed = problem.play(&placed, variago_rules::Move::Pass);
        let start_key = start.superko_key().unwrap();
        let bans: super::Bans = Some([start_key].as_slice().into());
        let mut line = super::Line::default();
        line.push(10, start, true);
        line.push(11, &placed, false);
        assert_eq!(line.banned(&bans), Some(0));
        assert_eq!(line.position_in_history(10), Some(0));
        line.push(12, &passed, true);
        assert_eq!(line.banned(&bans), None);
        assert_eq!(line.position_in_history(10), None);
        assert_eq!(line.position(10), Some(0));
        line.pop();
        assert_eq!(line.banned(&bans), Some(0));
    }

    /// What holds on every line is not replaced by what holds on some (Prob0722: the winning
    /// first move's proof replaced by one resting on a superko ban, and the move left
    /// undecided); what holds on some is by what holds on every line.
    #[test]
    fn a_result_that_holds_on_every_line_is_kept() {
        let problem = shut_in_corner();
        let mut search = Attempt::new(&problem, ThreatHolder::Opponent).search;
        search.line.push(1, &problem.start, true);
        let entry = |search: &Search, key| search.table.get(&key).map(|e| (e.proof, e.rests_on.is_some()));
        search.store(7, (0, INFINITE, None));
        search.store(7, (0, INFINITE, Some(Rest { at: 0, ban: true })));
        assert_eq!(entry(&search, 7), Some((0, false)));
        search.store(8, (INFINITE, 0, Some(Rest { at: 0, ban: false })));
        search.store(8, (INFINITE, 0, None));
        assert_eq!(entry(&search, 8), Some((INFINITE, false)));
    }

    #[test]
    fn a_sum_of_numbers_is_infinite_only_when_one_of_them_is() {
        assert_eq!(add_numbers(3, 4), 7);
        assert_eq!(add_numbers(INFINITE / 2 + 1, INFINITE / 2 + 1), INFINITE - 1);
        assert_eq!(add_numbers(INFINITE - 1, INFINITE - 1), INFINITE - 1);
        assert_eq!(add_numbers(0, INFINITE), INFINITE);
        assert_eq!(add_numbers(INFINITE, 5), INFINITE);
    }
}
