import type { APIRoute } from 'astro';
import { sitemap } from '#server/content/feeds.ts';

export const GET: APIRoute = () => new Response(sitemap(), { headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=300' } });
