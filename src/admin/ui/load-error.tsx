// What a screen shows in place of its list when loading it failed: the reason and a retry.
export function LoadError({ title, onRetry }: { title: string; onRetry: () => void }) {
  return (
    <div role="alert" className="rounded-2xl border border-red-200 bg-red-50 px-6 py-10 text-center">
      <p className="text-base font-semibold text-red-800">{title}</p>
      <p className="mt-1 text-sm text-red-700">Check your connection and try again.</p>
      <button type="button" className="btn-secondary mt-5" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}
