import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { IntakeBrief } from '@/api/types';
import { FollowUpsPanel } from './follow-ups-panel';

function client(index: number): IntakeBrief {
  const partial: Partial<IntakeBrief> = {
    id: `id-${index}`,
    client_full_name: `Client ${index}`,
    age: null,
    follow_up_notes: null,
    pipeline: { next_route: `/intake?intake_id=id-${index}` } as IntakeBrief['pipeline'],
  };
  return partial as IntakeBrief;
}

function renderPanel(count: number, shown: number, nextCursor: string | null) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const followUps = Array.from({ length: shown }, (_, index) => client(index));
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>
        <FollowUpsPanel count={count} followUps={followUps} nextCursor={nextCursor} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('FollowUpsPanel', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('titles the panel with the true count, not the rows shown', () => {
    renderPanel(45, 20, 'c1');
    expect(screen.getByText('Follow-ups Due Today (45)')).toBeTruthy();
    expect(screen.getAllByText('Contact Now')).toHaveLength(20);
    expect(screen.getByRole('button', { name: 'Show more (25 more due today)' })).toBeTruthy();
  });

  it('pages the rest with the cursor the server gave', async () => {
    const fetchMock = vi.fn<(url: string) => Promise<Response>>(() =>
      Promise.resolve(
        new Response(JSON.stringify({ items: [client(20), client(21)], next_cursor: null }), {
          status: 200,
          headers: { 'Content-Type': 'application/json' },
        }),
      ),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderPanel(22, 20, 'c1');
    fireEvent.click(screen.getByRole('button', { name: 'Show more (2 more due today)' }));
    expect(await screen.findByText('Client 21')).toBeTruthy();
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/dashboard/follow-ups?cursor=c1');
    expect(screen.queryByRole('button', { name: /Show more/ })).toBeNull();
  });

  it('offers no more when the first page is all', () => {
    renderPanel(3, 3, null);
    expect(screen.queryByRole('button', { name: /Show more/ })).toBeNull();
  });
});
