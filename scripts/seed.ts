// Demo content for a fresh install, so every public page and admin list has something real
// to show. It only ever fills an empty database: once any post, episode or product exists
// the site belongs to its owner and the seed stays out of the way.
import { randomUUID } from 'node:crypto';
import { placeholderEmail } from '#server/accounts/auth.ts';
import { readTimeOf } from '#server/html/sanitize.ts';
import { slugify } from '#shared/format.ts';
import type { Db } from '#db/client.ts';
import { blogPosts, comments, newsletterSubscribers, podcastEpisodes, products, users } from '#db/schema/index.ts';

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;

/** Dates relative to the moment of seeding, so the demo always looks recent. */
function ago(now: number, days: number, hours = 0): Date {
  return new Date(now - days * DAY - hours * HOUR);
}

/**
 * Lets the posts below be written readably across lines while storing what TipTap emits:
 * block tags back to back with no whitespace between them.
 */
function tiptap(source: string): string {
  return source
    .replace(/\s+/g, ' ')
    .replace(/\s*(<\/?(?:p|h2|h3|ul|ol|li|blockquote)>)\s*/g, '$1')
    .trim();
}

type PostSeed = { title: string; category: 'General' | 'Leadership' | 'Technology' | 'Business' | 'Personal'; excerpt: string | null; published: boolean; daysAgo: number; content: string };

