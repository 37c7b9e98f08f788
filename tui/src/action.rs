//! Everything the user (or the clock) can ask the app to do. Keys become actions through
//! the keymap; `update` is the only place that turns an action into a state change.

/// One request to change the app's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Quit,
    /// `q`/Esc: close what is open, or go back one screen.
    Back,
    GoDashboard,
    GoClients,
    GoAssessments,
    GoCarePlans,
    GoContracts,
    GoVisits,
    NewIntake,
    OpenSearch,
    ToggleHelp,

    Up,
    Down,
    PageUp,
    PageDown,
    Home,
    End,
    /// Enter on a row: its next step.
    Open,

    /// `/` in a list: start the incremental search.
    StartFilter,
    CycleStage,
    CycleUrgency,

    NextField,
    PrevField,
    NextSection,
    PrevSection,
    /// Space: tick a choice (types a space in a text field).
    Toggle,
    /// Submit Intake / Update Intake.
    Save,
    SaveDraft,
    /// Edit the intake shown (client view or read-only form).
    EditIntake,
    ViewIntake,

    AddNote,
    LogCall,
    /// Take the client out of the pipeline (asks for the reason).
    MarkDeclined,
    MarkNotInterested,
    /// Put an archived client back in the pipeline.
    Reopen,

    /// A typed character for the field, box or search being edited.
    Input(char),
    Backspace,
    ClearInput,
    /// Enter in a box being typed in.
    Submit,
    /// Esc in a box being typed in.
    Cancel,

    /// Idle heartbeat: expires toasts and notices outside writes.
    Tick,
    /// Reload what the current screen shows (another process changed the data).
    Refresh,
}
