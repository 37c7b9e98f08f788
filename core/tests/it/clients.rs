//! The clients page: stage and urgency filters, counts, keyset paging, query plans.

use carepath_core::export::{ExportKind, ExportOptions, ListFilter};
use carepath_core::model::{IntakeStatus, Stage};
use carepath_core::rules::stage::ClientUrgency;
use carepath_core::store::{AssessmentSave, ClientQuery, ClientSort, StageFilter};
use jiff::SignedDuration;

use crate::support::{assessment_form, intake_form, now, open};

fn days_ago(days: i64) -> jiff::Timestamp {
    now() - SignedDuration::from_hours(24 * days)
}

#[test]
fn stage_and_urgency_filters_and_the_seven_counts() {
    let mut test = open();
    let staff = test.staff.clone();
    // Intakes created 0, 3, 4, 5 and 6 days ago.
    let mut ids = Vec::new();
    for days in [0, 3, 4, 5, 6] {
        test.store.set_now(Some(days_ago(days)));
        ids.push(
            test.store
                .create_intake(&staff, intake_form(&format!("Client {days}")))
                .unwrap(),
        );
    }
    // One more moves on to assessment today, one is archived.
    test.store.set_now(Some(days_ago(1)));
    let assessed = test
        .store
        .create_intake(&staff, intake_form("Client assessed"))
        .unwrap();
    let declined = test
        .store
        .create_intake(&staff, intake_form("Client declined"))
        .unwrap();
    test.store.set_now(Some(now()));
    test.store
        .save_assessment(
            &staff,
            AssessmentSave {
                existing: None,
                intake_id: Some(assessed.id.clone()),
                form: assessment_form("Client assessed"),
                complete: true,
            },
        )
        .unwrap();
    test.store
        .set_intake_status(
            &staff,
            &declined.id,
            declined.version,
            IntakeStatus::Declined,
        )
        .unwrap();

    let page = |stage, urgency| {
        let page = test
            .store
            .clients_page(&ClientQuery {
                stage,
                urgency,
                ..ClientQuery::default()
            })
            .unwrap();
        let mut names: Vec<String> = page
            .items
            .iter()
            .map(|r| r.intake.client_full_name.clone())
            .collect();
        names.sort();
        (names, page.counts)
    };
    let (all, counts) = page(None, None);
    assert_eq!(all.len(), 7);
    assert_eq!(
        (
            counts.total,
            counts.intake,
            counts.assessment,
            counts.care_plan,
            counts.contract,
            counts.archived
        ),
        (7, 5, 1, 0, 0, 1)
    );
    assert_eq!(counts.overdue, 1, "only the 6-day-old intake is overdue");
    assert_eq!(
        page(Some(StageFilter::Intake), Some(ClientUrgency::Overdue)).0,
        vec!["Client 6"]
    );
    assert_eq!(
        page(Some(StageFilter::Intake), Some(ClientUrgency::DueSoon)).0,
        vec!["Client 4", "Client 5"]
    );
    assert_eq!(
        page(Some(StageFilter::Intake), Some(ClientUrgency::OnTrack)).0,
        vec!["Client 0", "Client 3"]
    );
    assert_eq!(
        page(Some(StageFilter::Assessment), None).0,
        vec!["Client assessed"]
    );
    assert_eq!(
        page(Some(StageFilter::Archived), None).0,
        vec!["Client declined"]
    );

    // The rows carry what the list shows.
    let overdue = test
        .store
        .clients_page(&ClientQuery {
            urgency: Some(ClientUrgency::Overdue),
            ..ClientQuery::default()
        })
        .unwrap();
    let row = &overdue.items[0];
    assert_eq!(
        (&*row.intake.pipeline.label, row.intake.pipeline.overdue),
        ("Intake", true)
    );
    assert_eq!(row.urgency, ClientUrgency::Overdue);
    assert_eq!(row.journey.iter().filter(|s| s.complete).count(), 1);
    assert_eq!(
        row.view_route,
        format!("/intake?intake_id={}&view=true", row.intake.id)
    );
    let assessed_row = test.store.client_profile(&assessed.id).unwrap();
    assert_eq!(assessed_row.intake.position.stage, Stage::Assessment);
    assert!(
        assessed_row
            .view_route
            .starts_with("/assessments/new?assessment_id=")
    );
}

