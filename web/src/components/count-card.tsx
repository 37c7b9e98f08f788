import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { cn } from '@/lib/cn';

interface CountCardProps {
  label: string;
  count: number | undefined;
  icon?: ReactNode;
  to?: string;
  onClick?: () => void;
  active?: boolean;
  tone?: 'default' | 'warning' | 'destructive';
  /** Small on a phone, where a row of seven full cards would push the list off screen. */
  compactOnPhone?: boolean;
}

/** A count card; a link or a filter toggle when given `to` or `onClick`. */
export function CountCard({ label, count, icon, to, onClick, active = false, tone = 'default', compactOnPhone = false }: CountCardProps) {
  const body = (
    <>
      <span className={cn('flex items-center justify-between font-medium text-muted-foreground', compactOnPhone ? 'truncate text-xs tracking-tight sm:text-sm sm:tracking-normal' : 'text-sm')}>
        {label}
        {icon}
      </span>
      <span className={cn('block font-bold', compactOnPhone ? 'mt-0.5 text-lg sm:mt-2 sm:text-2xl' : 'mt-2 text-2xl', tone === 'destructive' && 'text-destructive', tone === 'warning' && 'text-warning')}>
        {count ?? '—'}
      </span>
    </>
  );
  const className = cn('block min-w-0 rounded-lg border text-left shadow-sm transition-colors', compactOnPhone ? 'px-1.5 py-1.5 sm:p-4' : 'p-4', (to || onClick) && 'hover:bg-muted', active && 'border-primary ring-2 ring-primary');
  if (to) {
    return (
      <Link to={to} className={className}>
        {body}
      </Link>
    );
  }
  if (onClick) {
    return (
      <button type="button" className={cn(className, 'w-full')} onClick={onClick} aria-pressed={active}>
        {body}
      </button>
    );
  }
  return <div className={className}>{body}</div>;
}
