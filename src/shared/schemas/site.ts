// The site document: everything a visitor reads that is not a post, an episode or a product
// (brand, the home page's sections, /work-with-me and its packages, the newsletter's pitch, the
// podcast show, the privacy policy, the booking link and the analytics id). One schema checks
// it in the admin's browser and on the server. Money is in cents.
import * as z from 'zod';

const tooLong = (label: string, max: number) => `${label} must be at most ${max} characters`;

/** Required text of at most `max` characters, trimmed. */
const text = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, tooLong(label, max));

/** Text that may be empty (stored as ''). */
const blank = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, tooLong(label, max));

/** A site path ('/work-with-me', '/#about'), an in-page anchor ('#packages') or an http(s) address. */
const link = (label: string) =>
  z
    .string({ error: `${label} must be a link` })
    .trim()
    .min(1, `${label} is required`)
    .max(2048, tooLong(label, 2048))
    // '/\host' is no site path: browsers read it as '//host'.
    .refine((v) => /^\/(?![/\\])/.test(v) || /^#[\w-]+$/.test(v) || (URL.canParse(v) && /^https?:$/.test(new URL(v).protocol)), `${label} must be a site path or an http(s) address`);

/** An http(s) address, or '' for none. */
const optionalAddress = (label: string) =>
  z
    .string({ error: `${label} must be a link` })
    .trim()
    .max(2048, tooLong(label, 2048))
    .refine((v) => v === '' || (URL.canParse(v) && /^https?:$/.test(new URL(v).protocol)), `${label} must be an http(s) address`);

/** An image: an uploaded file (/uploads/...), a file of the site (/images/...) or an http(s) address. */
const imageUrl = (label: string) =>
  z
    .string({ error: `${label} must be an image address` })
    .trim()
    .min(1, `${label} is required`)
    .max(2048, tooLong(label, 2048))
    .refine((v) => /^\/[^/\\]/.test(v) || (URL.canParse(v) && /^https?:$/.test(new URL(v).protocol)), `${label} must be an uploaded image or an http(s) address`);

const email = (label: string) =>
  z
    .string({ error: `${label} must be an e-mail address` })
    .trim()
    .max(254, tooLong(label, 254))
    .refine((v) => v === '' || z.email().safeParse(v).success, `${label} must be an e-mail address`);

const list = <T extends z.ZodType>(item: T, label: string, max: number, min = 0) =>
  z
    .array(item, { error: `${label} must be a list` })
    .min(min, min === 1 ? `${label} needs at least one item` : `${label} needs at least ${min} items`)
    .max(max, `${label} can have at most ${max} items`);

/** Icons the site's cards can show. */
export const SITE_ICONS = [
  'check',
  'code',
  'users',
  'chart',
  'mic',
  'presentation',
  'chat',
  'briefcase',
  'calendar',
  'mail',
  'clock',
  'building',
  'shield',
  'rocket',
  'compass',
  'sparkles',
  'heart',
] as const;
const icon = z.enum(SITE_ICONS, { error: 'Choose one of the icons' });

const Stat = z.object({ value: text('Figure', 40), label: text('Label', 120) });
const Heading = z.object({ eyebrow: text('Eyebrow', 60), title: text('Title', 200), lead: blank('Lead', 400) });
const Image = z.object({ url: imageUrl('Image'), alt: blank('Image description', 300) });

/** How a package is paid: at once, in n monthly instalments, every month until cancelled, or by request (no checkout: 'Book Now' opens a form that e-mails the owner). */
export const PACKAGE_BILLING_MODES = ['one_time', 'instalments', 'monthly', 'request'] as const;
export type PackageBilling = (typeof PACKAGE_BILLING_MODES)[number];

/** A package id from its name ('MVP Clarity' -> 'mvp-clarity'). */
export const packageSlug = (name: string) =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40) || 'package';

/** The most Stripe takes in one card payment in US dollars, in cents ($999,999.99). */
export const MAX_CARD_PAYMENT = 99_999_999;

/**
 * One coaching package. The price is in cents: the whole price when paid at once, each
 * payment's amount for instalments and monthly packages. 'Book Now' leads to `bookUrl` when set,
 * else to the package's checkout (or its request form). A document saved before packages could
 * be bought gets an id from the name and is paid at once, without sessions.
 */
