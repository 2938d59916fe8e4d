//! `variago bench`: light random playouts from the empty board, each ended by scoring its final
//! position as the search does, timed. The figures the issue notes report come from here.

use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::SmallRng;
use variago_rules::any::GameVisitor;
use variago_rules::galice::Galice;
use variago_rules::playout::{BENCH_SPECS, light_playout};
use variago_rules::spec::Variant;
use variago_rules::{AnyGame, Game, GameResult, Geometry, ScoreSheet, VariantSpec};
use variago_search::playout::{Policy, playout};
use variago_search::{Search, Settings};

/// What a run of playouts measured.
struct Measurement {
    playouts: u64,
    moves: u64,
    seconds: f64,
    /// The median time to score a playout's final position.
    median_score: Duration,
}

impl Measurement {
    fn nanos_per_move(&self) -> f64 {
        self.seconds * 1e9 / self.moves.max(1) as f64
    }

    fn moves_per_playout(&self) -> f64 {
        self.moves as f64 / self.playouts.max(1) as f64
    }

    fn playouts_per_second(&self) -> f64 {
        self.playouts as f64 / self.seconds.max(1e-9)
    }
}

/// The timed loop, monomorphised per variant: the enum is matched once, outside the timing.
struct Playouts {
    playouts: u64,
    seed: u64,
    /// The search's playout policy to time instead of the plain light playouts.
    policy: Option<Policy>,
}

impl GameVisitor for Playouts {
    type Output = Measurement;

    fn visit<G: Game>(self, start: G) -> Measurement {
        let mut rng = SmallRng::seed_from_u64(self.seed);
        let max_moves = start.playout_cap();
        let mut moves = 0;
        let clock = Instant::now();
        for _ in 0..self.playouts {
            let mut game = start.clone();
            moves += match self.policy {
                None => light_playout(&mut game, &mut rng, max_moves),
                Some(policy) => playout(&mut game, &mut rng, policy, max_moves),
            } as u64;
            std::hint::black_box(final_result(&game));
        }
        let seconds = clock.elapsed().as_secs_f64();
        // timed apart, on playouts of their own, so that reading the clock twice per playout
        // does not weigh on the rate
        let median_score = median_at_playout_ends(&start, self.playouts.min(1000), self.seed, |game| {
            std::hint::black_box(final_result(game));
        });
        Measurement { playouts: self.playouts, moves, seconds, median_score }
    }
}

/// How a playout's end is scored: the game's result if it is over, else the score as it stands.
fn final_result<G: Game>(game: &G) -> GameResult {
    game.outcome().unwrap_or_else(|| game.score().result())
}

/// The median time of `work` on the final positions of `playouts` random playouts from `start`.
fn median_at_playout_ends<G: Game>(start: &G, playouts: u64, seed: u64, work: impl Fn(&G)) -> Duration {
    let mut rng = SmallRng::seed_from_u64(seed);
    let times: Vec<Duration> = (0..playouts)
        .map(|_| {
            let mut game = start.clone();
            light_playout(&mut game, &mut rng, start.playout_cap());
            let clock = Instant::now();
            work(&game);
            clock.elapsed()
        })
        .collect();
    median(times)
}

fn measure(
    spec: &VariantSpec,
    geometry: Geometry,
    playouts: u64,
    seed: u64,
    policy: Option<Policy>,
) -> Measurement {
    AnyGame::new(spec, geometry).visit(Playouts { playouts, seed, policy })
}

/// One variant on one size, light playouts or the search's `policy`; the last line is
/// `N playouts/s`.
pub fn single(spec: &VariantSpec, geometry: Geometry, playouts: u64, seed: u64, policy: Option<Policy>) {
    let m = measure(spec, geometry, playouts, seed, policy);
    let kind = policy.map_or(String::new(), |p| format!(" ({p} playouts of the search)"));
    println!("{spec} on {geometry}{kind}: {} playouts in {:.2} s", m.playouts, m.seconds);
    println!("{:.1} ns/move", m.nanos_per_move());
    println!("{:.1} moves/playout", m.moves_per_playout());
    if matches!(spec.variant, Variant::Borderline(_)) {
        let live = median_live_score(spec, geometry, playouts.min(1000), seed);
        println!("{:.1} µs median live score (no ko award) of a playout's end", live.as_secs_f64() * 1e6);
    }
    println!("{:.1} µs median to score a playout's end", m.median_score.as_secs_f64() * 1e6);
    println!("{:.0} playouts/s", m.playouts_per_second());
}

