// The post body editor (TipTap): a toolbar with exactly the spec's tools, keyboard shortcuts,
// HTML out through onChange, at least 300 px tall, placeholder 'Start writing...'.
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { toast } from '#lib/toast.ts';
import { editorExtensions, embedUrl, normaliseUrl } from './extensions';
import { ImageDialog } from './image-dialog';
import { cleanPastedHtml } from './paste';

export interface RichTextEditorProps {
  /** Initial HTML; later changes from outside replace the content when they differ. */
  value: string;
  /** Called with the editor's HTML, or '' when it is empty. */
  onChange: (html: string) => void;
  /** id of the element that names the editor (a visible 'Content' label). */
  labelledBy: string;
  /** id of a hint or error text. */
  describedBy?: string | undefined;
  invalid?: boolean;
  placeholder?: string;
  /** id given to the editable element (the toolbar controls it). */
  id?: string;
}

/** Asks 'Enter URL:'; empty removes the link, anything but http(s)/mailto is refused. */
export function promptForLink(editor: Editor): void {
  const previous = (editor.getAttributes('link').href as string | undefined) ?? '';
  const input = window.prompt('Enter URL:', previous);
  if (input === null) return;
  if (input.trim() === '') {
    editor.chain().focus().extendMarkRange('link').unsetLink().run();
    return;
  }
  const href = normaliseUrl(input);
  if (!href) {
    toast({ title: 'Invalid link', description: 'Enter a web address (https://…) or an e-mail link (mailto:…).', variant: 'destructive' });
    editor.commands.focus();
    return;
  }
  const attrs = href.startsWith('mailto:') ? { href, target: null, rel: null } : { href, target: '_blank', rel: 'noopener noreferrer nofollow' };
  if (editor.state.selection.empty && !editor.isActive('link')) {
    editor
      .chain()
      .focus()
      .insertContent({ type: 'text', text: input.trim(), marks: [{ type: 'link', attrs }] })
      .run();
  } else {
    editor.chain().focus().extendMarkRange('link').setLink(attrs).run();
  }
}

/** A toolbar drawing from one path's data. */
const icon = (d: string) => (
  <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
    <path d={d} />
  </svg>
);
// Drawn, not written: a visible 'H1' would not match the button's name 'Heading 1'.
const H = 'M4 12h8M4 18V6M12 18V6';
const DIGITS = ['', 'M17 12l3-2v8', 'M21 18h-4c0-4 4-3 4-6 0-1.5-2-2.5-4-1', 'M17.5 10.5c1.7-1 3.5 0 3.5 1.5a2 2 0 0 1-2 2M17 17.5c2 1.5 4 .3 4-1.5a2 2 0 0 0-2-2'];
const DRAWINGS = {
  bold: 'M7 5h6a3.5 3.5 0 0 1 0 7H7zM7 12h7a3.5 3.5 0 0 1 0 7H7z',
  italic: 'M14 5h-4M14 19h-4M14.5 5 9.5 19',
  underline: 'M7 4v7a5 5 0 0 0 10 0V4M5 20h14',
  bullets: 'M9 6h11M9 12h11M9 18h11M4.5 6h.01M4.5 12h.01M4.5 18h.01',
  numbers: 'M10 6h10M10 12h10M10 18h10M4 5h1v4M4 9h2M4 14.5a1 1 0 0 1 2 .5L4 19h2',
  quote: 'M7 7H5a1 1 0 0 0-1 1v3a1 1 0 0 0 1 1h2.5v1.5A2.5 2.5 0 0 1 5 16M17 7h-2a1 1 0 0 0-1 1v3a1 1 0 0 0 1 1h2.5v1.5A2.5 2.5 0 0 1 15 16',
  link: 'M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1',
  left: 'M4 6h16M4 10h10M4 14h16M4 18h10',
  center: 'M4 6h16M7 10h10M4 14h16M7 18h10',
  right: 'M4 6h16M10 10h10M4 14h16M10 18h10',
  image: 'M5 4h14a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2ZM21 16l-5-5-9 9M8.5 8.5h.01',
  video: 'M4 6h11a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V8a2 2 0 0 1 2-2ZM17 10l5-3v10l-5-3',
};

/** What a tool may open beside the editor. */
interface ToolbarUi {
  openImageDialog: () => void;
}

interface Tool {
  label: string;
  shortcut?: string;
  keys?: string;
  icon: ReactNode;
  isActive: (e: Editor) => boolean;
  run: (e: Editor, ui: ToolbarUi) => void;
}

/** A button: its name, its keys after Ctrl ('B', 'Shift+8'), its drawing, when it shows pressed and what it does. */
const tool = (label: string, keys: string | null, d: string, does: Pick<Tool, 'isActive' | 'run'>): Tool => ({
  label,
  ...(keys ? { shortcut: `Ctrl+${keys}`, keys: `Control+${keys}` } : {}),
  icon: icon(d),
  ...does,
});

