// The public episode list: a live search over title, guest and description, and one inline
// audio player at a time. Rendered on the server with every episode, so the list reads
// without JavaScript; hydration adds the search and the players.
import { useEffect, useId, useRef, useState } from 'react';
import { episodeAudioPath, episodeHeading, formatLongDate, formatMinutes } from '#shared/format.ts';
import type { PublicEpisode } from '#shared/schemas/podcast-episode.ts';

interface Props {
  episodes: PublicEpisode[];
}

/** The spec's podcast search: case-insensitive substring of title, guest or description. */
function matchesEpisode(e: PublicEpisode, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return [e.title, e.guest, e.description].some((field) => field?.toLowerCase().includes(q));
}

const playLabel = (e: PublicEpisode, open: boolean) => `${open ? 'Pause' : 'Play'} episode ${e.episodeNumber ?? e.title}`;

export default function PodcastBrowser({ episodes }: Props) {
  const [query, setQuery] = useState('');
  const [openId, setOpenId] = useState<number | null>(null);
  const searchId = useId();
  const searchInput = useRef<HTMLInputElement>(null);

  const visible = episodes.filter((e) => matchesEpisode(e, query));
  const searching = query.trim() !== '';

  const search = (value: string) => {
    setQuery(value);
    // A player whose episode is filtered away closes rather than reappearing (and replaying) later.
    if (openId !== null && !episodes.some((e) => e.id === openId && matchesEpisode(e, value))) setOpenId(null);
  };
  const clear = () => {
    search('');
    searchInput.current?.focus();
  };
  // Words typed into the search box before the island hydrated (it hydrates when first used)
  // filter the list as if typed after.
  useEffect(() => {
    const typed = searchInput.current?.value ?? '';
    if (typed) setQuery(typed);
  }, []);

  return (
    <div>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="w-full sm:max-w-md">
          <label htmlFor={searchId} className="label">
            Search episodes
          </label>
          <div className="relative">
            <svg
              className="pointer-events-none absolute top-1/2 left-3.5 h-5 w-5 -translate-y-1/2 text-slate-400"
              viewBox="0 0 24 24"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
              aria-hidden="true"
            >
              <circle cx="11" cy="11" r="7" />
              <path d="m20 20-3.5-3.5" />
            </svg>
            <input
              ref={searchInput}
              id={searchId}
              type="search"
              value={query}
              onChange={(e) => search(e.target.value)}
              placeholder="Search by title, guest or topic..."
              autoComplete="off"
              className="input py-3 pl-11"
            />
          </div>
        </div>
        <p className="text-sm text-slate-600" aria-live="polite">
          {searching ? `${visible.length} of ${episodes.length} episodes` : `${episodes.length} ${episodes.length === 1 ? 'episode' : 'episodes'}`}
        </p>
      </div>

      {visible.length === 0 ? (
        <div className="mt-8 rounded-2xl border border-dashed border-slate-300 bg-slate-50 px-6 py-16 text-center">
          <svg className="mx-auto h-10 w-10 text-slate-400" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" aria-hidden="true">
            <rect x="9" y="3" width="6" height="11" rx="3" />
            <path d="M5 11a7 7 0 0 0 14 0M12 18v3" />
          </svg>
          <h3 className="mt-4 text-lg font-semibold text-ink">No episodes found</h3>
          <p className="mt-2 text-slate-600">{searching ? `No episodes match "${query.trim()}"` : 'No episodes have been published yet.'}</p>
          {searching && (
            <button type="button" className="mt-6 btn-secondary" onClick={clear}>
              Clear Search
            </button>
          )}
        </div>
      ) : (
        <ol className="mt-8 space-y-5">
          {visible.map((e) => (
            <EpisodeItem key={e.id} episode={e} open={openId === e.id} onToggle={() => setOpenId(openId === e.id ? null : e.id)} />
          ))}
        </ol>
      )}
    </div>
  );
}

interface ItemProps {
  episode: PublicEpisode;
  open: boolean;
  onToggle: () => void;
}

