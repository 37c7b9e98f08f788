import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from '@/components/ui/button';
import type { CursorPager } from '@/lib/cursor-pager';

export function DataTablePagination({ pager, nextCursor, shown }: { pager: CursorPager; nextCursor: string | null | undefined; shown: number }) {
  if (!pager.hasPrevious && !nextCursor) return null;
  return (
    <nav aria-label="Pagination" className="flex items-center justify-between gap-2 py-3 text-sm text-muted-foreground">
      <span>
        Page {pager.pageIndex + 1} · {shown} shown
      </span>
      <div className="flex gap-2">
        <Button variant="outline" size="sm" onClick={pager.previous} disabled={!pager.hasPrevious}>
          <ChevronLeft aria-hidden="true" />
          Previous
        </Button>
        <Button variant="outline" size="sm" onClick={() => pager.next(nextCursor ?? null)} disabled={!nextCursor}>
          Next
          <ChevronRight aria-hidden="true" />
        </Button>
      </div>
    </nav>
  );
}
