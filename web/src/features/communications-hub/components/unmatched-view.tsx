import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { useMe } from '@/features/auth/api/auth';
import { DataTablePagination } from '@/components/data-table/data-table-pagination';
import { SEARCH_DEBOUNCE_MS, searchQueryOptions } from '@/components/search/search-api';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { useCursorPager } from '@/lib/cursor-pager';
import { formatDateTime } from '@/lib/format';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useAssignReply, useUnmatchedReplies, type HubCommunication } from '../api/hub';

/** An administrator finds the client by name and puts the reply on their timeline. */
function AssignToClient({ reply }: { reply: HubCommunication }) {
  const [term, setTerm] = useState('');
  const debounced = useDebouncedValue(term.trim(), SEARCH_DEBOUNCE_MS);
  const found = useQuery(searchQueryOptions(debounced));
  const assign = useAssignReply();
  const inputId = `assign-${reply.id}`;
  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={inputId} className="text-sm font-medium">
        Assign to a client
      </label>
      <Input id={inputId} value={term} onChange={(event) => setTerm(event.target.value)} placeholder="Client or caller name" className="max-w-sm" />
      {(found.data?.items ?? []).length > 0 && (
        <ul className="flex flex-wrap gap-2" aria-label="Matching clients">
          {(found.data?.items ?? []).map((client) => (
            <li key={client.id}>
              <Button
                size="sm"
                variant="outline"
                disabled={assign.isPending}
                onClick={() => assign.mutate({ id: reply.id, intakeId: client.id }, { onSuccess: () => toast.success(`Reply assigned to ${client.client_full_name}`) })}
              >
                {client.client_full_name}
                {client.caller_name && <span className="text-muted-foreground"> ({client.caller_name})</span>}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Replies from senders no client could be found for; an administrator assigns each. */
export function UnmatchedView() {
  const pager = useCursorPager();
  const replies = useUnmatchedReplies(pager.cursor);
  const isAdmin = useMe().data?.is_admin ?? false;
  const items = replies.data?.items ?? [];
  return (
    <div className="flex flex-col gap-3">
      {replies.isPending ? (
        <p className="text-sm text-muted-foreground">Loading...</p>
      ) : items.length === 0 ? (
        <p className="py-8 text-center text-muted-foreground">No unmatched replies</p>
      ) : (
        <ul className="flex flex-col gap-2" aria-label="Unmatched replies">
          {items.map((reply) => (
            <li key={reply.id} className="flex flex-col gap-2 rounded-md border p-3">
              <div className="flex flex-wrap items-center gap-2">
                <Badge variant="secondary">{reply.communication_type === 'sms' ? 'SMS' : 'Email'}</Badge>
                <span className="font-medium">From {reply.recipient_email ?? reply.recipient_phone ?? 'an unknown sender'}</span>
                {!reply.read_at && <Badge>Unread</Badge>}
              </div>
              {reply.subject && <p className="font-medium">{reply.subject}</p>}
              <p className="line-clamp-4 text-sm whitespace-pre-line text-muted-foreground">{reply.content}</p>
              <time className="text-xs text-muted-foreground" dateTime={reply.created_at}>
                {formatDateTime(reply.created_at)}
              </time>
              {isAdmin ? <AssignToClient reply={reply} /> : <p className="text-xs text-muted-foreground">An administrator assigns it to its client.</p>}
            </li>
          ))}
        </ul>
      )}
      <DataTablePagination pager={pager} nextCursor={replies.data?.next_cursor} shown={items.length} />
    </div>
  );
}