function EpisodeItem({ episode: e, open, onToggle }: ItemProps) {
  const playerId = `episode-player-${e.id}`;
  return (
    <li
      id={e.episodeNumber === null ? undefined : `episode-${e.episodeNumber}`}
      className={`rounded-2xl border bg-white p-5 shadow-sm transition sm:p-7 ${open ? 'border-brand-500 ring-1 ring-brand-500' : 'border-slate-200 hover:border-slate-300 hover:shadow-md'}`}
    >
      <article className="grid grid-cols-[auto_1fr] items-start gap-x-4 sm:gap-x-6">
        {e.audioUrl ? (
          <button
            type="button"
            onClick={onToggle}
            aria-label={playLabel(e, open)}
            aria-expanded={open}
            aria-controls={open ? playerId : undefined}
            className="flex h-12 w-12 shrink-0 items-center justify-center rounded-full bg-brand-600 text-white shadow-sm transition hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 sm:h-14 sm:w-14"
          >
            {open ? (
              <svg className="h-5 w-5" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true">
                <rect x="6" y="5" width="4" height="14" rx="1" />
                <rect x="14" y="5" width="4" height="14" rx="1" />
              </svg>
            ) : (
              <svg className="ml-0.5 h-5 w-5" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true">
                <path d="M7 4.8v14.4a1 1 0 0 0 1.52.85l11.5-7.2a1 1 0 0 0 0-1.7L8.52 3.95A1 1 0 0 0 7 4.8Z" />
              </svg>
            )}
          </button>
        ) : (
          <span className="flex h-12 w-12 shrink-0 items-center justify-center rounded-full bg-slate-100 text-slate-500 sm:h-14 sm:w-14" aria-hidden="true">
            <svg className="h-5 w-5" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
              <rect x="9" y="3" width="6" height="11" rx="3" />
              <path d="M5 11a7 7 0 0 0 14 0M12 18v3" />
            </svg>
          </span>
        )}
        <div className="min-w-0 self-center">
          <h3 className="text-lg leading-snug font-bold text-ink sm:text-xl">
            <a href={`/podcast/${e.slug}`} className="rounded hover:text-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600">
              {episodeHeading(e)}
            </a>
          </h3>
          {e.guest && <p className="mt-1 text-sm font-medium text-brand-700">with {e.guest}</p>}
        </div>
        {/* Below the title: full width on phones, aligned with the title from sm up. */}
        <div className="col-span-2 min-w-0 sm:col-span-1 sm:col-start-2">
          {e.description && <p className="mt-3 leading-7 text-slate-700">{e.description}</p>}
          <p className="mt-4 flex flex-wrap items-center gap-x-5 gap-y-1 text-sm text-slate-600">
            <span className="inline-flex items-center gap-1.5">
              <svg className="h-4 w-4 text-slate-400" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
                <rect x="3" y="5" width="18" height="16" rx="2" />
                <path d="M16 3v4M8 3v4M3 10h18" />
              </svg>
              <time dateTime={e.createdAt}>{formatLongDate(e.createdAt)}</time>
            </span>
            <span className="inline-flex items-center gap-1.5">
              <svg className="h-4 w-4 text-slate-400" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
                <circle cx="12" cy="12" r="9" />
                <path d="M12 7v5l3 2" />
              </svg>
              <span>
                <span className="sr-only">Duration: </span>
                {formatMinutes(e.duration)}
              </span>
            </span>
          </p>
        </div>
      </article>
      {open && e.audioUrl && <Player id={playerId} src={episodeAudioPath(e)!} label={`Audio player: ${episodeHeading(e)}`} />}
    </li>
  );
}

/** Starts playing when opened (the click was the visitor's request) and stops when closed. */
function Player({ id, src, label }: { id: string; src: string; label: string }) {
  const audio = useRef<HTMLAudioElement>(null);
  useEffect(() => {
    const el = audio.current;
    // Autoplay may be refused (or the file missing); the controls are there to try again.
    el?.play().catch(() => undefined);
    return () => el?.pause();
  }, []);
  return (
    <div className="mt-5 rounded-xl bg-slate-50 p-2 sm:ml-20">
      <audio ref={audio} id={id} src={src} controls preload="none" aria-label={label} className="w-full">
        <a href={src}>Download the episode</a>
      </audio>
    </div>
  );
}
