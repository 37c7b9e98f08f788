//! The lines pipeline moves write into a client's timeline: the spec's system-event
//! logger stores a description as the content of a `system_event` communication.

use crate::model::ArchiveStatus;

/// One move of a client through the pipeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PipelineEvent<'a> {
    AssessmentCompleted,
    CarePlanCreated,
    CarePlanSent,
    CarePlanApproved,
    ContractCreated,
    ContractSent,
    ContractSigned,
    ClientArchived {
        status: ArchiveStatus,
        reason: &'a str,
    },
    ClientReopened,
}

impl PipelineEvent<'_> {
    /// What the timeline shows for the move.
    pub fn description(&self) -> String {
        match self {
            PipelineEvent::AssessmentCompleted => "Assessment completed".to_owned(),
            PipelineEvent::CarePlanCreated => "Care plan created".to_owned(),
            PipelineEvent::CarePlanSent => "Care plan proposal sent to the family".to_owned(),
            PipelineEvent::CarePlanApproved => "Care plan approved by the family".to_owned(),
            PipelineEvent::ContractCreated => "Contract created".to_owned(),
            PipelineEvent::ContractSent => "Contract sent for signature".to_owned(),
            PipelineEvent::ContractSigned => {
                "Contract signed: the client is now an Active Patient".to_owned()
            }
            PipelineEvent::ClientArchived { status, reason } => {
                format!("Client marked {}: {}", status.label(), reason.trim())
            }
            PipelineEvent::ClientReopened => "Client reopened".to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_move_has_its_own_line() {
        let cases = [
            (PipelineEvent::AssessmentCompleted, "Assessment completed"),
            (PipelineEvent::CarePlanCreated, "Care plan created"),
            (
                PipelineEvent::CarePlanSent,
                "Care plan proposal sent to the family",
            ),
            (
                PipelineEvent::CarePlanApproved,
                "Care plan approved by the family",
            ),
            (PipelineEvent::ContractCreated, "Contract created"),
            (PipelineEvent::ContractSent, "Contract sent for signature"),
            (
                PipelineEvent::ContractSigned,
                "Contract signed: the client is now an Active Patient",
            ),
            (
                PipelineEvent::ClientArchived {
                    status: ArchiveStatus::NotInterested,
                    reason: " Chose another agency ",
                },
                "Client marked Not Interested: Chose another agency",
            ),
            (
                PipelineEvent::ClientArchived {
                    status: ArchiveStatus::Declined,
                    reason: "Too expensive",
                },
                "Client marked Declined: Too expensive",
            ),
            (PipelineEvent::ClientReopened, "Client reopened"),
        ];
        for (event, expected) in cases {
            assert_eq!(event.description(), expected);
        }
    }
}
