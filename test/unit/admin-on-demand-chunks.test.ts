import { describe, expect, it } from 'vitest';
import { withoutOnDemandEdges } from '../../admin-qwik/tools/on-demand-chunks.ts';

/** The preload graph change behind the editor route's budget (admin-qwik/tools/on-demand-chunks.ts). */
describe('admin bundle graph: on-demand bundles', () => {
  const bundles = {
    'q-preview.js': {
      origins: ['src/components/ui/markdown-preview.tsx_task.js'],
      dynamicImports: ['q-render.js', 'q-x.js'],
    },
    'q-uploader.js': { origins: ['src/components/articles/image-uploader.tsx'], dynamicImports: ['q-shrink.js'] },
    'q-body.js': { origins: ['src/components/articles/body-editor.tsx'], dynamicImports: ['q-codemirror.js'] },
    'q-render.js': { origins: ['../node_modules/markdown-it/index.mjs', '../worker/src/core/content/render.ts'] },
    'q-shrink.js': { origins: ['../node_modules/@cf-wasm/photon/dist/photon.js', 'src/lib/image-shrink.ts'] },
    'q-codemirror.js': { origins: ['../node_modules/@codemirror/view/dist/index.js', 'src/lib/markdown-editor.ts'] },
    'q-x.js': { origins: ['src/lib/x.ts'] },
  };

  it('drops only the dynamic-import edges to the renderer and the shrink, keeping every other edge', () => {
    expect(withoutOnDemandEdges(bundles)).toEqual({
      'q-preview.js': { ...bundles['q-preview.js'], dynamicImports: ['q-x.js'] },
      'q-uploader.js': { ...bundles['q-uploader.js'], dynamicImports: [] },
    });
  });

  it('drops the edges to the API rules checked before sending (zod), not to the SEO form helpers', () => {
    const graph = {
      'q-editor.js': {
        origins: ['src/components/articles/article-editor.tsx', 'src/lib/article-save.ts'],
        dynamicImports: ['q-title.js', 'q-seo.js', 'q-slug.js', 'q-seo-form.js'],
      },
      'q-title.js': { origins: ['src/lib/title.ts'] },
      'q-seo.js': { origins: ['src/lib/seo.ts'] },
      'q-slug.js': { origins: ['src/lib/slug-rule.ts'] },
      'q-seo-form.js': { origins: ['src/lib/seo-form.ts'] },
    };
    expect(withoutOnDemandEdges(graph)).toEqual({
      'q-editor.js': { ...graph['q-editor.js'], dynamicImports: ['q-seo-form.js'] },
    });
  });

  it('drops the edges from the catalogue entries (the shell) to their schemas and field notes', () => {
    const graph = {
      'q-shell.js': {
        origins: ['src/lib/screens.ts', 'src/lib/catalog.ts'],
        dynamicImports: ['q-site-schema.js', 'q-site-notes.js', 'q-route.js'],
      },
      'q-site-schema.js': { origins: ['../worker/src/features/sites/site.schema.ts'] },
      'q-site-notes.js': { origins: ['src/lib/catalog-notes/site.ts'] },
      'q-route.js': { origins: ['src/routes/sites/index.tsx'] },
    };
    expect(withoutOnDemandEdges(graph)).toEqual({
      'q-shell.js': { ...graph['q-shell.js'], dynamicImports: ['q-route.js'] },
    });
  });

  it('changes nothing in a graph without those modules', () => {
    const { 'q-body.js': body, 'q-codemirror.js': cm } = bundles;
    expect(withoutOnDemandEdges({ 'q-body.js': body, 'q-codemirror.js': cm })).toEqual({});
  });
});