const POSTS: PostSeed[] = [
  {
    title: 'Two Decades and 100+ Apps: The Lessons That Actually Held Up',
    category: 'General',
    excerpt:
      'After twenty years of building, consulting on and launching more than a hundred apps, most of my early rules turned out to be wrong. Here are the few that survived contact with real customers, real teams and real revenue.',
    published: true,
    daysAgo: 118,
    content: tiptap(`
      <p>I shipped my first app twenty years ago from a desk wedged between a printer and a window that did not close. Since then I have built, consulted on or launched more than a hundred of them: consumer apps, internal tools, marketplaces, and a handful of products that together generate more than $10M in annual recurring revenue. Most of what I believed at the start turned out to be wrong. A few things held up every single time.</p>
      <p>This blog, <strong>Leadership Insights</strong>, is where I write those things down for founders who are somewhere on the same road. Here are the lessons I would tattoo on a first-time founder if they let me.</p>
      <h2>1. The customer is not in the room where you write the spec</h2>
      <p>Every failed product I have worked on had a beautiful specification. The successful ones had an ugly spreadsheet of customer conversations. If you cannot name five people who will be angry when your product disappears, you do not have a product yet, you have a hypothesis. Go and find the five people before you hire the fifth engineer.</p>
      <h2>2. Speed comes from saying no, not from working late</h2>
      <p>The fastest teams I have led were not the ones that worked the longest hours. They were the ones that cut scope ruthlessly and early. A feature you do not build has no bugs, needs no documentation and never pages anyone at 3 a.m. When a team is slow, I look at the backlog before I look at the people.</p>
      <h2>3. Systems beat heroics</h2>
      <p>Heroics feel great. Someone stays up all night, the launch goes out, everyone cheers. Then it happens again the next month, and the month after that, and the hero quits. My day job today is running operations for a healthcare dispatch company that serves 226 facilities around the clock. There is no room for heroics there. There is only room for systems that work when the best person on the team is asleep.</p>
      <blockquote><p>If your process depends on someone being brilliant on a bad day, you do not have a process. You have a prayer.</p></blockquote>
      <h2>4. Technical choices are business choices</h2>
      <p>Founders often treat technology as a black box that engineers worry about. But the framework you choose decides who you can hire, the database you choose decides what reports you can sell, and the shortcuts you take in month two decide how fast you can move in year two. You do not need to write code to lead a technical company. You do need to ask "what does this decision cost us later?" every time.</p>
      <h2>5. Leadership is mostly repetition</h2>
      <p>Early in my career I thought leadership was about big speeches and clever strategy. It is mostly saying the same three priorities every week until people are sick of hearing them, and then saying them again. Clarity is boring. Boring is underrated.</p>
      <h3>What you can expect here</h3>
      <ul>
        <li><p><strong>Leadership:</strong> managing teams, hiring, feedback, and leading when things break.</p></li>
        <li><p><strong>Technology:</strong> MVPs, architecture decisions for non-architects, and technical debt.</p></li>
        <li><p><strong>Business:</strong> pricing, operations and the unglamorous work of scaling.</p></li>
        <li><p><strong>Personal:</strong> the parts of building a company nobody puts on LinkedIn.</p></li>
      </ul>
      <p>If that sounds useful, subscribe to the newsletter and listen to <em>The Leadership Code</em>, the podcast where I talk through these ideas with operators and founders. And if you want to go deeper on your own situation, you can always <a href="/work-with-me">work with me directly</a>.</p>
    `),
  },
  {
    title: 'Shipping an MVP in Six Weeks: A Scope-Cutting Playbook',
    category: 'Technology',
    excerpt:
      'Six weeks is enough time to ship a real MVP if you are willing to cut the right things. This is the exact playbook I use with founders: one job, one user, one metric, and a ruthless list of what not to build.',
    published: true,
    daysAgo: 104,
    content: tiptap(`
      <p>Almost every founder I coach has the same problem: the MVP keeps growing. It started as a six-week project, and four months later it has user roles, a settings page, three integrations and a dark mode. It still has no paying customers.</p>
      <p>Six weeks is enough to ship a real minimum viable product. Not a mockup, not a landing page, a working product someone can pay for. But only if you cut scope with intent instead of hoping it shrinks on its own. Here is the playbook I use.</p>
      <h2>Week 0: Write the one-sentence job</h2>
      <p>Before any code, write one sentence: <em>"[This user] uses the product to [do this job] so that [this outcome happens]."</em> If you need the word "and" in that sentence, you have two products. Pick one.</p>
      <p>Then choose <strong>one metric</strong> that proves the job is being done. Not signups. Something like "invoices sent", "shifts filled" or "reports exported". That metric becomes the tiebreaker for every scope argument over the next six weeks.</p>
      <h2>The not-building list</h2>
      <p>The most valuable document in an MVP project is the list of things you are explicitly not building. I ask founders to write it on day one and to add to it every time someone says "it would be nice if". Typical entries:</p>
      <ul>
        <li><p>User roles and permissions (everyone is an admin for now)</p></li>
        <li><p>Self-service onboarding (you will onboard the first ten customers yourself, on a call)</p></li>
        <li><p>Integrations beyond the one your first customer actually asked for</p></li>
        <li><p>Mobile apps, when a responsive web page will do</p></li>
        <li><p>Analytics dashboards, when a weekly CSV export will do</p></li>
      </ul>
      <p>Nothing on the list is a bad idea. It is just not this idea.</p>
      <h2>Weeks 1 to 4: Build the spine</h2>
      <p>Build the single path a user takes to complete the job, end to end, as early as possible. Ugly is fine. Manual steps behind the scenes are fine. I have launched products where "automated matching" was me, in a spreadsheet, every morning at 7 a.m. Customers did not care. They cared that the job got done. Paul Graham's essay <a target="_blank" rel="noopener noreferrer nofollow" href="https://paulgraham.com/ds.html">Do Things That Don't Scale</a> makes the same point better than I can.</p>
      <h3>Choose boring technology</h3>
      <p>An MVP is not the moment to learn a new framework. Use the stack your team knows best, a managed database, and a payment provider that handles tax and receipts for you. Every novel technology choice is a week you do not get back.</p>
      <h2>Week 5: Charge money</h2>
      <p>Put a price on it before you feel ready. A customer who pays even a small amount gives you more honest feedback than fifty who say "this looks great". If nobody will pay, you have learned something important, and you learned it in five weeks instead of five months.</p>
      <h2>Week 6: Launch to ten people, not ten thousand</h2>
      <p>Your first launch should be a list of names, not a press release. Ten people who have the problem, who you can call, and who will tell you what broke. Watch them use it. Fix the top three issues. Then widen the circle.</p>
      <blockquote><p>The goal of an MVP is not to impress. It is to learn whether the job is worth doing, as cheaply as possible.</p></blockquote>
      <p>If you want a template for the one-sentence job, the metric and the not-building list, the <strong>MVP Launch Playbook</strong> in the shop has all of them, plus the checklists I use in week five and six.</p>
    `),
  },
  {
    title: 'What 24/7 Dispatch Taught Me About Calm Leadership',
    category: 'Leadership',
    excerpt: null,
    published: true,
    daysAgo: 89,
    content: tiptap(`
      <p>In healthcare dispatch, the phone does not stop ringing because it is Sunday. As VP of Operations, I am responsible for a service that supports 226 facilities around the clock. When something goes wrong, it is rarely at a convenient time, and the people on the other end of the line are often dealing with the worst day of someone's life.</p>
      <p>That environment changed how I think about leadership more than any book or course did. The biggest lesson: <strong>in a crisis, the leader's job is to lower the temperature, not raise it.</strong></p>
      <h2>Panic is contagious, so is calm</h2>
      <p>The first time I handled a major system outage at 3 a.m., I did what many engineers-turned-managers do. I jumped into the logs, fired off messages in every channel, and asked five people for updates at once. It felt like leadership. It was noise.</p>
      <p>A senior dispatcher pulled me aside afterwards and said, "When you're frantic, everyone thinks it's worse than it is." She was right. The team takes its cue from the person in charge. If your messages are short, specific and calm, people focus. If they are long, vague and urgent, people freeze.</p>
      <h2>The three questions</h2>
      <p>Now, when an incident starts, I ask the same three questions, in the same order, every time:</p>
      <ol>
        <li><p><strong>Who is affected right now?</strong> Patients and facilities come first, not our dashboards.</p></li>
        <li><p><strong>What is the manual fallback?</strong> Every critical workflow has a paper or phone path, and we practise it.</p></li>
        <li><p><strong>Who owns the fix?</strong> One name. Not a team, not a channel, a person.</p></li>
      </ol>
      <p>Asking the same questions every time does something subtle: the team starts asking them before I arrive. That is the goal. A good incident process should work without me in the room.</p>
      <h2>Write it down while it is fresh</h2>
      <p>After every significant incident we write a short, blameless review. Not a forty-page document, just one page: what happened, how we noticed, what we did, and the one or two changes that would make it less likely or less painful next time. Then we actually make those changes.</p>
      <blockquote><p>Uptime is not a technology metric. It is the sum of a thousand small habits practised by people who are tired.</p></blockquote>
      <h2>Founders: this applies to you too</h2>
      <p>You may not run a round-the-clock operation, but your startup will have its own 3 a.m. moments: the big customer who threatens to churn, the payment provider that freezes your account, the co-founder conversation you have been avoiding. The same principles hold. Slow down your voice. Ask who is affected. Find the fallback. Give the problem one owner.</p>
      <p>Calm is not a personality trait. It is a skill you can practise, and the team that works for you will practise it right alongside you.</p>
    `),
  },
  {
    title: 'Stop Pricing Like a Freelancer: Value-Based Pricing for Your First Product',
    category: 'Business',
    excerpt:
      'Most technical founders price their first product by adding up their costs and adding a margin. That leaves money on the table and attracts the wrong customers. Here is a simpler way to think about what your product is worth.',
    published: true,
    daysAgo: 71,
    content: tiptap(`
      <p>Technical founders tend to price the way freelancers do: estimate the hours, multiply by a rate, add a little margin. It feels fair and defensible. It is also one of the most expensive mistakes I see in early-stage companies.</p>
      <p>Your customer does not care how long it took you to build. They care what it is worth to them. Those two numbers are usually very far apart.</p>
      <h2>Start with the cost of the problem</h2>
      <p>Before you think about your price, work out what the problem costs your customer today. In hours, in lost revenue, in risk, in staff turnover. One client of mine built scheduling software for clinics. Their first price was $49 a month, because "that's what scheduling tools cost". When we interviewed customers, we found a single unfilled shift cost a clinic around $1,200. Their product prevented several of those a month.</p>
      <p>They now charge $600 a month per location, and customers consider it a bargain.</p>
      <h2>Three rules I give every founder</h2>
      <ul>
        <li><p><strong>Price on the metric the customer already understands.</strong> Per location, per provider, per shipment. Not per API call, unless your customers are developers.</p></li>
        <li><p><strong>Have fewer tiers than you think.</strong> Two or three plans are plenty. Every extra tier is a decision your customer has to make, and confused buyers do not buy.</p></li>
        <li><p><strong>Raise prices on new customers first.</strong> Grandfather your early adopters. They took a risk on you, and they will remember that you took care of them.</p></li>
      </ul>
      <h2>The discomfort is the signal</h2>
      <p>If saying your price out loud does not make you slightly uncomfortable, it is probably too low. I ask founders to quote their next three prospects a price 50% higher than they planned. Most of the time, nobody blinks. Occasionally someone says no, and that is useful data too.</p>
      <blockquote><p>Cheap pricing does not just lose revenue. It attracts customers who are shopping on price, and they are the first to leave.</p></blockquote>
      <h2>What about competitors?</h2>
      <p>Competitor pricing is a reference point, not a rule. If your product solves a narrower problem better, you can charge more than a broad tool that does everything adequately. Specialists are paid more than generalists in almost every industry. Software is no different.</p>
      <h3>A quick exercise</h3>
      <ol>
        <li><p>Write down the cost of the problem for one typical customer, per month.</p></li>
        <li><p>Take 10% to 20% of that number.</p></li>
        <li><p>Compare it with your current price.</p></li>
      </ol>
      <p>If the gap is large, you have found the cheapest growth lever your company will ever have. It does not need a single line of code.</p>
    `),
  },
  {
    title: 'Technical Debt Is a Loan. Know Your Interest Rate.',
    category: 'Technology',
    excerpt:
      'Technical debt is not a moral failing, it is financing. Some of it is cheap and worth taking on; some of it compounds until your team can barely ship. A practical way for founders and engineering leads to tell the difference.',
    published: true,
    daysAgo: 52,
    content: tiptap(`
      <p>"We have a lot of technical debt" is one of the least useful sentences in software. It is true of every company that has ever shipped anything. The useful question is not whether you have debt, but <strong>what interest you are paying on it</strong>.</p>
      <h2>Debt is financing, not failure</h2>
      <p>When you hard-code a configuration, skip an abstraction or copy a module instead of generalising it, you are borrowing time from the future to ship sooner. That is often the right call, especially before product-market fit. Plenty of the fastest-growing products I have worked on were held together with tape for their first year, and that was fine, because the tape bought them the year.</p>
      <p>The trouble starts when nobody tracks the loan.</p>
      <h2>How to measure the interest</h2>
      <p>I ask teams to look for three signals:</p>
      <ul>
        <li><p><strong>Change cost:</strong> how many files, people or days does a typical change in this area take? If a one-line business rule needs a three-day release, you are paying interest.</p></li>
        <li><p><strong>Incident rate:</strong> which parts of the system show up in incident reviews again and again?</p></li>
        <li><p><strong>Fear:</strong> which areas do engineers avoid touching? Fear is an honest metric. Nobody fakes it.</p></li>
      </ul>
      <p>Debt in code that never changes and never breaks is nearly free. Leave it alone. Debt in the module everyone touches every week is a high-interest credit card, and it should be paid down first.</p>
      <h2>Paying it down without stopping the world</h2>
      <p>I have never seen a "stop everything and rewrite" project finish on time. What works is steady repayment:</p>
      <ol>
        <li><p>Reserve a fixed share of every sprint, typically 15% to 20%, for debt in the areas with the highest interest.</p></li>
        <li><p>Tie each repayment to a feature that touches the same code. Refactor on the way in, not as a separate project.</p></li>
        <li><p>Make the improvement visible: "deploys to the billing service went from two days to two hours" is a story leadership understands.</p></li>
      </ol>
      <blockquote><p>The goal is not zero debt. The goal is debt you chose, at a rate you can afford.</p></blockquote>
      <h2>A note for non-technical founders</h2>
      <p>If your engineers keep asking for time to "clean things up" and you keep saying no, ask them to describe the interest instead: what does this cost us every week? That turns a vague request into a business decision you can actually make. And if they cannot describe the interest, the debt may not be worth paying yet.</p>
      <p>For a deeper dive, Martin Fowler's <a href="https://martinfowler.com/bliki/TechnicalDebtQuadrant.html">technical debt quadrant</a> is still one of the clearest frameworks for talking about why debt was taken on in the first place.</p>
    `),
  },
  {
    title: 'Hiring Your First Five Engineers Without a Recruiter',
    category: 'Leadership',
    excerpt: null,
    published: true,
    daysAgo: 33,
    content: tiptap(`
      <p>Your first five engineering hires will shape your company's culture more than anything you write in a values document. They will set the standard for code quality, for how disagreements are handled, and for who you can hire next. Good engineers want to work with good engineers.</p>
      <p>Most founders get this wrong in one of two ways: they hire too fast because they are desperate for velocity, or too slowly because they are waiting for a unicorn. Here is what has worked for me across many early teams.</p>
      <h2>Hire for the next 18 months, not the next five years</h2>
      <p>You do not need a principal engineer who has scaled systems to a billion users. You need people who can ship a working product with incomplete information and who will not be miserable when the plan changes every two weeks. Look for <strong>range</strong> and <strong>ownership</strong> over deep specialisation.</p>
      <h2>Write the job description as a list of problems</h2>
      <p>Instead of "5+ years of React", describe what the person will actually do in their first 90 days:</p>
      <ul>
        <li><p>Rebuild the onboarding flow that currently loses 40% of signups</p></li>
        <li><p>Own the integration with our first enterprise customer's scheduling system</p></li>
        <li><p>Set up the deployment pipeline so we can ship more than once a week</p></li>
      </ul>
      <p>The right candidates get excited by that list. The wrong ones self-select out. Both outcomes save you time.</p>
      <h2>Replace puzzles with real work</h2>
      <p>I stopped using algorithm puzzles years ago. Instead, candidates get a small, paid exercise based on a real problem we have already solved, followed by a conversation about their choices. What did they leave out, and why? What would they do with another day? That conversation tells me more than any whiteboard ever did.</p>
      <h3>Questions I always ask</h3>
      <ol>
        <li><p>Tell me about something you shipped that you are not proud of. Why did you ship it?</p></li>
        <li><p>When did you last change your mind about a technical decision?</p></li>
        <li><p>What does a good week at work look like for you?</p></li>
      </ol>
      <h2>Sell the mission honestly</h2>
      <p>You cannot compete with big companies on salary, so do not pretend you can. Compete on ownership, learning and impact, and be honest about the risks. The people who join a startup after hearing an honest pitch are the ones who stay when things get hard.</p>
      <blockquote><p>Every early hire is a co-author of your culture. Choose people you would be happy to see multiplied by ten.</p></blockquote>
      <p>And one last thing: move fast once you have decided. The best engineers are off the market within two weeks. A slow process is a decision to hire whoever is left.</p>
    `),
  },
  {
    title: "The Burnout I Didn't See Coming",
    category: 'Personal',
    excerpt:
      'I spent years telling other founders to protect their energy while quietly running myself into the ground. This is the honest story of my own burnout, the warning signs I ignored, and what I do differently now.',
    published: true,
    daysAgo: 16,
    content: tiptap(`
      <p>This is not an easy post to write. For years I coached founders on sustainable pace, on delegation, on not being the bottleneck. At the same time I was running a demanding operations role, consulting on the side, and answering messages at 11 p.m. because "it will only take a minute".</p>
      <p>I did not notice I was burning out. My family did.</p>
      <h2>It did not look like exhaustion</h2>
      <p>I expected burnout to feel like being tired. Instead, it felt like <strong>irritation</strong>. Small things made me disproportionately angry. I stopped enjoying problems I used to love. I would sit down to write or plan and find myself scrolling instead, then feel guilty about it, then work later to make up for it. A perfect loop.</p>
      <p>The warning signs, looking back, were obvious:</p>
      <ul>
        <li><p>I stopped exercising "temporarily" for about eight months.</p></li>
        <li><p>Every weekend included "just an hour" of catching up.</p></li>
        <li><p>I was the only person who knew how several critical things worked.</p></li>
        <li><p>I could not remember the last time I was bored.</p></li>
      </ul>
      <h2>What actually helped</h2>
      <p>There was no single fix. There were a handful of boring changes that, together, gave me my life back.</p>
      <h3>1. I made myself less necessary</h3>
      <p>The hardest and most important change. I wrote down everything only I knew how to do and handed each item to someone else, with documentation, even when it was slower at first. My team got stronger. I got my evenings back. It turns out "only I can do this" is usually a story, not a fact.</p>
      <h3>2. I put boundaries in the calendar, not in my head</h3>
      <p>Good intentions lose to a full inbox every time. My evenings, my morning workout and one full day each weekend are now blocked, and the people I work with know it. The world has not ended.</p>
      <h3>3. I talked to someone</h3>
      <p>I had coaches for my business for years before I had anyone to talk to about myself. That was backwards. If you are struggling, talk to a professional. It is not a sign of weakness; it is maintenance.</p>
      <blockquote><p>Your company can only be as healthy as the person making its decisions.</p></blockquote>
      <p>If any of this sounds familiar, please do not wait as long as I did. Take one thing off your plate this week. Just one. Then see how it feels.</p>
    `),
  },
  {
    title: 'Runbooks Before Headcount: Scaling Operations Without Scaling Chaos',
    category: 'Business',
    excerpt:
      'When operations start to creak, the reflex is to hire. Often the better first move is to write things down. How runbooks, clear ownership and a weekly review let a small team support hundreds of facilities.',
    published: false,
    daysAgo: 4,
    content: tiptap(`
      <p>When a growing company's operations start to creak, the reflex is to hire. More tickets? Hire support. More incidents? Hire on-call engineers. More customers? Hire account managers. Sometimes that is right. More often, the first problem is not headcount. It is that nobody wrote anything down.</p>
      <h2>The hidden cost of tribal knowledge</h2>
      <p>In our dispatch operation, we support 226 facilities around the clock. When I joined, a surprising amount of how that worked lived in the heads of four or five long-tenured people. They were excellent. They were also exhausted, because every unusual situation ended up on their phone.</p>
      <p>Hiring more people would not have fixed that. New hires would simply have called the same five people.</p>
      <h2>Runbooks first</h2>
      <p>We started with the twenty situations that caused the most escalations and wrote a one-page runbook for each: how to recognise it, what to do in the first five minutes, who to call if that does not work. Plain language. No jargon. Tested by someone who had never handled the situation before.</p>
      <ul>
        <li><p><strong>Owner:</strong> every runbook has one named owner who keeps it current.</p></li>
        <li><p><strong>Review:</strong> every incident ends with the question "did the runbook help?"</p></li>
        <li><p><strong>Retirement:</strong> if a situation stops happening, the runbook is archived, not left to rot.</p></li>
      </ul>
      <h2>Then the weekly review</h2>
      <p>Thirty minutes, every week, same agenda: what escalated, what the runbooks missed, what we will change. It is the least glamorous meeting on my calendar and the one I would protect above all others.</p>
      <h3>What changed</h3>
      <p>Within a quarter, the long-tenured team stopped being the default escalation path. New hires handled situations on their first week that used to take months to learn, because the answer was written down and had been tested. When we did hire, each new person made the whole team stronger instead of adding another voice to the group chat at 2 a.m.</p>
      <p>Headcount still matters. But hire into a system that works, not into chaos you hope the new person will untangle.</p>
      <p><em>Draft: add the numbers on escalation volume before and after, and a template readers can copy.</em></p>
    `),
  },
];

