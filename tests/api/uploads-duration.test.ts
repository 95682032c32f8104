import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientAs, type Client } from '../support/factories.ts';
import { ROOT } from '../support/paths.ts';
import { startServer, type TestServer } from '../support/server.ts';

// The demo MP3s shipped in the repo: 9.01 s and 13.98 s long.
const MP3_9S = readFileSync(`${ROOT}public/audio/demo/episode-1.mp3`);
const MP3_14S = readFileSync(`${ROOT}public/audio/demo/episode-3.mp3`);
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

let server: TestServer;
let admin: Client;
beforeAll(async () => {
  server = await startServer();
  admin = await clientAs(server, 'admin');
});
afterAll(async () => {
  await server?.stop();
});

async function upload(body: Buffer, type: string) {
  const { body: slot } = await admin.post('/api/objects/upload');
  const res = await fetch(slot.uploadURL as string, {
    method: 'PUT',
    body: new Uint8Array(body),
    headers: { 'Content-Type': type, Origin: server.url },
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('audio uploads', () => {
  it('answer the length in whole seconds beside the URL', async () => {
    const res = await upload(MP3_9S, 'audio/mpeg');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ contentType: 'audio/mpeg', size: MP3_9S.length, duration: 9 });
    expect(res.body.url).toMatch(/^\/uploads\/.+\.mp3$/);
  });

  it('round to the nearest second', async () => {
    const res = await upload(MP3_14S, 'audio/mpeg');
    expect(res.body.duration).toBe(14);
  });

  it('answer null when the length cannot be read', async () => {
    // The ID3 header and the first bytes of a frame: an MP3 to the type check, no audio to measure.
    const res = await upload(MP3_9S.subarray(0, 500), 'audio/mpeg');
    expect(res.status).toBe(200);
    expect(res.body.duration).toBeNull();
  });

  it('leave image answers as they were', async () => {
    const res = await upload(PNG, 'image/png');
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('duration');
  });
});
