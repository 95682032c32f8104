// The published site document for code that renders outside a page (feeds, e-mails).
// It takes the process's database straight from db/, not through context.ts: context.ts builds
// the auth, whose e-mails read the brand from here, and that made a circle of imports.
import { getDb } from '#db/client.ts';
import { brandOf } from '#shared/site-text.ts';
import { getPublishedSite } from './document.ts';

export const publishedSite = () => getPublishedSite(getDb());

/** The names e-mails and feeds show. */
export const publishedBrand = () => brandOf(publishedSite());
