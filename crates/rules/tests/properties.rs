//! Property tests over random games of every variant spec on random board sizes 1..=9 (square or
//! not). After every move:
//!
//! - (a) no group without liberties stays on the board;
//! - (b) the board hash equals the hash recomputed from scratch and the one kept move by move by
//!   a board on which the same pieces are put down (a game whose rules never read the hash has
//!   its board compute it when asked);
//! - (c) `legal_moves` is exactly the set of moves `check` accepts (pass and off-board points
//!   included), and `play` of every refused move returns the same error and changes nothing;
//! - (d) `Board::empties` lists exactly the empty points, each once;
//! - (e) `Board::stones` matches a count of the points, and kings stand only on the boards of
//!   Excursion Go (`Board::has_kings` says whether any does); in games from the empty board every
//!   group is all kings or all stones (a king placement crowns the whole group it forms, a stone
//!   never touches a friendly king, form 1 reverts all kings at once);
//! - (f) `light_move` returns a legal move that fills no own eye (a pass only when every legal
//!   placement is an eye), and light playouts stay legal and end within their cap;
//! - (g) an independent, deliberately naive model of the rules (`support/model.rs`, the one
//!   `reference.rs` uses too), written from the rules documents (/work/shared/rules) and sharing
//!   no code with the engine, agrees on the verdict for every point (and on the reason, taking the
//!   engine's order: occupied, suicide, changes nothing, ko, the variant's restriction), on the
//!   board after every move (kings and stones told apart), on what the last move leaves behind for
//!   Excursion Go (whether it placed a king), on chains, liberties, regions, territory and eyes, on
//!   the score and on the end of the game;
//! - (h) where legality depends on no long history (simple ko, no own-position draw), positions
//!   with equal `Game::hash` have equal boards, sides to move and legal moves (a sound
//!   transposition key); also checked exhaustively over small game trees.
//!
//! Besides the named specs, both forms of Excursion Go (with and without the own-position draw)
//! and a few other option combinations run the same checks, and half the games start from a random
//! set-up position (territories with holes of every shape; for Excursion Go with kings, some
//! groups mixing kings and stones).
//!
//! Every failure message carries the spec, the size, the seed and the moves played (GTP vertices),
//! so a failure can be replayed by hand.

#[allow(dead_code)]
mod support;

use std::collections::{HashMap, HashSet};

use proptest::prelude::*;
use proptest::test_runner::Config;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use support::model::{Cells, KoKind, Model, ModelRules, colour, stone};
use support::{
    EXCURSION_SPECS, NAMED_SPECS, cells, diagram, empty, has_kings, index, last_placed_king, legal_moves,
    set_up, to_model,
};
use variago_rules::board::{Region, RegionOwner};
use variago_rules::playout::{MAX_MOVES_PER_POINT, light_playout};
use variago_rules::{
    AnyGame, Board, Color, Ending, Game, Geometry, Illegal, Move, Point, ScoreSheet, VariantSpec,
};

/// Combinations of options beyond the named specs, checked the same way.
const MORE_SPECS: [&str; 7] = [
    "go:ko=simple,suicide=allowed",
    "go:ko=situational,suicide=allowed",
    "incursion:minimal=true,shape=line",
    "incursion:draw=none",
    "stoical:refine=more-stones,draw=none",
    "excursion-1:draw=none",
    "excursion-2:draw=none,komi=0",
];

/// Random games per named spec (each game checks every point after every move), and per further
/// combination; `PROPTEST_CASES=n` overrides both for a longer soak.
const CASES: u32 = 16;
const MORE_CASES: u32 = 8;

fn config(cases: u32) -> Config {
    let cases = if std::env::var_os("PROPTEST_CASES").is_some() { Config::default().cases } else { cases };
    // no regression files written into the source tree: failures print spec, size and seed
    Config { cases, failure_persistence: None, ..Config::default() }
}

/// A position as far as legality goes (for the transposition checks): board, side to move and
/// legal moves.
type Position = (Cells, Color, Vec<Move>);

