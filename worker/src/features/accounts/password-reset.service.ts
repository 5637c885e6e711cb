import { DomainError } from '../../core/domain/errors.js';
import { newSecretCode, sha256Hex } from '../../core/shared/crypto.js';
import type { Mailer } from '../../ports/mailer.js';
import type { Repositories } from '../../ports/repositories.js';
import type { Clock, Defer, Logger, PasswordHasher } from '../../ports/runtime.js';
import { resetMail } from './mail-templates.js';

export const RESET_CODE_TTL_MS = 60 * 60 * 1000;

export interface PasswordResetDeps {
  repos: Repositories;
  passwords: PasswordHasher;
  mailer: Mailer;
  clock: Clock;
  logger: Logger;
  publicUrl: string;
}

export function createPasswordResetService(deps: PasswordResetDeps) {
  const { repos, passwords, mailer, clock, logger, publicUrl } = deps;
  return {
    /**
     * Always the same answer, in about the same time, whether or not the
     * address has an account: the lookup and code work happen either way and
     * the e-mail goes out after the response, so neither the body nor the
     * timing tells an attacker which addresses exist. The mail server is
     * checked first, for every address alike: when it is down the answer is
     * a 503 with no code stored (nothing half-done), which says nothing about
     * the address. A send that still fails afterwards is logged; asking again
     * sends a new code.
     */
    async request(email: string, defer: Defer): Promise<void> {
      await mailer.check();
      const code = newSecretCode();
      const codeHash = await sha256Hex(code);
      const user = await repos.users.findByEmail(email);
      if (!user) return;
      await repos.users.setResetCode(user.id, codeHash, new Date(clock.now().getTime() + RESET_CODE_TTL_MS));
      defer(
        mailer
          .send(resetMail(user.email, publicUrl, code))
          .catch((err) => logger.error('password reset e-mail not sent', err)),
      );
    },

    /** Single use; every session issued before ends (the token version moves). Returns the account's id. */
    async confirm(code: string, password: string): Promise<string> {
      const userId = await repos.users.resetPassword(
        await sha256Hex(code),
        await passwords.hash(password),
        clock.now(),
      );
      if (!userId) {
        throw new DomainError('invalid_request', 'The code is not valid or has expired', [
          { path: 'code', message: 'not valid or expired' },
        ]);
      }
      return userId;
    },
  };
}

export type PasswordResetService = ReturnType<typeof createPasswordResetService>;
