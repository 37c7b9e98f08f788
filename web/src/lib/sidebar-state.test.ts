import { beforeEach, describe, expect, it } from 'vitest';
import { readSidebarCollapsed, SIDEBAR_REMEMBER_MS, writeSidebarCollapsed } from './sidebar-state';

describe('sidebar state', () => {
  beforeEach(() => localStorage.clear());

  it('defaults to expanded', () => {
    expect(readSidebarCollapsed()).toBe(false);
  });

  it('remembers collapsed for seven days', () => {
    writeSidebarCollapsed(true, 1_000);
    expect(readSidebarCollapsed(1_000 + SIDEBAR_REMEMBER_MS - 1)).toBe(true);
    expect(readSidebarCollapsed(1_000 + SIDEBAR_REMEMBER_MS + 1)).toBe(false);
  });
});
