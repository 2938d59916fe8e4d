//! SGF records.
