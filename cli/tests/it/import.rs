//! `carepath import`: the fixtures' reports, dry runs, re-imports, undo, all-or-nothing,
//! and damaged or oversized spreadsheets.

use std::path::{Path, PathBuf};

use crate::common::{carepath, check_expected, fixtures, normalize_ids, ok, stderr, stdout};

fn fixture(name: &str) -> String {
    fixtures().join(name).to_str().unwrap().to_owned()
}

fn client_count(db: &Path) -> i64 {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.query_row("SELECT count(*) FROM intakes", [], |row| row.get(0))
        .unwrap()
}

fn batch_of(report: &str) -> String {
    let at = report.find("import undo ").expect("an undo hint") + "import undo ".len();
    report[at..at + 36].to_owned()
}

/// The workbook fixture: the clean leads' kind of list, with real date cells and
/// phone numbers typed as numbers, as spreadsheets hold them.
pub fn write_leads_xlsx(path: &Path, rows: usize) {
    use rust_xlsxwriter::{ExcelDateTime, Format, Workbook};
    let mut workbook = Workbook::new();
    let date_format = Format::new().set_num_format("m/d/yyyy");
    let sheet = workbook.add_worksheet();
    sheet.set_name("Leads").unwrap();
    let headers = [
        "Name",
        "Phone",
        "Date of Birth",
        "Email",
        "Caller",
        "Services",
        "Source",
        "Notes",
    ];
    for (column, header) in headers.iter().enumerate() {
        sheet.write_string(0, column as u16, *header).unwrap();
    }
    let fixed = [
        (
            "Mae Fox",
            5550300100.0,
            (1937, 5, 6),
            "jo.fox@example.com",
            "Jo Fox",
            "Companionship; Transportation/Errands",
            "Church",
            "Lives alone",
        ),
        (
            "Ned Bloom",
            5550300200.0,
            (1941, 11, 30),
            "",
            "Ned Bloom",
            "Medication Reminders",
            "Web",
            "",
        ),
        (
            "Opal Grant",
            5550300300.0,
            (1936, 1, 2),
            "kit@example.com",
            "Kit Grant",
            "Personal Care (ADLs)",
            "Hospital",
            "Diabetic, \"low sugar\" meals",
        ),
    ];
    for row in 0..rows {
        let r = (row + 1) as u32;
        let (name, phone, (y, m, d), email, caller, services, source, notes) = if row < fixed.len()
        {
            let f = fixed[row];
            (
                f.0.to_owned(),
                f.1,
                f.2,
                f.3.to_owned(),
                f.4.to_owned(),
                f.5,
                f.6,
                f.7,
            )
        } else {
            (
                format!("Client {row}"),
                5_550_000_000.0 + row as f64,
                (
                    1930 + (row % 30) as u16,
                    1 + (row % 12) as u8,
                    1 + (row % 28) as u8,
                ),
                format!("family{row}@example.com"),
                format!("Caller {row}"),
                "Companionship; Meal Preparation",
                "Web",
                "",
            )
        };
        sheet.write_string(r, 0, &name).unwrap();
        sheet.write_number(r, 1, phone).unwrap();
        let date = ExcelDateTime::from_ymd(y, m, d).unwrap();
        sheet
            .write_datetime_with_format(r, 2, &date, &date_format)
            .unwrap();
        sheet.write_string(r, 3, &email).unwrap();
        sheet.write_string(r, 4, &caller).unwrap();
        sheet.write_string(r, 5, services).unwrap();
        sheet.write_string(r, 6, source).unwrap();
        sheet.write_string(r, 7, notes).unwrap();
    }
    workbook.save(path).unwrap();
}

/// The committed workbook reads as what `write_leads_xlsx` writes today, so a change to
/// the writer that is not committed as a new fixture fails here (`UPDATE_EXPECT=1`
/// rewrites it).
#[test]
fn the_committed_xlsx_fixture_reads_as_the_writer_makes_it() {
    let committed = fixtures().join("leads.xlsx");
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        write_leads_xlsx(&committed, 3);
    }
    let dir = tempfile::tempdir().unwrap();
    let fresh = dir.path().join("leads.xlsx");
    write_leads_xlsx(&fresh, 3);
    let db = dir.path().join("agency.db");
    let dry_run = |path: &Path| {
        let report = ok(carepath(
            &db,
            &["import", "leads", path.to_str().unwrap(), "--dry-run"],
        ));
        report.replace(path.to_str().unwrap(), "leads.xlsx")
    };
    let committed_report = dry_run(&committed);
    assert!(
        committed_report.contains('3'),
        "the fixture's three rows are read: {committed_report}"
    );
    assert_eq!(committed_report, dry_run(&fresh));
}

