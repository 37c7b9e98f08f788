import { ArrowLeft, ArrowRight } from 'lucide-react';
import { useEffect } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { CountCard } from '@/components/count-card';
import { Loading } from '@/components/loading';
import { StageBadge } from '@/components/status-badge';
import { Button } from '@/components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { ArchiveLeadButton } from '@/features/leads/components/archive-lead-button';
import { CommunicationTimeline } from '@/features/communications/components/communication-timeline';
import { ClientWorkCard } from '@/features/queue/components/client-work';
import { useReadReplies } from '@/features/queue/api/queue';
import { ClientVisitsCard } from '@/features/visits/components/client-visits';
import { isApiError } from '@/lib/api-client';
import { formatDate, titleCase } from '@/lib/format';
import { relativeDays } from '@/lib/relative-time';
import { useClientProfile } from '../api/get-client-profile';
import { JourneyBar } from './journey-bar';
import { AssessmentTab, CarePlanTab, ContactsTab, OverviewTab } from './profile-tabs';

const TABS = ['overview', 'assessment', 'care-plan', 'contacts', 'communications'] as const;

export default function ClientProfilePage() {
  const { id = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const profile = useClientProfile(id);
  const requested = params.get('tab');
  const tab = TABS.find((name) => name === requested) ?? 'overview';
  const readReplies = useReadReplies();
  const { mutate: markRead } = readReplies;
  const loaded = Boolean(profile.data);
  // Opening the client's communications reads the family's replies.
  useEffect(() => {
    if (tab === 'communications' && loaded && id) markRead(id);
  }, [tab, loaded, id, markRead]);

  if (profile.isPending) return <Loading text="Loading client..." />;
  if (!profile.data) {
    const notFound = isApiError(profile.error) && profile.error.status === 404;
    return (
      <div className="flex flex-col items-start gap-3">
        <h1 className="text-2xl font-bold">{notFound ? 'Client Not Found' : 'Failed to load client details'}</h1>
        <Button asChild variant="outline">
          <Link to="/clients">
            <ArrowLeft aria-hidden="true" />
            Back to Clients
          </Link>
        </Button>
      </div>
    );
  }

  const { intake, journey } = profile.data;
  const contact = { parents: { intake_id: intake.id }, clientName: intake.client_full_name, email: intake.caller_email, phone: intake.caller_phone };
  return (
    <div className="flex flex-col gap-6">
      <Link to="/clients" className="flex w-fit items-center gap-1 text-sm text-primary hover:underline">
        <ArrowLeft className="size-4" aria-hidden="true" />
        Back to Clients
      </Link>
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-bold">{intake.client_full_name}</h1>
        <StageBadge stage={intake.position.stage} overdue={intake.pipeline.overdue} archived={intake.position.archived} />
        <div className="ml-auto">
          <ArchiveLeadButton intakeId={intake.id} clientName={intake.client_full_name} archived={intake.position.archived} />
        </div>
      </div>
      {intake.position.archived && (
        <div role="status" className="rounded-lg border border-destructive/40 bg-destructive/5 p-3 text-sm">
          <p className="font-semibold">
            {profile.data.archive_status ? titleCase(profile.data.archive_status) : 'Archived'}
            {profile.data.archived_at && ` on ${formatDate(profile.data.archived_at)}`}
          </p>
          {profile.data.archive_reason && <p>Reason: {profile.data.archive_reason}</p>}
        </div>
      )}
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <CountCard label="Age" count={intake.age ?? undefined} />
        <CountCard label="Days in Stage" count={intake.pipeline.days_in_stage} />
        <div className="rounded-lg border p-4 shadow-sm">
          <p className="text-sm font-medium text-muted-foreground">Intake Date</p>
          <p className="mt-2 text-lg font-bold">{formatDate(intake.created_at)}</p>
        </div>
        <div className="rounded-lg border p-4 shadow-sm">
          <p className="text-sm font-medium text-muted-foreground">Last Contact</p>
          <p className="mt-2 text-lg font-bold">{relativeDays(intake.last_contact_date, 'Never')}</p>
          {intake.last_contact_date && <p className="text-xs text-muted-foreground">{formatDate(intake.last_contact_date)}</p>}
        </div>
      </div>
      <div className="flex flex-col gap-3 rounded-lg border p-4">
        <JourneyBar journey={journey} />
        <div className="flex flex-wrap items-center gap-3 text-sm">
          <span className="text-muted-foreground">{intake.pipeline.label}: {intake.pipeline.description}</span>
          <Button asChild size="sm" className="ml-auto">
            <Link to={intake.pipeline.next_route}>
              {intake.pipeline.next_action}
              <ArrowRight aria-hidden="true" />
            </Link>
          </Button>
        </div>
      </div>
      <ClientWorkCard profile={profile.data} />
      <ClientVisitsCard intakeId={intake.id} clientName={intake.client_full_name} canSchedule={!intake.position.archived && !intake.position.latest_assessment_id} />
      <Tabs
        value={tab}
        onValueChange={(value) =>
          setParams((current) => {
            const next = new URLSearchParams(current);
            next.set('tab', value);
            return next;
          }, { replace: true })
        }
      >
        <TabsList>
          <TabsTrigger value="overview">Overview</TabsTrigger>
          <TabsTrigger value="assessment">Assessment</TabsTrigger>
          <TabsTrigger value="care-plan">Care Plan</TabsTrigger>
          <TabsTrigger value="contacts">Contacts</TabsTrigger>
          <TabsTrigger value="communications">Communications</TabsTrigger>
        </TabsList>
        <TabsContent value="overview">
          <OverviewTab intake={intake} />
        </TabsContent>
        <TabsContent value="assessment">
          <AssessmentTab profile={profile.data} />
        </TabsContent>
        <TabsContent value="care-plan">
          <CarePlanTab profile={profile.data} />
        </TabsContent>
        <TabsContent value="contacts">
          <ContactsTab profile={profile.data} />
        </TabsContent>
        <TabsContent value="communications">
          <CommunicationTimeline contact={contact} />
        </TabsContent>
      </Tabs>
    </div>
  );
}
