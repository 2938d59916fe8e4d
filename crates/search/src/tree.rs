//! The search tree: UCT with RAVE/AMAF, grown by light playouts, shared by every thread.
//!
//! All threads descend one tree (so that their playouts make it deeper, not wider): a node's
//! statistics are atomic counters, and its children are added once, by whichever thread gets
//! there first ([`OnceLock`]), so nothing is locked. A thread counts its visit at every node on
//! the way down, before its playout's result is known (a virtual loss): until the result comes
//! back, the other threads see the move as a little worse and spread out over other moves.
//! With one thread the virtual loss is resolved before the next descent, so a seeded search
//! repeats itself exactly.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicI64, AtomicU32, AtomicU64, AtomicUsize, Ordering::Relaxed};

use rand::SeedableRng;
use rand::rngs::SmallRng;
use variago_rules::{Color, Ending, Game, GameResult, Placement, ScoreSheet};

use crate::Settings;
use crate::playout::Policy;
use crate::priors::{PriorBuffers, Weights};
use crate::time::TimeBudget;

/// A node: the move that leads to it and the statistics of the player who made that move.
///
/// Rewards are integers out of [`REWARD_SCALE`] per playout (a plain win is all of it, a draw
/// half), so they stay exact and seeded runs stay bit-for-bit reproducible.
///
/// Aligned to a cache line (checked by a test): a thread's writes to one node leave its
/// neighbours' lines clean for the other threads. Its AMAF statistics live with its siblings'
/// ([`Amaf`]).
#[derive(Debug)]
#[repr(align(64))]
pub(crate) struct Node<M> {
    /// The move from the parent (a placeholder at the root).
    pub mv: M,
    /// Who played `mv`: the side whose view `wins`, `won` and the AMAF rewards take.
    pub mover: Color,
    /// The value the move starts with before playouts tell ([`crate::priors`]), 0.5 without
    /// prior knowledge; it weighs as [`Settings::prior_visits`] playouts.
    pub prior: f32,
    /// Playouts through this node, counted as they start (those still running are the virtual
    /// losses: counted visits without their reward yet).
    visits: AtomicU32,
    /// Rewards of `mover` in those playouts: the result and the margin term ([`black_reward`]),
    /// what the search steers by.
    wins: AtomicU64,
    /// Results alone of those playouts for `mover`, two per win and one per draw: the win rate
    /// reported and judged by the pass and resign rules, which the margin term must not bend.
    won: AtomicU32,
    /// Black's score margins in half-points, summed over those playouts (0 for an ending without
    /// a score): the expected margin that centres the margin term and that analyses report.
    margin_sum: AtomicI64,
    /// The children, one per legal move, once the node is expanded.
    children: OnceLock<Box<Children<M>>>,
}

/// A node's children and their AMAF statistics, in the same order, behind one thin pointer (a
/// slice's pointer and length would not leave the node room to fit a cache line).
#[derive(Debug)]
struct Children<M> {
    nodes: Box<[Node<M>]>,
    amaf: Box<[Amaf]>,
}

/// The AMAF statistics of one child, kept eight to a cache line beside its siblings' rather than
/// in the child: every playout credits about half the children of every node on its path, and
/// with several threads each credit's line had to come back from the other core before the next
/// selection there could read it; packed, a playout dirties an eighth of the lines. The visits
/// and the rewards share one word, so that a credit is one addition (one locked instruction
/// when threads share the node, not two) and a reader never sees one without the other.
#[derive(Debug, Default)]
pub(crate) struct Amaf(AtomicU64);

/// Where an [`Amaf`] word keeps its visits, above the rewards: 26 bits of visits and 38 of
/// rewards, which hold [`REWARD_SCALE`] times any count of visits the word holds.
const AMAF_VISIT_SHIFT: u32 = 38;

/// The rewards' bits of an [`Amaf`] word.
const AMAF_REWARDS: u64 = (1 << AMAF_VISIT_SHIFT) - 1;

/// Visits past which an [`Amaf`] word halves its counts (a long analysis credits a root child
/// billions of times): the ratio, the AMAF value, stays, and at such counts the child's own
/// visits outweigh its AMAF value anyway.
const AMAF_HALVE_AT: u64 = 1 << 25;

impl Amaf {
    /// The word that adds `visits` playouts of `rewards` in all.
    fn word(visits: u64, rewards: u64) -> u64 {
        (visits << AMAF_VISIT_SHIFT) | rewards
    }

    /// Playouts from the parent in which the child's mover played its move later on (all moves
    /// as first), and that mover's rewards in them.
    fn read(&self) -> (u64, u64) {
        let word = self.0.load(Relaxed);
        (word >> AMAF_VISIT_SHIFT, word & AMAF_REWARDS)
    }

    /// Adds `visits` playouts of `rewards` in all, with a locked addition (other threads may add
    /// at once).
    fn add(&self, visits: u64, rewards: u64) {
        let before = self.0.fetch_add(Amaf::word(visits, rewards), Relaxed);
        if (before >> AMAF_VISIT_SHIFT) + visits >= AMAF_HALVE_AT {
            self.halve();
        }
    }

    /// Adds one playout of `reward` by a plain load and store, which only a lone thread may.
    fn add_alone(&self, reward: u64) {
        let word = self.0.load(Relaxed) + Amaf::word(1, reward);
        self.0.store(word, Relaxed);
        if word >> AMAF_VISIT_SHIFT >= AMAF_HALVE_AT {
            self.halve();
        }
    }

    /// Halves both counts at once, however other threads add meanwhile.
    fn halve(&self) {
        let _ = self.0.fetch_update(Relaxed, Relaxed, |word| {
            let (visits, rewards) = (word >> AMAF_VISIT_SHIFT, word & AMAF_REWARDS);
            (visits >= AMAF_HALVE_AT).then(|| Amaf::word(visits / 2, rewards / 2))
        });
    }
}

impl<M> Node<M> {
    fn new(mv: M, mover: Color, prior: f32) -> Self {
        Node {
            mv,
            mover,
            prior,
            visits: AtomicU32::new(0),
            wins: AtomicU64::new(0),
            won: AtomicU32::new(0),
            margin_sum: AtomicI64::new(0),
            children: OnceLock::new(),
        }
    }

