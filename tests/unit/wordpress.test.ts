// The WordPress import's pure parts, without a server: reading a WXR document and turning the
// classic editor's blank lines into paragraphs.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { autop } from '#server/migration/wordpress/autop.ts';
import { parseWxr } from '#server/migration/wordpress/parse.ts';

const wxr = (items: string) => `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:wp="http://wordpress.org/export/1.2/" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/">
<channel><title>Old blog</title>${items}</channel></rss>`;

describe('parseWxr', () => {
  it('reads title, slug, type, status, password, content, excerpt, category and date of each item', () => {
    const [item] = parseWxr(
      wxr(`<item><title>Caf&#233; &amp; code</title><wp:post_name>cafe-code</wp:post_name><wp:post_type>post</wp:post_type>
<wp:status>publish</wp:status><wp:post_password></wp:post_password><wp:post_date_gmt>2019-05-04 10:30:00</wp:post_date_gmt>
<category domain="category" nicename="tech"><![CDATA[Tech]]></category><category domain="post_tag" nicename="remote-work"><![CDATA[Remote work]]></category>
<wp:post_id>42</wp:post_id><wp:postmeta><wp:meta_key>_thumbnail_id</wp:meta_key><wp:meta_value><![CDATA[7]]></wp:meta_value></wp:postmeta>
<wp:comment><wp:comment_id>3</wp:comment_id><wp:comment_author><![CDATA[Ann]]></wp:comment_author><wp:comment_author_email>ann@example.com</wp:comment_author_email>
<wp:comment_date_gmt>2019-05-05 08:00:00</wp:comment_date_gmt><wp:comment_content><![CDATA[Nice &amp; clear]]></wp:comment_content><wp:comment_approved>1</wp:comment_approved><wp:comment_type>comment</wp:comment_type></wp:comment>
<content:encoded><![CDATA[<p>Hello</p>]]></content:encoded><excerpt:encoded><![CDATA[Short]]></excerpt:encoded></item>`),
    );
    expect(item).toMatchObject({
      id: 42,
      tags: [{ slug: 'remote-work', name: 'Remote work' }],
      meta: { _thumbnail_id: '7' },
      comments: [{ id: 3, author: 'Ann', email: 'ann@example.com', date: new Date('2019-05-05T08:00:00Z'), content: 'Nice &amp; clear', approved: '1', type: 'comment' }],
      title: 'Café & code',
      slug: 'cafe-code',
      type: 'post',
      status: 'publish',
      password: '',
      content: '<p>Hello</p>',
      excerpt: 'Short',
      category: 'Tech',
      date: new Date('2019-05-04T10:30:00Z'),
    });
  });

  it('reads the real WordPress export in the fixtures', () => {
    const items = parseWxr(readFileSync(new URL('../fixtures/wordpress-export.xml', import.meta.url), 'utf8'));
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((i) => typeof i.title === 'string' && typeof i.type === 'string')).toBe(true);
  });

  it('refuses entity declarations, broken XML and documents that are not WXR', () => {
    expect(() => parseWxr('<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaa">]><rss><channel></channel></rss>')).toThrow('declares XML entities');
    expect(() => parseWxr('<rss><channel><item></channel></rss>')).toThrow('not well-formed XML');
    expect(() => parseWxr('<feed></feed>')).toThrow('This is not a WordPress export');
  });
});

describe('autop', () => {
  it('wraps text separated by blank lines in paragraphs and single newlines in <br />', () => {
    expect(autop('First line\nsecond line\n\nNext paragraph')).toBe('<p>First line<br>second line</p><p>Next paragraph</p>');
  });

  it('leaves block elements and <pre> whole', () => {
    const out = autop('<h2>Title</h2>\n\n<pre>a\n\nb</pre>\n\nText');
    expect(out).toContain('<h2>Title</h2>');
    expect(out).toContain('<pre>a\n\nb</pre>');
    expect(out).toContain('<p>Text</p>');
  });

  it('turns a [caption] shortcode into a figure with its caption', () => {
    const out = autop('[caption id="attachment_1" align="aligncenter" width="300"]<img src="/a.jpg" alt="A" /> The view[/caption]');
    expect(out).toContain('<figure>');
    expect(out).toContain('<img src="/a.jpg" alt="A" />');
    expect(out).toContain('<figcaption>The view</figcaption>');
  });

  it('gets through a huge unclosed <pre> (a quadratic version outlasts the test timeout)', () => {
    const out = autop(`<pre>${'x\n\n'.repeat(80_000)}`);
    expect(out.startsWith('<pre>')).toBe(true);
  });
});
