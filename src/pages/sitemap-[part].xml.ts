import type { APIRoute } from 'astro';
import { sitemapPart } from '#server/content/feeds.ts';

/** One part of the sitemap index that /sitemap.xml becomes past 50,000 URLs. */
export const GET: APIRoute = ({ params }) => {
  const part = /^[1-9]\d{0,4}$/.test(params.part ?? '') ? sitemapPart(Number(params.part)) : null;
  if (!part) return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  return new Response(part, { headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=300' } });
};
