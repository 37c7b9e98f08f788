//! The choice lists of the intake and assessment forms, exactly as the spec names them.
//! Every face (web, TUI, import) reads them from here.

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
