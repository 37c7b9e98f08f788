/** The app's keyboard shortcuts, as data: the key handler and the help dialog both read this. */

export type ShortcutAction =
  | { kind: 'navigate'; to: string }
  | { kind: 'search' }
  | { kind: 'toggle-sidebar' }
  | { kind: 'help' };

export interface Shortcut {
  keys: string;
  description: string;
  key: string;
  mod: boolean;
  action: ShortcutAction;
}

export const SHORTCUTS: readonly Shortcut[] = [
  // Most browsers keep Ctrl+N (new window) for themselves, so New Intake also has a plain N.
  { keys: 'N', description: 'New intake', key: 'n', mod: false, action: { kind: 'navigate', to: '/intake' } },
  { keys: 'Ctrl/Cmd + N', description: 'New intake (where the browser lets it through)', key: 'n', mod: true, action: { kind: 'navigate', to: '/intake' } },
  { keys: 'Ctrl/Cmd + H', description: 'Outreach Dashboard', key: 'h', mod: true, action: { kind: 'navigate', to: '/' } },
  { keys: 'Ctrl/Cmd + K', description: 'Search clients', key: 'k', mod: true, action: { kind: 'search' } },
  { keys: 'Ctrl/Cmd + B', description: 'Expand or collapse the sidebar', key: 'b', mod: true, action: { kind: 'toggle-sidebar' } },
  { keys: 'I', description: 'All clients', key: 'i', mod: false, action: { kind: 'navigate', to: '/clients' } },
  { keys: 'A', description: 'Assessments', key: 'a', mod: false, action: { kind: 'navigate', to: '/assessments' } },
  { keys: 'C', description: 'Care plans', key: 'c', mod: false, action: { kind: 'navigate', to: '/care-plans' } },
  { keys: 'T', description: 'Contracts', key: 't', mod: false, action: { kind: 'navigate', to: '/contracts' } },
  { keys: '?', description: 'Show keyboard shortcuts', key: '?', mod: false, action: { kind: 'help' } },
];

/** Shortcuts stay quiet while the user types in a field. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!target || !(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') {
    const type = (target as HTMLInputElement).type;
    return !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(type);
  }
  return target.closest('[contenteditable="true"]') !== null;
}

export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  target: EventTarget | null;
}

/**
 * The shortcut `event` presses, if any. While a form holds unsaved changes the single-letter
 * keys stay quiet: one stray key must not throw away a form typed during a phone call.
 */
export function matchShortcut(event: KeyLike, unsavedChanges = false): Shortcut | null {
  if (isTypingTarget(event.target) || event.altKey) return null;
  const mod = event.ctrlKey || event.metaKey;
  if (unsavedChanges && !mod && event.key !== '?') return null;
  const key = event.key.toLowerCase();
  for (const shortcut of SHORTCUTS) {
    if (shortcut.key === '?') {
      if (event.key === '?' && !mod) return shortcut;
      continue;
    }
    if (shortcut.mod === mod && !event.shiftKey && key === shortcut.key) return shortcut;
  }
  return null;
}
