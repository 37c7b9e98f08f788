import { BarChart3, CalendarClock, ClipboardList, FileSignature, LayoutDashboard, ListTodo, MessageSquare, UserPlus, type LucideIcon } from 'lucide-react';

export interface NavItem {
  label: string;
  to: string;
  icon: LucideIcon;
}

/** The sidebar's "Main Menu": the spec's six entries, the assessment visits (blueprint 17)
 * and a coordinator's Today. */
export const NAV_ITEMS: readonly NavItem[] = [
  { label: 'Outreach Dashboard', to: '/', icon: LayoutDashboard },
  { label: 'Today', to: '/today', icon: ListTodo },
  { label: 'Lead Intake', to: '/clients', icon: UserPlus },
  { label: 'Assessments & Care Plans', to: '/assessments', icon: ClipboardList },
  { label: 'Visits', to: '/visits', icon: CalendarClock },
  { label: 'Contracts', to: '/contracts', icon: FileSignature },
  { label: 'Communication Hub', to: '/communications', icon: MessageSquare },
  { label: 'Analytics', to: '/analytics', icon: BarChart3 },
];

/** Active by path prefix; / only on an exact match. */
export function isNavActive(pathname: string, to: string): boolean {
  if (to === '/') return pathname === '/';
  return pathname === to || pathname.startsWith(`${to}/`);
}
