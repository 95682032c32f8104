// Controls bound to a place in the site document by its path (['home', 'hero', 'title']): each
// reads its value, writes a changed copy of the document, and shows the error found for that
// path. Lists can be reordered, added to and removed from.
import { createContext, useContext, useState, type ReactNode } from 'react';
import { Switch, TextArea, TextField } from '#admin/ui/controls.tsx';
import { FileButton } from '#admin/ui/file-button.tsx';
import { uploadFile } from '#admin/ui/upload.ts';
import { SITE_ICONS, type SiteDocument } from '#admin/features/site/api/site.ts';

export type Path = readonly (string | number)[];

interface Editing {
  doc: SiteDocument;
  set: (path: Path, value: unknown) => void;
  errors: Record<string, string>;
}

export const EditingContext = createContext<Editing | null>(null);

/** The key an error is filed under, and the id of the control at that path. */
export const pathKey = (path: Path) => path.join('.');
export const fieldId = (path: Path) => `site-${path.join('-')}`;

/** The document with the value at `path` replaced (copies along the path only). */
export function setIn<T>(root: T, path: Path, value: unknown): T {
  if (path.length === 0) return value as T;
  const [head, ...rest] = path;
  const copy = (Array.isArray(root) ? [...(root as unknown[])] : { ...(root as object) }) as Record<string | number, unknown>;
  copy[head!] = setIn(copy[head!], rest, value);
  return copy as T;
}

export function getIn(root: unknown, path: Path): unknown {
  return path.reduce<unknown>((v, key) => (v as Record<string | number, unknown> | undefined)?.[key], root);
}

function useField<T>(path: Path) {
  const ctx = useContext(EditingContext)!;
  return { value: getIn(ctx.doc, path) as T, set: (v: T) => ctx.set(path, v), error: ctx.errors[pathKey(path)], id: fieldId(path) };
}

export function Text({ path, label, hint, long = false }: { path: Path; label: string; hint?: string; long?: boolean }) {
  const f = useField<string>(path);
  const props = { id: f.id, label, hint, error: f.error, value: f.value, onChange: (e: { target: { value: string } }) => f.set(e.target.value) };
  return long ? <TextArea {...props} rows={4} /> : <TextField {...props} />;
}

const dollarsOf = (cents: number) => (Number.isFinite(cents) ? (cents / 100).toFixed(cents % 100 === 0 ? 0 : 2) : '');
/** Cents of what was typed ('4,900', '$4900.50'); NaN when it is not an amount, which the schema then names. */
const centsOf = (typed: string) => {
  const amount = Number(typed.replace(/[$,\s]/g, ''));
  return typed.trim() !== '' && Number.isFinite(amount) ? Math.round(amount * 100) : Number.NaN;
};

/**
 * An amount typed in dollars ('4,900' or '4900.50'), kept in cents. What the owner typed is
 * shown only while it still means the amount at this path ('4,900' stays as typed); once the
 * document holds another amount here (a row moved, removed or restored), the field shows that.
 */
export function Money({ path, label }: { path: Path; label: string }) {
  const f = useField<number>(path);
  const [typed, setTyped] = useState<string | null>(null);
  const shown = typed !== null && Object.is(centsOf(typed), f.value) ? typed : dollarsOf(f.value);
  return (
    <TextField
      id={f.id}
      label={label}
      hint="In US dollars"
      inputMode="decimal"
      error={f.error}
      value={shown}
      onChange={(e) => {
        setTyped(e.target.value);
        f.set(centsOf(e.target.value));
      }}
    />
  );
}

export function Toggle({ path, label, hint }: { path: Path; label: string; hint?: string }) {
  const f = useField<boolean>(path);
  return <Switch label={label} hint={hint} checked={f.value} onChange={f.set} />;
}

/** One of a few values, by its label. */
export function Choice({ path, label, options }: { path: Path; label: string; options: readonly { value: string; label: string }[] }) {
  const f = useField<string>(path);
  return (
    <div>
      <label htmlFor={f.id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <select id={f.id} className="mt-1 input" value={f.value} onChange={(e) => f.set(e.target.value)} aria-invalid={f.error ? true : undefined}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {f.error && <p className="mt-1 text-sm text-red-600">{f.error}</p>}
    </div>
  );
}

/** A whole number; `nullable` keeps an empty field as null. */
export function Count({ path, label, hint, nullable = false }: { path: Path; label: string; hint?: string; nullable?: boolean }) {
  const f = useField<number | null>(path);
  return (
    <TextField
      id={f.id}
      label={label}
      hint={hint}
      inputMode="numeric"
      error={f.error}
      value={f.value === null || Number.isNaN(f.value) ? '' : String(f.value)}
      onChange={(e) => {
        const typed = e.target.value.trim();
        f.set(typed === '' && nullable ? null : Number(typed === '' ? Number.NaN : typed));
      }}
    />
  );
}

const ICON_OPTIONS = SITE_ICONS.map((name) => ({ value: name, label: name }));

export function IconPicker({ path, label }: { path: Path; label: string }) {
  return <Choice path={path} label={label} options={ICON_OPTIONS} />;
}

/** An image: its address (typed, or filled by an upload, which checks size and type and makes the smaller copies) and its description. */
export function ImageField({ path, label }: { path: Path; label: string }) {
  const url = useField<string>([...path, 'url']);
  const [progress, setProgress] = useState<number | null>(null);
  const upload = async (file: File) => {
    setProgress(0);
    try {
      url.set((await uploadFile(file, 'image', setProgress)).url);
    } catch {
      // uploadFile has said what went wrong.
    } finally {
      setProgress(null);
    }
  };
  return (
    <fieldset className="space-y-3 rounded-xl border border-slate-200 p-4">
      <legend className="px-1 text-sm font-semibold text-ink">{label}</legend>
      {url.value && <img src={url.value} alt="" className="h-24 w-24 rounded-lg border border-slate-200 object-cover" />}
      <Text path={[...path, 'url']} label={`${label}: address`} />
      <FileButton id={`${url.id}-upload`} label={`Upload ${label.toLowerCase()}`} accept="image/*" disabled={progress !== null} onFile={(file) => void upload(file)}>
        {progress !== null ? `Uploading... ${Math.round(progress * 100)}%` : undefined}
      </FileButton>
      <Text path={[...path, 'alt']} label={`${label}: description`} hint="What the picture shows, for people who cannot see it." />
    </fieldset>
  );
}

/** The list with the item at `from` moved to `to`. */
function moved<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return next;
}

