import { component$, useSignal, useTask$, useVisibleTask$ } from '@builder.io/qwik';
import { Link, useNavigate } from '@builder.io/qwik-city';
import type { DraftDto } from '../../../../worker/src/features/articles/article-draft.schema';
import { deleteDraft } from '../../lib/draft-store';
import { focusWhenShown, trapFocus } from '../../lib/focus-when-shown';
import { call } from '../../lib/typed-api';
import { LoadingNotice } from '../status/loading-notice';
import { ConfirmButton } from '../ui/confirm-button';
import { FormError, Status } from '../ui/form-error';
import { ArticlePreview } from '../ui/markdown-preview';
import { ArticleSettings } from './article-settings';
import { BodyEditor, insertImageIntoBody } from './body-editor';
import { BodyUploads } from './body-uploads';
import { ConflictPanel } from './conflict-panel';
import { ContentFields } from './content-fields';
import { DraftOffer } from './draft-offer';
import { ImageUploader } from './image-uploader';
import { ReauthDialog } from './reauth-dialog';
import { RevisionsPanel } from './revisions-panel';
import { SaveState } from './save-state';
import { ScheduleAndPreview } from './schedule-and-preview';
import { SeoPanel } from './seo-panel';
import { TagPicker } from './tag-picker';
import { useArticleEditor } from './use-article-editor';
import { useBodyUploads } from './use-body-uploads';
import { WordCount } from './word-count';

/**
 * The article editor for `/articles/new` and `/articles/edit?id=…`. Writing
 * first: the title and the body take the page; format, site, authors,
 * images, SEO and scheduling are in the side panel (a drawer on narrow
 * screens). Saving, drafts and leaving are in use-article-editor.ts.
 */
