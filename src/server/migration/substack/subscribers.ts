// A Substack export's e-mail list (email_list.<publication>.csv): handed to the subscriber
// import, which keeps each address's consent as the file says (Substack's email_disabled rows
// come in unsubscribed) and sends nobody anything. It runs in the background on the server's
// job runner; its progress is GET /api/admin/subscribers/import/{importId}.
import { createReadStream } from 'node:fs';
import Papa from 'papaparse';
import { startSubscriberImport } from '#server/newsletter/import/subscriber-import.ts';

/** Starts the subscriber import of the e-mail list at `csvPath` (the file is moved, not copied); answers its rows and the import's id. */
export async function importSubscriberList(csvPath: string, fileName: string, source: 'substack'): Promise<{ rows: number; importId: number }> {
  let rows = 0;
  await new Promise<void>((done, fail) => {
    Papa.parse(createReadStream(csvPath), { header: true, skipEmptyLines: 'greedy', step: () => void (rows += 1), complete: () => done(), error: fail });
  });
  const { id } = await startSubscriberImport({ csv: csvPath, fileName, sourceName: source });
  return { rows, importId: id };
}
