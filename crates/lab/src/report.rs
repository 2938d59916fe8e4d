//! `lab report`: self-play runs as one self-contained HTML page (tables, and plots inlined as
//! SVG), with each plot also written as SVG and PNG beside it.
//!
//! The plots are drawn by `plotters`, once on its SVG backend and once on its bitmap backend
//! (encoded as PNG by `png`). Text is laid out with a font embedded in the program (a subset of
//! DejaVu Sans, `assets/`), so that no system font is needed; the SVGs name the family
//! `sans-serif` and a browser draws their text with its own.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use plotters::coord::Shift;
use plotters::coord::ranged1d::SegmentedCoord;
use plotters::coord::types::{RangedCoordf64, RangedCoordi32};
use plotters::prelude::*;

use crate::runs::{RunError, RunSettings, write_atomic};
use crate::selfplay::GameStats;
use crate::stats::{Summary, comparison_rows};

/// The font the plots' text is laid out (and, in PNGs, drawn) with: DejaVu Sans cut to ASCII and
/// a few signs (`assets/README.md` says how).
const FONT: &[u8] = include_bytes!("../assets/DejaVuSans-subset.ttf");
/// The family the plots name.
const FAMILY: &str = "sans-serif";
/// The plots' text size (plotters' size: about 0.8 of it in pixels).
const TEXT: f64 = 15.0;
/// Every plot's size in pixels.
const SIZE: (u32, u32) = (900, 480);
/// Game-length bins of the histogram.
const LENGTH_BINS: u32 = 30;
/// Win-rate traces drawn in all (spread over the runs, at least one per run).
const TRACES: usize = 6;

/// One run as the report shows it.
pub struct ReportRun {
    /// Its name in the tables and legends (what sets it apart from the other runs).
    pub label: String,
    /// Its folder.
    pub dir: PathBuf,
    /// What was played.
    pub settings: RunSettings,
    /// Its games, by number.
    pub games: Vec<GameStats>,
    /// The legal moves (pass included) of the position at move 1, 2, ..., added up over the games
    /// that reached it; `None` when the games are not replayed (Galice).
    pub branching_by_move: Option<Vec<BranchingAt>>,
}

/// The legal moves at one move number, added up over the games that reached it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BranchingAt {
    /// Legal moves, added up.
    pub legal: u64,
    /// Games that reached this move.
    pub games: u64,
}

/// A plot, drawn both ways.
pub struct Plot {
    /// Its file name without extension.
    pub name: &'static str,
    /// Its title.
    pub title: String,
    /// As SVG.
    pub svg: String,
    /// As PNG.
    pub png: Vec<u8>,
}

/// How a run's label writes one of its settings.
type Field = fn(&RunSettings) -> String;

/// The runs' names: what sets each apart (variant, size, komi, engines, seed, games, move cap),
/// or the variant for a single run; and whether they differ by komi alone.
pub fn labels(settings: &[RunSettings]) -> (Vec<String>, bool) {
    let differs = |field: Field| settings.iter().map(field).collect::<BTreeSet<_>>().len() > 1;
    let fields: [(bool, Field); 7] = [
        (differs(|s| variant_without_komi(&s.variant)), |s| variant_without_komi(&s.variant)),
        (differs(|s| s.size.clone()), |s| s.size.clone()),
        (differs(|s| s.komi.clone()), |s| format!("komi {}", s.komi)),
        (differs(|s| s.engines()), |s| s.engines()),
        (differs(|s| s.seed.to_string()), |s| format!("seed {}", s.seed)),
        (differs(|s| s.games.to_string()), |s| format!("{} games", s.games)),
        (differs(|s| s.max_moves.to_string()), |s| format!("cap {}", s.max_moves)),
    ];
    let by_komi = fields.iter().enumerate().all(|(i, (differ, _))| *differ == (i == 2));
    let labels = settings
        .iter()
        .map(|s| {
            let parts: Vec<String> = fields.iter().filter(|(d, _)| *d).map(|(_, f)| f(s)).collect();
            if parts.is_empty() { variant_without_komi(&s.variant) } else { parts.join(", ") }
        })
        .collect();
    (labels, by_komi)
}

