//! `variago lab solve`: a small board solved exactly (docs/lab-solve.md): the value of the empty board,
//! a line that keeps it, the forced-cycle states and the shortest forced cycle, or a table of
//! them per variant and board for the docs.

use std::time::Instant;

use clap::Args;
use indicatif::ProgressBar;
use variago_lab::solve::{NEVER_HIGH, NEVER_LOW, Payoff, Phase};
use variago_lab::{
    Graph, LabVariant, Passes, Searched, Solution, forced_cycle_for, principal_line, shortest_forced_cycle,
    solve as solve_graph,
};
use variago_rules::Geometry;

use crate::Failure;
use crate::lab::{
    GraphOptions, Recorded, explore_shown, max_states, moves_text, named_variants, one_variant_and_board,
    print_cycle, progress_bar, table_boards, threads, with_searched, write_sgf,
};

/// `variago lab solve`.
#[derive(Args)]
pub struct SolveOptions {
    #[command(flatten)]
    graph: GraphOptions,
    /// Print the shortest forced cycle of this target `t` (through states with `L < t <= U`)
    /// instead of the shortest over every target: how a game that Black plays for at least `t`
    /// and White for less goes round for ever.
    #[arg(long, allow_hyphen_values = true)]
    target: Option<i32>,
    /// Also print every first move with `L` and `U` of the state it leads to, before the last
    /// line (`first move C3: L 9, U 9`): which openings keep the value (in Square Lifeline, which
    /// first pairs leave the second player nothing to gain by the swap).
    #[arg(long)]
    first_moves: bool,
}

/// `L` or `U` as printed: a number, or an infinity where a side cannot force an end.
fn payoff_text(payoff: Payoff) -> String {
    match payoff {
        NEVER_LOW => "-inf".to_string(),
        NEVER_HIGH => "inf".to_string(),
        p => p.to_string(),
    }
}

/// The value of the empty board as the contract writes it: `V` when `L = U`, else `L..U`.
fn value_text(solution: &Solution) -> String {
    match solution.root() {
        (low, high) if low == high => payoff_text(low),
        (low, high) => format!("{}..{}", payoff_text(low), payoff_text(high)),
    }
}

/// Explores and solves one variant on one board, saying the phase on `bar`.
fn explore_and_solve<V: LabVariant>(
    variant: &V,
    geometry: Geometry,
    threads: usize,
    max_states: usize,
    bar: Option<&ProgressBar>,
) -> Result<(Graph<V>, Solution), Failure> {
    let graph = explore_shown(variant, geometry, Passes::Allowed, threads, max_states, bar)?;
    let solution = solve_shown(&graph, geometry, threads, bar)?;
    Ok((graph, solution))
}

/// Solves an explored graph, saying the phase on `bar`; a graph explored only in part is refused.
fn solve_shown<V: LabVariant>(
    graph: &Graph<V>,
    geometry: Geometry,
    threads: usize,
    bar: Option<&ProgressBar>,
) -> Result<Solution, Failure> {
    let states = graph.states.len();
    let edges = graph.edge_count();
    let on_phase = |phase: Phase| {
        if let Some(bar) = bar {
            let what = match phase {
                Phase::Endings => "scoring the ends of the game",
                Phase::Predecessors => "building the moves backwards",
                Phase::Values => "retrograde analysis (L and U)",
            };
            bar.set_message(format!("{states} states, {edges} moves: {what}"));
        }
    };
    solve_graph(graph, threads, on_phase).map_err(|e| {
        Failure::input(format!(
            "{e}; raise --max-states or free memory (about {} bytes a state)",
            bytes(geometry)
        ))
    })
}

/// Bytes a state costs in a solve, as estimated.
fn bytes(geometry: Geometry) -> usize {
    variago_lab::solve::bytes_per_state(geometry)
}

pub fn solve(options: SolveOptions) -> Result<(), Failure> {
    let (target, first_moves) = (options.target, options.first_moves);
    let options = options.graph;
    if options.table.is_some() {
        if target.is_some() {
            return Err(Failure::input("--target is for one board, not with --table"));
        }
        if first_moves {
            return Err(Failure::input("--first-moves is for one board, not with --table"));
        }
    }
    let threads = threads(options.threads);
    if let Some(boards) = &options.table {
        return table(&options, boards, threads);
    }
    let (searched, geometry) = one_variant_and_board("lab solve", &options)?;
    with_searched!(searched, variant => solve_one(&variant, geometry, &options, target, first_moves, threads))
}

