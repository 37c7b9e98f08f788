//! Each client's first moment at each step (assessment, care plan, proposal sent,
//! contract, signed, first contact) is kept on its intake row for the analytics. Whatever
//! is written to the records (created, deleted, restored, moved to another client, sent,
//! signed, failed, purged), the kept moments equal what the records say, worked out the
//! way the analytics read them before they were kept: the minimum over the records.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::Path;

use carepath_core::model::{
    Actor, AttachmentInfo, CallLogInput, EmailInput, IntakeId, NoteInput, Parents, Reply, SmsInput,
};
use carepath_core::store::{AnalyticsRange, Store};
use jiff::civil::date;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use rusqlite::Connection;

use crate::support::{assess, at, intake_form, now, open};

/// What the records say: the analytics' own subqueries before the moments were kept.
const FROM_THE_RECORDS: &str = "
    SELECT i.id,
           (SELECT min(a.created_at) FROM assessments a WHERE a.intake_id = i.id AND a.deleted_at IS NULL),
           (SELECT min(c.created_at) FROM care_plan_proposals c WHERE c.intake_id = i.id AND c.deleted_at IS NULL),
           (SELECT min(c.sent_at) FROM care_plan_proposals c WHERE c.intake_id = i.id AND c.deleted_at IS NULL),
           (SELECT min(k.created_at) FROM contracts k WHERE k.intake_id = i.id AND k.deleted_at IS NULL),
           (SELECT min(k.signed_at) FROM contracts k WHERE k.intake_id = i.id AND k.deleted_at IS NULL),
           (SELECT min(coalesce(m.sent_at, m.created_at)) FROM communications m
             WHERE m.intake_id = i.id AND m.direction = 'outbound'
               AND m.communication_type IN ('email', 'sms', 'phone_log')
               AND m.status IN ('sent', 'delivered'))
    FROM intakes i";

const KEPT: &str = "
    SELECT id, first_assessment_at, first_care_plan_at, first_proposal_sent_at,
           first_contract_at, first_signed_at, first_contact_at
    FROM intakes";

/// Per client: assessment, care plan, proposal sent, contract, signed, first contact.
type Firsts = BTreeMap<String, [Option<String>; 6]>;

const ASSESSMENT: usize = 0;
const CARE_PLAN: usize = 1;
const PROPOSAL_SENT: usize = 2;
const CONTRACT: usize = 3;
const SIGNED: usize = 4;
const CONTACT: usize = 5;

