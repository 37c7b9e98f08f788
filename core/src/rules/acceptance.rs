//! Whether a family's reply to a sent proposal reads as a plain "yes": the words the
//! family wrote (quoted text, signatures and phone footers taken off) must say yes,
//! accept, agree or approve, in English or Spanish, and say nothing else. Anything more
//! (a question, a "but", a day to change, a "no", a "not yet") is not an acceptance:
//! a person reads it. Even a plain yes only offers staff the approval; nothing is
//! approved without their click.

/// What staff are asked when a reply reads as acceptance.
pub const ACCEPTANCE_PROMPT: &str = "Family replied YES to the proposal — approve?";

/// The reply staff clicked on no longer answers a proposal waiting for the family.
pub const ACCEPTANCE_GONE: &str = "This reply no longer answers a proposal waiting for the family: it was approved, changed or answered again since.";

/// Words that say yes on their own (after accents are taken off).
const YES_WORDS: &[&str] = &[
    "yes",
    "yeah",
    "yep",
    "yup",
    "accept",
    "accepted",
    "accepting",
    "approve",
    "approved",
    "agree",
    "agreed",
    "si",
    "acepto",
    "aceptamos",
    "aceptado",
    "aceptada",
    "aceptar",
    "apruebo",
    "aprobamos",
    "aprobado",
    "aprobada",
    "adelante",
];

/// Two-word phrases that say yes.
const YES_PHRASES: &[(&str, &str)] = &[
    ("sounds", "good"),
    ("sounds", "great"),
    ("sounds", "perfect"),
    ("looks", "good"),
    ("looks", "great"),
    ("go", "ahead"),
    ("de", "acuerdo"),
    ("esta", "bien"),
];

/// Words that may stand beside a yes without changing it. No negation, condition or
/// hedge is here: a reply with any word outside these lists is not a plain yes.
const FILLER: &[&str] = &[
    // English
    "please",
    "pls",
    "thanks",
    "thank",
    "thankyou",
    "you",
    "so",
    "much",
    "very",
    "we",
    "i",
    "us",
    "our",
    "it",
    "that",
    "this",
    "the",
    "a",
    "to",
    "with",
    "for",
    "proposal",
    "plan",
    "care",
    "offer",
    "terms",
    "all",
    "good",
    "great",
    "perfect",
    "fine",
    "sure",
    "absolutely",
    "definitely",
    "of",
    "course",
    "happily",
    "gladly",
    "lets",
    "let's",
    "go",
    "ahead",
    "looks",
    "sounds",
    "everything",
    "and",
    "ok",
    "okay",
    "wonderful",
    "excellent",
    "lovely",
    "happy",
    "glad",
    "is",
    "are",
    "am",
    "would",
    "like",
    "proceed",
    "do",
    // Spanish
    "por",
    "favor",
    "gracias",
    "muchas",
    "muchisimas",
    "la",
    "el",
    "los",
    "las",
    "propuesta",
    "plan",
    "todo",
    "bien",
    "muy",
    "perfecto",
    "perfecta",
    "claro",
    "con",
    "nosotros",
    "yo",
    "lo",
    "esta",
    "estamos",
    "de",
    "acuerdo",
    "excelente",
    "vale",
    "y",
    "una",
    "un",
    "es",
    "que",
    "le",
    "les",
    "su",
    "sus",
];

/// Words that open a greeting line ("Hi Ana,").
const GREETINGS: &[&str] = &[
    "hi", "hello", "dear", "hey", "hola", "estimada", "estimado", "buenos", "buenas", "dias",
    "tardes",
];

/// Words of a closing line ("Thanks, Maria").
const CLOSINGS: &[&str] = &[
    "thanks",
    "thank",
    "you",
    "regards",
    "best",
    "cheers",
    "sincerely",
    "kind",
    "warm",
    "love",
    "gracias",
    "saludos",
    "atentamente",
    "cordialmente",
    "un",
    "abrazo",
    "muchas",
];

/// The words the family wrote above what they quoted: lines starting with `>` are left
/// out, and everything from the quote header ("On … wrote:", "El … escribió:", an
/// "Original Message" or Outlook's "From:" block), a signature delimiter ("-- ") or a
/// phone's footer ("Sent from my iPhone") on.
pub fn strip_quoted(body: &str) -> String {
    let lines: Vec<&str> = body.lines().collect();
    let mut kept: Vec<&str> = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        let trimmed = line.trim();
        let lower = trimmed.to_lowercase();
        if trimmed.starts_with('>') {
            continue;
        }
        if trimmed == "--" || *line == "-- " || lower.starts_with("-----original message") {
            break;
        }
        if trimmed.len() >= 10 && trimmed.chars().all(|c| c == '_' || c == '-') {
            break;
        }
        if is_quote_header(&lower, lines.get(index + 1).map(|next| next.trim())) {
            break;
        }
        if lower.starts_with("sent from my")
            || lower.starts_with("enviado desde mi")
            || lower.starts_with("get outlook for")
            || lower.starts_with("obtener outlook para")
        {
            break;
        }
        kept.push(line.trim_end());
    }
    while kept.last().is_some_and(|line| line.trim().is_empty()) {
        kept.pop();
    }
    while kept.first().is_some_and(|line| line.trim().is_empty()) {
        kept.remove(0);
    }
    kept.join("\n")
}

