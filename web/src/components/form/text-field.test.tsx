import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { DateField } from './date-field';
import { TextField } from './text-field';

describe('TextField', () => {
  it('ties the label, required mark and error to the input', () => {
    render(<TextField id="callerName" label="Caller Name" value="" onChange={() => undefined} required error="This field is required" />);
    const input = screen.getByLabelText(/Caller Name/);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-required')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toBe('callerName-error');
    expect(screen.getByRole('alert').textContent).toBe('This field is required');
    expect(document.querySelector('[data-field="callerName"]')?.getAttribute('data-invalid')).toBe('true');
  });

  it('shows no error state when valid and reports edits', () => {
    const onChange = vi.fn();
    render(<TextField id="city" label="City" value="" onChange={onChange} />);
    const input = screen.getByLabelText('City');
    expect(input.getAttribute('aria-invalid')).toBeNull();
    fireEvent.input(input, { target: { value: 'Austin' } });
    expect(onChange).toHaveBeenCalledWith('Austin');
  });
});

describe('DateField', () => {
  it('warns about a past date when the date should be in the future', () => {
    render(<DateField id="followUpDate" label="Follow-up Date" value="2000-01-01" onChange={() => undefined} futureOnly />);
    expect(screen.getByText('Date should be in the future')).toBeTruthy();
  });

  it('stays quiet for a future date', () => {
    render(<DateField id="followUpDate" label="Follow-up Date" value="2999-01-01" onChange={() => undefined} futureOnly />);
    expect(screen.queryByText('Date should be in the future')).toBeNull();
  });
});
