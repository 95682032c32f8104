// /admin/security (Account → Security): two-factor sign-in (QR code and secret, a code to
// confirm, ten backup codes shown once and downloadable), passkeys, the signed-in sessions
// (this one marked; end one or all others) and the password.
import { useState, type FormEvent } from 'react';
import { renderSVG } from 'uqr';
import { useQuery } from '#admin/lib/query.ts';
import { $session } from '#admin/lib/session.ts';
import { Badge, PageHeader, TextField } from '#admin/ui/controls.tsx';
import { loadState } from '#admin/ui/load-error.tsx';
import { api, errorMessage } from '#lib/api-client.ts';
import { toast, toastOnNextPage } from '#lib/toast.ts';
import { API } from '#shared/api-paths.ts';
import { formatShortDate } from '#shared/format.ts';
import type { Json } from '#shared/json.ts';
import type { AlertEmailDto, SessionDto } from '#shared/schemas/security.ts';
import {
  addPasskey,
  changePassword,
  setAlertEmail,
  confirmTwoFactor,
  disableTwoFactor,
  downloadCodes,
  enableTwoFactor,
  newBackupCodes,
  removePasskey,
  renamePasskey,
  type PasskeyDto,
} from '#admin/features/security/api/security.ts';

const failed = (title: string, err: unknown, fallback: string) => toast({ title, description: errorMessage(err, fallback), variant: 'destructive' });

function Card({ title, children, status }: { title: string; children: React.ReactNode; status?: React.ReactNode }) {
  return (
    <section className="mb-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm" aria-label={title}>
      <div className="mb-4 flex items-center justify-between gap-3">
        <h2 className="text-lg font-semibold text-ink">{title}</h2>
        {status}
      </div>
      {children}
    </section>
  );
}

/** Runs a change, says so, and reloads the list it changed (or says what went wrong). */
const actThenReload = (reload: () => Promise<unknown>) => async (run: () => Promise<unknown>, title: string) => {
  try {
    await run();
    toast({ title });
    await reload();
  } catch (err) {
    failed('That did not work', err, 'Please try again.');
  }
};

/** Submits a form's fields as strings, with one busy flag. */
function useSubmit(run: (values: Record<string, string>, form: HTMLFormElement) => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const values = Object.fromEntries([...new FormData(form)].map(([k, v]) => [k, typeof v === 'string' ? v : v.name]));
    setBusy(true);
    void run(values, form).finally(() => setBusy(false));
  };
  return { busy, onSubmit };
}

function BackupCodes({ codes }: { codes: string[] }) {
  return (
    <div className="mt-4 rounded-xl bg-slate-50 p-4">
      <p className="text-sm text-slate-700">Backup codes: each signs you in once when you cannot use your app. They are shown only now: download or write them down.</p>
      <ul aria-label="Backup codes" className="mt-3 grid grid-cols-2 gap-1 font-mono text-sm">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <button type="button" className="mt-3 btn-secondary" onClick={() => downloadCodes(codes, window.location.host)}>
        Download codes
      </button>
    </div>
  );
}