#[test]
fn clean_csv_imports_every_row_once_and_undo_removes_them() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("agency.db");
    let dry = ok(carepath(
        &db,
        &["import", "leads", &fixture("leads-clean.csv"), "--dry-run"],
    ));
    check_expected("import/leads-clean.dry-run.txt", &dry);
    assert_eq!(client_count(&db), 0, "a dry run writes nothing");

    let report = ok(carepath(
        &db,
        &["import", "leads", &fixture("leads-clean.csv")],
    ));
    check_expected("import/leads-clean.txt", &normalize_ids(&report));
    assert_eq!(client_count(&db), 5);
    let clients = ok(carepath(&db, &["export", "intakes", "-o", "-"]));
    assert!(
        clients.contains(",Edna Park,1935-03-15,Edna Park,Self,(555) 010-0300,"),
        "{clients}"
    );
    assert!(
        clients.contains("leads-clean.csv"),
        "the file stands in for the staff member"
    );

    let again = ok(carepath(
        &db,
        &["import", "leads", &fixture("leads-clean.csv")],
    ));
    assert!(again.contains("was already imported"), "{again}");
    assert_eq!(client_count(&db), 5);

    let batch = batch_of(&report);
    let list = ok(carepath(&db, &["import", "list"]));
    assert!(
        list.contains(&batch) && list.contains("created 5"),
        "{list}"
    );
    let undo = ok(carepath(&db, &["import", "undo", &batch]));
    assert!(undo.contains("removed 5 client(s)"), "{undo}");
    assert_eq!(client_count(&db), 0);
    let twice = carepath(&db, &["import", "undo", &batch]);
    assert_eq!(twice.status.code(), Some(1));
    assert!(stderr(&twice).contains("already undone"));
    // Once undone, the same file can be imported again.
    ok(carepath(
        &db,
        &["import", "leads", &fixture("leads-clean.csv")],
    ));
    assert_eq!(client_count(&db), 5);
}

#[test]
fn messy_csv_reports_rows_and_imports_nothing_without_skip_invalid() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("agency.db");
    ok(carepath(
        &db,
        &["import", "leads", &fixture("leads-clean.csv")],
    ));

    let refused = carepath(&db, &["import", "leads", &fixture("leads-messy.csv")]);
    assert_eq!(refused.status.code(), Some(1));
    check_expected("import/leads-messy.refused.txt", &stdout(&refused));
    assert_eq!(stderr(&refused).lines().count(), 1);
    assert!(stderr(&refused).contains("nothing imported"));
    assert_eq!(client_count(&db), 5);

    let report = ok(carepath(
        &db,
        &[
            "import",
            "leads",
            &fixture("leads-messy.csv"),
            "--skip-invalid",
            "--map",
            "Fax=ignore",
        ],
    ));
    check_expected("import/leads-messy.txt", &normalize_ids(&report));
    assert_eq!(client_count(&db), 7);
    let clients = ok(carepath(&db, &["export", "intakes", "-o", "-"]));
    assert!(
        clients.contains(",Nora Blake,1941-02-02,Sam Blake,"),
        "{clients}"
    );
    assert!(clients.contains("nora@example.com"));
}

#[test]
fn duplicates_can_update_or_create() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("agency.db");
    ok(carepath(
        &db,
        &["import", "leads", &fixture("leads-clean.csv")],
    ));
    let changed = dir.path().join("rose.csv");
    std::fs::write(
        &changed,
        "Name,Phone,Caller,Services\nRose Lee,555 010 0100,Mark Lee,Respite Care\n",
    )
    .unwrap();
    let report = ok(carepath(
        &db,
        &[
            "import",
            "leads",
            changed.to_str().unwrap(),
            "--on-duplicate",
            "update",
        ],
    ));
    assert!(
        report.contains("Row 2 (Rose Lee): Updates the client Rose Lee"),
        "{report}"
    );
    assert_eq!(client_count(&db), 5);
    let clients = ok(carepath(&db, &["export", "clients", "-o", "-"]));
    assert!(
        clients.contains(
            "Rose Lee,1938-07-04,Mark Lee,(555) 010-0100,mark.lee@example.com,Respite Care"
        ),
        "{clients}"
    );
    std::fs::write(
        &changed,
        "Name,Phone,Caller\nRose Lee,555 010 0100,Mark Lee\n",
    )
    .unwrap();
    ok(carepath(
        &db,
        &[
            "import",
            "leads",
            changed.to_str().unwrap(),
            "--on-duplicate",
            "create",
        ],
    ));
    assert_eq!(client_count(&db), 6);
}

