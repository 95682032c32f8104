// Password rules beyond the forms' length check: the 10,000 most common passwords (the ranked
// list zxcvbn-ts ships, checked offline) are refused everywhere a password is set.
import { dictionary } from '@zxcvbn-ts/language-common';

export const TOO_COMMON = 'This password is too common';
/** The stricter minimum for the ADMIN_PASSWORD account, which the environment sets. */
export const ADMIN_PASSWORD_MIN = 12;

let common: Set<string> | undefined;

/** True when the password (case aside) is among the 10,000 most used ones. */
export function isCommonPassword(password: string): boolean {
  common ??= new Set(dictionary['passwords-common'].slice(0, 10_000).map((p) => p.toLowerCase()));
  return common.has(password.toLowerCase());
}

/** Why a password given on the command line or in the environment is refused, or null. */
export function passwordProblem(password: string, min = 6): string | null {
  if (password.length < min) return `Password must be at least ${min} characters`;
  if (isCommonPassword(password)) return TOO_COMMON;
  return null;
}
