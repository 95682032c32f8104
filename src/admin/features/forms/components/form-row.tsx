// One sign-up form: its page, tags, download and confirmed sign-ups; the HTML to paste on
// another site (with a copy button); sending its download to those who signed up before it had one.
import { useState } from 'react';
import { Badge } from '#admin/ui/controls.tsx';
import { PencilIcon, TrashIcon } from '#admin/ui/icons.tsx';
import { toast } from '#lib/toast.ts';
import { sendIncentive, type SignupForm } from '#admin/features/forms/api/forms.ts';

const iconButton = 'rounded-lg p-2 text-slate-600 transition hover:bg-slate-100 hover:text-ink focus-visible:outline-2 focus-visible:outline-brand-600';

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A plain HTML form posting to this site: no script needed; the visitor comes back to the form's page with its message. */
export function embedSnippet(form: Pick<SignupForm, 'slug' | 'buttonLabel'>, origin: string): string {
  return [
    `<form method="post" action="${escapeHtml(origin)}/api/newsletter/subscribe">`,
    `  <input type="hidden" name="form" value="${escapeHtml(form.slug)}">`,
    `  <input type="hidden" name="_form" value="signup-form">`,
    `  <input type="hidden" name="_return" value="/f/${escapeHtml(form.slug)}#signup">`,
    `  <label>Name <input type="text" name="name" autocomplete="given-name"></label>`,
    `  <label>E-mail <input type="email" name="email" required autocomplete="email"></label>`,
    `  <div aria-hidden="true" style="position:absolute;left:-9999px"><input type="text" name="website" tabindex="-1" autocomplete="off"></div>`,
    `  <button type="submit">${escapeHtml(form.buttonLabel ?? 'Subscribe')}</button>`,
    `</form>`,
  ].join('\n');
}

export function FormRow({ form, onEdit, onDelete, onChanged }: { form: SignupForm; onEdit: () => void; onDelete: () => void; onChanged: () => void }) {
  const headingId = `form-${form.id}-name`;
  const [showSnippet, setShowSnippet] = useState(false);
  const [sending, setSending] = useState(false);
  const snippet = embedSnippet(form, window.location.origin);

  async function sendToEarlier() {
    setSending(true);
    try {
      const { sent } = await sendIncentive(form.id, {});
      toast({ title: 'Download sent', description: `${sent} ${sent === 1 ? 'person gets' : 'people get'} ${form.incentiveProductName ?? 'the download'} by e-mail.` });
      onChanged();
    } finally {
      setSending(false);
    }
  }

  return (
    <li>
      <article aria-labelledby={headingId} className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
        <div className="flex flex-wrap items-center gap-x-6 gap-y-3">
          <div className="min-w-0 flex-1">
            <h3 id={headingId} className="font-semibold text-ink">
              {form.name}
            </h3>
            <p className="mt-1 text-sm">
              <a href={`/f/${form.slug}`} className="font-mono text-brand-700 underline" target="_blank" rel="noopener">
                /f/{form.slug}
              </a>
            </p>
            <div className="mt-2 flex flex-wrap items-center gap-2 text-xs text-slate-500">
              {form.tags.map((t) => (
                <Badge key={t} tone="blue">
                  {t}
                </Badge>
              ))}
              {form.incentiveProductName && <Badge tone="green">Download: {form.incentiveProductName}</Badge>}
            </div>
          </div>
          <p className="text-sm text-slate-700">
            <span className="text-lg font-bold text-ink">{form.confirmed}</span> confirmed
          </p>
          <div className="flex shrink-0 items-center gap-1">
            <button type="button" className="btn-secondary" onClick={() => setShowSnippet((v) => !v)} aria-expanded={showSnippet}>
              {showSnippet ? 'Hide HTML' : 'HTML for another site'}
            </button>
            <button type="button" onClick={onEdit} aria-label={`Edit form ${form.name}`} title="Edit" className={iconButton}>
              <PencilIcon />
            </button>
            <button type="button" onClick={onDelete} aria-label={`Delete form ${form.name}`} title="Delete" className={`${iconButton} hover:bg-red-50 hover:text-red-700`}>
              <TrashIcon />
            </button>
          </div>
        </div>
        {form.withoutIncentive > 0 && (
          <div className="mt-3 flex flex-wrap items-center gap-3 rounded-xl bg-amber-50 p-3 text-sm text-amber-900">
            <p className="flex-1">
              {form.withoutIncentive} {form.withoutIncentive === 1 ? 'person' : 'people'} confirmed through this form without getting {form.incentiveProductName}: nothing is sent to them by itself.
            </p>
            <button type="button" className="btn-secondary" disabled={sending} onClick={() => void sendToEarlier()}>
              Send the download to the {form.withoutIncentive} who confirmed before
            </button>
          </div>
        )}
        {showSnippet && (
          <div className="mt-3">
            <label htmlFor={`form-${form.id}-snippet`} className="block text-sm font-medium text-slate-700">
              Paste this on another site: a plain form, no script needed
            </label>
            <textarea id={`form-${form.id}-snippet`} readOnly value={snippet} rows={9} className="mt-1 input font-mono text-xs" onFocus={(e) => e.currentTarget.select()} />
            <button
              type="button"
              className="mt-2 btn-secondary"
              onClick={() => void navigator.clipboard?.writeText(snippet).then(() => toast({ title: 'Copied', description: 'The form HTML is on the clipboard.' }))}
            >
              Copy HTML
            </button>
          </div>
        )}
      </article>
    </li>
  );
}
