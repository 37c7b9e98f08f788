//! CSV exports of every list: the kinds, their documented columns and a streaming
//! encoder with the spec's quoting, `"; "` list joins and formula neutralising.
//!
//! The encoder writes to any `impl Write` one row at a time, so an export of a million
//! clients needs no more memory than an export of ten. The web UI's Export buttons and
//! the CLI's `carepath export` both go through [`crate::store::Store::export`].

mod columns;
pub mod handoff;

use std::io::Write;
use std::str::FromStr;

use jiff::Timestamp;
use serde::Serialize;

pub use columns::{Column, columns};

use crate::error::{Error, Result};
use crate::model::{Actor, CarePlanService};
use crate::rules::clock::{AgencyClock, parse_date};
use crate::rules::csv_cell::{neutralize, starts_like_formula};
use crate::rules::stage::ClientUrgency;
use crate::store::{AssessmentFilter, StageFilter};

/// What can be exported: one kind per list of the app.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ExportKind {
    Intakes,
    Clients,
    Assessments,
    CarePlans,
    Contracts,
    Communications,
    Contacts,
}

impl ExportKind {
    pub const ALL: [ExportKind; 7] = [
        ExportKind::Intakes,
        ExportKind::Clients,
        ExportKind::Assessments,
        ExportKind::CarePlans,
        ExportKind::Contracts,
        ExportKind::Communications,
        ExportKind::Contacts,
    ];

    /// The name on the command line, in URLs and at the start of the file name.
    pub fn name(self) -> &'static str {
        match self {
            ExportKind::Intakes => "intakes",
            ExportKind::Clients => "clients",
            ExportKind::Assessments => "assessments",
            ExportKind::CarePlans => "care-plans",
            ExportKind::Contracts => "contracts",
            ExportKind::Communications => "communications",
            ExportKind::Contacts => "contacts",
        }
    }

    /// Whether the records of this kind are soft-deleted (and so `include_deleted`
    /// means something for them).
    pub fn has_soft_delete(self) -> bool {
        matches!(
            self,
            ExportKind::Intakes
                | ExportKind::Clients
                | ExportKind::Assessments
                | ExportKind::CarePlans
                | ExportKind::Contracts
        )
    }
}

impl std::fmt::Display for ExportKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ExportKind {
    type Err = Error;

    fn from_str(text: &str) -> Result<Self> {
        let wanted = text.trim().to_ascii_lowercase().replace('_', "-");
        ExportKind::ALL
            .into_iter()
            .find(|kind| kind.name() == wanted)
            .ok_or_else(|| {
                Error::Rejected(format!(
                    "Unknown export \"{text}\". Choose one of: {}.",
                    ExportKind::ALL.map(ExportKind::name).join(", ")
                ))
            })
    }
}

/// Which rows an export contains.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExportOptions {
    /// Only rows created or changed at or after this moment (nightly deltas).
    pub since: Option<Timestamp>,
    /// Also rows that were deleted (moved to trash); they carry their Deleted At.
    pub include_deleted: bool,
    /// The filters of the list the export was asked from.
    pub filter: ListFilter,
}

/// Deleted records are in the trash, which only administrators see.
pub const DELETED_NEEDS_ADMIN: &str = "Only an administrator can export deleted records.";

impl ExportOptions {
    /// Refuses an export that would show `actor` records they may not see, or whose
    /// search the list itself would refuse.
    pub fn check_permitted(&self, actor: &Actor) -> Result<()> {
        if self.include_deleted && !actor.is_admin {
            return Err(Error::Forbidden(DELETED_NEEDS_ADMIN));
        }
        // A search the list refuses is refused here too, before the first byte is sent
        // (a streamed answer cannot turn into an error once it has begun).
        if let ListFilter::Clients {
            search: Some(term), ..
        }
        | ListFilter::Assessments {
            search: Some(term), ..
        } = &self.filter
        {
            crate::rules::search::search_term(term)?;
        }
        Ok(())
    }
}

/// The filters of the list whose Export button was pressed, so the file holds the rows
/// the list shows (every page of them), filtered by the same SQL as the list.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum ListFilter {
    /// Every record: the command line's nightly export.
    #[default]
    All,
    /// The all-clients list's stage, urgency and search.
    Clients {
        stage: Option<StageFilter>,
        urgency: Option<ClientUrgency>,
        search: Option<String>,
    },
    /// The assessments list's stat-card filter and search.
    Assessments {
        status: Option<AssessmentFilter>,
        search: Option<String>,
    },
}

