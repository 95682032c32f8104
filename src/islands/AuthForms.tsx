// Login and Register tabs. Field rules and messages come from the shared schemas, so the
// browser says the same thing the server would. Both are real forms: without JavaScript the
// browser posts them and the server answers with the next page (or this one, with the message).
import { API } from '#shared/api-paths.ts';
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent, type MouseEvent } from 'react';
import { Field as FormField } from '#components/ui/Field.tsx';
import { api, errorMessage } from '#lib/api-client.ts';
import { apiFieldErrors, check, focusFirstInvalid, formValues, toFieldErrors, type Issue } from '#lib/form.ts';
import { toast, toastOnNextPage } from '#lib/toast.ts';
import { typedBefore, type Flash } from '#shared/flash.ts';
import type { ClientUser } from '#shared/schemas/auth.ts';

// The schemas (and zod) load on the first submit, not with the page (docs/decisions/004).
const schemas = () => import('#shared/schemas/auth.ts');
type AuthSchemas = Awaited<ReturnType<typeof schemas>>;
/** What `check` takes: a shared schema of values of type T. */
type Schema<T> = { safeParse: (value: unknown) => { success: true; data: T } | { success: false; error: { issues: readonly Issue[] } } };

type Tab = 'login' | 'register';
/** Each tab's own address: without JavaScript the tabs are links that open the page on that form. */
const TAB_HREF: Record<Tab, string> = { login: '/auth', register: '/auth?tab=register' };
type Errors = Partial<Record<string, string>>;

function Field(props: { id: string; label: string; name: string; type?: string; autoComplete?: string; error?: string | undefined; hint?: string; defaultValue?: string }) {
  const { id, label, name, type = 'text', autoComplete, error, hint, defaultValue } = props;
  return (
    <FormField id={id} label={label} error={error} hint={hint}>
      {(control) => (
        <input
          {...control}
          name={name}
          type={type}
          autoComplete={autoComplete}
          defaultValue={defaultValue}
          className={`input ${error ? 'border-red-500 focus:border-red-500 focus:ring-red-500/30' : ''}`}
        />
      )}
    </FormField>
  );
}

/** What every auth form starts with: its name and return page (for posts without JavaScript) and a refusal. */
function FormHead({ form, returnTo, refusal }: { form: Tab; returnTo: string; refusal: string | null }) {
  return (
    <>
      <input type="hidden" name="_form" value={form} />
      <input type="hidden" name="_return" value={returnTo} />
      {refusal && (
        <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm text-red-800">
          {refusal}
        </p>
      )}
    </>
  );
}

/**
 * 'Sign in with a passkey': rendered hidden, shown where the browser can (WebAuthn needs
 * JavaScript): by the page's own small script at load, before the island hydrates (a press then
 * is pressed again once it has), and by the island. The WebAuthn helper is fetched on the click,
 * so the page ships none of it.
 */
function PasskeySignIn() {
  const [supported, setSupported] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => setSupported(typeof window.PublicKeyCredential === 'function'), []);
  const signIn = async () => {
    setBusy(true);
    try {
      const { startAuthentication } = await import('@simplewebauthn/browser');
      const options = await api<Parameters<typeof startAuthentication>[0]['optionsJSON']>('GET', API.passkeyAuthOptions);
      const response = await startAuthentication({ optionsJSON: options });
      await api('POST', API.passkeySignIn, { response });
      const user = await api<ClientUser>('GET', API.user);
      toastOnNextPage({ title: 'Login successful', description: `Welcome back, ${user.firstName || user.username}!` });
      window.location.assign(user.isAdmin ? '/admin/dashboard' : '/');
    } catch (err) {
      toast({ title: 'Passkey sign-in failed', description: errorMessage(err, 'Please try again, or use your password.'), variant: 'destructive' });
      setBusy(false);
    }
  };
  return (
    <button type="button" data-passkey-sign-in hidden={!supported} className="mt-4 btn-secondary w-full py-3" disabled={busy} onClick={() => void signIn()}>
      Sign in with a passkey
    </button>
  );
}