function TwoFactor({ enabled, required }: { enabled: boolean; required: boolean }) {
  const [setup, setSetup] = useState<{ totpURI: string; backupCodes: string[] } | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const start = useSubmit(async ({ password = '' }) => {
    try {
      setSetup(await enableTwoFactor(password));
    } catch (err) {
      failed('Could not start the set-up', err, 'Check your password and try again.');
    }
  });
  const confirm = useSubmit(async ({ code = '' }) => {
    try {
      await confirmTwoFactor(code.replace(/\s+/g, ''));
      toastOnNextPage({ title: 'Two-factor sign-in is on', description: 'From now on you sign in with your password and a code.' });
      window.location.assign('/admin/security');
    } catch (err) {
      failed('That code did not work', err, 'Check your app and try again.');
    }
  });
  const off = useSubmit(async ({ password = '', code = '' }) => {
    try {
      await disableTwoFactor(password, code.replace(/\s+/g, ''));
      toastOnNextPage({ title: 'Two-factor sign-in is off' });
      window.location.assign('/admin/security');
    } catch (err) {
      failed('Two-factor sign-in is still on', err, 'Check your password and code.');
    }
  });
  const regenerate = useSubmit(async ({ password = '', code = '' }, form) => {
    try {
      setCodes((await newBackupCodes(password, code.replace(/\s+/g, ''))).backupCodes);
      form.reset();
    } catch (err) {
      failed('No new codes', err, 'Check your password and code.');
    }
  });

  const status = enabled ? <Badge tone="green">On</Badge> : <Badge tone={required ? 'red' : 'grey'}>Off</Badge>;
  if (enabled)
    return (
      <Card title="Two-factor sign-in" status={status}>
        <p className="text-sm text-slate-600">You sign in with your password and a code from your authenticator app (or a backup code).</p>
        <form onSubmit={regenerate.onSubmit} className="mt-4 flex flex-wrap items-end gap-3">
          <TextField id="codes-password" name="password" label="Password" type="password" autoComplete="current-password" required />
          <TextField id="codes-code" name="code" label="Code from your app" inputMode="numeric" autoComplete="one-time-code" required />
          <button className="btn-secondary" disabled={regenerate.busy}>
            New backup codes
          </button>
        </form>
        {codes && <BackupCodes codes={codes} />}
        <form onSubmit={off.onSubmit} className="mt-6 flex flex-wrap items-end gap-3 border-t border-slate-100 pt-4">
          <TextField id="off-password" name="password" label="Password" type="password" autoComplete="current-password" required />
          <TextField id="off-code" name="code" label="Code from your app" inputMode="numeric" autoComplete="one-time-code" required />
          <button className="btn-secondary" disabled={off.busy}>
            Turn off
          </button>
        </form>
      </Card>
    );
  const secret = setup ? (new URL(setup.totpURI).searchParams.get('secret') ?? '') : '';
  return (
    <Card title="Two-factor sign-in" status={status}>
      {!setup ? (
        <form onSubmit={start.onSubmit} className="flex flex-wrap items-end gap-3">
          <p className="w-full text-sm text-slate-600">Add a code from an authenticator app (1Password, Google Authenticator, Authy…) to your password. Enter your password to begin.</p>
          <TextField id="setup-password" name="password" label="Password" type="password" autoComplete="current-password" required />
          <button className="btn-primary" disabled={start.busy}>
            Set up two-factor sign-in
          </button>
        </form>
      ) : (
        <div>
          <p className="text-sm text-slate-600">Scan this code with your authenticator app, or type the secret below. Then enter the 6-digit code it shows.</p>
          <img className="mt-4 h-48 w-48" alt="QR code for your authenticator app" src={`data:image/svg+xml;utf8,${encodeURIComponent(renderSVG(setup.totpURI))}`} />
          <p className="mt-3 text-sm">
            Secret:{' '}
            <code data-testid="totp-secret" className="rounded bg-slate-100 px-2 py-1 font-mono">
              {secret}
            </code>
          </p>
          <BackupCodes codes={setup.backupCodes} />
          <form onSubmit={confirm.onSubmit} className="mt-4 flex flex-wrap items-end gap-3">
            <TextField id="setup-code" name="code" label="Code from your app" inputMode="numeric" autoComplete="one-time-code" required />
            <button className="btn-primary" disabled={confirm.busy}>
              Turn on
            </button>
          </form>
        </div>
      )}
    </Card>
  );
}

function Passkeys({ twoFactor }: { twoFactor: boolean }) {
  const list = useQuery<PasskeyDto[]>(API.passkeys, 'Failed to fetch passkeys');
  const add = useSubmit(async ({ name = '', password = '', code = '' }, form) => {
    try {
      await addPasskey(name.trim() || 'Passkey', password, twoFactor ? code.replace(/\s+/g, '') : undefined);
      toast({ title: 'Passkey added', description: 'You can sign in with it instead of your password.' });
      form.reset();
      await list.refetch();
    } catch (err) {
      failed('No passkey added', err, 'Check your password and code, or the browser refused it.');
    }
  });
  const act = actThenReload(list.refetch);
  return (
    <Card title="Passkeys">
      <p className="text-sm text-slate-600">Sign in with your device's fingerprint, face or PIN instead of your password.</p>
      {loadState(list, { loading: 'Loading passkeys', failed: 'Failed to fetch passkeys' }) ?? (
        <ul className="mt-4 divide-y divide-slate-100" aria-label="Passkeys">
          {(list.data ?? []).map((p) => (
            <li key={p.id} className="flex flex-wrap items-center justify-between gap-3 py-2">
              <span className="text-sm text-ink">
                {p.name || 'Passkey'} {p.createdAt && <span className="text-slate-500">· added {formatShortDate(p.createdAt)}</span>}
              </span>
              <span className="flex gap-2">
                <button
                  type="button"
                  className="btn-secondary px-3 py-1.5"
                  onClick={() => {
                    const name = window.prompt('New name for this passkey', p.name ?? '');
                    if (name?.trim()) void act(() => renamePasskey(p.id, name.trim()), 'Passkey renamed');
                  }}
                >
                  Rename
                </button>
                <button type="button" className="btn-secondary px-3 py-1.5" aria-label={`Remove passkey ${p.name ?? ''}`} onClick={() => void act(() => removePasskey(p.id), 'Passkey removed')}>
                  Remove
                </button>
              </span>
            </li>
          ))}
          {list.data?.length === 0 && <li className="py-2 text-sm text-slate-500">No passkeys yet.</li>}
        </ul>
      )}
      <form onSubmit={add.onSubmit} className="mt-4 flex flex-wrap items-end gap-3">
        <TextField id="passkey-name" name="name" label="Name" placeholder="e.g. Laptop" maxLength={60} />
        <TextField id="passkey-password" name="password" label="Password" type="password" autoComplete="current-password" required />
        {twoFactor && <TextField id="passkey-code" name="code" label="Code from your app" inputMode="numeric" autoComplete="one-time-code" required />}
        <button className="btn-secondary" disabled={add.busy}>
          Add a passkey
        </button>
      </form>
    </Card>
  );
}

