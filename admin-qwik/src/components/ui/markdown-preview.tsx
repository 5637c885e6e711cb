import { component$ } from '@builder.io/qwik';
import { renderArticleHtml } from '../../../../worker/src/core/content/render';
import type { ArticleFormat } from '../../../../worker/src/features/articles/article.schema';

/**
 * Images from this server only: the admin's CSP (img-src 'self' data: blob:)
 * refuses others, and each refusal is a console error.
 */
const servedHere = (src: string) =>
  (src.startsWith('/') && !src.startsWith('//') && !src.startsWith('/\\')) || src.startsWith('data:');

/**
 * The editor's preview: the body through the server's own renderer
 * (core/content/render.ts), the HTML every front end gets. It is sanitised
 * there (no script, handler or javascript: URL survives, tested on hostile
 * bodies), and the CSP would refuse inline scripts and handlers anyway.
 * Links open in a new tab so that following one never leaves the editor.
 */
export const ArticlePreview = component$((props: { body: string; format: ArticleFormat }) => (
  <div
    class="preview prose"
    dangerouslySetInnerHTML={renderArticleHtml(props.body, props.format, {
      allowImage: servedHere,
      linksInNewTab: true,
    })}
  />
));
