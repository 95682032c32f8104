// The /blog list: search box, category filters and the grid of post cards.
// The posts arrive as props, rendered into the page on the server, so there is no loading
// phase and the spec's loading spinner never has anything to wait for. Without JavaScript the
// controls still work: they submit a GET form that the page filters on the server the same way.
import { useMemo, useRef, useState, type FormEvent } from 'react';
import { PostCard, type PostCardData } from '@/components/ui/PostCard';

export const ALL = 'All';

interface Props {
  posts: PostCardData[];
  initialQuery?: string;
  initialCategory?: string;
}

/** The spec's public blog search: title or excerpt, case-insensitive; category exact unless 'All'. */
export function filterPosts<T extends Pick<PostCardData, 'title' | 'excerpt' | 'category'>>(posts: T[], query: string, category: string): T[] {
  const q = query.trim().toLowerCase();
  return posts.filter(
    (p) =>
      (category === ALL || (p.category || 'General') === category) &&
      (!q || p.title.toLowerCase().includes(q) || p.excerpt.toLowerCase().includes(q)),
  );
}

/** Keeps the address bar in step with the filters, so a filtered view can be shared or reloaded. */
function syncUrl(query: string, category: string) {
  const url = new URL(window.location.href);
  if (query.trim()) url.searchParams.set('q', query.trim());
  else url.searchParams.delete('q');
  if (category !== ALL) url.searchParams.set('category', category);
  else url.searchParams.delete('category');
  window.history.replaceState(window.history.state, '', url);
}

export default function BlogBrowser({ posts, initialQuery = '', initialCategory = ALL }: Props) {
  const [query, setQuery] = useState(initialQuery);
  const [category, setCategory] = useState(initialCategory);
  const searchRef = useRef<HTMLInputElement>(null);

  const categories = useMemo(
    () => [ALL, ...[...new Set(posts.map((p) => p.category || 'General'))].sort((a, b) => a.localeCompare(b))],
    [posts],
  );
  const shown = useMemo(() => filterPosts(posts, query, category), [posts, query, category]);
  const searching = query.trim() !== '';
  const filtering = category !== ALL;

  const update = (q: string, c: string) => {
    setQuery(q);
    setCategory(c);
    syncUrl(q, c);
  };
  const onSubmit = (e: FormEvent) => e.preventDefault();

  return (
    <div>
      {posts.length > 0 && (
        <form
          role="search"
          action="/blog"
          method="get"
          onSubmit={onSubmit}
          className="flex flex-col gap-5 border-b border-slate-200 pb-8 lg:flex-row lg:items-end lg:justify-between"
        >
          {/* The form's default button: Enter in the search box (without JS) keeps the chosen category. */}
          <button type="submit" name="category" value={category} hidden tabIndex={-1} aria-hidden="true" />
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
                    pressed
                      ? 'border-ink bg-ink text-white shadow-sm'
                      : 'border-slate-300 bg-white text-slate-700 hover:border-slate-400 hover:bg-slate-50 hover:text-ink'
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
      {posts.length > 0 && (
        <p role="status" className="mt-6 text-sm text-slate-600">
          {shown.length === posts.length
            ? `${posts.length} ${posts.length === 1 ? 'article' : 'articles'}`
            : `${shown.length} of ${posts.length} articles`}
        </p>
      )}

      {shown.length > 0 ? (
        <ul className="mt-6 grid gap-8 sm:grid-cols-2 lg:grid-cols-3">
          {shown.map((post, i) => (
            <li key={post.id} className="flex">
              <PostCard post={post} eager={i < 3} className="w-full" />
            </li>
          ))}
        </ul>
      ) : (
        <div className="mt-10 flex flex-col items-center rounded-2xl border border-dashed border-slate-300 bg-slate-50 px-6 py-16 text-center">
          <svg className="h-10 w-10 text-slate-400" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.5" aria-hidden="true">
            <path d="M6 3h9l3 3v15H6z" strokeLinejoin="round" />
            <path d="M9 10h6M9 14h6M9 18h3" strokeLinecap="round" />
          </svg>
          <h3 className="mt-4 text-xl font-semibold text-ink">No articles found</h3>
          <p className="mt-2 max-w-md text-slate-600">
            {posts.length === 0 ? 'No articles have been published yet.' : 'No articles match your filters'}
          </p>
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
    </div>
  );
}
