import { createContextId } from '@builder.io/qwik';
import type { PublicUserDto } from '../../../worker/src/features/accounts/user.schema';
import { withoutTrailingSlashes } from './url';

export type { PublicUserDto };

/**
 * The session token lives in sessionStorage: it survives reloads and
 * navigation in the tab, is gone when the tab closes, and is never sent
 * anywhere but the `Authorization` header of same-origin API calls (no
 * cookie, so no CSRF surface). Other tabs sign in on their own.
 */
const TOKEN_KEY = 'cms.session';

export function getToken(): string | null {
  try {
    return sessionStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function setToken(token: string): void {
  sessionStorage.setItem(TOKEN_KEY, token);
}

export function clearToken(): void {
  try {
    sessionStorage.removeItem(TOKEN_KEY);
  } catch {
    /* storage unavailable: nothing to clear */
  }
}

/** Pages anyone may open; every other page needs a verified session. */
export const PUBLIC_PATHS = ['/login', '/register', '/verify', '/reset-password', '/accept-invite'] as const;

export function isPublicPath(pathname: string): boolean {
  const path = withoutTrailingSlashes(pathname) || '/';
  return (PUBLIC_PATHS as readonly string[]).includes(path);
}

/** What the shell knows about who is signed in. Plain data so Qwik can serialise it. */
export interface SessionState {
  status: 'unknown' | 'signed-out' | 'signed-in';
  user: PublicUserDto | null;
}

export const SessionContext = createContextId<SessionState>('cms.session');

/** `/login?next=/articles` — back to where the guard found the visitor. */
export function loginHref(next?: string): string {
  return next?.startsWith('/') && !next.startsWith('//') && !next.startsWith('/login')
    ? `/login?next=${encodeURIComponent(next)}`
    : '/login';
}

const pageOrigin = () => (typeof location === 'undefined' ? 'http://localhost' : location.origin);

/**
 * Where `?next=` may send the visitor after signing in: only somewhere on
 * this origin, as its path, query and hash; otherwise the dashboard. Judged
 * by the URL parser itself, which drops tabs and newlines and reads `\\` as
 * `/` the way the browser will (so `/\t/evil.example` is another host), not
 * by looking at the first characters.
 */
export function safeNext(raw: string | null, origin: string = pageOrigin()): string {
  if (!raw) return '/';
  let url: URL;
  try {
    url = new URL(raw, `${origin}/`);
  } catch {
    return '/';
  }
  if (url.origin !== origin) return '/';
  const path = `${url.pathname}${url.search}${url.hash}`;
  // `/.//evil.example` resolves to the path `//evil.example`, which a
  // navigation would read as another host again.
  return path.startsWith('/') && !path.startsWith('//') ? path : '/';
}
