//! The all-clients page (filters, keyset paging, the seven counts) and the client profile.

use rusqlite::{OptionalExtension, params};
use serde::{Deserialize, Serialize};

use super::intakes::{
    BRIEF_COLUMNS, BRIEF_WIDTH, SUMMARY_COLUMNS, SearchFields, brief_from_row, search_filter,
    summary_from_row,
};
use super::paging::{Filters, Keyset, Page, PageStatement, bind, encode_cursor, page_limit};
use super::{Store, position, ts};
use crate::error::{Error, Result};
use crate::model::{
    ArchiveStatus, Assessment, CarePlan, Contract, IntakeBrief, IntakeId, IntakeStatus,
    IntakeSummary, Owner, PipelinePosition, Stage, UserId,
};
use crate::rules::clock::AgencyClock;
use crate::rules::journey::{
    JourneyMark, JourneyStep, furthest_form_route, journey, journey_marks,
};
use crate::rules::pipeline::{NEVER_OVERDUE, finished};
use crate::rules::stage::{ClientUrgency, client_urgency, past_stage_alert, stage_alert_cutoff};

/// The stage filter of the clients list; `Archived` is "Archived / Declined".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum StageFilter {
    Intake,
    Assessment,
    CarePlan,
    Contract,
    Archived,
}

impl StageFilter {
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "intake" => Some(StageFilter::Intake),
            "assessment" => Some(StageFilter::Assessment),
            "care_plan" | "care-plan" => Some(StageFilter::CarePlan),
            "contract" => Some(StageFilter::Contract),
            "archived" => Some(StageFilter::Archived),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum ClientSort {
    #[default]
    Newest,
    Name,
}

/// Whose clients a list shows: one member of staff's ("Mine" is the signed-in user's), or
/// the unassigned ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OwnerFilter {
    User(UserId),
    Unassigned,
}

impl OwnerFilter {
    /// Reads a list's `owner` parameter: `me` (the signed-in user), `unassigned`, or a
    /// user's id; empty is everyone's.
    pub fn parse(text: Option<&str>, me: &UserId) -> Option<Self> {
        match text.map(str::trim) {
            None | Some("") => None,
            Some("me") => Some(OwnerFilter::User(me.clone())),
            Some("unassigned") => Some(OwnerFilter::Unassigned),
            Some(id) => Some(OwnerFilter::User(UserId::from(id))),
        }
    }

    /// The owner id its clients carry, `''` standing for nobody as `owner_counts` keeps it.
    fn tally_key(&self) -> &str {
        match self {
            OwnerFilter::User(user_id) => user_id.as_str(),
            OwnerFilter::Unassigned => "",
        }
    }
}

#[derive(Debug, Clone, Default)]
pub struct ClientQuery {
    pub owner: Option<OwnerFilter>,
    pub stage: Option<StageFilter>,
    pub urgency: Option<ClientUrgency>,
    pub search: Option<String>,
    pub sort: ClientSort,
    pub cursor: Option<String>,
    pub limit: Option<u32>,
}

/// The seven count cards.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClientCounts {
    pub total: i64,
    pub intake: i64,
    pub assessment: i64,
    pub care_plan: i64,
    pub contract: i64,
    pub overdue: i64,
    pub archived: i64,
}

/// One row of the clients list, as core's callers read it. The API sends only what the
/// list shows ([`ClientRowAnswer`]); the rest orders the pages and opens the records.
#[derive(Debug, Clone, PartialEq)]
pub struct ClientRow {
    pub intake: IntakeBrief,
    pub urgency: ClientUrgency,
    /// The four dots: which steps have a record.
    pub journey: [JourneyMark; 4],
    /// The furthest existing stage's form.
    pub view_route: String,
    /// When the client became (or becomes) overdue.
    pub overdue_at: String,
    /// Declined or not interested, as staff marked the lead; None while it is live.
    pub archive_status: Option<ArchiveStatus>,
    pub archive_reason: Option<String>,
    pub archived_at: Option<String>,
    /// In its stage more than Settings → Workflow's stage alert days (never when archived).
    pub stage_alert: bool,
    /// The owner's name (a disabled user's too); None while nobody owns the client.
    pub owner_name: Option<String>,
    /// The full position, for the faces that open a row's latest records.
    pub position: PipelinePosition,
}

