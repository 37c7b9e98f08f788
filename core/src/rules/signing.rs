//! The rules of the family's personal links and of the signatures given through them:
//! how a token looks, when a link still works, what the document hash covers, the
//! e-sign consent, and what a signature must contain.

use jiff::{SignedDuration, Timestamp};
use rand::RngCore;
use sha2::{Digest, Sha256};

use crate::error::{Error, ValidationErrors};
use crate::model::{
    CarePlan, Contract, LinkState, PaperSignatureInput, QuestionInput, SignatureInput,
    SignatureMethod,
};

/// The one answer for every link that cannot be used (used, expired, revoked, altered,
/// unknown, meant for another page, or its document changed): nothing tells a guesser
/// which of these it was.
pub const LINK_UNAVAILABLE: &str =
    "This link has expired or has already been used. Please ask the agency for a new one.";

/// What the signer agrees to before signing electronically.
pub const ESIGN_CONSENT: &str = "I agree to sign this agreement electronically. My electronic \
signature has the same effect as a handwritten one. I may ask the agency for a paper copy of \
this agreement at any time, free of charge, and I may choose to sign on paper instead.";

/// The longest lifetime Settings may give a link.
pub const MAX_LINK_DAYS: u32 = 90;

pub const SIGNER_NAME_REQUIRED: &str = "Please type your full name.";
pub const RELATIONSHIP_REQUIRED: &str = "Please say how you are related to the client.";
pub const CONSENT_REQUIRED: &str = "Please agree to sign electronically, or ask for a paper copy.";
pub const TYPED_SIGNATURE_REQUIRED: &str = "Please type your signature.";
pub const DRAWN_SIGNATURE_REQUIRED: &str = "Please draw your signature in the box.";
pub const DRAWN_SIGNATURE_TOO_LARGE: &str =
    "The drawn signature is too detailed. Please clear it and sign again.";
pub const QUESTION_REQUIRED: &str = "Please write your question.";
/// What the family's pages say once their action is recorded.
pub const APPROVED_THANKS: &str =
    "Thank you. Your approval has been recorded and the agency has been told.";
pub const QUESTION_THANKS: &str =
    "Thank you. Your question has been sent to your care coordinator, who will get back to you.";
pub const SIGNED_THANKS: &str =
    "Thank you. The agreement is signed. A copy of the signed agreement has been emailed to you.";
/// Questions one approval link may send in an hour: enough for a family with a lot to
/// ask, too few to fill the client's timeline (and the disk) through a leaked link.
pub const MAX_QUESTIONS_PER_HOUR: u32 = 10;
pub const TOO_MANY_QUESTIONS: &str = "We have received your questions. Please wait an hour \
before sending more, or call the agency.";
pub const SIGNED_ON_INVALID: &str = "Please enter the date it was signed (not in the future).";
pub const LINK_DAYS_RANGE: &str = "Links must last between 1 and 90 days.";

/// Resend is for a contract that waits for its signature.
pub const RESEND_NEEDS_SENT_CONTRACT: &str =
    "Only a contract sent for signature can get a new link.";
/// A signing link is made only for a contract not signed, declined or cancelled yet.
pub const SIGNING_NEEDS_OPEN_CONTRACT: &str =
    "Only a contract waiting for its signature can be sent for signing.";
/// The signing page showed an agreement that has changed since.
pub const AGREEMENT_CHANGED: &str =
    "The agreement changed while it was open. Please reload the page and read it again.";
/// `contract verify` and the Verify page, for a file Carepath did not sign.
pub const PDF_NOT_SIGNED_HERE: &str =
    "This file is not a signed contract Carepath made, or it was changed after signing.";
/// How a family's question starts in the client's timeline; the hourly limit counts the
/// entries that start so.
pub const QUESTION_ENTRY_START: &str = "Question about the proposal from ";

/// A used approval link's page: when the family approved.
pub fn approved_outcome(used_on: &str) -> String {
    format!(
        "You approved this care plan proposal on {used_on}. Thank you: we will be in touch about the agreement."
    )
}

