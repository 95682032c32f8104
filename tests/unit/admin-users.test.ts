import { describe, expect, it } from 'vitest';
import type { AdminUser } from '#admin/features/users/api/users.ts';
import { filterUsers, newestFirst, userStats } from '#admin/features/users/components/user-filters.ts';

const user = (username: string, over: Partial<AdminUser> = {}): AdminUser => ({
  id: username,
  username,
  email: `${username}@example.com`,
  firstName: null,
  lastName: null,
  profileImageUrl: null,
  isAdmin: false,
  isApproved: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  signInPausedUntil: null,
  ...over,
});

describe('userStats', () => {
  it('counts users, approved, admins and pending', () => {
    const list = [user('root', { isAdmin: true }), user('ann'), user('bob', { isApproved: false }), user('cy', { isApproved: false, email: null })];
    expect(userStats(list)).toEqual({ total: 4, approved: 2, admins: 1, pending: 2 });
  });

  it('is all zeros for no users', () => {
    expect(userStats([])).toEqual({ total: 0, approved: 0, admins: 0, pending: 0 });
  });
});

describe('filterUsers', () => {
  const list = [user('Alice', { email: 'alice@corp.example' }), user('bob', { email: null }), user('carol', { email: 'c@ALICE.example' })];

  it('matches username or e-mail, case-insensitively', () => {
    expect(filterUsers(list, 'ALICE').map((u) => u.username)).toEqual(['Alice', 'carol']);
    expect(filterUsers(list, ' bob ').map((u) => u.username)).toEqual(['bob']);
  });

  it('copes with users without an e-mail and keeps everyone for a blank query', () => {
    expect(filterUsers(list, '@')).toHaveLength(2);
    expect(filterUsers(list, '')).toHaveLength(3);
  });
});

describe('newestFirst', () => {
  it('orders by join date, newest first, then by name, without changing the input', () => {
    const list = [user('old', { createdAt: '2025-01-01T00:00:00.000Z' }), user('zed', { createdAt: '2026-02-01T00:00:00.000Z' }), user('amy', { createdAt: '2026-02-01T00:00:00.000Z' })];
    expect(newestFirst(list).map((u) => u.username)).toEqual(['amy', 'zed', 'old']);
    expect(list.map((u) => u.username)).toEqual(['old', 'zed', 'amy']);
  });
});
