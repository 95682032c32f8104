import * as z from 'zod';

/** The fields an import reads, each from the column named here (as the file's header row spells it). */
export interface ImportMappingDto {
  email: string;
  name?: string;
  firstName?: string;
  lastName?: string;
  status?: string;
  subscribedAt?: string;
  tags?: string;
  unsubscribedAt?: string;
  cleanedAt?: string;
  subscribedToEmails?: string;
  deletedAt?: string;
  emailDisabled?: string;
}

/** A row refused, by its line as an editor shows it (the header is line 1). */
export interface InvalidRowDto {
  line: number;
  reason: string;
}

/**
 * A subscriber import, while it runs and after. Each data row counts once: `added`, `updated`
 * or `unchanged` when it ends active, `suppressed` when it ends unmailable, or in `invalid`.
 * A dry run (the preview) counts what the import would do and writes nothing.
 */
export interface SubscriberImportDto {
  id: number;
  status: 'running' | 'done' | 'failed';
  dryRun: boolean;
  fileName: string;
  /** The service the header row was recognised as, or null for a plain CSV. */
  format: 'kit' | 'mailchimp' | 'substack' | 'ghost' | 'beehiiv' | null;
  /** The subscribers' source: `import:<name>`. */
  source: string;
  mapping: ImportMappingDto;
  tags: string[];
  /** How far through the file, 0 to 100. */
  progress: number;
  total: number;
  added: number;
  updated: number;
  unchanged: number;
  suppressed: number;
  /** The first 1,000 rows refused; `invalidCount` counts them all. */
  invalid: InvalidRowDto[];
  invalidCount: number;
  error: string | null;
}

/** `?dryRun=1` previews an upload: the counts of what would happen, nothing written. */
export const ImportQuerySchema = z.object({
  dryRun: z
    .enum(['0', '1', 'true', 'false'], { error: 'dryRun must be 1 or 0' })
    .optional()
    .transform((v) => v === '1' || v === 'true'),
});

/** A tag's name: 1 to 100 characters. */
export const TAG_NAME_MAX = 100;
