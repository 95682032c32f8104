// A stored site document written by an older version of the site may lack a part this version
// added, or hold a value a rule of this version refuses. Such a document is read with only those
// parts taken from the defaults and everything else as the owner left it, so the site keeps
// serving after an upgrade; the parts filled in are logged, and the owner's next save stores
// the whole document as this version reads it.
import { logger } from '#server/log.ts';
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

/**
 * Reads a stored document: as it is when it fits this version's schema; otherwise with the
 * missing parts, then each refused value, taken from `defaults` (a value replaced once and still
 * refused gives way to the part around it, up to the whole document). `defaultsOf` is only
 * called for a document that does not fit.
 */
export function readStoredSite(json: string, defaultsOf: () => SiteDocument): ReadSite {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return { doc: defaultsOf(), filled: ['(the whole document)'] };
  }
  const first = SiteDocumentSchema.safeParse(value);
  if (first.success) return { doc: first.data, filled: [] };
  const defaults = defaultsOf();
  const filled = new Set<string>();
  let doc = withMissingParts(value, defaults, filled);
  const replaced = new Set<string>();
  for (let round = 0; round < 100; round++) {
    const checked = SiteDocumentSchema.safeParse(doc);
    if (checked.success) return { doc: checked.data, filled: [...filled] };
    for (const issue of checked.error.issues) {
      let path = issue.path.filter((k): k is string | number => typeof k !== 'symbol');
      // Replaced before and refused again (a rule across parts): the part around it.
      while (path.length > 0 && replaced.has(JSON.stringify(path))) path = path.slice(0, -1);
      const swap = replacement(defaults, path);
      replaced.add(JSON.stringify(swap.path));
      doc = put(doc, swap.path, structuredClone(swap.value));
      filled.add(swap.path.length ? swap.path.join('.') : '(the whole document)');
      if (swap.path.length === 0) break;
    }
  }
  // Only reached when even the defaults are refused: a bug in this version, not in the document.
  return { doc: SiteDocumentSchema.parse(doc), filled: [...filled] };
}

/** Logs once per distinct stored text that the parts of it named were filled from the defaults. */
const told = new Set<string>();
export function tellFilled(which: string, json: string, filled: string[]): void {
  if (filled.length === 0 || told.has(json)) return;
  if (told.size > 100) told.clear();
  told.add(json);
  logger.warn({ document: which, filled }, 'site: a stored site document did not fit this version; the parts named were read from the defaults until the owner saves it again');
}
