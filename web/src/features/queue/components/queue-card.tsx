import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { useQueue } from '../api/queue';
import { QueueList } from './queue-list';

const SHOWN = 5;

/** The dashboard's first card: the signed-in user's most late work. */
export function QueueCard() {
  const queue = useQueue();
  const items = queue.data?.items ?? [];
  return (
    <Card className="mb-6" aria-labelledby="my-queue-title">
      <CardHeader className="flex-row items-center justify-between">
        <CardTitle id="my-queue-title">My Queue ({items.length}{queue.data?.more ? '+' : ''})</CardTitle>
        <Button asChild variant="outline" size="sm">
          <Link to="/today">
            Open Today
            <ArrowRight aria-hidden="true" />
          </Link>
        </Button>
      </CardHeader>
      <CardContent>
        <QueueList items={items.slice(0, SHOWN)} emptyText={queue.isPending ? 'Loading...' : 'Nothing is due today.'} />
      </CardContent>
    </Card>
  );
}
