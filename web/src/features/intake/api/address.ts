// Where an intake is read, in a module with nothing to import: the page's first-data
// script (src/first-data.ts) asks for the intake the form opens before the app has loaded.

/** The address of intake `id`. */
export const intakeAddress = (id: string) => `/api/intakes/${id}`;