    /// The children (empty until expanded, and for terminal positions).
    pub fn children(&self) -> &[Node<M>] {
        self.children.get().map_or(&[], |c| &c.nodes)
    }

    /// The AMAF statistics of the children, in their order.
    fn amaf(&self) -> &[Amaf] {
        self.children.get().map_or(&[], |c| &c.amaf)
    }

    /// Playouts through this node.
    pub fn visits(&self) -> u32 {
        self.visits.load(Relaxed)
    }

    /// Rewards of the mover in them, out of [`REWARD_SCALE`] each.
    pub fn wins(&self) -> u64 {
        self.wins.load(Relaxed)
    }

    /// The mover's share of plain wins (a draw half) in the playouts through this node whose
    /// result is in; 0.5 before any.
    pub fn win_rate(&self) -> f64 {
        match self.visits() {
            0 => 0.5,
            visits => self.won.load(Relaxed) as f64 / (2.0 * f64::from(visits)),
        }
    }

    /// Black's mean score margin in points over the playouts through this node (0 before any).
    pub fn black_margin(&self) -> f64 {
        match self.visits() {
            0 => 0.0,
            visits => self.margin_sum.load(Relaxed) as f64 / (2.0 * f64::from(visits)),
        }
    }

    /// The visits of the two most visited children (0 for a missing one).
    fn two_most_visited(&self) -> (u64, u64) {
        self.children().iter().fold((0, 0), |(first, second), c| {
            let v = u64::from(c.visits());
            if v > first { (v, first) } else { (first, second.max(v)) }
        })
    }

