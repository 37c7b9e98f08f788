/** A chart's numbers as a table and as CSV: headers and rows of cells. */
export interface Figures {
  headers: string[];
  rows: (string | number)[][];
}

function csvCell(value: string | number): string {
  const text = String(value);
  // Quoted when needed; a leading formula character is neutralised for spreadsheets.
  const safe = /^[=+\-@]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function toCsv(figures: Figures): string {
  return [figures.headers, ...figures.rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
