import { AlertTriangle } from 'lucide-react';
import { useNavigate } from 'react-router';
import type { IntakeBrief } from '@/api/types';
import { PipelineBadge } from '@/components/status-badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/cn';
import { formatDate } from '@/lib/format';

export function RecentActivity({ items, loading }: { items: IntakeBrief[]; loading: boolean }) {
  const navigate = useNavigate();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Recent Activity</CardTitle>
      </CardHeader>
      <CardContent>
        {loading ? (
          <p className="py-6 text-center text-sm text-muted-foreground">Loading...</p>
        ) : items.length === 0 ? (
          <p className="py-6 text-center text-sm text-muted-foreground">No recent activity. Start by creating an intake.</p>
        ) : (
          <ul className="flex flex-col gap-2">
            {items.map((client) => (
              <li key={client.id}>
                <button
                  type="button"
                  onClick={() => void navigate(client.pipeline.next_route)}
                  className={cn('flex w-full flex-col gap-1 rounded-md border p-3 text-left hover:bg-muted sm:flex-row sm:items-center sm:justify-between', client.pipeline.overdue && 'border-destructive')}
                >
                  <span className="flex flex-col gap-1">
                    <span className="flex flex-wrap items-center gap-2 font-medium">
                      {client.pipeline.overdue && <AlertTriangle className="size-4 text-destructive" aria-label="Overdue" />}
                      {client.client_full_name}
                      {client.age !== null && <span className="text-sm font-normal text-muted-foreground">Age {client.age}</span>}
                      <PipelineBadge label={client.pipeline.label} overdue={client.pipeline.overdue} />
                    </span>
                    <span className="text-sm text-muted-foreground">{client.pipeline.description}</span>
                  </span>
                  <span className="flex flex-col text-sm sm:items-end">
                    <span className="text-muted-foreground">{formatDate(client.created_at)}</span>
                    <span className="font-medium text-primary">Next: {client.pipeline.next_action}</span>
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
