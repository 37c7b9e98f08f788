import { describe, expect, it } from 'vitest';
import { isTypingTarget, matchShortcut, type KeyLike } from './shortcuts';

function key(value: string, target: EventTarget | null = document.body, mods: Partial<KeyLike> = {}): KeyLike {
  return { key: value, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, target, ...mods };
}

describe('matchShortcut', () => {
  it('maps the single-letter keys to their screens', () => {
    expect(matchShortcut(key('i'))?.action).toEqual({ kind: 'navigate', to: '/clients' });
    expect(matchShortcut(key('a'))?.action).toEqual({ kind: 'navigate', to: '/assessments' });
    expect(matchShortcut(key('c'))?.action).toEqual({ kind: 'navigate', to: '/care-plans' });
    expect(matchShortcut(key('t'))?.action).toEqual({ kind: 'navigate', to: '/contracts' });
    expect(matchShortcut(key('n'))?.action).toEqual({ kind: 'navigate', to: '/intake' });
  });

  it('maps Ctrl and Cmd combinations', () => {
    expect(matchShortcut(key('n', document.body, { ctrlKey: true }))?.action).toEqual({ kind: 'navigate', to: '/intake' });
    expect(matchShortcut(key('h', document.body, { metaKey: true }))?.action).toEqual({ kind: 'navigate', to: '/' });
    expect(matchShortcut(key('k', document.body, { ctrlKey: true }))?.action).toEqual({ kind: 'search' });
    expect(matchShortcut(key('b', document.body, { metaKey: true }))?.action).toEqual({ kind: 'toggle-sidebar' });
  });

  it('opens help with ?', () => {
    expect(matchShortcut(key('?', document.body, { shiftKey: true }))?.action).toEqual({ kind: 'help' });
  });

  it('ignores letters pressed with a modifier they do not use', () => {
    expect(matchShortcut(key('i', document.body, { ctrlKey: true }))).toBeNull();
    expect(matchShortcut(key('x'))).toBeNull();
    expect(matchShortcut(key('n', document.body, { altKey: true }))).toBeNull();
  });

  it.each(['input', 'textarea', 'select'])('is inactive while typing in a %s', (tag) => {
    const field = document.createElement(tag);
    document.body.append(field);
    expect(matchShortcut(key('i', field))).toBeNull();
    expect(matchShortcut(key('k', field, { ctrlKey: true }))).toBeNull();
    field.remove();
  });

  it('is inactive inside contenteditable', () => {
    const editor = document.createElement('div');
    editor.setAttribute('contenteditable', 'true');
    const inner = document.createElement('span');
    editor.append(inner);
    document.body.append(editor);
    expect(isTypingTarget(inner)).toBe(true);
    editor.remove();
  });

  it('stays active on a checkbox', () => {
    const box = document.createElement('input');
    box.type = 'checkbox';
    expect(matchShortcut(key('a', box))).not.toBeNull();
  });

  it('keeps the single-letter keys quiet while a form has unsaved changes', () => {
    for (const letter of ['n', 'i', 'a', 'c', 't']) expect(matchShortcut(key(letter), true)).toBeNull();
    // Ctrl/Cmd shortcuts still work: a navigation among them asks before leaving.
    expect(matchShortcut(key('h', document.body, { ctrlKey: true }), true)?.action).toEqual({ kind: 'navigate', to: '/' });
    expect(matchShortcut(key('k', document.body, { ctrlKey: true }), true)?.action).toEqual({ kind: 'search' });
    expect(matchShortcut(key('?', document.body, { shiftKey: true }), true)?.action).toEqual({ kind: 'help' });
  });
});
