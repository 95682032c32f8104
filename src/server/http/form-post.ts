// Public forms work without JavaScript: each is a real <form method="post"> whose action is
// the same API route the island calls with JSON. Such a post is form-encoded; the route reads
// it with the same schema, honeypot, timing and rate limits, and answers with a 303 back to the
// form (or on) carrying a flash message instead of JSON.
import { mediaType, readText } from './body.ts';
import { clearFlashCookie, flashCookie, putFlash, type Flash } from './flash.ts';

/** Hidden fields every progressively enhanced form carries. */
export const FORM_FIELDS = { form: '_form', returnTo: '_return', renderedAt: '_rendered' } as const;

const FORM_BODY_LIMIT = 64 * 1024;
/** Typed values that are never kept to fill a form again. */
const SECRET = /password/i;

export interface FormPost {
  /** The fields as the JSON call would send them (elapsedMs from the page's render time). */
  fields: Record<string, unknown>;
  form: string;
  returnTo: string;
}

/** Whether the request is a browser's form post (and not JSON). */
export function isFormPost(request: Request): boolean {
  return mediaType(request.headers.get('content-type')) === 'application/x-www-form-urlencoded';
}

/**
 * A path as a Location header can carry it: a header value is bytes, so every character outside
 * printable ASCII is percent-encoded as a browser would (a lone surrogate as U+FFFD); '%' and
 * the rest of printable ASCII are left as they are.
 */
export const headerSafePath = (path: string): string => path.toWellFormed().replace(/[^\x21-\x7e]/gu, (c) => encodeURIComponent(c));

/** A path on this site to send the browser back to: never another site, never the API. */
function safeReturn(value: string | undefined, request: Request): string {
  const ok = (p: string | undefined): p is string => !!p && p.length <= 500 && /^\/(?!\/)[^\s\\]*$/.test(p) && !p.startsWith('/api/');
  if (ok(value)) return headerSafePath(value);
  try {
    const referer = new URL(request.headers.get('referer') ?? '');
    if (referer.origin === new URL(request.url).origin && ok(referer.pathname)) return referer.pathname + referer.search;
  } catch {
    // no usable Referer
  }
  return '/';
}

/** Reads a form post (capped like every body). */
export async function readFormPost(request: Request): Promise<FormPost> {
  const params = new URLSearchParams(await readText(request, FORM_BODY_LIMIT));
  const fields: Record<string, unknown> = {};
  for (const [name, value] of params) if (!name.startsWith('_')) fields[name] = value;
  const rendered = Number(params.get(FORM_FIELDS.renderedAt));
  if (Number.isFinite(rendered) && rendered > 0) fields.elapsedMs = Math.max(0, Date.now() - rendered);
  const form = params.get(FORM_FIELDS.form) ?? '';
  return { fields, form: /^[a-z0-9-]{1,40}$/i.test(form) ? form : '', returnTo: safeReturn(params.get(FORM_FIELDS.returnTo) ?? undefined, request) };
}

/** The 303 that ends a form post: to `location`, with the flash the page there shows. */
export function formAnswer(location: string, flash: Flash | null, cookies: string[] = []): Response {
  const headers = new Headers({ Location: headerSafePath(location), 'Cache-Control': 'no-store' });
  for (const c of cookies) headers.append('Set-Cookie', c);
  headers.append('Set-Cookie', flash ? flashCookie(putFlash(flash)) : clearFlashCookie());
  return new Response(null, { status: 303, headers });
}

/** What is kept of what was typed: more than any form's longest field, and a few such fields. */
const TYPED_VALUE_MAX = 10_000;
const TYPED_TOTAL_MAX = 20_000;
const TYPED_FIELDS_MAX = 40;

/**
 * What was typed, to fill the form again: strings only, never a password, and no more than a
 * form holds (it is kept on the server for minutes: a post of made-up fields keeps little).
 */
export function typedValues(fields: Record<string, unknown>): Record<string, string> {
  const kept: Record<string, string> = {};
  let total = 0;
  let count = 0;
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value !== 'string' || SECRET.test(name) || name === 'website' || name.length > 64) continue;
    const text = value.slice(0, TYPED_VALUE_MAX);
    if (count === TYPED_FIELDS_MAX || total + text.length > TYPED_TOTAL_MAX) break;
    kept[name] = text;
    total += text.length;
    count++;
  }
  return kept;
}