/// The status line as the clients list shows it.
#[derive(Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClientRowStatus<'a> {
    /// The status in words, without any warning sign.
    pub label: &'a str,
    pub next_action: &'a str,
    pub overdue: bool,
    /// Whole calendar days since the client entered its current stage.
    pub days_in_stage: i64,
}

/// A clients row as the API sends it: the list's columns and nothing else. A page of 50
/// is read on every visit to the list, so each byte not shown is left out.
#[derive(Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClientRowAnswer<'a> {
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub id: &'a IntakeId,
    pub client_full_name: &'a str,
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub age: Option<u32>,
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub last_contact_date: Option<&'a str>,
    pub stage: Stage,
    pub archived: bool,
    pub pipeline: ClientRowStatus<'a>,
    pub urgency: ClientUrgency,
    /// The stages whose record exists, in the pipeline's order: the journey's filled dots.
    #[serde(serialize_with = "completed_stages")]
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<Stage>))]
    pub journey_done: &'a [JourneyMark; 4],
    /// The furthest existing stage's form.
    pub view_route: &'a str,
    /// Declined or not interested, as staff marked the lead; null while it is live.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub archive_status: Option<ArchiveStatus>,
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub archive_reason: Option<&'a str>,
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub archived_at: Option<&'a str>,
    /// In its stage more than Settings → Workflow's stage alert days (never when archived).
    pub stage_alert: bool,
    /// The coordinator who owns the client; null while nobody does.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub owner_name: Option<&'a str>,
}

impl<'a> From<&'a ClientRow> for ClientRowAnswer<'a> {
    fn from(row: &'a ClientRow) -> Self {
        let intake = &row.intake;
        ClientRowAnswer {
            id: &intake.id,
            client_full_name: &intake.client_full_name,
            age: intake.age,
            last_contact_date: intake.last_contact_date.as_deref(),
            stage: intake.stage,
            archived: intake.archived,
            pipeline: ClientRowStatus {
                label: &intake.pipeline.label,
                next_action: &intake.pipeline.next_action,
                overdue: intake.pipeline.overdue,
                days_in_stage: intake.pipeline.days_in_stage,
            },
            urgency: row.urgency,
            journey_done: &row.journey,
            view_route: &row.view_route,
            archive_status: row.archive_status,
            archive_reason: row.archive_reason.as_deref(),
            archived_at: row.archived_at.as_deref(),
            stage_alert: row.stage_alert,
            owner_name: row.owner_name.as_deref(),
        }
    }
}

impl Serialize for ClientRow {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        ClientRowAnswer::from(self).serialize(serializer)
    }
}

// The OpenAPI document describes a row as it is sent.
#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for ClientRow {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        <ClientRowAnswer<'static> as utoipa::PartialSchema>::schema()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for ClientRow {
    fn name() -> std::borrow::Cow<'static, str> {
        std::borrow::Cow::Borrowed("ClientRow")
    }

    fn schemas(
        schemas: &mut Vec<(
            String,
            utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
        )>,
    ) {
        <ClientRowAnswer<'static> as utoipa::ToSchema>::schemas(schemas);
    }
}

/// Writes the journey as the stages done: four objects a row were a tenth of a page.
fn completed_stages<S: serde::Serializer>(
    journey: &&[JourneyMark; 4],
    serializer: S,
) -> std::result::Result<S::Ok, S::Error> {
    serializer.collect_seq(
        journey
            .iter()
            .filter(|mark| mark.complete)
            .map(|mark| mark.stage),
    )
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClientPage {
    pub items: Vec<ClientRow>,
    pub next_cursor: Option<String>,
    pub counts: ClientCounts,
}

/// Everything the client profile shows.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClientProfile {
    pub intake: IntakeSummary,
    pub urgency: ClientUrgency,
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<JourneyStep>))]
    pub journey: [JourneyStep; 4],
    pub view_route: String,
    /// Declined or not interested, as staff marked the lead; null while it is live.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub archive_status: Option<ArchiveStatus>,
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub archive_reason: Option<String>,
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub archived_at: Option<String>,
    /// In its stage more than Settings → Workflow's stage alert days.
    pub stage_alert: bool,
    /// The coordinator who owns the client (a disabled user is still named); null while
    /// nobody does.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub owner: Option<Owner>,
    pub assessment: Option<Assessment>,
    pub care_plan: Option<CarePlan>,
    pub contract: Option<Contract>,
    pub contacts_count: i64,
}