#[test]
fn keyset_paging_walks_every_client_once_in_both_sorts() {
    let mut test = open();
    let staff = test.staff.clone();
    test.store
        .batch(|store| {
            for index in 0..125 {
                // Several share a creation time, so the row number breaks ties.
                store.set_now(Some(now() - SignedDuration::from_mins(index / 3)));
                store.create_intake(&staff, intake_form(&format!("Page Client {index:03}")))?;
            }
            Ok(())
        })
        .unwrap();
    test.store.set_now(Some(now()));
    for sort in [ClientSort::Newest, ClientSort::Name] {
        let mut seen = Vec::new();
        let mut cursor = None;
        loop {
            let page = test
                .store
                .clients_page(&ClientQuery {
                    sort,
                    cursor,
                    limit: Some(50),
                    ..ClientQuery::default()
                })
                .unwrap();
            seen.extend(page.items.iter().map(|r| r.intake.id.clone()));
            match page.next_cursor {
                Some(next) => cursor = Some(next),
                None => break,
            }
        }
        assert_eq!(seen.len(), 125, "{sort:?}");
        let mut unique = seen.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), 125, "{sort:?} repeated a row");
    }
    let bad = test.store.clients_page(&ClientQuery {
        cursor: Some("not-a-cursor".into()),
        ..ClientQuery::default()
    });
    assert!(matches!(bad, Err(carepath_core::Error::Rejected(_))));
}

#[test]
fn keyset_paging_walks_each_urgency_filter_once() {
    let mut test = open();
    let staff = test.staff.clone();
    test.store
        .batch(|store| {
            for index in 0..60 {
                // Spread over ten days, so every urgency has clients; pairs share a time.
                store.set_now(Some(now() - SignedDuration::from_hours(index / 2 * 9)));
                store.create_intake(&staff, intake_form(&format!("Urgency Client {index:02}")))?;
            }
            Ok(())
        })
        .unwrap();
    test.store.set_now(Some(now()));
    let mut total = 0;
    for urgency in [
        ClientUrgency::Overdue,
        ClientUrgency::DueSoon,
        ClientUrgency::OnTrack,
    ] {
        let mut seen = Vec::new();
        let mut cursor = None;
        loop {
            let page = test
                .store
                .clients_page(&ClientQuery {
                    urgency: Some(urgency),
                    cursor,
                    limit: Some(7),
                    ..ClientQuery::default()
                })
                .unwrap();
            for row in &page.items {
                assert_eq!(row.urgency, urgency, "{}", row.intake.client_full_name);
            }
            seen.extend(page.items.iter().map(|r| r.intake.id.clone()));
            match page.next_cursor {
                Some(next) => cursor = Some(next),
                None => break,
            }
        }
        let mut unique = seen.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), seen.len(), "{urgency:?} repeated a row");
        assert!(!seen.is_empty(), "{urgency:?} found nobody");
        total += seen.len();
    }
    assert_eq!(total, 60, "every client is in exactly one urgency");
}

#[test]
fn a_filtered_export_holds_what_the_list_shows() {
    let mut test = open();
    let staff = test.staff.clone();
    for days in [0, 4, 7] {
        test.store.set_now(Some(days_ago(days)));
        test.store
            .create_intake(&staff, intake_form(&format!("Export Client {days}")))
            .unwrap();
    }
    test.store.set_now(Some(now()));
    let exported_ids = |filter: ListFilter| {
        let mut out = Vec::new();
        let options = ExportOptions {
            filter,
            ..ExportOptions::default()
        };
        test.store
            .export(ExportKind::Clients, &options, &mut out)
            .unwrap();
        let text = String::from_utf8(out).unwrap();
        let mut ids: Vec<String> = text
            .lines()
            .skip(1)
            .map(|line| line.split(',').next().unwrap().to_owned())
            .collect();
        ids.sort();
        ids
    };
    for urgency in [
        ClientUrgency::Overdue,
        ClientUrgency::DueSoon,
        ClientUrgency::OnTrack,
    ] {
        let page = test
            .store
            .clients_page(&ClientQuery {
                urgency: Some(urgency),
                ..ClientQuery::default()
            })
            .unwrap();
        let mut listed: Vec<String> = page
            .items
            .iter()
            .map(|row| row.intake.id.to_string())
            .collect();
        listed.sort();
        assert_eq!(listed.len(), 1, "{urgency:?}");
        let exported = exported_ids(ListFilter::Clients {
            stage: Some(StageFilter::Intake),
            urgency: Some(urgency),
            search: None,
        });
        assert_eq!(exported, listed, "{urgency:?}");
    }
    let found = exported_ids(ListFilter::Clients {
        stage: None,
        urgency: None,
        search: Some("Client 4".into()),
    });
    assert_eq!(found.len(), 1);
    assert!(
        exported_ids(ListFilter::Clients {
            stage: Some(StageFilter::Archived),
            urgency: None,
            search: None,
        })
        .is_empty()
    );
    let mismatched = test.store.export(
        ExportKind::Contacts,
        &ExportOptions {
            filter: ListFilter::Assessments {
                status: None,
                search: None,
            },
            ..ExportOptions::default()
        },
        &mut Vec::new(),
    );
    assert!(matches!(mismatched, Err(carepath_core::Error::Rejected(_))));
}

