// /admin/dashboard: the numbers that matter, shortcuts to every admin screen, and the latest
// published posts and episodes.
import { useStore } from '@nanostores/react';
import type { ReactNode } from 'react';
import { Link } from '#admin/lib/link.tsx';
import { TrafficSummary } from './traffic-summary';
import { $session } from '#admin/lib/session.ts';
import { PageHeader, Spinner, StatCard } from '#admin/ui/controls.tsx';
import { BagIcon, ChartIcon, DocumentIcon, ExternalLinkIcon, MailIcon, MicIcon, PencilIcon, PlusIcon, UsersIcon, EyeIcon, ArrowRightIcon } from '#admin/ui/icons.tsx';
import { episodeHeading, formatPrice, formatShortDate } from '#shared/format.ts';
import { useQuery } from '#admin/lib/query.ts';
import { API } from '#shared/api-paths.ts';
import type { Json } from '#shared/json.ts';
import type { BookingDto } from '#shared/schemas/booking.ts';
import { RECENT, useEpisodes, useOrders, usePosts, useProducts, useSettings, useSubscribers } from '#admin/features/dashboard/api/dashboard.ts';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const newestFirst = <T extends { createdAt: string }>(a: T, b: T) => Date.parse(b.createdAt) - Date.parse(a.createdAt);

const QUICK_LINKS = [
  { href: '/admin/blog/new', label: 'New Blog Post', text: 'Write and publish an article', icon: <PlusIcon /> },
  { href: '/admin/podcast', label: 'Manage Podcast', text: 'Episodes and audio', icon: <MicIcon /> },
  { href: '/admin/blog', label: 'Manage Blog', text: 'Edit, publish and import posts', icon: <DocumentIcon /> },
  { href: '/admin/products', label: 'Products & Services', text: 'Prices and availability', icon: <BagIcon /> },
  { href: '/admin/newsletter', label: 'Newsletter', text: 'Subscribers and export', icon: <MailIcon /> },
  { href: '/admin/users', label: 'Manage Users', text: 'Approvals and admin rights', icon: <UsersIcon /> },
];

const rowAction = 'inline-flex h-9 w-9 items-center justify-center rounded-lg text-slate-500 transition hover:bg-slate-100 hover:text-ink focus-visible:outline-2 focus-visible:outline-brand-600';

function RecentList({ title, allHref, loading, empty, children }: { title: string; allHref: string; loading: boolean; empty: string | null; children: ReactNode }) {
  const id = `${title.toLowerCase().replace(/\s+/g, '-')}-heading`;
  return (
    <section aria-labelledby={id} className="min-w-0 rounded-2xl border border-slate-200 bg-white shadow-sm">
      <div className="flex items-center justify-between border-b border-slate-100 px-5 py-4">
        <h2 id={id} className="text-base font-semibold text-ink">
          {title}
        </h2>
        <Link href={allHref} className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:text-brand-900">
          View all
          <span className="sr-only"> {title.replace('Recent ', '').toLowerCase()}</span>
          <ArrowRightIcon size={14} />
        </Link>
      </div>
      {loading ? (
        <Spinner label={`Loading ${title.toLowerCase()}`} />
      ) : empty ? (
        <p className="px-5 py-10 text-center text-sm text-slate-600">{empty}</p>
      ) : (
        <ul className="divide-y divide-slate-100">{children}</ul>
      )}
    </section>
  );
}

function RecentItem({ title, date, viewHref, viewLabel, editHref, editLabel }: { title: string; date: string; viewHref: string; viewLabel: string; editHref: string; editLabel: string }) {
  return (
    <li className="flex items-center gap-3 px-5 py-3">
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium text-ink" title={title}>
          {title}
        </p>
        <p className="text-xs text-slate-500">{formatShortDate(date)}</p>
      </div>
      <a href={viewHref} target="_blank" rel="noopener noreferrer" aria-label={`${viewLabel} (opens in a new tab)`} title="View on the site" className={rowAction}>
        <EyeIcon />
      </a>
      <Link href={editHref} aria-label={editLabel} title="Edit" className={rowAction}>
        <PencilIcon />
      </Link>
    </li>
  );
}

