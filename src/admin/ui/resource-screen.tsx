// The skeleton of an admin screen that manages one kind of thing (episodes, products): a header
// with 'New …', stat cards, the list (loading, failure and empty states included), the
// create/edit dialog and the delete confirmation. A screen is then its configuration: how an
// item is shown, edited and deleted.
import { useState, type ReactNode } from 'react';
import { useConfirmDelete } from '#admin/lib/confirm-delete.ts';
import type { Query } from '#admin/lib/query.ts';
import { EmptyState, PageHeader } from '#admin/ui/controls.tsx';
import { ConfirmDialog } from '#admin/ui/dialog.tsx';
import { PlusIcon } from '#admin/ui/icons.tsx';
import { loadState } from '#admin/ui/load-error.tsx';
import { SegmentedControl, type SegmentOption } from '#admin/ui/segmented.tsx';

/** Which item the dialog edits: null for a new one; the whole value null when it is closed. */
export type Editing<T> = { item: T | null } | null;

export interface ItemActions {
  edit: () => void;
  remove: () => void;
}

/** A choice above the list that narrows it (the first option shows everything). */
export interface ListFilter<T> {
  label: string;
  options: SegmentOption<string>[];
  keep: (item: T, value: string) => boolean;
}

interface Props<T> {
  query: Query<T[]>;
  title: string;
  subtitle: string;
  /** 'Episode': the buttons say 'New Episode', 'Create First Episode', 'Delete Episode'. */
  noun: string;
  /** The list's heading ('Episodes'). */
  plural: string;
  /** Stat cards, given the loaded items (or [] while loading); a value shows '–' until loaded. */
  stats: { label: string; className: string; cards: (items: T[], value: (v: number | string) => number | string) => ReactNode };
  list: { loading: string; failed: string; empty: { title: string; text: string }; className: string; item: (item: T, actions: ItemActions) => ReactNode; filter?: ListFilter<T> };
  /** Deletes at the API and says so; throws (after toasting) when it failed. */
  remove: (item: T) => Promise<void>;
  confirmText: (item: T) => string;
  dialog: (editing: T | null, done: { close: () => void; saved: () => void }) => ReactNode;
  /** The header button's label when it is not 'New <noun>' ('Add Redirect'). */
  newLabel?: string;
  /** Disables 'New …' (e.g. until the list, which numbers the next item, is loaded). */
  newDisabled?: boolean;
  /** The editing state, when the screen opens the dialog itself (a deep link). */
  editing?: [Editing<T>, (e: Editing<T>) => void];
}

export function ResourceScreen<T>({ query, title, subtitle, noun, plural, stats, list, remove, confirmText, dialog, newLabel, newDisabled, editing: external }: Props<T>) {
  const own = useState<Editing<T>>(null);
  const [editing, setEditing] = external ?? own;
  const items = query.data ?? [];
  const [filterValue, setFilterValue] = useState(list.filter?.options[0]?.value ?? '');
  const filtered = list.filter && filterValue !== list.filter.options[0]?.value ? items.filter((item) => list.filter!.keep(item, filterValue)) : items;
  const deletion = useConfirmDelete(async (item: T) => {
    await remove(item);
    await query.refetch();
  });
  const deleting = deletion.target;
  const headingId = `${plural.toLowerCase().replace(/\W+/g, '-')}-heading`;

  const newButton = (label: string) => (
    <button type="button" className="btn-primary" onClick={() => setEditing({ item: null })} disabled={newDisabled}>
      <PlusIcon size={16} />
      {label}
    </button>
  );

  return (
    <>
      <PageHeader title={title} subtitle={subtitle} actions={newButton(newLabel ?? `New ${noun}`)} />

      <section aria-label={stats.label} className={stats.className}>
        {stats.cards(items, (v) => (query.data ? v : '–'))}
      </section>

      <section aria-labelledby={headingId} className="mt-8">
        <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
          <h2 id={headingId} className="text-sm font-semibold tracking-wide text-slate-500 uppercase">
            {plural}
          </h2>
          {list.filter && <SegmentedControl label={list.filter.label} value={filterValue} onChange={setFilterValue} options={list.filter.options} />}
        </div>
        {loadState(query, { loading: list.loading, failed: list.failed }) ??
          (items.length === 0 ? (
            <EmptyState title={list.empty.title} text={list.empty.text} action={newButton(`Create First ${noun}`)} />
          ) : filtered.length === 0 ? (
            <EmptyState title={`No ${plural.toLowerCase()} found`} text={`No ${plural.toLowerCase()} match this filter.`} />
          ) : (
            <ul className={list.className}>{filtered.map((item) => list.item(item, { edit: () => setEditing({ item }), remove: () => deletion.ask(item) }))}</ul>
          ))}
      </section>

      {editing &&
        dialog(editing.item, {
          close: () => setEditing(null),
          saved: () => {
            setEditing(null);
            void query.refetch();
          },
        })}

      <ConfirmDialog
        open={deleting !== null}
        description={deleting === null ? '' : confirmText(deleting)}
        confirmLabel={deletion.busy ? 'Deleting...' : `Delete ${noun}`}
        busy={deletion.busy}
        onConfirm={() => void deletion.confirm()}
        onCancel={deletion.cancel}
      />
    </>
  );
}
