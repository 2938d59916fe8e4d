//! A small GTP v2 client: an external engine started as a process, spoken to over its standard
//! input and output. Every failure (not found, crashed, malformed answer, no answer in time) is an
//! error message, never a panic or a hang on a dead or stuck engine.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Duration;

/// A running GTP engine.
pub struct Gtp {
    /// The command line, for messages.
    name: String,
    child: Child,
    stdin: ChildStdin,
    /// The engine's output lines, read on a thread of their own so that waiting for an answer
    /// can time out; `None` once the output has ended or failed.
    lines: Receiver<Option<String>>,
    /// How long an answer may take; `None` waits for ever.
    timeout: Option<Duration>,
}

/// Why a GTP command did not succeed.
#[derive(Debug)]
pub enum GtpError {
    /// The engine answered `?`: it refused the command (the text is its message).
    Refused(String),
    /// The engine is gone or does not speak GTP.
    Failed(String),
}

impl std::fmt::Display for GtpError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GtpError::Refused(text) | GtpError::Failed(text) => f.write_str(text),
        }
    }
}

impl Gtp {
    /// Starts `command` (a program and its arguments, split at white space).
    pub fn start(command: &str) -> Result<Gtp, String> {
        let mut words = command.split_whitespace();
        let program = words.next().ok_or("the GTP engine's command line is empty")?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start GTP engine '{command}': {e}"))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(format!("GTP engine '{command}': no pipes to it"));
        };
        let (sender, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut stdout = BufReader::new(stdout);
            loop {
                let mut line = String::new();
                let line = match stdout.read_line(&mut line) {
                    Ok(0) | Err(_) => None,
                    Ok(_) => Some(line),
                };
                let end = line.is_none();
                if sender.send(line).is_err() || end {
                    return;
                }
            }
        });
        Ok(Gtp { name: command.to_string(), child, stdin, lines, timeout: None })
    }

    /// Sets how long any answer may take from now on. After a timeout the engine's late answer
    /// would be taken for the next one: callers drop a timed-out engine and start a new one.
    pub fn set_timeout(&mut self, timeout: Option<Duration>) {
        self.timeout = timeout;
    }

    /// Sends one command and returns the answer's text (after `= `), or why it failed.
    pub fn command(&mut self, command: &str) -> Result<String, GtpError> {
        match self.exchange(command)? {
            (true, body) => Ok(body),
            (false, body) => {
                Err(GtpError::Refused(format!("GTP engine '{}' refused '{command}': {body}", self.name)))
            }
        }
    }

    /// Sends one command and returns whether the engine accepted it (`=`) or refused it (`?`), and
    /// the answer's text after the status and id; fails only when the engine is gone or does not
    /// speak GTP.
    pub fn exchange(&mut self, command: &str) -> Result<(bool, String), GtpError> {
        let failed = |what: String| GtpError::Failed(format!("GTP engine '{}' {what}", self.name));
        writeln!(self.stdin, "{command}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| failed(format!("cannot take '{command}': {e} (has it exited?)")))?;
        let mut lines = Vec::new();
        let deadline = self.timeout.map(|t| std::time::Instant::now() + t);
        loop {
            let received = match deadline {
                Some(deadline) => {
                    self.lines.recv_timeout(deadline.saturating_duration_since(std::time::Instant::now()))
                }
                None => self.lines.recv().map_err(|_| RecvTimeoutError::Disconnected),
            };
            let line = match received {
                Ok(Some(line)) => line,
                Ok(None) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(failed(format!("exited while answering '{command}'")));
                }
                Err(RecvTimeoutError::Timeout) => {
                    let seconds = self.timeout.map_or(0.0, |t| t.as_secs_f64());
                    return Err(failed(format!("did not answer '{command}' within {seconds} s")));
                }
            };
            let line = line.trim_end_matches(['\n', '\r']);
            if line.trim().is_empty() {
                if lines.is_empty() {
                    continue; // blank lines before an answer
                }
                break;
            }
            lines.push(line.to_string());
        }
        let text = lines.join("\n");
        let (status, body) = text.split_at(1);
        let body = body.trim_start_matches(|c: char| c.is_ascii_digit()).trim().to_string();
        match status {
            "=" => Ok((true, body)),
            "?" => Ok((false, body)),
            _ => Err(failed(format!("gave a malformed answer to '{command}': {text}"))),
        }
    }

    /// Asks the engine to quit (waiting a few seconds at most); dropping it then ends the process
    /// if it is still there.
    pub fn quit(mut self) {
        self.timeout = Some(Duration::from_secs(5));
        let _ = self.command("quit");
    }
}

impl Drop for Gtp {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
