// A Substack export's e-mail list (email_list.<publication>.csv): the one place it is handed to
// the subscriber import, which keeps each address's consent as the file says.
import { createReadStream } from 'node:fs';
import Papa from 'papaparse';

/**
 * Hands the e-mail list at `csvPath` to the subscriber import. Until that import exists, it
 * only counts the list's rows: they are answered as pending, and nothing is stored.
 */
export async function importSubscriberList(csvPath: string, _source: 'substack'): Promise<{ pending: number }> {
  let pending = 0;
  await new Promise<void>((done, fail) => {
    Papa.parse(createReadStream(csvPath), { header: true, skipEmptyLines: 'greedy', step: () => void (pending += 1), complete: () => done(), error: fail });
  });
  return { pending };
}
