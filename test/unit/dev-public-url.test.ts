import { describe, expect, it } from 'vitest';
import { devPublicUrl } from '../../scripts/lib/dev-public-url.ts';

describe("npm run dev's PUBLIC_URL follows the address served", () => {
  it.each([
    [[], null],
    [['--port', '32500'], 'http://localhost:32500'],
    [['--port=32500'], 'http://localhost:32500'],
    [['--ip', '127.0.0.1', '--port', '9000'], 'http://127.0.0.1:9000'],
    [['--ip', '0.0.0.0', '--port', '9000'], 'http://localhost:9000'],
    [['--ip', '::1', '--port', '9000'], 'http://[::1]:9000'],
    [['--ip', '192.168.1.5'], 'http://192.168.1.5:8787'],
    [['--port', '9443', '--local-protocol', 'https'], 'https://localhost:9443'],
    [['--port', '9000', '--var', 'PUBLIC_URL:https://cms.example'], null],
  ] as const)('%j → %s', (args, expected) => {
    expect(devPublicUrl(args)).toBe(expected);
  });
});
