//! Which column holds which intake field: the common header names of lead lists, the
//! user's own `Column=field` mappings, and the normalising of names, phones, emails,
//! dates and lists as a row becomes an intake form.

use crate::error::{Error, Result};
use crate::model::IntakeForm;
use crate::model::options::{LIVING_SITUATION, SERVICES_REQUIRED, SOURCE_OF_PAYMENT};

/// An intake field a column can fill, plus first/last name halves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LeadField {
    ClientFullName,
    FirstName,
    LastName,
    DateOfBirth,
    CallerName,
    CallerPhone,
    CallerEmail,
    RelationshipToClient,
    ClientPhone,
    ClientEmail,
    ClientAddress,
    City,
    State,
    ZipCode,
    ServicesRequired,
    LivingSituation,
    HowDidYouHear,
    AdditionalComments,
    StaffMemberTakingCall,
    Date,
    GeneralCareNeeds,
    PrimaryDiagnosis,
    AssignedCoordinator,
    FollowUpNotes,
    SourceOfPayment,
    InsuranceCompany,
    TotalHoursPerWeek,
    PriorityLevel,
    ReferralSourceType,
}

/// Each field with its form name (what `--map` and reports use) and the header names
/// it is recognised by, compared without case, spaces or punctuation.
const FIELDS: &[(LeadField, &str, &[&str])] = &[
    (
        LeadField::ClientFullName,
        "clientFullName",
        &[
            "name",
            "clientname",
            "fullname",
            "client",
            "clientfullname",
            "patient",
            "patientname",
            "leadname",
            "lead",
            "seniorname",
            "customername",
        ],
    ),
    (
        LeadField::FirstName,
        "firstName",
        &["firstname", "first", "givenname", "clientfirstname"],
    ),
    (
        LeadField::LastName,
        "lastName",
        &[
            "lastname",
            "last",
            "surname",
            "familyname",
            "clientlastname",
        ],
    ),
    (
        LeadField::DateOfBirth,
        "dateOfBirth",
        &[
            "dob",
            "dateofbirth",
            "birthdate",
            "birthday",
            "clientdob",
            "born",
        ],
    ),
    (
        LeadField::CallerName,
        "callerName",
        &[
            "caller",
            "callername",
            "contactname",
            "contact",
            "inquirer",
            "callerfullname",
            "familycontact",
        ],
    ),
    (
        LeadField::CallerPhone,
        "callerPhone",
        &[
            "phone",
            "callerphone",
            "phonenumber",
            "telephone",
            "tel",
            "mobile",
            "cell",
            "cellphone",
            "contactphone",
            "primaryphone",
        ],
    ),
    (
        LeadField::CallerEmail,
        "callerEmail",
        &[
            "email",
            "emailaddress",
            "calleremail",
            "contactemail",
            "mail",
        ],
    ),
    (
        LeadField::RelationshipToClient,
        "relationshipToClient",
        &[
            "relationship",
            "relation",
            "relationshiptoclient",
            "callerrelationship",
        ],
    ),
    (
        LeadField::ClientPhone,
        "clientPhone",
        &["clientphone", "patientphone"],
    ),
    (
        LeadField::ClientEmail,
        "clientEmail",
        &["clientemail", "patientemail"],
    ),
    (
        LeadField::ClientAddress,
        "clientAddress",
        &[
            "address",
            "clientaddress",
            "street",
            "streetaddress",
            "address1",
        ],
    ),
    (LeadField::City, "city", &["city", "town"]),
    (LeadField::State, "state", &["state", "st", "province"]),
    (
        LeadField::ZipCode,
        "zipCode",
        &["zip", "zipcode", "postalcode", "postcode"],
    ),
    (
        LeadField::ServicesRequired,
        "servicesRequired",
        &[
            "services",
            "servicesrequired",
            "service",
            "servicesneeded",
            "servicesrequested",
        ],
    ),
    (
        LeadField::LivingSituation,
        "livingSituation",
        &["livingsituation", "livesalone", "living"],
    ),
    (
        LeadField::HowDidYouHear,
        "howDidYouHear",
        &[
            "source",
            "leadsource",
            "howdidyouhear",
            "howdidyouhearaboutus",
            "heardfrom",
            "howheard",
            "referredby",
        ],
    ),
    (
        LeadField::AdditionalComments,
        "additionalComments",
        &[
            "notes",
            "note",
            "comments",
            "comment",
            "additionalcomments",
            "remarks",
        ],
    ),
    (
        LeadField::StaffMemberTakingCall,
        "staffMemberTakingCall",
        &[
            "staff",
            "staffmember",
            "takenby",
            "staffmembertakingcall",
            "intakeby",
            "receivedby",
            "owner",
        ],
    ),
    (
        LeadField::Date,
        "date",
        &[
            "date",
            "calldate",
            "inquirydate",
            "datereceived",
            "leaddate",
            "created",
        ],
    ),
    (
        LeadField::GeneralCareNeeds,
        "generalCareNeeds",
        &["careneeds", "needs", "generalcareneeds"],
    ),
    (
        LeadField::PrimaryDiagnosis,
        "primaryDiagnosis",
        &["diagnosis", "primarydiagnosis"],
    ),
    (
        LeadField::AssignedCoordinator,
        "assignedCoordinator",
        &["coordinator", "assignedcoordinator", "assignedto"],
    ),
    (
        LeadField::FollowUpNotes,
        "followUpNotes",
        &["followupnotes", "followup"],
    ),
    (
        LeadField::SourceOfPayment,
        "sourceOfPayment",
        &[
            "payment",
            "paymentsource",
            "sourceofpayment",
            "payer",
            "payor",
        ],
    ),
    (
        LeadField::InsuranceCompany,
        "insuranceCompany",
        &["insurance", "insurancecompany", "insurer"],
    ),
    (
        LeadField::TotalHoursPerWeek,
        "totalHoursPerWeek",
        &["hours", "hoursperweek", "totalhoursperweek", "weeklyhours"],
    ),
    (
        LeadField::PriorityLevel,
        "priorityLevel",
        &["priority", "prioritylevel"],
    ),
    (
        LeadField::ReferralSourceType,
        "referralSourceType",
        &[
            "referralsourcetype",
            "referraltype",
            "referralsource",
            "referral",
        ],
    ),
];

