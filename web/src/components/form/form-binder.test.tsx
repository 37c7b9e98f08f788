import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
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

const state = (): Sample => JSON.parse(screen.getByRole('status').textContent) as Sample;

describe('useFormBinder', () => {
  it('binds text, list and number fields to one form object', () => {
    render(<SampleForm />);
    fireEvent.change(screen.getByLabelText(/Name/), { target: { value: 'Ellen' } });
    fireEvent.click(screen.getByLabelText('Meals'));
    fireEvent.change(screen.getByLabelText('Rate'), { target: { value: '28.5' } });
    expect(state()).toEqual({ name: 'Ellen', copy: 'Ellen', services: ['Meals'], rate: 28.5 });
    fireEvent.change(screen.getByLabelText('Rate'), { target: { value: '' } });
    expect(state().rate).toBeNull();
  });

  it('marks required fields and disables the fields the form fills itself', () => {
    render(<SampleForm />);
    expect(screen.getByLabelText(/Name/).getAttribute('aria-required')).toBe('true');
    expect(screen.getByLabelText<HTMLInputElement>('Copy').disabled).toBe(false);
    fireEvent.change(screen.getByLabelText(/Name/), { target: { value: 'Self' } });
    expect(screen.getByLabelText<HTMLInputElement>('Copy').disabled).toBe(true);
  });

  it('shows server errors beside their fields and clears one when it is edited', () => {
    render(<SampleForm errors={{ name: 'Client name is required', rate: 'Hourly rate is required and must be greater than 0.' }} />);
    fireEvent.click(screen.getByRole('button', { name: 'Check' }));
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual(['Client name is required', 'Hourly rate is required and must be greater than 0.']);
    fireEvent.change(screen.getByLabelText('Rate'), { target: { value: '30' } });
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual(['Client name is required']);
  });
});