/// The order a clients page is read in. The urgency filters read along their own index:
/// most overdue first, or longest in the stage first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PageOrder {
    Newest,
    Name,
    MostOverdue,
    LongestInStage,
}

impl PageOrder {
    fn of(query: &ClientQuery) -> Self {
        match (query.sort, query.urgency) {
            (ClientSort::Name, _) => PageOrder::Name,
            (_, Some(ClientUrgency::Overdue)) => PageOrder::MostOverdue,
            (_, Some(_)) => PageOrder::LongestInStage,
            (_, None) => PageOrder::Newest,
        }
    }

    fn keyset(self) -> Keyset {
        match self {
            PageOrder::Newest => Keyset::intakes_descending("created_at"),
            PageOrder::Name => Keyset::intakes_ascending("client_full_name"),
            PageOrder::MostOverdue => Keyset::intakes_ascending("overdue_at"),
            PageOrder::LongestInStage => Keyset::intakes_ascending("stage_entered_at"),
        }
    }
}

const JOURNEY_COLUMNS: &str = "latest_assessment_at, latest_care_plan_at, latest_contract_at, \
    overdue_at, archive_reason, archived_at";

/// What a list row reads after [`BRIEF_COLUMNS`].
const LIST_COLUMNS: &str = "overdue_at, archive_reason, archived_at, \
    (SELECT u.full_name FROM users u WHERE u.id = owner_id)";

/// The archive fields of a row: the status from the intake's, the reason and moment from
/// the columns at `at` and `at + 1`.
type Archive = (Option<ArchiveStatus>, Option<String>, Option<String>);

fn read_archive(row: &rusqlite::Row<'_>, status: &str, at: usize) -> rusqlite::Result<Archive> {
    let status = ArchiveStatus::parse(status);
    if status.is_none() {
        return Ok((None, None, None));
    }
    Ok((status, row.get(at)?, row.get(at + 1)?))
}

fn urgency_of(
    position: &PipelinePosition,
    pipeline: &crate::model::PipelineStatus,
) -> ClientUrgency {
    client_urgency(
        position.archived,
        finished(position.latest_contract_status),
        pipeline.overdue,
        pipeline.days_in_stage,
    )
}

/// Whether a client is in its stage longer than the stage alert allows (`cutoff`, from
/// [`Store::stage_alert_cutoff`]).
fn stage_alert_of(position: &PipelinePosition, cutoff: &str) -> bool {
    past_stage_alert(
        position.archived,
        finished(position.latest_contract_status),
        &position.stage_entered_at,
        cutoff,
    )
}

fn view_route_of(intake_id: &IntakeId, position: &PipelinePosition) -> String {
    furthest_form_route(
        intake_id,
        position.latest_assessment_id.as_ref(),
        position.latest_care_plan_id.as_ref(),
        position.latest_contract_id.as_ref(),
    )
}

/// Maps a row of [`BRIEF_COLUMNS`] and [`LIST_COLUMNS`].
fn client_row(row: &rusqlite::Row<'_>, clock: &AgencyClock) -> rusqlite::Result<ClientRow> {
    let (intake, position) = brief_from_row(row, clock)?;
    let status: IntakeStatus = row.get(BRIEF_WIDTH - 1)?;
    let (archive_status, archive_reason, archived_at) =
        read_archive(row, status.as_str(), BRIEF_WIDTH + 1)?;
    Ok(ClientRow {
        urgency: urgency_of(&position, &intake.pipeline),
        journey: journey_marks(
            position.latest_assessment_id.is_some(),
            position.latest_care_plan_id.is_some(),
            position.latest_contract_id.is_some(),
        ),
        view_route: view_route_of(&intake.id, &position),
        overdue_at: row.get(BRIEF_WIDTH)?,
        archive_status,
        archive_reason,
        archived_at,
        stage_alert: false,
        owner_name: row.get(BRIEF_WIDTH + 3)?,
        intake,
        position,
    })
}

