import { Phone } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import type { IntakeBrief } from '@/api/types';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { useMoreFollowUps } from '../api/get-follow-ups';

interface FollowUpsPanelProps {
  /** How many are due today in all, as the server counted them. */
  count: number;
  /** The dashboard's first page. */
  followUps: IntakeBrief[];
  nextCursor: string | null | undefined;
  /** The dashboard's coordinator filter, which the next pages keep. */
  owner?: string;
}

export function FollowUpsPanel({ count, followUps, nextCursor, owner = '' }: FollowUpsPanelProps) {
  const [expanded, setExpanded] = useState(false);
  const more = useMoreFollowUps(nextCursor, expanded, owner);
  const shown = [...followUps, ...(more.data?.pages.flatMap((page) => page.items) ?? [])];
  const hasMore = expanded ? more.hasNextPage : Boolean(nextCursor);
  const showMore = () => {
    if (!expanded) setExpanded(true);
    else void more.fetchNextPage();
  };
  return (
    <Card className="mb-6 border-warning">
      <CardHeader>
        <CardTitle>Follow-ups Due Today ({count})</CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="flex flex-col gap-2">
          {shown.map((client) => (
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
        {hasMore && (
          <Button variant="outline" size="sm" className="mt-3" onClick={showMore} disabled={more.isFetching}>
            Show more ({count - shown.length} more due today)
          </Button>
        )}
      </CardContent>
    </Card>
  );
}
