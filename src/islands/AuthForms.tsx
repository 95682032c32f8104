// Login and Register tabs. Field rules and messages come from the shared schemas, so the
// browser says the same thing the server would.
import { useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { api, errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import type { ClientUser } from '@/shared/schemas/auth';

// The schemas (and zod) load on the first submit, not with the page (docs/decisions/004).
const schemas = () => import('@/shared/schemas/auth');

type Tab = 'login' | 'register';
type Errors = Record<string, string>;

function fieldErrors(issues: { path: PropertyKey[]; message: string }[]): Errors {
  const out: Errors = {};
  for (const i of issues) {
    const key = String(i.path[0] ?? 'form');
    out[key] ??= i.message;
  }
  return out;
}

function Field(props: {
  id: string;
  label: string;
  name: string;
  type?: string;
  autoComplete?: string;
  error?: string;
  hint?: string;
}) {
  const { id, label, name, type = 'text', autoComplete, error, hint } = props;
  return (
    <div>
      <label htmlFor={id} className="label">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type={type}
        autoComplete={autoComplete}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : hint ? `${id}-hint` : undefined}
        className={`input ${error ? 'border-red-500 focus:border-red-500 focus:ring-red-500/30' : ''}`}
      />
      {hint && !error && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

export default function AuthForms({ initialTab = 'login' }: { initialTab?: Tab }) {
  const [tab, setTab] = useState<Tab>(initialTab);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [created, setCreated] = useState<string | null>(null);
  const uid = useId();
  const tabs = useRef<Record<Tab, HTMLButtonElement | null>>({ login: null, register: null });

  const choose = (t: Tab) => {
    setTab(t);
    setErrors({});
  };
  const onTabKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
      const next = tab === 'login' ? 'register' : 'login';
      choose(next);
      tabs.current[next]?.focus();
    }
  };

  async function login(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const data = Object.fromEntries(new FormData(e.currentTarget));
    const { LoginSchema } = await schemas();
    const parsed = LoginSchema.safeParse(data);
    if (!parsed.success) return setErrors(fieldErrors(parsed.error.issues));
    setErrors({});
    setBusy(true);
    try {
      const user = await api<ClientUser>('POST', '/api/login', parsed.data);
      toast({ title: 'Login successful', description: `Welcome back, ${user.firstName || user.username}!` });
      window.location.assign(user.isAdmin ? '/admin/dashboard' : '/');
    } catch (err) {
      toast({ title: 'Login failed', description: errorMessage(err, 'Please try again.'), variant: 'destructive' });
      setBusy(false);
    }
  }

  async function register(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const data = Object.fromEntries(new FormData(form));
    const { RegisterSchema } = await schemas();
    const parsed = RegisterSchema.safeParse(data);
    if (!parsed.success) return setErrors(fieldErrors(parsed.error.issues));
    setErrors({});
    setBusy(true);
    try {
      // Empty optional values are sent as absent (the schema turned them into undefined).
      const user = await api<ClientUser & { needsApproval?: boolean }>('POST', '/api/register', parsed.data);
      toast({ title: 'Registration successful', description: `Welcome, ${user.firstName || user.username}!` });
      if (user.needsApproval) setCreated(user.username);
      form.reset();
    } catch (err) {
      const message = errorMessage(err, 'Please try again.');
      toast({ title: 'Registration failed', description: message, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  const tabClass = (t: Tab) =>
    `flex-1 rounded-lg px-4 py-2 text-sm font-semibold transition focus-visible:outline-2 focus-visible:outline-brand-600 ${
      tab === t ? 'bg-white text-ink shadow-sm' : 'text-slate-600 hover:text-ink'
    }`;

  return (
    <div className="w-full">
      <div role="tablist" aria-label="Account" className="flex gap-1 rounded-xl bg-slate-100 p-1" onKeyDown={onTabKey}>
        {(['login', 'register'] as const).map((t) => (
          <button
            key={t}
            ref={(el) => {
              tabs.current[t] = el;
            }}
            id={`${uid}-tab-${t}`}
            role="tab"
            type="button"
            aria-selected={tab === t}
            aria-controls={`${uid}-panel-${t}`}
            tabIndex={tab === t ? 0 : -1}
            className={tabClass(t)}
            onClick={() => choose(t)}
          >
            {t === 'login' ? 'Login' : 'Register'}
          </button>
        ))}
      </div>

      {tab === 'login' && (
        <div role="tabpanel" id={`${uid}-panel-login`} aria-labelledby={`${uid}-tab-login`} className="mt-6">
          <form onSubmit={login} noValidate className="space-y-4">
            <Field id={`${uid}-login-username`} name="username" label="Username" autoComplete="username" error={errors.username} />
            <Field id={`${uid}-login-password`} name="password" label="Password" type="password" autoComplete="current-password" error={errors.password} />
            <button type="submit" className="btn-primary w-full py-3" disabled={busy}>
              {busy ? 'Logging in...' : 'Log in'}
            </button>
          </form>
        </div>
      )}

      {tab === 'register' && (
        <div role="tabpanel" id={`${uid}-panel-register`} aria-labelledby={`${uid}-tab-register`} className="mt-6">
          {created && (
            <div role="status" className="mb-5 rounded-xl border border-emerald-200 bg-emerald-50 p-4">
              <p className="font-semibold text-emerald-900">Account Created!</p>
              <p className="mt-1 text-sm text-emerald-800">
                Your account <strong>{created}</strong> has been created. Please wait for an admin to approve it before logging in.
              </p>
            </div>
          )}
          <form onSubmit={register} noValidate className="space-y-4">
            <Field id={`${uid}-reg-username`} name="username" label="Username" autoComplete="username" error={errors.username} hint="At least 3 characters." />
            <Field id={`${uid}-reg-email`} name="email" label="Email (optional)" type="email" autoComplete="email" error={errors.email} />
            <div className="grid gap-4 sm:grid-cols-2">
              <Field id={`${uid}-reg-first`} name="firstName" label="First name (optional)" autoComplete="given-name" error={errors.firstName} />
              <Field id={`${uid}-reg-last`} name="lastName" label="Last name (optional)" autoComplete="family-name" error={errors.lastName} />
            </div>
            <Field id={`${uid}-reg-password`} name="password" label="Password" type="password" autoComplete="new-password" error={errors.password} hint="At least 6 characters." />
            <button type="submit" className="btn-primary w-full py-3" disabled={busy}>
              {busy ? 'Creating account...' : 'Create account'}
            </button>
          </form>
        </div>
      )}
    </div>
  );
}
