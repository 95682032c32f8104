// The site's own newsletter sign-up: posts to /api/newsletter/subscribe and says plainly
// whether it worked. Used on the home page, posts, the podcast, /newsletter and work-with-me.
import { useRef, useState, type FormEvent } from 'react';
import { Honeypot } from '@/components/ui/Honeypot';
import { api, errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';

interface Props {
  /** Visual variant for light or dark sections. */
  tone?: 'light' | 'dark';
  buttonLabel?: string;
  withName?: boolean;
  /** Distinguishes the form's fields when a page has more than one. */
  idPrefix?: string;
}

type Status = { kind: 'idle' } | { kind: 'sending' } | { kind: 'done'; message: string } | { kind: 'error'; message: string };

export default function NewsletterForm({ tone = 'light', buttonLabel = 'Subscribe', withName = false, idPrefix = 'newsletter' }: Props) {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const [website, setWebsite] = useState('');
  // Timed from the page's load, not the island's, so a quick reader is not taken for a robot.
  const openedAt = useRef(typeof performance !== 'undefined' ? performance.timeOrigin : Date.now());
  const dark = tone === 'dark';

  async function submit(e: FormEvent) {
    e.preventDefault();
    setStatus({ kind: 'sending' });
    try {
      const res = await api<{ message: string; alreadySubscribed: boolean }>('POST', '/api/newsletter/subscribe', {
        email,
        name: name || undefined,
        website,
        elapsedMs: Math.round(Date.now() - openedAt.current),
      });
      setStatus({ kind: 'done', message: res.message });
      toast({ title: res.alreadySubscribed ? 'Already subscribed' : 'Subscribed!', description: res.message });
      setEmail('');
      setName('');
    } catch (err) {
      const message = errorMessage(err, 'Subscription failed. Please try again.');
      setStatus({ kind: 'error', message });
      toast({ title: 'Subscription failed', description: message, variant: 'destructive' });
    }
  }

  const inputClass = dark
    ? 'block w-full rounded-lg border border-white/20 bg-white/10 px-4 py-3 text-sm text-white placeholder:text-slate-300 focus:border-accent-400 focus:ring-2 focus:ring-accent-400/40 focus:outline-none'
    : 'input py-3';
  return (
    <form onSubmit={submit} className="w-full" noValidate={false}>
      <Honeypot id={`${idPrefix}-website`} value={website} onChange={setWebsite} />
      <div className="flex flex-col gap-3 sm:flex-row">
        {withName && (
          <div className="sm:w-44">
            <label htmlFor={`${idPrefix}-name`} className="sr-only">
              Your name
            </label>
            <input id={`${idPrefix}-name`} type="text" autoComplete="given-name" placeholder="Your name" value={name} onChange={(e) => setName(e.target.value)} className={inputClass} />
          </div>
        )}
        <div className="flex-1">
          <label htmlFor={`${idPrefix}-email`} className="sr-only">
            Email address
          </label>
          <input
            id={`${idPrefix}-email`}
            type="email"
            required
            autoComplete="email"
            placeholder="you@company.com"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            className={inputClass}
          />
        </div>
        <button type="submit" disabled={status.kind === 'sending'} className={dark ? 'btn-accent py-3' : 'btn-primary py-3'}>
          {status.kind === 'sending' ? 'Subscribing...' : buttonLabel}
        </button>
      </div>
      <p role="status" aria-live="polite" className={`mt-3 min-h-5 text-sm ${status.kind === 'error' ? (dark ? 'text-red-300' : 'text-red-700') : dark ? 'text-emerald-300' : 'text-emerald-700'}`}>
        {status.kind === 'done' || status.kind === 'error' ? status.message : ''}
      </p>
    </form>
  );
}
