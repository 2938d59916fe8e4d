//! Records far beyond the limits, for both SGF readers: each is refused with an error, in bounded
//! time and memory, on a thread whose stack is far smaller than the main thread's, so that no
//! reading, dropping or writing may recurse over the nodes. Fuzzing with short inputs cannot
//! reach these sizes.

use variago_records::sgf::{MAX_NESTING, MAX_NODES, MAX_TEXT_BYTES};
use variago_records::{Record, RecordError, galice_sgf};
use variago_rules::galice::{Action, Galice, Record as GaliceRecord, Turn};
use variago_rules::{Geometry, Move};

/// Runs `work` on a thread with a 256 KiB stack (the main thread has 8 MiB, other threads 2 MiB).
fn on_small_stack<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(256 << 10)
        .spawn(work)
        .expect("a thread starts")
        .join()
        .expect("no stack overflow or panic")
}

/// A main line of `moves` alternating moves after the root `root`.
fn long_line(root: &str, moves: usize) -> String {
    let mut text = format!("(;{root}");
    for i in 0..moves {
        text.push_str(if i % 2 == 0 { ";B[aa]" } else { ";W[bb]" });
    }
    text.push(')');
    text
}

/// `(;B[aa](;W[bb](;B[aa]...)))`: every move in a variation nested in the previous one.
fn nested(root: &str, depth: usize) -> String {
    let mut text = format!("(;{root}");
    for i in 0..depth {
        text.push_str(if i % 2 == 0 { "(;B[aa]" } else { "(;W[bb]" });
    }
    text.push_str(&")".repeat(depth + 1));
    text
}

fn both_readers(text: String) -> [Result<(), RecordError>; 2] {
    on_small_stack(move || [Record::from_sgf(&text).map(drop), galice_sgf::from_sgf(&text).map(drop)])
}

#[test]
fn a_million_nodes_on_the_main_line_are_refused() {
    for root in ["GM[1]SZ[9]", "GM[1]RU[galice]"] {
        for result in both_readers(long_line(root, 1_000_000)) {
            assert_eq!(result, Err(RecordError::TooLong), "{root}");
        }
    }
}

#[test]
fn a_million_nested_variations_are_refused() {
    for root in ["GM[1]SZ[9]", "GM[1]RU[galice]"] {
        for result in both_readers(nested(root, 1_000_000)) {
            let Err(RecordError::Syntax(message)) = result else { panic!("{result:?}") };
            assert!(message.contains(&format!("nested deeper than {MAX_NESTING}")), "{message}");
        }
    }
}

#[test]
fn a_text_over_the_size_limit_is_refused_before_it_is_read() {
    let text = format!("(;GM[1]C[{}])", "x".repeat(MAX_TEXT_BYTES));
    for result in both_readers(text) {
        let Err(RecordError::Syntax(message)) = result else { panic!("{result:?}") };
        assert!(message.contains("larger than"), "{message}");
    }
}

#[test]
fn records_at_the_limits_are_read_and_dropped_without_recursion() {
    let record =
        on_small_stack(|| Record::from_sgf(&long_line("GM[1]SZ[9]", MAX_NODES - 1)).map(|r| r.moves.len()));
    assert_eq!(record, Ok(MAX_NODES - 1));
    // the main line runs through the deepest nesting allowed, the other variations are skipped
    let mut text = nested("GM[1]SZ[9]", MAX_NESTING - 1);
    text.insert_str(text.len() - 1, "(;B[cc];W[dd])");
    let record = on_small_stack(move || Record::from_sgf(&text).map(|r| r.moves));
    let moves = record.expect("nested to the limit");
    assert_eq!(moves.len(), MAX_NESTING - 1);
    let a = Move::Place(Geometry::square(9).unwrap().parse_vertex("A9").unwrap());
    assert_eq!(moves[0], a);
}

#[test]
fn long_games_are_written_without_recursion() {
    let mut record = Record::new("go".parse().unwrap(), Geometry::square(9).unwrap());
    record.moves = vec![Move::Pass; 300_000];
    let sgf = on_small_stack(move || record.to_sgf());
    assert!(sgf.ends_with(";W[])\n"), "{}", &sgf[sgf.len() - 20..]);
    let actions = vec![Action::Turn(Turn::Pass); 300_000];
    let galice = GaliceRecord::new(Galice::new(), &actions);
    let sgf = on_small_stack(move || galice_sgf::to_sgf(&galice, None, &Default::default()));
    assert_eq!(sgf.matches(";GT[-----]").count(), 300_000);
}
