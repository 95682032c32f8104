// The site's own newsletter sign-up: posts to /api/newsletter/subscribe and says plainly
// whether it worked. Used on the home page, posts, the podcast, /newsletter and work-with-me.
// A real form: without JavaScript (or before the island hydrates) the browser posts it and the
// page comes back with the message; with JavaScript the island sends what the form holds.
import { API } from '#shared/api-paths.ts';
import { useRef, useState, type FormEvent } from 'react';
import { Field } from '#components/ui/Field.tsx';
import { Honeypot } from '#components/ui/Honeypot.tsx';
import { api, errorMessage } from '#lib/api-client.ts';
import { apiFieldErrors, focusFirstInvalid, formValues, toFieldErrors, type FieldErrors } from '#lib/form.ts';
import { toast } from '#lib/toast.ts';
import { typedBefore, type FormPageProps } from '#shared/flash.ts';

interface Props extends FormPageProps {
  /** Visual variant for light or dark sections. */
  tone?: 'light' | 'dark';
  buttonLabel?: string;
  withName?: boolean;
  /** Distinguishes the form's fields when a page has more than one; names the form. */
  idPrefix?: string;
  /** The sign-up form (Admin → Forms) this is, by slug: its tags, download and consent wording. */
  form?: string | null;
}

type Status = { kind: 'idle' } | { kind: 'sending' } | { kind: 'done'; message: string } | { kind: 'error'; message: string };

export default function NewsletterForm({ tone = 'light', buttonLabel = 'Subscribe', withName = false, idPrefix = 'newsletter', form: formSlug = null, flash, returnTo }: Props) {
  const [status, setStatus] = useState<Status>(() => (flash ? { kind: flash.kind === 'success' ? 'done' : 'error', message: flash.message } : { kind: 'idle' }));
  const [errors, setErrors] = useState<FieldErrors>(() => toFieldErrors(flash?.issues ?? []));
  // Timed from the page's load, not the island's, so a quick reader is not taken for a robot.
  const openedAt = useRef(typeof performance !== 'undefined' ? performance.timeOrigin : Date.now());
  const dark = tone === 'dark';

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const values = formValues(form);
    setStatus({ kind: 'sending' });
    setErrors({});
    try {
      const res = await api<{ message: string; alreadySubscribed: boolean; pending?: boolean; thankYou?: string | null }>('POST', API.subscribe, {
        email: values.email ?? '',
        name: values.name || undefined,
        website: values.website,
        ...(formSlug ? { form: formSlug } : {}),
        page: values.page,
        elapsedMs: Math.round(Date.now() - openedAt.current),
      });
      // A sign-up form's thank-you comes first, as the page says it without JavaScript.
      const message = [res.thankYou, res.message].filter(Boolean).join(' ');
      setStatus({ kind: 'done', message });
      toast({ title: res.pending ? 'Check your inbox' : res.alreadySubscribed ? 'Already subscribed' : 'Subscribed!', description: message });
      form.reset();
    } catch (err) {
      const message = errorMessage(err, 'Subscription failed. Please try again.');
      setStatus({ kind: 'error', message });
      const fieldErrors = apiFieldErrors(err);
      setErrors(fieldErrors);
      focusFirstInvalid(form, fieldErrors);
      toast({ title: 'Subscription failed', description: message, variant: 'destructive' });
    }
  }

  const inputClass = dark
    ? 'block w-full rounded-lg border border-white/20 bg-white/10 px-4 py-3 text-sm text-white placeholder:text-slate-300 focus:border-accent-400 focus:ring-2 focus:ring-accent-400/40 focus:outline-none'
    : 'input py-3';
  // One line says what went wrong (the status below the form); an invalid field points to it.
  const statusId = `${idPrefix}-status`;
  const invalid = (field: string) => (errors[field] ? { 'aria-invalid': true as const, 'aria-describedby': statusId } : {});
  return (
    <form method="post" action="/api/newsletter/subscribe" onSubmit={(e) => void submit(e)} className="w-full">
      <input type="hidden" name="_form" value={idPrefix} />
      <input type="hidden" name="_return" value={returnTo} />
      {/* The page the sign-up came from, kept in its consent record. */}
      <input type="hidden" name="page" value={returnTo.split('#')[0]} />
      {formSlug && <input type="hidden" name="form" value={formSlug} />}
      <Honeypot id={`${idPrefix}-website`} />
      <div className="flex flex-col gap-3 sm:flex-row">
        {withName && (
          <Field id={`${idPrefix}-name`} label="Your name" hideLabel className="sm:w-44">
            {(control) => (
              <input {...control} {...invalid('name')} name="name" type="text" autoComplete="given-name" placeholder="Your name" defaultValue={typedBefore(flash, 'name')} className={inputClass} />
            )}
          </Field>
        )}
        <Field id={`${idPrefix}-email`} label="Email address" hideLabel className="flex-1">
          {(control) => (
            <input
              {...control}
              {...invalid('email')}
              name="email"
              type="email"
              required
              autoComplete="email"
              placeholder="you@company.com"
              defaultValue={typedBefore(flash, 'email')}
              className={inputClass}
            />
          )}
        </Field>
        <button type="submit" disabled={status.kind === 'sending'} className={`${dark ? 'btn-accent' : 'btn-primary'} py-3 sm:self-start`}>
          {status.kind === 'sending' ? 'Subscribing...' : buttonLabel}
        </button>
      </div>
      <p
        id={statusId}
        role="status"
        aria-live="polite"
        className={`mt-3 min-h-5 text-sm ${status.kind === 'error' ? (dark ? 'text-red-300' : 'text-red-700') : dark ? 'text-emerald-300' : 'text-emerald-700'}`}
      >
        {status.kind === 'done' || status.kind === 'error' ? status.message : ''}
      </p>
    </form>
  );
}
