/** What a preview page shows: the article's (or its draft's) title, feature image and rendered body. */
export interface PreviewPageContent {
  title: string;
  /** Sanitised HTML (core/content/render.ts), put in as it is. */
  html: string;
  featureImage: { url: string; alt: string | null; width: number; height: number; srcset: string } | null;
  /** True when the page shows the pending draft rather than the live article. */
  draft: boolean;
}

/** Text and attribute values escaped for HTML: `&`, `<`, `>`, both quotes. */
export const escapeHtml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

// Inline styles only: the CSP allows them ('unsafe-inline' for style-src) and no script runs.
const STYLE = `body{margin:0;font:18px/1.6 system-ui,sans-serif;color:#1c1c1c;background:#fff}
main{max-width:44rem;margin:0 auto;padding:2rem 1.25rem 4rem}
.note{font-size:.85rem;color:#555;border-bottom:1px solid #ddd;padding-bottom:.5rem;margin-bottom:1.5rem}
h1{font-size:2.2rem;line-height:1.2;margin:.5rem 0 1.5rem}
img{max-width:100%;height:auto}
pre{overflow:auto;background:#f4f4f4;padding:1rem}
blockquote{margin-left:0;padding-left:1rem;border-left:3px solid #ccc;color:#444}
@media (prefers-color-scheme:dark){body{background:#161616;color:#e8e8e8}.note{color:#aaa;border-color:#333}pre{background:#222}}`;

/**
 * The page a preview link opens in a browser: a plain reading view of the
 * article, never indexed (the route adds `X-Robots-Tag` and `no-store`).
 * Every value but the sanitised body is escaped here.
 */
export function previewPage(content: PreviewPageContent): string {
  const title = escapeHtml(content.title);
  const image = content.featureImage;
  const figure = image
    ? `<img src="${escapeHtml(image.url)}"${image.srcset ? ` srcset="${escapeHtml(image.srcset)}" sizes="(max-width: 44rem) 100vw, 44rem"` : ''} alt="${escapeHtml(image.alt ?? '')}" width="${image.width}" height="${image.height}">`
    : '';
  const note = content.draft ? 'Preview of unpublished changes' : 'Preview';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<p class="note">${note}</p>
<article>
<h1>${title}</h1>
${figure}
${content.html}
</article>
</main>
</body>
</html>
`;
}
