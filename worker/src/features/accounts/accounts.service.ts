import { DomainError } from '../../core/domain/errors.js';
import { newSecretCode, sha256Hex } from '../../core/shared/crypto.js';
import type { Mailer } from '../../ports/mailer.js';
import type { Repositories } from '../../ports/repositories.js';
import type { Clock, IdGenerator, PasswordHasher, TokenSigner } from '../../ports/runtime.js';
import { verificationMail } from './mail-templates.js';
import type { MeUpdatedDto, PublicUserDto, SessionDto } from './user.schema.js';
import { toPublicUser } from './user-dto.js';
import type { User } from './users.port.js';

export const VERIFICATION_CODE_TTL_MS = 2 * 60 * 60 * 1000;

export interface AccountsDeps {
  repos: Repositories;
  passwords: PasswordHasher;
  tokens: TokenSigner;
  mailer: Mailer;
  clock: Clock;
  ids: IdGenerator;
  publicUrl: string;
}

const registrationClosed = () =>
  new DomainError('registration_closed', 'Registration is closed: ask the owner for an invitation');

const badCode = () =>
  new DomainError('invalid_request', 'The code is not valid or has expired', [
    { path: 'code', message: 'not valid or expired' },
  ]);

export function createAccountsService(deps: AccountsDeps) {
  const { repos, passwords, tokens, mailer, clock, ids, publicUrl } = deps;
  // Compared against when the e-mail is unknown, so both failures cost the same.
  let dummyHash: Promise<string> | undefined;

  const session = async (user: User): Promise<SessionDto> => ({
    token: await tokens.sign({ userId: user.id, tokenVersion: user.tokenVersion }),
    user: toPublicUser(user),
  });

  async function issueVerificationCode(user: Pick<User, 'id' | 'email'>): Promise<void> {
    const code = newSecretCode();
    await repos.users.setVerificationCode(
      user.id,
      await sha256Hex(code),
      new Date(clock.now().getTime() + VERIFICATION_CODE_TTL_MS),
    );
    await mailer.send(verificationMail(user.email, publicUrl, code));
  }

  /**
   * An unverified account while a verified one exists is a registration that
   * closing should have cancelled (one left behind by an older version's
   * race): it is cancelled now, and refused.
   */
  async function leftBehind(user: User): Promise<boolean> {
    if (user.verified || !(await repos.users.hasVerifiedUser())) return false;
    await repos.users.deleteUnverified(user.id);
    return true;
  }

  return {
    async registrationOpen(): Promise<boolean> {
      return !(await repos.users.hasVerifiedUser());
    },

    async register(input: { email: string; password: string; displayName?: string | undefined }): Promise<SessionDto> {
      // Answered before the costly hash; the database decides again below.
      if (await repos.users.hasVerifiedUser()) throw registrationClosed();
      const now = clock.now();
      const code = newSecretCode();
      const user = {
        id: ids.newId(),
        email: input.email,
        displayName: input.displayName ?? null,
        role: 'admin' as const,
        verified: false,
        passwordHash: await passwords.hash(input.password),
        createdAt: now,
        verificationCodeHash: await sha256Hex(code),
        verificationExpiresAt: new Date(now.getTime() + VERIFICATION_CODE_TTL_MS),
      };
      if (!(await repos.users.createRegistrant(user))) throw registrationClosed();
      try {
        await mailer.send(verificationMail(user.email, publicUrl, code));
      } catch (err) {
        // An account nobody can verify is worse than none: undo, then report.
        await repos.users.delete(user.id);
        throw err;
      }
      const created = await repos.users.findById(user.id);
      if (!created) throw new DomainError('unavailable', 'The account could not be read back');
      return session(created);
    },

    async verify(code: string): Promise<PublicUserDto> {
      const found = await repos.users.findByVerificationCode(await sha256Hex(code));
      if (!found || found.user.verified || found.expiresAt.getTime() <= clock.now().getTime()) throw badCode();
      const won = await repos.users.verifyAsFirstOwner(found.user.id, clock.now());
      if (!won) {
        throw new DomainError('registration_closed', 'Registration is closed: another account was verified first');
      }
      const user = await repos.users.findById(found.user.id);
      if (!user) throw badCode();
      return toPublicUser(user);
    },

    async resendVerification(user: User): Promise<void> {
      if (user.verified) throw new DomainError('conflict', 'This account is already verified');
      await issueVerificationCode(user);
    },

    async login(email: string, password: string): Promise<SessionDto> {
      const user = await repos.users.findByEmail(email);
      if (!user) {
        dummyHash ??= passwords.hash('not-a-real-password-0000');
        await passwords.verify(password, await dummyHash);
        throw new DomainError('unauthorized', 'Wrong e-mail or password');
      }
      if (!(await passwords.verify(password, user.passwordHash))) {
        throw new DomainError('unauthorized', 'Wrong e-mail or password');
      }
      if (await leftBehind(user)) throw new DomainError('unauthorized', 'Wrong e-mail or password');
      return session(user);
    },

    /** Cancels an unverified registration: the account and every session of it are gone. */
    async cancelRegistration(user: User): Promise<void> {
      if (user.verified) throw new DomainError('forbidden', 'Only an unverified registration can be cancelled');
      if (!(await repos.users.deleteUnverified(user.id))) {
        throw new DomainError('conflict', 'The registration changed meanwhile; sign in again');
      }
    },

    /** Display name and password of the caller's own account. A new password ends every other session. */
    async updateMe(
      user: User,
      input: {
        displayName?: string | null | undefined;
        password?: string | undefined;
        currentPassword?: string | undefined;
      },
    ): Promise<MeUpdatedDto> {
      if (input.password !== undefined) {
        if (!(await passwords.verify(input.currentPassword ?? '', user.passwordHash))) {
          throw new DomainError('invalid_request', 'The current password is wrong', [
            { path: 'currentPassword', message: 'wrong password' },
          ]);
        }
        await repos.users.setPassword(user.id, await passwords.hash(input.password), clock.now());
      }
      if (input.displayName !== undefined)
        await repos.users.update(user.id, { displayName: input.displayName }, clock.now());
      const fresh = await repos.users.findById(user.id);
      if (!fresh) throw new DomainError('unauthorized', 'The account no longer exists');
      // The old token died with the password; hand over one for this session.
      return input.password !== undefined ? session(fresh) : { user: toPublicUser(fresh) };
    },

    /** The user behind a session token, or null when the token must be refused. */
    async authenticate(token: string): Promise<User | null> {
      const claims = await tokens.verify(token);
      if (!claims) return null;
      const user = await repos.users.findById(claims.userId);
      if (!user || user.tokenVersion !== claims.tokenVersion) return null;
      if (await leftBehind(user)) return null;
      return user;
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
