import { useQuery } from '@tanstack/react-query';
import { AlertTriangle, Search } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { IntakeSummary } from '@/api/types';
import { PipelineBadge } from '@/components/status-badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { formatDate } from '@/lib/format';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { SEARCH_DEBOUNCE_MS, SEARCH_MIN_CHARACTERS, searchQueryOptions } from './search-api';

export function SearchDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-xl">
        {open && <SearchPanel onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function SearchPanel({ onDone }: { onDone: () => void }) {
  const navigate = useNavigate();
  const [typed, setTyped] = useState('');
  const term = useDebouncedValue(typed.trim(), SEARCH_DEBOUNCE_MS);
  const active = term.length >= SEARCH_MIN_CHARACTERS;
  const query = useQuery(searchQueryOptions(term));
  const results = active ? (query.data?.items ?? []) : [];

  const go = (to: string) => {
    onDone();
    void navigate(to);
  };

  return (
    <>
      <DialogHeader>
        <DialogTitle>Search Clients</DialogTitle>
        <DialogDescription>Type at least 2 characters.</DialogDescription>
      </DialogHeader>
      <div className="relative">
        <label htmlFor="client-search" className="sr-only">
          Search clients
        </label>
        <Search className="absolute top-2.5 left-2.5 size-4 text-muted-foreground" aria-hidden="true" />
        <Input
          id="client-search"
          type="search"
          autoFocus
          className="pl-8"
          placeholder="Search by name, phone, or email..."
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
        />
      </div>
      <div aria-live="polite" className="min-h-24">
        {!active ? (
          <p className="py-6 text-center text-sm text-muted-foreground">Start typing to search clients</p>
        ) : query.isPending ? (
          <p className="py-6 text-center text-sm text-muted-foreground">Searching...</p>
        ) : results.length === 0 ? (
          <div className="flex flex-col items-center gap-3 py-6 text-sm text-muted-foreground">
            <p>No clients found for "{term}"</p>
            <Button variant="outline" onClick={() => go('/clients')}>
              View All Clients
            </Button>
          </div>
        ) : (
          <ul className="flex flex-col gap-1" aria-label="Search results">
            {results.map((client) => (
              <SearchResult key={client.id} client={client} onSelect={() => go(`/clients/${client.id}`)} />
            ))}
          </ul>
        )}
      </div>
    </>
  );
}

function SearchResult({ client, onSelect }: { client: IntakeSummary; onSelect: () => void }) {
  return (
    <li>
      <button type="button" onClick={onSelect} className="flex w-full flex-col gap-1 rounded-md border p-3 text-left hover:bg-muted">
        <span className="flex flex-wrap items-center gap-2">
          <span className="font-medium">{client.client_full_name}</span>
          {client.age !== null && <span className="text-xs text-muted-foreground">Age {client.age}</span>}
          <PipelineBadge label={client.pipeline.label} overdue={client.pipeline.overdue} />
        </span>
        <span className="flex flex-wrap gap-3 text-xs text-muted-foreground">
          <span>Created {formatDate(client.created_at)}</span>
          <span className="flex items-center gap-1">
            {client.pipeline.overdue && <AlertTriangle className="size-3 text-destructive" aria-hidden="true" />}
            Next: {client.pipeline.next_action}
          </span>
        </span>
      </button>
    </li>
  );
}