/** The next confirmed bookings, soonest first. */
function NextBookings() {
  const list = useQuery<Json<BookingDto>[]>(API.bookings('upcoming'), 'Failed to load the bookings');
  const next = (list.data ?? []).filter((b) => b.status === 'confirmed').slice(0, 5);
  return (
    <RecentList title="Next Bookings" allHref="/admin/booking" loading={list.loading && !list.data} empty={next.length === 0 ? 'No upcoming bookings.' : null}>
      {next.map((b) => (
        <li key={b.id} className="px-5 py-3">
          <p className="text-sm font-medium text-ink">
            {b.name} · {b.type.name}
          </p>
          <p className="text-xs text-slate-500">{new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(b.start))}</p>
        </li>
      ))}
    </RecentList>
  );
}

export default function Dashboard() {
  const session = useStore($session);
  const posts = usePosts();
  const episodes = useEpisodes();
  const products = useProducts();
  const subscribers = useSubscribers();
  const settings = useSettings();
  const orders = useOrders();
  const sales = orders.data?.stats;

  const user = session.status === 'ready' ? session.user : null;
  const postCounts = posts.data?.stats;
  const recentPosts = posts.data?.items ?? [];
  const publishedEpisodes = (episodes.data ?? []).filter((e) => e.isPublished);
  const value = <T,>(list: T[] | undefined, n: (l: T[]) => ReactNode) => (list ? n(list) : '–');

  const analyticsUrl = settings.data?.analyticsDashboardUrl ?? null;
  const analyticsActive = settings.data?.analyticsConfigured ?? false;

  return (
    <>
      <PageHeader title="Dashboard" subtitle={user ? `Welcome back, ${user.firstName || user.username}. Here is how the site is doing.` : undefined} />

      <section aria-labelledby="sales-heading" className="mb-4 flex flex-wrap items-center justify-between gap-3 rounded-2xl border border-emerald-200 bg-emerald-50/60 px-5 py-4">
        <div>
          <h2 id="sales-heading" className="text-sm font-semibold text-emerald-900">
            Sales
          </h2>
          <p className="text-2xl font-bold text-ink">{sales ? formatPrice(sales.revenue) : '—'}</p>
          <p className="text-xs text-slate-600">{sales ? `revenue from ${plural(sales.paid, 'paid order')}` : 'Loading orders'}</p>
        </div>
        <Link href="/admin/orders" className="btn-secondary">
          View orders
        </Link>
      </section>

      <TrafficSummary />

      {settings.data && (settings.data.podcastOwnerEmailConfigured === false || settings.data.mailConfigured === false) && (
        <section aria-labelledby="setup-heading" className="mb-4 rounded-2xl border border-amber-300 bg-amber-50 px-5 py-4">
          <h2 id="setup-heading" className="text-sm font-semibold text-amber-900">
            Set-up needed
          </h2>
          {settings.data.mailConfigured === false && (
            <p className="mt-1 text-sm text-amber-900">E-mail is not set up: nothing is sent, and new subscribers are not asked to confirm. Set SMTP_URL and restart.</p>
          )}
          {settings.data.podcastOwnerEmailConfigured === false && (
            <p className="mt-1 text-sm text-amber-900">
              Apple Podcasts needs an owner e-mail in the podcast feed to verify the show is yours. Set the show's owner e-mail (or the contact e-mail) in Admin → Site.
            </p>
          )}
        </section>
      )}

      <section aria-label="Site statistics" className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-3 xl:grid-cols-5">
        <StatCard label="Blog Posts" icon={<DocumentIcon />} value={postCounts ? postCounts.published : '–'} detail={postCounts && `published · ${plural(postCounts.drafts, 'draft')}`} />
        <StatCard
          label="Podcast Episodes"
          icon={<MicIcon />}
          value={value(episodes.data, () => publishedEpisodes.length)}
          detail={episodes.data && `published · ${plural(episodes.data.length - publishedEpisodes.length, 'draft')}`}
        />
        <StatCard label="Active Products" icon={<BagIcon />} value={value(products.data, (l) => l.filter((p) => p.isActive).length)} detail={products.data && `${products.data.length} in total`} />
        <StatCard
          label="Subscribers"
          icon={<MailIcon />}
          value={subscribers.data ? subscribers.data.stats.total : '–'}
          detail={subscribers.data && `newsletter · ${subscribers.data.stats.active} active`}
        />
        <StatCard
          label="Analytics"
          icon={<ChartIcon />}
          value={
            settings.data ? (
              <span className="inline-flex items-center gap-2 text-2xl">
                <span className={`h-2.5 w-2.5 rounded-full ${analyticsActive ? 'bg-emerald-500' : 'bg-slate-300'}`} aria-hidden="true" />
                {analyticsActive ? 'Active' : 'Inactive'}
              </span>
            ) : (
              '–'
            )
          }
          detail={settings.data && (analyticsActive ? 'Page views are tracked with consent' : 'Set the analytics id in Admin → Site to start tracking')}
        />
      </section>

      <section aria-labelledby="quick-actions-heading" className="mt-8 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <h2 id="quick-actions-heading" className="text-base font-semibold text-ink">
            Quick Actions
          </h2>
          <div className="flex flex-col items-start gap-1 sm:items-end">
            <button
              type="button"
              className="btn-secondary py-2"
              disabled={!analyticsUrl}
              aria-describedby={analyticsUrl ? undefined : 'analytics-hint'}
              onClick={() => analyticsUrl && window.open(analyticsUrl, '_blank', 'noopener,noreferrer')}
            >
              <ChartIcon size={16} />
              View Analytics
              <ExternalLinkIcon size={14} />
            </button>
            {settings.data && !analyticsUrl && (
              <p id="analytics-hint" className="text-xs text-slate-500">
                Set ANALYTICS_DASHBOARD_URL to open your analytics from here.
              </p>
            )}
          </div>
        </div>
        <ul className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {QUICK_LINKS.map((q) => (
            <li key={q.href}>
              <Link
                href={q.href}
                className="group flex h-full items-center gap-3 rounded-xl border border-slate-200 p-3 transition hover:border-brand-500 hover:bg-brand-50/50 focus-visible:outline-2 focus-visible:outline-brand-600"
              >
                <span className="grid h-10 w-10 shrink-0 place-items-center rounded-lg bg-brand-50 text-brand-700 group-hover:bg-brand-100">{q.icon}</span>
                <span className="min-w-0">
                  <span className="block text-sm font-semibold text-ink">{q.label}</span>
                  <span className="block text-xs text-slate-600">{q.text}</span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </section>

      <div className="mt-8 grid gap-6 lg:grid-cols-2">
        <RecentList title="Recent Blog Posts" allHref="/admin/blog" loading={posts.loading && !posts.data} empty={recentPosts.length === 0 ? 'No blog posts published yet.' : null}>
          {recentPosts.map((p) => (
            <RecentItem key={p.id} title={p.title} date={p.createdAt} viewHref={`/blog/${p.slug}`} viewLabel={`View ${p.title}`} editHref={`/admin/blog/edit/${p.id}`} editLabel={`Edit ${p.title}`} />
          ))}
        </RecentList>
        <RecentList
          title="Recent Podcast Episodes"
          allHref="/admin/podcast"
          loading={episodes.loading && !episodes.data}
          empty={publishedEpisodes.length === 0 ? 'No podcast episodes published yet.' : null}
        >
          {[...publishedEpisodes]
            .sort(newestFirst)
            .slice(0, RECENT)
            .map((e) => {
              const heading = episodeHeading(e);
              return (
                <RecentItem key={e.id} title={heading} date={e.createdAt} viewHref="/podcast" viewLabel={`View ${heading}`} editHref={`/admin/podcast?edit=${e.id}`} editLabel={`Edit ${heading}`} />
              );
            })}
        </RecentList>
      </div>
      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <NextBookings />
      </div>
    </>
  );
}
