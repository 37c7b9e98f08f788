/** Characters that make a spreadsheet read a cell as a formula, or hide one behind a tab
 * or carriage return: core's `rules::csv_cell` guard, tested on the same shared cases
 * (`fixtures/csv-cells.json`). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A text cell a spreadsheet shows as text: one that starts like a formula gets a leading apostrophe. */
export function neutralizeCell(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** A cell as a CSV line holds it: text neutralized, then quoted when it has a comma, quote or line break. */
export function csvCell(value: string | number): string {
  // A number is never a formula (a negative one stays a number).
  if (typeof value === 'number') return String(value);
  const safe = neutralizeCell(value);
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Rows of cells as CSV text, each row ending with CRLF. */
export function toCsv(rows: readonly (readonly (string | number)[])[]): string {
  return rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
