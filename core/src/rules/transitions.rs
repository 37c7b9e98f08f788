//! Which status changes each record may make. Anything not listed is refused with
//! `Error::InvalidTransition`, so a stale screen cannot move a record backwards.

use crate::error::Error;
use crate::model::{
    AssessmentStatus, CarePlanStatus, CommunicationStatus, ContractStatus, IntakeStatus,
};

/// A sent contract is view-only: changing it means a new care plan.
pub const SENT_CONTRACT_LOCKED: &str = "Major changes require creating a new care plan";
/// A signed contract is final.
pub const SIGNED_CONTRACT_LOCKED: &str = "Contact operations for any modifications";

fn refuse(entity: &'static str, from: impl ToString, to: impl ToString) -> Error {
    Error::InvalidTransition {
        entity,
        from: from.to_string(),
        to: to.to_string(),
    }
}

fn intake_is_archived(status: IntakeStatus) -> bool {
    crate::model::ARCHIVED_STATUSES.contains(&status.as_str())
}

/// An intake moves to assessment_completed when a completed assessment from it is saved
/// (again and again: saving keeps it there). Staff may archive an active client with one
/// of the declined statuses, change the reason, or put an archived client back to
/// pending. An archived client is not revived by an assessment, and a completed
/// assessment is never undone by setting the intake back.
pub fn check_intake_transition(from: IntakeStatus, to: IntakeStatus) -> Result<(), Error> {
    use IntakeStatus::*;
    let allowed = match (from, to) {
        _ if from == to => true,
        (IntakeCreated | Pending, AssessmentCompleted) => true,
        (IntakeCreated, Pending) => true,
        (_, to) if intake_is_archived(to) => true,
        (from, Pending) if intake_is_archived(from) => true,
        _ => false,
    };
    if allowed {
        Ok(())
    } else {
        Err(refuse("intake", from, to))
    }
}

/// Draft → completed; a completed assessment can be edited and saved again, but never
/// goes back to draft.
pub fn check_assessment_transition(
    from: AssessmentStatus,
    to: AssessmentStatus,
) -> Result<(), Error> {
    use AssessmentStatus::*;
    match (from, to) {
        (Draft, Draft) | (Draft, Completed) | (Completed, Completed) => Ok(()),
        (Completed, Draft) => Err(refuse("assessment", from, to)),
    }
}

/// Draft → sent → approved. Sending again is a re-send; an approved plan is not sent
/// again and a draft cannot be approved before the family has seen it. Any open plan can
/// be archived (declined, not interested …).
pub fn check_care_plan_transition(from: CarePlanStatus, to: CarePlanStatus) -> Result<(), Error> {
    use CarePlanStatus::*;
    let from_archived = crate::model::ARCHIVED_STATUSES.contains(&from.as_str());
    let to_archived = crate::model::ARCHIVED_STATUSES.contains(&to.as_str());
    let allowed = match (from, to) {
        (Draft, Draft) | (Draft, Sent) | (Sent, Sent) | (Sent, Approved) | (Approved, Approved) => {
            true
        }
        _ => !from_archived && to_archived,
    };
    if allowed {
        Ok(())
    } else {
        Err(refuse("care plan", from, to))
    }
}

/// Draft → sent → signed; signed is final. A contract that is not signed yet can be
/// declined or cancelled.
pub fn check_contract_transition(from: ContractStatus, to: ContractStatus) -> Result<(), Error> {
    use ContractStatus::*;
    let allowed = matches!(
        (from, to),
        (Draft, Draft) | (Draft, Sent) | (Sent, Signed) | (Draft | Sent, Declined | Cancelled)
    );
    if allowed {
        Ok(())
    } else {
        Err(refuse("contract", from, to))
    }
}

/// Only a draft contract may be edited.
pub fn contract_editable(status: ContractStatus) -> Result<(), Error> {
    match status {
        ContractStatus::Draft => Ok(()),
        ContractStatus::Signed => Err(Error::Rejected(SIGNED_CONTRACT_LOCKED.to_owned())),
        ContractStatus::Sent | ContractStatus::Declined | ContractStatus::Cancelled => {
            Err(Error::Rejected(SENT_CONTRACT_LOCKED.to_owned()))
        }
    }
}

/// Whether a contract can still be edited, as the contract screen shows it: only a draft
/// that is not deleted. [`contract_editable`] says why not.
pub fn contract_is_editable(status: ContractStatus, deleted: bool) -> bool {
    !deleted && contract_editable(status).is_ok()
}

/// A contract is generated only from a care plan the family has seen (sent) or accepted
/// (approved), and not deleted.
pub fn care_plan_can_generate_contract(status: CarePlanStatus, deleted: bool) -> bool {
    !deleted && matches!(status, CarePlanStatus::Sent | CarePlanStatus::Approved)
}

