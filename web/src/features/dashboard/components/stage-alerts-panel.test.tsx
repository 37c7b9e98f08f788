import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { IntakeBrief } from '@/api/types';
import { StageAlertsPanel } from './stage-alerts-panel';

function client(id: string, label: string, overdue: boolean): IntakeBrief {
  const partial: Partial<IntakeBrief> = {
    id,
    client_full_name: `Client ${id}`,
    pipeline: { label, overdue, days_in_stage: 9 } as IntakeBrief['pipeline'],
  };
  return partial as IntakeBrief;
}

describe('StageAlertsPanel', () => {
  it('draws the warning before an overdue status and nowhere else', () => {
    render(
      <MemoryRouter>
        <StageAlertsPanel clients={[client('a', 'Intake', true), client('b', 'Care Plan Sent', false)]} days={7} total={2} />
      </MemoryRouter>,
    );
    expect(screen.getByText('⚠️ Intake')).toBeTruthy();
    expect(screen.getByText('Care Plan Sent').textContent).toBe('Care Plan Sent');
  });
});
