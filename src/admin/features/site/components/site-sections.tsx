// The site document's sections, in the order the pages show them.
import type { ReactNode } from 'react';
import { Choice, Count, HeadingFields, IconPicker, ImageField, LinesField, ListField, Money, StatsField, Text, Toggle } from './fields.tsx';
import { useFormChoices, type SiteDocument } from '#admin/features/site/api/site.ts';

type Doc = SiteDocument;

const BILLING_OPTIONS = [
  { value: 'one_time', label: 'At once' },
  { value: 'instalments', label: 'In monthly instalments' },
  { value: 'monthly', label: 'Every month until cancelled' },
  { value: 'request', label: 'By request (no checkout)' },
] as const;

/** Which sign-up form (Admin → Forms) the home page, /newsletter and the posts show. */
function FormPlacement() {
  const { data: forms } = useFormChoices();
  const options = [{ value: '', label: 'The generic newsletter form' }, ...(forms ?? []).map((f) => ({ value: f.slug, label: `${f.name} (/f/${f.slug})` }))];
  return (
    <Part title="Sign-up forms">
      <div className="grid gap-3 sm:grid-cols-3">
        <Choice path={['newsletter', 'forms', 'home']} label="Home page's newsletter block" options={options} />
        <Choice path={['newsletter', 'forms', 'newsletterPage']} label="The /newsletter page" options={options} />
        <Choice path={['newsletter', 'forms', 'posts']} label="Under each post" options={options} />
      </div>
    </Part>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="space-y-5 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id={id} className="text-lg font-semibold text-ink">
        {title}
      </h2>
      {children}
    </section>
  );
}

function Part({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="space-y-4 border-t border-slate-100 pt-5 first:border-0 first:pt-0">
      <h3 className="font-semibold text-slate-800">{title}</h3>
      {children}
    </div>
  );
}