/** Inserts an image or a video as a block after the one the cursor is in (or after a selected image or video). */
function insertBlock(editor: Editor, node: { type: 'image' | 'video'; attrs: Record<string, string> }): void {
  const { state, view } = editor;
  const { $to } = state.selection;
  const at = $to.depth === 0 ? $to.pos : $to.after(1);
  view.dispatch(state.tr.insert(at, state.schema.nodes[node.type]!.create(node.attrs)).scrollIntoView());
  editor.commands.focus();
}

/** Asks for a YouTube or Vimeo address and inserts its privacy-enhanced player. */
export function promptForVideo(editor: Editor): void {
  const input = window.prompt('Enter a YouTube or Vimeo address:');
  if (input === null || input.trim() === '') return;
  const src = embedUrl(input);
  if (!src) {
    toast({ title: 'Invalid video', description: 'Enter the address of a YouTube or Vimeo video.', variant: 'destructive' });
    editor.commands.focus();
    return;
  }
  editor
    .chain()
    .focus()
    .insertContent({ type: 'video', attrs: { src, title: src.includes('vimeo') ? 'Vimeo video' : 'YouTube video' } })
    .run();
}

const TOOLS: Tool[][] = [
  [
    tool('Bold', 'B', DRAWINGS.bold, { isActive: (e) => e.isActive('bold'), run: (e) => e.chain().focus().toggleBold().run() }),
    tool('Italic', 'I', DRAWINGS.italic, { isActive: (e) => e.isActive('italic'), run: (e) => e.chain().focus().toggleItalic().run() }),
    tool('Underline', 'U', DRAWINGS.underline, { isActive: (e) => e.isActive('underline'), run: (e) => e.chain().focus().toggleUnderline().run() }),
  ],
  ([1, 2, 3] as const).map((level) =>
    tool(`Heading ${level}`, `Alt+${level}`, H + DIGITS[level], { isActive: (e) => e.isActive('heading', { level }), run: (e) => e.chain().focus().toggleHeading({ level }).run() }),
  ),
  [
    tool('Bullet list', 'Shift+8', DRAWINGS.bullets, { isActive: (e) => e.isActive('bulletList'), run: (e) => e.chain().focus().toggleBulletList().run() }),
    tool('Numbered list', 'Shift+7', DRAWINGS.numbers, { isActive: (e) => e.isActive('orderedList'), run: (e) => e.chain().focus().toggleOrderedList().run() }),
    tool('Quote', 'Shift+B', DRAWINGS.quote, { isActive: (e) => e.isActive('blockquote'), run: (e) => e.chain().focus().toggleBlockquote().run() }),
  ],
  [tool('Link', 'K', DRAWINGS.link, { isActive: (e) => e.isActive('link'), run: promptForLink })],
  [
    tool('Image', null, DRAWINGS.image, { isActive: (e) => e.isActive('image'), run: (_e, ui) => ui.openImageDialog() }),
    tool('Video', null, DRAWINGS.video, { isActive: (e) => e.isActive('video'), run: promptForVideo }),
  ],
  [
    tool('Align left', 'Shift+L', DRAWINGS.left, {
      isActive: (e) => !e.isActive({ textAlign: 'center' }) && !e.isActive({ textAlign: 'right' }),
      run: (e) => e.chain().focus().unsetTextAlign().run(),
    }),
    tool('Align center', 'Shift+E', DRAWINGS.center, { isActive: (e) => e.isActive({ textAlign: 'center' }), run: (e) => e.chain().focus().setTextAlign('center').run() }),
    tool('Align right', 'Shift+R', DRAWINGS.right, { isActive: (e) => e.isActive({ textAlign: 'right' }), run: (e) => e.chain().focus().setTextAlign('right').run() }),
  ],
];
const FLAT = TOOLS.flat();

