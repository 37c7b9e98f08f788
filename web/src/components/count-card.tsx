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
}

/** A count card; a link or a filter toggle when given `to` or `onClick`. */
export function CountCard({ label, count, icon, to, onClick, active = false, tone = 'default' }: CountCardProps) {
  const body = (
    <>
      <span className="flex items-center justify-between text-sm font-medium text-muted-foreground">
        {label}
        {icon}
      </span>
      <span className={cn('mt-2 block text-2xl font-bold', tone === 'destructive' && 'text-destructive', tone === 'warning' && 'text-warning')}>
        {count ?? '—'}
      </span>
    </>
  );
  const className = cn('block rounded-lg border p-4 text-left shadow-sm transition-colors', (to || onClick) && 'hover:bg-muted', active && 'border-primary ring-2 ring-primary');
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
