//! Lead import: a CSV or spreadsheet of leads read, mapped to intake forms, normalised,
//! validated with the intake form's own rules and checked for duplicates, before the
//! store loads it in one transaction ([`crate::store::Store::import_leads`]).

mod mapping;
mod table;

use std::borrow::Cow;
use std::collections::HashMap;

use foldhash::fast::RandomState;

use serde::Serialize;

pub use mapping::{
    ColumnMapping, LeadField, normalize_date, normalize_phone, option_list, person_name,
};
pub use table::{
    LeadFileFormat, MAX_COMPRESSION_RATIO, MAX_FILE_BYTES, MAX_UNCOMPRESSED_BYTES, Table,
    check_zip_payload, read_table, too_large,
};

use crate::error::{Error, Result};
use crate::model::IntakeForm;
use crate::rules::clock::AgencyClock;
use crate::rules::validation::validate_intake_submit;

/// Who took the call when the file does not say: the file's name, so staff can tell
/// where a lead came from.
pub const IMPORTED_STAFF: &str = "Imported";

/// What to do with a row that matches an existing client.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OnDuplicate {
    /// Leave the existing client alone and report the row as skipped.
    #[default]
    Skip,
    /// Fill the existing client's intake with the row's non-empty fields.
    Update,
    /// Create a new client anyway.
    Create,
}

#[derive(Debug, Clone, Default)]
pub struct LeadImportOptions {
    /// The file's name as given (reports, staff default, batch record).
    pub file_name: String,
    /// The worksheet to read (default: the first).
    pub sheet: Option<String>,
    /// `Column=field` mappings that override the header names.
    pub maps: Vec<String>,
    pub on_duplicate: OnDuplicate,
    /// Import the valid rows and report the others (default: all or nothing).
    pub skip_invalid: bool,
    /// Report what would happen and write nothing.
    pub dry_run: bool,
    /// Who owns the new leads whose row names no coordinator; unassigned without one.
    pub owner: Option<crate::model::UserId>,
}

/// One problem of one row, as a person finds it in the file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RowIssue {
    /// The spreadsheet row number (the header is usually row 1).
    pub row: usize,
    /// The file's column header, or the form field when no column fills it.
    pub column: String,
    pub message: String,
}

/// A row that was (or would be) skipped or merged, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RowNote {
    pub row: usize,
    pub client_name: String,
    pub message: String,
}

/// A row ready to load.
#[derive(Debug, Clone, PartialEq)]
pub struct PreparedLead {
    pub row: usize,
    pub form: IntakeForm,
    pub issues: Vec<RowIssue>,
    /// The earlier row of the same file this row duplicates.
    pub duplicate_of_row: Option<usize>,
}

/// The rows of a lead file, mapped and validated.
#[derive(Debug, Clone)]
pub struct PreparedFile {
    pub mapping: ColumnMapping,
    pub leads: Vec<PreparedLead>,
}

/// The keys two leads are the same person by: phone digits, email, or name with date
/// of birth.
pub fn duplicate_keys(form: &IntakeForm) -> Vec<String> {
    let mut keys = Vec::with_capacity(3);
    let digits: String = form
        .caller_phone
        .chars()
        .filter(char::is_ascii_digit)
        .collect();
    if digits.len() >= 7 {
        keys.push(format!("p:{digits}"));
    }
    let email = form.caller_email.trim().to_lowercase();
    if !email.is_empty() {
        keys.push(format!("e:{email}"));
    }
    let name = form.client_full_name.trim().to_lowercase();
    let birth = form.date_of_birth.trim();
    if !name.is_empty() && !birth.is_empty() {
        keys.push(format!("n:{name}|{birth}"));
    }
    keys
}

/// Reads, maps, normalises and validates a lead file. Rows that are entirely empty are
/// left out; every other row comes back with its problems (none when it can be loaded).
pub fn prepare_leads(
    bytes: &[u8],
    options: &LeadImportOptions,
    clock: &AgencyClock,
) -> Result<PreparedFile> {
    let file = LeadFile::open(bytes, options, clock)?;
    let mut leads = Vec::new();
    file.each_lead(clock, |lead| {
        leads.push(lead);
        Ok(())
    })?;
    Ok(PreparedFile {
        mapping: file.mapping,
        leads,
    })
}

