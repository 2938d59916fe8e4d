//! `variago lab report`: a page from two small runs holds every plot and the summaries' numbers,
//! the plots are also written as SVG and valid PNG images, and bad input is refused in one line
//! with nothing written.

#[allow(dead_code)]
mod support;

use std::path::{Path, PathBuf};
use support::{assert_refused, scratch, text, variago};

/// The plots every report of single-board runs has.
const PLOTS: [&str; 5] =
    ["game-length", "first-player-win-rate", "branching-factor", "win-rate-traces", "restriction-hits"];

/// A finished run of `variant` on 5x5: 4 games at 10 playouts a move.
fn small_run(out: &Path, variant: &str) {
    let output = variago(&[
        "lab",
        "selfplay",
        "--variant",
        variant,
        "--size",
        "5",
        "--games",
        "4",
        "--playouts",
        "10",
        "--out",
        text(out),
    ]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
}

/// Two finished runs, made once for the tests that need them.
fn two_runs() -> (PathBuf, PathBuf) {
    static RUNS: std::sync::OnceLock<(PathBuf, PathBuf)> = std::sync::OnceLock::new();
    RUNS.get_or_init(|| {
        let dir = scratch("lab-report", "runs");
        let (go, incursion) = (dir.join("go"), dir.join("incursion"));
        small_run(&go, "go:ko=simple");
        small_run(&incursion, "incursion");
        (go, incursion)
    })
    .clone()
}

/// The summary's value at `path` (a JSON pointer) with `decimals` decimals, as the tables print it.
fn summary_number(run: &Path, pointer: &str, decimals: usize) -> String {
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("summary.json")).unwrap()).unwrap();
    format!("{:.decimals$}", summary.pointer(pointer).and_then(|v| v.as_f64()).unwrap())
}