/// Maps a row of [`SUMMARY_COLUMNS`] and [`JOURNEY_COLUMNS`] to a profile without its
/// records.
fn profile_row(row: &rusqlite::Row<'_>, clock: &AgencyClock) -> rusqlite::Result<ClientProfile> {
    let intake = summary_from_row(row, clock)?;
    let assessment_at: Option<String> = row.get(26)?;
    let care_plan_at: Option<String> = row.get(27)?;
    let contract_at: Option<String> = row.get(28)?;
    let (archive_status, archive_reason, archived_at) =
        read_archive(row, intake.status.as_str(), 30)?;
    let position = &intake.position;
    let journey = journey(
        &intake.id,
        &intake.created_at,
        position
            .latest_assessment_id
            .as_ref()
            .zip(assessment_at.as_deref()),
        position
            .latest_care_plan_id
            .as_ref()
            .zip(care_plan_at.as_deref()),
        position
            .latest_contract_id
            .as_ref()
            .zip(contract_at.as_deref()),
    );
    Ok(ClientProfile {
        urgency: urgency_of(position, &intake.pipeline),
        view_route: view_route_of(&intake.id, position),
        journey,
        archive_status,
        archive_reason,
        archived_at,
        stage_alert: false,
        owner: None,
        assessment: None,
        care_plan: None,
        contract: None,
        contacts_count: 0,
        intake,
    })
}

/// The WHERE conditions of the clients list's stage, urgency and search filters, with
/// their values appended to `values` (placeholders are numbered after what is there).
/// The list pages and the clients export both filter through here.
pub(crate) fn client_conditions(
    stage: Option<StageFilter>,
    urgency: Option<ClientUrgency>,
    search: Option<&str>,
    clock: &AgencyClock,
    values: &mut Vec<String>,
) -> Result<Vec<String>> {
    let mut conditions = Vec::new();
    match stage {
        None => {}
        Some(StageFilter::Archived) => conditions.push("archived = 1".to_owned()),
        Some(stage) => {
            let name = match stage {
                StageFilter::Intake => Stage::Intake,
                StageFilter::Assessment => Stage::Assessment,
                StageFilter::CarePlan => Stage::CarePlan,
                _ => Stage::Contract,
            };
            let p = bind(name.as_str().to_owned(), values);
            conditions.push(format!("archived = 0 AND stage = {p}"));
        }
    }
    if let Some(urgency) = urgency {
        let now = bind(ts(clock.now()), values);
        if stage.is_none() {
            conditions.push("archived = 0".to_owned());
        }
        // A finished client (its overdue moment is never) is in no urgency list: the
        // Overdue filter leaves it out by its moment, the others say so.
        match urgency {
            ClientUrgency::Overdue => conditions.push(format!("overdue_at < {now}")),
            ClientUrgency::DueSoon => {
                let never = bind(ts(NEVER_OVERDUE), values);
                let cut3 = bind(ts(position::stage_cut(clock, 3)), values);
                // Implied by overdue_at >= now, but stated so the index can seek.
                let cut5 = bind(ts(position::stage_cut(clock, 5)), values);
                conditions.push(format!(
                    "overdue_at >= {now} AND overdue_at < {never} \
                     AND stage_entered_at >= {cut5} AND stage_entered_at < {cut3}"
                ));
            }
            ClientUrgency::OnTrack => {
                let never = bind(ts(NEVER_OVERDUE), values);
                let cut3 = bind(ts(position::stage_cut(clock, 3)), values);
                conditions.push(format!(
                    "overdue_at >= {now} AND overdue_at < {never} AND stage_entered_at >= {cut3}"
                ));
            }
        }
    }
    if let Some(term) = search.filter(|t| !t.trim().is_empty()) {
        match search_filter(term, SearchFields::Clients, values.len() + 1)? {
            Some(filter) => {
                values.extend(filter.params);
                conditions.push(filter.sql);
            }
            // One character cannot be searched; show nothing rather than everything.
            None => conditions.push("0".to_owned()),
        }
    }
    Ok(conditions)
}

