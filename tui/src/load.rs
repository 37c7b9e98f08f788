//! Reading what a screen shows through core. Called by `update` (and once by `App::new`); a failed read
//! leaves the screen empty and says so on the message line (as the spec logs and shows
//! an empty list).

use carepath_core::rules::queue::QUEUE_PAGE;
use carepath_core::rules::stage::ClientUrgency;
use carepath_core::store::{
    AssessmentQuery, CarePlanQuery, ClientQuery, ContractQuery, StageFilter, Store, VisitQuery,
};

use crate::app::{
    App, ClientState, ListKind, ListRows, ListState, ListSummary, PAGE_SIZE, STAGE_FILTERS, Screen,
    ToastKind,
};
use crate::theme::Theme;

impl App {
    /// Acts as the user with `as_email`, else the first admin, and opens the dashboard.
    /// Here rather than in `app.rs`, so the app's state does not depend on how it is read.
    pub fn new(store: Store, as_email: Option<&str>, theme: Theme) -> anyhow::Result<Self> {
        let mut app = App::unloaded(store, as_email, theme)?;
        reload(&mut app);
        Ok(app)
    }
}

/// Reloads the current screen from the database (the form is left alone: reloading it
/// would throw away what is being typed).
pub fn reload(app: &mut App) {
    let result = match &mut app.screen {
        Screen::Dashboard(state) => app.store.dashboard().and_then(|data| {
            state.data = Some(data);
            let rows = state.rows().len();
            state.selected = state.selected.min(rows.saturating_sub(1));
            state.visits = todays_visits(&app.store)?;
            let queue = app.store.queue(&app.user.id, QUEUE_PAGE)?;
            state.queue = queue.items;
            state.queue_more = queue.more;
            Ok(())
        }),
        Screen::List(list) => reload_list(&app.store, list),
        Screen::Client(client) => reload_client(&app.store, client),
        Screen::Form(_) => Ok(()),
    };
    if let Err(error) = result {
        app.toast(ToastKind::Error, format!("Failed to load: {error}"));
    }
}

/// Today's scheduled visits in the agency's zone.
fn todays_visits(
    store: &Store,
) -> carepath_core::Result<Vec<carepath_core::model::AssessmentVisit>> {
    let today = store.clock()?.today().to_string();
    let page = store.visits(&VisitQuery {
        from: Some(today.clone()),
        to: Some(today),
        status: Some(carepath_core::model::VisitStatus::Scheduled),
        limit: Some(50),
        ..VisitQuery::default()
    })?;
    Ok(page.items)
}

fn search_term(list: &ListState) -> Option<String> {
    let term = list.search.trim();
    (!term.is_empty()).then(|| term.to_owned())
}

/// Reads the first page again, then as many pages as were loaded before, so a reload
/// keeps the selection in place.
fn reload_list(
    store: &carepath_core::store::Store,
    list: &mut ListState,
) -> carepath_core::Result<()> {
    let wanted = list.rows.len().max(PAGE_SIZE as usize);
    list.next_cursor = None;
    list.rows = match list.kind {
        ListKind::Clients => ListRows::Clients(Vec::new()),
        ListKind::Assessments => ListRows::Assessments(Vec::new()),
        ListKind::CarePlans => ListRows::CarePlans(Vec::new()),
        ListKind::Contracts => ListRows::Contracts(Vec::new()),
        ListKind::Visits => ListRows::Visits(Vec::new()),
    };
    load_page(store, list, None)?;
    while list.rows.len() < wanted && list.next_cursor.is_some() {
        let cursor = list.next_cursor.clone();
        load_page(store, list, cursor)?;
    }
    list.selected = list.selected.min(list.rows.len().saturating_sub(1));
    Ok(())
}

/// Appends the next page, when there is one.
pub fn load_more(app: &mut App) {
    let Screen::List(list) = &mut app.screen else {
        return;
    };
    if !list.has_more() {
        return;
    }
    let cursor = list.next_cursor.clone();
    if let Err(error) = load_page(&app.store, list, cursor) {
        app.toast(ToastKind::Error, format!("Failed to load: {error}"));
    }
}

fn load_page(
    store: &carepath_core::store::Store,
    list: &mut ListState,
    cursor: Option<String>,
) -> carepath_core::Result<()> {
    let search = search_term(list);
    match list.kind {
        ListKind::Clients => {
            let page = store.clients_page(&ClientQuery {
                stage: list
                    .stage
                    .and_then(|index| StageFilter::parse(STAGE_FILTERS[index].0)),
                urgency: list.urgency,
                search,
                cursor,
                limit: Some(PAGE_SIZE),
                ..ClientQuery::default()
            })?;
            list.summary = ListSummary::Clients(page.counts);
            list.next_cursor = page.next_cursor;
            if let ListRows::Clients(rows) = &mut list.rows {
                rows.extend(page.items);
            }
        }
        ListKind::Assessments => {
            let page = store.assessments_page(&AssessmentQuery {
                search,
                cursor,
                limit: Some(PAGE_SIZE),
                ..AssessmentQuery::default()
            })?;
            list.summary = ListSummary::Assessments(page.stats);
            list.next_cursor = page.page.next_cursor;
            if let ListRows::Assessments(rows) = &mut list.rows {
                rows.extend(page.page.items);
            }
        }
        ListKind::CarePlans => {
            let page = store.care_plans_page(&CarePlanQuery {
                search,
                cursor,
                limit: Some(PAGE_SIZE),
                ..CarePlanQuery::default()
            })?;
            list.next_cursor = page.next_cursor;
            if let ListRows::CarePlans(rows) = &mut list.rows {
                rows.extend(page.items);
            }
        }
        ListKind::Contracts => {
            // Contracts are few (one per signed-up client); the list grows by a page
            // at a time through the limit.
            let loaded = list.rows.len() as u32;
            let limit = loaded + PAGE_SIZE;
            let contracts = store.contracts_list(&ContractQuery {
                search,
                limit: Some(limit + 1),
                ..ContractQuery::default()
            })?;
            list.summary = ListSummary::Contracts(contracts.stats);
            let mut items = contracts.items;
            list.more_contracts = items.len() > limit as usize;
            items.truncate(limit as usize);
            list.rows = ListRows::Contracts(items);
        }
        ListKind::Visits => {
            let page = store.visits(&VisitQuery {
                from: Some(store.clock()?.today().to_string()),
                status: Some(carepath_core::model::VisitStatus::Scheduled),
                cursor,
                limit: Some(PAGE_SIZE),
                ..VisitQuery::default()
            })?;
            list.next_cursor = page.next_cursor;
            if let ListRows::Visits(rows) = &mut list.rows {
                rows.extend(page.items);
            }
        }
    }
    Ok(())
}

fn reload_client(
    store: &carepath_core::store::Store,
    client: &mut ClientState,
) -> carepath_core::Result<()> {
    client.profile = Some(Box::new(store.client_profile(&client.id)?));
    client.intake = Some(Box::new(store.get_intake(&client.id)?));
    client.contacts = store.contacts(&client.id)?;
    client.communications = store.latest_communications(&client.id)?;
    Ok(())
}

/// The next urgency filter: All → Overdue → Due Soon → On Track → All.
pub fn next_urgency(current: Option<ClientUrgency>) -> Option<ClientUrgency> {
    let all = ClientUrgency::ALL;
    match current {
        None => Some(all[0]),
        Some(urgency) => {
            let at = all.iter().position(|u| *u == urgency).unwrap_or(0);
            all.get(at + 1).copied()
        }
    }
}