#[test]
fn a_report_of_two_runs_holds_every_plot_and_the_summaries_numbers() {
    let (go, incursion) = two_runs();
    let out = scratch("lab-report", "report");
    let html = out.join("report.html");
    let output = variago(&["lab", "report", text(&go), text(&incursion), "--html", text(&html)]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let page = std::fs::read_to_string(&html).unwrap();
    // self-contained: the plots inline, nothing fetched
    assert!(page.starts_with("<!DOCTYPE html>") && page.trim_end().ends_with("</html>"));
    assert!(
        !page.contains("<script") && !page.contains("src=") && !page.contains("href="),
        "external content"
    );
    assert_eq!(page.matches("<svg").count(), PLOTS.len());
    for plot in PLOTS {
        assert!(page.contains(&format!("<figure id=\"{plot}\">")), "{plot} is missing");
    }
    // the runs are told apart by their variant, in the tables and in the plots' legends
    assert!(page.contains("<th>go:ko=simple</th><th>incursion</th>"));
    for run in [&go, &incursion] {
        for (pointer, decimals) in [
            ("/first_player_win_rate/value", 3),
            ("/first_player_win_rate/low", 3),
            ("/first_player_win_rate/high", 3),
            ("/duration/median", 1),
            ("/branching_factor/value", 2),
            ("/restriction_hits/value", 2),
        ] {
            let number = summary_number(run, pointer, decimals);
            assert!(page.contains(&number), "{} of {}: {number} is not on the page", pointer, run.display());
        }
    }
    // incursion's hits are incursion hits: the rule in the restriction plot's legend, beside the
    // run's name on its axis
    let hits = summary_number(&incursion, "/restriction_hits/value", 2);
    let restriction_plot = std::fs::read_to_string(out.join("report-plots/restriction-hits.svg")).unwrap();
    assert!(
        hits != "0.00" && restriction_plot.matches("\nincursion\n</text>").count() == 2,
        "incursion hits {hits}"
    );
    // every plot beside the page, as SVG and as a PNG that decodes to the plot's size
    let plots = out.join("report-plots");
    for plot in PLOTS {
        let svg = std::fs::read_to_string(plots.join(format!("{plot}.svg"))).unwrap();
        assert!(svg.starts_with("<svg") && page.contains(svg.trim()), "{plot}.svg is not the page's");
        let file = std::fs::File::open(plots.join(format!("{plot}.png"))).unwrap();
        let mut reader = png::Decoder::new(std::io::BufReader::new(file)).read_info().unwrap();
        let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
        let frame = reader.next_frame(&mut pixels).unwrap();
        assert_eq!((frame.width, frame.height), (900, 480), "{plot}.png");
        // not a blank image: some pixels are neither white nor black (the series' colours)
        let coloured = pixels.chunks(3).filter(|p| p[0] != p[1] || p[1] != p[2]).count();
        assert!(coloured > 100, "{plot}.png has {coloured} coloured pixels");
    }
    assert!(String::from_utf8_lossy(&output.stdout).contains("2 runs"));
}

#[test]
fn runs_of_one_variant_at_several_komis_are_shown_per_komi() {
    let out = scratch("lab-report", "komi");
    let (low, high) = (out.join("komi_0"), out.join("komi_20"));
    for (dir, komi) in [(&low, "0"), (&high, "20")] {
        let output = variago(&[
            "lab",
            "selfplay",
            "--variant",
            "go:ko=simple",
            "--size",
            "5",
            "--games",
            "2",
            "--playouts",
            "5",
            "--komi",
            komi,
            "--out",
            text(dir),
        ]);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    }
    let html = out.join("komi.html");
    let output = variago(&["lab", "report", text(&low), text(&high), "--html", text(&html)]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("First-player win rate per komi"));
    assert!(page.contains("<th>komi 0</th><th>komi 20</th>"), "the runs are named by their komi");
}

#[test]
fn bad_input_is_refused_in_one_line_and_writes_nothing() {
    let (go, _) = two_runs();
    let out = scratch("lab-report", "bad");
    let html = out.join("report.html");
    let nothing_written = || {
        let entries: Vec<_> = std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert!(entries.is_empty(), "left behind: {entries:?}");
    };
    // a folder that does not exist
    let missing = out.join("no-such-run");
    assert_refused(&variago(&["lab", "report", text(&missing), "--html", text(&html)]), "is not a folder");
    nothing_written();
    // a run still playing (no summary) and a corrupt one (a line that is not a game)
    let corrupt = scratch("lab-report", "corrupt");
    for entry in std::fs::read_dir(&go).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), corrupt.join(entry.file_name())).unwrap();
    }
    std::fs::remove_file(corrupt.join("summary.json")).unwrap();
    assert_refused(
        &variago(&["lab", "report", text(&corrupt), "--html", text(&html)]),
        "is not a finished run",
    );
    std::fs::copy(go.join("summary.json"), corrupt.join("summary.json")).unwrap();
    std::fs::write(corrupt.join("games.jsonl"), "{\"game\": 0, \"seed\"\n").unwrap();
    assert_refused(
        &variago(&["lab", "report", text(&corrupt), "--html", text(&html)]),
        "is not a game's line",
    );
    nothing_written();
    // a record that does not replay
    let broken = scratch("lab-report", "broken");
    for entry in std::fs::read_dir(&go).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), broken.join(entry.file_name())).unwrap();
    }
    std::fs::write(broken.join("game-0000.sgf"), "(;GM[1]FF[4]SZ[5]RU[go:ko=simple];B[aa];W[aa])").unwrap();
    assert_refused(&variago(&["lab", "report", text(&broken), "--html", text(&html)]), "game-0000.sgf");
    nothing_written();
    // an output that cannot be written: its folder is missing, or is a file
    let nowhere = out.join("missing").join("report.html");
    assert_refused(&variago(&["lab", "report", text(&go), "--html", text(&nowhere)]), "is not a folder");
    nothing_written();
    let file = scratch("lab-report", "file-parent").join("plain");
    std::fs::write(&file, "").unwrap();
    let under_file = file.join("report.html");
    assert_refused(&variago(&["lab", "report", text(&go), "--html", text(&under_file)]), "is not a folder");
    // no folder at all
    let output = variago(&["lab", "report", "--html", text(&html)]);
    assert_eq!(output.status.code(), Some(2));
    nothing_written();
}
