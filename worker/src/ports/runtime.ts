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

/** LOG_LEVEL: lines below it are not written. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** One JSON line per call; inside a request the line carries its `requestId`. */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, err?: unknown, fields?: Record<string, unknown>): void;
}

/** What the log lines written while a request is handled have in common. */
export interface RequestLogContext {
  requestId: string;
}

/**
 * Runs a request's work with its log context, which follows every
 * continuation (deferred work included), so lines written by services deep
 * below the HTTP layer still name their request.
 */
export interface RequestScope {
  run<T>(context: RequestLogContext, work: () => T): T;
}

/** The admin's static files: the ASSETS binding on Workers, a directory on Node. */
export interface AssetServer {
  fetch(request: Request): Promise<Response>;
}

/** A short, stable name for a text's exact bytes (an ETag's value): equal texts, equal names. */
export type ContentDigest = (text: string) => string;
