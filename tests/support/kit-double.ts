// A local HTTP stand-in for Kit's v4 subscriber endpoints. `failNext` makes the next calls
// answer 500, to exercise retries; `setState` stands for what happens at Kit (its confirmation
// e-mail followed, a cancellation), which GET /v4/subscribers/{id} then answers.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listen, readBody, sendJson } from './double-http.ts';

export interface KitCall {
  method: string;
  path: string;
  body: Record<string, unknown>;
  apiKey: string | undefined;
}

export async function startKitDouble() {
  const calls: KitCall[] = [];
  const byEmail = new Map<string, number>();
  const states = new Map<number, string>();
  let nextId = 9000;
  let failures = 0;
  let held: Promise<void> | null = null;
  const server = createServer((req, res) => void handle(req, res));
  async function handle(req: IncomingMessage, res: ServerResponse) {
    const raw = (await readBody(req)).toString();
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    calls.push({ method: req.method ?? '', path: req.url ?? '', body, apiKey: req.headers['x-kit-api-key'] as string | undefined });
    const send = (status: number, data: unknown) => sendJson(res, status, data);
    if (failures > 0) {
      failures -= 1;
      return send(500, { errors: ['Internal server error'] });
    }
    if (req.headers['x-kit-api-key'] !== 'kit_test_key') return send(401, { errors: ['API Key not valid'] });
    if (req.method === 'POST' && req.url === '/v4/subscribers') {
      if (held) await held;
      const email = String(body.email_address);
      const existing = byEmail.get(email);
      const id = existing ?? nextId++;
      byEmail.set(email, id);
      if (!existing || body.state === 'active') states.set(id, body.state === 'inactive' ? 'inactive' : 'active');
      return send(existing ? 200 : 201, { subscriber: { id, email_address: email, first_name: body.first_name ?? null, state: states.get(id) } });
    }
    // Adding a subscriber to a form (Kit then sends the form's own confirmation e-mail).
    const form = /^\/v4\/forms\/(\d+)\/subscribers$/.exec(req.url ?? '');
    if (req.method === 'POST' && form) {
      const id = byEmail.get(String(body.email_address));
      if (id === undefined) return send(404, { errors: ['Subscriber not found'] });
      return send(201, { subscriber: { id, email_address: body.email_address, state: 'inactive' } });
    }
    const one = /^\/v4\/subscribers\/(\d+)$/.exec(req.url ?? '');
    if (req.method === 'GET' && one) {
      const id = Number(one[1]);
      const email = [...byEmail].find(([, n]) => n === id)?.[0];
      if (email === undefined) return send(404, { errors: ['Not Found'] });
      return send(200, { subscriber: { id, email_address: email, first_name: null, state: states.get(id) ?? 'active', created_at: new Date().toISOString(), fields: {} } });
    }
    const unsubscribe = /^\/v4\/subscribers\/(\d+)\/unsubscribe$/.exec(req.url ?? '');
    if (req.method === 'POST' && unsubscribe) {
      states.set(Number(unsubscribe[1]), 'cancelled');
      return send(200, {});
    }
    send(404, { errors: ['Not Found'] });
  }
  const { port, stop } = await listen(server);
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    failNext: (n: number) => {
      failures = n;
    },
    /** What Kit knows of an address now ('active' once its confirmation e-mail was followed, 'cancelled', ...). */
    setState: (email: string, state: string) => {
      const id = byEmail.get(email);
      if (id === undefined) throw new Error(`Kit knows no ${email}`);
      states.set(id, state);
    },
    /** Holds every answer to 'create a subscriber' until the returned function is called. */
    holdCreates: () => {
      let release!: () => void;
      held = new Promise<void>((r) => (release = r));
      return () => {
        held = null;
        release();
      };
    },
    stop,
  };
}
