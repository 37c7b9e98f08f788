import { Link, useLocation } from 'react-router';
import { cn } from '@/lib/cn';
import { isNavActive, NAV_ITEMS } from './nav-items';

export function SidebarNav({ collapsed, onNavigate }: { collapsed: boolean; onNavigate?: () => void }) {
  const { pathname } = useLocation();
  return (
    <nav aria-label="Main Menu" className="flex flex-col gap-1 p-2">
      {!collapsed && <p className="px-2 pt-2 pb-1 text-xs font-semibold tracking-wide text-muted-foreground uppercase">Main Menu</p>}
      <ul className="flex flex-col gap-1">
        {NAV_ITEMS.map((item) => {
          const active = isNavActive(pathname, item.to);
          const Icon = item.icon;
          return (
            <li key={item.to}>
              <Link
                to={item.to}
                onClick={onNavigate}
                aria-current={active ? 'page' : undefined}
                aria-label={collapsed ? item.label : undefined}
                title={collapsed ? item.label : undefined}
                className={cn(
                  'flex h-9 items-center gap-3 rounded-md px-2 text-sm font-medium hover:bg-muted',
                  active && 'bg-accent text-accent-foreground',
                  collapsed && 'justify-center px-0',
                )}
              >
                <Icon className="size-4 shrink-0" aria-hidden="true" />
                {!collapsed && <span className="truncate">{item.label}</span>}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** The desktop sidebar: 16rem wide, or a 3rem icon rail when collapsed. */
export function Sidebar({ collapsed }: { collapsed: boolean }) {
  return (
    <aside
      className={cn('hidden shrink-0 border-r bg-sidebar transition-[width] md:block', collapsed ? 'w-12' : 'w-64')}
      data-state={collapsed ? 'collapsed' : 'expanded'}
      aria-label="Sidebar"
    >
      <SidebarNav collapsed={collapsed} />
    </aside>
  );
}