type EpisodeSeed = {
  title: string;
  description: string;
  guest: string | null;
  /** Length of the demo file in public/audio/demo, in whole seconds; null when there is none. */
  duration: number | null;
  published: boolean;
  daysAgo: number;
};

const EPISODES: EpisodeSeed[] = [
  {
    title: 'Why Most MVPs Fail Before They Launch',
    description:
      "In the first episode of The Leadership Code, I talk about the most common way promising products die: not in the market, but in the months before launch. Scope creep, perfectionism and the fear of charging money, and the simple habits that get a first version into customers' hands in weeks instead of quarters.",
    guest: null,
    duration: 9,
    published: true,
    daysAgo: 96,
  },
  {
    title: 'Leading Through a 3 a.m. Outage',
    description:
      "What does calm leadership look like when a critical system fails in the middle of the night? My guest has run clinical operations through storms, outages and staffing crises. We talk about incident command for non-engineers, manual fallbacks, blameless reviews, and why the leader's tone matters as much as the fix.",
    guest: 'Dana Whitfield, Director of Clinical Operations',
    duration: 12,
    published: true,
    daysAgo: 61,
  },
  {
    title: 'From Engineer to Manager: The Hardest Promotion',
    description:
      'Great engineers are often promoted into management with no preparation. My guest made that jump twice, once badly and once well. We cover letting go of the code, giving feedback that lands, running one-on-ones that matter, and how to tell whether management is really the path you want.',
    guest: 'Marcus Chen, VP of Engineering',
    duration: 14,
    published: true,
    daysAgo: 27,
  },
  {
    title: 'The Pricing Conversation Founders Avoid',
    description:
      "Why so many technical founders undercharge, how to anchor a price on the cost of the customer's problem, and what to say when a prospect pushes back. Recording notes: add listener questions from the newsletter.",
    guest: null,
    duration: null,
    published: false,
    daysAgo: 2,
  },
];

