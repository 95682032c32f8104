// Field errors for admin forms: one message per field, from the shared zod schema on the
// client or from the API's `issues` when the server refuses (e.g. a slug already taken).
import { ApiError } from '@/lib/api-client';

export type FieldErrors = Partial<Record<string, string>>;

interface Issue {
  path: readonly PropertyKey[];
  message: string;
}

/** The first message for each top-level field. */
export function toFieldErrors(issues: readonly Issue[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? '');
    if (field && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}

/** Field errors carried by a failed API call (none for other errors). */
export function apiFieldErrors(err: unknown): FieldErrors {
  return err instanceof ApiError ? toFieldErrors(err.issues) : {};
}

/** Focuses the first invalid control of a form, so a keyboard or screen-reader user lands on it. */
export function focusFirstInvalid(form: HTMLFormElement | null): void {
  window.requestAnimationFrame(() => form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
}
