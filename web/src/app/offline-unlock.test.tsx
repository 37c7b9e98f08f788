import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DeviceCopy } from '@/lib/offline/session-key';
import { OfflineUnlock } from './offline-unlock';

const device = vi.hoisted(() => ({
  copy: null as DeviceCopy | null,
  password: 'kitchen table 42',
  opened: [] as string[],
}));

vi.mock('@/lib/offline/copy', () => ({ purgeExpired: () => Promise.resolve() }));

vi.mock('@/lib/offline/session-key', () => ({
  deviceCopy: () => Promise.resolve(device.copy),
  unlockWithPassword: (userId: string, password: string) => {
    if (password !== device.password) return Promise.reject(new Error("That password does not open this device's visits."));
    device.opened.push(userId);
    return Promise.resolve({ userId, key: {} });
  },
}));

describe('OfflineUnlock', () => {
  beforeEach(() => {
    device.opened = [];
  });

  it("asks for the password with the user's name, says so when it is wrong, and opens the copy when right", async () => {
    device.copy = { userId: 'u1', userName: 'Avery Assessor', byPassword: true };
    const onOpened = vi.fn();
    render(<OfflineUnlock onBack={() => undefined} onOpened={onOpened} />);
    expect(await screen.findByText('Signed in as Avery Assessor')).toBeTruthy();
    const field = screen.getByLabelText(/^Password/);
    expect(field.getAttribute('autocomplete')).toBe('current-password');
    expect(field.getAttribute('aria-describedby')).toBe('offline-password-hint');
    expect(screen.getByText("Enter your password to open this device's visits.").id).toBe('offline-password-hint');

    const user = userEvent.setup();
    await user.type(field, 'wrong');
    await user.click(screen.getByRole('button', { name: 'Open Visits' }));
    expect((await screen.findByRole('alert')).textContent).toBe("That password does not open this device's visits.");
    expect(onOpened).not.toHaveBeenCalled();

    await user.clear(field);
    await user.type(field, 'kitchen table 42');
    await user.click(screen.getByRole('button', { name: 'Open Visits' }));
    await vi.waitFor(() => expect(onOpened).toHaveBeenCalledTimes(1));
    expect(device.opened).toEqual(['u1']);
  });

  it('says plainly that a copy taken without a password cannot be opened offline', async () => {
    device.copy = { userId: 'u1', userName: 'Avery Assessor', byPassword: false };
    render(<OfflineUnlock onBack={() => undefined} onOpened={() => undefined} />);
    expect(await screen.findByText('Sign in with your password before you leave to open visits without a network.')).toBeTruthy();
    expect(screen.queryByLabelText(/^Password/)).toBeNull();
  });

  it('without a copy on the device, says the app opens when the network is back', async () => {
    device.copy = null;
    const onBack = vi.fn();
    render(<OfflineUnlock onBack={onBack} onOpened={() => undefined} />);
    expect((await screen.findByRole('status')).textContent).toContain('Carepath opens here as soon as the network is back.');
    window.dispatchEvent(new Event('online'));
    expect(onBack).toHaveBeenCalledTimes(1);
  });
});
