//! Property tests of the lead import's readers and header mapping: whatever bytes a file
//! holds (CSV, XLSX or ODS, damaged or hostile), reading and preparing it answers a lead
//! list or a clear refusal, never a panic. The case counts keep it to seconds.

use std::io::{Cursor, Write};

use carepath_core::Error;
use carepath_core::import::{ColumnMapping, LeadImportOptions, prepare_leads, read_table};
use carepath_core::rules::clock::AgencyClock;
use proptest::prelude::*;
use proptest::test_runner::Config;

fn config(cases: u32) -> Config {
    Config {
        cases,
        // A failure prints its smallest input; nothing is written into the source tree.
        failure_persistence: None,
        ..Config::default()
    }
}

fn clock() -> AgencyClock {
    AgencyClock::new(
        "2026-03-10T15:00:00Z".parse().unwrap(),
        jiff::tz::TimeZone::UTC,
    )
}

fn options(file_name: &str) -> LeadImportOptions {
    LeadImportOptions {
        file_name: file_name.to_owned(),
        ..LeadImportOptions::default()
    }
}

/// A refusal the import shows the person: a message naming the file.
fn is_clear_refusal(error: &Error, file_name: &str) -> bool {
    matches!(error, Error::Rejected(message) if message.starts_with(file_name))
}

/// Text a spreadsheet cell or header might hold: anything printable, line breaks,
/// quotes, separators, formula starts and the odd control character.
fn cell() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[ -~]{0,24}",
        2 => "\\PC{0,16}",
        1 => "[\"',;=+@\\-\t\r\n]{0,6}",
        1 => prop::sample::select(vec![
            "Client Name".to_owned(), "Caller".to_owned(), "Phone".to_owned(),
            "Email".to_owned(), "DOB".to_owned(), "Services".to_owned(),
            "Zip".to_owned(), "Notes".to_owned(), "=1+1".to_owned(),
        ]),
    ]
}

fn rows() -> impl Strategy<Value = Vec<Vec<String>>> {
    prop::collection::vec(prop::collection::vec(cell(), 0..8), 0..12)
}

fn csv_bytes(rows: &[Vec<String>]) -> Vec<u8> {
    let mut writer = csv::WriterBuilder::new()
        .flexible(true)
        .from_writer(Vec::new());
    for row in rows {
        writer.write_record(row).unwrap();
    }
    writer.into_inner().unwrap()
}

/// A minimal ODS file with `rows` in its first sheet, as LibreOffice would store them.
fn ods_bytes(rows: &[Vec<String>]) -> Vec<u8> {
    let escape = |text: &str| {
        text.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;")
    };
    let mut table = String::new();
    for row in rows {
        table.push_str("<table:table-row>");
        for cell in row {
            table.push_str(&format!(
                "<table:table-cell office:value-type=\"string\"><text:p>{}</text:p></table:table-cell>",
                escape(cell)
            ));
        }
        table.push_str("</table:table-row>");
    }
    let content = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\
         <office:document-content \
         xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\" \
         xmlns:table=\"urn:oasis:names:tc:opendocument:xmlns:table:1.0\" \
         xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\" office:version=\"1.2\">\
         <office:body><office:spreadsheet><table:table table:name=\"Leads\">{table}</table:table>\
         </office:spreadsheet></office:body></office:document-content>"
    );
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let stored =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    zip.start_file("mimetype", stored).unwrap();
    zip.write_all(b"application/vnd.oasis.opendocument.spreadsheet")
        .unwrap();
    zip.start_file("META-INF/manifest.xml", stored).unwrap();
    zip.write_all(
        b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\
          <manifest:manifest xmlns:manifest=\"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0\">\
          <manifest:file-entry manifest:full-path=\"/\" manifest:media-type=\"application/vnd.oasis.opendocument.spreadsheet\"/>\
          <manifest:file-entry manifest:full-path=\"content.xml\" manifest:media-type=\"text/xml\"/>\
          </manifest:manifest>",
    )
    .unwrap();
    zip.start_file("content.xml", stored).unwrap();
    zip.write_all(content.as_bytes()).unwrap();
    zip.finish().unwrap().into_inner()
}

/// The project's sample spreadsheet, a real XLSX to damage.
fn sample_xlsx() -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/leads.xlsx");
    std::fs::read(path).expect("fixtures/leads.xlsx")
}

/// Damage to a file: bytes overwritten at chosen places, then maybe cut short.
fn damage() -> impl Strategy<Value = (Vec<(prop::sample::Index, u8)>, Option<prop::sample::Index>)>
{
    (
        prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8),
        prop::option::of(any::<prop::sample::Index>()),
    )
}

