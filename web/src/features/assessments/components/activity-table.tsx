import { NativeSelect, Input } from '@/components/ui/input';
import type { Activity } from '../api/types';
import { ASSESSMENT_ACTIVITY_LEVEL_OPTION_VALUES as ACTIVITY_LEVELS } from '@/api/options.gen';

interface ActivityTableProps<K extends string> {
  id: string;
  title: string;
  keys: readonly K[];
  labels: Record<K, string>;
  value: Record<K, Activity>;
  onChange: (value: Record<K, Activity>) => void;
}

/** One row per daily activity: its level of help and the assessor's notes. */
export function ActivityTable<K extends string>({ id, title, keys, labels, value, onChange }: ActivityTableProps<K>) {
  const update = (key: K, patch: Partial<Activity>) => onChange({ ...value, [key]: { ...value[key], ...patch } });
  return (
    <section aria-labelledby={`${id}-title`} className="rounded-lg border p-4">
      <h2 id={`${id}-title`} className="mb-4 text-base font-semibold">
        {title}
      </h2>
      <div className="overflow-x-auto">
        <table className="w-full text-sm">
          <caption className="sr-only">{title}</caption>
          <thead>
            <tr className="border-b text-left text-muted-foreground">
              <th scope="col" className="py-2 pr-3">
                Activity
              </th>
              <th scope="col" className="py-2 pr-3">
                Level
              </th>
              <th scope="col" className="py-2">
                Notes
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.map((key) => (
              <tr key={key} className="border-b last:border-0">
                <th scope="row" className="py-2 pr-3 text-left font-medium">
                  {labels[key]}
                </th>
                <td className="py-2 pr-3">
                  <NativeSelect aria-label={`${labels[key]} level`} value={value[key].level} onChange={(event) => update(key, { level: event.target.value })}>
                    <option value="">Select...</option>
                    {ACTIVITY_LEVELS.map((level) => (
                      <option key={level} value={level}>
                        {level}
                      </option>
                    ))}
                  </NativeSelect>
                </td>
                <td className="py-2">
                  <Input aria-label={`${labels[key]} notes`} value={value[key].notes} onChange={(event) => update(key, { notes: event.target.value })} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
