import { component$, type NoSerialize, noSerialize, useSignal, useVisibleTask$ } from '@builder.io/qwik';
import type { ArticleFormat } from '../../../../worker/src/features/articles/article.schema';

/**
 * Images from this server only: the admin's CSP (img-src 'self' data: blob:)
 * refuses others, and each refusal is a console error.
 */
const servedHere = (src: string) =>
  (src.startsWith('/') && !src.startsWith('//') && !src.startsWith('/\\')) || src.startsWith('data:');

type Renderer = typeof import('../../../../worker/src/core/content/render');

/**
 * The editor's preview: the body through the server's own renderer
 * (core/content/render.ts), the HTML every front end gets. It is sanitised
 * there (no script, handler or javascript: URL survives, tested on hostile
 * bodies), and the CSP would refuse inline scripts and handlers anyway.
 * Links open in a new tab so that following one never leaves the editor.
 *
 * The renderer (markdown-it and the sanitiser, about 48 KB gzip) is fetched
 * when the preview is first shown, not with the editor: most visits never
 * open it (tools/on-demand-chunks.ts keeps the preloader from fetching it).
 */
export const ArticlePreview = component$((props: { body: string; format: ArticleFormat }) => {
  const renderer = useSignal<NoSerialize<Renderer>>();
  const html = useSignal<string | null>(null);
  useVisibleTask$(async ({ track }) => {
    const body = track(() => props.body);
    const format = track(() => props.format);
    const r = renderer.value ?? (await import('../../../../worker/src/core/content/render'));
    renderer.value ??= noSerialize(r);
    html.value = r.renderArticleHtml(body, format, { allowImage: servedHere, linksInNewTab: true });
  });
  return <div class="preview prose" aria-busy={html.value === null} dangerouslySetInnerHTML={html.value ?? ''} />;
});
