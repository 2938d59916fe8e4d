//! A self-play run's folder: `settings.json` (what was played), one `game-NNNN.sgf` per game,
//! `games.jsonl` (one [`GameStats`] line per game), and `summary.json`, written last.
//!
//! Nothing half-written looks complete: files are written to a temporary name and renamed; a
//! game's line is appended only after its SGF is in place; `summary.json` appears only when every
//! game of the run is in `games.jsonl`, and a run that is resumed removes it first. A run that
//! stopped half-way resumes in the same folder with the same settings and plays only the games
//! its `games.jsonl` lacks (a last line cut short by a crash is dropped).
//!
//! Shards: `--shard I/N` plays the games whose number is I modulo N (numbers from 0, I from 0 to
//! N−1); every game's seed is fixed by the run's seed and the game's number, so N shards play the
//! games of one run. [`merge`] takes finished shard folders and checks that they are shards of
//! the same run and hold each game exactly once.

use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::selfplay::GameStats;
use crate::stats::Summary;

/// What went wrong with a run's folder: one line for the user.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RunError(pub String);

fn error(message: impl Into<String>) -> RunError {
    RunError(message.into())
}

/// The games one machine plays: those numbered `index` modulo `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// From 0 to `count − 1`.
    pub index: u64,
    /// Shards in all (1: the whole run).
    pub count: u64,
}

impl Shard {
    /// The whole run.
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// Whether game `game` is this shard's.
    pub fn holds(&self, game: u64) -> bool {
        game % self.count == self.index
    }

    /// This shard's games of a run of `total`, in order.
    pub fn games(&self, total: u64) -> impl Iterator<Item = u64> + use<> {
        (self.index..total).step_by(self.count as usize)
    }
}

impl FromStr for Shard {
    type Err = String;

    /// `I/N`, I from 0 to N−1.
    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || format!("--shard '{text}': write I/N with I from 0 to N-1 (e.g. 0/4)");
        let (index, count) = text.split_once('/').ok_or_else(bad)?;
        let index: u64 = index.trim().parse().map_err(|_| bad())?;
        let count: u64 = count.trim().parse().map_err(|_| bad())?;
        if count == 0 || index >= count || count > u64::from(u32::MAX) {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// What a run plays: `settings.json`. Two shards belong to the same run when everything but the
/// shard is equal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunSettings {
    /// The variant spec as the engine writes it (without size), or `galice`.
    pub variant: String,
    /// The board, `WxH` (`2x7x7` for Galice's two boards).
    pub size: String,
    /// The komi (`-` for Galice).
    pub komi: String,
    /// The engine playing Black (in Galice: the one that makes the pie setup).
    pub black: String,
    /// The engine playing White (in Galice: the one that chooses the colour).
    pub white: String,
    /// Moves after which a game is scored as it stands.
    pub max_moves: usize,
    /// The run's seed; game g's seed is [`game_seed`]`(seed, g)`.
    pub seed: u64,
    /// Games of the whole run (all shards).
    pub games: u64,
    /// The games this folder plays.
    pub shard: Shard,
}

impl RunSettings {
    /// The fields (by their JSON names) in which two runs differ, the shard left out.
    pub fn differences(&self, other: &RunSettings) -> Vec<&'static str> {
        let mut out = Vec::new();
        let mut compare = |name, same: bool| {
            if !same {
                out.push(name);
            }
        };
        compare("variant", self.variant == other.variant);
        compare("size", self.size == other.size);
        compare("komi", self.komi == other.komi);
        compare("black", self.black == other.black);
        compare("white", self.white == other.white);
        compare("max_moves", self.max_moves == other.max_moves);
        compare("seed", self.seed == other.seed);
        compare("games", self.games == other.games);
        out
    }

    /// The engines: `E against itself`, or `Black E1, White E2`.
    pub fn engines(&self) -> String {
        if self.black == self.white {
            format!("{} against itself", self.black)
        } else {
            format!("Black {}, White {}", self.black, self.white)
        }
    }

    /// One line naming what was played (the shard left out, so that a merge prints what one run
    /// prints).
    pub fn describe(&self) -> String {
        let engines = self.engines();
        let komi = if self.komi == "-" { String::new() } else { format!(", komi {}", self.komi) };
        format!(
            "{} on {}{komi}: {engines}, seed {}, cap {} moves",
            self.variant, self.size, self.seed, self.max_moves
        )
    }
}

