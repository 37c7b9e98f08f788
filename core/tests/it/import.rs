//! Lead imports large enough for the bulk load: the report lists every row, the clients
//! read back are the rows' forms, search finds them, and a refused or repeated file
//! writes nothing.

use carepath_core::import::{LeadImportOptions, OnDuplicate, RowIssue, prepare_leads};
use carepath_core::model::IntakeId;
use carepath_core::store::{ImportReport, Store};

use crate::support::{TestStore, intake_form, open};

const ROWS: usize = 3_000;

/// A lead file of `ROWS` rows: every 97th row has a broken email, every 40th repeats the
/// phone of the row seven before it, every 500th is empty, and row 2's caller phone
/// belongs to a client stored before the import.
fn leads_csv() -> Vec<u8> {
    let first = [
        "Mary", "John", "Ellen", "Marco", "Zoe", "Ana", "Peter", "Grace",
    ];
    let mut csv = String::from(
        "Client Name,Date of Birth,Caller,Relationship,Phone,Email,City,State,Zip,Services,\
         Source,Date,Staff,Hours per Week\n",
    );
    for i in 0..ROWS {
        if i % 500 == 499 {
            csv.push_str(",,,,,,,,,,,,,\n");
            continue;
        }
        let phone_of = if i % 40 == 39 { i - 7 } else { i };
        let phone = if phone_of == 0 {
            "(217) 555-0101".to_owned()
        } else {
            format!("(312) {:03}-{:04}", 100 + phone_of / 1000, phone_of % 1000)
        };
        let email = if i % 97 == 96 {
            format!("lead{i}-at-example.org")
        } else {
            format!("lead{i}@example.org")
        };
        let notes_city = if i % 3 == 0 {
            "\"Springfield, North\""
        } else {
            ""
        };
        csv.push_str(&format!(
            "{} Quill {i},19{}-0{}-1{},Caller {i},Daughter,{phone},{email},{notes_city},IL,62701,\
             Companionship,Physician referral,2026-11-20,Sam Staff,{}\n",
            first[i % first.len()],
            30 + i % 60,
            1 + i % 9,
            i % 9,
            if i % 5 == 0 { "" } else { "8" },
        ));
    }
    csv.into_bytes()
}

fn options(dry_run: bool, skip_invalid: bool) -> LeadImportOptions {
    LeadImportOptions {
        file_name: "leads.csv".to_owned(),
        on_duplicate: OnDuplicate::Skip,
        skip_invalid,
        dry_run,
        ..LeadImportOptions::default()
    }
}

fn import(test: &mut TestStore, bytes: &[u8], options: &LeadImportOptions) -> ImportReport {
    let staff = test.staff.clone();
    test.store
        .import_leads(&staff, bytes, options, &mut |_, _| {})
        .unwrap()
}

fn counts(store: &Store) -> (i64, i64) {
    let conn = rusqlite::Connection::open(store.path()).unwrap();
    let intakes = conn
        .query_row("SELECT count(*) FROM intakes", [], |row| row.get(0))
        .unwrap();
    let batches = conn
        .query_row("SELECT count(*) FROM import_batches", [], |row| row.get(0))
        .unwrap();
    (intakes, batches)
}

