// `client:event={{ name, sessionKey }}`: an island that hydrates when something on the page
// asks for it (a `name` event on window), or at once when the tab's sessionStorage holds
// `sessionKey` (a previous page left it work). Until then it costs the page nothing: the toaster
// is on every page, and React is loaded only once a toast is shown (by an island that runs
// React already, or left by the previous page).
import type { ClientDirective } from 'astro';

interface EventOptions {
  /** The window event that asks for the island. */
  name: string;
  /** A sessionStorage key whose presence asks for the island at load. */
  sessionKey?: string;
}

declare module 'astro' {
  interface AstroClientDirectives {
    'client:event'?: EventOptions;
  }
}

const hydrateOnEvent: ClientDirective = (load, options) => {
  // Astro types a directive's value as the attribute's string; it is the object the page gave.
  const value: unknown = options.value;
  const { name, sessionKey } = value as EventOptions;
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    window.removeEventListener(name, start);
    void load().then((hydrate) => hydrate());
  };
  window.addEventListener(name, start);
  try {
    if (sessionKey && sessionStorage.getItem(sessionKey) !== null) start();
  } catch {
    // Storage refused: nothing can have been left in it.
  }
};

export default hydrateOnEvent;