fn damaged(
    mut bytes: Vec<u8>,
    (flips, cut): &(Vec<(prop::sample::Index, u8)>, Option<prop::sample::Index>),
) -> Vec<u8> {
    for (at, byte) in flips {
        let at = at.index(bytes.len());
        bytes[at] = *byte;
    }
    if let Some(cut) = cut {
        bytes.truncate(cut.index(bytes.len()));
    }
    bytes
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn any_bytes_as_csv_read_or_are_refused_clearly(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        match read_table("leads.csv", &bytes, None) {
            Ok(table) => prop_assert_eq!(table.first_row, 1),
            Err(error) => prop_assert!(is_clear_refusal(&error, "leads.csv"), "{error}"),
        }
        // The mapping's refusals (no column holds a name, …) are messages too.
        if let Err(error) = prepare_leads(&bytes, &options("leads.csv"), &clock()) {
            prop_assert!(matches!(error, Error::Rejected(_)), "{error}");
        }
    }

    #[test]
    fn any_bytes_as_a_spreadsheet_are_refused_clearly(bytes in prop::collection::vec(any::<u8>(), 0..512), ods in any::<bool>()) {
        let name = if ods { "leads.ods" } else { "leads.xlsx" };
        // Mostly not a zip at all; with the signature in front, a damaged one.
        let mut file = if bytes.len() % 2 == 0 { b"PK\x03\x04".to_vec() } else { Vec::new() };
        file.extend_from_slice(&bytes);
        match read_table(name, &file, None) {
            Ok(_) => {}
            Err(error) => prop_assert!(is_clear_refusal(&error, name), "{error}"),
        }
    }

    #[test]
    fn csv_cells_come_back_as_written(rows in rows()) {
        // A first cell that starts with a byte-order mark loses it, as it should.
        prop_assume!(!rows.iter().flatten().any(|cell| cell.contains('\u{feff}')));
        let table = read_table("leads.csv", &csv_bytes(&rows), None).unwrap();
        let written: Vec<Vec<String>> = rows
            .iter()
            // A row of no cells is written as one empty cell.
            .map(|row| if row.is_empty() { vec![String::new()] } else { row.clone() })
            .collect();
        prop_assert_eq!(table.rows, written);
    }

    #[test]
    fn any_table_maps_and_prepares_without_panicking(rows in rows(), maps in prop::collection::vec("[ -~]{0,20}", 0..3)) {
        if let Some(headers) = rows.first() {
            let _ = ColumnMapping::new(headers, &maps);
        }
        let bytes = csv_bytes(&rows);
        let mut options = options("leads.csv");
        options.maps = maps;
        match prepare_leads(&bytes, &options, &clock()) {
            Ok(file) => {
                for lead in &file.leads {
                    prop_assert!(lead.row >= 2, "a lead below the header row");
                }
            }
            Err(error) => prop_assert!(matches!(error, Error::Rejected(_)), "{error}"),
        }
    }
}

proptest! {
    #![proptest_config(config(64))]

    #[test]
    fn ods_cells_come_back_as_written(rows in prop::collection::vec(prop::collection::vec("[ -~]{1,16}", 1..5), 1..6)) {
        // Spreadsheet cells are read trimmed of nothing but kept as text.
        let table = read_table("leads.ods", &ods_bytes(&rows), None).unwrap();
        let width = rows.iter().map(Vec::len).max().unwrap_or(0);
        let padded: Vec<Vec<String>> = rows
            .iter()
            .map(|row| {
                let mut row = row.clone();
                row.resize(width, String::new());
                row
            })
            .collect();
        prop_assert_eq!(table.rows, padded);
    }

    #[test]
    fn a_damaged_ods_is_read_or_refused_clearly(rows in rows(), damage in damage()) {
        let bytes = damaged(ods_bytes(&rows), &damage);
        if let Err(error) = prepare_leads(&bytes, &options("leads.ods"), &clock()) {
            prop_assert!(matches!(error, Error::Rejected(_)), "{error}");
        }
    }

    #[test]
    fn a_damaged_xlsx_is_read_or_refused_clearly(damage in damage()) {
        let bytes = damaged(sample_xlsx(), &damage);
        if let Err(error) = prepare_leads(&bytes, &options("leads.xlsx"), &clock()) {
            prop_assert!(matches!(error, Error::Rejected(_)), "{error}");
        }
    }
}

#[test]
fn the_undamaged_samples_read_as_leads() {
    // The generators above make files the readers accept, so damage starts from a file
    // that works rather than from noise.
    let file = prepare_leads(&sample_xlsx(), &options("leads.xlsx"), &clock()).unwrap();
    assert!(!file.leads.is_empty());
    let rows = vec![
        vec![
            "Client Name".to_owned(),
            "Caller".to_owned(),
            "Phone".to_owned(),
        ],
        vec![
            "Rose Lee".to_owned(),
            "Mark Lee".to_owned(),
            "555-010-0100".to_owned(),
        ],
    ];
    let file = prepare_leads(&ods_bytes(&rows), &options("leads.ods"), &clock()).unwrap();
    assert_eq!(file.leads.len(), 1);
    assert_eq!(file.leads[0].form.client_full_name, "Rose Lee");
}
