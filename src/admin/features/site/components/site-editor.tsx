// /admin/site: the owner edits the site document (every word, price, picture and link visitors
// read outside posts, episodes and products). 'Save draft' keeps it unseen; 'Preview' shows the
// public pages from the draft to this admin; 'Publish' makes it live; 'Discard draft' drops it.
// Every publish is a revision that can be restored (after asking, when that replaces a draft,
// which is kept as a revision too); the document can be exported and imported.
import { API } from '#shared/api-paths.ts';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useQuery } from '#admin/lib/query.ts';
import { PageHeader } from '#admin/ui/controls.tsx';
import { ConfirmDialog } from '#admin/ui/dialog.tsx';
import { FileButton } from '#admin/ui/file-button.tsx';
import { loadState } from '#admin/ui/load-error.tsx';
import { formatShortDate } from '#shared/format.ts';
import { toast } from '#lib/toast.ts';
import { ApiError } from '#lib/api-client.ts';
import {
  discardDraft,
  exportSite,
  loadOlderRevisions,
  loadSite,
  publishDraft,
  restoreRevision,
  saveDraft,
  SiteDocumentSchema,
  type SiteDocument,
  type SiteRevision,
  type SiteState,
} from '#admin/features/site/api/site.ts';
import { EditingContext, fieldId, pathKey, setIn, type Path } from './fields.tsx';
import { SiteSections } from './site-sections.tsx';

type Issue = { path: readonly PropertyKey[]; message: string };

/** One message per path: the first the schema gives. */
function errorsOf(issues: readonly Issue[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const i of issues) out[pathKey(i.path as Path)] ??= i.message;
  return out;
}

/** Puts the keyboard on the first control with an error (or its list). */
function focusFirst(errors: Record<string, string>) {
  const first = Object.keys(errors)[0];
  if (!first) return;
  const el = document.getElementById(fieldId(first.split('.')));
  el?.focus();
  el?.scrollIntoView({ block: 'center' });
}

/** A write refused because the site changed elsewhere since this screen loaded it (412). */
const changedElsewhere = (err: unknown) => err instanceof ApiError && err.status === 412;

/** A refused write, to do again over the change made elsewhere (at the version now), and what its button says; none for a publish. */
interface Redo {
  run: (version: number) => Promise<SiteState>;
  label: string;
  done: string;
}

/** The labels of a revision: who made it (or what it is), and what it changed. */
function describe(r: SiteRevision): { who: string; what: string } {
  const what = r.first ? 'The site as it started' : r.changed.length ? `Changed: ${r.changed.join(', ')}` : 'No changes';
  if (r.kind === 'draft') return { who: 'draft replaced by a restore', what };
  return { who: r.publishedBy ?? (r.first ? 'first version' : 'a deleted user'), what };
}

