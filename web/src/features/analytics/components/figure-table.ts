import { toCsv as rowsToCsv } from '@/lib/csv';

/** A chart's numbers as a table and as CSV: headers and rows of cells. */
export interface Figures {
  headers: string[];
  rows: (string | number)[][];
}

export function toCsv(figures: Figures): string {
  return rowsToCsv([figures.headers, ...figures.rows]);
}
