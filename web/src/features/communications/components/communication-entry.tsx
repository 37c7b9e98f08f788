import { Bell, Check, Mail, MessageSquare, Paperclip, Phone, RotateCw, StickyNote, type LucideIcon } from 'lucide-react';
import { CommunicationStatusBadge } from '@/components/status-badge';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { formatDateTime } from '@/lib/format';
import { useMarkReplyRead } from '../api/communications';
import { replyAttachments, type Communication, type CommunicationType } from '../api/types';

const TYPE_ICONS: Record<CommunicationType, LucideIcon> = {
  email: Mail,
  sms: MessageSquare,
  note: StickyNote,
  phone_log: Phone,
  system_event: Bell,
};

const TYPE_LABELS: Record<CommunicationType, string> = {
  email: 'Email',
  sms: 'SMS',
  note: 'Note',
  phone_log: 'Phone call',
  system_event: 'System event',
};

export function CommunicationEntry({ entry, onRetry, retrying, compact = false }: { entry: Communication; onRetry?: (id: string) => void; retrying?: boolean; compact?: boolean }) {
  const Icon = TYPE_ICONS[entry.communication_type];
  const recipient = entry.recipient_email ?? entry.recipient_phone;
  // A family's reply: the number is who wrote, not who it went to.
  const inbound = entry.direction === 'inbound';
  const retryable = entry.status === 'failed' && (entry.communication_type === 'email' || entry.communication_type === 'sms');
  const unread = inbound && !entry.read_at;
  const markRead = useMarkReplyRead();
  const files = replyAttachments(entry);
  return (
    <li className={`flex gap-3 rounded-md border p-3 ${unread ? 'border-primary bg-accent/40' : ''}`}>
      <span className="mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-full bg-muted" role="img" aria-label={TYPE_LABELS[entry.communication_type]}>
        <Icon className="size-4" aria-hidden="true" />
      </span>
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium">{entry.subject || (inbound ? 'Reply from the family' : TYPE_LABELS[entry.communication_type])}</span>
          {inbound && <Badge variant="secondary">Inbound</Badge>}
          {unread && <Badge>Unread</Badge>}
          <Badge variant={entry.visibility === 'internal' ? 'outline' : 'secondary'}>{entry.visibility === 'internal' ? 'Internal' : 'Client'}</Badge>
          <CommunicationStatusBadge status={entry.status} />
        </div>
        <p className={`text-sm whitespace-pre-line text-muted-foreground ${unread || !inbound ? 'line-clamp-2' : ''}`}>{entry.content}</p>
        {files.length > 0 && (
          <ul className="flex flex-wrap gap-2" aria-label="Files">
            {files.map((file) => (
              <li key={file.id}>
                <a className="inline-flex items-center gap-1 text-sm underline" href={`/api/communications/${entry.id}/attachments/${file.id}`} download={file.name}>
                  <Paperclip className="size-3" aria-hidden="true" />
                  {file.name}
                </a>
              </li>
            ))}
          </ul>
        )}
        {unread && (
          <Button variant="outline" size="sm" className="w-fit" onClick={() => markRead.mutate(entry.id)} disabled={markRead.isPending}>
            <Check aria-hidden="true" />
            Open and mark read
          </Button>
        )}
        {!compact && (
          <div className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
            <time dateTime={entry.sent_at ?? entry.created_at}>{formatDateTime(entry.sent_at ?? entry.created_at)}</time>
            {recipient && <span>{inbound ? 'From' : 'To'}: {recipient}</span>}
            {entry.sender_name && <span>By: {entry.sender_name}</span>}
            {entry.tagged_user_names.length > 0 && <span>Tagged: {entry.tagged_user_names.join(', ')}</span>}
          </div>
        )}
        {compact && <time className="text-xs text-muted-foreground">{formatDateTime(entry.sent_at ?? entry.created_at)}</time>}
        {entry.status === 'failed' && entry.failure_reason && <p className="text-xs text-destructive">{entry.failure_reason}</p>}
        {retryable && onRetry && (
          <Button variant="outline" size="sm" className="w-fit" onClick={() => onRetry(entry.id)} disabled={retrying}>
            <RotateCw aria-hidden="true" />
            Retry
          </Button>
        )}
      </div>
    </li>
  );
}
