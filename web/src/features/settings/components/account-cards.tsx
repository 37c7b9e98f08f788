import { useState } from 'react';
import { toast } from 'sonner';
import { FormErrorSummary } from '@/components/form/form-error-summary';
import { SelectField } from '@/components/form/select-field';
import { SwitchField } from '@/components/form/switch-field';
import { TextField } from '@/components/form/text-field';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { IMAP_AUTH_VALUES, SMTP_TLS_VALUES } from '@/api/options.gen';
import { errorMessage } from '@/lib/api-client';
import {
  useEmailAccount,
  useFetchReplies,
  useReplyMailbox,
  useSaveEmailAccount,
  useSaveReplyMailbox,
  useSaveSmsAccount,
  useSmsAccount,
  useTestEmail,
  useTestText,
  type EmailAccount,
  type ImapAuth,
  type ReplyMailbox,
  type SmsAccount,
  type SmtpTls,
  type TestOutcome,
} from '../api/accounts';

const TLS_LABELS: Record<SmtpTls, string> = {
  starttls: 'STARTTLS (usually port 587)',
  implicit: 'Implicit TLS (usually port 465)',
  none: 'None (a relay on this network only)',
};

/** What the server said of the last test, in its words. */
function Outcome({ outcome }: { outcome: TestOutcome | null }) {
  if (!outcome) return null;
  return (
    <p role="status" className={outcome.ok ? 'rounded-md border bg-accent p-3 text-sm text-accent-foreground' : 'rounded-md border border-destructive p-3 text-sm text-destructive'}>
      {outcome.message}
    </p>
  );
}

function EmailAccountForm({ account }: { account: EmailAccount }) {
  const save = useSaveEmailAccount();
  const test = useTestEmail();
  const [values, setValues] = useState({ host: account.host, port: String(account.port), tls: account.tls, username: account.username });
  const [password, setPassword] = useState('');
  const [outcome, setOutcome] = useState<TestOutcome | null>(null);
  const set = (patch: Partial<typeof values>) => setValues((current) => ({ ...current, ...patch }));

  const submit = () =>
    save.mutate(
      { version: account.version, host: values.host, port: Number(values.port), tls: values.tls, username: values.username, password: password === '' ? null : password },
      {
        onSuccess: () => {
          setPassword('');
          setOutcome(null);
          toast.success('Mail server saved');
        },
      },
    );

  return (
    <form
      noValidate
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      {account.from_environment && (
        <p className="rounded-md border border-warning bg-warning-background p-3 text-sm text-warning">
          CAREPATH_SMTP_URL is set on the server: email goes through the server it names, whatever is saved here.
        </p>
      )}
      <div className="flex flex-wrap gap-2" role="group" aria-label="Presets">
        {account.presets.map((preset) => (
          <Button key={preset.name} type="button" variant="outline" size="sm" onClick={() => set({ host: preset.host, port: String(preset.port), tls: preset.tls })}>
            {preset.name}
          </Button>
        ))}
      </div>
      <FormErrorSummary error={save.error} fallback="Failed to save the mail server" />
      <TextField id="smtp_host" label="Server" value={values.host} onChange={(host) => set({ host })} placeholder="smtp.example.org" />
      <TextField id="smtp_port" label="Port" type="number" min={1} max={65535} value={values.port} onChange={(port) => set({ port })} />
      <SelectField
        id="smtp_tls"
        label="Encryption"
        value={values.tls}
        options={SMTP_TLS_VALUES.map((value) => ({ value, label: TLS_LABELS[value] }))}
        onChange={(tls) => set({ tls: (SMTP_TLS_VALUES as readonly string[]).includes(tls) ? (tls as SmtpTls) : 'starttls' })}
      />
      <TextField id="smtp_username" label="User Name" value={values.username} onChange={(username) => set({ username })} autoComplete="off" />
      <TextField
        id="smtp_password"
        label="Password"
        type="password"
        value={password}
        onChange={setPassword}
        autoComplete="new-password"
        hint={account.password_set ? 'A password is set. Type a new one to replace it.' : 'Stored encrypted; never shown again.'}
      />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save Mail Server'}
        </Button>
        <Button
          type="button"
          variant="outline"
          disabled={test.isPending}
          onClick={() =>
            test.mutate(undefined, {
              onSuccess: setOutcome,
              onError: (error) => setOutcome({ ok: false, message: errorMessage(error, 'The test email could not be sent') }),
            })
          }
        >
          {test.isPending ? 'Sending...' : 'Send a test email'}
        </Button>
      </div>
      <Outcome outcome={outcome ?? (account.tested_at ? { ok: account.test_ok, message: account.test_answer } : null)} />
    </form>
  );
}

