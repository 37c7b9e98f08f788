import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { FormErrorSummary } from './form-error-summary';

describe('FormErrorSummary', () => {
  it('shows nothing until a save fails', () => {
    const { container } = render(<FormErrorSummary error={null} fallback="Failed to save care plan" />);
    expect(container.textContent).toBe('');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("shows the server's message and each field message once", () => {
    const error = new ApiError(422, 'validation', 'Please correct the highlighted fields.', {
      family_contact_email: 'Please enter a valid email address',
      default_cc: 'Please enter a valid email address',
      hourly_rate: 'Hourly rate is required',
    });
    render(<FormErrorSummary error={error} fallback="Failed to save care plan" />);
    const alert = screen.getByRole('alert');
    expect(alert.querySelector('p')?.textContent).toBe('Please correct the highlighted fields.');
    expect([...alert.querySelectorAll('li')].map((item) => item.textContent)).toEqual(['Please enter a valid email address', 'Hourly rate is required']);
  });

  it("falls back to the spec's words when the server gave none", () => {
    render(<FormErrorSummary error={new TypeError('Failed to fetch')} fallback="Failed to save settings" />);
    expect(screen.getByRole('alert').textContent).toBe('Failed to save settings');
  });

  it('leaves a conflict to the form banner when asked', () => {
    const conflict = new ApiError(409, 'conflict', 'Someone else saved this care plan.');
    const { rerender } = render(<FormErrorSummary error={conflict} fallback="Failed to save care plan" hideConflict />);
    expect(screen.queryByRole('alert')).toBeNull();
    rerender(<FormErrorSummary error={conflict} fallback="Failed to save care plan" />);
    expect(screen.getByRole('alert').textContent).toBe('Someone else saved this care plan.');
  });
});
