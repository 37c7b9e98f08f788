import { LogOut, PanelLeft, Search, Settings, ShieldCheck, UserRound } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';

interface HeaderProps {
  userName: string;
  /** Administrators also get the Admin link (the server refuses everyone else anyway). */
  isAdmin: boolean;
  sidebarExpanded: boolean;
  onToggleSidebar: () => void;
  onSearch: () => void;
  onSignOut: () => void;
}

export function Header({ userName, isAdmin, sidebarExpanded, onToggleSidebar, onSearch, onSignOut }: HeaderProps) {
  return (
    <header className="sticky top-0 z-30 flex h-14 items-center gap-2 border-b bg-background px-3">
      <Button variant="ghost" size="icon" onClick={onToggleSidebar} aria-label="Toggle sidebar" aria-expanded={sidebarExpanded} title="Toggle sidebar (Ctrl/Cmd+B)">
        <PanelLeft aria-hidden="true" />
      </Button>
      <Link to="/" className="font-semibold text-primary">
        Carepath
      </Link>
      <div className="ml-auto flex items-center gap-2">
        <Button variant="outline" size="sm" onClick={onSearch} title="Search clients (Ctrl/Cmd+K)">
          <Search aria-hidden="true" />
          <span className="max-sm:sr-only">Search</span>
          <kbd className="hidden rounded border px-1 text-[10px] text-muted-foreground sm:inline">Ctrl K</kbd>
        </Button>
        <Button variant="ghost" size="sm" asChild>
          <Link to="/settings">
            <Settings aria-hidden="true" />
            <span className="max-sm:sr-only">Settings</span>
          </Link>
        </Button>
        {isAdmin && (
          <Button variant="ghost" size="sm" asChild>
            <Link to="/admin">
              <ShieldCheck aria-hidden="true" />
              <span className="max-sm:sr-only">Admin</span>
            </Link>
          </Button>
        )}
        <Button variant="ghost" size="icon" className="rounded-full bg-secondary" asChild>
          <Link to="/account" aria-label={`Your account (signed in as ${userName})`} title={userName}>
            <UserRound className="size-4" aria-hidden="true" />
          </Link>
        </Button>
        <Button variant="ghost" size="sm" onClick={onSignOut}>
          <LogOut aria-hidden="true" />
          Sign out
        </Button>
      </div>
    </header>
  );
}
