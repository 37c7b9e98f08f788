//! Printable PDFs of the intake form, the assessment, the care plan letter, the contract
//! and an assessment visit's packet, from core's PDF renderer (the same one as
//! `carepath print`).

use axum::extract::State;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use carepath_core::pdf::PrintKind;

use crate::AppState;
use crate::error::{ApiResult, ErrorBody};
use crate::extract::ApiPath;
use crate::routes::ApiRoutes;
use crate::session::CurrentUser;

pub fn routes(routes: ApiRoutes) -> ApiRoutes {
    routes
        .add::<__path_intake, _, _>(intake)
        .add::<__path_assessment, _, _>(assessment)
        .add::<__path_care_plan, _, _>(care_plan)
        .add::<__path_contract, _, _>(contract)
        .add::<__path_visit_packet, _, _>(visit_packet)
}

async fn print(state: AppState, kind: PrintKind, id: String) -> ApiResult<Response> {
    let file_name = format!("{}-{id}.pdf", kind.name());
    let pdf = state
        .db
        .call_long(move |store| {
            let mut pdf = Vec::new();
            store.print(kind, &id, &mut pdf)?;
            Ok(pdf)
        })
        .await?;
    // Opened in the browser's viewer (the Print buttons), with a sensible name to save.
    let disposition = HeaderValue::from_str(&format!("inline; filename=\"{file_name}\""))
        .unwrap_or_else(|_| HeaderValue::from_static("inline"));
    Ok((
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/pdf"),
            ),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        pdf,
    )
        .into_response())
}

macro_rules! pdf_download {
    ($handler:ident, $path:tt, $kind:expr, $what:literal) => {
        #[doc = concat!("The printable ", $what, " (PDF, US letter).")]
        #[utoipa::path(get, path = $path, tag = "prints", params(("id" = String, Path)),
            responses((status = 200, description = "PDF file", content_type = "application/pdf"),
                (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
        pub async fn $handler(
            State(state): State<AppState>,
            _user: CurrentUser,
            ApiPath(id): ApiPath<String>,
        ) -> ApiResult<Response> {
            print(state, $kind, id).await
        }
    };
}

pdf_download!(
    intake,
    "/api/intakes/{id}/pdf",
    PrintKind::Intake,
    "intake form"
);
pdf_download!(
    assessment,
    "/api/assessments/{id}/pdf",
    PrintKind::Assessment,
    "assessment"
);
pdf_download!(
    care_plan,
    "/api/care-plans/{id}/pdf",
    PrintKind::CarePlan,
    "care plan letter"
);
pdf_download!(
    contract,
    "/api/contracts/{id}/pdf",
    PrintKind::Contract,
    "contract"
);
pdf_download!(
    visit_packet,
    "/api/visits/{id}/packet.pdf",
    PrintKind::Packet,
    "packet of an assessment visit (intake summary, contacts, visit, map link, worksheet)"
);
