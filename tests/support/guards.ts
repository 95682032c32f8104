// The requests an API must refuse (callers without the rights, bodies that fail validation),
// for tests that run the same checks for each.
import { expect } from 'vitest';
import { Client } from './factories.ts';
import type { TestServer } from './server.ts';

export interface RefusedCaller {
  /** How a test title names the caller. */
  who: string;
  /** The status the caller is answered. */
  status: 401 | 403;
  /** The caller's client (a fresh anonymous one per call, or the logged-in non-admin). */
  as: () => Client;
}

/**
 * The cases of a test run once per refused caller: an anonymous visitor (answered 401) and a
 * logged-in non-admin (answered 403), each with the values the test gives it. `file` answers
 * the file's server and non-admin user: a getter, because they are only there once the file's
 * beforeAll has run.
 */
export function refusedCallers<T extends object>(file: () => { server: TestServer; user: Client }, anonymous: T, nonAdmin: T): (RefusedCaller & T)[] {
  return [
    { who: 'an anonymous visitor', status: 401, as: () => new Client(file().server), ...anonymous },
    { who: 'a non-admin', status: 403, as: () => file().user, ...nonAdmin },
  ];
}

/** POST to `path`, PUT and DELETE to `path/id` as `as`, each answered `status`. */
export async function expectWritesRefused(as: Client, status: number, path: string, id: number, bodies: { create: unknown; update: unknown }) {
  expect((await as.post(path, bodies.create)).status).toBe(status);
  expect((await as.put(`${path}/${id}`, bodies.update)).status).toBe(status);
  expect((await as.delete(`${path}/${id}`)).status).toBe(status);
}

/** A validation issue as a 400 lists it. */
export interface Issue {
  path: (string | number)[];
  message: string;
}

/** Sends the request, expects 400 with the row count unchanged, and answers the issues listed. */
export async function expectInvalid(send: () => Promise<{ status: number; body: { issues: Issue[] } }>, countRows: () => number): Promise<Issue[]> {
  const before = countRows();
  const res = await send();
  expect(res.status).toBe(400);
  expect(countRows()).toBe(before);
  return res.body.issues;
}
