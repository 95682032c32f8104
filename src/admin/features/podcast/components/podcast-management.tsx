// /admin/podcast: episode stats, the list with an inline player, and create / edit / delete.
// '?edit={id}' opens that episode's editor (the dashboard's edit links use it).
import { useEffect, useState } from 'react';
import { StatCard } from '#admin/ui/controls.tsx';
import { DocumentIcon, MicIcon, PencilIcon } from '#admin/ui/icons.tsx';
import { ResourceScreen, type Editing } from '#admin/ui/resource-screen.tsx';
import { toast } from '#lib/toast.ts';
import { deleteEpisode, useEpisodes, type Episode } from '#admin/features/podcast/api/episodes.ts';
import { EpisodeCard } from './episode-card.tsx';
import { EpisodeDownloadsTable } from './episode-downloads.tsx';
import { EpisodeFormDialog } from './episode-form-dialog.tsx';

export default function PodcastManagement() {
  const query = useEpisodes();
  const { data, loading } = query;
  const editing = useState<Editing<Episode>>(null);
  const setEditing = editing[1];
  const [playing, setPlaying] = useState<number | null>(null);
  const nextNumber = (data ?? []).reduce((max, e) => Math.max(max, e.episodeNumber ?? 0), 0) + 1;

  // Deep link from the dashboard: open the editor once the list is here, then tidy the URL.
  useEffect(() => {
    if (!data) return;
    const params = new URLSearchParams(window.location.search);
    const id = Number(params.get('edit'));
    if (!params.has('edit')) return;
    window.history.replaceState(null, '', window.location.pathname);
    const episode = data.find((e) => e.id === id);
    if (episode) setEditing({ item: episode });
  }, [data, setEditing]);

  return (
    <>
      <ResourceScreen<Episode>
        query={query}
        editing={editing}
        title="Podcast Management"
        subtitle="Create, publish and manage the episodes of The Leadership Code."
        noun="Episode"
        plural="Episodes"
        newDisabled={loading && !data}
        stats={{
          label: 'Episode statistics',
          className: 'grid gap-4 sm:grid-cols-3',
          cards: (episodes, value) => {
            const published = episodes.filter((e) => e.isPublished).length;
            return (
              <>
                <StatCard label="Total Episodes" value={value(episodes.length)} icon={<MicIcon />} detail={data && `Next up: episode ${nextNumber}`} />
                <StatCard label="Published" value={value(published)} icon={<DocumentIcon />} detail="Live on the podcast page" />
                <StatCard label="Drafts" value={value(episodes.length - published)} icon={<PencilIcon />} detail="Visible only here" />
              </>
            );
          },
        }}
        list={{
          loading: 'Loading episodes',
          failed: 'Episodes could not be loaded',
          empty: { title: 'No episodes yet', text: 'Record something worth hearing, then add it here.' },
          className: 'space-y-3',
          // A scheduled episode is neither published nor a draft.
          filter: {
            label: 'Filter episodes by status',
            options: [
              { value: 'all', label: 'All Episodes' },
              { value: 'published', label: 'Published' },
              { value: 'draft', label: 'Drafts' },
              { value: 'scheduled', label: 'Scheduled' },
            ],
            keep: (e, status) => (status === 'published' ? e.isPublished : status === 'scheduled' ? Boolean(e.scheduledAt) : !e.isPublished && !e.scheduledAt),
          },
          item: (episode, actions) => (
            <EpisodeCard
              key={episode.id}
              episode={episode}
              playing={playing === episode.id}
              onTogglePlay={() => setPlaying((p) => (p === episode.id ? null : episode.id))}
              onEdit={actions.edit}
              onDelete={actions.remove}
            />
          ),
        }}
        remove={async (episode) => {
          await deleteEpisode(episode.id);
          toast({ title: 'Episode deleted', description: `"${episode.title}" was removed from the website.` });
          if (playing === episode.id) setPlaying(null);
        }}
        confirmText={(episode) => `This action cannot be undone. This will permanently delete the episode "${episode.title}" and remove it from the website.`}
        dialog={(episode, done) => <EpisodeFormDialog episode={episode} nextNumber={nextNumber} onClose={done.close} onSaved={done.saved} />}
      />
      <EpisodeDownloadsTable />
    </>
  );
}
