//! One search tree: UCT with RAVE/AMAF over an arena of nodes, grown by light playouts.
//!
//! Each tree belongs to one thread (root parallelism), so nothing here is shared or locked.

use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};
use std::time::Instant;

use rand::SeedableRng;
use rand::rngs::SmallRng;
use variago_rules::{Color, Ending, Game, GameResult, ScoreSheet};

use crate::Settings;
use crate::priors::Weights;

/// A node: the move that leads to it and the statistics of the player who made that move.
///
/// Rewards are integers out of [`REWARD_SCALE`] per playout (a plain win is all of it, a draw
/// half), so they stay exact and seeded runs stay bit-for-bit reproducible.
#[derive(Clone, Debug)]
pub(crate) struct Node<M> {
    /// The move from the parent (a placeholder at the root).
    pub mv: M,
    /// Who played `mv`: the side whose view `wins` and `amaf_wins` take.
    pub mover: Color,
    /// Index of the first child; the children are contiguous.
    pub first: u32,
    /// Number of children (0 until expanded, and for terminal positions).
    pub count: u32,
    /// Playouts through this node.
    pub visits: u32,
    /// Rewards of `mover` in those playouts.
    pub wins: u64,
    /// Playouts from the parent in which `mover` played `mv` later on (all moves as first).
    pub amaf_visits: u32,
    /// Rewards of `mover` in those playouts.
    pub amaf_wins: u64,
    /// The value the move starts with before playouts tell ([`crate::priors`]), 0.5 without
    /// prior knowledge; it weighs as [`Settings::prior_visits`] playouts.
    pub prior: f32,
}

impl<M> Node<M> {
    fn new(mv: M, mover: Color) -> Self {
        Node { mv, mover, first: 0, count: 0, visits: 0, wins: 0, amaf_visits: 0, amaf_wins: 0, prior: 0.5 }
    }

    /// The children's index range in the arena.
    pub fn children(&self) -> std::ops::Range<usize> {
        self.first as usize..(self.first + self.count) as usize
    }
}

/// Multiplicative hashing for the AMAF map: moves are small plain values, SipHash would cost more
/// than the playout's bookkeeping is worth.
#[derive(Default, Clone, Copy)]
pub(crate) struct FxHasher(u64);

impl Hasher for FxHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ b as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(n as u64);
    }

    fn write_u16(&mut self, n: u16) {
        self.write_u64(n as u64);
    }

    fn write_u8(&mut self, n: u8) {
        self.write_u64(n as u64);
    }
}

/// One playout's whole reward: what a plain win is worth.
pub(crate) const REWARD_SCALE: u64 = 64;

/// Share of the reward that the score margin moves in variants whose margin counts
/// ([`Game::score_scale`]): any win still beats any loss.
const MARGIN_SHARE: f64 = 0.2;

/// Black's reward out of [`REWARD_SCALE`] for a playout's result: the win, and where the variant
/// asks for it, the margin squashed by `tanh` on its scale, so that the search prefers larger
/// wins and smaller losses among moves that win (or lose) alike.
fn black_reward(result: GameResult, score_scale: Option<f64>) -> u64 {
    let win = match result.winner {
        Some(Color::Black) => 1.0,
        Some(Color::White) => 0.0,
        None => 0.5,
    };
    let value = match (score_scale, result.ending) {
        (Some(scale), Ending::Score(margin)) => {
            let signed = if result.winner == Some(Color::White) { -margin.as_f64() } else { margin.as_f64() };
            (1.0 - MARGIN_SHARE) * win + MARGIN_SHARE * 0.5 * (1.0 + (signed / scale).tanh())
        }
        _ => win,
    };
    (value * REWARD_SCALE as f64).round() as u64
}

/// `color`'s share of a playout whose Black reward is `black`.
#[inline]
fn reward(black: u64, color: Color) -> u64 {
    match color {
        Color::Black => black,
        Color::White => REWARD_SCALE - black,
    }
}

/// A search tree rooted at one position, with the random generator and buffers that grow it, so
/// that it can grow on later (pondering).
pub(crate) struct Tree<G: Game> {
    pub nodes: Vec<Node<G::Move>>,
    /// Playouts run.
    pub playouts: u64,
    /// Per point index, the playouts from this root whose final position gave the point to
    /// Black and to White ([`Game::owners`]), counting only playouts that went on past the tree
    /// (not those whose tree moves ended the game); empty for variants without ownership.
    pub ownership: Vec<[u32; 2]>,
    /// The playouts counted in `ownership` (a reused tree's earlier playouts started elsewhere).
    pub owned_playouts: u64,
    rng: SmallRng,
    scratch: Scratch<G::Move>,
}

/// Buffers reused from playout to playout.
struct Scratch<M> {
    path: Vec<usize>,
    sequence: Vec<(M, Color)>,
    first_player: HashMap<M, Color, BuildHasherDefault<FxHasher>>,
    moves: Vec<M>,
    priors: Vec<f32>,
    owners: Vec<Option<Color>>,
}

