// Post HTML is sanitised on save with an allowlist that matches what the editor emits
// (TipTap: paragraphs, headings, marks, lists, quotes, links, alignment) plus images and
// code blocks that imported posts carry. Nothing executable survives.
import { decodeHTML } from 'entities';
import sanitizeHtml from 'sanitize-html';
import { badRequest } from '#server/http/errors.ts';
import { EMBED_HOSTS, EMBED_PLAYER } from '#shared/embeds.ts';

/** The page a viewer can watch an embedded video on (for feeds, which carry no frames). */
export function videoPageUrl(player: string): string | null {
  const yt = /youtube-nocookie\.com\/embed\/([\w-]+)/.exec(player);
  if (yt) return `https://www.youtube.com/watch?v=${yt[1]}`;
  const vimeo = /player\.vimeo\.com\/video\/(\d+)/.exec(player);
  return vimeo ? `https://vimeo.com/${vimeo[1]}` : null;
}

/** Feed readers show no frames: each video becomes a link to its page. */
export function videosAsLinks(html: string): string {
  return html.replace(/<iframe\b[^>]*\bsrc="([^"]+)"[^>]*>\s*<\/iframe>/g, (_frame: string, src: string) => {
    const page = videoPageUrl(src.replace(/&amp;/g, '&'));
    return page ? `<p><a href="${page}">Watch the video</a></p>` : '';
  });
}

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'del',
    'mark',
    'sub',
    'sup',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'ul',
    'ol',
    'li',
    'blockquote',
    'hr',
    'a',
    'img',
    'figure',
    'figcaption',
    'pre',
    'code',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'iframe',
  ],
  allowedAttributes: {
    // Videos: only the privacy-enhanced players of YouTube and Vimeo (see EMBED_PLAYER).
    iframe: ['src', 'title', 'allow', 'allowfullscreen', 'loading', 'referrerpolicy', 'width', 'height'],
    a: ['href', 'title', 'target', 'rel'],
    // `loading` is the one transformTags sets below (lazy); attributes are checked after it.
    img: ['src', 'alt', 'title', 'width', 'height', 'loading'],
    ol: ['start'],
    th: ['colspan', 'rowspan'],
    td: ['colspan', 'rowspan'],
    '*': ['style'],
  },
  allowedStyles: { '*': { 'text-align': [/^(left|right|center|justify)$/] } },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'], iframe: ['https'] },
  allowedIframeHostnames: [...EMBED_HOSTS],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    a: (tagName, attribs) => {
      const out = { ...attribs };
      if (out.target && out.target !== '_blank') delete out.target;
      if (out.target === '_blank') out.rel = 'noopener noreferrer nofollow';
      return { tagName, attribs: out };
    },
    img: (tagName, attribs) => ({ tagName, attribs: { ...attribs, loading: 'lazy' } }),
    // A video frame keeps only a player address of the two allowed forms, loaded lazily.
    iframe: (tagName, attribs) =>
      EMBED_PLAYER.test(attribs.src ?? '') ? { tagName, attribs: { ...attribs, loading: 'lazy', referrerpolicy: 'strict-origin-when-cross-origin' } } : { tagName, attribs: {} },
  },
  exclusiveFilter: (frame) => frame.tag === 'iframe' && !EMBED_PLAYER.test(frame.attribs.src ?? ''),
};

/** Returns HTML safe to render as-is on the public site. */
export function sanitizePostHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}

/**
 * How deeply the elements of rich text may sit inside each other: far beyond what anyone writes
 * (a list ten levels deep is about thirty), far below what breaks the tools that read it again
 * (turning an issue into its plain-text part overflows the stack a few thousand levels down).
 */
export const MAX_NESTING = 100;

/** How deeply the elements of sanitised HTML nest (sanitize-html closes every element it writes, and writes void ones as `<br />`). */
export function nestingDepth(html: string): number {
  let depth = 0;
  let deepest = 0;
  for (const [, close, selfClosing] of html.matchAll(/<(\/?)[a-zA-Z][\w-]*(?:\s[^>]*?)?(\/?)>/g)) {
    if (close) depth -= 1;
    else if (!selfClosing) deepest = Math.max(deepest, ++depth);
  }
  return deepest;
}

