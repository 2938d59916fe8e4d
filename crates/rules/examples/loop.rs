// throwaway measurement loop (not committed)
use rand::SeedableRng;
use rand::rngs::SmallRng;
use variago_rules::any::GameVisitor;
use variago_rules::playout::light_playout;
use variago_rules::{AnyGame, Game, Geometry, ScoreSheet, VariantSpec};

struct Loop(u64);
impl GameVisitor for Loop {
    type Output = (u64, u64, u64);
    fn visit<G: Game>(self, start: G) -> (u64, u64, u64) {
        let mut rng = SmallRng::seed_from_u64(0);
        let cap = start.playout_cap();
        let (mut moves, mut wins, mut check) = (0u64, 0u64, 0u64);
        for _ in 0..self.0 {
            let mut g = start.clone();
            moves += light_playout(&mut g, &mut rng, cap) as u64;
            let r = g.outcome().unwrap_or_else(|| g.score().result());
            wins += (r.winner == Some(variago_rules::Color::Black)) as u64;
            check = check.rotate_left(5) ^ g.hash();
        }
        (moves, wins, check)
    }
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let spec: VariantSpec = a[1].parse().unwrap();
    let size: u32 = a[2].parse().unwrap();
    let n: u64 = a[3].parse().unwrap();
    let (moves, wins, check) = AnyGame::new(&spec, Geometry::square(size).unwrap()).visit(Loop(n));
    println!("{} {} moves={} black_wins={} check={:016x}", a[1], size, moves, wins, check);
}
