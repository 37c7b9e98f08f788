import { useQueryClient } from '@tanstack/react-query';
import { HeartHandshake } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { TextField } from '@/components/form/text-field';
import { TextareaField } from '@/components/form/textarea-field';
import { SelectField } from '@/components/form/select-field';
import { Loading } from '@/components/loading';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { meQueryKey } from '@/features/auth/api/auth';
import { errorMessage, isApiError } from '@/lib/api-client';
import { completeSetup, uploadLogo, useSetupState, type SetupForm } from '../api/setup';

/** The setup link's secret, from `#token=…` (never sent to the server in the address). */
function readToken(hash: string): string {
  return new URLSearchParams(hash.replace(/^#/, '')).get('token') ?? '';
}

/** Every zone the browser knows, with the server's first. */
function zoneOptions(machineZone: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [machineZone, ...known.filter((zone) => zone !== machineZone)].filter((zone) => zone !== '');
}

export default function SetupPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const state = useSetupState();
  const [token] = useState(() => readToken(window.location.hash));
  useEffect(() => {
    // The secret leaves the address bar (and the history) once read.
    if (token) window.history.replaceState(null, '', window.location.pathname);
  }, [token]);
  const [values, setValues] = useState<Omit<SetupForm, 'token'>>({
    company_name: '',
    postal_address: '',
    contact_phone: '',
    contact_email: '',
    time_zone: '',
    business_hours: '9:00 AM - 5:00 PM',
    admin_name: '',
    admin_email: '',
    admin_password: '',
  });
  const [logo, setLogo] = useState<File | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const machineZone = state.data?.machine_time_zone ?? '';
  const zones = useMemo(() => zoneOptions(machineZone), [machineZone]);
  const zone = values.time_zone || machineZone;
  const set = (patch: Partial<typeof values>) => setValues((current) => ({ ...current, ...patch }));

  if (state.isPending) return <Loading text="Loading Carepath..." />;

  const submit = async () => {
    setBusy(true);
    setError(null);
    setFields({});
    try {
      const user = await completeSetup({ ...values, time_zone: zone, token });
      queryClient.clear();
      queryClient.setQueryData(meQueryKey, user);
      if (logo) {
        try {
          await uploadLogo(logo);
        } catch (cause) {
          toast.error('Logo not saved', { description: errorMessage(cause, 'The logo could not be saved; add it in Settings.') });
        }
      }
      toast.success('Carepath is set up');
      void navigate('/', { replace: true });
    } catch (cause) {
      if (isApiError(cause)) setFields(cause.fields);
      setError(errorMessage(cause, 'Setup failed'));
    } finally {
      setBusy(false);
    }
  };

  const done = state.data && !state.data.needed;
  return (
    <main className="flex min-h-screen items-start justify-center bg-muted p-4 sm:items-center">
      <Card className="w-full max-w-xl">
        <CardHeader className="items-center text-center">
          <HeartHandshake className="size-8 text-primary" aria-hidden="true" />
          <p className="text-sm font-semibold text-primary">Carepath</p>
          <h1 className="text-xl font-semibold">Set Up Your Agency</h1>
          <CardDescription>Your agency's details appear on every letter and contract. You can change them later in Settings.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          {done ? (
            <p role="status" className="rounded-md border bg-accent p-3 text-sm text-accent-foreground">
              Carepath is set up already. <a className="underline" href="/login">Sign in</a> instead.
            </p>
          ) : !token ? (
            <p role="alert" className="rounded-md border border-destructive p-3 text-sm text-destructive">
              Open the setup link that <code>carepath serve</code> printed when it started.
            </p>
          ) : (
            <form
              noValidate
              className="flex flex-col gap-4"
              onSubmit={(event) => {
                event.preventDefault();
                void submit();
              }}
            >
              {error && (
                <p role="alert" className="rounded-md border border-destructive p-3 text-sm text-destructive">
                  {error}
                </p>
              )}
              <fieldset className="flex flex-col gap-4">
                <legend className="mb-2 font-semibold">The agency</legend>
                <TextField id="company_name" label="Agency Name" required value={values.company_name} error={fields.company_name} onChange={(company_name) => set({ company_name })} autoComplete="organization" />
                <TextareaField id="postal_address" label="Address" value={values.postal_address} error={fields.postal_address} onChange={(postal_address) => set({ postal_address })} />
                <TextField id="contact_phone" label="Phone" type="tel" value={values.contact_phone} error={fields.contact_phone} onChange={(contact_phone) => set({ contact_phone })} />
                <TextField id="contact_email" label="Contact Email" type="email" value={values.contact_email} error={fields.contact_email} onChange={(contact_email) => set({ contact_email })} />
                <SelectField id="time_zone" label="Time Zone" required value={zone} options={zones} error={fields.time_zone} onChange={(time_zone) => set({ time_zone })} />
                <TextField id="business_hours" label="Business Hours" value={values.business_hours} error={fields.business_hours} onChange={(business_hours) => set({ business_hours })} />
                <div className="flex flex-col gap-1">
                  <label htmlFor="logo" className="text-sm font-medium">
                    Logo
                  </label>
                  <input id="logo" type="file" accept="image/png,image/jpeg" className="text-sm" onChange={(event) => setLogo(event.target.files?.[0] ?? null)} />
                  <p className="text-xs text-muted-foreground">PNG or JPEG, at most 512 KB. Optional.</p>
                </div>
              </fieldset>
              <fieldset className="flex flex-col gap-4">
                <legend className="mb-2 font-semibold">The first administrator</legend>
                <TextField id="admin_name" label="Your Name" required value={values.admin_name} error={fields.admin_name} onChange={(admin_name) => set({ admin_name })} autoComplete="name" />
                <TextField id="admin_email" label="Your Email" type="email" required value={values.admin_email} error={fields.admin_email} onChange={(admin_email) => set({ admin_email })} autoComplete="email" />
                <TextField
                  id="admin_password"
                  label="Password"
                  type="password"
                  required
                  value={values.admin_password}
                  error={fields.admin_password}
                  onChange={(admin_password) => set({ admin_password })}
                  autoComplete="new-password"
                />
              </fieldset>
              <Button type="submit" disabled={busy}>
                {busy ? 'Setting up...' : 'Set Up Carepath'}
              </Button>
            </form>
          )}
        </CardContent>
      </Card>
    </main>
  );
}
