/**
 * An assessment saved on the device whose server record changed meanwhile: each field
 * that differs is shown twice, this device's value and the server's, and the assessor
 * picks one per field. The choice is saved on top of the server's version.
 */
import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import type { Activity, Assessment, AssessmentForm } from '../api/types';
import { ADL_LABELS, IADL_LABELS, normalizeAssessmentForm } from '../assessment-form-values';

type Side = 'device' | 'server';

/** One field that differs: where it lives in the form and how it reads. */
interface Difference {
  key: string;
  label: string;
  device: string;
  server: string;
}

function words(name: string): string {
  const text = name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function show(value: unknown): string {
  if (value === null || value === undefined || value === '') return '(empty)';
  if (Array.isArray(value)) return value.length === 0 ? '(empty)' : value.map(String).join(', ');
  if (typeof value === 'object') {
    const { level, notes } = value as Activity;
    return [level, notes].filter(Boolean).join(' — ') || '(empty)';
  }
  if (typeof value === 'string') return value;
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Every field (and every daily activity) whose value differs between the two forms. */
export function formDifferences(device: AssessmentForm, server: AssessmentForm): Difference[] {
  const out: Difference[] = [];
  for (const key of Object.keys(device) as (keyof AssessmentForm)[]) {
    if (key === 'adls' || key === 'iadls') {
      const labels: Record<string, string> = key === 'adls' ? ADL_LABELS : IADL_LABELS;
      const mine = device[key] as Record<string, Activity>;
      const theirs = server[key] as Record<string, Activity>;
      for (const activity of Object.keys(mine)) {
        if (!same(mine[activity], theirs[activity])) out.push({ key: `${key}.${activity}`, label: labels[activity] ?? words(activity), device: show(mine[activity]), server: show(theirs[activity]) });
      }
      continue;
    }
    if (!same(device[key], server[key])) out.push({ key, label: words(key), device: show(device[key]), server: show(server[key]) });
  }
  return out;
}

/** The form made of the chosen side of each differing field. */
export function mergeForms(device: AssessmentForm, server: AssessmentForm, choices: Record<string, Side>): AssessmentForm {
  const merged: AssessmentForm = { ...server, adls: { ...server.adls }, iadls: { ...server.iadls } };
  for (const [key, side] of Object.entries(choices)) {
    if (side !== 'device') continue;
    const [top, activity] = key.split('.') as [keyof AssessmentForm, string | undefined];
    if (activity && (top === 'adls' || top === 'iadls')) Object.assign(merged[top], { [activity]: (device[top] as Record<string, Activity>)[activity] });
    else Object.assign(merged, { [top]: device[top] });
  }
  return merged;
}

interface Props {
  device: AssessmentForm;
  server: Assessment;
  onResolve: (form: AssessmentForm, server: Assessment) => void;
  busy: boolean;
}

export function DeviceDraftConflict({ device, server, onResolve, busy }: Props) {
  const serverForm = normalizeAssessmentForm(server.form);
  const differences = formDifferences(device, serverForm);
  const [choices, setChoices] = useState<Record<string, Side>>(() => Object.fromEntries(differences.map((difference): [string, Side] => [difference.key, 'device'])));
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    ref.current?.scrollIntoView({ block: 'start' });
  }, []);
  return (
    <section ref={ref} aria-labelledby="device-draft-conflict-title" className="flex flex-col gap-3 rounded-lg border border-destructive bg-background p-4 text-sm">
      <h2 id="device-draft-conflict-title" className="text-base font-semibold">
        This assessment was changed on the server while you were offline
      </h2>
      <p>Choose, for each field that differs, the version to keep. Nothing is sent until you save your choice.</p>
      {differences.length === 0 && <p>Both versions are the same.</p>}
      <ul className="flex flex-col gap-3">
        {differences.map((difference) => (
          <li key={difference.key}>
            <fieldset className="rounded-md border p-3">
              <legend className="px-1 font-medium">{difference.label}</legend>
              {(['device', 'server'] as const).map((side) => (
                <label key={side} className="flex items-start gap-2 py-1">
                  <input
                    type="radio"
                    name={`choice-${difference.key}`}
                    checked={choices[difference.key] === side}
                    onChange={() => setChoices((current) => ({ ...current, [difference.key]: side }))}
                  />
                  <span>
                    <span className="font-medium">{side === 'device' ? 'This device: ' : 'Server: '}</span>
                    {side === 'device' ? difference.device : difference.server}
                  </span>
                </label>
              ))}
            </fieldset>
          </li>
        ))}
      </ul>
      <div className="flex justify-end">
        <Button type="button" disabled={busy} onClick={() => onResolve(mergeForms(device, serverForm, choices), server)}>
          Keep These Versions
        </Button>
      </div>
    </section>
  );
}
