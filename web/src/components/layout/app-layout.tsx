import { useState } from 'react';
import { Outlet } from 'react-router';
import { SearchDialog } from '@/components/search/search-dialog';
import { readSidebarCollapsed, writeSidebarCollapsed } from '@/lib/sidebar-state';
import { useIsMobile } from '@/lib/use-media-query';
import { Header } from './header';
import { MobileDrawer } from './mobile-drawer';
import { ShortcutsHelpDialog } from './shortcuts-help-dialog';
import { Sidebar } from './sidebar';
import { UnsavedChangesGuard } from './unsaved-changes-guard';
import { useShortcuts } from './use-shortcuts';

interface AppLayoutProps {
  userName: string;
  isAdmin: boolean;
  onSignOut: () => void;
}

export function AppLayout({ userName, isAdmin, onSignOut }: AppLayoutProps) {
  const isMobile = useIsMobile();
  const [collapsed, setCollapsed] = useState(readSidebarCollapsed);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [searchOpen, setSearchOpen] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);

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
        {isMobile && <MobileDrawer open={drawerOpen} onOpenChange={setDrawerOpen} />}
        <main id="main" className="min-w-0 flex-1 p-4 md:p-6" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
      <SearchDialog open={searchOpen} onOpenChange={setSearchOpen} />
      <ShortcutsHelpDialog open={helpOpen} onOpenChange={setHelpOpen} />
      <UnsavedChangesGuard />
    </div>
  );
}
