//! variago's GTP version 2 engine: every variant playable and analysable from GUIs (Sabaki,
//! GoGui, Lizzie), tournament tools and regression suites.
//!
//! The protocol core, [`Engine::handle`], turns one input line into a [`Reply`] without any I/O,
//! so that conformance is tested in-process; [`run`] drives it over any reader and writer
//! (stdin and stdout for `variago gtp`). Input is read on its own thread, line by line with a
//! length cap, so that a streaming analysis (`lz-analyze`) stops as soon as the next command
//! arrives and a hostile stream never makes the engine hang or allocate without bound.
//!
//! Standard commands follow the GTP version 2 specification; the variant extensions
//! (`variago-variant`, `variago-why`, `variago-play`, ...), GoGui's `gogui-rules_*` commands and
//! the GNU Go extensions GUIs rely on (`list_stones`, `final_status`, `estimate_score`, ..., in
//! GNU Go's formats; dead stones judged from the search's ownership, see [`status`]) are
//! documented in `docs/gtp.md`.

pub mod analysis;
pub mod clock;
pub mod engine;
pub mod handicap;
pub mod position;
pub mod protocol;
pub mod status;

use std::io::{self, BufRead, Write};
use std::sync::mpsc::{self, Receiver, SyncSender, TryRecvError};

pub use engine::{COMMANDS, Config, Engine, Reply};
pub use protocol::{MAX_LINE, Response};

/// Lines read ahead of the engine: enough to keep it busy, few enough that a flood of input waits
/// in the pipe rather than in memory.
const READ_AHEAD: usize = 16;

/// Reads one line (without its newline) of at most [`MAX_LINE`] + 1 bytes, discarding the rest
/// of a longer one, so that [`Engine::handle`] sees it is too long without the engine storing
/// it; `None` at the end of the input. Bytes that are not UTF-8 become replacement characters.
pub fn read_line<R: BufRead>(input: &mut R) -> io::Result<Option<String>> {
    let mut bytes = Vec::new();
    let mut any = false;
    loop {
        let buffer = match input.fill_buf() {
            Ok(buffer) => buffer,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buffer.is_empty() {
            return Ok(any.then(|| String::from_utf8_lossy(&bytes).into_owned()));
        }
        any = true;
        let newline = buffer.iter().position(|&b| b == b'\n');
        let chunk = &buffer[..newline.unwrap_or(buffer.len())];
        let room = (MAX_LINE + 1).saturating_sub(bytes.len());
        bytes.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = newline.map_or(buffer.len(), |i| i + 1);
        input.consume(used);
        if newline.is_some() {
            return Ok(Some(String::from_utf8_lossy(&bytes).into_owned()));
        }
    }
}

/// Sends the input's lines to the engine until the input ends or the engine stops listening.
fn read_lines<R: BufRead>(mut input: R, lines: SyncSender<String>) {
    while let Ok(Some(line)) = read_line(&mut input) {
        if lines.send(line).is_err() {
            return;
        }
    }
}

/// Streams an analysis until the next input line arrives (kept in `pending`) or the input ends,
/// then ends the answer with a blank line. Returns `false` at the end of the input.
fn stream<W: Write>(
    analyse: &mut analysis::Analyse,
    lines: &Receiver<String>,
    pending: &mut Option<String>,
    output: &mut W,
) -> io::Result<bool> {
    writeln!(output, "{}", Response::ok(analyse.id, "").head())?;
    output.flush()?;
    let more = loop {
        let Some(report) = analyse.step() else {
            // the game is over: nothing to report, wait for the next command
            let next = lines.recv().ok();
            let more = next.is_some();
            *pending = next;
            break more;
        };
        writeln!(output, "{report}")?;
        output.flush()?;
        match lines.try_recv() {
            Ok(line) => {
                *pending = Some(line);
                break true;
            }
            Err(TryRecvError::Empty) => {}
            Err(TryRecvError::Disconnected) => break false,
        }
    };
    writeln!(output)?;
    output.flush()?;
    Ok(more)
}

/// Runs the engine on `input` until `quit` or the end of the input, writing the answers to
/// `output`. Fails only when the output cannot be written.
pub fn run<R, W>(engine: &mut Engine, input: R, mut output: W) -> io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write,
{
    let (sender, lines) = mpsc::sync_channel(READ_AHEAD);
    // Detached: after `quit` the reader may still wait on an open input, and must not keep the
    // process alive.
    std::thread::spawn(move || read_lines(input, sender));
    let mut pending = None;
    loop {
        let Some(line) = pending.take().or_else(|| lines.recv().ok()) else {
            return Ok(());
        };
        match engine.handle(&line) {
            None => {}
            Some(Reply::Answer(response)) => {
                write!(output, "{response}")?;
                output.flush()?;
            }
            Some(Reply::Quit(response)) => {
                write!(output, "{response}")?;
                return output.flush();
            }
            Some(Reply::Analyse(mut analyse)) => {
                let more = stream(&mut analyse, &lines, &mut pending, &mut output)?;
                if !more {
                    return Ok(());
                }
            }
        }
    }
}