impl ListFilter {
    /// Whether this filter belongs to the list of `kind` (every kind takes `All`).
    pub fn fits(&self, kind: ExportKind) -> bool {
        match self {
            ListFilter::All => true,
            ListFilter::Clients { .. } => kind == ExportKind::Clients,
            ListFilter::Assessments { .. } => kind == ExportKind::Assessments,
        }
    }
}

/// Reads `--since`: a date (`2025-01-31`, from the start of that day in the agency's
/// zone), `today`, `yesterday`, a number of days (`7d`: from the start of the day seven
/// days ago) or an RFC 3339 moment.
pub fn parse_since(text: &str, clock: &AgencyClock) -> Result<Timestamp> {
    let text = text.trim();
    let lower = text.to_ascii_lowercase();
    let days_ago = match lower.as_str() {
        "today" => Some(0),
        "yesterday" => Some(1),
        _ => lower
            .strip_suffix('d')
            .and_then(|n| n.parse::<i64>().ok())
            .filter(|n| (0..=36_600).contains(n)),
    };
    if let Some(days) = days_ago {
        return Ok(clock.start_of_days_ago(days));
    }
    if let Some(date) = parse_date(text) {
        return Ok(clock.start_of_day(date));
    }
    if let Ok(moment) = text.parse::<Timestamp>() {
        return Ok(moment);
    }
    Err(Error::Rejected(format!(
        "Cannot read --since \"{text}\": give a date (2025-01-31), today, yesterday, a number of days (7d) or a time (2025-01-31T02:00:00Z)."
    )))
}

/// What an export wrote.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ExportSummary {
    pub kind: ExportKind,
    /// Data rows, not counting the header row.
    pub rows: u64,
}

/// How a stored value becomes a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CellKind {
    /// Text as stored.
    Text,
    /// A JSON list of text, joined with `"; "`.
    List,
    /// A JSON list of care plan service keys, written as their labels.
    ServiceList,
    /// A number as stored (hours).
    Number,
    /// Dollars with two decimals.
    Money,
    /// 0/1 as No/Yes.
    YesNo,
}

/// The streaming CSV writer: quotes a cell that holds a comma, a quote or a line break
/// and doubles its quotes; every text cell is neutralised against formula injection
/// first. Rows end with `\n`.
pub struct CsvEncoder<W: Write> {
    out: W,
    first_in_row: bool,
    scratch: String,
}

impl<W: Write> CsvEncoder<W> {
    pub fn new(out: W) -> Self {
        Self {
            out,
            first_in_row: true,
            scratch: String::new(),
        }
    }

    /// The header row of a column set.
    pub fn header(&mut self, columns: &[Column]) -> std::io::Result<()> {
        for column in columns {
            self.text(column.header)?;
        }
        self.end_row()
    }

    fn separator(&mut self) -> std::io::Result<()> {
        if self.first_in_row {
            self.first_in_row = false;
            Ok(())
        } else {
            self.out.write_all(b",")
        }
    }

    /// A text cell, neutralised and quoted as needed.
    pub fn text(&mut self, cell: &str) -> std::io::Result<()> {
        self.separator()?;
        let cell = neutralize(cell);
        write_quoted(&mut self.out, cell.as_bytes())
    }

    /// A text cell as stored bytes: the common case (UTF-8 without a formula start) is
    /// written as it is, without a copy. Bytes that are not UTF-8 (only a file edited by
    /// another program holds them) are written with replacement characters.
    pub fn text_bytes(&mut self, cell: &[u8]) -> std::io::Result<()> {
        // One pass settles nearly every cell: printable ASCII with nothing to quote.
        if !starts_like_formula(cell) && cell.iter().all(|&byte| PLAIN[usize::from(byte)]) {
            self.separator()?;
            return self.out.write_all(cell);
        }
        if starts_like_formula(cell) || std::str::from_utf8(cell).is_err() {
            return self.text(&String::from_utf8_lossy(cell));
        }
        self.separator()?;
        write_quoted(&mut self.out, cell)
    }

    /// A cell written exactly as given (numbers, which are never formulas).
    pub fn raw(&mut self, cell: &str) -> std::io::Result<()> {
        self.separator()?;
        self.out.write_all(cell.as_bytes())
    }

    /// An empty cell.
    pub fn empty(&mut self) -> std::io::Result<()> {
        self.separator()
    }

