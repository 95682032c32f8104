// /admin/podcast: episode stats, the list with an inline player, and create / edit / delete.
// '?edit={id}' opens that episode's editor (the dashboard's edit links use it).
import { useEffect, useState } from 'react';
import { EmptyState, PageHeader, StatCard } from '@/admin/ui/controls';
import { useConfirmDelete } from '@/admin/lib/confirm-delete';
import { ConfirmDialog } from '@/admin/ui/dialog';
import { loadState } from '@/admin/ui/load-error';
import { DocumentIcon, MicIcon, PencilIcon, PlusIcon } from '@/admin/ui/icons';
import { toast } from '@/lib/toast';
import { deleteEpisode, useEpisodes, type Episode } from '../api/episodes';
import { EpisodeCard } from './episode-card';
import { EpisodeFormDialog } from './episode-form-dialog';

type Editing = { episode: Episode | null } | null;

export default function PodcastManagement() {
  const query = useEpisodes();
  const { data, loading, refetch } = query;
  const episodes = data ?? [];
  const [editing, setEditing] = useState<Editing>(null);
  const [playing, setPlaying] = useState<number | null>(null);

  const nextNumber = episodes.reduce((max, e) => Math.max(max, e.episodeNumber ?? 0), 0) + 1;
  const published = episodes.filter((e) => e.isPublished).length;

  // Deep link from the dashboard: open the editor once the list is here, then tidy the URL.
  useEffect(() => {
    if (!data) return;
    const params = new URLSearchParams(window.location.search);
    const id = Number(params.get('edit'));
    if (!params.has('edit')) return;
    window.history.replaceState(null, '', window.location.pathname);
    const episode = data.find((e) => e.id === id);
    if (episode) setEditing({ episode });
  }, [data]);

  const deletion = useConfirmDelete(async (episode: Episode) => {
    await deleteEpisode(episode.id);
    toast({ title: 'Episode deleted', description: `"${episode.title}" was removed from the website.` });
    if (playing === episode.id) setPlaying(null);
    await refetch();
  });
  const deleting = deletion.target;

  const newButton = (label: string) => (
    <button type="button" className="btn-primary" onClick={() => setEditing({ episode: null })} disabled={loading && !data}>
      <PlusIcon size={16} />
      {label}
    </button>
  );

  const stat = (n: number) => (data ? n : '–');

  return (
    <>
      <PageHeader title="Podcast Management" subtitle="Create, publish and manage the episodes of The Leadership Code." actions={newButton('New Episode')} />

      <section aria-label="Episode statistics" className="grid gap-4 sm:grid-cols-3">
        <StatCard label="Total Episodes" value={stat(episodes.length)} icon={<MicIcon />} detail={data && `Next up: episode ${nextNumber}`} />
        <StatCard label="Published" value={stat(published)} icon={<DocumentIcon />} detail="Live on the podcast page" />
        <StatCard label="Drafts" value={stat(episodes.length - published)} icon={<PencilIcon />} detail="Visible only here" />
      </section>

      <section aria-labelledby="episodes-heading" className="mt-8">
        <h2 id="episodes-heading" className="mb-3 text-sm font-semibold tracking-wide text-slate-500 uppercase">
          Episodes
        </h2>
        {loadState(query, { loading: 'Loading episodes', failed: 'Episodes could not be loaded' }) ?? (episodes.length === 0 ? (
          <EmptyState title="No episodes yet" text="Record something worth hearing, then add it here." action={newButton('Create First Episode')} />
        ) : (
          <ul className="space-y-3">
            {episodes.map((episode) => (
              <EpisodeCard
                key={episode.id}
                episode={episode}
                playing={playing === episode.id}
                onTogglePlay={() => setPlaying((p) => (p === episode.id ? null : episode.id))}
                onEdit={() => setEditing({ episode })}
                onDelete={() => deletion.ask(episode)}
              />
            ))}
          </ul>
        ))}
      </section>

      {editing && (
        <EpisodeFormDialog
          episode={editing.episode}
          nextNumber={nextNumber}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void refetch();
          }}
        />
      )}

      <ConfirmDialog
        open={deleting !== null}
        description={`This action cannot be undone. This will permanently delete the episode "${deleting?.title ?? ''}" and remove it from the website.`}
        confirmLabel={deletion.busy ? 'Deleting...' : 'Delete Episode'}
        busy={deletion.busy}
        onConfirm={() => void deletion.confirm()}
        onCancel={deletion.cancel}
      />
    </>
  );
}