/// A used signing link's page: when the agreement was signed.
pub fn signed_outcome(used_on: &str) -> String {
    format!("This agreement was signed on {used_on}. Thank you.")
}

/// The Verify page for a signed PDF Carepath made, unchanged.
pub fn pdf_verified(client: &str, signer: &str, signed_at: &str) -> String {
    format!(
        "This is the signed contract of {client}, signed by {signer} at {signed_at} (UTC). It has not been changed."
    )
}

/// The client's timeline entries of the family's links and of a paper signature.
pub fn question_entry(name: &str, message: &str) -> String {
    format!("{QUESTION_ENTRY_START}{name} (through the approval link): {message}")
}

pub fn approved_entry(name: &str) -> String {
    format!("Proposal approved by {name} through the emailed approval link.")
}

pub fn signed_entry(signer: &str, relationship: &str) -> String {
    format!("Contract signed by {signer} ({relationship}) through the emailed signing link.")
}

pub fn paper_signed_entry(signer: &str, date: jiff::civil::Date) -> String {
    format!("Contract marked signed on paper: signed by {signer} on {date}.")
}

/// What the kept copy of a link email shows instead of the link: the link is readable
/// only by its recipient, never in the timeline, the outbox listing or a copy.
pub const LINK_PLACEHOLDER: &str = "[personal link, sent to the recipient only]";

/// The subject of the confirmation sent once the contract is signed.
pub const SIGNED_SUBJECT: &str = "Signed: Home Care Service Agreement";

/// The web pages the links open (under the public URL).
pub fn link_path(purpose: crate::model::LinkPurpose, token: &str) -> String {
    match purpose {
        crate::model::LinkPurpose::ProposalApproval => format!("/approve/{token}"),
        crate::model::LinkPurpose::ContractSigning => format!("/sign/{token}"),
    }
}

/// The sentence that ends a link paragraph, so a resend can find the paragraph whole.
pub const LINK_PARAGRAPH_END: &str = "You may always ask us for a paper copy instead.";

/// The paragraph a proposal or contract email ends with: the personal link (or, in the
/// kept copy, [`LINK_PLACEHOLDER`]) and when it stops working. `expires_on` is the link's
/// last day as the family reads it ("December 10, 2026").
pub fn link_paragraph(purpose: crate::model::LinkPurpose, link: &str, expires_on: &str) -> String {
    let action = match purpose {
        crate::model::LinkPurpose::ProposalApproval => {
            "Review the proposal and approve it online (or tell us your questions)"
        }
        crate::model::LinkPurpose::ContractSigning => {
            "Read the agreement and sign it online (by typing or drawing your signature)"
        }
    };
    format!(
        "{action}:\n{link}\n\nThis personal link is for you alone: please do not forward it. It works \
         once and expires on {expires_on}. {LINK_PARAGRAPH_END}"
    )
}

/// The confirmation after signing, for the family and the coordinator; `signed_at` is
/// the moment as the agency reads it ("November 22, 2026 at 10:00 AM EST").
pub fn signed_email_body(
    client_name: &str,
    signer: &str,
    signed_at: &str,
    document_sha256: &str,
) -> String {
    format!(
        "The Home Care Service Agreement for {client_name} was signed by {signer} on {signed_at}.\n\n\
         The signed agreement is attached as a PDF; its last page is the signature certificate.\n\
         Document SHA-256: {document_sha256}\n\nPlease keep this email for your records. You may ask \
         the agency for a paper copy at any time."
    )
}

/// Longest name, relationship or typed signature.
pub const MAX_NAME: usize = 200;
/// Longest question.
pub const MAX_QUESTION: usize = 5_000;
/// A drawn signature may have this many points in all.
pub const MAX_SIGNATURE_POINTS: usize = 5_000;
pub const MAX_SIGNATURE_STROKES: usize = 100;

/// A new link token: 32 random bytes, base64url without padding (43 characters).
pub fn new_link_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    base64url(&bytes)
}

/// The stored form of a token.
pub fn link_token_hash(token: &str) -> String {
    sha256_hex(token.as_bytes())
}

