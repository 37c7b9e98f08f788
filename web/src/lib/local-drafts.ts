/**
 * A form's values kept in this browser as they are typed, one per signed-in user, so an
 * accidental close or reload does not lose them. Removed when the form is saved and when
 * the user signs out (a shared office computer must not show them to the next person).
 */

const PREFIX = 'carepath.draft.';

export interface LocalDraft<T> {
  /** When it was last written (ISO 8601). */
  savedAt: string;
  values: T;
}

const keyOf = (userId: string, name: string) => `${PREFIX}${userId}.${name}`;

export function readLocalDraft<T>(userId: string, name: string): LocalDraft<T> | null {
  try {
    const text = localStorage.getItem(keyOf(userId, name));
    if (!text) return null;
    const draft = JSON.parse(text) as Partial<LocalDraft<T>>;
    if (typeof draft.savedAt !== 'string' || typeof draft.values !== 'object' || draft.values === null) return null;
    return { savedAt: draft.savedAt, values: draft.values };
  } catch {
    return null;
  }
}

export function writeLocalDraft(userId: string, name: string, values: object): void {
  try {
    const draft: LocalDraft<object> = { savedAt: new Date().toISOString(), values };
    localStorage.setItem(keyOf(userId, name), JSON.stringify(draft));
  } catch {
    // A full or disabled storage only loses the safety copy; the form itself is unaffected.
  }
}

export function removeLocalDraft(userId: string, name: string): void {
  try {
    localStorage.removeItem(keyOf(userId, name));
  } catch {
    // Nothing was kept.
  }
}

/** Every draft of one user (on sign-out). */
export function removeLocalDrafts(userId: string): void {
  try {
    const prefix = `${PREFIX}${userId}.`;
    const keys: string[] = [];
    for (let index = 0; index < localStorage.length; index += 1) {
      const key = localStorage.key(index);
      if (key?.startsWith(prefix)) keys.push(key);
    }
    for (const key of keys) localStorage.removeItem(key);
  } catch {
    // Nothing was kept.
  }
}
