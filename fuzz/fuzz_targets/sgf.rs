//! Arbitrary text into both SGF readers: reading must never panic or hang, a record that reads
//! must replay without panicking, and what variago writes it must read back unchanged.

#![no_main]

use libfuzzer_sys::fuzz_target;
use variago_records::{GameInfo, Record, galice_sgf};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(record) = Record::from_sgf(text) {
        let _ = record.replay();
        let written = record.to_sgf();
        let reread = Record::from_sgf(&written).expect("variago reads the SGF it writes");
        assert_eq!(reread, record, "a record changed on its way through SGF:\n{written}");
    }
    if let Ok(record) = galice_sgf::from_sgf(text) {
        let _ = record.replay();
        let written = galice_sgf::to_sgf(&record, Some("B+R"), &GameInfo::default());
        let reread = galice_sgf::from_sgf(&written).expect("variago reads the Galice SGF it writes");
        assert_eq!(galice_sgf::to_sgf(&reread, Some("B+R"), &GameInfo::default()), written);
    }
});
