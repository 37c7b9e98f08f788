import type { CurrentUser } from '@/api/types';

export type { CurrentUser };

export interface SignInBody {
  email: string;
  password: string;
}

export interface SignUpBody {
  email: string;
  password: string;
  full_name: string;
}

export interface EmailBody {
  email: string;
}

export interface ResetPasswordBody {
  token: string;
  password: string;
  confirm_password: string;
}
