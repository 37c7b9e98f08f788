/** Each attached file may be at most 10MB. */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
export const ACCEPTED_ATTACHMENT_EXTENSIONS = ['pdf', 'doc', 'docx', 'txt', 'png', 'jpg', 'jpeg'] as const;
export const ATTACHMENT_ACCEPT = ACCEPTED_ATTACHMENT_EXTENSIONS.map((extension) => `.${extension}`).join(',');

export interface AttachmentLike {
  name: string;
  size: number;
}

/** The message to show for a file that cannot be attached, or null when it is fine: core's texts (`attachment_problem`), checked here as the file is picked. */
export function attachmentProblem(file: AttachmentLike): string | null {
  const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
  if (!(ACCEPTED_ATTACHMENT_EXTENSIONS as readonly string[]).includes(extension)) {
    return `${file.name} is not a supported file type.`;
  }
  if (file.size > MAX_ATTACHMENT_BYTES) return `${file.name} is too large. Max size is 10MB.`;
  return null;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
