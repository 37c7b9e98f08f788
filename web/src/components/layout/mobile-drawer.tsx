import { Dialog as DialogPrimitive } from 'radix-ui';
import { X } from 'lucide-react';
import { SidebarNav } from './sidebar';

/** Below 768px the sidebar is an 18rem drawer. */
export function MobileDrawer({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-black/50" />
        <DialogPrimitive.Content className="fixed inset-y-0 left-0 z-50 w-72 overflow-y-auto border-r bg-sidebar shadow-lg" aria-describedby={undefined}>
          <div className="flex items-center justify-between border-b p-3">
            <DialogPrimitive.Title className="font-semibold">Carepath</DialogPrimitive.Title>
            <DialogPrimitive.Close className="rounded-sm p-1 hover:bg-muted" aria-label="Close menu">
              <X className="size-4" aria-hidden="true" />
            </DialogPrimitive.Close>
          </div>
          <SidebarNav collapsed={false} onNavigate={() => onOpenChange(false)} />
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
