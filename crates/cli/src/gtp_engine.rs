//! `variago gtp`: the GTP engine on standard input and output, for GUIs, tournament tools and
//! `variago match`.

use variago_gtp::{Config, Engine};
use variago_search::Settings;

use crate::Failure;
use crate::genmove::Budget;

/// The flags of `variago gtp`.
#[derive(clap::Args)]
pub struct Options {
    /// Variant spec to start with (e.g. `go:komi=6.5,size=9`, `incursion`), or `galice`; the
    /// controller changes it with `variago-variant`.
    #[arg(long, default_value = "go")]
    pub variant: String,
    /// The search budget per move; without one, the controller's clock (`time_settings`,
    /// `time_left`) sets the time, or the default budget applies.
    #[command(flatten)]
    pub budget: Budget,
    /// Never answer `resign`.
    #[arg(long)]
    pub no_resign: bool,
    /// Go on searching after each `genmove`, on the opponent's time, until the next command
    /// arrives; the next move starts from that tree. Takes the cores meanwhile: leave it off when
    /// the opponent runs on the same machine (matches).
    #[arg(long)]
    pub ponder: bool,
    /// Answer as Lizzie needs: `version` as Leela Zero 0.17 (below 0.15 Lizzie warns, and can
    /// freeze on the warning), the pass in lower case (Lizzie's test of it is case by case;
    /// other clients get GNU Go's `PASS`), and no resignation (Lizzie shows it as a pass).
    #[arg(long)]
    pub lizzie: bool,
}

/// Runs the engine until `quit` or the end of the input.
pub fn run(options: Options) -> Result<(), Failure> {
    let settings = options.budget.settings().map_err(Failure::input)?;
    let resign_below =
        if options.no_resign || options.lizzie { None } else { Config::default().settings.resign_below };
    let config = Config {
        settings: Settings { resign_below, ..settings },
        fixed_budget: options.budget.is_chosen(),
        ponder: options.ponder,
        lizzie: options.lizzie,
    };
    let mut engine = Engine::new(config, &options.variant).map_err(Failure::input)?;
    variago_gtp::run(&mut engine, std::io::BufReader::new(std::io::stdin()), std::io::stdout().lock())
        .map_err(|e| Failure::input(format!("cannot write the answer: {e}")))
}
