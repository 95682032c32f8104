import { PublishStatus } from '#admin/ui/publish-status.tsx';
import { CalendarIcon, ClockIcon, PencilIcon, PlayIcon, StopIcon, TrashIcon } from '#admin/ui/icons.tsx';
import { episodeHeading, formatClock, formatShortDate } from '#shared/format.ts';
import type { Episode } from '#admin/features/podcast/api/episodes.ts';

/** How controls name the episode: 'episode 3', or 'episode "Title"'. */
const episodeName = (e: Episode) => (e.episodeNumber ? `episode ${e.episodeNumber}` : `episode "${e.title}"`);

const iconButton = 'rounded-lg p-2 text-slate-600 transition hover:bg-slate-100 hover:text-ink focus-visible:outline-2 focus-visible:outline-brand-600';

interface Props {
  episode: Episode;
  playing: boolean;
  onTogglePlay: () => void;
  onEdit: () => void;
  onDelete: () => void;
}

export function EpisodeCard({ episode, playing, onTogglePlay, onEdit, onDelete }: Props) {
  const name = episodeName(episode);
  return (
    <li className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm transition hover:shadow-md">
      <article aria-labelledby={`episode-${episode.id}-title`} className="flex gap-4">
        {episode.audioUrl ? (
          <button
            type="button"
            onClick={onTogglePlay}
            aria-label={`Play ${name}`}
            aria-pressed={playing}
            title={playing ? 'Hide player' : 'Play'}
            className={`grid h-11 w-11 shrink-0 place-items-center rounded-full transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ${
              playing ? 'bg-ink text-white' : 'bg-brand-600 text-white hover:bg-brand-700'
            }`}
          >
            {playing ? <StopIcon size={16} /> : <PlayIcon size={16} />}
          </button>
        ) : (
          <span className="grid h-11 w-11 shrink-0 place-items-center rounded-full bg-slate-100 text-xs font-semibold text-slate-500" title="No audio yet">
            <span aria-hidden="true">{episode.episodeNumber ?? '–'}</span>
          </span>
        )}

        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
            <div className="min-w-0">
              <div className="flex flex-wrap items-center gap-2">
                <h3 id={`episode-${episode.id}-title`} className="text-base font-semibold text-ink">
                  {episodeHeading(episode)}
                </h3>
                <PublishStatus isPublished={episode.isPublished} scheduledAt={episode.scheduledAt} />
              </div>
              {episode.guest && <p className="mt-0.5 text-sm text-slate-600">with {episode.guest}</p>}
            </div>
            <div className="flex shrink-0 items-center gap-1">
              <button type="button" onClick={onEdit} aria-label={`Edit ${name}`} title="Edit" className={iconButton}>
                <PencilIcon />
              </button>
              <button type="button" onClick={onDelete} aria-label={`Delete ${name}`} title="Delete" className={`${iconButton} hover:bg-red-50 hover:text-red-700`}>
                <TrashIcon />
              </button>
            </div>
          </div>

          {episode.description && <p className="mt-2 line-clamp-2 text-sm text-slate-600">{episode.description}</p>}

          <p className="mt-3 flex flex-wrap items-center gap-x-5 gap-y-1 text-xs text-slate-500">
            <span className="inline-flex items-center gap-1.5">
              <CalendarIcon size={14} />
              <span className="sr-only">Created </span>
              {formatShortDate(episode.createdAt)}
            </span>
            <span className="inline-flex items-center gap-1.5">
              <ClockIcon size={14} />
              <span className="sr-only">Duration </span>
              {formatClock(episode.duration)}
            </span>
          </p>

          {playing && episode.audioUrl && <audio controls autoPlay src={episode.audioUrl} className="mt-4 w-full" aria-label={`Audio player for ${name}`} />}
        </div>
      </article>
    </li>
  );
}