type ProductSeed = { name: string; description: string; price: number; active: boolean; daysAgo: number };

const PRODUCTS: ProductSeed[] = [
  {
    name: '90-Minute Strategy Session',
    description:
      'A focused 90-minute video call on the one problem that matters most right now: your MVP scope, your pricing, your first hires, or your operations. You will send a short brief beforehand and leave with a written summary and a prioritised list of next steps.',
    price: 49700,
    active: true,
    daysAgo: 120,
  },
  {
    name: 'MVP Launch Playbook',
    description:
      'The step-by-step playbook I use with founders to ship a paid MVP in six weeks: the one-sentence job template, the not-building list, weekly checklists, a pricing worksheet and the launch-to-ten-customers plan. Digital download (PDF and editable templates).',
    price: 4900,
    active: true,
    daysAgo: 100,
  },
  {
    name: 'Scaling Operations Workshop (Recording)',
    description:
      'Recording of the live half-day workshop on scaling operations without scaling chaos: runbooks, ownership, incident reviews and weekly operating rhythms, with slides and templates. Currently unavailable while the material is being updated.',
    price: 14900,
    active: false,
    daysAgo: 80,
  },
];

type SubscriberSeed = { email: string; name: string | null; convertKitId: string | null; active: boolean; daysAgo: number };