/// Game `game`'s seed in a run seeded `seed` (SplitMix64 of the pair), whatever machine plays it.
pub fn game_seed(seed: u64, game: u64) -> u64 {
    let mut z =
        seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ game.wrapping_add(1).wrapping_mul(0xd1b5_4a32_d192_ed03);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The SGF file of game `game`: `game-0007.sgf` (at least four digits).
pub fn sgf_name(game: u64) -> String {
    format!("game-{game:04}.sgf")
}

/// The games' lines.
pub const GAMES: &str = "games.jsonl";
/// The run's settings.
pub const SETTINGS: &str = "settings.json";
/// The summary, written last.
pub const SUMMARY: &str = "summary.json";

/// Writes `text` to `path` through a temporary file in the same folder and a rename, so that
/// `path` is either absent, as before, or whole.
pub fn write_atomic(path: &Path, text: &str) -> Result<(), RunError> {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let temporary = path.with_file_name(format!(".{name}.tmp"));
    let failed = |e: std::io::Error| error(format!("cannot write {}: {e}", path.display()));
    fs::write(&temporary, text).map_err(failed)?;
    fs::rename(&temporary, path).map_err(failed)
}

/// The settings of a run folder.
fn read_settings(dir: &Path) -> Result<RunSettings, RunError> {
    let path = dir.join(SETTINGS);
    let text =
        fs::read_to_string(&path).map_err(|e| error(format!("cannot read {}: {e}", path.display())))?;
    serde_json::from_str(&text).map_err(|e| error(format!("{} is not a run's settings: {e}", path.display())))
}

/// The games' lines of a folder. `lenient`: a last line cut short (no line break, or not a game)
/// is dropped, as a crash while appending leaves it; otherwise it is an error.
fn read_games(dir: &Path, settings: &RunSettings, lenient: bool) -> Result<(Vec<GameStats>, bool), RunError> {
    let path = dir.join(GAMES);
    let text = match fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && lenient => return Ok((Vec::new(), false)),
        Err(e) => return Err(error(format!("cannot read {}: {e}", path.display()))),
    };
    let mut games = Vec::new();
    let mut dropped = false;
    let mut seen = BTreeMap::new();
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    for (i, line) in lines.iter().enumerate() {
        let last = i + 1 == lines.len();
        let parsed = serde_json::from_str::<GameStats>(line.trim_end());
        let stats = match parsed {
            Ok(stats) if line.ends_with('\n') => stats,
            _ if last && lenient => {
                dropped = true;
                break;
            }
            Ok(_) => {
                return Err(error(format!("{} line {}: cut short (no line break)", path.display(), i + 1)));
            }
            Err(e) => {
                return Err(error(format!("{} line {} is not a game's line: {e}", path.display(), i + 1)));
            }
        };
        let game = stats.game;
        if game >= settings.games || !settings.shard.holds(game) {
            return Err(error(format!(
                "{} line {}: game {game} is not one of shard {}'s {} games",
                path.display(),
                i + 1,
                settings.shard,
                settings.games
            )));
        }
        if seen.insert(game, i + 1).is_some() {
            return Err(error(format!("{}: game {game} is there twice", path.display())));
        }
        if !dir.join(sgf_name(game)).is_file() {
            return Err(error(format!("{}: game {game} has no {}", dir.display(), sgf_name(game))));
        }
        games.push(stats);
    }
    Ok((games, dropped))
}

/// A run folder open for playing: games are added one by one, then [`RunFolder::finish`].
pub struct RunFolder {
    dir: PathBuf,
    games: File,
}

impl RunFolder {
    /// Opens `dir` for a run with `settings`: creates it (and writes `settings.json`), or resumes
    /// a run of the same settings there (refusing another run's folder). Returns the games already
    /// played.
    pub fn open(dir: &Path, settings: &RunSettings) -> Result<(RunFolder, Vec<GameStats>), RunError> {
        fs::create_dir_all(dir).map_err(|e| error(format!("cannot create {}: {e}", dir.display())))?;
        let mut done = Vec::new();
        if dir.join(SETTINGS).exists() {
            let existing = read_settings(dir)?;
            let differences = existing.differences(settings);
            if !differences.is_empty() || existing.shard != settings.shard {
                let mut fields = differences.join(", ");
                if existing.shard != settings.shard {
                    fields += if fields.is_empty() { "shard" } else { ", shard" };
                }
                return Err(error(format!(
                    "{} holds another run (it differs in {fields}): choose a new folder",
                    dir.display()
                )));
            }
            // nothing stale may look complete while the run goes on
            match fs::remove_file(dir.join(SUMMARY)) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    return Err(error(format!("cannot remove {}: {e}", dir.join(SUMMARY).display())));
                }
                _ => {}
            }
            let (games, dropped) = read_games(dir, settings, true)?;
            if dropped {
                let text: String = games
                    .iter()
                    .map(|g| serde_json::to_string(g).expect("a game serialises") + "\n")
                    .collect();
                write_atomic(&dir.join(GAMES), &text)?;
            }
            done = games;
        } else {
            if dir.join(GAMES).exists() || dir.join(SUMMARY).exists() {
                return Err(error(format!(
                    "{} holds games without settings.json: choose a new folder",
                    dir.display()
                )));
            }
            let text = serde_json::to_string_pretty(settings).expect("settings serialise") + "\n";
            write_atomic(&dir.join(SETTINGS), &text)?;
        }
        let path = dir.join(GAMES);
        let games = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(|e| error(format!("cannot write {}: {e}", path.display())))?;
        Ok((RunFolder { dir: dir.to_path_buf(), games }, done))
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Saves a game: its SGF first, then its line.
    pub fn add(&mut self, stats: &GameStats, sgf: &str) -> Result<(), RunError> {
        write_atomic(&self.dir.join(sgf_name(stats.game)), sgf)?;
        let line = serde_json::to_string(stats).expect("a game serialises") + "\n";
        self.games
            .write_all(line.as_bytes())
            .map_err(|e| error(format!("cannot write {}: {e}", self.dir.join(GAMES).display())))
    }

    /// Writes `summary.json`, the mark of a finished run.
    pub fn finish(self, summary: &Summary) -> Result<(), RunError> {
        self.games
            .sync_all()
            .map_err(|e| error(format!("cannot write {}: {e}", self.dir.join(GAMES).display())))?;
        let text = serde_json::to_string_pretty(summary).expect("a summary serialises") + "\n";
        write_atomic(&self.dir.join(SUMMARY), &text)
    }
}

