// Apart from format.ts, which brings date-fns: the family's pages show amounts, not dates,
// and a phone on a weak signal fetches nothing they do not use.

const MONEY = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** Dollars with thousands separators and cents, as the documents print them: "$1,974.48". */
export function formatMoney(value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '';
  return MONEY.format(value);
}
