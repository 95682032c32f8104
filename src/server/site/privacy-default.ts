// The privacy policy as the site first shows it, section by section (HTML, as the page renders
// it), for the site document's first version. Names and the contact address are filled in.
import { escapeUTF8 } from 'entities';

/** What the policy names: the site's owner, its newsletter and show, and where to write. */
export interface PolicyNames {
  name: string;
  newsletterName: string;
  podcastName: string;
  contactEmail: string;
}

/** The sections: id (the heading's anchor), title and HTML. */
export const defaultPrivacySections = (names: PolicyNames) => {
  const [name, newsletterName, podcastName, escaped] = [names.name, names.newsletterName, names.podcastName, names.contactEmail].map((v) => escapeUTF8(v));
  const contactEmail = names.contactEmail;
  const contact = contactEmail ? `Write to <a href="mailto:${escaped}">${escaped}</a>.` : 'Use the form on the <a href="/work-with-me#get-started">Work With Me</a> page.';
  return [
    {
      id: 'introduction',
      title: 'Introduction',
      html: `<p>This website is run by ${name}, an independent technical and leadership coach, consultant and speaker. When this policy says “we”, “us” or “our”, it means ${name}, who is the data controller for the personal data collected through this site. It is a small business: the person who writes the newsletter is the same person who looks after your data.</p><p>This policy covers this website, the newsletter ${newsletterName}, the podcast ${podcastName}, blog comments, coaching and consulting enquiries, and purchases made here. We follow the principles of the EU and UK General Data Protection Regulation (GDPR): we collect as little as we need, use it only for the purposes described here, keep it secure and delete it when it is no longer needed. We never sell your personal data.</p>`,
    },
    {
      id: 'information-we-collect',
      title: 'Information We Collect',
      html: `<h3>Information you give us</h3><ul><li><strong>Newsletter:</strong> your e-mail address and, if you choose to share it, your first name.</li><li><strong>Blog comments:</strong> your name, e-mail address and comment. Your name and comment are published once approved; your e-mail address never is.</li><li><strong>Account:</strong> a username, e-mail address, optional first and last name, and a password that is stored only as a secure hash.</li><li><strong>Coaching and consulting enquiries:</strong> whatever you tell us when you book a call or get in touch, such as your role, your company and the challenge you want help with.</li><li><strong>Purchases:</strong> your name, e-mail address and what you bought. Card payments are handled by our payment provider, Stripe; we never see or store your full card number.</li></ul><h3>Information collected automatically</h3><ul><li><strong>Server logs:</strong> your IP address, browser type, the pages you request and the time of the request, used to keep the site secure and working.</li><li><strong>Cookies and similar technologies:</strong> only those described in the Cookie Policy below, and only the strictly necessary ones unless you agree to more.</li></ul>`,
    },
    {
      id: 'cookie-policy',
      title: 'Cookie Policy',
      html: `<p>Cookies are small files a website stores in your browser. We group them into four categories. Strictly necessary cookies are always on because the site cannot work without them; every other category is off until you switch it on, and you can change your choice at any time with the Manage Cookie Preferences button at the top of this page or Cookie Settings in the footer.</p><ul class="my-6 grid list-none gap-4 pl-0 sm:grid-cols-2"><li class="my-0 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"><h3 class="mt-0 mb-0 flex flex-wrap items-center gap-2 text-base">Strictly Necessary<span class="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-700 ring-1 ring-brand-600/20">Required</span></h3><p class="mt-2 mb-0 text-sm leading-6">Needed for the site to work: keeping you logged in, remembering this choice and protecting forms from abuse.</p><p class="mt-3 mb-0 text-sm leading-6 text-slate-600"><span class="font-medium text-slate-800">Examples:</span> Session cookie, consent preferences, security tokens</p></li><li class="my-0 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"><h3 class="mt-0 mb-0 flex flex-wrap items-center gap-2 text-base">Analytics &amp; Performance</h3><p class="mt-2 mb-0 text-sm leading-6">Help us understand which articles and pages are useful, so we can write more of what helps you.</p><p class="mt-3 mb-0 text-sm leading-6 text-slate-600"><span class="font-medium text-slate-800">Examples:</span> Page views, time on page, anonymised traffic sources</p></li><li class="my-0 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"><h3 class="mt-0 mb-0 flex flex-wrap items-center gap-2 text-base">Marketing &amp; Advertising</h3><p class="mt-2 mb-0 text-sm leading-6">Let us measure newsletter and campaign performance and show relevant offers on other sites.</p><p class="mt-3 mb-0 text-sm leading-6 text-slate-600"><span class="font-medium text-slate-800">Examples:</span> Campaign attribution, conversion tracking, retargeting pixels</p></li><li class="my-0 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"><h3 class="mt-0 mb-0 flex flex-wrap items-center gap-2 text-base">Personalization</h3><p class="mt-2 mb-0 text-sm leading-6">Remember your preferences to tailor content and recommendations to you.</p><p class="mt-3 mb-0 text-sm leading-6 text-slate-600"><span class="font-medium text-slate-800">Examples:</span> Preferred topics, recently read articles, embedded content settings</p></li></ul><p>Your choice is stored in your browser’s local storage, so it stays on your device. If you clear your browser data, we will simply ask again. You can also block or delete cookies in your browser settings; blocking strictly necessary cookies may stop parts of the site, such as logging in, from working.</p>`,
    },
    {
      id: 'how-we-use-your-information',
      title: 'How We Use Your Information',
      html: `<p>We use your information only for the following purposes, each with a lawful basis under the GDPR:</p><ul><li><strong>Sending the newsletter and episode alerts</strong> you asked for (your consent, which you can withdraw with the unsubscribe link in every e-mail).</li><li><strong>Delivering coaching, consulting and products</strong> you book or buy, and the invoices and receipts that go with them (performance of a contract and legal obligations).</li><li><strong>Answering your messages</strong> and preparing for calls you book (legitimate interest in replying to you).</li><li><strong>Publishing and moderating comments</strong> and running your account (performance of a contract).</li><li><strong>Keeping the site secure</strong>, preventing spam and abuse and fixing errors (legitimate interest).</li><li><strong>Understanding which content is useful</strong> through analytics, only if you allow analytics cookies (your consent).</li></ul><h3>Who we share it with</h3><p>We share data only with service providers who help us run this business and who process it on our instructions: our hosting provider, our e-mail newsletter service, Stripe for payments, our calendar booking tool for calls, and, only with your consent, Google Analytics. Some of these providers may process data outside your country; where they do, they are bound by appropriate safeguards such as the European Commission’s Standard Contractual Clauses. We disclose data to authorities only when the law requires it.</p><h3>How long we keep it</h3><p>Newsletter data is kept until you unsubscribe. Comments are kept while they are published. Account data is kept until you ask us to delete your account. Purchase and invoicing records are kept as long as tax law requires. Server logs are deleted after 30 days.</p>`,
    },
    {
      id: 'your-privacy-rights',
      title: 'Your Privacy Rights',
      html: `<p>Under the GDPR you have the following rights over your personal data:</p><ul class="my-6 grid list-none gap-4 pl-0 sm:grid-cols-2"><li class="my-0 rounded-2xl border border-slate-200 bg-slate-50 p-5"><h3 class="mt-0 mb-0 text-base">Right of access</h3><p class="mt-2 mb-0 text-sm leading-6">Ask for a copy of the personal data we hold about you and how we use it.</p></li><li class="my-0 rounded-2xl border border-slate-200 bg-slate-50 p-5"><h3 class="mt-0 mb-0 text-base">Right to rectification</h3><p class="mt-2 mb-0 text-sm leading-6">Have inaccurate or incomplete information about you corrected.</p></li><li class="my-0 rounded-2xl border border-slate-200 bg-slate-50 p-5"><h3 class="mt-0 mb-0 text-base">Right to erasure</h3><p class="mt-2 mb-0 text-sm leading-6">Ask us to delete your data when we no longer need it or you withdraw consent.</p></li><li class="my-0 rounded-2xl border border-slate-200 bg-slate-50 p-5"><h3 class="mt-0 mb-0 text-base">Right to object</h3><p class="mt-2 mb-0 text-sm leading-6">Object to processing based on legitimate interests, and to direct marketing at any time.</p></li></ul><p>You may also ask us to restrict processing, to receive your data in a portable format, and withdraw any consent you have given at any time without affecting what was done before. To use any of these rights, e-mail us: we answer within one month and do not charge for it. If you believe we have not handled your data properly, you have the right to complain to your local data protection authority, though we would appreciate the chance to put it right first.</p>`,
    },
    {
      id: 'contact-us',
      title: 'Contact Us',
      html: `<p>Questions about this policy or your data?${contact}Every message is read by ${name} personally.</p><p>We will update this policy when the way we handle data changes; the date at the top of this page shows when it was last revised.</p>`,
    },
  ];
};