const SUBSCRIBERS: SubscriberSeed[] = [
  { email: 'priya.raman@example.com', name: 'Priya Raman', convertKitId: 'kit_1001', active: true, daysAgo: 57 },
  { email: 'jordan.blake@example.com', name: 'Jordan Blake', convertKitId: null, active: true, daysAgo: 43 },
  { email: 'sam.okafor@example.com', name: 'Sam Okafor', convertKitId: null, active: false, daysAgo: 31 },
  { email: 'elena.marsh@example.com', name: 'Elena Marsh', convertKitId: null, active: true, daysAgo: 12 },
  { email: 'founder.notes@example.com', name: null, convertKitId: null, active: true, daysAgo: 3 },
];

type CommentSeed = {
  /** Title of the (published) post it belongs to. */
  post: string;
  authorName: string;
  authorEmail: string;
  content: string;
  approved: boolean;
  hoursAfterPost: number;
};

const COMMENTS: CommentSeed[] = [
  {
    post: 'Shipping an MVP in Six Weeks: A Scope-Cutting Playbook',
    authorName: 'Nadia Farouk',
    authorEmail: 'nadia.farouk@example.com',
    content: 'The not-building list is such a simple idea and it completely changed our planning meeting. We cut user roles and two integrations and shipped three weeks earlier than planned.',
    approved: true,
    hoursAfterPost: 20,
  },
  {
    post: 'Shipping an MVP in Six Weeks: A Scope-Cutting Playbook',
    authorName: 'Tom Reilly',
    authorEmail: 'tom.reilly@example.com',
    content: 'Curious how you handle investors who expect a "complete" product at demo day. Do you show them the not-building list too?',
    approved: true,
    hoursAfterPost: 52,
  },
  {
    post: 'What 24/7 Dispatch Taught Me About Calm Leadership',
    authorName: 'Grace Liu',
    authorEmail: 'grace.liu@example.com',
    content: 'As an ICU nurse manager this resonated a lot. "Who is affected right now?" is exactly the first question we ask at shift handover too.',
    approved: true,
    hoursAfterPost: 30,
  },
  {
    post: 'Technical Debt Is a Loan. Know Your Interest Rate.',
    authorName: 'Ben Adeyemi',
    authorEmail: 'ben.adeyemi@example.com',
    content: 'Using "fear" as a metric made me laugh, but it is true. Our scariest module is also the one with the most incidents. Sharing this with my co-founder.',
    approved: true,
    hoursAfterPost: 8,
  },
  {
    post: 'Hiring Your First Five Engineers Without a Recruiter',
    authorName: 'Laura Mendes',
    authorEmail: 'laura.mendes@example.com',
    content: 'How much do you usually pay for the take-home exercise, and how long should it take a candidate? We want to do this but worry about scaring people off.',
    approved: false,
    hoursAfterPost: 40,
  },
  {
    post: "The Burnout I Didn't See Coming",
    authorName: 'Chris Novak',
    authorEmail: 'chris.novak@example.com',
    content: 'Thank you for writing this. The part about irritation instead of exhaustion hit home. Blocking my Saturdays starting this week.',
    approved: false,
    hoursAfterPost: 26,
  },
];

