//! What the command-line tests share: running the binary, reading what it printed, the one-line
//! refusal's contract and scratch folders.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs the `variago` binary with `args`.
pub fn variago(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_variago")).args(args).output().expect("the binary runs")
}

/// What it printed on stdout.
pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The last line it printed on stdout: the answer, by the CLI's contract.
pub fn last_line(output: &Output) -> String {
    stdout(output).lines().last().unwrap_or_default().to_string()
}

/// The rest of the first stdout line that starts with `prefix`.
pub fn line_starting(output: &Output, prefix: &str) -> String {
    let text = stdout(output);
    text.lines()
        .find_map(|l| l.strip_prefix(prefix))
        .unwrap_or_else(|| panic!("no {prefix} in:\n{text}"))
        .to_string()
}

/// A one-line error on stderr naming `mentions`, exit code 2, nothing on stdout.
pub fn assert_refused(output: &Output, mentions: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "stderr: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("error: ") && stderr.contains(mentions), "expected '{mentions}' in: {stderr}");
    assert!(output.stdout.is_empty());
}

/// A fresh folder for one test of the test file `file`.
pub fn scratch(file: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("variago-{file}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A path as a command-line argument.
pub fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}
