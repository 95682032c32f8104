// The /blog list: search box, category filters and the grid of post cards, within one tag
// when the page was opened from a tag link (/blog?tag=...).
// The first page is rendered on the server (so reading works without JavaScript: the
// controls then submit a GET form and 'Load more' is a link). With JavaScript, typing or
// choosing a category asks the server's full-text search for the first page of matches, and
// 'Load more' appends the next page, so 10,000 posts cost no more than 24.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { PostCard } from '#components/ui/PostCard.tsx';
import { api } from '#lib/api-client.ts';
import { toast } from '#lib/toast.ts';
import type { PostSummary, TagDto } from '#shared/schemas/blog-post.ts';

export const ALL = 'All';

interface Props {
  /** This page of posts matching the initial query and category. */
  posts: PostSummary[];
  /** How many posts match the initial query and category. */
  total: number;
  /** How many posts are published at all. */
  allTotal: number;
  categories: string[];
  pageSize: number;
  initialPage?: number;
  initialQuery?: string;
  initialCategory?: string;
  /** The tag every post shown has; it stays for every search and page until 'Show all posts'. */
  tag?: TagDto | undefined;
}

interface Page {
  items: PostSummary[];
  total: number;
}

/** Keeps the address bar in step with the filters, so a filtered view can be shared or reloaded (?tag= stays as it is). */
function syncUrl(query: string, category: string) {
  const url = new URL(window.location.href);
  if (query.trim()) url.searchParams.set('q', query.trim());
  else url.searchParams.delete('q');
  if (category !== ALL) url.searchParams.set('category', category);
  else url.searchParams.delete('category');
  url.searchParams.delete('page');
  window.history.replaceState(window.history.state, '', url);
}

const searchUrl = (q: string, category: string, tag: string | undefined, page: number, pageSize: number) =>
  `/api/blog-posts/search?${new URLSearchParams({ q: q.trim(), category, ...(tag ? { tag } : {}), page: String(page), pageSize: String(pageSize) })}`;

