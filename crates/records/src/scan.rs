//! One cheap pass over SGF text before sgf-parse sees any of it: the limits against hostile files
//! (size, nesting, length of the main line), the grammar, and the nodes of the first game's main
//! line cut out of the text, so that sgf-parse reads each node on its own.
//!
//! Why each node on its own: sgf-parse builds a game tree as nested nodes (each node owns the next
//! one in its `children`) and drops, clones and prints it recursively, so a long line overflows
//! the stack (a main line of about 87,000 nodes on an 8 MiB stack, far fewer on a 2 MiB thread).
//! Read node by node, no tree it builds is more than one node deep, whatever the file holds, and
//! the rest of the file (variations, later games) is only scanned, never built.

use std::borrow::Cow;
use std::ops::Range;

use crate::sgf::RecordError;

/// The largest SGF text read, in bytes: over ten times the largest real records (commented
/// collections of variations such as joseki dictionaries are a few MiB), small enough that
/// reading a hostile file takes a fraction of a second and bounded memory.
pub const MAX_TEXT_BYTES: usize = 64 << 20;

/// The longest main line a record may have: far beyond any real game (a 19x19 game rarely
/// reaches 400 moves), small enough that reading a hostile file stays quick.
pub const MAX_NODES: usize = 20_000;

/// The deepest nesting of game trees accepted: real records branch far less.
pub const MAX_NESTING: usize = 1_000;

/// The first game's main line, cut out of the text.
pub(crate) struct MainLine<'a> {
    /// The text with identifiers written wholly in lower case (`b[cc]`) upper-cased, as some
    /// programs write them; identifiers that mix cases (FF[3]'s `AddBlack`) are left to sgf-parse,
    /// which keeps their capitals as SGF says.
    pub(crate) text: Cow<'a, str>,
    /// Each main-line node's span in `text`, from its `;` to the end of its last property.
    pub(crate) nodes: Vec<Range<usize>>,
}

/// Where the scanner stands outside property values.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// Before the first game tree.
    Tree,
    /// Just after `(`: a node must come.
    Node,
    /// In a node, after `;`: a property, a node, a variation or the end of the tree.
    Property,
    /// After a property value: another value, or what may follow [`Expect::Property`].
    Values,
    /// In a property identifier.
    Identifier,
    /// After an identifier and white space: its first value must come.
    Value,
    /// After a variation: only another variation or the end of the tree.
    Variation,
}

/// Scans `text` up to the end of its first game tree (the rest is never read), checking the
/// limits and the grammar, and returns the spans of the main line's nodes.
pub(crate) fn main_line(text: &str) -> Result<MainLine<'_>, RecordError> {
    if text.len() > MAX_TEXT_BYTES {
        return Err(RecordError::Syntax(format!("the text is larger than {MAX_TEXT_BYTES} bytes")));
    }
    let syntax = |at: usize, what: &str| RecordError::Syntax(format!("{}: {what}", position(text, at)));
    let mut expect = Expect::Tree;
    let mut depth = 0usize;
    // the depth of the innermost open tree on the main line while no variation was opened in it
    let mut main_depth = Some(0);
    let mut nodes: Vec<Range<usize>> = Vec::new();
    let mut open_node: Option<usize> = None;
    let mut identifier_start = 0;
    let mut lower_case: Vec<Range<usize>> = Vec::new();
    let mut bytes = text.bytes().enumerate();
    while let Some((i, byte)) = bytes.next() {
        if expect == Expect::Identifier && !byte.is_ascii_alphabetic() {
            let identifier = &text[identifier_start..i];
            if identifier.bytes().all(|b| b.is_ascii_lowercase()) {
                lower_case.push(identifier_start..i);
            }
            expect = Expect::Value;
        }
        if matches!(byte, b';' | b'(' | b')')
            && let Some(start) = open_node.take()
        {
            nodes.push(start..i);
        }
        match (expect, byte) {
            (_, b' ' | b'\t' | b'\r' | b'\n') => {}
            (Expect::Tree | Expect::Property | Expect::Values | Expect::Variation, b'(') => {
                if main_depth == Some(depth) {
                    main_depth = Some(depth + 1);
                }
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(syntax(i, &format!("variations nested deeper than {MAX_NESTING}")));
                }
                expect = Expect::Node;
            }
            (Expect::Property | Expect::Values | Expect::Variation, b')') => {
                if main_depth == Some(depth) {
                    main_depth = None;
                }
                depth -= 1;
                if depth == 0 {
                    return Ok(MainLine { text: upper_cased(text, &lower_case), nodes });
                }
                expect = Expect::Variation;
            }
            (Expect::Node | Expect::Property | Expect::Values, b';') => {
                if main_depth == Some(depth) {
                    if nodes.len() == MAX_NODES {
                        return Err(RecordError::TooLong);
                    }
                    open_node = Some(i);
                }
                expect = Expect::Property;
            }
            (Expect::Property | Expect::Values, letter) if letter.is_ascii_alphabetic() => {
                identifier_start = i;
                expect = Expect::Identifier;
            }
            (Expect::Identifier, letter) if letter.is_ascii_alphabetic() => {}
            (Expect::Value | Expect::Values, b'[') => {
                skip_value(&mut bytes).map_err(|()| syntax(i, "a value is not closed by ']'"))?;
                expect = Expect::Values;
            }
            (Expect::Tree, _) => return Err(syntax(i, "the text does not start with '(;'")),
            (Expect::Node, _) => return Err(syntax(i, "a game tree must start with a node ';'")),
            (Expect::Variation, b';') => return Err(syntax(i, "a node after a variation")),
            (Expect::Value, _) => return Err(syntax(i, "a property identifier without a value")),
            (_, _) => {
                let what = text[i..].chars().next().map_or(String::new(), |c| c.escape_debug().to_string());
                return Err(syntax(i, &format!("unexpected '{what}'")));
            }
        }
    }
    if expect == Expect::Tree {
        Err(RecordError::Empty)
    } else {
        Err(syntax(text.len(), "the text ends inside a game tree (a ')' is missing)"))
    }
}

/// Skips a property value after its `[`, up to the closing `]` (`\` escapes the next character);
/// `Err` at the end of the text.
fn skip_value(bytes: &mut impl Iterator<Item = (usize, u8)>) -> Result<(), ()> {
    let mut escaped = false;
    for (_, byte) in bytes {
        match (escaped, byte) {
            (true, _) => escaped = false,
            (false, b'\\') => escaped = true,
            (false, b']') => return Ok(()),
            _ => {}
        }
    }
    Err(())
}

/// Where byte `offset` of `text` stands, as an editor shows it: `line 3, column 7` (both from 1,
/// columns counted in characters). Computed only for an error, so the scan itself counts nothing.
pub(crate) fn position(text: &str, offset: usize) -> String {
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or_default().chars().count() + 1;
    format!("line {line}, column {column}")
}

/// `text` with the identifiers at `spans` upper-cased (borrowed when there are none).
fn upper_cased<'a>(text: &'a str, spans: &[Range<usize>]) -> Cow<'a, str> {
    if spans.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut out = text.to_string();
    for span in spans {
        // ASCII letters only: upper-casing them keeps every byte offset
        out[span.clone()].make_ascii_uppercase();
    }
    Cow::Owned(out)
}