impl<M> Default for Scratch<M> {
    fn default() -> Self {
        Scratch {
            path: Vec::new(),
            sequence: Vec::new(),
            first_player: HashMap::default(),
            moves: Vec::new(),
            priors: Vec::new(),
            owners: Vec::new(),
        }
    }
}

impl<G: Game> Tree<G> {
    /// A tree of `root` (a position that is not over) with its root's children and no playout.
    pub fn new(root: &G, settings: &Settings, seed: u64) -> Self {
        let mut moves = Vec::new();
        root.legal_moves(&mut moves);
        let placeholder = *moves.first().expect("a position that is not over has a legal move");
        let mut tree = Tree {
            nodes: vec![Node::new(placeholder, root.to_move().opponent())],
            playouts: 0,
            ownership: Vec::new(),
            owned_playouts: 0,
            rng: SmallRng::seed_from_u64(seed),
            scratch: Scratch::default(),
        };
        let mut priors = Vec::new();
        tree.expand(0, root, settings, &mut moves, &mut priors);
        tree.scratch.moves = moves;
        tree.scratch.priors = priors;
        tree
    }

    /// Runs playouts until the tree holds `playouts` in all or `deadline` passes.
    pub fn grow_on(&mut self, root: &G, settings: &Settings, playouts: u64, deadline: Option<Instant>) {
        let (mut rng, mut scratch) = (self.rng.clone(), std::mem::take(&mut self.scratch));
        while self.playouts < playouts {
            if self.playouts % 32 == 0 && deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            self.playout(root, settings, &mut rng, &mut scratch);
            self.playouts += 1;
        }
        (self.rng, self.scratch) = (rng, scratch);
    }

    /// Makes the position after `moves` (from the root) the new root, keeping the subtree below
    /// it with its statistics, so that a search after those moves starts from what was already
    /// learnt; `false`, leaving the tree unchanged, when the moves leave the expanded tree.
    pub fn descend(&mut self, moves: &[G::Move]) -> bool {
        let mut node = 0;
        for mv in moves {
            let Some(child) = self.nodes[node].children().find(|&i| self.nodes[i].mv == *mv) else {
                return false;
            };
            node = child;
        }
        if self.nodes[node].count == 0 {
            return false;
        }
        if node == 0 {
            return true;
        }
        // copied breadth first, so that every node's children stay contiguous
        let mut kept = vec![self.nodes[node].clone()];
        let mut queue = VecDeque::from([(node, 0)]);
        while let Some((old, new)) = queue.pop_front() {
            let first = kept.len();
            kept[new].first = first as u32;
            for (k, i) in self.nodes[old].children().enumerate() {
                kept.push(self.nodes[i].clone());
                if self.nodes[i].count > 0 {
                    queue.push_back((i, first + k));
                }
            }
        }
        self.playouts = u64::from(kept[0].visits);
        self.nodes = kept;
        // the kept playouts ended somewhere below the old root: their ownership is not the new one's
        self.ownership.clear();
        self.owned_playouts = 0;
        true
    }

    /// Adds the children of `node`, each with its prior value where the settings ask for priors
    /// and the variant has a board of stones.
    fn expand(
        &mut self,
        node: usize,
        state: &G,
        settings: &Settings,
        moves: &mut Vec<G::Move>,
        priors: &mut Vec<f32>,
    ) {
        state.legal_moves(moves);
        let mover = state.to_move();
        self.nodes[node].first = self.nodes.len() as u32;
        self.nodes[node].count = moves.len() as u32;
        let first = self.nodes.len();
        self.nodes.extend(moves.iter().map(|&mv| Node::new(mv, mover)));
        if settings.prior_visits > 0.0 && Weights::builtin().move_values(state, moves, priors) {
            for (child, &prior) in self.nodes[first..].iter_mut().zip(priors.iter()) {
                child.prior = prior;
            }
        }
    }

    /// UCT on the RAVE-blended value: the AMAF value counts fully while the child has few visits of
    /// its own and fades as they grow (Gelly and Silver's minimum-error schedule).
    fn select(&self, node: usize, settings: &Settings) -> usize {
        let parent = &self.nodes[node];
        let log_parent = (parent.visits.max(1) as f64).ln();
        let mut best = (f64::NEG_INFINITY, parent.first as usize);
        for i in parent.children() {
            let c = &self.nodes[i];
            let n = c.visits as f64;
            let an = c.amaf_visits as f64;
            let scale = REWARD_SCALE as f64;
            // the prior counts as `prior_visits` playouts of its value, in both estimates
            let (n0, w0) = (settings.prior_visits, settings.prior_visits * c.prior as f64);
            let q = if c.visits > 0 || n0 > 0.0 { (c.wins as f64 / scale + w0) / (n + n0) } else { 0.5 };
            let value = if c.amaf_visits > 0 {
                let aq = (c.amaf_wins as f64 / scale + w0) / (an + n0);
                let beta = an / (an + n + n * an / settings.rave_equivalence);
                beta * aq + (1.0 - beta) * q
            } else {
                q
            };
            let score = value + settings.exploration * (log_parent / (n + 1.0)).sqrt();
            if score > best.0 {
                best = (score, i);
            }
        }
        best.1
    }

