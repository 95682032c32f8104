// The published site document for code that renders outside a page (feeds, e-mails).
import { getDb } from '#server/db.ts';
import { brandOf } from '#shared/site-text.ts';
import { getPublishedSite } from './document.ts';

export const publishedSite = () => getPublishedSite(getDb());

/** The names e-mails and feeds show. */
export const publishedBrand = () => brandOf(publishedSite());