/// The statement of one clients page. Filtering and paging are in the WHERE clause so
/// each page is an index range, whatever its position.
fn page_statement(query: &ClientQuery, clock: &AgencyClock, limit: u32) -> Result<PageStatement> {
    let mut filters = Filters::new("deleted_at IS NULL");
    let conditions = client_conditions(
        query.stage,
        query.urgency,
        query.search.as_deref(),
        clock,
        &mut filters.values,
    )?;
    filters.conditions.extend(conditions);
    match &query.owner {
        None => {}
        Some(OwnerFilter::User(user_id)) => filters.equal("owner_id", Some(user_id.as_str())),
        Some(OwnerFilter::Unassigned) => filters.push("owner_id IS NULL"),
    }
    filters.page(
        &format!("SELECT {BRIEF_COLUMNS}, {LIST_COLUMNS} FROM intakes"),
        PageOrder::of(query).keyset(),
        query.cursor.as_deref(),
        limit,
    )
}

impl Store {
    /// One page of the clients list. Filtering, counting and paging happen in SQL on
    /// indexes; a page costs the same wherever it is in the list.
    pub fn clients_page(&self, query: &ClientQuery) -> Result<ClientPage> {
        self.snapshot(|| {
            let clock = self.clock()?;
            let counts = match &query.owner {
                None => self.client_counts(&clock)?,
                Some(owner) => self.owner_counts(owner, &clock)?,
            };
            let order = PageOrder::of(query);
            let Page {
                mut items,
                next_cursor,
            } = page_statement(query, &clock, page_limit(query.limit))?.read(
                self.conn(),
                |row| client_row(row, &clock),
                |row| {
                    let key = match order {
                        PageOrder::Newest => &row.intake.created_at,
                        PageOrder::Name => &row.intake.client_full_name,
                        PageOrder::MostOverdue => &row.overdue_at,
                        PageOrder::LongestInStage => &row.position.stage_entered_at,
                    };
                    (key, row.intake.id.as_str())
                },
            )?;
            let cutoff = self.stage_alert_cutoff(&clock)?;
            for row in &mut items {
                row.stage_alert = stage_alert_of(&row.position, &cutoff);
            }
            Ok(ClientPage {
                items,
                next_cursor,
                counts,
            })
        })
    }

    /// The stage alert's cutoff as stored-time text: entering a stage before it means
    /// staying more than the setting's days.
    pub(crate) fn stage_alert_cutoff(&self, clock: &AgencyClock) -> Result<String> {
        let days = self.settings()?.workflow.stage_alert_days;
        Ok(ts(stage_alert_cutoff(clock.now(), days)))
    }

    fn client_counts(&self, clock: &AgencyClock) -> Result<ClientCounts> {
        let mut counts = ClientCounts::default();
        let mut statement = self
            .conn()
            .prepare_cached("SELECT archived, stage, n FROM intake_counts")?;
        let rows = statement.query_map([], |row| {
            Ok((
                row.get::<_, bool>(0)?,
                row.get::<_, String>(1)?,
                row.get::<_, i64>(2)?,
            ))
        })?;
        for row in rows {
            let (archived, stage, n) = row?;
            counts.total += n;
            if archived {
                counts.archived += n;
                continue;
            }
            match stage.as_str() {
                "intake" => counts.intake += n,
                "assessment" => counts.assessment += n,
                "care_plan" => counts.care_plan += n,
                _ => counts.contract += n,
            }
        }
        counts.overdue = self.overdue_count(clock.now())?;
        Ok(counts)
    }

