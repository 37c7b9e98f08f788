import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { ToolbarFilter } from '@/components/data-table/data-table-toolbar';
import { Loading } from '@/components/loading';
import { PageHeader } from '@/components/page-header';
import { profilesQueryOptions } from '@/features/communications/api/communications';
import { useQueue } from '../api/queue';
import { QueueList } from './queue-list';

/** "Today": a coordinator's follow-ups, visits, replies, waiting proposals and contracts,
 * stage alerts and tasks, most late first, as the server orders them. */
export default function TodayPage() {
  const [params, setParams] = useSearchParams();
  const userId = params.get('user') ?? '';
  // The rows asked for, with the coordinator they were asked for: another coordinator's
  // queue starts at its first page.
  const [asked, setAsked] = useState<{ userId: string; limit: number } | null>(null);
  const limit = asked?.userId === userId ? asked.limit : null;
  const profiles = useQuery(profilesQueryOptions);
  const queue = useQueue(userId, limit);
  const moreLimit = queue.data?.more_limit ?? null;
  const options = [{ value: '', label: 'Mine' }, ...(profiles.data?.items ?? []).map((profile) => ({ value: profile.id, label: profile.full_name }))];
  const items = queue.data?.items ?? [];
  return (
    <>
      <PageHeader
        title="Today"
        description={queue.data ? `${queue.data.owner_name}: what is due today and what is late, most late first.` : 'What is due today and what is late, most late first.'}
        actions={
          <ToolbarFilter
            id="today-coordinator"
            label="Coordinator"
            value={userId}
            onChange={(value) =>
              setParams((current) => {
                const next = new URLSearchParams(current);
                if (value) next.set('user', value);
                else next.delete('user');
                return next;
              }, { replace: true })
            }
            options={options}
          />
        }
      />
      {queue.isPending ? <Loading text="Loading the queue..." /> : <QueueList items={items} emptyText="Nothing is due. Well done." />}
      {queue.data?.more && (
        <div className="mt-3 flex flex-wrap items-center gap-3">
          <p className="text-sm text-muted-foreground">The {items.length} most late are shown; more are due.</p>
          {moreLimit !== null && (
            <Button variant="outline" size="sm" disabled={queue.isPlaceholderData} onClick={() => setAsked({ userId, limit: moreLimit })}>
              {queue.isPlaceholderData ? 'Loading...' : 'Show more'}
            </Button>
          )}
        </div>
      )}
    </>
  );
}
