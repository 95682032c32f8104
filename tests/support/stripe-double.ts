// A local HTTP stand-in for the parts of Stripe's API the site calls, so the real `stripe` SDK can be
// pointed at it with STRIPE_API_URL: one-off payments (/v1/payment_intents, /v1/refunds) and Stripe
// Billing (customers, products and prices, coupons and promotion codes, subscriptions with their
// invoices and invoice payments, billing portal sessions) and disputes (chargebacks). Objects carry the field names of API
// version 2026-10-28; their types are picked from the SDK's own. Test controls play the customer's
// card and Stripe's clock: methods on the returned object, and the same as POST /__control/<name>
// with the method's arguments as JSON (for browser tests; no API key needed). A POST repeated with an
// Idempotency-Key already used on the same path gets the first answer again, as at Stripe.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type Stripe from 'stripe';
import { freePort } from '#scripts/lib/net.ts';
import { listen, readBody, sendJson } from './double-http.ts';

export interface RecordedCall {
  method: string;
  path: string;
  /** The request's form fields, and for a GET or DELETE its query. */
  form: URLSearchParams;
  idempotencyKey: string | null;
}

export interface Intent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  currency: string;
  client_secret: string;
  status: string;
  customer: string | null;
  description: string | null;
  latest_charge: string | null;
  livemode: boolean;
  metadata: Record<string, string>;
  receipt_email: string | null;
  created: number;
  last_payment_error: { type: 'card_error'; code: string; decline_code: string; message: string } | null;
  canceled_at?: number | null;
  cancellation_reason?: string | null;
  next_action?: { type: string } | null;
}

/** A list as Stripe answers one. */
export interface List<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  url: string;
}

// The Billing objects, with the SDK's own field types (ids where the API answers ids).
export type Customer = Pick<Stripe.Customer, 'id' | 'object' | 'balance' | 'created' | 'default_source' | 'description' | 'email' | 'invoice_prefix' | 'livemode' | 'metadata' | 'name' | 'shipping'>;
export type Product = Pick<
  Stripe.Product,
  'id' | 'object' | 'active' | 'created' | 'description' | 'images' | 'livemode' | 'marketing_features' | 'metadata' | 'name' | 'package_dimensions' | 'shippable' | 'type' | 'updated' | 'url'
>;
export type Price = Pick<Stripe.Price, 'id' | 'object' | 'active' | 'billing_scheme' | 'created' | 'currency' | 'custom_unit_amount' | 'livemode' | 'lookup_key' | 'metadata' | 'nickname'> &
  Pick<Stripe.Price, 'recurring' | 'tax_behavior' | 'tiers_mode' | 'transform_quantity' | 'type' | 'unit_amount'> & { product: string };
export type Coupon = Pick<Stripe.Coupon, 'id' | 'object' | 'amount_off' | 'created' | 'currency' | 'duration' | 'duration_in_months' | 'livemode' | 'max_redemptions' | 'metadata' | 'name'> &
  Pick<Stripe.Coupon, 'percent_off' | 'redeem_by' | 'times_redeemed' | 'valid'>;
export type PromotionCode = Pick<
  Stripe.PromotionCode,
  'id' | 'object' | 'active' | 'code' | 'created' | 'customer' | 'expires_at' | 'livemode' | 'max_redemptions' | 'metadata' | 'restrictions' | 'times_redeemed'
> & { promotion: { type: 'coupon'; coupon: string } };
export type SubscriptionItem = Pick<
  Stripe.SubscriptionItem,
  'id' | 'object' | 'billing_thresholds' | 'created' | 'current_period_end' | 'current_period_start' | 'metadata' | 'quantity' | 'subscription' | 'tax_rates'
> & { discounts: string[]; price: Price };
export type Subscription = Pick<Stripe.Subscription, 'id' | 'object' | 'billing_cycle_anchor' | 'cancel_at' | 'cancel_at_period_end' | 'canceled_at' | 'cancellation_details' | 'collection_method'> &
  Pick<Stripe.Subscription, 'created' | 'currency' | 'days_until_due' | 'default_payment_method' | 'description' | 'ended_at' | 'livemode' | 'metadata' | 'pause_collection'> &
  Pick<Stripe.Subscription, 'payment_settings' | 'pending_setup_intent' | 'pending_update' | 'schedule' | 'start_date' | 'status' | 'test_clock' | 'trial_end' | 'trial_start'> & {
    customer: string;
    discounts: string[];
    items: List<SubscriptionItem>;
    latest_invoice: string | null;
  };
export type InvoiceLine = Pick<
  Stripe.InvoiceLineItem,
  'id' | 'object' | 'amount' | 'currency' | 'description' | 'discountable' | 'invoice' | 'livemode' | 'metadata' | 'parent' | 'period' | 'quantity' | 'subtotal'
> & { discount_amounts: { amount: number; discount: string }[]; discounts: string[] };
export type Invoice = Pick<Stripe.Invoice, 'id' | 'object' | 'amount_due' | 'amount_overpaid' | 'amount_paid' | 'amount_remaining' | 'amount_shipping' | 'attempt_count' | 'attempted'> &
  Pick<Stripe.Invoice, 'auto_advance' | 'billing_reason' | 'collection_method' | 'created' | 'currency' | 'customer_email' | 'customer_name' | 'description' | 'due_date'> &
  Pick<Stripe.Invoice, 'effective_at' | 'ending_balance' | 'hosted_invoice_url' | 'invoice_pdf' | 'livemode' | 'metadata' | 'next_payment_attempt' | 'number' | 'parent'> &
  Pick<Stripe.Invoice, 'period_end' | 'period_start' | 'starting_balance' | 'status' | 'status_transitions' | 'subtotal' | 'subtotal_excluding_tax' | 'total'> &
  Pick<Stripe.Invoice, 'total_excluding_tax'> & { customer: string; discounts: string[]; lines: List<InvoiceLine>; total_discount_amounts: { amount: number; discount: string }[] };
export type InvoicePayment = Pick<
  Stripe.InvoicePayment,
  'id' | 'object' | 'amount_paid' | 'amount_requested' | 'created' | 'currency' | 'is_default' | 'livemode' | 'payment' | 'status' | 'status_transitions'
> & { invoice: string };
export type Charge = Pick<Stripe.Charge, 'id' | 'object' | 'amount' | 'amount_captured' | 'amount_refunded' | 'captured' | 'created' | 'currency' | 'customer' | 'description' | 'disputed'> &
  Pick<Stripe.Charge, 'failure_code' | 'failure_message' | 'livemode' | 'metadata' | 'paid' | 'payment_intent' | 'receipt_email' | 'refunded' | 'status'>;
export type Refund = Pick<
  Stripe.Refund,
  'id' | 'object' | 'amount' | 'balance_transaction' | 'charge' | 'created' | 'currency' | 'metadata' | 'payment_intent' | 'reason' | 'receipt_number' | 'status'
>;
export type Dispute = Pick<Stripe.Dispute, 'id' | 'object' | 'amount' | 'created' | 'currency' | 'is_charge_refundable' | 'livemode' | 'metadata' | 'reason' | 'status'> & {
  charge: string;
  payment_intent: string | null;
  balance_transactions: never[];
};
export type PortalSession = Pick<
  Stripe.BillingPortal.Session,
  'id' | 'object' | 'configuration' | 'created' | 'customer' | 'customer_account' | 'flow' | 'livemode' | 'locale' | 'on_behalf_of' | 'return_url' | 'url'
>;

/** A webhook event as Stripe sends it; tests sign its JSON with Stripe.webhooks.generateTestHeaderString. */
export interface StripeEvent<T = unknown> {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  livemode: false;
  pending_webhooks: number;
  request: { id: null; idempotency_key: null };
  type: Stripe.Event.Type;
  data: { object: T; previous_attributes?: Record<string, unknown> };
}

/** How a payment attempt ends: paid, declined, a bank debit under way, a 3-D Secure check asked for, or a bank account to verify by micro-deposits. */
export type Outcome = 'succeeded' | 'failed' | 'processing' | 'requires_action' | 'microdeposits';