export const SitePackageSchema = z.preprocess(
  (v) => (v && typeof v === 'object' && !('id' in v) && 'name' in v && typeof v.name === 'string' ? { ...v, id: packageSlug(v.name) } : v),
  z
    .object({
      id: z
        .string({ error: 'Package id must be text' })
        .trim()
        .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'Package id must be 1-40 of a-z, 0-9 and dashes'),
      name: text('Package name', 80),
      price: z.number({ error: 'Price must be a number' }).int('Price must be in whole cents').min(0, 'Price must be 0 or more').max(100_000_000, 'Price must be at most $1,000,000'),
      priceFrom: z.boolean({ error: 'Must be true or false' }),
      note: blank('Price note', 120),
      description: blank('Description', 500),
      points: list(text('Point', 200), 'Points', 12),
      popular: z.boolean({ error: 'Must be true or false' }),
      bookUrl: z.union([z.literal(''), link('Book Now link')]),
      billing: z.enum(PACKAGE_BILLING_MODES, { error: 'Choose how the package is paid' }).default('one_time'),
      /** How many monthly payments an instalment plan has. */
      instalments: z
        .number({ error: 'Instalments must be a number' })
        .int('Instalments must be a whole number')
        .min(2, 'Instalments must be 2 or more')
        .max(36, 'Instalments must be at most 36')
        .default(3),
      /** Sessions included (each monthly payment brings this many again). */
      sessions: z.number({ error: 'Sessions must be a number' }).int('Sessions must be a whole number').min(0, 'Sessions must be 0 or more').max(100, 'Sessions must be at most 100').default(0),
      /** The booking event type (slug) the sessions are booked as. */
      eventType: z
        .string({ error: 'Session type must be text' })
        .trim()
        .regex(/^([a-z0-9-]{1,60})?$/, 'Session type must be an event type slug')
        .default(''),
      /** A digital product whose files the buyer gets. */
      productId: z.number({ error: 'Product must be a number' }).int().positive('Choose a product').nullable().default(null),
    })
    .refine((p) => p.billing === 'request' || p.bookUrl !== '' || p.price >= 50, { path: ['price'], message: 'A package sold on the site costs at least $0.50' })
    .refine((p) => p.billing === 'request' || p.bookUrl !== '' || p.price <= MAX_CARD_PAYMENT, {
      path: ['price'],
      message: 'A package sold on the site costs at most $999,999.99, the most a card payment can be',
    })
    .refine((p) => p.sessions === 0 || p.eventType !== '', { path: ['eventType'], message: 'Choose the event type its sessions are booked as' }),
);

