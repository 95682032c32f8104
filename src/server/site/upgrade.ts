// A stored site document written by an older version of the site may lack a part this version
// added, or hold a value a rule of this version refuses. Such a document is read with only those
// parts taken from the defaults and everything else as the owner left it, so the site keeps
// serving after an upgrade; the parts filled in are logged, and the owner's next save stores
// the whole document as this version reads it.
import { logger } from '#server/log.ts';
import type * as z from 'zod';
import { SiteDocumentSchema, type SiteDocument } from '#shared/schemas/site.ts';

type Path = (string | number)[];

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `value` with every object key `fallback` has and it lacks taken from `fallback` (lists and
 * values as they are), the places filled added to `filled`.
 */
function withMissingParts(value: unknown, fallback: unknown, filled: Set<string>, path: string[] = []): unknown {
  if (!isRecord(value) || !isRecord(fallback)) return value;
  const out: Record<string, unknown> = { ...value };
  for (const [key, part] of Object.entries(fallback)) {
    if (key in value) out[key] = withMissingParts(value[key], part, filled, [...path, key]);
    else {
      out[key] = structuredClone(part);
      filled.add([...path, key].join('.'));
    }
  }
  return out;
}

function at(root: unknown, path: Path): unknown {
  let v = root;
  for (const key of path) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<string | number, unknown>)[key];
  }
  return v;
}

function put(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const parent = at(root, path.slice(0, -1));
  if (typeof parent === 'object' && parent !== null) (parent as Record<string | number, unknown>)[path.at(-1)!] = value;
  return root;
}

/**
 * The defaults' value for a refused part: the same place in the defaults; for an item the
 * defaults' list is shorter than, the same field of the defaults' first item; else the nearest
 * enclosing part the defaults have.
 */
function replacement(defaults: SiteDocument, path: Path): { path: Path; value: unknown } {
  for (let n = path.length; n > 0; n--) {
    const prefix = path.slice(0, n);
    const same = at(defaults, prefix);
    if (same !== undefined) return { path: prefix, value: same };
    const firstItem = prefix.map((k) => (typeof k === 'number' ? 0 : k));
    const shaped = at(defaults, firstItem);
    if (shaped !== undefined && typeof prefix.at(-1) !== 'number') return { path: prefix, value: shaped };
  }
  return { path: [], value: defaults };
}

export interface ReadSite {
  doc: SiteDocument;
  /** The parts taken from the defaults ('home.closingCta', 'workWithMe.packageTabs.0.packages.1.price'); empty when the document fit. */
  filled: string[];
}

/** What a package is sold for: never taken from the defaults (the template's price is not the owner's). */
const SALE_FIELDS = new Set(['price', 'billing', 'bookUrl', 'eventType', 'productId', 'instalments', 'sessions']);

/** The path of the package a path is inside ('workWithMe.packageTabs.T.packages.P'), or null. */
function packageOf(path: Path): Path | null {
  const at = path.indexOf('packages');
  return at > 0 && path[0] === 'workWithMe' && typeof path[at + 1] === 'number' ? path.slice(0, at + 2) : null;
}

/**
 * Mends one refused value in place, and answers what it did for the log: text and lists past a
 * new limit are cut to it; a list item of the wrong kind is left out; a package whose sale
 * details are refused is sold no more ('request': visitors ask instead of paying), and left out
 * if that is not enough; anything else is taken from the defaults (or the part around it, when
 * the same place was refused before).
 */
