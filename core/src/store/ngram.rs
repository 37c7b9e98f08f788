//! The search index's tokenizer, `carepath_ngram`: every 2- and 3-character piece of a
//! value, case-folded by [`crate::rules::search::fold_char`]. A 3-character piece at
//! each position lets terms of 3 or more characters match as a phrase of pieces (what
//! SQLite's own trigram tokenizer does); the 2-character piece at the same position lets
//! a 2-character term match anywhere in a value with one lookup. SQLite keeps
//! tokenizers per connection, so every connection that writes intakes or searches
//! registers it first ([`register`]).

use std::ffi::{c_char, c_int, c_void};
use std::ptr;

use rusqlite::{Connection, ffi};

use crate::error::{Error, Result};
use crate::rules::search::fold_char;

const NAME: &[u8] = b"carepath_ngram\0";

/// Registers the tokenizer on `conn`.
pub(crate) fn register(conn: &Connection) -> Result<()> {
    // SAFETY: `handle` is the live connection `conn` owns; the statement is prepared,
    // stepped and finalized here, and the pointer bound to it (`api`) outlives it. The
    // tokenizer struct is copied by SQLite during the call, and its functions are plain
    // `extern "C"` functions with no state.
    unsafe {
        let db = conn.handle();
        let mut api: *mut ffi::fts5_api = ptr::null_mut();
        let mut statement: *mut ffi::sqlite3_stmt = ptr::null_mut();
        let sql = b"SELECT fts5(?1)\0";
        let rc =
            ffi::sqlite3_prepare_v2(db, sql.as_ptr().cast(), -1, &mut statement, ptr::null_mut());
        if rc == ffi::SQLITE_OK {
            ffi::sqlite3_bind_pointer(
                statement,
                1,
                (&raw mut api).cast(),
                c"fts5_api_ptr".as_ptr(),
                None,
            );
            ffi::sqlite3_step(statement);
        }
        ffi::sqlite3_finalize(statement);
        let Some(create) = api.as_ref().and_then(|api| api.xCreateTokenizer) else {
            return Err(Error::Corrupt(
                "this SQLite build has no full-text search".to_owned(),
            ));
        };
        let mut tokenizer = ffi::fts5_tokenizer {
            xCreate: Some(create_tokenizer),
            xDelete: Some(delete_tokenizer),
            xTokenize: Some(tokenize),
        };
        let rc = create(
            api,
            NAME.as_ptr().cast(),
            ptr::null_mut(),
            &mut tokenizer,
            None,
        );
        if rc != ffi::SQLITE_OK {
            return Err(Error::Corrupt(format!(
                "cannot register the search tokenizer (SQLite code {rc})"
            )));
        }
    }
    Ok(())
}

/// The tokenizer has no state; SQLite only needs a pointer that is not null.
static INSTANCE: u8 = 0;

unsafe extern "C" fn create_tokenizer(
    _context: *mut c_void,
    _args: *mut *const c_char,
    _count: c_int,
    out: *mut *mut ffi::Fts5Tokenizer,
) -> c_int {
    // SAFETY: SQLite passes a valid place for the new tokenizer.
    unsafe { *out = (&raw const INSTANCE).cast_mut().cast() };
    ffi::SQLITE_OK
}

unsafe extern "C" fn delete_tokenizer(_tokenizer: *mut ffi::Fts5Tokenizer) {}

type TokenCallback = unsafe extern "C" fn(
    context: *mut c_void,
    flags: c_int,
    token: *const c_char,
    length: c_int,
    start: c_int,
    end: c_int,
) -> c_int;

unsafe extern "C" fn tokenize(
    _tokenizer: *mut ffi::Fts5Tokenizer,
    context: *mut c_void,
    flags: c_int,
    text: *const c_char,
    length: c_int,
    callback: Option<TokenCallback>,
) -> c_int {
    let Some(callback) = callback else {
        return ffi::SQLITE_MISUSE;
    };
    let bytes: &[u8] = match usize::try_from(length) {
        // SAFETY: SQLite passes `length` readable bytes at `text`.
        Ok(length) if length > 0 && !text.is_null() => unsafe {
            std::slice::from_raw_parts(text.cast::<u8>(), length)
        },
        _ => &[],
    };
    let query = flags & ffi::FTS5_TOKENIZE_QUERY != 0;
    let mut failed = ffi::SQLITE_OK;
    pieces(bytes, query, |piece, colocated, start, end| {
        // SAFETY: the callback and its context are the ones SQLite passed for this call.
        let rc = unsafe {
            callback(
                context,
                if colocated {
                    ffi::FTS5_TOKEN_COLOCATED
                } else {
                    0
                },
                piece.as_ptr().cast(),
                piece.len() as c_int,
                start as c_int,
                end as c_int,
            )
        };
        if rc != ffi::SQLITE_OK {
            failed = rc;
        }
        rc == ffi::SQLITE_OK
    });
    failed
}