// ------------------------------------------------------------------------------------------------
// The checks.
// ------------------------------------------------------------------------------------------------

/// A random game being checked, with what a failure message needs.
struct Run {
    spec: &'static str,
    geometry: Geometry,
    seed: u64,
    game: AnyGame,
    model: Model,
    history: Vec<String>,
    /// The set-up position's diagram rows (from the top), if the game did not start empty.
    setup: Option<Vec<String>>,
    /// Points of a larger board that are not points of this one (for `OffBoard`).
    foreign: Vec<Point>,
    /// (h) every position so far by `Game::hash`, for specs without a long history.
    transpositions: Option<HashMap<u64, Position>>,
}

impl Run {
    /// A game from the empty board (`setup: None`) or from a set-up position.
    fn new(spec: &'static str, width: u8, height: u8, seed: u64, setup: Option<(Cells, Color)>) -> Self {
        let geometry = Geometry::new(width as u32, height as u32).expect("sizes are 1..=9");
        let big = Geometry::square(12).expect("12 is a size");
        let (w, h) = (width as usize, height as usize);
        let rules = ModelRules::parse(spec);
        let (game, rows, cells, to_move) = match setup {
            None => (empty(spec, width as u32, height as u32), None, vec![None; w * h], Color::Black),
            Some((cells, to_move)) => {
                (set_up(spec, &cells, w, to_move), Some(diagram(&cells, w)), cells, to_move)
            }
        };
        Run {
            spec,
            geometry,
            seed,
            game,
            model: Model::new(rules, w, h, cells, to_move),
            history: Vec::new(),
            setup: rows,
            transpositions: (matches!(rules.ko, KoKind::None | KoKind::Simple) && !rules.own_position_draw)
                .then(HashMap::new),
            foreign: big.points().filter(|&p| !geometry.contains(p)).collect(),
        }
    }

    /// Where we are, for failure messages.
    fn context(&self) -> String {
        format!(
            "spec {} size {} seed {:#x}{}, {} to move after {} moves: {}\n{}",
            self.spec,
            self.geometry,
            self.seed,
            self.setup.as_ref().map_or(String::new(), |rows| format!(" from the setup {}", rows.join("/"))),
            self.game.to_move(),
            self.history.len(),
            self.history.join(" "),
            self.game.board()
        )
    }

    fn name(&self, mv: Move) -> String {
        match mv {
            Move::Pass => "pass".to_string(),
            Move::Place(p) => self.geometry.vertex(p).to_string(),
        }
    }

    /// Every check on the current position.
    fn check_position(&mut self, rng: &mut SmallRng) {
        check_board(self.game.board(), has_kings(self.spec), &|| self.context());
        if self.setup.is_none() {
            self.check_groups_are_one_kind();
        }
        self.check_against_model();
        self.check_legal_moves();
        self.check_light_move(rng);
    }

    /// (e) every group of a game from the empty board is all kings or all stones.
    fn check_groups_are_one_kind(&self) {
        let cells = &self.model.cells;
        for i in 0..cells.len() {
            let kinds: HashSet<bool> = self
                .model
                .flood(cells, i)
                .into_iter()
                .filter_map(|s| cells[s].map(|piece| piece.king))
                .collect();
            assert!(kinds.len() <= 1, "a group mixes kings and stones\n{}", self.context());
        }
    }

