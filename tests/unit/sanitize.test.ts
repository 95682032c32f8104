// Post HTML against a list of XSS vectors (after the OWASP filter-evasion cheat sheet):
// nothing executable may survive, while the editor's own markup does.
import { describe, expect, it } from 'vitest';
import { htmlToText, readTimeOf, sanitizePostHtml } from '#server/html/sanitize.ts';

const vectors = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=https://xss.example/xss.js></SCRIPT>',
  '<IMG SRC="javascript:alert(\'XSS\');">',
  '<IMG SRC=javascript:alert(&quot;XSS&quot;)>',
  '<IMG SRC=JaVaScRiPt:alert(1)>',
  '<img src=x onerror=alert(1)>',
  '<IMG """><SCRIPT>alert("XSS")</SCRIPT>">',
  '<IMG SRC=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#39;&#88;&#83;&#83;&#39;&#41;>',
  '<a href="jav&#x09;ascript:alert(1)">x</a>',
  '<a href=" javascript:alert(1)">x</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<svg/onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<BODY ONLOAD=alert(1)>',
  '<iframe src="https://evil.example"></iframe>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<p style="background:url(javascript:alert(1))">x</p>',
  '<p style="expression(alert(1))">x</p>',
  '<div onmouseover="alert(1)">hover</div>',
  '<form action="javascript:alert(1)"><button>x</button></form>',
  '<input onfocus=alert(1) autofocus>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<link rel="stylesheet" href="javascript:alert(1)">',
  '<style>@import "javascript:alert(1)";</style>',
  '<base href="javascript:alert(1)//">',
  '<a href="//evil.example">protocol-relative</a>',
  '<details open ontoggle=alert(1)>',
  '<video><source onerror="alert(1)"></video>',
  '<!--<script>alert(1)</script>-->',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
];

describe('sanitizePostHtml', () => {
  it.each(vectors)('neutralises %s', (input) => {
    const out = sanitizePostHtml(input).toLowerCase();
    expect(out).not.toMatch(/<script|<iframe|<object|<embed|<svg|<style|<meta|<link|<base|<form|<input/);
    expect(out).not.toMatch(/\son[a-z]+\s*=/);
    expect(out).not.toMatch(/javascript:|vbscript:|data:text|expression\(/);
    expect(out).not.toMatch(/href="\/\//);
  });

  it('keeps what the editor emits', () => {
    const html =
      '<h2>Heading</h2><p style="text-align: center">Centered <strong>bold</strong> <em>it</em> <u>u</u></p>' +
      '<ul><li>one</li></ul><ol><li>two</li></ol><blockquote><p>quote</p></blockquote>' +
      '<p><a href="https://example.com" target="_blank">link</a></p>';
    const out = sanitizePostHtml(html);
    expect(out).toContain('<h2>Heading</h2>');
    expect(out).toContain('<p style="text-align:center">');
    expect(out).toContain('<strong>bold</strong>');
    expect(out).toContain('<u>u</u>');
    expect(out).toContain('<blockquote><p>quote</p></blockquote>');
    expect(out).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer nofollow">link</a>');
  });
});

describe('text helpers', () => {
  it('strips tags and decodes entities', () => {
    expect(htmlToText('<p>Fish &amp; <strong>chips</strong></p><p>now</p>')).toBe('Fish & chips now');
  });
  it('computes read time at 200 words a minute, at least 1', () => {
    expect(readTimeOf('<p>hello</p>')).toBe(1);
    expect(readTimeOf(`<p>${'word '.repeat(401)}</p>`)).toBe(3);
  });
});