/// Calls `emit(piece, colocated, start, end)` for each piece of `bytes` until it answers
/// false. A document yields, at each character, its 2-character piece and (colocated,
/// at the same position) its 3-character piece; a query of 3 or more characters yields
/// its 3-character pieces only, one per position, so it matches as a phrase; a query of
/// 2 characters yields its one 2-character piece. Offsets are byte offsets into `bytes`.
fn pieces(bytes: &[u8], query: bool, emit: impl FnMut(&[u8], bool, usize, usize) -> bool) {
    // A search-index build tokenizes every value of every client: the characters go
    // into one buffer kept for the thread instead of a new list per value.
    CHARS.with(|buffer| match buffer.try_borrow_mut() {
        Ok(mut chars) => {
            decode(bytes, &mut chars);
            pieces_of(bytes, &chars, query, emit);
        }
        Err(_) => {
            let mut chars = Vec::new();
            decode(bytes, &mut chars);
            pieces_of(bytes, &chars, query, emit);
        }
    });
}

thread_local! {
    static CHARS: std::cell::RefCell<Vec<(usize, char)>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn pieces_of(
    bytes: &[u8],
    chars: &[(usize, char)],
    query: bool,
    mut emit: impl FnMut(&[u8], bool, usize, usize) -> bool,
) {
    let n = chars.len();
    if n < 2 {
        return;
    }
    let end_of = |i: usize| chars.get(i).map_or(bytes.len(), |(start, _)| *start);
    let mut piece = Vec::with_capacity(12);
    let fill = |piece: &mut Vec<u8>, from: usize, count: usize| {
        piece.clear();
        for (_, c) in &chars[from..from + count] {
            let mut buffer = [0_u8; 4];
            piece.extend_from_slice(c.encode_utf8(&mut buffer).as_bytes());
        }
    };
    if query {
        if n == 2 {
            fill(&mut piece, 0, 2);
            emit(&piece, false, 0, bytes.len());
            return;
        }
        for (i, (start, _)) in chars.iter().enumerate().take(n - 2) {
            fill(&mut piece, i, 3);
            if !emit(&piece, false, *start, end_of(i + 3)) {
                return;
            }
        }
        return;
    }
    for (i, (start, _)) in chars.iter().enumerate().take(n - 1) {
        fill(&mut piece, i, 2);
        if !emit(&piece, false, *start, end_of(i + 2)) {
            return;
        }
        if i + 3 <= n {
            fill(&mut piece, i, 3);
            if !emit(&piece, true, *start, end_of(i + 3)) {
                return;
            }
        }
    }
}

/// Fills `chars` with the folded characters of `bytes` and their byte offsets. Text that is not UTF-8
/// (SQLite does not check) is read a byte at a time, the same way for documents and
/// queries, so it still matches itself.
fn decode(bytes: &[u8], chars: &mut Vec<(usize, char)>) {
    chars.clear();
    match std::str::from_utf8(bytes) {
        Ok(text) => chars.extend(text.char_indices().map(|(at, c)| (at, fold_char(c)))),
        Err(_) => chars.extend(
            bytes
                .iter()
                .enumerate()
                .map(|(at, b)| (at, fold_char(char::from(*b)))),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::pieces;

    fn collect(text: &str, query: bool) -> Vec<(String, bool)> {
        let mut out = Vec::new();
        pieces(text.as_bytes(), query, |piece, colocated, _, _| {
            out.push((String::from_utf8(piece.to_vec()).unwrap(), colocated));
            true
        });
        out
    }

    #[test]
    fn a_document_yields_every_two_and_three_character_piece() {
        let pieces = collect("ÉlLa", false);
        let expected = [
            ("él", false),
            ("éll", true),
            ("ll", false),
            ("lla", true),
            ("la", false),
        ];
        assert_eq!(
            pieces,
            expected
                .iter()
                .map(|(p, c)| (p.to_string(), *c))
                .collect::<Vec<_>>()
        );
        assert!(collect("x", false).is_empty());
    }

    #[test]
    fn a_query_yields_one_piece_per_position() {
        assert_eq!(collect("LL", true), vec![("ll".to_owned(), false)]);
        assert_eq!(
            collect("Mari", true),
            vec![("mar".to_owned(), false), ("ari".to_owned(), false)]
        );
        assert!(collect("m", true).is_empty());
    }
}