function Revisions({
  version,
  disabled,
  hasDraft,
  dirty,
  onRestored,
  onConflict,
}: {
  version: number;
  disabled: boolean;
  /** A saved draft, or changes not saved yet: a restore replaces them, so it asks first. */
  hasDraft: boolean;
  dirty: boolean;
  onRestored: (state: SiteState) => void;
  onConflict: (redo: Redo) => void;
}) {
  const list = useQuery<SiteRevision[]>(API.siteRevisions, 'Failed to load the versions');
  const [older, setOlder] = useState<SiteRevision[]>([]);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [busy, setBusy] = useState<number | null>(null);
  const [asking, setAsking] = useState<SiteRevision | null>(null);
  const shown = [...(list.data ?? []), ...older];
  const last = shown.at(-1);
  const showOlder = async () => {
    if (!last) return;
    setLoadingOlder(true);
    try {
      const page = await loadOlderRevisions(last.id);
      setOlder((o) => [...o, ...page]);
    } catch {
      toast({ title: 'Error', description: 'Failed to load older versions. Please try again.', variant: 'destructive' });
    } finally {
      setLoadingOlder(false);
    }
  };
  const restore = async (r: SiteRevision) => {
    setAsking(null);
    setBusy(r.id);
    try {
      onRestored(await restoreRevision(r.id, version));
      toast({ title: 'Version restored as the draft', description: 'Publish to make it live.' });
    } catch (err) {
      // mutate() has said anything else.
      if (changedElsewhere(err)) onConflict({ run: (v) => restoreRevision(r.id, v), label: 'Restore it over that', done: 'Version restored as the draft' });
    } finally {
      setBusy(null);
    }
  };
  const when = (r: SiteRevision) => formatShortDate(r.publishedAt);
  return (
    <section aria-labelledby="site-revisions" className="space-y-3 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="site-revisions" className="text-lg font-semibold text-ink">
        Published versions
      </h2>
      {loadState(list, { loading: 'Loading versions', failed: 'Failed to load the versions' }) ?? (
        <>
          <ol className="divide-y divide-slate-100">
            {shown.map((r) => {
              const { who, what } = describe(r);
              return (
                <li key={r.id} className="flex flex-wrap items-center justify-between gap-3 py-3 text-sm">
                  <span>
                    <strong className="text-ink">{when(r)}</strong> {new Date(r.publishedAt).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' })} · {who}
                    {r.live && <span className="ml-2 rounded bg-emerald-50 px-1.5 py-0.5 text-xs font-semibold text-emerald-800">Live</span>}
                    <span className="block text-slate-600">{what}</span>
                  </span>
                  {!r.live && (
                    <button
                      type="button"
                      className="btn-secondary px-3 py-1.5"
                      disabled={disabled || busy !== null}
                      onClick={() => (hasDraft || dirty ? setAsking(r) : void restore(r))}
                      aria-label={`Restore the version of ${when(r)} (${r.id})`}
                    >
                      Restore
                    </button>
                  )}
                </li>
              );
            })}
          </ol>
          {last && !last.first && (
            <button type="button" className="btn-secondary py-1.5 text-sm" disabled={loadingOlder} onClick={() => void showOlder()}>
              {loadingOlder ? 'Loading...' : 'Show older versions'}
            </button>
          )}
        </>
      )}
      <ConfirmDialog
        open={asking !== null}
        title="Replace your draft?"
        description={
          asking &&
          [
            `Restoring the version of ${when(asking)} makes it the draft.`,
            hasDraft && 'Your current draft is replaced; it is kept in this list as a replaced draft, so you can restore it.',
            dirty && 'Changes you have not saved are lost.',
          ]
            .filter(Boolean)
            .join(' ')
        }
        confirmLabel="Replace the draft"
        onConfirm={() => asking && void restore(asking)}
        onCancel={() => setAsking(null)}
      />
    </section>
  );
}

export default function SiteEditor() {
  const query = useQuery<SiteState>(API.site, 'Failed to load the site');
  const [state, setState] = useState<SiteState | null>(null);
  const [doc, setDoc] = useState<SiteDocument | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [revisionsKey, setRevisionsKey] = useState(0);
  const [formKey, setFormKey] = useState(0);
  /**
   * A write was refused: the site changed elsewhere since this screen loaded it. What is typed
   * here stays until the owner chooses; `redo` (null for a publish) does the refused write again.
   */
  const [conflict, setConflict] = useState<{ redo: Redo | null } | null>(null);
  const form = useRef<HTMLFormElement>(null);
  /** The version of the state on screen, for the next write (an action right after another reads the newest). */
  const versionNow = useRef(0);

  /** The document on screen now, for a write that answers after the owner typed more. */
  const docNow = useRef<SiteDocument | null>(null);
  useEffect(() => {
    docNow.current = doc;
  }, [doc]);

  /** Shows `next`; with `keepTyped`, what was typed here stays on screen (and unsaved) instead. */
  const load = (next: SiteState, keepTyped = false) => {
    versionNow.current = next.version;
    setState(next);
    setErrors({});
    setConflict(null);
    if (keepTyped) return;
    setDoc(next.draft ?? next.published);
    // Controls that keep state of their own (list rows' keys, an amount as typed) start again from the new document.
    setFormKey((k) => k + 1);
  };
  useEffect(() => {
    if (query.data) load(query.data);
  }, [query.data]);

  const editing = useMemo(
    () =>
      doc && {
        doc,
        errors,
        set: (path: Path, value: unknown) => {
          setDoc((d) => (d ? setIn(d, path, value) : d));
          setErrors((e) => {
            const key = pathKey(path);
            if (!(key in e)) return e;
            const { [key]: _gone, ...rest } = e;
            return rest;
          });
        },
      },
    [doc, errors],
  );

  /**
   * Runs an action that answers the new state; the screen shows that state after. `redo` is
   * offered if the site changed elsewhere meanwhile. With `keepTyped` (a save or a publish of
   * what is on screen), what the owner typed while it ran stays, as unsaved changes.
   */
  const act = async (run: () => Promise<SiteState>, done: string, redo: Redo | null = null, keepTyped = false) => {
    setBusy(true);
    const before = docNow.current;
    try {
      const next = await run();
      // Compared by content: a save just before a publish replaced the document with an equal one.
      load(next, keepTyped && JSON.stringify(docNow.current) !== JSON.stringify(before));
      toast({ title: done });
      setRevisionsKey((k) => k + 1);
      return true;
    } catch (err) {
      if (changedElsewhere(err)) {
        setConflict({ redo });
        return false;
      }
      const found = errorsOf(err instanceof ApiError ? err.issues : []);
      setErrors(found);
      focusFirst(found);
      return false;
    } finally {
      setBusy(false);
    }
  };

  /** The site as it is now (buttons held meanwhile), or null when it could not be loaded (said so). */
  const latest = async (): Promise<SiteState | null> => {
    setBusy(true);
    try {
      return await loadSite();
    } catch {
      toast({ title: 'Error', description: 'Failed to load the site. Please try again.', variant: 'destructive' });
      setBusy(false);
      return null;
    }
  };
  /** After a refused write: the site as it is now, replacing what was typed here. */
  const takeLatest = async () => {
    const now = await latest();
    if (!now) return;
    load(now);
    toast({ title: 'Loaded the latest version' });
    setBusy(false);
  };
  /** After a refused write: the same write again, over the change made elsewhere. */
  const redoOver = async (redo: Redo) => {
    const now = await latest();
    if (now) await act(() => redo.run(now.version), redo.done, redo, true);
  };

  const save = async (e?: FormEvent) => {
    e?.preventDefault();
    if (!doc) return false;
    const checked = SiteDocumentSchema.safeParse(doc);
    if (!checked.success) {
      const found = errorsOf(checked.error.issues);
      setErrors(found);
      focusFirst(found);
      toast({ title: 'Please check the highlighted fields', variant: 'destructive' });
      return false;
    }
    const mine = checked.data;
    // 'Save mine over it' saves what is on screen by then: the owner may have typed on after the refusal.
    const onScreen = () => {
      const now = SiteDocumentSchema.safeParse(docNow.current);
      return now.success ? now.data : mine;
    };
    return act(() => saveDraft(mine, versionNow.current), 'Draft saved', { run: (v) => saveDraft(onScreen(), v), label: 'Save mine over it', done: 'Draft saved' }, true);
  };

  const dirty = state && doc && JSON.stringify(doc) !== JSON.stringify(state.draft ?? state.published);
  const publish = async () => {
    if (dirty && !(await save())) return;
    // A save just made moved the version on: publish names the one it answered.
    await act(() => publishDraft(versionNow.current), 'Published', null, true);
  };

  const download = async () => {
    try {
      const blob = await exportSite();
      const a = document.createElement('a');
      a.href = URL.createObjectURL(blob);
      a.download = `site-${new Date().toISOString().slice(0, 10)}.json`;
      a.click();
      URL.revokeObjectURL(a.href);
    } catch {
      toast({ title: 'Error', description: 'Failed to export the site. Please try again.', variant: 'destructive' });
    }
  };

  const importFile = async (file: File) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(await file.text());
    } catch {
      toast({ title: 'Import failed', description: 'That file is not a site export (not JSON).', variant: 'destructive' });
      return;
    }
    const checked = SiteDocumentSchema.safeParse(parsed);
    if (!checked.success) {
      const first = checked.error.issues[0]!;
      toast({ title: 'Import failed', description: `${first.path.join('.')}: ${first.message}. Nothing was changed.`, variant: 'destructive' });
      return;
    }
    const imported = checked.data;
    await act(() => saveDraft(imported, versionNow.current), 'Imported as the draft', { run: (v) => saveDraft(imported, v), label: 'Import it over that', done: 'Imported as the draft' });
  };

  return (
    <>
      <PageHeader title="Site" subtitle="The words, prices, pictures and links of your pages" />
      {loadState(query, { loading: 'Loading the site', failed: 'Failed to load the site' }) ??
        (state && doc && editing && (
          <div className="grid gap-8 xl:grid-cols-[1fr_20rem]">
            <form key={formKey} ref={form} noValidate onSubmit={(e) => void save(e)} className="min-w-0 space-y-8" aria-label="Site document">
              <div className="sticky top-0 z-20 flex flex-wrap items-center gap-2 rounded-2xl border border-slate-200 bg-white/95 p-3 shadow-sm backdrop-blur">
                <p role="status" className="mr-auto text-sm text-slate-600">
                  {dirty ? 'Unsaved changes' : state.draft ? 'Draft saved, not published' : 'Everything is published'}
                </p>
                <button type="submit" className="btn-secondary" disabled={busy}>
                  Save draft
                </button>
                <a href={API.sitePreview('/')} target="_blank" rel="noopener" className={`btn-secondary ${state.draft ? '' : 'pointer-events-none opacity-50'}`} aria-disabled={!state.draft}>
                  Preview
                </a>
                <button type="button" className="btn-primary" disabled={busy || (!state.draft && !dirty)} onClick={() => void publish()}>
                  Publish
                </button>
                <button
                  type="button"
                  className="btn-secondary"
                  disabled={busy || !state.draft}
                  onClick={() => void act(() => discardDraft(versionNow.current), 'Draft discarded', { run: (v) => discardDraft(v), label: 'Discard that draft too', done: 'Draft discarded' })}
                >
                  Discard draft
                </button>
              </div>
              {conflict && (
                <div role="alert" className="space-y-3 rounded-2xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950">
                  <p>
                    <strong>The site was changed in another tab or by another admin since you opened it.</strong> Nothing was changed, and the form still shows what you had.
                  </p>
                  <div className="flex flex-wrap gap-2">
                    <button type="button" className="btn-secondary py-1.5" disabled={busy} onClick={() => void takeLatest()}>
                      Load the latest version
                    </button>
                    {conflict.redo && (
                      <button type="button" className="btn-secondary py-1.5" disabled={busy} onClick={() => void redoOver(conflict.redo!)}>
                        {conflict.redo.label}
                      </button>
                    )}
                  </div>
                </div>
              )}
              <EditingContext.Provider value={editing}>
                <SiteSections />
              </EditingContext.Provider>
            </form>
            <aside className="space-y-6">
              <section aria-labelledby="site-transfer" className="space-y-3 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
                <h2 id="site-transfer" className="text-lg font-semibold text-ink">
                  Export and import
                </h2>
                <p className="text-sm text-slate-600">The published site as a JSON file; an imported file becomes the draft.</p>
                <div className="flex flex-wrap gap-2">
                  <button type="button" className="btn-secondary py-2" onClick={() => void download()}>
                    Export
                  </button>
                  <FileButton id="site-import" label="Import" accept="application/json,.json" disabled={busy} onFile={(f) => void importFile(f)} />
                </div>
              </section>
              <Revisions
                key={revisionsKey}
                version={state.version}
                disabled={busy}
                hasDraft={state.draft !== null}
                dirty={Boolean(dirty)}
                onRestored={load}
                onConflict={(redo) => setConflict({ redo })}
              />
            </aside>
          </div>
        ))}
    </>
  );
}
