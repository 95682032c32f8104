// Who the site is about: the copy the pages share. Edit here to make the site yours.
export const BRAND = {
  name: 'Jordan Avery',
  role: 'Systems Builder · Technical & Leadership Coach · Speaker',
  blurb: 'I help founders and leaders build the systems, teams and products that scale — drawing on two decades of shipping software and running operations that never sleep.',
  stats: { years: 'Two decades', apps: '100+', arr: '$10M+' },
  currentRole: { title: 'VP of Operations', company: 'a healthcare dispatch company', facilities: 226, uptime: '24/7' },
  social: { linkedin: 'https://www.linkedin.com/', instagram: 'https://www.instagram.com/' },
  newsletterName: 'The Weekly Edge',
  podcastName: 'The Leadership Code',
} as const;