/** Settings → Email's mail server, for administrators. */
export function EmailAccountCard() {
  const account = useEmailAccount(true);
  return (
    <Card className="mb-4">
      <CardHeader>
        <CardTitle>Mail Server</CardTitle>
        <CardDescription>The SMTP server proposals, contracts, sign-in links and notifications are sent through. Send a test email after saving.</CardDescription>
      </CardHeader>
      <CardContent>{account.data ? <EmailAccountForm key={account.data.version} account={account.data} /> : <p className="text-sm text-muted-foreground">Loading...</p>}</CardContent>
    </Card>
  );
}

function SmsAccountForm({ account }: { account: SmsAccount }) {
  const save = useSaveSmsAccount();
  const test = useTestText();
  const [values, setValues] = useState({ enabled: account.enabled, base_url: account.base_url, account_sid: account.account_sid });
  const [token, setToken] = useState('');
  const [to, setTo] = useState('');
  const [outcome, setOutcome] = useState<TestOutcome | null>(null);
  const set = (patch: Partial<typeof values>) => setValues((current) => ({ ...current, ...patch }));
  return (
    <form
      noValidate
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate(
          { version: account.version, ...values, auth_token: token === '' ? null : token },
          {
            onSuccess: () => {
              setToken('');
              setOutcome(null);
              toast.success('SMS account saved');
            },
          },
        );
      }}
    >
      {account.from_environment && (
        <p className="rounded-md border border-warning bg-warning-background p-3 text-sm text-warning">
          CAREPATH_SMS_URL is set on the server: texts go through the provider it names, whatever is saved here.
        </p>
      )}
      <FormErrorSummary error={save.error} fallback="Failed to save the SMS account" />
      <SwitchField id="sms_enabled" label="Send text messages" description="Off: texts are kept in the outbox instead of being sent." checked={values.enabled} onChange={(enabled) => set({ enabled })} />
      <TextField id="sms_base_url" label="Provider Address" value={values.base_url} onChange={(base_url) => set({ base_url })} placeholder="https://api.twilio.com" />
      <TextField id="sms_account_sid" label="Account ID" value={values.account_sid} onChange={(account_sid) => set({ account_sid })} autoComplete="off" />
      <TextField
        id="sms_auth_token"
        label="Auth Token"
        type="password"
        value={token}
        onChange={setToken}
        autoComplete="new-password"
        hint={account.auth_token_set ? 'A token is set. Type a new one to replace it.' : 'Stored encrypted; never shown again.'}
      />
      <div>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save SMS Account'}
        </Button>
      </div>
      <TextField id="sms_test_to" label="Test Number" type="tel" value={to} onChange={setTo} placeholder="+1 555 010 2000" />
      <div>
        <Button
          type="button"
          variant="outline"
          disabled={test.isPending}
          onClick={() =>
            test.mutate(to, {
              onSuccess: setOutcome,
              onError: (error) => setOutcome({ ok: false, message: errorMessage(error, 'The test text could not be sent') }),
            })
          }
        >
          {test.isPending ? 'Sending...' : 'Send a test text'}
        </Button>
      </div>
      <Outcome outcome={outcome ?? (account.tested_at ? { ok: account.test_ok, message: account.test_answer } : null)} />
    </form>
  );
}

/** Settings → SMS's provider account, for administrators. */
export function SmsAccountCard() {
  const account = useSmsAccount(true);
  return (
    <Card className="mb-4">
      <CardHeader>
        <CardTitle>SMS Provider</CardTitle>
        <CardDescription>The text message account (Twilio or a compatible provider). Send a test text after saving, or leave texts off.</CardDescription>
      </CardHeader>
      <CardContent>{account.data ? <SmsAccountForm key={account.data.version} account={account.data} /> : <p className="text-sm text-muted-foreground">Loading...</p>}</CardContent>
    </Card>
  );
}