export interface StripeDouble {
  url: string;
  calls: RecordedCall[];
  /** Moves an intent to a final state, as a customer's payment would (an invoice's intent pays or fails its invoice too). */
  settle: (id: string, status: Outcome, email?: string) => Intent;
  /** Pays the subscription's open invoice; the subscription becomes active. */
  payInvoice: (subscriptionId: string) => Invoice;
  /** Fails an attempt to pay the subscription's open invoice; an active subscription becomes past_due. */
  failInvoice: (subscriptionId: string) => Invoice;
  /** Starts the subscription's next billing period with a new open invoice. */
  nextInvoice: (subscriptionId: string) => Invoice;
  /** Ends the subscription as Stripe does by itself (cancel_at reached, or retries exhausted). */
  endSubscription: (subscriptionId: string) => Subscription;
  /** A webhook event carrying a copy of `object`. */
  event: <T>(type: Stripe.Event.Type, object: T, previousAttributes?: Record<string, unknown>) => StripeEvent<T>;
  /** The latest charge of a PaymentIntent that has been paid (or tried), with its refunds. */
  charge: (paymentIntentId: string) => Charge;
  /** The cardholder's bank disputes the PaymentIntent's paid charge: a dispute awaiting the merchant's response. */
  dispute: (paymentIntentId: string, reason?: string) => Dispute;
  /** The card network decides a dispute. */
  closeDispute: (disputeId: string, outcome: 'won' | 'lost') => Dispute;
  /** Keeps the API calls to `path` waiting until the returned function is called (two checkouts in flight at once). */
  pause: (path: string) => () => void;
  intents: Map<string, Intent>;
  customers: Map<string, Customer>;
  prices: Map<string, Price>;
  coupons: Map<string, Coupon>;
  promotionCodes: Map<string, PromotionCode>;
  subscriptions: Map<string, Subscription>;
  invoices: Map<string, Invoice>;
  stop: () => Promise<void>;
}

/** An error as Stripe answers it: an HTTP status and `{ error: { type, code, message, param } }`. */
class StripeError extends Error {
  status: number;
  code: string | undefined;
  param: string | undefined;
  /** The PaymentIntent an error is about, which Stripe sends with it. */
  paymentIntent: Intent | undefined;
  constructor(status: number, message: string, code?: string, param?: string, paymentIntent?: Intent) {
    super(message);
    this.status = status;
    this.code = code;
    this.param = param;
    this.paymentIntent = paymentIntent;
  }
  get body() {
    return {
      error: {
        type: 'invalid_request_error',
        message: this.message,
        ...(this.code && { code: this.code }),
        ...(this.param && { param: this.param }),
        ...(this.paymentIntent && { payment_intent: structuredClone(this.paymentIntent) }),
      },
    };
  }
}

const invalid = (message: string, param?: string, code?: string) => new StripeError(400, message, code, param);
/** What Stripe answers an action its PaymentIntent's status does not allow. */
const unexpectedState = (intent: Intent, action: 'cancel' | 'confirm') =>
  new StripeError(
    400,
    action === 'cancel'
      ? `You cannot cancel this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be canceled: requires_payment_method, requires_capture, requires_confirmation, requires_action, processing.`
      : `You cannot confirm this PaymentIntent because it has a status of ${intent.status}.`,
    'payment_intent_unexpected_state',
    undefined,
    intent,
  );
/** A missing object: 404 when it was asked for by its URL, 400 when a parameter named it. */
const noSuch = (kind: string, id: string, param?: string) => new StripeError(param ? 400 : 404, `No such ${kind}: '${id}'`, 'resource_missing', param);

/** A form-encoded request read into nested values: `items[0][price]=p` is { items: [{ price: 'p' }] }. */
type Field = string | Field[] | { [key: string]: Field };
type Fields = { [key: string]: Field };

/** The parts of a form name: `items[0][price]` is ['items', '0', 'price']; `expand[]` ends in ''. */
function partsOf(name: string): string[] {
  const m = /^([^[\]]+)((?:\[[^\]]*\])*)$/.exec(name);
  return m ? [m[1], ...Array.from(m[2].matchAll(/\[([^\]]*)\]/g), (s) => s[1])] : [];
}

/** Reads form fields into nested objects; objects keyed 0, 1, ... (or by `[]`) become arrays. */
function parseForm(form: URLSearchParams): Fields {
  const root: Fields = {};
  for (const [name, value] of form) {
    const parts = partsOf(name);
    if (!parts.length) continue;
    let node = root;
    parts.forEach((part, i) => {
      const key = part === '' ? String(Object.keys(node).length) : part;
      if (i === parts.length - 1) return void (node[key] = value);
      const next = node[key];
      const child: Fields = typeof next === 'object' && !Array.isArray(next) ? next : {};
      node[key] = child;
      node = child;
    });
  }
  const lists = (field: Field): Field => {
    if (typeof field === 'string' || Array.isArray(field)) return field;
    const keys = Object.keys(field);
    if (keys.length && keys.every((k) => /^\d+$/.test(k))) return keys.sort((a, b) => Number(a) - Number(b)).map((k) => lists(field[k]));
    return Object.fromEntries(keys.map((k) => [k, lists(field[k])]));
  };
  return Object.fromEntries(Object.entries(root).map(([k, v]) => [k, k === 'metadata' ? v : lists(v)]));
}

/** Reads a request's fields by their form names (`items[0][price]`), answering Stripe's 400 for a malformed one. */
function reader(fields: Fields) {
  const at = (name: string): Field | undefined => {
    let node: Field | undefined = fields;
    for (const part of partsOf(name)) {
      if (node === undefined || typeof node === 'string') return undefined;
      node = Array.isArray(node) ? node[Number(part)] : node[part];
    }
    return node;
  };
  const str = (name: string) => {
    const value = at(name);
    return typeof value === 'string' ? value : undefined;
  };
  const number = (name: string, pattern: RegExp, kind: string) => {
    const value = str(name);
    if (value === undefined || value === '') return undefined;
    if (!pattern.test(value)) throw invalid(`Invalid ${kind}: ${value}`, name, `parameter_invalid_${kind}`);
    return Number(value);
  };
  return {
    str,
    has: (name: string) => at(name) !== undefined,
    required(name: string): string {
      const value = str(name);
      if (!value) throw invalid(`Missing required param: ${name}.`, name, 'parameter_missing');
      return value;
    },
    int: (name: string) => number(name, /^-?\d+$/, 'integer'),
    decimal: (name: string) => number(name, /^-?\d+(\.\d+)?$/, 'decimal'),
    bool(name: string): boolean | undefined {
      const value = str(name);
      if (value === undefined) return undefined;
      if (value !== 'true' && value !== 'false') throw invalid(`Invalid boolean: ${value}`, name);
      return value === 'true';
    },
    /** One of `allowed`, or undefined when absent. */
    oneOf<T extends string>(name: string, allowed: readonly T[]): T | undefined {
      const value = str(name);
      if (value === undefined) return undefined;
      if (!allowed.includes(value as T)) throw invalid(`Invalid ${name}: must be one of ${allowed.join(', ')}`, name);
      return value as T;
    },
    /** A list of strings (`expand[]=a&expand[]=b`, or `expand[0]=a`). */
    list(name: string): string[] {
      const value = at(name);
      return Array.isArray(value) ? value.filter((v) => typeof v === 'string') : typeof value === 'string' ? [value] : [];
    },
    metadata(): Record<string, string> {
      const value = at('metadata');
      if (typeof value !== 'object' || Array.isArray(value)) return {};
      return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
    },
  };
}
type Reader = ReturnType<typeof reader>;

/** Applies a request's `metadata[key]=value` fields to stored metadata: an empty value removes its key, `metadata=` all of them. */
function updateMetadata(metadata: Record<string, string>, r: Reader): void {
  if (r.str('metadata') === '') for (const key of Object.keys(metadata)) delete metadata[key];
  for (const [key, value] of Object.entries(r.metadata())) {
    if (value === '') delete metadata[key];
    else metadata[key] = value;
  }
}

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const randomCode = () => randomBytes(4).toString('hex').toUpperCase();
const nowSeconds = () => Math.floor(Date.now() / 1000);
const list = <T>(data: T[], url: string): List<T> => ({ object: 'list', data, has_more: false, url });
const money = (amount: number, currency: string) => new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amount / 100);
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The end of a billing period that starts at `start`; a month from the 31st ends on the last day of a shorter month. */
function periodEnd(start: number, recurring: Price['recurring']): number {
  const date = new Date(start * 1000);
  const count = recurring?.interval_count ?? 1;
  const interval = recurring?.interval ?? 'month';
  if (interval === 'day' || interval === 'week') {
    date.setUTCDate(date.getUTCDate() + count * (interval === 'week' ? 7 : 1));
  } else {
    const day = date.getUTCDate();
    date.setUTCDate(1);
    date.setUTCMonth(date.getUTCMonth() + count * (interval === 'year' ? 12 : 1));
    const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
    date.setUTCDate(Math.min(day, lastDay));
  }
  return Math.floor(date.getTime() / 1000);
}

