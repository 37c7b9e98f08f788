import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { matchShortcut } from '@/lib/shortcuts';
import { hasUnsavedChanges } from '@/lib/unsaved-changes';

interface ShortcutHandlers {
  onSearch: () => void;
  onToggleSidebar: () => void;
  onHelp: () => void;
}

/** Listens for the app's shortcuts on the whole document. */
export function useShortcuts(handlers: ShortcutHandlers): void {
  const navigate = useNavigate();
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.repeat) return;
      const shortcut = matchShortcut(event, hasUnsavedChanges());
      if (!shortcut) return;
      event.preventDefault();
      switch (shortcut.action.kind) {
        case 'navigate':
          void navigate(shortcut.action.to);
          break;
        case 'search':
          latest.current.onSearch();
          break;
        case 'toggle-sidebar':
          latest.current.onToggleSidebar();
          break;
        case 'help':
          latest.current.onHelp();
          break;
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [navigate]);
}
