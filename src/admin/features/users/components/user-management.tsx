// /admin/users: approve new accounts, grant or take admin rights, delete accounts.
// The signed-in admin cannot change their own admin flag, revoke their own approval or
// delete themselves (the server refuses too), so their own row's controls are disabled.
import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { useConfirmDelete } from '#admin/lib/confirm-delete.ts';
import { $session } from '#admin/lib/session.ts';
import { Badge, EmptyState, PageHeader, SearchInput, StatCard } from '#admin/ui/controls.tsx';
import { ConfirmDialog } from '#admin/ui/dialog.tsx';
import { EmailText } from '#admin/ui/email-text.tsx';
import { ClockIcon, TrashIcon, UsersIcon, icon } from '#admin/ui/icons.tsx';
import { InlineSwitch } from '#admin/ui/inline-switch.tsx';
import { loadState } from '#admin/ui/load-error.tsx';
import { Pager } from '#admin/ui/pager.tsx';
import { formatCount, formatShortDate } from '#shared/format.ts';
import type { UserUpdate } from '#shared/schemas/user.ts';
import type { AdminUser } from '#admin/features/users/api/users.ts';
import { useUsers } from '#admin/features/users/hooks/use-users.ts';

// Not in the shared icon set; the only one this screen needs on its own.
const ShieldIcon = icon('M12 22s8-4 8-10V5l-8-3-8 3v7c0 6 8 10 8 10z');

/** 'PL' for Pat Lee, else the first two letters of the username. */
const initials = (u: AdminUser) => (u.firstName && u.lastName ? `${u.firstName[0]}${u.lastName[0]}` : u.username.slice(0, 2));

interface RowProps {
  user: AdminUser;
  isSelf: boolean;
  saving: UserUpdate | undefined;
  onChange: (change: UserUpdate) => void;
  onDelete: () => void;
  onUnpause: () => void;
  onResetLink: () => void;
}

function UserRow({ user, isSelf, saving, onChange, onDelete, onUnpause, onResetLink }: RowProps) {
  const approved = saving?.isApproved ?? user.isApproved;
  const admin = saving?.isAdmin ?? user.isAdmin;
  const busy = saving !== undefined;
  const fullName = [user.firstName, user.lastName].filter(Boolean).join(' ');
  const selfNote = isSelf ? 'You cannot change this for your own account' : undefined;
  return (
    <li className="flex flex-col gap-4 px-5 py-4 md:flex-row md:items-center md:justify-between">
      <div className="flex min-w-0 items-start gap-3">
        <span aria-hidden="true" className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-slate-100 text-sm font-semibold text-slate-700 uppercase">
          {initials(user)}
        </span>
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="font-semibold break-all text-ink">{user.username}</h3>
            {isSelf && <span className="text-xs font-medium text-slate-500">(you)</span>}
            <span role="group" aria-label="Account status" className="flex flex-wrap gap-1.5">
              {user.isAdmin && <Badge tone="blue">Admin</Badge>}
              {user.isApproved ? <Badge tone="green">Approved</Badge> : <Badge tone="amber">Pending</Badge>}
              {user.signInPausedUntil && <Badge tone="amber">Sign-in paused</Badge>}
            </span>
          </div>
          {user.signInPausedUntil && (
            <p className="mt-1 text-xs text-amber-800">
              Failed sign-ins paused this account until <time dateTime={user.signInPausedUntil}>{new Date(user.signInPausedUntil).toLocaleTimeString()}</time>.{' '}
              <button type="button" className="font-semibold underline" onClick={onUnpause}>
                Let {user.username} sign in now
              </button>
            </p>
          )}
          <p className="mt-0.5 text-sm text-slate-600">
            {fullName && <span className="text-slate-700">{fullName} · </span>}
            {user.email ? (
              <EmailText email={user.email} />
            ) : (
              <>
                <span aria-hidden="true">—</span>
                <span className="sr-only">No e-mail</span>
              </>
            )}
          </p>
          <p className="mt-0.5 text-xs text-slate-500">
            Joined <time dateTime={user.createdAt}>{formatShortDate(user.createdAt)}</time>
          </p>
        </div>
      </div>
      <div className="flex items-center gap-5 md:shrink-0">
        <button type="button" className="btn-secondary px-3 py-1.5 text-xs" onClick={onResetLink} aria-label={`Send reset link to ${user.username}`}>
          {user.email ? 'Send reset link' : 'Reset link'}
        </button>
        <InlineSwitch label="Approved" subject={user.username} checked={approved} disabled={busy || isSelf} note={selfNote} onChange={(v) => onChange({ isApproved: v })} />
        <InlineSwitch label="Admin" subject={user.username} checked={admin} disabled={busy || isSelf} note={selfNote} onChange={(v) => onChange({ isAdmin: v })} />
        <button
          type="button"
          aria-label={`Delete user ${user.username}`}
          title={isSelf ? 'You cannot delete your own account' : 'Delete user'}
          onClick={onDelete}
          disabled={isSelf || busy}
          className="ml-auto rounded-lg p-2 text-slate-500 transition hover:bg-red-50 hover:text-red-700 focus-visible:outline-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-40 disabled:hover:bg-transparent disabled:hover:text-slate-500 md:ml-0"
        >
          <TrashIcon />
        </button>
      </div>
    </li>
  );
}