/// A run's variant without its `komi=` option (the engine writes a komi other than the
/// variant's own into the spec; the report names the komi apart).
fn variant_without_komi(variant: &str) -> String {
    let Some((name, options)) = variant.split_once(':') else { return variant.to_string() };
    let kept: Vec<&str> = options.split(',').filter(|o| !o.trim().starts_with("komi=")).collect();
    if kept.is_empty() { name.to_string() } else { format!("{name}:{}", kept.join(",")) }
}

/// Registers the embedded font under [`FAMILY`], once.
fn register_font() -> Result<(), RunError> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let ok =
        *REGISTERED.get_or_init(|| plotters::style::register_font(FAMILY, FontStyle::Normal, FONT).is_ok());
    if ok { Ok(()) } else { Err(RunError("the plots' embedded font does not load".into())) }
}

/// One line for a plot that could not be drawn.
fn drawing_failed(name: &str, e: impl std::fmt::Display) -> RunError {
    RunError(format!("cannot draw the plot {name}: {e}"))
}

/// RGB pixels of [`SIZE`] as a PNG file.
fn encode_png(name: &str, pixels: &[u8]) -> Result<Vec<u8>, RunError> {
    let mut png = Vec::new();
    let mut encoder = png::Encoder::new(&mut png, SIZE.0, SIZE.1);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder
        .write_header()
        .and_then(|mut writer| writer.write_image_data(pixels))
        .map_err(|e| drawing_failed(name, e))?;
    Ok(png)
}

/// Draws a plot with the same code on plotters' SVG backend and on its bitmap backend: the
/// [`Plot`], or `?` returns the error.
macro_rules! plot {
    ($name:expr, $title:expr, |$root:ident| $body:expr) => {{
        let mut svg = String::new();
        {
            let $root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
            $body.and_then(|()| $root.present()).map_err(|e| drawing_failed($name, e))?;
        }
        let mut pixels = vec![0u8; (SIZE.0 * SIZE.1 * 3) as usize];
        {
            let $root = BitMapBackend::with_buffer(&mut pixels, SIZE).into_drawing_area();
            $body.and_then(|()| $root.present()).map_err(|e| drawing_failed($name, e))?;
        }
        Plot { name: $name, title: $title, svg, png: encode_png($name, &pixels)? }
    }};
}

/// Ten colours told apart easily (Tableau 10), one per run or series.
const PALETTE: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// The colour of run (or series) `i`.
fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// Every plot of the report: game lengths, first-player win rate, branching factor by move
/// number, a few win-rate traces, restriction hits per game.
pub fn plots(runs: &[ReportRun]) -> Result<Vec<Plot>, RunError> {
    register_font()?;
    let names: Vec<&str> = runs.iter().map(|r| r.label.as_str()).collect();
    let summaries: Vec<Summary> = runs.iter().map(|r| Summary::of(&r.games)).collect();
    let settings: Vec<RunSettings> = runs.iter().map(|r| r.settings.clone()).collect();
    let per = if labels(&settings).1 { "komi" } else { "run" };
    let mut out = vec![
        plot!("game-length", "Game length (moves, passes included)".into(), |root| lengths(&root, runs)),
        plot!(
            "first-player-win-rate",
            format!("First-player win rate per {per} (95% Wilson intervals)"),
            |root| win_rates(&root, &names, &summaries)
        ),
    ];
    if runs.iter().any(|r| r.branching_by_move.is_some()) {
        out.push(plot!(
            "branching-factor",
            "Branching factor by move number (mean legal moves, pass included)".into(),
            |root| branching(&root, runs)
        ));
    }
    out.push(plot!(
        "win-rate-traces",
        "A few games: the AI's value for Black, move by move".into(),
        |root| { traces(&root, runs) }
    ));
    out.push(plot!(
        "restriction-hits",
        "Restriction hits per game, by rule (95% interval of the total)".into(),
        |root| restriction_hits(&root, &names, &summaries)
    ));
    Ok(out)
}