    /// (g) the board, the board's queries, the score and the end of the game agree with the model.
    fn check_against_model(&self) {
        let board = self.game.board();
        let model = &self.model;
        for p in self.geometry.points() {
            let i = index(self.geometry, p);
            let at = self.geometry.vertex(p);
            assert_eq!(
                board.piece(p),
                model.cells[i],
                "board differs from the model at {at}\n{}",
                self.context()
            );
            assert_eq!(board.color(p), colour(model.cells[i]), "colour at {at}\n{}", self.context());
        }
        if let Some(king) = last_placed_king(&self.game) {
            assert_eq!(king, model.last_king, "whether the last move placed a king\n{}", self.context());
        }
        for p in self.geometry.points() {
            let i = index(self.geometry, p);
            let at = self.geometry.vertex(p);
            let context = || format!("at {at}\n{}", self.context());
            if model.cells[i].is_some() {
                let mut chain: Vec<usize> = board.chain(p).map(|q| index(self.geometry, q)).collect();
                chain.sort_unstable();
                let mut group = model.flood(&model.cells, i);
                group.sort_unstable();
                assert_eq!(chain, group, "chain {}", context());
                let libs = model.liberties(&model.cells, &group);
                assert_eq!(board.liberties(p), libs, "liberties {}", context());
                assert_eq!(board.in_atari(p), libs == 1, "in_atari {}", context());
                assert_eq!(board.stands_in_atari(p), libs == 1, "stands_in_atari {}", context());
                continue;
            }
            assert!(!board.stands_in_atari(p), "an empty point stands in no atari {}", context());
            for c in [Color::Black, Color::White] {
                // the model's answer: place the stone, look for an opponent group left without
                // liberties, else count the new group's
                let mut placed = model.cells.clone();
                placed[i] = stone(c);
                let captures = model.neighbours(i).into_iter().any(|n| {
                    colour(placed[n]) == Some(c.opponent())
                        && model.liberties(&placed, &model.flood(&placed, n)) == 0
                });
                let group = model.flood(&placed, i);
                let expected = if captures {
                    (2, 1)
                } else {
                    (model.liberties(&placed, &group).min(2) as u8, group.len() as u16)
                };
                assert_eq!(
                    board.liberties_after_placing(p, c),
                    expected,
                    "liberties_after_placing({c}) {}",
                    context()
                );
            }
            let (border, line_shaped) = model.region(i);
            let owner = match (border.contains(&Color::Black), border.contains(&Color::White)) {
                (false, false) => RegionOwner::Nobody,
                (true, false) => RegionOwner::Only(Color::Black),
                (false, true) => RegionOwner::Only(Color::White),
                (true, true) => RegionOwner::Both,
            };
            assert_eq!(board.region(p, None), Region { owner, line_shaped }, "region {}", context());
            for c in [Color::Black, Color::White] {
                let expected = model
                    .territory_of(i, c)
                    .map(|line_shaped| Region { owner: RegionOwner::Only(c), line_shaped });
                assert_eq!(board.in_territory_of(p, c), expected, "in_territory_of({c}) {}", context());
                assert_eq!(board.is_eye(p, c), model.is_eye(i, c), "is_eye({c}) {}", context());
            }
        }
        assert_eq!(self.game.to_move(), self.model.to_move, "side to move\n{}", self.context());
        let score = self.game.score();
        let area = self.model.area();
        for c in [Color::Black, Color::White] {
            let side = score.area().expect("an area-scored variant").sides[c as usize];
            assert_eq!(
                (side.stones, side.territory),
                area[c as usize],
                "{c}'s area score\n{}",
                self.context()
            );
        }
        assert_eq!(self.game.is_over(), self.model.is_over(), "is_over\n{}", self.context());
        assert_eq!(self.game.outcome(), self.model.outcome(), "outcome\n{}", self.context());
        if let Some(outcome) = self.game.outcome()
            && outcome.ending != Ending::OwnPositionDraw
        {
            assert_eq!(outcome, score.result(), "a counted game's outcome is the score's result");
        }
    }

