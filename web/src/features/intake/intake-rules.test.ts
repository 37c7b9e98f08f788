import { describe, expect, it } from 'vitest';
import { emptyIntakeForm, missingFieldsToast, missingRequiredFields, normalizeIntakeForm, setIntakeField } from './intake-rules';

const blank = emptyIntakeForm('2026-01-02');

describe('intake required fields', () => {
  it('enforces staff member, caller name and client name', () => {
    expect(missingRequiredFields(blank)).toEqual({
      staffMemberTakingCall: 'This field is required',
      callerName: 'This field is required',
      clientFullName: 'This field is required',
    });
  });

  it('exempts the client name when the client is the caller', () => {
    const form = { ...blank, clientIsCaller: true, staffMemberTakingCall: 'Sam', callerName: 'Pat' };
    expect(missingRequiredFields(form)).toEqual({});
  });

  it('counts in the toast', () => {
    expect(missingFieldsToast(2)).toEqual({ title: 'Missing Required Fields', description: 'Please fill in 2 required field(s) highlighted in red.' });
  });
});

describe('client is the caller', () => {
  it('copies the caller and sets the relationship to Self', () => {
    let form = setIntakeField(blank, 'callerName', 'Pat Caller');
    form = setIntakeField(form, 'callerPhone', '555-0100');
    form = setIntakeField(form, 'clientIsCaller', true);
    expect(form).toMatchObject({ relationshipToClient: 'Self', clientFullName: 'Pat Caller', clientPhone: '555-0100' });
    form = setIntakeField(form, 'callerEmail', 'pat@example.com');
    expect(form.clientEmail).toBe('pat@example.com');
  });
});

describe('normalizeIntakeForm', () => {
  it('fills in missing fields so inputs stay controlled', () => {
    const form = normalizeIntakeForm({ callerName: 'Pat' }, '2026-01-02');
    expect(form.callerName).toBe('Pat');
    expect(form.servicesRequired).toEqual([]);
    expect(form.date).toBe('2026-01-02');
  });
});
