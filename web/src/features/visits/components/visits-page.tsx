import { useQuery } from '@tanstack/react-query';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { SelectField } from '@/components/form/select-field';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { todayIso } from '@/lib/date-rules';
import { assessorsQueryOptions, useVisits } from '../api/visits';
import type { AssessmentVisit } from '../api/types';
import { addDays, dayLabel, startOfWeek, visitWhen } from '../visit-dates';
import { CalendarFeedCard } from './calendar-feed-card';
import { VisitActions } from './visit-actions';
import { VisitLine } from './visit-line';

type View = 'day' | 'week' | 'list';
const VIEWS: readonly View[] = ['day', 'week', 'list'];
/** The list shows the coming quarter. */
const LIST_DAYS = 90;

function range(view: View, date: string): { from: string; to: string } {
  if (view === 'day') return { from: date, to: date };
  if (view === 'week') {
    const monday = startOfWeek(date);
    return { from: monday, to: addDays(monday, 6) };
  }
  return { from: date, to: addDays(date, LIST_DAYS - 1) };
}

function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

/** Every assessment visit: a day, a week (Monday first) or the coming list, per assessor. */
export default function VisitsPage() {
  const [params, setParams] = useSearchParams();
  const view: View = VIEWS.find((candidate) => candidate === params.get('view')) ?? 'day';
  const date = params.get('date') || todayIso();
  const assessor = params.get('assessor') ?? '';
  const profiles = useQuery(assessorsQueryOptions);
  const { from, to } = range(view, date);
  const visits = useVisits({ from, to, assessor_id: assessor });
  const items = visits.data?.items ?? [];

  const update = (changes: Record<string, string>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          if (value) next.set(key, value);
          else next.delete(key);
        }
        return next;
      },
      { replace: true },
    );
  const step = view === 'week' ? 7 : view === 'list' ? LIST_DAYS : 1;
  const unit = view === 'week' ? 'week' : view === 'list' ? 'period' : 'day';
  const move = (direction: number) => update({ date: addDays(date, direction * step) });

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target)) return;
      if (document.querySelector('[role="dialog"]')) return;
      if (event.key === 'ArrowLeft') move(-1);
      else if (event.key === 'ArrowRight') move(1);
      else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const title = view === 'day' ? dayLabel(date) : view === 'week' ? `Week of ${dayLabel(from)}` : `From ${dayLabel(from)}`;
  return (
    <>
      <PageHeader title="Assessment Visits" description="Home assessment visits by day and week. Use the arrow keys to move between days or weeks." />
      <Tabs value={view} onValueChange={(value) => update({ view: value })}>
        <div className="mb-4 flex flex-wrap items-end gap-3">
          <TabsList>
            <TabsTrigger value="day">Day</TabsTrigger>
            <TabsTrigger value="week">Week</TabsTrigger>
            <TabsTrigger value="list">List</TabsTrigger>
          </TabsList>
          <div className="flex items-center gap-1">
            <Button variant="outline" size="icon" onClick={() => move(-1)} aria-label={`Previous ${unit}`}>
              <ChevronLeft aria-hidden="true" />
            </Button>
            <Button variant="outline" onClick={() => update({ date: '' })}>
              Today
            </Button>
            <Button variant="outline" size="icon" onClick={() => move(1)} aria-label={`Next ${unit}`}>
              <ChevronRight aria-hidden="true" />
            </Button>
          </div>
          <SelectField
            id="visits-assessor"
            label="Assessor"
            className="w-56"
            value={assessor}
            onChange={(value) => update({ assessor: value })}
            placeholder="All assessors"
            options={(profiles.data?.items ?? []).map((profile) => ({ value: profile.id, label: profile.full_name }))}
          />
        </div>
        <h2 className="mb-3 text-lg font-semibold" aria-live="polite">
          {title}
        </h2>
        {visits.isPending && <p className="text-sm text-muted-foreground">Loading visits...</p>}
        <TabsContent value="day">
          <DayView items={items} />
        </TabsContent>
        <TabsContent value="week">
          <WeekView items={items} monday={from} />
        </TabsContent>
        <TabsContent value="list">
          <ListView items={items} />
        </TabsContent>
      </Tabs>
      <CalendarFeedCard />
    </>
  );
}

/** A day, one column per assessor. */
function DayView({ items }: { items: AssessmentVisit[] }) {
  if (items.length === 0) return <p className="text-sm text-muted-foreground">No visits this day.</p>;
  const byAssessor = new Map<string, AssessmentVisit[]>();
  for (const visit of items) byAssessor.set(visit.assessor_name, [...(byAssessor.get(visit.assessor_name) ?? []), visit]);
  return (
    <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
      {[...byAssessor.entries()].map(([name, visits]) => (
        <section key={name} aria-label={`Visits of ${name}`} className="flex flex-col gap-3 rounded-lg border p-4">
          <h3 className="font-semibold">{name}</h3>
          <ul className="flex flex-col gap-3">
            {visits.map((visit) => (
              <li key={visit.id} className="flex flex-col gap-2">
                <VisitLine visit={visit} showAssessor={false} />
                <VisitActions visit={visit} compact />
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

/** Seven days from Monday, each with its visits. */
function WeekView({ items, monday }: { items: AssessmentVisit[]; monday: string }) {
  const days = Array.from({ length: 7 }, (_, index) => addDays(monday, index));
  return (
    <div className="grid gap-3 md:grid-cols-7">
      {days.map((day) => {
        const visits = items.filter((visit) => visit.local_date === day);
        return (
          <section key={day} aria-label={dayLabel(day)} className="flex min-h-24 flex-col gap-2 rounded-lg border p-2">
            <h3 className="text-xs font-semibold text-muted-foreground">{dayLabel(day)}</h3>
            <ul className="flex flex-col gap-2">
              {visits.map((visit) => (
                <li key={visit.id}>
                  <VisitLine visit={visit} />
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </div>
  );
}

function ListView({ items }: { items: AssessmentVisit[] }) {
  if (items.length === 0) return <p className="text-sm text-muted-foreground">No visits in this period.</p>;
  return (
    <ul className="flex flex-col gap-3">
      {items.map((visit) => (
        <li key={visit.id} className="flex flex-col gap-2 rounded-lg border p-3 sm:flex-row sm:items-center sm:justify-between">
          <div className="flex flex-col gap-1">
            <span className="text-sm font-medium">{visitWhen(visit)}</span>
            <VisitLine visit={visit} />
          </div>
          <VisitActions visit={visit} compact />
        </li>
      ))}
    </ul>
  );
}
