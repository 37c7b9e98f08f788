//! Contacts: validation, primary first, one primary.

use carepath_core::Error;
use carepath_core::model::{ContactInput, ContactType};

use crate::support::{intake_form, open};

#[test]
fn contacts_are_trimmed_primary_first_and_deleted() {
    let mut test = open();
    let staff = test.staff.clone();
    let intake = test
        .store
        .create_intake(&staff, intake_form("Gloria Holloway"))
        .unwrap();
    let family = test
        .store
        .add_contact(
            &staff,
            &intake.id,
            ContactInput {
                full_name: "  Tom Holloway ".into(),
                phone: "  ".into(),
                ..ContactInput::default()
            },
        )
        .unwrap();
    assert_eq!(family.full_name, "Tom Holloway");
    assert_eq!(family.phone, None);
    assert_eq!(family.contact_type, ContactType::Family);
    assert_eq!(family.contact_type_label, "Family Member");
    let primary = test
        .store
        .add_contact(
            &staff,
            &intake.id,
            ContactInput {
                full_name: "Ann Holloway".into(),
                is_primary: true,
                contact_type: ContactType::Primary,
                ..ContactInput::default()
            },
        )
        .unwrap();
    let list = test.store.contacts(&intake.id).unwrap();
    assert_eq!(
        list.iter()
            .map(|c| c.full_name.as_str())
            .collect::<Vec<_>>(),
        ["Ann Holloway", "Tom Holloway"]
    );
    // Making another one primary demotes the first.
    test.store
        .update_contact(
            &staff,
            &family.id,
            family.version,
            ContactInput {
                full_name: "Tom Holloway".into(),
                is_primary: true,
                ..ContactInput::default()
            },
        )
        .unwrap();
    assert!(!test.store.get_contact(&primary.id).unwrap().is_primary);
    assert!(matches!(
        test.store.delete_contact(&staff, &primary.id),
        Err(carepath_core::Error::Forbidden(_))
    ));
    let admin = test.admin.clone();
    test.store.delete_contact(&admin, &primary.id).unwrap();
    assert_eq!(test.store.contact_count(&intake.id).unwrap(), 1);
}

#[test]
fn a_contact_needs_a_name() {
    let mut test = open();
    let staff = test.staff.clone();
    let intake = test
        .store
        .create_intake(&staff, intake_form("Albert Vasquez"))
        .unwrap();
    match test.store.add_contact(
        &staff,
        &intake.id,
        ContactInput {
            full_name: "   ".into(),
            ..ContactInput::default()
        },
    ) {
        Err(Error::Validation(errors)) => assert_eq!(errors.message, "Contact name is required"),
        other => panic!("expected validation, got {other:?}"),
    }
    assert_eq!(test.store.contact_count(&intake.id).unwrap(), 0);
}