export default function AuthForms({ initialTab = 'login', flash }: { initialTab?: Tab; flash?: Flash | null }) {
  const [tab, setTab] = useState<Tab>(flash?.form === 'register' ? 'register' : initialTab);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Errors>(() => toFieldErrors(flash?.issues ?? []));
  // A refusal without field errors (wrong password, too many attempts) is said above the form.
  const [refusal, setRefusal] = useState<string | null>(() => (flash?.kind === 'error' && !flash.issues?.length ? flash.message : null));
  const [created, setCreated] = useState<string | null>(() => (flash?.form === 'register' && flash.kind === 'success' ? (flash.values?.username ?? '') : null));
  const typed = (name: string) => typedBefore(flash, name);
  // A message for the login form from another page (the password was reset).
  const loginNotice = flash?.form === 'login' && flash.kind === 'success' ? flash.message : null;
  const uid = useId();
  const tabs = useRef<Record<Tab, HTMLAnchorElement | null>>({ login: null, register: null });
  // Until the island runs, the tabs are plain links (the server renders either form); once it
  // runs they become tabs that switch in place.
  const [interactive, setInteractive] = useState(false);
  useEffect(() => setInteractive(true), []);

  const choose = (t: Tab) => {
    setTab(t);
    setErrors({});
    setRefusal(null);
    // The address follows the tab, so a reload or a shared link opens the same form.
    window.history.replaceState(window.history.state, '', TAB_HREF[t]);
  };
  const onTabClick = (e: MouseEvent, t: Tab) => {
    // A modified click (new tab or window) stays a link.
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || e.button !== 0) return;
    e.preventDefault();
    choose(t);
  };
  const onTabKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
      const next = tab === 'login' ? 'register' : 'login';
      choose(next);
      tabs.current[next]?.focus();
    }
  };

  /** Both forms submit alike: the values checked in the browser (errors shown, focus on the first), then, when valid, the call while the form is busy. */
  const submitter =
    <T,>(schema: (s: AuthSchemas) => Schema<T>, send: (data: T, form: HTMLFormElement) => Promise<void>) =>
    (e: FormEvent<HTMLFormElement>) => {
      e.preventDefault();
      const form = e.currentTarget;
      void schemas().then((s) => {
        const checked = check(schema(s), formValues(form));
        setRefusal(null);
        setErrors(checked.errors ?? {});
        if (checked.errors) return focusFirstInvalid(form, checked.errors);
        setBusy(true);
        return send(checked.data, form);
      });
    };

  const login = submitter(
    (s) => s.LoginSchema,
    async (data) => {
      try {
        const user = await api<ClientUser | { twoFactorRequired: true }>('POST', API.login, data);
        // An account with two-factor on: the code is asked on its own page.
        if ('twoFactorRequired' in user) return window.location.assign('/auth/code');
        // The page is left at once: the toast is shown on the page the user lands on.
        toastOnNextPage({ title: 'Login successful', description: `Welcome back, ${user.firstName || user.username}!` });
        // A client sent here from their client area goes back there.
        const next = new URLSearchParams(window.location.search).get('next');
        window.location.assign(user.isAdmin ? '/admin/dashboard' : next?.startsWith('/account') ? next : '/');
      } catch (err) {
        toast({ title: 'Login failed', description: errorMessage(err, 'Please try again.'), variant: 'destructive' });
        setBusy(false);
      }
    },
  );

  const register = submitter(
    (s) => s.RegisterSchema,
    async (data, form) => {
      try {
        // Empty optional values are sent as absent (the schema turned them into undefined).
        const user = await api<ClientUser & { needsApproval?: boolean }>('POST', API.register, data);
        toast({ title: 'Registration successful', description: `Welcome, ${user.firstName || user.username}!` });
        if (user.needsApproval) setCreated(user.username);
        form.reset();
      } catch (err) {
        const message = errorMessage(err, 'Please try again.');
        toast({ title: 'Registration failed', description: message, variant: 'destructive' });
        const fieldErrors = apiFieldErrors(err);
        setErrors(fieldErrors);
        focusFirstInvalid(form, fieldErrors);
      } finally {
        setBusy(false);
      }
    },
  );

  const panel = (t: Tab) => (interactive ? { role: 'tabpanel', 'aria-labelledby': `${uid}-tab-${t}` } : {});
  const tabClass = (t: Tab) =>
    `flex-1 rounded-lg px-4 py-2 text-sm font-semibold transition focus-visible:outline-2 focus-visible:outline-brand-600 ${
      tab === t ? 'bg-white text-ink shadow-sm' : 'text-slate-600 hover:text-ink'
    }`;

  return (
    <div className="w-full">
      <div {...(interactive ? { role: 'tablist', 'aria-label': 'Account' } : {})} className="flex gap-1 rounded-xl bg-slate-100 p-1" onKeyDown={onTabKey}>
        {(['login', 'register'] as const).map((t) => (
          <a
            key={t}
            ref={(el) => {
              tabs.current[t] = el;
            }}
            href={TAB_HREF[t]}
            id={`${uid}-tab-${t}`}
            {...(interactive ? { role: 'tab', 'aria-selected': tab === t, 'aria-controls': `${uid}-panel-${t}`, tabIndex: tab === t ? 0 : -1 } : { 'aria-current': tab === t ? 'page' : undefined })}
            className={`text-center ${tabClass(t)}`}
            onClick={(e) => onTabClick(e, t)}
          >
            {t === 'login' ? 'Login' : 'Register'}
          </a>
        ))}
      </div>

      {tab === 'login' && (
        <div id={`${uid}-panel-login`} {...panel('login')} className="mt-6">
          <form method="post" action="/api/login" onSubmit={login} noValidate className="space-y-4">
            <FormHead form="login" returnTo="/auth" refusal={refusal} />
            {loginNotice && (
              <p role="status" className="rounded-lg bg-emerald-50 px-4 py-3 text-sm text-emerald-800">
                {loginNotice}
              </p>
            )}
            <Field id={`${uid}-login-username`} name="username" label="Username" autoComplete="username" error={errors.username} defaultValue={typed('username')} />
            <Field id={`${uid}-login-password`} name="password" label="Password" type="password" autoComplete="current-password" error={errors.password} />
            <button type="submit" className="btn-primary w-full py-3" disabled={busy}>
              {busy ? 'Logging in...' : 'Log in'}
            </button>
            <p className="text-center text-sm">
              <a href="/auth/forgot" className="font-medium text-brand-700 underline">
                Forgot password?
              </a>
            </p>
          </form>
          <PasskeySignIn />
        </div>
      )}

      {tab === 'register' && (
        <div id={`${uid}-panel-register`} {...panel('register')} className="mt-6">
          {created && (
            <div role="status" className="mb-5 rounded-xl border border-emerald-200 bg-emerald-50 p-4">
              <p className="font-semibold text-emerald-900">Account Created!</p>
              <p className="mt-1 text-sm text-emerald-800">
                Your account <strong>{created}</strong> has been created. Please wait for an admin to approve it before logging in.
              </p>
            </div>
          )}
          <form method="post" action="/api/register" onSubmit={register} noValidate className="space-y-4">
            <FormHead form="register" returnTo="/auth?tab=register" refusal={refusal} />
            <Field id={`${uid}-reg-username`} name="username" label="Username" autoComplete="username" error={errors.username} hint="At least 3 characters." defaultValue={typed('username')} />
            <Field id={`${uid}-reg-email`} name="email" label="Email (optional)" type="email" autoComplete="email" error={errors.email} defaultValue={typed('email')} />
            <div className="grid gap-4 sm:grid-cols-2">
              <Field id={`${uid}-reg-first`} name="firstName" label="First name (optional)" autoComplete="given-name" error={errors.firstName} defaultValue={typed('firstName')} />
              <Field id={`${uid}-reg-last`} name="lastName" label="Last name (optional)" autoComplete="family-name" error={errors.lastName} defaultValue={typed('lastName')} />
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
