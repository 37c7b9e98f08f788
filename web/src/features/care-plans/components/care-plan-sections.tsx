import { CheckboxGroupField } from '@/components/form/checkbox-group-field';
import { DateField } from '@/components/form/date-field';
import { bindList, bindNumber, bindText } from '@/components/form/form-binder';
import { FormSection } from '@/components/form/form-section';
import { SelectField } from '@/components/form/select-field';
import { TextField } from '@/components/form/text-field';
import { TextareaField } from '@/components/form/textarea-field';
import { Input } from '@/components/ui/input';
import { formatMoney } from '@/lib/money';
import type { CarePlanBinder, CarePlanQuote, PricingTemplate } from '../api/types';
import { DAY_LABELS, SERVICE_OPTIONS, WEEK_DAYS, type WeekDay } from '../care-plan-form-values';

export function ClientInformationSection({ binder }: { binder: CarePlanBinder }) {
  return (
    <FormSection id="client-information" title="Client Information">
      <TextField {...bindText(binder, 'client_name', 'Client Name')} />
      <TextField {...bindText(binder, 'family_contact_name', 'Family Contact Name')} />
      <TextField {...bindText(binder, 'family_contact_email', 'Family Contact Email')} type="email" />
      <TextField {...bindText(binder, 'care_coordinator_name', 'Care Coordinator Name')} />
    </FormSection>
  );
}

export function ServicesSection({ binder }: { binder: CarePlanBinder }) {
  return (
    <FormSection id="services" title="Services to Provide">
      <CheckboxGroupField {...bindList(binder, 'services', 'Services')} options={SERVICE_OPTIONS} className="md:col-span-2" />
      <TextareaField {...bindText(binder, 'additional_notes', 'Additional Notes')} className="md:col-span-2" />
    </FormSection>
  );
}

export function ScheduleSection({ binder, totalHours }: { binder: CarePlanBinder; totalHours: number | undefined }) {
  const { form, set, errors } = binder;
  const setDay = (day: WeekDay, patch: { time?: string; hours?: number }) => set('schedule', { ...form.schedule, [day]: { ...form.schedule[day], ...patch } });
  return (
    <FormSection id="schedule" title="Care Schedule">
      <div className="md:col-span-2" data-field="schedule" data-invalid={errors.schedule ? 'true' : undefined}>
        <table className="w-full text-sm">
          <caption className="sr-only">Weekly care schedule</caption>
          <thead>
            <tr className="border-b text-left text-muted-foreground">
              <th scope="col" className="py-2 pr-3 font-medium">
                Day
              </th>
              <th scope="col" className="py-2 pr-3 font-medium">
                Time
              </th>
              <th scope="col" className="py-2 font-medium">
                Hours
              </th>
            </tr>
          </thead>
          <tbody>
            {WEEK_DAYS.map((day) => (
              <tr key={day} className="border-b">
                <th scope="row" className="py-2 pr-3 text-left font-medium">
                  {DAY_LABELS[day]}
                </th>
                <td className="py-2 pr-3">
                  <Input
                    aria-label={`${DAY_LABELS[day]} time`}
                    value={form.schedule[day].time}
                    placeholder="e.g. 9am-1pm"
                    disabled={binder.readOnly}
                    onChange={(event) => setDay(day, { time: event.target.value })}
                  />
                </td>
                <td className="py-2">
                  <Input
                    aria-label={`${DAY_LABELS[day]} hours`}
                    aria-invalid={errors[`schedule.${day}`] ? true : undefined}
                    aria-describedby={errors[`schedule.${day}`] ? `schedule-${day}-error` : undefined}
                    type="number"
                    min={0}
                    max={24}
                    step={0.5}
                    className="w-28"
                    value={form.schedule[day].hours === 0 ? '' : String(form.schedule[day].hours)}
                    placeholder="0"
                    disabled={binder.readOnly}
                    onChange={(event) => {
                      const hours = Number(event.target.value);
                      setDay(day, { hours: Number.isFinite(hours) && hours > 0 ? hours : 0 });
                    }}
                  />
                  {errors[`schedule.${day}`] && (
                    <p id={`schedule-${day}-error`} role="alert" className="mt-1 text-xs font-medium text-destructive">
                      {errors[`schedule.${day}`]}
                    </p>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colSpan={2} className="py-2 pr-3 text-left">
                Total Weekly Hours
              </th>
              <td className="py-2 font-semibold" data-testid="schedule-total-hours">
                {totalHours ?? '—'}
              </td>
            </tr>
          </tfoot>
        </table>
        {errors.schedule && (
          <p role="alert" className="mt-1 text-xs font-medium text-destructive">
            {errors.schedule}
          </p>
        )}
      </div>
      <DateField {...bindText(binder, 'proposed_start_date', 'Proposed Start Date')} futureOnly />
    </FormSection>
  );
}

interface CostSectionProps {
  binder: CarePlanBinder;
  templates: readonly PricingTemplate[];
  quote: CarePlanQuote | undefined;
}

export function CostSection({ binder, templates, quote }: CostSectionProps) {
  const { form, set } = binder;
  const options = templates.filter((template) => template.is_active || template.id === form.pricing_template_id).map((template) => ({ value: template.id, label: `${template.name} - ${formatMoney(template.base_rate)}/hour` }));
  const chooseTemplate = (id: string) => {
    const template = templates.find((candidate) => candidate.id === id);
    set('pricing_template_id', template ? template.id : null);
    // The template's base rate is the suggestion; staff may still type another rate.
    if (template) set('hourly_rate', template.base_rate);
  };
  const weekendHours = quote?.weekend_hours ?? 0;
  return (
    <FormSection id="cost" title="Cost of Care">
      <SelectField
        id="pricing_template_id"
        label="Pricing Template"
        value={form.pricing_template_id ?? ''}
        onChange={chooseTemplate}
        options={options}
        placeholder="Select a pricing template"
        hint="Suggested rate based on template - you can adjust manually if needed"
        disabled={binder.readOnly}
      />
      <TextField {...bindNumber(binder, 'hourly_rate', 'Hourly Rate ($)')} step={0.01} min={0} inputMode="decimal" />
      <dl className="grid gap-2 rounded-md border bg-muted/40 p-3 text-sm md:col-span-2" aria-label="Rate breakdown">
        <CostLine label="Hourly Rate" value={quote ? `${formatMoney(quote.hourly_rate)}/hour` : '—'} />
        {weekendHours > 0 && <CostLine label="Weekend Hours" value={`${weekendHours} hours at the same rate`} />}
      </dl>
      {quote && (
        <p className="text-xs text-muted-foreground md:col-span-2" data-testid="rate-source">
          {quote.rate_source}
        </p>
      )}
      <TextField id="total-weekly-hours" label="Total Weekly Hours" value={quote ? String(quote.total_weekly_hours) : ''} onChange={() => undefined} readOnly />
      <dl className="flex flex-col gap-2 rounded-md border border-primary/40 bg-accent p-3 text-accent-foreground" aria-live="polite" aria-label="Cost">
        <CostLine label="Weekly Cost" value={quote ? formatMoney(quote.weekly_cost) : '—'} strong />
        <CostLine label="Approximate Monthly Cost" value={quote ? formatMoney(quote.monthly_cost) : '—'} strong />
      </dl>
    </FormSection>
  );
}

function CostLine({ label, value, strong = false }: { label: string; value: string; strong?: boolean }) {
  return (
    <div className="flex items-center justify-between gap-3">
      <dt className="text-sm">{label}</dt>
      <dd className={strong ? 'text-lg font-bold' : 'font-medium'}>{value}</dd>
    </div>
  );
}