    /// (c) `legal_moves` against `check` and the model, and refused moves change nothing.
    fn check_legal_moves(&mut self) {
        let mut legal = Vec::new();
        self.game.legal_moves(&mut legal);
        let listed: HashSet<Move> = legal.iter().copied().collect();
        assert_eq!(
            listed.len(),
            legal.len(),
            "legal_moves lists a move twice: {legal:?}\n{}",
            self.context()
        );
        let over = self.game.is_over();
        if over {
            assert!(legal.is_empty(), "a finished game lists moves\n{}", self.context());
        }
        let mut accepted = HashSet::new();
        let mut refused = Vec::new();
        for p in self.geometry.points() {
            let mv = Move::Place(p);
            let verdict = self.game.check(mv);
            let expected = self.model.judge(index(self.geometry, p)).map(|_| ());
            assert_eq!(
                verdict,
                expected,
                "check({}) differs from the model (left: engine, right: model)\n{}",
                self.name(mv),
                self.context()
            );
            match verdict {
                Ok(()) => {
                    accepted.insert(mv);
                }
                Err(e) => refused.push((mv, e)),
            }
        }
        let pass = self.game.check(Move::Pass);
        if over {
            assert_eq!(pass, Err(Illegal::GameOver), "pass after the end\n{}", self.context());
            refused.push((Move::Pass, Illegal::GameOver));
        } else {
            assert_eq!(pass, Ok(()), "pass is always legal before the end\n{}", self.context());
            accepted.insert(Move::Pass);
        }
        for k in 0..3 {
            let p = self.foreign[(self.history.len() * 3 + k) % self.foreign.len()];
            let expected = if over { Illegal::GameOver } else { Illegal::OffBoard };
            assert_eq!(
                self.game.check(Move::Place(p)),
                Err(expected.clone()),
                "off-board\n{}",
                self.context()
            );
            refused.push((Move::Place(p), expected));
        }
        assert_eq!(listed, accepted, "legal_moves is not the set check accepts\n{}", self.context());

        // Refused moves: same error, nothing changes (played on the game itself, so a change would
        // show in every later check too).
        let before =
            (self.game.board().clone(), self.game.board().hash(), self.game.hash(), self.game.to_move());
        for (mv, reason) in refused {
            let result = self.game.play(mv);
            assert_eq!(result, Err(reason), "play({}) vs check\n{}", self.name(mv), self.context());
            let after =
                (self.game.board().clone(), self.game.board().hash(), self.game.hash(), self.game.to_move());
            assert!(
                before == after,
                "refused play({}) changed the position\n{}",
                self.name(mv),
                self.context()
            );
        }
        let mut again = Vec::new();
        self.game.legal_moves(&mut again);
        assert_eq!(again, legal, "refused moves changed the legal moves\n{}", self.context());

        let position = (self.model.cells.clone(), self.game.to_move(), legal);
        let hash = self.game.hash();
        let clash = self.transpositions.as_mut().and_then(|seen| {
            let earlier = seen.entry(hash).or_insert_with(|| position.clone());
            (*earlier != position).then(|| earlier.clone())
        });
        if let Some(earlier) = clash {
            panic!(
                "Game::hash {hash:#x} is shared by a position with other legal moves: earlier {earlier:?}, now \
                 {position:?}\n{}",
                self.context()
            );
        }
    }

    /// (f) one light move from this position.
    fn check_light_move(&self, rng: &mut SmallRng) {
        if self.game.is_over() {
            return;
        }
        check_light_move(&self.game, rng, &|| self.context());
    }

    /// (f) light playouts from this position: legal moves all the way, and an end within the cap.
    fn check_light_playout(&self, rng: &mut SmallRng) {
        let cap = MAX_MOVES_PER_POINT * self.geometry.area();
        let mut fast = self.game.clone();
        let played = light_playout(&mut fast, rng, cap);
        assert!(played <= cap, "light_playout played {played} > {cap} moves\n{}", self.context());
        assert!(fast.is_over() || played == cap, "light_playout stopped early\n{}", self.context());

        // Step by step: `light_move` checked, then `play_light_move` with the same random state
        // must play that very move and reach the same position as `play`.
        let mut slow = self.game.clone();
        let mut moves = Vec::new();
        while moves.len() < cap && !slow.is_over() {
            let context = || format!("{}\nlight playout continued with {}", self.context(), moves.join(" "));
            let mut same_rng = rng.clone();
            let mv = check_light_move(&slow, &mut same_rng, &context);
            let mut by_play = slow.clone();
            by_play.play(mv).unwrap_or_else(|e| panic!("light move refused: {e}\n{}", context()));
            let played = slow.play_light_move(rng);
            assert_eq!(played, mv, "play_light_move and light_move differ\n{}", context());
            assert!(
                slow.board() == by_play.board()
                    && slow.board().hash() == by_play.board().hash()
                    && slow.hash() == by_play.hash()
                    && slow.is_over() == by_play.is_over()
                    && slow.outcome() == by_play.outcome()
                    && legal_moves(&slow) == legal_moves(&by_play),
                "play_light_move({}) and play differ\n{}",
                self.name(mv),
                context()
            );
            check_board(slow.board(), has_kings(self.spec), &context);
            moves.push(self.name(mv));
        }
    }

