/** The one way the web UI talks to `carepath serve`: JSON over fetch, typed errors. */

export interface ApiErrorBody {
  error: { code: string; message: string; fields?: Record<string, string> };
  current?: unknown;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Record<string, string>;
  readonly current: unknown;

  constructor(status: number, code: string, message: string, fields: Record<string, string> = {}, current?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.fields = fields;
    this.current = current;
  }

  get isUnauthenticated(): boolean {
    return this.status === 401;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** The server's message when it gave one, otherwise the fallback the spec names. */
export function errorMessage(error: unknown, fallback: string): string {
  if (isApiError(error) && error.message) return error.message;
  return fallback;
}

type SignedOutHandler = () => void;
let signedOutHandler: SignedOutHandler = () => {
  const here = window.location.pathname + window.location.search;
  window.location.assign(`/login?next=${encodeURIComponent(here)}`);
};

/** The app shell registers how a lapsed session sends the user to sign in. */
export function onSignedOut(handler: SignedOutHandler): void {
  signedOutHandler = handler;
}

const SIGNED_OUT_FLAG = 'carepath.signedOut';

export function markSignedOut(): void {
  try {
    sessionStorage.setItem(SIGNED_OUT_FLAG, '1');
  } catch {
    // Private windows may refuse storage; the login page then shows no notice.
  }
}

/** True once after a session lapsed, so the sign-in page can say why it is shown. */
export function takeSignedOutNotice(): boolean {
  try {
    const value = sessionStorage.getItem(SIGNED_OUT_FLAG);
    sessionStorage.removeItem(SIGNED_OUT_FLAG);
    return value === '1';
  } catch {
    return false;
  }
}

export type Query = Record<string, string | number | boolean | null | undefined>;

export function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  /** A file sent as the body itself, with its own content type (an image upload). */
  file?: Blob;
  query?: Query;
  signal?: AbortSignal;
  /** Auth calls handle 401 themselves instead of sending the user to sign in. */
  allowUnauthenticated?: boolean;
}

async function readError(response: Response): Promise<ApiError> {
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (body && typeof body === 'object' && 'error' in body) {
    const { error, current } = body as ApiErrorBody;
    return new ApiError(response.status, error.code, error.message, error.fields ?? {}, current);
  }
  return new ApiError(response.status, 'http_error', response.statusText || `Request failed (${response.status})`);
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, file, query, signal, allowUnauthenticated = false } = options;
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (file !== undefined) headers['Content-Type'] = file.type || 'application/octet-stream';
  else if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(withQuery(path, query), {
      method,
      headers,
      credentials: 'same-origin',
      body: file ?? (body === undefined ? undefined : JSON.stringify(body)),
      signal,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    // Without a network, a read the offline copy holds (a coming visit's client) is
    // answered from it. Loaded only then: the copy's code never weighs on a first load.
    // The family's pages (`/api/public/…`) are never in it.
    if (method === 'GET' && !path.startsWith('/api/public/')) {
      const { readRecord } = await import('./offline/copy');
      const kept = await readRecord<T>(withQuery(path, query)).catch(() => undefined);
      if (kept !== undefined) return kept;
    }
    throw new ApiError(0, 'network', 'Cannot reach the Carepath server. Check your connection and try again.');
  }
  if (!response.ok) {
    const error = await readError(response);
    if (error.status === 401 && !allowUnauthenticated) {
      markSignedOut();
      signedOutHandler();
    }
    throw error;
  }
  if (response.status === 204 || response.status === 202) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export const api = {
  get: <T>(path: string, query?: Query, signal?: AbortSignal) => apiRequest<T>(path, { query, signal }),
  post: <T>(path: string, body?: unknown) => apiRequest<T>(path, { method: 'POST', body: body ?? {} }),
  put: <T>(path: string, body: unknown) => apiRequest<T>(path, { method: 'PUT', body }),
  /** Sends a file as the request body (PUT). */
  upload: <T>(path: string, file: Blob) => apiRequest<T>(path, { method: 'PUT', file }),
  delete: <T>(path: string) => apiRequest<T>(path, { method: 'DELETE' }),
};

/** A keyset-paged list as the server returns it. */
export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}