fn read(conn: &Connection, sql: &str) -> Firsts {
    let mut statement = conn.prepare(sql).unwrap();
    statement
        .query_map([], |row| {
            Ok((
                row.get(0)?,
                [
                    row.get(1)?,
                    row.get(2)?,
                    row.get(3)?,
                    row.get(4)?,
                    row.get(5)?,
                    row.get(6)?,
                ],
            ))
        })
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// The kept moments, after checking they equal the records'.
fn kept_equal_the_records(path: &Path, moment: &str) -> Firsts {
    let conn = Connection::open(path).unwrap();
    let kept = read(&conn, KEPT);
    assert_eq!(kept, read(&conn, FROM_THE_RECORDS), "{moment}");
    kept
}

/// The kept moment of one step, to the minute (`YYYY-MM-DDTHH:MM`).
fn minute(kept: &Firsts, intake: &IntakeId, step: usize) -> Option<String> {
    kept[intake.as_str()][step]
        .as_ref()
        .map(|moment| moment[..16].to_owned())
}

fn intake(store: &mut Store, actor: &Actor, when: &str, name: &str, phone: &str) -> IntakeId {
    store.set_now(Some(at(when)));
    let mut form = intake_form(name);
    form.caller_phone = phone.into();
    store.create_intake(actor, form).unwrap().id
}

#[test]
fn analytics_first_steps_follow_records_created_deleted_moved_sent_and_signed() {
    let mut test = open();
    let (staff, admin) = (test.staff.clone(), test.admin.clone());
    let path = test.store.path().to_owned();
    let store = &mut test.store;

    let alma = intake(
        store,
        &staff,
        "2026-11-02T14:00:00Z",
        "Alma Arden",
        "(217) 555-0101",
    );
    let bruno = intake(
        store,
        &staff,
        "2026-11-03T14:00:00Z",
        "Bruno Bell",
        "(217) 555-0199",
    );

    // Nothing the family received yet: a note, their own text, a failed email and a
    // text still pending.
    store.set_now(Some(at("2026-11-03T15:00:00Z")));
    store
        .add_note(
            &staff,
            &NoteInput {
                parents: Parents::of_intake(&alma),
                content: "Daughter prefers mornings".into(),
                ..NoteInput::default()
            },
        )
        .unwrap();
    store.set_now(Some(at("2026-11-03T16:00:00Z")));
    let (reply, _) = store
        .record_reply(&Reply {
            from: "+1 217 555 0101".into(),
            body: "Please call me back".into(),
            provider_id: "SM100".into(),
        })
        .unwrap();
    assert_eq!(reply.parents.intake_id.as_ref(), Some(&alma));
    store.set_now(Some(at("2026-11-03T17:00:00Z")));
    let email = store
        .record_email(
            &staff,
            &EmailInput {
                parents: Parents::of_intake(&alma),
                to: "arden@example.com".into(),
                subject: "Hello".into(),
                body: "Hello".into(),
                attachments: Vec::<AttachmentInfo>::new(),
            },
        )
        .unwrap();
    store
        .mark_communication_failed(&email.id, "The mail server refused the email")
        .unwrap();
    store.set_now(Some(at("2026-11-03T18:00:00Z")));
    let sms = store
        .record_sms(
            &staff,
            &SmsInput {
                parents: Parents::of_intake(&alma),
                to: "(217) 555-0101".into(),
                message: "Hello from the agency".into(),
            },
        )
        .unwrap();
    let kept = kept_equal_the_records(&path, "before any contact");
    assert_eq!(minute(&kept, &alma, CONTACT), None);

    // The text goes out an hour later: that is the first contact; a later call is not.
    store.set_now(Some(at("2026-11-03T19:00:00Z")));
    store
        .mark_communication_sent(&sms.id, serde_json::json!({}))
        .unwrap();
    store.set_now(Some(at("2026-11-03T20:00:00Z")));
    let call = store
        .log_call(
            &staff,
            &CallLogInput {
                parents: Parents::of_intake(&alma),
                phone: "(217) 555-0101".into(),
                notes: "Talked to the daughter".into(),
                duration: String::new(),
                internal: false,
            },
        )
        .unwrap();
    let kept = kept_equal_the_records(&path, "after the text and the call");
    assert_eq!(
        minute(&kept, &alma, CONTACT).as_deref(),
        Some("2026-11-03T19:00")
    );

    // Two assessments: deleting the first moves the step to the second, restoring it
    // moves it back.
    let first = assess(store, &staff, "2026-11-04T14:00:00Z", &alma, "Alma Arden");
    let second = assess(store, &staff, "2026-11-05T14:00:00Z", &alma, "Alma Arden");
    let kept = kept_equal_the_records(&path, "two assessments");
    assert_eq!(
        minute(&kept, &alma, ASSESSMENT).as_deref(),
        Some("2026-11-04T14:00")
    );
    store.delete_assessment(&admin, &first).unwrap();
    let kept = kept_equal_the_records(&path, "the first assessment deleted");
    assert_eq!(
        minute(&kept, &alma, ASSESSMENT).as_deref(),
        Some("2026-11-05T14:00")
    );
    store.restore_assessment(&admin, &first).unwrap();
    let kept = kept_equal_the_records(&path, "the first assessment restored");
    assert_eq!(
        minute(&kept, &alma, ASSESSMENT).as_deref(),
        Some("2026-11-04T14:00")
    );
    store.delete_assessment(&admin, &first).unwrap();

    // A care plan, sent; a contract, sent and signed.
    store.set_now(Some(at("2026-11-06T14:00:00Z")));
    let mut plan = store.care_plan_prefill(&second).unwrap().plan;
    plan.family_contact_email = "family@example.com".into();
    let plan = store.create_care_plan(&staff, Some(&second), plan).unwrap();
    let kept = kept_equal_the_records(&path, "a care plan");
    assert_eq!(
        minute(&kept, &alma, CARE_PLAN).as_deref(),
        Some("2026-11-06T14:00")
    );
    assert_eq!(minute(&kept, &alma, PROPOSAL_SENT), None);
    store.set_now(Some(at("2026-11-07T14:00:00Z")));
    store.mark_care_plan_sent(&staff, &plan.id).unwrap();
    store.set_now(Some(at("2026-11-08T14:00:00Z")));
    let contract = store
        .create_contract(&staff, &plan.id, None, "Agreement")
        .unwrap();
    store.set_now(Some(at("2026-11-09T14:00:00Z")));
    store.mark_contract_sent(&staff, &contract.id).unwrap();
    let kept = kept_equal_the_records(&path, "a contract sent");
    assert_eq!(
        minute(&kept, &alma, PROPOSAL_SENT).as_deref(),
        Some("2026-11-07T14:00")
    );
    assert_eq!(
        minute(&kept, &alma, CONTRACT).as_deref(),
        Some("2026-11-08T14:00")
    );
    assert_eq!(minute(&kept, &alma, SIGNED), None);
    store.set_now(Some(at("2026-11-12T14:00:00Z")));
    store.sign_contract(&staff, &contract.id).unwrap();
    let kept = kept_equal_the_records(&path, "signed");
    assert_eq!(
        minute(&kept, &alma, SIGNED).as_deref(),
        Some("2026-11-12T14:00")
    );

    // Bruno's care plan is deleted: he has an assessment and nothing after it.
    let bruno_assessment = assess(store, &staff, "2026-11-06T14:00:00Z", &bruno, "Bruno Bell");
    store.set_now(Some(at("2026-11-06T15:00:00Z")));
    let mut plan = store.care_plan_prefill(&bruno_assessment).unwrap().plan;
    plan.family_contact_email = "bell@example.com".into();
    let bruno_plan = store
        .create_care_plan(&staff, Some(&bruno_assessment), plan)
        .unwrap();
    store.delete_care_plan(&admin, &bruno_plan.id).unwrap();
    let kept = kept_equal_the_records(&path, "Bruno's care plan deleted");
    assert_eq!(
        minute(&kept, &bruno, ASSESSMENT).as_deref(),
        Some("2026-11-06T14:00")
    );
    assert_eq!(minute(&kept, &bruno, CARE_PLAN), None);

    // Records moved to another client count for both; a purged call stops counting.
    let conn = Connection::open(&path).unwrap();
    conn.execute(
        "UPDATE contracts SET intake_id = ?2 WHERE id = ?1",
        [contract.id.as_str(), bruno.as_str()],
    )
    .unwrap();
    let kept = kept_equal_the_records(&path, "the contract moved to Bruno");
    assert_eq!(minute(&kept, &alma, CONTRACT), None);
    assert_eq!(minute(&kept, &alma, SIGNED), None);
    assert_eq!(
        minute(&kept, &bruno, SIGNED).as_deref(),
        Some("2026-11-12T14:00")
    );
    conn.execute(
        "UPDATE contracts SET intake_id = ?2 WHERE id = ?1",
        [contract.id.as_str(), alma.as_str()],
    )
    .unwrap();
    conn.execute(
        "UPDATE communications SET intake_id = ?2 WHERE id = ?1",
        [sms.id.as_str(), bruno.as_str()],
    )
    .unwrap();
    let kept = kept_equal_the_records(&path, "the text moved to Bruno");
    assert_eq!(
        minute(&kept, &alma, CONTACT).as_deref(),
        Some("2026-11-03T20:00")
    );
    assert_eq!(
        minute(&kept, &bruno, CONTACT).as_deref(),
        Some("2026-11-03T19:00")
    );
    conn.execute(
        "DELETE FROM communications WHERE id = ?1",
        [call.id.as_str()],
    )
    .unwrap();
    let kept = kept_equal_the_records(&path, "the call purged");
    assert_eq!(minute(&kept, &alma, CONTACT), None);
    drop(conn);

    // The report reads the kept moments: Alma's assessment counts from the second one,
    // Bruno was contacted after 5 hours and Alma never was.
    store.set_now(Some(now()));
    let range =
        AnalyticsRange::parse(Some("2026-11-01"), Some("2026-11-22"), date(2026, 11, 22)).unwrap();
    let report = store.analytics(range).unwrap();
    let funnel: Vec<i64> = report.funnel.iter().map(|step| step.count).collect();
    assert_eq!(funnel, [2, 2, 1, 1, 1]);
    let durations: Vec<(i64, Option<f64>)> = report
        .durations
        .iter()
        .map(|d| (d.clients, d.median_days))
        .collect();
    assert_eq!(durations, [(2, Some(3.0)), (1, Some(5.0)), (1, Some(10.0))]);
    assert_eq!(report.speed_to_lead.contacted, 1);
    assert_eq!(report.speed_to_lead.median_hours, Some(5.0));
    let waiting: Vec<&str> = report
        .speed_to_lead
        .waiting
        .iter()
        .map(|client| client.client_name.as_str())
        .collect();
    assert_eq!(waiting, ["Alma Arden"]);
}

/// A record table and the columns a write may change in it.
#[derive(Debug, Clone, Copy)]
enum Table {
    Assessment,
    CarePlan,
    Contract,
    Communication,
}

impl Table {
    fn name(self) -> &'static str {
        match self {
            Table::Assessment => "assessments",
            Table::CarePlan => "care_plan_proposals",
            Table::Contract => "contracts",
            Table::Communication => "communications",
        }
    }

    /// Columns an update may set: the ones the moments depend on and one that is not.
    fn columns(self) -> &'static [&'static str] {
        match self {
            Table::Assessment => &["intake_id", "created_at", "deleted_at", "status"],
            Table::CarePlan => &["intake_id", "created_at", "sent_at", "deleted_at", "status"],
            Table::Contract => &[
                "intake_id",
                "created_at",
                "signed_at",
                "deleted_at",
                "status",
            ],
            Table::Communication => &[
                "intake_id",
                "created_at",
                "sent_at",
                "status",
                "direction",
                "communication_type",
            ],
        }
    }
}

