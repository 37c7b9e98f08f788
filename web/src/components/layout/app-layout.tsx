import { lazy, Suspense, useState } from 'react';
import { Outlet } from 'react-router';
import { readSidebarCollapsed, writeSidebarCollapsed } from '@/lib/sidebar-state';
import { useIsMobile } from '@/lib/use-media-query';
import { Header } from './header';
import { Sidebar } from './sidebar';
import { UnsavedChangesGuard } from './unsaved-changes-guard';
import { useShortcuts } from './use-shortcuts';

// The dialogs of the shell are fetched the first time they open (or when the browser is
// idle), not before the first screen: most visits never open them.
const SearchDialog = lazy(() => import('@/components/search/search-dialog').then((module) => ({ default: module.SearchDialog })));
const ShortcutsHelpDialog = lazy(() => import('./shortcuts-help-dialog').then((module) => ({ default: module.ShortcutsHelpDialog })));
const MobileDrawer = lazy(() => import('./mobile-drawer').then((module) => ({ default: module.MobileDrawer })));

/** `open`, and whether it was ever true: a dialog stays mounted once opened, to close as it should. */
function useDialogState() {
  const [state, setState] = useState({ open: false, used: false });
  const setOpen = (open: boolean | ((open: boolean) => boolean)) =>
    setState((current) => {
      const next = typeof open === 'function' ? open(current.open) : open;
      return { open: next, used: current.used || next };
    });
  return [state.open, setOpen, state.used] as const;
}

interface AppLayoutProps {
  userName: string;
  isAdmin: boolean;
  onSignOut: () => void;
}

export function AppLayout({ userName, isAdmin, onSignOut }: AppLayoutProps) {
  const isMobile = useIsMobile();
  const [collapsed, setCollapsed] = useState(readSidebarCollapsed);
  const [drawerOpen, setDrawerOpen, drawerUsed] = useDialogState();
  const [searchOpen, setSearchOpen, searchUsed] = useDialogState();
  const [helpOpen, setHelpOpen, helpUsed] = useDialogState();

  const toggleSidebar = () => {
    if (isMobile) {
      setDrawerOpen((open) => !open);
      return;
    }
    setCollapsed((value) => {
      writeSidebarCollapsed(!value);
      return !value;
    });
  };

  useShortcuts({ onSearch: () => setSearchOpen(true), onToggleSidebar: toggleSidebar, onHelp: () => setHelpOpen(true) });

  return (
    <div className="flex min-h-screen flex-col">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:z-50 focus:bg-background focus:p-2">
        Skip to content
      </a>
      <Header
        userName={userName}
        isAdmin={isAdmin}
        sidebarExpanded={isMobile ? drawerOpen : !collapsed}
        onToggleSidebar={toggleSidebar}
        onSearch={() => setSearchOpen(true)}
        onSignOut={onSignOut}
      />
      <div className="flex flex-1">
        <Sidebar collapsed={collapsed} />
        {isMobile && drawerUsed && (
          <Suspense fallback={null}>
            <MobileDrawer open={drawerOpen} onOpenChange={setDrawerOpen} />
          </Suspense>
        )}
        <main id="main" className="min-w-0 flex-1 p-4 md:p-6" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
      {searchUsed && (
        <Suspense fallback={null}>
          <SearchDialog open={searchOpen} onOpenChange={setSearchOpen} />
        </Suspense>
      )}
      {helpUsed && (
        <Suspense fallback={null}>
          <ShortcutsHelpDialog open={helpOpen} onOpenChange={setHelpOpen} />
        </Suspense>
      )}
      <UnsavedChangesGuard />
    </div>
  );
}