/// A finished run folder (or shard): its settings and games, checked (every line a game of its
/// shard, each once, with its SGF, all of the shard's games there, `summary.json` present).
pub fn read_finished(dir: &Path) -> Result<(RunSettings, Vec<GameStats>), RunError> {
    if !dir.is_dir() {
        return Err(error(format!("{} is not a folder", dir.display())));
    }
    let settings = read_settings(dir)?;
    let summary = dir.join(SUMMARY);
    let text = fs::read_to_string(&summary)
        .map_err(|_| error(format!("{} is not a finished run: it has no {SUMMARY}", dir.display())))?;
    serde_json::from_str::<Summary>(&text)
        .map_err(|e| error(format!("{} is not a run's summary: {e}", summary.display())))?;
    let (games, _) = read_games(dir, &settings, false)?;
    let expected = settings.shard.games(settings.games).count();
    if games.len() != expected {
        return Err(error(format!(
            "{} holds {} of shard {}'s {expected} games",
            dir.display(),
            games.len(),
            settings.shard
        )));
    }
    Ok((settings, games))
}

/// Merges finished shard folders of one run: refused when they are of different runs (any
/// setting but the shard), share a game, or leave one out. Returns the run's settings (as one
/// unsharded run) and every game, by number.
pub fn merge(dirs: &[PathBuf]) -> Result<(RunSettings, Vec<GameStats>), RunError> {
    let Some(first_dir) = dirs.first() else { return Err(error("lab merge needs at least one folder")) };
    let (first, _) = read_finished(first_dir)?;
    let mut owner: BTreeMap<u64, &Path> = BTreeMap::new();
    let mut all = Vec::new();
    for dir in dirs {
        let (settings, games) = read_finished(dir)?;
        let differences = first.differences(&settings);
        if !differences.is_empty() {
            return Err(error(format!(
                "{} and {} are not shards of one run: they differ in {}",
                first_dir.display(),
                dir.display(),
                differences.join(", ")
            )));
        }
        for stats in games {
            if let Some(other) = owner.insert(stats.game, dir) {
                return Err(error(format!(
                    "game {} is in both {} and {} (the same shard twice?)",
                    stats.game,
                    other.display(),
                    dir.display()
                )));
            }
            all.push(stats);
        }
    }
    let missing: Vec<u64> = (0..first.games).filter(|g| !owner.contains_key(g)).collect();
    if !missing.is_empty() {
        let shown: Vec<String> = missing.iter().take(5).map(u64::to_string).collect();
        let more = if missing.len() > 5 { ", ..." } else { "" };
        return Err(error(format!(
            "{} of the run's {} games are missing (games {}{more}): a shard is left out",
            missing.len(),
            first.games,
            shown.join(", ")
        )));
    }
    all.sort_by_key(|g| g.game);
    Ok((RunSettings { shard: Shard::ALL, ..first }, all))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_the_games_by_number() {
        let shard: Shard = "1/3".parse().unwrap();
        assert_eq!(shard.games(8).collect::<Vec<_>>(), vec![1, 4, 7]);
        assert!(shard.holds(4) && !shard.holds(5));
        assert_eq!(Shard::ALL.games(3).collect::<Vec<_>>(), vec![0, 1, 2]);
        for bad in ["3/3", "1", "a/2", "0/0", "-1/2"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        assert_eq!(shard.to_string(), "1/3");
    }

    #[test]
    fn seeds_depend_on_the_run_seed_and_the_game_number_only() {
        assert_eq!(game_seed(1, 5), game_seed(1, 5));
        assert_ne!(game_seed(1, 5), game_seed(1, 6));
        assert_ne!(game_seed(1, 5), game_seed(2, 5));
        assert_eq!(sgf_name(7), "game-0007.sgf");
        assert_eq!(sgf_name(12345), "game-12345.sgf");
    }
}
