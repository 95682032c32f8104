// /admin/settings: which e-mails the site sends (each notification can be switched off, unless
// its environment variable already has) and how long and how often a download link works.
import { API } from '#shared/api-paths.ts';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { mutate, useQuery } from '#admin/lib/query.ts';
import { PageHeader, Switch, TextField } from '#admin/ui/controls.tsx';
import { loadState } from '#admin/ui/load-error.tsx';
import { apiFieldErrors, check, focusFirstInvalid, type FieldErrors } from '#lib/form.ts';
import { toast } from '#lib/toast.ts';
import { SettingsSchema, type AdminSettingsDto, type Settings } from '#shared/schemas/settings.ts';
import type { Json } from '#shared/json.ts';

type SettingsResponse = Json<AdminSettingsDto>;

const NOTIFICATIONS = [
  { key: 'notifyComments', label: 'New comment waiting for approval', hint: 'E-mails you its text and a link to Comments.', env: 'NOTIFY_COMMENTS' },
  { key: 'notifyRegistrations', label: 'New account waiting for approval', hint: 'E-mails you a link to Users.', env: 'NOTIFY_REGISTRATIONS' },
  { key: 'notifyApprovals', label: "'Your account is approved'", hint: 'E-mails the user when you approve them, if they gave an e-mail.', env: 'NOTIFY_APPROVALS' },
] as const;

const LINK_LIMITS = [
  { key: 'downloadDays', label: 'Days a link works' },
  { key: 'downloadLimit', label: 'Downloads per link' },
] as const;

/** One titled group of settings. */
function Panel({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="space-y-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm" aria-labelledby={id}>
      <h2 id={id} className="text-lg font-semibold text-ink">
        {title}
      </h2>
      {children}
    </section>
  );
}

export default function SettingsScreen() {
  const query = useQuery<SettingsResponse>(API.settings, 'Failed to load settings');
  const [draft, setDraft] = useState<Settings | null>(null);
  const [numbers, setNumbers] = useState({ downloadDays: '', downloadLimit: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (!query.data) return;
    setDraft(query.data.settings);
    setNumbers({ downloadDays: String(query.data.settings.downloadDays), downloadLimit: String(query.data.settings.downloadLimit) });
  }, [query.data]);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!draft) return;
    const result = check(SettingsSchema, { ...draft, downloadDays: Number(numbers.downloadDays), downloadLimit: Number(numbers.downloadLimit) });
    if (result.errors) {
      setErrors(result.errors);
      focusFirstInvalid(form.current, result.errors);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await mutate('PUT', API.settings, result.data, { title: 'Error', description: 'Failed to save settings. Please try again.' });
      toast({ title: 'Settings saved' });
      await query.refetch();
    } catch (err) {
      setErrors(apiFieldErrors(err));
    } finally {
      setBusy(false);
    }
  };

  const data = query.data;
  return (
    <>
      <PageHeader title="Settings" subtitle="E-mail notifications and download links" />
      {loadState(query, { loading: 'Loading settings', failed: 'Failed to load settings' }) ??
        (data && draft && (
          <form ref={form} noValidate onSubmit={(e) => void save(e)} className="max-w-2xl space-y-8">
            <Panel id="notifications-title" title="Notifications">
              {!data.mailConfigured && <p className="text-sm text-amber-800">E-mail is not set up: notifications are recorded in E-mails but not sent until SMTP_URL is set.</p>}
              {NOTIFICATIONS.map((n) => (
                <Switch
                  key={n.key}
                  label={n.label}
                  hint={data.lockedOff[n.key] ? `Switched off by ${n.env}=false.` : n.hint}
                  checked={draft[n.key]}
                  disabled={data.lockedOff[n.key]}
                  onChange={(v) => setDraft({ ...draft, [n.key]: v })}
                />
              ))}
            </Panel>
            <Panel id="downloads-title" title="Download links">
              <p className="text-sm text-slate-600">What a buyer's link allows, for orders paid from now on.</p>
              <div className="grid gap-4 sm:grid-cols-2">
                {LINK_LIMITS.map(({ key, label }) => (
                  <TextField
                    key={key}
                    id={key}
                    name={key}
                    label={label}
                    inputMode="numeric"
                    value={numbers[key]}
                    error={errors[key]}
                    onChange={(e) => setNumbers({ ...numbers, [key]: e.target.value })}
                  />
                ))}
              </div>
            </Panel>
            <button type="submit" className="btn-primary" disabled={busy}>
              {busy ? 'Saving...' : 'Save settings'}
            </button>
          </form>
        ))}
      <div className="mt-8 max-w-2xl">
        <Panel id="export-title" title="Export">
          <p className="text-sm text-slate-600">
            Everything the site holds, in one zip: posts and episodes (HTML with their details as JSON), media and product files, subscribers, orders and bookings as CSV, and the site's words and
            prices. Take it with you to another host or keep it as a copy.
          </p>
          <a href={API.wholeSiteExport} className="btn-secondary inline-block" download>
            Download the whole site (.zip)
          </a>
        </Panel>
      </div>
    </>
  );
}
