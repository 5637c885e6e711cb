/** Small runtime services the core needs, so it reaches for no globals. */
export interface Clock {
  now(): Date;
}

export interface IdGenerator {
  /** UUIDv7: sorts by creation time. */
  newId(): string;
}

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, stored: string): Promise<boolean>;
}

export interface SessionClaims {
  userId: string;
  tokenVersion: number;
}

export interface TokenSigner {
  sign(claims: SessionClaims): Promise<string>;
  /** Null for anything not a valid, unexpired token of ours with well-typed claims. */
  verify(token: string): Promise<SessionClaims | null>;
}

/** Lets work finish after the response (waitUntil on Workers). */
export type Defer = (work: Promise<unknown>) => void;

export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  error(message: string, err?: unknown): void;
}

/** The admin's static files: the ASSETS binding on Workers, a directory on Node. */
export interface AssetServer {
  fetch(request: Request): Promise<Response>;
}