/**
 * Fills an empty database with demo content. Returns false (and writes nothing) when any
 * post, episode or product already exists. Without `authorId` the posts are attributed to
 * a new 'author' user that has no password and so cannot log in.
 */
export function seedDemo(db: Db, authorId?: string): boolean {
  const now = Date.now();
  // 'immediate' takes the write lock before the emptiness check, so two processes starting
  // at once cannot both decide the database is empty.
  return db.transaction(
    (tx) => {
      const hasContent =
        tx.select({ id: blogPosts.id }).from(blogPosts).limit(1).get() ??
        tx.select({ id: podcastEpisodes.id }).from(podcastEpisodes).limit(1).get() ??
        tx.select({ id: products.id }).from(products).limit(1).get();
      if (hasContent) return false;

      let author = authorId;
      if (!author) {
        // No row in `accounts`: without a credential nobody can sign in as this user.
        author = tx
          .insert(users)
          .values({
            id: randomUUID(),
            username: 'author',
            displayUsername: 'Author',
            email: placeholderEmail('author'),
            name: 'Site Author',
            firstName: 'Site',
            lastName: 'Author',
            isApproved: true,
            isAdmin: false,
            createdAt: ago(now, 130),
            updatedAt: ago(now, 130),
          })
          .returning({ id: users.id })
          .get().id;
      }
      const authorOfPosts = author;

      const insertedPosts = tx
        .insert(blogPosts)
        .values(
          POSTS.map((p) => {
            const createdAt = ago(now, p.daysAgo, 9);
            return {
              title: p.title,
              slug: slugify(p.title),
              excerpt: p.excerpt,
              content: p.content,
              featuredImage: null,
              category: p.category,
              isPublished: p.published,
              authorId: authorOfPosts,
              readTime: readTimeOf(p.content),
              publishedAt: p.published ? createdAt : null,
              createdAt,
              updatedAt: createdAt,
            };
          }),
        )
        .returning({ id: blogPosts.id, title: blogPosts.title, createdAt: blogPosts.createdAt })
        .all();
      const postByTitle = new Map(insertedPosts.map((p) => [p.title, p]));

      tx.insert(podcastEpisodes)
        .values(
          EPISODES.map((e, i) => {
            const createdAt = ago(now, e.daysAgo, 7);
            const episodeNumber = i + 1;
            return {
              title: e.title,
              slug: slugify(e.title),
              description: e.description,
              audioUrl: e.duration === null ? null : `/audio/demo/episode-${episodeNumber}.mp3`,
              duration: e.duration,
              episodeNumber,
              guest: e.guest,
              isPublished: e.published,
              publishedAt: e.published ? createdAt : null,
              createdAt,
              updatedAt: createdAt,
            };
          }),
        )
        .run();

      tx.insert(products)
        .values(
          PRODUCTS.map((p) => ({ name: p.name, description: p.description, price: p.price, stripePriceId: null, isActive: p.active, createdAt: ago(now, p.daysAgo), updatedAt: ago(now, p.daysAgo) })),
        )
        .run();

      tx.insert(newsletterSubscribers)
        .values(SUBSCRIBERS.map((s) => ({ email: s.email, name: s.name, convertKitId: s.convertKitId, isActive: s.active, subscribedAt: ago(now, s.daysAgo, 5) })))
        .run();

      tx.insert(comments)
        .values(
          COMMENTS.map((c) => {
            const post = postByTitle.get(c.post);
            if (!post) throw new Error(`Seed comment refers to an unknown post: ${c.post}`);
            const createdAt = new Date(post.createdAt.getTime() + c.hoursAfterPost * HOUR);
            return { content: c.content, authorName: c.authorName, authorEmail: c.authorEmail, blogPostId: post.id, isApproved: c.approved, createdAt, updatedAt: createdAt };
          }),
        )
        .run();

      return true;
    },
    { behavior: 'immediate' },
  );
}
