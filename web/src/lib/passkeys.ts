/**
 * The browser's half of the passkey ceremonies (WebAuthn): the server's options go to
 * `navigator.credentials.create()` / `.get()` through @simplewebauthn/browser, which
 * turns base64url into bytes and back, and the answer returns to the server as JSON.
 */
import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import { errorMessage } from './api-client';

/** The server's options for adding a passkey (`POST /api/account/passkeys/options`). */
export interface PasskeyCreationChallenge {
  public_key: PublicKeyCredentialCreationOptionsJSON;
}

/** The server's options for using a passkey at the code step of sign-in. */
export interface PasskeyRequestChallenge {
  public_key: PublicKeyCredentialRequestOptionsJSON;
}

export type { AuthenticationResponseJSON, RegistrationResponseJSON };

/** Whether this browser can make and use passkeys at all. */
export const passkeysSupported = (): boolean => browserSupportsWebAuthn();

/** Asks the browser (and the person) to make a passkey for the challenge. */
export function createPasskey(challenge: PasskeyCreationChallenge): Promise<RegistrationResponseJSON> {
  return startRegistration({ optionsJSON: challenge.public_key });
}

/** Asks the browser (and the person) to sign the challenge with one of their passkeys. */
export function signWithPasskey(challenge: PasskeyRequestChallenge): Promise<AuthenticationResponseJSON> {
  return startAuthentication({ optionsJSON: challenge.public_key });
}

/** What to tell a person when a ceremony did not finish: the browser's reason in words,
 * else the server's message, else `fallback`. */
export function passkeyProblem(error: unknown, fallback: string): string {
  if (error instanceof Error) {
    switch (error.name) {
      case 'NotAllowedError':
      case 'AbortError':
        return 'No passkey was used: the request was cancelled or timed out. Please try again.';
      case 'InvalidStateError':
        return 'This passkey is already set up.';
      case 'SecurityError':
        return 'Passkeys cannot be used at this address. Ask your administrator to set the server up on https.';
      case 'NotSupportedError':
        return 'This browser or device cannot make a passkey.';
    }
  }
  return errorMessage(error, fallback);
}
