import { Phone } from 'lucide-react';
import { Link } from 'react-router';
import type { IntakeSummary } from '@/api/types';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';

export function FollowUpsPanel({ followUps }: { followUps: IntakeSummary[] }) {
  return (
    <Card className="mb-6 border-warning">
      <CardHeader>
        <CardTitle>Follow-ups Due Today ({followUps.length})</CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="flex flex-col gap-2">
          {followUps.map((client) => (
            <li key={client.id} className="flex flex-col gap-2 rounded-md border p-3 sm:flex-row sm:items-center sm:justify-between">
              <div>
                <p className="font-medium">
                  {client.client_full_name}
                  {client.age !== null && <span className="ml-2 text-sm font-normal text-muted-foreground">Age {client.age}</span>}
                </p>
                {client.follow_up_notes && <p className="text-sm text-muted-foreground">{client.follow_up_notes}</p>}
              </div>
              <Button asChild size="sm">
                <Link to={client.pipeline.next_route} aria-label={`Contact Now: ${client.client_full_name}`}>
                  <Phone aria-hidden="true" />
                  Contact Now
                </Link>
              </Button>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
