import { describe, expect, it } from 'vitest';
import { familyRoute } from './family-route';

describe('familyRoute', () => {
  it('names the family’s page of a link and its token, decoded as a router would', () => {
    expect(familyRoute('/approve/AbC_d-9')).toEqual({ screen: 'ApprovePage', token: 'AbC_d-9' });
    expect(familyRoute('/sign/AbC_d-9')).toEqual({ screen: 'SignPage', token: 'AbC_d-9' });
    expect(familyRoute('/sign/AbC_d-9/')).toEqual({ screen: 'SignPage', token: 'AbC_d-9' });
    expect(familyRoute('/approve/a%2Db')).toEqual({ screen: 'ApprovePage', token: 'a-b' });
  });

  it('names none for any other path', () => {
    expect(familyRoute('/approve/')).toBeNull();
    expect(familyRoute('/approve/a/b')).toBeNull();
    expect(familyRoute('/approvals/a')).toBeNull();
    expect(familyRoute('/clients/a')).toBeNull();
    expect(familyRoute('/family.html')).toBeNull();
  });

  it('passes on a token that cannot be decoded, for the server to refuse with its own message', () => {
    expect(familyRoute('/sign/%E0%A4%A')).toEqual({ screen: 'SignPage', token: '%E0%A4%A' });
  });
});