export default function BlogBrowser({ posts: initialPosts, total: initialTotal, allTotal, categories: cats, pageSize, initialPage = 1, initialQuery = '', initialCategory = ALL, tag }: Props) {
  const tagSlug = tag?.slug;
  const [query, setQuery] = useState(initialQuery);
  const [category, setCategory] = useState(initialCategory);
  const [items, setItems] = useState(initialPosts);
  const [total, setTotal] = useState(initialTotal);
  const [page, setPage] = useState(initialPage);
  const [loading, setLoading] = useState(false);
  const searchRef = useRef<HTMLInputElement>(null);
  const request = useRef(0);
  const first = useRef(true);
  const categories = [ALL, ...cats];
  const searching = query.trim() !== '';
  const filtering = category !== ALL;

  // A new search or category: the first page of matches from the server, after a short pause in typing.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const id = ++request.current;
    setLoading(true);
    const t = window.setTimeout(() => {
      api<Page>('GET', searchUrl(query, category, tagSlug, 1, pageSize))
        .then((r) => {
          if (id !== request.current) return;
          setItems(r.items);
          setTotal(r.total);
          setPage(1);
        })
        .catch(() => id === request.current && toast({ title: 'Failed to fetch blog posts', variant: 'destructive' }))
        .finally(() => id === request.current && setLoading(false));
    }, 150);
    return () => window.clearTimeout(t);
  }, [query, category, tagSlug, pageSize]);

  // Words typed into the search box before the island hydrated (it hydrates when first used) are
  // searched for as if typed after.
  useEffect(() => {
    const typed = searchRef.current?.value ?? initialQuery;
    if (typed !== initialQuery) update(typed, initialCategory);
    // Once, at hydration.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const loadMore = async () => {
    const id = ++request.current;
    setLoading(true);
    try {
      const r = await api<Page>('GET', searchUrl(query, category, tagSlug, page + 1, pageSize));
      if (id !== request.current) return;
      setItems((prev) => [...prev, ...r.items.filter((p) => !prev.some((q) => q.id === p.id))]);
      setTotal(r.total);
      setPage(page + 1);
    } catch {
      toast({ title: 'Failed to fetch blog posts', variant: 'destructive' });
    } finally {
      if (id === request.current) setLoading(false);
    }
  };

  const update = (q: string, c: string) => {
    setQuery(q);
    setCategory(c);
    syncUrl(q, c);
  };
  const onSubmit = (e: FormEvent) => e.preventDefault();
  const nextHref = `/blog?${new URLSearchParams({ ...(query.trim() ? { q: query.trim() } : {}), ...(category !== ALL ? { category } : {}), ...(tagSlug ? { tag: tagSlug } : {}), page: String(page + 1) })}`;

  return (
    <div>
      {tag && (
        <div className="mb-8 flex flex-wrap items-center gap-x-4 gap-y-2">
          <h2 className="text-2xl font-bold tracking-tight text-ink">{`Tagged: ${tag.name}`}</h2>
          <a href="/blog" className="rounded text-sm font-semibold text-brand-700 hover:text-brand-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600">
            Show all posts
          </a>
        </div>
      )}
      {allTotal > 0 && (
        <form role="search" action="/blog" method="get" onSubmit={onSubmit} className="flex flex-col gap-5 border-b border-slate-200 pb-8 lg:flex-row lg:items-end lg:justify-between">
          {/* The form's default button: Enter in the search box (without JS) keeps the chosen category. */}
          <button type="submit" name="category" value={category} hidden tabIndex={-1} aria-hidden="true" />
          {/* Without JS a search or category stays within the tag. */}
          {tagSlug && <input type="hidden" name="tag" value={tagSlug} />}
          <div className="w-full lg:max-w-sm">
            <label htmlFor="blog-search" className="label">
              Search articles
            </label>
            <div className="relative">
              <svg
                className="pointer-events-none absolute top-1/2 left-3.5 h-4 w-4 -translate-y-1/2 text-slate-500"
                viewBox="0 0 20 20"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
                aria-hidden="true"
              >
                <circle cx="9" cy="9" r="6" />
                <path d="m17 17-3.5-3.5" strokeLinecap="round" />
              </svg>
              <input
                ref={searchRef}
                id="blog-search"
                type="search"
                name="q"
                value={query}
                onChange={(e) => update(e.target.value, category)}
                placeholder="Search articles..."
                autoComplete="off"
                className="input py-3 pl-10"
              />
            </div>
          </div>
          {/* Without JS a filter button submits the form with its category; with JS it only sets state. */}
          <div role="group" aria-label="Filter by category" className="flex flex-wrap gap-2">
            {categories.map((c) => {
              const pressed = c === category;
              return (
                <button
                  key={c}
                  type="submit"
                  name="category"
                  value={c}
                  aria-pressed={pressed}
                  onClick={(e) => {
                    e.preventDefault();
                    update(query, c);
                  }}
                  className={`rounded-full border px-4 py-2 text-sm font-medium transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ${
                    pressed ? 'border-ink bg-ink text-white shadow-sm' : 'border-slate-300 bg-white text-slate-700 hover:border-slate-400 hover:bg-slate-50 hover:text-ink'
                  }`}
                >
                  {c}
                </button>
              );
            })}
          </div>
        </form>
      )}

      <h2 className="sr-only">Articles</h2>
      {allTotal > 0 && (
        <p role="status" className="mt-6 flex items-center gap-2 text-sm text-slate-600">
          {loading && <span className="h-4 w-4 animate-spin rounded-full border-2 border-slate-200 border-t-brand-600" aria-hidden="true" />}
          {loading ? 'Loading articles…' : total === allTotal ? `${total} ${total === 1 ? 'article' : 'articles'}` : `${total} of ${allTotal} articles`}
        </p>
      )}

      {items.length > 0 ? (
        <ul className="mt-6 grid gap-8 sm:grid-cols-2 lg:grid-cols-3">
          {items.map((post, i) => (
            <li key={post.id} className="flex">
              <PostCard post={post} eager={i < 3} className="w-full" />
            </li>
          ))}
        </ul>
      ) : loading ? null : (
        <div className="mt-10 flex flex-col items-center rounded-2xl border border-dashed border-slate-300 bg-slate-50 px-6 py-16 text-center">
          <svg className="h-10 w-10 text-slate-400" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.5" aria-hidden="true">
            <path d="M6 3h9l3 3v15H6z" strokeLinejoin="round" />
            <path d="M9 10h6M9 14h6M9 18h3" strokeLinecap="round" />
          </svg>
          <h3 className="mt-4 text-xl font-semibold text-ink">No articles found</h3>
          <p className="mt-2 max-w-md text-slate-600">{allTotal === 0 ? 'No articles have been published yet.' : 'No articles match your filters'}</p>
          {(searching || filtering) && (
            <div className="mt-6 flex flex-wrap justify-center gap-3">
              {searching && (
                <button
                  type="button"
                  className="btn-secondary"
                  onClick={() => {
                    update('', category);
                    searchRef.current?.focus();
                  }}
                >
                  Clear Search
                </button>
              )}
              {filtering && (
                <button type="button" className="btn-secondary" onClick={() => update(query, ALL)}>
                  Show All Categories
                </button>
              )}
            </div>
          )}
        </div>
      )}

      {items.length > 0 && items.length < total && (
        <div className="mt-10 flex justify-center">
          <a
            href={nextHref}
            className="btn-secondary"
            aria-disabled={loading}
            onClick={(e) => {
              e.preventDefault();
              if (!loading) void loadMore();
            }}
          >
            Load more articles
          </a>
        </div>
      )}
    </div>
  );
}