    /// The nodes of the subtree below this one, this one included.
    fn subtree_size(&self) -> usize {
        let mut stack = vec![self];
        let mut size = 0;
        while let Some(node) = stack.pop() {
            size += 1;
            stack.extend(node.children());
        }
        size
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

/// One playout's whole reward: what a plain win is worth (fine enough for the margin term's few
/// hundredths to count).
pub(crate) const REWARD_SCALE: u64 = 1024;

/// Share of the reward that the score margin moves in variants whose margin counts
/// ([`Game::score_scale`]): any win still beats any loss.
const MARGIN_SHARE: f64 = 0.2;

/// Below this win rate for the side to move, a search is lost ([`Tree::steered`]): the score
/// margin then counts for at least [`LOST_SCORE_SHARE`] of the reward.
const LOST_BELOW: f64 = 0.1;

/// Above this win rate a lost search is no longer lost (above [`LOST_BELOW`], so that a win
/// rate about the threshold does not switch the rewards at every move).
const RECOVERED_ABOVE: f64 = 0.2;

/// The share of the reward the score margin moves in a lost search: every move loses alike, and
/// without the margin the search chose among them by chance, filling its own liberties and
/// letting living groups die (the collapse of issue 52's lost games); with it, the smallest loss
/// is sought, which keeps groups alive and leaves the opponent room to go wrong.
const LOST_SCORE_SHARE: f64 = 0.5;

/// Playouts the root needs before its win rate says whether the search is lost.
const LOST_AFTER: u32 = 1000;

/// How a playout's score margin enters its reward: the share of the reward it moves, the points
/// over which `tanh` spreads it, and whether it is measured from the margin the search expects
/// (or from an even game).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct MarginTerm {
    share: f64,
    scale: f64,
    centred: bool,
}

impl MarginTerm {
    /// The term for `game`'s variant: its own scale, from an even game, where the margin is the
    /// game (Borderline's live score); elsewhere on a board of stones, `score_share`
    /// ([`Settings::score_share`]) around the expected margin, on a scale of an eighth of the
    /// board's points; none without a board (Galice) or a share.
    pub(crate) fn of<G: Game>(game: &G, score_share: f64) -> Option<MarginTerm> {
        match game.score_scale() {
            Some(scale) => Some(MarginTerm { share: MARGIN_SHARE, scale, centred: false }),
            None => game.stones().filter(|_| score_share > 0.0).map(|stones| MarginTerm {
                share: score_share,
                scale: stones.board.geometry().area() as f64 / 8.0,
                centred: true,
            }),
        }
    }
}

/// Black's margin in points in a result: positive when Black won, negative when White did, 0 for
/// a draw or an ending without a score.
fn black_margin(result: GameResult) -> f64 {
    match (result.winner, result.ending) {
        (Some(Color::Black), Ending::Score(margin)) => margin.as_f64(),
        (Some(Color::White), Ending::Score(margin)) => -margin.as_f64(),
        _ => 0.0,
    }
}

/// Black's reward out of [`REWARD_SCALE`] for a playout's result: the win (a draw worth
/// `black_draw`), and with a margin term, Black's margin less `centre` squashed by `tanh` on the
/// term's scale, so that the search prefers larger wins and smaller losses among moves that win
/// (or lose) alike.
fn black_reward(result: GameResult, term: Option<MarginTerm>, centre: f64, black_draw: f64) -> u64 {
    let win = match result.winner {
        Some(Color::Black) => 1.0,
        Some(Color::White) => 0.0,
        None => black_draw,
    };
    let value = match (term, result.ending) {
        (Some(MarginTerm { share, scale, centred }), Ending::Score(_)) => {
            let from = if centred { centre } else { 0.0 };
            (1.0 - share) * win + share * 0.5 * (1.0 + ((black_margin(result) - from) / scale).tanh())
        }
        _ => win,
    };
    (value * REWARD_SCALE as f64).round() as u64
}

/// Black's plain result in half-wins: 2 for a win, 1 for a draw, 0 for a loss.
fn black_half_wins(result: GameResult) -> u64 {
    match result.winner {
        Some(Color::Black) => 2,
        Some(Color::White) => 0,
        None => 1,
    }
}

/// `color`'s share of a playout whose Black reward is `black`.
#[inline]
fn reward(black: u64, color: Color) -> u64 {
    match color {
        Color::Black => black,
        Color::White => REWARD_SCALE - black,
    }
}

/// A seed per thread, spread out so that neighbouring seeds give unrelated playouts.
fn thread_seed(seed: u64, thread: usize) -> u64 {
    let mut z = seed.wrapping_add((thread as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A search tree rooted at one position, with one worker (random generator and buffers) per
/// thread that grows it, so that it can grow on later (pondering, tree reuse).
pub(crate) struct Tree<G: Game> {
    pub root: Node<G::Move>,
    /// Playouts run.
    pub playouts: u64,
    /// Per point index, the playouts from this root whose final position gave the point to
    /// Black and to White ([`Game::owners`]), counting only playouts that went on past the tree
    /// (not those whose tree moves ended the game); empty for variants without ownership.
    pub ownership: Vec<[u32; 2]>,
    /// The playouts counted in `ownership` (a reused tree's earlier playouts started elsewhere).
    pub owned_playouts: u64,
    /// Nodes in the tree, against [`Settings::max_nodes`].
    nodes: AtomicUsize,
    /// How the score margin enters the playouts' rewards, for the root's variant.
    margin_term: Option<MarginTerm>,
    /// Whether the tree plays a lost game for the smallest loss ([`Tree::steered`]).
    lost: bool,
    /// What a draw is worth to Black, out of 1: a half, less [`Settings::contempt`] when the
    /// tree searches for Black (its root's side to move when it was made), more when for White.
    black_draw: f64,
    /// Playouts each child's prior weighs as: the settings' weight for this board.
    pub prior_visits: f64,
    /// The playouts' policy: the settings' for this board.
    policy: Policy,
    workers: Vec<Worker<G::Move>>,
}

/// What one thread needs to run playouts: its own random generator, buffers and counts.
/// Aligned to two cache lines so that two workers side by side in the tree's list never share
/// a line: each writes its generator and buffers hundreds of times a playout.
#[repr(align(128))]
struct Worker<M> {
    rng: SmallRng,
    scratch: Scratch<M>,
    /// Ownership counts of this thread's playouts since they were last added to the tree's.
    ownership: Vec<[u32; 2]>,
    owned_playouts: u64,
}

impl<M> Worker<M> {
    fn new(seed: u64) -> Self {
        Worker {
            rng: SmallRng::seed_from_u64(seed),
            scratch: Scratch::default(),
            ownership: Vec::new(),
            owned_playouts: 0,
        }
    }
}

/// Playouts a tree holds at most, whatever the budget (a long analysis, an absurd `--playouts`):
/// a node counts its visits and its plain wins in 32 bits, two a win.
pub(crate) const MAX_PLAYOUTS: u64 = (1 << 31) - 1;

/// Playouts between two payments of the AMAF credits a thread holds back ([`Credits`]).
const CREDIT_BATCH: u64 = 32;

/// Visits from which a node's children's AMAF credits are held back ([`Credits`]): against
/// this many, a lag of [`CREDIT_BATCH`] playouts a thread is small. Holding back every node's
/// (the fresh ones too, whose AMAF values steer while their own visits are few) lost 12-19 at
/// equal playouts against crediting at once (docs/ai.md).
const HOLD_AFTER_VISITS: u32 = 1024;

/// The AMAF credits (visits, rewards) a thread of a shared tree owes the children of the busy
/// nodes its playouts passed, by node and child, paid every [`CREDIT_BATCH`] playouts. Every
/// playout credits about half the children of every node on its path; each credit written to a
/// child dirtied its cache line for the other threads, whose next selection or credit there read
/// it back from another core: with two threads a playout took a third more CPU time than with
/// one, the busy nodes near the root, which every thread passes, paying most of it. Held back,
/// the credits leave those lines clean between two payments, and the list of a node's children's
/// moves, copied with their credits, spares reading the children to credit them. With one thread
/// nothing is held back, so a seeded search repeats itself exactly.
struct Credits<'t, M> {
    /// Whether credits are held back at all (several threads).
    held: bool,
    /// By the node's address.
    owed: HashMap<usize, Owed<'t, M>, BuildHasherDefault<FxHasher>>,
    /// Emptied lists, kept for reuse.
    spare: Vec<Vec<(M, [u64; 2])>>,
}

/// What a thread owes the children of one node.
struct Owed<'t, M> {
    node: &'t Node<M>,
    /// Who played the children's moves (the first child's colour: a pie rule's move judged by
    /// another colour places no stone, so no AMAF credit is lost by it).
    mover: Color,
    /// The children's moves, in their order, with what each is owed (visits, rewards).
    children: Vec<(M, [u64; 2])>,
}

impl<'t, M: Copy> Credits<'t, M> {
    fn new(held: bool) -> Self {
        Credits { held, owed: HashMap::default(), spare: Vec::new() }
    }

    /// What the children of `node` (an expanded node) are owed, if its credits are held back.
    fn owed_to(&mut self, node: &'t Node<M>) -> Option<&mut Owed<'t, M>> {
        if !self.held || node.visits() < HOLD_AFTER_VISITS {
            return None;
        }
        let spare = &mut self.spare;
        let owed = self.owed.entry(std::ptr::from_ref(node) as usize).or_insert_with(|| {
            let mut children = spare.pop().unwrap_or_default();
            children.extend(node.children().iter().map(|c| (c.mv, [0, 0])));
            Owed { node, mover: node.children()[0].mover, children }
        });
        Some(owed)
    }

    /// Credits a child's AMAF statistics with one playout of `reward` at once (a node not busy
    /// enough to hold its credits back): by locked additions when other threads may credit it
    /// too, else by a plain load and store, which spare a lone thread the price of a locked
    /// read-modify-write on every credit (a playout credits half the children of every node on
    /// its path: 5% of a light search's time).
    #[inline]
    fn credit(&self, amaf: &Amaf, reward: u64) {
        if self.held { amaf.add(1, reward) } else { amaf.add_alone(reward) }
    }

    /// Pays every credit held back.
    fn pay(&mut self) {
        for (_, Owed { node, mut children, .. }) in self.owed.drain() {
            for (amaf, (_, owed)) in node.amaf().iter().zip(&children) {
                if owed[0] > 0 {
                    amaf.add(owed[0], owed[1]);
                }
            }
            children.clear();
            self.spare.push(children);
        }
    }
}

/// Who played each move first in a playout, read from its end back (the AMAF rule): by point
/// for the moves that are placements, and in a map for the others (Galice's turns). The AMAF
/// credits ask about every child of every node on the path; an index in place of a hash look-up
/// there saves about 9% of a light search's time.
struct FirstPlayers<M> {
    /// By point index, for the moves [`Placement::placing`] makes.
    by_point: Vec<Option<Color>>,
    /// The moves that are not placements, a pass included.
    others: HashMap<M, Color, BuildHasherDefault<FxHasher>>,
}

impl<M: Placement + Copy + Eq + std::hash::Hash> FirstPlayers<M> {
    fn clear(&mut self) {
        self.by_point.fill(None);
        if !self.others.is_empty() {
            self.others.clear();
        }
    }

    /// Records that `color` played `mv` (a later record of the same move replaces it).
    fn insert(&mut self, mv: M, color: Color) {
        match Self::point_index(mv) {
            Some(i) => {
                if i >= self.by_point.len() {
                    self.by_point.resize(i + 1, None);
                }
                self.by_point[i] = Some(color);
            }
            None => {
                self.others.insert(mv, color);
            }
        }
    }

    fn get(&self, mv: M) -> Option<Color> {
        match Self::point_index(mv) {
            Some(i) => self.by_point.get(i).copied().flatten(),
            None => self.others.get(&mv).copied(),
        }
    }

    /// The index by which `mv` is kept in `by_point`: that of its point, if it is the one move
    /// that places a stone there (so that two moves never share an entry).
    #[inline]
    fn point_index(mv: M) -> Option<usize> {
        mv.placement().filter(|&p| M::placing(p) == Some(mv)).map(|p| p.index())
    }
}

impl<M> Default for FirstPlayers<M> {
    fn default() -> Self {
        FirstPlayers { by_point: Vec::new(), others: HashMap::default() }
    }
}

/// Buffers reused from playout to playout.
struct Scratch<M> {
    sequence: Vec<(M, Color)>,
    first_players: FirstPlayers<M>,
    moves: Vec<M>,
    priors: Vec<f32>,
    prior_buffers: PriorBuffers,
    owners: Vec<Option<Color>>,
}

impl<M> Default for Scratch<M> {
    fn default() -> Self {
        Scratch {
            sequence: Vec::new(),
            first_players: FirstPlayers::default(),
            moves: Vec::new(),
            priors: Vec::new(),
            prior_buffers: PriorBuffers::default(),
            owners: Vec::new(),
        }
    }
}

impl<G: Game> Tree<G> {
    /// A tree of `root` (a position that is not over) with its root's children and no playout,
    /// grown by `settings.threads` threads seeded from `settings.seed`.
    pub fn new(root: &G, settings: &Settings) -> Self {
        Self::playing(root, settings, false)
    }

    /// A tree of `root` whose rewards count the score margin as a lost game's (`lost`,
    /// [`LOST_SCORE_SHARE`] at least) or as the settings ask.
    fn playing(root: &G, settings: &Settings, lost: bool) -> Self {
        let share = if lost { settings.score_share.max(LOST_SCORE_SHARE) } else { settings.score_share };
        let mut workers: Vec<Worker<G::Move>> =
            (0..settings.threads.max(1)).map(|t| Worker::new(thread_seed(settings.seed, t))).collect();
        let scratch = &mut workers[0].scratch;
        root.legal_moves(&mut scratch.moves);
        let placeholder = *scratch.moves.first().expect("a position that is not over has a legal move");
        let tree = Tree {
            root: Node::new(placeholder, root.to_move().opponent(), 0.5),
            playouts: 0,
            ownership: Vec::new(),
            owned_playouts: 0,
            nodes: AtomicUsize::new(1),
            margin_term: MarginTerm::of(root, share),
            lost,
            black_draw: match root.to_move() {
                Color::Black => 0.5 - settings.contempt,
                Color::White => 0.5 + settings.contempt,
            },
            prior_visits: settings.prior_visits_for(root),
            policy: settings.playout_for(root),
            workers: Vec::new(),
        };
        tree.expand(&tree.root, root, scratch);
        Tree { workers, ..tree }
    }

    /// This tree, or a fresh one of `root` when the root's playouts ([`LOST_AFTER`] or more)
    /// find the game newly lost (a win rate below [`LOST_BELOW`] for the side to move) or no
    /// longer lost (above [`RECOVERED_ABOVE`]): a lost game is played for the smallest loss, and
    /// rewards counted the other way would mislead the playouts to come (a tree grown on results
    /// alone holds every losing line at 0, below any margin's reward). The win rate reported
    /// stays the results' alone.
    fn steered(self, root: &G, settings: &Settings) -> Self {
        if self.root.visits() < LOST_AFTER {
            return self;
        }
        let win_rate = 1.0 - self.root.win_rate();
        let lost = if self.lost { win_rate <= RECOVERED_ABOVE } else { win_rate < LOST_BELOW };
        if lost == self.lost { self } else { Self::playing(root, settings, lost) }
    }

    /// Grows the tree to `playouts` ([`Tree::grow_on`]) as a lost game's or not ([`Tree::steered`]):
    /// a tree without [`LOST_AFTER`] playouts yet (a search without a reused tree, as the
    /// server's) grows that many first to tell, when the budget is large enough to spare them.
    pub fn grown(self, root: &G, settings: &Settings, playouts: u64, budget: Option<&TimeBudget>) -> Self {
        let mut tree = self.steered(root, settings);
        let probe = u64::from(LOST_AFTER);
        if tree.playouts < probe && playouts >= 4 * probe {
            tree.grow_on(root, settings, probe, budget);
            tree = tree.steered(root, settings);
        }
        tree.grow_on(root, settings, playouts, budget);
        tree
    }

    /// Nodes in the tree.
    pub fn node_count(&self) -> usize {
        self.nodes.load(Relaxed)
    }

    /// The threads that grow the tree.
    pub fn threads(&self) -> usize {
        self.workers.len()
    }

    /// Runs playouts, on every worker's thread at once, until the tree holds `playouts` in all
    /// (at most [`MAX_PLAYOUTS`]) or the time `budget` is spent.
    pub fn grow_on(&mut self, root: &G, settings: &Settings, playouts: u64, budget: Option<&TimeBudget>) {
        let playouts = playouts.min(MAX_PLAYOUTS);
        let (already, claimed) = (self.playouts, AtomicU64::new(self.playouts));
        let mut workers = std::mem::take(&mut self.workers);
        let held = workers.len() > 1;
        let tree = &*self;
        let work = |worker: &mut Worker<G::Move>| {
            let mut credits = Credits::new(held);
            let mut run = 0u64;
            loop {
                if run.is_multiple_of(32)
                    && budget.is_some_and(|b| {
                        let (best, second) = tree.root.two_most_visited();
                        b.is_spent(claimed.load(Relaxed).saturating_sub(already), best, second)
                    })
                {
                    break;
                }
                if claimed.fetch_add(1, Relaxed) >= playouts {
                    break;
                }
                tree.playout(root, settings, worker, &mut credits);
                run += 1;
                if run.is_multiple_of(CREDIT_BATCH) {
                    credits.pay();
                }
            }
            credits.pay();
            run
        };
        let run: u64 = if let [worker] = &mut workers[..] {
            work(worker)
        } else {
            std::thread::scope(|scope| {
                let handles: Vec<_> = workers.iter_mut().map(|w| scope.spawn(|| work(w))).collect();
                handles.into_iter().map(|h| h.join().expect("a search thread panicked")).sum()
            })
        };
        self.playouts += run;
        for worker in &mut workers {
            if worker.owned_playouts > 0 {
                self.ownership.resize(worker.ownership.len(), [0, 0]);
                for (sum, count) in self.ownership.iter_mut().zip(&mut worker.ownership) {
                    sum[0] += std::mem::take(&mut count[0]);
                    sum[1] += std::mem::take(&mut count[1]);
                }
                self.owned_playouts += std::mem::take(&mut worker.owned_playouts);
            }
        }
        self.workers = workers;
    }

    /// Makes the position after `moves` (from the root) the new root, keeping the subtree below
    /// it with its statistics, so that a search after those moves starts from what was already
    /// learnt; `false`, leaving the tree unchanged, when the moves leave the expanded tree.
    pub fn descend(&mut self, moves: &[G::Move]) -> bool {
        let mut path = Vec::with_capacity(moves.len());
        let mut node = &self.root;
        for mv in moves {
            let Some(k) = node.children().iter().position(|c| c.mv == *mv) else { return false };
            path.push(k);
            node = &node.children()[k];
        }
        if node.children().is_empty() {
            return false;
        }
        for k in path {
            let children = self.root.children.take().expect("the path runs through expanded nodes");
            self.root = children.nodes.into_vec().swap_remove(k);
        }
        self.playouts = u64::from(self.root.visits());
        self.nodes.store(self.root.subtree_size(), Relaxed);
        // the kept playouts ended somewhere below the old root: their ownership is not the new one's
        self.ownership.clear();
        self.owned_playouts = 0;
        true
    }

    /// Adds the children of `node` (unless another thread has just done so) and returns them,
    /// each with its prior value where the settings ask for priors (a weight above 0) and the
    /// variant has a board of stones.
    fn expand<'t>(
        &'t self,
        node: &'t Node<G::Move>,
        state: &G,
        scratch: &mut Scratch<G::Move>,
    ) -> &'t [Node<G::Move>] {
        let moves = &mut scratch.moves;
        state.legal_moves(moves);
        drop_own_eye_fills(state, moves);
        let with_priors = self.prior_visits > 0.0
            && Weights::builtin_for(state).move_values(
                state,
                moves,
                &mut scratch.priors,
                &mut scratch.prior_buffers,
            );
        let prior = |k: usize| if with_priors { scratch.priors[k] } else { 0.5 };
        let children: Box<[Node<G::Move>]> =
            // a pie rule's move is judged by the colour its player takes (`Game::colour_after`)
            moves.iter().enumerate().map(|(k, &mv)| Node::new(mv, state.colour_after(mv), prior(k))).collect();
        let count = children.len();
        let amaf = (0..count).map(|_| Amaf::default()).collect();
        if node.children.set(Box::new(Children { nodes: children, amaf })).is_ok() {
            self.nodes.fetch_add(count, Relaxed);
        }
        node.children()
    }

    /// UCT on the RAVE-blended value: the AMAF value counts fully while the child has few visits of
    /// its own and fades as they grow (Gelly and Silver's minimum-error schedule).
    fn select<'t>(
        &self,
        parent: &Node<G::Move>,
        children: &'t [Node<G::Move>],
        settings: &Settings,
    ) -> &'t Node<G::Move> {
        let log_parent = (parent.visits().max(1) as f64).ln();
        let exploring = settings.exploration != 0.0;
        let scale = REWARD_SCALE as f64;
        let prior_visits = self.prior_visits;
        let mut best = (f64::NEG_INFINITY, &children[0]);
        for (c, amaf) in children.iter().zip(parent.amaf()) {
            let n = c.visits() as f64;
            let (amaf_visits, amaf_wins) = amaf.read();
            let an = amaf_visits as f64;
            // the prior counts as `prior_visits` playouts of its value, in both estimates
            let (n0, w0) = (prior_visits, prior_visits * c.prior as f64);
            let q = if n > 0.0 || n0 > 0.0 { (c.wins() as f64 / scale + w0) / (n + n0) } else { 0.5 };
            let value = if an > 0.0 {
                let aq = (amaf_wins as f64 / scale + w0) / (an + n0);
                let beta = an / (an + n + n * an / settings.rave_equivalence);
                beta * aq + (1.0 - beta) * q
            } else {
                q
            };
            // the exploration term only where it is asked for (0 by default): its square root and
            // division were a third of the selection's arithmetic
            let score = if exploring {
                value + settings.exploration * (log_parent / (n + 1.0)).sqrt()
            } else {
                value
            };
            if score > best.0 {
                best = (score, c);
            }
        }
        best.1
    }

    /// Visits a leaf needs before its children are added: [`Settings::expand_after`] until the
    /// tree is half full, then doubling with each further eighth of [`Settings::max_nodes`] it
    /// fills (16 times at seven eighths), and no more expansions once full. A tree that expanded
    /// at the same rate to the end stopped growing there: a 19x19 search fills two million nodes
    /// in about 20,000 playouts, a tenth of what 10 s on two threads run, and its later playouts
    /// deepened nothing. Raising the threshold from the start costs where the tree never fills
    /// (expansion after 8 visits lost 13-27 on 9x9, docs/ai.md), so the first half is as before.
    fn expansion_threshold(&self, settings: &Settings) -> u32 {
        let nodes = self.nodes.load(Relaxed);
        if nodes >= settings.max_nodes {
            return u32::MAX;
        }
        let eighths = (nodes as u64 * 8 / settings.max_nodes as u64) as u32;
        settings.expand_after.saturating_mul(1 << eighths.saturating_sub(3))
    }

    fn playout<'t>(
        &'t self,
        root: &G,
        settings: &Settings,
        worker: &mut Worker<G::Move>,
        credits: &mut Credits<'t, G::Move>,
    ) {
        let Worker { rng, scratch, .. } = worker;
        let mut state = root.clone();
        scratch.sequence.clear();
        let mut node = &self.root;
        node.visits.fetch_add(1, Relaxed);
        let mut path = Vec::with_capacity(32);
        path.push(node);
        // down the tree, counting a visit (the virtual loss) at every node on the way
        loop {
            let mut children = node.children();
            if children.is_empty() {
                // this playout's own visit is counted already: `expand_after` earlier ones
                if state.is_over() || node.visits() <= self.expansion_threshold(settings) {
                    break;
                }
                children = self.expand(node, &state, scratch);
            }
            let child = self.select(node, children, settings);
            child.visits.fetch_add(1, Relaxed);
            state.play(child.mv).expect("the tree holds the legal moves of its exact positions");
            scratch.sequence.push((child.mv, child.mover));
            path.push(child);
            node = child;
        }
        // a game the tree's moves ended (by passes, mostly) is counted as it stands: its final
        // position says nothing about which stones would be captured if play went on
        let played_out = !state.is_over();
        // the playout
        let cap = state.playout_cap();
        let mut played = 0;
        while played < cap && !state.is_over() {
            let mover = state.to_move();
            let mv = crate::playout::play_move(&mut state, rng, self.policy);
            scratch.sequence.push((mv, mover));
            played += 1;
        }
        let result = state.outcome().unwrap_or_else(|| state.score().result());
        let black = black_reward(result, self.margin_term, self.root.black_margin(), self.black_draw);
        Self::back_up(&path, scratch, credits, black, black_half_wins(result), black_margin(result));
        if played_out && settings.ownership {
            worker.count_owners(&state);
        }
    }

    /// Adds the result to every node on the path (whose visits were counted on the way down),
    /// and to the AMAF statistics of every child of a path node whose move its mover played
    /// first later in the playout. Passes get no AMAF credit: a pass is one move that means
    /// different things at different times.
    fn back_up<'t>(
        path: &[&'t Node<G::Move>],
        scratch: &mut Scratch<G::Move>,
        credits: &mut Credits<'t, G::Move>,
        black: u64,
        black_half_wins: u64,
        black_margin: f64,
    ) {
        let half_points = (2.0 * black_margin) as i64;
        for n in path {
            n.margin_sum.fetch_add(half_points, Relaxed);
            n.wins.fetch_add(reward(black, n.mover), Relaxed);
            let half_wins = if n.mover == Color::Black { black_half_wins } else { 2 - black_half_wins };
            n.won.fetch_add(half_wins as u32, Relaxed);
        }
        let first_players = &mut scratch.first_players;
        first_players.clear();
        let inner = path.len() - 1;
        for (i, &(mv, mover)) in scratch.sequence.iter().enumerate().rev() {
            if mv != G::PASS {
                first_players.insert(mv, mover);
            }
            if i >= inner {
                continue;
            }
            match credits.owed_to(path[i]) {
                Some(Owed { mover, children, .. }) => {
                    let credit = reward(black, *mover);
                    for (mv, owed) in children {
                        if first_players.get(*mv) == Some(*mover) {
                            owed[0] += 1;
                            owed[1] += credit;
                        }
                    }
                }
                None => {
                    for (c, amaf) in path[i].children().iter().zip(path[i].amaf()) {
                        if first_players.get(c.mv) == Some(c.mover) {
                            credits.credit(amaf, reward(black, c.mover));
                        }
                    }
                }
            }
        }
    }

    /// The principal variation below `node`: the most visited child, repeatedly, while that
    /// child has at least `min_visits` playouts (below that the line is noise).
    pub fn line_below(mut node: &Node<G::Move>, max: usize, min_visits: u32) -> Vec<G::Move> {
        let mut line = Vec::new();
        while line.len() < max {
            let Some(next) =
                node.children().iter().filter(|c| c.visits() >= min_visits.max(1)).max_by_key(|c| c.visits())
            else {
                break;
            };
            line.push(next.mv);
            node = next;
        }
        line
    }
}