/// A drawing's result on a backend.
type Drawn<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// A legend in the upper right corner.
fn legend<'a, DB: DrawingBackend + 'a, X: Ranged, Y: Ranged>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
) -> Drawn<DB> {
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font((FAMILY, TEXT))
        .draw()
}

/// An axis label for counts and move numbers: no decimals.
fn whole(value: &f64) -> String {
    format!("{value:.0}")
}

/// Game lengths: one outlined histogram per run over shared bins.
fn lengths<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, runs: &[ReportRun]) -> Drawn<DB> {
    root.fill(&WHITE)?;
    let all = || runs.iter().flat_map(|r| r.games.iter().map(|g| g.moves));
    let (shortest, longest) = (all().min().unwrap_or(0), all().max().unwrap_or(0));
    let width = ((longest - shortest) / LENGTH_BINS + 1).max(1);
    let bins = (longest - shortest) / width + 1;
    let counts: Vec<Vec<u32>> = runs
        .iter()
        .map(|r| {
            let mut counts = vec![0; bins as usize];
            r.games.iter().for_each(|g| counts[((g.moves - shortest) / width) as usize] += 1);
            counts
        })
        .collect();
    let top = counts.iter().flatten().copied().max().unwrap_or(1).max(1);
    let (from, to) = (f64::from(shortest), f64::from(shortest + bins * width));
    let mut chart = ChartBuilder::on(root)
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(from..to, 0.0..f64::from(top) * 1.1)?;
    chart
        .configure_mesh()
        .x_desc("moves")
        .y_desc("games")
        .x_label_formatter(&whole)
        .y_label_formatter(&whole)
        .label_style((FAMILY, TEXT))
        .draw()?;
    for (i, (run, counts)) in runs.iter().zip(&counts).enumerate() {
        let mut steps = vec![(from, 0.0)];
        for (bin, &count) in counts.iter().enumerate() {
            let left = f64::from(shortest + bin as u32 * width);
            steps.push((left, f64::from(count)));
            steps.push((left + f64::from(width), f64::from(count)));
        }
        steps.push((to, 0.0));
        let style = colour(i).stroke_width(2);
        chart
            .draw_series(LineSeries::new(steps, style))?
            .label(format!("{} (median {:.1})", run.label, Summary::of(&run.games).duration.median))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style));
    }
    legend(&mut chart)
}

/// `n` runs as categories on the x axis (plotters' integer ranges hold both ends).
fn categories(n: usize) -> SegmentedCoord<RangedCoordi32> {
    (0..n.max(1) as i32 - 1).into_segmented()
}

/// Runs as categories on the x axis, named by their labels.
fn category_axis<'a>(names: &'a [&'a str]) -> impl Fn(&SegmentValue<i32>) -> String + 'a {
    move |value| match value {
        SegmentValue::CenterOf(i) => names.get(*i as usize).map_or(String::new(), |n| n.to_string()),
        _ => String::new(),
    }
}

/// A chart of one category per run (x) against a number (y).
type RunChart<'a, DB> = ChartContext<'a, DB, Cartesian2d<SegmentedCoord<RangedCoordi32>, RangedCoordf64>>;

/// A chart with one category per run along x, named below it, and `values` up the y axis
/// (`description`), its mesh drawn: the frame of every per-run plot.
fn run_chart<'a, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, Shift>,
    names: &[&str],
    values: std::ops::Range<f64>,
    description: &str,
) -> Result<RunChart<'a, DB>, DrawingAreaErrorKind<DB::ErrorType>> {
    let mut chart = ChartBuilder::on(root)
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(categories(names.len()), values)?;
    let name = category_axis(names);
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(names.len() + 1)
        .x_label_formatter(&name)
        .y_desc(description)
        .label_style((FAMILY, TEXT))
        .draw()?;
    Ok(chart)
}

