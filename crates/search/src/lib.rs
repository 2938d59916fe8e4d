//! variago's AI: Monte-Carlo tree search (UCT with RAVE/AMAF) over light playouts, generic over
//! the rules engine's [`Game`] trait so that every variant gets an opponent from one search.
//!
//! The search is monomorphised per variant (no `dyn` in the playout loop). Threads share one
//! tree, its statistics atomic counters, with a virtual loss steering them apart (see the `tree`
//! module), so that they build one deeper tree without locking. A playout-limited search on one
//! thread is reproducible (same seed, same moves); on several, the threads' interleaving varies
//! from run to run. Pure library: std threads, no I/O, no async.

pub mod features;
pub mod playout;
pub mod priors;
mod time;
pub mod train;
mod tree;

use std::any::Any;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use variago_rules::any::GameVisitor;
use variago_rules::{AnyGame, Color, Game, Move, ScoreSheet};

use crate::time::TimeBudget;
use crate::tree::Tree;

/// How long and how the search thinks: the knobs a caller (CLI, GTP, match runner) sets.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Playouts for the whole move, summed over threads: the limit that makes results
    /// reproducible (on one thread). `u64::MAX` means no limit when `time` is set (without
    /// `time` the default budget applies, so that a search always ends).
    pub playouts: u64,
    /// Wall-clock time for the move, the limit people and matches use. A search stops before it
    /// once its most visited move could not be caught up with in the time left (a clear or
    /// forced move: the move is the same, the time is saved).
    pub time: Option<Duration>,
    /// With `time`: the longest the search may go on past `time` while its two most visited
    /// moves are close (an unclear move); `None`, the default, never goes past `time`. For a
    /// clock whose savings on clear moves pay for it (GTP's time settings).
    pub max_time: Option<Duration>,
    /// Threads, all growing the one tree; at least 1.
    pub threads: usize,
    /// Seed of the first thread's playouts; thread `t` derives its own seed from it, so on one
    /// thread the same seed and playout budget give the same move.
    pub seed: u64,
    /// UCT exploration constant: 0 by default, as RAVE and the priors already spread the early
    /// visits (as in Fuego and Pachi); with RAVE's equivalence at 3000, 0 beat 0.2 35-5 with
    /// heavy playouts and 32-8 with light ones (docs/ai.md).
    pub exploration: f64,
    /// Visits at which a child's own value and its AMAF value weigh about equally: RAVE's
    /// equivalence parameter. 3000 (Pachi's value too) beat 1000 28-12 and 10000 23-17 at
    /// 2,000 heavy playouts (docs/ai.md).
    pub rave_equivalence: f64,
    /// Visits a leaf needs before its children are added: keeps the tree (and memory) small.
    pub expand_after: u32,
    /// Nodes the tree may hold: beyond it leaves stop expanding (a memory bound for long time
    /// limits; a node takes about 75 bytes with its AMAF statistics).
    pub max_nodes: usize,
    /// Playouts the learned prior of a new node weighs as ([`priors`]): how long the features'
    /// judgement of a move leads before the playouts' own results take over; 0 turns the priors
    /// off (the plain search, for comparisons). `None`, the default, takes the board's own
    /// weight ([`priors::default_prior_visits`]).
    pub prior_visits: Option<f64>,
    /// Whether the playouts count who owns each point at their end ([`Analysis::ownership`]):
    /// a second count of every playout's final board, so only callers that read it (GTP's
    /// dead-stone judgement) ask for it.
    pub ownership: bool,
    /// Resign when the best move's win rate is below this (after enough playouts); `None`, the
    /// default, never resigns so that no game is given away by a noisy estimate.
    pub resign_below: Option<f64>,
    /// The playouts' move policy ([`playout::Policy`]): light (atari answers, then
    /// random) or heavy (atari answers, learned 3x3 patterns around the last move, no
    /// self-atari). `None`, the default, takes the board's own ([`playout::Policy::default_for`]:
    /// heavy from 9x9, light below).
    pub playout: Option<playout::Policy>,
    /// Share of a playout's reward that its score margin moves, around the margin the search
    /// expects, in variants with a board of stones whose result alone is the game (Go, the
    /// Incursion family): then among moves that win (or lose) alike the search prefers the
    /// larger margin, as KataGo's score utility does. 0 values the result alone; any win still
    /// beats any loss below 0.5. Borderline keeps its own margin term whatever this is.
    pub score_share: f64,
    /// How much less than half a win a draw is worth to the side the search plays for (the
    /// root's side to move), and more to its opponent, so that the tree stays zero-sum: the
    /// search steers clear of a draw unless it thinks itself losing by more than this. A
    /// Square Lifeline or Incursion game where either side can repeat its own position is
    /// otherwise drawn by whoever finds the repetition first (docs/ai.md).
    pub contempt: f64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            playouts: 10_000,
            time: None,
            max_time: None,
            threads: 1,
            seed: 1,
            exploration: 0.0,
            rave_equivalence: 3000.0,
            expand_after: 2,
            max_nodes: 2_000_000,
            prior_visits: None,
            ownership: false,
            resign_below: None,
            playout: None,
            score_share: DEFAULT_SCORE_SHARE,
            contempt: DEFAULT_CONTEMPT,
        }
    }
}

