/** The checks the sign-in screen makes before it asks the server. */

export const MIN_PASSWORD_LENGTH = 6;

export function newPasswordProblem(password: string, confirmation: string): string | null {
  if (password !== confirmation) return 'Passwords do not match';
  if (password.length < MIN_PASSWORD_LENGTH) return 'Password must be at least 6 characters';
  return null;
}

export function emailProblem(email: string): string | null {
  return email.trim() ? null : 'Please enter your email address.';
}

/** Only same-site paths are followed after signing in. */
export function safeNext(next: string | null): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/login')) return '/';
  return next;
}

export type LinkAction =
  | { kind: 'recovery'; token: string }
  | { kind: 'magiclink'; token: string }
  | { kind: 'invite'; token: string; email: string }
  | { kind: 'error'; message: string }
  | null;

/** What an emailed link put in the URL fragment. */
export function readLinkFragment(hash: string): LinkAction {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const description = params.get('error_description') ?? params.get('error');
  if (description) return { kind: 'error', message: description.replaceAll('+', ' ') };
  const token = params.get('token');
  const type = params.get('type');
  if (!token) return null;
  if (type === 'recovery') return { kind: 'recovery', token };
  if (type === 'magiclink') return { kind: 'magiclink', token };
  if (type === 'invite') return { kind: 'invite', token, email: params.get('email') ?? '' };
  return null;
}
