//! The client journey: the four steps (intake, assessment, care plan, contract) with the
//! links the client-context panel, the clients list and the profile show.

use serde::Serialize;

use crate::model::{AssessmentId, CarePlanId, ContractId, IntakeId, Stage};

/// One step of the journey bar.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct JourneyStep {
    pub stage: Stage,
    pub label: &'static str,
    /// The step's record exists.
    pub complete: bool,
    /// When the step's record was created, as stored (null while it has none).
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub date: Option<String>,
    pub route: String,
    /// A step can only be opened once the step before it has a record (the intake and
    /// assessment steps are always open).
    pub enabled: bool,
}

/// One dot of the clients list's journey: which steps have a record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JourneyMark {
    pub stage: Stage,
    /// The step's record exists.
    pub complete: bool,
}

/// The four dots: the intake always exists, the rest once their record does.
pub fn journey_marks(assessment: bool, care_plan: bool, contract: bool) -> [JourneyMark; 4] {
    let mark = |stage: Stage, complete| JourneyMark { stage, complete };
    [
        mark(Stage::Intake, true),
        mark(Stage::Assessment, assessment),
        mark(Stage::CarePlan, care_plan),
        mark(Stage::Contract, contract),
    ]
}

/// A route with one id in it, allocated once at its length: `format!` guesses short and
/// grows the string again for every route of a list page.
pub(crate) fn route(path: &str, id: &str, tail: &str) -> String {
    let mut route = String::with_capacity(path.len() + id.len() + tail.len());
    route.push_str(path);
    route.push_str(id);
    route.push_str(tail);
    route
}

pub fn intake_route(intake_id: &IntakeId) -> String {
    route("/intake?intake_id=", intake_id.as_str(), "&view=true")
}

pub fn journey(
    intake_id: &IntakeId,
    intake_date: &str,
    assessment: Option<(&AssessmentId, &str)>,
    care_plan: Option<(&CarePlanId, &str)>,
    contract: Option<(&ContractId, &str)>,
) -> [JourneyStep; 4] {
    let assessment_route = match assessment {
        Some((id, _)) => route("/assessments/new?assessment_id=", id.as_str(), ""),
        None => route("/assessments/new?intake_id=", intake_id.as_str(), ""),
    };
    // Without an assessment the care plan link has nothing to start from; it is shown
    // disabled and points at the assessment step instead of a broken query.
    let care_plan_route = match (care_plan, assessment) {
        (Some((id, _)), _) => route("/care-plans/new?care_plan_id=", id.as_str(), ""),
        (None, Some((id, _))) => route("/care-plans/new?assessment_id=", id.as_str(), ""),
        (None, None) => assessment_route.clone(),
    };
    let contract_route = match (contract, care_plan) {
        (Some((id, _)), _) => route("/contracts/new?contract_id=", id.as_str(), ""),
        (None, Some((id, _))) => route("/contracts/new?care_plan_id=", id.as_str(), ""),
        (None, None) => care_plan_route.clone(),
    };
    [
        JourneyStep {
            stage: Stage::Intake,
            label: Stage::Intake.label(),
            complete: true,
            date: Some(intake_date.to_owned()),
            route: intake_route(intake_id),
            enabled: true,
        },
        JourneyStep {
            stage: Stage::Assessment,
            label: Stage::Assessment.label(),
            complete: assessment.is_some(),
            date: assessment.map(|(_, date)| date.to_owned()),
            route: assessment_route,
            enabled: true,
        },
        JourneyStep {
            stage: Stage::CarePlan,
            label: Stage::CarePlan.label(),
            complete: care_plan.is_some(),
            date: care_plan.map(|(_, date)| date.to_owned()),
            route: care_plan_route,
            enabled: care_plan.is_some() || assessment.is_some(),
        },
        JourneyStep {
            stage: Stage::Contract,
            label: Stage::Contract.label(),
            complete: contract.is_some(),
            date: contract.map(|(_, date)| date.to_owned()),
            route: contract_route,
            enabled: contract.is_some() || care_plan.is_some(),
        },
    ]
}

/// The clients list's View: the form of the furthest stage that has a record (blueprint
/// fix 3: the real routes, not the old app's /contract-form and friends).
pub fn furthest_form_route(
    intake_id: &IntakeId,
    assessment: Option<&AssessmentId>,
    care_plan: Option<&CarePlanId>,
    contract: Option<&ContractId>,
) -> String {
    if let Some(id) = contract {
        route("/contracts/new?contract_id=", id.as_str(), "")
    } else if let Some(id) = care_plan {
        route("/care-plans/new?care_plan_id=", id.as_str(), "")
    } else if let Some(id) = assessment {
        route("/assessments/new?assessment_id=", id.as_str(), "")
    } else {
        intake_route(intake_id)
    }
}

