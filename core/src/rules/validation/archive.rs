//! Marking a lead declined or not interested: the reason staff give.

use crate::error::{Error, ValidationErrors};
use crate::model::ArchiveInput;

pub const ARCHIVE_REASON_NEEDED: &str = "Please enter a reason";
/// Long enough for a few sentences; the timeline line repeats it.
pub const MAX_ARCHIVE_REASON_CHARS: usize = 500;
pub const ARCHIVE_REASON_TOO_LONG: &str = "Reason must be at most 500 characters";
pub const ALREADY_ARCHIVED: &str = "This client is already archived. Reopen it first.";
pub const NOT_ARCHIVED: &str = "This client is not archived.";

pub fn validate_archive(input: &ArchiveInput) -> Result<(), Error> {
    let reason = input.reason.trim();
    if reason.is_empty() {
        return Err(Error::Validation(ValidationErrors::single(
            "reason",
            ARCHIVE_REASON_NEEDED,
        )));
    }
    if reason.chars().count() > MAX_ARCHIVE_REASON_CHARS {
        return Err(Error::Validation(ValidationErrors::single(
            "reason",
            ARCHIVE_REASON_TOO_LONG,
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{messages, pairs};
    use super::*;
    use crate::model::ArchiveStatus;

    fn input(reason: &str) -> ArchiveInput {
        ArchiveInput {
            status: ArchiveStatus::Declined,
            reason: reason.to_owned(),
        }
    }

    #[test]
    fn a_reason_is_required_and_bounded() {
        assert!(validate_archive(&input("Chose another agency")).is_ok());
        assert!(validate_archive(&input(&"é".repeat(MAX_ARCHIVE_REASON_CHARS))).is_ok());
        let cases = [
            ("", ARCHIVE_REASON_NEEDED),
            ("  \n ", ARCHIVE_REASON_NEEDED),
            (
                &*"x".repeat(MAX_ARCHIVE_REASON_CHARS + 1),
                ARCHIVE_REASON_TOO_LONG,
            ),
        ];
        for (reason, expected) in cases {
            let (message, fields) = messages(validate_archive(&input(reason)));
            assert_eq!(message, expected);
            assert_eq!(fields, pairs(&[("reason", expected)]));
        }
    }
}
