import { describe, expect, it } from 'vitest';
import { emailProblem, newPasswordProblem, readLinkFragment, safeNext } from './login-validation';

describe('sign-in checks', () => {
  it('uses the spec messages for a new password', () => {
    expect(newPasswordProblem('secret1', 'secret2')).toBe('Passwords do not match');
    expect(newPasswordProblem('abc', 'abc')).toBe('Password must be at least 6 characters');
    expect(newPasswordProblem('abcdef', 'abcdef')).toBeNull();
  });

  it('asks for an email address', () => {
    expect(emailProblem('  ')).toBe('Please enter your email address.');
    expect(emailProblem('a@b.c')).toBeNull();
  });

  it('follows only same-site paths', () => {
    expect(safeNext('/clients?filter=intake')).toBe('/clients?filter=intake');
    expect(safeNext('//evil.example')).toBe('/');
    expect(safeNext('https://evil.example')).toBe('/');
    expect(safeNext(null)).toBe('/');
    expect(safeNext('/login')).toBe('/');
  });

  it('reads emailed links from the fragment', () => {
    expect(readLinkFragment('#type=recovery&token=abc')).toEqual({ kind: 'recovery', token: 'abc' });
    expect(readLinkFragment('#type=magiclink&token=xyz')).toEqual({ kind: 'magiclink', token: 'xyz' });
    expect(readLinkFragment('#type=invite&token=t1&email=nina%2Bcare@agency.test')).toEqual({ kind: 'invite', token: 't1', email: 'nina+care@agency.test' });
    expect(readLinkFragment('#error=access_denied&error_description=Link+expired')).toEqual({ kind: 'error', message: 'Link expired' });
    expect(readLinkFragment('')).toBeNull();
  });
});
