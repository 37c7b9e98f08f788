//! CSV downloads of every list, streamed from core's export (the same one the CLI's
//! `carepath export` uses): the spec's quoting and list joins, formula-safe cells.

use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use carepath_core::export::{ExportKind, ExportOptions, ListFilter, parse_since};
use carepath_core::rules::stage::ClientUrgency;
use carepath_core::store::{AssessmentFilter, StageFilter};
use serde::Deserialize;
use tokio::sync::mpsc;
use utoipa::IntoParams;

use crate::AppState;
use crate::error::{ApiResult, ErrorBody};
use crate::extract::ApiQuery;
use crate::routes::ApiRoutes;
use crate::session::CurrentUser;

pub fn routes(routes: ApiRoutes) -> ApiRoutes {
    routes
        .add::<__path_intakes, _, _>(intakes)
        .add::<__path_clients, _, _>(clients)
        .add::<__path_assessments, _, _>(assessments)
        .add::<__path_care_plans, _, _>(care_plans)
        .add::<__path_contracts, _, _>(contracts)
        .add::<__path_communications, _, _>(communications)
        .add::<__path_contacts, _, _>(contacts)
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ExportParams {
    /// Only rows created or changed since: a date, `today`, `yesterday`, `7d` or a time.
    pub since: Option<String>,
    /// Also deleted records (admin).
    #[serde(default)]
    pub include_deleted: bool,
}

/// The clients export takes the all-clients list's filters, so Export to CSV downloads
/// what the list shows.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ClientExportParams {
    /// Only rows created or changed since: a date, `today`, `yesterday`, `7d` or a time.
    pub since: Option<String>,
    /// Also deleted records (admin).
    #[serde(default)]
    pub include_deleted: bool,
    /// `intake`, `assessment`, `care_plan`, `contract` or `archived`.
    pub stage: Option<StageFilter>,
    /// `overdue`, `due_soon` or `on_track`.
    pub urgency: Option<ClientUrgency>,
    /// Client name, caller name or caller phone.
    pub q: Option<String>,
}

/// The assessments export takes the assessments list's filters.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AssessmentExportParams {
    /// Only rows created or changed since: a date, `today`, `yesterday`, `7d` or a time.
    pub since: Option<String>,
    /// Also deleted records (admin).
    #[serde(default)]
    pub include_deleted: bool,
    /// `draft`, `completed` or `care_plan_generated`.
    pub status: Option<AssessmentFilter>,
    /// Client name.
    pub q: Option<String>,
}

/// Hands the export's bytes from the blocking thread to the response body as they are
/// written, so a large export never sits in memory whole.
struct ChannelWriter {
    sender: mpsc::Sender<std::io::Result<Vec<u8>>>,
}

impl std::io::Write for ChannelWriter {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.sender.blocking_send(Ok(bytes.to_vec())).map_err(|_| {
            std::io::Error::new(std::io::ErrorKind::BrokenPipe, "the download was cancelled")
        })?;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

async fn download(
    state: AppState,
    user: CurrentUser,
    kind: ExportKind,
    params: ExportParams,
    filter: ListFilter,
) -> ApiResult<Response> {
    // Read and check the options first, so a bad `since` is a 422 and a refused
    // export a 403 before any byte is sent.
    let actor = user.actor();
    let (options, file_name) = state
        .db
        .call(move |store| {
            let mut options = ExportOptions {
                since: None,
                include_deleted: params.include_deleted,
                filter,
            };
            options.check_permitted(&actor)?;
            let clock = store.clock()?;
            options.since = params
                .since
                .map(|text| parse_since(&text, &clock))
                .transpose()?;
            Ok((options, store.export_file_name(kind)?))
        })
        .await?;
    let (sender, receiver) = mpsc::channel(8);
    let db = state.db.clone();
    tokio::spawn(async move {
        let failure = sender.clone();
        let result = db
            .call_unbounded(move |store| {
                store.export(kind, &options, &mut ChannelWriter { sender })
            })
            .await;
        if let Err(error) = result {
            tracing::warn!(export = kind.name(), message = %error.message, "export stopped");
            let _ = failure
                .send(Err(std::io::Error::other("the export stopped")))
                .await;
        }
    });
    // Fused: a layer that reads past the end (compression does) gets the end again
    // instead of a panic.
    let body = Body::from_stream(futures_util::StreamExt::fuse(futures_util::stream::unfold(
        receiver,
        |mut receiver| async move { receiver.recv().await.map(|chunk| (chunk, receiver)) },
    )));
    let disposition = HeaderValue::from_str(&format!("attachment; filename=\"{file_name}\""))
        .unwrap_or_else(|_| HeaderValue::from_static("attachment"));
    Ok((
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/csv; charset=utf-8"),
            ),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        body,
    )
        .into_response())
}

macro_rules! csv_download {
    ($handler:ident, $path:tt, $kind:expr, $what:literal) => {
        #[doc = concat!("CSV of ", $what, ", named `{name}_{date}.csv`.")]
        #[utoipa::path(get, path = $path, tag = "exports", params(ExportParams),
            responses((status = 200, description = "CSV file", content_type = "text/csv"),
                (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
        pub async fn $handler(
            State(state): State<AppState>,
            user: CurrentUser,
            ApiQuery(params): ApiQuery<ExportParams>,
        ) -> ApiResult<Response> {
            download(state, user, $kind, params, ListFilter::All).await
        }
    };
}

csv_download!(
    intakes,
    "/api/intakes/export.csv",
    ExportKind::Intakes,
    "intakes"
);
/// CSV of the clients the all-clients list shows with these filters (every page),
/// named `{name}_{date}.csv`.
#[utoipa::path(get, path = "/api/clients/export.csv", tag = "exports", params(ClientExportParams),
    responses((status = 200, description = "CSV file", content_type = "text/csv"),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn clients(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiQuery(params): ApiQuery<ClientExportParams>,
) -> ApiResult<Response> {
    let filter = ListFilter::Clients {
        stage: params.stage,
        urgency: params.urgency,
        search: params.q,
    };
    let params = ExportParams {
        since: params.since,
        include_deleted: params.include_deleted,
    };
    download(state, user, ExportKind::Clients, params, filter).await
}

/// CSV of the assessments the assessments list shows with these filters (every page),
/// named `{name}_{date}.csv`.
#[utoipa::path(get, path = "/api/assessments/export.csv", tag = "exports", params(AssessmentExportParams),
    responses((status = 200, description = "CSV file", content_type = "text/csv"),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn assessments(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiQuery(params): ApiQuery<AssessmentExportParams>,
) -> ApiResult<Response> {
    let filter = ListFilter::Assessments {
        status: params.status,
        search: params.q,
    };
    let params = ExportParams {
        since: params.since,
        include_deleted: params.include_deleted,
    };
    download(state, user, ExportKind::Assessments, params, filter).await
}
csv_download!(
    care_plans,
    "/api/care-plans/export.csv",
    ExportKind::CarePlans,
    "care plans"
);
csv_download!(
    contracts,
    "/api/contracts/export.csv",
    ExportKind::Contracts,
    "contracts"
);
csv_download!(
    communications,
    "/api/communications/export.csv",
    ExportKind::Communications,
    "communications"
);
csv_download!(
    contacts,
    "/api/contacts/export.csv",
    ExportKind::Contacts,
    "contacts"
);