    /// The seven counts of one owner's clients: the stage counts from `owner_counts`, the
    /// overdue one along `intakes_owner_overdue` (that owner's overdue clients only).
    fn owner_counts(&self, owner: &OwnerFilter, clock: &AgencyClock) -> Result<ClientCounts> {
        let mut counts = ClientCounts::default();
        let mut statement = self
            .conn()
            .prepare_cached("SELECT archived, stage, n FROM owner_counts WHERE owner_id = ?1")?;
        let rows = statement.query_map([owner.tally_key()], |row| {
            Ok((
                row.get::<_, bool>(0)?,
                row.get::<_, String>(1)?,
                row.get::<_, i64>(2)?,
            ))
        })?;
        for row in rows {
            let (archived, stage, n) = row?;
            counts.total += n;
            if archived {
                counts.archived += n;
                continue;
            }
            match stage.as_str() {
                "intake" => counts.intake += n,
                "assessment" => counts.assessment += n,
                "care_plan" => counts.care_plan += n,
                _ => counts.contract += n,
            }
        }
        let now = ts(clock.now());
        counts.overdue = match owner {
            OwnerFilter::User(user_id) => super::query_row(
                self.conn(),
                "SELECT count(*) FROM intakes
                 WHERE owner_id = ?1 AND archived = 0 AND overdue_at < ?2 AND deleted_at IS NULL",
                params![user_id, now],
                |row| row.get(0),
            )?,
            OwnerFilter::Unassigned => super::query_row(
                self.conn(),
                "SELECT count(*) FROM intakes
                 WHERE owner_id IS NULL AND archived = 0 AND overdue_at < ?1 AND deleted_at IS NULL",
                [now],
                |row| row.get(0),
            )?,
        };
        Ok(counts)
    }

    /// The client profile: the intake, its journey and its latest records.
    pub fn client_profile(&self, id: &IntakeId) -> Result<ClientProfile> {
        let clock = self.clock()?;
        let sql = format!(
            "SELECT {SUMMARY_COLUMNS}, {JOURNEY_COLUMNS} FROM intakes WHERE id = ?1 AND deleted_at IS NULL"
        );
        let mut profile = super::query_row(self.conn(), &sql, [id], |row| profile_row(row, &clock))
            .optional()?
            .ok_or_else(|| Error::not_found("client", id))?;
        let cutoff = self.stage_alert_cutoff(&clock)?;
        let position = &profile.intake.position;
        profile.stage_alert = stage_alert_of(position, &cutoff);
        profile.assessment = match &position.latest_assessment_id {
            Some(assessment_id) => Some(self.get_assessment(assessment_id)?),
            None => None,
        };
        profile.care_plan = match &position.latest_care_plan_id {
            Some(care_plan_id) => Some(self.get_care_plan(care_plan_id)?),
            None => None,
        };
        profile.contract = match &position.latest_contract_id {
            Some(contract_id) => Some(self.get_contract(contract_id)?),
            None => None,
        };
        profile.contacts_count = self.contact_count(id)?;
        profile.owner = self.client_owner(id)?;
        Ok(profile)
    }
}

impl Store {
    /// The query plan of a clients page filtered by stage and urgency, to show which
    /// index it reads.
    pub fn explain_clients_page(
        &self,
        stage: Stage,
        urgency: ClientUrgency,
    ) -> Result<Vec<String>> {
        let stage = match stage {
            Stage::Intake => StageFilter::Intake,
            Stage::Assessment => StageFilter::Assessment,
            Stage::CarePlan => StageFilter::CarePlan,
            Stage::Contract => StageFilter::Contract,
        };
        let query = ClientQuery {
            stage: Some(stage),
            urgency: Some(urgency),
            cursor: Some(encode_cursor(&["", ""])),
            ..ClientQuery::default()
        };
        let statement = page_statement(&query, &self.clock()?, page_limit(None))?;
        let params: Vec<&dyn rusqlite::ToSql> = statement
            .values
            .iter()
            .map(|v| v as &dyn rusqlite::ToSql)
            .collect();
        self.explain(&statement.sql, &params)
    }
}
