// Small real media files for upload tests. Node built-ins only: the browser tests load it too.
import { fileURLToPath } from 'node:url';

/** A real 1x1 PNG, so the server's byte sniffing accepts it. */
export const PNG_1X1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** The demo MP3 shipped in the repo (9.01 s long). */
export const DEMO_MP3 = fileURLToPath(new URL('../../public/audio/demo/episode-1.mp3', import.meta.url));
