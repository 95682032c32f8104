// The plain-text part of an HTML e-mail, for mail programs that show it (or only it): what a
// reader needs from the HTML, in lines a text reader can follow.
import { compile } from 'html-to-text';

const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false } }));

// Compiled once: compiling the options is most of the cost of a short message (sequences make one per person).
const toText = compile({ wordwrap: 78, selectors: [...HEADINGS, { selector: 'img', format: 'skip' }, { selector: 'a', options: { hideLinkHrefIfSameAsText: true } }] });

/** Paragraphs, headings and lists on lines of their own (wrapped at 78), each link's address after its text, images left out. */
export function mailText(html: string): string {
  return toText(html);
}
