import { ATTACHMENT_EXTENSION_VALUES, ATTACHMENT_MAX_BYTES_VALUES } from '@/api/options.gen';

/** The largest file an email may attach, as the server checks it. */
export const MAX_ATTACHMENT_BYTES: number = ATTACHMENT_MAX_BYTES_VALUES[0];
const MAX_ATTACHMENT_MB = MAX_ATTACHMENT_BYTES / (1024 * 1024);
export const ACCEPTED_ATTACHMENT_EXTENSIONS: readonly string[] = ATTACHMENT_EXTENSION_VALUES;
export const ATTACHMENT_ACCEPT = ACCEPTED_ATTACHMENT_EXTENSIONS.map((extension) => `.${extension}`).join(',');
/** "PDF, DOC, … or JPEG, at most 10MB each.": what the file picker accepts, in words. */
export const ATTACHMENT_HINT = `${ACCEPTED_ATTACHMENT_EXTENSIONS.slice(0, -1)
  .map((extension) => extension.toUpperCase())
  .join(', ')} or ${(ACCEPTED_ATTACHMENT_EXTENSIONS.at(-1) ?? '').toUpperCase()}, at most ${MAX_ATTACHMENT_MB}MB each.`;

export interface AttachmentLike {
  name: string;
  size: number;
}

/** The message to show for a file that cannot be attached, or null when it is fine: core's texts (`attachment_problem`), checked here as the file is picked. */
export function attachmentProblem(file: AttachmentLike): string | null {
  const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
  if (!ACCEPTED_ATTACHMENT_EXTENSIONS.includes(extension)) {
    return `${file.name} is not a supported file type.`;
  }
  if (file.size > MAX_ATTACHMENT_BYTES) return `${file.name} is too large. Max size is ${MAX_ATTACHMENT_MB}MB.`;
  return null;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
