import { MonitorSmartphone } from 'lucide-react';
import { toast } from 'sonner';
import { DataTable } from '@/components/data-table/data-table';
import { columnHelper } from '@/components/data-table/table-features';
import { PageHeader } from '@/components/page-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { formatDateTime } from '@/lib/format';
import { useMe } from '@/features/auth/api/auth';
import { useEndSession, useSessions, type ActiveSession } from '../api/account';
import { PasskeysCard } from './passkeys-card';
import { SecondFactorCard } from './second-factor-card';

const sessionHelper = columnHelper<ActiveSession>();

function EndButton({ session }: { session: ActiveSession }) {
  const end = useEndSession();
  return (
    <Button
      size="sm"
      variant="outline"
      disabled={end.isPending}
      aria-label={session.current ? 'End this session (sign out here)' : `End the session on ${session.device}`}
      onClick={() => {
        end.mutate(session.id, {
          onSuccess: () => {
            if (session.current) {
              // This browser's cookie is gone: start over at the sign-in page.
              window.location.assign('/login');
              return;
            }
            toast.success(`Session on ${session.device} ended`);
          },
        });
      }}
    >
      End
    </Button>
  );
}

const sessionColumns = sessionHelper.columns([
  sessionHelper.accessor('device', {
    header: 'Device',
    cell: ({ row }) => (
      <span className="flex items-center gap-2 font-medium">
        <MonitorSmartphone className="size-4" aria-hidden="true" />
        {row.original.device}
        {row.original.current && <Badge variant="secondary">This device</Badge>}
      </span>
    ),
  }),
  sessionHelper.accessor('address', { header: 'Address', cell: (info) => info.getValue() || 'Unknown' }),
  sessionHelper.accessor('created_at', { header: 'Signed In', cell: (info) => formatDateTime(info.getValue()) }),
  sessionHelper.accessor('last_seen_at', { header: 'Last Seen', cell: (info) => formatDateTime(info.getValue()) }),
  sessionHelper.display({ id: 'end', header: () => <span className="sr-only">Actions</span>, cell: ({ row }) => <EndButton session={row.original} /> }),
]);

/** The signed-in user's own account: where they are signed in, and ending any of it. */
export default function AccountPage() {
  const me = useMe();
  const enrolling = me.data?.needs_second_factor ?? false;
  // Until a required second factor is set up, the sessions list is out of reach too.
  const sessions = useSessions(!enrolling && me.isSuccess);
  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Your Account" description="Where you are signed in, and how you sign in." />
      <SecondFactorCard />
      <PasskeysCard />
      {!enrolling && (
      <section aria-labelledby="sessions-heading" className="flex flex-col gap-3">
        <h2 id="sessions-heading" className="text-lg font-semibold">
          Active Sessions
        </h2>
        <p className="text-sm text-muted-foreground">Every browser signed in to your account. End any you do not recognise: it is signed out at once.</p>
        <DataTable
          columns={sessionColumns}
          data={sessions.data?.items ?? []}
          getRowId={(session) => session.id}
          caption="Active sessions"
          emptyText="No active sessions."
          loading={sessions.isPending}
        />
      </section>
      )}
    </div>
  );
}