impl LeadField {
    /// The form field name, as reports and `--map` name it.
    pub fn form_name(self) -> &'static str {
        FIELDS
            .iter()
            .find(|(field, ..)| *field == self)
            .map_or("", |(_, name, _)| name)
    }

    /// A field from its form name or any header name it is recognised by.
    pub fn parse(text: &str) -> Option<Self> {
        let wanted = header_key(text);
        FIELDS
            .iter()
            .find(|(_, name, synonyms)| {
                header_key(name) == wanted || synonyms.contains(&wanted.as_str())
            })
            .map(|(field, ..)| *field)
    }

    /// Every form name, for the message that lists them.
    pub fn all_names() -> Vec<&'static str> {
        FIELDS.iter().map(|(_, name, _)| *name).collect()
    }
}

/// A header compared without case, spaces or punctuation: "Client Name" = "client_name".
fn header_key(header: &str) -> String {
    header
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// What each column of the file is read as (None: ignored).
#[derive(Debug, Clone, PartialEq)]
pub struct ColumnMapping {
    pub headers: Vec<String>,
    pub fields: Vec<Option<LeadField>>,
}

impl ColumnMapping {
    /// Maps the header row: `--map "Column=field"` first (field `ignore` skips a column),
    /// then the common header names. A field claimed by two columns goes to the first.
    pub fn new(headers: &[String], maps: &[String]) -> Result<Self> {
        let mut fields: Vec<Option<LeadField>> = vec![None; headers.len()];
        let mut explicit = vec![false; headers.len()];
        for map in maps {
            let (column, field) = map.split_once('=').ok_or_else(|| {
                Error::Rejected(format!("--map \"{map}\" must look like \"Column=field\""))
            })?;
            let index = headers
                .iter()
                .position(|h| h.trim().eq_ignore_ascii_case(column.trim()))
                .ok_or_else(|| {
                    Error::Rejected(format!(
                        "--map \"{map}\": the file has no column \"{}\"; its columns are: {}",
                        column.trim(),
                        headers.join(", ")
                    ))
                })?;
            let field = field.trim();
            explicit[index] = true;
            if field.eq_ignore_ascii_case("ignore") || field == "-" {
                continue;
            }
            fields[index] = Some(LeadField::parse(field).ok_or_else(|| {
                Error::Rejected(format!(
                    "--map \"{map}\": unknown field \"{field}\"; the fields are: {}",
                    LeadField::all_names().join(", ")
                ))
            })?);
        }
        for (index, header) in headers.iter().enumerate() {
            if explicit[index] {
                continue;
            }
            if let Some(field) = LeadField::parse(header)
                && !fields.contains(&Some(field))
            {
                fields[index] = Some(field);
            }
        }
        let mapping = Self {
            headers: headers.to_vec(),
            fields,
        };
        let has = |field| mapping.fields.contains(&Some(field));
        if !has(LeadField::ClientFullName)
            && !has(LeadField::FirstName)
            && !has(LeadField::LastName)
            && !has(LeadField::CallerName)
        {
            return Err(Error::Rejected(format!(
                "no column holds a name (columns: {}); name one with --map \"Column=clientFullName\"",
                headers.join(", ")
            )));
        }
        Ok(mapping)
    }

    /// The file's header for a form field, for reports ("Phone" rather than callerPhone).
    pub fn column_of(&self, form_field: &str) -> String {
        let from_names = matches!(form_field, "clientFullName");
        self.fields
            .iter()
            .position(|f| {
                f.is_some_and(|f| {
                    f.form_name() == form_field
                        || (from_names && matches!(f, LeadField::FirstName | LeadField::LastName))
                })
            })
            .map_or_else(|| form_field.to_owned(), |i| self.headers[i].clone())
    }

    /// One row as an intake form, normalised. `staff_default` stands in for a missing
    /// staff member taking the call, `today` for a missing call date.
    pub fn form<S: AsRef<str>>(&self, row: &[S], staff_default: &str, today: &str) -> IntakeForm {
        let mut form = IntakeForm::default();
        let mut first = String::new();
        let mut last = String::new();
        for (index, field) in self.fields.iter().enumerate() {
            let Some(field) = field else { continue };
            let value = row.get(index).map_or("", |v| v.as_ref().trim());
            if value.is_empty() {
                continue;
            }
            let text = value.to_owned();
            match field {
                LeadField::ClientFullName => form.client_full_name = person_name(value),
                LeadField::FirstName => first = person_name(value),
                LeadField::LastName => last = person_name(value),
                LeadField::DateOfBirth => form.date_of_birth = normalize_date(value),
                LeadField::CallerName => form.caller_name = person_name(value),
                LeadField::CallerPhone => form.caller_phone = normalize_phone(value),
                LeadField::CallerEmail => form.caller_email = value.to_lowercase(),
                LeadField::RelationshipToClient => form.relationship_to_client = text,
                LeadField::ClientPhone => form.client_phone = normalize_phone(value),
                LeadField::ClientEmail => form.client_email = value.to_lowercase(),
                LeadField::ClientAddress => form.client_address = text,
                LeadField::City => form.city = text,
                LeadField::State => form.state = text,
                LeadField::ZipCode => form.zip_code = text,
                LeadField::ServicesRequired => {
                    form.services_required = option_list(value, SERVICES_REQUIRED)
                }
                LeadField::LivingSituation => {
                    form.living_situation = option_list(value, LIVING_SITUATION)
                }
                LeadField::HowDidYouHear => form.how_did_you_hear = text,
                LeadField::AdditionalComments => form.additional_comments = text,
                LeadField::StaffMemberTakingCall => form.staff_member_taking_call = text,
                LeadField::Date => form.date = normalize_date(value),
                LeadField::GeneralCareNeeds => form.general_care_needs = text,
                LeadField::PrimaryDiagnosis => form.primary_diagnosis = text,
                LeadField::AssignedCoordinator => form.assigned_coordinator = text,
                LeadField::FollowUpNotes => form.follow_up_notes = text,
                LeadField::SourceOfPayment => {
                    form.source_of_payment = option_list(value, SOURCE_OF_PAYMENT)
                }
                LeadField::InsuranceCompany => form.insurance_company = text,
                LeadField::TotalHoursPerWeek => {
                    // An unreadable number is kept as NaN so validation reports it.
                    form.total_hours_per_week = Some(value.parse().unwrap_or(f64::NAN))
                }
                LeadField::PriorityLevel => form.priority_level = text,
                LeadField::ReferralSourceType => form.referral_source_type = text,
            }
        }
        if form.client_full_name.is_empty() && !(first.is_empty() && last.is_empty()) {
            form.client_full_name = format!("{first} {last}").trim().to_owned();
        }
        // A list with no caller column holds people who called for themselves; an empty
        // cell in a caller column is a real gap and validation reports it.
        let has_caller_column = self.fields.contains(&Some(LeadField::CallerName));
        if !has_caller_column && form.caller_name.is_empty() && !form.client_full_name.is_empty() {
            form.caller_name = form.client_full_name.clone();
            if form.relationship_to_client.is_empty() {
                form.relationship_to_client = "Self".to_owned();
            }
        }
        if form.staff_member_taking_call.is_empty() {
            form.staff_member_taking_call = staff_default.to_owned();
        }
        if form.date.is_empty() {
            form.date = today.to_owned();
        }
        form
    }
}

/// Collapses spaces and gives each all-lower or all-upper word its capitals
/// ("nora  BLAKE" → "Nora Blake"); a word typed in mixed case ("McKay") is kept.
pub fn person_name(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        let has_lower = word.chars().any(char::is_lowercase);
        let has_upper = word.chars().any(char::is_uppercase);
        if has_lower && has_upper {
            out.push_str(word);
            continue;
        }
        let mut start_of_part = true;
        for c in word.chars() {
            if start_of_part {
                out.extend(c.to_uppercase());
            } else {
                out.extend(c.to_lowercase());
            }
            start_of_part = matches!(c, '-' | '\'');
        }
    }
    out
}

