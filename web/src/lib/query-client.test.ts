import { beforeEach, describe, expect, it, vi } from 'vitest';

const toastError = vi.hoisted(() => vi.fn());
vi.mock('sonner', () => ({ toast: { error: toastError } }));

import { ApiError } from './api-client';
import { reportError } from './query-client';

describe('reportError', () => {
  beforeEach(() => toastError.mockClear());

  it('shows the server message, else the fallback', () => {
    reportError(new ApiError(422, 'validation', 'Contact name is required'), { errorMessage: 'Failed to save contact' });
    expect(toastError).toHaveBeenLastCalledWith('Error', { description: 'Contact name is required' });
    reportError(new Error(''), { errorMessage: 'Failed to save contact' });
    expect(toastError).toHaveBeenLastCalledWith('Error', { description: 'Failed to save contact' });
  });

  it('puts a prefix before the message, as the clients page does', () => {
    reportError(new ApiError(400, 'bad_request', 'Cannot read the cursor'), { errorPrefix: 'Failed to load clients' });
    expect(toastError).toHaveBeenLastCalledWith('Error', { description: 'Failed to load clients: Cannot read the cursor' });
  });

  it('stays quiet for a lapsed session and for silent loads', () => {
    reportError(new ApiError(401, 'unauthorized', 'Please sign in'), { errorPrefix: 'Failed to load clients' });
    reportError(new Error('offline'), { silent: true });
    expect(toastError).not.toHaveBeenCalled();
  });
});
