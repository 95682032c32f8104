import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { serverWithClients, uploadFile, type SessionClient } from '#tests/support/factories.ts';
import { DEMO_MP3, PNG_1X1 as PNG } from '#tests/support/media.ts';
import { ROOT } from '#scripts/lib/paths.ts';

// The demo MP3s shipped in the repo: 9.01 s and 13.98 s long.
const MP3_9S = readFileSync(DEMO_MP3);
const MP3_14S = readFileSync(`${ROOT}public/audio/demo/episode-3.mp3`);

let admin: SessionClient;
serverWithClients((s) => ({ admin } = s));

const upload = (body: Buffer, type: string) => uploadFile(admin, body, type);

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
