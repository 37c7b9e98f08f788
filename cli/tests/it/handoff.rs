//! `carepath export handoff`: the signed clients for the scheduling system, as CSV and
//! JSON, with the schedule and rate that were signed even after the care plan changed.

use carepath_core::model::{CarePlanInput, DaySchedule, WeeklySchedule};

use crate::common::{carepath, ok, pinned_store, sample_agency, staff, stderr};

/// The cell of `column` in each data row.
fn column(csv: &str, column: &str) -> Vec<String> {
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let index = reader
        .headers()
        .unwrap()
        .iter()
        .position(|name| name == column)
        .unwrap_or_else(|| panic!("no column {column}"));
    reader
        .records()
        .map(|record| record.unwrap()[index].to_owned())
        .collect()
}

#[test]
fn the_handoff_export_carries_the_signed_schedule_and_rate() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("agency.db");
    let sample = sample_agency(&db);
    let (signed_rate, signed_tuesday) = {
        let store = pinned_store(&db);
        let plan = store.get_care_plan(&sample.care_plan).unwrap();
        (plan.hourly_rate, plan.schedule.tuesday.hours)
    };
    assert!(signed_tuesday > 0.0);

    // The care plan changes after signing: the hand-off keeps what was signed.
    {
        let mut store = pinned_store(&db);
        let plan = store.get_care_plan(&sample.care_plan).unwrap();
        let input = CarePlanInput {
            client_name: plan.client_name.clone(),
            family_contact_name: plan.family_contact_name.clone(),
            family_contact_email: plan.family_contact_email.clone(),
            care_coordinator_name: plan.care_coordinator_name.clone(),
            services: plan.services.clone(),
            schedule: WeeklySchedule {
                saturday: DaySchedule {
                    time: "9:00 AM".into(),
                    hours: 6.0,
                },
                ..WeeklySchedule::default()
            },
            hourly_rate: Some(signed_rate + 20.0),
            ..CarePlanInput::default()
        };
        store
            .update_care_plan(&staff(), &plan.id, plan.version, input)
            .unwrap();
    }

    let csv = ok(carepath(
        &db,
        &["export", "handoff", "--since", "2025-03-10", "-o", "-"],
    ));
    assert!(
        csv.starts_with("Client ID,Contract ID,Signed At,Client Name,"),
        "{csv}"
    );
    assert_eq!(column(&csv, "Client Name"), ["Walter Ames"]);
    assert_eq!(column(&csv, "Client ID"), [sample.walter.to_string()]);
    assert_eq!(column(&csv, "Hourly Rate"), [format!("{signed_rate:.2}")]);
    assert_eq!(column(&csv, "Tuesday Hours"), [format!("{signed_tuesday}")]);
    assert_eq!(column(&csv, "Saturday Hours"), ["0"]);

    let file = dir.path().join("handoff.json");
    let report = ok(carepath(
        &db,
        &[
            "export",
            "handoff",
            "--format",
            "json",
            "-o",
            file.to_str().unwrap(),
        ],
    ));
    assert!(
        report.starts_with("Exported 1 signed client to "),
        "{report}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(json.as_array().unwrap().len(), 1);
    assert_eq!(json[0]["hourly_rate"], signed_rate);
    assert_eq!(json[0]["schedule"][0]["day"], "Tuesday");
    assert_eq!(json[0]["client"]["full_name"], "Walter Ames");

    // Signed before the day asked for: the header alone.
    let later = ok(carepath(
        &db,
        &["export", "handoff", "--since", "2025-03-11", "-o", "-"],
    ));
    assert_eq!(later.lines().count(), 1, "{later}");

    // --format is the hand-off's alone.
    let refused = carepath(&db, &["export", "contracts", "--format", "json", "-o", "-"]);
    assert!(!refused.status.success());
    assert!(
        stderr(&refused).contains("--format is for the hand-off"),
        "{}",
        stderr(&refused)
    );
}
