// Cleans HTML pasted from Word and Google Docs before the editor parses it. The editor's
// schema already drops markup it does not know; this removes what would otherwise leak
// through as text or stray marks (Word's list bullets, <o:p> fillers, conditional comments,
// style blocks, Google's bold-looking wrapper) and turns Word's paragraph lists into real
// lists. The server sanitises again on save.

/** Styles the editor understands (marks and alignment); every other declaration is dropped. */
const KEPT_STYLES = ['font-weight', 'font-style', 'text-decoration', 'text-decoration-line', 'text-align'];
const KEPT_ATTRIBUTES: Record<string, string[]> = { a: ['href'], img: ['src', 'alt'], ol: ['start'] };
const DROPPED_ELEMENTS = 'meta, link, style, script, title, template, object, embed, iframe, svg, math, form, input, button, select, textarea';

/** Word's list id ('l0') of a list paragraph, or null for any other element. */
const wordListId = (el: Element | null): string | null => (el?.tagName === 'P' ? (/mso-list\s*:\s*(l\d+)\s+level\d+/i.exec(el.getAttribute('style') ?? '')?.[1] ?? null) : null);

function nextElement(el: Element): Element | null {
  let n = el.nextSibling;
  while (n && n.nodeType !== Node.ELEMENT_NODE) {
    if (n.nodeType === Node.TEXT_NODE && n.textContent?.trim()) return null;
    n = n.nextSibling;
  }
  return n as Element | null;
}

/** Word (desktop) writes lists as paragraphs styled 'mso-list: l0 level1 lfo1' with the marker in front. */
function convertWordLists(doc: Document): void {
  const done = new Set<Element>();
  for (const first of Array.from(doc.querySelectorAll('p'))) {
    const id = wordListId(first);
    if (done.has(first) || !id) continue;
    // One list: the following paragraphs of the same Word list (another id starts another list).
    const run: Element[] = [first];
    for (let next = nextElement(first); next && wordListId(next) === id; next = nextElement(next)) run.push(next);
    const stack: { level: number; list: HTMLElement }[] = [];
    let top: HTMLElement | null = null;
    for (const para of run) {
      done.add(para);
      const level = Number(/level(\d+)/i.exec(para.getAttribute('style') ?? '')?.[1] ?? 1);
      const marker = para.querySelector('[data-word-marker]');
      const ordered = /^[\da-z]{1,4}[.)]$/i.test(marker?.getAttribute('data-word-marker') ?? '');
      marker?.remove();
      while (stack.length && stack[stack.length - 1]!.level > level) stack.pop();
      let current = stack[stack.length - 1];
      if (!current || current.level < level) {
        const list = doc.createElement(ordered ? 'ol' : 'ul');
        if (current) (current.list.lastElementChild ?? current.list.appendChild(doc.createElement('li'))).appendChild(list);
        else top = list;
        current = { level, list };
        stack.push(current);
      }
      const li = doc.createElement('li');
      const p = doc.createElement('p');
      p.append(...Array.from(para.childNodes));
      li.append(p);
      current.list.append(li);
    }
    if (top) first.before(top);
    run.forEach((para) => para.remove());
  }
}

function unwrap(el: Element): void {
  el.replaceWith(...Array.from(el.childNodes));
}

function cleanStyle(el: Element): void {
  const style = el.getAttribute('style');
  if (!style) return;
  const kept = style
    .split(';')
    .map((d) => d.trim())
    .filter((d) => {
      const prop = d.slice(0, d.indexOf(':')).trim().toLowerCase();
      return KEPT_STYLES.includes(prop);
    });
  if (kept.length) el.setAttribute('style', kept.join('; '));
  else el.removeAttribute('style');
}

/** Returns `html` without Word / Google Docs junk, keeping headings, lists, marks, links and alignment. */
export function cleanPastedHtml(html: string): string {
  if (!/mso-|urn:schemas-microsoft-com|docs-internal-guid|<o:p|<meta|<style|<!--/i.test(html)) return html;
  const source = html
    // Word's list markers ('·', '1.') sit between these conditional comments; keep them as data.
    .replace(/<!\[if !supportLists\]>([\s\S]*?)<!\[endif\]>/gi, (_m, marker: string) => {
      const text = marker
        .replace(/<[^>]*>/g, '')
        .replace(/&nbsp;|\s/g, '')
        .replace(/"/g, '');
      return `<span data-word-marker="${text}"></span>`;
    })
    .replace(/<!--\[if[\s\S]*?<!\[endif\]-->/gi, '');
  const doc = new DOMParser().parseFromString(source, 'text/html');

  const walker = doc.createTreeWalker(doc.body, NodeFilter.SHOW_COMMENT);
  const comments: Node[] = [];
  while (walker.nextNode()) comments.push(walker.currentNode);
  comments.forEach((c) => c.parentNode?.removeChild(c));

  doc.querySelectorAll(DROPPED_ELEMENTS).forEach((el) => el.remove());
  convertWordLists(doc);
  doc.querySelectorAll('[data-word-marker]').forEach((el) => el.remove());

  for (const el of Array.from(doc.body.querySelectorAll('*'))) {
    const tag = el.tagName.toLowerCase();
    // Office namespaces: <o:p> holds filler spaces; other prefixed tags (smart tags) wrap text.
    if (tag.includes(':')) {
      if (tag === 'o:p') el.remove();
      else unwrap(el);
      continue;
    }
    // Google Docs wraps the whole fragment in <b style="font-weight:normal" id="docs-internal-guid-…">.
    if (tag === 'b' && (el.id.startsWith('docs-internal-guid') || /font-weight\s*:\s*normal/i.test(el.getAttribute('style') ?? ''))) {
      unwrap(el);
      continue;
    }
    if (tag === 'br' && el.classList.contains('Apple-interchange-newline')) {
      el.remove();
      continue;
    }
    // Images come from the clipboard as local files or short-lived links; only web ones stay.
    if (tag === 'img' && !/^(https?:\/\/|\/[^/])/i.test(el.getAttribute('src') ?? '')) {
      el.remove();
      continue;
    }
    const align = el.getAttribute('align');
    if (align && /^(center|right)$/i.test(align)) el.setAttribute('style', `${el.getAttribute('style') ?? ''};text-align:${align.toLowerCase()}`);
    cleanStyle(el);
    const keep = KEPT_ATTRIBUTES[tag] ?? [];
    for (const attr of Array.from(el.attributes)) {
      if (attr.name !== 'style' && !keep.includes(attr.name)) el.removeAttribute(attr.name);
    }
  }

  // Word marks blank lines with paragraphs that hold only a non-breaking space.
  doc.body.querySelectorAll('p').forEach((p) => {
    if (!p.textContent?.replace(/\u00a0/g, '').trim() && !p.querySelector('img, br')) p.remove();
  });
  return doc.body.innerHTML;
}
