/**
 * The dependency rules of docs/architecture.md#dependency-direction, checked
 * by dependency-cruiser in `npm test` (scripts/test.ts) and by hand with
 * `npx depcruise worker/src admin-qwik/src`.
 *
 * worker/src has three kinds of folder:
 * - platform: wire/, auth/, ports/, core/, config/, http/, adapters/,
 *   codecs/ (the image codec the admin builds too) and feature-api/ (what a
 *   feature is given and gives back). It knows no feature.
 * - features/<name>/: one resource each. A feature imports the platform, and
 *   another feature only through that feature's index.ts or its *.schema.ts,
 *   only downwards in FEATURE_ORDER (so no two features import each other).
 * - the composition root: app/, wiring/ and the entry files. Only these put
 *   features, adapters and the platform together; nothing imports them.
 * The admin (admin-qwik/) shares the platform's package-neutral code and the
 * features' request and answer schemas, never server code.
 * Tests live under test/ (docs/architecture.md#rule-3): they may import
 * anything; nothing under worker/src or admin-qwik/src is a test or imports one.
 */

/** Features, lowest first: a feature may import only those listed before it. */
const FEATURE_ORDER = [
  'accounts',
  'api-keys',
  'activity',
  'webhooks',
  'sites',
  'authors',
  'tags',
  'redirects',
  'media',
  'articles',
  'previews',
  'scheduling',
  'syndication',
  'purge',
  'system',
  'backup',
];

const SRC = '^worker/src/';
const PLATFORM = `${SRC}(wire|auth|ports|core|config|http|adapters|codecs|feature-api)/`;
/** The tables' row types: the one adapters file a feature's port may import (types only). */
const ENTITY_ROWS = `${SRC}adapters/db/rows\\.ts`;
const ROOT = `${SRC}(app/|wiring/|entry\\.)`;
const TESTS = ['^test/', '\\.(contract|test)\\.tsx?$'];
/** The code that ships: the server's and the admin's sources. */
const CODE = '^(worker/src|admin-qwik/src)/';
/** A feature's schemas, ports and domain files: every file but its repositories, stores, routes, HTTP glue, module and door. */
const DOMAIN_FILES = {
  path: `${SRC}features/[^/]+/[^/]+\\.ts$`,
  pathNot: ['\\.(repository|store|routes|http|feature)\\.ts$', '/index\\.ts$'],
};
const PACKAGES = ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown', 'core'];

/** A folder of worker/src may import only these folders of it (and itself). */
const PLATFORM_LAYERS = {
  wire: [],
  auth: ['wire'],
  ports: ['wire', 'auth', 'core/domain'],
  'core/domain': ['wire'],
  core: ['wire', 'auth', 'ports'],
  codecs: ['wire', 'ports', 'core'],
  config: ['wire'],
  adapters: ['wire', 'auth', 'ports', 'core', 'codecs'],
  http: ['wire', 'auth', 'ports', 'core', 'config'],
  'feature-api': ['wire', 'auth', 'ports', 'core', 'config', 'http', 'adapters'],
};

/** The packages each platform folder may import (its own files aside); adapters and the root may import any. */
const PLATFORM_PACKAGES = {
  wire: ['zod'],
  auth: ['zod'],
  ports: [],
  'core/domain': [],
  core: ['zod', 'markdown-it', 'htmlparser2'],
  config: ['zod', 'node:[a-z_/]+', 'fs', 'path', 'crypto', 'os', 'url'],
  http: ['hono', '@hono/[^/]+', 'zod'],
};

const folder = (name) => `${SRC}${name}/`;
/** As the target of an import: core/ without core/domain/, which is a layer of its own. */
const target = (name) => (name === 'core' ? `${SRC}core/(?!domain/)` : folder(name));
const forbiddenFor = (name) => {
  const allowed = new Set([name, ...PLATFORM_LAYERS[name]]);
  if (allowed.has('core')) allowed.add('core/domain');
  return Object.keys(PLATFORM_LAYERS).filter((other) => !allowed.has(other));
};

const platformRules = Object.keys(PLATFORM_LAYERS).flatMap((name) => {
  const from = { path: folder(name), pathNot: name === 'core' ? [folder('core/domain')] : [] };
  const forbidden = forbiddenFor(name);
  const rules = [];
  if (forbidden.length > 0) {
    rules.push({
      name: `platform-${name.replace('/', '-')}-layers`,
      comment: `${name}/ may import only ${PLATFORM_LAYERS[name].join(', ') || 'itself'} of the platform`,
      severity: 'error',
      from,
      to: { path: forbidden.map(target) },
    });
  }
  if (name in PLATFORM_PACKAGES) {
    const allowed = PLATFORM_PACKAGES[name];
    rules.push({
      name: `platform-${name.replace('/', '-')}-packages`,
      comment: `${name}/ may import only these packages: ${allowed.join(', ') || 'none'}`,
      severity: 'error',
      from,
      to: {
        dependencyTypes: PACKAGES,
        ...(allowed.length > 0 && {
          pathNot: allowed.flatMap((p) => [`(^|/)node_modules/${p}/`, `^${p}$`]),
        }),
      },
    });
  }
  return rules;
});

