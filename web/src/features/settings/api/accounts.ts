import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { queryKeys, useInvalidate } from '@/api/query-keys';
import type { Schemas } from '@/api/types';
import { api } from '@/lib/api-client';

export type EmailAccount = Schemas['EmailAccount'];
export type EmailAccountForm = Schemas['EmailAccountForm'];
export type SmsAccount = Schemas['SmsAccount'];
export type SmsAccountForm = Schemas['SmsAccountForm'];
export type SmtpTls = Schemas['SmtpTls'];
export type TestOutcome = Schemas['TestOutcome'];

export const emailAccountQueryOptions = queryOptions({
  queryKey: queryKeys.emailAccount,
  queryFn: ({ signal }) => api.get<EmailAccount>('/api/settings/email-account', undefined, signal),
});

/** The mail server (administrators only): never its password, only whether one is set. */
export function useEmailAccount(enabled: boolean) {
  return useQuery({ ...emailAccountQueryOptions, enabled });
}

export function useSaveEmailAccount() {
  const queryClient = useQueryClient();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (form: EmailAccountForm) => api.put<EmailAccount>('/api/settings/email-account', form),
    onSuccess: (account) => {
      queryClient.setQueryData(queryKeys.emailAccount, account);
      void invalidate([queryKeys.checklist]);
    },
  });
}

/** Sends the test email; the answer says, in words, what the server said. */
export function useTestEmail() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: () => api.post<TestOutcome>('/api/settings/email-account/test', {}),
    onSettled: () => {
      void invalidate([queryKeys.emailAccount, queryKeys.checklist]);
    },
  });
}

export const smsAccountQueryOptions = queryOptions({
  queryKey: queryKeys.smsAccount,
  queryFn: ({ signal }) => api.get<SmsAccount>('/api/settings/sms-account', undefined, signal),
});

export function useSmsAccount(enabled: boolean) {
  return useQuery({ ...smsAccountQueryOptions, enabled });
}

export function useSaveSmsAccount() {
  const queryClient = useQueryClient();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (form: SmsAccountForm) => api.put<SmsAccount>('/api/settings/sms-account', form),
    onSuccess: (account) => {
      queryClient.setQueryData(queryKeys.smsAccount, account);
      void invalidate([queryKeys.checklist]);
    },
  });
}

export function useTestText() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (to: string) => api.post<TestOutcome>('/api/settings/sms-account/test', { to }),
    onSettled: () => {
      void invalidate([queryKeys.smsAccount, queryKeys.checklist]);
    },
  });
}

export type ReplyMailbox = Schemas['ReplyMailbox'];
export type ReplyMailboxForm = Schemas['ReplyMailboxForm'];
export type ImapAuth = Schemas['ImapAuth'];
export type FetchOutcome = Schemas['FetchOutcome'];

export const replyMailboxQueryOptions = queryOptions({
  queryKey: queryKeys.replyMailbox,
  queryFn: ({ signal }) => api.get<ReplyMailbox>('/api/settings/reply-mailbox', undefined, signal),
});

/** The reply-to mailbox read over IMAP (administrators only): never its secret, only whether one is set. */
export function useReplyMailbox(enabled: boolean) {
  return useQuery({ ...replyMailboxQueryOptions, enabled });
}

export function useSaveReplyMailbox() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (form: ReplyMailboxForm) => api.put<ReplyMailbox>('/api/settings/reply-mailbox', form),
    onSuccess: (mailbox) => queryClient.setQueryData(queryKeys.replyMailbox, mailbox),
  });
}

/** Reads the mailbox now; the answer says, in words, what the server said. */
export function useFetchReplies() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: () => api.post<FetchOutcome>('/api/settings/reply-mailbox/fetch', {}),
    onSettled: () => invalidate([queryKeys.replyMailbox, queryKeys.communications]),
  });
}
