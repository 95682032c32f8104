// What a subscriber CSV's columns mean. The header rows of Kit, Mailchimp (audience export and
// its unsubscribed and cleaned files), Substack, Ghost and Beehiiv exports are recognised, and
// any CSV with an e-mail column: headers match case-insensitively, ignoring spaces, dashes and
// underscores, with their usual synonyms. A row's consent is read from what the file says and
// never invented: only a row active at its source becomes active here.
import * as z from 'zod';
import type { ImportMappingDto, SubscriberImportDto } from '#shared/schemas/subscriber-import.ts';
import { TAG_NAME_MAX } from '#shared/schemas/subscriber-import.ts';

export type Field = keyof ImportMappingDto;
/** Each field's column index. */
export type ColumnIndexes = Partial<Record<Field, number>>;
export type Format = SubscriberImportDto['format'];

const key = (header: string) =>
  header
    .replace(/^\uFEFF/, '')
    .toLowerCase()
    .replace(/[\s_-]+/g, '');

/** Each field's header names, normalised, the preferred first (Mailchimp has both OPTIN_TIME and CONFIRM_TIME). */
const SYNONYMS: Record<Field, string[]> = {
  email: ['email', 'emailaddress', 'e-mail', 'mail'],
  name: ['name', 'fullname'],
  firstName: ['firstname', 'fname', 'givenname'],
  lastName: ['lastname', 'lname', 'surname', 'familyname'],
  status: ['status', 'state', 'subscriptionstatus'],
  subscribedAt: ['createdat', 'subscribedat', 'optintime', 'confirmtime', 'subscriptiondate', 'created', 'signupdate'],
  tags: ['tags', 'labels', 'tag'],
  unsubscribedAt: ['unsubtime', 'unsubscribedat'],
  cleanedAt: ['cleantime', 'cleanedat'],
  subscribedToEmails: ['subscribedtoemails'],
  deletedAt: ['deletedat'],
  emailDisabled: ['emaildisabled'],
};

export interface Header {
  columns: ColumnIndexes;
  /** The header names each field was read from. */
  mapping: ImportMappingDto;
  format: Format;
}

/** The fields found in a header row, or null when it has no e-mail column. */
export function readHeader(cells: string[]): Header | null {
  const keys = cells.map(key);
  const columns: ColumnIndexes = {};
  for (const [field, names] of Object.entries(SYNONYMS) as [Field, string[]][]) {
    for (const name of names) {
      const at = keys.indexOf(name.replace(/-/g, ''));
      if (at >= 0) {
        columns[field] = at;
        break;
      }
    }
  }
  if (columns.email === undefined) return null;
  const mapping = Object.fromEntries(Object.entries(columns).map(([field, at]) => [field, cells[at]!.replace(/^\uFEFF/, '')])) as unknown as ImportMappingDto;
  return { columns, mapping, format: formatOf(new Set(keys)) };
}

function formatOf(keys: Set<string>): Format {
  if (keys.has('subscribedtoemails')) return 'ghost';
  if (keys.has('emaildisabled') || keys.has('activesubscription')) return 'substack';
  if (keys.has('emailaddress') && (keys.has('memberrating') || keys.has('optintime') || keys.has('leid'))) return 'mailchimp';
  if (keys.has('emailaddress') && keys.has('state')) return 'kit';
  if (keys.has('email') && keys.has('tier') && keys.has('status')) return 'beehiiv';
  return null;
}

/** Where a row leaves its address: active (gets issues), unsubscribed, bounced, or never confirmed at its source. */
export type Consent = 'active' | 'unsubscribed' | 'bounced' | 'unconfirmed';