/// A North American number as "(555) 010-0100"; anything else is kept as typed.
pub fn normalize_phone(text: &str) -> String {
    let digits: String = text.chars().filter(char::is_ascii_digit).collect();
    let has_letters = text.chars().any(|c| c.is_ascii_alphabetic());
    let national = match digits.len() {
        10 => Some(digits.as_str()),
        11 if digits.starts_with('1') => Some(&digits[1..]),
        _ => None,
    };
    match national {
        Some(d) if !has_letters => format!("({}) {}-{}", &d[..3], &d[3..6], &d[6..]),
        _ => text.trim().to_owned(),
    }
}

/// A date as YYYY-MM-DD from the common spreadsheet forms (2025-01-31, 1/31/2025,
/// 01/31/25, 2025/01/31). Two-digit years of birth dates are in the 1900s. Anything
/// else is kept, so validation reports it as not a valid date.
pub fn normalize_date(text: &str) -> String {
    let text = text.trim();
    let parts: Vec<&str> = text.split(['/', '-', '.']).collect();
    let number = |s: &str| s.trim().parse::<i32>().ok();
    let (year, month, day) = match parts.as_slice() {
        [y, m, d] if y.len() == 4 => (number(y), number(m), number(d)),
        [m, d, y] if y.len() == 4 => (number(y), number(m), number(d)),
        [m, d, y] if y.len() == 2 => (number(y).map(|y| 1900 + y), number(m), number(d)),
        _ => (None, None, None),
    };
    match (year, month, day) {
        (Some(y), Some(m), Some(d)) => match jiff::civil::Date::new(y as i16, m as i8, d as i8) {
            Ok(date) => date.to_string(),
            Err(_) => text.to_owned(),
        },
        _ => text.to_owned(),
    }
}