/// The median time of Borderline's live score (its survey, without the end-of-game ko award) on
/// the final positions of random playouts: the figure its speed target is stated for.
fn median_live_score(spec: &VariantSpec, geometry: Geometry, playouts: u64, seed: u64) -> Duration {
    median_at_playout_ends(&AnyGame::new(spec, geometry), playouts, seed, |game| {
        std::hint::black_box(game.live_score());
    })
}

/// The median of some timings (zero for none).
fn median(mut times: Vec<Duration>) -> Duration {
    times.sort_unstable();
    times.get(times.len() / 2).copied().unwrap_or_default()
}

/// Galice from a new game (setup, colour choice, turns), every turn drawn at random.
pub fn single_galice(playouts: u64, seed: u64, policy: Option<Policy>) {
    let m = Playouts { playouts, seed, policy }.visit(Galice::new());
    println!("galice: {} playouts in {:.2} s", m.playouts, m.seconds);
    println!("{:.1} ns/turn", m.nanos_per_move());
    println!("{:.1} turns/playout", m.moves_per_playout());
    println!("{:.0} playouts/s", m.playouts_per_second());
}

/// Every variant on 9x9 and 19x19, one row each (19x19 runs a fifth of the playouts).
pub fn table(playouts: u64, seed: u64) {
    println!(
        "{:<20} {:>6} {:>10} {:>14} {:>12}",
        "variant", "size", "ns/move", "moves/playout", "playouts/s"
    );
    let row = |name: &str, size: &str, m: Measurement| {
        println!(
            "{:<20} {:>6} {:>10.1} {:>14.1} {:>12.0}",
            name,
            size,
            m.nanos_per_move(),
            m.moves_per_playout(),
            m.playouts_per_second()
        )
    };
    for side in [9, 19] {
        let geometry = Geometry::square(side).expect("a valid size");
        let n = if side == 19 { (playouts / 5).max(1) } else { playouts };
        for text in BENCH_SPECS {
            let spec: VariantSpec = text.parse().expect("the table's specs are valid");
            row(text, &geometry.to_string(), measure(&spec, geometry, n, seed, None));
        }
    }
    // Galice playouts are far longer (two boards, whole turns): a hundredth of the playouts
    row(
        "galice",
        "2x7x7",
        Playouts { playouts: (playouts / 100).max(1), seed, policy: None }.visit(Galice::new()),
    );
}

/// The search's speed from the start position: playouts per second with one thread, then with
/// every core (sharing one tree). The last line is the all-cores figure.
fn search_speed<G: Game>(name: &str, game: &G, playouts: u64, seed: u64, policy: Policy) {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut counts = vec![1];
    if cores > 1 {
        counts.push(cores);
    }
    println!("search on {name}: {playouts} {policy} playouts per measurement");
    for threads in counts {
        let settings = Settings { playouts, threads, seed, playout: Some(policy), ..Settings::default() };
        let analysis = Search::new(settings).analyse(game).expect("the start position goes on");
        let rate = analysis.playouts as f64 / analysis.elapsed.as_secs_f64().max(1e-9);
        println!("{threads} thread(s): {rate:.0} playouts/s");
    }
}

/// `bench --search` for a single-board variant.
pub fn search(spec: &VariantSpec, geometry: Geometry, playouts: u64, seed: u64, policy: Policy) {
    AnyGame::new(spec, geometry).visit(SearchSpeed {
        name: format!("{spec} on {geometry}"),
        playouts,
        seed,
        policy,
    })
}

/// `bench --search` for Galice, from a new game.
pub fn search_galice(playouts: u64, seed: u64, policy: Policy) {
    search_speed("galice", &Galice::new(), playouts, seed, policy)
}

/// [`search_speed`] on the concrete game inside an [`AnyGame`].
struct SearchSpeed {
    name: String,
    playouts: u64,
    seed: u64,
    policy: Policy,
}

impl GameVisitor for SearchSpeed {
    type Output = ();

    fn visit<G: Game>(self, game: G) {
        search_speed(&self.name, &game, self.playouts, self.seed, self.policy)
    }
}
