// /admin/blog/new and /admin/blog/edit/{id}: the post form. Checked with the same schema the
// server uses before anything is sent; the server's own field issues (a taken slug) are
// shown on the field too.
import { useEffect, useState, type KeyboardEvent } from 'react';
import { Link } from '#admin/lib/link.tsx';
import { useQuery } from '#admin/lib/query.ts';
import { navigate } from '#admin/lib/router.ts';
import { EmptyState, Spinner, Switch, TextArea, TextField } from '#admin/ui/controls.tsx';
import { ArrowLeftIcon, CalendarIcon, EyeIcon } from '#admin/ui/icons.tsx';
import { siteTimeZone } from '#admin/lib/site-time.ts';
import { PublishStatus } from '#admin/ui/publish-status.tsx';
import { SchedulePanel } from '#admin/ui/schedule-panel.tsx';
import { formatInZone } from '#shared/time.ts';
import { apiFieldErrors, toFieldErrors } from '#lib/form.ts';
import { RichTextEditor } from '#admin/editor/rich-text-editor.tsx';
import { toast } from '#lib/toast.ts';
import { slugify } from '#shared/format.ts';
import { CATEGORIES, PostInputSchema, createPost, postPath, updatePost, type Post } from '#admin/features/blog/api/posts.ts';
import { FeaturedImageCard } from './featured-image-card';

interface FormState {
  title: string;
  slug: string;
  excerpt: string;
  content: string;
  featuredImage: string;
  category: string;
  /** Tag names separated by commas. */
  tags: string;
  isPublished: boolean;
}
type Field = keyof FormState;
type Errors = Partial<Record<Field, string>>;

/** Where each field's input is, to move focus to the first invalid one. */
const FIELD_IDS: Record<Field, string> = {
  title: 'post-title',
  slug: 'post-slug',
  excerpt: 'post-excerpt',
  content: 'post-content',
  featuredImage: 'post-featured-image',
  category: 'post-category',
  tags: 'post-tags',
  isPublished: 'post-title',
};
const ORDER: Field[] = ['title', 'slug', 'excerpt', 'content', 'category', 'tags', 'featuredImage'];

/** The names in the Tags field: split at commas, blanks left out. */
const tagNames = (text: string) =>
  text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);

const fromPost = (post: Post | undefined): FormState => ({
  title: post?.title ?? '',
  slug: post?.slug ?? '',
  excerpt: post?.excerpt ?? '',
  content: post?.content ?? '',
  featuredImage: post?.featuredImage ?? '',
  category: post?.category || 'General',
  tags: (post?.tags ?? []).map((t) => t.name).join(', '),
  isPublished: post?.isPublished ?? false,
});

