// `client:interaction`: an island that hydrates when the visitor first reaches into it (a pointer
// over it or pressed on it, a touch, focus or a key), rather than on load. Its server-rendered
// HTML works until then (a real form), and hydrating keeps what was typed or picked meanwhile
// (uncontrolled inputs), so a large form costs the page nothing until someone uses it.
// `client:interaction={{ zone }}`: hydrated at once when the visitor's time zone is not `zone`
// (the zone the page was rendered in), since the island then shows the times in their own.
import type { ClientDirective } from 'astro';

interface InteractionOptions {
  /** The time zone the island was rendered in: a visitor in another gets it hydrated at once. */
  zone?: string;
}

declare module 'astro' {
  interface AstroClientDirectives {
    'client:interaction'?: boolean | InteractionOptions;
  }
}

const EVENTS = ['pointerover', 'pointerdown', 'touchstart', 'focusin', 'keydown'] as const;

const hydrateOnInteraction: ClientDirective = (load, options, el) => {
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    for (const type of EVENTS) el.removeEventListener(type, start, true);
    void load().then((hydrate) => hydrate());
  };
  const zone = (options.value as InteractionOptions | undefined)?.zone;
  if (typeof zone === 'string' && Intl.DateTimeFormat().resolvedOptions().timeZone !== zone) return start();
  for (const type of EVENTS) el.addEventListener(type, start, { capture: true, passive: true });
};

export default hydrateOnInteraction;
