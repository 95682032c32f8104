// The site document's first version: the copy the site has always shown. The environment
// variables that used to hold links and show details (BOOKING_URL, CONTACT_EMAIL, PODCAST_*,
// APPLE_PODCASTS_URL, SPOTIFY_URL, ANALYTICS_ID) seed it when they are set; after that the
// admin owns them.
import type { Env } from '#server/env.ts';
import { packageSlug, type PackageBilling, type SiteDocument } from '#shared/schemas/site.ts';
import { defaultPrivacySections } from './privacy-default.ts';

type Seed = Pick<
  Env,
  | 'BOOKING_URL'
  | 'CONTACT_EMAIL'
  | 'PODCAST_OWNER_NAME'
  | 'PODCAST_OWNER_EMAIL'
  | 'PODCAST_ARTWORK_URL'
  | 'PODCAST_CATEGORY'
  | 'PODCAST_LOCKED'
  | 'PODCAST_NEW_FEED_URL'
  | 'APPLE_PODCASTS_URL'
  | 'SPOTIFY_URL'
  | 'ANALYTICS_ID'
>;

const NAME = 'Jordan Avery';
const NEWSLETTER = 'The Weekly Edge';
const PODCAST = 'The Leadership Code';

/** Cents of a whole-dollar amount. */
const dollars = (n: number) => n * 100;

type PackageTerms = { priceFrom?: boolean; popular?: boolean; billing?: PackageBilling; sessions?: number; eventType?: string };

const pkg = (name: string, price: number, note: string, description: string, points: string[], extra: PackageTerms = {}) => ({
  id: packageSlug(name),
  name,
  price: dollars(price),
  priceFrom: extra.priceFrom ?? false,
  note,
  description,
  points,
  popular: extra.popular ?? false,
  bookUrl: '',
  billing: extra.billing ?? 'one_time',
  instalments: 3,
  sessions: extra.sessions ?? 0,
  eventType: extra.eventType ?? (extra.sessions ? 'coaching-session' : ''),
  productId: null,
});

