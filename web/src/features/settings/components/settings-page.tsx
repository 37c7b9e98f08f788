import { dequal } from 'dequal';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { useMe } from '@/features/auth/api/auth';
import { Loading } from '@/components/loading';
import { PageHeader } from '@/components/page-header';
import { FormErrorSummary } from '@/components/form/form-error-summary';
import { SelectField } from '@/components/form/select-field';
import { SwitchField } from '@/components/form/switch-field';
import { TextField } from '@/components/form/text-field';
import { TextareaField } from '@/components/form/textarea-field';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { errorMessage } from '@/lib/api-client';
import { useUnsavedChanges } from '@/lib/unsaved-changes';
import { useSaveSettingsTab, useSettings, type Settings, type SettingsTabName, type SettingsValues } from '../api/settings';
import { EmailAccountCard, ReplyMailboxCard, SmsAccountCard } from './account-cards';
import { ChecklistEditor } from './checklist-editor';
import { LogoCard } from './logo-card';

type SecondFactorPolicy = Settings['workflow']['second_factor_required'];

/** The choices of Workflow → Require a second factor, in the server's words. */
const SECOND_FACTOR_POLICIES: { value: SecondFactorPolicy; label: string }[] = [
  { value: 'nobody', label: 'Nobody' },
  { value: 'administrators', label: 'Administrators' },
  { value: 'everyone', label: 'Everyone' },
];

const SAVED: Record<SettingsTabName, string> = {
  general: 'General settings saved successfully',
  email: 'Email settings saved successfully',
  sms: 'SMS settings saved successfully',
  notifications: 'Notification settings saved successfully',
  workflow: 'Workflow settings saved successfully',
};