/** Whether a coupon can still be redeemed (its redemptions and its redeem-by date). */
function couponValid(coupon: Coupon): boolean {
  coupon.valid = (coupon.max_redemptions === null || coupon.times_redeemed < coupon.max_redemptions) && (coupon.redeem_by === null || coupon.redeem_by > nowSeconds());
  return coupon.valid;
}

/** A discount on a subscription: its coupon, and how many more invoices it takes something off (null: all of them). */
interface Discount {
  id: string;
  coupon: Coupon;
  promotionCode: string | null;
  invoicesLeft: number | null;
  redeemed: boolean;
}

/** What ties an invoice to its subscription and to the PaymentIntent that pays it (none when nothing was due). */
interface Billing {
  subscription: string;
  intent: string | null;
  payment: string;
}

/** A blank one-page PDF, served as every invoice's PDF. */
const PDF =
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n';

export async function startStripeDouble(fixedPort?: number): Promise<StripeDouble> {
  const port = fixedPort ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const calls: RecordedCall[] = [];
  const intents = new Map<string, Intent>();
  const charges = new Map<string, Charge>();
  const disputes = new Map<string, Dispute>();
  const customers = new Map<string, Customer>();
  const products = new Map<string, Product>();
  const prices = new Map<string, Price>();
  const coupons = new Map<string, Coupon>();
  const promotionCodes = new Map<string, PromotionCode>();
  const subscriptions = new Map<string, Subscription>();
  const invoices = new Map<string, Invoice>();
  const portalSessions = new Map<string, PortalSession>();
  const discounts = new Map<string, Discount[]>(); // by subscription
  const billings = new Map<string, Billing>(); // by invoice
  const invoiceOfIntent = new Map<string, string>();
  const invoiceCounts = new Map<string, number>(); // by customer, for invoice numbers
  const replies = new Map<string, unknown>(); // by path and idempotency key
  const sentWith = new Map<string, string>(); // the parameters each key was first sent with

  const need = <T>(map: Map<string, T>, id: string, kind: string, param?: string): T => {
    const found = map.get(id);
    if (found === undefined) throw noSuch(kind, id, param);
    return found;
  };

  // Payments: PaymentIntents, their charges, refunds.

  function newIntent(amount: number, currency: string, description: string | null, metadata: Record<string, string>, customer: string | null): Intent {
    const id = newId('pi');
    const intent: Intent = {
      id,
      object: 'payment_intent',
      amount,
      amount_received: 0,
      currency,
      client_secret: `${id}_secret_${randomBytes(8).toString('hex')}`,
      status: 'requires_payment_method',
      customer,
      description,
      latest_charge: null,
      livemode: false,
      metadata,
      receipt_email: null,
      created: nowSeconds(),
      last_payment_error: null,
    };
    intents.set(id, intent);
    return intent;
  }

  /** Records a payment attempt on the intent's charge: a new charge unless the latest is still pending. */
  function recordCharge(intent: Intent): void {
    let charge = intent.latest_charge ? charges.get(intent.latest_charge) : undefined;
    if (!charge || charge.status !== 'pending') {
      charge = {
        id: newId('ch'),
        object: 'charge',
        amount: intent.amount,
        amount_captured: 0,
        amount_refunded: 0,
        captured: false,
        created: nowSeconds(),
        currency: intent.currency,
        customer: intent.customer,
        description: intent.description,
        disputed: false,
        failure_code: null,
        failure_message: null,
        livemode: false,
        metadata: { ...intent.metadata },
        paid: false,
        payment_intent: intent.id,
        receipt_email: intent.receipt_email,
        refunded: false,
        status: 'pending',
      };
      charges.set(charge.id, charge);
      intent.latest_charge = charge.id;
    }
    const paid = intent.status === 'succeeded';
    charge.status = paid ? 'succeeded' : intent.status === 'processing' ? 'pending' : 'failed';
    charge.paid = charge.captured = paid;
    charge.amount_captured = intent.amount_received;
    charge.receipt_email = intent.receipt_email;
    charge.failure_code = intent.last_payment_error?.code ?? null;
    charge.failure_message = intent.last_payment_error?.message ?? null;
  }

  function settle(id: string, status: Outcome, email?: string): Intent {
    const intent = intents.get(id);
    if (!intent) throw new Error(`no intent ${id}`);
    // A cancelled or paid payment cannot be confirmed: Stripe.js gets this error.
    if (intent.status === 'canceled' || intent.status === 'succeeded') throw unexpectedState(intent, 'confirm');
    // Waiting for the customer (a 3-D Secure check, or the amounts of two micro-deposits): nothing charged yet.
    if (status === 'requires_action' || status === 'microdeposits') {
      intent.status = 'requires_action';
      intent.next_action = { type: status === 'microdeposits' ? 'verify_with_microdeposits' : 'use_stripe_sdk' };
      return intent;
    }
    intent.next_action = null;
    if (status === 'processing') intent.status = 'processing';
    else if (status === 'succeeded') {
      intent.status = 'succeeded';
      intent.amount_received = intent.amount;
      intent.last_payment_error = null;
    } else {
      intent.status = 'requires_payment_method';
      intent.last_payment_error = { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' };
    }
    intent.receipt_email = email ?? intent.receipt_email;
    recordCharge(intent);
    const invoice = invoices.get(invoiceOfIntent.get(id) ?? '');
    if (invoice && status === 'succeeded') invoicePaid(invoice);
    if (invoice && status === 'failed') invoiceFailed(invoice);
    return intent;
  }

  /** POST /v1/payment_intents/:id/cancel: an unpaid payment can no longer be made. */
  function cancelIntent(id: string, r: Reader): Intent {
    const intent = need(intents, id, 'payment_intent');
    if (!['requires_payment_method', 'requires_capture', 'requires_confirmation', 'requires_action'].includes(intent.status)) throw unexpectedState(intent, 'cancel');
    intent.status = 'canceled';
    intent.cancellation_reason = r.oneOf('cancellation_reason', ['duplicate', 'fraudulent', 'requested_by_customer', 'abandoned'] as const) ?? null;
    intent.canceled_at = nowSeconds();
    return intent;
  }

  function refund(r: Reader): Refund {
    const intentId = r.str('payment_intent') ?? '';
    const intent = intents.get(intentId);
    if (!intent) throw new StripeError(404, `No such payment_intent: '${intentId}'`, 'resource_missing');
    const charge = intent.latest_charge ? charges.get(intent.latest_charge) : undefined;
    if (intent.status !== 'succeeded' || !charge) throw invalid('This PaymentIntent has no successful charge to refund.', undefined, 'charge_not_refundable');
    const left = charge.amount_captured - charge.amount_refunded;
    if (left <= 0) throw invalid(`Charge ${charge.id} has already been refunded.`, undefined, 'charge_already_refunded');
    const amount = r.int('amount') ?? left;
    if (amount <= 0 || amount > left)
      throw invalid(`Refund amount (${money(amount, charge.currency)}) is greater than unrefunded amount on charge (${money(left, charge.currency)})`, 'amount', 'amount_too_large');
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded >= charge.amount_captured;
    const reason = r.oneOf('reason', ['duplicate', 'fraudulent', 'requested_by_customer'] as const) ?? null;
    return {
      id: newId('re'),
      object: 'refund',
      amount,
      balance_transaction: null,
      charge: charge.id,
      created: nowSeconds(),
      currency: intent.currency,
      metadata: r.metadata(),
      payment_intent: intent.id,
      reason,
      receipt_number: null,
      status: 'succeeded',
    };
  }

  // Customers and the catalogue.

  function createCustomer(r: Reader): Customer {
    const customer: Customer = {
      id: newId('cus'),
      object: 'customer',
      balance: 0,
      created: nowSeconds(),
      default_source: null,
      description: r.str('description') ?? null,
      email: r.str('email') || null,
      invoice_prefix: randomCode(),
      livemode: false,
      metadata: r.metadata(),
      name: r.str('name') || null,
      shipping: null,
    };
    customers.set(customer.id, customer);
    return customer;
  }

  function updateCustomer(id: string, r: Reader): Customer {
    const customer = need(customers, id, 'customer');
    if (r.has('email')) customer.email = r.str('email') || null;
    if (r.has('name')) customer.name = r.str('name') || null;
    if (r.has('description')) customer.description = r.str('description') || null;
    updateMetadata(customer.metadata, r);
    return customer;
  }

  function createProduct(name: string, metadata: Record<string, string>): Product {
    const now = nowSeconds();
    const product: Product = {
      id: newId('prod'),
      object: 'product',
      active: true,
      created: now,
      description: null,
      images: [],
      livemode: false,
      marketing_features: [],
      metadata,
      name,
      package_dimensions: null,
      shippable: null,
      type: 'service',
      updated: now,
      url: null,
    };
    products.set(product.id, product);
    return product;
  }

  function createPrice(r: Reader): Price {
    const currency = r.required('currency').toLowerCase();
    const unitAmount = r.int('unit_amount');
    if (unitAmount === undefined) throw invalid('Missing required param: unit_amount.', 'unit_amount', 'parameter_missing');
    if (unitAmount < 0) throw invalid('Invalid unit_amount: must be at least 0.', 'unit_amount');
    const productId = r.str('product');
    const product = productId ? need(products, productId, 'product', 'product') : createProduct(r.required('product_data[name]'), {});
    let recurring: Price['recurring'] = null;
    if (r.has('recurring')) {
      const interval = r.oneOf('recurring[interval]', ['day', 'week', 'month', 'year'] as const);
      if (!interval) throw invalid('Missing required param: recurring[interval].', 'recurring[interval]', 'parameter_missing');
      const count = r.int('recurring[interval_count]') ?? 1;
      if (count < 1) throw invalid('Invalid recurring[interval_count]: must be at least 1.', 'recurring[interval_count]');
      recurring = { interval, interval_count: count, meter: null, trial_period_days: null, usage_type: 'licensed' };
    }
    const price: Price = {
      id: newId('price'),
      object: 'price',
      active: r.bool('active') ?? true,
      billing_scheme: 'per_unit',
      created: nowSeconds(),
      currency,
      custom_unit_amount: null,
      livemode: false,
      lookup_key: r.str('lookup_key') ?? null,
      metadata: r.metadata(),
      nickname: r.str('nickname') ?? null,
      product: product.id,
      recurring,
      tax_behavior: 'unspecified',
      tiers_mode: null,
      transform_quantity: null,
      type: recurring ? 'recurring' : 'one_time',
      unit_amount: unitAmount,
    };
    prices.set(price.id, price);
    return price;
  }

  // Coupons and promotion codes.

  function createCoupon(r: Reader): Coupon {
    const id = r.str('id') || randomCode();
    if (coupons.has(id)) throw invalid('Coupon already exists.', 'id', 'resource_already_exists');
    const percentOff = r.decimal('percent_off');
    const amountOff = r.int('amount_off');
    if (percentOff === undefined && amountOff === undefined) throw invalid('You must pass either percent_off or amount_off.', 'percent_off', 'parameter_missing');
    if (percentOff !== undefined && amountOff !== undefined) throw invalid('You may only pass one of percent_off and amount_off.', 'amount_off');
    if (percentOff !== undefined && !(percentOff > 0 && percentOff <= 100)) throw invalid('Invalid percent_off: must be more than 0 and at most 100.', 'percent_off');
    if (amountOff !== undefined && amountOff <= 0) throw invalid('Invalid amount_off: must be at least 1.', 'amount_off');
    const currency = r.str('currency')?.toLowerCase() ?? null;
    if (amountOff !== undefined && !currency) throw invalid('You must pass currency when passing amount_off.', 'currency', 'parameter_missing');
    const duration = r.oneOf('duration', ['once', 'repeating', 'forever'] as const) ?? 'once';
    const months = r.int('duration_in_months');
    if (duration === 'repeating' && months === undefined) throw invalid('Missing required param: duration_in_months (needed when duration is repeating).', 'duration_in_months', 'parameter_missing');
    if (duration === 'repeating' && months !== undefined && months < 1) throw invalid('Invalid duration_in_months: must be at least 1.', 'duration_in_months');
    if (duration !== 'repeating' && months !== undefined) throw invalid('duration_in_months can only be given when duration is repeating.', 'duration_in_months');
    const maxRedemptions = r.int('max_redemptions') ?? null;
    if (maxRedemptions !== null && maxRedemptions < 1) throw invalid('Invalid max_redemptions: must be at least 1.', 'max_redemptions');
    const coupon: Coupon = {
      id,
      object: 'coupon',
      amount_off: amountOff ?? null,
      created: nowSeconds(),
      currency: amountOff === undefined ? null : currency,
      duration,
      duration_in_months: months ?? null,
      livemode: false,
      max_redemptions: maxRedemptions,
      metadata: r.metadata(),
      name: r.str('name') ?? null,
      percent_off: percentOff ?? null,
      redeem_by: r.int('redeem_by') ?? null,
      times_redeemed: 0,
      valid: true,
    };
    couponValid(coupon);
    coupons.set(id, coupon);
    return coupon;
  }

  function createPromotionCode(r: Reader): PromotionCode {
    if (r.str('promotion[type]') !== 'coupon') throw invalid('Invalid promotion[type]: must be coupon.', 'promotion[type]');
    const coupon = need(coupons, r.required('promotion[coupon]'), 'coupon', 'promotion[coupon]');
    const code = r.str('code') || randomCode();
    const taken = [...promotionCodes.values()].some((p) => p.active && p.code.toLowerCase() === code.toLowerCase());
    if (taken) throw invalid(`An active promotion code with code: ${code} already exists.`, 'code', 'resource_already_exists');
    const customer = r.str('customer') ?? null;
    if (customer) need(customers, customer, 'customer', 'customer');
    const promotionCode: PromotionCode = {
      id: newId('promo'),
      object: 'promotion_code',
      active: r.bool('active') ?? true,
      code,
      created: nowSeconds(),
      customer,
      expires_at: r.int('expires_at') ?? null,
      livemode: false,
      max_redemptions: r.int('max_redemptions') ?? null,
      metadata: r.metadata(),
      promotion: { type: 'coupon', coupon: coupon.id },
      restrictions: { first_time_transaction: false, minimum_amount: null, minimum_amount_currency: null },
      times_redeemed: 0,
    };
    promotionCodes.set(promotionCode.id, promotionCode);
    return promotionCode;
  }

  function updatePromotionCode(id: string, r: Reader): PromotionCode {
    const promotionCode = need(promotionCodes, id, 'promotion_code');
    promotionCode.active = r.bool('active') ?? promotionCode.active;
    if (promotionCode.metadata) updateMetadata(promotionCode.metadata, r);
    return promotionCode;
  }

  /** The discount a subscription's `discounts[i]` asks for, once its promotion code or coupon can be redeemed. */
  function discountFor(r: Reader, i: number, customer: string): Discount {
    const promotionCodeId = r.str(`discounts[${i}][promotion_code]`);
    const param = promotionCodeId ? `discounts[${i}][promotion_code]` : `discounts[${i}][coupon]`;
    let promotionCode: PromotionCode | null = null;
    let coupon: Coupon | undefined;
    if (promotionCodeId) {
      promotionCode = need(promotionCodes, promotionCodeId, 'promotion code', param);
      if (!promotionCode.active) throw invalid('This promotion code is inactive.', param);
      if (promotionCode.expires_at !== null && promotionCode.expires_at <= nowSeconds()) throw invalid('This promotion code has expired.', param, 'coupon_expired');
      if (promotionCode.max_redemptions !== null && promotionCode.times_redeemed >= promotionCode.max_redemptions)
        throw invalid('This promotion code has already been redeemed the most times it can be.', param);
      if (promotionCode.customer && promotionCode.customer !== customer) throw invalid('This promotion code cannot be redeemed by this customer.', param);
      coupon = coupons.get(promotionCode.promotion.coupon);
      if (!coupon) throw invalid('This promotion code cannot be redeemed because its coupon no longer exists.', param);
    } else {
      const couponId = r.str(`discounts[${i}][coupon]`);
      if (!couponId) throw invalid(`Missing required param: discounts[${i}][coupon] or discounts[${i}][promotion_code].`, param, 'parameter_missing');
      coupon = need(coupons, couponId, 'coupon', param);
    }
    if (!couponValid(coupon)) throw invalid(`Coupon ${coupon.id} is no longer valid.`, param, 'coupon_expired');
    const invoicesLeft = coupon.duration === 'once' ? 1 : coupon.duration === 'repeating' ? coupon.duration_in_months : null;
    return { id: newId('di'), coupon, promotionCode: promotionCode?.id ?? null, invoicesLeft, redeemed: false };
  }

  // Subscriptions and their invoices.

  function createSubscription(r: Reader): Subscription {
    const customer = need(customers, r.required('customer'), 'customer', 'customer');
    if (!r.has('items[0]')) throw invalid('Missing required param: items.', 'items', 'parameter_missing');
    const id = newId('sub');
    const now = nowSeconds();
    const items: SubscriptionItem[] = [];
    for (let i = 0; r.has(`items[${i}]`); i++) {
      const price = need(prices, r.required(`items[${i}][price]`), 'price', `items[${i}][price]`);
      if (price.type !== 'recurring') throw invalid('The price specified is set to `type=one_time` but this field only accepts prices with `type=recurring`.', `items[${i}][price]`);
      const quantity = r.int(`items[${i}][quantity]`) ?? 1;
      if (quantity < 1) throw invalid('Invalid quantity: must be at least 1.', `items[${i}][quantity]`);
      const item: SubscriptionItem = {
        id: newId('si'),
        object: 'subscription_item',
        billing_thresholds: null,
        created: now,
        current_period_end: periodEnd(now, price.recurring),
        current_period_start: now,
        discounts: [],
        metadata: {},
        price,
        quantity,
        subscription: id,
        tax_rates: null,
      };
      items.push(item);
    }
    const taken: Discount[] = [];
    for (let i = 0; r.has(`discounts[${i}]`); i++) taken.push(discountFor(r, i, customer.id));
    const atPeriodEnd = r.bool('cancel_at_period_end') ?? false;
    const save = r.oneOf('payment_settings[save_default_payment_method]', ['off', 'on_subscription'] as const) ?? 'off';
    const subscription: Subscription = {
      id,
      object: 'subscription',
      billing_cycle_anchor: now,
      cancel_at: atPeriodEnd ? items[0].current_period_end : (r.int('cancel_at') ?? null),
      cancel_at_period_end: atPeriodEnd,
      canceled_at: null,
      cancellation_details: { comment: null, feedback: null, feedback_option: null, reason: null },
      collection_method: 'charge_automatically',
      created: now,
      currency: items[0].price.currency,
      customer: customer.id,
      days_until_due: null,
      default_payment_method: null,
      description: r.str('description') ?? null,
      discounts: taken.map((d) => d.id),
      ended_at: null,
      items: list(items, `/v1/subscription_items?subscription=${id}`),
      latest_invoice: null,
      livemode: false,
      metadata: r.metadata(),
      pause_collection: null,
      payment_settings: { payment_method_options: null, payment_method_types: null, save_default_payment_method: save },
      pending_setup_intent: null,
      pending_update: null,
      schedule: null,
      start_date: now,
      status: 'incomplete',
      test_clock: null,
      trial_end: null,
      trial_start: null,
    };
    subscriptions.set(id, subscription);
    discounts.set(id, taken);
    openInvoice(subscription, 'subscription_create', now, now);
    return subscription;
  }

  /**
   * Opens the subscription's next invoice for its items' current period, less the discounts with
   * invoices left, with a PaymentIntent for what is due (an invoice with nothing due is paid at once).
   */
  function openInvoice(subscription: Subscription, reason: 'subscription_create' | 'subscription_cycle', periodStart: number, periodEndAt: number): Invoice {
    const id = newId('in');
    const now = nowSeconds();
    const customer = need(customers, subscription.customer, 'customer');
    // A discount that has taken off all it may leaves the subscription when the next invoice is made.
    const active = (discounts.get(subscription.id) ?? []).filter((d) => d.invoicesLeft !== 0);
    subscription.discounts = active.map((d) => d.id);
    const amountOffLeft = new Map(active.map((d) => [d.id, d.coupon.amount_off ?? 0]));
    const lines = subscription.items.data.map((item): InvoiceLine => {
      const amount = (item.price.unit_amount ?? 0) * (item.quantity ?? 1);
      const product = products.get(item.price.product)?.name ?? item.price.product;
      const interval = item.price.recurring?.interval ?? 'month';
      let due = amount;
      const discountAmounts = active.map((d) => {
        const pct = d.coupon.percent_off;
        const off = pct === null ? Math.min(due, amountOffLeft.get(d.id) ?? 0) : due - Math.round((due * (100 - pct)) / 100);
        if (pct === null) amountOffLeft.set(d.id, (amountOffLeft.get(d.id) ?? 0) - off);
        due -= off;
        return { amount: off, discount: d.id };
      });
      return {
        id: newId('il'),
        object: 'line_item',
        amount,
        currency: item.price.currency,
        description: `${item.quantity ?? 1} × ${product} (at ${money(item.price.unit_amount ?? 0, item.price.currency)} / ${interval})`,
        discount_amounts: discountAmounts,
        discountable: true,
        discounts: active.map((d) => d.id),
        invoice: id,
        livemode: false,
        metadata: {},
        parent: {
          type: 'subscription_item_details',
          invoice_item_details: null,
          subscription_item_details: { invoice_item: null, proration: false, proration_details: { credited_items: null }, subscription: subscription.id, subscription_item: item.id },
        },
        period: { start: item.current_period_start, end: item.current_period_end },
        quantity: item.quantity ?? 1,
        subtotal: amount,
      };
    });
    for (const d of active) if (d.invoicesLeft !== null) d.invoicesLeft -= 1;
    const subtotal = lines.reduce((sum, l) => sum + l.amount, 0);
    const totalDiscounts = active.map((d) => ({ amount: lines.reduce((sum, l) => sum + (l.discount_amounts.find((a) => a.discount === d.id)?.amount ?? 0), 0), discount: d.id }));
    const total = subtotal - totalDiscounts.reduce((sum, d) => sum + d.amount, 0);
    const count = (invoiceCounts.get(customer.id) ?? 0) + 1;
    invoiceCounts.set(customer.id, count);
    const invoice: Invoice = {
      id,
      object: 'invoice',
      amount_due: total,
      amount_overpaid: 0,
      amount_paid: 0,
      amount_remaining: total,
      amount_shipping: 0,
      attempt_count: 0,
      attempted: false,
      auto_advance: true,
      billing_reason: reason,
      collection_method: 'charge_automatically',
      created: now,
      currency: subscription.currency,
      customer: customer.id,
      customer_email: customer.email,
      customer_name: customer.name ?? null,
      description: null,
      discounts: active.map((d) => d.id),
      due_date: null,
      effective_at: now,
      ending_balance: 0,
      hosted_invoice_url: `${url}/invoice/${id}`,
      invoice_pdf: `${url}/invoice/${id}/pdf`,
      livemode: false,
      metadata: {},
      // Stripe tries a renewal itself about an hour after making its invoice; a first invoice waits for the customer.
      next_payment_attempt: reason === 'subscription_cycle' && total > 0 ? now + 3600 : null,
      number: `${customer.invoice_prefix}-${String(count).padStart(4, '0')}`,
      parent: { type: 'subscription_details', quote_details: null, subscription_details: { subscription: subscription.id, metadata: { ...subscription.metadata } } },
      period_end: periodEndAt,
      period_start: periodStart,
      starting_balance: 0,
      status: 'open',
      status_transitions: { finalized_at: now, marked_uncollectible_at: null, paid_at: null, voided_at: null },
      subtotal,
      subtotal_excluding_tax: subtotal,
      total,
      total_discount_amounts: totalDiscounts,
      total_excluding_tax: total,
      lines: list(lines, `/v1/invoices/${id}/lines`),
    };
    invoices.set(id, invoice);
    subscription.latest_invoice = id;
    const description = reason === 'subscription_create' ? 'Subscription creation' : 'Subscription update';
    const intent = total > 0 ? newIntent(total, invoice.currency, description, {}, customer.id) : null;
    billings.set(id, { subscription: subscription.id, intent: intent?.id ?? null, payment: newId('inpay') });
    if (intent) invoiceOfIntent.set(intent.id, id);
    else invoicePaid(invoice);
    return invoice;
  }

  /** Marks an open invoice paid; the subscription it is the latest of becomes active, and a first payment redeems its discounts. */
  function invoicePaid(invoice: Invoice): void {
    if (invoice.status !== 'open') return;
    const billing = need(billings, invoice.id, 'invoice');
    invoice.status = 'paid';
    invoice.amount_paid = invoice.amount_due;
    invoice.amount_remaining = 0;
    invoice.next_payment_attempt = null;
    invoice.status_transitions.paid_at = nowSeconds();
    if (billing.intent) {
      invoice.attempt_count += 1;
      invoice.attempted = true;
    }
    const subscription = subscriptions.get(billing.subscription);
    if (!subscription) return;
    if (subscription.latest_invoice === invoice.id && subscription.status !== 'canceled') subscription.status = 'active';
    for (const d of discounts.get(subscription.id) ?? []) {
      if (d.redeemed) continue;
      d.redeemed = true;
      d.coupon.times_redeemed += 1;
      couponValid(d.coupon);
      const promotionCode = promotionCodes.get(d.promotionCode ?? '');
      if (promotionCode) promotionCode.times_redeemed += 1;
    }
  }

  /** Records a failed attempt to pay an open invoice; Stripe retries in 3 days, at most 4 times. */
  function invoiceFailed(invoice: Invoice): void {
    if (invoice.status !== 'open') return;
    invoice.attempt_count += 1;
    invoice.attempted = true;
    invoice.next_payment_attempt = invoice.attempt_count >= 4 ? null : nowSeconds() + 3 * 86400;
    const subscription = subscriptions.get(need(billings, invoice.id, 'invoice').subscription);
    if (subscription?.latest_invoice === invoice.id && subscription.status === 'active') subscription.status = 'past_due';
  }

  function voidInvoice(invoice: Invoice): void {
    invoice.status = 'void';
    invoice.next_payment_attempt = null;
    invoice.status_transitions.voided_at = nowSeconds();
    const intent = intents.get(billings.get(invoice.id)?.intent ?? '');
    if (intent && intent.status !== 'succeeded') intent.status = 'canceled';
  }

  function updateSubscription(id: string, r: Reader): Subscription {
    const subscription = need(subscriptions, id, 'subscription');
    const atPeriodEnd = r.bool('cancel_at_period_end');
    const cancelAt = r.str('cancel_at');
    if (subscription.status === 'canceled' && (atPeriodEnd !== undefined || cancelAt !== undefined)) throw invalid('A canceled subscription can only update its cancellation_details and metadata.');
    if (atPeriodEnd !== undefined && cancelAt !== undefined) throw invalid('You may only pass one of cancel_at and cancel_at_period_end.', 'cancel_at');
    const periodEndAt = subscription.items.data[0].current_period_end;
    if (atPeriodEnd !== undefined) {
      subscription.cancel_at_period_end = atPeriodEnd;
      subscription.cancel_at = atPeriodEnd ? periodEndAt : null;
    }
    if (cancelAt !== undefined) {
      subscription.cancel_at_period_end = false;
      subscription.cancel_at = cancelAt === '' ? null : cancelAt === 'max_period_end' || cancelAt === 'min_period_end' ? periodEndAt : (r.int('cancel_at') ?? null);
    }
    if (r.has('description')) subscription.description = r.str('description') || null;
    updateMetadata(subscription.metadata, r);
    return subscription;
  }

  /** Cancels a subscription now, as DELETE does: its open invoices are voided. */
  function cancelSubscription(id: string): Subscription {
    const subscription = need(subscriptions, id, 'subscription');
    if (subscription.status === 'canceled') throw invalid(`This subscription has already been canceled: ${id}`);
    const now = nowSeconds();
    subscription.status = 'canceled';
    subscription.canceled_at = subscription.ended_at = now;
    subscription.cancellation_details = { comment: null, feedback: null, feedback_option: null, reason: 'cancellation_requested' };
    for (const invoice of invoicesOf(id)) if (invoice.status === 'open') voidInvoice(invoice);
    return subscription;
  }

  const invoicesOf = (subscriptionId: string) => [...invoices.values()].filter((i) => billings.get(i.id)?.subscription === subscriptionId);

  /** The invoice's payment attempt, as Stripe's invoice payments list it. */
  function paymentsOf(invoice: Invoice): InvoicePayment[] {
    const billing = billings.get(invoice.id);
    const intent = intents.get(billing?.intent ?? '');
    if (!billing || !intent) return [];
    const { paid_at: paidAt, voided_at: voidedAt } = invoice.status_transitions;
    return [
      {
        id: billing.payment,
        object: 'invoice_payment',
        amount_paid: invoice.status === 'paid' ? intent.amount_received : null,
        amount_requested: invoice.amount_due,
        created: invoice.created,
        currency: invoice.currency,
        invoice: invoice.id,
        is_default: true,
        livemode: false,
        payment: { type: 'payment_intent', payment_intent: intent.id },
        status: invoice.status === 'paid' ? 'paid' : invoice.status === 'void' ? 'canceled' : 'open',
        status_transitions: { canceled_at: voidedAt, paid_at: paidAt },
      },
    ];
  }

  /** An invoice as answered: with its confirmation secret and its payments when `expand` asks for them (they are not there otherwise). */
  function renderInvoice(invoice: Invoice, expand: string[]) {
    const intent = intents.get(billings.get(invoice.id)?.intent ?? '');
    return {
      ...invoice,
      ...(expand.includes('confirmation_secret') && { confirmation_secret: intent ? { client_secret: intent.client_secret, type: 'payment_intent' } : null }),
      ...(expand.includes('payments') && { payments: list(paymentsOf(invoice), `/v1/invoice_payments?invoice=${invoice.id}`) }),
      ...(expand.includes('customer') && { customer: customers.get(invoice.customer) ?? invoice.customer }),
    };
  }

  /** A subscription as answered: `expand` may ask for its customer and its latest invoice (`latest_invoice.confirmation_secret` for both levels). */
  function renderSubscription(subscription: Subscription, expand: string[]) {
    const nested = expand.filter((e) => e.startsWith('latest_invoice.')).map((e) => e.slice('latest_invoice.'.length));
    const invoice = invoices.get(subscription.latest_invoice ?? '');
    return {
      ...subscription,
      customer: expand.includes('customer') ? (customers.get(subscription.customer) ?? subscription.customer) : subscription.customer,
      latest_invoice: invoice && (expand.includes('latest_invoice') || nested.length) ? renderInvoice(invoice, nested) : subscription.latest_invoice,
    };
  }

  /** A page of a list, newest first, after `starting_after` and at most `limit` long (10 unless asked). */
  function page<T extends { id: string }>(items: T[], r: Reader, path: string): List<T> {
    const newest = [...items].reverse();
    const after = r.str('starting_after');
    const from = after ? newest.findIndex((i) => i.id === after) + 1 : 0;
    const limit = r.int('limit') ?? 10;
    return { object: 'list', data: newest.slice(from, from + limit), has_more: newest.length > from + limit, url: path };
  }

  function createPortalSession(r: Reader): PortalSession {
    const customer = need(customers, r.required('customer'), 'customer', 'customer');
    const id = newId('bps');
    const session: PortalSession = {
      id,
      object: 'billing_portal.session',
      configuration: 'bpc_double',
      created: nowSeconds(),
      customer: customer.id,
      customer_account: null,
      flow: null,
      livemode: false,
      locale: null,
      on_behalf_of: null,
      return_url: r.str('return_url') ?? null,
      url: `${url}/portal/${id}`,
    };
    portalSessions.set(id, session);
    return session;
  }

  // Test controls.

  /** The subscription's open invoice: its latest if that is open, else its newest open one. */
  function openInvoiceOf(subscriptionId: string): Invoice {
    const subscription = need(subscriptions, subscriptionId, 'subscription');
    const latest = invoices.get(subscription.latest_invoice ?? '');
    const invoice = latest?.status === 'open' ? latest : invoicesOf(subscriptionId).findLast((i) => i.status === 'open');
    if (!invoice) throw new Error(`subscription ${subscriptionId} has no open invoice`);
    return invoice;
  }

  function payInvoice(subscriptionId: string): Invoice {
    const invoice = openInvoiceOf(subscriptionId);
    const intent = billings.get(invoice.id)?.intent;
    if (intent) settle(intent, 'succeeded');
    else invoicePaid(invoice);
    return invoice;
  }

  function failInvoice(subscriptionId: string): Invoice {
    const invoice = openInvoiceOf(subscriptionId);
    const intent = billings.get(invoice.id)?.intent;
    if (intent) settle(intent, 'failed');
    else invoiceFailed(invoice);
    return invoice;
  }

  function nextInvoice(subscriptionId: string): Invoice {
    const subscription = need(subscriptions, subscriptionId, 'subscription');
    if (subscription.status === 'canceled') throw new Error(`subscription ${subscriptionId} has ended`);
    const previousStart = subscription.items.data[0].current_period_start;
    for (const item of subscription.items.data) {
      item.current_period_start = item.current_period_end;
      item.current_period_end = periodEnd(item.current_period_start, item.price.recurring);
    }
    return openInvoice(subscription, 'subscription_cycle', previousStart, subscription.items.data[0].current_period_start);
  }

  function endSubscription(subscriptionId: string): Subscription {
    const subscription = need(subscriptions, subscriptionId, 'subscription');
    const now = nowSeconds();
    const requested = subscription.cancel_at !== null || subscription.cancel_at_period_end;
    subscription.status = 'canceled';
    subscription.ended_at = now;
    subscription.canceled_at ??= now;
    subscription.cancellation_details = { comment: null, feedback: null, feedback_option: null, reason: requested ? 'cancellation_requested' : 'payment_failed' };
    return subscription;
  }

  function event<T>(type: Stripe.Event.Type, object: T, previousAttributes?: Record<string, unknown>): StripeEvent<T> {
    return {
      id: newId('evt'),
      object: 'event',
      api_version: '2026-10-28.endive',
      created: nowSeconds(),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object: structuredClone(object), ...(previousAttributes && { previous_attributes: previousAttributes }) },
    };
  }

  function charge(paymentIntentId: string): Charge {
    const intent = need(intents, paymentIntentId, 'payment_intent');
    const found = charges.get(intent.latest_charge ?? '');
    if (!found) throw new Error(`payment intent ${paymentIntentId} has no charge yet`);
    return found;
  }

  function dispute(paymentIntentId: string, reason = 'fraudulent'): Dispute {
    const disputed = charge(paymentIntentId);
    if (!disputed.paid) throw new Error(`charge ${disputed.id} was not paid`);
    disputed.disputed = true;
    const made: Dispute = {
      id: newId('dp'),
      object: 'dispute',
      amount: disputed.amount_captured - disputed.amount_refunded,
      balance_transactions: [],
      charge: disputed.id,
      created: nowSeconds(),
      currency: disputed.currency,
      is_charge_refundable: false,
      livemode: false,
      metadata: {},
      payment_intent: paymentIntentId,
      reason,
      status: 'needs_response',
    };
    disputes.set(made.id, made);
    return made;
  }

  function closeDispute(disputeId: string, outcome: 'won' | 'lost'): Dispute {
    const found = need(disputes, disputeId, 'dispute');
    if (found.status === 'won' || found.status === 'lost') throw invalid(`This dispute is already closed: ${disputeId}`);
    found.status = outcome;
    return found;
  }

  /** The controls as POST /__control/<name>, their arguments named in a JSON body. */
  const controls: Record<string, (args: Record<string, unknown>, text: (name: string) => string) => unknown> = {
    settle: (args, text) => settle(text('id'), text('status') as Outcome, typeof args.email === 'string' ? args.email : undefined),
    payInvoice: (_, text) => payInvoice(text('subscriptionId')),
    failInvoice: (_, text) => failInvoice(text('subscriptionId')),
    nextInvoice: (_, text) => nextInvoice(text('subscriptionId')),
    endSubscription: (_, text) => endSubscription(text('subscriptionId')),
    event: (args, text) => event(text('type') as Stripe.Event.Type, args.object, args.previousAttributes as Record<string, unknown> | undefined),
    charge: (_, text) => charge(text('paymentIntentId')),
    dispute: (_, text) => dispute(text('paymentIntentId'), text('reason') || undefined),
    closeDispute: (_, text) => closeDispute(text('disputeId'), text('outcome') as 'won' | 'lost'),
  };

  // The API, by method and path; `id` is the path's object id.
  type Answer = (request: { id: string; r: Reader; expand: string[] }) => unknown;
  const routes: [method: string, path: RegExp, answer: Answer][] = [
    [
      'POST',
      /^\/v1\/payment_intents$/,
      ({ r }) => {
        const amount = Number(r.str('amount'));
        // Stripe's limits for a USD card payment: $0.50 to $999,999.99.
        if (amount < 50) throw new StripeError(400, 'Amount must be at least $0.50 usd', 'amount_too_small', 'amount');
        if (amount > 99_999_999) throw new StripeError(400, 'Amount must be no more than $999,999.99', 'amount_too_large', 'amount');
        return newIntent(amount, r.str('currency') ?? 'usd', r.str('description') ?? null, r.metadata(), r.str('customer') ?? null);
      },
    ],
    ['GET', /^\/v1\/payment_intents\/([^/]+)$/, ({ id }) => need(intents, id, 'payment_intent')],
    ['POST', /^\/v1\/payment_intents\/([^/]+)\/cancel$/, ({ id, r }) => cancelIntent(id, r)],
    [
      'POST',
      /^\/v1\/payment_intents\/([^/]+)$/,
      ({ id, r }) => {
        // An update: the receipt address and metadata.
        const intent = need(intents, id, 'payment_intent');
        if (r.has('receipt_email')) intent.receipt_email = r.str('receipt_email') || null;
        updateMetadata(intent.metadata, r);
        return intent;
      },
    ],
    ['POST', /^\/v1\/refunds$/, ({ r }) => refund(r)],
    ['GET', /^\/v1\/charges\/([^/]+)$/, ({ id }) => need(charges, id, 'charge')],
    ['GET', /^\/v1\/disputes\/([^/]+)$/, ({ id }) => need(disputes, id, 'dispute')],
    // Accepting a dispute (not contesting it) loses it.
    ['POST', /^\/v1\/disputes\/([^/]+)\/close$/, ({ id }) => closeDispute(id, 'lost')],
    ['POST', /^\/v1\/customers$/, ({ r }) => createCustomer(r)],
    ['GET', /^\/v1\/customers\/([^/]+)$/, ({ id }) => need(customers, id, 'customer')],
    ['POST', /^\/v1\/customers\/([^/]+)$/, ({ id, r }) => updateCustomer(id, r)],
    ['POST', /^\/v1\/products$/, ({ r }) => createProduct(r.required('name'), r.metadata())],
    ['GET', /^\/v1\/products\/([^/]+)$/, ({ id }) => need(products, id, 'product')],
    ['POST', /^\/v1\/prices$/, ({ r }) => createPrice(r)],
    ['GET', /^\/v1\/prices\/([^/]+)$/, ({ id }) => need(prices, id, 'price')],
    ['POST', /^\/v1\/coupons$/, ({ r }) => createCoupon(r)],
    [
      'GET',
      /^\/v1\/coupons\/([^/]+)$/,
      ({ id }) => {
        const coupon = need(coupons, id, 'coupon');
        couponValid(coupon);
        return coupon;
      },
    ],
    [
      'DELETE',
      /^\/v1\/coupons\/([^/]+)$/,
      ({ id }) => {
        need(coupons, id, 'coupon');
        coupons.delete(id);
        return { id, object: 'coupon', deleted: true };
      },
    ],
    ['POST', /^\/v1\/promotion_codes$/, ({ r }) => createPromotionCode(r)],
    [
      'GET',
      /^\/v1\/promotion_codes$/,
      ({ r }) => {
        const code = r.str('code')?.toLowerCase();
        const [active, coupon, customer] = [r.bool('active'), r.str('coupon'), r.str('customer')];
        const found = [...promotionCodes.values()].filter(
          (p) =>
            (code === undefined || p.code.toLowerCase() === code) &&
            (active === undefined || p.active === active) &&
            (!coupon || p.promotion.coupon === coupon) &&
            (!customer || p.customer === customer),
        );
        return page(found, r, '/v1/promotion_codes');
      },
    ],
    ['GET', /^\/v1\/promotion_codes\/([^/]+)$/, ({ id }) => need(promotionCodes, id, 'promotion_code')],
    ['POST', /^\/v1\/promotion_codes\/([^/]+)$/, ({ id, r }) => updatePromotionCode(id, r)],
    ['POST', /^\/v1\/subscriptions$/, ({ r, expand }) => renderSubscription(createSubscription(r), expand)],
    [
      'GET',
      /^\/v1\/subscriptions$/,
      ({ r, expand }) => {
        // Without a status, Stripe lists the subscriptions that have not been canceled.
        const [customer, status] = [r.str('customer'), r.str('status')];
        const found = [...subscriptions.values()].filter((s) => (!customer || s.customer === customer) && (status === 'all' || (status ? s.status === status : s.status !== 'canceled')));
        const answer = page(found, r, '/v1/subscriptions');
        const inner = expand.filter((e) => e.startsWith('data.')).map((e) => e.slice('data.'.length));
        return { ...answer, data: answer.data.map((s) => renderSubscription(s, inner)) };
      },
    ],
    ['GET', /^\/v1\/subscriptions\/([^/]+)$/, ({ id, expand }) => renderSubscription(need(subscriptions, id, 'subscription'), expand)],
    ['POST', /^\/v1\/subscriptions\/([^/]+)$/, ({ id, r, expand }) => renderSubscription(updateSubscription(id, r), expand)],
    ['DELETE', /^\/v1\/subscriptions\/([^/]+)$/, ({ id, expand }) => renderSubscription(cancelSubscription(id), expand)],
    [
      'GET',
      /^\/v1\/invoices$/,
      ({ r }) => {
        const [customer, subscription, status] = [r.str('customer'), r.str('subscription'), r.str('status')];
        const found = [...invoices.values()].filter(
          (i) => (!customer || i.customer === customer) && (!subscription || billings.get(i.id)?.subscription === subscription) && (!status || i.status === status),
        );
        return page(found, r, '/v1/invoices');
      },
    ],
    ['GET', /^\/v1\/invoices\/([^/]+)$/, ({ id, expand }) => renderInvoice(need(invoices, id, 'invoice'), expand)],
    [
      'POST',
      /^\/v1\/invoices\/([^/]+)\/void$/,
      ({ id, expand }) => {
        // Only an open invoice can be voided: a paid one stays paid.
        const invoice = need(invoices, id, 'invoice');
        if (invoice.status !== 'open') throw invalid(`You can only pass in open invoices. This invoice isn't open.`, undefined, 'invoice_not_open');
        voidInvoice(invoice);
        return renderInvoice(invoice, expand);
      },
    ],
    [
      'GET',
      /^\/v1\/invoice_payments$/,
      ({ r }) => {
        const [invoice, intent] = [r.str('invoice'), r.str('payment[payment_intent]')];
        const found = [...invoices.values()].flatMap(paymentsOf).filter((p) => (!invoice || p.invoice === invoice) && (!intent || p.payment.payment_intent === intent));
        return page(found, r, '/v1/invoice_payments');
      },
    ],
    [
      'GET',
      /^\/v1\/invoice_payments\/([^/]+)$/,
      ({ id }) => {
        const found = [...invoices.values()].flatMap(paymentsOf).find((p) => p.id === id);
        if (!found) throw noSuch('invoice_payment', id);
        return found;
      },
    ],
    ['POST', /^\/v1\/billing_portal\/sessions$/, ({ r }) => createPortalSession(r)],
  ];

  /** The pages a customer's browser opens: an invoice (and its PDF), the billing portal. */
  function pageAt(path: string): { status: number; type: string; body: string } | null {
    const html = (title: string, body: string) => ({ status: 200, type: 'text/html; charset=utf-8', body: `<!doctype html><meta charset="utf-8"><title>${escapeHtml(title)}</title>${body}` });
    const pdf = /^\/invoice\/([^/]+)\/pdf$/.exec(path);
    if (pdf && invoices.has(pdf[1])) return { status: 200, type: 'application/pdf', body: PDF };
    const invoice = invoices.get(/^\/invoice\/([^/]+)$/.exec(path)?.[1] ?? '');
    if (invoice) {
      const status = invoice.status === 'paid' ? 'Paid' : invoice.status === 'void' ? 'Void' : `Amount due: ${money(invoice.amount_remaining, invoice.currency)}`;
      return html(`Invoice ${invoice.number ?? invoice.id}`, `<h1>Invoice ${escapeHtml(invoice.number ?? invoice.id)}</h1><p>Total: ${money(invoice.total, invoice.currency)}</p><p>${status}</p>`);
    }
    const session = portalSessions.get(/^\/portal\/([^/]+)$/.exec(path)?.[1] ?? '');
    if (session) {
      const customer = customers.get(session.customer);
      const subs = [...subscriptions.values()].filter((s) => s.customer === session.customer).map((s) => `<li>${escapeHtml(s.id)}: ${escapeHtml(s.status)}</li>`);
      const back = session.return_url ? `<p><a href="${escapeHtml(session.return_url)}">Return to the site</a></p>` : '';
      return html('Billing portal', `<h1>Billing portal</h1><p>${escapeHtml(customer?.email ?? session.customer)}</p><ul>${subs.join('')}</ul>${back}`);
    }
    return /^\/(invoice|portal)\//.test(path) ? { status: 404, type: 'text/html; charset=utf-8', body: '<!doctype html><title>Not found</title><h1>Not found</h1>' } : null;
  }

  const paused = new Map<string, Promise<void>>();
  function pause(path: string): () => void {
    let resume = () => {};
    paused.set(path, new Promise<void>((resolve) => (resume = resolve)));
    return () => {
      paused.delete(path);
      resume();
    };
  }

  const server = createServer((req, res) => void handle(req, res));
  async function handle(req: IncomingMessage, res: ServerResponse) {
    const raw = (await readBody(req)).toString();
    const address = new URL(req.url ?? '/', 'http://localhost');
    const method = req.method ?? 'GET';
    const form = new URLSearchParams(raw);
    for (const [k, v] of address.searchParams) form.append(k, v);
    const idempotencyKey = (req.headers['idempotency-key'] as string | undefined) ?? null;
    calls.push({ method, path: address.pathname, form, idempotencyKey });
    const send = (status: number, body: unknown) =>
      sendJson(res, status, body, { 'Request-Id': `req_${randomBytes(6).toString('hex')}`, 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': 'Content-Type' });
    // Test-only: a health check, and the controls (browser tests settle a payment the way a customer's card would).
    if (address.pathname === '/__health') return send(200, { ok: true });
    const controlName = /^\/__control\/(\w+)$/.exec(address.pathname)?.[1];
    if (controlName !== undefined) {
      if (method === 'OPTIONS') return send(204, null);
      const control = Object.hasOwn(controls, controlName) ? controls[controlName] : undefined;
      if (!control) return send(404, { error: { message: `No such control: ${controlName}` } });
      try {
        const args = JSON.parse(raw || '{}') as Record<string, unknown>;
        const text = (name: string) => (typeof args[name] === 'string' ? args[name] : '');
        return send(200, control(args, text));
      } catch (e) {
        if (e instanceof StripeError) return send(e.status, e.body);
        return send(e instanceof SyntaxError ? 400 : 404, { error: { message: e instanceof Error ? e.message : String(e) } });
      }
    }
    const shown = method === 'GET' ? pageAt(address.pathname) : null;
    if (shown) {
      res.writeHead(shown.status, { 'Content-Type': shown.type });
      return void res.end(shown.body);
    }
    if (req.headers.authorization !== 'Bearer sk_test_double') {
      return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
    }
    await paused.get(address.pathname);
    // A POST sent again with the same key gets the first answer again (only successful answers are
    // kept, as at Stripe); with other parameters it is refused, as Stripe refuses it.
    const replayKey = method === 'POST' && idempotencyKey ? `${address.pathname} ${idempotencyKey}` : null;
    if (replayKey && replies.has(replayKey)) {
      if (sentWith.get(replayKey) !== raw) {
        return send(400, {
          error: {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
          },
        });
      }
      return send(200, replies.get(replayKey));
    }
    for (const [routeMethod, path, answer] of routes) {
      const match = routeMethod === method ? path.exec(address.pathname) : null;
      if (!match) continue;
      try {
        const r = reader(parseForm(form));
        const body = answer({ id: decodeURIComponent(match[1] ?? ''), r, expand: r.list('expand') });
        if (replayKey) {
          replies.set(replayKey, structuredClone(body));
          sentWith.set(replayKey, raw);
        }
        return send(200, body);
      } catch (e) {
        if (e instanceof StripeError) return send(e.status, e.body);
        return send(500, { error: { type: 'api_error', message: e instanceof Error ? e.message : String(e) } });
      }
    }
    send(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${address.pathname})` } });
  }

  const { stop } = await listen(server, port);
  return {
    url,
    calls,
    settle,
    payInvoice,
    failInvoice,
    nextInvoice,
    endSubscription,
    event,
    charge,
    dispute,
    closeDispute,
    pause,
    intents,
    customers,
    prices,
    coupons,
    promotionCodes,
    subscriptions,
    invoices,
    stop,
  };
}
