import { Download, Search } from 'lucide-react';
import type { ReactNode } from 'react';
import { Input, NativeSelect } from '@/components/ui/input';
import { Button } from '@/components/ui/button';

export function DataTableToolbar({ children }: { children: ReactNode }) {
  return <div className="mb-3 flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-center">{children}</div>;
}

export function ToolbarSearch({ id, label, value, onChange, placeholder }: { id: string; label: string; value: string; onChange: (value: string) => void; placeholder: string }) {
  return (
    <div className="relative w-full sm:max-w-xs">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <Search className="absolute top-2.5 left-2.5 size-4 text-muted-foreground" aria-hidden="true" />
      <Input id={id} type="search" value={value} onChange={(event) => onChange(event.target.value)} placeholder={placeholder} className="pl-8" />
    </div>
  );
}

export interface ToolbarFilterOption {
  value: string;
  label: string;
}

export function ToolbarFilter({ id, label, value, onChange, options }: { id: string; label: string; value: string; onChange: (value: string) => void; options: readonly ToolbarFilterOption[] }) {
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm text-muted-foreground">
        {label}
      </label>
      <NativeSelect id={id} value={value} onChange={(event) => onChange(event.target.value)} className="w-auto">
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}

/**
 * "Export to CSV" for a list: downloads `href` (the list's export with its filters), and is
 * disabled while the list is empty, since nothing is exported when there is no data.
 */
export function ToolbarExport({ href, empty }: { href: string; empty: boolean }) {
  if (empty) {
    return (
      <Button variant="outline" className="sm:ml-auto" disabled>
        <Download aria-hidden="true" />
        Export to CSV
      </Button>
    );
  }
  return (
    <Button asChild variant="outline" className="sm:ml-auto">
      <a href={href} download>
        <Download aria-hidden="true" />
        Export to CSV
      </a>
    </Button>
  );
}