function PostForm({ post }: { post?: Post }) {
  const editing = Boolean(post);
  const [form, setForm] = useState<FormState>(() => fromPost(post));
  const [errors, setErrors] = useState<Errors>({});
  const [saving, setSaving] = useState<'draft' | 'publish' | 'schedule' | null>(null);
  const [scheduling, setScheduling] = useState(false);
  const zone = siteTimeZone();
  // A new post's slug follows its title until someone edits the slug.
  const [slugEdited, setSlugEdited] = useState(editing);

  useEffect(() => {
    if (!editing) document.getElementById(FIELD_IDS.title)?.focus();
  }, [editing]);

  const set = <K extends Field>(field: K, value: FormState[K]) => {
    setForm((f) => ({ ...f, [field]: value }));
    if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const onTitle = (title: string) => {
    setForm((f) => ({ ...f, title, slug: slugEdited ? f.slug : slugify(title) }));
    if (errors.title || (!slugEdited && errors.slug)) setErrors(({ title: _title, slug, ...rest }) => (slugEdited && slug ? { ...rest, slug } : rest));
  };

  const onSlug = (slug: string) => {
    set('slug', slug);
    // Clearing the slug hands it back to the title.
    setSlugEdited(slug !== '');
  };

  const showErrors = (next: Errors) => {
    setErrors(next);
    const first = ORDER.find((f) => next[f]);
    if (first) document.getElementById(FIELD_IDS[first])?.focus();
  };

  /** Saves as a draft or published (`at` null: now, clearing a schedule), or scheduled for `at`; `at` absent keeps the schedule. */
  const save = async (publish: boolean, at?: Date | null) => {
    if (saving) return;
    const parsed = PostInputSchema.safeParse({ ...form, tags: tagNames(form.tags), isPublished: publish, scheduledAt: at === undefined ? undefined : (at?.toISOString() ?? null) });
    if (!parsed.success) return showErrors(toFieldErrors(parsed.error.issues));
    setErrors({});
    setSaving(at ? 'schedule' : publish ? 'publish' : 'draft');
    try {
      if (post) await updatePost(post.id, parsed.data);
      else await createPost(parsed.data);
      if (at) toast({ title: 'Post scheduled', description: `It goes live on ${formatInZone(at, zone)} (${zone}).` });
      else toast({ title: post ? 'Post updated' : 'Post created' });
      navigate('/admin/blog');
    } catch (err) {
      // mutate() has toasted; field issues from the server go next to their fields.
      const fields = apiFieldErrors(err);
      if (Object.keys(fields).length) showErrors(fields);
      setSaving(null);
    }
  };

  // Ctrl/Cmd+S saves with the Published switch as it is.
  const onKeyDown = (e: KeyboardEvent<HTMLFormElement>) => {
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
      e.preventDefault();
      void save(form.isPublished);
    }
  };

  const categories: readonly string[] = CATEGORIES.includes(form.category as (typeof CATEGORIES)[number]) ? CATEGORIES : [...CATEGORIES, form.category];
  const publishLabel = saving === 'publish' ? 'Publishing...' : post?.isPublished ? 'Update' : 'Publish';

  return (
    <form noValidate onSubmit={(e) => e.preventDefault()} onKeyDown={onKeyDown} aria-labelledby="post-editor-title">
      <div className="sticky top-14 z-20 -mx-4 mb-6 border-b border-slate-200 bg-slate-50/90 px-4 py-3 backdrop-blur sm:-mx-6 sm:px-6 lg:top-0 lg:-mx-8 lg:px-8">
        <Link
          href="/admin/blog"
          className="inline-flex items-center gap-1.5 rounded text-sm font-medium text-slate-600 hover:text-ink focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
        >
          <ArrowLeftIcon size={16} />
          Back to posts
        </Link>
        <div className="mt-2 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <div className="flex items-center gap-3">
            <h1 id="post-editor-title" className="text-2xl font-bold tracking-tight text-ink">
              {editing ? 'Edit Post' : 'Create New Post'}
            </h1>
            {post?.scheduledAt && <PublishStatus isPublished={post.isPublished} scheduledAt={post.scheduledAt} />}
          </div>
          <div className="flex flex-wrap items-center gap-2">
            {post?.isPublished && post.slug && (
              <a href={`/blog/${post.slug}`} target="_blank" rel="noopener" className="btn-secondary">
                <EyeIcon size={16} />
                Preview
              </a>
            )}
            {post?.isPublished && (
              <Link href={`/admin/newsletter/issues/new?post=${post.id}`} className="btn-secondary">
                Send by e-mail
              </Link>
            )}
            <button type="button" className="btn-secondary" aria-expanded={scheduling} disabled={saving !== null} onClick={() => setScheduling((v) => !v)}>
              <CalendarIcon size={16} />
              Schedule
            </button>
            <button type="button" className="btn-secondary" disabled={saving !== null} onClick={() => void save(false, null)}>
              {saving === 'draft' ? 'Saving...' : 'Save Draft'}
            </button>
            <button type="button" className="btn-primary" disabled={saving !== null} onClick={() => void save(true, null)}>
              {publishLabel}
            </button>
          </div>
        </div>
        {scheduling && (
          <SchedulePanel id="post-schedule" scheduledAt={post?.scheduledAt ?? null} busy={saving === 'schedule'} onSchedule={(at) => void save(true, at)} onCancel={() => setScheduling(false)} />
        )}
      </div>

      <div className="grid gap-6 lg:grid-cols-3">
        <div className="min-w-0 space-y-6 lg:col-span-2">
          <section aria-label="Post" className="space-y-5 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
            <TextField id="post-title" label="Title" placeholder="A clear, specific title" value={form.title} error={errors.title} onChange={(e) => onTitle(e.target.value)} autoComplete="off" />
            <div>
              <TextField
                id="post-slug"
                label="Slug"
                hint="URL-friendly version of the title"
                placeholder="my-post-title"
                value={form.slug}
                error={errors.slug}
                autoComplete="off"
                spellCheck={false}
                onChange={(e) => onSlug(e.target.value)}
                onBlur={() => form.slug && slugify(form.slug) && set('slug', slugify(form.slug))}
              />
              {form.slug && !errors.slug && <p className="mt-1 truncate text-xs text-slate-500">/blog/{form.slug}</p>}
            </div>
            <div>
              <TextArea
                id="post-excerpt"
                label="Excerpt"
                hint="Short summary shown in post listings"
                rows={3}
                value={form.excerpt}
                error={errors.excerpt}
                onChange={(e) => set('excerpt', e.target.value)}
              />
              <p className={`mt-1 text-right text-xs ${form.excerpt.length > 500 ? 'text-red-700' : 'text-slate-500'}`}>{form.excerpt.length}/500</p>
            </div>
            <div>
              {/* Not a <label>: the editor is not a form control; clicking still moves focus there. */}
              <span id="post-content-label" className="label" onClick={() => document.getElementById(FIELD_IDS.content)?.focus()}>
                Content
              </span>
              <RichTextEditor
                value={form.content}
                onChange={(html) => set('content', html)}
                labelledBy="post-content-label"
                describedBy={errors.content ? 'post-content-error' : undefined}
                invalid={Boolean(errors.content)}
              />
              {errors.content && (
                <p id="post-content-error" className="mt-1 text-sm text-red-700">
                  {errors.content}
                </p>
              )}
            </div>
          </section>
        </div>

        <div className="min-w-0 space-y-6">
          <section aria-labelledby="post-settings-heading" className="space-y-5 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
            <h2 id="post-settings-heading" className="text-sm font-semibold text-ink">
              Settings
            </h2>
            <div>
              <label htmlFor="post-category" className="label">
                Category
              </label>
              <select
                id="post-category"
                className={`input ${errors.category ? 'border-red-500' : ''}`}
                value={form.category}
                aria-describedby={errors.category ? 'post-category-error' : 'post-category-hint'}
                aria-invalid={errors.category ? true : undefined}
                onChange={(e) => set('category', e.target.value)}
              >
                {categories.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </select>
              {errors.category ? (
                <p id="post-category-error" className="mt-1 text-sm text-red-700">
                  {errors.category}
                </p>
              ) : (
                <p id="post-category-hint" className="mt-1 text-xs text-slate-500">
                  Choose the most relevant category
                </p>
              )}
            </div>
            <TextField
              id="post-tags"
              label="Tags"
              hint="Separate tags with commas"
              placeholder="leadership, remote work"
              value={form.tags}
              error={errors.tags}
              autoComplete="off"
              onChange={(e) => set('tags', e.target.value)}
            />
            <div className="border-t border-slate-100 pt-5">
              <Switch label="Published" hint="Make this post visible to the public" checked={form.isPublished} onChange={(v) => set('isPublished', v)} />
            </div>
          </section>

          <FeaturedImageCard value={form.featuredImage} error={errors.featuredImage} onChange={(url) => set('featuredImage', url)} />
        </div>
      </div>
    </form>
  );
}

export default function PostEditor({ params }: { params: Record<string, string> }) {
  const id = params.id;
  const { data, loading, error } = useQuery<Post>(id ? postPath(id) : null, 'Failed to fetch blog post');
  if (!id) return <PostForm />;
  if (loading) return <Spinner label="Loading post" />;
  if (error || !data)
    return (
      <div className="py-8">
        <EmptyState
          title="Post not found"
          text="This post may have been deleted, or the link is wrong."
          action={
            <Link href="/admin/blog" className="btn-secondary">
              <ArrowLeftIcon size={16} />
              Back to posts
            </Link>
          }
        />
      </div>
    );
  return <PostForm post={data} />;
}
