// A local HTTP stand-in for the parts of Stripe's API the site calls (/v1/payment_intents, /v1/refunds),
// so the real `stripe` SDK can be pointed at it with STRIPE_API_URL.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listen, readBody, sendJson } from './double-http.ts';

export interface RecordedCall {
  method: string;
  path: string;
  form: URLSearchParams;
  idempotencyKey: string | null;
}

interface Intent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  currency: string;
  client_secret: string;
  status: string;
  description: string | null;
  metadata: Record<string, string>;
  receipt_email: string | null;
  created: number;
  last_payment_error: { message: string } | null;
}

/** What a customer's payment comes to: paid, declined, or still being processed (bank debits). */
type Outcome = 'succeeded' | 'failed' | 'processing';

export interface StripeDouble {
  url: string;
  calls: RecordedCall[];
  /** Moves an intent to a final state, as a customer's payment would. */
  settle: (id: string, status: Outcome, email?: string) => Intent;
  stop: () => Promise<void>;
}

/** The `metadata[key]` fields of a form-encoded Stripe request. */
function metadataOf(form: URLSearchParams): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [k, v] of form) {
    const m = /^metadata\[(.+)\]$/.exec(k);
    if (m) metadata[m[1]] = v;
  }
  return metadata;
}

export async function startStripeDouble(fixedPort?: number): Promise<StripeDouble> {
  const calls: RecordedCall[] = [];
  const intents = new Map<string, Intent>();
  const byKey = new Map<string, string>();
  const refunds = new Map<string, unknown>();
  const server = createServer((req, res) => void handle(req, res));
  async function handle(req: IncomingMessage, res: ServerResponse) {
    const raw = (await readBody(req)).toString();
    const url = new URL(req.url ?? '/', 'http://localhost');
    const form = new URLSearchParams(raw);
    const idempotencyKey = (req.headers['idempotency-key'] as string | undefined) ?? null;
    calls.push({ method: req.method ?? 'GET', path: url.pathname, form, idempotencyKey });
    const send = (status: number, body: unknown) =>
      sendJson(res, status, body, { 'Request-Id': `req_${randomBytes(6).toString('hex')}`, 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': 'Content-Type' });
    // Test-only controls (browser tests settle a payment the way a customer's card would).
    if (url.pathname === '/__health') return send(200, { ok: true });
    if (url.pathname === '/__control/settle') {
      if (req.method === 'OPTIONS') return send(204, null);
      const { id, status, email } = JSON.parse(raw || '{}') as { id: string; status: Outcome; email?: string };
      try {
        return send(200, settle(id, status, email));
      } catch {
        return send(404, { error: { message: 'no such intent' } });
      }
    }
    if (req.headers.authorization !== 'Bearer sk_test_double') {
      return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
    }
    if (req.method === 'POST' && url.pathname === '/v1/payment_intents') {
      if (idempotencyKey && byKey.has(idempotencyKey)) return send(200, intents.get(byKey.get(idempotencyKey)!));
      const id = `pi_${randomBytes(12).toString('hex')}`;
      const metadata = metadataOf(form);
      const intent: Intent = {
        id,
        object: 'payment_intent',
        amount: Number(form.get('amount')),
        amount_received: 0,
        currency: form.get('currency') ?? 'usd',
        client_secret: `${id}_secret_${randomBytes(8).toString('hex')}`,
        status: 'requires_payment_method',
        description: form.get('description'),
        metadata,
        receipt_email: null,
        created: Math.floor(Date.now() / 1000),
        last_payment_error: null,
      };
      intents.set(id, intent);
      if (idempotencyKey) byKey.set(idempotencyKey, id);
      return send(200, intent);
    }
    const m = /^\/v1\/payment_intents\/([^/]+)$/.exec(url.pathname);
    if ((req.method === 'GET' || req.method === 'POST') && m) {
      const intent = intents.get(m[1]);
      if (!intent) return send(404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such payment_intent' } });
      if (req.method === 'POST') {
        // An update: the receipt address and metadata.
        if (form.has('receipt_email')) intent.receipt_email = form.get('receipt_email') || null;
        Object.assign(intent.metadata, metadataOf(form));
      }
      return send(200, intent);
    }
    if (req.method === 'POST' && url.pathname === '/v1/refunds') {
      const intent = intents.get(form.get('payment_intent') ?? '');
      if (!intent) return send(404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such payment_intent' } });
      if (intent.status !== 'succeeded')
        return send(400, { error: { type: 'invalid_request_error', code: 'charge_not_refundable', message: 'This PaymentIntent has no successful charge to refund.' } });
      if (idempotencyKey && refunds.has(idempotencyKey)) return send(200, refunds.get(idempotencyKey));
      const refund = {
        id: `re_${randomBytes(12).toString('hex')}`,
        object: 'refund',
        amount: intent.amount_received,
        currency: intent.currency,
        payment_intent: intent.id,
        status: 'succeeded',
        created: Math.floor(Date.now() / 1000),
      };
      if (idempotencyKey) refunds.set(idempotencyKey, refund);
      return send(200, refund);
    }
    send(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${url.pathname})` } });
  }
  function settle(id: string, status: Outcome, email?: string): Intent {
    const intent = intents.get(id);
    if (!intent) throw new Error(`no intent ${id}`);
    if (status === 'processing') intent.status = 'processing';
    else if (status === 'succeeded') {
      intent.status = 'succeeded';
      intent.amount_received = intent.amount;
    } else {
      intent.status = 'requires_payment_method';
      intent.last_payment_error = { message: 'Your card was declined.' };
    }
    intent.receipt_email = email ?? intent.receipt_email;
    return intent;
  }
  const { port, stop } = await listen(server, fixedPort);
  return { url: `http://127.0.0.1:${port}`, calls, settle, stop };
}