/// One value a write puts in a column; the column decides which part it reads.
#[derive(Debug, Clone)]
struct Value {
    /// One of the case's three clients, or none.
    client: Option<usize>,
    /// One of four moments (ties on purpose), or none.
    moment: Option<u8>,
    pick: u8,
}

#[derive(Debug, Clone)]
enum Write {
    Insert(Table, Vec<Value>),
    Update(Table, usize, Vec<(usize, Value)>),
    Delete(Table, usize),
}

fn table() -> impl Strategy<Value = Table> {
    prop_oneof![
        1 => Just(Table::Assessment),
        1 => Just(Table::CarePlan),
        1 => Just(Table::Contract),
        2 => Just(Table::Communication),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    (
        prop::option::weighted(0.9, 0..3_usize),
        prop::option::of(0..4_u8),
        any::<u8>(),
    )
        .prop_map(|(client, moment, pick)| Value {
            client,
            moment,
            pick,
        })
}

fn write() -> impl Strategy<Value = Write> {
    prop_oneof![
        3 => (table(), prop::collection::vec(value(), 6))
            .prop_map(|(table, values)| Write::Insert(table, values)),
        3 => (table(), any::<usize>(), prop::collection::vec((0..6_usize, value()), 1..4))
            .prop_map(|(table, row, changes)| Write::Update(table, row, changes)),
        1 => (table(), any::<usize>()).prop_map(|(table, row)| Write::Delete(table, row)),
    ]
}

fn moment(index: u8) -> String {
    format!("2026-11-0{}T10:00:00.000Z", 1 + index)
}

/// Applies one write straight to the tables, as any face, import or purge might.
fn apply(
    conn: &Connection,
    case: usize,
    step: usize,
    clients: &[IntakeId],
    rows: &mut [Vec<String>; 4],
    write: &Write,
) {
    let client = |value: &Value| value.client.map(|index| clients[index].as_str().to_owned());
    let pick = |value: &Value, choices: &[&str]| {
        choices[usize::from(value.pick) % choices.len()].to_owned()
    };
    let column_value = |table: Table, column: &str, value: &Value| -> Option<String> {
        match column {
            "intake_id" => client(value),
            "created_at" => Some(moment(value.moment.unwrap_or(0))),
            "sent_at" | "signed_at" | "deleted_at" => value.moment.map(moment),
            "status" => Some(match table {
                Table::Communication => pick(value, &["sent", "delivered", "pending", "failed"]),
                _ => pick(value, &["draft", "completed"]),
            }),
            "direction" => Some(pick(
                value,
                &["outbound", "outbound", "inbound", "internal"],
            )),
            _ => Some(pick(value, &["email", "sms", "phone_log", "note"])),
        }
    };
    match write {
        Write::Insert(table, values) => {
            let index = *table as usize;
            let id = format!("case{case}-write{step}");
            let columns = table.columns();
            let given: Vec<Option<String>> = columns
                .iter()
                .zip(values)
                .map(|(column, value)| column_value(*table, column, value))
                .collect();
            let sql = match table {
                Table::Assessment => format!(
                    "INSERT INTO assessments (id, {}, client_name, form_data, updated_at)
                     VALUES (?1, ?2, ?3, ?4, ?5, 'Test', '{{}}', ?3)",
                    columns.join(", ")
                ),
                Table::CarePlan => format!(
                    "INSERT INTO care_plan_proposals (id, {}, client_name, hourly_rate, updated_at)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'Test', 30, ?3)",
                    columns.join(", ")
                ),
                Table::Contract => format!(
                    "INSERT INTO contracts (id, {}, care_plan_proposal_id, client_name, contract_content, updated_at)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'none', 'Test', '', ?3)",
                    columns.join(", ")
                ),
                Table::Communication => format!(
                    "INSERT INTO communications (id, {}, content, visibility, updated_at)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, '', 'internal', ?3)",
                    columns.join(", ")
                ),
            };
            let mut params: Vec<Option<String>> = vec![Some(id.clone())];
            params.extend(given);
            conn.execute(&sql, rusqlite::params_from_iter(params))
                .unwrap();
            rows[index].push(id);
        }
        Write::Update(table, row, changes) => {
            let ids = &rows[*table as usize];
            if ids.is_empty() {
                return;
            }
            let columns = table.columns();
            let mut sets = Vec::new();
            let mut params: Vec<Option<String>> = vec![Some(ids[row % ids.len()].clone())];
            for (column, value) in changes {
                let column = columns[column % columns.len()];
                params.push(column_value(*table, column, value));
                sets.push(format!("{column} = ?{}", params.len()));
            }
            conn.execute(
                &format!(
                    "UPDATE {} SET {} WHERE id = ?1",
                    table.name(),
                    sets.join(", ")
                ),
                rusqlite::params_from_iter(params),
            )
            .unwrap();
        }
        Write::Delete(table, row) => {
            let ids = &mut rows[*table as usize];
            if ids.is_empty() {
                return;
            }
            let id = ids.remove(row % ids.len());
            conn.execute(&format!("DELETE FROM {} WHERE id = ?1", table.name()), [id])
                .unwrap();
        }
    }
}

/// Any sequence of inserts, updates (several columns at once, the client included) and
/// deletes leaves the kept moments equal to the records', and a write that changes no
/// moment does not rewrite the intake row.
#[test]
fn analytics_first_steps_equal_the_records_after_any_writes() {
    let test = open();
    let staff = test.staff.clone();
    let path = test.store.path().to_owned();
    let store = RefCell::new(test.store);
    let conn = Connection::open(&path).unwrap();
    // Counts the trigger writes that left every moment as it was.
    // Contracts here point at no care plan: the writes are the rows the moments read.
    conn.execute_batch(
        "PRAGMA foreign_keys = OFF;
         CREATE TEMP TABLE idle_writes (n INTEGER);
         CREATE TEMP TRIGGER idle_writes AFTER UPDATE OF first_assessment_at, first_care_plan_at,
             first_proposal_sent_at, first_contract_at, first_signed_at, first_contact_at ON main.intakes
         WHEN (old.first_assessment_at, old.first_care_plan_at, old.first_proposal_sent_at,
               old.first_contract_at, old.first_signed_at, old.first_contact_at)
           IS (new.first_assessment_at, new.first_care_plan_at, new.first_proposal_sent_at,
               new.first_contract_at, new.first_signed_at, new.first_contact_at) BEGIN
             INSERT INTO idle_writes VALUES (1);
         END;",
    )
    .unwrap();
    let cases = RefCell::new(0_usize);
    let config = Config {
        cases: 96,
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner = TestRunner::new(config);
    runner
        .run(&prop::collection::vec(write(), 1..80), |writes| {
            let case = {
                let mut cases = cases.borrow_mut();
                *cases += 1;
                *cases
            };
            let clients: Vec<IntakeId> = (0..3)
                .map(|n| {
                    store
                        .borrow_mut()
                        .create_intake(&staff, intake_form(&format!("Client {case} {n}")))
                        .unwrap()
                        .id
                })
                .collect();
            let mut rows: [Vec<String>; 4] = Default::default();
            for (step, write) in writes.iter().enumerate() {
                apply(&conn, case, step, &clients, &mut rows, write);
                prop_assert_eq!(
                    read(&conn, KEPT),
                    read(&conn, FROM_THE_RECORDS),
                    "{:?}",
                    write
                );
            }
            let idle: i64 = conn
                .query_row("SELECT count(*) FROM idle_writes", [], |row| row.get(0))
                .unwrap();
            prop_assert_eq!(idle, 0);
            Ok(())
        })
        .unwrap();
}
