//! Game records for variago: SGF read and write for the single-board variants, so that a game
//! saved by one tool (the CLI, the server, GTP's `printsgf`) is loaded with exactly the same state.
//!
//! Layout (documented in `docs/records.md`): `GM[1]`, `SZ[n]` or `SZ[w:h]`, `RU[variant spec]`,
//! `KM`, setup `AB`/`AW`/`AE`/`PL` before the first move, moves `B`/`W` (empty value or `tt` on
//! boards up to 19x19 for a pass) along the main line, `RE`.

pub mod file;
pub mod galice_sgf;
pub mod lifeline_sgf;
mod scan;
pub mod sgf;

pub use lifeline_sgf::LifelineRecord;
pub use sgf::{Annotation, GameInfo, Record, RecordError, ReplayError};
