//! The search index's tokenizer, `carepath_ngram`: every 2-character piece of a value,
//! case-folded by [`crate::rules::search::fold_char`], one per position. A 2-character
//! term is one piece, found anywhere in a value with one lookup; a longer term is the
//! phrase of its pieces at consecutive positions, which a value holds exactly when it
//! holds the term. (Until migration 11 each position also held its 3-character piece,
//! whose lists are shorter to walk, but that doubled the pieces every client writes and
//! every import indexes.) SQLite keeps tokenizers per connection, so every connection that
//! writes intakes or searches registers it first ([`register`]).

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
    // A document and a query are cut alike: a query's pieces form a phrase.
    _flags: c_int,
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
    let mut failed = ffi::SQLITE_OK;
    pieces(bytes, |piece, start, end| {
        // SAFETY: the callback and its context are the ones SQLite passed for this call.
        let rc = unsafe {
            callback(
                context,
                0,
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

/// Calls `emit(piece, start, end)` for the 2-character piece at each character of
/// `bytes` but the last, until it answers false. Offsets are byte offsets into `bytes`.
fn pieces(bytes: &[u8], emit: impl FnMut(&[u8], usize, usize) -> bool) {
    // A search-index build tokenizes every value of every client: the characters go
    // into one buffer kept for the thread instead of a new list per value.
    CHARS.with(|buffer| match buffer.try_borrow_mut() {
        Ok(mut chars) => {
            decode(bytes, &mut chars);
            pieces_of(bytes, &chars, emit);
        }
        Err(_) => {
            let mut chars = Vec::new();
            decode(bytes, &mut chars);
            pieces_of(bytes, &chars, emit);
        }
    });
}

thread_local! {
    static CHARS: std::cell::RefCell<Vec<(usize, char)>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn pieces_of(
    bytes: &[u8],
    chars: &[(usize, char)],
    mut emit: impl FnMut(&[u8], usize, usize) -> bool,
) {
    let end_of = |i: usize| chars.get(i).map_or(bytes.len(), |(start, _)| *start);
    let mut piece = Vec::with_capacity(8);
    for (i, pair) in chars.windows(2).enumerate() {
        piece.clear();
        for (_, c) in pair {
            let mut buffer = [0_u8; 4];
            piece.extend_from_slice(c.encode_utf8(&mut buffer).as_bytes());
        }
        if !emit(&piece, pair[0].0, end_of(i + 2)) {
            return;
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

    fn collect(text: &str) -> Vec<(String, usize, usize)> {
        let mut out = Vec::new();
        pieces(text.as_bytes(), |piece, start, end| {
            out.push((String::from_utf8(piece.to_vec()).unwrap(), start, end));
            true
        });
        out
    }

    #[test]
    fn a_value_yields_its_folded_two_character_pieces_with_byte_offsets() {
        assert_eq!(
            collect("ÉlLa"),
            [("él", 0, 3), ("ll", 2, 4), ("la", 3, 5)]
                .map(|(p, s, e)| (p.to_owned(), s, e))
                .to_vec()
        );
        assert_eq!(collect("LL"), vec![("ll".to_owned(), 0, 2)]);
        assert!(collect("m").is_empty());
        assert!(collect("").is_empty());
    }

    #[test]
    fn emitting_stops_when_asked() {
        let mut seen = 0;
        pieces(b"abcdef", |_, _, _| {
            seen += 1;
            seen < 2
        });
        assert_eq!(seen, 2);
    }
}
