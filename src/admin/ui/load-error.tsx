// What a screen shows in place of its list before the list is there: a spinner while it first
// loads, or the failure with a retry. Every admin list screen goes through `loadState`.
import type { ReactNode } from 'react';
import type { Query } from '#admin/lib/query.ts';
import { Spinner } from './controls';

export function LoadError({ title, onRetry }: { title: string; onRetry: () => void }) {
  return (
    <div role="alert" className="rounded-2xl border border-red-200 bg-red-50 px-6 py-10 text-center">
      <p className="text-base font-semibold text-red-800">{title}</p>
      <p className="mt-1 text-sm text-red-700">Check your connection and try again.</p>
      <button type="button" className="mt-5 btn-secondary" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}

/**
 * The spinner (labelled `loading`) until the first answer, the failure (titled `failed`) when
 * there is no data to show; null once there is data, for the screen to render its list.
 */
export function loadState(query: Pick<Query<unknown>, 'data' | 'error' | 'loading' | 'refetch'>, text: { loading: string; failed: string }): ReactNode | null {
  if (query.loading && !query.data) return <Spinner label={text.loading} />;
  if (query.error && !query.data) return <LoadError title={text.failed} onRetry={() => void query.refetch()} />;
  return null;
}