impl Settings {
    /// The weight of the learned priors on `game`'s board: [`Settings::prior_visits`], or the
    /// board's own by default.
    pub fn prior_visits_for<G: Game>(&self, game: &G) -> f64 {
        self.prior_visits.unwrap_or_else(|| priors::default_prior_visits(game))
    }

    /// The playouts' policy on `game`'s board: [`Settings::playout`], or the board's own by
    /// default.
    pub fn playout_for<G: Game>(&self, game: &G) -> playout::Policy {
        self.playout.unwrap_or_else(|| playout::Policy::default_for(game))
    }
}

/// [`Settings::score_share`] by default.
pub const DEFAULT_SCORE_SHARE: f64 = 0.0;

/// [`Settings::contempt`] by default.
pub const DEFAULT_CONTEMPT: f64 = 0.1;

/// A strength a person can pick, 1 (weakest) to 10 (strongest): the budgets grow by doubling so
/// that each level is clearly stronger than the one below.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

impl Level {
    /// The weakest level.
    pub const MIN: Level = Level(1);
    /// The strongest level: the full time budget.
    pub const MAX: Level = Level(10);
    /// The time the strongest level thinks per move.
    pub const FULL_TIME: Duration = Duration::from_secs(5);

    /// A level from 1 to 10, or `None` outside that range.
    pub fn new(level: u8) -> Option<Level> {
        (1..=10).contains(&level).then_some(Level(level))
    }

    /// The level's number.
    pub fn get(self) -> u8 {
        self.0
    }

    /// Playouts per move: 250 at level 1, doubling up to 64,000 at level 9; `None` at level 10,
    /// which thinks for [`Level::FULL_TIME`] instead.
    pub fn playouts(self) -> Option<u64> {
        (self.0 < 10).then(|| 250 << (self.0 - 1))
    }

    /// Default settings with this level's budget.
    pub fn settings(self) -> Settings {
        match self.playouts() {
            Some(playouts) => Settings { playouts, ..Settings::default() },
            None => Settings { playouts: u64::MAX, time: Some(Self::FULL_TIME), ..Settings::default() },
        }
    }
}

/// What the search found for one root move.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveStats<M> {
    /// The move.
    pub mv: M,
    /// Playouts through it.
    pub visits: u64,
    /// Its win rate for the side to move (a draw counts half).
    pub winrate: f64,
    /// The side to move's mean score margin in points over its playouts (their final positions
    /// counted by the variant's score, komi included; 0 before any playout or without a score):
    /// what GTP's `kata-analyze` reports as `scoreLead`.
    pub score_lead: f64,
    /// The search's prior for it, before any playout: the learned move model's probability
    /// ([`priors::Weights::move_policy`]) where the variant has a board of stones and the priors
    /// are on, else 1 / (number of legal moves) for every move alike.
    pub prior: f64,
    /// Expected continuation, starting with the move itself, cut where a move has fewer than
    /// [`PV_MIN_VISITS`] playouts.
    pub pv: Vec<M>,
}

