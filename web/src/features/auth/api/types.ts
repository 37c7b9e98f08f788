import type { CurrentUser, Schemas } from '@/api/types';

export type { CurrentUser };

export type SignInBody = Schemas['SignInBody'];
export type SignUpBody = Schemas['SignUpBody'];
export type EmailBody = Schemas['EmailBody'];
export type ResetPasswordBody = Schemas['ResetPasswordBody'];
export type SecondFactorBody = Schemas['SecondFactorBody'];
