/** Calendar arithmetic on the agency's YYYY-MM-DD days (the server converts them to moments). */

function parts(iso: string): [number, number, number] {
  const [year = 1970, month = 1, day = 1] = iso.split('-').map(Number);
  return [year, month, day];
}

function toIso(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function addDays(iso: string, days: number): string {
  const [year, month, day] = parts(iso);
  return toIso(new Date(Date.UTC(year, month - 1, day + days)));
}

/** The Monday of the week a day falls in. */
export function startOfWeek(iso: string): string {
  const [year, month, day] = parts(iso);
  const weekday = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  return addDays(iso, -((weekday + 6) % 7));
}

/** "Monday, November 23" */
export function dayLabel(iso: string): string {
  const [year, month, day] = parts(iso);
  return new Date(Date.UTC(year, month - 1, day)).toLocaleDateString('en-US', { weekday: 'long', month: 'long', day: 'numeric', timeZone: 'UTC' });
}

/** "10:00" → "10:00 AM" */
export function timeLabel(hhmm: string): string {
  const [hours = 0, minutes = 0] = hhmm.split(':').map(Number);
  const suffix = hours >= 12 ? 'PM' : 'AM';
  const hour = hours % 12 === 0 ? 12 : hours % 12;
  return `${hour}:${String(minutes).padStart(2, '0')} ${suffix}`;
}

export function visitWhen(visit: { local_date: string; local_start_time: string; local_end_time: string }): string {
  return `${dayLabel(visit.local_date)}, ${timeLabel(visit.local_start_time)} – ${timeLabel(visit.local_end_time)}`;
}

/** What an intake's form offers a new visit: the consultation's date, time and place it booked, else the client's address. */
export function visitDefaultsFromIntake(
  form: Partial<Record<'consultationDate' | 'consultationTime' | 'consultationLocation' | 'clientAddress' | 'city' | 'state' | 'zipCode', string>>,
  today: string,
): { date?: string; startTime?: string; place: string } {
  const address = [form.clientAddress, form.city, [form.state, form.zipCode].filter(Boolean).join(' ')]
    .map((part) => (part ?? '').trim())
    .filter(Boolean)
    .join(', ');
  const date = form.consultationDate && form.consultationDate >= today ? form.consultationDate : undefined;
  const startTime = date && form.consultationTime ? form.consultationTime.slice(0, 5) : undefined;
  return { ...(date ? { date } : {}), ...(startTime ? { startTime } : {}), place: (form.consultationLocation ?? '').trim() || address };
}
