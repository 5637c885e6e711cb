import { DomainError, notFound } from '../../core/domain/errors.js';
import { decodeCursor, toPage } from '../../core/shared/pagination.js';
import type { Repositories } from '../../ports/repositories.js';
import type { Clock } from '../../ports/runtime.js';
import type { Page } from '../../wire/pagination.schema.js';
import type { PublicUserDto, Role } from './user.schema.js';
import { toPublicUser } from './user-dto.js';
import type { User } from './users.port.js';

export interface UsersDeps {
  repos: Repositories;
  clock: Clock;
}

/** User management by the owner (the policy table lets only the owner here). */
export function createUsersService({ repos, clock }: UsersDeps) {
  async function existing(id: string): Promise<User> {
    const user = await repos.users.findById(id);
    if (!user) throw notFound();
    return user;
  }

  return {
    async list(limit: number, cursor?: string): Promise<Page<PublicUserDto>> {
      const rows = await repos.users.list({ limit: limit + 1, beforeId: decodeCursor(cursor) });
      return toPage(rows, limit, toPublicUser);
    },

    async get(id: string): Promise<PublicUserDto> {
      return toPublicUser(await existing(id));
    },

    /** `role: "owner"` transfers ownership: the caller becomes admin. */
    async update(
      caller: User,
      id: string,
      input: { displayName?: string | null | undefined; role?: Role | undefined },
    ): Promise<PublicUserDto> {
      const target = await existing(id);
      if (input.role === 'owner' && target.role !== 'owner') {
        if (!target.verified) throw new DomainError('conflict', 'Ownership can only go to a verified account');
        if (!(await repos.users.transferOwnership(caller.id, target.id, clock.now()))) {
          throw new DomainError('conflict', 'Ownership changed meanwhile; reload and try again');
        }
      } else if (input.role === 'admin' && target.role === 'owner') {
        throw new DomainError('conflict', 'There is always one owner: transfer ownership to another account instead');
      }
      if (input.displayName !== undefined)
        await repos.users.update(id, { displayName: input.displayName }, clock.now());
      return toPublicUser(await existing(id));
    },

    async delete(caller: User, id: string): Promise<void> {
      const target = await existing(id);
      if (target.id === caller.id || target.role === 'owner') {
        throw new DomainError('conflict', 'The owner cannot be deleted; transfer ownership first');
      }
      if (!(await repos.users.delete(id))) throw notFound();
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
