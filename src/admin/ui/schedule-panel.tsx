// 'Schedule': a date and time in the site's time zone for a post or an episode to go public
// by itself. Answers the instant, or says why the time will not do.
import { useState } from 'react';
import { siteTimeZone } from '#admin/lib/site-time.ts';
import { instantToZoned, zonedToInstant } from '#shared/time.ts';
import { TextField } from './controls.tsx';

interface Props {
  id: string;
  /** The current schedule (ISO), to start from. */
  scheduledAt: string | null;
  busy: boolean;
  onSchedule: (at: Date) => void;
  onCancel: () => void;
}

export function SchedulePanel({ id, scheduledAt, busy, onSchedule, onCancel }: Props) {
  const zone = siteTimeZone();
  const [local, setLocal] = useState(() => (scheduledAt ? instantToZoned(new Date(scheduledAt), zone) : ''));
  const [error, setError] = useState<string | undefined>();

  const confirm = () => {
    const at = zonedToInstant(local, zone);
    if (!at) return setError('Choose a date and a time');
    if (at.getTime() <= Date.now()) return setError('Choose a time in the future');
    setError(undefined);
    onSchedule(at);
  };

  return (
    <div role="group" aria-label="Schedule" className="mt-3 flex flex-col gap-3 rounded-xl border border-brand-100 bg-white p-4 sm:flex-row sm:items-end">
      <div className="sm:w-72">
        <TextField
          id={id}
          label={`Publish on (${zone})`}
          type="datetime-local"
          value={local}
          error={error}
          onChange={(e) => {
            setLocal(e.target.value);
            setError(undefined);
          }}
        />
      </div>
      <div className="flex gap-2 sm:mb-0.5">
        <button type="button" className="btn-primary" disabled={busy} onClick={confirm}>
          {busy ? 'Scheduling...' : 'Confirm schedule'}
        </button>
        <button type="button" className="btn-secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
