import type { Invitation } from './invitations.port.js';
import type { InvitationDto, PublicUserDto } from './user.schema.js';
import type { User } from './users.port.js';

/** Domain → wire. Only public fields leave; everything else stays behind. */
export function toPublicUser(u: User): PublicUserDto {
  return {
    id: u.id,
    email: u.email,
    displayName: u.displayName,
    role: u.role,
    verified: u.verified,
    createdAt: u.createdAt.toISOString(),
  };
}

/** Never the code or its hash: the code travels only in the e-mail. */
export function toInvitationDto(i: Invitation): InvitationDto {
  return {
    id: i.id,
    email: i.email,
    role: i.role,
    expiresAt: i.expiresAt.toISOString(),
    createdAt: i.createdAt.toISOString(),
  };
}