/// Playouts a move needs to appear in a principal variation after its first move: below this
/// the most visited reply is chance, not the search's expectation.
pub const PV_MIN_VISITS: u32 = 10;

/// Moves a principal variation holds at most.
const PV_LENGTH: usize = 16;

/// The search's answer: the move to play and the evidence for it, for display and for tests.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis<M> {
    /// The move to play (most visited, corrected by the pass rules).
    pub best: M,
    /// Playouts through the chosen move.
    pub visits: u64,
    /// The chosen move's win rate for the side to move.
    pub winrate: f64,
    /// Whether the side to move should resign (only with [`Settings::resign_below`]).
    pub resign: bool,
    /// Expected continuation, starting with `best`, cut where a move has fewer than
    /// [`PV_MIN_VISITS`] playouts.
    pub pv: Vec<M>,
    /// Every root move, most visited first.
    pub moves: Vec<MoveStats<M>>,
    /// Per point index ([`variago_rules::Point::index`]), the share of playouts whose final
    /// position gave the point to Black and to White (by the variant's [`Game::owners`]; the
    /// rest ended neutral). Playouts whose tree moves ended the game (two passes) are left out:
    /// they count the board as it stands, which is what ownership is there to correct (which
    /// stones would die if play went on). Only the playouts run by this search count, not those
    /// a reused tree brought. Empty when the variant has no ownership, no playout counted, or
    /// [`Settings::ownership`] is off.
    pub ownership: Vec<[f64; 2]>,
    /// Playouts run in all.
    pub playouts: u64,
    /// Nodes in the tree at the end, against [`Settings::max_nodes`]: how full the search left it.
    pub nodes: usize,
    /// Wall-clock time the search took.
    pub elapsed: Duration,
}

/// The search: settings plus the entry points that run it.
#[derive(Clone, Debug, Default)]
pub struct Search {
    settings: Settings,
}

