import { CalendarSync } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { TextField } from '@/components/form/text-field';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { formatDate } from '@/lib/format';
import { useCalendarFeed, useCreateCalendarFeed, useRevokeCalendarFeed } from '../api/visits';

/** The signed-in user's private calendar feed: make an address, replace it, revoke it. */
export function CalendarFeedCard() {
  const status = useCalendarFeed();
  const create = useCreateCalendarFeed();
  const revoke = useRevokeCalendarFeed();
  // The address is shown once, right after it is made; only its owner ever sees it.
  const [address, setAddress] = useState<string | null>(null);
  const active = status.data?.active ?? false;
  const onCreate = () =>
    create.mutate(undefined, {
      onSuccess: (answer) => {
        setAddress(answer.url);
        toast.success('Calendar feed address created');
      },
    });
  const onRevoke = () =>
    revoke.mutate(undefined, {
      onSuccess: () => {
        setAddress(null);
        toast.success('Calendar feed revoked');
      },
    });
  return (
    <Card className="mt-6">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <CalendarSync className="size-4" aria-hidden="true" />
          Your Calendar Feed
        </CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 text-sm">
        <p className="text-muted-foreground">
          Subscribe to your assessment visits in your own calendar program. The address is private: anyone who has it can read your visits, so revoke it if it is shared by mistake.
        </p>
        {active && !address && <p>Active since {formatDate(status.data?.created_at ?? null)}.</p>}
        {address && <TextField id="calendar-feed-address" label="Feed address (copy it now; it is shown once)" value={address} onChange={() => undefined} readOnly />}
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={onCreate} disabled={create.isPending}>
            {active ? 'Replace Feed Address' : 'Create Feed Address'}
          </Button>
          {active && (
            <Button variant="outline" onClick={onRevoke} disabled={revoke.isPending}>
              Revoke Feed
            </Button>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
