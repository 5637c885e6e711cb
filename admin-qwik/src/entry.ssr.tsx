import { type RenderToStreamOptions, renderToStream } from '@builder.io/qwik/server';
import Root from './root';

/** Used only at build time: static generation renders every route through this. */
export default function (opts: RenderToStreamOptions) {
  return renderToStream(<Root />, {
    ...opts,
    containerAttributes: { lang: 'en', ...opts.containerAttributes },
  });
}