/// The first-player win rate of each run with its Wilson interval, against the even line.
fn win_rates<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    names: &[&str],
    summaries: &[Summary],
) -> Drawn<DB> {
    root.fill(&WHITE)?;
    let mut chart = run_chart(root, names, 0.0..1.0, "first-player win rate")?;
    let even = [(SegmentValue::Exact(0), 0.5), (SegmentValue::Last, 0.5)];
    chart.draw_series(std::iter::once(PathElement::new(even, BLACK.mix(0.5).stroke_width(1))))?;
    for (i, summary) in summaries.iter().enumerate() {
        let rate = summary.first_player_win_rate;
        let at = SegmentValue::CenterOf(i as i32);
        let style = colour(i).stroke_width(2);
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(at.clone(), rate.low), (at.clone(), rate.high)],
            style,
        )))?;
        chart.draw_series(std::iter::once(Circle::new((at.clone(), rate.value), 5, colour(i).filled())))?;
        chart.draw_series(std::iter::once(
            EmptyElement::at((at, rate.value))
                + Text::new(format!("{:.3}", rate.value), (10, -20), (FAMILY, TEXT).into_font()),
        ))?;
    }
    Ok(())
}

/// The mean legal moves at each move number, over the games that reached it; the tail reached
/// by fewer than a tenth of a run's games is left out (a handful of games is noise).
fn branching<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, runs: &[ReportRun]) -> Drawn<DB> {
    root.fill(&WHITE)?;
    let curves: Vec<Vec<(f64, f64)>> = runs
        .iter()
        .map(|r| {
            let enough = (r.games.len() as u64).div_ceil(10).max(1);
            r.branching_by_move
                .iter()
                .flatten()
                .enumerate()
                .take_while(|(_, at)| at.games >= enough)
                .map(|(i, at)| ((i + 1) as f64, at.legal as f64 / at.games as f64))
                .collect()
        })
        .collect();
    let points = || curves.iter().flatten();
    let right = points().map(|p| p.0).fold(1.0, f64::max);
    let top = points().map(|p| p.1).fold(1.0, f64::max);
    let mut chart = ChartBuilder::on(root)
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(1.0..right, 0.0..top * 1.1)?;
    chart
        .configure_mesh()
        .x_desc("move number")
        .y_desc("legal moves")
        .x_label_formatter(&whole)
        .label_style((FAMILY, TEXT))
        .draw()?;
    for (i, (run, curve)) in runs.iter().zip(curves).enumerate() {
        if curve.is_empty() {
            continue;
        }
        let style = colour(i).stroke_width(2);
        chart
            .draw_series(LineSeries::new(curve, style))?
            .label(run.label.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style));
    }
    legend(&mut chart)
}

/// The value for Black move by move in the first games of each run ([`TRACES`] in all).
fn traces<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, runs: &[ReportRun]) -> Drawn<DB> {
    root.fill(&WHITE)?;
    let per_run = (TRACES / runs.len().max(1)).max(1);
    let games: Vec<(usize, &ReportRun, &GameStats)> = runs
        .iter()
        .enumerate()
        .flat_map(|(i, r)| r.games.iter().take(per_run).map(move |g| (i, r, g)))
        .collect();
    let right = games.iter().map(|(_, _, g)| g.values.len()).max().unwrap_or(1).max(2) as f64;
    let mut chart = ChartBuilder::on(root)
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(1.0..right, 0.0..1.0)?;
    chart
        .configure_mesh()
        .x_desc("move number")
        .y_desc("value for Black")
        .x_label_formatter(&whole)
        .label_style((FAMILY, TEXT))
        .draw()?;
    chart.draw_series(std::iter::once(PathElement::new(vec![(1.0, 0.5), (right, 0.5)], BLACK.mix(0.5))))?;
    for (n, (i, run, game)) in games.iter().enumerate() {
        // the games of one run share its colour, told apart by their shade
        let shade = if n % 2 == 0 { 1.0 } else { 0.55 };
        let style = colour(*i).mix(shade).stroke_width(2);
        let values = game.values.iter().enumerate().filter_map(|(m, v)| v.map(|v| ((m + 1) as f64, v)));
        let winner = game.winner.map_or("draw".to_string(), |w| format!("{w:?} won"));
        chart
            .draw_series(LineSeries::new(values, style))?
            .label(format!("{} game {} ({winner})", run.label, game.game))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style));
    }
    legend(&mut chart)
}