impl Search {
    /// A search with these settings.
    pub fn new(settings: Settings) -> Self {
        Search { settings }
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The move to play for the side to move, or `None` once the game is over.
    pub fn best_move<G: Game>(&self, game: &G) -> Option<G::Move> {
        self.analyse(game).map(|a| a.best)
    }

    /// Searches `game` within the limits and returns the chosen move with its statistics, or
    /// `None` once the game is over.
    pub fn analyse<G: Game>(&self, game: &G) -> Option<Analysis<G::Move>> {
        self.analyse_reusing(game, None, &[]).map(|(analysis, _)| analysis)
    }

    /// Grows the tree (on every thread) to the playout budget, counting the playouts a reused
    /// tree already holds, or until the time `budget` is spent; the tree grown, a fresh one if the
    /// game turned out lost or no longer lost ([`Tree::grown`]).
    fn grow<G: Game>(&self, game: &G, tree: Tree<G>, budget: Option<&TimeBudget>) -> Tree<G> {
        let settings = &self.settings;
        let playouts = if settings.time.is_none() && settings.playouts == u64::MAX {
            Settings::default().playouts
        } else {
            settings.playouts
        };
        tree.grown(game, settings, playouts, budget)
    }

    /// Like [`Search::analyse`], but starting from the tree `kept` by an earlier search when
    /// `moves` lead from that search's position to `game`: the subtree below them becomes the new
    /// root, and its playouts count toward the budget (tree reuse between moves). The position
    /// searched is the kept one after `moves`, checked against `game`'s hash; without a match
    /// (or without `kept`) the search starts afresh. Returns the tree to keep for next time.
    pub fn analyse_reusing<G: Game>(
        &self,
        game: &G,
        kept: Option<Kept<G>>,
        moves: &[G::Move],
    ) -> Option<(Analysis<G::Move>, Kept<G>)> {
        if game.is_over() {
            return None;
        }
        let start = Instant::now();
        let threads = self.settings.threads.max(1);
        let (root, tree) = kept
            .and_then(|k| k.after(game, moves, threads))
            .unwrap_or_else(|| (game.clone(), Tree::new(game, &self.settings)));
        let budget = self.settings.time.map(|time| TimeBudget {
            start,
            time,
            max_time: self.settings.max_time.unwrap_or(time).max(time),
            adaptive: true,
        });
        let tree = self.grow(&root, tree, budget.as_ref());
        let analysis = self.conclude(&root, &tree, start.elapsed());
        Some((analysis, Kept { game: root, tree }))
    }

    /// [`Search::analyse_reusing`] with the kept tree type-erased, for callers that keep the tree
    /// of whichever variant they play (the match referee): a kept tree of another variant is
    /// ignored and the search starts afresh.
    pub fn analyse_reusing_erased<G: Game>(
        &self,
        game: &G,
        kept: Option<KeptAny>,
        moves: &[G::Move],
    ) -> Option<(Analysis<G::Move>, KeptAny)> {
        let kept = kept.and_then(|k| k.0.downcast::<Kept<G>>().ok()).map(|k| *k);
        let (analysis, kept) = self.analyse_reusing(game, kept, moves)?;
        Some((analysis, KeptAny(Box::new(kept))))
    }

    /// [`Search::analyse_reusing`] for a single-board position whose variant was chosen at run
    /// time, monomorphised like [`Search::analyse_any`].
    pub fn analyse_any_reusing(
        &self,
        game: &AnyGame,
        kept: Option<KeptAny>,
        moves: &[Move],
    ) -> Option<(Analysis<Move>, KeptAny)> {
        game.clone().visit(AnyReuse { search: self, kept, moves })
    }

    /// Searches a single-board position whose variant was chosen at run time (CLI, GTP, match
    /// runner): the search runs on the concrete game inside, monomorphised, and the moves come
    /// back as plain [`Move`]s.
    pub fn analyse_any(&self, game: &AnyGame) -> Option<Analysis<Move>> {
        game.clone().visit(AnyAnalysis(self))
    }

    /// Starts pondering `game`: a search that runs in steps, as long as the caller wants (GTP's
    /// `lz-analyze`), with these settings' threads and seed (their limits are ignored: each step
    /// says how long it runs). `None` once the game is over.
    pub fn ponder<G: Game>(&self, game: &G) -> Option<Pondering<G>> {
        if game.is_over() {
            return None;
        }
        let tree = Tree::new(game, &self.settings);
        Some(Pondering { search: self.clone(), game: game.clone(), tree, elapsed: Duration::ZERO })
    }

    /// Reads the root's statistics and applies the pass and resign rules.
    fn conclude<G: Game>(&self, game: &G, tree: &Tree<G>, elapsed: Duration) -> Analysis<G::Move> {
        let children = tree.root.children();
        let root_moves: Vec<G::Move> = children.iter().map(|c| c.mv).collect();
        let policy = (tree.prior_visits > 0.0)
            .then(|| priors::Weights::builtin_for(game).move_policy(game, &root_moves))
            .flatten()
            .unwrap_or_else(|| vec![1.0 / root_moves.len() as f64; root_moves.len()]);
        let ending_pass = ending_pass_winrate(game);
        let mut moves: Vec<MoveStats<G::Move>> = children
            .iter()
            .zip(policy)
            .map(|(child, prior)| {
                let mut pv = vec![child.mv];
                pv.extend(Tree::<G>::line_below(child, PV_LENGTH - 1, PV_MIN_VISITS));
                let visits = u64::from(child.visits());
                let winrate = match ending_pass {
                    Some(exact) if child.mv == G::PASS => exact,
                    _ => child.win_rate(),
                };
                let black_margin = child.black_margin();
                let score_lead = if child.mover == Color::Black { black_margin } else { -black_margin };
                MoveStats { mv: child.mv, visits, winrate, score_lead, prior, pv }
            })
            .collect();
        // most visited first; a stable sort keeps the legal-move order among equals
        moves.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.winrate.total_cmp(&a.winrate)));
        let chosen = self.apply_pass_rules(game, &moves, ending_pass);
        let best = moves[chosen].clone();
        let resign = self.settings.resign_below.is_some_and(|t| best.winrate < t && best.visits >= 200);
        Analysis {
            best: best.mv,
            visits: best.visits,
            winrate: best.winrate,
            resign,
            pv: best.pv,
            moves,
            ownership: ownership(tree),
            playouts: tree.playouts,
            nodes: tree.node_count(),
            elapsed,
        }
    }

    /// Index of the move to play among `moves` (most visited first). Passing is chosen when it ends
    /// the game with a win; otherwise a pass is kept only if the area score as it stands is a win
    /// for the mover (so the opponent cannot end the game with a loss for us by passing too) or if
    /// it is the only legal move; otherwise the most visited other move is played. `ending_pass`
    /// is [`ending_pass_winrate`] of `game`.
    fn apply_pass_rules<G: Game>(
        &self,
        game: &G,
        moves: &[MoveStats<G::Move>],
        ending_pass: Option<f64>,
    ) -> usize {
        if ending_pass == Some(1.0)
            && let Some(pass) = moves.iter().position(|m| m.mv == G::PASS)
        {
            return pass;
        }
        if moves[0].mv != G::PASS || moves.len() == 1 || game.score().result().winner == Some(game.to_move())
        {
            return 0;
        }
        1
    }
}

