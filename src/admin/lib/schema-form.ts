// The state of an admin form dialog: its values, one error per field, and the submit that
// checks the values with the shared schema before sending, shows the server's field errors
// when it refuses, and lands the keyboard on the first invalid control either way.
import { useState } from 'react';
import { apiFieldErrors, focusFirstInvalid, toFieldErrors, type FieldErrors } from '#lib/form.ts';

type Parsed<T> = { success: true; data: T } | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };

export function useSchemaForm<V extends object, T>(
  initial: () => V,
  /** Checks the values (as the schema wants them) before anything is sent. */
  parse: (values: V) => Parsed<T>,
  /** Sends checked data; it throws on failure (mutate() has toasted it). */
  save: (data: T) => Promise<void>,
) {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);

  /** Changes one field and clears its error. */
  const set = <K extends keyof V>(key: K, value: V[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    if (errors[key as string]) setErrors((e) => ({ ...e, [key]: undefined }));
  };

  /** A text control's value, change handler and error for one string field: `<TextField {...bind('title')} />`. */
  const bind = <K extends { [P in keyof V]: V[P] extends string ? P : never }[keyof V]>(key: K) => ({
    value: values[key] as string,
    onChange: (e: { target: { value: string } }) => set(key, e.target.value as V[K]),
    error: errors[key as string],
  });

  const submit = async (form: HTMLFormElement) => {
    const parsed = parse(values);
    if (!parsed.success) {
      const found = toFieldErrors(parsed.error.issues);
      setErrors(found);
      focusFirstInvalid(form, found);
      return;
    }
    setBusy(true);
    try {
      await save(parsed.data);
    } catch (err) {
      const found = apiFieldErrors(err);
      setErrors(found);
      focusFirstInvalid(form, found);
      setBusy(false);
    }
  };

  return { values, setValues, errors, setErrors, busy, set, bind, submit };
}