/// Whether `token` could be one of ours at all; anything else is refused before any
/// lookup (and answered like every other bad link).
pub fn token_well_formed(token: &str) -> bool {
    token.len() == 43
        && token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// Lower-case hex SHA-256.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The SHA-256 (hex) of everything `reader` gives, read a piece at a time, so a large
/// file is never held whole.
pub fn sha256_of(mut reader: impl std::io::Read) -> std::io::Result<String> {
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 64 * 1024];
    loop {
        match reader.read(&mut buffer) {
            Ok(0) => break,
            Ok(read) => hasher.update(&buffer[..read]),
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
            Err(error) => return Err(error),
        }
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

fn base64url(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | (u32::from(*b) << (16 - 8 * i)));
        let chars = chunk.len() + 1;
        for i in 0..chars {
            out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
        }
    }
    out
}

/// When a link made at `now` stops working.
pub fn link_expiry(now: Timestamp, days: u32) -> Timestamp {
    let days = days.clamp(1, MAX_LINK_DAYS);
    now.checked_add(SignedDuration::from_hours(24 * i64::from(days)))
        .unwrap_or(now)
}

/// What is known about a stored link when it is presented.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkFacts<'a> {
    pub expires_at: &'a str,
    pub opened_at: Option<&'a str>,
    pub used_at: Option<&'a str>,
    pub revoked_at: Option<&'a str>,
    /// The document hash recorded when the link was sent.
    pub sent_document_sha256: &'a str,
    /// The document's hash now; None when the document is gone (deleted) or no longer
    /// waits for this answer (already approved or signed another way).
    pub current_document_sha256: Option<&'a str>,
}

/// Where a link stands at `now` (stored times are fixed-width UTC text, so text order is
/// time order). Only [`LinkState::Sent`] and [`LinkState::Opened`] links can be used.
pub fn link_state(facts: &LinkFacts<'_>, now: &str) -> LinkState {
    if facts.used_at.is_some() {
        LinkState::Used
    } else if facts.revoked_at.is_some() {
        LinkState::Revoked
    } else if facts.expires_at <= now {
        LinkState::Expired
    } else if facts.current_document_sha256 != Some(facts.sent_document_sha256) {
        LinkState::Outdated
    } else if facts.opened_at.is_some() {
        LinkState::Opened
    } else {
        LinkState::Sent
    }
}

pub fn link_usable(state: LinkState) -> bool {
    matches!(state, LinkState::Sent | LinkState::Opened)
}

/// The refusal every unusable link gets.
pub fn link_unavailable() -> Error {
    Error::LinkUnavailable
}

/// The text of the contract as the signing page shows it, which its hash covers: the
/// client, the rate and costs, and the contract text itself.
pub fn contract_document_text(contract: &Contract) -> String {
    format!(
        "Home Care Service Agreement\nClient: {}\nHourly Rate: ${:.2}\nWeekly Cost: ${:.2}\nMonthly Cost: ${:.2}\n\n{}",
        contract.client_name,
        contract.pricing_details.hourly_rate,
        contract.pricing_details.weekly_cost,
        contract.pricing_details.monthly_cost,
        contract.contract_content
    )
}

pub fn contract_document_sha256(contract: &Contract) -> String {
    sha256_hex(contract_document_text(contract).as_bytes())
}

/// The proposal as the approval page shows it: services, schedule, start, rate and costs.
pub fn proposal_document_text(plan: &CarePlan) -> String {
    let mut text = format!(
        "Home Care Proposal\nClient: {}\nServices: {}\n",
        plan.client_name,
        plan.service_labels.join("; ")
    );
    for (day, schedule) in plan.schedule.days() {
        if schedule.hours > 0.0 {
            text.push_str(&format!(
                "{day}: {} hours {}\n",
                schedule.hours,
                schedule.time.trim()
            ));
        }
    }
    text.push_str(&format!(
        "Start: {}\nHourly Rate: ${:.2}\nWeekly Hours: {}\nWeekly Cost: ${:.2}\nMonthly Cost: ${:.2}\nNotes: {}\n",
        plan.proposed_start_date.as_deref().unwrap_or(""),
        plan.hourly_rate,
        plan.total_weekly_hours,
        plan.weekly_cost,
        plan.monthly_cost,
        plan.additional_notes.trim()
    ));
    text
}

