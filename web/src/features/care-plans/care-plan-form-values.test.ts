import { describe, expect, it } from 'vitest';
import { carePlanFormValues, SERVICE_OPTIONS, WEEK_DAYS } from './care-plan-form-values';

describe('care plan form values', () => {
  it('starts a blank plan with every field and all seven days empty', () => {
    const form = carePlanFormValues(undefined);
    expect(form.client_name).toBe('');
    expect(form.services).toEqual([]);
    expect(form.hourly_rate).toBeNull();
    expect(form.pricing_template_id).toBeNull();
    expect(Object.keys(form.schedule)).toEqual([...WEEK_DAYS]);
    expect(Object.values(form.schedule).every((day) => day.hours === 0 && day.time === '')).toBe(true);
  });

  it('keeps what a stored plan holds, without sharing its lists', () => {
    const stored = { ...carePlanFormValues(undefined), client_name: 'Ellen Park', services: ['companionship' as const], hourly_rate: 28.5 };
    stored.schedule.monday = { hours: 4, time: '9am-1pm' };
    const form = carePlanFormValues(stored);
    expect(form.client_name).toBe('Ellen Park');
    expect(form.hourly_rate).toBe(28.5);
    expect(form.schedule.monday).toEqual({ hours: 4, time: '9am-1pm' });
    form.services.push('meals');
    expect(stored.services).toEqual(['companionship']);
  });

  it('labels the eight services as the proposal names them', () => {
    expect(SERVICE_OPTIONS).toHaveLength(8);
    expect(SERVICE_OPTIONS[0]).toEqual({ value: 'personalCare', label: 'Help with Daily Personal Care' });
    expect(SERVICE_OPTIONS.find((option) => option.value === 'toileting')?.label).toBe('Toileting & Continence Care');
  });
});
