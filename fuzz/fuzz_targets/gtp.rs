//! Arbitrary bytes as a GTP session: every line gets an answer (or none, for blank and comment
//! lines) and the engine never panics or hangs. Commands that read or write files (`loadsgf`,
//! `printsgf FILE`) are left out, so that the fuzzer cannot touch the file system.

#![no_main]

use libfuzzer_sys::fuzz_target;
use variago_gtp::{Config, Engine};
use variago_search::Settings;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    // a tiny search budget keeps `genmove` and friends quick
    let settings = Settings { playouts: 8, threads: 1, ..Settings::default() };
    let Ok(mut engine) = Engine::new(Config { settings, fixed_budget: true, ponder: false, lizzie: false }, "go") else { return };
    for line in text.lines().take(64) {
        if line.to_ascii_lowercase().contains("sgf") {
            continue;
        }
        if engine.handle(line).is_some_and(|reply| matches!(reply, variago_gtp::Reply::Quit(_))) {
            break;
        }
    }
});
