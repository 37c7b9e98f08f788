//! The choice lists of the intake and assessment forms, exactly as the spec names them.
//! Every face (web, TUI, import) reads them from here; the OpenAPI document carries each
//! as a named string enum ([`openapi_schemas`]) so the web generates its lists from it.

pub const LIVING_SITUATION: &[&str] = &[
    "Home / Lives Alone",
    "Home / With Spouse or Child",
    "Care Facility",
    "Other",
];

pub const SERVICES_REQUIRED: &[&str] = &[
    "Personal Care (ADLs)",
    "Companionship",
    "Light Housekeeping",
    "Meal Preparation",
    "Medication Reminders",
    "Transportation/Errands",
    "Skilled Nursing (RN)",
    "Respite Care",
    "24-Hour Care",
];

pub const SOURCE_OF_PAYMENT: &[&str] = &[
    "Private Pay",
    "LTC Insurance",
    "Veterans Benefits",
    "Medicaid Waiver",
];

pub const PREFERRED_METHOD: &[&str] = &["Phone", "Text", "Email"];

/// The office-use priority of an intake.
pub const PRIORITY_LEVELS: &[&str] = &["Low", "Medium", "High", "Urgent"];

pub const LIVING_ARRANGEMENT: &[&str] = &[
    "Lives Alone",
    "Lives with Spouse",
    "Lives with Family Member",
    "Lives with Caregiver",
    "Assisted Living",
    "Other",
];

pub const HOME_TYPE: &[&str] = &["House", "Apartment", "Condo", "Other"];

pub const BEDROOM_LOCATION: &[&str] = &["Main Floor", "Upstairs", "Downstairs/Basement"];

pub const YES_NO: &[&str] = &["Yes", "No"];

pub const GRAB_BARS: &[&str] = &["Bathroom", "Bedroom", "None"];

pub const ACTIVITY_LEVELS: &[&str] = &[
    "Independent",
    "Supervision",
    "Minimal Assist",
    "Moderate Assist",
    "Total Assist",
];

pub const EQUIPMENT: &[&str] = &[
    "Walker",
    "Cane",
    "Wheelchair",
    "Hospital Bed",
    "Lift Chair",
    "Shower Chair",
    "Oxygen",
    "Hoyer Lift",
    "Bedside Commode",
    "Grab Bars",
    "None",
    "Other",
];

pub const ALERTNESS: &[&str] = &["Alert & Oriented x3", "Confused", "Disoriented"];

pub const MEMORY_STATUS: &[&str] = &["Intact", "Short-term issues", "Long-term issues"];

pub const COMMUNICATION_ABILITY: &[&str] = &[
    "No issues",
    "Hearing impairment",
    "Vision impairment",
    "Speech difficulties",
];

pub const GENERAL_MOOD: &[&str] = &[
    "Pleasant/Cooperative",
    "Anxious",
    "Withdrawn",
    "Depressed",
    "Agitated",
];

pub const SUPPORT_SERVICES: &[&str] = &[
    "Physical Therapy",
    "Occupational Therapy",
    "Speech Therapy",
    "Home Health Nursing",
    "Meals on Wheels",
    "Other",
];

pub const FALL_RISK: &[&str] = &["Low", "Moderate", "High"];

pub const CAREGIVER_GENDER_PREFERENCE: &[&str] = &["No Preference", "Female", "Male"];

/// The intake's services except Skilled Nursing (RN), plus Other.
pub const RECOMMENDED_SERVICES: &[&str] = &[
    "Personal Care (ADLs)",
    "Companionship",
    "Light Housekeeping",
    "Meal Preparation",
    "Medication Reminders",
    "Transportation/Errands",
    "Respite Care",
    "24-Hour Care",
    "Other",
];