/// `lab solve` for one variant on one board.
fn solve_one<V: Recorded>(
    variant: &V,
    geometry: Geometry,
    options: &GraphOptions,
    target: Option<i32>,
    first_moves: bool,
    threads: usize,
) -> Result<(), Failure> {
    let max_states = max_states(options.max_states, bytes(geometry));
    let bar = progress_bar();
    let (graph, solution) = explore_and_solve(variant, geometry, threads, max_states, bar.as_ref())?;
    if let Some(bar) = &bar {
        bar.set_message(format!("{} states: the line and the shortest forced cycle", graph.states.len()));
    }
    let line = principal_line(&graph, &solution);
    let forced = match target {
        Some(t) => forced_cycle_for(&graph, &solution, t),
        None => shortest_forced_cycle(&graph, &solution),
    };
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    // the record first: a file that cannot be written fails before any answer is printed
    match (&forced, &options.sgf) {
        (Some(forced), Some(path)) => write_sgf(variant, geometry, &forced.cycle, path)?,
        (None, Some(path)) => eprintln!("no forced cycle: {} was not written", path.display()),
        (_, None) => {}
    }
    if let (None, Some(t)) = (&forced, target) {
        eprintln!("no state has L < {t} <= U: no forced cycle for this target");
    }
    let states = graph.states.len();
    let forced_states = solution.forced_cycle_states();
    println!("states: {states}");
    println!("value: {}", value_text(&solution));
    if let Some(line) = line {
        println!("line: {}", moves_text::<V>(geometry, &line));
    }
    println!("forced-cycle states: {forced_states}");
    if let Some(forced) = &forced {
        println!("target: {}", forced.target);
        let note = |i: usize| {
            let s = forced.cycle.states[i] as usize;
            format!(" (L {}, U {})", payoff_text(solution.lower[s]), payoff_text(solution.upper[s]))
        };
        print_cycle(variant, geometry, &forced.cycle, note);
    }
    if first_moves {
        let children: Vec<usize> = graph.next_states(0).iter().map(|&c| c as usize).collect();
        for (&child, mv) in children.iter().zip(graph.moves_to(0, &children)) {
            let (low, high) = (payoff_text(solution.lower[child]), payoff_text(solution.upper[child]));
            println!("first move {}: L {low}, U {high}", V::move_text(geometry, mv));
        }
    }
    println!("value {}: {states} states, {forced_states} forced-cycle states", value_text(&solution));
    Ok(())
}

/// `--table`: a Markdown row per variant and board.
fn table(options: &GraphOptions, boards: &str, threads: usize) -> Result<(), Failure> {
    let variants = named_variants(&options.variant, Searched::parse)?;
    let geometries = table_boards(boards, &variants)?;
    println!("| variant | board | states | L | U | forced-cycle states | seconds |");
    println!("| --- | --- | ---: | ---: | ---: | ---: | ---: |");
    for (name, searched) in &variants {
        for &geometry in &geometries {
            with_searched!(searched, variant => table_row(name, variant, geometry, options, threads))?;
        }
    }
    Ok(())
}

/// The table's row of one variant on one board.
fn table_row<V: LabVariant>(
    name: &str,
    variant: &V,
    geometry: Geometry,
    options: &GraphOptions,
    threads: usize,
) -> Result<(), Failure> {
    let max_states = max_states(options.max_states, bytes(geometry));
    let started = Instant::now();
    let bar = progress_bar();
    let graph = explore_shown(variant, geometry, Passes::Allowed, threads, max_states, bar.as_ref())?;
    // a board that does not fit gets its row and the table goes on
    let solution =
        if graph.complete { Some(solve_shown(&graph, geometry, threads, bar.as_ref())?) } else { None };
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let seconds = started.elapsed().as_secs_f64();
    match solution {
        Some(solution) => {
            let (low, high) = solution.root();
            println!(
                "| `{name}` | {geometry} | {} | {} | {} | {} | {seconds:.1} |",
                graph.states.len(),
                payoff_text(low),
                payoff_text(high),
                solution.forced_cycle_states(),
            );
        }
        None => println!(
            "| `{name}` | {geometry} | more than {} | - | - | - | {seconds:.1} |",
            graph.states.len()
        ),
    }
    Ok(())
}
