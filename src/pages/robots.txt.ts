import type { APIRoute } from 'astro';
import { robots } from '#server/content/feeds.ts';

export const GET: APIRoute = () => new Response(robots(), { headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' } });