function mend(doc: unknown, defaults: SiteDocument, issue: z.core.$ZodIssue, replaced: Set<string>): { doc: unknown; note: string } {
  let path = issue.path.filter((k): k is string | number => typeof k !== 'symbol');
  const value = at(doc, path);
  if (issue.code === 'too_big' && typeof issue.maximum === 'number' && (typeof value === 'string' || Array.isArray(value))) {
    put(doc, path, value.slice(0, Number(issue.maximum)));
    return { doc, note: `${path.join('.')} (cut to ${issue.maximum})` };
  }
  const pkg = packageOf(path);
  const field = pkg ? path[pkg.length] : undefined;
  if (pkg && (field === undefined || SALE_FIELDS.has(String(field)))) {
    const item = at(doc, pkg) as Record<string, unknown> | undefined;
    if (item && typeof item === 'object' && item.billing !== 'request' && !replaced.has(JSON.stringify(pkg))) {
      replaced.add(JSON.stringify(pkg));
      item.billing = 'request';
      return { doc, note: `${pkg.join('.')} (not sold until the owner saves it)` };
    }
    path = pkg;
  }
  const last = path.at(-1);
  const list = at(doc, path.slice(0, -1));
  if (typeof last === 'number' && Array.isArray(list)) {
    list.splice(last, 1);
    return { doc, note: `${path.join('.')} (left out)` };
  }
  // Replaced before and refused again (a rule across parts): the part around it.
  while (path.length > 0 && replaced.has(JSON.stringify(path))) path = path.slice(0, -1);
  const swap = replacement(defaults, path);
  replaced.add(JSON.stringify(swap.path));
  return { doc: put(doc, swap.path, structuredClone(swap.value)), note: swap.path.length ? swap.path.join('.') : '(the whole document)' };
}

/**
 * Sentences of an earlier default text that promise what this version no longer does, each with
 * the sentence that now holds. Where an owner kept one word for word, it is read as the new one:
 * a policy must not promise what the site does not do.
 */
const RETIRED_PROMISES: [string, string][] = [
  [
    // The day's analytics secret is kept in memory only now (it was also in a file).
    'The secret is kept in the server’s memory and in a file on the server that only the site can read, never in a backup, so that a restart does not count you twice; when the day ends it is replaced, and the old one deleted, after which the hash can no longer be linked to anyone.',
    'The secret is kept in the server’s memory only, never on disk; when the day ends (or the server restarts) it is replaced and the old one forgotten, after which the hash can no longer be linked to anyone.',
  ],
];

/** `json` with every retired default sentence replaced by the one that holds now. */
export const withCurrentPromises = (json: string) => RETIRED_PROMISES.reduce((text, [was, is]) => (text.includes(was) ? text.replaceAll(was, is) : text), json);

/**
 * Reads a stored document: as it is when it fits this version's schema; otherwise with the
 * missing parts taken from `defaults`, then each refused value mended (see mend), one place a
 * round. `defaultsOf` is only called for a document that does not fit.
 */
export function readStoredSite(json: string, defaultsOf: () => SiteDocument): ReadSite {
  let value: unknown;
  try {
    value = JSON.parse(withCurrentPromises(json));
  } catch {
    return { doc: defaultsOf(), filled: ['(the whole document)'] };
  }
  const first = SiteDocumentSchema.safeParse(value);
  if (first.success) return { doc: first.data, filled: [] };
  const defaults = defaultsOf();
  const filled = new Set<string>();
  let doc = withMissingParts(value, defaults, filled);
  const replaced = new Set<string>();
  for (let round = 0; round < 500; round++) {
    const checked = SiteDocumentSchema.safeParse(doc);
    if (checked.success) return { doc: checked.data, filled: [...filled] };
    // One place at a time: a value can be refused by two rules at once (too short, and not an
    // address), and mending it once answers both.
    const mended = mend(doc, defaults, checked.error.issues[0]!, replaced);
    doc = mended.doc;
    filled.add(mended.note);
  }
  // Only reached when even the defaults are refused: a bug in this version, not in the document.
  return { doc: SiteDocumentSchema.parse(defaults), filled: ['(the whole document)'] };
}

/** Logs once per distinct stored text (the last 500) that the parts of it named were mended. */
const told = new Set<string>();
export function tellFilled(which: string, json: string, filled: string[]): void {
  if (filled.length === 0 || told.has(json)) return;
  if (told.size >= 500) told.delete(told.values().next().value!);
  told.add(json);
  logger.warn({ document: which, filled }, 'site: a stored site document did not fit this version; the parts named were read from the defaults until the owner saves it again');
}
