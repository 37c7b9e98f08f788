//! Reading a lead file into rows of text: CSV, XLSX and ODS, with the size and
//! zip-payload limits checked before a spreadsheet is opened.

use std::borrow::Cow;
use std::io::Cursor;

use calamine::{Data, Ods, Reader, Xlsx};

use crate::error::{Error, Result};

/// Files larger than this are refused before they are read.
pub const MAX_FILE_BYTES: u64 = 50 * 1024 * 1024;
/// A spreadsheet whose entries declare more than this, uncompressed, is refused.
pub const MAX_UNCOMPRESSED_BYTES: u64 = 200 * 1024 * 1024;
/// An entry that expands more than this many times (and past 1 MB) is refused: real
/// sheets compress about 10:1, zip bombs a thousand to one.
pub const MAX_COMPRESSION_RATIO: u64 = 100;

/// The formats a lead file can have, from its extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeadFileFormat {
    Csv,
    Xlsx,
    Ods,
}

impl LeadFileFormat {
    pub fn from_file_name(name: &str) -> Result<Self> {
        let lower = name.to_ascii_lowercase();
        if lower.ends_with(".csv") || lower.ends_with(".txt") {
            Ok(Self::Csv)
        } else if lower.ends_with(".xlsx") || lower.ends_with(".xlsm") {
            Ok(Self::Xlsx)
        } else if lower.ends_with(".ods") {
            Ok(Self::Ods)
        } else {
            Err(Error::Rejected(format!(
                "{name}: lead files must be .csv, .xlsx or .ods"
            )))
        }
    }
}

/// A sheet of text cells. `first_row` is the spreadsheet row number of `rows[0]`, so
/// reports name the row a person sees.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Table {
    pub first_row: usize,
    pub rows: Vec<Vec<String>>,
}

/// Reads a whole lead file. `sheet` names the worksheet of a spreadsheet (default: the
/// first).
pub fn read_table(file_name: &str, bytes: &[u8], sheet: Option<&str>) -> Result<Table> {
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large(file_name));
    }
    match LeadFileFormat::from_file_name(file_name)? {
        LeadFileFormat::Csv => read_csv(file_name, bytes),
        format => {
            check_zip_payload(file_name, bytes)?;
            // calamine reports damaged files as errors; the guard keeps a bug in a
            // reader from taking the whole import down with a panic.
            let opened = std::panic::catch_unwind(|| read_spreadsheet(format, bytes, sheet));
            opened.unwrap_or_else(|_| Err(unreadable(file_name, "the spreadsheet is damaged")))
        }
    }
    .map_err(|error| naming_file(file_name, error))
}

pub fn too_large(file_name: &str) -> Error {
    Error::Rejected(format!(
        "{file_name} is larger than {} MB; split it into smaller files",
        MAX_FILE_BYTES / (1024 * 1024)
    ))
}

fn unreadable(file_name: &str, why: &str) -> Error {
    Error::Rejected(format!("{file_name} cannot be read: {why}"))
}

fn read_csv(file_name: &str, bytes: &[u8]) -> Result<Table> {
    let mut rows = Vec::new();
    csv_records(file_name, &csv_text(bytes), |_, record| {
        rows.push(record.iter().map(str::to_owned).collect());
        Ok(true)
    })?;
    Ok(Table { first_row: 1, rows })
}

/// A CSV file's text without its byte-order mark. Spreadsheet programs often save CSV in
/// Windows-1252; that is read rather than refused.
pub(crate) fn csv_text(bytes: &[u8]) -> Cow<'_, str> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => Cow::Owned(bytes.iter().map(|&b| b as char).collect()),
    }
}

/// Calls `f` with the number (from 1) and cells of every row of a CSV's text, the header
/// included, rows of any length, until `f` answers false. A row the reader stops in is
/// refused with its number and the file's name; what `f` refuses comes back as it is.
pub(crate) fn csv_records(
    file_name: &str,
    text: &str,
    mut f: impl FnMut(usize, &csv::StringRecord) -> Result<bool>,
) -> Result<()> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let mut record = csv::StringRecord::new();
    let mut number = 0;
    loop {
        match reader.read_record(&mut record) {
            Ok(false) => return Ok(()),
            Ok(true) => number += 1,
            Err(error) => {
                let message = format!("the CSV cannot be read near row {}: {error}", number + 1);
                return Err(naming_file(file_name, Error::Rejected(message)));
            }
        }
        if !f(number, &record)? {
            return Ok(());
        }
    }
}

