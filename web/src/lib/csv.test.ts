import { describe, expect, it } from 'vitest';
import sharedCasesText from '../../../fixtures/csv-cells.json?raw';
import { csvCell, neutralizeCell, toCsv } from './csv';

interface SharedCase {
  name: string;
  cell: string;
  neutralized: string;
  written: string;
}

// The cases core's `rules::csv_cell` tests too, so a download here and an export there agree.
const cases = JSON.parse(sharedCasesText) as SharedCase[];

describe('CSV cells', () => {
  it('reads the shared cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(15);
  });

  it.each(cases)('neutralizes $name', ({ cell, neutralized }) => {
    expect(neutralizeCell(cell)).toBe(neutralized);
  });

  it.each(cases)('writes $name', ({ cell, written }) => {
    expect(csvCell(cell)).toBe(written);
  });

  it('writes numbers as numbers and ends rows with CRLF', () => {
    expect(toCsv([['Stage', 'Count'], ['=Intake', 3], ['Change', -2]])).toBe("Stage,Count\r\n'=Intake,3\r\nChange,-2\r\n");
  });
});