/// Restriction hits per game: each run's bar stacked by rule, with the total's interval.
fn restriction_hits<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    names: &[&str],
    summaries: &[Summary],
) -> Drawn<DB> {
    root.fill(&WHITE)?;
    let rules: BTreeSet<&str> =
        summaries.iter().flat_map(|s| s.restrictions.keys().map(String::as_str)).collect();
    let top = summaries.iter().map(|s| s.restriction_hits.high).fold(1.0, f64::max);
    let mut chart = run_chart(root, names, 0.0..top * 1.4, "restriction hits per game")?;
    let mut bottoms = vec![0.0; summaries.len()];
    for (r, rule) in rules.iter().enumerate() {
        let fill = colour(r).filled();
        let bars: Vec<Rectangle<(SegmentValue<i32>, f64)>> = summaries
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let hits = s.restrictions.get(*rule).copied().unwrap_or(0.0);
                let bottom = bottoms[i];
                bottoms[i] += hits;
                let mut bar = Rectangle::new(
                    [
                        (SegmentValue::Exact(i as i32), bottom),
                        (SegmentValue::Exact(i as i32 + 1), bottom + hits),
                    ],
                    fill,
                );
                bar.set_margin(0, 0, 18, 18);
                bar
            })
            .collect();
        chart
            .draw_series(bars)?
            .label(rule.to_string())
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], fill));
    }
    for (i, summary) in summaries.iter().enumerate() {
        let total = summary.restriction_hits;
        let at = SegmentValue::CenterOf(i as i32);
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(at.clone(), total.low), (at.clone(), total.high)],
            BLACK.stroke_width(2),
        )))?;
        chart.draw_series(std::iter::once(
            EmptyElement::at((at, total.high))
                + Text::new(format!("{:.2}", total.value), (6, -18), (FAMILY, TEXT).into_font()),
        ))?;
    }
    if rules.is_empty() {
        return Ok(());
    }
    legend(&mut chart)
}

/// The start of a lab page, up to its heading: one style for every page, no script, no external
/// file, no web font.
pub(crate) fn page_head(title: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{title}</title>\n<style>\n\
         body {{ font-family: sans-serif; margin: 2em; max-width: 1100px; }}\n\
         table {{ border-collapse: collapse; margin: 1em 0; }}\n\
         th, td {{ border: 1px solid #bbb; padding: 0.3em 0.6em; }}\n\
         td.n {{ text-align: right; font-variant-numeric: tabular-nums; }}\n\
         figure {{ margin: 2em 0; }}\n\
         svg {{ max-width: 100%; height: auto; }}\n\
         </style>\n</head>\n<body>\n<h1>{title}</h1>\n",
        title = escape(title)
    )
}

/// `&`, `<`, `>` and `"` written as HTML entities.
pub(crate) fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The report as one HTML page: the runs, their statistics side by side, and the plots inlined
/// as SVG (no script, no external file, no web font).
pub fn html(runs: &[ReportRun], plots: &[Plot], plot_folder: &str) -> String {
    let summaries: Vec<Summary> = runs.iter().map(|r| Summary::of(&r.games)).collect();
    let mut out = page_head("variago lab report");
    out += "<h2>Runs</h2>\n<table>\n<tr><th>run</th><th>folder</th><th>what was played</th><th>result</th></tr>\n";
    for (run, summary) in runs.iter().zip(&summaries) {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td><code>{}</code></td><td>{}</td><td>{}</td></tr>",
            escape(&run.label),
            escape(&run.dir.display().to_string()),
            escape(&run.settings.describe()),
            escape(&summary.last_line())
        );
    }
    out += "</table>\n<h2>Statistics (95% intervals)</h2>\n<table>\n<tr><th>statistic</th>";
    for run in runs {
        let _ = write!(out, "<th>{}</th>", escape(&run.label));
    }
    out += "</tr>\n";
    for (name, cells) in comparison_rows(&summaries) {
        let _ = write!(out, "<tr><td>{}</td>", escape(name));
        for cell in cells {
            let _ = write!(out, "<td class=\"n\">{}</td>", escape(&cell));
        }
        out += "</tr>\n";
    }
    out += "</table>\n<h2>Plots</h2>\n";
    if runs.iter().any(|r| r.branching_by_move.is_none()) {
        out +=
            "<p>Galice runs have no branching factor by move number (their records are not replayed).</p>\n";
    }
    for plot in plots {
        let _ = writeln!(
            out,
            "<figure id=\"{name}\">\n<figcaption><strong>{}</strong> (also <code>{folder}/{name}.svg</code> and <code>.png</code>)</figcaption>\n{}\n</figure>",
            escape(&plot.title),
            plot.svg.trim(),
            name = plot.name,
            folder = escape(plot_folder),
        );
    }
    out += "</body>\n</html>\n";
    out
}