/// A lead file opened to be read row by row, as many times as the import needs: a CSV's
/// rows are read from its text on each pass and never held as cells, so a large file
/// costs its own size and one row at a time. A spreadsheet's sheet is held as read.
pub struct LeadFile<'a> {
    file_name: String,
    rows: Rows<'a>,
    pub mapping: ColumnMapping,
    staff_default: String,
    today: String,
}

enum Rows<'a> {
    /// The CSV's text and how many of its rows (the header and any empty rows before it)
    /// come before the leads.
    Csv { text: Cow<'a, str>, skip: usize },
    /// The sheet's rows from the first lead on, and the row number of the first.
    Sheet {
        rows: Vec<Vec<String>>,
        first_row: usize,
    },
}

impl<'a> LeadFile<'a> {
    /// Reads the header (the first row that is not empty) and maps its columns.
    pub fn open(bytes: &'a [u8], options: &LeadImportOptions, clock: &AgencyClock) -> Result<Self> {
        let file_name = options.file_name.as_str();
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(too_large(file_name));
        }
        let is_header = |row: &[&str]| row.iter().any(|cell| !cell.trim().is_empty());
        let (rows, headers) = match LeadFileFormat::from_file_name(file_name)? {
            LeadFileFormat::Csv => {
                let text = table::csv_text(bytes);
                let mut read = 0;
                let mut headers = None;
                table::csv_records(file_name, &text, |number, record| {
                    read = number;
                    let cells: Vec<&str> = record.iter().collect();
                    if is_header(&cells) {
                        headers = Some(cells.iter().map(|h| h.trim().to_owned()).collect());
                        return Ok(false);
                    }
                    Ok(true)
                })?;
                (Rows::Csv { skip: read, text }, headers)
            }
            _ => {
                let table = read_table(file_name, bytes, options.sheet.as_deref())?;
                let header_index = table
                    .rows
                    .iter()
                    .position(|row| row.iter().any(|cell| !cell.trim().is_empty()));
                let headers = header_index.map(|index| {
                    table.rows[index]
                        .iter()
                        .map(|h| h.trim().to_owned())
                        .collect()
                });
                let skip = header_index.map_or(table.rows.len(), |index| index + 1);
                let mut rows = table.rows;
                rows.drain(..skip);
                let first_row = table.first_row + skip;
                (Rows::Sheet { rows, first_row }, headers)
            }
        };
        let headers: Vec<String> = headers.ok_or_else(|| {
            Error::Rejected(format!(
                "{file_name} has no rows: the first row must name the columns"
            ))
        })?;
        Ok(Self {
            file_name: file_name.to_owned(),
            rows,
            mapping: ColumnMapping::new(&headers, &options.maps)?,
            staff_default: staff_name_for(file_name),
            today: clock.today().to_string(),
        })
    }

    /// Calls `f` with the row number and cells of every row after the header that is
    /// not entirely empty, in file order.
    pub fn each_row(&self, mut f: impl FnMut(usize, &[&str]) -> Result<()>) -> Result<()> {
        match &self.rows {
            Rows::Csv { text, skip } => {
                table::csv_records(&self.file_name, text, |read, record| {
                    if read > *skip && record.iter().any(|cell| !cell.trim().is_empty()) {
                        let row: Vec<&str> = record.iter().collect();
                        f(read, &row)?;
                    }
                    Ok(true)
                })
            }
            Rows::Sheet { rows, first_row } => {
                for (offset, row) in rows.iter().enumerate() {
                    if row.iter().all(|cell| cell.trim().is_empty()) {
                        continue;
                    }
                    let cells: Vec<&str> = row.iter().map(String::as_str).collect();
                    f(first_row + offset, &cells)?;
                }
                Ok(())
            }
        }
    }

    /// A row as the intake form the import loads: mapped, normalised and trimmed, the
    /// caller filled in when the client called.
    pub fn form(&self, cells: &[&str]) -> IntakeForm {
        let mut form = self
            .mapping
            .form(cells, &self.staff_default, &self.today)
            .trimmed();
        form.apply_client_is_caller();
        form
    }

    /// Calls `f` with every row that is not empty, mapped and validated, with the
    /// earlier row of the file it duplicates.
    pub fn each_lead(
        &self,
        clock: &AgencyClock,
        mut f: impl FnMut(PreparedLead) -> Result<()>,
    ) -> Result<()> {
        let mut first_row_of: HashMap<String, usize, RandomState> = HashMap::default();
        self.each_row(|row_number, cells| {
            let form = self.form(cells);
            let issues = match validate_intake_submit(&form, None, clock) {
                Ok(()) => Vec::new(),
                Err(Error::Validation(errors)) => errors
                    .fields
                    .iter()
                    .map(|(field, message)| RowIssue {
                        row: row_number,
                        column: self.mapping.column_of(field),
                        message: message.clone(),
                    })
                    .collect(),
                Err(other) => return Err(other),
            };
            let mut duplicate_of_row = None;
            if issues.is_empty() {
                for key in duplicate_keys(&form) {
                    match first_row_of.get(&key) {
                        Some(&first) => {
                            duplicate_of_row.get_or_insert(first);
                        }
                        None => {
                            first_row_of.insert(key, row_number);
                        }
                    }
                }
            }
            f(PreparedLead {
                row: row_number,
                form,
                issues,
                duplicate_of_row,
            })
        })
    }
}