/// An error of reading `file_name` names the file first, so the person knows which.
fn naming_file(file_name: &str, error: Error) -> Error {
    match error {
        Error::Rejected(message) if !message.starts_with(file_name) => {
            Error::Rejected(format!("{file_name}: {message}"))
        }
        other => other,
    }
}

fn read_spreadsheet(format: LeadFileFormat, bytes: &[u8], sheet: Option<&str>) -> Result<Table> {
    let cursor = Cursor::new(bytes);
    let damaged = |error: &dyn std::fmt::Display| {
        Error::Rejected(format!(
            "cannot be read as a spreadsheet (damaged or not really {}): {error}",
            if format == LeadFileFormat::Ods {
                "ODS"
            } else {
                "XLSX"
            }
        ))
    };
    match format {
        LeadFileFormat::Ods => {
            let workbook: Ods<_> = Ods::new(cursor).map_err(|e| damaged(&e))?;
            sheet_table(workbook, sheet, damaged)
        }
        _ => {
            let workbook: Xlsx<_> = Xlsx::new(cursor).map_err(|e| damaged(&e))?;
            sheet_table(workbook, sheet, damaged)
        }
    }
}

fn sheet_table<R, W>(
    mut workbook: W,
    sheet: Option<&str>,
    damaged: impl Fn(&dyn std::fmt::Display) -> Error,
) -> Result<Table>
where
    R: std::io::Read + std::io::Seek,
    W: Reader<R>,
    W::Error: std::fmt::Display,
{
    let names = workbook.sheet_names();
    let name = match sheet {
        Some(wanted) => names
            .iter()
            .find(|name| name.eq_ignore_ascii_case(wanted.trim()))
            .cloned()
            .ok_or_else(|| {
                Error::Rejected(format!(
                    "there is no sheet \"{wanted}\"; the sheets are: {}",
                    names.join(", ")
                ))
            })?,
        None => names
            .first()
            .cloned()
            .ok_or_else(|| Error::Rejected("the workbook has no sheets".to_owned()))?,
    };
    let range = workbook.worksheet_range(&name).map_err(|e| damaged(&e))?;
    let (first_row, first_column) = range.start().unwrap_or((0, 0));
    let rows = range
        .rows()
        .map(|row| {
            let mut cells: Vec<String> = Vec::with_capacity(row.len() + first_column as usize);
            cells.resize(first_column as usize, String::new());
            cells.extend(row.iter().map(cell_text));
            cells
        })
        .collect();
    Ok(Table {
        first_row: first_row as usize + 1,
        rows,
    })
}

/// A spreadsheet cell as the text a person sees: whole numbers without `.0` (phone
/// numbers typed as numbers), dates as YYYY-MM-DD.
fn cell_text(cell: &Data) -> String {
    match cell {
        Data::Empty | Data::Error(_) => String::new(),
        Data::String(text) => text.clone(),
        Data::Int(n) => n.to_string(),
        Data::Float(f) if f.fract() == 0.0 && f.abs() < 1e15 => format!("{}", *f as i64),
        Data::Float(f) => f.to_string(),
        Data::Bool(b) => if *b { "Yes" } else { "No" }.to_owned(),
        Data::DateTime(moment) => {
            let (year, month, day, ..) = moment.to_ymd_hms_milli();
            format!("{year:04}-{month:02}-{day:02}")
        }
        Data::DateTimeIso(text) => text.get(..10).unwrap_or(text).to_owned(),
        Data::DurationIso(text) => text.clone(),
    }
}

