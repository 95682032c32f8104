// What the Substack and Ghost imports answer (POST /api/admin/import/substack, /ghost).

/** A post kept as a draft although it was public at the source, and why. */
export interface KeptAsDraftDto {
  title: string;
  slug: string;
  reason: string;
}

export interface PublicationImportResultDto {
  /** Posts and episodes created. */
  imported: number;
  /** Items left out (already here, of a kind with no place here), each named in `report`. */
  skipped: number;
  /** Items that could not be imported, each named in `report` with its reason. */
  failed: number;
  /** Posts and episodes created as drafts though the source showed them (paid or members only, pages). */
  keptAsDrafts: KeptAsDraftDto[];
  /** Images (and audio, when asked) of the old site: downloaded, found from an earlier import, or left where they were. */
  media: { downloaded: number; reused: number; failed: number };
  /** Old addresses that now answer 301. */
  redirects: number;
  /** A Substack export's e-mail list: its rows, handed to the subscriber import whose progress is GET /api/admin/subscribers/import/{importId}. */
  subscribers?: { file: string; rows: number; importId: number };
  /** One line per item and per file that could not be fetched. */
  report: string[];
}