#[test]
fn a_filtered_page_reads_an_index_not_the_table() {
    let test = open();
    for urgency in [
        ClientUrgency::Overdue,
        ClientUrgency::DueSoon,
        ClientUrgency::OnTrack,
    ] {
        let plan = test
            .store
            .explain_clients_page(Stage::Intake, urgency)
            .unwrap()
            .join("\n");
        assert!(
            plan.contains("SEARCH intakes USING INDEX intakes_stage_"),
            "{urgency:?}: {plan}"
        );
        assert!(!plan.contains("SCAN intakes"), "{plan}");
        assert!(
            !plan.contains("TEMP B-TREE"),
            "a page must not sort the table: {plan}"
        );
        // The page after a cursor starts at the cursor's row, inside a run of equal keys
        // (every lead of one import shares its creation moment), instead of walking it.
        assert!(plan.contains(",list_seq)>(?,?)"), "{urgency:?}: {plan}");
    }
}

#[test]
fn client_search_on_the_list() {
    let mut test = open();
    let staff = test.staff.clone();
    test.store
        .create_intake(&staff, intake_form("Mildred Sullivan"))
        .unwrap();
    let mut other = intake_form("Howard Brooks");
    other.caller_name = "Patricia Brooks".into();
    test.store.create_intake(&staff, other).unwrap();
    let names = |term: &str| -> Vec<String> {
        test.store
            .clients_page(&ClientQuery {
                search: Some(term.into()),
                ..ClientQuery::default()
            })
            .unwrap()
            .items
            .into_iter()
            .map(|r| r.intake.client_full_name)
            .collect()
    };
    assert_eq!(names("sulliv"), vec!["Mildred Sullivan"]);
    assert_eq!(names("patricia"), vec!["Howard Brooks"]); // caller name
    assert_eq!(names("Ho"), vec!["Howard Brooks"]);
}

#[test]
fn a_new_time_zone_moves_every_clients_overdue_moment() {
    let mut test = open();
    let staff = test.staff.clone();
    let admin = test.admin.clone();
    // Entered on 10 November: overdue from the first moment of 16 November, local time.
    test.store
        .set_now(Some(crate::support::at("2026-11-10T15:00:00Z")));
    test.store
        .create_intake(&staff, intake_form("Zone Client"))
        .unwrap();
    // 01:00 in New York, still 22:00 on the 15th in Los Angeles.
    test.store
        .set_now(Some(crate::support::at("2026-11-16T06:00:00Z")));
    let overdue = |store: &carepath_core::store::Store| {
        store
            .clients_page(&ClientQuery {
                urgency: Some(ClientUrgency::Overdue),
                ..ClientQuery::default()
            })
            .unwrap()
            .items
            .len()
    };
    assert_eq!(overdue(&test.store), 1);
    let settings = test.store.settings().unwrap();
    let mut general = settings.general.clone();
    general.time_zone = "America/Los_Angeles".into();
    test.store
        .update_settings(
            &admin,
            settings.versions["general"],
            carepath_core::model::SettingsTab::General(general),
        )
        .unwrap();
    assert_eq!(overdue(&test.store), 0);
}
