import { useClientContext } from '../api/get-client-context';
import type { Parents } from '../api/types';
import { ClientContextPanel } from './client-context-panel';

/**
 * The client-context panel beside the assessment, care plan and contract forms: it loads
 * the client by intake and files its quick messages under the form's records too.
 */
export function ClientSidePanel({ intakeId, parents }: { intakeId: string | null; parents: Parents }) {
  const client = useClientContext(intakeId);
  if (!intakeId || !client.data) return null;
  const { intake, journey } = client.data;
  const contact = { parents: { ...parents, intake_id: intake.id }, clientName: intake.client_full_name, email: intake.caller_email, phone: intake.caller_phone };
  return <ClientContextPanel contact={contact} age={intake.age ?? null} journey={journey} clientId={intake.id} />;
}
