// Data hooks for the admin: queries never go stale, never refetch on focus or interval and
// never retry (an admin sees exactly what the server said, once); mutations don't retry. A 401 anywhere means the session is
// gone: one toast, then the login page after 0.5 s.
import { API } from '#shared/api-paths.ts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, ApiError, errorMessage, isUnauthorized } from '#lib/api-client.ts';
import { toast } from '#lib/toast.ts';

export const ADMIN_REDIRECT_MS = 500;

let redirecting = false;
/** Handles an expired session; returns true when it did. */
export function handleUnauthorized(err: unknown): boolean {
  if (!isUnauthorized(err)) return false;
  if (!redirecting) {
    redirecting = true;
    toast({ title: 'Unauthorized', description: 'You are logged out. Logging in again...', variant: 'destructive' });
    window.setTimeout(() => window.location.assign(API.login), ADMIN_REDIRECT_MS);
  }
  return true;
}

/** Answers asked for before their screen was on the page, by path; a screen takes one within EARLY_MS. */
const early = new Map<string, { at: number; answer: Promise<unknown> }>();
const EARLY_MS = 10_000;

/**
 * GETs `path` now, for a screen whose code is still loading: its useQuery of the same path takes
 * this answer (or failure) instead of asking again.
 */
export function prefetch(path: string): void {
  for (const [key, { at }] of early) if (Date.now() - at >= EARLY_MS) early.delete(key);
  const answer = api('GET', path);
  // The screen that takes it reports a failure; one never taken is dropped.
  answer.catch(() => undefined);
  early.set(path, { at: Date.now(), answer });
}

function takeEarly<T>(path: string): Promise<T> | undefined {
  const hit = early.get(path);
  early.delete(path);
  return hit && Date.now() - hit.at < EARLY_MS ? (hit.answer as Promise<T>) : undefined;
}

export interface Query<T> {
  data: T | undefined;
  error: ApiError | Error | null;
  loading: boolean;
  refetch: () => Promise<void>;
}

/** GETs `path` once, and again when it changes or on refetch. `errorTitle` is toasted on failure. */
export function useQuery<T>(path: string | null, errorTitle?: string): Query<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<ApiError | Error | null>(null);
  const [loading, setLoading] = useState(Boolean(path));
  const current = useRef(path);
  current.current = path;
  /** Numbers the loads: only the newest one's answer (or failure) is shown. */
  const latest = useRef(0);

  const load = useCallback(
    async (target: string) => {
      const mine = ++latest.current;
      setLoading(true);
      try {
        const result = await (takeEarly<T>(target) ?? api<T>('GET', target));
        if (latest.current !== mine) return;
        setData(result);
        setError(null);
      } catch (err) {
        if (latest.current !== mine) return;
        setError(err as Error);
        if (!handleUnauthorized(err) && errorTitle) toast({ title: errorTitle, variant: 'destructive' });
      } finally {
        if (latest.current === mine) setLoading(false);
      }
    },
    [errorTitle],
  );

  useEffect(() => {
    if (path) void load(path);
  }, [path, load]);

  // A reload after a write asks for what is on screen now (the page or search may have changed since the write began).
  const refetch = useCallback(async () => {
    if (current.current) await load(current.current);
  }, [load]);

  return { data, error, loading, refetch };
}

/**
 * For a failed write: toasts the server's message (else `fallback`) unless the session expired.
 * True when it toasted, i.e. when the list should be reloaded to show the truth.
 */
export function reportFailure(err: unknown, fallback: string): boolean {
  if (handleUnauthorized(err)) return false;
  toast({ title: 'Error', description: errorMessage(err, fallback), variant: 'destructive' });
  return true;
}

/** Runs a write; on failure toasts `failure` (unless the session expired) and rethrows. */
export async function mutate<T>(method: string, path: string, body: unknown, failure: { title: string; description?: string }, headers?: Record<string, string>): Promise<T> {
  try {
    return await api<T>(method, path, body, headers);
  } catch (err) {
    // A refused precondition (412: the If-Match the caller sent) is the caller's to show.
    if (!handleUnauthorized(err) && !(err instanceof ApiError && err.status === 412)) toast({ ...failure, variant: 'destructive' });
    throw err;
  }
}
