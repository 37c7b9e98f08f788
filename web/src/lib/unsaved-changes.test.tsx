import { act, render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { confirmLeave, hasUnsavedChanges, pendingLeaveRequest, subscribeLeaveRequest, useUnsavedChanges } from './unsaved-changes';

function Form({ dirty, onDiscard }: { dirty: boolean; onDiscard?: () => void }) {
  useUnsavedChanges(dirty, onDiscard);
  return null;
}

describe('unsaved changes', () => {
  it('counts a form while it is dirty and mounted', () => {
    const { rerender, unmount } = render(<Form dirty={false} />);
    expect(hasUnsavedChanges()).toBe(false);
    rerender(<Form dirty />);
    expect(hasUnsavedChanges()).toBe(true);
    unmount();
    expect(hasUnsavedChanges()).toBe(false);
  });

  it('lets a leave through at once when nothing is unsaved', async () => {
    render(<Form dirty={false} />);
    await expect(confirmLeave()).resolves.toBe(true);
  });

  it('asks through the guard, and leaving drops the changes', async () => {
    const onDiscard = vi.fn();
    const { unmount } = render(<Form dirty onDiscard={onDiscard} />);
    const unsubscribe = subscribeLeaveRequest(() => undefined);
    const stay = confirmLeave();
    act(() => pendingLeaveRequest()?.(false));
    await expect(stay).resolves.toBe(false);
    expect(hasUnsavedChanges()).toBe(true);
    expect(onDiscard).not.toHaveBeenCalled();

    const leave = confirmLeave();
    act(() => pendingLeaveRequest()?.(true));
    await expect(leave).resolves.toBe(true);
    expect(hasUnsavedChanges()).toBe(false);
    expect(onDiscard).toHaveBeenCalledOnce();
    unsubscribe();
    unmount();
  });
});