    /// A list cell: the items joined with `"; "`.
    pub fn list<'a>(&mut self, items: impl IntoIterator<Item = &'a str>) -> std::io::Result<()> {
        let mut joined = std::mem::take(&mut self.scratch);
        joined.clear();
        for (index, item) in items.into_iter().enumerate() {
            if index > 0 {
                joined.push_str("; ");
            }
            joined.push_str(item);
        }
        let result = self.text(&joined);
        self.scratch = joined;
        result
    }

    /// A stored JSON list of text as one cell. A value that is not a list of text is
    /// written as it is rather than lost.
    pub fn json_list(&mut self, json: &str, labels: fn(&str) -> &str) -> std::io::Result<()> {
        match parse_json_list(json) {
            Some(items) => self.list(items.iter().map(|item| labels(item))),
            None => self.text(json),
        }
    }

    /// Whole rows another encoder wrote.
    pub fn append_rows(&mut self, encoded: &[u8]) -> std::io::Result<()> {
        debug_assert!(self.first_in_row, "rows are appended between rows");
        self.out.write_all(encoded)
    }

    pub fn end_row(&mut self) -> std::io::Result<()> {
        self.first_in_row = true;
        self.out.write_all(b"\n")
    }

    pub fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }

    pub fn into_inner(self) -> W {
        self.out
    }
}

/// Bytes a cell may hold to be written as it is: printable ASCII but the comma and the
/// quote. Anything else goes through the UTF-8 check and [`write_quoted`].
static PLAIN: [bool; 256] = {
    let mut plain = [false; 256];
    let mut byte = b' ';
    while byte <= b'~' {
        plain[byte as usize] = byte != b',' && byte != b'"';
        byte += 1;
    }
    plain
};

/// Writes a cell, quoted only when it holds a comma, a quote or a line break.
fn write_quoted(out: &mut impl Write, cell: &[u8]) -> std::io::Result<()> {
    if !cell
        .iter()
        .any(|b| matches!(b, b',' | b'"' | b'\n' | b'\r'))
    {
        return out.write_all(cell);
    }
    out.write_all(b"\"")?;
    let mut start = 0;
    for (index, byte) in cell.iter().enumerate() {
        if *byte == b'"' {
            out.write_all(&cell[start..=index])?;
            out.write_all(b"\"")?;
            start = index + 1;
        }
    }
    out.write_all(&cell[start..])?;
    out.write_all(b"\"")
}

/// Reads a JSON list of strings. Lists without escapes (nearly all of them) are split in
/// place; anything else goes through serde. None when it is not a list of strings.
pub fn parse_json_list(json: &str) -> Option<Vec<std::borrow::Cow<'_, str>>> {
    let inner = json.trim().strip_prefix('[')?.strip_suffix(']')?.trim();
    if inner.is_empty() {
        return Some(Vec::new());
    }
    if !inner.contains('\\') {
        let mut items = Vec::new();
        let mut rest = inner;
        loop {
            let body = rest.strip_prefix('"')?;
            let end = body.find('"')?;
            items.push(std::borrow::Cow::Borrowed(&body[..end]));
            rest = body[end + 1..].trim_start();
            if rest.is_empty() {
                return Some(items);
            }
            rest = rest.strip_prefix(',')?.trim_start();
        }
    }
    let owned: Vec<String> = serde_json::from_str(json).ok()?;
    Some(owned.into_iter().map(std::borrow::Cow::Owned).collect())
}

/// The label of a care plan service key; an unknown key is kept as it is.
pub fn service_label(key: &str) -> &str {
    CarePlanService::parse(key).map_or(key, |service| service.label())
}

/// Leaves a list item as it is.
pub fn same(item: &str) -> &str {
    item
}

/// Dollars with two decimals, as the lists show them.
pub fn money(value: f64) -> String {
    format!("{value:.2}")
}

