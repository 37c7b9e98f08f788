import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

export function FormSection({ id, title, children, className }: { id: string; title: string; children: ReactNode; className?: string }) {
  return (
    <section aria-labelledby={`${id}-title`} className={cn('rounded-lg border p-4', className)}>
      <h2 id={`${id}-title`} className="mb-4 text-base font-semibold">
        {title}
      </h2>
      <div className="grid gap-4 md:grid-cols-2">{children}</div>
    </section>
  );
}

/** Scrolls to and focuses the first field marked invalid. */
export function scrollToFirstInvalid(root: ParentNode = document): void {
  const first = root.querySelector<HTMLElement>('[data-invalid="true"]');
  if (!first) return;
  first.scrollIntoView({ behavior: 'smooth', block: 'center' });
  const control = first.querySelector<HTMLElement>('input, textarea, select');
  control?.focus({ preventScroll: true });
}
