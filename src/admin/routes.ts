// The admin screens, their paths, and what a non-admin sees on each (a redirect to log in, or an inline message).
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { DASHBOARD_PAGES } from '#admin/features/dashboard/api/dashboard.ts';
import { newsletterSince } from '#admin/features/newsletter/components/subscriber-stats.ts';
import { firstPageUrl } from '#admin/lib/paged-query.ts';
import { API } from '#shared/api-paths.ts';

export type GuardMode =
  /** Toast 'Unauthorized', then /api/login after 0.5 s. */
  | 'redirect'
  /** The same toast, then /auth after 0.5 s. */
  | 'redirect-auth'
  /** An inline 'Unauthorized – …' message, no redirect. */
  | 'inline';

type Screen = ComponentType<{ params: Record<string, string> }>;

export interface AdminRoute {
  pattern: string;
  screen: LazyExoticComponent<Screen>;
  /** Fetches the screen's code; the app calls it while the session is still being checked. */
  load: () => Promise<unknown>;
  guard: GuardMode;
  /** The list calls the screen starts with, which the app makes for an admin while the code loads. */
  firstCalls?: () => string[];
}

/** A route whose screen's code is fetched on first use, or earlier through `load`. */
const route = (pattern: string, load: () => Promise<{ default: Screen }>, guard: GuardMode, firstCalls?: () => string[]): AdminRoute => ({
  pattern,
  screen: lazy(load),
  load,
  guard,
  ...(firstCalls && { firstCalls }),
});

export const ROUTES: AdminRoute[] = [
  route(
    '/admin/dashboard',
    () => import('./features/dashboard/components/dashboard'),
    'redirect',
    () => Object.values(DASHBOARD_PAGES),
  ),
  route(
    '/admin/blog',
    () => import('./features/blog/components/blog-management'),
    'redirect',
    () => [firstPageUrl(API.posts, { status: 'all' })],
  ),
  route('/admin/blog/new', () => import('./features/blog/components/post-editor'), 'redirect'),
  route('/admin/blog/edit/:id', () => import('./features/blog/components/post-editor'), 'redirect'),
  route('/admin/podcast', () => import('./features/podcast/components/podcast-management'), 'redirect'),
  route('/admin/products', () => import('./features/products/components/product-management'), 'redirect'),
  route(
    '/admin/newsletter',
    () => import('./features/newsletter/components/newsletter-management'),
    'inline',
    () => [firstPageUrl(API.subscribers, { since: newsletterSince() })],
  ),
  route('/admin/newsletter/subscribers/:id', () => import('./features/newsletter/components/subscriber-page'), 'inline'),
  route(
    '/admin/segments',
    () => import('./features/segments/components/segments-admin'),
    'redirect',
    () => [API.segments],
  ),
  route(
    '/admin/comments',
    () => import('./features/comments/components/comment-moderation'),
    'redirect-auth',
    () => [firstPageUrl(API.comments, { status: 'pending' }), firstPageUrl(API.comments, { status: 'approved' })],
  ),
  route(
    '/admin/users',
    () => import('./features/users/components/user-management'),
    'inline',
    () => [firstPageUrl(API.users, {})],
  ),
  route(
    '/admin/orders',
    () => import('./features/orders/components/orders'),
    'redirect',
    () => [firstPageUrl(API.orders, {})],
  ),
  route(
    '/admin/forms',
    () => import('./features/forms/components/form-management'),
    'redirect',
    () => [API.forms],
  ),
  route('/admin/emails', () => import('./features/emails/components/emails'), 'redirect'),
  route('/admin/redirects', () => import('./features/redirects/components/redirect-management'), 'redirect'),
  route('/admin/settings', () => import('./features/settings/components/settings'), 'redirect'),
  route(
    '/admin/newsletter/issues',
    () => import('./features/broadcasts/components/issue-list'),
    'redirect',
    () => [API.broadcasts],
  ),
  route('/admin/newsletter/issues/new', () => import('./features/broadcasts/components/issue-editor'), 'redirect'),
  route('/admin/newsletter/issues/:id', () => import('./features/broadcasts/components/issue-editor'), 'redirect'),
  route(
    '/admin/newsletter/sequences',
    () => import('./features/sequences/components/sequence-list'),
    'redirect',
    () => [API.sequences],
  ),
  route('/admin/newsletter/sequences/:id', () => import('./features/sequences/components/sequence-editor'), 'redirect'),
  route(
    '/admin/booking',
    () => import('./features/booking/components/booking-admin'),
    'redirect',
    () => [API.bookingAdmin, API.bookings('upcoming')],
  ),
  route('/admin/analytics', () => import('./features/analytics/components/analytics-admin'), 'redirect'),
  route(
    '/admin/clients',
    () => import('./features/clients/components/clients-admin'),
    'redirect',
    () => [API.clients, API.coupons],
  ),
  route('/admin/security', () => import('./features/security/components/security'), 'redirect'),
  route(
    '/admin/audit',
    () => import('./features/audit/components/audit-log'),
    'redirect',
    () => [firstPageUrl(API.audit, { actor: '', action: '', from: '', to: '' })],
  ),
  route(
    '/admin/privacy',
    () => import('./features/privacy/components/privacy-admin'),
    'redirect',
    () => [API.privacyRequests],
  ),
  route(
    '/admin/site',
    () => import('./features/site/components/site-editor'),
    'redirect',
    () => [API.site],
  ),
];

/** The admin menu, grouped by what the owner does; Dashboard stands above the groups. */
export const NAV_GROUPS: { label: string | null; items: { href: string; label: string }[] }[] = [
  { label: null, items: [{ href: '/admin/dashboard', label: 'Dashboard' }] },
  {
    label: 'Content',
    items: [
      { href: '/admin/blog', label: 'Blog' },
      { href: '/admin/podcast', label: 'Podcast' },
      { href: '/admin/comments', label: 'Comments' },
      { href: '/admin/redirects', label: 'Redirects' },
    ],
  },
  {
    label: 'Audience',
    items: [
      { href: '/admin/newsletter', label: 'Newsletter' },
      { href: '/admin/newsletter/issues', label: 'Issues' },
      { href: '/admin/newsletter/sequences', label: 'Sequences' },
      { href: '/admin/forms', label: 'Forms' },
      { href: '/admin/segments', label: 'Segments' },
      { href: '/admin/privacy', label: 'Privacy' },
    ],
  },
  {
    label: 'Business',
    items: [
      { href: '/admin/products', label: 'Products' },
      { href: '/admin/orders', label: 'Orders' },
      { href: '/admin/booking', label: 'Booking' },
      { href: '/admin/clients', label: 'Clients' },
    ],
  },
  {
    label: 'Insights',
    items: [
      { href: '/admin/analytics', label: 'Analytics' },
      { href: '/admin/emails', label: 'E-mails' },
      { href: '/admin/audit', label: 'Audit log' },
    ],
  },
  {
    label: 'Site',
    items: [
      { href: '/admin/site', label: 'Site' },
      { href: '/admin/users', label: 'Users' },
      { href: '/admin/settings', label: 'Settings' },
      { href: '/admin/security', label: 'Security' },
    ],
  },
];

/** Every menu entry, in menu order. */
export const NAV = NAV_GROUPS.flatMap((g) => g.items);

/** Where an admin who must turn on two-factor first is kept (REQUIRE_2FA_FOR_ADMINS). */
export const SECURITY_PATH = '/admin/security';
