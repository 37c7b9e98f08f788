import { describe, expect, it } from 'vitest';
import { screenFor } from './screens';

describe('screenFor', () => {
  it('names the screen each route opens, so its chunk is fetched with the session check', () => {
    expect(screenFor('/')).toBe('DashboardPage');
    expect(screenFor('/dashboard')).toBe('DashboardPage');
    expect(screenFor('/clients')).toBe('ClientsPage');
    expect(screenFor('/today')).toBe('TodayPage');
    expect(screenFor('/clients/01a20000-0000-7000-8000-000000000000')).toBe('ClientProfilePage');
    expect(screenFor('/settings/templates')).toBe('MessageTemplatesPage');
    expect(screenFor('/approve/abc')).toBe('ApprovePage');
    expect(screenFor('/sign/abc')).toBe('SignPage');
  });

  it('names none for a path outside the route table', () => {
    expect(screenFor('/nowhere')).toBeNull();
    expect(screenFor('/clients/1/extra')).toBeNull();
  });
});