/// The client profile, optionally opened on its communications tab.
pub fn profile_route(intake_id: &IntakeId, communications_tab: bool) -> String {
    if communications_tab {
        route("/clients/", intake_id.as_str(), "?tab=communications")
    } else {
        route("/clients/", intake_id.as_str(), "")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const INTAKE_AT: &str = "2026-11-01T14:00:00.000Z";
    const ASSESSMENT_AT: &str = "2026-11-03T14:00:00.000Z";
    const CARE_PLAN_AT: &str = "2026-11-05T14:00:00.000Z";
    const CONTRACT_AT: &str = "2026-11-07T14:00:00.000Z";

    struct Expected {
        complete: [bool; 4],
        enabled: [bool; 4],
        routes: [&'static str; 4],
        dates: [Option<&'static str>; 4],
    }

    fn check(has: (bool, bool, bool), expected: Expected) {
        let intake = IntakeId::from("i1");
        let assessment = AssessmentId::from("a1");
        let care_plan = CarePlanId::from("p1");
        let contract = ContractId::from("c1");
        let steps = journey(
            &intake,
            INTAKE_AT,
            has.0.then_some((&assessment, ASSESSMENT_AT)),
            has.1.then_some((&care_plan, CARE_PLAN_AT)),
            has.2.then_some((&contract, CONTRACT_AT)),
        );
        let stages: Vec<Stage> = steps.iter().map(|s| s.stage).collect();
        assert_eq!(
            stages,
            [
                Stage::Intake,
                Stage::Assessment,
                Stage::CarePlan,
                Stage::Contract
            ]
        );
        let labels: Vec<&str> = steps.iter().map(|s| s.label).collect();
        assert_eq!(labels, ["Intake", "Assessment", "Care Plan", "Contract"]);
        for (index, step) in steps.iter().enumerate() {
            let context = format!("{has:?} step {index}");
            assert_eq!(
                step.complete, expected.complete[index],
                "complete, {context}"
            );
            assert_eq!(step.enabled, expected.enabled[index], "enabled, {context}");
            assert_eq!(step.route, expected.routes[index], "route, {context}");
            assert_eq!(
                step.date.as_deref(),
                expected.dates[index],
                "date, {context}"
            );
        }
    }

    #[test]
    fn intake_only() {
        check(
            (false, false, false),
            Expected {
                complete: [true, false, false, false],
                enabled: [true, true, false, false],
                routes: [
                    "/intake?intake_id=i1&view=true",
                    "/assessments/new?intake_id=i1",
                    "/assessments/new?intake_id=i1",
                    "/assessments/new?intake_id=i1",
                ],
                dates: [Some(INTAKE_AT), None, None, None],
            },
        );
    }

    #[test]
    fn with_assessment() {
        check(
            (true, false, false),
            Expected {
                complete: [true, true, false, false],
                enabled: [true, true, true, false],
                routes: [
                    "/intake?intake_id=i1&view=true",
                    "/assessments/new?assessment_id=a1",
                    "/care-plans/new?assessment_id=a1",
                    "/care-plans/new?assessment_id=a1",
                ],
                dates: [Some(INTAKE_AT), Some(ASSESSMENT_AT), None, None],
            },
        );
    }

    #[test]
    fn with_care_plan() {
        check(
            (true, true, false),
            Expected {
                complete: [true, true, true, false],
                enabled: [true, true, true, true],
                routes: [
                    "/intake?intake_id=i1&view=true",
                    "/assessments/new?assessment_id=a1",
                    "/care-plans/new?care_plan_id=p1",
                    "/contracts/new?care_plan_id=p1",
                ],
                dates: [
                    Some(INTAKE_AT),
                    Some(ASSESSMENT_AT),
                    Some(CARE_PLAN_AT),
                    None,
                ],
            },
        );
    }

    #[test]
    fn with_contract() {
        check(
            (true, true, true),
            Expected {
                complete: [true, true, true, true],
                enabled: [true, true, true, true],
                routes: [
                    "/intake?intake_id=i1&view=true",
                    "/assessments/new?assessment_id=a1",
                    "/care-plans/new?care_plan_id=p1",
                    "/contracts/new?contract_id=c1",
                ],
                dates: [
                    Some(INTAKE_AT),
                    Some(ASSESSMENT_AT),
                    Some(CARE_PLAN_AT),
                    Some(CONTRACT_AT),
                ],
            },
        );
    }

    #[test]
    fn records_without_their_parent_still_link_to_themselves() {
        // A care plan whose assessment was deleted keeps its own step open.
        check(
            (false, true, false),
            Expected {
                complete: [true, false, true, false],
                enabled: [true, true, true, true],
                routes: [
                    "/intake?intake_id=i1&view=true",
                    "/assessments/new?intake_id=i1",
                    "/care-plans/new?care_plan_id=p1",
                    "/contracts/new?care_plan_id=p1",
                ],
                dates: [Some(INTAKE_AT), None, Some(CARE_PLAN_AT), None],
            },
        );
    }

    #[test]
    fn view_opens_the_furthest_form() {
        let intake = IntakeId::from("i1");
        let assessment = AssessmentId::from("a1");
        let care_plan = CarePlanId::from("p1");
        let contract = ContractId::from("c1");
        let cases = [
            ((false, false, false), "/intake?intake_id=i1&view=true"),
            ((true, false, false), "/assessments/new?assessment_id=a1"),
            ((true, true, false), "/care-plans/new?care_plan_id=p1"),
            ((true, true, true), "/contracts/new?contract_id=c1"),
            ((false, false, true), "/contracts/new?contract_id=c1"),
        ];
        for (has, expected) in cases {
            let route = furthest_form_route(
                &intake,
                has.0.then_some(&assessment),
                has.1.then_some(&care_plan),
                has.2.then_some(&contract),
            );
            assert_eq!(route, expected, "{has:?}");
            for broken in ["/contract-form", "/care-plan-form", "/assessment-form"] {
                assert!(!route.starts_with(broken));
            }
        }
    }

    #[test]
    fn profile_routes() {
        let intake = IntakeId::from("i1");
        assert_eq!(profile_route(&intake, false), "/clients/i1");
        assert_eq!(
            profile_route(&intake, true),
            "/clients/i1?tab=communications"
        );
    }
}
