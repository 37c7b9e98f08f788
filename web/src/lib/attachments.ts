/** Each attached file may be at most 10MB. */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
export const ACCEPTED_ATTACHMENT_EXTENSIONS = ['pdf', 'doc', 'docx', 'txt', 'png', 'jpg', 'jpeg'] as const;
export const ATTACHMENT_ACCEPT = ACCEPTED_ATTACHMENT_EXTENSIONS.map((extension) => `.${extension}`).join(',');

export interface AttachmentLike {
  name: string;
  size: number;
}

/** The message to show for a file that cannot be attached, or null when it is fine. */
export function attachmentProblem(file: AttachmentLike): string | null {
  const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
  if (!(ACCEPTED_ATTACHMENT_EXTENSIONS as readonly string[]).includes(extension)) {
    return `${file.name} is not an accepted file type. Use PDF, DOC, DOCX, TXT, PNG, JPG or JPEG.`;
  }
  if (file.size > MAX_ATTACHMENT_BYTES) return `${file.name} is too large. Max size is 10MB.`;
  return null;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