pub fn proposal_document_sha256(plan: &CarePlan) -> String {
    sha256_hex(proposal_document_text(plan).as_bytes())
}

fn check_text(errors: &mut ValidationErrors, field: &str, value: &str, required: &str, max: usize) {
    let value = value.trim();
    if value.is_empty() {
        errors.add(field, required);
    } else if value.chars().count() > max {
        errors.add(field, format!("Please keep this under {max} characters."));
    }
}

/// A name, relationship or typed signature is one line of printable text: it is printed
/// as one line of the certificate, the verify message and the timeline, where a line
/// break would let it pass for lines of their own ("Consent: WITHDRAWN").
pub const ONE_LINE_ONLY: &str =
    "Please use letters, numbers, spaces and punctuation only, on one line.";

/// [`check_text`] for a one-line value: control characters (line breaks, tabs, escapes)
/// are refused too.
fn check_line(errors: &mut ValidationErrors, field: &str, value: &str, required: &str, max: usize) {
    check_text(errors, field, value, required, max);
    if value.chars().any(char::is_control) {
        errors.add(field, ONE_LINE_ONLY);
    }
}

/// The user agent as printed in the evidence: its first 120 characters, with control
/// characters (line breaks included) made spaces, so what a browser sends can never
/// pass for lines of the certificate.
pub fn printable_user_agent(user_agent: &str) -> String {
    user_agent
        .chars()
        .take(120)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .trim()
        .to_owned()
}

/// "Approve this proposal" needs the approver's name.
pub fn validate_approval(name: &str) -> Result<(), Error> {
    let mut errors = ValidationErrors::new();
    check_line(&mut errors, "name", name, SIGNER_NAME_REQUIRED, MAX_NAME);
    errors.into_result()
}

pub fn validate_question(input: &QuestionInput) -> Result<(), Error> {
    let mut errors = ValidationErrors::new();
    check_line(
        &mut errors,
        "name",
        &input.name,
        SIGNER_NAME_REQUIRED,
        MAX_NAME,
    );
    check_text(
        &mut errors,
        "message",
        &input.message,
        QUESTION_REQUIRED,
        MAX_QUESTION,
    );
    errors.into_result()
}

/// A signature needs a name, a relationship, the consent, and a typed or drawn mark that
/// stays on the pad and within size.
pub fn validate_signature(input: &SignatureInput) -> Result<(), Error> {
    let mut errors = ValidationErrors::new();
    check_line(
        &mut errors,
        "signer_name",
        &input.signer_name,
        SIGNER_NAME_REQUIRED,
        MAX_NAME,
    );
    check_line(
        &mut errors,
        "relationship",
        &input.relationship,
        RELATIONSHIP_REQUIRED,
        MAX_NAME,
    );
    if !input.consent {
        errors.add("consent", CONSENT_REQUIRED);
    }
    match input.method {
        SignatureMethod::Typed => check_line(
            &mut errors,
            "typed_signature",
            &input.typed_signature,
            TYPED_SIGNATURE_REQUIRED,
            MAX_NAME,
        ),
        SignatureMethod::Drawn => {
            let points: usize = input.drawn_signature.iter().map(Vec::len).sum();
            let on_pad = input.drawn_signature.iter().flatten().all(|[x, y]| {
                x.is_finite() && y.is_finite() && (0.0..=1.0).contains(x) && (0.0..=1.0).contains(y)
            });
            if points < 2 {
                errors.add("drawn_signature", DRAWN_SIGNATURE_REQUIRED);
            } else if points > MAX_SIGNATURE_POINTS
                || input.drawn_signature.len() > MAX_SIGNATURE_STROKES
                || !on_pad
            {
                errors.add("drawn_signature", DRAWN_SIGNATURE_TOO_LARGE);
            }
        }
        SignatureMethod::Approval | SignatureMethod::Paper => {
            errors.add("method", "Please sign by typing or drawing.");
        }
    }
    errors.into_result()
}

