/** The sidebar's expanded or collapsed state, remembered for seven days. */
export const SIDEBAR_STORAGE_KEY = 'carepath.sidebar';
export const SIDEBAR_REMEMBER_MS = 7 * 24 * 60 * 60 * 1000;

interface Stored {
  collapsed: boolean;
  expires: number;
}

export function readSidebarCollapsed(now: number = Date.now()): boolean {
  try {
    const raw = localStorage.getItem(SIDEBAR_STORAGE_KEY);
    if (!raw) return false;
    const stored = JSON.parse(raw) as Partial<Stored>;
    if (typeof stored.expires !== 'number' || stored.expires < now) {
      localStorage.removeItem(SIDEBAR_STORAGE_KEY);
      return false;
    }
    return stored.collapsed === true;
  } catch {
    return false;
  }
}

export function writeSidebarCollapsed(collapsed: boolean, now: number = Date.now()): void {
  try {
    const stored: Stored = { collapsed, expires: now + SIDEBAR_REMEMBER_MS };
    localStorage.setItem(SIDEBAR_STORAGE_KEY, JSON.stringify(stored));
  } catch {
    // Storage may be unavailable; the state then lasts for this page only.
  }
}