/// The exact win rate of passing for the side to move when the pass ends the game (1 for a win,
/// 0.5 for a draw, 0 for a loss), `None` when it does not. The search need not visit such a pass
/// to know its value, and an analysis that showed the 0.5 of no visits would make a winning pass
/// look like a coin toss to the rules that weigh other moves against it (GTP's settling moves).
pub fn ending_pass_winrate<G: Game>(game: &G) -> Option<f64> {
    let mut after = game.clone();
    if after.play(G::PASS).is_err() || !after.is_over() {
        return None;
    }
    let result = after.outcome()?;
    Some(match result.winner {
        Some(winner) if winner == game.to_move() => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    })
}

/// The tree's ownership counts as shares of the playouts counted.
fn ownership<G: Game>(tree: &Tree<G>) -> Vec<[f64; 2]> {
    let counted = tree.owned_playouts as f64;
    if tree.owned_playouts == 0 {
        return Vec::new();
    }
    tree.ownership.iter().map(|[b, w]| [f64::from(*b) / counted, f64::from(*w) / counted]).collect()
}

/// A search that keeps its tree between steps, so that an analysis shown while it runs (a GUI's
/// live evaluation) deepens the longer it runs, and stops whenever the caller stops asking.
pub struct Pondering<G: Game> {
    search: Search,
    game: G,
    tree: Tree<G>,
    /// Time spent in the steps so far.
    elapsed: Duration,
}

impl<G: Game> Pondering<G> {
    /// Grows the tree for `time` more (on every thread) and returns the analysis of all the
    /// playouts so far, with the pass and resign rules of [`Search::analyse`].
    pub fn step(&mut self, time: Duration) -> Analysis<G::Move> {
        let start = Instant::now();
        let budget = TimeBudget { start, time, max_time: time, adaptive: false };
        // the tree stops at its own limit of playouts (`tree::MAX_PLAYOUTS`)
        self.tree.grow_on(&self.game, &self.search.settings, u64::MAX, Some(&budget));
        self.elapsed += start.elapsed();
        self.search.conclude(&self.game, &self.tree, self.elapsed)
    }
}

/// The tree of a finished search, kept for the next move of the same game.
pub struct Kept<G: Game> {
    /// The position it was grown from.
    game: G,
    tree: Tree<G>,
}

impl<G: Game> Kept<G> {
    /// The kept position after `moves` and the tree re-rooted there, if it is `game`, the tree
    /// still reaches it and was grown by as many threads.
    fn after(mut self, game: &G, moves: &[G::Move], threads: usize) -> Option<(G, Tree<G>)> {
        if self.tree.threads() != threads {
            return None;
        }
        let mut root = self.game.clone();
        for &mv in moves {
            root.play(mv).ok()?;
        }
        if root.hash() != game.hash() || root.is_over() {
            return None;
        }
        self.tree.descend(moves).then_some((root, self.tree))
    }
}

/// A [`Kept`] tree of whichever variant the search ran on (an `AnyGame`'s or Galice's), its
/// concrete game type hidden.
pub struct KeptAny(Box<dyn Any + Send>);

/// How long one step of pondering grows the tree before it looks at its stop flag again: the
/// most a caller waits for a pondering tree back.
const PONDER_STEP: Duration = Duration::from_millis(20);