/** One tab's form: its own copy of the values, its own Save button and toast. */
function TabForm<T extends SettingsTabName>({
  tab,
  settings,
  title,
  description,
  children,
}: {
  tab: T;
  settings: Settings;
  title: string;
  description: string;
  children: (values: SettingsValues[T], set: (patch: Partial<SettingsValues[T]>) => void) => ReactNode;
}) {
  const [values, setValues] = useState<SettingsValues[T]>(settings[tab] as SettingsValues[T]);
  // What this tab last loaded or saved: leaving with other values asks first.
  const [baseline, setBaseline] = useState<SettingsValues[T]>(values);
  const { settle } = useUnsavedChanges(!dequal(values, baseline));
  const save = useSaveSettingsTab(tab);
  const set = (patch: Partial<SettingsValues[T]>) => setValues((current) => ({ ...current, ...patch }));
  const submit = () => {
    save.mutate(
      { version: settings.versions[tab] ?? 0, values },
      {
        onSuccess: (stored) => {
          setValues(stored[tab]);
          setBaseline(stored[tab]);
          settle();
          toast.success(SAVED[tab]);
        },
        onError: (error) => toast.error('Error', { description: errorMessage(error, 'Failed to save settings') }),
      },
    );
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>
        <form
          noValidate
          className="flex flex-col gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <FormErrorSummary error={save.error} fallback="Failed to save settings" fieldsMarked={false} />
          {children(values, set)}
          <div>
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? 'Saving...' : 'Save Changes'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

const ADMIN_NOTE = 'Only administrators can change this.';

/**
 * What the server says of a tab's fields: which a staff member may not change (shown
 * read-only with a note, so a save changes only what they may) and each number's bounds.
 */
function fieldRules(settings: Settings, tab: SettingsTabName, isAdmin: boolean) {
  const adminOnly = settings.admin_only?.[tab] ?? [];
  return {
    locked: (field: string) => !isAdmin && adminOnly.includes(field),
    hint: (field: string, hint?: string) => (!isAdmin && adminOnly.includes(field) ? ADMIN_NOTE : hint),
    bounds: (field: string) => settings.bounds?.[tab]?.[field],
  };
}

/** Blind copies typed as one comma-separated line, kept as typed while editing. */
function BccField({ initial, readOnly, onChange }: { initial: string[]; readOnly: boolean; onChange: (bcc: string[]) => void }) {
  const [text, setText] = useState(initial.join(', '));
  return (
    <TextField
      id="bcc"
      label="Blind Copies (BCC)"
      value={text}
      readOnly={readOnly}
      hint={readOnly ? ADMIN_NOTE : 'Addresses separated by commas.'}
      onChange={(value) => {
        setText(value);
        onChange(
          value
            .split(',')
            .map((address) => address.trim())
            .filter((address) => address !== ''),
        );
      }}
    />
  );
}

export default function SettingsPage() {
  const settings = useSettings();
  const me = useMe();
  const isAdmin = me.data?.is_admin ?? false;

  if (settings.isPending) return <Loading text="Loading settings..." />;
  if (!settings.data) return <p className="text-destructive">Failed to load settings</p>;
  const data = settings.data;
  const email = fieldRules(data, 'email', isAdmin);
  const sms = fieldRules(data, 'sms', isAdmin);
  const workflow = fieldRules(data, 'workflow', isAdmin);

  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader title="Settings" description="Settings are shared by all staff of the agency." />
      {/* Every tab stays mounted (hidden when inactive), so switching tabs keeps what was typed. */}
      <Tabs defaultValue="general">
        <TabsList aria-label="Settings sections">
          <TabsTrigger value="general">General</TabsTrigger>
          <TabsTrigger value="email">Email</TabsTrigger>
          <TabsTrigger value="sms">SMS</TabsTrigger>
          <TabsTrigger value="notifications">Notifications</TabsTrigger>
          <TabsTrigger value="workflow">Workflow</TabsTrigger>
          <TabsTrigger value="templates">Templates</TabsTrigger>
        </TabsList>
        <TabsContent value="general" forceMount className="data-[state=inactive]:hidden">
          <LogoCard settings={data} isAdmin={isAdmin} />
          <TabForm tab="general" settings={data} title="General Settings" description="Company details printed on PDFs and the proposal letter.">
            {(values, set) => (
              <>
                <TextField id="company_name" label="Company Name" value={values.company_name} onChange={(company_name) => set({ company_name })} />
                <TextField id="contact_email" label="Contact Email" type="email" value={values.contact_email} onChange={(contact_email) => set({ contact_email })} />
                <TextField id="contact_phone" label="Contact Phone" type="tel" value={values.contact_phone} onChange={(contact_phone) => set({ contact_phone })} />
                <TextField id="fax" label="Fax" type="tel" value={values.fax} onChange={(fax) => set({ fax })} />
                <TextareaField id="postal_address" label="Address" value={values.postal_address} onChange={(postal_address) => set({ postal_address })} />
                <TextField id="business_hours" label="Business Hours" value={values.business_hours} onChange={(business_hours) => set({ business_hours })} />
                <TextField
                  id="time_zone"
                  label="Time Zone"
                  hint="An IANA zone such as America/Chicago; empty uses the server's zone. Decides 'today' and what is overdue."
                  value={values.time_zone}
                  onChange={(time_zone) => set({ time_zone })}
                />
              </>
            )}
          </TabForm>
        </TabsContent>
        <TabsContent value="email" forceMount className="data-[state=inactive]:hidden">
          {isAdmin && <EmailAccountCard />}
          {isAdmin && <ReplyMailboxCard />}
          <TabForm tab="email" settings={data} title="Email Settings" description="Sender, reply-to and copies of every outgoing email.">
            {(values, set) => (
              <>
                <TextField
                  id="default_from"
                  label="Default From"
                  type="email"
                  value={values.default_from}
                  readOnly={email.locked('default_from')}
                  hint={email.hint('default_from')}
                  onChange={(default_from) => set({ default_from })}
                />
                <TextField
                  id="reply_to"
                  label="Reply-To"
                  type="email"
                  value={values.reply_to}
                  readOnly={email.locked('reply_to')}
                  hint={email.hint('reply_to')}
                  onChange={(reply_to) => set({ reply_to })}
                />
                <TextareaField id="signature" label="Signature" value={values.signature} onChange={(signature) => set({ signature })} />
                <TextField
                  id="default_cc"
                  label="Default CC"
                  value={values.default_cc}
                  readOnly={email.locked('default_cc')}
                  hint={email.hint('default_cc', 'Addresses separated by commas.')}
                  onChange={(default_cc) => set({ default_cc })}
                />
                <BccField initial={values.bcc} readOnly={email.locked('bcc')} onChange={(bcc) => set({ bcc })} />
              </>
            )}
          </TabForm>
        </TabsContent>
        <TabsContent value="sms" forceMount className="data-[state=inactive]:hidden">
          {isAdmin && <SmsAccountCard />}
          <TabForm tab="sms" settings={data} title="SMS Settings" description="The sender number and the SMS dialogs' warnings.">
            {(values, set) => (
              <>
                <TextField
                  id="default_sender_number"
                  label="Default Sender Number"
                  type="tel"
                  value={values.default_sender_number}
                  readOnly={sms.locked('default_sender_number')}
                  hint={sms.hint('default_sender_number')}
                  onChange={(default_sender_number) => set({ default_sender_number })}
                />
                <SwitchField
                  id="show_character_limit_warnings"
                  label="Show character limit warnings"
                  checked={values.show_character_limit_warnings}
                  onChange={(show_character_limit_warnings) => set({ show_character_limit_warnings })}
                />
              </>
            )}
          </TabForm>
        </TabsContent>
        <TabsContent value="notifications" forceMount className="data-[state=inactive]:hidden">
          <TabForm tab="notifications" settings={data} title="Notification Settings" description="What the client's assigned coordinator is told, and how; when families and assessors are reminded of visits.">
            {(values, set) => (
              <>
                <SwitchField
                  id="email_on_new_communication"
                  label="Email notifications for new communications"
                  description="The assigned coordinator gets an email when someone else logs a communication on their client, and a daily digest of their overdue clients."
                  checked={values.email_on_new_communication}
                  onChange={(email_on_new_communication) => set({ email_on_new_communication })}
                />
                <SwitchField
                  id="sms_on_urgent_updates"
                  label="SMS notifications for urgent updates"
                  description="When someone else logs a communication on an overdue client, or the family replies, the assigned coordinator gets a text at the mobile number an administrator set in Admin → Users."
                  checked={values.sms_on_urgent_updates}
                  onChange={(sms_on_urgent_updates) => set({ sms_on_urgent_updates })}
                />
                <SwitchField
                  id="inbound_reply_alerts"
                  label="Alerts for inbound replies"
                  description={`A text message a family sends to the agency's number is kept in the client's communications, and the assigned coordinator (else every administrator) gets an email. Set your SMS provider's messaging webhook to ${window.location.origin}/api/sms/replies.`}
                  checked={values.inbound_reply_alerts}
                  onChange={(inbound_reply_alerts) => set({ inbound_reply_alerts })}
                />
                <TextField
                  id="visit_reminder_time"
                  label="Visit reminder time"
                  type="time"
                  value={values.visit_reminder_time}
                  hint="The day before an assessment visit, at this time in the agency's time zone, the family contact gets a reminder: a text message, or an email when there is no phone number."
                  onChange={(visit_reminder_time) => set({ visit_reminder_time })}
                />
                <TextField
                  id="assessor_summary_time"
                  label="Assessor summary time"
                  type="time"
                  value={values.assessor_summary_time}
                  hint="On each day with visits, at this time, every assessor gets an email listing their visits of the day."
                  onChange={(assessor_summary_time) => set({ assessor_summary_time })}
                />
              </>
            )}
          </TabForm>
        </TabsContent>
        <TabsContent value="workflow" forceMount className="data-[state=inactive]:hidden">
          <TabForm tab="workflow" settings={data} title="Workflow Settings" description="Stage alerts, assignment, sign-out, how long family links work and the start-of-care checklist.">
            {(values, set) => (
              <>
                <TextField
                  id="stage_alert_days"
                  label="Alert if a client stays in a stage for more than (days)"
                  type="number"
                  min={workflow.bounds('stage_alert_days')?.min}
                  max={workflow.bounds('stage_alert_days')?.max}
                  step={1}
                  readOnly={workflow.locked('stage_alert_days')}
                  hint={workflow.hint('stage_alert_days')}
                  value={String(values.stage_alert_days)}
                  onChange={(text) => set({ stage_alert_days: Number(text) })}
                />
                <SwitchField
                  id="auto_assign_intakes"
                  label="Auto-assign new intakes to coordinators"
                  description="New intakes without a coordinator go to active staff in turn."
                  checked={values.auto_assign_intakes}
                  onChange={(auto_assign_intakes) => set({ auto_assign_intakes })}
                />
                <TextField
                  id="proposal_follow_up_days"
                  label="Follow up on a proposal not answered after (days)"
                  type="number"
                  min={workflow.bounds('proposal_follow_up_days')?.min}
                  max={workflow.bounds('proposal_follow_up_days')?.max}
                  step={1}
                  hint={workflow.hint('proposal_follow_up_days', 'A proposal sent this many days ago without an answer joins its coordinator\'s Today.')}
                  value={String(values.proposal_follow_up_days)}
                  onChange={(text) => set({ proposal_follow_up_days: Number(text) })}
                />
                <TextField
                  id="contract_follow_up_days"
                  label="Follow up on a contract not signed after (days)"
                  type="number"
                  min={workflow.bounds('contract_follow_up_days')?.min}
                  max={workflow.bounds('contract_follow_up_days')?.max}
                  step={1}
                  hint={workflow.hint('contract_follow_up_days', 'A contract sent this many days ago and not signed joins its coordinator\'s Today.')}
                  value={String(values.contract_follow_up_days)}
                  onChange={(text) => set({ contract_follow_up_days: Number(text) })}
                />
                <TextField
                  id="idle_timeout_minutes"
                  label="Sign out after idle (minutes)"
                  type="number"
                  min={workflow.bounds('idle_timeout_minutes')?.min}
                  max={workflow.bounds('idle_timeout_minutes')?.max}
                  step={1}
                  readOnly={workflow.locked('idle_timeout_minutes')}
                  hint={workflow.hint('idle_timeout_minutes')}
                  value={String(values.idle_timeout_minutes)}
                  onChange={(text) => set({ idle_timeout_minutes: Number(text) })}
                />
                <TextField
                  id="signing_link_days"
                  label="Family links work for (days)"
                  type="number"
                  min={workflow.bounds('signing_link_days')?.min}
                  max={workflow.bounds('signing_link_days')?.max}
                  step={1}
                  readOnly={workflow.locked('signing_link_days')}
                  hint={workflow.hint('signing_link_days', 'How long a proposal approval or contract signing link sent to a family works.')}
                  value={String(values.signing_link_days)}
                  onChange={(text) => set({ signing_link_days: Number(text) })}
                />
                <TextField
                  id="offline_retention_days"
                  label="Devices keep offline visits for (days)"
                  type="number"
                  min={workflow.bounds('offline_retention_days')?.min}
                  max={workflow.bounds('offline_retention_days')?.max}
                  step={1}
                  readOnly={workflow.locked('offline_retention_days')}
                  hint={workflow.hint('offline_retention_days', "How long a tablet keeps the clients of its assessor's coming visits and unsent assessments, encrypted, before erasing them.")}
                  value={String(values.offline_retention_days)}
                  onChange={(text) => set({ offline_retention_days: Number(text) })}
                />
                <SelectField
                  id="second_factor_required"
                  label="Require a second factor"
                  options={SECOND_FACTOR_POLICIES}
                  placeholder="Choose who"
                  disabled={workflow.locked('second_factor_required')}
                  hint={workflow.hint('second_factor_required', 'Who must sign in with an authenticator app. Someone who must and has none is sent to set one up after signing in.')}
                  value={values.second_factor_required}
                  onChange={(choice) => set({ second_factor_required: choice as SecondFactorPolicy })}
                />
                <ChecklistEditor items={values.start_of_care_checklist} onChange={(start_of_care_checklist) => set({ start_of_care_checklist })} />
              </>
            )}
          </TabForm>
        </TabsContent>
        <TabsContent value="templates">
          <Card>
            <CardHeader>
              <CardTitle>Templates</CardTitle>
              <CardDescription>Message, contract and pricing templates.</CardDescription>
            </CardHeader>
            <CardContent className="flex flex-col gap-2 sm:flex-row">
              <Button variant="outline" asChild>
                <Link to="/settings/templates">Message Templates</Link>
              </Button>
              <Button variant="outline" asChild>
                <Link to="/contracts/settings">Contract Template</Link>
              </Button>
              <Button variant="outline" asChild>
                <Link to="/settings/pricing">Pricing Templates</Link>
              </Button>
            </CardContent>
          </Card>
        </TabsContent>
      </Tabs>
    </div>
  );
}
