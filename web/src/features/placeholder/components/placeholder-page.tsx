import { useLocation } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { Card, CardContent } from '@/components/ui/card';

const TITLES: Record<string, string> = {
  '/care-plans': 'Care Plans',
  '/care-plans/new': 'Care Plan Proposal',
  '/contracts': 'Contracts',
  '/contracts/new': 'Generate Contract',
  '/contracts/settings': 'Contract Template Settings',
  '/communications': 'Communication Hub',
  '/analytics': 'Analytics',
  '/settings': 'Settings',
  '/settings/pricing': 'Pricing Templates',
  '/settings/templates': 'Message Templates',
};

/** Screens of the second spec document that the web UI does not show yet. */
export default function PlaceholderPage() {
  const { pathname } = useLocation();
  return (
    <>
      <PageHeader title={TITLES[pathname] ?? 'Carepath'} />
      <Card>
        <CardContent className="p-6 text-sm text-muted-foreground">This screen is not available in the web app yet. Use the terminal app or the command line for it meanwhile.</CardContent>
      </Card>
    </>
  );
}
