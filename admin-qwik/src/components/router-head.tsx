import { component$ } from '@builder.io/qwik';
import { useDocumentHead } from '@builder.io/qwik-city';
import { PRODUCT_NAME } from '../lib/product';

/**
 * The document head: title, meta and links from each route's `head` export,
 * and the colour mode. `head.scripts` and `head.styles` are deliberately not
 * rendered: they would be inline, and the CSP allows no inline script.
 */
export const RouterHead = component$(() => {
  const head = useDocumentHead();
  const title = head.title ? `${head.title} · ${PRODUCT_NAME}` : PRODUCT_NAME;
  return (
    <>
      {/* Blocking on purpose, and first: it sets data-theme before anything is painted. */}
      <script src="/color-mode.js" />
      <title>{title}</title>
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="color-scheme" content="light dark" />
      <meta name="robots" content="noindex" />
      <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
      {head.meta.map((m) => (
        <meta key={m.key} {...m} />
      ))}
      {head.links.map((l) => (
        <link key={l.key} {...l} />
      ))}
    </>
  );
});
