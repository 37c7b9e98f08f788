import { useState } from 'react';
import { Link } from 'react-router';
import { TextField } from '@/components/form/text-field';
import { Loading } from '@/components/loading';
import { PageHeader } from '@/components/page-header';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { defaultAnalyticsRange } from '../api/address';
import { useAnalytics, type Analytics } from '../api/analytics';
import { BarChart } from './bar-chart';
import { FigureCard } from './figure-card';
import type { Figures } from './figure-table';

const orDash = (value: number | null | undefined, unit = '') => (value === null || value === undefined ? '—' : `${value}${unit}`);
const PRIMARY = 'fill-primary';
const SECONDARY = 'fill-chart-2';

function figuresOf(data: Analytics) {
  const funnel: Figures = {
    headers: ['Step', 'Clients', 'Conversion from previous step', 'Drop-off'],
    rows: data.funnel.map((step, index) => [step.label, step.count, index === 0 ? '—' : orDash(step.conversion_percent, '%'), index === 0 ? '—' : step.drop_off]),
  };
  const durations: Figures = {
    headers: ['Step', 'Clients', 'Median days', '90th percentile days'],
    rows: data.durations.map((step) => [step.label, step.clients, orDash(step.median_days), orDash(step.p90_days)]),
  };
  const sources: Figures = { headers: ['Referral source', 'Leads', 'Signed contracts'], rows: data.sources.map((row) => [row.source, row.leads, row.signed]) };
  const weeks: Figures = { headers: ['Week of', 'New intakes'], rows: data.intakes_per_week.map((week) => [week.week_start, week.count]) };
  const speed = data.speed_to_lead;
  const speedFigures: Figures = {
    headers: ['Figure', 'Value'],
    rows: [
      ['Clients contacted', speed.contacted],
      ['Median hours to first contact', orDash(speed.median_hours)],
      ['90th percentile hours', orDash(speed.p90_hours)],
      ['Still waiting for a first contact', speed.waiting_count],
    ],
  };
  const waiting: Figures = {
    headers: ['Client', 'Intake created', 'Hours waiting'],
    rows: speed.waiting.map((client) => [client.client_name, formatDateTime(client.created_at), client.hours_waiting]),
  };
  const declined: Figures = { headers: ['Reason', 'Clients'], rows: data.declined_reasons.map((row) => [row.reason, row.count]) };
  return { funnel, durations, sources, weeks, speedFigures, waiting, declined };
}

export default function AnalyticsPage() {
  const [opening] = useState(defaultAnalyticsRange);
  const [from, setFrom] = useState(opening.from);
  const [to, setTo] = useState(opening.to);
  const analytics = useAnalytics(from, to);
  const data = analytics.data;

  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Analytics" description="For the clients whose intake was taken in the chosen range." />
      <div className="flex flex-wrap gap-4" role="group" aria-label="Date range">
        <TextField id="analytics-from" label="From" type="date" value={from} max={to} onChange={setFrom} />
        <TextField id="analytics-to" label="To" type="date" value={to} min={from} onChange={setTo} />
      </div>
      {analytics.isError && <p className="text-destructive">{errorMessage(analytics.error, 'Failed to load analytics')}</p>}
      {!data ? (
        analytics.isPending && <Loading text="Loading analytics..." />
      ) : (
        (() => {
          const figures = figuresOf(data);
          return (
            <>
              <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
                {data.funnel.map((step) => (
                  <Card key={step.stage} aria-label={`${step.label}: ${step.count}`}>
                    <CardHeader>
                      <CardTitle className="text-sm font-medium text-muted-foreground">{step.label}</CardTitle>
                    </CardHeader>
                    <CardContent>
                      <p className="text-2xl font-bold">{step.count}</p>
                      {step.conversion_percent !== null && step.conversion_percent !== undefined && (
                        <p className="text-xs text-muted-foreground">{step.conversion_percent}% of the previous step</p>
                      )}
                    </CardContent>
                  </Card>
                ))}
              </div>
              <div className="grid gap-4 xl:grid-cols-2">
                <FigureCard
                  id="funnel"
                  title="Funnel"
                  description="Clients reaching each stage, with conversion and drop-off per step."
                  csvName={`funnel_${data.from}_${data.to}`}
                  figures={figures.funnel}
                  chart={
                    <BarChart data={data.funnel} category={(step) => step.label} series={[{ name: 'Clients', value: (step) => step.count, className: PRIMARY }]} />
                  }
                />
                <FigureCard
                  id="durations"
                  title="Days from Intake"
                  description="Median and 90th percentile days from intake to assessment, proposal sent and signed contract."
                  csvName={`days_from_intake_${data.from}_${data.to}`}
                  figures={figures.durations}
                />
                <FigureCard
                  id="sources"
                  title="Leads and Signed Contracts by Source"
                  csvName={`sources_${data.from}_${data.to}`}
                  figures={figures.sources}
                  chart={
                    <BarChart
                      data={data.sources}
                      category={(row) => row.source}
                      series={[
                        { name: 'Leads', value: (row) => row.leads, className: PRIMARY },
                        { name: 'Signed contracts', value: (row) => row.signed, className: SECONDARY },
                      ]}
                    />
                  }
                />
                <FigureCard
                  id="weeks"
                  title="New Intakes per Week"
                  csvName={`intakes_per_week_${data.from}_${data.to}`}
                  figures={figures.weeks}
                  chart={
                    <BarChart data={data.intakes_per_week} category={(week) => week.week_start} series={[{ name: 'New intakes', value: (week) => week.count, className: PRIMARY }]} />
                  }
                />
                <FigureCard
                  id="speed"
                  title="Speed to Lead"
                  description="Hours from an intake to its first outbound email, text or call."
                  csvName={`speed_to_lead_${data.from}_${data.to}`}
                  figures={figures.speedFigures}
                />
                <FigureCard id="declined" title="Declined Reasons" csvName={`declined_${data.from}_${data.to}`} figures={figures.declined} />
              </div>
              <Card aria-labelledby="waiting-title">
                <CardHeader>
                  <CardTitle id="waiting-title">Waiting for a First Contact ({data.speed_to_lead.waiting_count})</CardTitle>
                </CardHeader>
                <CardContent>
                  {data.speed_to_lead.waiting.length === 0 ? (
                    <p className="text-sm text-muted-foreground">Every client of this range has been contacted.</p>
                  ) : (
                    <ul className="flex flex-col gap-1 text-sm">
                      {data.speed_to_lead.waiting.map((client) => (
                        <li key={client.intake_id} className="flex justify-between gap-2">
                          <Link className="font-medium underline" to={`/clients/${client.intake_id}`}>
                            {client.client_name}
                          </Link>
                          <span className="text-muted-foreground">{client.hours_waiting} hours</span>
                        </li>
                      ))}
                    </ul>
                  )}
                </CardContent>
              </Card>
            </>
          );
        })()
      )}
    </div>
  );
}