impl KeptAny {
    /// Grows the kept tree on the opponent's time (GTP's pondering): re-rooted at `game`, the
    /// kept position after `moves` (the move just played), on every thread of `settings`, until
    /// `stop` is set, then returns it for the next search to reuse. `None` when the moves leave
    /// the tree or end the game (nothing to ponder).
    pub fn ponder(
        self,
        game: &AnyGame,
        moves: &[Move],
        settings: &Settings,
        stop: &AtomicBool,
    ) -> Option<KeptAny> {
        game.clone().visit(AnyPonder { kept: self, moves, settings, stop })
    }
}

/// Ponders on the concrete game inside an `AnyGame`.
struct AnyPonder<'a> {
    kept: KeptAny,
    moves: &'a [Move],
    settings: &'a Settings,
    stop: &'a AtomicBool,
}

impl GameVisitor for AnyPonder<'_> {
    type Output = Option<KeptAny>;

    fn visit<G: Game>(self, game: G) -> Self::Output {
        let kept = *self.kept.0.downcast::<Kept<G>>().ok()?;
        let (root, mut tree) = kept.after(&game, &cast_moves(self.moves), self.settings.threads.max(1))?;
        while !self.stop.load(Ordering::Relaxed) {
            if tree.playouts >= tree::MAX_PLAYOUTS {
                // the counters are full: wait to be stopped
                std::thread::sleep(PONDER_STEP);
                continue;
            }
            let step = TimeBudget {
                start: Instant::now(),
                time: PONDER_STEP,
                max_time: PONDER_STEP,
                adaptive: false,
            };
            tree.grow_on(&root, self.settings, u64::MAX, Some(&step));
        }
        Some(KeptAny(Box::new(Kept { game: root, tree })))
    }
}

/// Single-board moves as the concrete game's moves (a type check the compiler resolves per
/// variant).
fn cast_moves<M: Copy + 'static>(moves: &[Move]) -> Vec<M> {
    moves
        .iter()
        .map(|mv| *(mv as &dyn Any).downcast_ref::<M>().expect("single-board variants play Move"))
        .collect()
}

/// Runs a reusing search on the concrete game inside an `AnyGame`.
struct AnyReuse<'a> {
    search: &'a Search,
    kept: Option<KeptAny>,
    moves: &'a [Move],
}

impl GameVisitor for AnyReuse<'_> {
    type Output = Option<(Analysis<Move>, KeptAny)>;

    fn visit<G: Game>(self, game: G) -> Self::Output {
        let (analysis, kept) =
            self.search.analyse_reusing_erased(&game, self.kept, &cast_moves(self.moves))?;
        Some((single_board(analysis), kept))
    }
}

/// Runs a search on the concrete single-board game inside an `AnyGame`, monomorphised.
struct AnyAnalysis<'a>(&'a Search);

impl GameVisitor for AnyAnalysis<'_> {
    type Output = Option<Analysis<Move>>;

    fn visit<G: Game>(self, game: G) -> Self::Output {
        self.0.analyse(&game).map(single_board)
    }
}

/// The analysis with its moves as single-board [`Move`]s: every variant an `AnyGame` holds plays
/// them (a type check the compiler resolves per variant).
fn single_board<M: Copy + 'static>(analysis: Analysis<M>) -> Analysis<Move> {
    let cast = |mv: M| *(&mv as &dyn Any).downcast_ref::<Move>().expect("single-board variants play Move");
    Analysis {
        best: cast(analysis.best),
        visits: analysis.visits,
        winrate: analysis.winrate,
        resign: analysis.resign,
        pv: analysis.pv.into_iter().map(cast).collect(),
        moves: analysis
            .moves
            .into_iter()
            .map(|m| MoveStats {
                mv: cast(m.mv),
                visits: m.visits,
                winrate: m.winrate,
                score_lead: m.score_lead,
                prior: m.prior,
                pv: m.pv.into_iter().map(cast).collect(),
            })
            .collect(),
        ownership: analysis.ownership,
        playouts: analysis.playouts,
        nodes: analysis.nodes,
        elapsed: analysis.elapsed,
    }
}