#[test]
fn a_large_import_reports_every_row_and_stores_each_new_lead_as_read() {
    let mut test = open();
    let staff = test.staff.clone();
    let earlier = test
        .store
        .create_intake(&staff, intake_form("Opal Earlier"))
        .unwrap();
    let bytes = leads_csv();

    // The rows the file should give, worked out from how it was written.
    let data_rows: Vec<usize> = (0..ROWS).filter(|i| i % 500 != 499).collect();
    let invalid: Vec<usize> = data_rows.iter().copied().filter(|i| i % 97 == 96).collect();
    let in_file_duplicates: Vec<usize> = data_rows
        .iter()
        .copied()
        .filter(|i| i % 40 == 39 && i % 97 != 96 && (i - 7) % 97 != 96)
        .collect();

    let dry = import(&mut test, &bytes, &options(true, true));
    assert_eq!(dry.rows, data_rows.len());
    assert_eq!(dry.invalid_rows, invalid.len());
    assert_eq!(
        dry.invalid.iter().map(|i| i.row).collect::<Vec<_>>(),
        invalid.iter().map(|i| i + 2).collect::<Vec<_>>()
    );
    assert!(
        dry.invalid.iter().all(|issue| issue.column == "Email"
            && issue.message == "Please enter a valid email address")
    );
    let skipped: Vec<(usize, String)> = dry
        .skipped
        .iter()
        .map(|note| (note.row, note.message.clone()))
        .collect();
    let mut expected_skips = vec![(2, "Already a client: Opal Earlier".to_owned())];
    expected_skips.extend(in_file_duplicates.iter().map(|i| {
        (
            i + 2,
            format!("Duplicate of row {} in this file", i - 7 + 2),
        )
    }));
    assert_eq!(skipped, expected_skips);
    assert_eq!(dry.created, dry.rows - dry.invalid_rows - dry.skipped.len());
    assert_eq!(counts(&test.store), (1, 0), "a dry run writes nothing");

    // All or nothing: the invalid rows refuse the whole file.
    let refused = import(&mut test, &bytes, &options(false, false));
    assert!(!refused.committed);
    assert_eq!(refused.invalid, dry.invalid);
    assert_eq!(counts(&test.store), (1, 0), "a refused file writes nothing");

    let done = import(&mut test, &bytes, &options(false, true));
    assert!(done.committed);
    assert_eq!(
        ImportReport {
            dry_run: true,
            batch_id: None,
            committed: false,
            ..done.clone()
        },
        dry,
        "the import does what its dry run said"
    );
    let batch = done.batch_id.clone().unwrap();

    // The clients read back are the forms of the rows that were new, in file order.
    let clock_options = options(false, true);
    let prepared = prepare_leads(&bytes, &clock_options, &test.store.clock().unwrap()).unwrap();
    let skipped_rows: Vec<usize> = done.skipped.iter().map(|note| note.row).collect();
    let expected: Vec<_> = prepared
        .leads
        .iter()
        .filter(|lead| lead.issues.is_empty() && !skipped_rows.contains(&lead.row))
        .map(|lead| lead.form.clone())
        .collect();
    assert_eq!(expected.len(), done.created);
    let ids: Vec<String> = {
        let conn = rusqlite::Connection::open(test.store.path()).unwrap();
        let mut statement = conn
            .prepare("SELECT id FROM intakes WHERE import_batch_id = ?1 ORDER BY seq")
            .unwrap();
        statement
            .query_map([&batch], |row| row.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    };
    let stored: Vec<_> = ids
        .into_iter()
        .map(|id| test.store.get_intake(&IntakeId::from(id)).unwrap().form)
        .collect();
    assert_eq!(stored.len(), expected.len());
    for (stored, expected) in stored.iter().zip(&expected) {
        assert_eq!(stored, expected);
    }
    assert_eq!(
        test.store.get_intake(&earlier.id).unwrap().form,
        earlier.form,
        "the client the file duplicates is left alone"
    );

    // The search index was built for the loaded rows.
    let found = test.store.search("Peter Quill 2998").unwrap();
    assert_eq!(
        found
            .iter()
            .map(|s| s.client_full_name.as_str())
            .collect::<Vec<_>>(),
        vec!["Peter Quill 2998"]
    );

    // The same file again writes nothing and says when it came in.
    let before = counts(&test.store);
    let again = import(&mut test, &bytes, &options(false, true));
    assert_eq!(again.already_imported.unwrap().id, batch);
    assert_eq!(again.rows, data_rows.len());
    assert!(!again.committed);
    assert_eq!(counts(&test.store), before);
}

#[test]
fn a_file_with_only_a_header_or_a_broken_mapping_is_refused_before_anything_is_written() {
    let mut test = open();
    let staff = test.staff.clone();
    let header_only = test
        .store
        .import_leads(
            &staff,
            b"\n\nClient Name,Phone\n,\n",
            &options(false, true),
            &mut |_, _| {},
        )
        .unwrap();
    assert_eq!((header_only.rows, header_only.created), (0, 0));
    let error = test
        .store
        .import_leads(&staff, b"\n  \n", &options(false, true), &mut |_, _| {})
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "leads.csv has no rows: the first row must name the columns"
    );
    let unnamed = test
        .store
        .import_leads(
            &staff,
            b"Fax,Zip\n1,2\n",
            &options(false, true),
            &mut |_, _| {},
        )
        .unwrap_err();
    assert!(
        unnamed.to_string().starts_with("no column holds a name"),
        "{unnamed}"
    );
    assert_eq!(counts(&test.store).0, 0);
    // Row numbers count the rows before the header.
    let file = prepare_leads(
        b",\nClient Name,Email\nAnn Lee,bad\n",
        &options(true, true),
        &test.store.clock().unwrap(),
    )
    .unwrap();
    assert_eq!(
        file.leads[0].issues,
        vec![RowIssue {
            row: 3,
            column: "Email".to_owned(),
            message: "Please enter a valid email address".to_owned()
        }]
    );
}