/** The document a fresh install (or an upgraded one, on its first start) publishes. */
export function defaultSiteDocument(e: Seed): SiteDocument {
  const contactEmail = e.CONTACT_EMAIL ?? '';
  return {
    brand: {
      name: NAME,
      role: 'Systems Builder · Technical & Leadership Coach · Speaker',
      blurb: 'I help founders and leaders build the systems, teams and products that scale — drawing on two decades of shipping software and running operations that never sleep.',
      portrait: { url: '/images/portrait.svg', alt: `${NAME} monogram` },
      social: [
        { label: 'LinkedIn', url: 'https://www.linkedin.com/' },
        { label: 'Instagram', url: 'https://www.instagram.com/' },
      ],
      contactEmail,
    },
    home: {
      hero: {
        title: 'Build the product, the team and the systems that *scale*.',
        intro: `I'm ${NAME}. For two decades I've built apps, led teams and run operations that never sleep. Now I help founders and leaders ship faster, lead with confidence and grow a business that doesn't depend on heroics.`,
        primaryCta: 'Work With Me',
        secondaryCta: 'Read the Blog',
        image: { url: '/images/hero.svg', alt: 'Illustration: a systems builder beneath connected interface cards and nodes' },
        storyCta: 'Read My Story',
        stats: [
          { value: '20+', label: 'Years building apps' },
          { value: '100+', label: 'Apps built & launched' },
          { value: '$10M+', label: 'ARR generated' },
        ],
      },
      services: {
        heading: {
          eyebrow: 'Services',
          title: 'How I can help you grow',
          lead: 'Hands-on guidance for founders and leaders at every stage: from the first line of code to a team that runs without you.',
        },
        cards: [
          {
            title: 'Technical Consulting',
            icon: 'code',
            summary: 'Architecture, stack and delivery decisions from someone who has shipped more than 100 apps.',
            points: ['Architecture and stack reviews', 'MVP scoping and launch plans', 'Scaling, reliability and tech-debt strategy'],
            cta: 'Learn More',
          },
          {
            title: 'Leadership Coaching',
            icon: 'users',
            summary: 'Grow into the leader your team needs as the company outgrows the way it started.',
            points: ['From builder to manager and beyond', 'Hiring, delegation and team rituals', 'Calm decisions under pressure'],
            cta: 'Start Coaching',
          },
          {
            title: 'Business Strategy',
            icon: 'chart',
            summary: 'Turn a working product into a durable business with pricing and operations that hold up.',
            points: ['Pricing and packaging built on value', 'Operations that run without you', 'Growth roadmaps tied to revenue'],
            cta: 'Strategize',
          },
        ],
      },
      about: {
        eyebrow: 'About',
        title: `Hi, I'm ${NAME}. I build things that last.`,
        paragraphs: [
          "I wrote my first production app more than twenty years ago and never stopped. Since then I've built, consulted on and launched over 100 apps: scrappy MVPs, enterprise platforms and everything between.",
          "Along the way I learned that great products rarely fail on code. They fail on unclear scope, tired teams and systems that only work while the founder is watching. That's the part I help with.",
        ],
        facts: [
          { value: 'Two decades', label: 'of building apps, from first startups to platforms that run around the clock' },
          { value: 'Over 100 apps', label: 'built, consulted on and launched for founders and established teams' },
          { value: '$10M+ ARR', label: 'in annual recurring revenue generated by the products I helped build' },
        ],
        badge: { value: '$10M+ ARR', label: 'generated for clients' },
      },
      trackRecord: {
        heading: { eyebrow: 'Track record', title: 'Results that compound', lead: 'Twenty years of shipping, measured in products launched and revenue earned.' },
        stats: [
          { value: '20+', label: 'Years building apps' },
          { value: '100+', label: 'Apps built, consulted on and launched' },
          { value: '$10M+', label: 'Annual recurring revenue generated' },
          { value: '226', label: 'Facilities supported 24/7' },
        ],
      },
      currentRole: {
        heading: { eyebrow: 'Current role', title: 'Still in the arena, every day', lead: 'The advice you get is tested in production: I run operations for a service that can never go down.' },
        title: 'VP of Operations',
        company: 'Full-time at a healthcare dispatch company',
        badges: [
          { icon: 'building', text: '226 facilities' },
          { icon: 'clock', text: '24/7 uptime' },
        ],
        whatIDo: [
          'Lead dispatch operations across 226 healthcare facilities',
          'Keep a 24/7 service up with on-call, runbooks and blameless reviews',
          'Build the internal tools and reporting the team runs on',
        ],
        whyItMatters:
          "Every framework I teach is one I use on Monday morning. When we talk about hiring, incident response or scaling a process, you're getting what works under real pressure, not theory.",
      },
      speaking: {
        heading: { eyebrow: 'Speaking', title: 'Talks that turn experience into action', lead: 'Practical, story-driven sessions for founders, engineering teams and leadership groups.' },
        formats: [
          {
            title: 'Keynote Speaking',
            icon: 'mic',
            text: 'Energising talks for conferences and company events, built on stories from two decades of building and leading.',
            topics: ['Building systems that scale', 'Leading when it is 3 a.m.'],
          },
          {
            title: 'Workshop Facilitation',
            icon: 'presentation',
            text: 'Hands-on half-day and full-day sessions where teams leave with a plan, not just notes.',
            topics: ['MVP scoping sprints', 'Operational runbooks'],
          },
          {
            title: 'Panel Discussions',
            icon: 'chat',
            text: 'A candid, practical voice on panels about startups, engineering leadership and operations.',
            topics: ['Founder-led engineering', 'Remote operations'],
          },
        ],
        cta: 'Book Speaking Engagement',
      },
      closingCta: {
        title: "Ready to build what's next?",
        lead: "Let's talk about where you are, where you want to be and the fastest honest path between the two.",
        promises: ['A 30-minute strategy session', 'A custom action plan', 'A no-pitch promise'],
        cta: 'Book a Strategy Call',
      },
    },
    workWithMe: {
      hero: {
        eyebrow: 'Work With Me',
        title: "Let's build what's next, together",
        lead: "Coaching and consulting for founders and leaders who want to ship the right product, grow a team that thrives and run a business that doesn't depend on heroics.",
        proof: [
          { icon: 'shield', text: 'Two decades of building apps' },
          { icon: 'rocket', text: '100+ apps built and launched' },
          { icon: 'chart', text: '$10M+ ARR generated' },
        ],
      },
      nextSteps: [
        { icon: 'calendar', title: 'Book your strategy call', text: 'A free 30-minute session to map where you are and where you want to go.' },
        { icon: 'mail', title: 'Weekly Insights', text: `Every week, one practical idea on products, leadership and operations, in ${NEWSLETTER}.` },
        { icon: 'heart', title: 'Value-First Approach', text: 'You leave every conversation with something useful, whether we end up working together or not. No pitch.' },
      ],
      packageTabs: [
        {
          id: 'app',
          label: 'App Coaching',
          intro: 'From idea to launched product: scope it, build it right, grow it.',
          packages: [
            pkg(
              'MVP Clarity',
              1500,
              'one 90-minute session',
              'Cut your idea down to the version worth building first.',
              ['Scope and feature triage', 'Build-vs-buy decisions', 'A written launch checklist'],
              { sessions: 1, eventType: 'clarity-session' },
            ),
            pkg(
              'Launch Ready',
              4500,
              'complete package',
              'Everything between a working prototype and a confident launch.',
              ['Architecture and stack review', 'Launch plan and metrics', 'Two follow-up calls'],
              { sessions: 3 },
            ),
            pkg(
              'Scale Strategy',
              8500,
              '6-week program',
              'Turn early traction into a product and team that scale.',
              ['Weekly strategy sessions', 'Roadmap and hiring plan', 'Async support between calls'],
              { popular: true, sessions: 6 },
            ),
          ],
        },
        {
          id: 'leadership',
          label: 'Leadership Coaching',
          intro: 'Grow from builder to leader, then from leader to leader of leaders.',
          packages: [
            pkg(
              'Lead Yourself',
              2000,
              'one-time package',
              'Clarity on your strengths, habits and the role you actually want.',
              ['Leadership self-assessment', 'Two coaching sessions', 'A personal operating plan'],
              { sessions: 2 },
            ),
            pkg(
              'Lead the Team',
              6500,
              '3-month program',
              'Build the rituals, trust and accountability a growing team needs.',
              ['Bi-weekly coaching sessions', 'Delegation and feedback frameworks', 'Team health check-ins'],
              { sessions: 6 },
            ),
            pkg(
              'Lead at Scale',
              12500,
              '12-week intensive',
              'Lead an organisation through growth without losing what made it work.',
              ['Weekly executive coaching', 'Org design and leadership hiring', 'Stakeholder and board readiness'],
              { sessions: 12 },
            ),
          ],
        },
        {
          id: 'technical',
          label: 'Technical Coaching',
          intro: 'Senior technical judgement on call, without a full-time hire.',
          packages: [
            pkg(
              'Diagnostic',
              4000,
              'one-time assessment',
              'A clear-eyed review of your codebase, infrastructure and delivery.',
              ['Architecture and code review', 'Risk and tech-debt report', 'A prioritised fix list'],
              { sessions: 2 },
            ),
            pkg(
              'Tech Partner',
              10000,
              'per month',
              'An experienced partner for your technical decisions, every week.',
              ['Weekly technical leadership', 'Hiring and vendor decisions', 'On-call advice for your team'],
              { billing: 'monthly', sessions: 4 },
            ),
            pkg(
              'CTO Advisory',
              25000,
              '3-month intensive',
              'Fractional CTO support while you build or hire the role.',
              ['Technical strategy and roadmap', 'Team structure and processes', 'Investor and due-diligence support'],
              { sessions: 12 },
            ),
          ],
        },
        {
          id: 'custom',
          label: 'Custom Coaching',
          intro: 'A programme shaped around your company, your team and your timeline.',
          packages: [
            pkg(
              'Custom',
              15000,
              'depends on scope and duration',
              'Combine technical, leadership and strategy work into one engagement.',
              ['Tailored scope and cadence', 'Team workshops and 1:1 coaching', 'Measured outcomes and reviews'],
              { priceFrom: true, billing: 'request' },
            ),
          ],
        },
      ],
    },
    newsletter: {
      name: NEWSLETTER,
      pitch: 'One practical idea every week on building products, leading teams and running a business that scales. Five minutes to read, useful on Monday.',
      points: ['Frameworks and checklists I use with clients', 'No spam, unsubscribe with one click'],
      benefits: [
        {
          title: 'One idea you can use on Monday',
          text: 'A framework, checklist or hard-won lesson on leading teams, shipping products or running operations — practical enough to try the same week.',
        },
        {
          title: 'Stories from the field',
          text: 'What actually happened while building 100+ apps and running operations for 226 healthcare facilities around the clock, including the parts that went wrong.',
        },
        { title: 'First to hear', text: `New episodes of ${PODCAST}, new articles, workshops and the occasional coaching opening, before they are announced anywhere else.` },
      ],
      stats: [
        { label: 'Building apps', value: 'Two decades' },
        { label: 'Apps launched', value: '100+' },
        { label: 'ARR generated', value: '$10M+' },
      ],
      forms: { home: '', newsletterPage: '', posts: '' },
    },
    podcast: {
      title: PODCAST,
      description: `Conversations on leadership, systems and building companies that scale, with ${NAME}.`,
      ownerName: e.PODCAST_OWNER_NAME ?? NAME,
      // Empty: the contact e-mail is the owner's.
      ownerEmail: e.PODCAST_OWNER_EMAIL ?? '',
      artwork: e.PODCAST_ARTWORK_URL ?? '/images/podcast-artwork.png',
      category: e.PODCAST_CATEGORY ?? 'Business',
      appleUrl: e.APPLE_PODCASTS_URL ?? '',
      spotifyUrl: e.SPOTIFY_URL ?? '',
      locked: e.PODCAST_LOCKED,
      newFeedUrl: e.PODCAST_NEW_FEED_URL ?? '',
    },
    privacyPolicy: {
      intro: 'Your privacy matters. This page explains, in plain language, what information this site collects, why, who else sees it, and how you stay in control of it.',
      sections: defaultPrivacySections({ name: NAME, newsletterName: NEWSLETTER, podcastName: PODCAST, contactEmail }),
    },
    bookingUrl: e.BOOKING_URL ?? '',
    analyticsId: e.ANALYTICS_ID ?? '',
  };
}