/// "On Tue, Mar 3, 2026 at 9:00 AM Ana <ana@agency.test> wrote:", which mail programs
/// sometimes wrap over two lines; its Spanish form; Outlook's "From: … Sent: …" block.
fn is_quote_header(lower: &str, next: Option<&str>) -> bool {
    let ends = |text: &str| {
        let text = text.trim_end();
        text.ends_with("wrote:") || text.ends_with("escribió:") || text.ends_with("escribio:")
    };
    if lower.starts_with("on ") || lower.starts_with("el ") {
        return ends(lower) || next.is_some_and(|next| ends(&next.to_lowercase()));
    }
    lower.starts_with("from:")
        && next.is_some_and(|next| {
            let next = next.to_lowercase();
            next.starts_with("sent:") || next.starts_with("date:") || next.starts_with("enviado:")
        })
}

/// The reply's words, lower case, accents off ("Sí" is "si"), punctuation dropped.
fn words(line: &str) -> Vec<String> {
    line.split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|word| !word.is_empty())
        .map(|word| {
            word.to_lowercase()
                .chars()
                .map(unaccented)
                .collect::<String>()
        })
        .collect()
}

fn unaccented(c: char) -> char {
    match c {
        'á' | 'à' | 'â' | 'ä' => 'a',
        'é' | 'è' | 'ê' | 'ë' => 'e',
        'í' | 'ì' | 'î' | 'ï' => 'i',
        'ó' | 'ò' | 'ô' | 'ö' => 'o',
        'ú' | 'ù' | 'û' | 'ü' => 'u',
        'ñ' => 'n',
        other => other,
    }
}

/// A line made only of names and the given words ("Hi Ana,", "Thanks, Maria").
fn names_and(line: &str, vocabulary: &[&str], first: &[&str]) -> bool {
    let raw: Vec<&str> = line
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|word| !word.is_empty())
        .collect();
    if raw.is_empty() || raw.len() > 5 {
        return false;
    }
    let lowered = words(line);
    if !first.is_empty() && !first.contains(&lowered[0].as_str()) {
        return false;
    }
    raw.iter().zip(&lowered).all(|(raw, word)| {
        vocabulary.contains(&word.as_str()) || raw.chars().next().is_some_and(char::is_uppercase)
    })
}

/// Whether the reply (as received, quotes and all) reads as a plain acceptance.
pub fn reads_as_acceptance(body: &str) -> bool {
    let answer = strip_quoted(body);
    if answer.contains('?') || answer.contains('¿') {
        return false;
    }
    let mut lines: Vec<&str> = answer
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect();
    // A greeting line first ("Hi Ana,") says nothing either way.
    if lines.len() > 1 && names_and(lines[0], GREETINGS, GREETINGS) {
        lines.remove(0);
    }
    let Some((answer_line, rest)) = lines.split_first() else {
        return false;
    };
    // After the answer, only a closing and a name ("Thanks,", "Maria Lopez").
    if rest.len() > 3 || !rest.iter().all(|line| names_and(line, CLOSINGS, &[])) {
        return false;
    }
    let words = words(answer_line);
    if words.is_empty() {
        return false;
    }
    let says_yes = words.iter().any(|word| YES_WORDS.contains(&word.as_str()))
        || words
            .windows(2)
            .any(|pair| YES_PHRASES.contains(&(pair[0].as_str(), pair[1].as_str())));
    says_yes
        && words
            .iter()
            .all(|word| YES_WORDS.contains(&word.as_str()) || FILLER.contains(&word.as_str()))
}

/// One reply the family sent after the proposal went out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReplySeen<'a> {
    pub content: &'a str,
    /// When it was kept (RFC 3339, fixed width, so text order is time order).
    pub created_at: &'a str,
}