/// Pending → sent or failed; a failed send can be retried (back to pending) or reported
/// sent after all; the provider may confirm a sent message as delivered.
pub fn check_communication_transition(
    from: CommunicationStatus,
    to: CommunicationStatus,
) -> Result<(), Error> {
    use CommunicationStatus::*;
    let allowed = matches!(
        (from, to),
        (Pending, Sent)
            | (Pending, Failed)
            | (Failed, Pending)
            | (Failed, Sent)
            | (Sent, Delivered)
    );
    if allowed {
        Ok(())
    } else {
        Err(refuse("communication", from, to))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks every pair of an enum against the allowed list: listed pairs pass, all
    /// others are refused with the entity and both statuses named.
    fn check_all<S: Copy + PartialEq + std::fmt::Display + std::fmt::Debug>(
        all: &[S],
        allowed: &[(S, S)],
        entity: &str,
        check: fn(S, S) -> Result<(), Error>,
    ) {
        for &from in all {
            for &to in all {
                let result = check(from, to);
                if allowed.contains(&(from, to)) {
                    assert!(result.is_ok(), "{entity} {from} → {to} should be allowed");
                } else {
                    match result {
                        Err(Error::InvalidTransition {
                            entity: e,
                            from: f,
                            to: t,
                        }) => {
                            assert_eq!((e, f, t), (entity, from.to_string(), to.to_string()));
                        }
                        other => panic!("{entity} {from} → {to} should be refused, got {other:?}"),
                    }
                }
            }
        }
    }

    #[test]
    fn intake_transitions() {
        use IntakeStatus::*;
        let archived = [Declined, NotInterested, NotProceeding, Rejected, Cancelled];
        let mut allowed = vec![
            (IntakeCreated, IntakeCreated),
            (Pending, Pending),
            (AssessmentCompleted, AssessmentCompleted),
            (IntakeCreated, AssessmentCompleted),
            (Pending, AssessmentCompleted),
            (IntakeCreated, Pending),
        ];
        for to in archived {
            for from in IntakeStatus::ALL {
                allowed.push((*from, to));
            }
            allowed.push((to, Pending));
        }
        check_all(
            IntakeStatus::ALL,
            &allowed,
            "intake",
            check_intake_transition,
        );
        // The cases the store relies on, spelled out.
        assert!(check_intake_transition(Declined, AssessmentCompleted).is_err());
        assert!(check_intake_transition(AssessmentCompleted, Pending).is_err());
        assert!(check_intake_transition(Pending, IntakeCreated).is_err());
    }

    #[test]
    fn assessment_transitions() {
        use AssessmentStatus::*;
        check_all(
            AssessmentStatus::ALL,
            &[(Draft, Draft), (Draft, Completed), (Completed, Completed)],
            "assessment",
            check_assessment_transition,
        );
    }

    #[test]
    fn care_plan_transitions() {
        use CarePlanStatus::*;
        let mut allowed = vec![
            (Draft, Draft),
            (Draft, Sent),
            (Sent, Sent),
            (Sent, Approved),
            (Approved, Approved),
        ];
        for from in [Draft, Sent, Approved] {
            for to in [Declined, NotInterested, NotProceeding, Rejected, Cancelled] {
                allowed.push((from, to));
            }
        }
        check_all(
            CarePlanStatus::ALL,
            &allowed,
            "care plan",
            check_care_plan_transition,
        );
        assert!(check_care_plan_transition(Approved, Sent).is_err());
        assert!(check_care_plan_transition(Draft, Approved).is_err());
    }

    #[test]
    fn contract_transitions() {
        use ContractStatus::*;
        check_all(
            ContractStatus::ALL,
            &[
                (Draft, Draft),
                (Draft, Sent),
                (Sent, Signed),
                (Draft, Declined),
                (Draft, Cancelled),
                (Sent, Declined),
                (Sent, Cancelled),
            ],
            "contract",
            check_contract_transition,
        );
    }

    #[test]
    fn only_draft_contracts_are_editable() {
        let cases = [
            (ContractStatus::Draft, None),
            (ContractStatus::Sent, Some(SENT_CONTRACT_LOCKED)),
            (ContractStatus::Signed, Some(SIGNED_CONTRACT_LOCKED)),
            (ContractStatus::Declined, Some(SENT_CONTRACT_LOCKED)),
            (ContractStatus::Cancelled, Some(SENT_CONTRACT_LOCKED)),
        ];
        for (status, expected) in cases {
            match (contract_editable(status), expected) {
                (Ok(()), None) => {}
                (Err(Error::Rejected(message)), Some(expected)) => assert_eq!(message, expected),
                (other, _) => panic!("{status}: {other:?}"),
            }
        }
    }

    #[test]
    fn the_screens_flags_follow_the_rules() {
        for &status in ContractStatus::ALL {
            assert_eq!(
                contract_is_editable(status, false),
                status == ContractStatus::Draft,
                "{status}"
            );
            assert!(!contract_is_editable(status, true), "a deleted {status}");
        }
        for &status in CarePlanStatus::ALL {
            let from_sent_or_approved =
                matches!(status, CarePlanStatus::Sent | CarePlanStatus::Approved);
            assert_eq!(
                care_plan_can_generate_contract(status, false),
                from_sent_or_approved,
                "{status}"
            );
            assert!(
                !care_plan_can_generate_contract(status, true),
                "a deleted {status}"
            );
        }
    }

    #[test]
    fn communication_transitions() {
        use CommunicationStatus::*;
        check_all(
            CommunicationStatus::ALL,
            &[
                (Pending, Sent),
                (Pending, Failed),
                (Failed, Pending),
                (Failed, Sent),
                (Sent, Delivered),
            ],
            "communication",
            check_communication_transition,
        );
    }
}
