// `client:interaction`: an island that hydrates when the visitor first reaches into it (a pointer
// over it or pressed on it, a touch, focus or a key), rather than on load. Its server-rendered
// HTML works until then (a real form), and hydrating keeps what was typed or picked meanwhile
// (uncontrolled inputs), so a large form costs the page nothing until someone uses it.
// `client:interaction={{ utcOffset }}`: hydrated at once when the visitor's clock is not at
// `utcOffset` (that of the zone the page was rendered in, in minutes ahead of UTC), since the
// island then shows the times in their own zone. The offset is compared, not the zone's name:
// asking the browser for its zone's name makes its first Intl formatter, tens of milliseconds
// of a phone's main thread at load; a visitor at the same offset sees the right times already,
// and the island takes their zone's name when first used.
import type { ClientDirective } from 'astro';

interface InteractionOptions {
  /** The UTC offset (minutes ahead) of the zone the island was rendered in: a visitor at another gets it hydrated at once. */
  utcOffset?: number;
}

declare module 'astro' {
  interface AstroClientDirectives {
    'client:interaction'?: boolean | InteractionOptions;
  }
}

const EVENTS = ['pointerover', 'pointerdown', 'touchstart', 'focusin', 'keydown'] as const;

const hydrateOnInteraction: ClientDirective = (load, options, el) => {
  let started = false;
  // A press on a button that does nothing without JavaScript (type="button": a player's Play),
  // made before the island has hydrated, is pressed again once it has. Links, form buttons and
  // fields work by themselves meanwhile.
  let pressed: HTMLButtonElement | null = null;
  const hold = (e: Event) => {
    const button = e.target instanceof Element ? e.target.closest('button') : null;
    if (button?.type === 'button') pressed = button;
  };
  el.addEventListener('click', hold, true);
  const start = () => {
    if (started) return;
    started = true;
    for (const type of EVENTS) el.removeEventListener(type, start, true);
    void load()
      .then((hydrate) => hydrate())
      .finally(() => {
        el.removeEventListener('click', hold, true);
        if (pressed?.isConnected) pressed.click();
      });
  };
  const utcOffset = (options.value as InteractionOptions | undefined)?.utcOffset;
  if (typeof utcOffset === 'number' && -new Date().getTimezoneOffset() !== utcOffset) return start();
  for (const type of EVENTS) el.addEventListener(type, start, { capture: true, passive: true });
};

export default hydrateOnInteraction;