/** A sign-up form's slug placed on a page, or '' for the site's generic newsletter form. */
const placedForm = z
  .string({ error: 'Choose a form' })
  .trim()
  .max(60, 'Choose a form')
  .regex(/^$|^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Choose a form');

export const SiteDocumentSchema = z
  .object({
    brand: z.object({
      name: text('Name', 80),
      role: text('Role line', 200),
      blurb: text('Blurb', 500),
      portrait: Image,
      social: list(z.object({ label: text('Network', 40), url: optionalAddress('Profile link').refine((v) => v !== '', 'Profile link is required') }), 'Social links', 8),
      contactEmail: email('Contact e-mail'),
    }),
    home: z.object({
      hero: z.object({
        title: text('Hero title', 200),
        intro: text('Hero text', 600),
        primaryCta: text('First button', 40),
        secondaryCta: text('Second button', 40),
        image: Image,
        storyCta: text('Story button', 40),
        stats: list(Stat, 'Hero figures', 4),
      }),
      services: z.object({
        heading: Heading,
        cards: list(
          z.object({ title: text('Service title', 80), icon, summary: text('Summary', 400), points: list(text('Point', 200), 'Points', 10), cta: text('Button label', 40) }),
          'Service cards',
          12,
        ),
      }),
      about: z.object({ eyebrow: text('Eyebrow', 60), title: text('Title', 200), paragraphs: list(text('Paragraph', 2000), 'Paragraphs', 10), facts: list(Stat, 'Facts', 8), badge: Stat }),
      trackRecord: z.object({ heading: Heading, stats: list(Stat, 'Figures', 8) }),
      currentRole: z.object({
        heading: Heading,
        title: text('Role', 120),
        company: text('Company line', 200),
        badges: list(z.object({ icon, text: text('Badge', 60) }), 'Badges', 4),
        whatIDo: list(text('Point', 300), 'What I do', 10),
        whyItMatters: blank('Why it matters', 1000),
      }),
      speaking: z.object({
        heading: Heading,
        formats: list(z.object({ title: text('Format', 80), icon, text: text('Text', 400), topics: list(text('Topic', 80), 'Topics', 8) }), 'Formats', 8),
        cta: text('Button label', 60),
      }),
      closingCta: z.object({ title: text('Title', 200), lead: blank('Lead', 400), promises: list(text('Promise', 120), 'Promises', 6), cta: text('Button label', 60) }),
    }),
    workWithMe: z.object({
      hero: z.object({ eyebrow: text('Eyebrow', 60), title: text('Title', 200), lead: blank('Lead', 600), proof: list(z.object({ icon, text: text('Proof point', 120) }), 'Proof points', 4) }),
      nextSteps: list(z.object({ icon, title: text('Step', 80), text: text('Text', 400) }), "'What happens next?' steps", 6),
      packageTabs: list(
        z.object({
          id: z
            .string()
            .trim()
            .regex(/^[a-z0-9-]{1,30}$/, 'Tab id must be 1-30 of a-z, 0-9 and dashes'),
          label: text('Tab name', 60),
          intro: blank('Tab intro', 300),
          packages: list(SitePackageSchema, 'Packages', 6, 1),
        }),
        'Package tabs',
        6,
        1,
      ),
    }),
    newsletter: z.object({
      name: text('Newsletter name', 80),
      pitch: text('Pitch', 600),
      points: list(text('Point', 200), 'Points', 6),
      benefits: list(z.object({ title: text('Benefit', 120), text: text('Text', 600) }), 'Benefits', 6),
      stats: list(Stat, 'Figures', 4),
      /** The sign-up form (Admin → Forms, by slug) each place shows; '' for the generic form. */
      forms: z.object({ home: placedForm, newsletterPage: placedForm, posts: placedForm }),
    }),
    podcast: z.object({
      title: text('Show title', 120),
      description: text('Show description', 4000),
      ownerName: text('Owner name', 120),
      ownerEmail: email('Owner e-mail'),
      artwork: imageUrl('Artwork'),
      category: text('Category', 80),
      appleUrl: optionalAddress('Apple Podcasts link'),
      spotifyUrl: optionalAddress('Spotify link'),
      locked: z.boolean({ error: 'Must be true or false' }),
      newFeedUrl: optionalAddress('New feed address'),
    }),
    privacyPolicy: z.object({
      intro: text('Introduction', 1000),
      sections: list(
        z.object({
          id: z
            .string()
            .trim()
            .regex(/^[a-z0-9-]{1,60}$/, 'Section id must be a-z, 0-9 and dashes'),
          title: text('Section title', 120),
          html: z.string({ error: 'Section text must be text' }).max(50_000, tooLong('Section text', 50_000)),
        }),
        'Sections',
        30,
        1,
      ),
    }),
    bookingUrl: z.union([z.literal(''), link('Booking link')]),
    analyticsId: blank('Analytics id', 40).refine((v) => v === '' || /^[A-Za-z0-9-]+$/.test(v), 'Analytics id must be letters, digits and dashes'),
  })
  .superRefine((doc, ctx) => {
    // A package's id is its address (/checkout/package/<id>) and what clients' packages point at.
    const seen = new Set<string>();
    doc.workWithMe.packageTabs.forEach((tab, t) =>
      tab.packages.forEach((p, i) => {
        if (seen.has(p.id)) ctx.addIssue({ code: 'custom', path: ['workWithMe', 'packageTabs', t, 'packages', i, 'id'], message: 'Package ids must be unique' });
        seen.add(p.id);
      }),
    );
  });

/** Every package of the document, by id. */
export const packagesOf = (doc: SiteDocument): SitePackage[] => doc.workWithMe.packageTabs.flatMap((t) => t.packages);

export type SiteDocument = z.infer<typeof SiteDocumentSchema>;
export type SitePackage = z.infer<typeof SitePackageSchema>;

/** A revision of the site document, newest first in the list. */
export interface SiteRevisionDto {
  id: number;
  /** When it was published ('published'), or when a restore replaced it ('draft'). */
  publishedAt: Date;
  publishedBy: string | null;
  /** A publish, or a draft that restoring a revision replaced (kept so it can be restored). */
  kind: 'published' | 'draft';
  /** The top-level sections it changed against the publish before it ('brand', 'home.hero', ...). */
  changed: string[];
  /** The publish visitors see now. */
  live: boolean;
  /** The very first version, the site as it started (no publish before it). */
  first: boolean;
}

/** A page of the revisions: those older than `before` (a revision's id), newest first. */
export const SiteRevisionsQuerySchema = z.object({ before: z.coerce.number().int().positive().optional() });

/** How many revisions a page of the list holds. */
export const SITE_REVISIONS_PAGE = 50;

export interface SiteStateDto {
  published: SiteDocument;
  draft: SiteDocument | null;
  /** Counts the changes of both; sent back as `If-Match: "site-N"`, a write over an unseen change is refused (412). */
  version: number;
}
