// The one form layer of the public islands and the admin: one message per field, from the
// shared zod schema in the browser or from the API's `issues` when the server refuses (a slug
// already taken); the keyboard lands on the first invalid field; values are read from the form
// itself, so whatever was typed before the island hydrated is what gets sent.
import { ApiError } from '#lib/api-client.ts';

export type FieldErrors = Partial<Record<string, string>>;

export interface Issue {
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

/**
 * Focuses the first invalid control of a form, so a keyboard or screen-reader user lands on it:
 * the first one (in the form's order) named in `errors`, or else the first marked invalid. It
 * waits for the errors to render (a few frames at most): a control may be re-rendered or still
 * disabled while the form is busy.
 */
export function focusFirstInvalid(form: HTMLFormElement | null, errors?: FieldErrors, framesLeft = 10): void {
  window.requestAnimationFrame(() => {
    if (!form) return;
    const named = errors ? [...form.elements].find((el): el is HTMLElement => el instanceof HTMLElement && !!errors[el.getAttribute('name') ?? '']) : undefined;
    const target = named ?? form.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (target && !(target as HTMLInputElement).disabled) {
      target.focus();
      if (document.activeElement === target) return;
    }
    if (framesLeft > 0) focusFirstInvalid(form, errors, framesLeft - 1);
  });
}

/** The form's current values (hidden bookkeeping fields, named `_…`, left out). */
export function formValues(form: HTMLFormElement): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of new FormData(form)) if (!name.startsWith('_') && typeof value === 'string') values[name] = value;
  return values;
}

interface SafeParse<T> {
  safeParse: (value: unknown) => { success: true; data: T } | { success: false; error: { issues: readonly Issue[] } };
}

/** Checks values with a shared schema: the data, or one error per field. */
export function check<T>(schema: SafeParse<T>, values: unknown): { data: T; errors: null } | { data: null; errors: FieldErrors } {
  const parsed = schema.safeParse(values);
  return parsed.success ? { data: parsed.data, errors: null } : { data: null, errors: toFieldErrors(parsed.error.issues) };
}