/// Removes from `moves` the placements that fill one of the mover's own eyes (by the playouts'
/// eye rule, [`variago_rules::Board::is_eye`]), unless nothing else would be left. Such a move
/// never captures and only takes a liberty from the mover's own group. Kept, it was the collapse
/// of lost games: once every move loses, the win rates no longer tell it from the pass, and the
/// pass rules ([`crate::Search`]) refuse a pass that loses the count as it stands, so the search
/// filled its own eyes one by one until all its stones were captured.
fn drop_own_eye_fills<G: Game>(state: &G, moves: &mut Vec<G::Move>) {
    let Some(stones) = state.stones() else { return };
    let mover = state.to_move();
    let fills = |mv: &G::Move| mv.placement().is_some_and(|p| stones.board.is_eye(p, mover));
    if moves.iter().any(|mv| !fills(mv)) {
        moves.retain(|mv| !fills(mv));
    }
}

impl<M> Worker<M> {
    /// Adds who owns each point of a playout's final position to the ownership counts.
    fn count_owners<G: Game<Move = M>>(&mut self, end: &G) {
        let owners = &mut self.scratch.owners;
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use variago_rules::{AnyGame, Geometry, HalfPoints, Move, Point};

    /// Every node of the subtree below `node`, `node` included.
    fn nodes<M>(node: &Node<M>) -> Vec<&Node<M>> {
        let mut all = vec![node];
        let mut next = 0;
        while next < all.len() {
            all.extend(all[next].children());
            next += 1;
        }
        all
    }

    #[test]
    fn the_shared_tree_stays_consistent_under_threads() {
        let game = AnyGame::new(&"go".parse().unwrap(), Geometry::square(7).unwrap());
        let settings = Settings { threads: 4, ..Settings::default() };
        let mut tree = Tree::new(&game, &settings);
        for budget in [3000, 6000] {
            tree.grow_on(&game, &settings, budget, None);
            assert_eq!(tree.playouts, budget);
            // no virtual loss is left behind: every visit counted on the way down came back
            assert_eq!(u64::from(tree.root.visits()), budget);
            let all = nodes(&tree.root);
            assert_eq!(all.len(), tree.nodes.load(Relaxed), "every expansion counted once");
            for node in all {
                assert!(node.wins() <= u64::from(node.visits()) * REWARD_SCALE);
                let children = node.children();
                if children.is_empty() {
                    continue;
                }
                let through: u32 = children.iter().map(|c| c.visits()).sum();
                // the playouts that stopped here before it was expanded (none at the root)
                assert!(through <= node.visits() && node.visits() - through <= settings.expand_after);
                for (c, amaf) in children.iter().zip(node.amaf()) {
                    let (amaf_visits, amaf_wins) = amaf.read();
                    assert!(amaf_visits <= u64::from(node.visits()));
                    assert!(amaf_wins <= amaf_visits * REWARD_SCALE);
                    // every playout through a child credits its move (a pass gets no credit), so
                    // a credit held back by a thread and never paid shows here
                    if c.mv != AnyGame::PASS {
                        assert!(amaf_visits >= u64::from(c.visits()), "AMAF credits paid");
                    }
                }
            }
        }
        // a reused tree keeps the subtree below the moves, counted
        let best = tree.root.children().iter().max_by_key(|c| c.visits()).unwrap();
        let (mv, kept) = (best.mv, best.visits());
        assert!(tree.descend(&[mv]));
        assert_eq!(tree.playouts, u64::from(kept));
        assert_eq!(nodes(&tree.root).len(), tree.nodes.load(Relaxed));
    }

    #[test]
    fn a_filling_tree_expands_ever_busier_leaves_and_stops_when_full() {
        let game = AnyGame::new(&"go".parse().unwrap(), Geometry::square(9).unwrap());
        // light playouts, the quicker ones, with which the depth below was measured
        let settings = Settings { max_nodes: 40_000, playout: Some(Policy::Light), ..Settings::default() };
        let tree = Tree::new(&game, &settings);
        let at = |nodes: usize| {
            tree.nodes.store(nodes, Relaxed);
            tree.expansion_threshold(&settings)
        };
        assert_eq!((at(1), at(19_999), at(20_000), at(25_000), at(39_999)), (2, 2, 4, 8, 32));
        assert_eq!(at(40_000), u32::MAX);
        // grown, the tree stays within one expansion (82 nodes) of its bound and goes on deepening
        // (a tree that expanded after 2 visits to the end had a principal line of 2 moves here)
        let mut tree = Tree::new(&game, &settings);
        tree.grow_on(&game, &settings, 20_000, None);
        let nodes = tree.nodes.load(Relaxed);
        assert!((35_000..40_000 + 82).contains(&nodes), "{nodes} nodes");
        let principal = Tree::<AnyGame>::line_below(&tree.root, 40, 1);
        assert!(principal.len() >= 4, "principal line of {} moves", principal.len());
    }

    /// The first players of a playout, read from its end back as [`Tree::back_up`] reads them,
    /// answer as a plain map would: by point for placements, in the map for other moves, and
    /// nothing left over from the playout before.
    #[test]
    fn first_players_answer_as_a_map_from_one_playout_to_the_next() {
        use rand::Rng;
        /// A move that is not a placement (as Galice's turns are not).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        struct Turn(u8);
        impl Placement for Turn {}

        let points: Vec<Point> = Geometry::square(19).unwrap().points().collect();
        let mut rng = SmallRng::seed_from_u64(5);
        let (mut placements, mut turns) = (FirstPlayers::default(), FirstPlayers::default());
        for _ in 0..40 {
            placements.clear();
            turns.clear();
            let (mut expected_placements, mut expected_turns) = (HashMap::new(), HashMap::new());
            for _ in 0..rng.random_range(0..300) {
                let color = if rng.random() { Color::Black } else { Color::White };
                let mv = match rng.random_range(0..=points.len()) {
                    0 => Move::Pass,
                    k => Move::Place(points[k - 1]),
                };
                placements.insert(mv, color);
                expected_placements.insert(mv, color);
                let turn = Turn(rng.random_range(0..40));
                turns.insert(turn, color);
                expected_turns.insert(turn, color);
            }
            for mv in points.iter().map(|&p| Move::Place(p)).chain([Move::Pass]) {
                assert_eq!(placements.get(mv), expected_placements.get(&mv).copied(), "{mv:?}");
            }
            for turn in (0..40).map(Turn) {
                assert_eq!(turns.get(turn), expected_turns.get(&turn).copied(), "{turn:?}");
            }
        }
    }

    #[test]
    fn a_node_fills_one_cache_line_and_eight_amaf_statistics_share_one() {
        assert_eq!(std::mem::size_of::<Node<<AnyGame as Game>::Move>>(), 64);
        assert_eq!(std::mem::size_of::<Node<<variago_rules::galice::Galice as Game>::Move>>(), 64);
        assert_eq!(std::mem::size_of::<Amaf>(), 8);
    }

    #[test]
    fn amaf_words_count_like_separate_counters_and_halve_when_full() {
        let amaf = Amaf::default();
        let (mut visits, mut rewards) = (0u64, 0u64);
        for k in 0..2000u64 {
            let reward = (k * 37) % (REWARD_SCALE + 1);
            if k % 3 == 0 {
                amaf.add(1, reward)
            } else {
                amaf.add_alone(reward)
            }
            (visits, rewards) = (visits + 1, rewards + reward);
        }
        amaf.add(32, 32 * REWARD_SCALE);
        assert_eq!(amaf.read(), (visits + 32, rewards + 32 * REWARD_SCALE));
        // a root child of a long analysis: every playout a full reward, up to the halving
        let full = Amaf::default();
        full.add(AMAF_HALVE_AT - 1, (AMAF_HALVE_AT - 1) * REWARD_SCALE);
        assert_eq!(full.read(), (AMAF_HALVE_AT - 1, (AMAF_HALVE_AT - 1) * REWARD_SCALE));
        full.add_alone(REWARD_SCALE);
        assert_eq!(full.read(), (AMAF_HALVE_AT / 2, AMAF_HALVE_AT / 2 * REWARD_SCALE));
        full.add(AMAF_HALVE_AT / 2, 0);
        assert_eq!(full.read(), (AMAF_HALVE_AT / 2, AMAF_HALVE_AT / 2 * REWARD_SCALE / 2));
    }

    fn result(winner: Option<Color>, margin: i32) -> GameResult {
        GameResult { winner, ending: Ending::Score(HalfPoints(margin)) }
    }

    #[test]
    fn the_margin_orders_results_only_where_the_variant_asks_and_never_across_wins_and_losses() {
        let term = Some(MarginTerm { share: MARGIN_SHARE, scale: 20.0, centred: false });
        // an uncentred term ignores the expected margin
        let big_win = black_reward(result(Some(Color::Black), 80), term, 30.0, 0.5);
        let small_win = black_reward(result(Some(Color::Black), 1), term, 30.0, 0.5);
        let small_loss = black_reward(result(Some(Color::White), 1), term, 30.0, 0.5);
        let big_loss = black_reward(result(Some(Color::White), 80), term, 30.0, 0.5);
        assert!(big_win > small_win && small_win > small_loss && small_loss > big_loss);
        assert!(small_win > REWARD_SCALE / 2 + REWARD_SCALE / 4, "a win stays worth most of the reward");
        assert_eq!(black_reward(result(None, 0), term, 30.0, 0.5), REWARD_SCALE / 2);
        // without a term only the result counts
        assert_eq!(black_reward(result(Some(Color::Black), 80), None, 0.0, 0.5), REWARD_SCALE);
        assert_eq!(black_reward(result(Some(Color::Black), 1), None, 0.0, 0.5), REWARD_SCALE);
        assert_eq!(black_reward(result(Some(Color::White), 1), None, 0.0, 0.5), 0);
        // White's share mirrors Black's
        assert_eq!(reward(small_win, Color::White), REWARD_SCALE - small_win);
    }

    #[test]
    fn a_draw_leans_against_the_side_the_tree_searches_for() {
        let settings = Settings { contempt: 0.1, ..Settings::default() };
        let mut game = AnyGame::new(&"go".parse().unwrap(), Geometry::square(5).unwrap());
        let four_tenths = (0.4 * REWARD_SCALE as f64).round() as u64;
        let draw = result(None, 0);
        // Black to move: the draw is worth four tenths of a win to Black
        let for_black = Tree::new(&game, &settings);
        assert_eq!(black_reward(draw, None, 0.0, for_black.black_draw), four_tenths);
        // White to move: to White
        game.play(Move::Pass).unwrap();
        let for_white = Tree::new(&game, &settings);
        assert_eq!(reward(black_reward(draw, None, 0.0, for_white.black_draw), Color::White), four_tenths);
    }

    #[test]
    fn a_centred_term_tells_losses_apart_around_the_expected_margin() {
        // 9x9: a scale of 81/8 points; Black expected to lose by 24
        let term = Some(MarginTerm { share: 0.1, scale: 81.0 / 8.0, centred: true });
        let lose_by = |points: i32| black_reward(result(Some(Color::White), 2 * points), term, -24.0, 0.5);
        // losing by 14 instead of 34 is worth about a tenth of a win times tanh(10/10.1)...
        let gap = (lose_by(14) - lose_by(34)) as f64 / REWARD_SCALE as f64;
        let expected = 0.1 * (10.0_f64 / (81.0 / 8.0)).tanh();
        assert!((gap - expected).abs() < 0.002, "{gap} against {expected}");
        // ...while any win, however small, still beats the smallest loss
        let smallest_win = black_reward(result(Some(Color::Black), 1), term, 40.0, 0.5);
        assert!(smallest_win > lose_by(0) + REWARD_SCALE / 2);
        // Go's terms: centred, on an eighth of the board, none without a share
        let go = AnyGame::new(&"go".parse().unwrap(), Geometry::square(9).unwrap());
        assert_eq!(MarginTerm::of(&go, 0.1), term);
        assert_eq!(MarginTerm::of(&go, 0.0), None);
    }

    #[test]
    fn the_win_rate_counts_results_alone() {
        let game = AnyGame::new(&"go".parse().unwrap(), Geometry::square(5).unwrap());
        let settings = Settings { playouts: 500, score_share: 0.1, ..Settings::default() };
        let mut tree = Tree::new(&game, &settings);
        tree.grow_on(&game, &settings, 500, None);
        for c in tree.root.children().iter().filter(|c| c.visits() > 0) {
            let halves = c.won.load(Relaxed);
            assert!(halves <= 2 * c.visits());
            assert_eq!(c.win_rate(), halves as f64 / (2.0 * f64::from(c.visits())));
            // the rewards carry the margin too, so they differ from the plain wins
            let plain = halves as f64 / 2.0 * REWARD_SCALE as f64;
            assert!(
                (c.wins() as f64 - plain).abs() <= 0.1 * REWARD_SCALE as f64 * f64::from(c.visits()) + 1.0
            );
        }
        let expected = tree.root.black_margin();
        assert!(expected.abs() < 25.0, "5x5 margins stay within the board: {expected}");
        assert_ne!(expected, 0.0, "margins were counted");
    }
}