function Toolbar({ editor, controls, ui }: { editor: Editor; controls: string; ui: ToolbarUi }) {
  const active = useEditorState({ editor, selector: ({ editor: e }) => FLAT.map((t) => t.isActive(e)) });
  const focusIndex = useRef(0);
  const bar = useRef<HTMLDivElement>(null);

  // A toolbar is one tab stop; arrow keys, Home and End move between its buttons.
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const buttons = Array.from(bar.current?.querySelectorAll<HTMLButtonElement>('button') ?? []);
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (at === -1) return;
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: buttons.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    const next = (to + buttons.length) % buttons.length;
    buttons.forEach((b, i) => (b.tabIndex = i === next ? 0 : -1));
    focusIndex.current = next;
    buttons[next]?.focus();
  };

  let index = 0;
  return (
    <div
      ref={bar}
      role="toolbar"
      aria-label="Formatting"
      aria-controls={controls}
      onKeyDown={onKeyDown}
      className="flex flex-wrap items-center gap-0.5 border-b border-slate-200 bg-slate-50/80 px-2 py-1.5"
    >
      {TOOLS.map((group, g) => (
        // Dividers only where the toolbar fits on one line; a wrapped row would start with one.
        <div key={g} className={`flex items-center gap-0.5 ${g > 0 ? 'sm:ml-1 sm:border-l sm:border-slate-200 sm:pl-1.5' : ''}`}>
          {group.map((tool) => {
            const i = index++;
            const pressed = active?.[i] ?? false;
            return (
              <button
                key={tool.label}
                type="button"
                aria-label={tool.label}
                aria-pressed={pressed}
                aria-keyshortcuts={tool.keys}
                title={tool.shortcut ? `${tool.label} (${tool.shortcut})` : tool.label}
                tabIndex={i === focusIndex.current ? 0 : -1}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => tool.run(editor, ui)}
                className={`inline-flex h-9 w-9 items-center justify-center rounded-md transition focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600 ${
                  pressed ? 'bg-brand-100 text-brand-900' : 'text-slate-600 hover:bg-white hover:text-ink hover:shadow-sm'
                }`}
              >
                {tool.icon}
              </button>
            );
          })}
        </div>
      ))}
    </div>
  );
}

const CONTENT_CLASSES = [
  'prose-post min-h-[300px] max-h-[70vh] overflow-y-auto px-4 py-3 text-base leading-7 outline-none sm:px-5',
  '[&>*:first-child]:mt-0 [&>*:last-child]:mb-0 [&_p]:my-3 [&_h1]:mt-6 [&_h2]:mt-6 [&_h3]:mt-5',
  '[&_li>p]:my-0 [&_img]:max-h-80 [&_img.ProseMirror-selectednode]:outline-2 [&_img.ProseMirror-selectednode]:outline-brand-500',
  // The placeholder lives in a data attribute on the first, empty paragraph.
  '[&_p.is-editor-empty:first-child]:before:pointer-events-none [&_p.is-editor-empty:first-child]:before:float-left [&_p.is-editor-empty:first-child]:before:h-0 [&_p.is-editor-empty:first-child]:before:text-slate-500 [&_p.is-editor-empty:first-child]:before:content-[attr(data-placeholder)]',
].join(' ');

export function RichTextEditor({ value, onChange, labelledBy, describedBy, invalid, placeholder = 'Start writing...', id = 'post-content' }: RichTextEditorProps) {
  const lastEmitted = useRef(value);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  // Options keep their identity across renders: useEditor compares them after every render
  // (each keystroke re-renders the form) and calls setOptions when any of them changed.
  const [initialContent] = useState(value);
  const extensions = useMemo(() => editorExtensions({ placeholder, onLinkShortcut: promptForLink }), [placeholder]);
  // Error state and description change after creation: new props update the editable's attributes.
  const editorProps = useMemo(
    () => ({
      attributes: {
        id,
        'aria-labelledby': labelledBy,
        'aria-multiline': 'true',
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
        ...(invalid ? { 'aria-invalid': 'true' } : {}),
        class: CONTENT_CLASSES,
      },
      transformPastedHTML: cleanPastedHtml,
    }),
    [id, labelledBy, describedBy, invalid],
  );

  const [imageDialog, setImageDialog] = useState(false);
  const ui = useMemo<ToolbarUi>(() => ({ openImageDialog: () => setImageDialog(true) }), []);

  const editor = useEditor({
    // The admin renders only in the browser, so the editor can exist on the first render.
    immediatelyRender: true,
    extensions,
    content: initialContent,
    editorProps,
    onUpdate: ({ editor: e }) => {
      // The trailing-node plugin keeps an empty paragraph after a final heading or list so
      // there is somewhere to type; it is not part of the post.
      const html = e.isEmpty ? '' : e.getHTML().replace(/(?:<p><\/p>)+$/, '');
      lastEmitted.current = html;
      onChangeRef.current(html);
    },
  });

  // A value set from outside (not typed here) replaces the content.
  useEffect(() => {
    if (!editor || editor.isDestroyed || value === lastEmitted.current) return;
    lastEmitted.current = value;
    editor.commands.setContent(value, { emitUpdate: false });
  }, [editor, value]);

  if (!editor) return null;
  return (
    <div
      className={`overflow-hidden rounded-xl border bg-white shadow-sm transition focus-within:ring-2 ${
        invalid ? 'border-red-500 focus-within:ring-red-500/30' : 'border-slate-300 focus-within:border-brand-500 focus-within:ring-brand-500/30'
      }`}
    >
      <Toolbar editor={editor} controls={id} ui={ui} />
      <EditorContent editor={editor} />
      {imageDialog && (
        <ImageDialog
          onClose={() => {
            setImageDialog(false);
            editor.commands.focus();
          }}
          onInsert={(image) => {
            setImageDialog(false);
            insertBlock(editor, { type: 'image', attrs: image });
          }}
        />
      )}
    </div>
  );
}