export function SiteSections() {
  return (
    <>
      <Section id="site-brand" title="Brand">
        <Text path={['brand', 'name']} label="Name" />
        <Text path={['brand', 'role']} label="Role line" />
        <Text path={['brand', 'blurb']} label="Blurb" long />
        <Text path={['brand', 'contactEmail']} label="Contact e-mail" hint="Shown in the footer and the privacy policy; notifications go here." />
        <ImageField path={['brand', 'portrait']} label="Portrait" />
        <ListField<Doc['brand']['social'][number]>
          path={['brand', 'social']}
          label="Social links"
          itemLabel={(v, i) => v.label || `Link ${i + 1}`}
          make={() => ({ label: '', url: '' })}
          item={(p) => (
            <div className="grid gap-3 sm:grid-cols-2">
              <Text path={[...p, 'label']} label="Network" />
              <Text path={[...p, 'url']} label="Profile link" />
            </div>
          )}
        />
      </Section>

      <Section id="site-home" title="Home page">
        <Part title="Hero">
          <Text path={['home', 'hero', 'title']} label="Hero title" hint="Put *stars* around the words to highlight." />
          <Text path={['home', 'hero', 'intro']} label="Hero text" long />
          <div className="grid gap-3 sm:grid-cols-3">
            <Text path={['home', 'hero', 'primaryCta']} label="First button" />
            <Text path={['home', 'hero', 'secondaryCta']} label="Second button" />
            <Text path={['home', 'hero', 'storyCta']} label="Story button" />
          </div>
          <ImageField path={['home', 'hero', 'image']} label="Hero photo" />
          <StatsField path={['home', 'hero', 'stats']} label="Hero figures" />
        </Part>
        <Part title="Services">
          <HeadingFields path={['home', 'services', 'heading']} />
          <ListField<Doc['home']['services']['cards'][number]>
            path={['home', 'services', 'cards']}
            label="Service cards"
            itemLabel={(v, i) => v.title || `Card ${i + 1}`}
            make={() => ({ title: '', icon: 'sparkles', summary: '', points: [], cta: 'Learn More' })}
            item={(p) => (
              <>
                <Text path={[...p, 'title']} label="Service title" />
                <IconPicker path={[...p, 'icon']} label="Icon" />
                <Text path={[...p, 'summary']} label="Summary" long />
                <LinesField path={[...p, 'points']} label="Points" itemName="Point" />
                <Text path={[...p, 'cta']} label="Button label" />
              </>
            )}
          />
        </Part>
        <Part title="About">
          <Text path={['home', 'about', 'eyebrow']} label="About eyebrow" />
          <Text path={['home', 'about', 'title']} label="About title" />
          <ListField<string>
            path={['home', 'about', 'paragraphs']}
            label="Paragraphs"
            itemLabel={(_, i) => `Paragraph ${i + 1}`}
            make={() => ''}
            item={(p, i) => <Text path={p} label={`Paragraph ${i + 1}`} long />}
          />
          <StatsField path={['home', 'about', 'facts']} label="Facts" />
          <div className="grid gap-3 sm:grid-cols-2">
            <Text path={['home', 'about', 'badge', 'value']} label="Badge figure" />
            <Text path={['home', 'about', 'badge', 'label']} label="Badge label" />
          </div>
        </Part>
        <Part title="Track record">
          <HeadingFields path={['home', 'trackRecord', 'heading']} />
          <StatsField path={['home', 'trackRecord', 'stats']} label="Track record figures" />
        </Part>
        <Part title="Current role">
          <HeadingFields path={['home', 'currentRole', 'heading']} />
          <Text path={['home', 'currentRole', 'title']} label="Role" />
          <Text path={['home', 'currentRole', 'company']} label="Company line" />
          <ListField<Doc['home']['currentRole']['badges'][number]>
            path={['home', 'currentRole', 'badges']}
            label="Badges"
            itemLabel={(v, i) => v.text || `Badge ${i + 1}`}
            make={() => ({ icon: 'check', text: '' })}
            item={(p) => (
              <div className="grid gap-3 sm:grid-cols-2">
                <IconPicker path={[...p, 'icon']} label="Icon" />
                <Text path={[...p, 'text']} label="Badge" />
              </div>
            )}
          />
          <LinesField path={['home', 'currentRole', 'whatIDo']} label="What I do" itemName="Point" />
          <Text path={['home', 'currentRole', 'whyItMatters']} label="Why it matters" long />
        </Part>
        <Part title="Speaking">
          <HeadingFields path={['home', 'speaking', 'heading']} />
          <ListField<Doc['home']['speaking']['formats'][number]>
            path={['home', 'speaking', 'formats']}
            label="Formats"
            itemLabel={(v, i) => v.title || `Format ${i + 1}`}
            make={() => ({ title: '', icon: 'mic', text: '', topics: [] })}
            item={(p) => (
              <>
                <Text path={[...p, 'title']} label="Format" />
                <IconPicker path={[...p, 'icon']} label="Icon" />
                <Text path={[...p, 'text']} label="Text" long />
                <LinesField path={[...p, 'topics']} label="Topics" itemName="Topic" />
              </>
            )}
          />
          <Text path={['home', 'speaking', 'cta']} label="Speaking button" />
        </Part>
        <Part title="Closing call to action">
          <Text path={['home', 'closingCta', 'title']} label="Closing title" />
          <Text path={['home', 'closingCta', 'lead']} label="Closing text" long />
          <LinesField path={['home', 'closingCta', 'promises']} label="Promises" itemName="Promise" />
          <Text path={['home', 'closingCta', 'cta']} label="Closing button" />
        </Part>
      </Section>

      <Section id="site-work-with-me" title="Work With Me">
        <Part title="Hero">
          <Text path={['workWithMe', 'hero', 'eyebrow']} label="Eyebrow" />
          <Text path={['workWithMe', 'hero', 'title']} label="Title" />
          <Text path={['workWithMe', 'hero', 'lead']} label="Lead" long />
          <ListField<Doc['workWithMe']['hero']['proof'][number]>
            path={['workWithMe', 'hero', 'proof']}
            label="Proof points"
            itemLabel={(v, i) => v.text || `Proof point ${i + 1}`}
            make={() => ({ icon: 'check', text: '' })}
            item={(p) => (
              <div className="grid gap-3 sm:grid-cols-2">
                <IconPicker path={[...p, 'icon']} label="Icon" />
                <Text path={[...p, 'text']} label="Proof point" />
              </div>
            )}
          />
        </Part>
        <Part title="What happens next?">
          <ListField<Doc['workWithMe']['nextSteps'][number]>
            path={['workWithMe', 'nextSteps']}
            label="Steps"
            itemLabel={(v, i) => v.title || `Step ${i + 1}`}
            make={() => ({ icon: 'check', title: '', text: '' })}
            item={(p) => (
              <>
                <IconPicker path={[...p, 'icon']} label="Icon" />
                <Text path={[...p, 'title']} label="Step" />
                <Text path={[...p, 'text']} label="Text" long />
              </>
            )}
          />
        </Part>
        <Part title="Packages">
          <ListField<Doc['workWithMe']['packageTabs'][number]>
            path={['workWithMe', 'packageTabs']}
            label="Package tabs"
            itemLabel={(v, i) => v.label || `Tab ${i + 1}`}
            make={() => ({ id: `tab-${Date.now().toString(36)}`, label: '', intro: '', packages: [] })}
            item={(p) => (
              <>
                <div className="grid gap-3 sm:grid-cols-2">
                  <Text path={[...p, 'label']} label="Tab name" />
                  <Text path={[...p, 'id']} label="Tab id" hint="Used in the page's links: a-z, 0-9 and dashes." />
                </div>
                <Text path={[...p, 'intro']} label="Tab intro" />
                <ListField<Doc['workWithMe']['packageTabs'][number]['packages'][number]>
                  path={[...p, 'packages']}
                  label="Packages"
                  itemLabel={(v, i) => v.name || `Package ${i + 1}`}
                  make={() => ({
                    id: '',
                    name: '',
                    price: 0,
                    priceFrom: false,
                    note: '',
                    description: '',
                    points: [],
                    popular: false,
                    bookUrl: '',
                    billing: 'one_time',
                    instalments: 3,
                    sessions: 0,
                    eventType: '',
                    productId: null,
                  })}
                  item={(q) => (
                    <>
                      <div className="grid gap-3 sm:grid-cols-2">
                        <Text path={[...q, 'name']} label="Package name" />
                        <Money path={[...q, 'price']} label="Price" />
                      </div>
                      <Text path={[...q, 'note']} label="Price note" />
                      <Text path={[...q, 'description']} label="Description" long />
                      <LinesField path={[...q, 'points']} label="Points" itemName="Point" />
                      <Toggle path={[...q, 'priceFrom']} label="Show 'from' before the price" />
                      <Toggle path={[...q, 'popular']} label="Popular" />
                      <Text path={[...q, 'id']} label="Package id" hint="Its checkout's address: /checkout/package/<id>. a-z, 0-9 and dashes." />
                      <div className="grid gap-3 sm:grid-cols-2">
                        <Choice path={[...q, 'billing']} label="Paid" options={BILLING_OPTIONS} />
                        <Count path={[...q, 'instalments']} label="Instalments" hint="For instalments: how many monthly payments of the price." />
                        <Count path={[...q, 'sessions']} label="Sessions included" hint="Monthly packages: every month." />
                        <Text path={[...q, 'eventType']} label="Sessions are booked as" hint="An event type's slug (Admin → Booking)." />
                        <Count path={[...q, 'productId']} label="Files from product" hint="A product's id: its files come with the package. Empty: none." nullable />
                      </div>
                      <Text path={[...q, 'bookUrl']} label="'Book Now' leads to" hint="Empty: the package's checkout (or, paid by request, its request form)." />
                    </>
                  )}
                />
              </>
            )}
          />
        </Part>
      </Section>

      <Section id="site-newsletter" title="Newsletter">
        <Text path={['newsletter', 'name']} label="Newsletter name" />
        <Text path={['newsletter', 'pitch']} label="Pitch" long />
        <LinesField path={['newsletter', 'points']} label="Points" itemName="Point" />
        <ListField<Doc['newsletter']['benefits'][number]>
          path={['newsletter', 'benefits']}
          label="Benefits"
          itemLabel={(v, i) => v.title || `Benefit ${i + 1}`}
          make={() => ({ title: '', text: '' })}
          item={(p) => (
            <>
              <Text path={[...p, 'title']} label="Benefit" />
              <Text path={[...p, 'text']} label="Text" long />
            </>
          )}
        />
        <StatsField path={['newsletter', 'stats']} label="Newsletter figures" />
        <FormPlacement />
      </Section>

      <Section id="site-podcast" title="Podcast show">
        <Text path={['podcast', 'title']} label="Show title" />
        <Text path={['podcast', 'description']} label="Show description" long />
        <div className="grid gap-3 sm:grid-cols-2">
          <Text path={['podcast', 'ownerName']} label="Owner name" />
          <Text path={['podcast', 'ownerEmail']} label="Owner e-mail" hint="Apple Podcasts checks ownership here. Empty: the contact e-mail." />
          <Text path={['podcast', 'category']} label="Category" />
          <Text path={['podcast', 'artwork']} label="Artwork" hint="1400-3000 px square." />
          <Text path={['podcast', 'appleUrl']} label="Apple Podcasts link" />
          <Text path={['podcast', 'spotifyUrl']} label="Spotify link" />
        </div>
        <Text path={['podcast', 'newFeedUrl']} label="New feed address" hint="Only after moving the show to another host." />
        <Toggle path={['podcast', 'locked']} label="Locked" hint="Asks other podcast hosts not to import the feed." />
      </Section>

      <Section id="site-privacy" title="Privacy policy">
        <Text path={['privacyPolicy', 'intro']} label="Introduction" long />
        <ListField<Doc['privacyPolicy']['sections'][number]>
          path={['privacyPolicy', 'sections']}
          label="Policy sections"
          itemLabel={(v, i) => v.title || `Section ${i + 1}`}
          make={() => ({ id: `section-${Date.now().toString(36)}`, title: '', html: '' })}
          item={(p) => (
            <>
              <div className="grid gap-3 sm:grid-cols-2">
                <Text path={[...p, 'title']} label="Section title" />
                <Text path={[...p, 'id']} label="Section id" />
              </div>
              <Text path={[...p, 'html']} label="Section text (HTML)" hint="Paragraphs, lists, links and emphasis; anything else is removed when saved." long />
            </>
          )}
        />
      </Section>

      <Section id="site-links" title="Links">
        <Text path={['bookingUrl']} label="Booking link" hint="Where 'Book a Strategy Call' and 'Book Now' lead. Empty: the sign-up card on /work-with-me." />
        <Text path={['analyticsId']} label="Analytics id" hint="Google Analytics, loaded only after a visitor allows it." />
      </Section>
    </>
  );
}