    fn play(&mut self, mv: Move) {
        let name = self.name(mv);
        self.game.play(mv).unwrap_or_else(|e| panic!("legal move {name} refused: {e}\n{}", self.context()));
        self.model.play(to_model(self.geometry, mv));
        self.history.push(name);
    }
}

/// (a), (b), (d), (e): the board's incremental state against a recount; `kings` says whether the
/// variant has kings.
fn check_board(board: &Board, kings: bool, context: &dyn Fn() -> String) {
    let geometry = board.geometry();
    assert_eq!(board.hash(), board.recomputed_hash(), "incremental hash\n{}", context());
    // a game's board may compute its hash when asked rather than move by move (rules that never
    // read it): the answer must be the hash the same pieces put down one by one keep
    let pieces = geometry.points().filter_map(|p| Some((p, board.piece(p)?)));
    assert_eq!(
        board.hash(),
        Board::from_pieces(geometry, pieces).hash(),
        "hash of the pieces\n{}",
        context()
    );
    let mut counts = [0usize; 2];
    let mut king_seen = false;
    let mut empty = Vec::new();
    for p in geometry.points() {
        match board.piece(p) {
            Some(piece) => {
                counts[piece.color as usize] += 1;
                assert!(
                    board.liberties(p) > 0,
                    "the group at {} has no liberties\n{}",
                    geometry.vertex(p),
                    context()
                );
                assert!(kings || !piece.king, "a king in a stone game\n{}", context());
                king_seen |= piece.king;
            }
            None => empty.push(p),
        }
    }
    for c in [Color::Black, Color::White] {
        assert_eq!(board.stones(c), counts[c as usize], "{c} stone count\n{}", context());
    }
    assert_eq!(board.has_kings(), king_seen, "has_kings\n{}", context());
    let mut listed = board.empties().to_vec();
    listed.sort_unstable();
    let len = listed.len();
    listed.dedup();
    assert_eq!(listed.len(), len, "empties lists a point twice\n{}", context());
    assert_eq!(listed, empty, "empties\n{}", context());
}

/// (f) a light move is legal and fills no own eye; a pass only when every legal placement is one.
fn check_light_move(game: &AnyGame, rng: &mut SmallRng, context: &dyn Fn() -> String) -> Move {
    let mv = game.light_move(rng);
    let board = game.board();
    let mover = game.to_move();
    assert_eq!(game.check(mv), Ok(()), "light_move returned {mv:?}\n{}", context());
    match mv {
        Move::Place(p) => assert!(
            !board.is_eye(p, mover),
            "light_move filled an own eye at {}\n{}",
            board.geometry().vertex(p),
            context()
        ),
        Move::Pass => {
            let mut legal = Vec::new();
            game.legal_moves(&mut legal);
            for m in legal {
                if let Move::Place(p) = m {
                    assert!(
                        board.is_eye(p, mover),
                        "light_move passed although {} is legal and no eye\n{}",
                        board.geometry().vertex(p),
                        context()
                    );
                }
            }
        }
    }
    mv
}

