//! The one state of the TUI: the open screen, the screens to go back to, overlays and
//! the message line. Only `update` changes it; views only read it.

use std::time::{Duration, Instant};

use anyhow::{Context as _, anyhow};
use carepath_core::model::{
    Actor, ArchiveStatus, Assessment, CarePlan, Channel, Communication, Contact, Contract, Intake,
    IntakeBrief, IntakeId, IntakeSummary, User,
};
use carepath_core::rules::stage::ClientUrgency;
use carepath_core::store::{
    AssessmentStats, ClientCounts, ClientProfile, ClientRow, ContractStats, Dashboard, Store,
};
use jiff::tz::TimeZone;

use crate::form::FormState;
use crate::keymap::Context;
use crate::theme::Theme;

/// How long a toast stays (the spec's 5000 ms).
pub const TOAST_FOR: Duration = Duration::from_secs(5);

/// Rows a list asks core for at a time.
pub const PAGE_SIZE: u32 = 50;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToastKind {
    Success,
    Error,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Toast {
    pub text: String,
    pub kind: ToastKind,
    pub shown_at: Instant,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct DashboardState {
    pub data: Option<Dashboard>,
    /// Today's scheduled assessment visits, soonest first.
    pub visits: Vec<carepath_core::model::AssessmentVisit>,
    /// The signed-in user's queue for today, most late first.
    pub queue: Vec<carepath_core::model::QueueItem>,
    /// More rows are due than the queue holds (its title reads `(25+)`, as the web's card).
    pub queue_more: bool,
    /// Index over the follow-ups, then the recent activity rows.
    pub selected: usize,
}

impl DashboardState {
    pub fn rows(&self) -> Vec<&IntakeBrief> {
        match &self.data {
            Some(data) => data
                .follow_ups_due_today
                .iter()
                .chain(data.recent_activity.iter())
                .collect(),
            None => Vec::new(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListKind {
    Clients,
    Assessments,
    CarePlans,
    Contracts,
    /// Scheduled assessment visits from today on, soonest first.
    Visits,
}

impl ListKind {
    pub fn title(self) -> &'static str {
        match self {
            ListKind::Clients => "Clients",
            ListKind::Assessments => "Assessments",
            ListKind::CarePlans => "Care Plans",
            ListKind::Contracts => "Contracts",
            ListKind::Visits => "Assessment Visits",
        }
    }
}

/// The loaded rows of a list, as core returns them.
#[derive(Debug, Clone, PartialEq)]
pub enum ListRows {
    Clients(Vec<ClientRow>),
    Assessments(Vec<Assessment>),
    CarePlans(Vec<CarePlan>),
    Contracts(Vec<Contract>),
    Visits(Vec<carepath_core::model::AssessmentVisit>),
}

impl ListRows {
    pub fn len(&self) -> usize {
        match self {
            ListRows::Clients(rows) => rows.len(),
            ListRows::Assessments(rows) => rows.len(),
            ListRows::CarePlans(rows) => rows.len(),
            ListRows::Contracts(rows) => rows.len(),
            ListRows::Visits(rows) => rows.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The client (intake) a row belongs to.
    pub fn intake_id(&self, index: usize) -> Option<IntakeId> {
        match self {
            ListRows::Clients(rows) => rows.get(index).map(|row| row.intake.id.clone()),
            ListRows::Assessments(rows) => rows.get(index).and_then(|row| row.intake_id.clone()),
            ListRows::CarePlans(rows) => rows.get(index).and_then(|row| row.intake_id.clone()),
            ListRows::Contracts(rows) => rows.get(index).and_then(|row| row.intake_id.clone()),
            ListRows::Visits(rows) => rows.get(index).map(|row| row.intake_id.clone()),
        }
    }
}

/// The count cards above a list.
#[derive(Debug, Clone, PartialEq)]
pub enum ListSummary {
    Clients(ClientCounts),
    Assessments(AssessmentStats),
    Contracts(ContractStats),
    None,
}

/// The clients list's stage filter, in the web's order ("All Stages" is None).
pub const STAGE_FILTERS: &[(&str, &str)] = &[
    ("intake", "Intake"),
    ("assessment", "Assessment"),
    ("care_plan", "Care Plan"),
    ("contract", "Contract"),
    ("archived", "Archived / Declined"),
];

#[derive(Debug, Clone, PartialEq)]
pub struct ListState {
    pub kind: ListKind,
    pub rows: ListRows,
    pub summary: ListSummary,
    /// Core's keyset cursor of the next page; None when everything is loaded.
    pub next_cursor: Option<String>,
    /// Contracts are read by a growing limit (core's contracts list has no cursor).
    pub more_contracts: bool,
    pub selected: usize,
    pub search: String,
    pub editing_search: bool,
    /// Index into STAGE_FILTERS.
    pub stage: Option<usize>,
    pub urgency: Option<ClientUrgency>,
}

impl ListState {
    pub fn new(kind: ListKind) -> Self {
        let rows = match kind {
            ListKind::Clients => ListRows::Clients(Vec::new()),
            ListKind::Assessments => ListRows::Assessments(Vec::new()),
            ListKind::CarePlans => ListRows::CarePlans(Vec::new()),
            ListKind::Contracts => ListRows::Contracts(Vec::new()),
            ListKind::Visits => ListRows::Visits(Vec::new()),
        };
        Self {
            kind,
            rows,
            summary: ListSummary::None,
            next_cursor: None,
            more_contracts: false,
            selected: 0,
            search: String::new(),
            editing_search: false,
            stage: None,
            urgency: None,
        }
    }

    pub fn has_more(&self) -> bool {
        self.next_cursor.is_some() || self.more_contracts
    }
}

/// Which quick capture box is open in the client view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CaptureKind {
    Note,
    Call,
    /// The reason a lead is declined or not interested.
    Archive(ArchiveStatus),
}

impl CaptureKind {
    pub fn title(self) -> &'static str {
        match self {
            CaptureKind::Note => "Add Note",
            CaptureKind::Call => "Log Call",
            CaptureKind::Archive(ArchiveStatus::Declined) => "Mark Declined: reason",
            CaptureKind::Archive(ArchiveStatus::NotInterested) => "Mark Not Interested: reason",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Capture {
    pub kind: CaptureKind,
    pub text: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ClientState {
    pub id: IntakeId,
    pub profile: Option<Box<ClientProfile>>,
    pub intake: Option<Box<Intake>>,
    pub contacts: Vec<Contact>,
    pub communications: Vec<Communication>,
    pub capture: Option<Capture>,
}

impl ClientState {
    pub fn new(id: IntakeId) -> Self {
        Self {
            id,
            profile: None,
            intake: None,
            contacts: Vec::new(),
            communications: Vec::new(),
            capture: None,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Screen {
    Dashboard(DashboardState),
    List(ListState),
    Form(Box<FormState>),
    Client(ClientState),
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct SearchState {
    pub term: String,
    pub results: Vec<IntakeSummary>,
    pub selected: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Overlay {
    Help,
    Search(SearchState),
}

pub struct App {
    pub store: Store,
    pub actor: Actor,
    pub user: User,
    pub screen: Screen,
    /// Screens to go back to; reloaded when returned to.
    pub history: Vec<Screen>,
    pub overlay: Option<Overlay>,
    pub toast: Option<Toast>,
    pub theme: Theme,
    /// The agency's zone, for showing stored UTC times.
    pub time_zone: TimeZone,
    /// The last `PRAGMA data_version` seen; a change means another process wrote.
    pub data_version: i64,
    /// Set by a first attempt to leave a form with unsaved changes; a second one leaves.
    pub leave_armed: bool,
    pub quit: bool,
}

impl App {
    /// Acts as the user with `as_email`, else the first admin, on the dashboard, before
    /// anything is read for it (`App::new` in `load.rs` then reads it).
    pub(crate) fn unloaded(
        store: Store,
        as_email: Option<&str>,
        theme: Theme,
    ) -> anyhow::Result<Self> {
        let user = match as_email {
            Some(email) => match store.user_by_email(email) {
                Ok(user) => user,
                Err(carepath_core::Error::NotFound { .. }) => {
                    return Err(anyhow!(
                        "no user with the email {email:?}; see `carepath user list`"
                    ));
                }
                Err(other) => return Err(other).context("cannot read the users"),
            },
            None => store
                .users()
                .context("cannot read the users")?
                .into_iter()
                .find(|user| user.is_admin && !user.disabled)
                .ok_or_else(|| {
                    anyhow!(
                        "the database has no administrator to act as; create one with \
                         `carepath user add --admin` or pass --as EMAIL"
                    )
                })?,
        };
        if user.disabled {
            return Err(anyhow!("the user {} is disabled", user.email));
        }
        let actor = Actor::user(user.id.clone(), Channel::Tui, user.is_admin);
        let time_zone = store
            .clock()
            .context("cannot read the agency settings")?
            .tz()
            .clone();
        let data_version = store.data_version().context("cannot read the database")?;
        Ok(Self {
            store,
            actor,
            user,
            screen: Screen::Dashboard(DashboardState::default()),
            history: Vec::new(),
            overlay: None,
            toast: None,
            theme,
            time_zone,
            data_version,
            leave_armed: false,
            quit: false,
        })
    }

    /// Where keys go right now.
    pub fn context(&self) -> Context {
        match &self.overlay {
            Some(Overlay::Help) => return Context::Help,
            Some(Overlay::Search(_)) => return Context::Search,
            None => {}
        }
        match &self.screen {
            Screen::Dashboard(_) => Context::Dashboard,
            Screen::List(list) if list.editing_search => Context::ListFilter,
            Screen::List(list) if list.kind == ListKind::Clients => Context::ClientsList,
            Screen::List(_) => Context::List,
            Screen::Client(client) if client.capture.is_some() => Context::Capture,
            Screen::Client(_) => Context::Client,
            Screen::Form(form) if form.read_only => Context::FormView,
            Screen::Form(_) => Context::Form,
        }
    }

    pub fn toast(&mut self, kind: ToastKind, text: impl Into<String>) {
        self.toast = Some(Toast {
            text: text.into(),
            kind,
            shown_at: Instant::now(),
        });
    }
}