/// A list cell ("companionship; meal prep") as the form's options where they are
/// recognised, else as typed.
pub fn option_list(text: &str, options: &[&str]) -> Vec<String> {
    text.split([';', ',', '|', '\n'])
        .map(str::trim)
        .filter(|item| !item.is_empty())
        .map(|item| {
            let key = header_key(item);
            options
                .iter()
                .find(|option| header_key(option) == key)
                .or_else(|| {
                    options
                        .iter()
                        .find(|option| key.len() >= 4 && header_key(option).starts_with(&key))
                })
                .map_or_else(|| item.to_owned(), |option| (*option).to_owned())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn common_headers_map_to_fields() {
        let headers = strings(&[
            "Client Name",
            "Caller Phone",
            "DOB",
            "E-mail",
            "Caller",
            "Services",
            "Source",
            "Notes",
            "Shoe Size",
        ]);
        let mapping = ColumnMapping::new(&headers, &[]).unwrap();
        assert_eq!(
            mapping.fields,
            vec![
                Some(LeadField::ClientFullName),
                Some(LeadField::CallerPhone),
                Some(LeadField::DateOfBirth),
                Some(LeadField::CallerEmail),
                Some(LeadField::CallerName),
                Some(LeadField::ServicesRequired),
                Some(LeadField::HowDidYouHear),
                Some(LeadField::AdditionalComments),
                None,
            ]
        );
        let mapping =
            ColumnMapping::new(&headers, &strings(&["Shoe Size=notes", "Notes=ignore"])).unwrap();
        assert_eq!(mapping.fields[8], Some(LeadField::AdditionalComments));
        assert_eq!(mapping.fields[7], None);
        assert!(ColumnMapping::new(&headers, &strings(&["Nope=notes"])).is_err());
        assert!(ColumnMapping::new(&headers, &strings(&["DOB=shoe"])).is_err());
        assert!(ColumnMapping::new(&strings(&["Phone"]), &[]).is_err());
    }

    #[test]
    fn values_are_normalised() {
        assert_eq!(person_name("  ROSE   LEE "), "Rose Lee");
        assert_eq!(person_name("mary-jo o'neil"), "Mary-Jo O'Neil");
        assert_eq!(person_name("Ann McKay"), "Ann McKay");
        assert_eq!(person_name("nora  BLAKE"), "Nora Blake");
        assert_eq!(normalize_phone("555.010.0100"), "(555) 010-0100");
        assert_eq!(normalize_phone("+1 555 010 0100"), "(555) 010-0100");
        assert_eq!(normalize_phone("5550100"), "5550100");
        assert_eq!(normalize_date("7/4/1938"), "1938-07-04");
        assert_eq!(normalize_date("07/04/38"), "1938-07-04");
        assert_eq!(normalize_date("1938-07-04"), "1938-07-04");
        assert_eq!(normalize_date("2/30/1940"), "2/30/1940");
        assert_eq!(normalize_date("soon"), "soon");
        assert_eq!(
            option_list("companionship; meal prep, Gardening", SERVICES_REQUIRED),
            strings(&["Companionship", "Meal Preparation", "Gardening"])
        );
    }

    #[test]
    fn a_row_becomes_an_intake_form() {
        let headers = strings(&["First Name", "Last Name", "Phone", "Date of Birth"]);
        let mapping = ColumnMapping::new(&headers, &[]).unwrap();
        let form = mapping.form(
            &strings(&["rose", "LEE", "5550100100", "7/4/1938"]),
            "leads.csv",
            "2025-03-10",
        );
        assert_eq!(form.client_full_name, "Rose Lee");
        assert_eq!(form.caller_name, "Rose Lee");
        assert_eq!(form.relationship_to_client, "Self");
        assert_eq!(form.caller_phone, "(555) 010-0100");
        assert_eq!(form.date_of_birth, "1938-07-04");
        assert_eq!(form.staff_member_taking_call, "leads.csv");
        assert_eq!(form.date, "2025-03-10");
        assert_eq!(mapping.column_of("clientFullName"), "First Name");
        assert_eq!(mapping.column_of("callerPhone"), "Phone");
    }
}
