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

  it('changes nothing in a graph without those modules', () => {
    const { 'q-body.js': body, 'q-codemirror.js': cm } = bundles;
    expect(withoutOnDemandEdges({ 'q-body.js': body, 'q-codemirror.js': cm })).toEqual({});
  });
});