/// Reads the zip central directory (the index at the end of the file) and refuses a
/// spreadsheet whose entries declare an oversized or suspiciously compressed payload,
/// before anything is decompressed.
pub fn check_zip_payload(file_name: &str, bytes: &[u8]) -> Result<()> {
    let damaged = || {
        unreadable(
            file_name,
            "it is not a complete XLSX/ODS file (damaged or truncated)",
        )
    };
    let u16_at = |at: usize| -> Option<u64> {
        bytes
            .get(at..at + 2)
            .map(|b| u64::from(u16::from_le_bytes([b[0], b[1]])))
    };
    let u32_at = |at: usize| -> Option<u64> {
        bytes
            .get(at..at + 4)
            .map(|b| u64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])))
    };
    // The end-of-central-directory record is in the last 64 KiB + 22 bytes.
    let search_from = bytes.len().saturating_sub(22 + 65_535);
    let end = (search_from..bytes.len().saturating_sub(21))
        .rev()
        .find(|&at| bytes[at..at + 4] == [0x50, 0x4b, 0x05, 0x06])
        .ok_or_else(damaged)?;
    let entries = u16_at(end + 10).ok_or_else(damaged)?;
    let directory_at = u32_at(end + 16).ok_or_else(damaged)? as usize;
    if entries == 0xFFFF || directory_at as u64 == 0xFFFF_FFFF {
        return Err(unreadable(
            file_name,
            "it is a ZIP64 archive, far larger than a lead list",
        ));
    }
    let mut at = directory_at;
    let mut total: u64 = 0;
    for _ in 0..entries {
        if u32_at(at) != Some(0x0201_4b50) {
            return Err(damaged());
        }
        let compressed = u32_at(at + 20).ok_or_else(damaged)?;
        let uncompressed = u32_at(at + 24).ok_or_else(damaged)?;
        if compressed == 0xFFFF_FFFF || uncompressed == 0xFFFF_FFFF {
            return Err(unreadable(
                file_name,
                "an entry is a ZIP64 entry, far larger than a lead list",
            ));
        }
        total = total.saturating_add(uncompressed);
        if uncompressed > 1024 * 1024 && uncompressed > compressed.max(1) * MAX_COMPRESSION_RATIO {
            return Err(Error::Rejected(format!(
                "{file_name} is refused: an entry expands {}:1 ({uncompressed} bytes), which only a zip bomb does",
                uncompressed / compressed.max(1)
            )));
        }
        let name_len = u16_at(at + 28).ok_or_else(damaged)? as usize;
        let extra_len = u16_at(at + 30).ok_or_else(damaged)? as usize;
        let comment_len = u16_at(at + 32).ok_or_else(damaged)? as usize;
        at += 46 + name_len + extra_len + comment_len;
    }
    if total > MAX_UNCOMPRESSED_BYTES {
        return Err(Error::Rejected(format!(
            "{file_name} is refused: it expands to {} MB, more than the {} MB a lead list may have",
            total / (1024 * 1024),
            MAX_UNCOMPRESSED_BYTES / (1024 * 1024)
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_rows_keep_quoted_commas_and_line_breaks() {
        let table = read_table(
            "leads.csv",
            b"\xEF\xBB\xBFName,Notes\n\"Lee, Rose\",\"two\nlines\"\nAmes,\n",
            None,
        )
        .unwrap();
        assert_eq!(table.first_row, 1);
        assert_eq!(
            table.rows,
            vec![
                vec!["Name", "Notes"],
                vec!["Lee, Rose", "two\nlines"],
                vec!["Ames", ""]
            ]
        );
    }

    #[test]
    fn non_zip_and_truncated_spreadsheets_are_clear_errors() {
        for bytes in [&b"not a zip"[..], &b"PK\x03\x04garbage"[..], &[][..]] {
            let error = read_table("leads.xlsx", bytes, None).unwrap_err();
            assert!(
                error.to_string().starts_with("leads.xlsx cannot be read"),
                "{error}"
            );
        }
    }

    #[test]
    fn unknown_extensions_are_refused() {
        let error = read_table("leads.pdf", b"x", None).unwrap_err();
        assert_eq!(
            error.to_string(),
            "leads.pdf: lead files must be .csv, .xlsx or .ods"
        );
    }
}
