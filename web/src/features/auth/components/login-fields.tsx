import { TextField } from '@/components/form/text-field';
import type { LoginMode } from './login-page';

export interface LoginValues {
  email: string;
  password: string;
  confirmPassword: string;
  fullName: string;
}

export function LoginFields({ mode, values, onChange }: { mode: LoginMode; values: LoginValues; onChange: (field: keyof LoginValues, value: string) => void }) {
  const needsEmail = mode !== 'reset';
  const needsPassword = mode !== 'forgot';
  const needsConfirmation = mode === 'sign-up' || mode === 'reset';
  return (
    <>
      {mode === 'sign-up' && <TextField id="full-name" label="Full name" value={values.fullName} onChange={(value) => onChange('fullName', value)} autoComplete="name" />}
      {needsEmail && (
        <TextField id="email" label="Email" type="email" value={values.email} onChange={(value) => onChange('email', value)} autoComplete="email" placeholder="you@agency.com" required />
      )}
      {needsPassword && (
        <TextField
          id="password"
          label={mode === 'reset' ? 'New password' : 'Password'}
          type="password"
          value={values.password}
          onChange={(value) => onChange('password', value)}
          autoComplete={mode === 'sign-in' ? 'current-password' : 'new-password'}
          required
        />
      )}
      {needsConfirmation && (
        <TextField
          id="confirm-password"
          label="Confirm password"
          type="password"
          value={values.confirmPassword}
          onChange={(value) => onChange('confirmPassword', value)}
          autoComplete="new-password"
          required
        />
      )}
    </>
  );
}
