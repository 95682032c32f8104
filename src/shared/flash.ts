// The message a form posted without JavaScript leaves for the page it returns to (kept on the
// server under a one-time token; see src/server/http/flash.ts).
export interface Flash {
  /** Which form on the page it is for (the form's id prefix). */
  form: string;
  kind: 'success' | 'error';
  message: string;
  /** Field errors with the schema's messages. */
  issues?: { path: (string | number)[]; message: string }[] | undefined;
  /** What was sent (never passwords): to fill the form again after an error, or name what was made. */
  values?: Record<string, string>;
}

/** Props every progressively enhanced form island takes from its page. */
export interface FormPageProps {
  /** The flash for this form, when the page shows one. */
  flash?: Flash | null;
  /** Where a post without JavaScript comes back to: this page and the form's anchor. */
  returnTo: string;
}

/** What to fill a form with again: what was typed, after an error only. */
export const typedBefore = (flash: Flash | null | undefined, field: string): string => (flash?.kind === 'error' ? (flash.values?.[field] ?? '') : '');

/** The page's flash when it is for the form named `form`, else null. */
export const flashFor = (flash: Flash | null | undefined, form: string): Flash | null => (flash?.form === form ? flash : null);
