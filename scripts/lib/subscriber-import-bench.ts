// The subscriber import at its largest: a CSV of 100,000 rows (Mailchimp's audience header,
// about 12 MB) uploaded and imported in the background while /healthz is timed.
import { createWriteStream, openAsBlob } from 'node:fs';
import { once } from 'node:events';

export const IMPORT_ROWS = 100_000;

/** Writes a Mailchimp-style audience export of `rows` subscribers (a tenth unsubscribed, every fifth tagged). */
export async function writeSubscriberCsv(file: string, rows: number): Promise<number> {
  const out = createWriteStream(file);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write('Email Address,First Name,Last Name,Company,MEMBER_RATING,OPTIN_TIME,CONFIRM_TIME,UNSUB_TIME,LEID,EUID,NOTES,TAGS\n');
  let batch = '';
  for (let i = 0; i < rows; i++) {
    const unsub = i % 10 === 9 ? '2023-05-06 07:08:09' : '';
    const tags = i % 5 === 0 ? `"""Readers"",""Cohort ${i % 7}"""` : '';
    batch += `reader${i}@example.com,Reader,Number ${i},Company ${i % 100},2,2021-02-03 04:05:06,2021-02-03 04:06:06,${unsub},${1000 + i},e${i},,${tags}\n`;
    if (batch.length > 64 * 1024) {
      await write(batch);
      batch = '';
    }
  }
  await write(batch);
  out.end();
  await once(out, 'finish');
  return rows;
}

export interface SubscriberImportFigures {
  seconds: number;
  total: number;
  added: number;
  suppressed: number;
  invalid: number;
  progressReads: number;
  healthChecks: number;
  healthP99Ms: number;
  healthMaxMs: number;
}

/** Uploads `file` as the admin whose cookie is given and waits for the import's end, timing /healthz meanwhile. */
export async function timeSubscriberImport(base: string, cookie: string, file: string): Promise<SubscriberImportFigures> {
  const headers = { Origin: base, Cookie: cookie };
  const form = new FormData();
  form.append('file', await openAsBlob(file, { type: 'text/csv' }), 'audience_export.csv');
  const started = performance.now();
  const res = await fetch(`${base}/api/admin/subscribers/import`, { method: 'POST', headers, body: form });
  if (res.status !== 202) throw new Error(`import refused: ${res.status} ${await res.text()}`);
  const { id } = (await res.json()) as { id: number };
  const health: number[] = [];
  const progress = new Set<number>();
  for (;;) {
    const t0 = performance.now();
    await (await fetch(`${base}/healthz`)).arrayBuffer();
    health.push(performance.now() - t0);
    const run = (await (await fetch(`${base}/api/admin/subscribers/import/${id}`, { headers })).json()) as {
      status: string;
      progress: number;
      total: number;
      added: number;
      suppressed: number;
      invalidCount: number;
    };
    if (run.status !== 'running') {
      const seconds = (performance.now() - started) / 1000;
      health.sort((a, b) => a - b);
      return {
        seconds,
        total: run.total,
        added: run.added,
        suppressed: run.suppressed,
        invalid: run.invalidCount,
        progressReads: progress.size,
        healthChecks: health.length,
        healthP99Ms: health[Math.floor(health.length * 0.99)] ?? 0,
        healthMaxMs: health.at(-1) ?? 0,
      };
    }
    progress.add(run.progress);
    await new Promise((r) => setTimeout(r, 20));
  }
}
