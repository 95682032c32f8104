// The coaching packages of the 'Investment & Packages' modal: names, prices and timings are
// fixed product facts; the descriptions and points are copy.

export interface CoachingPackage {
  name: string;
  price: string;
  /** Shown as 'from $15,000'. */
  priceFrom?: boolean;
  /** The timing or scope under the price ('one 90-minute session', 'per month'). */
  note: string;
  description: string;
  points: string[];
  popular?: boolean;
}

export interface PackageTab {
  id: 'app' | 'leadership' | 'technical' | 'custom';
  label: string;
  intro: string;
  packages: CoachingPackage[];
}

export const PACKAGE_TABS: PackageTab[] = [
  {
    id: 'app',
    label: 'App Coaching',
    intro: 'From idea to launched product: scope it, build it right, grow it.',
    packages: [
      {
        name: 'MVP Clarity',
        price: '$1,500',
        note: 'one 90-minute session',
        description: 'Cut your idea down to the version worth building first.',
        points: ['Scope and feature triage', 'Build-vs-buy decisions', 'A written launch checklist'],
      },
      {
        name: 'Launch Ready',
        price: '$4,500',
        note: 'complete package',
        description: 'Everything between a working prototype and a confident launch.',
        points: ['Architecture and stack review', 'Launch plan and metrics', 'Two follow-up calls'],
      },
      {
        name: 'Scale Strategy',
        price: '$8,500',
        note: '6-week program',
        description: 'Turn early traction into a product and team that scale.',
        points: ['Weekly strategy sessions', 'Roadmap and hiring plan', 'Async support between calls'],
        popular: true,
      },
    ],
  },
  {
    id: 'leadership',
    label: 'Leadership Coaching',
    intro: 'Grow from builder to leader, then from leader to leader of leaders.',
    packages: [
      {
        name: 'Lead Yourself',
        price: '$2,000',
        note: 'one-time package',
        description: 'Clarity on your strengths, habits and the role you actually want.',
        points: ['Leadership self-assessment', 'Two coaching sessions', 'A personal operating plan'],
      },
      {
        name: 'Lead the Team',
        price: '$6,500',
        note: '3-month program',
        description: 'Build the rituals, trust and accountability a growing team needs.',
        points: ['Bi-weekly coaching sessions', 'Delegation and feedback frameworks', 'Team health check-ins'],
      },
      {
        name: 'Lead at Scale',
        price: '$12,500',
        note: '12-week intensive',
        description: 'Lead an organisation through growth without losing what made it work.',
        points: ['Weekly executive coaching', 'Org design and leadership hiring', 'Stakeholder and board readiness'],
      },
    ],
  },
  {
    id: 'technical',
    label: 'Technical Coaching',
    intro: 'Senior technical judgement on call, without a full-time hire.',
    packages: [
      {
        name: 'Diagnostic',
        price: '$4,000',
        note: 'one-time assessment',
        description: 'A clear-eyed review of your codebase, infrastructure and delivery.',
        points: ['Architecture and code review', 'Risk and tech-debt report', 'A prioritised fix list'],
      },
      {
        name: 'Tech Partner',
        price: '$10,000',
        note: 'per month',
        description: 'An experienced partner for your technical decisions, every week.',
        points: ['Weekly technical leadership', 'Hiring and vendor decisions', 'On-call advice for your team'],
      },
      {
        name: 'CTO Advisory',
        price: '$25,000',
        note: '3-month intensive',
        description: 'Fractional CTO support while you build or hire the role.',
        points: ['Technical strategy and roadmap', 'Team structure and processes', 'Investor and due-diligence support'],
      },
    ],
  },
  {
    id: 'custom',
    label: 'Custom Coaching',
    intro: 'A programme shaped around your company, your team and your timeline.',
    packages: [
      {
        name: 'Custom',
        price: '$15,000',
        priceFrom: true,
        note: 'depends on scope and duration',
        description: 'Combine technical, leadership and strategy work into one engagement.',
        points: ['Tailored scope and cadence', 'Team workshops and 1:1 coaching', 'Measured outcomes and reviews'],
      },
    ],
  },
];
