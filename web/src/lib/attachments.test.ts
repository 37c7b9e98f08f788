import { describe, expect, it } from 'vitest';
import { ATTACHMENT_ACCEPT, ATTACHMENT_HINT, attachmentProblem, MAX_ATTACHMENT_BYTES } from './attachments';

// The limits come from the server's OpenAPI document (core's attachment rules).
describe('attachments', () => {
  it('accepts what core accepts and says so', () => {
    expect(MAX_ATTACHMENT_BYTES).toBe(10 * 1024 * 1024);
    expect(ATTACHMENT_ACCEPT).toBe('.pdf,.doc,.docx,.txt,.png,.jpg,.jpeg');
    expect(ATTACHMENT_HINT).toBe('PDF, DOC, DOCX, TXT, PNG, JPG or JPEG, at most 10MB each.');
  });

  it("refuses with core's messages", () => {
    expect(attachmentProblem({ name: 'plan.PDF', size: MAX_ATTACHMENT_BYTES })).toBeNull();
    expect(attachmentProblem({ name: 'plan.pdf', size: MAX_ATTACHMENT_BYTES + 1 })).toBe('plan.pdf is too large. Max size is 10MB.');
    expect(attachmentProblem({ name: 'run.exe', size: 1 })).toBe('run.exe is not a supported file type.');
    expect(attachmentProblem({ name: 'no-extension', size: 1 })).toBe('no-extension is not a supported file type.');
  });
});
