// The page's first-data script (src/first-data.ts) may run after the app has started: on
// a page from the network it waits for the parser's task to end. A preload named after the app has already asked for the same data
// would wait unused for a later request of it, which would then get this stale answer
// (a 401 from before signing in, say); so the app (or the family's page) marks the page
// as it starts, and the script names nothing once it is marked.

const MARK = 'carepathApp';

/** Marks the page: the app is asking for its data itself now. */
export function markAppStarted(): void {
  document.documentElement.dataset[MARK] = 'started';
}

/** Whether the app has started asking for its data. */
export function appStarted(): boolean {
  return document.documentElement.dataset[MARK] === 'started';
}