/// A random position to set up: a few areas of one colour each (the colour of the nearest of a
/// few random centres), holes punched at random and a few stones of the other colour sprinkled
/// in, then every group without liberties taken off (one at a time), so that the setup is a board
/// play could reach. This gives territories with holes of every shape (lines, forks, rings, 2x2
/// blocks) and groups to capture several at once. For a variant with kings, some groups and some
/// single pieces are kings.
fn random_setup(rng: &mut SmallRng, spec: &str, width: u8, height: u8) -> (Cells, Color) {
    let (w, h) = (width as usize, height as usize);
    let colour = |rng: &mut SmallRng| if rng.random_bool(0.5) { Color::Black } else { Color::White };
    let centres: Vec<(usize, usize, Color)> = (0..rng.random_range(1..=5))
        .map(|_| (rng.random_range(0..w), rng.random_range(0..h), colour(rng)))
        .collect();
    let holes = rng.random_range(0.1..0.6);
    let strays = rng.random_range(0.0..0.15);
    let mut cells: Cells = (0..w * h)
        .map(|i| {
            let (x, y) = (i % w, i / w);
            let nearest = centres
                .iter()
                .min_by_key(|(cx, cy, _)| cx.abs_diff(x).pow(2) + cy.abs_diff(y).pow(2))
                .expect("at least one centre");
            if rng.random_bool(holes) {
                None
            } else if rng.random_bool(strays) {
                stone(nearest.2.opponent())
            } else {
                stone(nearest.2)
            }
        })
        .collect();
    Model::take_off_dead_groups(&mut cells, w, h);
    if has_kings(spec) {
        Model::crown_at_random(&mut cells, w, h, rng);
    }
    let to_move = if rng.random_bool(0.5) { Color::Black } else { Color::White };
    (cells, to_move)
}

/// Plays one random game of `spec` from the empty board or from a random setup, checking
/// everything after every move. Half the games choose moves uniformly among the legal placements
/// (many captures, ko fights and repetitions on small boards), half with `light_move` (games that
/// end by two passes and get counted); both pass now and then.
fn random_game(spec: &'static str, width: u8, height: u8, seed: u64, from_setup: bool) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let setup = from_setup.then(|| random_setup(&mut rng, spec, width, height));
    let mut run = Run::new(spec, width, height, seed, setup);
    let light = rng.random_bool(0.5);
    let max_moves = 3 * run.geometry.area() + 20;
    let mut legal = Vec::new();
    loop {
        run.check_position(&mut rng);
        if run.game.is_over() || run.history.len() >= max_moves {
            break;
        }
        if run.history.len().is_multiple_of(16) {
            run.check_light_playout(&mut rng);
        }
        run.game.legal_moves(&mut legal);
        let mv = if rng.random_ratio(1, 40) {
            Move::Pass
        } else if light {
            run.game.light_move(&mut rng)
        } else {
            legal.retain(|&m| m != Move::Pass);
            if legal.is_empty() { Move::Pass } else { legal[rng.random_range(0..legal.len())] }
        };
        run.play(mv);
    }
}

macro_rules! random_games {
    ($cases:expr; $($name:ident => $spec:expr),* $(,)?) => {
        proptest! {
            #![proptest_config(config($cases))]
            $(
                #[test]
                fn $name(width in 1u8..=9, height in 1u8..=9, seed in any::<u64>(), setup in any::<bool>()) {
                    // a board has two points or more
                    prop_assume!(width as u32 * height as u32 >= 2);
                    random_game($spec, width, height, seed, setup);
                }
            )*
        }
    };
}

random_games! {
    CASES;
    go_positional_superko => NAMED_SPECS[0],
    go_simple_ko => NAMED_SPECS[1],
    go_situational_superko => NAMED_SPECS[2],
    go_suicide_allowed => NAMED_SPECS[3],
    incursion => NAMED_SPECS[4],
    incursion_minimal => NAMED_SPECS[5],
    incursion_line => NAMED_SPECS[6],
    stoical => NAMED_SPECS[7],
    stoical_more_stones => NAMED_SPECS[8],
    excursion_1 => EXCURSION_SPECS[0],
    excursion_2 => EXCURSION_SPECS[1],
}