const STATUS: Record<string, Consent> = {
  active: 'active',
  subscribed: 'active',
  confirmed: 'active',
  cold: 'active',
  true: 'active',
  yes: 'active',
  unsubscribed: 'unsubscribed',
  cancelled: 'unsubscribed',
  canceled: 'unsubscribed',
  inactive: 'unsubscribed',
  complained: 'unsubscribed',
  spam: 'unsubscribed',
  deleted: 'unsubscribed',
  archived: 'unsubscribed',
  optedout: 'unsubscribed',
  false: 'unsubscribed',
  no: 'unsubscribed',
  bounced: 'bounced',
  cleaned: 'bounced',
  hardbounce: 'bounced',
  pending: 'unconfirmed',
  unconfirmed: 'unconfirmed',
};

export interface ImportRow {
  email: string;
  name: string | null;
  consent: Consent;
  /** When they subscribed at the source, and when they left (unsubscribed or bounced) if they did. */
  subscribedAt: Date | null;
  leftAt: Date | null;
  tags: string[];
}

const EmailSchema = z.email();
const TRUE = new Set(['true', 'yes', '1']);

/** A row's subscriber, or the reason it is refused. */
export function readRow(cells: string[], columns: ColumnIndexes, now: Date): ImportRow | { reason: string } {
  const cell = (field: Field) => {
    const at = columns[field];
    return at === undefined ? '' : (cells[at] ?? '').trim();
  };
  const email = cell('email').toLowerCase();
  if (!email) return { reason: 'No e-mail address' };
  if (email.length > 255 || !EmailSchema.safeParse(email).success) return { reason: 'Not a valid e-mail address' };
  const consent = consentOf(cell);
  if (typeof consent === 'object') return consent;
  const full = cell('name') || [cell('firstName'), cell('lastName')].filter(Boolean).join(' ');
  const leftAt = consent === 'bounced' ? dateOf(cell('cleanedAt'), now) : consent === 'unsubscribed' ? (dateOf(cell('unsubscribedAt'), now) ?? dateOf(cell('deletedAt'), now)) : null;
  return { email, name: full ? full.slice(0, 255) : null, consent, subscribedAt: dateOf(cell('subscribedAt'), now), leftAt, tags: tagsOf(cell('tags')) };
}

function consentOf(cell: (field: Field) => string): Consent | { reason: string } {
  // Ghost: a deleted member, or one who turned e-mails off, is not mailed.
  if (cell('deletedAt')) return 'unsubscribed';
  const toEmails = cell('subscribedToEmails').toLowerCase();
  if (toEmails) return TRUE.has(toEmails) ? 'active' : 'unsubscribed';
  // Substack: e-mails switched off.
  if (TRUE.has(cell('emailDisabled').toLowerCase())) return 'unsubscribed';
  // Mailchimp's cleaned and unsubscribed files say so by their dates.
  if (cell('cleanedAt')) return 'bounced';
  if (cell('unsubscribedAt')) return 'unsubscribed';
  const status = key(cell('status'));
  if (!status) return 'active';
  return STATUS[status] ?? { reason: `Unknown status '${cell('status').slice(0, 40)}'` };
}

/**
 * A date as exports write it: ISO 8601, or 'YYYY-MM-DD HH:MM:SS' in UTC (Mailchimp; Beehiiv adds
 * ' UTC'). Unreadable dates are left out; a future one is taken as now.
 */
export function dateOf(text: string, now: Date): Date | null {
  if (!text) return null;
  const plain = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?))?(?: ?UTC)?$/i.exec(text);
  const ms = plain ? Date.parse(`${plain[1]}T${plain[2] ?? '00:00:00'}Z`) : Date.parse(text);
  if (Number.isNaN(ms)) return null;
  return ms > now.getTime() ? now : new Date(ms);
}

/** Tag names separated by commas, each maybe in double quotes as Mailchimp writes them ("A","B"). */
export function tagsOf(text: string): string[] {
  if (!text) return [];
  const names = new Map<string, string>();
  for (const m of text.matchAll(/\s*(?:"([^"]*)"|([^,]+))/g)) {
    const name = (m[1] ?? m[2] ?? '').trim();
    if (name && name.length <= TAG_NAME_MAX && !names.has(name.toLowerCase())) names.set(name.toLowerCase(), name);
  }
  return [...names.values()];
}