export const ArticleEditor = component$((props: { isNew: boolean }) => {
  const nav = useNavigate();
  const ed = useArticleEditor(props.isNew);
  const { uploads, imagesIntoText, sendAgain } = useBodyUploads(ed);
  const drawer = useSignal(false);
  const preview = useSignal(false);
  const toggle = useSignal<HTMLButtonElement>();
  const close = useSignal<HTMLButtonElement>();
  const side = useSignal<HTMLElement>();
  /** The drawer is open on a narrow screen: a modal dialog, the focus kept inside. */
  const modal = useSignal(false);
  const titleError = useSignal<string | null>(null);

  // The title's problem by the API's rule, once the field was left or a save was tried: lib/title.ts brings
  // zod, so it is loaded then, not with the route (tools/on-demand-chunks.ts).
  useTask$(async ({ track }) => {
    const touched = track(() => ed.titleTouched.value);
    const title = track(() => ed.title.value);
    if (!touched) {
      titleError.value = null;
      return;
    }
    const { titleProblem } = await import('../../lib/title');
    titleError.value = titleProblem(title);
  });

  // The drawer (narrow screens) takes the focus when it opens and gives it back when it closes. Opening
  // waits for the drawer to be shown: this task can run before Qwik sets its `data-open` (lib/focus-when-shown.ts).
  useVisibleTask$(({ track, cleanup }) => {
    const open = track(() => drawer.value);
    if (!toggle.value || getComputedStyle(toggle.value).display === 'none') {
      modal.value = false;
      return;
    }
    modal.value = open;
    if (open) {
      const stopFocus = focusWhenShown(() => close.value);
      const stopTrap = trapFocus(() => side.value);
      cleanup(() => {
        stopFocus();
        stopTrap();
      });
    } else if (document.activeElement === document.body || close.value?.contains(document.activeElement))
      toggle.value.focus();
  });

  const problem = titleError.value;
  const showTitleError = ed.titleTouched.value && !!problem;
  const a = ed.article.value;
  const id = ed.id.value;

  if (ed.loading.value)
    return (
      <div>
        <LoadingNotice>Loading the article…</LoadingNotice>
      </div>
    );
  if (ed.loadError.value)
    return (
      <div>
        <h1>Edit article</h1>
        <FormError message={ed.loadError.value} />
        <p>
          <Link href="/articles">Back to the articles</Link>
        </p>
      </div>
    );

  return (
    <div class="editor-layout" data-ready={(ed.ready.value && ed.keeping.value) || undefined}>
      <div class="editor-main">
        <p>
          <Link href="/articles">← Articles</Link>
        </p>
        <div class="page-head">
          <h1>{id ? 'Edit article' : 'New article'}</h1>
          {a && (
            <span class={['badge', a.status === 'online' ? 'badge-ok' : '']} data-testid="article-status">
              {a.status}
            </span>
          )}
          <SaveState state={ed.saveState.value} />
          {ed.hasDraft.value && (
            <span class="badge" data-testid="draft-badge">
              Changes not online yet
            </span>
          )}
          <button
            ref={toggle}
            type="button"
            class="button editor-drawer-toggle"
            aria-expanded={drawer.value}
            aria-controls="editor-side"
            onClick$={() => (drawer.value = !drawer.value)}
          >
            Article settings
          </button>
        </div>
        {ed.offer.value && (
          <DraftOffer
            draft={ed.offer.value}
            onRestore$={() => ed.restore(ed.offer.value!)}
            onDiscard$={async () => {
              ed.offer.value = null;
              await deleteDraft(await ed.key());
            }}
          />
        )}
        {ed.conflict.value && (
          <ConflictPanel
            conflict={ed.conflict.value}
            sites={ed.sites.value}
            authors={ed.authors.value}
            onKeepMine$={() => ed.resolve(true)}
            onTakeTheirs$={() => ed.resolve(false)}
          />
        )}
        <form
          class="editor"
          id="article-form"
          preventdefault:submit
          noValidate
          onInput$={(_, form) => {
            ed.title.value = (form.querySelector('#article-title') as HTMLInputElement).value;
            void ed.changed();
          }}
          onSubmit$={() => ed.saveNow(true)}
        >
          <div class="field">
            <label for="article-title">Title</label>
            <input
              id="article-title"
              class="editor-title"
              type="text"
              required
              aria-invalid={showTitleError}
              aria-describedby={showTitleError ? 'article-title-error' : undefined}
              value={ed.titleShown.value}
              onBlur$={() => (ed.titleTouched.value = true)}
            />
            {showTitleError && (
              <p id="article-title-error" class="field-error" role="alert">
                {problem}
              </p>
            )}
          </div>
          <button
            type="button"
            class="button button-quiet preview-toggle"
            aria-pressed={preview.value}
            onClick$={() => (preview.value = !preview.value)}
          >
            Preview
          </button>
          <div class={['editor-panes', preview.value && 'editor-panes-split']}>
            <div>
              <BodyEditor body={ed.body} format={ed.format} onImages$={imagesIntoText} />
              <BodyUploads items={uploads.items} onSendAgain$={sendAgain} />
              <WordCount body={ed.body} />
            </div>
            {/* Rendered only while shown: writing comes first, and a hidden preview is not re-rendered on every keystroke. */}
            {preview.value && (
              <section id="article-preview" class="field" aria-labelledby="preview-heading">
                <h2 id="preview-heading" class="label-like">
                  Preview
                </h2>
                <div data-testid="preview">
                  <ArticlePreview body={ed.body.value} format={ed.format.value} />
                </div>
              </section>
            )}
          </div>
          <FormError message={ed.error.value} />
          <div class="actions">
            <button type="submit" class="button button-primary" disabled={ed.saveState.value === 'saving'}>
              {ed.saveState.value === 'saving' ? 'Saving…' : 'Save'}
            </button>
            {a?.status !== 'online' ? (
              <ConfirmButton
                label="Publish"
                question="Save and put this article online?"
                confirmLabel="Yes, publish"
                onConfirm$={() => ed.publish(true)}
              />
            ) : (
              <>
                {/* A live article's saves wait in its draft: Update puts them online, Discard drops them. */}
                <button
                  type="button"
                  class="button button-primary"
                  disabled={!ed.hasDraft.value && ed.saveState.value === 'saved'}
                  onClick$={() => ed.update()}
                >
                  Update
                </button>
                {ed.hasDraft.value && (
                  <ConfirmButton
                    label="Discard changes"
                    question="Drop the changes that are not online yet?"
                    confirmLabel="Yes, discard"
                    danger
                    onConfirm$={() => ed.discard()}
                  />
                )}
                <ConfirmButton
                  label="Unpublish"
                  question="Take this article offline?"
                  confirmLabel="Yes, unpublish"
                  onConfirm$={() => ed.publish(false)}
                />
              </>
            )}
            {a && id && (
              <ConfirmButton
                label="Delete"
                question="Delete this article and its images for good?"
                confirmLabel="Yes, delete"
                danger
                onConfirm$={async () => {
                  const res = await call('delete', '/v1/articles/{id}', { path: { id }, ifMatch: ed.etag.value });
                  if (!res.ok) {
                    ed.error.value = res.message;
                    return;
                  }
                  ed.saveState.value = 'saved';
                  await deleteDraft(await ed.key());
                  await nav('/articles');
                }}
              />
            )}
          </div>
        </form>
        <Status message={ed.status.value} testId="editor-status" id="editor-status" />
      </div>
      {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: aria-modal is set only together with role=dialog (an open drawer on a narrow screen) */}
      <aside
        ref={side}
        id="editor-side"
        class="editor-side"
        aria-label="Article settings"
        role={modal.value ? 'dialog' : undefined}
        aria-modal={modal.value ? 'true' : undefined}
        data-open={drawer.value || undefined}
        onKeyDown$={(e) => {
          if (e.key === 'Escape' && drawer.value) drawer.value = false;
        }}
      >
        <div class="editor-drawer-head">
          <button ref={close} type="button" class="button button-quiet" onClick$={() => (drawer.value = false)}>
            Close settings
          </button>
        </div>
        <ArticleSettings
          format={ed.format}
          siteId={ed.siteId}
          authorIds={ed.authorIds}
          sites={ed.sites.value}
          authors={ed.authors.value}
        />
        <section class="card">
          <TagPicker selected={ed.tags} />
        </section>
        {id ? (
          <ImageUploader
            articleId={id}
            images={ed.images}
            onUploaded$={() => ed.loadImages(id)}
            onInsert$={(url: string, alt: string) => {
              insertImageIntoBody(url, alt);
              drawer.value = false;
            }}
          />
        ) : (
          <section class="card" aria-labelledby="images-heading">
            <h2 id="images-heading">Images</h2>
            <p>Give the article a title: it is saved as a draft, and images can be added to it.</p>
          </section>
        )}
        {a && id && (
          <SeoPanel
            seo={ed.seo}
            shown={ed.seoShown}
            issues={ed.seoIssues}
            title={ed.title.value}
            images={ed.images.value}
          />
        )}
        {a && id && <ScheduleAndPreview article={ed.article} />}
        {a && id && (
          <RevisionsPanel
            articleId={id}
            body={ed.body}
            onRestored$={(draft: DraftDto, etag: string | null) => ed.takeDraft(draft, etag)}
          />
        )}
        {a && id && (
          <ContentFields
            article={ed.article}
            slug={ed.slug}
            excerpt={ed.excerpt}
            slugShown={ed.slugShown}
            excerptShown={ed.excerptShown}
            featureImageId={ed.featureImageId}
            error={ed.slugError}
            images={ed.images.value}
            onLinked$={() => ed.loadImages(id)}
          />
        )}
      </aside>
      <ReauthDialog />
    </div>
  );
});
