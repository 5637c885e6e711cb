import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rename } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildServices, scheduledJobs } from './app/services.js';
import { loadOrCreateJwtSecret } from './config/jwt-secret.node.js';
import { parseSettings } from './config/settings.js';
import { buildNodeDeps } from './wiring/node.js';

/**
 * `npm run cms -- <command>` (scripts/cms.ts runs this bundle): the
 * operator's tool. Without --url it works on this installation directly,
 * with the server's own settings (environment, `.env`); with --url and an
 * owner's session token in CMS_TOKEN (or --token, with a warning) it calls a running server over HTTP, which
 * is how it reaches a Worker. docs/self-hosting.md#the-operators-tool lists the commands.
 */
const USAGE = `usage: npm run cms -- <command> [options]
  users                                   list the accounts
  create-owner --email E [--name N]       make the first owner (prints a password to change)
  reset-password --email E                set a new password (printed once); every session of the account ends
  export --out FILE                       write the export archive (docs/backups.md)
  import --file FILE                      read an archive into an installation without content
  purge [--dry-run]                       remove duplicate and orphaned images now
  update-check                            read and verify the release feed now
options: --url URL  call a running server (any target) instead of this installation, as the owner
                    whose session token is in CMS_TOKEN: CMS_TOKEN=… npm run cms -- users --url URL
         --token TOKEN  the same token as an argument: npm prints it, and other users of the machine
                    see it in the process list, so prefer CMS_TOKEN`;

/** Said when --token is given: npm has already echoed the command line, token included. */
const TOKEN_ARGUMENT_WARNING =
  'cms: warning: --token puts the token in the command line, which npm prints and `ps` shows to other users; set CMS_TOKEN instead';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    email: { type: 'string' },
    name: { type: 'string' },
    out: { type: 'string' },
    file: { type: 'string' },
    url: { type: 'string' },
    token: { type: 'string' },
    'dry-run': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});

class CliError extends Error {}
/** 256 random bits: shown once, to be changed after signing in. */
const newPassword = () => randomBytes(32).toString('base64url');
const need = (name: 'email' | 'out' | 'file'): string => {
  const value = values[name];
  if (!value) throw new CliError(`--${name} is required\n${USAGE}`);
  return value;
};

/** Writes a stream to FILE through a temporary name: a failed export leaves no half file named like a good one. */
async function writeFileFrom(body: ReadableStream<Uint8Array>, file: string): Promise<void> {
  const partial = `${file}.partial`;
  await body.pipeTo(Writable.toWeb(createWriteStream(partial, { mode: 0o600 })) as WritableStream<Uint8Array>);
  await rename(partial, file);
}
const fileStream = (file: string) => Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>;

async function remote(command: string, url: string): Promise<void> {
  if (values.token !== undefined) console.error(TOKEN_ARGUMENT_WARNING);
  const token = values.token ?? process.env.CMS_TOKEN;
  if (!token) throw new CliError('CMS_TOKEN (or --token): a session token of the owner');
  const call = async (method: string, route: string, init: RequestInit = {}) => {
    const res = await fetch(new URL(route, url), {
      ...init,
      method,
      headers: { authorization: `Bearer ${token}`, ...(init.headers as Record<string, string>) },
    });
    if (!res.ok) throw new CliError(`${method} ${route}: ${res.status} ${await res.text()}`);
    return res;
  };
  switch (command) {
    case 'users':
      return print((await (await call('GET', '/v1/user?limit=100')).json()) as unknown);
    case 'export':
      return writeFileFrom((await call('GET', '/v1/export')).body!, need('out'));
    case 'import': {
      const body = fileStream(need('file'));
      const init = { body, duplex: 'half', headers: { 'content-type': 'application/gzip' } } as RequestInit;
      return print(await (await call('POST', '/v1/import', init)).json());
    }
    case 'purge':
      return print(
        await (
          await call('POST', '/v1/media/purge', {
            body: JSON.stringify({ dryRun: values['dry-run'] }),
            headers: { 'content-type': 'application/json' },
          })
        ).json(),
      );
    case 'update-check':
      return print(await (await call('POST', '/v1/system/update/check')).json());
    default:
      throw new CliError(`${command} works on this installation only (no --url)\n${USAGE}`);
  }
}

