import { useRef, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { errorMessage, isApiError } from '@/lib/api-client';
import { useRemoveLogo, useUploadLogo, type Settings } from '../api/settings';

/** The server's message about the file (its field message, else its headline). */
function logoProblem(error: unknown): string {
  if (isApiError(error)) return error.fields.logo ?? error.message;
  return errorMessage(error, 'The logo could not be saved.');
}

/** The agency's logo, printed on every document and shown on the family's pages. Only an
 * administrator uploads, replaces or removes it; the server checks the file. */
export function LogoCard({ settings, isAdmin }: { settings: Settings; isAdmin: boolean }) {
  const upload = useUploadLogo();
  const remove = useRemoveLogo();
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const logo = settings.logo ?? null;
  const busy = upload.isPending || remove.isPending;

  const onFile = (file: File | undefined) => {
    if (!file) return;
    setProblem(null);
    upload.mutate(file, {
      onSuccess: () => toast.success('Logo saved'),
      onError: (error) => setProblem(logoProblem(error)),
      onSettled: () => {
        if (input.current) input.current.value = '';
      },
    });
  };

  return (
    <Card className="mb-4">
      <CardHeader>
        <CardTitle>Logo</CardTitle>
        <CardDescription>Printed at the top of every document and shown on the family's approval and signing pages. A PNG or JPEG file of at most 512 KB.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {logo ? (
          <div className="flex items-center gap-4">
            <img src={logo.url} alt={`${settings.general.company_name} logo`} className="max-h-20 max-w-60 rounded border bg-white object-contain p-1" />
            <p className="text-sm text-muted-foreground">
              {logo.width} × {logo.height} pixels, {Math.max(1, Math.round(logo.size / 1024))} KB
            </p>
          </div>
        ) : (
          <p className="text-sm text-muted-foreground">No logo yet: documents show the company name alone.</p>
        )}
        {isAdmin ? (
          <div className="flex flex-wrap items-center gap-2">
            <input
              ref={input}
              id="logo-file"
              type="file"
              accept="image/png,image/jpeg"
              className="sr-only"
              tabIndex={-1}
              aria-label="Logo file (PNG or JPEG)"
              aria-describedby={problem ? 'logo-problem' : undefined}
              onChange={(event) => onFile(event.target.files?.[0])}
            />
            <Button type="button" variant="outline" disabled={busy} onClick={() => input.current?.click()}>
              {upload.isPending ? 'Uploading...' : logo ? 'Replace Logo' : 'Upload Logo'}
            </Button>
            {logo ? (
              <Button
                type="button"
                variant="outline"
                disabled={busy}
                onClick={() => {
                  setProblem(null);
                  remove.mutate(undefined, {
                    onSuccess: () => toast.success('Logo removed'),
                    onError: (error) => setProblem(logoProblem(error)),
                  });
                }}
              >
                {remove.isPending ? 'Removing...' : 'Remove Logo'}
              </Button>
            ) : null}
          </div>
        ) : (
          <p className="text-sm text-muted-foreground">Only administrators can change this.</p>
        )}
        {problem ? (
          <p id="logo-problem" role="alert" className="text-sm text-destructive">
            {problem}
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}
