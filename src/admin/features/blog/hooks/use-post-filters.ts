// Blog management's search and status filter, and the page of posts they select: the server
// searches title and excerpt case-insensitively, filters by status (a scheduled post is neither
// published nor a draft) and counts the stat cards.
import { useState } from 'react';
import { usePagedList } from '#admin/lib/paged-query.ts';
import type { PostStatsDto, PostStatusFilter } from '#shared/schemas/blog-post.ts';
import { POSTS_PATH, type PostListItem } from '#admin/features/blog/api/posts.ts';

export type StatusFilter = PostStatusFilter;

export function usePostFilters() {
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<StatusFilter>('all');
  const list = usePagedList<PostListItem, PostStatsDto>(POSTS_PATH, search, { status }, 'Failed to fetch blog posts');
  const active = search.trim() !== '' || status !== 'all';
  const clear = () => {
    setSearch('');
    setStatus('all');
  };
  return { list, search, setSearch, status, setStatus, active, clear };
}
