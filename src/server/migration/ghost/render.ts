// A Ghost post stored only as editor data (lexical since Ghost 5, mobiledoc in Ghost 1–4), with
// no HTML in the export, is rendered to HTML by Ghost's own renderers and cards, as Ghost itself
// would have served it; the import sanitises the result like any other body. They pull in jsdom,
// so this module is loaded only by the import's worker thread, and only for such a post.
import { createRequire } from 'node:module';
import type * as Lexical from '@tryghost/kg-lexical-html-renderer';
import type * as Mobiledoc from '@tryghost/kg-mobiledoc-html-renderer';

// lexical 0.13 (which Ghost's lexical packages pin) is CommonJS that picks its build at run time,
// so its named exports cannot be imported from ESM: the packages are loaded through require.
const require = createRequire(import.meta.url);

// The Ghost packages' published types disagree with each other (a node list holding lexical's
// replacement entries, atoms' render arguments, a card type file left out of the package): what
// they hand over is typed as what the renderers take.
type LexicalOptions = NonNullable<ConstructorParameters<typeof Lexical.LexicalHTMLRenderer>[0]>;
type MobiledocOptions = NonNullable<ConstructorParameters<typeof Mobiledoc.MobiledocHtmlRenderer>[0]>;

let lexical: Lexical.LexicalHTMLRenderer | undefined;
let mobiledoc: Mobiledoc.MobiledocHtmlRenderer | undefined;

/** Renders a post's lexical JSON (as Ghost stores it: a string) to HTML; throws when it is not readable. */
export async function renderLexical(json: string): Promise<string> {
  if (!lexical) {
    const { LexicalHTMLRenderer } = require('@tryghost/kg-lexical-html-renderer') as typeof Lexical;
    const { DEFAULT_NODES } = require('@tryghost/kg-default-nodes') as { DEFAULT_NODES: NonNullable<LexicalOptions['nodes']> };
    lexical = new LexicalHTMLRenderer({ nodes: DEFAULT_NODES });
  }
  try {
    return await lexical.render(json);
  } catch (err) {
    // Lexical's published build throws numbered errors; #38 is a node type no renderer knows.
    if (err instanceof Error && /Lexical error #38\b/.test(err.message)) throw new Error("it holds a kind of block Ghost's renderer does not know", { cause: err });
    throw err;
  }
}

/** Renders a post's mobiledoc JSON to HTML; throws when it is not readable. */
export function renderMobiledoc(json: string): string {
  if (!mobiledoc) {
    const { MobiledocHtmlRenderer } = require('@tryghost/kg-mobiledoc-html-renderer') as typeof Mobiledoc;
    const { cards } = require('@tryghost/kg-default-cards') as { cards: NonNullable<MobiledocOptions['cards']> };
    const { atoms } = require('@tryghost/kg-default-atoms') as { atoms: NonNullable<MobiledocOptions['atoms']> };
    // Ghost 1.x named its markdown card 'card-markdown'; Ghost 2 renamed it 'markdown'.
    const markdown = cards.find((c) => c.name === 'markdown')!;
    mobiledoc = new MobiledocHtmlRenderer({ cards: [...cards, { ...markdown, name: 'card-markdown' }], atoms });
  }
  const doc: unknown = JSON.parse(json);
  if (typeof doc !== 'object' || doc === null || typeof (doc as { version?: unknown }).version !== 'string') throw new Error('it is not mobiledoc');
  return mobiledoc.render(doc as Parameters<Mobiledoc.MobiledocHtmlRenderer['render']>[0]);
}
