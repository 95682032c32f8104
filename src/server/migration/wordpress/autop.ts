// WordPress's classic editor stores paragraphs as blank lines; autop turns them into <p>
// elements (as WordPress's own wpautop does when it shows a post), keeping block elements,
// <pre> and [caption] shortcodes whole. Linear time, whatever the input.

const BLOCKS = 'p|h[1-6]|ul|ol|li|blockquote|div|figure|figcaption|table|thead|tbody|tfoot|tr|td|th|pre|hr|section|article|aside|header|footer|dl|dt|dd|address|iframe|form|script|style|noscript';
const BLOCK_START = new RegExp(`^<\\/?(?:${BLOCKS})[\\s/>]`, 'i');

/**
 * Replaces each span from an `open` match to the next `close` match with what `replace` makes
 * of it, in one pass: each search starts where the previous one ended, so the time is linear
 * even for a text full of unclosed openings (a lazy `open[\s\S]*?close` regex rescans the rest
 * of the text from every one of them). An unclosed span, and all after it, stays as it is.
 */
function replaceSpans(text: string, open: string, close: string, replace: (span: string) => string): string {
  const opening = new RegExp(open, 'gi');
  const closing = new RegExp(close, 'gi');
  let out = '';
  let from = 0;
  for (let m = opening.exec(text); m; m = opening.exec(text)) {
    closing.lastIndex = m.index + m[0].length;
    const c = closing.exec(text);
    if (!c) break;
    const end = c.index + c[0].length;
    out += text.slice(from, m.index) + replace(text.slice(m.index, end));
    from = opening.lastIndex = end;
  }
  return out + text.slice(from);
}

// One whole [caption] shortcode: its image (maybe linked) and the caption text after it.
const CAPTION = /^\[caption[^\]]*\]\s*((?:<a [^>]*>\s*)?<img[^>]*>(?:\s*<\/a>)?)\s*([\s\S]*)\[\/caption\]$/i;

/**
 * WordPress stores classic-editor posts without paragraph tags (its wpautop adds them on
 * display). Like wpautop: block tags get their own lines, text separated by blank lines
 * becomes paragraphs and single newlines line breaks; <pre> blocks are left alone, and
 * [caption] shortcodes become figures. Linear in the length of the post, whatever it holds.
 */
export function autop(html: string): string {
  const pres: string[] = [];
  let text = html.replace(/\r\n?/g, '\n');
  text = replaceSpans(text, '<!--', '-->', () => '');
  text = replaceSpans(text, '<pre[\\s>]', '</pre>', (m) => `\n\n\uE000${pres.push(m) - 1}\uE000\n\n`);
  text = replaceSpans(text, '\\[caption', '\\[/caption\\]', (span) => {
    const m = CAPTION.exec(span);
    if (!m) return span;
    const caption = (m[2] ?? '').trim();
    return `<figure>${m[1]}${caption ? `<figcaption>${caption}</figcaption>` : ''}</figure>`;
  });
  text = text.replace(new RegExp(`(<(?:${BLOCKS})[\\s/>])`, 'gi'), '\n\n$1').replace(new RegExp(`(</(?:${BLOCKS})>)`, 'gi'), '$1\n\n');
  return text
    .split(/\n\s*\n/)
    .map((chunk) => chunk.trim())
    .filter(Boolean)
    .map((chunk) => {
      const pre = /^\uE000(\d+)\uE000$/.exec(chunk);
      if (pre) return pres[Number(pre[1])];
      if (BLOCK_START.test(chunk)) return chunk;
      return `<p>${chunk.replace(/\n/g, '<br>')}</p>`;
    })
    .join('');
}
