//! Record files read with bounds: a file over [`MAX_TEXT_BYTES`] is refused before it fills the
//! memory, and the readers that serve other programs (GTP's `loadsgf`) read regular files only,
//! because opening a FIFO waits for a writer forever and a device may never end.

use std::fs::{File, OpenOptions};
use std::io::Read;
use std::path::Path;

pub use crate::scan::MAX_TEXT_BYTES;

/// Why a record file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The system refused: no such file, no permission, ...
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// A FIFO, a device, a directory or a socket where a regular file was needed.
    #[error("it is not a regular file")]
    NotRegular,
    /// More than [`MAX_TEXT_BYTES`].
    #[error("it is larger than {MAX_TEXT_BYTES} bytes")]
    TooLarge,
    /// Bytes that are not UTF-8.
    #[error("it is not UTF-8 text")]
    NotUtf8,
}

/// The text of a file of any kind (a pipe too, as a shell's `<(...)` gives), refusing more than
/// [`MAX_TEXT_BYTES`].
pub fn read_text(path: &Path) -> Result<String, FileError> {
    read_bounded(File::open(path)?)
}

/// The text of a regular file, refusing anything else without waiting on it and more than
/// [`MAX_TEXT_BYTES`]: for programs that read paths a client sends.
pub fn read_regular_text(path: &Path) -> Result<String, FileError> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        // opening a FIFO without a writer would block; a regular file reads the same without it
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    let metadata = file.metadata()?;
    if !metadata.is_file() {
        return Err(FileError::NotRegular);
    }
    if metadata.len() > MAX_TEXT_BYTES as u64 {
        return Err(FileError::TooLarge);
    }
    read_bounded(file)
}

/// Reads at most one byte more than the limit, so that an endless source stops there.
fn read_bounded(file: File) -> Result<String, FileError> {
    let mut bytes = Vec::new();
    file.take(MAX_TEXT_BYTES as u64 + 1).read_to_end(&mut bytes)?;
    if bytes.len() > MAX_TEXT_BYTES {
        return Err(FileError::TooLarge);
    }
    String::from_utf8(bytes).map_err(|_| FileError::NotUtf8)
}