/// Writes the report: the plots into `FILE`'s folder as `STEM-plots/NAME.svg` and `.png`, then
/// the page. Nothing half-written looks complete: the plots are written into a temporary folder
/// that takes the final name once every file is in it, and the page (written through a
/// temporary file and a rename) comes last. Returns the plots' folder.
pub fn write_report(file: &Path, runs: &[ReportRun]) -> Result<PathBuf, RunError> {
    let parent = file.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !parent.is_dir() {
        return Err(RunError(format!(
            "cannot write {}: {} is not a folder",
            file.display(),
            parent.display()
        )));
    }
    let stem = file.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "report".into());
    let folder_name = format!("{stem}-plots");
    let folder = parent.join(&folder_name);
    let temporary = parent.join(format!(".{folder_name}.tmp"));
    let plots = plots(runs)?;
    let written = (|| {
        let failed =
            |path: &Path, e: std::io::Error| RunError(format!("cannot write {}: {e}", path.display()));
        if temporary.exists() {
            fs::remove_dir_all(&temporary).map_err(|e| failed(&temporary, e))?;
        }
        fs::create_dir(&temporary).map_err(|e| failed(&temporary, e))?;
        for plot in &plots {
            let svg = temporary.join(format!("{}.svg", plot.name));
            fs::write(&svg, &plot.svg).map_err(|e| failed(&svg, e))?;
            let png = temporary.join(format!("{}.png", plot.name));
            fs::write(&png, &plot.png).map_err(|e| failed(&png, e))?;
        }
        if folder.exists() {
            fs::remove_dir_all(&folder).map_err(|e| failed(&folder, e))?;
        }
        fs::rename(&temporary, &folder).map_err(|e| failed(&folder, e))
    })();
    if let Err(e) = written {
        let _ = fs::remove_dir_all(&temporary);
        return Err(e);
    }
    write_atomic(file, &html(runs, &plots, &folder_name))?;
    Ok(folder)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runs::Shard;

    fn settings(variant: &str, komi: &str) -> RunSettings {
        RunSettings {
            variant: variant.into(),
            size: "9x9".into(),
            komi: komi.into(),
            black: "variago:playouts=300".into(),
            white: "variago:playouts=300".into(),
            max_moves: 243,
            seed: 1,
            games: 200,
            shard: Shard::ALL,
        }
    }

    #[test]
    fn runs_are_named_by_what_sets_them_apart() {
        let (names, by_komi) = labels(&[settings("go:ko=simple", "7.5"), settings("incursion", "7.5")]);
        assert_eq!((names, by_komi), (vec!["go:ko=simple".to_string(), "incursion".to_string()], false));
        let komis = [settings("go:ko=simple,komi=5", "5"), settings("go:ko=simple,komi=6.5", "6.5")];
        assert_eq!(labels(&komis), (vec!["komi 5".to_string(), "komi 6.5".to_string()], true));
        let mut stronger = settings("go", "7.5");
        stronger.black = "variago:playouts=1000".into();
        let (names, by_komi) = labels(&[settings("go", "7.5"), stronger]);
        assert!(!by_komi);
        assert_eq!(names[1], "Black variago:playouts=1000, White variago:playouts=300");
        assert_eq!(labels(&[settings("stoical", "7.5")]).0, vec!["stoical".to_string()]);
    }
}
