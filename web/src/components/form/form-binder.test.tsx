import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { hasUnsavedChanges } from '@/lib/unsaved-changes';
import { CheckboxGroupField } from './checkbox-group-field';
import { bindList, bindNumber, bindText, useFormBinder, type FormErrors } from './form-binder';
import { TextField } from './text-field';

interface Sample {
  name: string;
  copy: string;
  services: string[];
  rate: number | null;
}

function SampleForm({ errors = {} }: { errors?: FormErrors }) {
  const { binder, form, setErrors } = useFormBinder<Sample>(
    { name: '', copy: '', services: [], rate: null },
    {
      required: ['name'],
      disabled: (values, field) => field === 'copy' && values.name === 'Self',
      apply: (values, field, value) => (field === 'name' ? { ...values, name: value as string, copy: value as string } : { ...values, [field]: value }),
    },
  );
  return (
    <>
      <button type="button" onClick={() => setErrors(errors)}>
        Check
      </button>
      <TextField {...bindText(binder, 'name', 'Name')} />
      <TextField {...bindText(binder, 'copy', 'Copy')} />
      <CheckboxGroupField {...bindList(binder, 'services', 'Services')} options={['Meals', 'Companionship']} />
      <TextField {...bindNumber(binder, 'rate', 'Rate')} />
      <output>{JSON.stringify(form)}</output>
    </>
  );
}

function DirtyForm({ baseline }: { baseline?: Sample }) {
  const { binder, dirty, markSaved, reset } = useFormBinder<Sample>({ name: 'Ellen', copy: '', services: [], rate: 28.5 }, { baseline });
  return (
    <>
      <TextField {...bindText(binder, 'name', 'Name')} />
      <TextField {...bindNumber(binder, 'rate', 'Rate')} />
      <p>{dirty ? 'Unsaved changes' : 'All saved'}</p>
      <button type="button" onClick={() => markSaved()}>
        Saved
      </button>
      <button type="button" onClick={() => reset({ name: 'Latest', copy: '', services: [], rate: 30 })}>
        Latest
      </button>
    </>
  );
}

const state = (): Sample => JSON.parse(screen.getByRole('status').textContent) as Sample;

describe('useFormBinder', () => {
  it('binds text, list and number fields to one form object', () => {
    render(<SampleForm />);
    fireEvent.input(screen.getByLabelText(/Name/), { target: { value: 'Ellen' } });
    fireEvent.click(screen.getByLabelText('Meals'));
    fireEvent.input(screen.getByLabelText('Rate'), { target: { value: '28.5' } });
    expect(state()).toEqual({ name: 'Ellen', copy: 'Ellen', services: ['Meals'], rate: 28.5 });
    fireEvent.input(screen.getByLabelText('Rate'), { target: { value: '' } });
    expect(state().rate).toBeNull();
  });

  it('marks required fields and disables the fields the form fills itself', () => {
    render(<SampleForm />);
    expect(screen.getByLabelText(/Name/).getAttribute('aria-required')).toBe('true');
    expect(screen.getByLabelText<HTMLInputElement>('Copy').disabled).toBe(false);
    fireEvent.input(screen.getByLabelText(/Name/), { target: { value: 'Self' } });
    expect(screen.getByLabelText<HTMLInputElement>('Copy').disabled).toBe(true);
  });

  it('shows server errors beside their fields and clears one when it is edited', () => {
    render(<SampleForm errors={{ name: 'Client name is required', rate: 'Hourly rate is required and must be greater than 0.' }} />);
    fireEvent.click(screen.getByRole('button', { name: 'Check' }));
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual(['Client name is required', 'Hourly rate is required and must be greater than 0.']);
    fireEvent.input(screen.getByLabelText('Rate'), { target: { value: '30' } });
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual(['Client name is required']);
  });

  it('knows when the form differs from what was last loaded or saved, and tells the leave guard', () => {
    const { unmount } = render(<DirtyForm />);
    screen.getByText('All saved');
    expect(hasUnsavedChanges()).toBe(false);
    fireEvent.input(screen.getByLabelText('Name'), { target: { value: 'Ellen B' } });
    screen.getByText('Unsaved changes');
    expect(hasUnsavedChanges()).toBe(true);
    // Typing the saved value back makes the form clean again.
    fireEvent.input(screen.getByLabelText('Name'), { target: { value: 'Ellen' } });
    screen.getByText('All saved');
    fireEvent.input(screen.getByLabelText('Rate'), { target: { value: '32' } });
    screen.getByText('Unsaved changes');
    fireEvent.click(screen.getByRole('button', { name: 'Saved' }));
    screen.getByText('All saved');
    expect(hasUnsavedChanges()).toBe(false);
    fireEvent.input(screen.getByLabelText('Rate'), { target: { value: '33' } });
    fireEvent.click(screen.getByRole('button', { name: 'Latest' }));
    screen.getByText('All saved');
    expect(screen.getByLabelText<HTMLInputElement>('Name').value).toBe('Latest');
    fireEvent.input(screen.getByLabelText('Name'), { target: { value: 'Typed' } });
    expect(hasUnsavedChanges()).toBe(true);
    unmount();
    expect(hasUnsavedChanges()).toBe(false);
  });

  it('starts unsaved when it shows a suggestion on top of the stored values', () => {
    render(<DirtyForm baseline={{ name: 'Ellen', copy: '', services: [], rate: 25 }} />);
    screen.getByText('Unsaved changes');
    fireEvent.input(screen.getByLabelText('Rate'), { target: { value: '25' } });
    screen.getByText('All saved');
  });
});
