// Create or edit one episode. The shared schema checks the form before it is sent; the
// slug follows the title on a new episode until it is edited by hand; an uploaded audio file
// fills the Audio URL and, when the server could read it, the duration.
import { useEffect, useRef, useState } from 'react';
import { useSchemaForm } from '#admin/lib/schema-form.ts';
import { Switch, TextArea, TextField } from '#admin/ui/controls.tsx';
import { FileButton } from '#admin/ui/file-button.tsx';
import { FormDialog } from '#admin/ui/form-dialog.tsx';
import { ProgressBar } from '#admin/ui/progress.tsx';
import { uploadFile } from '#admin/ui/upload.ts';
import { toast } from '#lib/toast.ts';
import { formatClock, slugify } from '#shared/format.ts';
import { formatInZone, instantToZoned, zonedToInstant } from '#shared/time.ts';
import { siteTimeZone } from '#admin/lib/site-time.ts';
import { createEpisode, EpisodeInputSchema, updateEpisode, type Episode, type EpisodeInput } from '#admin/features/podcast/api/episodes.ts';
import { EPISODE_TYPES, type EpisodeType } from '#shared/schemas/podcast-episode.ts';
import { RichTextEditor } from '#admin/editor/rich-text-editor.tsx';

interface Values {
  title: string;
  episodeNumber: string;
  duration: string;
  slug: string;
  guest: string;
  description: string;
  audioUrl: string;
  season: string;
  episodeType: EpisodeType;
  explicit: boolean;
  imageUrl: string;
  transcriptUrl: string;
  chaptersUrl: string;
  showNotes: string;
  isPublished: boolean;
  /** A wall-clock time in the site's zone ('' for none). */
  scheduleAt: string;
}

type Upload = { state: 'idle' } | { state: 'uploading' | 'done'; name: string; progress: number };

const DESCRIPTION_MAX = 1000;

/** Files beside the audio: each a URL field with an upload button. */
const SIDE_FILES = [
  { field: 'imageUrl', label: 'Episode artwork (optional)', hint: 'A square JPEG or PNG from 1400 to 3000 pixels', upload: 'Upload Artwork', accept: 'image/jpeg,image/png' },
  { field: 'transcriptUrl', label: 'Transcript (optional)', hint: 'WebVTT (.vtt) or SRT (.srt); shown on the episode page', upload: 'Upload Transcript', accept: '.vtt,.srt' },
  { field: 'chaptersUrl', label: 'Chapters (optional)', hint: 'A Podcasting 2.0 chapters file (.json)', upload: 'Upload Chapters', accept: '.json,application/json' },
] as const;

function initialValues(episode: Episode | null, nextNumber: number, zone: string): Values {
  return {
    title: episode?.title ?? '',
    episodeNumber: String(episode ? (episode.episodeNumber ?? '') : nextNumber),
    duration: episode?.duration ? String(episode.duration) : '',
    slug: episode?.slug ?? '',
    guest: episode?.guest ?? '',
    description: episode?.description ?? '',
    audioUrl: episode?.audioUrl ?? '',
    season: episode?.season ? String(episode.season) : '',
    episodeType: episode?.episodeType ?? 'full',
    explicit: episode?.explicit ?? false,
    imageUrl: episode?.imageUrl ?? '',
    transcriptUrl: episode?.transcriptUrl ?? '',
    chaptersUrl: episode?.chaptersUrl ?? '',
    showNotes: episode?.showNotes ?? '',
    isPublished: episode?.isPublished ?? false,
    scheduleAt: episode?.scheduledAt ? instantToZoned(new Date(episode.scheduledAt), zone) : '',
  };
}

/** '' means "not given"; anything else must be a number (NaN fails the schema with its message). */
const numberOrNull = (s: string) => (s.trim() === '' ? null : Number(s));

interface Props {
  /** null: a new episode. */
  episode: Episode | null;
  nextNumber: number;
  onClose: () => void;
  onSaved: (episode: Episode) => void;
}

/** What the toast says about where a saved episode stands. */
function standing(saved: Episode, zone: string): string {
  if (saved.scheduledAt) return `"${saved.title}" goes live on ${formatInZone(new Date(saved.scheduledAt), zone)} (${zone}).`;
  return saved.isPublished ? `"${saved.title}" is live on the podcast page.` : `"${saved.title}" is saved as a draft.`;
}

