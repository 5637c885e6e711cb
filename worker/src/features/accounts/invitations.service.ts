import { DomainError, notFound } from '../../core/domain/errors.js';
import { newSecretCode, sha256Hex } from '../../core/shared/crypto.js';
import { decodeCursor, toPage } from '../../core/shared/pagination.js';
import type { Mailer } from '../../ports/mailer.js';
import type { Repositories } from '../../ports/repositories.js';
import type { Clock, IdGenerator, PasswordHasher, TokenSigner } from '../../ports/runtime.js';
import type { Page } from '../../wire/pagination.schema.js';
import type { Invitation } from './invitations.port.js';
import { invitationMail } from './mail-templates.js';
import type { InvitationDto, SessionDto } from './user.schema.js';
import { toInvitationDto, toPublicUser } from './user-dto.js';
import type { User } from './users.port.js';

export const INVITATION_TTL_MS = 3 * 24 * 60 * 60 * 1000;

export interface InvitationsDeps {
  repos: Repositories;
  passwords: PasswordHasher;
  tokens: TokenSigner;
  mailer: Mailer;
  clock: Clock;
  ids: IdGenerator;
  publicUrl: string;
}

const badCode = () =>
  new DomainError('invalid_request', 'The invitation is not valid, has expired or was already used', [
    { path: 'code', message: 'not valid or expired' },
  ]);

export function createInvitationsService(deps: InvitationsDeps) {
  const { repos, passwords, tokens, mailer, clock, ids, publicUrl } = deps;
  const inviterName = (u: User) => u.displayName ?? u.email;

  return {
    async list(limit: number, cursor?: string): Promise<Page<InvitationDto>> {
      const rows = await repos.invitations.list({ limit: limit + 1, beforeId: decodeCursor(cursor) });
      return toPage(rows, limit, toInvitationDto);
    },

    /** The e-mail goes out before we answer; if it cannot, the invitation is withdrawn and the caller gets 503. */
    async create(inviter: User, input: { email: string; role: 'admin' }): Promise<InvitationDto> {
      const now = clock.now();
      const code = newSecretCode();
      const invitation: Invitation = {
        id: ids.newId(),
        email: input.email,
        role: input.role,
        codeHash: await sha256Hex(code),
        expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
        createdAt: now,
        invitedBy: inviter.id,
      };
      await repos.invitations.create(invitation);
      try {
        await mailer.send(invitationMail(invitation.email, publicUrl, code, inviterName(inviter)));
      } catch (err) {
        await repos.invitations.delete(invitation.id);
        throw err;
      }
      return toInvitationDto(invitation);
    },

    async cancel(id: string): Promise<void> {
      if (!(await repos.invitations.delete(id))) throw notFound();
    },

    /** New code and three more days; the old link is dead the moment this returns, sent or not. */
    async renew(inviter: User, id: string): Promise<InvitationDto> {
      if (!(await repos.invitations.findById(id))) throw notFound();
      // The mail server first: while it is down a renewal is a 503 that
      // changes nothing, and the link already sent keeps working.
      await mailer.check();
      const now = clock.now();
      const code = newSecretCode();
      const renewed = await repos.invitations.renew(
        id,
        await sha256Hex(code),
        new Date(now.getTime() + INVITATION_TTL_MS),
        now,
      );
      if (!renewed) throw notFound();
      await mailer.send(invitationMail(renewed.email, publicUrl, code, inviterName(inviter)));
      return toInvitationDto(renewed);
    },

    async accept(input: { code: string; password: string; displayName?: string | undefined }): Promise<SessionDto> {
      const passwordHash = await passwords.hash(input.password);
      const now = clock.now();
      const user = await repos.invitations.accept(await sha256Hex(input.code), now, (inv) => ({
        id: ids.newId(),
        email: inv.email,
        displayName: input.displayName ?? null,
        role: inv.role,
        verified: true,
        passwordHash,
        createdAt: now,
        verificationCodeHash: null,
        verificationExpiresAt: null,
      }));
      if (!user) throw badCode();
      return {
        token: await tokens.sign({ userId: user.id, tokenVersion: user.tokenVersion }),
        user: toPublicUser(user),
      };
    },
  };
}

export type InvitationsService = ReturnType<typeof createInvitationsService>;
