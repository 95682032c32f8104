// A post's comments: the approved ones (rendered on the server, refreshed after a submission)
// and the form. New comments wait for an admin's approval, so a submission never shows up at once.
// The form is a real one: without JavaScript (or before hydration) the browser posts it and the
// page comes back with the message; with JavaScript it is checked with the shared schema first
// and sends what the form holds, so nothing typed before hydration is lost.
import { useRef, useState, type FormEvent } from 'react';
import { Field } from '#components/ui/Field.tsx';
import { Honeypot } from '#components/ui/Honeypot.tsx';
import { api } from '#lib/api-client.ts';
import { apiFieldErrors, check, focusFirstInvalid, formValues, toFieldErrors, type FieldErrors } from '#lib/form.ts';
import { toast } from '#lib/toast.ts';
import { typedBefore, type FormPageProps } from '#shared/flash.ts';
import { formatLongDate } from '#shared/format.ts';

// The schema (and zod) load on the first submit, not with the page (docs/decisions/004).
const schema = () => import('#shared/schemas/comment.ts');

interface CommentView {
  id: number;
  authorName: string;
  content: string;
  createdAt: string;
}

interface Props extends FormPageProps {
  postId: number;
  initialComments: CommentView[];
}

type FieldName = 'authorName' | 'authorEmail' | 'content';
const FAILED = 'Failed to submit comment. Please try again.';

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase())
    .join('') || '?';

export default function Comments({ postId, initialComments, flash, returnTo }: Props) {
  const [comments, setComments] = useState(initialComments);
  const [errors, setErrors] = useState<FieldErrors>(() => toFieldErrors(flash?.issues ?? []));
  // The outcome of a post without JavaScript; field errors are shown at their fields instead.
  const [notice, setNotice] = useState<{ kind: 'success' | 'error'; message: string } | null>(() => (flash && !flash.issues?.length ? { kind: flash.kind, message: flash.message } : null));
  const [sending, setSending] = useState(false);
  // The form was on screen since the page loaded (server-rendered), not only since hydration.
  const openedAt = useRef(typeof window === 'undefined' ? 0 : Math.round(performance.timeOrigin));
  const base = `/api/blog-posts/${postId}/comments`;

  async function refresh() {
    try {
      setComments(await api<CommentView[]>('GET', base));
    } catch {
      // 'Failed to fetch comments' shows nothing special: keep the list we have.
    }
  }

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const values = { ...formValues(form), elapsedMs: Date.now() - openedAt.current };
    const { CommentInputSchema } = await schema();
    const checked = check(CommentInputSchema, values);
    if (checked.errors) {
      // The same toast as when the server refuses, with the messages at their fields.
      toast({ title: 'Error', description: FAILED, variant: 'destructive' });
      setErrors(checked.errors);
      setNotice(null);
      focusFirstInvalid(form, checked.errors);
      return;
    }
    setSending(true);
    setErrors({});
    try {
      await api('POST', base, values);
      toast({ title: 'Comment submitted!', description: 'Your comment has been submitted for approval.' });
      setNotice({ kind: 'success', message: 'Your comment has been submitted for approval.' });
      form.reset();
      openedAt.current = Date.now();
      await refresh();
    } catch (err) {
      toast({ title: 'Error', description: FAILED, variant: 'destructive' });
      const fieldErrors = apiFieldErrors(err);
      setErrors(fieldErrors);
      setNotice(null);
      focusFirstInvalid(form, fieldErrors);
    } finally {
      setSending(false);
    }
  }

  const initial = (field: FieldName) => typedBefore(flash, field);
  const inputClass = (field: FieldName) => `input ${errors[field] ? 'border-red-500 focus:border-red-500 focus:ring-red-500/30' : ''}`;

  return (
    <div>
      <h2 id="comments-heading" className="text-2xl font-bold tracking-tight text-ink">
        Comments{comments.length > 0 && <span className="ml-2 text-lg font-medium text-slate-500">({comments.length})</span>}
      </h2>

      {comments.length === 0 ? (
        <p className="mt-4 text-slate-600">No comments yet. Be the first to share your thoughts.</p>
      ) : (
        <ul className="mt-6 space-y-4">
          {comments.map((c) => (
            <li key={c.id} className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
              <div className="flex items-center gap-3">
                <span aria-hidden="true" className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-brand-100 text-sm font-semibold text-brand-900">
                  {initials(c.authorName)}
                </span>
                <div className="min-w-0">
                  <p className="truncate font-semibold text-ink">{c.authorName}</p>
                  <p className="text-sm text-slate-500">
                    <time dateTime={c.createdAt}>{formatLongDate(c.createdAt)}</time>
                  </p>
                </div>
              </div>
              <p className="mt-4 leading-7 break-words whitespace-pre-line text-slate-700">{c.content}</p>
            </li>
          ))}
        </ul>
      )}

      <form onSubmit={(e) => void submit(e)} method="post" action={base} noValidate aria-labelledby="comment-form-heading" className="mt-10 rounded-2xl border border-slate-200 bg-slate-50 p-5 sm:p-8">
        <h3 id="comment-form-heading" className="text-lg font-semibold text-ink">
          Leave a comment
        </h3>
        <p className="mt-1 text-sm text-slate-600">Comments are reviewed before they appear. Your email is never published.</p>
        <input type="hidden" name="_form" value="comment" />
        <input type="hidden" name="_return" value={returnTo} />
        <Honeypot id="comment-website" />
        {notice && (
          <p
            role={notice.kind === 'error' ? 'alert' : 'status'}
            className={`mt-4 rounded-lg px-4 py-3 text-sm ${notice.kind === 'error' ? 'bg-red-50 text-red-800' : 'bg-emerald-50 text-emerald-800'}`}
          >
            {notice.message}
          </p>
        )}
        <div className="mt-6 grid gap-5 sm:grid-cols-2">
          <Field id="comment-authorName" label="Name" error={errors.authorName}>
            {(control) => <input {...control} name="authorName" type="text" required autoComplete="name" maxLength={255} defaultValue={initial('authorName')} className={inputClass('authorName')} />}
          </Field>
          <Field id="comment-authorEmail" label="Email" error={errors.authorEmail}>
            {(control) => (
              <input {...control} name="authorEmail" type="email" required autoComplete="email" maxLength={255} defaultValue={initial('authorEmail')} className={inputClass('authorEmail')} />
            )}
          </Field>
          <Field id="comment-content" label="Comment" error={errors.content} className="sm:col-span-2">
            {(control) => <textarea {...control} name="content" required rows={5} maxLength={5000} defaultValue={initial('content')} className={`${inputClass('content')} resize-y`} />}
          </Field>
        </div>
        <div className="mt-6 flex justify-end">
          <button type="submit" className="btn-primary w-full sm:w-auto" disabled={sending}>
            {sending ? 'Submitting...' : 'Post Comment'}
          </button>
        </div>
      </form>
    </div>
  );
}
