// The admin screens, their paths, and what a non-admin sees on each (a redirect to log in, or an inline message).
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export type GuardMode =
  /** Toast 'Unauthorized', then /api/login after 0.5 s. */
  | 'redirect'
  /** The same toast, then /auth after 0.5 s. */
  | 'redirect-auth'
  /** An inline 'Unauthorized – …' message, no redirect. */
  | 'inline';

export interface AdminRoute {
  pattern: string;
  screen: LazyExoticComponent<ComponentType<{ params: Record<string, string> }>>;
  guard: GuardMode;
}

export const ROUTES: AdminRoute[] = [
  { pattern: '/admin/dashboard', screen: lazy(() => import('./features/dashboard/components/dashboard')), guard: 'redirect' },
  { pattern: '/admin/blog', screen: lazy(() => import('./features/blog/components/blog-management')), guard: 'redirect' },
  { pattern: '/admin/blog/new', screen: lazy(() => import('./features/blog/components/post-editor')), guard: 'redirect' },
  { pattern: '/admin/blog/edit/:id', screen: lazy(() => import('./features/blog/components/post-editor')), guard: 'redirect' },
  { pattern: '/admin/podcast', screen: lazy(() => import('./features/podcast/components/podcast-management')), guard: 'redirect' },
  { pattern: '/admin/products', screen: lazy(() => import('./features/products/components/product-management')), guard: 'redirect' },
  { pattern: '/admin/newsletter', screen: lazy(() => import('./features/newsletter/components/newsletter-management')), guard: 'inline' },
  { pattern: '/admin/comments', screen: lazy(() => import('./features/comments/components/comment-moderation')), guard: 'redirect-auth' },
  { pattern: '/admin/users', screen: lazy(() => import('./features/users/components/user-management')), guard: 'inline' },
  { pattern: '/admin/orders', screen: lazy(() => import('./features/orders/components/orders')), guard: 'redirect' },
  { pattern: '/admin/emails', screen: lazy(() => import('./features/emails/components/emails')), guard: 'redirect' },
  { pattern: '/admin/redirects', screen: lazy(() => import('./features/redirects/components/redirect-management')), guard: 'redirect' },
  { pattern: '/admin/settings', screen: lazy(() => import('./features/settings/components/settings')), guard: 'redirect' },
];

export const NAV = [
  { href: '/admin/dashboard', label: 'Dashboard' },
  { href: '/admin/blog', label: 'Blog' },
  { href: '/admin/podcast', label: 'Podcast' },
  { href: '/admin/products', label: 'Products' },
  { href: '/admin/orders', label: 'Orders' },
  { href: '/admin/newsletter', label: 'Newsletter' },
  { href: '/admin/comments', label: 'Comments' },
  { href: '/admin/users', label: 'Users' },
  { href: '/admin/emails', label: 'E-mails' },
  { href: '/admin/redirects', label: 'Redirects' },
  { href: '/admin/settings', label: 'Settings' },
];