const featureDirection = FEATURE_ORDER.map((name, i) => ({
  name: `feature-direction-${name}`,
  comment: `${name} may import only the features listed before it in FEATURE_ORDER`,
  severity: 'error',
  from: { path: `${SRC}features/${name}/` },
  to: { path: FEATURE_ORDER.slice(i).map((other) => `${SRC}features/${other}/`), pathNot: `${SRC}features/${name}/` },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycles anywhere (type-only imports count).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'platform-knows-no-feature',
      comment: 'Platform code imports no feature: what it needs lives in wire/, auth/ or ports/.',
      severity: 'error',
      from: { path: PLATFORM },
      to: { path: `${SRC}features/` },
    },
    {
      name: 'nothing-imports-the-root',
      comment: 'Only the composition root (app/, wiring/, entry.*) wires features; nothing but tests imports it.',
      severity: 'error',
      from: { path: [PLATFORM, `${SRC}features/`] },
      to: { path: ROOT },
    },
    {
      name: 'feature-through-its-index',
      comment:
        "Another feature is imported only through its index.ts (its server-side door) or its *.schema.ts (requests and answers, zod only, shared with the admin: reached through index.ts they would drag the feature's server code into the admin's graph).",
      severity: 'error',
      from: { path: `${SRC}features/([^/]+)/` },
      to: {
        path: `${SRC}features/[^/]+/`,
        pathNot: [`${SRC}features/$1/`, `${SRC}features/[^/]+/(index|[^/]+\\.schema)\\.ts$`],
      },
    },
    ...featureDirection,
    {
      name: 'feature-roles',
      comment:
        "A feature's schemas, ports and domain files (no suffix, *.service.ts) import neither adapters, http nor their packages (the one exception: a port's entity may be a table's row type, from adapters/db/rows.ts, see feature-entities-are-types).",
      severity: 'error',
      from: DOMAIN_FILES,
      to: {
        pathNot: `${ENTITY_ROWS}$`,
        path: [
          `${SRC}(adapters|http|feature-api)/`,
          `${SRC}features/[^/]+/[^/]+\\.(repository|store|routes|http|feature)\\.ts$`,
          '(^|/)node_modules/(hono|@hono/[^/]+|drizzle-orm|[^/]+sqlite[^/]*|mysql2|postgres)/',
          '^node:',
        ],
      },
    },
    {
      name: 'feature-entities-are-types',
      comment:
        "A port's entity is drizzle's row type (stated once, in the tables): domain files import adapters/db/rows.ts for types only, so no drizzle code reaches them at run time.",
      severity: 'error',
      from: DOMAIN_FILES,
      to: { path: `${ENTITY_ROWS}$`, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'schemas-describe-the-wire',
      comment:
        "A feature's *.schema.ts describes requests and answers: it imports only wire/, auth/, other schemas and zod.",
      severity: 'error',
      from: { path: `${SRC}features/[^/]+/[^/]+\\.schema\\.ts$` },
      to: {
        pathNot: [`${SRC}(wire|auth)/`, '\\.schema\\.ts$', '/index\\.ts$', '(^|/)node_modules/zod/'],
      },
    },
    ...platformRules,
    {
      name: 'code-imports-no-test',
      comment:
        'Only tests import tests: no code under worker/src or admin-qwik/src imports a test, a contract suite or test/.',
      severity: 'error',
      from: { path: CODE },
      to: { path: TESTS },
    },
    {
      name: 'tests-live-under-test',
      comment:
        'Tests live under test/ (docs/architecture.md#rule-3): no file under worker/src or admin-qwik/src is named like a test or a contract suite.',
      severity: 'error',
      // A rule on the module itself: any file so named matches (a test has no dependents; 100 is the schema's most).
      module: { path: `${CODE}.*\\.(contract|test)\\.tsx?$`, numberOfDependentsLessThan: 100 },
      from: {},
    },
    {
      name: 'admin-imports-no-server-code',
      comment:
        "The admin shares the platform's package-neutral code (wire/, core/, codecs/) and the features' schemas and pure helpers; never adapters, http, the root or a repository.",
      severity: 'error',
      from: { path: '^admin-qwik/' },
      to: {
        path: [
          `${SRC}(adapters|http|app|wiring|config|ports|feature-api|entry\\.)`,
          `${SRC}features/[^/]+/[^/]+\\.(repository|store|routes|http|feature|service|port)\\.ts$`,
        ],
      },
    },
  ],
  options: {
    // test/ is included (not followed) so that an import of it from the code shows up and breaks code-imports-no-test.
    doNotFollow: { path: ['node_modules', '^test/'] },
    includeOnly: ['^worker/src/', '^admin-qwik/src/', '^test/', 'node_modules', '^node:'],
    exclude: { path: ['\\.d\\.ts$'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'worker', 'browser', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
    },
    reporterOptions: {
      archi: { collapsePattern: '^worker/src/(features/[^/]+|[^/]+)/|^admin-qwik/src/' },
    },
  },
};
