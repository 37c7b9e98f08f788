import { useCallback, useState } from 'react';

/** Server-side keyset paging: a stack of the cursors that led to the current page. */
export function useCursorPager() {
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const cursor = cursors[cursors.length - 1] ?? null;
  const next = useCallback((nextCursor: string | null) => {
    if (nextCursor) setCursors((stack) => [...stack, nextCursor]);
  }, []);
  const previous = useCallback(() => {
    setCursors((stack) => (stack.length > 1 ? stack.slice(0, -1) : stack));
  }, []);
  const reset = useCallback(() => setCursors([null]), []);
  return { cursor, pageIndex: cursors.length - 1, next, previous, reset, hasPrevious: cursors.length > 1 };
}

export type CursorPager = ReturnType<typeof useCursorPager>;
