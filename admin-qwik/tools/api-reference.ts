import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** Where the reference page is served: `/api-reference` (Workers' asset layer and the Node asset server alike). */
export const API_REFERENCE_DIR = 'api-reference';

/**
 * The OpenAPI reference page: swagger-ui-dist's standalone bundle and
 * stylesheet copied from node_modules (served from our own origin, under the
 * same CSP as every page: no inline script, no eval), a page that loads
 * them and a small script of ours that points the renderer at
 * `/v1/openapi.json`. The online validator badge is off: it would load an
 * image from another origin, which the CSP refuses.
 */
export function writeApiReference(outDir: string): void {
  const require = createRequire(import.meta.url);
  const from = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  const dir = path.join(outDir, API_REFERENCE_DIR);
  mkdirSync(dir, { recursive: true });
  for (const file of ['swagger-ui-bundle.js', 'swagger-ui.css', 'LICENSE']) {
    copyFileSync(path.join(from, file), path.join(dir, file));
  }
  writeFileSync(
    path.join(dir, 'init.js'),
    `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/v1/openapi.json',
    dom_id: '#api-reference',
    deepLinking: true,
    validatorUrl: null,
    defaultModelsExpandDepth: 0,
  });
});
`,
  );
  writeFileSync(
    path.join(dir, 'index.html'),
    `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/${API_REFERENCE_DIR}/swagger-ui.css">
</head>
<body>
<div id="api-reference"></div>
<script src="/${API_REFERENCE_DIR}/swagger-ui-bundle.js"></script>
<script src="/${API_REFERENCE_DIR}/init.js"></script>
</body>
</html>
`,
  );
}
