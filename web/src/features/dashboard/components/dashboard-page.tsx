import { ClipboardList, FileSignature, HeartHandshake, Plus, UserPlus } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { ToolbarFilter } from '@/components/data-table/data-table-toolbar';
import { profilesQueryOptions } from '@/features/communications/api/communications';
import { CountCard } from '@/components/count-card';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { QueueCard } from '@/features/queue/components/queue-card';
import { UpcomingVisitsCard } from '@/features/visits/components/upcoming-visits-card';
import { useMe } from '@/features/auth/api/auth';
import { useDashboard } from '../api/get-dashboard';
import { FollowUpsPanel } from './follow-ups-panel';
import { RecentActivity } from './recent-activity';
import { SetupChecklist } from './setup-checklist';
import { StageAlertsPanel } from './stage-alerts-panel';

export default function DashboardPage() {
  const [params, setParams] = useSearchParams();
  const owner = params.get('owner') ?? '';
  const profiles = useQuery(profilesQueryOptions);
  const owners = [
    { value: '', label: 'Whole Agency' },
    { value: 'me', label: 'Mine' },
    ...(profiles.data?.items ?? []).map((person) => ({ value: person.id, label: person.full_name })),
  ];
  const dashboard = useDashboard(owner);
  const me = useMe();
  const counts = dashboard.data?.counts;
  const followUps = dashboard.data?.follow_ups_due_today ?? [];
  const followUpsCount = dashboard.data?.follow_ups_due_today_count ?? 0;
  return (
    <>
      <PageHeader
        title="Outreach Dashboard"
        description="Next 7 days, plan your schedule effectively."
        actions={
          <>
            <ToolbarFilter
              id="dashboard-coordinator"
              label="Coordinator"
              value={owner}
              onChange={(value) =>
                setParams((current) => {
                  const next = new URLSearchParams(current);
                  if (value) next.set('owner', value);
                  else next.delete('owner');
                  return next;
                }, { replace: true })
              }
              options={owners}
            />
            <Button asChild>
              <Link to="/intake">
                <Plus aria-hidden="true" />
                Add New Lead
              </Link>
            </Button>
          </>
        }
      />
      <SetupChecklist isAdmin={me.data?.is_admin ?? false} />
      <QueueCard />
      <div className="mb-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <CountCard label="New Intakes" count={counts?.new_intakes} to="/clients?filter=intake" icon={<UserPlus className="size-4" aria-hidden="true" />} />
        <CountCard label="Pending Assessments" count={counts?.pending_assessments} to="/assessments" icon={<ClipboardList className="size-4" aria-hidden="true" />} />
        <CountCard label="Active Care Plans" count={counts?.active_care_plans} to="/care-plans" icon={<HeartHandshake className="size-4" aria-hidden="true" />} />
        <CountCard label="Awaiting Signatures" count={counts?.awaiting_signatures} to="/contracts?status=sent" icon={<FileSignature className="size-4" aria-hidden="true" />} />
      </div>
      <UpcomingVisitsCard />
      {followUpsCount > 0 && (
        <FollowUpsPanel owner={owner} count={followUpsCount} followUps={followUps} nextCursor={dashboard.data?.follow_ups_next_cursor} />
      )}
      {dashboard.data && dashboard.data.stage_alert_count > 0 && (
        <StageAlertsPanel clients={dashboard.data.stage_alerts} days={dashboard.data.stage_alert_days} total={dashboard.data.stage_alert_count} />
      )}
      <RecentActivity items={dashboard.data?.recent_activity ?? []} loading={dashboard.isPending} />
    </>
  );
}