    fn playout(&mut self, root: &G, settings: &Settings, rng: &mut SmallRng, scratch: &mut Scratch<G::Move>) {
        let mut state = root.clone();
        scratch.path.clear();
        scratch.sequence.clear();
        let mut node = 0;
        scratch.path.push(0);
        // down the tree
        loop {
            if self.nodes[node].count == 0 {
                if state.is_over()
                    || self.nodes[node].visits < settings.expand_after
                    || self.nodes.len() >= settings.max_nodes
                {
                    break;
                }
                self.expand(node, &state, settings, &mut scratch.moves, &mut scratch.priors);
            }
            let child = self.select(node, settings);
            let (mv, mover) = (self.nodes[child].mv, self.nodes[child].mover);
            state.play(mv).expect("the tree holds the legal moves of its exact positions");
            scratch.sequence.push((mv, mover));
            scratch.path.push(child);
            node = child;
        }
        // a game the tree's moves ended (by passes, mostly) is counted as it stands: its final
        // position says nothing about which stones would be captured if play went on
        let played_out = !state.is_over();
        // the light playout
        let cap = state.playout_cap();
        let mut played = 0;
        while played < cap && !state.is_over() {
            let mover = state.to_move();
            let mv = state.play_playout_move(rng);
            scratch.sequence.push((mv, mover));
            played += 1;
        }
        let result = state.outcome().unwrap_or_else(|| state.score().result());
        self.back_up(scratch, black_reward(result, state.score_scale()));
        if played_out && settings.ownership {
            self.count_owners(&state, &mut scratch.owners);
        }
    }

    /// Adds who owns each point of a playout's final position to the ownership counts.
    fn count_owners(&mut self, end: &G, owners: &mut Vec<Option<Color>>) {
        end.owners(owners);
        if owners.is_empty() {
            return;
        }
        self.ownership.resize(owners.len(), [0, 0]);
        for (count, owner) in self.ownership.iter_mut().zip(owners.iter()) {
            if let Some(c) = owner {
                count[*c as usize] += 1;
            }
        }
        self.owned_playouts += 1;
    }

    /// Adds the result to every node on the path, and to the AMAF statistics of every child of a
    /// path node whose move its mover played first later in the playout. Passes get no AMAF
    /// credit: a pass is one move that means different things at different times.
    fn back_up(&mut self, scratch: &mut Scratch<G::Move>, black: u64) {
        for &i in &scratch.path {
            let n = &mut self.nodes[i];
            n.visits += 1;
            n.wins += reward(black, n.mover);
        }
        let first_player = &mut scratch.first_player;
        first_player.clear();
        let inner = scratch.path.len() - 1;
        for (i, &(mv, mover)) in scratch.sequence.iter().enumerate().rev() {
            if mv != G::PASS {
                first_player.insert(mv, mover);
            }
            if i < inner {
                let range = self.nodes[scratch.path[i]].children();
                for c in &mut self.nodes[range] {
                    if first_player.get(&c.mv) == Some(&c.mover) {
                        c.amaf_visits += 1;
                        c.amaf_wins += reward(black, c.mover);
                    }
                }
            }
        }
    }

    /// The principal variation below root child `child`: the most visited child, repeatedly,
    /// while that child has at least `min_visits` playouts (below that the line is noise).
    pub fn line_below(&self, mut node: usize, max: usize, min_visits: u32) -> Vec<G::Move> {
        let mut line = Vec::new();
        while line.len() < max {
            let n = &self.nodes[node];
            let Some(next) = n
                .children()
                .filter(|&c| self.nodes[c].visits >= min_visits.max(1))
                .max_by_key(|&c| self.nodes[c].visits)
            else {
                break;
            };
            line.push(self.nodes[next].mv);
            node = next;
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use variago_rules::HalfPoints;

    fn result(winner: Option<Color>, margin: i32) -> GameResult {
        GameResult { winner, ending: Ending::Score(HalfPoints(margin)) }
    }

    #[test]
    fn the_margin_orders_results_only_where_the_variant_asks_and_never_across_wins_and_losses() {
        let scale = Some(20.0);
        let big_win = black_reward(result(Some(Color::Black), 80), scale);
        let small_win = black_reward(result(Some(Color::Black), 1), scale);
        let small_loss = black_reward(result(Some(Color::White), 1), scale);
        let big_loss = black_reward(result(Some(Color::White), 80), scale);
        assert!(big_win > small_win && small_win > small_loss && small_loss > big_loss);
        assert!(small_win > REWARD_SCALE / 2 + REWARD_SCALE / 4, "a win stays worth most of the reward");
        assert_eq!(black_reward(result(None, 0), scale), REWARD_SCALE / 2);
        // without a scale only the result counts
        assert_eq!(black_reward(result(Some(Color::Black), 80), None), REWARD_SCALE);
        assert_eq!(black_reward(result(Some(Color::Black), 1), None), REWARD_SCALE);
        assert_eq!(black_reward(result(Some(Color::White), 1), None), 0);
        // White's share mirrors Black's
        assert_eq!(reward(small_win, Color::White), REWARD_SCALE - small_win);
    }
}
