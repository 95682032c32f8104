// The editor's schema. The toolbar offers exactly the spec's tools (bold, italic, underline,
// headings 1-3, lists, quotes, links, alignment); the schema also keeps what existing and
// imported posts carry and the public site renders (images, code, code blocks, strikethrough,
// horizontal rules, headings 4-6, tables), so opening such a post and saving it loses nothing.
import { TextAlign } from '@tiptap/extension-text-align';
import { Placeholder } from '@tiptap/extensions';
import { Extension, Node, mergeAttributes, type AnyExtension, type Editor } from '@tiptap/react';
import { StarterKit } from '@tiptap/starter-kit';
import { TableKit } from '@tiptap/extension-table';
import { EMBED_PLAYER } from '#shared/embeds.ts';

/** http(s) and mailto links, plus site-relative ones already in posts ('/work-with-me'). */
export const isAllowedHref = (href: string) => /^(https?:\/\/|mailto:)/i.test(href) || /^\/(?!\/)|^#/.test(href);

/**
 * Turns what someone typed at 'Enter URL:' into a link target: http(s) and mailto only,
 * 'example.com/page' read as https. Null when it is not a usable address.
 */
export function normaliseUrl(input: string): string | null {
  const url = input.trim();
  if (/^(https?:\/\/|mailto:)/i.test(url)) return URL.canParse(url) && !/\s/.test(url) ? url : null;
  if (/^[\w-]+(\.[\w-]+)+(:\d+)?([/?#]\S*)?$/.test(url)) return `https://${url}`;
  return null;
}

/** The player address for a YouTube or Vimeo link someone pasted, or null. */
export function embedUrl(input: string): string | null {
  const url = input.trim();
  const yt = /^(?:https?:\/\/)?(?:www\.|m\.)?(?:youtube\.com\/(?:watch\?(?:[^#]*&)?v=|embed\/|shorts\/|live\/)|youtu\.be\/|youtube-nocookie\.com\/embed\/)([\w-]{11})/.exec(url);
  if (yt) return `https://www.youtube-nocookie.com/embed/${yt[1]}`;
  const vimeo = /^(?:https?:\/\/)?(?:www\.|player\.)?vimeo\.com\/(?:video\/)?(\d{4,12})/.exec(url);
  return vimeo ? `https://player.vimeo.com/video/${vimeo[1]}?dnt=1` : null;
}

/** An embedded video: a player frame of one of the two allowed players. */
const Video = Node.create({
  name: 'video',
  group: 'block',
  atom: true,
  draggable: true,
  addAttributes() {
    return { src: { default: null }, title: { default: 'Video' } };
  },
  parseHTML() {
    return [{ tag: 'iframe[src]', getAttrs: (el) => (EMBED_PLAYER.test(el.getAttribute('src') ?? '') ? null : false) }];
  },
  renderHTML({ HTMLAttributes }) {
    return ['iframe', mergeAttributes(HTMLAttributes, { allowfullscreen: 'true', allow: 'encrypted-media; picture-in-picture; fullscreen', width: '560', height: '315' })];
  },
});

/** Block images: kept from existing posts, and added with the toolbar's Image dialog. */
const Image = Node.create({
  name: 'image',
  group: 'block',
  atom: true,
  draggable: true,
  addAttributes() {
    return { src: { default: null }, alt: { default: null }, title: { default: null }, width: { default: null }, height: { default: null } };
  },
  parseHTML() {
    return [{ tag: 'img[src]' }];
  },
  renderHTML({ HTMLAttributes }) {
    return ['img', mergeAttributes(HTMLAttributes)];
  },
});

/** Alignment: left is the default, so 'left' clears the attribute rather than writing a style. */
const Align = TextAlign.extend({
  addKeyboardShortcuts() {
    return {
      'Mod-Shift-l': () => this.editor.commands.unsetTextAlign(),
      'Mod-Shift-e': () => this.editor.commands.setTextAlign('center'),
      'Mod-Shift-r': () => this.editor.commands.setTextAlign('right'),
    };
  },
}).configure({ types: ['heading', 'paragraph'], alignments: ['left', 'center', 'right'] });

export function editorExtensions({ placeholder, onLinkShortcut }: { placeholder: string; onLinkShortcut: (editor: Editor) => void }): AnyExtension[] {
  return [
    StarterKit.configure({
      heading: { levels: [1, 2, 3, 4, 5, 6] },
      link: {
        openOnClick: false,
        autolink: true,
        defaultProtocol: 'https',
        isAllowedUri: (url) => isAllowedHref(url),
        // Links open in place unless the prompt made them external (target is set there).
        HTMLAttributes: { target: null, rel: null },
      },
    }),
    Align,
    Image,
    Video,
    TableKit.configure({ table: { resizable: false } }),
    Placeholder.configure({ placeholder }),
    Extension.create({
      name: 'linkShortcut',
      addKeyboardShortcuts() {
        return {
          'Mod-k': () => {
            onLinkShortcut(this.editor);
            return true;
          },
        };
      },
    }),
  ];
}
