// Small rules for reading the site document's text, shared by the pages and the admin preview.

/** A title with one part marked `*like this*` for emphasis, split into its parts. */
export function emphasisParts(title: string): { text: string; emphasis: boolean }[] {
  return title
    .split(/\*([^*]+)\*/)
    .map((text, i) => ({ text, emphasis: i % 2 === 1 }))
    .filter((p) => p.text !== '');
}

/** Cents as dollars, whole amounts without cents: 450000 -> '$4,500', 4950 -> '$49.50'. */
export function formatAmount(cents: number): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: cents % 100 === 0 ? 0 : 2 }).format(cents / 100);
}

/** The names most pages show, from the site document. */
export const brandOf = (site: { brand: { name: string; role: string; blurb: string }; newsletter: { name: string }; podcast: { title: string } }) => ({
  name: site.brand.name,
  role: site.brand.role,
  blurb: site.brand.blurb,
  newsletterName: site.newsletter.name,
  podcastName: site.podcast.title,
});

/**
 * Text for `set:html` in an element's content: only `&`, `<` and `>` escaped, which is all
 * text content needs (quotes are left as typed, the way text written in a template renders).
 */
export const plainText = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** How a package is paid and what it includes, in words ('3 monthly payments of $2,200 · 6 sessions'). */
export function packageTerms(pkg: { billing: string; price: number; instalments: number; sessions: number }): string {
  const price = formatAmount(pkg.price);
  const paid = pkg.billing === 'instalments' ? `${pkg.instalments} monthly payments of ${price}` : pkg.billing === 'monthly' ? `${price} every month until you cancel` : `${price}, paid once`;
  if (pkg.sessions === 0) return paid;
  const sessions = `${pkg.sessions} ${pkg.sessions === 1 ? 'session' : 'sessions'}`;
  return `${paid} · ${pkg.billing === 'monthly' ? `${sessions} every month` : `${sessions} included`}`;
}
