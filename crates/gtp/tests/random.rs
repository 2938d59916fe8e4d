//! Random command streams: whatever the controller sends, in whatever order, the engine answers
//! every line well-formed and never panics.

use proptest::prelude::*;
use variago_gtp::{COMMANDS, Config, Engine, Reply};
use variago_search::Settings;

/// Words that commands take, valid and not.
const WORDS: &[&str] = &[
    "b",
    "w",
    "black",
    "WHITE",
    "x",
    "pass",
    "resign",
    "a1",
    "C3",
    "e5",
    "j9",
    "t19",
    "z1",
    "i5",
    "A0",
    "0",
    "1",
    "2",
    "3",
    "5",
    "7",
    "9",
    "19",
    "25",
    "26",
    "-1",
    "7.5",
    "0.5",
    "nan",
    "1e9",
    "alive",
    "dead",
    "seki",
    "go",
    "incursion",
    "stoical:refine=more-stones",
    "excursion-2",
    "galice",
    "go:size=3",
    "go:ko=simple,size=5",
    "---",
    "c3",
    "bB2",
    "D4",
    "-----",
    "setup",
    "choose",
    "interval",
    "/dev/null",
    "/nonexistent",
    "#",
    "\t",
];

fn line() -> impl Strategy<Value = String> {
    let name = prop::sample::select(COMMANDS.to_vec()).prop_map(str::to_string);
    let garbage = "[ -~]{0,12}";
    let command = (prop::option::of(0u32..100), prop_oneof![4 => name, 1 => garbage]);
    let args = prop::collection::vec(prop::sample::select(WORDS.to_vec()), 0..4);
    (command, args).prop_map(|((id, name), args)| {
        let id = id.map(|n| format!("{n} ")).unwrap_or_default();
        // `printsgf FILE` would write files wherever the test runs: only its plain form here
        let args = if name == "printsgf" { Vec::new() } else { args };
        format!("{id}{name} {}", args.join(" "))
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn every_line_gets_a_well_formed_answer(lines in prop::collection::vec(line(), 1..40)) {
        let settings = Settings { playouts: 20, ..Settings::default() };
        let mut engine = Engine::new(Config { settings, fixed_budget: true, ponder: false, lizzie: false }, "go:size=5").unwrap();
        for line in &lines {
            let text = match engine.handle(line) {
                None => continue,
                Some(Reply::Answer(response) | Reply::Quit(response)) => response.to_string(),
                // a stream runs until the next line; its reports are checked in engine.rs
                Some(Reply::Analyse(_)) => continue,
            };
            prop_assert!(text.starts_with('=') || text.starts_with('?'), "{line}: {text:?}");
            prop_assert!(text.ends_with("\n\n") && !text[..text.len() - 2].contains("\n\n"), "{line}: {text:?}");
        }
    }
}
