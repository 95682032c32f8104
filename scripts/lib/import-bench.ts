// The WordPress import under load, for `npm run bench`: a generated 50 MB export (5,000 posts
// with comments and tags) is imported while /healthz is timed every 50 ms and the import's
// progress is read; prints the figures (never asserts them).
import { createWriteStream, openAsBlob } from 'node:fs';
import { once } from 'node:events';

/** Writes a WXR export of about `megabytes` MB; answers its item count. */
export async function writeLargeExport(file: string, megabytes: number): Promise<number> {
  const out = createWriteStream(file);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write(`<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>Big blog</title><wp:wxr_version>1.2</wp:wxr_version><wp:base_site_url>https://big-blog.example</wp:base_site_url>
<wp:author><wp:author_login><![CDATA[writer]]></wp:author_login><wp:author_email><![CDATA[writer@big-blog.example]]></wp:author_email></wp:author>\n`);
  const paragraph = 'Operations are the product the customer never sees: every handover, checklist and default decides how the week goes. ';
  let bytes = 0;
  let items = 0;
  for (let i = 1; bytes < megabytes * 1024 * 1024; i++) {
    const body = Array.from({ length: 12 }, (_, p) => `<p>${paragraph.repeat(6)} (${i}.${p})</p>`).join('\n\n');
    const comments = Array.from(
      { length: 3 },
      (_, c) =>
        `<wp:comment><wp:comment_id>${i * 10 + c}</wp:comment_id><wp:comment_author><![CDATA[Reader ${c}]]></wp:comment_author><wp:comment_author_email>reader${c}@example.com</wp:comment_author_email><wp:comment_date_gmt>2020-01-02 10:00:00</wp:comment_date_gmt><wp:comment_content><![CDATA[Useful, thank you. ${paragraph}]]></wp:comment_content><wp:comment_approved>${c === 2 ? 'spam' : '1'}</wp:comment_approved><wp:comment_type>comment</wp:comment_type></wp:comment>`,
    ).join('');
    const month = String((i % 12) + 1).padStart(2, '0');
    const item = `<item><title><![CDATA[Operations note ${i}]]></title><link>https://big-blog.example/2020/${month}/operations-note-${i}/</link><dc:creator><![CDATA[writer]]></dc:creator>
<content:encoded><![CDATA[${body}]]></content:encoded><excerpt:encoded><![CDATA[]]></excerpt:encoded><wp:post_id>${i}</wp:post_id>
<wp:post_date>2020-${month}-02 09:00:00</wp:post_date><wp:post_date_gmt>2020-${month}-02 08:00:00</wp:post_date_gmt><wp:post_name>operations-note-${i}</wp:post_name>
<wp:status>publish</wp:status><wp:post_type>post</wp:post_type><wp:post_password></wp:post_password>
<category domain="category" nicename="operations"><![CDATA[Operations]]></category><category domain="post_tag" nicename="tag-${i % 40}"><![CDATA[Tag ${i % 40}]]></category>${comments}</item>\n`;
    await write(item);
    bytes += Buffer.byteLength(item);
    items += 1;
  }
  await write('</channel></rss>\n');
  out.end();
  await once(out, 'finish');
  return items;
}

export interface ImportFigures {
  seconds: number;
  imported: number;
  progressReads: number;
  healthMaxMs: number;
  healthP99Ms: number;
  healthChecks: number;
}

/** Imports `file` as the admin whose cookie is given, timing /healthz meanwhile. */
export async function timeImport(base: string, cookie: string, file: string): Promise<ImportFigures> {
  const headers = { Origin: base, Cookie: cookie };
  const form = new FormData();
  form.append('file', await openAsBlob(file, { type: 'text/xml' }), 'big.WordPress.xml');
  const started = performance.now();
  let finished = false;
  const upload = fetch(`${base}/api/wordpress/import`, { method: 'POST', headers, body: form }).then(async (r) => {
    finished = true;
    return (await r.json()) as { imported: number };
  });
  const health: number[] = [];
  const progress = new Set<number>();
  while (!finished) {
    const t0 = performance.now();
    await (await fetch(`${base}/healthz`)).arrayBuffer();
    health.push(performance.now() - t0);
    const run = (await (await fetch(`${base}/api/wordpress/import`, { headers })).json()) as { status: string; done: number; total: number } | null;
    if (run?.status === 'running' && run.total > 0) progress.add(run.done);
    await new Promise((r) => setTimeout(r, 50));
  }
  const result = await upload;
  const seconds = (performance.now() - started) / 1000;
  health.sort((a, b) => a - b);
  return { seconds, imported: result.imported, progressReads: progress.size, healthMaxMs: health.at(-1) ?? 0, healthP99Ms: health[Math.floor(health.length * 0.99)] ?? 0, healthChecks: health.length };
}
