//! Bulk loads: the list and search indexes are built at the end, and a failed load
//! leaves data and schema as they were.

use carepath_core::Error;
use carepath_core::model::IntakeForm;
use carepath_core::store::{ClientQuery, StageFilter};

use crate::support::{assessment_form, intake_form, open};

/// Told it adds this many clients, a load builds its indexes at the end, whatever it
/// really adds.
const LARGE: usize = 100_000;

/// Every index and trigger of the file, with the statement that made it.
fn schema(path: &std::path::Path) -> Vec<(String, String)> {
    let conn = rusqlite::Connection::open(path).unwrap();
    let mut statement = conn
        .prepare(
            "SELECT name, sql FROM sqlite_schema
             WHERE type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY name",
        )
        .unwrap();
    statement
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

#[test]
fn a_bulk_load_ends_with_the_same_indexes_and_a_search_that_finds_everyone() {
    let mut test = open();
    let path = test.store.path().to_path_buf();
    let before = schema(&path);
    let staff = test.staff.clone();
    test.store
        .create_intake(&staff, intake_form("Ophelia Earlier"))
        .unwrap();
    test.store
        .bulk_load(LARGE, |store| {
            for index in 0..30 {
                let mut form = intake_form(&format!("Bulk Client {index:02}"));
                form.caller_email = format!("bulk{index}@example.com");
                let intake = store.create_intake(&staff, form)?;
                if index % 3 == 0 {
                    store.save_assessment(
                        &staff,
                        carepath_core::store::AssessmentSave {
                            existing: None,
                            intake_id: Some(intake.id.clone()),
                            form: assessment_form(&intake.form.client_full_name),
                            complete: true,
                        },
                    )?;
                }
            }
            Ok(())
        })
        .unwrap();

    assert_eq!(
        schema(&path),
        before,
        "every deferred index is back as it was"
    );
    assert_eq!(test.store.search("Bulk Client 2").unwrap().len(), 10);
    assert_eq!(test.store.search("bulk17@").unwrap().len(), 1);
    assert_eq!(test.store.search("Ophelia").unwrap().len(), 1);
    let assessed = test
        .store
        .clients_page(&ClientQuery {
            stage: Some(StageFilter::Assessment),
            limit: Some(50),
            ..ClientQuery::default()
        })
        .unwrap();
    assert_eq!(assessed.items.len(), 10);
    assert_eq!(assessed.counts.total, 31);
    assert_eq!(assessed.counts.assessment, 10);

    // The search and count triggers work again for what comes after.
    test.store
        .create_intake(&staff, intake_form("Penelope Later"))
        .unwrap();
    assert_eq!(test.store.search("Penelope").unwrap().len(), 1);
    let all = test.store.clients_page(&ClientQuery::default()).unwrap();
    assert_eq!(
        (all.counts.total, all.counts.intake, all.counts.assessment),
        (32, 22, 10)
    );
}

#[test]
fn a_failed_bulk_load_leaves_data_and_schema_as_they_were() {
    let mut test = open();
    let path = test.store.path().to_path_buf();
    let staff = test.staff.clone();
    test.store
        .create_intake(&staff, intake_form("Ophelia Earlier"))
        .unwrap();
    let before = schema(&path);
    let result = test.store.bulk_load(LARGE, |store| {
        for index in 0..5 {
            store.create_intake(&staff, intake_form(&format!("Lost Client {index}")))?;
        }
        // A form without its required fields stops the load.
        store.create_intake(&staff, IntakeForm::default())?;
        Ok(())
    });
    assert!(matches!(result, Err(Error::Validation(_))), "{result:?}");
    assert_eq!(schema(&path), before);
    assert!(test.store.search("Lost Client").unwrap().is_empty());
    assert_eq!(test.store.search("Ophelia").unwrap().len(), 1);
    let all = test.store.clients_page(&ClientQuery::default()).unwrap();
    assert_eq!(all.counts.total, 1);
    assert_eq!(all.items.len(), 1);
    assert!(test.store.check().unwrap().is_empty());
    test.store
        .create_intake(&staff, intake_form("Penelope Later"))
        .unwrap();
    assert_eq!(test.store.search("Penelope").unwrap().len(), 1);
}

#[test]
fn a_bulk_load_that_ignores_a_failed_operation_still_writes_nothing() {
    let mut test = open();
    let staff = test.staff.clone();
    let result = test.store.bulk_load(LARGE, |store| {
        let intake = store.create_intake(&staff, intake_form("Lost Client"))?;
        // An update is checked inside its write, where a half-done change could hide.
        let mut form = intake.form.clone();
        form.client_full_name.clear();
        let refused = store.update_intake(&staff, &intake.id, intake.version, form);
        assert!(matches!(refused, Err(Error::Validation(_))), "{refused:?}");
        Ok(())
    });
    assert!(matches!(result, Err(Error::Rejected(_))), "{result:?}");
    assert!(test.store.search("Lost Client").unwrap().is_empty());
    let all = test.store.clients_page(&ClientQuery::default()).unwrap();
    assert_eq!(all.counts.total, 0);
}

#[test]
fn a_small_load_keeps_its_indexes_up_to_date_row_by_row() {
    let mut test = open();
    let staff = test.staff.clone();
    test.store
        .bulk_load(3, |store| {
            for index in 0..3 {
                store.create_intake(&staff, intake_form(&format!("Small Load {index}")))?;
            }
            Ok(())
        })
        .unwrap();
    assert_eq!(test.store.search("Small Load").unwrap().len(), 3);
    let all = test.store.clients_page(&ClientQuery::default()).unwrap();
    assert_eq!(all.counts.total, 3);
    assert_eq!(all.items.len(), 3);
}