function print(value: unknown): void {
  console.log(JSON.stringify(value, null, 2));
}

async function local(command: string): Promise<void> {
  const settings = parseSettings(process.env, 'node');
  const jwtSecret = settings.jwtSecret ?? (await loadOrCreateJwtSecret(path.resolve('data')));
  const appRoot = process.env.CMS_APP_ROOT ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  // Logs go to stderr: stdout is the command's answer.
  const { deps, close } = await buildNodeDeps(
    { ...settings, jwtSecret },
    { appRoot, jwtSecret, supervisor: null, writeLog: (line) => process.stderr.write(`${line}\n`) },
  );
  const services = buildServices(deps);
  const users = deps.repos.users;
  try {
    switch (command) {
      case 'users': {
        const list = await users.list({ limit: 1000 });
        for (const u of list)
          console.log(`${u.email}\t${u.role}\t${u.verified ? 'verified' : 'unverified'}\t${u.createdAt.toISOString()}`);
        return;
      }
      case 'create-owner': {
        if (await users.hasVerifiedUser())
          throw new CliError('an owner exists already; use reset-password to regain access');
        const password = newPassword();
        const id = deps.ids.newId();
        const created = await users.createRegistrant({
          id,
          email: need('email').trim().toLowerCase(),
          displayName: values.name ?? null,
          role: 'admin',
          verified: false,
          passwordHash: await deps.passwords.hash(password),
          createdAt: deps.clock.now(),
          verificationCodeHash: null,
          verificationExpiresAt: null,
        });
        if (!created || !(await users.verifyAsFirstOwner(id, deps.clock.now())))
          throw new CliError('an owner was made meanwhile; nothing changed');
        console.log(
          `Owner ${need('email').trim().toLowerCase()} created. Password (change it after signing in): ${password}`,
        );
        return;
      }
      case 'reset-password': {
        const user = await users.findByEmail(need('email').trim().toLowerCase());
        if (!user) throw new CliError(`no account has the address ${values.email}`);
        const password = newPassword();
        await users.setPassword(user.id, await deps.passwords.hash(password), deps.clock.now());
        console.log(`New password for ${user.email} (every earlier session has ended): ${password}`);
        return;
      }
      case 'export':
        return await writeFileFrom(services.backup.exportArchive(), need('out'));
      case 'import': {
        // The owner made with create-owner stays the owner, as when importing through the API.
        const owner = (await users.list({ limit: 2 })).find((u) => u.role === 'owner');
        const importer = owner ? { id: owner.id, email: owner.email } : null;
        const imported = await services.backup.importArchive(fileStream(need('file')), importer);
        // Running servers' conditional reads must see the change (docs/caching.md).
        await deps.repos.readGeneration.advance(deps.clock.now());
        return print(imported);
      }
      case 'purge':
        return print(await services.purge.run(values['dry-run']));
      case 'update-check':
        return print(await deps.updates.check());
      case 'scheduled-jobs':
        return print(await scheduledJobs(deps)(deps.clock.now()));
      default:
        throw new CliError(`unknown command ${command}\n${USAGE}`);
    }
  } finally {
    await close();
  }
}

async function main(): Promise<void> {
  const command = positionals[0];
  if (!command || values.help) {
    console.log(USAGE);
    return;
  }
  if (values.url) await remote(command, values.url);
  else await local(command);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(`cms: ${err instanceof CliError ? err.message : ((err as Error)?.message ?? String(err))}`);
    process.exit(err instanceof CliError ? 2 : 1);
  },
);