const AUTH_LABELS: Record<ImapAuth, string> = {
  password: 'Password (or app password)',
  oauth2: 'OAuth2 access token (XOAUTH2)',
};

function ReplyMailboxForm({ mailbox }: { mailbox: ReplyMailbox }) {
  const save = useSaveReplyMailbox();
  const fetchNow = useFetchReplies();
  const [values, setValues] = useState({ enabled: mailbox.enabled, host: mailbox.host, port: String(mailbox.port), username: mailbox.username, auth: mailbox.auth, folder: mailbox.folder });
  const [secret, setSecret] = useState('');
  const [outcome, setOutcome] = useState<TestOutcome | null>(null);
  const set = (patch: Partial<typeof values>) => setValues((current) => ({ ...current, ...patch }));
  const secretLabel = values.auth === 'oauth2' ? 'Access Token' : 'Password';
  return (
    <form
      noValidate
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate(
          { version: mailbox.version, enabled: values.enabled, host: values.host, port: Number(values.port), username: values.username, auth: values.auth, folder: values.folder, secret: secret === '' ? null : secret },
          {
            onSuccess: () => {
              setSecret('');
              setOutcome(null);
              toast.success('Reply mailbox saved');
            },
          },
        );
      }}
    >
      <FormErrorSummary error={save.error} fallback="Failed to save the reply mailbox" />
      <SwitchField id="imap_enabled" label="Fetch replies" description="Families' answers to Carepath's emails land in their clients' timelines." checked={values.enabled} onChange={(enabled) => set({ enabled })} />
      <TextField id="imap_host" label="IMAP Server" value={values.host} onChange={(host) => set({ host })} placeholder="imap.example.org" />
      <TextField id="imap_port" label="Port" type="number" min={1} max={65535} value={values.port} onChange={(port) => set({ port })} hint="TLS from the first byte, usually 993." />
      <TextField id="imap_username" label="User Name" value={values.username} onChange={(username) => set({ username })} autoComplete="off" />
      <SelectField
        id="imap_auth"
        label="Sign In With"
        value={values.auth}
        options={IMAP_AUTH_VALUES.map((value) => ({ value, label: AUTH_LABELS[value] }))}
        onChange={(auth) => set({ auth: (IMAP_AUTH_VALUES as readonly string[]).includes(auth) ? (auth as ImapAuth) : 'password' })}
      />
      <TextField
        id="imap_secret"
        label={secretLabel}
        type="password"
        value={secret}
        onChange={setSecret}
        autoComplete="new-password"
        hint={mailbox.secret_set ? 'One is set. Type a new one to replace it.' : 'Stored encrypted; never shown again.'}
      />
      <TextField id="imap_folder" label="Folder" value={values.folder} onChange={(folder) => set({ folder })} placeholder="INBOX" />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save Reply Mailbox'}
        </Button>
        <Button
          type="button"
          variant="outline"
          disabled={fetchNow.isPending}
          onClick={() =>
            fetchNow.mutate(undefined, {
              onSuccess: (fetched) => setOutcome({ ok: fetched.ok, message: fetched.message }),
              onError: (error) => setOutcome({ ok: false, message: errorMessage(error, 'Replies could not be fetched') }),
            })
          }
        >
          {fetchNow.isPending ? 'Fetching...' : 'Fetch replies now'}
        </Button>
      </div>
      <Outcome outcome={outcome ?? (mailbox.checked_at ? { ok: mailbox.check_ok, message: mailbox.check_answer } : null)} />
    </form>
  );
}

/** Settings → Email's reply mailbox, for administrators. */
export function ReplyMailboxCard() {
  const mailbox = useReplyMailbox(true);
  return (
    <Card className="mb-4">
      <CardHeader>
        <CardTitle>Reply Mailbox</CardTitle>
        <CardDescription>The reply-to mailbox Carepath reads over IMAP: replies land in their clients&apos; timelines, unknown senders in Unmatched replies.</CardDescription>
      </CardHeader>
      <CardContent>{mailbox.data ? <ReplyMailboxForm key={mailbox.data.version} mailbox={mailbox.data} /> : <p className="text-sm text-muted-foreground">Loading...</p>}</CardContent>
    </Card>
  );
}