pub const WEEKDAYS: &[&str] = &[
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

pub const PREFERRED_TIMES: &[&str] = &[
    "Morning 6am-12pm",
    "Afternoon 12pm-6pm",
    "Evening 6pm-12am",
    "Overnight 12am-6am",
];

pub const CONTACT_TYPES: &[&str] = &["primary", "family", "emergency", "other"];

/// Each choice list under the name of its OpenAPI component schema.
pub const NAMED_LISTS: &[(&str, &[&str])] = &[
    ("IntakeLivingSituationOption", LIVING_SITUATION),
    ("IntakeServiceOption", SERVICES_REQUIRED),
    ("IntakePaymentSourceOption", SOURCE_OF_PAYMENT),
    ("IntakePreferredMethodOption", PREFERRED_METHOD),
    ("IntakePriorityOption", PRIORITY_LEVELS),
    ("AssessmentLivingArrangementOption", LIVING_ARRANGEMENT),
    ("AssessmentHomeTypeOption", HOME_TYPE),
    ("AssessmentBedroomLocationOption", BEDROOM_LOCATION),
    ("YesNoOption", YES_NO),
    ("AssessmentGrabBarsOption", GRAB_BARS),
    ("AssessmentActivityLevelOption", ACTIVITY_LEVELS),
    ("AssessmentEquipmentOption", EQUIPMENT),
    ("AssessmentAlertnessOption", ALERTNESS),
    ("AssessmentMemoryStatusOption", MEMORY_STATUS),
    (
        "AssessmentCommunicationAbilityOption",
        COMMUNICATION_ABILITY,
    ),
    ("AssessmentGeneralMoodOption", GENERAL_MOOD),
    ("AssessmentSupportServiceOption", SUPPORT_SERVICES),
    ("AssessmentFallRiskOption", FALL_RISK),
    (
        "AssessmentCaregiverGenderOption",
        CAREGIVER_GENDER_PREFERENCE,
    ),
    ("AssessmentRecommendedServiceOption", RECOMMENDED_SERVICES),
    ("WeekdayOption", WEEKDAYS),
    ("AssessmentPreferredTimeOption", PREFERRED_TIMES),
    ("ContactTypeOption", CONTACT_TYPES),
];

/// The care plan's services as the proposal names them, in [`CarePlanService::ALL`]
/// order (the stored keys are the `CarePlanService` enum).
///
/// [`CarePlanService::ALL`]: super::CarePlanService::ALL
pub fn care_plan_service_labels() -> Vec<&'static str> {
    super::CarePlanService::ALL
        .iter()
        .map(|service| service.label())
        .collect()
}

/// A named enum schema of the OpenAPI document, from which the web generates its copy.
#[cfg(feature = "openapi")]
pub fn enum_schema<V: Into<serde_json::Value>>(
    schema_type: utoipa::openapi::schema::Type,
    values: Vec<V>,
    description: &str,
) -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    utoipa::openapi::schema::ObjectBuilder::new()
        .schema_type(schema_type)
        .enum_values(Some(values))
        .description(Some(description))
        .build()
        .into()
}

/// Every choice list as a named OpenAPI string enum: the values on the wire stay plain
/// strings, the document says which strings.
#[cfg(feature = "openapi")]
pub fn openapi_schemas() -> Vec<(
    String,
    utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
)> {
    let schema = |values: Vec<&'static str>, description: &str| {
        enum_schema(utoipa::openapi::schema::Type::String, values, description)
    };
    let mut schemas: Vec<_> = NAMED_LISTS
        .iter()
        .map(|(name, values)| {
            (
                (*name).to_owned(),
                schema(
                    values.to_vec(),
                    "A choice of a form's list, stored as its label.",
                ),
            )
        })
        .collect();
    schemas.push((
        "CarePlanServiceLabelOption".to_owned(),
        schema(
            care_plan_service_labels(),
            "The care plan services' labels, in the order of CarePlanService.",
        ),
    ));
    schemas
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_named_list_is_distinct_and_has_no_duplicate_values() {
        let mut names: Vec<&str> = NAMED_LISTS.iter().map(|(name, _)| *name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), NAMED_LISTS.len());
        for (name, values) in NAMED_LISTS {
            let mut sorted = values.to_vec();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), values.len(), "{name}");
        }
        assert_eq!(
            care_plan_service_labels()[0],
            "Help with Daily Personal Care"
        );
    }
}
