import { Link } from 'react-router';
import type { IntakeBrief } from '@/api/types';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';

/** Settings → Workflow's stage alert: the clients in their stage longer than the setting. */
export function StageAlertsPanel({ clients, days, total }: { clients: IntakeBrief[]; days: number; total: number }) {
  return (
    <Card className="mb-6 border-destructive" aria-labelledby="stage-alerts-title">
      <CardHeader>
        <CardTitle id="stage-alerts-title">
          In a Stage More Than {days} Days ({total})
        </CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="flex flex-col gap-2">
          {clients.map((client) => (
            <li key={client.id} className="flex items-center justify-between gap-2 rounded-md border p-2 text-sm">
              <Link to={`/clients/${client.id}`} className="font-medium underline">
                {client.client_full_name}
              </Link>
              <span className="flex items-center gap-2">
                <Badge variant="outline">
                  {client.pipeline.overdue && '⚠️ '}
                  {client.pipeline.label}
                </Badge>
                <span className="text-muted-foreground">{client.pipeline.days_in_stage} days</span>
              </span>
            </li>
          ))}
        </ul>
        {total > clients.length && (
          <p className="mt-3 text-sm text-muted-foreground">
            The {clients.length} longest are shown; <Link to="/clients" className="underline">All Clients</Link> flags every one.
          </p>
        )}
      </CardContent>
    </Card>
  );
}
