import { Copy, Pencil, Plus } from 'lucide-react';
import { useState } from 'react';
import { Loading } from '@/components/loading';
import { PageHeader } from '@/components/page-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatDate } from '@/lib/format';
import { formatMoney } from '@/lib/money';
import { useHolidayPolicy, usePricingTemplates, type PricingTemplate } from '../api/pricing';
import { EMPTY_TEMPLATE, inputOf, PricingTemplateDialog, type DialogTarget } from './pricing-template-dialog';

function HolidayPolicyCard() {
  const policy = useHolidayPolicy();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Holiday Policy</CardTitle>
        <CardDescription>
          Care on these holidays is billed at the holiday rate ({policy.data ? `${policy.data.multiplier}×` : '1.5×'} the base rate).
        </CardDescription>
      </CardHeader>
      <CardContent>
        {policy.data ? (
          <ul className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
            {policy.data.holidays.map((holiday) => (
              <li key={holiday.name} className="flex justify-between rounded-md border p-2 text-sm">
                <span className="font-medium">{holiday.name}</span>
                <span className="text-muted-foreground">{formatDate(holiday.date)}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">Loading...</p>
        )}
      </CardContent>
    </Card>
  );
}

function TemplateCard({ template, onEdit, onDuplicate }: { template: PricingTemplate; onEdit: () => void; onDuplicate: () => void }) {
  const premium = (value: number) => (value > 0 ? `+${formatMoney(value)}/hr` : 'None');
  return (
    <Card aria-label={template.name}>
      <CardHeader className="flex flex-row items-start justify-between gap-2">
        <div className="flex flex-col gap-1">
          <CardTitle>{template.name}</CardTitle>
          <div className="flex gap-1">
            {template.is_default && <Badge>Default</Badge>}
            {!template.is_active && <Badge variant="outline">Inactive</Badge>}
          </div>
        </div>
        <div className="flex gap-1">
          <Button size="icon" variant="ghost" onClick={onDuplicate} aria-label={`Duplicate ${template.name}`} title="Duplicate">
            <Copy aria-hidden="true" />
          </Button>
          <Button size="icon" variant="ghost" onClick={onEdit} aria-label={`Edit ${template.name}`} title="Edit">
            <Pencil aria-hidden="true" />
          </Button>
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-2 text-sm">
        <p className="text-2xl font-bold">
          {formatMoney(template.base_rate)}
          <span className="text-sm font-normal text-muted-foreground">/hour</span>
        </p>
        <dl className="grid grid-cols-2 gap-1">
          <dt className="text-muted-foreground">Weekend premium</dt>
          <dd>{premium(template.premiums.weekend)}</dd>
          <dt className="text-muted-foreground">Evening premium</dt>
          <dd>{premium(template.premiums.evening)}</dd>
          <dt className="text-muted-foreground">Overnight premium</dt>
          <dd>{premium(template.premiums.overnight)}</dd>
          <dt className="text-muted-foreground">Holiday multiplier</dt>
          <dd>{template.premiums.holiday_multiplier}×</dd>
        </dl>
        {template.notes && <p className="text-muted-foreground">{template.notes}</p>}
      </CardContent>
    </Card>
  );
}

export default function PricingPage() {
  const templates = usePricingTemplates();
  const [target, setTarget] = useState<DialogTarget | null>(null);
  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Pricing Templates"
        description="Hourly rates and premiums a care plan starts from. One template is the default."
        actions={
          <Button onClick={() => setTarget({ draft: EMPTY_TEMPLATE })}>
            <Plus aria-hidden="true" />
            Add New Template
          </Button>
        }
      />
      <HolidayPolicyCard />
      {templates.isPending ? (
        <Loading text="Loading templates..." />
      ) : (
        <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
          {(templates.data?.items ?? []).map((template) => (
            <TemplateCard
              key={template.id}
              template={template}
              onEdit={() => setTarget({ existing: template })}
              onDuplicate={() => setTarget({ draft: { ...inputOf(template), name: `${template.name} (Copy)`, is_default: false } })}
            />
          ))}
        </div>
      )}
      {target && <PricingTemplateDialog key={'existing' in target ? target.existing.id : 'new'} target={target} onClose={() => setTarget(null)} />}
    </div>
  );
}
