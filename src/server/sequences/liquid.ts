// Merge tags in sequence e-mails, written as Kit writes them (`{{ subscriber.first_name |
// default: "friend" }}`), read by liquidjs, never by eval. The engine is a sandbox: no file
// system (include, render and layout find no template), only a subscriber's own fields, a time
// and size limit per message; unknown filters are refused when the step is saved.
import { decodeHTML } from 'entities';
import { Liquid, type Template } from 'liquidjs';
import { badRequest } from '#server/http/errors.ts';

/**
 * A step's merge tags must render for a sample subscriber within SAVE_RENDER_MS when it is saved;
 * at sending the limit is SEND_RENDER_MS, far above what a template that passed takes, so a busy
 * server (a render paused by the machine, not by the template) never fails a message for it.
 */
const SAVE_RENDER_MS = 50;
const SEND_RENDER_MS = 2_000;
const LIMITS = { parseLimit: 1_000_000, renderLimit: SAVE_RENDER_MS, memoryLimit: 10_000_000 };
/** For HTML: every value is escaped. */
const html = new Liquid({ templates: {}, strictFilters: true, ownPropertyOnly: true, outputEscape: 'escape', cache: false, ...LIMITS });
/** For a subject and a preheader: plain text. */
const plain = new Liquid({ templates: {}, strictFilters: true, ownPropertyOnly: true, cache: false, ...LIMITS });

/**
 * The Liquid source of sanitised HTML: the sanitiser writes `>` and `&` inside a tag's markup
 * as entities (`{% if a &gt; 1 %}`), which Liquid reads back as they were typed.
 */
const liquidSource = (text: string) => text.replace(/\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}/g, (m) => decodeHTML(m));

export type Merge = { html: boolean; templates: Template[] } | { html: boolean; text: string };

/** Parses `text` (HTML when `isHtml`); 400 on `field` with Liquid's own message when it does not parse. */
export function parseMerge(text: string, isHtml: boolean, field: string): Merge {
  if (!/\{\{|\{%/.test(text)) return { html: isHtml, text };
  try {
    return { html: isHtml, templates: (isHtml ? html : plain).parse(isHtml ? liquidSource(text) : text) };
  } catch (err) {
    const message = `The merge tags in ${field} could not be read: ${err instanceof Error ? err.message : String(err)}`;
    throw badRequest(message, [{ path: [field], message }]);
  }
}

/** A step's merge tags, checked when it is saved: they parse, and they render for a sample subscriber (an include, which finds no file, fails here, not at sending). */
export function checkMerge(text: string, isHtml: boolean, field: string): void {
  const merge = parseMerge(text, isHtml, field);
  try {
    renderMerge(merge, { email: 'sample@example.com', name: 'Sample Subscriber' }, SAVE_RENDER_MS);
  } catch (err) {
    const message = `The merge tags in ${field} could not be used: ${err instanceof Error ? err.message : String(err)}`;
    throw badRequest(message, [{ path: [field], message }]);
  }
}

/** What a message's merge tags can name. */
export interface MergeSubscriber {
  email: string;
  name: string | null;
}

/** The subscriber's fields as Kit names them; first_name is the first word of the name. */
const scopeOf = (s: MergeSubscriber) => {
  const name = (s.name ?? '').trim();
  return { subscriber: { first_name: name.split(/\s+/)[0] ?? '', name, email: s.email, email_address: s.email } };
};

/** The text with the subscriber's values put in (throws when the template goes over its limits). */
export function renderMerge(merge: Merge, subscriber: MergeSubscriber, renderLimit = SEND_RENDER_MS): string {
  if ('text' in merge) return merge.text;
  return (merge.html ? html : plain).renderSync(merge.templates, scopeOf(subscriber), { renderLimit }) as string;
}
