// The first data of the screens whose address's query (or the day) says what they show:
// the clients list (its stage and owner), the intake form (`?intake_id=`) and analytics
// (the 90 days up to today). The server's page is
// the same for every query, so it names none of it (routes.ts's FIRST_DATA is by path);
// the page's own script (src/first-data.ts) asks for it as the page starts, and the app
// then asks the same (screens.test.ts checks that they agree).
import { analyticsAddress, defaultAnalyticsRange } from '@/features/analytics/api/address';
import { clientsAddress, clientsQueryFor } from '@/features/clients/api/address';
import { intakeAddress } from '@/features/intake/api/address';
import { PLAIN_PARAMETER, SESSION_CHECK } from './routes';

/** What the staff screen at `pathname` with `search` asks first, session check included;
 * none for another screen or an id that is not plain. */
export function queryFirstDataOf(pathname: string, search: string): string[] {
  const params = new URLSearchParams(search);
  switch (pathname) {
    case '/clients':
      return [SESSION_CHECK, clientsAddress(clientsQueryFor(params))];
    case '/intake': {
      const id = params.get('intake_id');
      return id !== null && PLAIN_PARAMETER.test(id) ? [SESSION_CHECK, intakeAddress(id)] : [];
    }
    case '/analytics': {
      const { from, to } = defaultAnalyticsRange();
      return [SESSION_CHECK, analyticsAddress(from, to)];
    }
    default:
      return [];
  }
}
