//! Two connections writing the same file at once: no lost update, no half write.

use std::thread;

use carepath_core::Error;

use crate::support::{intake_form, open};

#[test]
fn two_connections_write_at_once_and_both_land() {
    let test = open();
    let staff = test.staff.clone();
    let path = test.store.path().to_path_buf();
    let handles: Vec<_> = (0..2)
        .map(|writer| {
            let path = path.clone();
            let staff = staff.clone();
            thread::spawn(move || {
                let mut store = carepath_core::store::Store::open(&path).unwrap();
                for index in 0..40 {
                    store
                        .create_intake(
                            &staff,
                            intake_form(&format!("Writer {writer} client {index}")),
                        )
                        .unwrap();
                }
            })
        })
        .collect();
    for handle in handles {
        handle.join().unwrap();
    }
    let page = test.store.clients_page(&Default::default()).unwrap();
    assert_eq!(page.counts.total, 80);
    assert!(test.store.check().unwrap().is_empty());
}

#[test]
fn a_concurrent_edit_from_another_connection_is_a_conflict() {
    let mut test = open();
    let staff = test.staff.clone();
    let intake = test
        .store
        .create_intake(&staff, intake_form("Shared Client"))
        .unwrap();
    let mut other = test.second_connection();
    let mut mine = intake.form.clone();
    mine.follow_up_notes = "mine".into();
    let mut theirs = intake.form.clone();
    theirs.follow_up_notes = "theirs".into();
    other
        .update_intake(&staff, &intake.id, intake.version, theirs)
        .unwrap();
    assert!(matches!(
        test.store
            .update_intake(&staff, &intake.id, intake.version, mine),
        Err(Error::Conflict { .. })
    ));
    assert_eq!(
        test.store
            .get_intake(&intake.id)
            .unwrap()
            .follow_up_notes
            .as_deref(),
        Some("theirs")
    );
}

#[test]
fn a_failing_batch_writes_nothing() {
    let mut test = open();
    let staff = test.staff.clone();
    let before = test.store.latest_audit_seq().unwrap();
    let result = test.store.batch(|store| {
        store.create_intake(&staff, intake_form("First of batch"))?;
        store.create_intake(&staff, Default::default())?; // invalid: fails the batch
        Ok(())
    });
    assert!(matches!(result, Err(Error::Validation(_))));
    assert!(test.store.search("First").unwrap().is_empty());
    assert_eq!(test.store.latest_audit_seq().unwrap(), before);
}

#[test]
fn another_process_sees_a_change_through_data_version() {
    let mut test = open();
    let staff = test.staff.clone();
    let watcher = test.second_connection();
    let before = watcher.data_version().unwrap();
    test.store
        .create_intake(&staff, intake_form("Seen Elsewhere"))
        .unwrap();
    assert_ne!(watcher.data_version().unwrap(), before);
}

#[test]
fn a_refused_operation_kept_apart_leaves_its_neighbours_in_the_batch() {
    let mut test = open();
    let staff = test.staff.clone();
    test.store
        .batch(|store| {
            store.apart(|store| store.create_intake(&staff, intake_form("Kept Before")))?;
            // Writes a client, then is refused: the client goes with it.
            let refused = store.apart(|store| {
                store.create_intake(&staff, intake_form("Undone Client"))?;
                store.create_intake(&staff, Default::default())
            });
            assert!(matches!(refused, Err(Error::Validation(_))));
            store.apart(|store| store.create_intake(&staff, intake_form("Kept After")))?;
            Ok(())
        })
        .unwrap();
    let page = test.store.clients_page(&Default::default()).unwrap();
    let mut names: Vec<_> = page
        .items
        .iter()
        .map(|row| row.intake.client_full_name.clone())
        .collect();
    names.sort();
    assert_eq!(names, ["Kept After", "Kept Before"]);
}

#[test]
fn connections_sharing_a_write_gate_write_at_once_and_all_land() {
    let test = open();
    let staff = test.staff.clone();
    let path = test.store.path().to_path_buf();
    let gate = test.store.write_gate();
    let handles: Vec<_> = (0..4)
        .map(|writer| {
            let (path, staff, gate) = (path.clone(), staff.clone(), gate.clone());
            thread::spawn(move || {
                let mut store = carepath_core::store::Store::open(&path).unwrap();
                store.share_write_gate(gate);
                for index in 0..25 {
                    store
                        .create_intake(&staff, intake_form(&format!("Gated {writer} {index}")))
                        .unwrap();
                }
            })
        })
        .collect();
    for handle in handles {
        handle.join().unwrap();
    }
    let page = test.store.clients_page(&Default::default()).unwrap();
    assert_eq!(page.counts.total, 100);
}
