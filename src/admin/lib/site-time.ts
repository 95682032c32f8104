// The site's time zone (SITE_TIMEZONE), which the admin page carries in
// <meta name="site-time-zone">: schedules are entered and shown in it, whatever zone the
// admin's own computer is in.

/** The site's time zone ('UTC' when the page does not say). */
export function siteTimeZone(): string {
  return document.querySelector<HTMLMetaElement>('meta[name="site-time-zone"]')?.content || 'UTC';
}
