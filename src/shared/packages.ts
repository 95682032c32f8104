// The coaching packages of the 'Investment & Packages' modal: names, prices and timings are
// fixed product facts; the descriptions and points are copy.
import tabs from '#shared/content/packages.json' with { type: 'json' };

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

/** The tabs in their order; the copy itself lives in content/packages.json. */
export const PACKAGE_TABS = tabs as PackageTab[];