/// A number without a trailing `.0` for whole values.
pub fn number(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else {
        format!("{value}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_administrator_exports_deleted_records() {
        let staff = Actor::user("staff".into(), crate::model::Channel::Web, false);
        let admin = Actor::user("admin".into(), crate::model::Channel::Web, true);
        let with_deleted = ExportOptions {
            include_deleted: true,
            ..ExportOptions::default()
        };
        assert!(ExportOptions::default().check_permitted(&staff).is_ok());
        assert!(with_deleted.check_permitted(&admin).is_ok());
        assert!(matches!(
            with_deleted.check_permitted(&staff),
            Err(Error::Forbidden(DELETED_NEEDS_ADMIN))
        ));
    }

    #[test]
    fn stored_bytes_are_written_as_text_cells() {
        let mut encoder = CsvEncoder::new(Vec::new());
        encoder.text_bytes(b"plain").unwrap();
        encoder.text_bytes(b"a,b").unwrap();
        encoder.text_bytes(b"=cmd").unwrap();
        encoder.text_bytes(b"bad \xff byte").unwrap();
        encoder.text_bytes("Jos\u{e9} \"Joe\"".as_bytes()).unwrap();
        encoder.text_bytes(b"two\nlines").unwrap();
        encoder.text_bytes(b"").unwrap();
        encoder.text_bytes(b"-5 units").unwrap();
        encoder.end_row().unwrap();
        let out = String::from_utf8(encoder.into_inner()).unwrap();
        assert_eq!(
            out,
            "plain,\"a,b\",'=cmd,bad \u{fffd} byte,\"Jos\u{e9} \"\"Joe\"\"\",\"two\nlines\",,'-5 units\n"
        );
    }

    fn encode(cells: &[&str]) -> String {
        let mut encoder = CsvEncoder::new(Vec::new());
        for cell in cells {
            encoder.text(cell).unwrap();
        }
        encoder.end_row().unwrap();
        String::from_utf8(encoder.into_inner()).unwrap()
    }

    #[test]
    fn cells_are_quoted_and_neutralised_as_the_spec_says() {
        let cases: &[(&[&str], &str)] = &[
            (&["plain", "two words"], "plain,two words\n"),
            (&["Lee, Rose", "x"], "\"Lee, Rose\",x\n"),
            (&["say \"hi\"", "x"], "\"say \"\"hi\"\"\",x\n"),
            (&["line one\nline two"], "\"line one\nline two\"\n"),
            (&["a\r\nb"], "\"a\r\nb\"\n"),
            (&["=1+1", "x"], "'=1+1,x\n"),
            (&["=A1,B1"], "\"'=A1,B1\"\n"),
            (&["", ""], ",\n"),
            (&["Zoë \"Z\""], "\"Zoë \"\"Z\"\"\"\n"),
        ];
        for (cells, expected) in cases {
            assert_eq!(encode(cells), *expected, "{cells:?}");
        }
    }

    #[test]
    fn json_lists_join_with_semicolons() {
        let cases = [
            ("[]", Some(vec![])),
            ("[\"Companionship\"]", Some(vec!["Companionship"])),
            (
                "[\"Personal Care (ADLs)\", \"Meal Preparation\"]",
                Some(vec!["Personal Care (ADLs)", "Meal Preparation"]),
            ),
            ("[\"say \\\"hi\\\"\"]", Some(vec!["say \"hi\""])),
            ("{}", None),
            ("[1,2]", None),
        ];
        for (json, expected) in cases {
            let parsed = parse_json_list(json)
                .map(|items| items.iter().map(|i| i.to_string()).collect::<Vec<_>>());
            let expected =
                expected.map(|items| items.iter().map(|i| i.to_string()).collect::<Vec<_>>());
            assert_eq!(parsed, expected, "{json}");
        }
        let mut encoder = CsvEncoder::new(Vec::new());
        encoder
            .json_list("[\"personalCare\",\"meals\"]", service_label)
            .unwrap();
        encoder.json_list("[\"=cmd\",\"b\"]", same).unwrap();
        encoder.end_row().unwrap();
        assert_eq!(
            String::from_utf8(encoder.into_inner()).unwrap(),
            "Help with Daily Personal Care; Nutritious Meals & Eating Support,'=cmd; b\n"
        );
    }

    #[test]
    fn kinds_parse_from_their_names() {
        for kind in ExportKind::ALL {
            assert_eq!(kind.name().parse::<ExportKind>().unwrap(), kind);
        }
        assert_eq!(
            "care_plans".parse::<ExportKind>().unwrap(),
            ExportKind::CarePlans
        );
        assert!("patients".parse::<ExportKind>().is_err());
    }

    #[test]
    fn since_reads_dates_days_and_moments() {
        let now: Timestamp = "2025-03-10T15:00:00Z".parse().unwrap();
        let clock = AgencyClock::new(now, jiff::tz::TimeZone::UTC);
        let at = |text: &str| parse_since(text, &clock).unwrap().to_string();
        assert_eq!(at("yesterday"), "2025-03-09T00:00:00Z");
        assert_eq!(at("today"), "2025-03-10T00:00:00Z");
        assert_eq!(at("7d"), "2025-03-03T00:00:00Z");
        assert_eq!(at("2025-01-31"), "2025-01-31T00:00:00Z");
        assert_eq!(at("2025-01-31T02:00:00Z"), "2025-01-31T02:00:00Z");
        assert!(parse_since("last week", &clock).is_err());
    }

    #[test]
    fn numbers_read_like_the_lists() {
        assert_eq!(number(8.0), "8");
        assert_eq!(number(12.5), "12.5");
        assert_eq!(money(346.5), "346.50");
    }
}