random_games! {
    MORE_CASES;
    go_simple_ko_suicide_allowed => MORE_SPECS[0],
    go_situational_superko_suicide_allowed => MORE_SPECS[1],
    incursion_minimal_line => MORE_SPECS[2],
    incursion_without_draw => MORE_SPECS[3],
    stoical_more_stones_without_draw => MORE_SPECS[4],
    excursion_1_without_draw => MORE_SPECS[5],
    excursion_2_without_draw => MORE_SPECS[6],
}

/// Light playouts from the empty board end by the game's own rules (two passes or an own-position
/// draw), not by the cap: the cap is a safety net, so hitting it must stay rare.
#[test]
fn light_playouts_end_before_the_cap() {
    for spec in NAMED_SPECS.into_iter().chain(EXCURSION_SPECS) {
        let parsed: VariantSpec = spec.parse().unwrap();
        let mut rng = SmallRng::seed_from_u64(0x5EED);
        // On tiny boards random play wanders through many of the few positions before both
        // players run out of non-eye moves (about 5% of playouts hit the cap on 2x3 and 3x3);
        // from 4x4 up none did in thousands of runs.
        for (width, height, allowed) in [(9, 9, 0), (5, 5, 0), (7, 4, 0), (3, 3, 10), (2, 3, 10)] {
            let geometry = Geometry::new(width, height).unwrap();
            let cap = MAX_MOVES_PER_POINT * geometry.area();
            let runs = 40;
            let capped = (0..runs)
                .filter(|_| {
                    let mut game = AnyGame::new(&parsed, geometry);
                    let played = light_playout(&mut game, &mut rng, cap);
                    assert!(played <= cap, "{spec} {geometry}: {played} moves > cap {cap}");
                    assert!(game.is_over() || played == cap, "{spec} {geometry}: stopped early");
                    !game.is_over()
                })
                .count();
            assert!(capped <= allowed, "{spec} {geometry}: {capped} of {runs} light playouts hit the cap");
        }
    }
}

/// `light_move` promises a move "uniform among legal moves that do not fill the mover's own eye".
///
/// ```text
///    A B C
///  3 . X .  3      Black to move: A3 and C3 are Black's eyes, so the light move must be
///  2 X X X  2      A1, B1 or C1, each with probability 1/3.
///  1 . . .  1
///    A B C
/// ```
// A regression test: the first engine took the first acceptable point after a random start in
// the empty-point list, which gave A1, B1, C1 shares like 1/5, 2/5, 2/5 here.
#[test]
fn light_move_is_uniform_among_legal_non_eye_moves() {
    let spec: VariantSpec = "go".parse().unwrap();
    let board = Board::from_diagram(&[".X.", "XXX", "..."]).unwrap();
    let game = AnyGame::from_setup(&spec, board, Color::Black);
    let g = game.board().geometry();
    let candidates: Vec<Move> =
        ["A1", "B1", "C1"].iter().map(|v| Move::Place(g.parse_vertex(v).unwrap())).collect();
    let mut rng = SmallRng::seed_from_u64(3);
    let samples = 30_000;
    let mut counts = [0usize; 3];
    for _ in 0..samples {
        let mv = game.light_move(&mut rng);
        let k = candidates.iter().position(|&c| c == mv).unwrap_or_else(|| panic!("light_move chose {mv:?}"));
        counts[k] += 1;
    }
    let shares = counts.map(|n| n as f64 / samples as f64);
    // one third each, give or take 0.03 (more than ten standard deviations)
    assert!(
        shares.iter().all(|s| (s - 1.0 / 3.0).abs() < 0.03),
        "light_move shares of A1, B1, C1: {shares:.3?}, expected 1/3 each"
    );
}

