// The admin app: one client-rendered React island at /admin/*. It checks who is using it,
// applies the spec's guard behaviour for non-admins, and renders the shell and the screen.
import { API } from '#shared/api-paths.ts';
import { useStore } from '@nanostores/react';
import { Suspense, useEffect, useState } from 'react';
import Toaster from '#components/ui/Toaster.tsx';
import { toast } from '#lib/toast.ts';
import { Link } from './lib/link';
import { ADMIN_REDIRECT_MS, prefetch } from './lib/query';
import { $path, match } from './lib/router';
import { $session, loadSession, logout } from './lib/session';
import { NAV, NAV_GROUPS, ROUTES, SECURITY_PATH, type GuardMode } from './routes';
import { Spinner } from './ui/controls';

function resolve(path: string) {
  for (const r of ROUTES) {
    const params = match(r.pattern, path);
    if (params) return { route: r, params };
  }
  return null;
}

function Denied({ mode }: { mode: GuardMode }) {
  useEffect(() => {
    if (mode === 'inline') return;
    toast({ title: 'Unauthorized', description: 'You need admin access to view this page.', variant: 'destructive' });
    const t = window.setTimeout(() => window.location.assign(mode === 'redirect-auth' ? '/auth' : API.login), ADMIN_REDIRECT_MS);
    return () => window.clearTimeout(t);
  }, [mode]);
  if (mode !== 'inline') return null;
  return (
    <main className="mx-auto max-w-xl px-6 py-24 text-center">
      <h1 className="text-2xl font-bold text-ink">Unauthorized – You need admin access to view this page.</h1>
      <p className="mt-3 text-slate-600">
        <a className="font-medium text-brand-700 underline" href="/auth">
          Log in
        </a>{' '}
        with an admin account, or go back to the{' '}
        <a className="font-medium text-brand-700 underline" href="/">
          site
        </a>
        .
      </p>
    </main>
  );
}

function Shell({ username, children }: { username: string; children: React.ReactNode }) {
  const path = useStore($path);
  // The menu is open on the page where it was opened: following a link closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === path;
  const setOpen = (next: boolean) => setOpenOn(next ? path : null);
  // The entry for this page: the one whose address is the longest start of it (Issues under Newsletter).
  const current = NAV.filter((n) => path === n.href || (n.href !== '/admin/dashboard' && path.startsWith(`${n.href}/`))).sort((a, b) => b.href.length - a.href.length)[0]?.href;
  const link = (n: { href: string; label: string }) => {
    const active = n.href === current;
    return (
      <li key={n.href}>
        <Link
          href={n.href}
          aria-current={active ? 'page' : undefined}
          className={`block rounded-lg px-3 py-2 text-sm font-medium ${active ? 'bg-white/10 text-white' : 'text-slate-300 hover:bg-white/5 hover:text-white'}`}
        >
          {n.label}
        </Link>
      </li>
    );
  };
  const navLinks = (
    <div className="space-y-5">
      {NAV_GROUPS.map((g) =>
        g.label ? (
          <div key={g.label}>
            <p aria-hidden="true" className="px-3 pb-1 text-xs font-semibold tracking-wide text-slate-400 uppercase">
              {g.label}
            </p>
            <ul aria-label={g.label} className="space-y-1">
              {g.items.map(link)}
            </ul>
          </div>
        ) : (
          <ul key="top" className="space-y-1">
            {g.items.map(link)}
          </ul>
        ),
      )}
    </div>
  );
  const sidebar = (
    <div className="flex h-full flex-col bg-slate-950 px-4 py-6">
      <div className="px-3 text-lg font-bold text-white">Admin</div>
      <nav aria-label="Admin" className="mt-6 min-h-0 flex-1 overflow-y-auto">
        {navLinks}
      </nav>
      <div className="border-t border-white/10 pt-4">
        <p className="px-3 text-sm font-semibold text-white">{username}</p>
        <p className="px-3 text-xs text-slate-400">Administrator</p>
        <div className="mt-3 flex flex-col gap-1">
          <a href="/" className="rounded-lg px-3 py-2 text-sm text-slate-300 hover:bg-white/5 hover:text-white">
            View Site
          </a>
          <button type="button" onClick={() => void logout()} className="rounded-lg px-3 py-2 text-left text-sm text-slate-300 hover:bg-white/5 hover:text-white">
            Logout
          </button>
        </div>
      </div>
    </div>
  );
  return (
    <div className="min-h-screen bg-slate-50">
      <aside className="fixed inset-y-0 left-0 hidden w-60 lg:block">{sidebar}</aside>
      {open && (
        <div className="fixed inset-0 z-40 lg:hidden">
          <div className="absolute inset-0 bg-slate-950/50" aria-hidden="true" onClick={() => setOpen(false)} />
          <aside className="absolute inset-y-0 left-0 w-64 shadow-2xl">{sidebar}</aside>
        </div>
      )}
      <div className="lg:pl-60">
        <header className="sticky top-0 z-30 flex h-14 items-center gap-3 border-b border-slate-200 bg-white/90 px-4 backdrop-blur lg:hidden">
          <button type="button" aria-label={open ? 'Close admin menu' : 'Open admin menu'} aria-expanded={open} onClick={() => setOpen(!open)} className="rounded-lg p-2 hover:bg-slate-100">
            <svg width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
              <path d="M4 7h16M4 12h16M4 17h16" />
            </svg>
          </button>
          <span className="font-semibold text-ink">Admin</span>
        </header>
        <main className="mx-auto max-w-6xl px-4 py-8 sm:px-6 lg:px-8">{children}</main>
      </div>
    </div>
  );
}

/**
 * Starts the app: the first screen's code downloads while the session is checked, not after it;
 * for an admin, so do the screen's first list calls. Runs in the browser as this module loads,
 * before React renders anything.
 */
function start(): void {
  const first = resolve($path.get())?.route;
  // A failed download shows when the screen itself asks for its code.
  void first?.load().catch(() => undefined);
  void loadSession().then(() => {
    const session = $session.get();
    if (session.status === 'ready' && session.user?.isAdmin) for (const path of first?.firstCalls?.() ?? []) prefetch(path);
  });
}
if (typeof window !== 'undefined') start();

export default function AdminApp() {
  const session = useStore($session);
  const path = useStore($path);
  // An admin who must turn on two-factor first sees only Account → Security (the API refuses everything else meanwhile).
  const mustSetUp = session.status === 'ready' && Boolean(session.user?.mustSetUpTwoFactor);
  const resolved = resolve(mustSetUp ? SECURITY_PATH : path);

  let body: React.ReactNode;
  if (session.status === 'loading') body = <Spinner />;
  else if (!session.user?.isAdmin) body = <Denied mode={resolved?.route.guard ?? 'redirect'} />;
  else
    body = (
      <Shell username={session.user.username}>
        {resolved ? (
          <Suspense fallback={<Spinner />}>
            <resolved.route.screen key={path} params={resolved.params} />
          </Suspense>
        ) : (
          <div className="py-20 text-center">
            <h1 className="text-2xl font-bold text-ink">404 Page Not Found</h1>
            <p className="mt-2 text-slate-600">This admin page does not exist.</p>
          </div>
        )}
      </Shell>
    );
  return (
    <>
      {body}
      <Toaster />
    </>
  );
}
