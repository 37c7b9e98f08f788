import { Switch } from '@/components/ui/switch';
import { Label } from '@/components/ui/input';

export interface SwitchFieldProps {
  id: string;
  label: string;
  description?: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
}

export function SwitchField({ id, label, description, checked, onChange, disabled }: SwitchFieldProps) {
  return (
    <div className="flex items-center justify-between gap-4 rounded-md border p-3" data-field={id}>
      <div className="flex flex-col gap-1">
        <Label htmlFor={id}>{label}</Label>
        {description && (
          <p id={`${id}-description`} className="text-xs text-muted-foreground">
            {description}
          </p>
        )}
      </div>
      <Switch id={id} checked={checked} onCheckedChange={onChange} disabled={disabled} aria-describedby={description ? `${id}-description` : undefined} />
    </div>
  );
}
