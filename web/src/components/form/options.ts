export interface Option {
  value: string;
  label: string;
}

export type Options = readonly string[] | readonly Option[];

export function toOptions(options: Options): Option[] {
  return options.map((option) => (typeof option === 'string' ? { value: option, label: option } : option));
}

/** A stable id fragment for one option of a group. */
export function optionId(fieldId: string, value: string): string {
  return `${fieldId}-${value.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
}