function Sessions() {
  const list = useQuery<Json<SessionDto>[]>(API.accountSessions, 'Failed to fetch sessions');
  const act = actThenReload(list.refetch);
  const end = (path: string, title: string) => act(() => api('DELETE', path), title);
  return (
    <Card title="Signed-in sessions">
      {loadState(list, { loading: 'Loading sessions', failed: 'Failed to fetch sessions' }) ?? (
        <ul className="divide-y divide-slate-100" aria-label="Sessions">
          {(list.data ?? []).map((s) => (
            <li key={s.id} className="flex flex-wrap items-center justify-between gap-3 py-2">
              <span className="text-sm text-ink">
                {s.device} {s.current && <Badge tone="green">This device</Badge>}
                <span className="block text-xs text-slate-500">
                  Signed in {formatShortDate(s.createdAt)} · last active {formatShortDate(s.lastActiveAt)}
                </span>
              </span>
              {!s.current && (
                <button type="button" className="btn-secondary px-3 py-1.5" aria-label={`End session: ${s.device}`} onClick={() => void end(API.accountSession(s.id), 'Session ended')}>
                  End
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="mt-4 btn-secondary" onClick={() => void end(API.accountOtherSessions, 'Other sessions ended')}>
        End all other sessions
      </button>
    </Card>
  );
}

/** Where an e-mail goes when the account signs in from a browser it has not used (the account's own address unless another is chosen). */
function SignInAlerts() {
  const current = useQuery<AlertEmailDto>(API.accountAlertEmail, 'Failed to fetch the alert address');
  const save = useSubmit(async ({ alertEmail = '' }) => {
    try {
      await setAlertEmail(alertEmail.trim());
      toast({ title: 'Alert address saved' });
      await current.refetch();
    } catch (err) {
      failed('Alert address not saved', err, 'Please try again.');
    }
  });
  const goesTo = current.data?.alertsGoTo;
  return (
    <Card title="Sign-in alerts">
      <p className="text-sm text-slate-600">
        A sign-in from a browser this account has not used sends an e-mail with a link that ends that session.{' '}
        {current.data && (goesTo ? `Alerts go to ${goesTo}.` : 'This account has no address to send them to: add one below.')}
      </p>
      {loadState(current, { loading: 'Loading the alert address', failed: 'Failed to fetch the alert address' }) ?? (
        <form onSubmit={save.onSubmit} className="mt-4 flex flex-wrap items-end gap-3">
          <TextField
            id="alert-email"
            name="alertEmail"
            label="Alert e-mail"
            hint="Leave empty to use your account's own address."
            type="email"
            autoComplete="email"
            maxLength={254}
            defaultValue={current.data?.alertEmail ?? ''}
          />
          <button className="btn-secondary" disabled={save.busy}>
            Save alert address
          </button>
        </form>
      )}
    </Card>
  );
}

function Password() {
  const change = useSubmit(async ({ currentPassword = '', newPassword = '' }, form) => {
    try {
      await changePassword(currentPassword, newPassword);
      toast({ title: 'Password changed', description: 'Every other session has been signed out.' });
      form.reset();
    } catch (err) {
      failed('Password not changed', err, 'Please try again.');
    }
  });
  return (
    <Card title="Password">
      <form onSubmit={change.onSubmit} className="flex flex-wrap items-end gap-3">
        <TextField id="current-password" name="currentPassword" label="Current password" type="password" autoComplete="current-password" required />
        <TextField id="new-password" name="newPassword" label="New password (12 characters or more)" type="password" autoComplete="new-password" minLength={12} required />
        <button className="btn-secondary" disabled={change.busy}>
          Change password
        </button>
      </form>
    </Card>
  );
}

export default function Security() {
  const session = $session.get();
  const user = session.status === 'ready' ? session.user : null;
  const required = Boolean(user?.mustSetUpTwoFactor);
  return (
    <>
      <PageHeader title="Security" subtitle="How you sign in, and where you are signed in" />
      {required && (
        <p role="alert" className="mb-6 rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-900">
          This site requires two-factor sign-in for admins. Set it up below to continue.
        </p>
      )}
      <TwoFactor enabled={Boolean(user?.twoFactorEnabled)} required={required} />
      {!required && (
        <>
          <Passkeys twoFactor={Boolean(user?.twoFactorEnabled)} />
          <Sessions />
          <SignInAlerts />
          <Password />
        </>
      )}
    </>
  );
}