#[test]
fn undo_is_refused_once_a_client_moved_on() {
    use carepath_core::model::{NoteInput, Parents};
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("agency.db");
    let report = ok(carepath(
        &db,
        &["import", "leads", &fixture("leads-clean.csv")],
    ));
    let mut store = carepath_core::store::Store::open(&db).unwrap();
    let rose = store.search("Rose Lee").unwrap().remove(0);
    store
        .add_note(
            &crate::common::staff(),
            &NoteInput {
                parents: Parents {
                    intake_id: Some(rose.id),
                    ..Parents::default()
                },
                content: "Called back".to_owned(),
                ..NoteInput::default()
            },
        )
        .unwrap();
    drop(store);
    let undo = carepath(&db, &["import", "undo", &batch_of(&report)]);
    assert_eq!(undo.status.code(), Some(1));
    assert!(
        stderr(&undo).contains("cannot be undone: 1 of its clients"),
        "{}",
        stderr(&undo)
    );
    assert_eq!(client_count(&db), 5);
}

#[test]
fn xlsx_imports_with_sheet_dates_and_numeric_phones() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("agency.db");
    let xlsx = fixtures().join("leads.xlsx");
    if !xlsx.exists() {
        write_leads_xlsx(&xlsx, 3);
    }
    let xlsx = xlsx.to_str().unwrap();
    let report = ok(carepath(
        &db,
        &["import", "leads", xlsx, "--sheet", "leads"],
    ));
    check_expected("import/leads-xlsx.txt", &normalize_ids(&report));
    let clients = ok(carepath(&db, &["export", "intakes", "-o", "-"]));
    assert!(
        clients.contains(",Mae Fox,1937-05-06,Jo Fox,,(555) 030-0100,jo.fox@example.com,Church,"),
        "{clients}"
    );
    let missing = carepath(&db, &["import", "leads", xlsx, "--sheet", "April"]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(stderr(&missing).contains("there is no sheet \"April\"; the sheets are: Leads"));
}

fn temp_file(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn damaged_and_oversized_spreadsheets_are_refused_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("agency.db");
    let good = std::fs::read(fixtures().join("leads.xlsx")).unwrap_or_else(|_| {
        write_leads_xlsx(&dir.path().join("made.xlsx"), 3);
        std::fs::read(dir.path().join("made.xlsx")).unwrap()
    });
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "garbage.xlsx",
            b"this is not a spreadsheet".to_vec(),
            "garbage.xlsx cannot be read",
        ),
        (
            "truncated.xlsx",
            good[..good.len() / 2].to_vec(),
            "truncated.xlsx cannot be read",
        ),
        (
            "tail-cut.xlsx",
            good[..good.len() - 10].to_vec(),
            "tail-cut.xlsx cannot be read",
        ),
        (
            "bomb.xlsx",
            zip_declaring(300 * 1024 * 1024, 1024 * 1024),
            "bomb.xlsx is refused",
        ),
        (
            "dense.xlsx",
            zip_declaring(50 * 1024 * 1024, 10 * 1024),
            "dense.xlsx is refused",
        ),
        (
            "leads.pdf",
            b"%PDF".to_vec(),
            "lead files must be .csv, .xlsx or .ods",
        ),
    ];
    for (name, bytes, expected) in cases {
        let path = temp_file(dir.path(), name, &bytes);
        let output = carepath(&db, &["import", "leads", path.to_str().unwrap()]);
        assert_eq!(output.status.code(), Some(1), "{name}");
        let message = stderr(&output);
        assert_eq!(message.lines().count(), 1, "{name}: {message}");
        assert!(message.contains(expected), "{name}: {message}");
        assert!(!message.contains("panicked"), "{name}: {message}");
    }
    let big = dir.path().join("huge.csv");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(51 * 1024 * 1024)
        .unwrap();
    let output = carepath(&db, &["import", "leads", big.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("huge.csv is larger than 50 MB"));
}

/// A zip whose one entry claims `uncompressed` bytes from `compressed` bytes of data:
/// only the index is read, so the data itself can be absent.
fn zip_declaring(uncompressed: u32, compressed: u32) -> Vec<u8> {
    let name = b"xl/worksheets/sheet1.xml";
    let mut zip = Vec::new();
    let mut central = Vec::new();
    central.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
    central.extend_from_slice(&[20, 0, 20, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    central.extend_from_slice(&compressed.to_le_bytes());
    central.extend_from_slice(&uncompressed.to_le_bytes());
    central.extend_from_slice(&(name.len() as u16).to_le_bytes());
    central.extend_from_slice(&[0; 12]);
    central.extend_from_slice(name);
    let directory_at = zip.len() as u32;
    zip.extend_from_slice(&central);
    zip.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
    zip.extend_from_slice(&[0, 0, 0, 0, 1, 0, 1, 0]);
    zip.extend_from_slice(&(central.len() as u32).to_le_bytes());
    zip.extend_from_slice(&directory_at.to_le_bytes());
    zip.extend_from_slice(&[0, 0]);
    zip
}
