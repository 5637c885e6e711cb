import { staticAdapter } from '@builder.io/qwik-city/adapters/static/vite';
import { extendConfig } from '@builder.io/qwik-city/vite';
import baseConfig from '../../vite.config';

/**
 * Second step of the build: the SSR bundle, then static generation of every
 * route into dist/ (the client build's output). The origin only feeds
 * absolute URLs at build time; the admin is served from whatever host runs it.
 */
export default extendConfig(baseConfig, () => ({
  build: {
    ssr: true,
    rollupOptions: { input: ['@qwik-city-plan'] },
  },
  plugins: [
    staticAdapter({
      origin: 'http://localhost',
      // No public site to index: the admin is not for search engines.
      sitemapOutFile: null,
    }),
  ],
}));
