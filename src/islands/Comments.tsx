// A post's comments: the approved ones (rendered on the server, refreshed after a submission)
// and the form. New comments wait for an admin's approval, so a submission never shows up at once.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Honeypot } from '@/components/ui/Honeypot';
import { api, ApiError } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { formatLongDate } from '@/shared/format';

interface CommentView {
  id: number;
  authorName: string;
  content: string;
  createdAt: string;
}

interface Props {
  postId: number;
  initialComments: CommentView[];
}

type Field = 'authorName' | 'authorEmail' | 'content';
type Errors = Partial<Record<Field, string>>;
const FIELDS: Field[] = ['authorName', 'authorEmail', 'content'];
const EMPTY = { authorName: '', authorEmail: '', content: '' };

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase())
    .join('') || '?';

export default function Comments({ postId, initialComments }: Props) {
  const [comments, setComments] = useState(initialComments);
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  const [sending, setSending] = useState(false);
  // The server-rendered form stays disabled until this island runs: it can only post as JSON.
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  // Spam defences the API screens for: a honeypot people never see and how long the form was open.
  const [website, setWebsite] = useState('');
  // The form was on screen since the page loaded (server-rendered), not only since hydration.
  const openedAt = useRef(typeof window === 'undefined' ? 0 : Math.round(performance.timeOrigin));
  const formRef = useRef<HTMLFormElement>(null);
  const base = `/api/blog-posts/${postId}/comments`;

  const set = (field: Field, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  };

  async function refresh() {
    try {
      setComments(await api<CommentView[]>('GET', base));
    } catch {
      // 'Failed to fetch comments' shows nothing special (spec section 8): keep the list we have.
    }
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    setSending(true);
    setErrors({});
    try {
      await api('POST', base, { ...values, website, elapsedMs: Date.now() - openedAt.current });
      toast({ title: 'Comment submitted!', description: 'Your comment has been submitted for approval.' });
      setValues(EMPTY);
      openedAt.current = Date.now();
      await refresh();
    } catch (err) {
      toast({ title: 'Error', description: 'Failed to submit comment. Please try again.', variant: 'destructive' });
      const found: Errors = {};
      if (err instanceof ApiError) {
        for (const issue of err.issues) {
          const field = issue.path[0];
          if (FIELDS.includes(field as Field) && !found[field as Field]) found[field as Field] = issue.message;
        }
      }
      setErrors(found);
      const first = FIELDS.find((f) => found[f]);
      if (first) formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
    } finally {
      setSending(false);
    }
  }

  const fieldProps = (field: Field) => ({
    id: `comment-${field}`,
    name: field,
    value: values[field],
    required: true,
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': errors[field] ? `comment-${field}-error` : undefined,
  });
  const error = (field: Field) =>
    errors[field] && (
      <p id={`comment-${field}-error`} className="mt-1.5 text-sm text-red-700">
        {errors[field]}
      </p>
    );
  const inputClass = (field: Field) =>
    `input ${errors[field] ? 'border-red-500 focus:border-red-500 focus:ring-red-500/30' : ''}`;

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
                <span
                  aria-hidden="true"
                  className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-brand-100 text-sm font-semibold text-brand-900"
                >
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

      <form
        ref={formRef}
        onSubmit={submit}
        method="post"
        noValidate
        aria-labelledby="comment-form-heading"
        className="mt-10 rounded-2xl border border-slate-200 bg-slate-50 p-5 sm:p-8"
      >
        <h3 id="comment-form-heading" className="text-lg font-semibold text-ink">
          Leave a comment
        </h3>
        <p className="mt-1 text-sm text-slate-600">Comments are reviewed before they appear. Your email is never published.</p>
        <Honeypot id="comment-website" value={website} onChange={setWebsite} />
        <div className="mt-6 grid gap-5 sm:grid-cols-2">
          <div>
            <label htmlFor="comment-authorName" className="label">
              Name
            </label>
            <input {...fieldProps('authorName')} type="text" autoComplete="name" maxLength={255} onChange={(e) => set('authorName', e.target.value)} className={inputClass('authorName')} />
            {error('authorName')}
          </div>
          <div>
            <label htmlFor="comment-authorEmail" className="label">
              Email
            </label>
            <input {...fieldProps('authorEmail')} type="email" autoComplete="email" maxLength={255} onChange={(e) => set('authorEmail', e.target.value)} className={inputClass('authorEmail')} />
            {error('authorEmail')}
          </div>
          <div className="sm:col-span-2">
            <label htmlFor="comment-content" className="label">
              Comment
            </label>
            <textarea {...fieldProps('content')} rows={5} maxLength={5000} onChange={(e) => set('content', e.target.value)} className={`${inputClass('content')} resize-y`} />
            {error('content')}
          </div>
        </div>
        <div className="mt-6 flex justify-end">
          <button type="submit" className="btn-primary w-full sm:w-auto" disabled={!ready || sending}>
            {sending ? 'Submitting...' : 'Post Comment'}
          </button>
        </div>
      </form>
    </div>
  );
}