/// Which reply (an index into `replies`) offers staff the approval of a proposal sent
/// at `sent_at`: the family's latest word since, when it reads as acceptance. A later
/// reply that says anything else takes the offer back: a person reads it first.
pub fn acceptance_among(sent_at: &str, replies: &[ReplySeen<'_>]) -> Option<usize> {
    let (index, latest) = replies
        .iter()
        .enumerate()
        .filter(|(_, reply)| reply.created_at >= sent_at)
        .max_by(|a, b| a.1.created_at.cmp(b.1.created_at))?;
    reads_as_acceptance(latest.content).then_some(index)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_yeses_in_english_and_spanish_read_as_acceptance() {
        let yes = [
            "yes",
            "Yes",
            "YES!",
            "Yes please",
            "yes please!",
            "We accept",
            "We accept the proposal.",
            "Sounds good",
            "Sounds good, thank you!",
            "Looks good to us, thanks",
            "Yes, we accept. Thank you so much!",
            "Approved",
            "Agreed 👍",
            "Go ahead, please",
            "Sí",
            "si",
            "Si, por favor",
            "Sí, por favor.",
            "¡Sí!",
            "Aceptamos",
            "Aceptamos la propuesta, muchas gracias",
            "De acuerdo",
            "Está bien, gracias",
        ];
        for reply in yes {
            assert!(reads_as_acceptance(reply), "{reply:?} should read as yes");
        }
    }

    #[test]
    fn anything_more_than_a_yes_is_for_a_person_to_read() {
        let not = [
            "",
            "   ",
            "No",
            "no thanks",
            "Not yet",
            "yes, but can we change Tuesday?",
            "Yes but Tuesday does not work",
            "Can we start later?",
            "Is the price per hour?",
            "We don't accept",
            "We don’t accept",
            "We do not accept",
            "I can't accept this",
            "Yes please, start Monday",
            "maybe",
            "Let me talk to my brother first",
            "Ok",
            "Thanks for the proposal",
            "No, gracias",
            "Todavía no",
            "Sí, pero el martes no podemos",
            "Si podemos cambiar el martes",
            "¿Se puede cambiar el martes?",
            "Yes\nbut we need to change Tuesday",
            "Yes\nChange Tuesday to Wednesday please",
        ];
        for reply in not {
            assert!(
                !reads_as_acceptance(reply),
                "{reply:?} should not read as yes"
            );
        }
    }

    #[test]
    fn quoted_text_signatures_and_footers_are_left_out() {
        let cases = [
            (
                "Yes please!\n\nOn Tue, Mar 3, 2026 at 9:00 AM Ana <office@agency.test> wrote:\n> Can you confirm? No rush.\n",
                "Yes please!",
            ),
            (
                "Yes please\n\nOn Tue, Mar 3, 2026 at 9:00 AM Sunrise Care <\noffice@agency.test> wrote:\n\n> Questions? Reply.\n",
                "Yes please",
            ),
            (
                "Sí\n\nEl mar, 3 mar 2026 a las 9:00, Ana escribió:\n> ¿Preguntas?",
                "Sí",
            ),
            (
                "We accept\n-- \nMaria Lopez\n555-0100, no calls after 6",
                "We accept",
            ),
            ("Yes\n\nSent from my iPhone", "Yes"),
            (
                "Sounds good\n\n________________________________\nFrom: Sunrise Care\nSent: Tuesday\nSubject: Questions?",
                "Sounds good",
            ),
            ("> quoted first\nYes\n> quoted again", "Yes"),
            ("Yes\n-----Original Message-----\nFrom: x\n", "Yes"),
        ];
        for (body, answer) in cases {
            assert_eq!(strip_quoted(body), answer, "{body:?}");
            assert!(reads_as_acceptance(body), "{body:?}");
        }
    }

    #[test]
    fn a_greeting_and_a_closing_with_names_do_not_hide_a_yes() {
        let yes = [
            "Hi Ana,\nYes please.\nThanks,\nMaria",
            "Hola Ana,\n\nSí, aceptamos.\n\nSaludos,\nMaría López",
            "Yes please!\nMaria Lopez",
        ];
        for reply in yes {
            assert!(reads_as_acceptance(reply), "{reply:?}");
        }
        // A second line that is not a closing is something to read.
        assert!(!reads_as_acceptance("Yes please!\nwe need weekends too"));
        assert!(!reads_as_acceptance("Hi Ana,\nno"));
    }

    #[test]
    fn the_latest_reply_since_the_proposal_decides() {
        let sent = "2026-03-03T10:00:00.000Z";
        let reply = |content, created_at| ReplySeen {
            content,
            created_at,
        };
        let cases: [(&[ReplySeen<'_>], Option<usize>); 5] = [
            (&[], None),
            (&[reply("Yes please", "2026-03-03T11:00:00.000Z")], Some(0)),
            // Before the proposal went out: not an answer to it.
            (&[reply("Yes", "2026-03-03T09:00:00.000Z")], None),
            (
                &[
                    reply("Wait, one question?", "2026-03-03T12:00:00.000Z"),
                    reply("Yes please", "2026-03-03T11:00:00.000Z"),
                ],
                None,
            ),
            (
                &[
                    reply("Can we start Monday?", "2026-03-03T11:00:00.000Z"),
                    reply("Sounds good, we accept", "2026-03-03T12:00:00.000Z"),
                ],
                Some(1),
            ),
        ];
        for (replies, expected) in cases {
            assert_eq!(acceptance_among(sent, replies), expected, "{replies:?}");
        }
    }
}