/// Mark as Signed on paper: a signer and a date that is not in the future.
pub fn validate_paper_signature(
    input: &PaperSignatureInput,
    today: jiff::civil::Date,
) -> Result<jiff::civil::Date, Error> {
    let mut errors = ValidationErrors::new();
    check_line(
        &mut errors,
        "signer_name",
        &input.signer_name,
        SIGNER_NAME_REQUIRED,
        MAX_NAME,
    );
    if input.relationship.chars().count() > MAX_NAME {
        errors.add(
            "relationship",
            format!("Please keep this under {MAX_NAME} characters."),
        );
    } else if input.relationship.chars().any(char::is_control) {
        errors.add("relationship", ONE_LINE_ONLY);
    }
    let date = input
        .signed_on
        .trim()
        .parse::<jiff::civil::Date>()
        .ok()
        .filter(|date| *date <= today);
    if date.is_none() {
        errors.add("signed_on", SIGNED_ON_INVALID);
    }
    errors.into_result()?;
    date.ok_or_else(|| Error::Rejected(SIGNED_ON_INVALID.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Strokes;

    #[test]
    fn tokens_are_43_url_safe_characters_and_differ() {
        let a = new_link_token();
        let b = new_link_token();
        assert_ne!(a, b);
        for token in [&a, &b] {
            assert_eq!(token.len(), 43, "{token}");
            assert!(token_well_formed(token), "{token}");
        }
        assert_ne!(link_token_hash(&a), a);
        assert_eq!(link_token_hash(&a).len(), 64);
    }

    #[test]
    fn base64url_matches_the_standard_alphabet_without_padding() {
        assert_eq!(base64url(b""), "");
        assert_eq!(base64url(b"f"), "Zg");
        assert_eq!(base64url(b"fo"), "Zm8");
        assert_eq!(base64url(b"foo"), "Zm9v");
        assert_eq!(base64url(&[0xfb, 0xff]), "-_8");
    }

    #[test]
    fn malformed_tokens_are_refused_before_lookup() {
        let good = new_link_token();
        for bad in [
            String::new(),
            good[..42].to_owned(),
            format!("{good}A"),
            format!("{}=", &good[..42]),
            format!("{}/", &good[..42]),
            format!("{}é", &good[..41]),
        ] {
            assert!(!token_well_formed(&bad), "{bad}");
        }
    }

    #[test]
    fn link_states_in_order_of_precedence() {
        let base = LinkFacts {
            expires_at: "2026-12-01T00:00:00.000Z",
            opened_at: None,
            used_at: None,
            revoked_at: None,
            sent_document_sha256: "aaa",
            current_document_sha256: Some("aaa"),
        };
        let now = "2026-11-20T00:00:00.000Z";
        // (facts, state)
        let cases = [
            (base.clone(), LinkState::Sent),
            (
                LinkFacts {
                    opened_at: Some(now),
                    ..base.clone()
                },
                LinkState::Opened,
            ),
            (
                LinkFacts {
                    used_at: Some(now),
                    revoked_at: Some(now),
                    ..base.clone()
                },
                LinkState::Used,
            ),
            (
                LinkFacts {
                    revoked_at: Some(now),
                    ..base.clone()
                },
                LinkState::Revoked,
            ),
            (
                LinkFacts {
                    expires_at: now,
                    ..base.clone()
                },
                LinkState::Expired,
            ),
            (
                LinkFacts {
                    current_document_sha256: Some("bbb"),
                    ..base.clone()
                },
                LinkState::Outdated,
            ),
            (
                LinkFacts {
                    current_document_sha256: None,
                    ..base.clone()
                },
                LinkState::Outdated,
            ),
        ];
        for (facts, state) in cases {
            assert_eq!(link_state(&facts, now), state, "{facts:?}");
            assert_eq!(
                link_usable(state),
                matches!(state, LinkState::Sent | LinkState::Opened)
            );
        }
    }

    #[test]
    fn expiry_follows_the_setting_within_bounds() {
        let now: Timestamp = "2026-11-01T00:00:00Z".parse().unwrap();
        let cases = [
            (14, "2026-11-15T00:00:00Z"),
            (1, "2026-11-02T00:00:00Z"),
            (0, "2026-11-02T00:00:00Z"),
            (1000, "2027-01-30T00:00:00Z"),
        ];
        for (days, expected) in cases {
            assert_eq!(
                link_expiry(now, days),
                expected.parse::<Timestamp>().unwrap(),
                "{days}"
            );
        }
    }

    fn signature(method: SignatureMethod, strokes: Strokes) -> SignatureInput {
        SignatureInput {
            signer_name: "Jane Doe".into(),
            relationship: "Daughter".into(),
            consent: true,
            method,
            typed_signature: "Jane Doe".into(),
            drawn_signature: strokes,
            document_sha256: "x".into(),
        }
    }

    fn message_of(result: Result<(), Error>) -> Option<String> {
        match result {
            Ok(()) => None,
            Err(Error::Validation(errors)) => Some(
                errors
                    .fields
                    .values()
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(" | "),
            ),
            Err(other) => Some(other.to_string()),
        }
    }

    #[test]
    fn signatures_need_name_relationship_consent_and_a_mark() {
        let line = vec![vec![[0.1, 0.5], [0.9, 0.5]]];
        assert_eq!(
            message_of(validate_signature(&signature(
                SignatureMethod::Drawn,
                line.clone()
            ))),
            None
        );
        assert_eq!(
            message_of(validate_signature(&signature(
                SignatureMethod::Typed,
                vec![]
            ))),
            None
        );
        let mut unnamed = signature(SignatureMethod::Typed, vec![]);
        unnamed.signer_name = "  ".into();
        assert_eq!(
            message_of(validate_signature(&unnamed)).as_deref(),
            Some(SIGNER_NAME_REQUIRED)
        );
        let mut no_consent = signature(SignatureMethod::Typed, vec![]);
        no_consent.consent = false;
        assert_eq!(
            message_of(validate_signature(&no_consent)).as_deref(),
            Some(CONSENT_REQUIRED)
        );
        let mut no_relationship = signature(SignatureMethod::Typed, vec![]);
        no_relationship.relationship = String::new();
        assert_eq!(
            message_of(validate_signature(&no_relationship)).as_deref(),
            Some(RELATIONSHIP_REQUIRED)
        );
        let mut untyped = signature(SignatureMethod::Typed, vec![]);
        untyped.typed_signature = String::new();
        assert_eq!(
            message_of(validate_signature(&untyped)).as_deref(),
            Some(TYPED_SIGNATURE_REQUIRED)
        );
        assert_eq!(
            message_of(validate_signature(&signature(
                SignatureMethod::Drawn,
                vec![vec![[0.5, 0.5]]]
            )))
            .as_deref(),
            Some(DRAWN_SIGNATURE_REQUIRED)
        );
        assert_eq!(
            message_of(validate_signature(&signature(
                SignatureMethod::Drawn,
                vec![vec![[0.1, 0.5], [1.5, 0.5]]]
            )))
            .as_deref(),
            Some(DRAWN_SIGNATURE_TOO_LARGE)
        );
        assert_eq!(
            message_of(validate_signature(&signature(
                SignatureMethod::Drawn,
                vec![vec![[0.5, 0.5]; MAX_SIGNATURE_POINTS + 1]]
            )))
            .as_deref(),
            Some(DRAWN_SIGNATURE_TOO_LARGE)
        );
        let mut long = signature(SignatureMethod::Typed, vec![]);
        long.signer_name = "a".repeat(MAX_NAME + 1);
        assert!(message_of(validate_signature(&long)).is_some());
    }

    #[test]
    fn paper_signatures_need_a_signer_and_a_past_date() {
        let today = jiff::civil::date(2026, 11, 20);
        let input = |signed_on: &str, signer: &str| PaperSignatureInput {
            signed_on: signed_on.into(),
            signer_name: signer.into(),
            relationship: String::new(),
        };
        assert_eq!(
            validate_paper_signature(&input("2026-11-20", "Jane"), today).unwrap(),
            today
        );
        assert!(validate_paper_signature(&input("2026-11-21", "Jane"), today).is_err());
        assert!(validate_paper_signature(&input("20/11/2026", "Jane"), today).is_err());
        assert!(validate_paper_signature(&input("2026-11-19", ""), today).is_err());
    }

    #[test]
    fn questions_need_a_name_and_a_message() {
        let ok = QuestionInput {
            name: "Jane".into(),
            message: "Can visits start at 8?".into(),
        };
        assert!(validate_question(&ok).is_ok());
        assert!(
            validate_question(&QuestionInput {
                message: " ".into(),
                ..ok.clone()
            })
            .is_err()
        );
        assert!(
            validate_question(&QuestionInput {
                message: "x".repeat(MAX_QUESTION + 1),
                ..ok
            })
            .is_err()
        );
        assert!(validate_approval("Jane Doe").is_ok());
        assert!(validate_approval("").is_err());
    }

    #[test]
    fn names_and_relationships_are_one_line_of_text() {
        let field_of = |input: &SignatureInput, field: &str| match validate_signature(input) {
            Err(Error::Validation(errors)) => errors.fields.get(field).cloned(),
            _ => None,
        };
        let mut input = signature(SignatureMethod::Typed, Vec::new());
        input.relationship = "Daughter\r\nConsent: WITHDRAWN".into();
        assert_eq!(
            field_of(&input, "relationship").as_deref(),
            Some(ONE_LINE_ONLY)
        );
        let mut input = signature(SignatureMethod::Typed, Vec::new());
        input.signer_name = "Jane Doe\nSigned at (UTC): 1999-01-01".into();
        assert_eq!(
            field_of(&input, "signer_name").as_deref(),
            Some(ONE_LINE_ONLY)
        );
        let mut input = signature(SignatureMethod::Typed, Vec::new());
        input.typed_signature = "Jane\u{1b}[2J Doe".into();
        assert_eq!(
            field_of(&input, "typed_signature").as_deref(),
            Some(ONE_LINE_ONLY)
        );
        // Accents, apostrophes and hyphens are text.
        let mut input = signature(SignatureMethod::Typed, Vec::new());
        input.signer_name = "Zoë O'Brien-Núñez".into();
        assert!(validate_signature(&input).is_ok());
        assert!(validate_approval("Jane\r\nDoe").is_err());
        assert!(
            validate_question(&QuestionInput {
                name: "Jane\nDoe".into(),
                message: "Two lines\nare fine here.".into(),
            })
            .is_err()
        );
        assert!(
            validate_question(&QuestionInput {
                name: "Jane Doe".into(),
                message: "Two lines\nare fine here.".into(),
            })
            .is_ok()
        );
        let paper = PaperSignatureInput {
            signed_on: "2026-11-20".into(),
            signer_name: "Jane".into(),
            relationship: "Son\rConsent: WITHDRAWN".into(),
        };
        let today = jiff::civil::date(2026, 11, 20);
        assert!(validate_paper_signature(&paper, today).is_err());
    }

    #[test]
    fn a_streamed_hash_is_the_hash_of_the_whole() {
        let bytes: Vec<u8> = (0..200_000u32).map(|n| (n % 251) as u8).collect();
        assert_eq!(sha256_of(bytes.as_slice()).unwrap(), sha256_hex(&bytes));
        assert_eq!(sha256_of(&b""[..]).unwrap(), sha256_hex(b""));
    }

    #[test]
    fn the_printed_user_agent_is_one_short_line() {
        let agent = format!("Mozilla/5.0\r\nConsent: WITHDRAWN\t{}", "x".repeat(500));
        let printed = printable_user_agent(&agent);
        assert!(!printed.chars().any(char::is_control), "{printed}");
        assert!(printed.starts_with("Mozilla/5.0  Consent: WITHDRAWN"));
        assert!(printed.chars().count() <= 120);
        assert_eq!(printable_user_agent("  Firefox/130  "), "Firefox/130");
    }
}