/**
 * The owner's rich text (a post's or an issue's body) made safe to store; 400 on `field` when
 * it nests deeper than MAX_NESTING, which could be shown but not sent or read back reliably.
 */
export function sanitizeSavedHtml(html: string, field = 'content'): string {
  const clean = sanitizePostHtml(html);
  if (nestingDepth(clean) > MAX_NESTING) {
    const message = `Content is nested too deeply: at most ${MAX_NESTING} levels of lists, quotes and other blocks inside each other`;
    throw badRequest(message, [{ path: [field], message }]);
  }
  return clean;
}

// The privacy policy is the owner's rich text too; its cards and grids keep their classes
// (harmless: styling only) and the spans that carry badges.
const POLICY_OPTIONS: sanitizeHtml.IOptions = {
  ...OPTIONS,
  allowedTags: [...(OPTIONS.allowedTags as string[]), 'span'],
  allowedAttributes: { ...(OPTIONS.allowedAttributes as Record<string, string[]>), '*': ['style', 'class'] },
};

/** Returns policy HTML safe to render as-is on the public site. */
export function sanitizePolicyHtml(html: string): string {
  return sanitizeHtml(html, POLICY_OPTIONS);
}

/** Plain text of some HTML (for excerpts, read time and feeds). */
export function htmlToText(html: string): string {
  // Block boundaries become spaces, so the last word of one paragraph and the first of the
  // next stay two words.
  const spaced = html.replace(/<\/(p|h[1-6]|li|blockquote|div|pre|tr|td|th|figcaption|dt|dd)\s*>|<br\s*\/?>/gi, '$& ');
  return decodeHTML(sanitizeHtml(spaced, { allowedTags: [], allowedAttributes: {} }))
    .replace(/\s+/g, ' ')
    .trim();
}

/** Minutes to read at 200 words a minute, at least 1. */
export function readTimeOf(html: string): number {
  const words = htmlToText(html).split(' ').filter(Boolean).length;
  return Math.max(1, Math.ceil(words / 200));
}

// Attributes that hold a URL (srcset holds several, each followed by its width or density).
const URL_ATTRIBUTES = ['href', 'src', 'poster', 'cite'] as const;

/**
 * The same HTML with every link and media URL resolved against `base` (the page the HTML is
 * shown on), as a browser there would: feed readers resolve a relative URL against their own
 * host, so `/work-with-me`, `#notes` or `/uploads/a.jpg` would break there.
 */
export function absoluteUrls(html: string, base: string): string {
  const resolve = (url: string) => {
    try {
      return new URL(url.trim(), base).href;
    } catch {
      return url;
    }
  };
  return sanitizeHtml(html, {
    allowedTags: false,
    allowedAttributes: false,
    allowVulnerableTags: true,
    transformTags: {
      '*': (tagName, attribs) => {
        const out = { ...attribs };
        for (const name of URL_ATTRIBUTES) if (out[name] !== undefined) out[name] = resolve(out[name]);
        if (out.srcset) {
          out.srcset = out.srcset
            .split(',')
            .map((candidate) => {
              const [url = '', ...descriptor] = candidate.trim().split(/\s+/);
              return [resolve(url), ...descriptor].join(' ');
            })
            .join(', ');
        }
        return { tagName, attribs: out };
      },
    },
  });
}

/** The same HTML with every http(s) link's address replaced by `wrap(address)` (a counting redirect). */
export function linksThrough(html: string, wrap: (url: string) => string): string {
  return sanitizeHtml(html, {
    allowedTags: false,
    allowedAttributes: false,
    allowVulnerableTags: true,
    transformTags: { a: (tagName, attribs) => (attribs.href && /^https?:\/\//i.test(attribs.href) ? { tagName, attribs: { ...attribs, href: wrap(attribs.href) } } : { tagName, attribs }) },
  });
}