/** The schedule to send: none ('' clears it), or a time ahead in the site's zone; undefined when the time will not do. */
function scheduleOf(local: string, zone: string): Date | null | undefined {
  if (local === '') return null;
  const at = zonedToInstant(local, zone);
  return at && at.getTime() > Date.now() ? at : undefined;
}

export function EpisodeFormDialog({ episode, nextNumber, onClose, onSaved }: Props) {
  const zone = siteTimeZone();
  const { values, setValues, errors, setErrors, busy, set, bind, submit } = useSchemaForm<Values, EpisodeInput>(
    () => initialValues(episode, nextNumber, zone),
    ({ scheduleAt, ...v }) => {
      const at = scheduleOf(scheduleAt, zone);
      if (at === undefined) return { success: false, error: { issues: [{ path: ['scheduleAt'], message: 'Choose a time in the future' }] } };
      return EpisodeInputSchema.safeParse({
        ...v,
        episodeNumber: numberOrNull(v.episodeNumber),
        duration: numberOrNull(v.duration),
        season: numberOrNull(v.season),
        scheduledAt: at?.toISOString() ?? null,
      });
    },
    async (data) => {
      const saved = episode ? await updateEpisode(episode.id, data) : await createEpisode(data);
      toast({ title: episode ? 'Episode updated' : 'Episode created', description: standing(saved, zone) });
      onSaved(saved);
    },
  );
  const [slugEdited, setSlugEdited] = useState(episode !== null);
  const [upload, setUpload] = useState<Upload>({ state: 'idle' });
  const uploadStatus = useRef<HTMLDivElement>(null);

  // The progress bar sits low in a scrolling form: bring it into view when an upload starts.
  useEffect(() => {
    if (upload.state === 'uploading') uploadStatus.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [upload.state]);

  const onTitle = (title: string) => {
    setValues((v) => ({ ...v, title, slug: slugEdited ? v.slug : slugify(title) }));
    setErrors((e) => ({ ...e, title: undefined, ...(slugEdited ? {} : { slug: undefined }) }));
  };

  const onSlug = (slug: string) => {
    // Clearing the slug hands it back to the title.
    setSlugEdited(slug !== '');
    set('slug', slug === '' && !episode ? slugify(values.title) : slug);
  };

  /** Uploads artwork, a transcript or chapters and puts the stored file's URL in its field. */
  const attach = async (file: File, field: 'imageUrl' | 'transcriptUrl' | 'chaptersUrl') => {
    try {
      const result = await uploadFile(file, field === 'imageUrl' ? 'image' : 'text', () => undefined);
      set(field, result.url);
    } catch {
      // uploadFile has said why
    }
  };

  const onAudio = async (file: File) => {
    setUpload({ state: 'uploading', name: file.name, progress: 0 });
    try {
      const result = await uploadFile(file, 'audio', (progress) => setUpload({ state: 'uploading', name: file.name, progress }));
      setValues((v) => ({ ...v, audioUrl: result.url, duration: result.duration ? String(result.duration) : v.duration }));
      setErrors((e) => ({ ...e, audioUrl: undefined, ...(result.duration ? { duration: undefined } : {}) }));
      setUpload({ state: 'done', name: file.name, progress: 1 });
      toast({ title: 'Audio uploaded', description: result.duration ? `${file.name} (${formatClock(result.duration)}). The duration was filled in.` : file.name });
    } catch {
      // uploadFile has already said what went wrong.
      setUpload({ state: 'idle' });
    }
  };

  const duration = numberOrNull(values.duration);
  const durationHint = duration && Number.isInteger(duration) && duration > 0 ? `${formatClock(duration)} (m:ss)` : 'Length in whole seconds';
  const uploading = upload.state === 'uploading';

  return (
    <FormDialog
      open
      onClose={onClose}
      title={episode ? 'Edit Episode' : 'Create Episode'}
      description={episode ? 'Changes show on the podcast page as soon as you save.' : 'Drafts stay here until you switch on Published.'}
      submitLabel={episode ? 'Save Changes' : 'Create Episode'}
      busy={busy}
      submitDisabled={uploading}
      onSubmit={(form) => void submit(form)}
    >
      <TextField id="episode-title" label="Episode Title" value={values.title} onChange={(e) => onTitle(e.target.value)} error={errors.title} autoFocus required maxLength={255} />

      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          id="episode-number"
          label="Episode Number"
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          {...bind('episodeNumber')}
          hint={episode ? undefined : `The next number is ${nextNumber}`}
        />
        <TextField id="episode-duration" label="Duration (seconds)" type="number" inputMode="numeric" min={1} step={1} {...bind('duration')} hint={durationHint} />
      </div>

      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          id="episode-slug"
          label="Slug"
          value={values.slug}
          onChange={(e) => onSlug(e.target.value)}
          error={errors.slug}
          hint={episode ? 'Changing it changes the episode’s address' : 'Made from the title until you edit it'}
          required
          maxLength={255}
          spellCheck={false}
        />
        <TextField id="episode-guest" label="Guest (optional)" {...bind('guest')} maxLength={255} placeholder="Name, role" />
      </div>

      <TextArea id="episode-description" label="Description" rows={3} {...bind('description')} hint={`${values.description.length}/${DESCRIPTION_MAX} characters`} />

      <fieldset className="rounded-xl border border-slate-200 bg-slate-50/60 p-4">
        <legend className="px-1 text-sm font-semibold text-slate-800">Audio</legend>
        <TextField id="episode-audio-url" label="Audio URL" inputMode="url" placeholder="https://… or upload a file" {...bind('audioUrl')} />
        <div className="mt-3 flex flex-wrap items-center gap-3">
          <FileButton id="episode-audio-file" label="Upload Audio File" accept="audio/*" onFile={(f) => void onAudio(f)} disabled={uploading || busy} describedBy="episode-audio-file-hint">
            {uploading ? 'Uploading...' : 'Upload Audio File'}
          </FileButton>
          <p id="episode-audio-file-hint" className="text-xs text-slate-500">
            MP3, M4A, AAC, WAV or OGG, up to 100 MB
          </p>
        </div>
        {upload.state !== 'idle' && (
          <div ref={uploadStatus} className="mt-3" aria-live="polite">
            <p className="truncate text-xs font-medium text-slate-700">{upload.state === 'uploading' ? `Uploading ${upload.name}` : `Uploaded ${upload.name}`}</p>
            <ProgressBar value={upload.progress} label="Audio upload progress" />
          </div>
        )}
        {values.audioUrl && !errors.audioUrl && !uploading && <audio controls preload="none" src={values.audioUrl} className="mt-3 w-full" aria-label="Preview the episode audio" />}
      </fieldset>

      <fieldset className="space-y-4 rounded-xl border border-slate-200 p-4">
        <legend className="px-1 text-sm font-semibold text-slate-800">For podcast apps</legend>
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField id="episode-season" label="Season (optional)" type="number" inputMode="numeric" min={1} step={1} {...bind('season')} />
          <div>
            <label htmlFor="episode-type" className="label">
              Episode type
            </label>
            <select id="episode-type" className="input" value={values.episodeType} onChange={(e) => set('episodeType', e.target.value as EpisodeType)}>
              {EPISODE_TYPES.map((t) => (
                <option key={t} value={t}>
                  {t[0]!.toUpperCase() + t.slice(1)}
                </option>
              ))}
            </select>
          </div>
        </div>
        <Switch label="Explicit" hint="Apple marks the episode as explicit" checked={values.explicit} onChange={(v) => set('explicit', v)} />
        {SIDE_FILES.map((f) => (
          <div key={f.field} className="flex flex-col gap-2 sm:flex-row sm:items-end">
            <div className="min-w-0 flex-1">
              <TextField id={`episode-${f.field}`} label={f.label} hint={f.hint} inputMode="url" {...bind(f.field)} />
            </div>
            <FileButton id={`episode-${f.field}-file`} label={f.upload} accept={f.accept} onFile={(file) => void attach(file, f.field)} disabled={busy} />
          </div>
        ))}
      </fieldset>

      <div>
        <span id="episode-notes-label" className="label">
          Show notes (optional)
        </span>
        <RichTextEditor id="episode-notes" value={values.showNotes} onChange={(html) => set('showNotes', html)} labelledBy="episode-notes-label" placeholder="Links, timestamps, guest bio..." />
      </div>

      <div className="rounded-xl border border-slate-200 p-4">
        <Switch label="Published" hint="Visible on the public podcast page" checked={values.isPublished} onChange={(v) => set('isPublished', v)} />
        <div className="mt-4">
          <TextField id="episode-schedule" label={`Schedule for (${zone})`} type="datetime-local" hint="Optional: the episode goes live by itself at this time" {...bind('scheduleAt')} />
        </div>
      </div>
    </FormDialog>
  );
}
