// Blog management's search and status filter: search matches title or
// excerpt, case-insensitively, and combines with the status filter (a scheduled post is
// neither published nor a draft).
import { useMemo, useState } from 'react';
import type { Post } from '#admin/features/blog/api/posts.ts';

export type StatusFilter = 'all' | 'published' | 'draft' | 'scheduled';

export function filterPosts(posts: Post[], search: string, status: StatusFilter): Post[] {
  const q = search.trim().toLowerCase();
  return posts.filter((p) => {
    if (status === 'published' && !p.isPublished) return false;
    if (status === 'draft' && (p.isPublished || p.scheduledAt)) return false;
    if (status === 'scheduled' && !p.scheduledAt) return false;
    if (!q) return true;
    return p.title.toLowerCase().includes(q) || (p.excerpt ?? '').toLowerCase().includes(q);
  });
}

export function usePostFilters(posts: Post[]) {
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<StatusFilter>('all');
  const visible = useMemo(() => filterPosts(posts, search, status), [posts, search, status]);
  const stats = useMemo(() => {
    const published = posts.filter((p) => p.isPublished).length;
    return { total: posts.length, published, drafts: posts.length - published };
  }, [posts]);
  const active = search.trim() !== '' || status !== 'all';
  const clear = () => {
    setSearch('');
    setStatus('all');
  };
  return { search, setSearch, status, setStatus, visible, stats, active, clear };
}
