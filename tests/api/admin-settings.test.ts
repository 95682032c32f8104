import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, clientAs } from '#tests/support/factories.ts';
import { startServer, type TestServer } from '#tests/support/server.ts';

/** The owner's settings as a fresh site has them. */
const DEFAULTS = {
  settings: { notifyComments: true, notifyRegistrations: true, notifyApprovals: true, downloadDays: 7, downloadLimit: 5 },
  lockedOff: { notifyComments: false, notifyRegistrations: false, notifyApprovals: false },
};

let bare: TestServer;
let configured: TestServer;
beforeAll(async () => {
  [bare, configured] = await Promise.all([
    startServer(),
    startServer({ ANALYTICS_ID: 'G-TEST123', ANALYTICS_DASHBOARD_URL: 'https://analytics.example.com/p/123', STRIPE_SECRET_KEY: 'sk_test_secret' }),
  ]);
});
afterAll(async () => {
  await Promise.all([bare?.stop(), configured?.stop()]);
});

describe('GET /api/admin/settings', () => {
  it('is for admins only', async () => {
    expect((await new Client(bare).get('/api/admin/settings')).status).toBe(401);
    expect((await (await clientAs(bare, 'user')).get('/api/admin/settings')).status).toBe(403);
  });

  it('says analytics is off when no id is configured', async () => {
    const res = await (await clientAs(bare, 'admin')).get('/api/admin/settings');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ analyticsConfigured: false, analyticsDashboardUrl: null, podcastOwnerEmailConfigured: false, mailConfigured: false, ...DEFAULTS });
  });

  it('says analytics is on and where its dashboard is, without repeating any id or secret', async () => {
    const res = await (await clientAs(configured, 'admin')).get('/api/admin/settings');
    expect(res.body).toEqual({ analyticsConfigured: true, analyticsDashboardUrl: 'https://analytics.example.com/p/123', podcastOwnerEmailConfigured: false, mailConfigured: false, ...DEFAULTS });
    expect(res.text).not.toContain('G-TEST123');
    expect(res.text).not.toContain('sk_test');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});
