import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleAppModule } from './app-module.ts';

/**
 * The app's own article read, as a service-floor server runs it
 * (../service-floor-server.ts): the settings, the Node wiring (database,
 * repositories) and the services built as the server builds them, and the
 * read an anonymous `GET /v1/articles/:id` makes of them. Typed here by
 * hand, as FloorParts is: the scripts' type check does not compile worker/src.
 */
export interface ServiceParts {
  openArticleReads(
    env: NodeJS.ProcessEnv,
    appRoot: string,
  ): Promise<{ read(id: string, url: string): Promise<unknown> }>;
}

const source = (root: string) => `
import { ANONYMOUS } from '${root}/worker/src/auth/actor.ts';
import { buildServices } from '${root}/worker/src/app/services.ts';
import { parseSettings } from '${root}/worker/src/config/settings.ts';
import { requestLinks } from '${root}/worker/src/wire/links.ts';
import { buildNodeDeps } from '${root}/worker/src/wiring/node.ts';
export async function openArticleReads(env, appRoot) {
  const settings = parseSettings(env, 'node');
  const { deps } = await buildNodeDeps(settings, { appRoot, jwtSecret: settings.jwtSecret, writeLog: () => {} });
  const articles = buildServices(deps).articles;
  const links = requestLinks(settings);
  // The process ends with the bench's SIGTERM: the database closes with it.
  return { read: (id, url) => articles.get(ANONYMOUS, id, links(url, undefined), []) };
}`;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * Bundles ServiceParts as the server's own bundle is made (scripts/build-node.ts):
 * packages included but the native drivers, worker-mailer's `cloudflare:sockets`
 * pointed at the Node shim, a `require` for bundled CommonJS. The file URL
 * the service-floor server imports (SERVICE_PARTS).
 */
export async function bundleServiceParts(): Promise<string> {
  const file = await bundleAppModule('service-parts', source('.'), {
    packages: undefined,
    external: ['better-sqlite3', 'mysql2', 'mysql2/*'],
    alias: { 'cloudflare:sockets': path.join(root, 'worker/src/adapters/mail/node-sockets.shim.ts') },
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  });
  return pathToFileURL(file).href;
}
