//! The client search's rules: how long a term may be, which terms search at all, and
//! the case folding both the search index and the terms go through.

use crate::error::{Error, Result};

/// Terms shorter than this (in characters, after trimming) find nothing.
pub const MIN_SEARCH_CHARS: usize = 2;

/// Terms longer than this are refused: no name, phone or email is that long, and the
/// index would have to check every piece of it.
pub const MAX_SEARCH_CHARS: usize = 100;

/// The message a term over [`MAX_SEARCH_CHARS`] gets.
pub const SEARCH_TOO_LONG: &str = "Search terms can be at most 100 characters.";

/// The term a search runs with: without control characters (a NUL or a line break
/// matches nothing a person typed), trimmed, at most [`MAX_SEARCH_CHARS`] characters.
/// `None` when it is too short to search (the spec: fewer than 2 characters find
/// nothing); an error when it is too long. Every client search path calls this one
/// function.
pub fn search_term(raw: &str) -> Result<Option<String>> {
    let plain: String = raw.chars().filter(|c| !c.is_control()).collect();
    let term = plain.trim();
    let chars = term.chars().count();
    if chars > MAX_SEARCH_CHARS {
        return Err(Error::Rejected(SEARCH_TOO_LONG.to_owned()));
    }
    Ok((chars >= MIN_SEARCH_CHARS).then(|| term.to_owned()))
}

/// One character as the search compares it: lower case when that is a single
/// character, otherwise unchanged. Accents are kept ("José" is not "Jose"), as in a
/// case-insensitive match.
pub fn fold_char(c: char) -> char {
    let mut lower = c.to_lowercase();
    match (lower.next(), lower.next()) {
        (Some(single), None) => single,
        _ => c,
    }
}

/// A text as the search compares it.
pub fn fold(text: &str) -> String {
    text.chars().map(fold_char).collect()
}

/// Whether a term looks like a phone number ("555-17", "(555) 1"), so it also matches
/// the digits of stored phone numbers whatever their punctuation.
pub fn looks_like_phone(term: &str) -> bool {
    term.chars().any(|c| c.is_ascii_digit())
        && term
            .chars()
            .all(|c| c.is_ascii_digit() || " -().+".contains(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_are_trimmed_and_bounded() {
        assert_eq!(search_term("  ma ").unwrap().as_deref(), Some("ma"));
        assert_eq!(search_term(" m ").unwrap(), None);
        assert_eq!(search_term("").unwrap(), None);
        assert_eq!(search_term("m\u{0}a\r\n").unwrap().as_deref(), Some("ma"));
        let longest = "é".repeat(MAX_SEARCH_CHARS);
        assert_eq!(search_term(&longest).unwrap(), Some(longest.clone()));
        let error = search_term(&"a".repeat(MAX_SEARCH_CHARS + 1)).unwrap_err();
        assert_eq!(error.to_string(), SEARCH_TOO_LONG);
    }

    #[test]
    fn folding_ignores_case_but_keeps_accents() {
        assert_eq!(fold("ÉLODIE Zimmerman"), "élodie zimmerman");
        assert_ne!(fold("José"), fold("Jose"));
        // Lower case of more than one character stays as it is.
        assert_eq!(fold_char('İ'), 'İ');
    }

    #[test]
    fn phone_like_terms() {
        for term in ["555-17", "(555) 1", "+1 555", "55"] {
            assert!(looks_like_phone(term), "{term}");
        }
        for term in ["ma", "555-17a", "--", "a@b.com"] {
            assert!(!looks_like_phone(term), "{term}");
        }
    }
}
