import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { useCarePlanChanged } from './invalidate-care-plans';
import type { CarePlan, CarePlanBody, CarePlanInput, CarePlanUpdate } from './types';

export interface SaveCarePlanVariables {
  existing: Pick<CarePlan, 'id' | 'version'> | null;
  assessmentId: string | null;
  plan: CarePlanInput;
}

export function saveCarePlan({ existing, assessmentId, plan }: SaveCarePlanVariables): Promise<CarePlan> {
  if (existing) {
    const update: CarePlanUpdate = { version: existing.version, plan };
    return api.put<CarePlan>(`/api/care-plans/${existing.id}`, update);
  }
  const body: CarePlanBody = { assessment_id: assessmentId, plan };
  return api.post<CarePlan>('/api/care-plans', body);
}

export function useSaveCarePlan() {
  const changed = useCarePlanChanged();
  return useMutation({
    mutationFn: saveCarePlan,
    // The form shows validation and conflict messages itself, beside the fields.
    meta: { silent: true },
    onSuccess: (plan) => changed(plan),
  });
}
