// Who is using the admin app: what the admin page says (the same answer as GET /api/user), else
// GET /api/user once; null when logged out or on any failure.
import { API } from '#shared/api-paths.ts';
import { atom } from 'nanostores';
import { api, isUnauthorized } from '#lib/api-client.ts';
import { toast, toastOnNextPage } from '#lib/toast.ts';
import type { ClientUser } from '#shared/schemas/auth.ts';

export type SessionState = { status: 'loading' } | { status: 'ready'; user: ClientUser | null };

export const $session = atom<SessionState>({ status: 'loading' });

export async function loadSession(): Promise<void> {
  const embedded = document.getElementById('admin-session')?.textContent;
  if (embedded) {
    $session.set({ status: 'ready', user: JSON.parse(embedded) as ClientUser });
    return;
  }
  try {
    const user = await api<ClientUser>('GET', API.user);
    $session.set({ status: 'ready', user });
  } catch (err) {
    if (!isUnauthorized(err)) toast({ title: 'Failed to fetch user', variant: 'destructive' });
    $session.set({ status: 'ready', user: null });
  }
}

export async function logout(): Promise<void> {
  try {
    await api('POST', API.logout);
    toastOnNextPage({ title: 'Logged out', description: 'You have been logged out successfully.' });
    window.location.assign('/');
  } catch (err) {
    toast({ title: 'Logout failed', description: err instanceof Error ? err.message : undefined, variant: 'destructive' });
  }
}