/// `Game::hash` promises to cover "what the last move restricts" (only the long superko history
/// is left out), as a transposition key for the search.
///
/// ```text
///      A B C D E
///    5 . . . . .  5     go:ko=simple. Black C3 has just captured B3 (a ko): White may not
///    4 . X O . .  4     retake at B3 at once. The same board set up with White to move has no
///    3 X . X O .  3     ko restriction, so B3 is legal there.
///    2 . X O . .  2
///    1 . . . . .  1
///      A B C D E
/// ```
// A regression test: the first engine left the ko ban out of `Game::hash`, so both positions
// shared one hash although B3 is legal in one and not in the other.
#[test]
fn game_hash_tells_apart_positions_with_different_simple_ko_bans() {
    let spec: VariantSpec = "go:ko=simple".parse().unwrap();
    let board = Board::from_diagram(&[".....", ".XO..", "XO.O.", ".XO..", "....."]).unwrap();
    let mut played = AnyGame::from_setup(&spec, board, Color::Black);
    let g = played.board().geometry();
    played.play(Move::Place(g.parse_vertex("C3").unwrap())).unwrap();
    let set_up = AnyGame::from_setup(&spec, played.board().clone(), Color::White);
    let retake = Move::Place(g.parse_vertex("B3").unwrap());
    assert_eq!(played.check(retake), Err(Illegal::Ko));
    assert_eq!(set_up.check(retake), Ok(()));
    assert_ne!(
        played.hash(),
        set_up.hash(),
        "same Game::hash for a position with the ko ban and one without:\n{}",
        played.board()
    );
}

/// (h) exhaustively: every position of small game trees, keyed by `Game::hash`, for the specs
/// whose legality needs no long history (simple ko, no own-position draw). Positions sharing a hash
/// must share the board, the side to move and the legal moves: different move orders reach the
/// same positions all the time here, ko captures and retakes included.
#[test]
fn game_hash_is_a_sound_transposition_key() {
    type Seen = HashMap<u64, Position>;
    fn explore(game: &AnyGame, depth: u32, seen: &mut Seen, counts: &mut [usize; 2]) {
        let legal = legal_moves(game);
        let board = game.board();
        if board.geometry().points().any(|p| game.check(Move::Place(p)) == Err(Illegal::Ko)) {
            counts[1] += 1;
        }
        let position = (cells(board), game.to_move(), legal.clone());
        let earlier = seen.entry(game.hash()).or_insert_with(|| position.clone());
        if *earlier != position {
            panic!("Game::hash {:#x} is shared by {earlier:?} and {position:?}\n{board}", game.hash());
        }
        counts[0] += 1;
        if depth > 0 {
            for mv in legal {
                let mut child = game.clone();
                child.play(mv).expect("a legal move");
                explore(&child, depth - 1, seen, counts);
            }
        }
    }
    let ko = [".....", ".XO..", "XO.O.", ".XO..", "....."];
    let specs = [
        "go:ko=simple",
        "go:ko=simple,suicide=allowed",
        "incursion:draw=none",
        "incursion:minimal=true,draw=none",
        "stoical:draw=none",
        "stoical:refine=more-stones,draw=none",
        "excursion-1:draw=none",
        "excursion-2:draw=none",
    ];
    for spec in specs {
        let parsed: VariantSpec = spec.parse().unwrap();
        // one table per board size, as a search keeps (an empty board hashes alike on every size)
        let mut seen = [Seen::new(), Seen::new(), Seen::new()];
        let mut counts = [0; 2];
        explore(&AnyGame::new(&parsed, Geometry::new(3, 2).unwrap()), 7, &mut seen[0], &mut counts);
        explore(&AnyGame::new(&parsed, Geometry::square(3).unwrap()), 4, &mut seen[1], &mut counts);
        for to_move in [Color::Black, Color::White] {
            let board = Board::from_diagram(&ko).unwrap();
            explore(&AnyGame::from_setup(&parsed, board, to_move), 3, &mut seen[2], &mut counts);
        }
        let positions: usize = seen.iter().map(HashMap::len).sum();
        let [nodes, ko_bans] = counts;
        assert!(
            nodes > 2 * positions,
            "{spec}: too few transpositions ({nodes} nodes, {positions} positions)"
        );
        assert_eq!(ko_bans > 0, spec.starts_with("go"), "{spec}: {ko_bans} positions with a ko ban");
    }
}