let rowKeysMade = 0;
/** A key for a list row, kept in the editor only (the document stores none). */
const newRowKey = () => `row-${++rowKeysMade}`;

/** A list whose items can be moved, removed and added; `item` renders one item's controls. */
export function ListField<T>({
  path,
  label,
  itemLabel,
  make,
  item,
}: {
  path: Path;
  label: string;
  itemLabel: (value: T, index: number) => string;
  make: () => T;
  item: (path: Path, index: number) => ReactNode;
}) {
  const ctx = useContext(EditingContext)!;
  const list = (getIn(ctx.doc, path) as T[] | undefined) ?? [];
  // Each row keeps its key through moves and removals, so what a row's controls hold (an amount
  // as typed, an upload under way, the focus) stays with its item rather than its place.
  const [keys, setKeys] = useState(() => list.map(newRowKey));
  const rowKeys = list.map((_, i) => keys[i] ?? `extra-${i}`);
  const change = (next: T[], nextKeys: string[]) => {
    setKeys(nextKeys);
    ctx.set(path, next);
  };
  const move = (from: number, to: number) => change(moved(list, from, to), moved(rowKeys, from, to));
  const error = ctx.errors[pathKey(path)];
  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-semibold text-ink">{label}</legend>
      {error && <p className="text-sm text-red-700">{error}</p>}
      <ol className="space-y-3">
        {list.map((value, i) => {
          const name = itemLabel(value, i);
          return (
            <li key={rowKeys[i]} className="rounded-xl border border-slate-200 bg-slate-50/60 p-4">
              <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
                <span className="text-sm font-medium text-slate-700">{name}</span>
                <span className="flex gap-1">
                  <button type="button" className="btn-secondary px-2 py-1 text-xs" disabled={i === 0} onClick={() => move(i, i - 1)} aria-label={`Move ${name} up`}>
                    Up
                  </button>
                  <button type="button" className="btn-secondary px-2 py-1 text-xs" disabled={i === list.length - 1} onClick={() => move(i, i + 1)} aria-label={`Move ${name} down`}>
                    Down
                  </button>
                  <button
                    type="button"
                    className="btn-secondary px-2 py-1 text-xs text-red-700"
                    onClick={() =>
                      change(
                        list.filter((_, j) => j !== i),
                        rowKeys.filter((_, j) => j !== i),
                      )
                    }
                    aria-label={`Remove ${name}`}
                  >
                    Remove
                  </button>
                </span>
              </div>
              <div className="space-y-3">{item([...path, i], i)}</div>
            </li>
          );
        })}
      </ol>
      <button type="button" className="btn-secondary py-1.5 text-sm" onClick={() => change([...list, make()], [...rowKeys, newRowKey()])}>
        Add to {label.toLowerCase()}
      </button>
    </fieldset>
  );
}

/** A list of plain lines (points, topics, promises). */
export function LinesField({ path, label, itemName }: { path: Path; label: string; itemName: string }) {
  return (
    <ListField<string>
      path={path}
      label={label}
      itemLabel={(v, i) => `${itemName} ${i + 1}${v ? `: ${v.slice(0, 40)}` : ''}`}
      make={() => ''}
      item={(p, i) => <Text path={p} label={`${itemName} ${i + 1}`} />}
    />
  );
}

/** Figure and label pairs. */
export function StatsField({ path, label }: { path: Path; label: string }) {
  return (
    <ListField<{ value: string; label: string }>
      path={path}
      label={label}
      itemLabel={(v, i) => `Figure ${i + 1}${v.value ? `: ${v.value}` : ''}`}
      make={() => ({ value: '', label: '' })}
      item={(p) => (
        <div className="grid gap-3 sm:grid-cols-2">
          <Text path={[...p, 'value']} label="Figure" />
          <Text path={[...p, 'label']} label="Label" />
        </div>
      )}
    />
  );
}

/** Eyebrow, title and lead of a section. */
export function HeadingFields({ path }: { path: Path }) {
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <Text path={[...path, 'eyebrow']} label="Eyebrow" />
      <Text path={[...path, 'title']} label="Title" />
      <div className="sm:col-span-2">
        <Text path={[...path, 'lead']} label="Lead" long />
      </div>
    </div>
  );
}