export default function UserManagement() {
  const session = useStore($session);
  const me = session.status === 'ready' ? session.user?.id : undefined;
  const [search, setSearch] = useState('');
  const query = useUsers(search);
  const { data, items: rows, saving, update, remove, unpause, resetLink, handOver, clearHandOver } = query;
  const deletion = useConfirmDelete(remove);
  const toDelete = deletion.target;

  const stats = data?.stats;
  const everyone = stats?.total ?? 0;
  const matching = data?.total ?? 0;
  const searching = search.trim() !== '';
  /** A count, or a dash until the list has loaded (never a misleading 0). */
  const known = (n: number | undefined) => n ?? '—';
  const clearSearch = () => {
    setSearch('');
    // The button goes away with the empty state: keep the keyboard where the search is.
    document.getElementById('user-search')?.focus();
  };

  let list: React.ReactNode;
  const pending = loadState(query, { loading: 'Loading users', failed: 'Failed to fetch users' });
  if (pending) list = pending;
  else if (everyone === 0) list = <EmptyState title="No users yet" text="People who register on the site will appear here." />;
  else if (rows.length === 0)
    list = (
      <EmptyState
        title="No users found"
        text={`No username or e-mail matches “${search.trim()}”.`}
        action={
          <button type="button" className="btn-secondary" onClick={clearSearch}>
            Clear search
          </button>
        }
      />
    );
  else
    list = (
      <>
        <ul className="divide-y divide-slate-100 rounded-2xl border border-slate-200 bg-white shadow-sm">
          {rows.map((u) => (
            <UserRow
              key={u.id}
              user={u}
              isSelf={u.id === me}
              saving={saving[u.id]}
              onChange={(change) => void update(u, change)}
              onDelete={() => deletion.ask(u)}
              onUnpause={() => void unpause(u)}
              onResetLink={() => void resetLink(u)}
            />
          ))}
        </ul>
        <Pager label="User pages" list={query} />
      </>
    );

  return (
    <>
      <PageHeader title="User Management" subtitle="Approve new accounts, manage admin access and remove accounts." />
      {handOver && (
        <section aria-labelledby="hand-over-heading" className="mb-4 rounded-2xl border border-amber-300 bg-amber-50 px-5 py-4">
          <h2 id="hand-over-heading" className="text-sm font-semibold text-amber-900">
            Reset link for {handOver.username}
          </h2>
          <p className="mt-1 text-sm text-amber-900">This account has no e-mail address (or e-mail is not set up): give them this link. It works once, for one hour, and is not shown again.</p>
          <div className="mt-3 flex flex-wrap items-center gap-2">
            <input readOnly aria-label={`Reset link for ${handOver.username}`} value={handOver.url} className="input max-w-xl flex-1 font-mono text-xs" onFocus={(e) => e.currentTarget.select()} />
            <button type="button" className="btn-secondary" onClick={() => void navigator.clipboard?.writeText(handOver.url)}>
              Copy reset link
            </button>
            <button type="button" className="btn-secondary" onClick={clearHandOver}>
              Done
            </button>
          </div>
        </section>
      )}

      <section aria-label="User statistics" className="mb-8 grid gap-4 sm:grid-cols-3">
        <StatCard label="Total Users" value={known(stats?.total)} detail={stats && `${stats.approved} approved`} icon={<UsersIcon />} />
        <StatCard label="Admin Users" value={known(stats?.admins)} detail="Can use the admin area" icon={<ShieldIcon />} />
        <StatCard label="Pending Approval" value={known(stats?.pending)} detail={stats && (stats.pending ? 'Waiting for you to approve' : 'Nobody is waiting')} icon={<ClockIcon />} />
      </section>

      <section aria-labelledby="users-heading">
        <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <div>
            <h2 id="users-heading" className="text-lg font-semibold text-ink">
              Users
            </h2>
            {everyone > 0 && (
              <p className="text-sm text-slate-600" role="status">
                {searching ? `Showing ${formatCount(matching)} of ${formatCount(everyone)}` : `${formatCount(everyone)} in total, newest first`}
              </p>
            )}
          </div>
          {everyone > 0 && <SearchInput id="user-search" label="Search users by username or e-mail" placeholder="Search by username or e-mail..." value={search} onChange={setSearch} />}
        </div>
        {list}
      </section>

      <ConfirmDialog
        open={toDelete !== null}
        title="Delete user?"
        description={toDelete ? `Are you sure you want to delete ${toDelete.username}? This action cannot be undone.` : ''}
        confirmLabel={deletion.busy ? 'Deleting...' : 'Delete User'}
        busy={deletion.busy}
        onConfirm={() => void deletion.confirm()}
        onCancel={deletion.cancel}
      />
    </>
  );
}