/// The staff member recorded on rows that do not name one: the file's name without its
/// folder, or "Imported".
pub fn staff_name_for(file_name: &str) -> String {
    let base = file_name
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or("")
        .trim()
        .to_owned();
    if base.is_empty() {
        IMPORTED_STAFF.to_owned()
    } else {
        base
    }
}

/// The SHA-256 of a file, in hex: the same file imported twice is recognised by it.
pub fn file_sha256(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock() -> AgencyClock {
        AgencyClock::new(
            "2025-03-10T15:00:00Z".parse().unwrap(),
            jiff::tz::TimeZone::UTC,
        )
    }

    fn options() -> LeadImportOptions {
        LeadImportOptions {
            file_name: "leads.csv".to_owned(),
            ..LeadImportOptions::default()
        }
    }

    #[test]
    fn rows_are_validated_with_the_intake_rules() {
        let csv = "Client Name,Caller,Phone,DOB,Email\n\
                   Rose Lee,Mark Lee,555-010-0100,7/4/1938,mark@example.com\n\
                   ,Ann Poe,555-010-0200,,\n\
                   Walt Ames,Ruth Ames,555-010-0300,1/1/2090,not-an-email\n\
                   ,,,,\n\
                   Rosie Lee,Mark Lee,(555) 010-0100,,\n";
        let file = prepare_leads(csv.as_bytes(), &options(), &clock()).unwrap();
        let rows: Vec<usize> = file.leads.iter().map(|l| l.row).collect();
        assert_eq!(rows, vec![2, 3, 4, 6]);
        assert!(file.leads[0].issues.is_empty());
        assert_eq!(file.leads[0].form.staff_member_taking_call, "leads.csv");
        assert_eq!(
            file.leads[1].issues,
            vec![RowIssue {
                row: 3,
                column: "Client Name".to_owned(),
                message: "This field is required".to_owned()
            }]
        );
        let messages: Vec<(&str, &str)> = file.leads[2]
            .issues
            .iter()
            .map(|i| (i.column.as_str(), i.message.as_str()))
            .collect();
        assert_eq!(
            messages,
            vec![
                ("Email", "Please enter a valid email address"),
                ("DOB", "Date of birth cannot be in the future"),
            ]
        );
        assert_eq!(file.leads[3].duplicate_of_row, Some(2));
    }

    #[test]
    fn sha_and_staff_names() {
        assert_eq!(
            file_sha256(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(staff_name_for("/tmp/x/leads.csv"), "leads.csv");
        assert_eq!(staff_name_for(""), "Imported");
    }
}
